"""Issue 33, item 3: a game night tells each kind of participant what happened to them. The
host's cancel is not "nobody joined", the invited hear of it too, the host hears who joins
and leaves, and a night with members is cancelled only once the host confirms."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from accounts.models import Notification, User
from games import services
from games.models import GameNight
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(alice: User, bob: User, carol: User) -> GameNight:
    """Alice hosts; Bob and Carol are invited."""
    return services.schedule_night(
        host=alice,
        engine_slug="babylon",
        players=4,
        starts_at=timezone.now() + timedelta(days=3),
        bot_level="easy",
        invited=[bob, carol],
    )


def latest(user: User) -> Notification | None:
    return user.notifications.order_by("-number").first()


def text_of(note: Notification) -> str:
    with translation.override("en"):
        return note.text


def test_the_host_hears_who_joins_and_who_leaves(
    night: GameNight, alice: User, bob: User, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        services.join_night(night_id=night.pk, user=bob)
    note = latest(alice)
    assert note is not None and note.kind == "night_joined"
    assert text_of(note).startswith("Bob joined your Babylon game night on ")
    assert note.link == night.get_absolute_url()
    with django_capture_on_commit_callbacks(execute=True):
        services.leave_night(night_id=night.pk, user=bob)
    note = latest(alice)
    assert note.kind == "night_left"
    assert text_of(note).startswith("Bob left your Babylon game night on ")
    assert latest(bob) is None or latest(bob).kind == "night_invited"  # bob hears nothing new


def test_the_hosts_cancel_tells_the_joined_and_the_invited_what_happened(
    night: GameNight,
    alice: User,
    bob: User,
    carol: User,
    django_capture_on_commit_callbacks,
) -> None:
    dave = make_user("dave", display_name="Dave")
    GameNight.objects.filter(pk=night.pk).update(open_to_club=True)
    with django_capture_on_commit_callbacks(execute=True):
        services.join_night(night_id=night.pk, user=bob)  # invited, and joined
        services.join_night(night_id=night.pk, user=dave)  # joined without an invitation
        services.cancel_night(night_id=night.pk, user=alice)
    for member in (bob, dave):
        note = latest(member)
        assert note.kind == "night_cancelled"
        text = text_of(note)
        assert text.startswith("Alice cancelled the Babylon game night on ")
        assert text.endswith("that you had joined.") and "nobody joined" not in text
    note = latest(carol)  # only invited
    assert note.kind == "night_cancelled"
    assert text_of(note).endswith("that you were invited to.")
    assert latest(alice).kind != "night_cancelled"  # the host is not told their own cancel


def test_a_night_with_members_is_cancelled_only_once_the_host_confirms(
    night: GameNight, alice: User, bob: User
) -> None:
    services.join_night(night_id=night.pk, user=bob)
    client = Client()
    client.force_login(alice)
    url = reverse("games:night-cancel", args=[night.pk])
    page = client.post(url)
    assert page.status_code == 200
    night.refresh_from_db()
    assert night.status == GameNight.Status.SCHEDULED
    assert "Cancel the game night for everyone?" in page.text
    assert 'name="confirm" value="yes"' in page.text
    client.post(url, {"confirm": "yes"})
    night.refresh_from_db()
    assert night.status == GameNight.Status.CANCELLED


def test_a_night_nobody_else_is_part_of_is_cancelled_in_one_click(alice: User) -> None:
    lonely = services.schedule_night(
        host=alice,
        engine_slug="babylon",
        players=3,
        starts_at=timezone.now() + timedelta(days=3),
        bot_level="easy",
    )
    client = Client()
    client.force_login(alice)
    client.post(reverse("games:night-cancel", args=[lonely.pk]))
    lonely.refresh_from_db()
    assert lonely.status == GameNight.Status.CANCELLED


def test_invitations_are_found_by_name_or_username_in_any_letters(alice: User) -> None:
    """Issue 33, item 4: inviting meant ticking one of ~150 checkboxes. The form searches the
    members (htmx) by display name or username, whatever the letters typed."""
    lukasz = make_user("lukasz", display_name="Łukasz Wiśniewski")
    zoe = make_user("zoe77", display_name="Zoë")
    make_user("ferenc", display_name="Ferenc")
    client = Client()
    client.force_login(alice)
    url = reverse("games:night-invite-search")

    def found(query: str, *ticked: User) -> list[str]:
        params = {"q": query, "invited": [str(m.pk) for m in ticked]}
        page = client.get(url, params).text
        return re.findall(r'value="(\d+)"( checked)?', page)

    assert found("łuk") == [(str(lukasz.pk), "")]
    assert found("LUKASZ") == [(str(lukasz.pk), "")]
    assert found("wisniew") == [(str(lukasz.pk), "")]
    assert found("zoe") == [(str(zoe.pk), "")]  # by display name and by username
    assert found("alice") == []  # the host does not invite herself
    # A member ticked before stays ticked whatever the next search finds.
    assert found("ferenc", zoe)[0] == (str(zoe.pk), " checked")
    assert "No member matches “xyz”." in client.get(url, {"q": "xyz"}).text
    # The form itself lists no member until one is searched for.
    form = client.get(reverse("games:night-new")).text
    assert 'name="invited"' not in form and 'id="invite-q"' in form


def test_the_night_page_gives_its_time_with_the_zones_name(alice: User, bob: User) -> None:
    """Issue 33, item 4: the page showed the time zone as "()". Each reader reads the time in
    their own zone, with its name."""
    from datetime import UTC, datetime

    import time_machine

    with time_machine.travel(datetime(2026, 3, 20, 12, 0, tzinfo=UTC), tick=False):
        night = services.schedule_night(
            host=alice,
            engine_slug="babylon",
            players=3,
            starts_at=datetime(2026, 3, 29, 18, 0, tzinfo=UTC),  # after the spring change
            bot_level="easy",
        )
        User.objects.filter(pk=bob.pk).update(time_zone="Europe/London")
        for member, seen in ((alice, "20:00 CEST"), (bob, "19:00 BST")):
            client = Client()
            client.force_login(member)
            page = client.get(night.get_absolute_url()).text
            when = page[page.index('id="night-when"') :].split("</time>")[0]
            assert when.endswith(f"March 29, 2026, {seen}"), when
            assert "()" not in page


def test_a_member_joining_and_leaving_again_and_again_leaves_the_host_one_unread_notice(
    night: GameNight, alice: User, bob: User, carol: User, django_capture_on_commit_callbacks
) -> None:
    before = alice.notifications.count()
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(10):
            services.join_night(night_id=night.pk, user=bob)
            services.leave_night(night_id=night.pk, user=bob)
        services.join_night(night_id=night.pk, user=bob)
        services.join_night(night_id=night.pk, user=carol)
    news = alice.notifications.filter(read_at__isnull=True).order_by("number")
    assert alice.notifications.count() == before + 2  # one for Bob, one for Carol
    bobs, carols = news
    assert text_of(bobs).startswith("Bob joined your Babylon game night")  # where he stands now
    assert text_of(carols).startswith("Carol joined")
    # Once the host has read it, Bob's next change is news again.
    news.update(read_at=timezone.now())
    with django_capture_on_commit_callbacks(execute=True):
        services.leave_night(night_id=night.pk, user=bob)
    assert alice.notifications.count() == before + 3
    assert text_of(latest(alice)).startswith("Bob left your Babylon game night")


def test_the_invitation_search_is_limited_per_minute_and_says_so(alice: User) -> None:
    """README "Limits": SEARCHES_PER_MINUTE. Past it a search reads no member and says why, in
    the member's language; the next minute searches again."""
    from datetime import UTC, datetime

    import time_machine
    from django.core.cache import cache
    from django.test import override_settings

    from accounts import search

    make_user("ferenc", display_name="Ferenc")
    client = Client()
    url = reverse("games:night-invite-search")
    start = datetime(2031, 5, 6, 7, 8, 0, tzinfo=UTC)
    minute = int(start.timestamp() // 60)
    cache.delete_many([search.count_key(alice.pk, minute + k) for k in (0, 1)])
    with override_settings(SEARCHES_PER_MINUTE=3), time_machine.travel(start, tick=False):
        client.force_login(alice)  # a session of the travelled-to day
        pages = [client.get(url, {"q": "fer"}).text for _ in range(4)]
        assert all("Ferenc" in page for page in pages[:3])
        assert "Ferenc" not in pages[3]
        assert "You have searched 3 times in the last minute" in pages[3]
        alice.language = "hu"
        alice.save(update_fields=["language"])
        refused = client.get(url, {"q": "fer"}, HTTP_ACCEPT_LANGUAGE="hu").text
        assert "Ferenc" not in refused and "Az elmúlt percben 3 keresést" in refused
        with time_machine.travel(start.replace(minute=9), tick=False):
            assert "Ferenc" in client.get(url, {"q": "fer"}).text
    cache.delete_many([search.count_key(alice.pk, minute + k) for k in (0, 1)])
