"""The club's games: one entry per game, and the typed Protocols its plug-ins fill.

A game is three plug-ins, each in a package named after it (DESIGN.md principle 6):

- its engine, `games/engines/<pkg>/` (`ENGINE`): the rules, with the `Engine` Protocol of
  `games/engines/base.py` (kept there, so an engine imports nothing above itself) and the
  optional hooks' defaults in `EngineDefaults`, which every engine class inherits;
- its board, `games/boards/<pkg>` (`Board` below): the game's Django side, texts, moves in
  words and drawing; optional hooks not offered take `BoardDefaults`' values;
- its bot knowledge, `games/bots/<pkg>/evaluate.py` (`BotKnowledge` below): how the bots
  judge and plan; optional hooks not offered take `BotDefaults`' values.

`ENTRIES` is the one mapping from a slug to its package. `register` checks plug-ins against
the Protocols: a required hook missing, a hook that cannot be called or a capability of the
wrong type fails there, with a message naming the game and the hook. The registered games'
plug-ins are loaded, checked and kept on first use (`engine`, `board`, `bots`, `get`); the
games app loads them all when Django starts (`games.apps`), so a broken game stops the site
at start-up, not in a member's request.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from games.engines.base import Engine

Move = dict[str, Any]
Evaluate = Callable[[Any, int], float]


@dataclass(frozen=True)
class Entry:
    """One game: its slug (in URLs and the database) and the package name its engine, board
    and bot knowledge share (a slug keeps its hyphens, a Python package cannot)."""

    slug: str
    package: str

    @property
    def engine_module(self) -> str:
        return f"games.engines.{self.package}"

    @property
    def board_module(self) -> str:
        return f"games.boards.{self.package}"

    @property
    def bots_module(self) -> str:
        return f"games.bots.{self.package}.evaluate"


ENTRIES: tuple[Entry, ...] = (
    Entry("akropolis", "akropolis"),
    Entry("babylon", "babylon"),
    Entry("hanging-gardens", "hanging_gardens"),
    Entry("tower-of-babel", "tower_of_babel"),
)


class RegistrationError(TypeError):
    """A game's plug-in does not fill its Protocol."""


# --- the board ---------------------------------------------------------------------------------


class Info(Protocol):
    """What the pages say about a game: a `games.catalog.GameInfo` (the catalogue stands
    above the registry, so it is not imported here)."""

    slug: str
    name: str
    min_players: int
    max_players: int


class Board(Protocol):
    """A game's Django side (docs/adding-a-game.md): what the pages say and draw for it."""

    INFO: Info  # the lobby's entry: name, designer, players, options
    MOVE_LABELS: Mapping[str, Any]  # move type -> translated short label
    CATEGORIES: Mapping[str, tuple[Any, str]]  # scoring category -> (label, colour)

    def board(
        self, view: dict[str, Any], names: list[str], recent: list[dict[str, Any]]
    ) -> dict[str, Any]: ...

    def move_label(self, move_type: str) -> str: ...

    def summarize(
        self, before: dict[str, Any], seat: int, move: Move, after: dict[str, Any]
    ) -> dict[str, Any]: ...

    def describe(self, name: str, move_type: str, summary: dict[str, Any]) -> str: ...

    def advise(
        self, names: list[str], move_type: str, move: Move, summary: dict[str, Any]
    ) -> str: ...

    def rules_section(self, view: dict[str, Any]) -> str | None: ...

    def measure_text(self, key: str, measure: dict[str, int]) -> str | None: ...

    def end_reason(self, view: dict[str, Any], names: list[str]) -> str | None: ...

    def error_message(self, code: str, params: dict[str, Any]) -> str | None: ...


class BoardDefaults:
    """The optional board hooks, as a board that does not offer them has them. `INFO`,
    `board`, `summarize`, `describe` and `rules_section` are required."""

    MOVE_LABELS: Mapping[str, Any] = MappingProxyType({})
    CATEGORIES: Mapping[str, tuple[Any, str]] = MappingProxyType({})

    def move_label(self, move_type: str) -> str:
        """The short label of a move type, or the type itself in words."""
        label = self.MOVE_LABELS.get(move_type)
        return str(label) if label is not None else move_type.replace("_", " ")

    def advise(self, names: list[str], move_type: str, move: Move, summary: dict[str, Any]) -> str:
        return self.move_label(move_type)

    def measure_text(self, key: str, measure: dict[str, int]) -> str | None:
        return None

    def end_reason(self, view: dict[str, Any], names: list[str]) -> str | None:
        return None

    def error_message(self, code: str, params: dict[str, Any]) -> str | None:
        return None


# --- the bots' knowledge -----------------------------------------------------------------------


class BotKnowledge(Protocol):
    """How the bots judge and plan one game (docs/bots.md). A callable hook left at None
    means the bots' generic way: the score difference, every turn enumerated, the view as
    the information key."""

    SCALE: float  # points that count as a clear lead (MCTS rewards)
    REVIEW_THRESHOLDS: tuple[float, float]  # costs of a small, then a large loss (the review)
    SEARCH: Mapping[str, Any]  # overrides of the hard bot's `turn_mcts.Settings`
    evaluate: Evaluate | None  # (state, seat) -> points, higher better for seat
    turn_values: Callable[[Any, int, list[Move]], list[float]] | None
    information_key: Callable[[Any, int], Hashable] | None
    turns: Callable[[Any, int, int], list[tuple[float, list[Move]]]] | None
    outlook: Evaluate | None  # the hard bot's own judgement of its turns
    outlook_turns: Callable[[Any, int, int], list[tuple[float, list[Move]]]] | None
    choice: Callable[[Move], Hashable] | None  # what a first move chooses


class BotDefaults:
    """Every bot hook is optional: these are the values of a game whose bot package does not
    offer it."""

    SCALE: float = 10.0
    REVIEW_THRESHOLDS: tuple[float, float] = (2.0, 6.0)
    SEARCH: Mapping[str, Any] = MappingProxyType({})
    evaluate: Evaluate | None = None
    turn_values: Callable[[Any, int, list[Move]], list[float]] | None = None
    information_key: Callable[[Any, int], Hashable] | None = None
    turns: Callable[[Any, int, int], list[tuple[float, list[Move]]]] | None = None
    outlook: Evaluate | None = None
    outlook_turns: Callable[[Any, int, int], list[tuple[float, list[Move]]]] | None = None
    choice: Callable[[Move], Hashable] | None = None


# --- checking plug-ins against their Protocols -------------------------------------------------


def hooks(protocol: type) -> dict[str, str]:
    """Every hook a Protocol declares, as name -> "method" or "attribute"."""
    found = dict.fromkeys(protocol.__dict__.get("__annotations__", {}), "attribute")
    for name, value in vars(protocol).items():
        if callable(value) and not name.startswith("_"):
            found[name] = "method"
    return found


def required_hooks(protocol: type, defaults: type | None) -> list[str]:
    """The hooks a plug-in must offer itself: those its defaults class does not give."""
    return sorted(name for name in hooks(protocol) if defaults is None or name not in dir(defaults))


# The declared type of each attribute hook that is data; an attribute hook not named here is
# a callable or None (the bots' optional helpers).
_ATTRIBUTE_TYPES: dict[str, type | tuple[type, ...]] = {
    "slug": str,
    "name": str,
    "min_players": int,
    "max_players": int,
    "move_types": tuple,
    "reveals_steps": bool,
    "INFO": object,  # an `Info`, checked by `check_board`
    "MOVE_LABELS": Mapping,
    "CATEGORIES": Mapping,
    "SCALE": (int, float),
    "REVIEW_THRESHOLDS": tuple,
    "SEARCH": Mapping,
}


def _check(slug: str, kind: str, plugin: object, protocol: type, defaults: type | None) -> None:
    missing = [name for name in required_hooks(protocol, defaults) if not hasattr(plugin, name)]
    if missing:
        raise RegistrationError(
            f"game {slug!r}: its {kind} lacks the required hook(s) {', '.join(missing)} of "
            f"{protocol.__name__}"
        )
    for name, what in hooks(protocol).items():
        value = getattr(plugin, name)
        wanted = _ATTRIBUTE_TYPES.get(name)
        if what == "method" or wanted is None:
            if not callable(value) and (what == "method" or value is not None):
                raise RegistrationError(f"game {slug!r}: its {kind}'s {name} is not callable")
            if what == "method" and not _takes(value, _arity(getattr(protocol, name))):
                raise RegistrationError(
                    f"game {slug!r}: its {kind}'s {name} does not take the arguments "
                    f"{protocol.__name__}.{name} declares"
                )
        elif not isinstance(value, wanted):
            raise RegistrationError(
                f"game {slug!r}: its {kind}'s {name} is a {type(value).__name__}, "
                f"not {getattr(wanted, '__name__', wanted)}"
            )


def _arity(declared: Callable[..., Any]) -> int:
    """The positional arguments a Protocol method takes, `self` left out."""
    return len(inspect.signature(declared).parameters) - 1


def _takes(hook: Callable[..., Any], count: int) -> bool:
    try:
        inspect.signature(hook).bind(*([None] * count))
    except TypeError:
        return False
    except ValueError:  # a builtin without a signature: nothing to check
        return True
    return True


def _adapted(source: object, protocol: type, defaults: type) -> Any:
    """A plug-in object built on `defaults` from a module offering hooks: each hook the
    Protocol declares that the module offers replaces the default (so a module says what it
    offers by defining it, and inherits the rest). An object built on `defaults` is used as
    it is."""
    if isinstance(source, defaults):
        return source
    plugin = defaults()
    for name in hooks(protocol):
        if name in vars(source):
            setattr(plugin, name, vars(source)[name])
    return plugin


@dataclass(frozen=True)
class Game:
    """A registered game: its entry and its checked plug-ins."""

    slug: str
    package: str
    engine: Engine
    board: Board
    bots: BotKnowledge


def check_engine(slug: str, engine: Any) -> Engine:
    """The engine object itself fills the Protocol; its class inherits the optional hooks'
    defaults from `EngineDefaults`."""
    from games.engines.base import Engine, EngineDefaults

    _check(slug, "engine", engine, Engine, EngineDefaults)
    if engine.slug != slug:
        raise RegistrationError(f"game {slug!r}: its engine says its slug is {engine.slug!r}")
    checked: Engine = engine
    return checked


def check_board(slug: str, source: object) -> Board:
    plugin = _adapted(source, Board, BoardDefaults)
    _check(slug, "board", plugin, Board, BoardDefaults)
    for name, wanted in (("slug", str), ("name", str), ("min_players", int), ("max_players", int)):
        if not isinstance(getattr(plugin.INFO, name, None), wanted):
            raise RegistrationError(f"game {slug!r}: its board's INFO has no {name}")
    if plugin.INFO.slug != slug:
        raise RegistrationError(f"game {slug!r}: its board's INFO says {plugin.INFO.slug!r}")
    checked: Board = plugin
    return checked


def check_bots(slug: str, source: object) -> BotKnowledge:
    plugin = _adapted(source, BotKnowledge, BotDefaults)
    _check(slug, "bot knowledge", plugin, BotKnowledge, BotDefaults)
    checked: BotKnowledge = plugin
    return checked


def register(slug: str, package: str, *, engine: object, board: object, bots: object) -> Game:
    """Check a game's three plug-ins against their Protocols and return the game; a missing
    required hook raises `RegistrationError`."""
    return Game(
        slug=slug,
        package=package,
        engine=check_engine(slug, engine),
        board=check_board(slug, board),
        bots=check_bots(slug, bots),
    )


# --- the registered games ----------------------------------------------------------------------


def entry(slug: str) -> Entry:
    for found in ENTRIES:
        if found.slug == slug:
            return found
    known = sorted(e.slug for e in ENTRIES)
    raise KeyError(f"Unknown game {slug!r}; known games: {known}")


def is_registered(slug: str) -> bool:
    return any(e.slug == slug for e in ENTRIES)


@cache
def engine(slug: str) -> Engine:
    """The game's engine, checked; loading it loads nothing but the engine package."""
    return check_engine(slug, import_module(entry(slug).engine_module).ENGINE)


@cache
def board(slug: str) -> Board:
    return check_board(slug, import_module(entry(slug).board_module))


@cache
def bots(slug: str) -> BotKnowledge:
    return check_bots(slug, import_module(entry(slug).bots_module))


def get(slug: str) -> Game:
    found = entry(slug)
    return Game(slug, found.package, engine(slug), board(slug), bots(slug))


def all() -> list[Game]:  # shadows the builtin on purpose, like engines.all()
    """Every registered game, in slug order."""
    return [get(e.slug) for e in sorted(ENTRIES, key=lambda e: e.slug)]


__all__ = [
    "ENTRIES",
    "Board",
    "BoardDefaults",
    "BotDefaults",
    "BotKnowledge",
    "Entry",
    "Game",
    "Info",
    "RegistrationError",
    "board",
    "bots",
    "engine",
    "entry",
    "get",
    "is_registered",
    "register",
]
