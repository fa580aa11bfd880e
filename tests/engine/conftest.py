"""Fixtures of the engine's tests: the toy fourth family (:mod:`erren.testing.toy`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from erren.testing import toy
from erren.testing.toy.game import TOY


@pytest.fixture
def toy_family() -> Iterator[str]:
    """Register the toy family for one test; its name."""
    toy.register()
    try:
        yield TOY
    finally:
        toy.unregister()
