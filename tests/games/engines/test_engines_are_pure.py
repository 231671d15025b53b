"""Engines are pure rules: no Django, no network, no clock, no global randomness, no I/O."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINES_DIR = Path(__file__).resolve().parents[3] / "games" / "engines"
FORBIDDEN = {"django", "requests", "time", "datetime", "random", "os", "socket"}
# The benchmark command lives beside the engines but is a tool, not an engine: it needs a
# clock and a random move chooser.
TOOLS = {ENGINES_DIR / "bench.py"}


def engine_modules() -> list[Path]:
    return sorted(p for p in ENGINES_DIR.rglob("*.py") if p not in TOOLS)


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_there_are_engine_modules_to_check() -> None:
    assert len(engine_modules()) >= 5


@pytest.mark.parametrize("path", engine_modules(), ids=lambda p: str(p.relative_to(ENGINES_DIR)))
def test_engine_module_imports_nothing_impure(path: Path) -> None:
    assert imported_roots(path) & FORBIDDEN == set()


def test_the_guard_catches_a_forbidden_import(tmp_path: Path) -> None:
    module = tmp_path / "bad.py"
    module.write_text("from datetime import date\nimport os.path\n")
    assert imported_roots(module) & FORBIDDEN == {"datetime", "os"}
