"""The Hanging Gardens board module: what a move did in words, the rulebook section of each
step, and drawing data built from a seat's view only."""

from __future__ import annotations

import json

from django.utils import translation

from games import boards
from games.boards.hanging_gardens import names
from games.boards.hanging_gardens.texts import motif_name
from games.engines.hanging_gardens import ENGINE
from games.engines.hanging_gardens.state import State

BOARD = boards.get("hanging-gardens")
NAMES = ["Alice", "Bob"]


def position(rows: list[str], display: list[int], **extra: object) -> State:
    """Seat 0 to place a card of `display` on a garden given in the spec's row notation."""
    return ENGINE.load(
        {
            "players": 2,
            "deck": [c for c in range(1, 61) if c not in display][:8],
            "display": display,
            "gardens": [
                {"x": 0, "y": 0, "rows": rows, "temples": extra.pop("temples", [])},
                {"x": 0, "y": 0, "rows": ["..", "..", ".."]},
            ],
            "supply": ["king", "gate", "tiger"],
            "tile_display": [["queen", "king"], ["tiger", "garden"], ["statue", "chalice"]],
            **extra,
        }
    )


def play(state: State, move: dict) -> tuple[State, str]:
    """Apply `move` for seat 0 and describe it as the move log would."""
    before = ENGINE.view(state, None)
    after_state = ENGINE.apply_move(state, 0, move)
    summary = BOARD.summarize(before, 0, move, ENGINE.view(after_state, None))
    json.dumps(summary)
    with translation.override("en"):
        return after_state, BOARD.describe("Alice", move["type"], summary)


def test_a_scoring_turn_in_words() -> None:
    # hanging-gardens.md §6.4: H20 "FF" at (4, 0) makes a fountain group of 6, scored with a
    # face-down tile first, then a face-up one.
    state = position(["FFFF..", "......"], [20, 1])
    state, text = play(state, {"type": "place_card", "card": 20, "rotation": 0, "x": 4, "y": 0})
    # The garden spans columns 1-6 and rows 1-2; H20 ("FF/../..") is 2 wide and 3 tall, so at
    # (4, 0) it covers columns 5-6 and reaches one row past the bottom.
    assert text == (
        "Alice placed a card with 2 fountains on the bottom edge: rows 1–2 and 1 row below, "
        "columns 5–6"
    )
    state, text = play(state, {"type": "place_temple", "x": 2, "y": 0})
    assert text == "Alice built a temple on the group of 6 fountains, drew a face-down tile"
    state, text = play(state, {"type": "take_tile", "column": 2, "slot": 1})
    assert text == "Alice took the point tile Tiger"


def test_a_missing_tile_and_a_skipped_group_in_words() -> None:
    # H11 "F./../.." at (2, 0) makes fountains (0..2, 0), a group of 3; column 1 is empty
    # and so is the supply: the tile is missing, worth 5 points (§2.7, ASSUMPTION §7.9).
    empty_first = [[None, None], ["tiger", "garden"], ["statue", "chalice"]]
    place = {"type": "place_card", "card": 11, "rotation": 0, "x": 2, "y": 0}
    state = position(["FF....", "......"], [11, 1], tile_display=empty_first, supply=[])
    state, _ = play(state, place)
    _, text = play(state, {"type": "place_temple", "x": 0, "y": 0})
    assert text == (
        "Alice built a temple on the group of 3 fountains, 1 tile missing: 5 points instead"
    )
    state = position(["FF....", "......"], [11, 1])
    state, _ = play(state, place)
    _, text = play(state, {"type": "skip_scoring"})
    assert text == "Alice did not score a group"


# H06 turned half way ("../../P.") at (2, -2) lays a park on (2, 0), next to the parks at
# (0, 0) and (1, 0): a new group of 3.
PARK = {"type": "place_card", "card": 6, "rotation": 2, "x": 2, "y": -2}


def test_a_card_is_named_by_its_motifs_and_its_place_in_the_garden() -> None:
    # Issue 21 item 2. The garden "PP../..../...." spans columns 1-4 and rows 1-3; H06 turned
    # half way is 2 squares wide and 3 tall, at (2, -2): columns 3-4, row 1 and 2 rows above.
    _, text = play(position(["PP..", "....", "...."], [6]), PARK)
    assert text == (
        "Alice placed a card with 1 park on the top edge: row 1 and 2 rows above, columns 3–4"
    )
    for language in ("hu", "pl"):
        with translation.override(language):
            state = position(["PP..", "....", "...."], [6])
            before = ENGINE.view(state, None)
            after = ENGINE.view(ENGINE.apply_move(state, 0, PARK), None)
            summary = BOARD.summarize(before, 0, PARK, after)
            text = BOARD.describe("Alice", PARK["type"], summary)
        assert "H06" not in text and "-2" not in text and "park" in text.lower()


def test_places_in_words() -> None:
    box = (0, 0, 3, 2)  # a garden of 4 columns and 3 rows
    with translation.override("en"):
        assert names.place_words(box, 3, 0, 2, 2) == (
            "on the right edge: rows 1–2, column 4 and 1 column to the right"
        )
        assert names.place_words(box, -1, 1, 2, 1) == (
            "on the left edge: row 2, column 1 and 1 column to the left"
        )
        assert names.place_words(box, 1, 2, 3, 2) == (
            "on the bottom edge: row 3 and 1 row below, columns 2–4"
        )
        assert names.place_words(box, -1, -2, 2, 3) == (
            "at the top left corner: row 1 and 2 rows above, column 1 and 1 column to the left"
        )
        assert names.place_words(box, 3, 2, 2, 2) == (
            "at the bottom right corner: row 3 and 1 row below, column 4 and 1 column to the right"
        )
        assert names.place_words(box, 1, 1, 2, 1) == "over row 2, columns 2–3"
        assert names.card_words({"T": 2, "F": 1}) == "a card with 2 terraces and 1 fountain"
        assert names.card_words({"T": 1, "P": 1, "A": 3}) == (
            "a card with 1 terrace, 1 park and 3 arcades"
        )
        assert names.group_words("P", 5) == "the group of 5 parks"


def test_choices_and_screen_reader_labels_use_words_not_coordinates() -> None:
    state = position(["PP..", "....", "...."], [6])
    with translation.override("en"):
        drawn = BOARD.board(ENGINE.view(state, 0), NAMES, [])
    (card,) = drawn["display"]
    assert card["label"] == "A card with 1 park"
    mine = drawn["gardens"][0]
    labels = [p["label"] for spots in mine["spots"] for p in spots["places"]]
    options = [o["label"] for g in drawn["placements"] for o in g["options"]]
    assert labels and options
    # H06 upright (".P/../..") at (0, 1) and at (0, 2): two places, told apart.
    assert "turned 0°, on the bottom edge: rows 2–3 and 1 row below, columns 1–2" in options
    assert "turned 0°, on the bottom edge: row 3 and 2 rows below, columns 1–2" in options
    assert len(set(options)) == len(options)
    for spots in mine["spots"]:
        named = [p["label"] for p in spots["places"]]
        assert len(set(named)) == len(named)
    assert all("corner at" not in label and "-" not in label for label in labels + options)
    state = ENGINE.apply_move(state, 0, PARK)
    with translation.override("en"):
        drawn = BOARD.board(ENGINE.view(state, 0), NAMES, [])
    assert [o["label"] for o in drawn["temple_options"]] == [
        "The group of 3 parks, row 3, column 1",
        "The group of 3 parks, row 3, column 2",
        "The group of 3 parks, row 3, column 3",
    ]
    targets = [s["target_label"] for s in drawn["gardens"][0]["squares"] if s["target"]]
    assert targets[0] == "Temple on the group of 3 parks, row 3, column 1"


def test_the_rules_link_follows_the_step() -> None:
    state = position(["PP..", "....", "...."], [6])
    assert BOARD.rules_section(ENGINE.view(state, 0)) == "building"
    state = ENGINE.apply_move(state, 0, PARK)
    assert BOARD.rules_section(ENGINE.view(state, 0)) == "groups"
    state = ENGINE.apply_move(state, 0, {"type": "place_temple", "x": 0, "y": 0})
    assert BOARD.rules_section(ENGINE.view(state, 0)) == "groups"
    five = position(
        ["PP..", "....", "TAFT", "A..."], [6], temples=[[0, 2], [1, 2], [2, 2], [3, 2], [0, 3]]
    )
    five = ENGINE.apply_move(five, 0, PARK)
    # All five temples are out: the step is the rule on moving a temple (§2.8).
    assert BOARD.rules_section(ENGINE.view(five, 0)) == "moving-temples"


def test_moving_a_temple_offers_only_the_temples_on_a_smallest_group() -> None:
    # §2.8: temples on groups of 3 (terraces), 4, 5 and 6 (two on the 6).
    rows = ["PP......", "........", "TTT.....", "........", "AAAA....", "........"]
    rows += ["FFFFF...", "........", "TTTTTT..", "........"]
    temples = [[0, 2], [0, 4], [0, 6], [0, 8], [5, 8]]
    state = ENGINE.apply_move(position(rows, [6], temples=temples), 0, PARK)
    with translation.override("en"):
        drawn = BOARD.board(ENGINE.view(state, 0), NAMES, [])
    mine = drawn["gardens"][0]
    assert drawn["relocating"] is True
    assert {(t["gx"], t["gy"]) for t in mine["temples"] if t["source"]} == {(0, 2)}
    moves = [json.loads(o["value"]) for o in drawn["temple_options"]]
    assert {(m["type"], m["from_x"], m["from_y"]) for m in moves} == {("move_temple", 0, 2)}
    assert {(s["gx"], s["gy"]) for s in mine["squares"] if s["target"]} == {
        (0, 0),
        (1, 0),
        (2, 0),
    }


def test_another_seats_face_down_tiles_stay_unnamed_on_the_board() -> None:
    state = ENGINE.load(
        {
            "players": 2,
            "deck": list(range(5, 20)),
            "display": [1, 2, 3, 4],
            "supply": ["gate"] * 10,
            "tiles": [{"open": ["queen"], "hidden": ["priest"]}, {"hidden": ["sculptor"]}],
        }
    )
    with translation.override("en"):
        drawn = BOARD.board(ENGINE.view(state, 0), NAMES, [])
    text = json.dumps(drawn, default=str)
    assert "priest" in text  # Alice's own face-down tile
    assert "sculptor" not in text.lower()  # Bob's, of which Alice sees only that it exists
    bob = next(g for g in drawn["gardens"] if g["seat"] == 1)
    assert bob["hidden"] is None and bob["hidden_count"] == 1


def test_a_kept_motif_name_follows_the_readers_language() -> None:
    # Motif names are kept per process once worked out: one kept in English must not answer
    # a Hungarian or Polish reader, nor theirs an English one afterwards.
    named = {}
    for language in ("en", "hu", "pl", "en", "pl"):
        with translation.override(language):
            named.setdefault(language, set()).add(motif_name("T"))
    assert named == {"en": {"Terrace"}, "hu": {"Terasz"}, "pl": {"Taras"}}
