"""The engine registry: game slug -> engine object.

Slugs keep their hyphens (`"hanging-gardens"`), Python packages cannot, so this dict is
the one place that maps one to the other. Engines are imported lazily, on first use.
"""

from __future__ import annotations

from importlib import import_module

from games.engines.base import Engine

ENGINE_MODULES: dict[str, str] = {
    "akropolis": "games.engines.akropolis",
}


def get(slug: str) -> Engine:
    """Return the engine for `slug`; raise KeyError for an unknown slug."""
    try:
        module_path = ENGINE_MODULES[slug]
    except KeyError:
        raise KeyError(f"Unknown game {slug!r}; known games: {sorted(ENGINE_MODULES)}") from None
    engine: Engine = import_module(module_path).ENGINE
    return engine


def all() -> list[Engine]:  # shadows the builtin on purpose: DESIGN names it all()
    """Every registered engine, in slug order. An engine that fails to import fails loudly."""
    return [get(slug) for slug in sorted(ENGINE_MODULES)]
