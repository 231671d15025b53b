"""What members are told about their games (issue 10, defect 2): someone joined, your turn
(only when away, once until they move), the game finished, a bot took over the seat."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone, translation

from accounts.models import Notification
from games import engines, services
from games.models import Game, OpenPage
from tests.games.conftest import build_game, first_legal_move, play_random_moves

ENGINE = engines.get("akropolis")


@pytest.fixture
def committed(django_capture_on_commit_callbacks: Any) -> Any:
    """Run a service call as if its transaction committed (notices are written after commit)."""

    def run(call: Any, *args: Any, **kwargs: Any) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return call(*args, **kwargs)

    return run


@pytest.fixture(autouse=True)
def no_broker(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services.common, "send_task", lambda *args, **kwargs: None)


def notes(user: Any, kind: str | None = None) -> list[Notification]:
    found = Notification.objects.filter(user=user).order_by("number")
    return list(found.filter(kind=kind) if kind else found)


def play_turn(game: Game, committed: Any) -> int:
    """The seat to move plays its whole turn (every step) through the one move path."""
    seat, _ = first_legal_move(game)
    while True:
        game.refresh_from_db()
        to_move, move = first_legal_move(game)
        if to_move != seat:
            return seat
        committed(
            services.play_move, game_id=game.pk, seat=seat, move=move, expected_version=game.version
        )


def test_the_members_already_seated_hear_that_someone_joined(alice, bob, carol, committed) -> None:
    game = services.create_game(
        engine_slug="akropolis",
        players=3,
        options={},
        created_by=alice,
        seats=[{"kind": "me"}, {"kind": "open"}, {"kind": "open"}],
    )
    committed(services.join_seat, game_id=game.pk, user=bob)
    assert [n.message for n in notes(alice, "joined")] == [
        f"Bob joined your game of Akropolis #{game.pk}."
    ]
    assert notes(bob, "joined") == []
    committed(services.join_seat, game_id=game.pk, user=carol)
    assert len(notes(alice, "joined")) == 2
    assert [n.message for n in notes(bob, "joined")] == [
        f"Carol joined your game of Akropolis #{game.pk}."
    ]


def test_a_member_away_is_told_it_is_their_turn_once_until_they_move(alice, bob, committed) -> None:
    game = build_game(alice, bob, seed=3)
    assert play_turn(game, committed) == 0  # alice's turn: now bob's
    assert [n.message for n in notes(bob, "your_turn")] == [
        f"It is your turn in Akropolis #{game.pk}."
    ]
    assert notes(bob, "your_turn")[0].link == game.get_absolute_url()
    # alice is not told during her own turn of several steps, nor before bob has moved
    assert notes(alice, "your_turn") == []
    assert play_turn(game, committed) == 1
    assert len(notes(alice, "your_turn")) == 1
    assert play_turn(game, committed) == 0
    assert len(notes(bob, "your_turn")) == 2  # bob moved in between: told again


def test_a_second_delivery_of_the_turn_notice_tells_nobody_twice(alice, bob, committed) -> None:
    game = build_game(alice, bob, seed=3)
    play_turn(game, committed)
    assert len(notes(bob, "your_turn")) == 1
    assert services.notices.deliver_turn(game.pk) == 0
    assert len(notes(bob, "your_turn")) == 1


def test_no_turn_notice_while_the_member_has_a_page_of_the_game_open(alice, bob, committed) -> None:
    game = build_game(alice, bob, seed=3)
    OpenPage.objects.create(game=game, user=bob, channel="bob-tab", seen_at=timezone.now())
    play_turn(game, committed)
    assert notes(bob, "your_turn") == []


def test_a_page_row_left_by_a_server_that_went_away_does_not_count(alice, bob, committed) -> None:
    game = build_game(alice, bob, seed=3)
    long_ago = timezone.now() - timedelta(hours=1)
    OpenPage.objects.create(game=game, user=bob, channel="dead-server", seen_at=long_ago)
    play_turn(game, committed)
    assert len(notes(bob, "your_turn")) == 1


def test_a_bot_seat_is_never_told(alice, committed) -> None:
    game = build_game(alice, "easy", seed=3)
    play_turn(game, committed)
    assert Notification.objects.count() == 0


def test_everyone_who_played_hears_the_game_finished_and_their_place(
    alice, bob, committed, quick_bots
) -> None:
    game = build_game(alice, bob, "easy", seed=9)
    play_random_moves(game)
    committed(services.finish_game, game_id=game.pk)
    ranks = {r.user_id: r.rank for r in game.results.all()}
    for member in (alice, bob):
        [note] = notes(member, "finished")
        assert note.message == (
            f"Akropolis #{game.pk} has finished: you placed {ranks[member.pk]} of 3."
        )
        assert note.link == game.get_absolute_url()
    committed(services.finish_game, game_id=game.pk)  # a second delivery of the task
    assert len(notes(alice, "finished")) == 1


def test_the_member_whose_seat_a_bot_took_over_is_told_in_their_language(
    alice, bob, committed, settings
) -> None:
    settings.TURN_TIMEOUT = 60
    alice.language = "hu"
    alice.save()
    game = build_game(alice, bob, seed=3)
    committed(services.take_over_timed_out_seats, now=timezone.now() + timedelta(minutes=5))
    [note] = notes(alice, "taken_over")
    # Written when read (accounts/texts.py): her pages are in Hungarian.
    with translation.override(alice.language):
        text = note.text
    assert "Akropolis" in text and "bot now plays" not in text
    assert note.link == game.get_absolute_url()


def test_each_members_notifications_are_numbered_one_by_one(alice, bob, carol, committed) -> None:
    game = services.create_game(
        engine_slug="akropolis",
        players=3,
        options={},
        created_by=alice,
        seats=[{"kind": "me"}, {"kind": "open"}, {"kind": "open"}],
    )
    committed(services.join_seat, game_id=game.pk, user=bob)
    committed(services.join_seat, game_id=game.pk, user=carol)
    # alice: two members joined, then the game started with her to move
    assert [(n.number, n.kind) for n in notes(alice)] == [
        (1, "joined"),
        (2, "joined"),
        (3, "your_turn"),
    ]
    assert [(n.number, n.kind) for n in notes(bob)] == [(1, "joined")]
