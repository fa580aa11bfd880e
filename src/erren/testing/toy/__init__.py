"""``toy``: a tiny fourth family as its own package, written only against the public plug-in
contract (:mod:`erren.testing.toy.game`: one suit, no chows, the dealer's call with its own verb,
event kind and phase).  :func:`register` makes it known and :func:`unregister` forgets it (the
engine tests register it for one test); importing :mod:`erren.testing.toy.plugin` registers it
for a whole process, as ``ERREN_FAMILIES=erren.testing.toy.plugin`` does (``erren play --rules
toy``).  Nothing outside this package was edited for it."""

from __future__ import annotations

from erren.engine.actions import register_verbs, unregister_verbs
from erren.engine.events import (
    register_event_values,
    register_events,
    unregister_event_values,
    unregister_events,
)
from erren.engine.registry import register_family, unregister_family
from erren.engine.views import register_view, unregister_view
from erren.testing.toy.game import EVENTS, TOY, VALUES, VERBS, ToyEvent, ToyFamily, ToyVerb, ToyView

__all__ = ["register", "unregister"]


def register() -> None:
    """Make the toy family known (its verbs, events and values of shared events, view and
    factory)."""
    register_verbs(ToyVerb, VERBS)
    register_events(ToyEvent, EVENTS)
    for (kind, key), values in VALUES.items():
        register_event_values(kind, key, values)
    register_view(ToyView)
    register_family(TOY, ToyFamily)


def unregister() -> None:
    """Forget the toy family."""
    unregister_family(TOY)
    unregister_view(TOY)
    for (kind, key), values in VALUES.items():
        unregister_event_values(kind, key, values)
    unregister_events(ToyEvent)
    unregister_verbs(ToyVerb)
