"""Entry point: ``python path/to/bpe_lab_executor ARGS`` or ``python -m bpe_lab_executor ARGS``."""

import os
import sys

if __package__ in (None, ""):
    # Run as a directory: make the package importable by its name.
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bpe_lab_executor.cli import main  # noqa: E402

sys.exit(main(sys.argv[1:]))
