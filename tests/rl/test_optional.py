"""``erren[rl]`` is optional: the rest of erren never imports NumPy, PettingZoo or Gymnasium."""

from __future__ import annotations

import subprocess
import sys

CHECK = """
import sys
import erren.analysis, erren.bots, erren.families.arcade.campaign, erren.cli.main
import erren.engine, erren.scoring
import erren.sim, erren.testing
print(",".join(m for m in ("numpy", "pettingzoo", "gymnasium", "erren.rl") if m in sys.modules))
"""


def test_the_rest_of_erren_imports_no_rl_dependency() -> None:
    done = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == ""
