"""Faulty mjai bot programs (Python source to run as a script), for the tests of the external
bot driver (:mod:`erren.mjai.bot`): one that answers late once, one that answers garbage then an
illegal move, one that exits at its third question, one that never reads nor answers."""

from __future__ import annotations

__all__ = ["DEAF", "EXITS", "GARBAGE_ONCE", "LATE_ONCE"]

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

GARBAGE_ONCE = """
import json, sys
asked = 0
for line in sys.stdin:
    message = json.loads(line)
    if "erren:legal" in message:
        asked += 1
        if asked == 2:
            print("hello there", flush=True)
        elif asked == 3:
            print(json.dumps({"type": "dahai", "actor": 9, "pai": "?"}), flush=True)
        else:
            print(json.dumps(message["erren:legal"][0]), flush=True)
"""

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
