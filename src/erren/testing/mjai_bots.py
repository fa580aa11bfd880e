"""Faulty mjai bot programs (Python source to run as a script), for the tests of the external
bot driver (:mod:`erren.mjai.bot`): one that answers late once, one that answers garbage then an
illegal move, one that exits at its third question, one that never reads nor answers, one
that answers once with JSON nested 5,000 deep and once with a 200,000-character line, and one
that writes one endless line."""

from __future__ import annotations

__all__ = ["DEAF", "ENDLESS", "EXITS", "GARBAGE_ONCE", "LATE_ONCE", "OVERSIZED"]

LATE_ONCE = """
import json, sys
asked = 0
held = None
for line in sys.stdin:
    message = json.loads(line)
    if "erren:legal" in message:
        asked += 1
        if asked == 2:  # silent until the next question: its answer comes late
            held = message
            continue
        if held is not None:
            print(json.dumps(held["erren:legal"][0]), flush=True)
            held = None
        print(json.dumps(message["erren:legal"][0]), flush=True)
"""


def _odd_answers(odd: dict[int, str]) -> str:
    """A bot that answers its ``n``-th question (from 1) with the line ``odd[n]`` (a Python
    expression, evaluated in the bot) and every other with the first legal move."""
    return f"""
import json, sys
odd = {{{", ".join(f"{n}: lambda: {line}" for n, line in odd.items())}}}
asked = 0
for line in sys.stdin:
    message = json.loads(line)
    if "erren:legal" in message:
        asked += 1
        answer = odd.get(asked)
        print(answer() if answer else json.dumps(message["erren:legal"][0]), flush=True)
"""


GARBAGE_ONCE = _odd_answers(
    {2: '"hello there"', 3: 'json.dumps({"type": "dahai", "actor": 9, "pai": "?"})'}
)

EXITS = """
import json, sys
asked = 0
for line in sys.stdin:
    message = json.loads(line)
    if "erren:legal" in message:
        asked += 1
        if asked == 3:
            sys.exit(3)
        print(json.dumps(message["erren:legal"][0]), flush=True)
"""

DEAF = """
import time
time.sleep(600)
"""

OVERSIZED = _odd_answers({2: '"[" * 5000 + "]" * 5000', 3: '"x" * 200000'})

ENDLESS = """
import sys
while True:
    sys.stdout.write("x" * 65536)
    sys.stdout.flush()
"""
