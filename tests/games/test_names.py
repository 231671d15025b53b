"""Issue 33, item 1: every displayed member name leads to the member's profile, every bot to
its level's standing; standings are in the menu and on the club page; a member's own running
game says what the member can do."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Notification, User
from games import engines, services
from games.models import Rating
from tests.conftest import make_user
from tests.games.conftest import build_game, state_of, waiting_game
from tests.games.test_stats import finished

pytestmark = pytest.mark.django_db

# A bot's name ends in the site's badge, inside the link to its standing.
BADGE = ' <span class="badge bot-badge"'


def page_of(user: User, url: str) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200, url
    return response.text


def part(page: str, start: str, end: str | None = None) -> str:
    found = page[page.index(start) :]
    return found[: found.index(end)] if end else found


def profile(username: str) -> str:
    return reverse("accounts:member", args=[username])


def bot_standing(slug: str, level: str) -> str:
    return reverse("games:leaderboard", args=[slug]) + f"#standing-{level}"


def test_the_club_page_links_every_name(alice: User, bob: User, carol: User) -> None:
    running = build_game(bob, carol, "normal")
    waiting_game(carol, players=3)
    finished("babylon", 1, [(carol, 10, 2), ("easy", 25, 1)])
    services.schedule_night(
        host=bob,
        engine_slug="babylon",
        players=3,
        starts_at=timezone.now() + timedelta(days=2),
        bot_level="easy",
    )
    page = page_of(alice, reverse("home"))
    running_part = part(page, 'id="club-running"', 'id="club-waiting"')
    assert f'<a href="{profile("bob")}">Bob</a>' in running_part
    assert f'<a href="{profile("carol")}">Carol</a>' in running_part
    assert f'<a href="{bot_standing("akropolis", "normal")}">Normal bot{BADGE}' in running_part
    assert "bot-badge" in running_part
    assert reverse("games:play", args=[running.pk]) in running_part
    waiting_part = part(page, 'id="club-waiting"', 'id="club-results"')
    assert f'<a href="{profile("carol")}">Carol</a>' in waiting_part
    results_part = part(page, 'id="club-results"', 'id="club-week"')
    assert f'<a href="{bot_standing("babylon", "easy")}">Easy bot{BADGE}' in results_part
    nights_part = part(page, 'id="club-nights"', 'id="club-running"')
    assert f'hosted by <a href="{profile("bob")}">Bob</a>' in nights_part
    members_part = part(page, 'id="club-members"')
    for name in ("alice", "bob", "carol"):
        assert f'<a href="{profile(name)}">' in members_part


def test_standings_are_in_the_menu_and_each_games_top_five_on_the_club_page(
    alice: User,
) -> None:
    members = [make_user(f"m{n}", display_name=f"Player {n}") for n in range(7)]
    for n, member in enumerate(members):  # ratings 1000 + 40 x (mu - 3 x 5): 7 ranked members
        Rating.objects.create(
            engine_slug="babylon", user=member, mu=20 + n, sigma=5, games_played=5
        )
    page = page_of(alice, reverse("home"))
    assert f'href="{reverse("games:standings")}"' in part(page, "<nav", "</nav>")
    standings = part(page, 'id="club-standings"', 'id="club-members"')
    babylon = part(standings, 'data-game="babylon"', "</section>")
    shown = re.findall(r'data-player="u:(m\d)"', babylon)
    assert shown == ["m6", "m5", "m4", "m3", "m2"]  # the best five, best first
    assert f'<a href="{profile("m6")}">Player 6</a>' in babylon
    assert f'href="{reverse("games:leaderboard", args=["babylon"])}"' in babylon
    for slug in [e.slug for e in engines.all()]:
        assert f'data-game="{slug}"' in standings
    index = page_of(alice, reverse("games:standings"))
    assert re.findall(r'data-player="u:(m\d)"', index) == ["m6", "m5", "m4", "m3", "m2"]


def test_a_members_own_running_game_says_your_turn_or_whom_it_waits_for(
    alice: User, bob: User, carol: User
) -> None:
    game = build_game(alice, bob, seed=3)
    engine = engines.get("akropolis")
    first = engine.to_move(state_of(game))[0]
    mover, waiter = (alice, bob) if first == 0 else (bob, alice)
    row = part(page_of(mover, reverse("home")), f'data-game="{game.pk}"', "</li>")
    assert "Your turn" in row and "Watch" not in row
    row = part(page_of(waiter, reverse("home")), f'data-game="{game.pk}"', "</li>")
    assert f'Waiting for <a href="{profile(mover.username)}">{mover.name}</a>' in row
    assert "Watch" not in row
    row = part(page_of(carol, reverse("home")), f'data-game="{game.pk}"', "</li>")
    assert "Watch" in row and "Your turn" not in row


def test_a_your_turn_notice_goes_away_when_the_member_resigns(
    alice: User, bob: User, django_capture_on_commit_callbacks
) -> None:
    from games.services import notices

    game = build_game(alice, bob, seed=3)
    first = engines.get("akropolis").to_move(state_of(game))[0]
    member = alice if first == 0 else bob
    with django_capture_on_commit_callbacks(execute=True):
        notices.deliver_turn(game.pk)
    note = Notification.objects.get(user=member, kind=Notification.Kind.YOUR_TURN)
    assert note.read_at is None
    other = Notification.objects.create(
        user=member, number=99, kind="your_turn", params={"game": game.pk + 1, "slug": "babylon"}
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.resign(game_id=game.pk, user=member)
    note.refresh_from_db()
    other.refresh_from_db()
    assert note.read_at is not None  # the badge no longer counts it
    assert other.read_at is None  # another game's turn still holds


def test_history_game_pages_and_nights_link_their_names(alice: User, bob: User) -> None:
    done = finished("tower-of-babel", 1, [(alice, 10, 2), (bob, 20, 1), ("normal", 5, 3)])
    history = page_of(alice, reverse("games:history"))
    row = part(history, f'<tr data-game="{done.pk}"', "</tr>")
    assert f'<a href="{profile("bob")}">Bob</a>' in row
    assert f'<a href="{bot_standing("tower-of-babel", "normal")}">Normal bot{BADGE}' in row

    game = build_game(alice, "easy", seed=2)
    scores = part(page_of(bob, reverse("games:play", args=[game.pk])), "score-table", "</table>")
    assert f'<a href="{profile("alice")}">Alice</a>' in scores
    assert f'<a href="{bot_standing("akropolis", "easy")}">Easy bot{BADGE}' in scores

    night = services.schedule_night(
        host=bob,
        engine_slug="babylon",
        players=3,
        starts_at=timezone.now() + timedelta(days=2),
        bot_level="easy",
        invited=[alice],
    )
    page = page_of(alice, night.get_absolute_url())
    assert f'<a href="{profile("bob")}">Bob</a>' in page
    assert f'<a href="{profile("alice")}">Alice</a>' in page  # among the invited

    board = page_of(alice, reverse("games:leaderboard", args=["tower-of-babel"]))
    assert board.count('id="standing-') == 0  # nobody has five rated games here yet
