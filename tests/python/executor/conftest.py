"""The executor package (crates/cli/src/course/bpe_lab_executor) imported by its name, as bpe-lab runs it."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
PACKAGE_PARENT = os.path.join(ROOT, "crates", "cli", "src", "course")
sys.path.insert(0, PACKAGE_PARENT)
