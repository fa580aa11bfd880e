"""The choices of a decision in ``erren play`` and ``erren arcade``: the keyed menu of the
legal actions (:func:`choices`), the typed multi-tile answers (:func:`free_choice`), the line
saying what is asked (:func:`situation`) and the question itself (:func:`ask_menu`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from erren.analysis.shapes import ARCADE, GUOBIAO_2P
from erren.analysis.waits import waits
from erren.bots import Bot
from erren.cli.console import Console
from erren.cli.table import drawn_tile, hand_order
from erren.cli.words import describe
from erren.display import Palette, gold_of, wild_of
from erren.engine import Action, ActionKind, ArcadeView, Observation, State
from erren.errors import IllegalActionError, NotationError
from erren.notation import parse_tiles
from erren.tiles import NUM_KINDS, Tile

AK = ActionKind


@dataclass
class Choice:
    """One line of the menu: the key to type, what it does in words, and the action."""

    key: str
    label: str
    action: Action


def choices(obs: Observation, legal: Sequence[Action], pal: Palette) -> list[Choice]:
    """The keyed menu of the legal actions, in the order of the spec (hu, gang, peng, chi,
    pass), discards by the tile numbers of :func:`~erren.cli.table.hand_lines`."""
    out: list[Choice] = []
    by_kind: dict[ActionKind, list[Action]] = {}
    for action in legal:
        by_kind.setdefault(action.kind, []).append(action)
    pending = obs.pending
    for kind in (AK.ZIMO, AK.HU, AK.WIN, AK.SANJINDAO):
        for action in by_kind.get(kind, []):
            key = "s" if kind is AK.SANJINDAO else "h"
            out.append(Choice(key, describe(action, pal), action))
    robs = by_kind.get(AK.QIANGJIN, [])
    for i, action in enumerate(robs):
        key = "j" if len(robs) == 1 else f"j{i + 1}"
        out.append(Choice(key, describe(action, pal), action))
    for action in by_kind.get(AK.DISCARD_GOLD, []):
        out.append(Choice("d", describe(action, pal), action))
    kongs = by_kind.get(AK.MING_GANG, []) + by_kind.get(AK.AN_GANG, [])
    kongs += by_kind.get(AK.JIA_GANG, [])
    for i, action in enumerate(kongs):
        key = "g" if len(kongs) == 1 else f"g{i + 1}"
        out.append(Choice(key, describe(action, pal, pending), action))
    for action in by_kind.get(AK.PENG, []):
        out.append(Choice("p", describe(action, pal, pending), action))
    chis = by_kind.get(AK.CHI, [])
    for i, action in enumerate(chis):
        key = "c" if len(chis) == 1 else f"c{i + 1}"
        out.append(Choice(key, describe(action, pal, pending), action))
    tiles = hand_order(obs)
    discards = {int(a.tile): a for a in by_kind.get(AK.DISCARD, []) if a.tile is not None}
    tings = {int(a.tile): a for a in by_kind.get(AK.TING, []) if a.tile is not None}
    if obs.ting[obs.player] and discards:  # 报听 with a win offered: the drawn tile goes
        only = next(iter(discards.values()))
        out.append(Choice("x", f"pass — {describe(only, pal)}", only))
        return out
    listed_ting: set[int] = set()
    for i, t in enumerate(tiles):
        if int(t) in discards:
            out.append(Choice(str(i + 1), describe(discards[int(t)], pal), discards[int(t)]))
        if int(t) in tings:
            label = describe(tings[int(t)], pal)
            if int(t) not in listed_ting:
                label += f" — waiting on {_waits_text(obs, int(t), pal)}"
                listed_ting.add(int(t))
            out.append(Choice(f"t{i + 1}", label, tings[int(t)]))
    gives = by_kind.get(AK.GIVE, []) if obs.phase == "turn" else []
    for action in gives[:1]:  # the pung offer: its three tiles are typed at once
        out.append(
            Choice(
                "u",
                f"换牌 take the offered pung of {pal.name(offer_of(obs) or 0)}: "
                "u + three tile numbers, e.g. u 1 2 3",
                action,
            )
        )
    exchanges = by_kind.get(AK.EXCHANGE, [])
    if exchanges:
        out.append(
            Choice("e", "exchange: e + tile numbers, e.g. e 1 5 9 (Enter: none)", exchanges[0])
        )
        out.append(Choice("x", "no exchange", exchanges[0]))
    picks = by_kind.get(AK.PICK, [])
    if picks:
        out.append(
            Choice("k", "搓牌 pick any kind: k + tile, e.g. k 5m (Enter: draw blind)", picks[0])
        )
    for action in by_kind.get(AK.PASS, []):
        out.append(Choice("x", describe(action, pal), action))
    return out


def free_choice(obs: Observation, answer: str) -> Action | None:
    """Arcade's multi-tile answers: ``e 1 5 9`` (exchange), ``u 1 2 3`` (take the pung),
    ``k 5m`` (pick); ``None`` if ``answer`` is not one of them or names no held tiles.  The
    exchange and the pung are the composite forms, applied as their ``give`` steps."""
    parts = answer.replace(",", " ").split()
    if not parts or parts[0] not in ("e", "u", "k") or len(parts) < 2:
        return None
    if parts[0] == "k":
        try:
            tiles = parse_tiles(parts[1])
        except NotationError:
            return None
        return Action.make(AK.PICK, obs.player, int(tiles[0])) if len(tiles) == 1 else None
    order = hand_order(obs)
    picked: list[int] = []
    for word in parts[1:]:
        if not word.isdigit() or not 1 <= int(word) <= len(order):
            return None
        picked.append(int(order[int(word) - 1]))
    if len(set(parts[1:])) != len(parts) - 1:
        return None
    if parts[0] == "u":
        return Action.tiles_action(AK.TAKE_PUNG, obs.player, picked) if len(picked) == 3 else None
    return Action.tiles_action(AK.EXCHANGE, obs.player, picked)


def _waits_text(obs: Observation, discard: int, pal: Palette) -> str:
    counts = [0] * NUM_KINDS
    for t in obs.hand:
        counts[t] += 1
    counts[discard] -= 1
    held = [0] * NUM_KINDS
    for meld in obs.melds[obs.player]:
        for t in meld.tiles:
            held[t] += 1
    wild = wild_of(obs)
    if wild is not None:
        w = int(wild)
        k = counts[w]
        counts[w] = 0
        kinds = waits(counts, wilds=k, shapes=ARCADE, held=held, max_copies=4)
    else:
        kinds = waits(counts, shapes=GUOBIAO_2P, held=held)
    return " ".join(pal.name(k) for k in kinds) or "?"


def menu_lines(menu: Sequence[Choice]) -> list[str]:
    """The menu: discards summarised in one line, every other choice on its own line."""
    lines: list[str] = []
    numbers = [c.key for c in menu if c.key.isdigit()]
    if numbers:
        lines.append(f"  {numbers[0]}-{numbers[-1]}  discard that tile (numbers under your hand)")
    for c in menu:
        if c.key.isdigit():
            continue
        if c.key.startswith("t") and " — waiting on " not in c.label:
            continue  # the same 报听 discard again (a second copy of the tile)
        lines.append(f"  {c.key:<4} {c.label}")
    return lines


_PROMPTS = {
    "opening": "Opening window — declare a gold win now, or pass (Enter).",
    "exchange": "Opening exchange — give up any tiles for tiles from the reserve?",
    "pick": "搓牌 — you may name the kind of this draw!",
    "last_draw": "三游 test: your single draw completes your hand — win (h)?",
}
"""What a phase asks of the human, where no tile is named."""


def situation(obs: Observation, pal: Palette) -> str:
    """What the human is asked to decide, in a line."""
    phase = obs.phase
    drawn = drawn_tile(obs)
    if phase == "claim" and obs.pending is not None:
        return f"The computer discarded {pal.name(obs.pending)}. Claim it?"
    if phase == "rob" and obs.pending is not None:
        return f"The computer adds {pal.name(obs.pending)} to a pung — rob the kong?"
    if phase == "you_choice" and drawn is not None:
        return f"You drew a gold ({pal.name(drawn)}): win now, or discard it?"
    if phase == "haidi" and drawn is not None:
        return f"海底捞月 — you drew {pal.name(drawn)}: it completes your hand!"
    if phase in _PROMPTS:
        return _PROMPTS[phase]
    if phase == "turn" and drawn is not None:
        return f"Your turn — you drew {pal.name(drawn)} (shown last)."
    return "Your turn — discard a tile."


_TYPED = ("e", "u", "k")
"""Menu keys whose action needs tiles typed after the key (see :func:`free_choice`)."""


def ask_menu(
    io: Console,
    pal: Palette,
    state: State,
    obs: Observation,
    menu: Sequence[Choice],
    *,
    adviser: Bot,
    help_lines: Sequence[str],
    keys_hint: str,
    free: Callable[[str], Action | None] | None = None,
) -> None:
    """Show the menu, ask until the answer is a choice (or ``free`` reads a legal action from
    it) and apply it; ``a`` asks ``adviser``, ``?`` shows ``help_lines``, an unknown answer
    is told ``keys_hint``."""
    for line in menu_lines(menu):
        io.say(line)
    keys = {c.key: c for c in menu}
    passing = keys.get("x")
    hint = "Enter = pass, " if passing is not None else ""
    prompt = f"Your choice ({hint}a = advice, ? = help, q = quit): "
    while True:
        answer = io.ask(prompt).lower()
        if answer == "" and passing is not None:
            state.apply(passing.action)
            return
        if answer in ("?", "help"):
            for line in help_lines:
                io.say(line)
            continue
        if answer in ("a", "advice"):
            advice = adviser.choose(obs, obs.legal_actions)
            key = next((c.key for c in menu if c.action == advice), "")
            io.say(
                f"Advice: {describe(advice, pal, obs.pending)}" + (f" (key {key})" if key else "")
            )
            continue
        action = free(answer) if free is not None else None
        if action is not None:
            try:
                for step in state.ruleset.steps_of(state, action):  # e 1 5 9: one give each
                    state.apply(step)
            except IllegalActionError as error:
                io.say(f"Not allowed: {error}")
                continue
            return
        choice = keys.get(answer)
        if free is not None and choice is not None and choice.key in _TYPED:
            io.say("Add the tiles, e.g. e 1 5 9 / u 1 2 3 / k 5m")
            continue
        if choice is None:
            said = f"'{answer}' is not one of the choices" if answer else "Nothing typed"
            io.say(f"{said} — {keys_hint}")
            continue
        state.apply(choice.action)
        return


def follow_note(obs: Observation, legal: Sequence[Action], pal: Palette) -> str | None:
    """xiamen R-2.5: why only some tiles may be discarded (跟打)."""
    if gold_of(obs) is None or obs.phase != "turn":
        return None
    allowed = {int(a.tile) for a in legal if a.kind is AK.DISCARD and a.tile is not None}
    if not allowed or allowed == {int(t) for t in obs.hand}:
        return None
    names = " or ".join(pal.name(t) for t in sorted(allowed))
    return (
        f"跟打: the computer discarded {names} and you hold exactly one — "
        f"you must discard {names} (a win or a kong stays allowed)."
    )


def offer_of(obs: Observation) -> Tile | None:
    """The kind of the pung offered to the player this turn (arcade R2.22)."""
    return obs.view.offer if isinstance(obs.view, ArcadeView) else None


def key_list(menu: Sequence[Choice]) -> str:
    """The keys of ``menu`` in short, for the answer to a key that is not there."""
    numbers = [c.key for c in menu if c.key.isdigit()]
    others = [c.key for c in menu if not c.key.isdigit() and not c.key.startswith("t")]
    tings = [c.key for c in menu if c.key.startswith("t")]
    parts = []
    if numbers:
        parts.append(f"{numbers[0]}-{numbers[-1]}")
    if tings:
        parts.append("t+number")
    parts += others
    return ", ".join(parts) + ", a, ?, q"
