"""Issue 19 item 5: the club page, home for signed-in members."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import services
from games.models import Game
from tests.conftest import make_user
from tests.games.conftest import build_game, play_random_moves, waiting_game

pytestmark = pytest.mark.django_db


def finished_game(*players: User | str) -> Game:
    game = play_random_moves(build_game(*players, "easy"))
    services.finish_game(game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def test_signed_out_visitors_get_the_welcome_page(client: Client) -> None:
    page = client.get(reverse("home")).text
    assert "Join the club" in page
    assert 'id="club-lists"' not in page


def test_the_club_page_lists_what_is_going_on(client: Client, alice: User, bob: User) -> None:
    running = build_game(bob, "easy")
    waiting = waiting_game(bob, players=3)
    done = finished_game(bob)
    winners = {r.seat for r in done.results.all() if r.rank == 1}
    make_user("zoe", display_name="Zoë")
    night = services.schedule_night(
        host=bob,
        engine_slug="babylon",
        players=3,
        starts_at=timezone.now() + timedelta(days=2),
        bot_level="easy",
    )
    client.force_login(alice)
    page = client.get(reverse("home")).text
    running_part = page[page.index('id="club-running"') : page.index('id="club-waiting"')]
    assert f'data-game="{running.pk}"' in running_part
    assert reverse("games:play", args=[running.pk]) in running_part
    waiting_part = page[page.index('id="club-waiting"') : page.index('id="club-results"')]
    assert f'data-game="{waiting.pk}"' in waiting_part
    results_part = page[page.index('id="club-results"') : page.index('id="club-week"')]
    assert f'data-game="{done.pk}"' in results_part
    winner_names = ["Bob" if p == 0 else "Easy bot" for p in winners]
    assert all(name in results_part for name in winner_names)
    week_part = page[page.index('id="club-week"') : page.index('id="club-members"')]
    assert "1 game played since Monday." in week_part
    members_part = page[page.index('id="club-members"') :]
    assert members_part.index("Zoë") < members_part.index("Bob")  # newest first
    nights_part = page[page.index('id="club-nights"') : page.index('id="club-running"')]
    assert f'data-night="{night.pk}"' in nights_part


def test_a_night_closed_to_the_club_is_shown_only_to_its_members(
    client: Client, alice: User, bob: User, carol: User
) -> None:
    night = services.schedule_night(
        host=bob,
        engine_slug="babylon",
        players=3,
        starts_at=timezone.now() + timedelta(days=1),
        bot_level="easy",
        invited=[carol],
        open_to_club=False,
    )
    for member, sees in ((alice, False), (bob, True), (carol, True)):
        client.force_login(member)
        assert (f'data-night="{night.pk}"' in client.get(reverse("home")).text) is sees


def test_this_week_counts_from_monday_midnight_in_the_members_time_zone(
    client: Client, alice: User
) -> None:
    first, second = finished_game(alice), finished_game(alice)
    # Sunday 29 March 2026 23:30 in Budapest (21:30 UTC) is last week; Monday 00:30 this week.
    Game.objects.filter(pk=first.pk).update(finished_at=datetime(2026, 3, 29, 21, 30, tzinfo=UTC))
    Game.objects.filter(pk=second.pk).update(finished_at=datetime(2026, 3, 29, 22, 30, tzinfo=UTC))
    client.force_login(alice)
    with time_machine.travel(datetime(2026, 4, 1, 12, 0, tzinfo=UTC), tick=False):
        page = client.get(reverse("home")).text
    assert "1 game played since Monday." in page


def test_an_imported_game_is_not_counted_among_this_weeks_games(
    client: Client, alice: User, bob: User
) -> None:
    """Issue 31, item 6: a game imported from a file was replayed, not played, this week."""
    played = finished_game(alice)
    copy = services.import_game(data=services.export_game(game=played), user=bob)
    assert copy.imported and copy.finished_at >= played.finished_at  # finished this week
    client.force_login(alice)
    page = client.get(reverse("home")).text
    week_part = page[page.index('id="club-week"') : page.index('id="club-members"')]
    assert "1 game played since Monday." in week_part


def test_the_live_refresh_returns_only_the_lists(client: Client, alice: User) -> None:
    client.force_login(alice)
    part = client.get(reverse("home"), headers={"HX-Request": "true"}).text
    assert part.lstrip().startswith('<div id="club-lists"')
    assert "<html" not in part


def test_the_club_page_asks_the_same_number_of_queries_for_more_games(
    client: Client, alice: User, bob: User
) -> None:
    client.force_login(alice)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(reverse("home")).status_code == 200
        return len(captured)

    build_game(bob, "easy")
    waiting_game(bob, players=2)
    finished_game(bob)
    few = queries()
    for _ in range(3):
        build_game(bob, "normal")
        waiting_game(bob, players=3)
        finished_game(bob)
        make_user(f"m{_}")
    assert queries() == few


def test_the_club_page_writes_its_dates_in_one_format(client: Client, alice: User) -> None:
    """Issue 33, item 8: the latest results said "11/27/2026 6:02 a.m." beside the newest
    members' "Nov. 27, 2026": both write the month's name, as the game nights do."""
    done = finished_game(alice)
    # 5 March 2026 18:02 in Budapest (17:02 UTC).
    Game.objects.filter(pk=done.pk).update(finished_at=datetime(2026, 3, 5, 17, 2, tzinfo=UTC))
    User.objects.filter(pk=alice.pk).update(date_joined=datetime(2026, 3, 5, 17, 2, tzinfo=UTC))
    client.force_login(alice)
    with time_machine.travel(datetime(2026, 3, 6, 12, 0, tzinfo=UTC), tick=False):
        page = client.get(reverse("home")).text
    results_part = page[page.index('id="club-results"') : page.index('id="club-week"')]
    assert "March 5, 2026, 6:02 p.m." in results_part
    assert "03/05/2026" not in page
    members_part = page[page.index('id="club-members"') :]
    assert "March 5, 2026" in members_part
