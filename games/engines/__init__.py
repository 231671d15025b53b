"""The engine registry (game slug -> engine object) and what every engine shares.

Slugs keep their hyphens (`"hanging-gardens"`), Python packages cannot, so this dict is
the one place that maps one to the other. Engines are imported lazily, on first use.

The shared pieces live in `games.engines.base` and are re-exported here: `IllegalMove`,
the seeded `Rng` kept in the state, and the `Engine` protocol. Engine modules import them
from `base`, never from this package, so importing an engine never runs into a cycle.
"""

from __future__ import annotations

from importlib import import_module

from games.engines.base import Engine, IllegalMove, Rng

# `all` stays out of __all__: a star import must not shadow the builtin.
__all__ = ["ENGINE_MODULES", "Engine", "IllegalMove", "Rng", "get"]

ENGINE_MODULES: dict[str, str] = {
    "akropolis": "games.engines.akropolis",
    "babylon": "games.engines.babylon",
    "hanging-gardens": "games.engines.hanging_gardens",
    "tower-of-babel": "games.engines.tower_of_babel",
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
