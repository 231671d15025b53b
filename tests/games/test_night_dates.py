"""Issue 31 item 3 and issue 33 item 4: game-night dates at the edge of the calendar.

A night is scheduled between now and a year ahead; a time the clocks show twice is asked
about; no date nor time zone, typed or already stored, answers a member with a 500.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from accounts import mail
from accounts.models import Notification, User
from accounts.services import notify
from games import services
from games.calendar_forms import aware_instant
from games.models import GameNight, GameNightPlayer
from tests.conftest import make_user

pytestmark = pytest.mark.django_db

# 23:00 UTC on the last day datetime can hold: in Tokyo (UTC+9) it would be 08:00 in year
# 10000, which no datetime can hold.
LAST_EVENING = datetime(9999, 12, 31, 23, 0, tzinfo=UTC)
# Europe/Budapest goes back from CEST (UTC+2) to CET (UTC+1) at 03:00 on Sunday 25 October
# 2026: the clocks show 02:00-02:59 twice.
EARLY_OCTOBER = datetime(2026, 10, 1, 12, 0, tzinfo=UTC)


def night_form(**data: str) -> dict[str, str]:
    return {
        "engine_slug": "babylon",
        "players": "3",
        "bot_level": "normal",
        "open_to_club": "on",
        **data,
    }


@pytest.fixture
def stored_last_evening(alice: User, bob: User) -> GameNight:
    """A night stored before dates were checked, at 23:00 UTC on 31 December 9999, that bob
    (in Tokyo) was invited to and told about."""
    night = GameNight.objects.create(
        host=alice,
        engine_slug="babylon",
        players=3,
        starts_at=LAST_EVENING,
        time_zone="Europe/Budapest",
        bot_level="easy",
    )
    night.invited.add(bob)
    GameNightPlayer.objects.create(night=night, user=alice)
    bob.time_zone = "Asia/Tokyo"
    bob.email_game_nights = True
    bob.save()
    notify(
        user=bob,
        kind=Notification.Kind.NIGHT_INVITED,
        params={
            "night": night.pk,
            "slug": "babylon",
            "starts_at": LAST_EVENING.isoformat(),
            "host": "Alice",
        },
        link=night.get_absolute_url(),
    )
    return night


# --- a night stored at the end of the calendar takes no page down ------------------------------


def test_the_club_page_shows_a_night_past_year_9999_in_the_readers_zone_in_utc(
    client: Client, bob: User, stored_last_evening: GameNight
) -> None:
    client.force_login(bob)
    response = client.get(reverse("home"))
    assert response.status_code == 200
    assert f'data-night="{stored_last_evening.pk}"' in response.text
    assert 'datetime="9999-12-31T23:00:00+00:00"' in response.text


def test_the_night_page_of_a_night_past_year_9999_in_the_readers_zone_answers(
    client: Client, bob: User, stored_last_evening: GameNight
) -> None:
    client.force_login(bob)
    response = client.get(reverse("games:night", args=[stored_last_evening.pk]))
    assert response.status_code == 200
    assert 'datetime="9999-12-31T23:00:00+00:00"' in response.text
    assert "UTC" in response.text


def test_the_calendar_file_of_a_night_at_the_end_of_the_calendar_answers(
    client: Client, bob: User, stored_last_evening: GameNight
) -> None:
    client.force_login(bob)
    response = client.get(reverse("games:night-calendar", args=[stored_last_evening.pk]))
    assert response.status_code == 200
    text = response.content.decode()
    assert "DTSTART:99991231T230000Z" in text
    # Two hours later is past the calendar's end: the entry ends with the calendar.
    assert "DTEND:99991231T235959Z" in text


def test_the_notifications_of_a_night_past_year_9999_are_read_and_emailed(
    client: Client, bob: User, stored_last_evening: GameNight
) -> None:
    client.force_login(bob)
    for name in ("accounts:notifications", "accounts:notifications-badge", "home"):
        assert client.get(reverse(name)).status_code == 200
    page = client.get(reverse("accounts:notifications")).text
    assert "Alice invites you to a game night" in page
    email = mail.build_email(bob.notifications.get())
    assert "9999" in email.body


def test_the_admin_pages_of_a_night_at_the_end_of_the_calendar_answer(
    client: Client, stored_last_evening: GameNight
) -> None:
    client.force_login(make_user("staff", is_staff=True, is_superuser=True))
    listing = client.get(reverse("admin:games_gamenight_changelist"))
    assert listing.status_code == 200
    assert "9999" in listing.text
    page = client.get(reverse("admin:games_gamenight_change", args=[stored_last_evening.pk]))
    assert page.status_code == 200


def test_a_member_whose_stored_time_zone_is_unknown_still_schedules(
    client: Client, alice: User
) -> None:
    # A zone that tzdata no longer knows, or a row written by hand.
    User.objects.filter(pk=alice.pk).update(time_zone="Nowhere/Atlantis")
    client.force_login(alice)
    assert client.get(reverse("games:night-new")).status_code == 200
    with time_machine.travel(EARLY_OCTOBER, tick=False):
        response = client.post(
            reverse("games:night-new"), night_form(day="2026-10-10", clock="20:00")
        )
    assert response.status_code == 302
    # Read in the club's zone: 20:00 CEST is 18:00 UTC.
    assert GameNight.objects.get().starts_at == datetime(2026, 10, 10, 18, 0, tzinfo=UTC)


# --- the form never raises at the edge of the calendar -----------------------------------------


@pytest.mark.parametrize(
    ("day", "clock", "zone"),
    [
        (date(1, 1, 1), time(0, 0), "Europe/Budapest"),
        (date(9999, 12, 31), time(23, 59), "Etc/GMT+12"),
        (date(1, 1, 1), time(0, 0), "Etc/GMT-14"),
    ],
)
def test_aware_instant_gives_none_for_an_instant_no_datetime_holds(
    day: date, clock: time, zone: str
) -> None:
    assert aware_instant(day, clock, ZoneInfo(zone)) is None


@pytest.mark.parametrize(
    ("zone", "day", "clock"),
    [
        ("Europe/Budapest", "0001-01-01", "00:00"),
        ("Etc/GMT+12", "9999-12-31", "23:59"),
        ("Europe/Budapest", "9999-12-31", "23:59"),
        ("Asia/Tokyo", "0001-01-01", "00:00"),
    ],
)
def test_a_date_at_the_edge_of_the_calendar_is_a_form_error_not_a_500(
    client: Client, alice: User, zone: str, day: str, clock: str
) -> None:
    alice.time_zone = zone
    alice.save()
    client.force_login(alice)
    with time_machine.travel(EARLY_OCTOBER, tick=False):
        response = client.post(reverse("games:night-new"), night_form(day=day, clock=clock))
    assert response.status_code == 400
    assert not GameNight.objects.exists()


# --- between now and a year ahead --------------------------------------------------------------


def test_a_night_more_than_a_year_ahead_is_refused_in_the_members_language(
    client: Client, alice: User
) -> None:
    client.force_login(alice)
    expected = {
        "en": "at most 365 days ahead",
        "hu": "legfeljebb 365 nappal előre",
        "pl": "najwyżej 365 dni naprzód",
    }
    for language, words in expected.items():
        alice.language = language
        alice.save()
        with time_machine.travel(EARLY_OCTOBER, tick=False):
            response = client.post(
                reverse("games:night-new"), night_form(day="2027-10-02", clock="20:00")
            )
        assert response.status_code == 400
        assert words in response.text
    assert not GameNight.objects.exists()


def test_a_night_just_within_a_year_is_scheduled(client: Client, alice: User) -> None:
    client.force_login(alice)
    with time_machine.travel(EARLY_OCTOBER, tick=False):
        response = client.post(
            reverse("games:night-new"), night_form(day="2027-09-30", clock="20:00")
        )
    assert response.status_code == 302
    assert GameNight.objects.count() == 1


def test_the_service_refuses_a_night_beyond_a_year(alice: User) -> None:
    with pytest.raises(services.GameError) as refused:
        services.schedule_night(
            host=alice,
            engine_slug="babylon",
            players=3,
            starts_at=EARLY_OCTOBER + timedelta(days=366),
            bot_level="easy",
            now=EARLY_OCTOBER,
        )
    assert refused.value.code == "night_too_far"
    assert not GameNight.objects.exists()


# --- the hour the clocks show twice -------------------------------------------------------------


def test_a_time_the_clocks_show_twice_is_asked_about(client: Client, alice: User) -> None:
    client.force_login(alice)
    with time_machine.travel(EARLY_OCTOBER, tick=False):
        response = client.post(
            reverse("games:night-new"), night_form(day="2026-10-25", clock="02:30")
        )
    assert response.status_code == 400
    assert "02:30 CEST (UTC+2)" in response.text
    assert "02:30 CET (UTC+1)" in response.text
    assert "twice" in response.text
    assert not GameNight.objects.exists()


@pytest.mark.parametrize(
    ("choice", "expected", "zone"),
    [
        # 02:30 summer time (UTC+2), the first time the clocks show it.
        ("0", datetime(2026, 10, 25, 0, 30, tzinfo=UTC), "CEST (UTC+2)"),
        # 02:30 winter time (UTC+1), an hour later.
        ("1", datetime(2026, 10, 25, 1, 30, tzinfo=UTC), "CET (UTC+1)"),
    ],
)
def test_each_answer_about_the_twice_shown_time_stores_its_instant(
    client: Client, alice: User, choice: str, expected: datetime, zone: str
) -> None:
    client.force_login(alice)
    with time_machine.travel(EARLY_OCTOBER, tick=False):
        response = client.post(
            reverse("games:night-new"), night_form(day="2026-10-25", clock="02:30", fold=choice)
        )
        assert response.status_code == 302
        night = GameNight.objects.get()
        assert night.starts_at == expected
        page = client.get(reverse("games:night", args=[night.pk])).text
    # The page names the zone of the instant (Django's own format left "()" for both).
    assert zone in page
    assert "()" not in page


def test_a_time_that_is_not_twice_shown_asks_nothing(client: Client, alice: User) -> None:
    client.force_login(alice)
    with time_machine.travel(EARLY_OCTOBER, tick=False):
        response = client.post(
            reverse("games:night-new"), night_form(day="2026-10-25", clock="03:30")
        )
    assert response.status_code == 302
    # 03:30 CET is 02:30 UTC.
    assert GameNight.objects.get().starts_at == datetime(2026, 10, 25, 2, 30, tzinfo=UTC)


def test_the_night_page_names_the_zone(client: Client, alice: User, bob: User) -> None:
    with time_machine.travel(EARLY_OCTOBER, tick=False):
        night = services.schedule_night(
            host=alice,
            engine_slug="babylon",
            players=3,
            starts_at=datetime(2026, 10, 10, 18, 0, tzinfo=UTC),
            bot_level="easy",
        )
        client.force_login(bob)
        page = client.get(reverse("games:night", args=[night.pk])).text
    assert "CEST (UTC+2)" in page
