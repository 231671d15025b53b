"""Export a finished game as JSON and import it again to replay it (principle 3)."""

from __future__ import annotations

import json

import pytest

from games import engines, services
from games.messages import describe
from games.models import Game, Result
from tests.games.conftest import play_random_moves

ENGINE = engines.get("akropolis")


@pytest.fixture
def finished(make_game, alice, quick_bots) -> Game:
    game = play_random_moves(make_game(alice, "easy", seed=21))
    services.finish_game(game_id=game.pk)
    return game


def test_export_then_import_reproduces_the_final_state_and_scores(finished, bob) -> None:
    data = json.loads(json.dumps(services.export_game(game=finished)))  # through a file
    copy = services.import_game(data=data, user=bob)
    assert copy.pk != finished.pk
    assert copy.imported and copy.status == Game.Status.FINISHED
    assert copy.state == finished.state
    assert list(copy.moves.values_list("number", "seat", "payload")) == list(
        finished.moves.values_list("number", "seat", "payload")
    )
    original = {r.seat: (r.score, r.breakdown, r.rank) for r in finished.results.all()}
    assert {r.seat: (r.score, r.breakdown, r.rank) for r in copy.results.all()} == original
    assert [s.label for s in copy.seats.all()] == ["Alice", "easy"]
    # An imported game is replayed, not played: it changes nobody's rating.
    assert all(r.rating_after is None for r in Result.objects.filter(game=copy))
    assert services.audit_game(game=copy) == []


def test_export_holds_options_seed_moves_scores_and_names(finished) -> None:
    data = services.export_game(game=finished)
    assert data["game"] == "akropolis"
    assert (data["seed"], data["options"], data["players"]) == (21, {}, 2)
    assert len(data["moves"]) == finished.version
    assert data["scores"]["totals"] == ENGINE.scores(ENGINE.load(finished.state))["totals"]
    assert [s["name"] for s in data["seats"]] == ["Alice", "easy"]


def test_a_running_game_cannot_be_exported(make_game, alice) -> None:
    # The seed would tell anyone the order of the face-down stacks.
    game = play_random_moves(make_game(alice, "easy"), count=3)
    with pytest.raises(services.GameError) as exc:
        services.export_game(game=game)
    assert exc.value.code == "not_finished"


def test_a_changed_move_in_the_file_gives_a_clear_error(finished, bob) -> None:
    data = services.export_game(game=finished)
    data["moves"][4]["move"] = {"type": "take_tile", "index": 99}
    with pytest.raises(services.GameError) as exc:
        services.import_game(data=data, user=bob)
    assert exc.value.params["number"] == 4
    assert "Move 4" in describe(exc.value)
    assert Game.objects.filter(imported=True).count() == 0


def test_changed_scores_in_the_file_are_refused(finished, bob) -> None:
    data = services.export_game(game=finished)
    data["scores"]["totals"][0] += 10
    with pytest.raises(services.GameError) as exc:
        services.import_game(data=data, user=bob)
    assert exc.value.code == "scores_differ"


@pytest.mark.parametrize(
    "content",
    [b"not json at all", b"[1, 2, 3]", json.dumps({"format": "something else"}).encode()],
)
def test_a_file_that_is_not_an_export_is_refused(content, bob) -> None:
    with pytest.raises(services.GameError) as exc:
        services.import_game(data=content, user=bob)
    assert exc.value.code == "bad_file"
    assert describe(exc.value) == "This file is not a game exported from this site."


def test_an_unfinished_log_is_refused(finished, bob) -> None:
    data = services.export_game(game=finished)
    data["moves"] = data["moves"][:10]
    data.pop("scores")
    with pytest.raises(services.GameError) as exc:
        services.import_game(data=data, user=bob)
    assert exc.value.code == "bad_file"


def test_a_seed_out_of_the_databases_range_is_refused(finished, bob) -> None:
    data = services.export_game(game=finished)
    data["seed"] = 2**63
    with pytest.raises(services.GameError) as exc:
        services.import_game(data=data, user=bob)
    assert exc.value.code == "bad_file"
    assert Game.objects.filter(imported=True).count() == 0


def test_odd_seat_entries_only_lose_their_names(finished, bob) -> None:
    data = services.export_game(game=finished)
    data["seats"] = [{"seat": [0], "name": "list"}, "not an entry", {"seat": 1, "name": "Bea"}]
    copy = services.import_game(data=data, user=bob)
    assert [s.label for s in copy.seats.all()] == ["", "Bea"]
    assert copy.state == finished.state
