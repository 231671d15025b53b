"""The club's pages read a fixed number of queries, however many games were played."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from games.models import Rating
from tests.conftest import make_user
from tests.games.test_stats import client_for, finished

# What one page may read: the session and member, the notification badge, and the page's own
# few questions. A page that asked once per game or per member would pass it at once.
MAX_QUERIES = 20

PAGES = [
    reverse("games:history"),
    reverse("games:history") + "?result=won&opponent=u:member1&page=2",
    reverse("accounts:member", args=["alice"]),
    reverse("games:leaderboard", args=["akropolis"]),
    reverse("games:leaderboard", args=["babylon"]),
]


def add_games(alice: User, members: list[User], count: int, start: int) -> None:
    slugs = ["akropolis", "babylon", "hanging-gardens", "tower-of-babel"]
    for n in range(start, start + count):
        other = members[n % len(members)]
        rows = [
            (alice, n % 7, 1 + n % 2, {"a": n % 3}, n / 10, n / 10 + 0.1),
            (other, 3, 2 - n % 2, {"a": 1}),
            ("normal", 1, 3),
        ]
        finished(slugs[n % 4], n, rows)
    for member in [alice, *members]:
        for slug in slugs:
            Rating.objects.update_or_create(
                engine_slug=slug,
                user=member,
                defaults={"mu": 25 + member.pk % 5, "sigma": 5, "games_played": start + count},
            )


def queries_per_page(client) -> list[int]:
    counts = []
    for url in PAGES:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        counts.append(len(captured))
    return counts


@pytest.mark.django_db
def test_page_queries_do_not_grow_with_the_number_of_games(
    alice: User, django_assert_max_num_queries
) -> None:
    members = [make_user(f"member{n}") for n in range(1, 4)]
    client = client_for(alice)
    add_games(alice, members, 6, start=0)
    few = queries_per_page(client)
    add_games(alice, members + [make_user(f"member{n}") for n in range(4, 9)], 60, start=6)
    many = queries_per_page(client)
    assert many == few
    for url in PAGES:
        with django_assert_max_num_queries(MAX_QUERIES):
            client.get(url)
