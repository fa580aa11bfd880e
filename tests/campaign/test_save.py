"""The save file: round trip, atomic writes, where it lives, and unusable files."""

from __future__ import annotations

import json
from pathlib import Path

import platformdirs
import pytest

from erren.families.arcade.campaign import Outcome, Run, Status
from erren.families.arcade.campaign import save as saving
from erren.families.arcade.campaign.save import Save, SaveError


def _played() -> Run:
    run = Run.new(seed=5)
    run.start_hand(2)
    run.settle(Outcome.player_win(4))
    run.start_hand(3)
    return run


def test_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "folder" / "save.json"
    run = _played()
    hand = {"format": "erren-hand", "actions": ["c:dice:1,2"]}
    saving.write(path, Save(run, hand))
    back = saving.read(path)
    assert back is not None
    assert back.run == run and back.hand == hand
    assert back.run.status is Status.IN_HAND and back.run.current == run.current
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "erren-arcade-campaign" and data["version"] == 1
    assert sorted(p.name for p in path.parent.iterdir()) == ["save.json"]  # no temp files left


def test_missing_file_is_none(tmp_path: Path) -> None:
    assert saving.read(tmp_path / "nothing.json") is None


def test_overwrites_its_own_file(tmp_path: Path) -> None:
    path = tmp_path / "save.json"
    run = Run.new(seed=1)
    saving.write(path, Save(run))
    run.start_hand(1)
    run.settle(Outcome.draw())
    saving.write(path, Save(run))
    back = saving.read(path)
    assert back is not None and back.run.hands == 1


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("{not json", "is not a JSON save file"),
        (b"\xff\xfe\x00", "is not a JSON save file"),
        ('{"format": "erren-hand", "version": 1}', "is not an erren arcade save"),
        ("[1, 2]", "is not an erren arcade save"),
        ('{"format": "erren-arcade-campaign", "version": 99, "run": {}}', "save version 99"),
        ('{"format": "erren-arcade-campaign", "version": 1, "run": {}}', "damaged run"),
        (
            '{"format": "erren-arcade-campaign", "version": 1, "run": {"seed": "x"}}',
            "damaged run",
        ),
    ],
)
def test_unusable_files_are_reported_and_kept(
    tmp_path: Path, content: str | bytes, reason: str
) -> None:
    path = tmp_path / "save.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    before = path.read_bytes()
    with pytest.raises(SaveError, match=reason) as err:
        saving.read(path)
    assert str(path) in str(err.value)
    with pytest.raises(SaveError):
        saving.write(path, Save(Run.new(seed=1)))
    assert path.read_bytes() == before  # never overwritten silently
    saving.write(path, Save(Run.new(seed=1)), replace_unreadable=True)
    assert saving.read(path) is not None


def test_damaged_fields(tmp_path: Path) -> None:
    path = tmp_path / "save.json"
    data = Save(_played()).to_dict()
    data["run"]["current"] = None  # status in_hand without a hand
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SaveError, match="damaged run"):
        saving.read(path)
    data = Save(Run.new(seed=1)).to_dict()
    data["run"]["stage"] = 7
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SaveError, match="damaged run"):
        saving.read(path)


def test_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "save.json"
    path.write_text("junk", encoding="utf-8")
    first = saving.set_aside(path)
    path.write_text("junk 2", encoding="utf-8")
    second = saving.set_aside(path)
    assert (first.name, second.name) == ("save.json.unreadable", "save.json.unreadable-2")
    assert not path.exists() and second.read_text(encoding="utf-8") == "junk 2"


def test_default_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("ERREN_DATA_DIR", str(tmp_path))
    assert saving.default_path() == tmp_path / "arcade-campaign.json"
    monkeypatch.delenv("ERREN_DATA_DIR")
    expected = Path(platformdirs.user_data_dir("erren", appauthor=False))
    assert saving.default_path() == expected / "arcade-campaign.json"
