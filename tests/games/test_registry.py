"""The registry (games/registry.py): every registered game fills the Protocols of its engine,
board and bot knowledge, hook by hook, and a game that misses a required hook is refused when
it registers, with a message naming the game and the hook."""

from __future__ import annotations

import inspect
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from games import boards, engines, registry
from games.bots import evaluation
from games.catalog import GameInfo
from games.engines.base import Engine, EngineDefaults

ROOT = Path(__file__).resolve().parents[2]
KINDS = ["engine", "board", "bots"]
SLUGS = [entry.slug for entry in registry.ENTRIES]
PLUG_INS = [
    ("engine", Engine, EngineDefaults, registry.engine),
    ("board", registry.Board, registry.BoardDefaults, registry.board),
    ("bots", registry.BotKnowledge, registry.BotDefaults, registry.bots),
]


def declared(protocol: type, name: str) -> Any:
    return inspect.signature(getattr(protocol, name))


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize(
    ("kind", "protocol", "defaults", "load"), PLUG_INS, ids=["engine", "board", "bots"]
)
def test_every_game_fills_each_declared_hook(
    slug: str, kind: str, protocol: type, defaults: type, load: Any
) -> None:
    plugin = load(slug)
    hooks = registry.hooks(protocol)
    assert hooks, protocol
    for name, what in hooks.items():
        assert hasattr(plugin, name), f"{slug} {kind}: {name}"
        value = getattr(plugin, name)
        if what == "method":
            assert callable(value), f"{slug} {kind}: {name}"
            # It takes the positional arguments the Protocol declares (self left out).
            count = len(declared(protocol, name).parameters) - 1
            inspect.signature(value).bind(*([None] * count))
    if kind == "engine":
        assert plugin.slug == slug
        assert isinstance(plugin.reveals_steps, bool)
        assert isinstance(plugin.move_types, tuple) and plugin.move_types
        assert 1 <= plugin.min_players <= plugin.max_players
    if kind == "board":
        assert isinstance(plugin.INFO, GameInfo) and plugin.INFO.slug == slug
    if kind == "bots":
        assert isinstance(plugin.SCALE, float) and plugin.SCALE > 0
        small, large = plugin.REVIEW_THRESHOLDS
        assert 0 < small < large
        for name in ("evaluate", "turn_values", "information_key", "turns", "outlook"):
            assert getattr(plugin, name) is None or callable(getattr(plugin, name))


@pytest.mark.parametrize("slug", SLUGS)
def test_an_engine_that_reveals_steps_says_itself_which_do(slug: str) -> None:
    # The capability and the hook go together: an engine that lets steps be taken back has
    # its own `reveals`; one that does not keeps the default, under which every step counts
    # as showing something.
    engine = registry.engine(slug)
    own = type(engine).reveals is not EngineDefaults.reveals
    assert own == engine.reveals_steps


def test_the_registry_is_the_one_mapping_of_slugs_to_packages() -> None:
    assert sorted(engines.ENGINE_MODULES) == sorted(SLUGS)
    assert [e.slug for e in engines.all()] == sorted(SLUGS)
    assert sorted(board.INFO.slug for board in boards.all()) == sorted(SLUGS)
    for entry in registry.ENTRIES:
        assert boards.package_name(entry.slug) == entry.package
        assert (ROOT / "games" / "engines" / entry.package / "__init__.py").exists()
        assert (ROOT / "games" / "bots" / entry.package / "evaluate.py").exists()
        assert (ROOT / "templates" / "games" / entry.package / "_board.html").exists()
        game = registry.get(entry.slug)
        assert game.engine is engines.get(entry.slug)
        assert game.board is boards.get(entry.slug)
        assert game.bots is evaluation.knowledge_for(game.engine)
    assert boards.get("no-such-game") is None
    with pytest.raises(KeyError, match="no-such-game"):
        engines.get("no-such-game")


# --- a fifth game, made up, that registers --------------------------------------------------


class FakeEngine(EngineDefaults):
    """An engine with every required hook; tests take one away."""

    slug = "fake"
    name = "Fake"
    min_players = 2
    max_players = 4
    move_types = ("pass",)

    def new_game(self, players: int, seed: int, options: dict | None = None) -> Any:
        return {"players": players}

    def to_move(self, state: Any) -> list[int]:
        return []

    def legal_moves(self, state: Any, seat: int) -> list[dict]:
        return []

    def apply_move(self, state: Any, seat: int, move: dict) -> Any:
        return state

    def is_over(self, state: Any) -> bool:
        return True

    def scores(self, state: Any) -> dict:
        return {"totals": [0, 0], "breakdown": [{}, {}], "ranking": [0, 1]}

    def view(self, state: Any, seat: int | None) -> dict:
        return {}

    def dump(self, state: Any) -> dict:
        return dict(state)

    def load(self, data: dict) -> Any:
        return dict(data)

    def determinize(self, view: dict, seat: int | None, seed: int) -> Any:
        return {"players": 2}


def fake_board(**changes: Any) -> SimpleNamespace:
    """A board module offering only the required hooks."""
    info = GameInfo("fake", "Fake", "Nobody", 2026, 2, 4, "A made-up game.")
    hooks = {
        "INFO": info,
        "board": lambda view, names, recent: {},
        "summarize": lambda before, seat, move, after: {},
        "describe": lambda name, move_type, summary: f"{name} passed",
        "rules_section": lambda view: None,
    }
    hooks.update(changes)
    return SimpleNamespace(**{name: hook for name, hook in hooks.items() if hook is not None})


def register_fake(engine: Any = None, board: Any = None, bots: Any = None) -> registry.Game:
    return registry.register(
        "fake",
        "fake",
        engine=engine if engine is not None else FakeEngine(),
        board=board if board is not None else fake_board(),
        bots=bots if bots is not None else SimpleNamespace(),
    )


def test_a_game_with_every_required_hook_registers_and_inherits_the_defaults() -> None:
    game = register_fake()
    # The hooks the board does not offer are the defaults: the move's label as advice, no
    # measure, no end reason, no text of its own for an engine's error.
    assert game.board.advise(["Ann"], "end_turn", {"type": "end_turn"}, {}) == "end turn"
    assert game.board.end_reason({"is_over": True}, ["Ann"]) is None
    assert game.board.error_message("bad_move", {}) is None
    assert game.board.describe("Ann", "pass", {}) == "Ann passed"
    assert game.bots.evaluate is None and game.bots.SCALE == registry.BotDefaults.SCALE
    assert game.engine.reveals_steps is False


def test_an_engine_missing_a_required_hook_is_refused_by_name() -> None:
    class NoDeterminize(FakeEngine):
        determinize = None  # type: ignore[assignment]

    class Bare:  # not built on EngineDefaults, offers neither reveals_steps nor holds_turn
        slug = "fake"

    with pytest.raises(registry.RegistrationError, match="'fake'.*determinize.*not callable"):
        register_fake(engine=NoDeterminize())
    with pytest.raises(registry.RegistrationError, match="lacks the required hook.*apply_move"):
        register_fake(engine=Bare())


def test_a_board_missing_a_required_hook_is_refused_by_name() -> None:
    with pytest.raises(registry.RegistrationError, match="'fake': its board lacks .*board"):
        register_fake(board=fake_board(board=None))
    with pytest.raises(registry.RegistrationError, match="describe does not take"):
        register_fake(board=fake_board(describe=lambda name: name))


def test_bot_knowledge_of_the_wrong_type_is_refused() -> None:
    with pytest.raises(registry.RegistrationError, match="SCALE is a str"):
        register_fake(bots=SimpleNamespace(SCALE="ten"))
    with pytest.raises(registry.RegistrationError, match="evaluate is not callable"):
        register_fake(bots=SimpleNamespace(evaluate=3))


def test_an_engine_no_game_registers_is_judged_by_the_defaults() -> None:
    engine = FakeEngine()
    assert evaluation.knowledge_for(engine).SEARCH == {}
    assert evaluation.evaluator_for(engine)({}, 0) == 0.0
    assert evaluation.scale_for(engine) == registry.BotDefaults.SCALE
