"""What one player sees of a family's own data: one frozen dataclass per family.

An :class:`~erren.engine.Observation` is the common core (hands, melds, discards, the turn...)
plus ``view: FamilyView``, built by the family's :meth:`~erren.engine.Family.view`: a frozen
dataclass of the family's package (``XiamenView``, ``ArcadeView``), registered with
:func:`register_view`, or :class:`PlainView` for a family with no facts of its own.  Shared code
asks the view what every view answers (:class:`ViewFacts`: the wild kind, a seat's mark, the
terminal's line) and never which family it is; a family's own code (its bot strategy) matches
on its own view's type (``case ArcadeView(wild=w)``).  ``family`` names the view's family on
the wire (the JSON's ``view.family``, the web client's discriminant).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, TypeAlias, TypeVar

from erren.tiles import Tile

__all__ = [
    "FamilyView",
    "PlainView",
    "ViewFacts",
    "register_view",
    "unregister_view",
    "view_class",
    "view_classes",
]


class ViewFacts:
    """What every view answers, so that a shared reader (the bots, the terminal, the mjai
    stream) asks the view rather than which family it is: each family's view overrides what it
    has; the defaults are those of a family without wilds, marks or offers (guobiao-2p)."""

    __slots__ = ()

    family: str
    """The family's id on the wire (the JSON's ``view.family``): a field of every view."""
    wild_mark: ClassVar[str] = ""
    """The character the terminal puts before a wild tile of the hand (金, 财)."""
    follows_discards: ClassVar[bool] = False
    """Whether a turn whose discards are restricted is the family's 跟打 (xiamen R-2.5)."""
    own_fields: ClassVar[frozenset[str]] = frozenset()
    """The view's fields that are the viewer's own, never public (arcade's pung offer, the
    tiles he is giving): :func:`erren.engine.public.public_observation` resets them to their
    defaults for a spectator."""

    @property
    def wild(self) -> Tile | None:
        """The kind whose tiles are wild this hand (xiamen's gold, arcade's 财神), ``None``
        without (or before the indicator is turned)."""
        return None

    @property
    def offer(self) -> Tile | None:
        """The kind of a pung offered to this player this turn (arcade's 换牌, R2.22)."""
        return None

    @property
    def shows_streak(self) -> bool:
        """Whether the dealer's seat shows the 连庄数 (xiamen's 底 depends on it)."""
        return False

    def seat_tag(self, seat: int) -> str | None:
        """A mark of ``seat`` beside its name (xiamen: its 游 level), ``None`` for none."""
        return None

    def played_as(self, kind: Tile) -> Tile:
        """The physical tile a meld uses for the functional ``kind`` (xiamen: a White plays as
        the gold kind); ``kind`` itself by default."""
        return kind

    def note(self, name: Callable[[int], str]) -> str | None:
        """One line about the family's public facts for the terminal (the gold, the 财神),
        tiles written by ``name``; ``None`` when there is nothing to say."""
        return None

    def transcript_line(self) -> str | None:
        """The family's facts in a playthrough transcript (:mod:`erren.sim.transcript`: a
        stable text, tiles in the shared notation), ``None`` for none."""
        return None


@dataclass(frozen=True, slots=True)
class PlainView(ViewFacts):
    """The view of a family with no facts beyond the common core: only its name."""

    family: str = ""


FamilyView: TypeAlias = ViewFacts
"""The family part of an observation: a registered family view (every view answers
:class:`ViewFacts`; a family's own code matches on its own view's type)."""

_V = TypeVar("_V", bound=type[ViewFacts])
_VIEWS: dict[str, type[ViewFacts]] = {}


def register_view(cls: _V) -> _V:
    """Make a family's view class known to the codec and the generated JSDoc (a class
    decorator): keyed by its ``family`` field's default, the family's id on the wire."""
    family = getattr(cls, "__dataclass_fields__", {}).get("family")
    if family is None or not isinstance(family.default, str) or not family.default:
        raise ValueError(f"{cls.__name__} needs a field family = '<the family id>'")
    _VIEWS[family.default] = cls
    return cls


def unregister_view(family: str) -> None:
    """Forget the view of ``family`` (a plug-in registered for a while, as the tests do)."""
    _VIEWS.pop(family, None)


def view_classes() -> tuple[type[ViewFacts], ...]:
    """Every registered view class by its family's id (a stable order, whichever family was
    imported first), then :class:`PlainView`."""
    _load()
    return (*(_VIEWS[family] for family in sorted(_VIEWS)), PlainView)


def view_class(family: str) -> type[ViewFacts]:
    """The view class of ``family`` on the wire (:class:`PlainView` for a family without one)."""
    found = _VIEWS.get(family)
    if found is None:
        _load()
        found = _VIEWS.get(family, PlainView)
    return found


def _load() -> None:
    from erren.engine.registry import load_families  # noqa: PLC0415 - the registry imports this

    load_families()
