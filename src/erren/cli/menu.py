"""The choices of a decision in ``erren play`` and ``erren arcade``: the keyed menu of the
legal actions (:func:`choices`), the typed multi-tile answers (:func:`free_choice`), the line
saying what is asked (:func:`situation`) and the question itself (:func:`ask_menu`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from erren.analysis.waits import waits
from erren.bots import Bot
from erren.bots.strategy import strategy_of
from erren.cli.console import Console
from erren.cli.familymenu import Choice, FamilyMenu
from erren.cli.table import drawn_tile, hand_order
from erren.cli.words import describe
from erren.display import Palette, wild_of
from erren.engine import Action, ActionKind, Observation, State, find_family
from erren.engine.actions import AnyActionKind
from erren.engine.phases import Phase
from erren.errors import IllegalActionError
from erren.tiles import NUM_KINDS, Tile

AK = ActionKind


__all__ = [
    "Choice",
    "ask_menu",
    "choices",
    "follow_note",
    "free_choice",
    "key_list",
    "menu_lines",
    "offer_of",
    "situation",
]

_MENUS: dict[type, FamilyMenu | None] = {}


def family_menu(obs: Observation) -> FamilyMenu | None:
    """The menu part of the family whose view ``obs`` carries (found once per view type)."""
    kind = type(obs.view)
    if kind not in _MENUS:
        _MENUS[kind] = find_family(obs.view.family).terminal_menu()
    return _MENUS[kind]


def choices(obs: Observation, legal: Sequence[Action], pal: Palette) -> list[Choice]:
    """The keyed menu of the legal actions, in the order of the spec (hu, gang, peng, chi,
    pass), discards by the tile numbers of :func:`~erren.cli.table.hand_lines`."""
    out: list[Choice] = []
    by_kind: dict[AnyActionKind, list[Action]] = {}
    for action in legal:
        by_kind.setdefault(action.kind, []).append(action)
    pending = obs.pending
    own = family_menu(obs)
    for kind in (AK.ZIMO, AK.HU):
        out += [Choice("h", describe(a, pal), a) for a in by_kind.get(kind, [])]
    if own is not None:
        out += own.choices(obs, by_kind, pal, early=True)
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
    discards = {a.tile_kind(): a for a in by_kind.get(AK.DISCARD, [])}
    tings = {a.tile_kind(): a for a in by_kind.get(AK.TING, [])}
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
    if own is not None:
        out += own.choices(obs, by_kind, pal, early=False)
    out += _unlisted(legal, out, pal)
    for action in by_kind.get(AK.PASS, []):
        out.append(Choice("x", describe(action, pal), action))
    return out


def _unlisted(legal: Sequence[Action], listed: list[Choice], pal: Palette) -> list[Choice]:
    """A line for each legal move no part of the menu listed (a family's verb without a menu
    of its own: ``m1``, ``m2``… by its words), so nothing legal is out of reach."""
    known = {c.action for c in listed}
    rest = [a for a in legal if a not in known and a.kind is not AK.PASS]
    return [Choice(f"m{i + 1}", describe(a, pal), a) for i, a in enumerate(rest)]


def free_choice(obs: Observation, answer: str) -> Action | None:
    """The action of an answer typed with tiles after its key (the family's: arcade's
    ``e 1 5 9``); ``None`` if ``answer`` is not one of them."""
    own = family_menu(obs)
    return None if own is None else own.free_choice(obs, answer)


def _waits_text(obs: Observation, discard: int, pal: Palette) -> str:
    counts = [0] * NUM_KINDS
    for t in obs.hand:
        counts[t] += 1
    counts[discard] -= 1
    held = [0] * NUM_KINDS
    for meld in obs.melds[obs.player]:
        for t in meld.tiles:
            held[t] += 1
    shapes = strategy_of(obs).shapes
    wild = wild_of(obs)
    if wild is not None:
        w = int(wild)
        k = counts[w]
        counts[w] = 0
        kinds = waits(counts, wilds=k, shapes=shapes, held=held, max_copies=4)
    else:
        kinds = waits(counts, shapes=shapes, held=held)
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


def situation(obs: Observation, pal: Palette) -> str:
    """What the human is asked to decide, in a line."""
    phase = obs.phase
    drawn = drawn_tile(obs)
    if phase is Phase.CLAIM and obs.pending is not None:
        return f"The computer discarded {pal.name(obs.pending)}. Claim it?"
    if phase is Phase.ROB and obs.pending is not None:
        return f"The computer adds {pal.name(obs.pending)} to a pung — rob the kong?"
    own = family_menu(obs)
    asked = None if own is None else own.situation(obs, pal)
    if asked is not None:
        return asked
    if phase is Phase.TURN and drawn is not None:
        return f"Your turn — you drew {pal.name(drawn)} (shown last)."
    return "Your turn — discard a tile."


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
        own = family_menu(obs)
        typed = () if own is None else own.typed
        if free is not None and choice is not None and choice.key in typed:
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
    if not obs.view.follows_discards or wild_of(obs) is None or obs.phase is not Phase.TURN:
        return None
    allowed = {a.tile_kind() for a in legal if a.kind is AK.DISCARD}
    if not allowed or allowed == {int(t) for t in obs.hand}:
        return None
    names = " or ".join(pal.name(t) for t in sorted(allowed))
    return (
        f"跟打: the computer discarded {names} and you hold exactly one — "
        f"you must discard {names} (a win or a kong stays allowed)."
    )


def offer_of(obs: Observation) -> Tile | None:
    """The kind of the pung offered to the player this turn (arcade R2.22)."""
    return obs.view.offer


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
