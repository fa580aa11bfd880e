"""Saving a run between sessions: one versioned JSON file, written atomically.

The file lives in the user's data folder (``platformdirs.user_data_dir("erren")``), or in
``$ERREN_DATA_DIR`` when that is set, as ``arcade-campaign.json``; ``erren arcade --save FILE``
names another file.  Its content::

    {"format": "erren-arcade-campaign", "version": 1,
     "run": {...Run.to_dict()...},
     "hand": {...Record.to_dict() of the hand in play...} or null}

``hand`` holds the hand being played (ruleset, options, seed and the actions so far), so a
session that stops in the middle of a hand resumes at the same point by replaying it.

:func:`write` replaces the file atomically (a temporary file in the same folder, flushed and
synced, then ``os.replace``), so a crash leaves either the old save or the new one.
:func:`read` raises :class:`SaveError` for a file that is not JSON, is another program's, has a
newer version or does not hold a valid run; such a file is never overwritten by :func:`write`
unless the caller says so (``replace_unreadable=True``).
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from erren.errors import ErrenError
from erren.families.arcade.campaign.run import Run

__all__ = [
    "ENV_DIR",
    "FILE_NAME",
    "FORMAT",
    "VERSION",
    "Save",
    "SaveError",
    "default_path",
    "read",
    "set_aside",
    "write",
]

FORMAT = "erren-arcade-campaign"
VERSION = 1
FILE_NAME = "arcade-campaign.json"
ENV_DIR = "ERREN_DATA_DIR"
"""An environment variable naming the data folder (overrides the platform's)."""


class SaveError(ErrenError):
    """A save file that cannot be used; the message names the file and the reason."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: {reason}")


@dataclass(frozen=True, slots=True)
class Save:
    """What a save file holds: the run, and the record of the hand in play (if any)."""

    run: Run
    hand: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "run": self.run.to_dict(), "hand": self.hand}


def default_path() -> Path:
    """``$ERREN_DATA_DIR/arcade-campaign.json``, else the platform's user data folder."""
    folder = os.environ.get(ENV_DIR)
    if folder:
        return Path(folder).expanduser() / FILE_NAME
    import platformdirs  # noqa: PLC0415 - needed only by the terminal command

    return Path(platformdirs.user_data_dir("erren", appauthor=False)) / FILE_NAME


def read(path: Path) -> Save | None:
    """The save at ``path``; ``None`` when there is no file.  Raises :class:`SaveError` when
    the file exists but cannot be used."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as err:
        raise SaveError(path, f"cannot be read ({err.strerror or err})") from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise SaveError(path, f"is not a JSON save file ({err})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise SaveError(
            path, f"is not an erren arcade save (format {found!r}, expected {FORMAT!r})"
        )
    version = data.get("version")
    if version != VERSION:
        raise SaveError(
            path,
            f"has save version {version!r}; this erren reads version {VERSION} "
            "(a newer erren wrote it?)",
        )
    try:
        run = Run.from_dict(data["run"])
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise SaveError(path, f"holds a damaged run ({type(err).__name__}: {err})") from None
    hand = data.get("hand")
    if hand is not None and not isinstance(hand, dict):
        raise SaveError(path, "holds a damaged hand record (not an object)")
    return Save(run, hand)


def write(path: Path, save: Save, *, replace_unreadable: bool = False) -> None:
    """Write ``save`` to ``path`` atomically, creating the folder.  An existing file that
    :func:`read` cannot use is kept and :class:`SaveError` raised, unless
    ``replace_unreadable``."""
    if not replace_unreadable and path.exists():
        read(path)  # raises SaveError for a file that is not ours: never overwrite it silently
    text = json.dumps(save.to_dict(), ensure_ascii=False, indent=1) + "\n"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as err:
        raise SaveError(path, f"cannot be written ({err.strerror or err})") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except OSError as err:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise SaveError(path, f"cannot be written ({err.strerror or err})") from None


def set_aside(path: Path) -> Path:
    """Rename an unusable save out of the way (``NAME.unreadable``, ``NAME.unreadable-2``,
    ...) and return the new path."""
    target = path.with_name(path.name + ".unreadable")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.unreadable-{n}")
    os.replace(path, target)
    return target
