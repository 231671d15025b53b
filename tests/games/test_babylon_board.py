"""The Babylon board module: what each move did in words, the rulebook section of each step,
the lobby's option, and drawing data built from a seat's view only."""

from __future__ import annotations

import json

from django.utils import translation

from games import boards
from games.engines.babylon import ENGINE
from games.engines.babylon.state import State

BOARD = boards.get("babylon")


def turn_state(garden: dict, taken: str, effect: str | None = None) -> State:
    """Seat 0 (white) in the build step, having dug `taken` from a quarry of full stacks."""
    return ENGINE.load(
        {
            "players": 2,
            "flowers": ["white", "pink"],
            "quarry": [[["B01", "G01", "C01"]] * 4] * 4,
            "boards": [garden, {"tiles": []}],
            "phase": "build",
            "revealed": [effect] if effect else [],
            "tokens": ["none"] * 5,
            "turn": {"taken": taken},
        }
    )


def play(state: State, move: dict) -> tuple[State, str]:
    before = ENGINE.view(state, None)
    after = ENGINE.apply_move(state, state.current, move)
    summary = BOARD.summarize(before, state.current, move, ENGINE.view(after, None))
    json.dumps(summary)
    with translation.override("en"):
        return after, BOARD.describe("Alice", move["type"], summary)


def test_a_whole_turn_in_words() -> None:
    state = ENGINE.load(
        {
            "players": 2,
            "flowers": ["white", "pink"],
            "quarry": [[["B01", "G01", "C13"]] * 4] * 4,
            "boards": [{"tiles": [], "stored": "S-white"}, {"tiles": []}],
            "phase": "dig",
            "tokens": ["none"] * 5,
        }
    )
    # A corner stack of full stacks: two walls, two neighbours at the same level, and the
    # white flower: 5 singles.
    state, text = play(state, {"type": "dig", "x": 0, "y": 0})
    assert text == "Alice dug C13 (clay, white flower) and got 5 single pillars"
    move = {"type": "place", "tile": "stored", "x": 2, "y": 2, "rotation": 0, "level": 1,
            "open_corner": 1}  # fmt: skip
    state, text = play(state, move)
    assert text == (
        "Alice built the starting tile (white flower) on level 1 at C3, with a belvedere"
    )
    # SFBT unturned: the statue symbol is on the south-west corner, C4.
    state, text = play(state, {"type": "decorate", "kind": "statue", "x": 2, "y": 3,
                               "toward": None})  # fmt: skip
    assert text == "Alice built: statue on C4 (1 point)"
    state, text = play(state, {"type": "end_turn", "taken": "store"})
    assert text == "Alice stored C13 (clay, white flower) and ended the turn"


def test_removals_symbols_and_plain_ends_in_words() -> None:
    state = ENGINE.new_game(2, seed=3)
    x, y = ENGINE.legal_moves(state, 0)[0]["x"], ENGINE.legal_moves(state, 0)[0]["y"]
    _, text = play(state, {"type": "remove_clay", "x": x, "y": y})
    assert text.startswith("Alice removed C") and text.endswith("from the quarry")
    garden = {"tiles": [], "singles": 4}
    state = turn_state(garden, "C09", effect="add_symbol")
    move = {"type": "place", "tile": "taken", "x": 0, "y": 0, "rotation": 0, "level": 1,
            "open_corner": None}  # fmt: skip
    state, text = play(state, move)
    assert text == "Alice built C09 (clay, blue flower) on level 1 at A1"
    state, text = play(state, {"type": "set_symbol", "x": 0, "y": 1, "symbol": "T"})
    assert text == "Alice changed the field at A2 to: statue"
    _, text = play(state, {"type": "end_turn", "taken": None})
    assert text == "Alice ended the turn"


def test_every_move_type_has_words_in_every_language() -> None:
    for language in ("en", "hu", "pl"):
        with translation.override(language):
            for move_type in ENGINE.move_types:
                assert str(BOARD.MOVE_LABELS[move_type])
            assert BOARD.describe("Alice", "dig", {}).startswith("Alice ")


def test_each_step_links_its_rulebook_section() -> None:
    state = ENGINE.new_game(2, seed=1)
    assert BOARD.rules_section(ENGINE.view(state, 0)) == "setup"
    state = turn_state({"tiles": [], "singles": 4}, "C01")
    assert BOARD.rules_section(ENGINE.view(state, 0)) == "build-terraces"
    move = {"type": "place", "tile": "taken", "x": 0, "y": 0, "rotation": 0, "level": 1,
            "open_corner": None}  # fmt: skip
    state = ENGINE.apply_move(state, 0, move)
    assert BOARD.rules_section(ENGINE.view(state, 0)) == "build-decorations"
    state = ENGINE.apply_move(state, 0, {"type": "end_turn", "taken": None})
    assert BOARD.rules_section(ENGINE.view(state, 1)) == "dig"


def test_the_lobby_offers_the_flowers_the_engine_reads() -> None:
    (option,) = BOARD.INFO.options
    assert option.name == "flowers"
    choices = [value for value, _ in option.choices]
    assert ENGINE.new_game(2, 1, {"flowers": choices[3:]}).flowers == ("white", "orange")


def test_the_board_offers_placements_only_to_the_seat_to_move() -> None:
    state = turn_state({"tiles": [], "singles": 4, "stored": "S-white"}, "C01")
    mine = BOARD.board(ENGINE.view(state, 0), ["Alice", "Bob"], [])
    other = BOARD.board(ENGINE.view(state, 1), ["Alice", "Bob"], [])
    assert mine["placements"] and not other["placements"]
    assert [t["which"] for t in mine["hand"]] == ["taken", "stored"]
    # Each choice is a whole legal move, for the first tile in rotation 0.
    legal = ENGINE.legal_moves(state, 0)
    assert all(json.loads(p["move"]) in legal for p in mine["placements"])
    # 49 anchors at level 1: on four singles, or on three with any corner open.
    assert len(mine["placements"]) == 49 * 5
    assert mine["ends"][0]["taken"] == "store"


def test_the_quarry_drawing_shows_layers_and_no_covered_tile() -> None:
    state = ENGINE.new_game(2, seed=4)
    drawn = BOARD.board(ENGINE.view(state, 0), ["Alice", "Bob"], [])
    covered = {t for stack in state.quarry for t in stack[:-1]}
    assert not covered & set(json.dumps(drawn).split('"'))
    first = drawn["quarry"][0]
    assert len(first["layers"]) == 3
    while state.phase == "remove":
        state = ENGINE.apply_move(state, state.current, ENGINE.legal_moves(state, state.current)[0])
    with translation.override("en"):
        drawn = BOARD.board(ENGINE.view(state, state.current), ["Alice", "Bob"], [])
    first = drawn["quarry"][0]
    assert first["yield"] is not None and "digging it gives you" in first["label"]


def test_the_clay_removal_step_promises_no_pillars() -> None:
    # Issue 21 item 9: before the first round a stack is chosen for its clay tile; it gives
    # no pillars then, so its label says what may be done with it instead.
    state = ENGINE.new_game(2, seed=4)
    assert state.phase == "remove"
    for language in ("en", "hu", "pl"):
        with translation.override(language):
            drawn = BOARD.board(ENGINE.view(state, state.current), ["Alice", "Bob"], [])
        assert all(stack["yield"] is None for stack in drawn["quarry"])
        labels = [stack["label"] for stack in drawn["quarry"]]
        assert not any("digging it" in label or "kiásva" in label or "wykopanie" in label
                       for label in labels)  # fmt: skip
    with translation.override("en"):
        drawn = BOARD.board(ENGINE.view(state, state.current), ["Alice", "Bob"], [])
    removable = {(m["x"], m["y"]) for m in ENGINE.legal_moves(state, state.current)}
    for stack in drawn["quarry"]:
        says_remove = stack["label"].endswith(
            "you may remove this clay tile before the first round"
        )
        assert says_remove == ((stack["x"], stack["y"]) in removable)


def test_the_hungarian_quarry_calls_a_stack_a_heap_not_a_pillar() -> None:
    state = ENGINE.new_game(2, seed=4)
    with translation.override("hu"):
        drawn = BOARD.board(ENGINE.view(state, state.current), ["Alice", "Bob"], [])
    # "oszlop" is the pillar; the rulebook's word for a quarry stack is "halom".
    assert drawn["quarry"][0]["label"].startswith("a1 halom, 3 magas")
    assert all("oszlop" not in stack["label"] for stack in drawn["quarry"])


def test_with_too_few_pillars_the_page_says_why_nothing_can_be_built() -> None:
    # Issue 21 item 3: 2 single pillars after the dig, an empty garden: a tile on level 1
    # stands on 4 pillars, or on 3 with a belvedere; 2 pillars pay for no place.
    state = turn_state({"tiles": [], "singles": 2}, "C01")
    with translation.override("en"):
        drawn = BOARD.board(ENGINE.view(state, 0), ["Alice", "Bob"], [])
    assert drawn["placements"] == []
    assert drawn["blocked"] == (
        "No tile can be built: you have 2 single pillars, and every place where a tile can "
        "stand needs more (3 or 4 pillars; 2 single pillars buy a missing double). Store the "
        "tile you dug for a later turn, or discard it, and your turn ends."
    )
    for language in ("hu", "pl"):
        with translation.override(language):
            drawn = BOARD.board(ENGINE.view(state, 0), ["Alice", "Bob"], [])
        assert drawn["blocked"] and "No tile" not in drawn["blocked"]
    # With 4 pillars a tile can be built, and nothing is said.
    state = turn_state({"tiles": [], "singles": 4}, "C01")
    assert BOARD.board(ENGINE.view(state, 0), ["Alice", "Bob"], [])["blocked"] is None
    assert BOARD.board(ENGINE.view(state, 1), ["Alice", "Bob"], [])["blocked"] is None
