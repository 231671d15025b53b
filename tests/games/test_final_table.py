"""The end of a game explains itself (issue 19, item 1), for every game of the registry and in
English, Hungarian and Polish: the standings come first (rank, name, total, rating and
nothing else), every category says it is points and shows what it counted where the rule
scores a measure, the chart's legend is laid out in HTML, a link opens the rulebook's scoring
section, and the move log's last line says why the game ended.

The expected measures and reasons are worked out here from the finished game's state JSON
and the rules (the specs in shared/games/), not from the code that renders them.
"""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from accounts.models import User
from games import engines, rendering, services
from games.engines.base import Engine
from games.models import Game
from tests.conftest import make_user
from tests.games.test_pages_conformance import bot_table, by_slug, random_moves

ROOT = Path(__file__).resolve().parents[2]
ENGINES = engines.all()
LANGUAGES = ("en", "hu", "pl")
SEED = 19

pytestmark = pytest.mark.django_db

# "<category> (points)" in each language.
POINTS = {"en": "(points)", "hu": "(pont)", "pl": "(punkty)"}
HOW_SCORING_WORKS = {
    "en": "How scoring works",
    "hu": "Így számolunk pontot",
    "pl": "Jak liczymy punkty",
}


def finished(engine: Engine, member: User | None = None) -> Game:
    """A seeded random game of a member (seat 0) and bots of different levels (so that every
    seat is rated), played to its end through the one move path, with its results stored."""
    players = engine.min_players
    levels = ["easy", "normal", "hard"][: players - 1]
    game = services.create_game(
        engine_slug=engine.slug,
        players=players,
        options={},
        seats=[{"kind": "me"}] + [{"kind": "bot", "bot_level": level} for level in levels],
        created_by=member or make_user("alice", display_name="Alice"),
        seed=SEED,
    )
    for number, (seat, move) in enumerate(random_moves(engine, players, SEED), start=1):
        services.play_move(
            game_id=game.pk, seat=seat, move=move, expected_version=number - 1, by_bot=seat > 0
        )
    services.finish_game(game_id=game.pk)
    return Game.objects.get(pk=game.pk)


def board(game: Game, language: str) -> str:
    with translation.override(language):
        return rendering.board_html(game=Game.objects.get(pk=game.pk), seat=None)


def text(fragment: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def standings(html: str) -> str:
    return re.search(r'<table class="score-table final">.*?</table>', html, re.S).group(0)


def breakdown_rows(html: str) -> dict[str, tuple[str, list[str]]]:
    """category key -> (row heading, cells in the standings' order)."""
    table = re.search(r'<table class="score-breakdown">.*?</table>', html, re.S)
    assert table, "no table of points per category"
    rows = {}
    for key, cells in re.findall(r'<tr data-category="([^"]+)">(.*?)</tr>', table.group(0), re.S):
        heading = text(re.search(r"<th[^>]*>(.*?)</th>", cells, re.S).group(1))
        rows[key] = (heading, [text(c) for c in re.findall(r"<td>(.*?)</td>", cells, re.S)])
    return rows


def seat_order(html: str) -> list[int]:
    return [int(s) for s in re.findall(r'<tr data-seat="(\d+)"', standings(html))]


# --- the measures, from the state and the rules -------------------------------------------------


def plural(count: int, one: str, many: str) -> str:
    return one if count == 1 else many


def cell(points: int, words: str, *counts: int) -> str:
    """ "6 (level 3)"; a measure of nothing is left out: "0", not "0 (0 tiles)"."""
    return f"{points} ({words})" if any(counts) else str(points)


def babylon_cells(data: dict, seat: int, points: dict[str, int]) -> dict[str, str]:
    # Spec §2.10 and §3.6: 2 points per level of the highest tile; 4 points per set.
    level = max((tile["level"] for tile in data["boards"][seat]["tiles"]), default=0)
    assert points["height"] == 2 * level
    cells = {"height": cell(2 * level, f"level {level}", level)}
    for key in ("decoration_sets", "flower_sets"):
        sets = points[key] // 4
        cells[key] = cell(points[key], f"{sets} {plural(sets, 'set', 'sets')}", sets)
    return cells


AKROPOLIS_STARS = {"H": ("house", 1), "M": ("market", 2), "B": ("barracks", 2)}
AKROPOLIS_STARS |= {"T": ("temple", 2), "G": ("garden", 3)}


def akropolis_cells(data: dict, seat: int, points: dict[str, int]) -> dict[str, str]:
    # Spec §2.6: points(c) = value(c) × stars(c); stars from the visible plazas.
    stars = dict.fromkeys([name for name, _ in AKROPOLIS_STARS.values()], 0)
    gardens = 0
    for position in data["cities"][seat]:
        top = position["stack"][-1][0]
        if top in AKROPOLIS_STARS:
            name, count = AKROPOLIS_STARS[top]
            stars[name] += count
        elif top == "g":
            gardens += len(position["stack"])  # a garden always qualifies, with its level
    cells = {}
    for name, count in stars.items():
        value = gardens if name == "garden" else (points[name] // count if count else None)
        if value is None:
            continue  # no plaza: 0 points whatever the districts; the value is not checked
        assert points[name] == value * count
        unit = plural(count, "plaza star", "plaza stars")
        cells[name] = cell(points[name], f"districts {value} × {count} {unit}", value, count)
    return cells


def hanging_gardens_cells(data: dict, seat: int, points: dict[str, int]) -> dict[str, str]:
    # Spec §2.11: a series scores by its number of tiles, the guard 3 per gate, a missing
    # tile 5 points.
    held = data["tiles"][seat]
    tiles = held["open"] + held["hidden"]
    cells = {}
    for kind in ("queen", "king", "tiger", "garden", "statue", "chalice", "gate"):
        n = tiles.count(kind)
        cells[kind] = cell(points[kind], f"{n} {plural(n, 'tile', 'tiles')}", n)
    if "guard" in tiles:
        gates = tiles.count("gate")
        assert points["guard"] == 3 * gates
        cells["guard"] = cell(points["guard"], f"{gates} {plural(gates, 'gate', 'gates')}", gates)
    missing = held["missing"]
    assert points["missing"] == 5 * missing
    words = f"{missing} {plural(missing, 'tile', 'tiles')} missing"
    cells["missing"] = cell(5 * missing, words, missing)
    return cells


def tower_of_babel_cells(data: dict, seat: int, points: dict[str, int]) -> dict[str, str]:
    # Spec §2.9 step 3: the disc set bonus counts the discs collected.
    n = len(data["discs"][seat])
    return {"disc_sets": cell(points["disc_sets"], f"{n} {plural(n, 'disc', 'discs')}", n)}


EXPECTED_CELLS = {
    "babylon": babylon_cells,
    "akropolis": akropolis_cells,
    "hanging-gardens": hanging_gardens_cells,
    "tower-of-babel": tower_of_babel_cells,
}


# --- why the game ended, from the state and the rules ----------------------------------------


def babylon_reason(data: dict) -> str:
    # Spec §2.9: 15 rounds with 2 players.
    assert data["players"] == 2
    return "The game ended because all 15 rounds were played."


def akropolis_reason(data: dict) -> str:
    # Spec §2.5: one tile left on the site and no stack.
    assert len(data["site"]) == 1 and not data["stacks"]
    return (
        "The game ended because the construction site was down to its last tile and no "
        "stack was left to refill it."
    )


def hanging_gardens_reason(data: dict) -> str:
    # Spec §2.10: the building deck or the face-down point tiles are used up.
    deck, supply = data["deck"], data["supply"]
    assert not deck or not supply
    if not deck and not supply:
        return (
            "The game ended because both the building deck and the face-down point tiles "
            "were used up."
        )
    if not supply:
        return (
            "The game ended because the face-down point tiles ran out; the round was "
            "played to its end."
        )
    return "The game ended because the building deck was used up."


def tower_of_babel_reason(data: dict) -> str:
    # Spec §2.9: no disc of some type is left on the wonders.
    from games.engines.tower_of_babel.data import DISCS, TYPES

    left = {k for discs in data["wonders"] for disc in discs for k in range(4) if DISCS[disc][k]}
    plurals = {"camel": "camels", "crane": "cranes", "ship": "ships", "stonemason": "stonemasons"}
    gone = [TYPES[k] for k in range(4) if k not in left]
    assert gone
    return " ".join(
        f"The game ended because no disc needing {plurals[kind]} is left on the wonders."
        for kind in gone
    )


EXPECTED_REASON = {
    "babylon": babylon_reason,
    "akropolis": akropolis_reason,
    "hanging-gardens": hanging_gardens_reason,
    "tower-of-babel": tower_of_babel_reason,
}


def last_log_line(html: str) -> str:
    log = re.search(r'<ol class="recent-list">(.*?)</ol>', html, re.S).group(1)
    items = re.findall(r"<li[^>]*>.*?</li>", log, re.S)
    assert 'class="newest end-reason"' in items[-1]
    return text(items[-1])


# --- the tests ------------------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES, ids=by_slug)
def test_the_end_of_a_game_explains_itself(engine: Engine) -> None:
    assert engine.slug in EXPECTED_CELLS and engine.slug in EXPECTED_REASON, (
        f"{engine.slug}: write down here, from its rules, what its final table must show"
    )
    game = finished(engine)
    data = engine.dump(engine.load(game.state))
    scores = engine.scores(engine.load(game.state))
    sections = json.loads(
        (ROOT / "rulebooks" / "content" / engine.slug / "book.json").read_text("utf-8")
    )["sections"]
    english = board(game, "en")
    order = seat_order(english)
    assert sorted(order) == list(range(game.players))

    # The standings: rank, name, total and rating, and no category column beside them.
    table = standings(english)
    heads = [text(h) for h in re.findall(r"<th scope=\"col\"[^>]*>(.*?)</th>", table, re.S)]
    assert heads == ["#", "Player", "Total", "Rating"]
    for seat in order:
        row = re.search(rf'<tr data-seat="{seat}".*?</tr>', table, re.S).group(0)
        assert re.search(rf'<td class="total">{scores["totals"][seat]}</td>', row)
        assert re.search(r'<td class="rating">\d+ <span class="rating-change', row)

    # Every category is a row saying it is points; measured ones show what they counted.
    rows = breakdown_rows(english)
    assert list(rows) == list(scores["breakdown"][0])
    for key, (heading, cells) in rows.items():
        assert heading.endswith(" (points)"), heading
        for seat, cell in zip(order, cells, strict=True):
            assert cell.split(" ")[0] == str(scores["breakdown"][seat][key])
    for position, seat in enumerate(order):
        expected = EXPECTED_CELLS[engine.slug](data, seat, scores["breakdown"][seat])
        assert expected, "every game scores some measure"
        for key, cell in expected.items():
            assert rows[key][1][position] == cell, (key, seat)

    # The legend is an HTML list with one item per category; the SVG holds the bars only.
    legend = re.search(r'<ul class="chart-legend">(.*?)</ul>', english, re.S)
    assert legend and legend.group(1).count("<li>") == len(rows)
    assert 'class="legend"' not in english

    # "How scoring works" opens the rulebook's scoring section.
    link = re.search(r'<a class="scoring-link" href="([^"]+)"[^>]*>(.*?)</a>', english)
    assert link and link.group(2) == "How scoring works"
    path, anchor = link.group(1).split("#")
    assert path == f"/rules/{engine.slug}/" and anchor in sections and "scoring" in anchor

    # The log's last line says why the game ended.
    assert last_log_line(english) == EXPECTED_REASON[engine.slug](data)

    # The same page in Hungarian and Polish: the same numbers, in the reader's words.
    for language in LANGUAGES[1:]:
        local = board(game, language)
        assert seat_order(local) == order
        local_rows = breakdown_rows(local)
        for key, (heading, cells) in local_rows.items():
            assert heading.endswith(f" {POINTS[language]}"), (language, heading)
            measured = EXPECTED_CELLS[engine.slug](data, order[0], scores["breakdown"][order[0]])
            if key in measured and "(" in measured[key]:
                english_cell = rows[key][1][0]
                assert cells[0] != english_cell, f"{key} is not translated into {language}"
                assert re.findall(r"\d+", cells[0]) == re.findall(r"\d+", english_cell)
        link = re.search(r'<a class="scoring-link" href="([^"]+)"[^>]*>(.*?)</a>', local)
        assert link.group(2) == HOW_SCORING_WORKS[language]
        reason = last_log_line(local)
        assert reason and reason != last_log_line(english) and "%(" not in reason


def test_babylon_highest_level_reads_as_points_and_level_in_every_language() -> None:
    """The issue's example: the column said 6 beside a garden that said "highest level 3"."""
    engine = engines.get("babylon")
    game = finished(engine)
    data = engine.dump(engine.load(game.state))
    seat = seat_order(board(game, "en"))[0]
    level = max(tile["level"] for tile in data["boards"][seat]["tiles"])
    expected = {
        "en": ("Highest level (points)", f"{2 * level} (level {level})"),
        "hu": ("Legmagasabb szint (pont)", f"{2 * level} ({level}. szint)"),
        "pl": ("Najwyższy poziom (punkty)", f"{2 * level} (poziom {level})"),
    }
    for language, (heading, cell) in expected.items():
        rows = breakdown_rows(board(game, language))
        assert rows["height"][0] == heading
        assert rows["height"][1][0] == cell


def test_a_running_game_has_no_end_line_and_no_scoring_link() -> None:
    engine = ENGINES[0]
    game = bot_table(engine, engine.min_players, SEED)
    html = board(game, "en")
    assert "end-reason" not in html and "scoring-link" not in html


@pytest.mark.parametrize("engine", ENGINES, ids=by_slug)
def test_how_scoring_works_opens_the_scoring_section_in_the_readers_language(
    engine: Engine, client: Any
) -> None:
    from django.core.management import call_command

    from rulebooks import selectors
    from rulebooks.models import Rulebook

    call_command("import_rulebooks")
    available = selectors.available_languages(Rulebook.objects.get(slug=engine.slug))
    member = make_user("alice", display_name="Alice")
    game = finished(engine, member)
    client.force_login(member)
    for language in LANGUAGES:
        User.objects.filter(pk=member.pk).update(language=language)
        page = client.get(f"/games/{game.pk}/").content.decode()
        href = re.search(r'<a class="scoring-link" href="([^"]+)"', page).group(1)
        path, anchor = href.split("#")
        book = client.get(path)
        assert book.status_code == 200
        text = book.content.decode()
        assert f'id="{anchor}"' in text
        # Every rulebook has all three languages (rulebooks/content/), so the reader's.
        assert language in available
        assert f'<div class="rb-sections" lang="{language}">' in text


@pytest.mark.parametrize("engine", ENGINES, ids=by_slug)
def test_the_replays_move_log_ends_with_why_the_game_ended(engine: Engine, client: Any) -> None:
    member = make_user("alice", display_name="Alice")
    game = finished(engine, member)
    data = engine.dump(engine.load(game.state))
    client.force_login(member)
    for number in (0, game.version):
        page = client.get(f"/games/{game.pk}/replay/?move={number}").content.decode()
        log = re.search(r'<details class="move-log">.*?</details>', page, re.S).group(0)
        items = re.findall(r"<li[^>]*>(.*?)</li>", log, re.S)
        assert len(items) == game.version + 1
        assert text(items[-1]) == EXPECTED_REASON[engine.slug](data)
