"""One page-level conformance suite for every engine in the registry (next to the engine
protocol suite in tests/games/engines/test_protocol.py).

For each registered game, seeded random games for each player count are played through the
one move path and stopped at the start, the middle and the end. At each stop the board is
rendered for every seat and for a spectator in English, Hungarian and Polish, and checked:
the SVG is XML, every number in it is a plain number and the same in every language, the
render does not change when only what the viewer may not see changes, and every move has
words in the log. A new game gets all of this by being registered.
"""

from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from games import boards, engines, rendering, services
from games.engines.base import Engine
from games.models import Game

ROOT = Path(__file__).resolve().parents[2]
ENGINES = engines.all()
LANGUAGES = ("en", "hu", "pl")
SEED = 20261123

pytestmark = pytest.mark.django_db

NUMBER = r"-?(?:\d+(?:\.\d+)?|\.\d+)(?:e-?\d+)?"
PLAIN_NUMBER = re.compile(rf"^{NUMBER}$")
# Attributes that hold one number, and those that hold a list of numbers.
NUMERIC = {
    "x", "y", "x1", "x2", "y1", "y2", "cx", "cy", "r", "rx", "ry", "dx", "dy",
    "width", "height", "stroke-width", "font-size", "opacity", "fill-opacity",
    "stroke-opacity", "offset",
}  # fmt: skip
LISTS = {"viewBox", "points", "d", "transform", "stroke-dasharray"}
SVG_BLOCK = re.compile(r"<svg\b.*?</svg>", re.S)
SVG_NS = "{http://www.w3.org/2000/svg}"


def by_slug(engine: Engine) -> str:
    return engine.slug


def board_module(engine: Engine) -> Any:
    module = boards.get(engine.slug)
    assert module is not None, f"{engine.slug} has no board module in games/boards/"
    for name in ("INFO", "board", "summarize", "describe", "rules_section", "MOVE_LABELS"):
        assert hasattr(module, name), f"games/boards/{boards.package_name(engine.slug)}: {name}"
    return module


def random_moves(engine: Engine, players: int, seed: int) -> list[tuple[int, dict]]:
    """A seeded uniformly random game, as (seat, move) pairs, played on the engine alone."""
    chooser = random.Random(seed)
    state = engine.new_game(players, seed)
    moves = []
    while not engine.is_over(state):
        seat = chooser.choice(engine.to_move(state))
        move = chooser.choice(engine.legal_moves(state, seat))
        state = engine.apply_move(state, seat, move)
        moves.append((seat, move))
        assert len(moves) < 20_000, "a random game must end"
    return moves


def bot_table(engine: Engine, players: int, seed: int) -> Game:
    """A running game whose seats are all bots, so the test may play every seat's moves."""
    game = services.create_game(
        engine_slug=engine.slug,
        players=players,
        options={},
        seats=[{"kind": "bot", "bot_level": "normal"}] * players,
        created_by=None,
        seed=seed,
    )
    game.refresh_from_db()
    return game


def render(game: Game, seat: int | None, language: str) -> str:
    with translation.override(language):
        # What a game socket sends (games.live renders it with this same function).
        return rendering.board_html(game=Game.objects.get(pk=game.pk), seat=seat)


def svg_blocks(html: str) -> list[ET.Element]:
    blocks = []
    for text in SVG_BLOCK.findall(html):
        try:
            blocks.append(ET.fromstring(text))
        except ET.ParseError as exc:
            raise AssertionError(f"an SVG does not parse as XML ({exc}): {text[:300]}") from None
    return blocks


def numbers_of(element: ET.Element) -> list[tuple[str, str, str]]:
    """(tag, attribute, value) of every numeric attribute, checked to be plain numbers."""
    found = []
    for node in element.iter():
        for name, value in node.attrib.items():
            if name in NUMERIC:
                assert PLAIN_NUMBER.match(value.strip()), f"<{node.tag} {name}={value!r}>"
            elif name in LISTS:
                # Numbers separated by spaces, commas only between x and y (points), letters
                # for path commands: a decimal comma would leave an odd count of numbers in
                # `points` or a number with a comma inside another attribute.
                if name == "points":
                    for pair in value.split():
                        assert re.fullmatch(rf"{NUMBER},{NUMBER}", pair), f"points={value!r}"
                elif name == "viewBox":
                    parts = value.split()
                    assert len(parts) == 4, f"viewBox={value!r}"
                    assert all(PLAIN_NUMBER.match(p) for p in parts), f"viewBox={value!r}"
            else:
                continue
            found.append((node.tag.removeprefix(SVG_NS), name, value))
    return found


def check_render(html: str) -> list[tuple[str, str, str]]:
    assert 'id="game-board"' in html
    assert "Traceback" not in html and "%(" not in html
    numbers = []
    for svg in svg_blocks(html):
        numbers.extend(numbers_of(svg))
    return numbers


def check_stop(engine: Engine, game: Game, players: int) -> None:
    """The checks at one stop of a game: every seat and the spectator, in every language."""
    game.refresh_from_db()
    state = engine.load(game.state)
    for seat in [*range(players), None]:
        english = render(game, seat, "en")
        numbers = check_render(english)
        for language in LANGUAGES[1:]:
            local = render(game, seat, language)
            assert check_render(local) == numbers, (
                f"{engine.slug}: the drawing's numbers differ in {language} from English"
            )
        check_hidden_information(engine, game, state, seat, english)


def check_hidden_information(
    engine: Engine, game: Game, state: Any, seat: int | None, rendered: str
) -> None:
    """Another state that differs only in what `seat` may not see renders the same."""
    assert hasattr(engine, "determinize"), f"{engine.slug} has no determinize(view, seat, seed)"
    view = engine.view(state, seat)
    for seed in (1, 2):
        other = engine.determinize(view, seat, seed)
        assert engine.view(other, seat) == view
        Game.objects.filter(pk=game.pk).update(state=engine.dump(other))
        try:
            assert render(game, seat, "en") == rendered, (
                f"{engine.slug}: the page of seat {seat} shows something its view hides"
            )
        finally:
            Game.objects.filter(pk=game.pk).update(state=engine.dump(state))
    game.refresh_from_db()


@pytest.mark.parametrize("engine", ENGINES, ids=by_slug)
def test_every_registered_game_has_its_pages(engine: Engine) -> None:
    """The board module, the templates and the rulebook sections a game's pages need."""
    module = board_module(engine)
    assert module.INFO.slug == engine.slug
    assert (module.INFO.min_players, module.INFO.max_players) == (
        engine.min_players,
        engine.max_players,
    )
    pkg = boards.package_name(engine.slug)
    assert (ROOT / "templates" / "games" / pkg / "_board.html").exists()
    assert boards.is_playable(engine.slug)
    move_types = tuple(getattr(engine, "move_types", ()))
    assert move_types, f"{engine.slug}: ENGINE.move_types lists the move types"
    for language in LANGUAGES:
        with translation.override(language):
            for move_type in move_types:
                label = module.MOVE_LABELS.get(move_type)
                assert label is not None, f"{engine.slug}: no label for {move_type!r}"
                assert str(label).strip()
    # Every label is translated: Hungarian and Polish words differ from the English ones.
    for move_type in move_types:
        with translation.override("en"):
            english = str(module.MOVE_LABELS[move_type])
        for language in LANGUAGES[1:]:
            with translation.override(language):
                assert str(module.MOVE_LABELS[move_type]) != english, (
                    f"{engine.slug}: {move_type!r} is not translated into {language}"
                )


@pytest.mark.parametrize("engine", ENGINES, ids=by_slug)
def test_pages_render_for_every_seat_language_and_stage(engine: Engine) -> None:
    module = board_module(engine)
    sections = json.loads(
        (ROOT / "rulebooks" / "content" / engine.slug / "book.json").read_text("utf-8")
    )["sections"]
    for players in range(engine.min_players, engine.max_players + 1):
        seed = SEED + players
        moves = random_moves(engine, players, seed)
        game = bot_table(engine, players, seed)
        stops = {0, len(moves) // 2, len(moves)}
        seen_types: set[str] = set()
        for number, (seat, move) in enumerate([(None, None), *moves]):
            if number:
                services.play_move(
                    game_id=game.pk, seat=seat, move=move, expected_version=number - 1, by_bot=True
                )
                seen_types.add(move["type"])
            if number in stops:
                check_stop(engine, game, players)
                view = engine.view(engine.load(Game.objects.get(pk=game.pk).state), None)
                section = module.rules_section(view)
                assert section is None or section in sections, f"no section {section!r}"
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
        check_move_log(engine, game)


def check_move_log(engine: Engine, game: Game) -> None:
    """Every move of the log reads as words in each language, with the player's name."""
    names = rendering.seat_names(game)
    labels = getattr(boards.get(engine.slug), "MOVE_LABELS", {})
    for language in LANGUAGES:
        with translation.override(language):
            for move in game.moves.all():
                text = rendering.describe_move(engine.slug, names[move.seat], move)
                assert names[move.seat] in text
                assert "%(" not in text and "{" not in text
                raw = move.payload["type"]
                # A move type that is also the word the game's own label uses in this language
                # (Tower of Babel's "offer" in English) is a word there, not a raw code.
                if raw not in str(labels.get(raw, "")):
                    assert raw not in text, f"{text!r} shows the raw move type"
                json.dumps(move.summary)
