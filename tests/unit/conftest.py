"""The unit tests mirror mlnotes: one folder per subpackage (tests/unit/<subpackage>/test_*.py).

Puts this folder on sys.path so every test module can import the shared ``assertions`` helpers.
"""
import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)
