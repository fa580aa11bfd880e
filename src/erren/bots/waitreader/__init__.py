"""The wait reader: each kind's chance to be one of the opponent's winning tiles, from the
observation alone (guobiao-2p).  See :mod:`erren.bots.waitreader.model`."""

from __future__ import annotations

from erren.bots.waitreader.model import WaitReader, load_reader

__all__ = ["WaitReader", "load_reader"]
