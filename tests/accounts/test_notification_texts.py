"""Issue 19 item 6: a notification stores its kind and parameters and is written when it is
read, in the reader's language then, with the game's title in that language."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts import services
from accounts.models import Notification, User
from games import engines
from games.services import notices
from tests.games.conftest import build_game, state_of

pytestmark = pytest.mark.django_db


def test_a_notification_created_in_polish_reads_in_hungarian_on_a_hungarian_page(
    client: Client, alice: User, bob: User, django_capture_on_commit_callbacks
) -> None:
    alice.language = bob.language = "pl"
    alice.save()
    bob.save()
    game = build_game(alice, bob, "easy", engine="tower-of-babel")
    engine = engines.get("tower-of-babel")
    seat = engine.to_move(state_of(game))[0]
    member = game.seats.get(position=seat).user
    with django_capture_on_commit_callbacks(execute=True):
        assert notices.deliver_turn(game.pk) >= 1
    note = Notification.objects.get(user=member, kind=Notification.Kind.YOUR_TURN)
    # Created for a member who reads Polish: in Polish it reads as the Polish catalogue says,
    # with the game's Polish title (rulebooks/content/tower-of-babel/book.json).
    with translation.override("pl"):
        assert note.text == f"Twój ruch w grze Wieża Babel #{game.pk}."

    member.language = "hu"  # the member switches to Hungarian afterwards
    member.save()
    client.force_login(member)
    page = client.get(reverse("accounts:notifications")).text
    assert f"Te következel: Bábel tornya #{game.pk}." in page
    assert "Twój ruch" not in page


def test_the_same_notification_reads_in_english_for_an_english_reader(alice: User) -> None:
    note = services.notify(
        user=alice,
        kind=Notification.Kind.FINISHED,
        params={"game": 12, "slug": "tower-of-babel", "place": 2, "players": 4},
        link="/games/12/",
    )
    with translation.override("en"):
        assert note.text == "Tower of Babel #12 has finished: you placed 2 of 4."
    with translation.override("hu"):
        assert "Bábel tornya #12" in note.text


def test_a_notification_stored_before_parameters_keeps_its_text(alice: User) -> None:
    note = services.notify(user=alice, message="Te következel: Babylon #8.")
    with translation.override("en"):
        assert note.text == "Te következel: Babylon #8."


def test_the_live_toast_is_written_in_the_readers_language(alice: User) -> None:
    from django.template.loader import render_to_string

    note = services.notify(
        user=alice, kind=Notification.Kind.YOUR_TURN, params={"game": 3, "slug": "babylon"}
    )
    with translation.override("pl"):
        html = render_to_string(
            "accounts/_notification_live.html", {"note": note, "badge": services.badge(alice)}
        )
    assert "Twój ruch w grze Babilon #3." in html


def test_the_notifications_page_gives_each_time_its_zone(client: Client, alice: User) -> None:
    """Issue 33, item 5: "11/27/2026 6:02 a.m." gave no zone; each reader reads their own
    clock with its name."""
    from datetime import UTC, datetime

    note = services.notify(user=alice, message="Hello")
    Notification.objects.filter(pk=note.pk).update(
        created_at=datetime(2026, 7, 1, 4, 10, tzinfo=UTC)
    )
    client.force_login(alice)
    for zone, seen in (("Europe/Budapest", "06:10 CEST"), ("Europe/London", "05:10 BST")):
        User.objects.filter(pk=alice.pk).update(time_zone=zone)
        page = client.get(reverse("accounts:notifications")).text
        assert f"July 1, 2026, {seen}" in page
