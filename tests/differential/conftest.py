"""Make the repository root importable, so the tests share ``benchmarks.hands`` with the benchmarks.

(``python -m pytest`` from the root has it already; the ``pytest`` script does not.)
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
