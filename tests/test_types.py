"""The type checker's reach (docs/testing.md): `make lint` runs mypy over the whole site,
and checks the engines, the bots, the boards, the services, the registry and the tools that
drive the engines and bots strictly. mypy itself runs in `make lint`, not here; these tests
read its configuration as mypy reads it, so that no module leaves checking unnoticed, nor a
module of those packages strict checking (left out of `files`, excluded, or given one strict
flag less by an override)."""

from __future__ import annotations

import re

from mypy.config_parser import parse_config_file
from mypy.main import define_options
from mypy.options import PER_MODULE_OPTIONS, Options

from tests.conftest import ROOT

SITE = ("accounts", "config", "games", "infra", "rulebooks", "tools")
STRICT = (
    "games/engines",
    "games/bots",
    "games/boards",
    "games/services",
    "games/registry.py",
    # The tools that drive the engines and the bots.
    "tools/arena.py",
    "tools/engine_bench.py",
    "tools/review_bench.py",
)

# What `mypy --strict` sets, as the installed mypy says: (option, value) pairs.
STRICT_FLAGS: list[tuple[str, object]] = define_options()[2]


def _options() -> Options:
    options = Options()

    def set_strict_flags() -> None:
        # As mypy's command line does for `strict = true`, wherever it is written.
        for flag, value in STRICT_FLAGS:
            setattr(options, flag, value)

    parse_config_file(options, set_strict_flags, str(ROOT / "pyproject.toml"))
    return options


def _strict_modules() -> list[tuple[str, str]]:
    """(path, module) of every module of the strict packages."""
    found = []
    for top in STRICT:
        paths = [ROOT / top] if top.endswith(".py") else sorted((ROOT / top).rglob("*.py"))
        for path in paths:
            relative = path.relative_to(ROOT).as_posix()
            module = relative.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
            found.append((relative, module))
    return found


def _checked(options: Options, path: str) -> bool:
    listed = any(path == f or path.startswith(f.rstrip("/") + "/") for f in options.files or [])
    excluded = any(re.search(pattern, path) for pattern in options.exclude)
    return listed and not excluded


def test_make_lint_runs_mypy() -> None:
    makefile = (ROOT / "Makefile").read_text()
    lint = re.search(r"^lint:.*\n((?:\t.*\n)+)", makefile, re.MULTILINE)
    assert lint is not None
    assert re.search(r"-m mypy$", lint.group(1), re.MULTILINE)


def test_the_strict_packages_have_modules() -> None:
    modules = {module for _, module in _strict_modules()}
    assert {"games.registry", "games.services.moves", "games.services.nights"} <= modules
    assert {"games.engines.babylon.engine", "games.bots.turn_mcts"} <= modules


def test_every_module_of_the_game_packages_is_checked_and_strict() -> None:
    options = _options()
    assert STRICT_FLAGS, "mypy names the flags of --strict"
    for path, module in _strict_modules():
        assert _checked(options, path), f"{path} is not checked"
        own = options.clone_for_module(module)
        for flag, value in STRICT_FLAGS:
            where = own if flag in PER_MODULE_OPTIONS else options
            assert getattr(where, flag) == value, f"{module} is not checked with {flag}={value}"


def test_every_module_of_the_site_is_checked() -> None:
    options = _options()
    for package in SITE:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            assert _checked(options, relative), f"{relative} is not checked"
