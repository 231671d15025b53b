"""The board drawn from a seat's view: it shows what the view says, and never more."""

from __future__ import annotations

import html as html_lib
import random
import re
from typing import Any

import pytest
from django.template.loader import render_to_string

from accounts.models import User
from games import engines, rendering
from games.models import Game, Seat

ENGINE = engines.get("akropolis")

pytestmark = pytest.mark.django_db


def play_until(state: Any, done: Any, seed: int = 3, limit: int = 500) -> Any:
    """Play seeded random legal moves until `done(state)` holds."""
    rng = random.Random(seed)
    for _ in range(limit):
        if done(state):
            return state
        seat = ENGINE.to_move(state)[0]
        state = ENGINE.apply_move(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
    raise AssertionError("the position was not reached")


def make_game(state: Any, alice: User, bob: User) -> Game:
    game = Game.objects.create(
        engine_slug="akropolis",
        seed=7,
        players=2,
        status=Game.Status.RUNNING,
        state=ENGINE.dump(state),
        version=0,
    )
    Seat.objects.create(game=game, position=0, user=alice)
    Seat.objects.create(game=game, position=1, user=bob)
    return game


def render_board(game: Game, state: Any, seat: int | None) -> str:
    ctx = rendering.board_context(game=game, seat=seat, view=ENGINE.view(state, seat))
    return html_lib.unescape(render_to_string("games/play.html#board", ctx))


def city_svg(html: str, seat: int) -> str:
    city = rf'<svg class="city-svg[^"]*"[^>]*data-seat="{seat}"[^>]*>.*?</svg>'
    match = re.search(city, html, re.S)
    assert match, f"no city drawn for seat {seat}"
    return match.group(0)


def test_city_shows_every_hex_with_its_top_district_and_level(alice: User, bob: User) -> None:
    def has_second_level(s: Any) -> bool:
        return any(cell["level"] >= 2 for cell in ENGINE.view(s, None)["cities"][0])

    state = play_until(ENGINE.new_game(2, 11), has_second_level)
    html = render_board(make_game(state, alice, bob), state, 0)
    svg = city_svg(html, 0)
    pattern = r'<g class="hex[^"]*" data-q="(-?\d+)" data-r="(-?\d+)" data-hex="(\w+)"'
    drawn = re.findall(pattern + r' data-level="(\d+)"', svg)
    names = ENGINE.view(state, 0)["geometry"]["hex_names"]
    expected = {
        (str(c["q"]), str(c["r"]), names[c["top"]], str(c["level"]))
        for c in ENGINE.view(state, 0)["cities"][0]
    }
    assert set(drawn) == expected
    assert len(drawn) == len(expected)
    # A raised hex carries its level as a number the player can read.
    assert re.search(r'data-level="2">.*?<text class="level"[^>]*>2</text>', svg, re.S)


def test_plaza_shows_its_stars(alice: User, bob: User) -> None:
    state = ENGINE.new_game(2, 7)  # the starting tile has a house plaza: one star
    svg = city_svg(render_board(make_game(state, alice, bob), state, 0), 0)
    plaza = re.search(r'data-hex="house_plaza".*?</g>', svg, re.S)
    assert plaza and '<text class="stars"' in plaza.group(0) and "★</text>" in plaza.group(0)
    assert "★★" not in plaza.group(0)


def test_site_shows_costs_and_only_the_player_to_move_gets_take_buttons(
    alice: User, bob: User
) -> None:
    state = ENGINE.new_game(2, 7)  # seat 0 to move with 1 stone: tiles 0 and 1 affordable
    game = make_game(state, alice, bob)
    mine = render_board(game, state, 0)
    assert len(ENGINE.view(state, 0)["legal"]["take"]) == 2
    assert mine.count('class="site-tile can-take"') == 2
    assert '"type": "take_tile", "index": 1' in mine
    assert '"type": "take_tile", "index": 2' not in mine
    assert "free" in mine and "3 stones" in mine
    theirs = render_board(game, state, 1)
    assert "can-take" not in theirs
    assert "<form" not in render_board(game, state, None)


def test_place_phase_highlights_each_legal_spot_and_lists_every_placement(
    alice: User, bob: User
) -> None:
    state = ENGINE.apply_move(ENGINE.new_game(2, 7), 0, {"type": "take_tile", "index": 0})
    view = ENGINE.view(state, 0)
    html = render_board(make_game(state, alice, bob), state, 0)
    anchors = {(p["q"], p["r"]) for p in view["legal"]["place"]}
    spots = set(re.findall(r'<g class="spot"[^>]*data-q="(-?\d+)" data-r="(-?\d+)"', html))
    assert spots == {(str(q), str(r)) for q, r in anchors}
    assert html.count('<g class="preview"') == len(view["legal"]["place"])
    assert html.count("<option value=") == len(view["legal"]["place"])
    assert 'name="expected_version" value="1"' not in html  # the game row says version 0
    assert 'name="expected_version" value="0"' in html


def test_each_preview_shows_its_placements_tile_on_the_placements_hexes(
    alice: User, bob: User
) -> None:
    """A preview is the tile in hand drawn once per way it lies (`<defs>`) and moved to its
    place (`<use>`): moved there, its hexes are the placement's hexes, with their districts'
    colours, and its ring is round the placement's own place."""
    from games.boards.akropolis.drawing import HEX_RADIUS
    from games.boards.akropolis.names import HEX_COLOURS

    def centre(q: int, r: int) -> tuple[float, float]:  # axial hex layout, flat-topped
        return 1.5 * q * HEX_RADIUS, 3**0.5 * (r + q / 2) * HEX_RADIUS

    def polygon_centre(points: str) -> tuple[float, float]:
        corners = [tuple(map(float, p.split(","))) for p in points.split()]
        return sum(c[0] for c in corners) / 6, sum(c[1] for c in corners) / 6

    def placing_in_a_grown_city(s: Any) -> bool:
        view = ENGINE.view(s, 0)
        return view["phase"] == "place" and 0 in view["to_move"] and len(view["cities"][0]) > 9

    state = play_until(ENGINE.new_game(2, 7), placing_in_a_grown_city)
    view = ENGINE.view(state, 0)
    svg = city_svg(render_board(make_game(state, alice, bob), state, 0), 0)
    tiles = {
        name: re.findall(r'<polygon points="([^"]+)" fill="([^"]+)"/>', body)
        for name, body in re.findall(r'<g id="([^"]+)" class="preview-tile">(.*?)</g>', svg)
    }
    previews = re.findall(
        r'<g class="preview" data-index="(\d+)"[^>]*><use href="#([^"]+)" x="([^"]+)" '
        r'y="([^"]+)"/><polygon class="anchor" points="([^"]+)"/>',
        svg,
    )
    assert len(previews) == len(view["legal"]["place"]) > 0
    assert len(tiles) <= 6  # one drawing per way the tile lies
    for index, name, x, y, ring in previews:
        option = view["legal"]["place"][int(index)]
        drawn = sorted(
            (round(cx + float(x)), round(cy + float(y)), fill)
            for points, fill in tiles[name]
            for cx, cy in [polygon_centre(points)]
        )
        wanted = sorted(
            (
                round(centre(h["q"], h["r"])[0]),
                round(centre(h["q"], h["r"])[1]),
                HEX_COLOURS[h["hex"].lower()],
            )
            for h in option["hexes"]
        )
        assert drawn == wanted
        ring_x, ring_y = polygon_centre(ring)
        assert (round(ring_x), round(ring_y)) == tuple(
            round(v) for v in centre(option["q"], option["r"])
        )


def test_board_never_depends_on_the_hidden_stacks(alice: User, bob: User) -> None:
    """Spec §5: two games that differ only in the face-down stacks look the same."""
    state = ENGINE.new_game(2, 7)
    data = ENGINE.dump(state)
    shuffled = dict(data, stacks=[list(reversed(stack)) for stack in reversed(data["stacks"])])
    other = ENGINE.load(shuffled)
    game = make_game(state, alice, bob)
    for seat in (0, 1, None):
        assert render_board(game, state, seat) == render_board(game, other, seat)


def test_page_holds_no_tile_id_of_a_face_down_stack(alice: User, bob: User) -> None:
    state = ENGINE.new_game(2, 7)
    html = render_board(make_game(state, alice, bob), state, 0)
    hidden = {tile for stack in ENGINE.dump(state)["stacks"] for tile in stack}
    shown = {int(n) for n in re.findall(r'data-tile="(\d+)"', html)}
    assert not shown & hidden
    # The board names no tile ids at all: even the public ones are drawn by their hexes.
    assert "data-tile" not in html


def test_finished_game_shows_final_table_with_each_category_and_a_bar_chart(
    alice: User, bob: User
) -> None:
    state = play_until(ENGINE.new_game(2, 5), ENGINE.is_over, seed=5)
    html = render_board(make_game(state, alice, bob), state, 0)
    scores = ENGINE.scores(state)
    assert "Final scores" in html
    # Each category is a row of points under the standings (issue 19: rank, name, total and
    # rating come first at any width).
    for label in ("Houses", "Markets", "Barracks", "Temples", "Gardens", "Stones"):
        assert f'<th scope="row">{label} (points)</th>' in html
    for seat, total in enumerate(scores["totals"]):
        assert re.search(
            rf'<tr data-seat="{seat}"[^>]*>.*?<td class="total">{total}</td>', html, re.S
        )
    chart = re.search(r'<svg class="score-chart".*?</svg>', html, re.S)
    assert chart
    positive = sum(1 for parts in scores["breakdown"] for v in parts.values() if v > 0)
    # The legend is an HTML list under the chart; the SVG holds one rect per bar segment.
    assert chart.group(0).count("<rect x=") == positive
    winner = scores["winners"][0]
    assert re.search(rf'<tr data-seat="{winner}" class="winner">', html)


def test_final_table_follows_the_stored_ranks_so_a_resigned_seat_ranks_last(
    alice: User, bob: User
) -> None:
    """games/services.final_ranks: a seat that resigned ranks after every seat that played on,
    whatever its bot scored; the table must agree with the stored results, not the engine."""
    from games.models import Result

    state = play_until(ENGINE.new_game(2, 5), ENGINE.is_over, seed=5)
    scores = ENGINE.scores(state)
    best, other = scores["ranking"][0], scores["ranking"][1]
    game = make_game(state, alice, bob)
    game.status = Game.Status.FINISHED
    game.save()
    game.seats.filter(position=best).update(resigned=True, bot_level="normal", bot_took_over=True)
    for seat, rank in ((other, 1), (best, 2)):
        Result.objects.create(
            game=game,
            seat=seat,
            score=scores["totals"][seat],
            breakdown=scores["breakdown"][seat],
            rank=rank,
            rating_before=0.0,
            rating_after=2.5 if rank == 1 else -1.5,
        )
    html = render_board(Game.objects.get(pk=game.pk), state, 0)
    rows = re.findall(r'<tr data-seat="(\d)"( class="winner")?>\s*<td>(\d)</td>', html)
    assert rows == [(str(other), ' class="winner"', "1"), (str(best), "", "2")]
    # Ratings read from 1000 for a newcomer, 40 points per point of OpenSkill ordinal
    # (docs/club.md, "Ratings"): ordinal 0 -> 2.5 is 1000 -> 1100, and 0 -> -1.5 is 1000 -> 940.
    assert re.search(r'<td class="rating">1100 <span class="rating-change">\(\+100\)', html)
    assert re.search(r'<td class="rating">940 <span class="rating-change down">\(-60\)', html)
    resigned_row = re.search(rf'<tr data-seat="{best}">.*?</tr>', html, re.S).group(0)
    assert 'class="badge resigned-badge"' in resigned_row and "resigned" in resigned_row
    other_row = re.search(rf'<tr data-seat="{other}"[^>]*>.*?</tr>', html, re.S).group(0)
    assert "resigned-badge" not in other_row


@pytest.mark.parametrize(
    ("moves", "anchor"),
    [([], "#take-tile"), ([{"type": "take_tile", "index": 0}], "#place-tile")],
)
def test_rules_link_points_at_the_current_step(
    alice: User, bob: User, moves: list[dict], anchor: str
) -> None:
    state = ENGINE.new_game(2, 7)
    for move in moves:
        state = ENGINE.apply_move(state, 0, move)
    html = render_board(make_game(state, alice, bob), state, 1)
    assert f'href="/rules/akropolis/{anchor}"' in html


def test_board_stamp_changes_when_results_are_stored_without_a_new_move(
    alice: User, bob: User
) -> None:
    """A live board with the same move number is swapped in only when its stamp differs:
    storing the final results must change it, or players would not see the final table."""
    from games import services
    from tests.games.conftest import build_game, play_random_moves

    game = play_random_moves(build_game(alice, bob))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    game.results.all().delete()
    before = rendering.board_stamp(game)
    services.finish_game(game_id=game.pk)
    game.refresh_from_db()
    assert game.version == game.moves.count()
    assert rendering.board_stamp(game) != before


def test_board_stamp_is_stable_while_nothing_changes(alice: User, bob: User) -> None:
    state = ENGINE.new_game(2, seed=7)
    game = make_game(state, alice, bob)
    assert rendering.board_stamp(game) == rendering.board_stamp(Game.objects.get(pk=game.pk))


def svg_numbers(html: str) -> list[tuple[str, str]]:
    """(attribute, value) of the coordinates and sizes in every SVG of the page."""
    attrs = r'\b(x|y|cx|cy|r|width|height|dy|viewBox|points)="([^"]*)"'
    found = []
    for svg in re.findall(r"<svg\b.*?</svg>", html, re.S):
        found.extend(re.findall(attrs, svg))
    return found


@pytest.mark.parametrize("language", ["hu", "pl"])
def test_hungarian_and_polish_boards_draw_the_same_numbers_as_english(
    alice: User, bob: User, language: str
) -> None:
    """Decimal commas must never reach the SVG: plaza stars at x="0,0" y="103,9" land on the
    wrong hexes, and the final chart loses its bars."""
    from django.utils import translation

    def has_plaza_and_second_level(s: Any) -> bool:
        cells = ENGINE.view(s, None)["cities"][0]
        return s.turns_played >= 10 and any(c["level"] >= 2 for c in cells)

    middle = play_until(ENGINE.new_game(2, 11), has_plaza_and_second_level, limit=80)
    end = play_until(middle, ENGINE.is_over, seed=4)
    for state in (middle, end):
        game = make_game(state, alice, bob)
        with translation.override("en"):
            english = render_board(game, state, 0)
        with translation.override(language):
            local = render_board(game, state, 0)
        numbers = svg_numbers(local)
        assert numbers == svg_numbers(english)
        assert len(numbers) > 50
        for name, value in numbers:
            parts = value.replace(",", " ").split() if name == "points" else value.split()
            for part in parts:
                float(part)  # a decimal comma would have split a number in two or failed
            if name == "points":
                assert all(p.count(",") == 1 for p in value.split())
    # The final chart has one bar segment per positive category of each player.
    scores = ENGINE.scores(end)
    positive = sum(1 for parts in scores["breakdown"] for v in parts.values() if v > 0)
    with translation.override(language):
        final = render_board(make_game(end, alice, bob), end, 0)
    chart = re.search(r'<svg class="score-chart".*?</svg>', final, re.S).group(0)
    bars = "".join(re.findall(r'<g class="bar">.*?</g>', chart, re.S))
    assert len(re.findall(r'<rect x="[\d.]+" y="\d+" width="[\d.]+"', bars)) == positive


def test_bot_seats_carry_the_sites_bot_badge_in_the_turn_bar_and_the_scores(
    alice: User, bob: User
) -> None:
    state = ENGINE.new_game(2, 7)
    game = make_game(state, alice, bob)
    game.seats.filter(position=0).update(user=None, bot_level="normal")
    html = render_board(Game.objects.get(pk=game.pk), state, 1)  # seat 0, a bot, is to move
    waiting = re.search(r'<span class="waiting">.*?</span>\.?</span>', html, re.S).group(0)
    assert "Normal bot" in waiting and "bot-badge" in waiting
    rows = dict(re.findall(r'<tr data-seat="(\d)"[^>]*>(.*?)</tr>', html, re.S))
    assert "bot-badge" in rows["0"] and "bot-badge" not in rows["1"]


@pytest.mark.parametrize(
    ("language", "easy", "hard"),
    [
        ("en", "Easy bot", "Hard bot"),
        ("hu", "Könnyű gépi játékos", "Nehéz gépi játékos"),
        ("pl", "Łatwy bot", "Trudny bot"),
    ],
)
def test_bots_of_the_same_level_are_told_apart_by_a_number(
    language: str, easy: str, hard: str, alice: User
) -> None:
    from django.utils import translation

    from tests.games.conftest import build_game

    game = build_game(alice, "easy", "hard", "easy", engine="akropolis")
    with translation.override(language):
        names = rendering.seat_names(game)
    assert names == ["Alice", f"{easy} 1", hard, f"{easy} 2"]
