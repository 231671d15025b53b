"""The type checker's reach (docs/testing.md): `make lint` runs mypy, and mypy checks the
engines, the bots, the boards, the services and the registry strictly. mypy itself runs in
`make lint`, not here; these tests keep that reach from shrinking unnoticed."""

from __future__ import annotations

import re
import tomllib

from tests.conftest import ROOT

STRICT = ("games.engines", "games.bots", "games.boards", "games.services", "games.registry")


def _mypy() -> dict:
    with open(ROOT / "pyproject.toml", "rb") as file:
        return tomllib.load(file)["tool"]["mypy"]


def _covers(pattern: str, module: str) -> bool:
    if pattern.endswith(".*"):
        return module == pattern[:-2] or module.startswith(pattern[:-1])
    return module == pattern


def test_make_lint_runs_mypy() -> None:
    makefile = (ROOT / "Makefile").read_text()
    lint = re.search(r"^lint:.*\n((?:\t.*\n)+)", makefile, re.MULTILINE)
    assert lint is not None
    assert re.search(r"-m mypy$", lint.group(1), re.MULTILINE)


def test_the_game_packages_are_checked_and_strict() -> None:
    config = _mypy()
    files = config["files"]
    for module in STRICT:
        path = module.replace(".", "/")
        assert path in files or f"{path}.py" in files, module
        strict = [
            override
            for override in config.get("overrides", [])
            if override.get("strict") is True
            and any(_covers(pattern, module) for pattern in override["module"])
        ]
        assert strict, f"{module} is not checked strictly"
