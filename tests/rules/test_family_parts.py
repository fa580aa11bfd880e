"""A family's rules page and terminal scorer are its own: a family registered from outside the
shared code gets a rules page, a place in the families' order and an ``erren score --rules``
of its own, without a line of :mod:`erren.rules` or :mod:`erren.cli.score` naming it."""

from __future__ import annotations

import argparse
from collections.abc import Iterator

import pytest

from erren.cli import score
from erren.cli.scorer import TerminalScorer
from erren.engine.family import Family
from erren.engine.registry import register_family, unregister_family
from erren.engine.state import HandResult, State, WinClaim
from erren.rules import book, rules_json
from erren.rules.page import FamilyRules
from erren.rules.prose import Para, Section
from erren.rules.rows import RuleRow
from erren.scoring.detail import ScoreUnit

_ROW = RuleRow("T-1", "对对", "All pungs", 3, "每个计", "per occurrence")
_PAGE = FamilyRules(
    sections=(Section("tiles", "用牌", "Tiles", (Para("十张", "Ten tiles.", "toy §1"),)),),
    rows=lambda table: (_ROW,),
    unit=ScoreUnit.POINT,
)


def _add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument_group("toy (--rules toy)").add_argument("--toy-bonus", type=int, default=0)


def _run(args: argparse.Namespace) -> int:
    print(f"toy {args.hand} bonus {args.toy_bonus} stake {args.stake}")
    return 0


class _Toy(Family):
    name = "toy"  # listed after the built-in families (Family.listing_order's default)

    def score_win(self, state: State, claim: WinClaim) -> HandResult:
        raise NotImplementedError

    def rules_page(self) -> FamilyRules:
        return _PAGE

    def terminal_scorer(self) -> TerminalScorer:
        return TerminalScorer(_add_options, _run, shared={"stake": "toy beans"})


@pytest.fixture
def toy() -> Iterator[None]:
    register_family("toy", _Toy)
    try:
        yield
    finally:
        unregister_family("toy")


def _score(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    score.add_arguments(parser)
    return parser.parse_args(list(argv))


def test_a_registered_family_has_its_rules_page(toy: None) -> None:
    page = rules_json("toy")
    assert page["sections"][0]["paras"][0] == {"zh": "十张", "en": "Ten tiles.", "ref": "toy §1"}
    assert [(r["id"], r["value"], r["example"]) for r in page["rows"]] == [("T-1", 3, None)]
    assert page["unit"] == {"zh": ScoreUnit.POINT.zh, "en": ScoreUnit.POINT.en}
    assert (page["tables"], page["win_types"]) == ([], [])
    with pytest.raises(ValueError, match=r"expected guobiao-2p, xiamen, arcade or toy\)"):
        book("nope")


def test_a_registered_family_scores_in_the_terminal(
    toy: None, capsys: pytest.CaptureFixture[str]
) -> None:
    args = _score("1m", "--rules", "toy", "--toy-bonus", "2", "--stake", "5")
    assert score.run(args) == 0
    assert capsys.readouterr().out == "toy 1m bonus 2 stake 5\n"
    help_text = _score_help()
    assert "rule family (default guobiao-2p); xiamen, arcade and toy take" in help_text
    assert "payout line; toy: toy beans (default 1)" in help_text


def test_the_default_family_refuses_the_new_familys_options(
    toy: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert score.run(_score("123m456m789m1z [555z'] +1z", "--toy-bonus", "1")) == 2
    assert "--toy-bonus: not a guobiao-2p option (see --rules)" in capsys.readouterr().err


def _score_help() -> str:
    parser = argparse.ArgumentParser(prog="erren score")
    score.add_arguments(parser)
    return " ".join(parser.format_help().split())
