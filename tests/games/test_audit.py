"""`audit_games`: the stored state must be what replaying the move log gives (principle 3)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games import services
from games.models import Game, Move
from tests.games.conftest import play_random_moves, waiting_game


def audit(*game_ids: int) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("audit_games", *[str(i) for i in game_ids], stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_audit_passes_on_games_played_by_bots(make_game, alice) -> None:
    finished = play_random_moves(make_game("easy", "normal", seed=3))
    running = play_random_moves(make_game(alice, "hard", seed=4), count=9)
    assert finished.status == Game.Status.FINISHED
    assert running.status == Game.Status.RUNNING
    out, err = audit()
    assert "2 games match their move log" in out
    assert err == ""


def test_audit_fails_on_a_tampered_cached_state(make_game, alice, bob) -> None:
    game = play_random_moves(make_game(alice, bob), count=6)
    tampered = dict(game.state)
    tampered["stones"] = [s + 5 for s in tampered["stones"]]
    Game.objects.filter(pk=game.pk).update(state=tampered)
    with pytest.raises(CommandError, match="1 of 1 games do not match their move log"):
        audit()


def test_audit_names_the_game_and_the_problem(make_game, alice, bob, quick_bots) -> None:
    good = play_random_moves(make_game(alice, bob, seed=1), count=4)
    bad = play_random_moves(make_game("easy", "easy", seed=2), count=4)
    Move.objects.filter(game=bad, number=3).delete()
    err = StringIO()
    with pytest.raises(CommandError, match="1 of 2 games"):
        call_command("audit_games", stdout=StringIO(), stderr=err)
    assert f"game {bad.pk} (akropolis): 3 moves in the log, but the game says 4" in err.getvalue()
    assert f"game {good.pk} " not in err.getvalue()


def test_audit_of_chosen_games_only(make_game, alice, bob, quick_bots) -> None:
    game = play_random_moves(make_game(alice, bob), count=2)
    other = play_random_moves(make_game("easy", "easy", seed=9), count=2)
    Game.objects.filter(pk=other.pk).update(version=7)
    out, _ = audit(game.pk)
    assert "1 games match" in out


def test_a_game_abandoned_before_it_started_is_not_reported(alice) -> None:
    """Its creator left the waiting room: nobody moved, and there is nothing to replay."""
    game = waiting_game(alice)
    services.leave_seat(game_id=game.pk, user=alice)
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED
    out, err = audit()
    assert "1 games match their move log" in out
    assert err == ""


def test_an_abandoned_game_with_moves_in_its_log_is_reported(alice) -> None:
    """A game that never started cannot have moves: a move row there is corruption."""
    game = waiting_game(alice)
    services.leave_seat(game_id=game.pk, user=alice)
    Move.objects.create(game=game, number=0, seat=0, payload={"type": "pass"})
    with pytest.raises(CommandError, match="1 of 1 games do not match"):
        audit()
