"""The web client's typedefs (``web/js/schema.js``) are generated from the engine's definitions
and checked in: they must be what the generator writes today, and the client's words must
cover every event kind."""

from __future__ import annotations

import re

from erren.engine import EventKind
from erren.engine.events import event_kinds
from erren.server.jsdoc import OUTPUT, generate, main

I18N = OUTPUT.with_name("i18n.js")


def test_the_generated_schema_is_up_to_date() -> None:
    assert OUTPUT.read_text(encoding="utf-8") == generate(), (
        "web/js/schema.js is out of date: run python -m erren.server.jsdoc"
    )
    assert main(["--check"]) == 0


def test_the_schema_names_every_kind_and_view() -> None:
    text = generate()
    for kind in event_kinds():  # the shared kinds and every built-in family's
        assert f'kind: "{kind.value}"' in text, kind
    for name in ("GuobiaoView", "XiamenView", "ArcadeView", "FamilyView", "Observation"):
        assert f"}} {name} */" in text or f"}}}} {name}\n" in text, name
    assert 'family: "arcade"' in text and "view: FamilyView" in text
    assert "legal: string[]" in text and "last_n: number" in text


def test_the_web_client_words_every_event_kind_in_both_languages() -> None:
    """``events.js`` renders ``e_<kind>`` (the kongs share ``e_gang``): each must exist with a
    Chinese and an English text."""
    source = I18N.read_text(encoding="utf-8")
    rows = dict(re.findall(r'^\s*(e_\w+): \["([^"]+)", "[^"]+"\]', source, re.MULTILINE))
    for kind in EventKind:
        gang = kind in (EventKind.MING_GANG, EventKind.AN_GANG, EventKind.JIA_GANG)
        key = "e_gang" if gang else "e_" + kind.value.replace("-", "_")
        assert key in rows, key
