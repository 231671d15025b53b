"""Ratings after a finished game (OpenSkill, per game, for members and bot levels)."""

from __future__ import annotations

from games import services
from games.models import Rating, Result
from tests.games.conftest import play_random_moves


def test_the_winner_gains_and_the_loser_loses(make_game, alice, bob) -> None:
    game = play_random_moves(make_game(alice, bob, seed=2))
    results = services.finish_game(game_id=game.pk)
    winner, loser = results
    assert (winner.rank, loser.rank) == (1, 2)
    assert winner.rating_after > winner.rating_before
    assert loser.rating_after < loser.rating_before
    assert Rating.objects.filter(engine_slug="akropolis").count() == 2


def test_ratings_carry_over_to_the_next_game(make_game, alice, quick_bots) -> None:
    first = play_random_moves(make_game(alice, "easy", seed=1))
    services.finish_game(game_id=first.pk)
    after_first = Result.objects.get(game=first, user=alice).rating_after
    second = play_random_moves(make_game(alice, "easy", seed=2))
    services.finish_game(game_id=second.pk)
    assert Result.objects.get(game=second, user=alice).rating_before == after_first
    assert Rating.objects.get(user=alice).games_played == 2
    assert Rating.objects.get(bot_level="easy").games_played == 2


def test_a_bot_level_playing_itself_is_not_rated(make_game, alice, quick_bots) -> None:
    game = play_random_moves(make_game(alice, "easy", "easy", seed=3))
    results = services.finish_game(game_id=game.pk)
    assert all(r.rating_after is None for r in results)
    assert not Rating.objects.exists()


def test_a_member_who_resigned_is_rated_last(make_game, alice, bob, quick_bots) -> None:
    game = make_game(alice, bob, seed=4)
    services.resign(game_id=game.pk, user=bob)
    game = play_random_moves(game)
    results = {r.user: r for r in services.finish_game(game_id=game.pk)}
    assert (results[alice].rank, results[bob].rank) == (1, 2)
    assert results[bob].rating_after < results[bob].rating_before
