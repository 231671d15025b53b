"""The Babylon board module: what each move did in words, the rulebook section of each step,
the lobby's option, and drawing data built from a seat's view only."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from games import boards, rendering, services
from games.boards.babylon import names as tile_names
from games.engines.babylon import ENGINE
from games.engines.babylon.state import State
from games.models import Game
from tests.conftest import make_user
from tests.games.test_pages_conformance import random_moves

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
    assert text == ("Alice dug a clay tile (white flower; stairs, bridge) and got 5 single pillars")
    move = {"type": "place", "tile": "stored", "x": 2, "y": 2, "rotation": 0, "level": 1,
            "open_corner": 1}  # fmt: skip
    state, text = play(state, move)
    assert text == (
        "Alice built the starting tile (white flower; stairs, fountain, bridge, statue) on "
        "level 1 at C3, with a belvedere"
    )
    # SFBT unturned: the statue symbol is on the south-west corner, C4.
    state, text = play(state, {"type": "decorate", "kind": "statue", "x": 2, "y": 3,
                               "toward": None})  # fmt: skip
    assert text == "Alice built: statue on C4 (1 point)"
    state, text = play(state, {"type": "end_turn", "taken": "store"})
    assert text == ("Alice stored a clay tile (white flower; stairs, bridge) and ended the turn")


def test_removals_symbols_and_plain_ends_in_words() -> None:
    state = ENGINE.new_game(2, seed=3)
    x, y = ENGINE.legal_moves(state, 0)[0]["x"], ENGINE.legal_moves(state, 0)[0]["y"]
    _, text = play(state, {"type": "remove_clay", "x": x, "y": y})
    assert text.startswith("Alice removed a clay tile (") and text.endswith("from the quarry")
    garden = {"tiles": [], "singles": 4}
    state = turn_state(garden, "C09", effect="add_symbol")
    move = {"type": "place", "tile": "taken", "x": 0, "y": 0, "rotation": 0, "level": 1,
            "open_corner": None}  # fmt: skip
    state, text = play(state, move)
    assert text == "Alice built a clay tile (blue flower; stairs, fountain) on level 1 at A1"
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
    # "oszlop" is the pillar and "halom" the round tokens' pile; the site's rulebook calls a
    # quarry stack "kupac".
    assert drawn["quarry"][0]["label"].startswith("a1 kupac, 3 magas")
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


# Issue 34, item 1: a tile is named in words (its material, its flower, its decorations),
# never by the engine's code: "C03", "G09", "B14" or "S-orange" for a starting tile.
TILE_CODE = re.compile(r"\b(?:[CGB](?:0[1-9]|1[0-6])|S-(?:orange|pink|blue|white))\b")


def words_of(html: str) -> list[str]:
    """What a member reads or hears: titles, accessible names and the text of the page."""
    names = re.findall(r'(?:title|aria-label)="([^"]*)"', html)
    names += re.findall(r"<title>(.*?)</title>", html, re.S)
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return [unescape(n) for n in names] + [unescape(re.sub(r"<[^>]+>", " ", text))]


def game_in_its_build_step() -> Game:
    """Alice against a bot, some rounds in: tiles in both gardens and a tile dug for her to
    build, played through the one move path."""
    alice = make_user("alice", display_name="Alice")
    game = services.create_game(
        engine_slug="babylon",
        players=2,
        options={},
        seats=[{"kind": "me"}, {"kind": "bot", "bot_level": "easy"}],
        created_by=alice,
        seed=5,
    )
    state = ENGINE.new_game(2, 5)
    for number, (seat, move) in enumerate(random_moves(ENGINE, 2, 5)):
        if number >= 30 and state.phase == "build" and ENGINE.to_move(state) == [0]:
            break
        services.play_move(
            game_id=game.pk, seat=seat, move=move, expected_version=number, by_bot=seat > 0
        )
        state = ENGINE.apply_move(state, seat, move)
    return Game.objects.get(pk=game.pk)


@pytest.mark.django_db
def test_no_tile_is_named_by_its_code_on_the_board_in_the_log_or_in_advice() -> None:
    game = game_in_its_build_step()
    names = rendering.seat_names(game)
    view = ENGINE.view(ENGINE.load(game.state), 0)
    assert view["turn"]["taken"] and any(board["tiles"] for board in view["boards"])
    for language in ("en", "hu", "pl"):
        with translation.override(language):
            pages = [
                rendering.board_html(game=game, seat=game.seats.get(position=0)),
                rendering.board_html(game=game, seat=None),
            ]
            log = [rendering.describe_move("babylon", names[m.seat], m) for m in game.moves.all()]
            advice = [
                rendering.advise_payload("babylon", names, m.payload, m.summary)
                for m in game.moves.all()
            ]
        assert "bab-stack" in pages[0] and "bab-tile-choice" in pages[0]
        for words in [*words_of(pages[0]), *words_of(pages[1]), *log, *advice]:
            assert not TILE_CODE.search(words), (language, TILE_CODE.search(words), words)


def test_a_tile_is_named_by_its_material_flower_and_decorations() -> None:
    # Spec §3.3 (data.TERRACE_TILES): G09 is a blue granite tile showing a bridge, a fountain
    # and a statue; the starting tiles show all four symbols.
    with translation.override("en"):
        assert tile_names.tile_name("G09") == (
            "a granite tile (blue flower; bridge, fountain, statue)"
        )
    with translation.override("hu"):
        assert tile_names.tile_name("S-orange") == (
            "a kezdő teraszlapka (narancssárga virág; lépcső, szökőkút, híd, szobor)"
        )
    with translation.override("pl"):
        assert tile_names.tile_name("C13").startswith("kafelek z gliny (kwiat biały; schody, most")


def test_a_kept_tile_name_follows_the_readers_language() -> None:
    # Names are kept per process once worked out: one kept in English must not answer a
    # Hungarian or Polish reader, nor theirs an English one afterwards.
    named = {}
    for language in ("en", "hu", "pl", "en", "hu"):
        with translation.override(language):
            named.setdefault(language, set()).add(tile_names.tile_name("G09"))
    assert named["en"] == {"a granite tile (blue flower; bridge, fountain, statue)"}
    assert len(named["hu"]) == len(named["pl"]) == 1
    assert named["hu"].isdisjoint(named["en"]) and named["pl"].isdisjoint(named["hu"])
    assert next(iter(named["hu"])).startswith("gránit")


# Spec §2.10: a statue scores its level, a fountain and a bridge 3 per level, stairs the
# levels of the two tiles they join, and a set of one of each 4 more.
LEGEND = {
    "en": {
        "S": ("stairs", "the levels of the two tiles it joins, added"),
        "F": ("fountain", "3 points per level"),
        "B": ("bridge", "3 points per level"),
        "T": ("statue", "1 point per level"),
        "set": "One of each of the four decorations: a set, 4 points",
    },
    "hu": {
        "S": ("lépcső", "az összekötött két lapka szintjének összege"),
        "F": ("szökőkút", "szintenként 3 pont"),
        "B": ("híd", "szintenként 3 pont"),
        "T": ("szobor", "szintenként 1 pont"),
        "set": "A négy díszelemből egy-egy: egy készlet, 4 pont",
    },
    "pl": {
        "S": ("schody", "suma poziomów dwóch łączonych kafelków"),
        "F": ("fontanna", "3 punkty za poziom"),
        "B": ("most", "3 punkty za poziom"),
        "T": ("posąg", "1 punkt za poziom"),
        "set": "Po jednej z czterech dekoracji: zestaw, 4 punkty",
    },
}


@pytest.mark.parametrize("language", sorted(LEGEND))
def test_the_quarry_legend_lists_every_decoration_with_its_points(language: str) -> None:
    state = ENGINE.new_game(2, seed=4)
    with translation.override(language):
        board = BOARD.board(ENGINE.view(state, 0), ["Alice", "Bob"], [])
        html = render_to_string("games/babylon/_board.html", {"board": board, "game": {"pk": 1}})
    legend = html[html.index('class="bab-legend"') :]
    legend = legend[: legend.index("</details>")]
    items = dict(re.findall(r'<li data-symbol="(\w)">(.*?)</li>', legend, re.S))
    assert sorted(items) == sorted("SFBT")
    for symbol in "SFBT":
        name, scores = LEGEND[language][symbol]
        said = " ".join(unescape(re.sub(r"<[^>]+>", " ", items[symbol])).split())
        assert said == f"{name} : {scores}"
        assert "<path" in items[symbol]  # the symbol drawn as on the tiles
    assert LEGEND[language]["set"] in unescape(legend)


@pytest.mark.django_db
def test_the_last_move_line_under_the_quarry_leads_with_the_turn_bars_last_move() -> None:
    # Issue 34: the line under the quarry lagged behind the turn bar, opening with the first
    # step of the turn while the bar showed its newest one.
    game = game_in_its_build_step()
    state = ENGINE.load(game.state)
    move = ENGINE.legal_moves(state, 0)[0]
    services.play_move(game_id=game.pk, seat=0, move=move, expected_version=game.version)
    game = Game.objects.get(pk=game.pk)
    for language in ("en", "hu", "pl"):
        with translation.override(language):
            html = rendering.board_html(game=game, seat=None)
            newest = rendering.describe_move("babylon", "Alice", game.moves.last())
        bar = re.search(r'id="last-move">(.*?)</span>', html, re.S).group(1)
        line = re.search(r'class="bab-latest">(.*?)</span>', html, re.S).group(1)
        assert unescape(line) == newest and newest in unescape(bar)
        earlier = re.search(r'class="meta bab-earlier">(.*?)</span>', html, re.S).group(1)
        dug = game.moves.get(number=game.version - 2)
        assert dug.payload["type"] == "dig"
        with translation.override(language):
            assert rendering.describe_move("babylon", "Alice", dug) in unescape(earlier)


def test_every_quarry_symbol_lies_inside_its_tile() -> None:
    # Issue 34: the bottom row of symbols was drawn off the tile, over the layer stripes.
    state = ENGINE.new_game(3, seed=8)
    for stack in BOARD.board(ENGINE.view(state, 0), ["A", "B", "C"], [])["quarry"]:
        top = stack["top"]
        assert len(top["symbols"]) == 2  # a clay tile on top: two symbols (spec §3.3)
        for symbol in top["symbols"]:
            # The tile's square starts at 2 in the picture; each symbol with its disc is in it,
            # above every layer stripe.
            for centre in (symbol["cx"], symbol["cy"]):
                assert centre - symbol["r"] >= 2 and centre + symbol["r"] <= 2 + top["size"]
            assert all(symbol["cy"] + symbol["r"] < layer["y"] for layer in stack["layers"])
