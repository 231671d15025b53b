"""JSON nested far deeper than any move or export is refused before anything walks it (issue 20,
item 4): a move or an import a thousand levels deep fits in the size limits and used to raise
RecursionError (a 500, or with DEBUG on a server thread busy for a minute)."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from games import services
from games.engines.base import IllegalMove
from games.error_texts import describe
from games.models import Game
from games.payloads import MAX_DEPTH, too_deep
from tests.conftest import make_user
from tests.games.conftest import build_game, play_random_moves


def nested(depth: int) -> list:
    """`depth` lists, one inside the other (built without recursion)."""
    value: list = []
    for _ in range(depth - 1):
        value = [value]
    return value


def test_depth_counts_the_levels_of_lists_and_objects() -> None:
    assert MAX_DEPTH == 32
    assert not too_deep("pass", limit=0)
    assert not too_deep({"type": "pass"}, limit=1)
    assert too_deep({"type": "pass"}, limit=0)
    wide = {"type": "x", "a": [1, [2]], "b": {"c": [[3]]}}  # deepest: b -> c -> [[3]]: 4 levels
    assert not too_deep(wide, limit=4)
    assert too_deep(wide, limit=3)
    assert not too_deep(nested(32))
    assert too_deep(nested(33))
    assert too_deep(nested(100_000))  # no RecursionError however deep


def test_a_move_nested_past_the_limit_is_refused_before_it_is_walked(alice, bob) -> None:
    game = build_game(alice, bob)
    deep = {"type": "take_tile", "index": 0, "note": nested(1_200)}
    with pytest.raises(services.GameError) as exc:
        services.play_move(game_id=game.pk, seat=0, move=deep, expected_version=0)
    assert exc.value.code == "too_deep"
    assert describe(exc.value) == (
        "This move is nested too deeply (at most 32 levels of lists and objects)."
    )
    # 32 levels in all (the move itself is the first): the depth is fine, the engine judges it.
    at_limit = {"type": "no_such_move", "note": nested(31)}
    with pytest.raises(IllegalMove):
        services.play_move(game_id=game.pk, seat=0, move=at_limit, expected_version=0)
    game.refresh_from_db()
    assert game.version == 0 and game.moves.count() == 0


def test_a_deep_move_post_gets_a_400_in_the_members_language(alice) -> None:
    ilona = make_user("ilona", display_name="Ilona", language="hu")
    game = build_game(ilona, alice)
    head = '{"type": "take_tile", "note": '
    depth = (2_000 - len(head) - 1) // 2  # as deep as the 2,000-character move field allows
    text = head + "[" * depth + "]" * depth + "}"
    assert len(text) <= 2_000 and depth > 900
    client = Client()
    client.force_login(ilona)
    response = client.post(
        reverse("games:move", args=[game.pk]), {"move": text, "expected_version": 0}
    )
    assert response.status_code == 400
    assert "Ez a lépés túl mélyen egymásba ágyazott (legfeljebb 32 szint" in response.text
    game.refresh_from_db()
    assert game.version == 0


@pytest.fixture
def exported(alice, quick_bots) -> dict:
    game = play_random_moves(build_game(alice, "easy", seed=21))
    services.finish_game(game_id=game.pk)
    return json.loads(json.dumps(services.export_game(game=game)))


def test_an_import_nested_past_the_limit_is_refused_before_it_is_walked(exported, bob) -> None:
    exported["moves"][0]["move"]["note"] = nested(1_200)
    with pytest.raises(services.GameError) as exc:
        services.import_game(data=exported, user=bob)
    assert exc.value.code == "file_too_deep"
    assert describe(exc.value) == (
        "This file is nested too deeply to be a game export "
        "(at most 32 levels of lists and objects)."
    )
    assert Game.objects.filter(imported=True).count() == 0


@pytest.mark.parametrize("depth", [1_200, 100_000])  # the parser itself gives up at about 1,500
def test_the_import_page_refuses_a_deep_file_with_a_400_in_the_members_language(
    exported, depth: int
) -> None:
    zofia = make_user("zofia", language="pl")
    text = json.dumps(exported).replace(
        '"moves": [', '"moves": [' + "[" * depth + "]" * depth + ","
    )
    client = Client()
    client.force_login(zofia)
    upload = SimpleUploadedFile("game.json", text.encode(), content_type="application/json")
    response = client.post(reverse("games:import"), {"file": upload})
    assert response.status_code == 400
    assert "Ten plik jest zagnieżdżony zbyt głęboko" in response.text
    assert Game.objects.filter(imported=True).count() == 0


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d.update(format_version=True), "format_version"),
        (lambda d: d.update(format_version=1.0), "format_version"),
        (lambda d: d.update(format_version="1"), "format_version"),
    ],
)
def test_the_format_version_must_be_the_number_one(exported, bob, change, field) -> None:
    change(exported)
    with pytest.raises(services.GameError) as exc:
        services.import_game(data=exported, user=bob)
    assert (exc.value.code, exc.value.params["field"]) == ("bad_field", field)
    assert Game.objects.filter(imported=True).count() == 0


@pytest.mark.parametrize(
    "change",
    [
        lambda scores: scores["totals"].__setitem__(0, float(scores["totals"][0])),  # 33.0
        lambda scores: scores["breakdown"][0].update(temple=False),  # the engine's 0
    ],
)
def test_claimed_scores_must_match_in_type_too(exported, bob, change) -> None:
    """Python holds 33.0 == 33 and False == 0; a file that writes them so was changed."""
    assert exported["scores"]["breakdown"][0]["temple"] == 0
    change(exported["scores"])
    with pytest.raises(services.GameError) as exc:
        services.import_game(data=exported, user=bob)
    assert exc.value.code == "scores_differ"
    assert Game.objects.filter(imported=True).count() == 0
