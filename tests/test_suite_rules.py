"""The test suite's own rules: tests never import another test module or the benchmarks, and the
benchmarks never import the tests.

What several test files share is a fixture (a ``conftest.py``), the support code of their own
directory (a ``_support`` module or package, which pytest never collects), or the library's
:mod:`erren.testing`, which the benchmarks use too.  Checked on the source with :mod:`ast`.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
BENCHMARKS = ROOT / "benchmarks"

TEST_TREE_NAMES = frozenset(
    {"tests", "benchmarks", "conftest"}
    | {p.stem for p in TESTS.iterdir() if p.is_dir() or p.suffix == ".py"}
)
"""Top-level names that would resolve to a file of the test tree (pytest puts ``tests/`` on
``sys.path``): ``engine``, ``server``, ``strategies``, …, and the two folders themselves."""


def _sources(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.py"))


def _imports(source: str) -> list[tuple[int, str, tuple[str, ...]]]:
    """(level, module, imported names) of every import statement of ``source``."""
    found: list[tuple[int, str, tuple[str, ...]]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend((0, alias.name, ()) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.append((node.level, node.module or "", tuple(a.name for a in node.names)))
    return found


def _problems(source: str, location: Path) -> list[str]:
    """What is wrong with the imports of ``source``, a file of the test tree at ``location``."""
    in_support = any(part.startswith("_support") for part in location.relative_to(TESTS).parts)
    problems: list[str] = []
    for level, module, names in _imports(source):
        where = f"{location.relative_to(ROOT)}: {'.' * level}{module} {list(names)}"
        parts = [p for p in module.split(".") if p] + ([] if module else list(names))
        if level == 0:
            if parts[0] in TEST_TREE_NAMES:
                problems.append(f"{where}: imports the test tree or the benchmarks")
        elif level > 1:
            problems.append(f"{where}: reaches into another test directory")
        elif any(p.startswith("test_") or p == "conftest" for p in parts):
            problems.append(f"{where}: imports a test module")
        elif not in_support and parts[0] != "_support":
            problems.append(f"{where}: shared test code belongs in _support or erren.testing")
    return problems


def test_tests_import_no_test_module_and_no_benchmark() -> None:
    problems = [
        problem
        for path in _sources(TESTS)
        for problem in _problems(path.read_text(encoding="utf-8"), path)
    ]
    assert problems == []


@pytest.mark.parametrize("folder", [BENCHMARKS, ROOT / "src"], ids=["benchmarks", "src"])
def test_benchmarks_and_the_library_import_no_test(folder: Path) -> None:
    problems = [
        f"{path.relative_to(ROOT)}: {module}"
        for path in _sources(folder)
        for level, module, _ in _imports(path.read_text(encoding="utf-8"))
        if level == 0 and module.split(".")[0] == "tests"
    ]
    assert problems == []


def test_the_rule_catches_what_it_forbids() -> None:
    """The checker itself, on a made-up test file with each kind of import."""
    source = (
        "from benchmarks.hands import deal_batch\n"
        "import engine.test_guobiao\n"
        "from .test_guobiao import start\n"
        "from ..server._support.harness import Server\n"
        "from .helpers import act\n"
        "from ._support import act, start\n"
        "from . import _support\n"
        "from erren.testing.hands import deal_batch\n"
    )
    problems = _problems(source, TESTS / "engine" / "test_made_up.py")
    assert [p.rsplit(": ", 1)[1] for p in problems] == [
        "imports the test tree or the benchmarks",
        "imports the test tree or the benchmarks",
        "imports a test module",
        "reaches into another test directory",
        "shared test code belongs in _support or erren.testing",
    ]
    assert _problems("from .leaks import Audit\n", TESTS / "server" / "_support" / "x.py") == []
