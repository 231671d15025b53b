"""The engines of the registered games (`games/registry.py`), and what every engine shares.

`get(slug)` and `all()` are the engine side of the registry: loading an engine loads its
engine package alone (no Django, no bots). `ENGINE_MODULES` is the registry's entries as
slug -> engine module: a game whose slug is not in it is listed as "rules only".

The shared pieces live in `games.engines.base` and are re-exported here: `IllegalMove`,
the seeded `Rng` kept in the state, and the `Engine` protocol. Engine modules import them
from `base`, never from this package, so importing an engine never runs into a cycle.
"""

from __future__ import annotations

from games import registry
from games.engines.base import Engine, IllegalMove, Rng

# `all` stays out of __all__: a star import must not shadow the builtin.
__all__ = ["ENGINE_MODULES", "Engine", "IllegalMove", "Rng", "get"]

ENGINE_MODULES: dict[str, str] = {entry.slug: entry.engine_module for entry in registry.ENTRIES}


def get(slug: str) -> Engine:
    """Return the engine for `slug`; raise KeyError for an unknown slug."""
    if slug not in ENGINE_MODULES:
        raise KeyError(f"Unknown game {slug!r}; known games: {sorted(ENGINE_MODULES)}")
    return registry.engine(slug)


def all() -> list[Engine]:  # shadows the builtin on purpose: DESIGN names it all()
    """Every registered engine, in slug order. An engine that fails to import fails loudly."""
    return [get(slug) for slug in sorted(ENGINE_MODULES)]
