"""`import tiktoken` answered by bpe_lab: put this folder first on PYTHONPATH and tiktoken's own
test suite runs against bpe_lab in tiktoken's place (scripts/lib/python-package.sh,
`tiktoken_suite`). Not a module for users: bpe_lab's API is tiktoken's already."""

import sys

import bpe_lab

sys.modules[__name__] = bpe_lab
