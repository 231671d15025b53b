"""Issue 19 item 8: game nights, scheduled in the member's time zone, reminded 15 minutes
before and started at the time by the beat task, with bots in the seats still empty."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from accounts.models import Notification, User
from games import services, tasks
from games.models import Game, GameNight
from tests.conftest import make_user

pytestmark = pytest.mark.django_db

# Europe/Budapest moves from UTC+1 to UTC+2 at 02:00 on Sunday 29 March 2026.
BEFORE_THE_CHANGE = datetime(2026, 3, 27, 12, 0, tzinfo=UTC)
# 20:00 in Budapest on 29 March 2026 (summer time, UTC+2) is 18:00 UTC.
NIGHT_AT = datetime(2026, 3, 29, 18, 0, tzinfo=UTC)


def schedule(host: User, *, players: int = 3, **extra: Any) -> GameNight:
    with time_machine.travel(BEFORE_THE_CHANGE, tick=False):
        return services.schedule_night(
            host=host,
            engine_slug="babylon",
            players=players,
            starts_at=NIGHT_AT,
            bot_level=extra.pop("bot_level", "easy"),
            **extra,
        )


def beat_at(instant: datetime, capture: Any) -> dict[str, int]:
    """What the beat task does at `instant` (the notices it sends are delivered too)."""
    with time_machine.travel(instant, tick=False), capture(execute=True):
        return tasks.run_game_nights()


def kinds_of(user: User) -> list[str]:
    return list(user.notifications.order_by("number").values_list("kind", flat=True))


# --- scheduling in the member's time zone ------------------------------------------------------


@pytest.mark.parametrize(
    ("day", "clock", "expected"),
    [
        # The evening before the change: winter time, UTC+1.
        ("2026-03-28", "20:00", datetime(2026, 3, 28, 19, 0, tzinfo=UTC)),
        # The evening of the change: summer time, UTC+2.
        ("2026-03-29", "20:00", datetime(2026, 3, 29, 18, 0, tzinfo=UTC)),
        # 01:30 is still winter time; 03:30 already summer time.
        ("2026-03-29", "01:30", datetime(2026, 3, 29, 0, 30, tzinfo=UTC)),
        ("2026-03-29", "03:30", datetime(2026, 3, 29, 1, 30, tzinfo=UTC)),
    ],
)
def test_a_night_is_scheduled_at_the_instant_the_member_means_across_the_spring_change(
    client: Client, alice: User, day: str, clock: str, expected: datetime
) -> None:
    assert alice.time_zone == "Europe/Budapest"  # the club's default
    client.force_login(alice)
    with time_machine.travel(BEFORE_THE_CHANGE, tick=False):
        response = client.post(
            reverse("games:night-new"),
            {
                "engine_slug": "babylon",
                "players": "3",
                "day": day,
                "clock": clock,
                "bot_level": "normal",
                "open_to_club": "on",
            },
        )
    assert response.status_code == 302
    assert GameNight.objects.get().starts_at == expected


def test_a_warsaw_member_schedules_in_warsaw_time(client: Client, alice: User) -> None:
    # Warsaw keeps the same clock as Budapest; London is an hour behind (UTC+1 in summer).
    alice.time_zone = "Europe/London"
    alice.save()
    client.force_login(alice)
    with time_machine.travel(BEFORE_THE_CHANGE, tick=False):
        client.post(
            reverse("games:night-new"),
            {
                "engine_slug": "babylon",
                "players": "3",
                "day": "2026-03-29",
                "clock": "20:00",
                "bot_level": "normal",
            },
        )
    night = GameNight.objects.get()
    assert night.starts_at == datetime(2026, 3, 29, 19, 0, tzinfo=UTC)
    assert night.open_to_club is False


def test_the_hour_the_clocks_skip_is_refused_with_a_message(client: Client, alice: User) -> None:
    client.force_login(alice)
    with time_machine.travel(BEFORE_THE_CHANGE, tick=False):
        response = client.post(
            reverse("games:night-new"),
            {
                "engine_slug": "babylon",
                "players": "3",
                "day": "2026-03-29",
                "clock": "02:30",
                "bot_level": "normal",
            },
        )
    assert response.status_code == 400
    assert "summer time" in response.text
    assert not GameNight.objects.exists()


@pytest.mark.parametrize(
    "data",
    [
        {"engine_slug": "babylon", "players": "3", "day": "2026-03-26", "clock": "20:00"},
        {"engine_slug": "babylon", "players": "9", "day": "2026-03-29", "clock": "20:00"},
        {"engine_slug": "nope", "players": "3", "day": "2026-03-29", "clock": "20:00"},
        {"engine_slug": "babylon", "players": "5", "day": "2026-03-29", "clock": "20:00"},
        {"engine_slug": "babylon", "players": "3", "day": "29/03", "clock": "25:00"},
    ],
)
def test_bad_input_is_refused_with_the_form_never_a_500(
    client: Client, alice: User, data: dict[str, str]
) -> None:
    client.force_login(alice)
    with time_machine.travel(BEFORE_THE_CHANGE, tick=False):
        response = client.post(reverse("games:night-new"), {**data, "bot_level": "easy"})
    assert response.status_code == 400
    assert not GameNight.objects.exists()


# --- the beat task: reminder, start, cancellation ----------------------------------------------


def test_the_reminder_and_the_start_run_once_each(
    alice: User, bob: User, carol: User, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        night = schedule(alice, invited=[carol])
    services.join_night(night_id=night.pk, user=bob)
    capture = django_capture_on_commit_callbacks

    assert beat_at(datetime(2026, 3, 29, 17, 44, 59, tzinfo=UTC), capture)["reminded"] == 0
    assert beat_at(datetime(2026, 3, 29, 17, 45, tzinfo=UTC), capture)["reminded"] == 1
    assert beat_at(datetime(2026, 3, 29, 17, 50, tzinfo=UTC), capture)["reminded"] == 0
    assert beat_at(datetime(2026, 3, 29, 17, 59, 59, tzinfo=UTC), capture)["started"] == 0
    assert beat_at(NIGHT_AT, capture)["started"] == 1
    assert beat_at(datetime(2026, 3, 29, 18, 0, 30, tzinfo=UTC), capture) == {
        "reminded": 0,
        "started": 0,
        "cancelled": 0,
    }

    night.refresh_from_db()
    assert night.status == GameNight.Status.STARTED
    assert Game.objects.count() == 1
    K = Notification.Kind
    for member in (alice, bob):
        assert kinds_of(member).count(K.NIGHT_REMINDER) == 1
        assert kinds_of(member).count(K.NIGHT_STARTED) == 1
    # carol was invited and did not join: invited, reminded, and not told a game began.
    assert kinds_of(carol) == [K.NIGHT_INVITED, K.NIGHT_REMINDER]


def test_at_the_time_bots_fill_the_empty_seats_and_the_members_sit_in_joining_order(
    alice: User, bob: User, carol: User, django_capture_on_commit_callbacks: Any
) -> None:
    night = schedule(alice, players=4, bot_level="hard")
    services.join_night(night_id=night.pk, user=carol)
    services.join_night(night_id=night.pk, user=bob)
    beat_at(NIGHT_AT, django_capture_on_commit_callbacks)

    night.refresh_from_db()
    game = night.game
    assert game is not None
    assert game.status == Game.Status.RUNNING
    assert game.engine_slug == "babylon"
    seats = list(game.seats.order_by("position"))
    assert [(s.user, s.bot_level) for s in seats] == [
        (alice, ""),
        (carol, ""),
        (bob, ""),
        (None, "hard"),
    ]
    assert game.version == 0  # started through the lobby's services: the engine's new game
    assert game.state is not None


def test_a_night_nobody_joined_is_cancelled_not_played_by_bots(
    alice: User, bob: User, django_capture_on_commit_callbacks: Any
) -> None:
    night = schedule(alice, invited=[bob])
    result = beat_at(NIGHT_AT, django_capture_on_commit_callbacks)
    assert result["cancelled"] == 1
    night.refresh_from_db()
    assert night.status == GameNight.Status.CANCELLED
    assert night.game is None
    assert not Game.objects.exists()
    assert kinds_of(alice)[-1] == Notification.Kind.NIGHT_CANCELLED


def test_only_the_invited_join_a_night_that_is_not_open_and_seats_run_out(
    alice: User, bob: User, carol: User
) -> None:
    night = schedule(alice, players=2, invited=[bob], open_to_club=False)
    with pytest.raises(services.GameError) as refused:
        services.join_night(night_id=night.pk, user=carol)
    assert refused.value.code == "night_invited_only"
    services.join_night(night_id=night.pk, user=bob)
    dave = make_user("dave")
    night.invited.add(dave)
    with pytest.raises(services.GameError) as full:
        services.join_night(night_id=night.pk, user=dave)
    assert full.value.code == "night_full"


def test_the_night_page_joins_and_leaves(client: Client, alice: User, bob: User) -> None:
    night = schedule(alice)
    client.force_login(bob)
    with time_machine.travel(BEFORE_THE_CHANGE, tick=False):
        page = client.get(reverse("games:night", args=[night.pk])).text
        assert "Join the game night" in page
        client.post(reverse("games:night-join", args=[night.pk]))
        assert night.players_joined.filter(user=bob).exists()
        client.post(reverse("games:night-leave", args=[night.pk]))
        assert not night.players_joined.filter(user=bob).exists()
        # Only the host cancels.
        client.post(reverse("games:night-cancel", args=[night.pk]))
        night.refresh_from_db()
        assert night.status == GameNight.Status.SCHEDULED


def test_the_calendar_file_gives_the_instant_in_utc(client: Client, alice: User) -> None:
    night = schedule(alice)
    client.force_login(alice)
    response = client.get(reverse("games:night-calendar", args=[night.pk]))
    assert response["Content-Type"].startswith("text/calendar")
    text = response.content.decode()
    assert "BEGIN:VEVENT" in text
    assert "DTSTART:20260329T180000Z" in text
    assert "DTEND:20260329T200000Z" in text
    assert f"UID:game-night-{night.pk}@" in text


def test_the_pages_show_the_time_in_the_readers_time_zone(
    client: Client, alice: User, bob: User
) -> None:
    night = schedule(alice)
    bob.time_zone = "Europe/London"
    bob.save()
    client.force_login(bob)
    with time_machine.travel(BEFORE_THE_CHANGE, tick=False):
        page = client.get(reverse("games:night", args=[night.pk])).text
    # 18:00 UTC is 19:00 in London (British Summer Time).
    assert 'datetime="2026-03-29T19:00:00+01:00"' in page


def test_a_night_whose_game_cannot_start_is_given_up_not_retried(
    alice: User, bob: User, django_capture_on_commit_callbacks: Any
) -> None:
    night = schedule(alice)
    services.join_night(night_id=night.pk, user=bob)
    # The game was withdrawn from the club after the night was scheduled.
    GameNight.objects.filter(pk=night.pk).update(engine_slug="withdrawn-game")
    assert beat_at(NIGHT_AT, django_capture_on_commit_callbacks)["cancelled"] == 1
    night.refresh_from_db()
    assert night.status == GameNight.Status.CANCELLED
    assert not Game.objects.exists()
    assert beat_at(NIGHT_AT, django_capture_on_commit_callbacks)["cancelled"] == 0


def test_a_night_closed_to_the_club_is_hidden_from_members_not_asked(
    client: Client, alice: User, bob: User, carol: User
) -> None:
    night = schedule(alice, invited=[bob], open_to_club=False)
    for member, status in ((carol, 404), (bob, 200), (alice, 200)):
        client.force_login(member)
        assert client.get(reverse("games:night", args=[night.pk])).status_code == status
        calendar = client.get(reverse("games:night-calendar", args=[night.pk]))
        assert calendar.status_code == status
    client.force_login(carol)
    assert client.post(reverse("games:night-join", args=[night.pk])).status_code == 404
    assert not night.players_joined.filter(user=carol).exists()
