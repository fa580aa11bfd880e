"""The text render of :mod:`erren.rl`: the table as a spectator sees it, both hands open.

Each seat is drawn from its own :class:`~erren.engine.Observation` with the terminal helpers of
``erren play`` (:mod:`erren.display`), in the shared notation (``5m``, ``7z``) and without
colour, so that the text is the same in a log file and on a terminal.
"""

from __future__ import annotations

from erren.display import Palette, seat_lines, view_line
from erren.engine import Action, State, observe

__all__ = ["render_text"]


def render_text(state: State, rules: str, last: Action | None) -> str:
    """Both seats, the wall, whose turn it is, the last move and, at the end, the result."""
    pal = Palette(ascii=True)
    views = (observe(state, 0), observe(state, 1))
    first = views[0]
    to_act = "-" if first.to_act is None else f"player_{first.to_act}"
    lines = [
        f"{rules} · phase {first.phase} · wall {first.wall_count} · to act {to_act}"
        + (f" · last {last}" if last is not None else "")
    ]
    extra = view_line(first, pal)
    if extra is not None:
        lines.append(extra)
    if first.pending is not None:
        lines.append(f"pending {pal.name(first.pending)}")
    for seat, obs in enumerate(views):
        lines += seat_lines(obs, seat, pal, f"player_{seat}", hand=obs.hand)
    if state.result is not None:
        lines.append(f"result: {state.result}")
    return "\n".join(lines)


def render_as(mode: str | None, state: State, rules: str, last: Action | None) -> str | None:
    """PettingZoo's and Gymnasium's ``render()``: the table in text, returned (``ansi``),
    printed (``human``), or nothing (no render mode)."""
    if mode is None:
        return None
    text = render_text(state, rules, last)
    if mode == "ansi":
        return text
    print(text)
    return None
