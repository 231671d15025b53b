"""One conformance suite for every engine in the registry (open_spiel's games_sim_test)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import defaultdict
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games import boards, engines
from games.engines.base import Engine, IllegalMove

ENGINES = engines.all()
ROOT = Path(__file__).resolve().parents[3]


def by_slug(engine: Engine) -> str:
    return engine.slug


def play_randomly(
    engine: Engine,
    seed: int,
    players: int | None = None,
    steps: int = 10_000,
    options: dict[str, Any] | None = None,
) -> list[Any]:
    """States of one uniformly random game, new_game first, with the moves that led there."""
    chooser = random.Random(seed)
    if players is None:
        players = chooser.randint(engine.min_players, engine.max_players)
    state = engine.new_game(players, seed=seed, options=options)
    states: list[Any] = [(state, None, None)]
    for _ in range(steps):
        if engine.is_over(state):
            break
        seat = chooser.choice(engine.to_move(state))
        move = chooser.choice(engine.legal_moves(state, seat))
        state = engine.apply_move(state, seat, move)
        states.append((state, seat, move))
    return states


@pytest.mark.parametrize("engine", ENGINES, ids=by_slug)
@pytest.mark.parametrize("seed", range(6))
def test_random_playout_reaches_the_end_legally(engine: Engine, seed: int) -> None:
    chooser = random.Random(seed)
    players = chooser.randint(engine.min_players, engine.max_players)
    state = engine.new_game(players, seed=seed)
    for _ in range(10_000):
        if engine.is_over(state):
            break
        seat = chooser.choice(engine.to_move(state))
        moves = engine.legal_moves(state, seat)
        assert moves, "a seat that must move has a legal move"
        assert len({json.dumps(m, sort_keys=True) for m in moves}) == len(moves)
        state = engine.apply_move(state, seat, chooser.choice(moves))
        assert engine.load(engine.dump(state)) == state
        json.dumps(engine.view(state, seat))
        json.dumps(engine.view(state, None))
    assert engine.is_over(state)
    assert engine.to_move(state) == []
    scores = engine.scores(state)
    assert sorted(scores["ranking"]) == list(range(players))
    assert len(scores["totals"]) == players


@pytest.mark.parametrize("engine", ENGINES, ids=by_slug)
def test_dump_is_json_and_load_round_trips_at_every_step(engine: Engine) -> None:
    for state, _, _ in play_randomly(engine, seed=11):
        payload = engine.dump(state)
        assert json.loads(json.dumps(payload)) == payload
        assert engine.dump(engine.load(payload)) == payload


@pytest.mark.parametrize("engine", ENGINES, ids=by_slug)
def test_different_seeds_give_different_setups(engine: Engine) -> None:
    dumps = {
        json.dumps(engine.dump(engine.new_game(engine.min_players, seed=s)), sort_keys=True)
        for s in range(5)
    }
    assert len(dumps) == 5


GARBAGE_MOVES: list[Any] = [
    None,
    [],
    "take_tile",
    {},
    {"type": "no_such_move"},
    {"type": None},
    {"type": []},
    {"type": {"nested": 1}},
    {"type": "take_tile"},
    {"type": "take_tile", "index": "0"},
    {"type": "take_tile", "index": 0.0},
    {"type": "take_tile", "index": True},
    {"type": "take_tile", "index": -1},
    {"type": "take_tile", "index": 10**30},
    {"type": "take_tile", "index": 0, "extra": 1},
    {"type": "place_tile", "q": 0, "r": 0},
    {"type": "place_tile", "q": 10**30, "r": -(10**30), "rotation": 0},
]


@pytest.mark.parametrize("engine", ENGINES, ids=by_slug)
@pytest.mark.parametrize("move", GARBAGE_MOVES, ids=repr)
def test_malformed_move_raises_illegal_move_and_changes_nothing(engine: Engine, move: Any) -> None:
    for state, _, _ in play_randomly(engine, seed=3)[:6]:
        if engine.is_over(state):
            continue
        seat = engine.to_move(state)[0]
        if move in engine.legal_moves(state, seat):
            continue
        before = engine.dump(state)
        with pytest.raises(IllegalMove) as caught:
            engine.apply_move(state, seat, move)
        assert caught.value.code and str(caught.value)
        assert engine.dump(state) == before


@pytest.mark.parametrize("engine", ENGINES, ids=by_slug)
def test_moving_out_of_turn_raises_illegal_move(engine: Engine) -> None:
    state = engine.new_game(engine.min_players, seed=2)
    movers = engine.to_move(state)
    idle = next(s for s in range(engine.min_players) if s not in movers)
    move = engine.legal_moves(state, movers[0])[0]
    assert engine.legal_moves(state, idle) == []
    with pytest.raises(IllegalMove) as caught:
        engine.apply_move(state, idle, move)
    assert caught.value.code == "not_your_turn"


@pytest.mark.parametrize("engine", ENGINES, ids=by_slug)
def test_scores_are_consistent_at_every_step(engine: Engine) -> None:
    for state, _, _ in play_randomly(engine, seed=8):
        scores = engine.scores(state)
        totals = [sum(parts.values()) for parts in scores["breakdown"]]
        assert scores["totals"] == totals
        assert set(scores["winners"]) <= set(scores["ranking"])
        assert scores["ranking"][0] in scores["winners"]


@pytest.mark.parametrize("engine", ENGINES, ids=by_slug)
def test_determinize_agrees_with_the_view(engine: Engine) -> None:
    determinize = getattr(engine, "determinize", None)
    if determinize is None:
        pytest.skip(f"{engine.slug} offers no determinize")
    for state, seat, _ in play_randomly(engine, seed=4)[::3]:
        viewer = 0 if seat is None else seat
        seen = engine.view(state, viewer)
        sampled = determinize(seen, viewer, 99)
        assert engine.view(sampled, viewer) == seen
        assert engine.to_move(sampled) == engine.to_move(state)
        # What a seat may do depends only on what it sees: bots choose (and the hard bot
        # remembers its plans) in determinizations, and must never pick an illegal move.
        for mover in engine.to_move(state):
            sampled = determinize(engine.view(state, mover), mover, 7)
            assert engine.legal_moves(sampled, mover) == engine.legal_moves(state, mover)


# Property tests (hypothesis). Derandomized so that a run is repeatable, like the seeded
# playouts above; max_examples keeps the whole file quick.
PROPERTY = settings(
    max_examples=10,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
FUZZ = settings(PROPERTY, max_examples=120)
SEEDS = st.integers(0, 2**64)


def player_counts(engine: Engine) -> st.SearchStrategy[int]:
    return st.integers(engine.min_players, engine.max_players)


def game_options(engine: Engine) -> st.SearchStrategy[dict[str, Any]]:
    """Any options the lobby may pass to `new_game`: each flag on or off, each list any
    subset of its choices (read from the game's `GameInfo`)."""
    module = boards.get(engine.slug)
    fields: dict[str, st.SearchStrategy[Any]] = {}
    for option in module.INFO.options if module else ():
        if option.is_flag:
            fields[option.name] = st.booleans()
        else:
            values = [value for value, _ in option.choices]
            fields[option.name] = st.lists(st.sampled_from(values), unique=True).map(
                lambda chosen, values=values: [v for v in values if v in chosen]
            )
    return st.fixed_dictionaries(fields)


def accepted_options(engine: Engine, players: int, data: st.DataObject) -> dict[str, Any]:
    """Options drawn by `game_options` that the engine takes for `players` (some are only
    for some player counts, and the lobby refuses the rest)."""
    options = data.draw(game_options(engine), label="options")
    try:
        engine.new_game(players, seed=0, options=options)
    except ValueError:
        assume(False)
    return options


def as_json(value: Any) -> Any:
    """`value` as it comes back from the database or a form: a fresh JSON copy."""
    return json.loads(json.dumps(value))


@pytest.mark.parametrize("engine", ENGINES, ids=by_slug)
@PROPERTY
@given(data=st.data(), seed=SEEDS)
def test_load_of_dump_continues_identically(engine: Engine, data: st.DataObject, seed: int) -> None:
    players = data.draw(player_counts(engine), label="players")
    options = accepted_options(engine, players, data)
    game = play_randomly(engine, seed, players, options=options)
    cut = data.draw(st.integers(0, len(game) - 1), label="cut")
    middle = game[cut][0]
    reloaded = engine.load(as_json(engine.dump(middle)))
    assert reloaded == middle
    for _, seat, move in game[cut + 1 :]:
        assert engine.to_move(reloaded) == engine.to_move(middle)
        for mover in engine.to_move(middle):
            assert engine.legal_moves(reloaded, mover) == engine.legal_moves(middle, mover)
        middle = engine.apply_move(middle, seat, move)
        reloaded = engine.apply_move(reloaded, seat, move)
    assert engine.is_over(reloaded)
    assert engine.dump(reloaded) == engine.dump(middle)
    assert engine.scores(reloaded) == engine.scores(middle)


@pytest.mark.parametrize("engine", ENGINES, ids=by_slug)
@PROPERTY
@given(data=st.data(), seed=SEEDS)
def test_same_seed_and_moves_give_the_same_game(
    engine: Engine, data: st.DataObject, seed: int
) -> None:
    players = data.draw(player_counts(engine), label="players")
    options = accepted_options(engine, players, data)
    game = play_randomly(engine, seed, players, options=options)
    replayed = engine.new_game(players, seed=seed, options=as_json(options))
    assert engine.dump(replayed) == engine.dump(game[0][0])
    # Replayed from the move log, so each move is a fresh copy read back from JSON.
    for state, seat, move in game[1:]:
        replayed = engine.apply_move(replayed, seat, as_json(move))
        assert engine.dump(replayed) == engine.dump(state)


@dataclass(frozen=True)
class MovesSeen:
    """What one engine's legal moves look like, sampled from a few random games."""

    moves: list[dict[str, Any]]
    keys_by_type: dict[str, list[tuple[str, ...]]]
    values_by_key: dict[str, list[Any]]
    longest_game: int


@cache
def moves_seen(slug: str) -> MovesSeen:
    engine = engines.get(slug)
    moves: dict[str, dict[str, Any]] = {}
    keys_by_type: dict[str, set[tuple[str, ...]]] = defaultdict(set)
    longest_game = 0
    for players in range(engine.min_players, engine.max_players + 1):
        game = play_randomly(engine, seed=players, players=players)
        longest_game = max(longest_game, len(game) - 1)
        for state, _, _ in game:
            for seat in engine.to_move(state):
                legal = engine.legal_moves(state, seat)
                for move in legal:
                    keys_by_type[move["type"]].add(tuple(sorted(set(move) - {"type"})))
                # A few moves of each position are plenty, and keep the strategies small.
                for move in legal[:: len(legal) // 4 + 1]:
                    moves[json.dumps(move, sort_keys=True)] = move
    values_by_key: dict[str, dict[str, Any]] = defaultdict(dict)
    for move in moves.values():
        for key, value in move.items():
            values_by_key[key][json.dumps(value, sort_keys=True)] = value
    return MovesSeen(
        moves=list(moves.values()),
        keys_by_type={kind: sorted(keys) for kind, keys in keys_by_type.items()},
        values_by_key={key: list(values.values()) for key, values in values_by_key.items()},
        longest_game=longest_game,
    )


GARBAGE = st.one_of(
    st.integers(),
    st.integers(-(2**70), 2**70),
    st.none(),
    st.booleans(),
    st.text(max_size=3),
    st.floats(),
    st.lists(st.integers(-2, 9), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(-2, 9), max_size=2),
)


def paths_in(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path (dict keys and list indices) to every value nested inside `value`."""
    if isinstance(value, dict):
        inner = list(value.items())
    elif isinstance(value, list):
        inner = list(enumerate(value))
    else:
        return []
    found = []
    for key, nested in inner:
        found.append((*path, key))
        found.extend(paths_in(nested, (*path, key)))
    return found


def look_alikes(value: Any) -> list[Any]:
    """Values that Python compares equal to `value` (True == 1 == 1.0) or that a loose
    check could read as it ("1", [1]), yet are other JSON: never part of a legal move."""
    if type(value) is bool:
        return [int(value), float(value), str(value).lower()]
    if type(value) is int:
        return [float(value), str(value), [value], *([bool(value)] if value in (0, 1) else [])]
    if isinstance(value, str):
        return [value.upper(), f" {value}", [value]]
    if value is None:
        return [0, False, "", []]
    return [json.dumps(value)]


def values_like(seen: MovesSeen, old: Any, key: Any) -> st.SearchStrategy[Any]:
    """Values seen under the same key, ints next to an int, look-alikes and garbage."""
    choices = [GARBAGE]
    if key in seen.values_by_key:
        choices.append(st.sampled_from(seen.values_by_key[key]))
    if type(old) is int:
        choices.append(st.integers(-3, 3).map(lambda step: old + step))
    if old is not None:
        choices.append(st.sampled_from(look_alikes(old)))
    return st.one_of(choices)


def value_at(value: Any, path: list[Any]) -> Any:
    for key in path:
        value = value[key]
    return value


def near_misses(move: dict[str, Any], seen: MovesSeen) -> list[Any]:
    """`move` one small step away: one value (however deep) swapped for a look-alike, one
    key dropped, or one key added. A loose check lets these through most easily."""
    variants = []
    for *parents, key in paths_in(move):
        for other in look_alikes(value_at(move, parents)[key]):
            variant = as_json(move)
            value_at(variant, parents)[key] = other
            variants.append(variant)
        variant = as_json(move)
        del value_at(variant, parents)[key]
        variants.append(variant)
    for key in [*sorted(set(seen.values_by_key) - set(move)), "extra"]:
        variants.append(move | {key: seen.values_by_key.get(key, [0])[0]})
    return variants


MUTATIONS = ["none", "replace", "look_alike", "drop", "add", "retype", "not_a_dict", "any_type"]


@st.composite
def fuzzed_moves(draw: st.DrawFn, engine: Engine, here: list[dict[str, Any]]) -> Any:
    """A legal move (`here`, or from another game) bent out of shape, or a made-up move of
    any type the engine has. Names no game: everything comes from the engine itself."""
    seen = moves_seen(engine.slug)
    types = list(getattr(engine, "move_types", seen.keys_by_type))
    bases = [st.sampled_from(here)] if here else []
    move = as_json(draw(st.one_of(*bases, st.sampled_from(seen.moves))))
    how = draw(st.sampled_from(MUTATIONS))
    if how in ("replace", "look_alike", "drop"):
        *parents, key = draw(st.sampled_from(paths_in(move)))
        container = value_at(move, parents)
        if how == "replace":
            container[key] = draw(values_like(seen, container[key], key))
        elif how == "look_alike":
            container[key] = draw(st.sampled_from(look_alikes(container[key])))
        else:
            del container[key]
    elif how == "add":
        key = draw(st.sampled_from(sorted(seen.values_by_key)) | st.text(max_size=3))
        move[key] = draw(values_like(seen, None, key))
    elif how == "retype":
        move["type"] = draw(st.sampled_from(types) | st.text() | GARBAGE)
    elif how == "not_a_dict":
        move = draw(
            st.sampled_from([[move], json.dumps(move), [list(item) for item in move.items()]])
            | GARBAGE
        )
    elif how == "any_type":
        kind = draw(st.sampled_from(types))
        any_keys = st.lists(st.sampled_from(sorted(seen.values_by_key)), unique=True)
        shapes = seen.keys_by_type.get(kind)
        keys = draw(st.sampled_from(shapes) if shapes else any_keys)
        move = {"type": kind} | {key: draw(values_like(seen, None, key)) for key in keys}
    return move


@pytest.mark.parametrize("engine", ENGINES, ids=by_slug)
@FUZZ
@given(data=st.data(), seed=SEEDS)
def test_any_input_is_either_a_legal_move_or_an_illegal_move_that_changes_nothing(
    engine: Engine, data: st.DataObject, seed: int
) -> None:
    players = data.draw(player_counts(engine), label="players")
    steps = data.draw(st.integers(0, moves_seen(engine.slug).longest_game), label="steps")
    state = play_randomly(engine, seed, players, steps=steps)[-1][0]
    before = engine.dump(state)
    # Compare as JSON: in Python False == 0 and 1.0 == 1, but the engine must not accept
    # `false` or `1.0` where it lists `0` or `1`.
    legal = {seat: engine.legal_moves(state, seat) for seat in range(-1, players + 1)}
    legal_json = {seat: {json.dumps(m, sort_keys=True) for m in legal[seat]} for seat in legal}
    # The seat to move, another seat, seat -1 and one past the last seat.
    movers = engine.to_move(state)
    anyone = st.integers(-1, players)
    seats = st.sampled_from(movers) | anyone if movers else anyone
    here = [(seat, move) for seat in movers for move in legal[seat]]
    # Replaying the game is the slow part, so each position takes several inputs: a few
    # fuzzed ones, then one legal move played by every other seat and bent in every small
    # way, each too rare a pick to leave to chance.
    fuzzed = fuzzed_moves(engine, [move for _, move in here])
    tries = data.draw(st.lists(st.tuples(seats, fuzzed), min_size=1, max_size=8), label="tries")
    if here:
        seat, move = data.draw(st.sampled_from(here), label="legal move to bend")
        tries += [(other, move) for other in range(-1, players + 1) if other != seat]
        tries += [(seat, variant) for variant in near_misses(move, moves_seen(engine.slug))]
    for seat, move in tries:
        sent = json.dumps(move, sort_keys=True)
        if sent in legal_json[seat]:
            engine.apply_move(state, seat, move)
        else:
            try:
                engine.apply_move(state, seat, move)
            except IllegalMove as exc:
                assert exc.code and str(exc)
            else:
                pytest.fail(f"seat {seat} may not play {move!r}, yet apply_move accepted it")
        assert engine.dump(state) == before
        assert json.dumps(move, sort_keys=True) == sent, "the engine changed the move it was given"


def test_the_package_re_exports_the_shared_pieces_of_base() -> None:
    from games.engines import base

    assert engines.IllegalMove is base.IllegalMove
    assert engines.Rng is base.Rng
    assert engines.Engine is base.Engine
    assert set(engines.__all__) == {"ENGINE_MODULES", "Engine", "IllegalMove", "Rng", "get"}


@pytest.mark.parametrize("first", ["games.engines.akropolis", "games.engines.base"])
def test_importing_an_engine_module_first_meets_no_cycle(first: str) -> None:
    # A fresh interpreter, so nothing is already imported when `first` is.
    code = f"import {first}\nfrom games.engines import IllegalMove, Rng, get\nget('akropolis')"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
