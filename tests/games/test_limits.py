"""Issue 31 item 4: limits a club would set (README, "Limits").

Each limit refuses the next request with a message in the member's language, and the refused
request changes nothing: 10 upcoming nights a host, 20 invitations a night, one running review
a member and 10 reviews in 24 hours, 20 imports in 24 hours.
"""

from __future__ import annotations

import json
import threading
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.db.models import QuerySet
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Notification, User
from games import services, tasks
from games.models import Game, GameNight, Review
from games.services import reviews
from tests.conftest import make_user
from tests.games.conftest import build_game, play_random_moves

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 10, 1, 12, 0, tzinfo=UTC)

# The words each language's refusal must hold.
NIGHTS = {
    "en": "You already host 10 game nights to come",
    "hu": "Már 10 közelgő játékestet szervezel",
    "pl": "Organizujesz już 10 nadchodzących wieczorów gier",
}
INVITATIONS = {
    "en": "at most 20 invited members",
    "hu": "legfeljebb 20 tagot lehet meghívni",
    "pl": "najwyżej 20 osób",
}
RUNNING = {
    "en": "Your review of another game is still running",
    "hu": "Egy másik játszma általad kért elemzése még folyik",
    "pl": "Twoja analiza innej gry wciąż trwa",
}
REVIEWS = {
    "en": "You have asked for 10 reviews in the last 24 hours",
    "hu": "Az elmúlt 24 órában már 10 elemzést kértél",
    "pl": "Limit to 10 analiz na członka w ciągu 24 godzin",
}
IMPORTS = {
    "en": "You have imported 20 games in the last 24 hours",
    "hu": "Az elmúlt 24 órában már 20 játszmát importáltál",
    "pl": "Limit to 20 zaimportowanych gier na członka w ciągu 24 godzin",
}


def night_form(**extra: Any) -> dict[str, Any]:
    return {
        "engine_slug": "babylon",
        "players": "3",
        "day": "2026-10-10",
        "clock": "20:00",
        "bot_level": "normal",
        "open_to_club": "on",
        **extra,
    }


def speaking(user: User, language: str) -> None:
    user.language = language
    user.save(update_fields=["language"])


def reviews_sent(sent: list[tuple[Any, tuple]]) -> list[tuple]:
    """The reviews handed to the workers (after commit: the review tests commit)."""
    return [args for task, args in sent if task.name == tasks.review_game.name]


def finished_row(creator: User | None = None, **extra: Any) -> Game:
    """A finished game as a row: enough for a review or an import to be counted."""
    return Game.objects.create(
        engine_slug="akropolis",
        players=2,
        seed=1,
        status=Game.Status.FINISHED,
        created_by=creator,
        **extra,
    )


# --- game nights ------------------------------------------------------------------------------


def test_a_host_with_ten_nights_to_come_is_refused_the_eleventh(
    client: Client, alice: User
) -> None:
    client.force_login(alice)
    with time_machine.travel(NOW, tick=False):
        for day in range(10):
            services.schedule_night(
                host=alice,
                engine_slug="babylon",
                players=3,
                starts_at=NOW + timedelta(days=day + 1),
                bot_level="easy",
            )
        for language, words in NIGHTS.items():
            speaking(alice, language)
            response = client.post(reverse("games:night-new"), night_form())
            assert response.status_code == 400
            assert words in response.text
    assert GameNight.objects.count() == 10


@pytest.mark.django_db(transaction=True)
def test_requests_at_once_cannot_both_take_the_last_night(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Four posts at the same moment from real threads with their own connections, when the
    host has one night left: the host's row lock (BEGIN IMMEDIATE on SQLite) counts them one
    after the other. Each count is followed by a pause, so that without the lock every
    thread would count nine before any of them stored its night."""
    alice = make_user("alice")
    later = timezone.now() + timedelta(days=2)
    for _ in range(9):
        services.schedule_night(
            host=alice, engine_slug="babylon", players=3, starts_at=later, bot_level="easy"
        )
    start = threading.Barrier(4)
    outcomes: list[str] = []
    counted = QuerySet.count

    def slow_count(queryset: QuerySet) -> int:
        found = counted(queryset)
        time.sleep(0.2)
        return found

    monkeypatch.setattr(QuerySet, "count", slow_count)

    def schedule() -> None:
        start.wait()
        try:
            services.schedule_night(
                host=alice, engine_slug="babylon", players=3, starts_at=later, bot_level="easy"
            )
            outcomes.append("scheduled")
        except services.GameError as exc:
            outcomes.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=schedule) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["night_limit"] * 3 + ["scheduled"]
    assert GameNight.objects.filter(host=alice).count() == 10


def test_nights_begun_or_cancelled_leave_room_for_a_new_one(client: Client, alice: User) -> None:
    with time_machine.travel(NOW, tick=False):
        nights = [
            services.schedule_night(
                host=alice,
                engine_slug="babylon",
                players=3,
                starts_at=NOW + timedelta(days=day + 1),
                bot_level="easy",
            )
            for day in range(10)
        ]
        services.cancel_night(night_id=nights[0].pk, user=alice)
        client.force_login(alice)
        response = client.post(reverse("games:night-new"), night_form())
    assert response.status_code == 302
    assert GameNight.objects.filter(status=GameNight.Status.SCHEDULED).count() == 10


def test_a_night_inviting_more_than_twenty_members_is_refused(client: Client, alice: User) -> None:
    guests = [make_user(f"guest{n:02d}") for n in range(21)]
    client.force_login(alice)
    with time_machine.travel(NOW, tick=False):
        for language, words in INVITATIONS.items():
            speaking(alice, language)
            response = client.post(
                reverse("games:night-new"), night_form(invited=[g.pk for g in guests])
            )
            assert response.status_code == 400
            assert words in response.text
        assert not GameNight.objects.exists()
        assert not Notification.objects.exists()
        response = client.post(
            reverse("games:night-new"), night_form(invited=[g.pk for g in guests[:20]])
        )
    assert response.status_code == 302
    assert GameNight.objects.get().invited.count() == 20


# --- reviews ----------------------------------------------------------------------------------


def finished_game(*players: Any, seed: int = 7) -> Game:
    game = play_random_moves(build_game(*players, seed=seed))
    assert game.status == Game.Status.FINISHED
    return game


@pytest.mark.django_db(transaction=True)
def test_a_member_has_one_review_running_at_a_time(
    client: Client, alice: User, bob: User, sent: list
) -> None:
    first, second = finished_game(alice, bob, seed=7), finished_game(alice, bob, seed=8)
    client.force_login(alice)
    assert client.post(reverse("games:review", args=[first.pk])).status_code == 302
    assert Review.objects.get().requested_by == alice
    for language, words in RUNNING.items():
        speaking(alice, language)
        response = client.post(reverse("games:review", args=[second.pk]), follow=True)
        assert words in response.text
    assert list(Review.objects.values_list("game_id", flat=True)) == [first.pk]
    assert reviews_sent(sent) == [(first.pk,)]
    # Once the first is done, the second may start.
    Review.objects.update(status=Review.Status.DONE)
    reviews.request_review(game_id=second.pk, user=alice)
    assert reviews_sent(sent) == [(first.pk,), (second.pk,)]


@pytest.mark.django_db(transaction=True)
def test_ten_reviews_a_day_then_the_next_is_refused(
    client: Client, alice: User, bob: User, sent: list
) -> None:
    with time_machine.travel(NOW, tick=False):
        for _ in range(10):
            Review.objects.create(
                game=finished_row(), requested_by=alice, status="done", total=1, iterations=2
            )
    game = finished_game(alice, bob)
    client.force_login(alice)
    with time_machine.travel(NOW + timedelta(hours=23, minutes=59), tick=False):
        for language, words in REVIEWS.items():
            speaking(alice, language)
            response = client.post(reverse("games:review", args=[game.pk]), follow=True)
            assert words in response.text
        assert not Review.objects.filter(game=game).exists()
        assert reviews_sent(sent) == []
    # A day after the first ten, the window has room again.
    with time_machine.travel(NOW + timedelta(hours=24, minutes=1), tick=False):
        assert client.post(reverse("games:review", args=[game.pk])).status_code == 302
    assert Review.objects.get(game=game).requested_by == alice
    assert reviews_sent(sent) == [(game.pk,)]


@pytest.mark.django_db(transaction=True)
def test_a_review_that_exists_is_shown_to_a_member_at_the_limit_without_counting(
    client: Client, alice: User, bob: User, sent: list
) -> None:
    game = finished_game(alice, bob)
    reviews.request_review(game_id=game.pk, user=alice)  # running, alice's
    for _ in range(10):
        Review.objects.create(
            game=finished_row(), requested_by=bob, status="done", total=1, iterations=2
        )
    client.force_login(bob)
    response = client.post(reverse("games:review", args=[game.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("games:replay", args=[game.pk])
    Review.objects.filter(game=game).update(status=Review.Status.DONE)
    response = client.post(reverse("games:review", args=[game.pk]), follow=True)
    assert REVIEWS["en"] not in response.text
    assert Review.objects.get(game=game).requested_by == alice
    assert Review.objects.filter(requested_by=bob).count() == 10
    assert reviews_sent(sent) == [(game.pk,)]


# --- imports ----------------------------------------------------------------------------------


@pytest.fixture
def exported(make_game: Any, alice: User, quick_bots: None) -> str:
    game = play_random_moves(make_game(alice, "easy", seed=21))
    services.finish_game(game_id=game.pk)
    return json.dumps(services.export_game(game=game))


def test_twenty_imports_a_day_then_the_next_is_refused(
    client: Client, bob: User, exported: str
) -> None:
    with time_machine.travel(NOW, tick=False):
        for _ in range(20):
            finished_row(bob, imported=True)
    client.force_login(bob)
    with time_machine.travel(NOW + timedelta(hours=23), tick=False):
        for language, words in IMPORTS.items():
            speaking(bob, language)
            upload = SimpleUploadedFile("game.json", exported.encode())
            response = client.post(reverse("games:import"), {"file": upload})
            assert response.status_code == 400
            assert words in response.text
        assert Game.objects.filter(imported=True).count() == 20
    with time_machine.travel(NOW + timedelta(hours=24, minutes=1), tick=False):
        upload = SimpleUploadedFile("game.json", exported.encode())
        response = client.post(reverse("games:import"), {"file": upload})
    assert response.status_code == 302
    assert Game.objects.filter(imported=True).count() == 21
