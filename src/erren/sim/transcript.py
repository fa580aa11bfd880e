"""Playthrough transcripts: every player's observation at every step, as plain text.

A transcript is the saved, diffable picture of a seeded game (OpenSpiel's playthroughs): the
ruleset, then for every action the action and what each seat may see afterwards — the events
it receives and its :class:`~erren.engine.Observation`.  ``tests/engine/test_transcripts.py``
replays a few seeded games and diffs them against the saved files, so any change in the rules,
the observations or the event visibility shows up as a readable diff.
"""

from __future__ import annotations

from collections.abc import Sequence

from erren.bots.base import Bot
from erren.engine import Action, Family, Observation, State
from erren.notation import format_tiles
from erren.tiles import Tile

__all__ = ["render_observation", "transcript"]


def _tiles(tiles: Sequence[Tile]) -> str:
    return format_tiles(tiles) if tiles else "-"


def render_observation(obs: Observation) -> list[str]:
    """The observation as lines of text (stable field order, tiles in the shared notation)."""
    me, other = obs.player, 1 - obs.player
    to_act = "-" if obs.to_act is None else str(obs.to_act)
    head = (
        f"phase={obs.phase} to_act={to_act} origin={obs.origin or '-'} "
        f"pending={obs.pending or '-'} wall={obs.wall_count} dealer={obs.dealer}"
    )
    lines = [head, f"hand={_tiles(obs.hand)} drawn={obs.last_drawn or '-'}"]
    extra = obs.view.transcript_line()  # arcade: the wild, the flower kind, the reserve...
    if extra is not None:
        lines.append(extra)
    for seat in (me, other):
        melds = " ".join(str(m) for m in obs.melds[seat]) or "-"
        if obs.hidden_kongs[seat]:
            melds += f" +{obs.hidden_kongs[seat]} face-down kong(s)"
        pool = " ".join(
            str(t) + ("*" if i in obs.claimed[seat] else "")
            for i, t in enumerate(obs.discards[seat])
        )
        flags = []
        if obs.ting[seat]:
            flags.append("ting")
        if obs.trustee[seat]:
            flags.append("trustee")
        flowers = f" flowers={_tiles(obs.flowers[seat])}" if obs.flowers[seat] else ""
        lines.append(
            f"seat{seat}: concealed={obs.concealed_count[seat]} melds={melds} "
            f"pool={pool or '-'}{flowers}" + (f" [{','.join(flags)}]" if flags else "")
        )
    if obs.legal_actions:
        lines.append("legal=" + " ".join(str(a) for a in obs.legal_actions))
    if obs.timer is not None:
        lines.append(f"timer={obs.timer.kind} {obs.timer.seconds}s")
    if obs.result is not None:
        lines.append(f"result={obs.result}")
    return lines


def transcript(
    ruleset: Family, bots: Sequence[Bot], *, seed: int, dealer: int = 0, title: str = ""
) -> str:
    """Play a seeded hand with ``bots`` and render every step for both seats."""
    state = State.new(ruleset, seed=seed, dealer=dealer)
    out = [
        f"# {title or 'transcript'}",
        f"# {ruleset!r} seed={seed} dealer={dealer} bots={bots[0].name},{bots[1].name}",
    ]
    seen = [0, 0]

    def step(label: str) -> None:
        out.append("")
        out.append(f"== {label}")
        for viewer in (0, 1):
            events = state.events_since(viewer, seen[viewer])
            seen[viewer] = state.event_count
            out.append(f"-- seat {viewer}")
            out.extend(f"   event {e}" for e in events)
            out.extend(f"   {line}" for line in render_observation(state.observe(viewer)))

    step(f"step 0: setup {' '.join(_chance(a) for a in state.history)}")
    n = 0
    while not state.is_terminal:
        seat = state.actor
        action = bots[seat].choose(state.observe(seat), state.legal_actions())
        state.apply(action)
        n += 1
        step(f"step {n}: {action}")
    out.append("")
    return "\n".join(out)


def _chance(action: Action) -> str:
    text = str(action)
    return text if len(text) <= 40 else text[:37] + "..."
