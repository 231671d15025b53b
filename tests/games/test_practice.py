"""Practice from one's own mistakes (games/services/practice.py): an unrated game from a
reviewed decision of the member's own, from their view with the hidden parts redrawn, that
replays, exports and verifies from its log, and is limited per member."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.urls import reverse

from games import engines, services
from games.engines.base import can_take_back_step
from games.models import Game, Rating, Result, Review
from games.services import practice
from games.services.common import first_state
from tests.games.conftest import build_game, play_random_moves, state_of

SLUGS = [engine.slug for engine in engines.all()]


def finished_game(slug: str, *members: Any) -> Game:
    engine = engines.get(slug)
    players = list(members[: max(engine.min_players, 2)])
    game = play_random_moves(build_game(*players, engine=slug, seed=11))
    assert game.status == Game.Status.FINISHED
    return game


def reviewed(game: Game, *, value: float = -3.0, best_value: float = 2.5) -> dict[str, Any]:
    """A finished review of `game`, stored as a review worker stores one: each decision of
    seat 0 costs `best_value - value`, the others nothing. Returns the decision of seat 0
    about a third into the game, which the tests practise."""
    decisions = []
    for move in game.moves.order_by("number"):
        mine = move.seat == 0
        decisions.append(
            {
                "number": move.number + 1,
                "seat": move.seat,
                "move": move.payload,
                "best": move.payload,
                "value": value if mine else 0.0,
                "best_value": best_value if mine else 0.0,
                "cost": round(best_value - value, 2) if mine else 0.0,
                "iterations": 2,
                "mark": "large" if mine else "none",
            }
        )
    Review.objects.create(
        game=game,
        status=Review.Status.DONE,
        total=len(decisions),
        progress=len(decisions),
        iterations=2,
        decisions=decisions,
    )
    third = len(decisions) // 3
    return next(d for d in decisions if d["seat"] == 0 and d["number"] > third)


def dumped(engine: Any, state: Any) -> str:
    return json.dumps(engine.dump(state), sort_keys=True, separators=(",", ":"))


@pytest.mark.parametrize("slug", SLUGS)
def test_a_practice_game_starts_from_the_members_view_at_that_decision(
    slug, alice, bob, carol, sent
) -> None:
    game = finished_game(slug, alice, bob, carol)
    decision = reviewed(game)
    started = practice.start_practice(
        game_id=game.pk, number=decision["number"], user=alice, level="easy"
    )
    engine = engines.get(slug)
    start = state_of(started)
    seen = services.view_for(game=game, seat=0, number=decision["number"] - 1)
    assert engine.view(start, 0) == seen
    assert 0 in engine.to_move(start)
    # What seat 0 could not see comes from the practice seed and the view alone: the same as
    # from any other position with that view, and not the real game's.
    real = services.state_at(game=game, number=decision["number"] - 1)
    twin = engine.determinize(seen, 0, 424242)
    assert dumped(engine, start) == dumped(
        engine, engine.determinize(engine.view(twin, 0), 0, started.seed)
    )
    assert dumped(engine, start) != dumped(engine, real)
    assert started.status == Game.Status.RUNNING and started.version == 0
    assert not started.rated and started.is_practice
    seats = {s.position: s for s in started.seats.all()}
    assert seats[0].user == alice
    assert all(s.bot_level == "easy" and s.user is None for p, s in seats.items() if p != 0)
    # The deal is committed like any game's, and its seed stays on the server.
    assert started.commitment and started.salt and started.seed != game.seed


@pytest.mark.parametrize("slug", SLUGS)
def test_hidden_information_is_redrawn_never_taken_from_the_real_game(
    slug, alice, bob, carol
) -> None:
    game = finished_game(slug, alice, bob, carol)
    decision = reviewed(game)
    engine = engines.get(slug)
    real = services.state_at(game=game, number=decision["number"] - 1)
    # A second real position that differs from the first only in what seat 0 cannot see.
    twin = engine.determinize(engine.view(real, 0), 0, 424242)
    assert engine.view(twin, 0) == engine.view(real, 0)
    assert dumped(engine, twin) != dumped(engine, real)
    starts = [
        first_state(
            engine,
            game.players,
            77,
            practice.practice_options(engine.view(state, 0), 0, game_id=game.pk, decision=decision),
        )
        for state in (real, twin)
    ]
    assert dumped(engine, starts[0]) == dumped(engine, starts[1])
    # One start for two different hidden parts: it holds neither game's hidden draws.
    assert dumped(engine, starts[0]) != dumped(engine, real)
    assert dumped(engine, starts[0]) != dumped(engine, twin)


@pytest.mark.parametrize("slug", SLUGS)
def test_a_practice_game_replays_exports_and_verifies_from_its_log(
    slug, alice, bob, carol, sent, quick_bots
) -> None:
    game = finished_game(slug, alice, bob, carol)
    decision = reviewed(game)
    started = practice.start_practice(
        game_id=game.pk, number=decision["number"], user=alice, level="normal"
    )
    start = state_of(started)
    finished = play_random_moves(started)
    assert finished.status == Game.Status.FINISHED
    services.finish_game(game_id=finished.pk)
    engine = engines.get(slug)
    # Replay: the log rebuilds the first state and the last one.
    assert dumped(engine, services.state_at(game=finished, number=0)) == dumped(engine, start)
    assert services.state_at(game=finished) == state_of(finished)
    # Audit and the deal's check: the commitment holds and the log replays from the seed.
    assert services.audit_game(game=finished) == []
    check = services.verify_deal(game=finished)
    assert check.ok and check.commitment_holds
    # Export and import: the file's options carry the start, so it rebuilds the same game.
    data = services.export_game(game=finished)
    copy = services.import_game(data=json.loads(json.dumps(data)), user=bob)
    assert copy.state == finished.state
    assert services.audit_game(game=copy) == []


def test_a_practice_game_is_never_rated(alice, bob, sent, quick_bots, client) -> None:
    game = finished_game("akropolis", alice, bob)
    decision = reviewed(game)
    started = practice.start_practice(
        game_id=game.pk, number=decision["number"], user=alice, level="easy"
    )
    finished = play_random_moves(started)
    services.finish_game(game_id=finished.pk)
    assert Result.objects.filter(game=finished).count() == 2
    assert not Result.objects.filter(game=finished, rating_after__isnull=False).exists()
    assert not Rating.objects.filter(user=alice).exists()
    client.force_login(alice)
    page = client.get(reverse("games:history")).content.decode()
    row = re.search(
        rf"<tr[^>]*>(?:(?!</tr>).)*?/games/{finished.pk}/(?:(?!</tr>).)*</tr>", page, re.S
    )
    assert row is not None
    assert ">Practice<" in row.group(0)
    assert ">unrated<" in row.group(0)


def test_the_limit_refuses_a_practice_game_with_a_clear_message(
    alice, bob, sent, settings, client
) -> None:
    settings.PRACTICE_GAMES_AT_ONCE = 1
    game = finished_game("akropolis", alice, bob)
    decision = reviewed(game)
    practice.start_practice(game_id=game.pk, number=decision["number"], user=alice, level="easy")
    before = Game.objects.count()
    with pytest.raises(services.GameError) as refused:
        practice.start_practice(
            game_id=game.pk, number=decision["number"], user=alice, level="easy"
        )
    assert refused.value.code == "practice_limit"
    assert Game.objects.count() == before
    alice.language = "hu"
    alice.save()
    client.force_login(alice)
    url = reverse("games:practice", args=[game.pk])
    page = client.post(
        url, {"move": decision["number"], "level": "easy"}, follow=True, HTTP_ACCEPT_LANGUAGE="hu"
    )
    text = page.content.decode()
    assert "Már 1 gyakorló játszmád fut" in text
    assert Game.objects.count() == before


def test_only_the_members_own_decisions_can_be_practised(alice, bob, sent) -> None:
    game = finished_game("akropolis", alice, bob)
    reviewed(game)
    bobs = game.moves.filter(seat=1).order_by("number").first()
    with pytest.raises(services.GameError) as refused:
        practice.start_practice(game_id=game.pk, number=bobs.number + 1, user=alice, level="easy")
    assert refused.value.code == "practice_not_yours"


def test_the_review_offers_practice_at_the_readers_own_decisions(alice, bob, client) -> None:
    game = finished_game("akropolis", alice, bob)
    decision = reviewed(game)
    client.force_login(alice)
    url = reverse("games:replay", args=[game.pk]) + f"?move={decision['number']}"
    page = client.get(url).content.decode()
    action = reverse("games:practice", args=[game.pk])
    assert f'action="{action}"' in page
    assert "Try this position again" in page
    client.force_login(bob)
    assert "Try this position again" not in client.get(url).content.decode()


def test_the_finished_practice_game_compares_the_result_with_the_estimate(
    alice, bob, sent, quick_bots, client
) -> None:
    game = finished_game("akropolis", alice, bob)
    decision = reviewed(game, value=-3.0, best_value=2.5)
    started = practice.start_practice(
        game_id=game.pk, number=decision["number"], user=alice, level="easy"
    )
    finished = play_random_moves(started)
    services.finish_game(game_id=finished.pk)
    totals = dict(Result.objects.filter(game=finished).values_list("seat", "score"))
    difference = totals[0] - totals[1]
    client.force_login(alice)
    alice.language = "pl"
    alice.save()
    page = client.get(
        reverse("games:play", args=[finished.pk]), HTTP_ACCEPT_LANGUAGE="pl"
    ).content.decode()
    sign = "+" if difference > 0 else "\u2212" if difference < 0 else ""
    assert f"Twój wynik: {totals[0]} pkt" in page
    assert f"{sign}{abs(difference)} pkt" in page
    assert "\u22123 pkt" in page and "+2,5 pkt" in page
    if difference >= 2.5:
        assert "co najmniej tak dobrze" in page
    elif difference > -3:
        assert "Poszło Ci lepiej, niż analiza przewidywała dla Twojego ruchu" in page
    else:
        assert "Nie poszło Ci lepiej, niż analiza przewidywała dla Twojego ruchu" in page


@pytest.mark.parametrize("slug", SLUGS)
def test_a_step_taken_back_in_a_practice_game_returns_to_its_start(
    slug, alice, bob, carol, sent
) -> None:
    game = finished_game(slug, alice, bob, carol)
    decision = reviewed(game)
    started = practice.start_practice(
        game_id=game.pk, number=decision["number"], user=alice, level="easy"
    )
    engine = engines.get(slug)
    start = state_of(started)
    steps = [
        move
        for move in engine.legal_moves(start, 0)
        if can_take_back_step(engine, start, 0, move, engine.apply_move(start, 0, move))
    ]
    if not steps:
        pytest.skip(f"no step of {slug} at this position may be taken back")
    services.play_move(game_id=started.pk, seat=0, move=steps[0], expected_version=0)
    services.take_back_step(game_id=started.pk, seat=0, expected_version=1)
    # The take-back rebuilds the state from the log: the practice start, not a new game.
    assert dumped(engine, state_of(started)) == dumped(engine, start)


def test_practice_games_count_in_no_statistics_of_the_profile_or_the_club_page(
    alice, bob, sent, quick_bots, client
) -> None:
    """A practice game begins in the middle of a game, against bots: its score is not a
    game's score. The profile counts the one real game, the club page shows only its result."""
    from django.utils import timezone

    from games import club, stats

    game = finished_game("akropolis", alice, bob)
    services.finish_game(game_id=game.pk)
    decision = reviewed(game)
    started = practice.start_practice(
        game_id=game.pk, number=decision["number"], user=alice, level="easy"
    )
    finished = play_random_moves(started)
    services.finish_game(game_id=finished.pk)
    [entry] = stats.profile_stats(alice)
    assert entry.played == 1 and entry.breakdown_games == 1
    together = [(row["player"].user_id, row["games"]) for row in stats.head_to_head(alice)]
    assert together == [(bob.pk, 1)]  # Bob, not the practice game's bots
    assert [g.pk for g in club.latest_results()] == [game.pk]
    assert club.games_this_week(timezone.now())["total"] == 1
