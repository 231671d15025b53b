"""No two of the project's modules import each other, directly or around a circle (issue 21,
item 10): each module uses only what stands below it. Imports inside functions count too, since
they only hide a circle until the function runs. And the house stands in layers (DESIGN.md,
Layout): `config/` wires the apps together and nothing imports it back; `infra/` lies below
the apps and imports none of them."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CODE_DIRS = ("accounts", "config", "games", "infra", "rulebooks", "tools")
APPS = ("accounts", "games", "rulebooks")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    return {
        module_name(path): path
        for folder in CODE_DIRS
        for path in (ROOT / folder).rglob("*.py")
        if "migrations" not in path.parts
    }


def imported_modules(path: Path, modules: dict[str, Path]) -> set[str]:
    """The project modules `path` imports. `from package import name` is an import of the
    submodule when `name` is one, and of the package (its `__init__`) otherwise."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in modules)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                if submodule in modules:
                    found.add(submodule)
                elif node.module in modules:
                    found.add(node.module)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = project_modules()
    return {name: imported_modules(path, modules) for name, path in modules.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of imports as a list of modules (the first repeated at the end), or None."""
    done: set[str] = set()
    for start in sorted(graph):
        if start in done:
            continue
        path = [start]
        on_path = {start}
        branches = [iter(sorted(graph[start]))]
        while branches:
            target = next(branches[-1], None)
            if target is None:
                finished = path.pop()
                done.add(finished)
                on_path.discard(finished)
                branches.pop()
            elif target in on_path:
                return path[path.index(target) :] + [target]
            elif target not in done:
                path.append(target)
                on_path.add(target)
                branches.append(iter(sorted(graph[target])))
    return None


def test_the_cycle_finder_finds_a_circle_of_three() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_the_import_graph_sees_imports_inside_functions(tmp_path: Path) -> None:
    source = tmp_path / "late.py"
    source.write_text(
        "def f():\n    from games import services\n    from games.services import common\n"
    )
    modules = {"games.services": tmp_path, "games.services.common": tmp_path}
    assert imported_modules(source, modules) == {"games.services", "games.services.common"}


def test_no_module_imports_itself_around_a_circle() -> None:
    assert find_cycle(import_graph()) is None


def reaches(graph: dict[str, set[str]], start: str, forbidden: str) -> list[str] | None:
    """A chain of imports from `start` to a module in the package `forbidden`, or None."""
    seen = {start}
    chains = [[start]]
    while chains:
        chain = chains.pop()
        for target in sorted(graph.get(chain[-1], ())):
            if target == forbidden or target.startswith(forbidden + "."):
                return [*chain, target]
            if target not in seen:
                seen.add(target)
                chains.append([*chain, target])
    return None


def test_the_chain_finder_sees_an_import_two_steps_away() -> None:
    graph = {"e": {"e.x"}, "e.x": {"r"}, "r": {"b.y"}, "b.y": set()}
    assert reaches(graph, "e", "b") == ["e", "e.x", "r", "b.y"]
    assert reaches(graph, "e", "bb") is None


def test_engines_import_no_bots() -> None:
    """Engines hold rules only: no engine module imports the bots (games.bots), directly or
    through another module; the bots' knowledge of a game lives in games/bots/<pkg>/."""
    graph = import_graph()
    engine_modules = [name for name in graph if name.split(".")[:2] == ["games", "engines"]]
    assert len(engine_modules) > 20
    chains = [reaches(graph, name, "games.bots") for name in engine_modules]
    assert [chain for chain in chains if chain] == []


def package(module: str) -> str:
    return module.split(".")[0]


def imports_into(sources: tuple[str, ...], targets: tuple[str, ...]) -> list[str]:
    """Every `module -> imported module` arrow from a package of `sources` into one of
    `targets`, sorted."""
    return sorted(
        f"{name} -> {imported}"
        for name, imported_names in import_graph().items()
        if package(name) in sources
        for imported in imported_names
        if package(imported) in targets
    )


def test_the_layer_check_sees_an_arrow_into_another_package(tmp_path: Path) -> None:
    source = tmp_path / "views.py"
    source.write_text("from django.conf import settings\nfrom config import urls\n")
    modules = {"config": tmp_path, "config.urls": tmp_path, "games.views": source}
    assert imported_modules(source, modules) == {"config.urls"}


def test_nothing_imports_the_wiring_in_config() -> None:
    """Settings are read through `django.conf.settings`; the apps and `infra` import nothing
    from `config/`."""
    assert imports_into((*APPS, "infra"), ("config",)) == []


def test_infra_imports_none_of_the_apps() -> None:
    assert imports_into(("infra",), APPS) == []


def test_config_is_wiring_only() -> None:
    """`config/` holds the settings (the site's, and the tests' over them), the URLs, the ASGI
    and Celery apps and the websocket routing; what the apps use lives in `infra/` or in the
    apps."""
    modules = {path.stem for path in (ROOT / "config").glob("*.py")}
    assert modules == {"__init__", "settings", "settings_test", "urls", "asgi", "celery", "routing"}


def test_the_product_imports_none_of_the_tools() -> None:
    """The benchmarks, the load test and the seeding stand beside the site: no app, nor `infra`
    or `config`, imports `tools/`, so the site runs without it."""
    assert imports_into((*APPS, "infra", "config"), ("tools",)) == []
