"""Registers the toy family for the whole process (the module ``ERREN_FAMILIES`` names)."""

from __future__ import annotations

from erren.testing.toy import register

register()
