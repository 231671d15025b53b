"""History, profile statistics, head-to-head and standings, against a hand-built set of games.

The games are written as rows (a finished game and its results), so every expected number
below is worked out by hand from the table in `club`, never by running our own code.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import ratings, services, stats
from games.models import Game, Rating, Result, Seat
from tests.conftest import make_user
from tests.games.conftest import play_random_moves

DAY = datetime(2026, 11, 2, 18, 0, tzinfo=UTC)


def finished(slug: str, day: int, rows: list[tuple[Any, ...]], *, rated: bool = True) -> Game:
    """A finished game on day `day`, its seats and results: rows are (player, score,
    rank[, breakdown[, before, after]]), the player a member or a bot level, in seat order."""
    game = Game.objects.create(
        engine_slug=slug,
        seed=day,
        players=len(rows),
        status=Game.Status.FINISHED,
        started_at=DAY + timedelta(days=day),
        finished_at=DAY + timedelta(days=day, hours=1),
        version=1,
        rated=rated,
    )
    for seat, (player, score, rank, *rest) in enumerate(rows):
        breakdown = rest[0] if rest else {}
        before, after = (rest[1], rest[2]) if len(rest) > 1 else (None, None)
        Seat.objects.create(
            game=game,
            position=seat,
            user=player if isinstance(player, User) else None,
            bot_level=player if isinstance(player, str) else "",
        )
        Result.objects.create(
            game=game,
            seat=seat,
            user=player if isinstance(player, User) else None,
            bot_level=player if isinstance(player, str) else "",
            score=score,
            rank=rank,
            breakdown=breakdown,
            rating_before=before,
            rating_after=after,
        )
    return game


@pytest.fixture
def club(alice: User, bob: User, carol: User) -> dict[str, Game]:
    """Five games (dates 1 to 5 in order, ratings as ordinals: display = 1000 + 40 x ordinal):

    g1 akropolis: alice 50 (1st), bob 40 (2nd), normal bot 30 (3rd); alice 0.0 -> 1.0
    g2 akropolis: alice 30 (2nd), bob 45 (1st);                      alice 1.0 -> 0.5
    g3 akropolis: alice 60 and bob 60 share the win, carol 20 (3rd);  alice 0.5 -> 2.0
    g4 babylon:   alice 10 (2nd), easy bot 25 (1st), unrated
    g5 akropolis: bob 70 (1st), carol 10 (2nd): alice did not play
    """
    return {
        "g1": finished(
            "akropolis",
            1,
            [
                (alice, 50, 1, {"house": 20, "market": 30}, 0.0, 1.0),
                (bob, 40, 2, {"house": 40}),
                ("normal", 30, 3, {"house": 30}),
            ],
        ),
        "g2": finished(
            "akropolis",
            2,
            [(alice, 30, 2, {"house": 10, "market": 20}, 1.0, 0.5), (bob, 45, 1, {"house": 45})],
        ),
        "g3": finished(
            "akropolis",
            3,
            [
                (alice, 60, 1, {"house": 30, "market": 30}, 0.5, 2.0),
                (bob, 60, 1),
                (carol, 20, 3),
            ],
        ),
        "g4": finished("babylon", 4, [(alice, 10, 2), ("easy", 25, 1)], rated=False),
        "g5": finished("akropolis", 5, [(bob, 70, 1), (carol, 10, 2)]),
    }


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def history_ids(user: User, query: str = "") -> list[int]:
    page = client_for(user).get(reverse("games:history") + query).content.decode()
    return [int(n) for n in re.findall(r'<tr data-game="(\d+)"', page)]


# --- history ----------------------------------------------------------------------------------


def test_history_lists_finished_games_newest_first_with_results(club, alice) -> None:
    g = club
    assert history_ids(alice) == [g["g4"].pk, g["g3"].pk, g["g2"].pk, g["g1"].pk]
    page = client_for(alice).get(reverse("games:history")).content.decode()
    row = page[page.index(f'<tr data-game="{g["g2"].pk}"') :].split("</tr>")[0]
    assert "2 of 2" in row  # my place
    assert 'data-score="30"' in row
    assert "Bob" in row  # the opponent, and the winner
    assert "rated (-20)" in row  # 1000 + 40 x 0.5 = 1020, from 1040


def test_history_badges_bots_and_marks_unrated_games(club, alice) -> None:
    page = client_for(alice).get(reverse("games:history")).content.decode()
    row = page[page.index(f'<tr data-game="{club["g4"].pk}"') :].split("</tr>")[0]
    assert "Easy bot" in row and "bot-badge" in row
    assert ">unrated<" in row


def test_history_filters_by_result_game_and_opponent(club, alice) -> None:
    g = club
    assert history_ids(alice, "?result=won") == [g["g3"].pk, g["g1"].pk]
    assert history_ids(alice, "?result=lost") == [g["g4"].pk, g["g2"].pk]
    assert history_ids(alice, "?game=babylon") == [g["g4"].pk]
    assert history_ids(alice, "?opponent=u:bob") == [g["g3"].pk, g["g2"].pk, g["g1"].pk]
    assert history_ids(alice, "?opponent=u:carol") == [g["g3"].pk]
    assert history_ids(alice, "?opponent=b:normal") == [g["g1"].pk]
    assert history_ids(alice, "?opponent=u:bob&result=lost") == [g["g2"].pk]


def test_history_ignores_nonsense_filters_and_pages(club, alice) -> None:
    every = history_ids(alice)
    for query in (
        "?game=chess",
        "?result=drawn",
        "?opponent=x",
        "?page=-3",
        "?page=99",
    ):
        response = client_for(alice).get(reverse("games:history") + query)
        assert response.status_code == 200
    # A NUL character is refused everywhere with the site's 400 page (never a 500).
    response = client_for(alice).get(reverse("games:history") + "?page=%00")
    assert response.status_code == 400
    assert history_ids(alice, "?game=chess&result=drawn") == every


def test_history_lists_a_game_once_when_two_bots_of_the_level_sat(alice) -> None:
    """Issue 33, item 6: `?opponent=b:normal` listed a game with two normal bots twice."""
    two_bots = finished("akropolis", 1, [(alice, 50, 1), ("normal", 40, 2), ("normal", 30, 3)])
    one_bot = finished("babylon", 2, [(alice, 10, 2), ("normal", 25, 1)])
    assert history_ids(alice, "?opponent=b:normal") == [one_bot.pk, two_bots.pk]
    assert history_ids(alice, "?opponent=b:normal&result=won") == [two_bots.pk]


def test_history_says_plainly_that_the_opponent_in_the_address_is_not_one(
    club, alice, dave
) -> None:
    """Issue 33, item 6: an unknown opponent (no such member, a member never met, a level
    never played) showed "Anyone" over an empty list. The page says so and lists every
    finished game, as "Anyone" does."""
    every = history_ids(alice)
    for key in ("u:nobody", "u:dave", "b:hard", "x"):
        page = client_for(alice).get(reverse("games:history") + f"?opponent={key}").text
        assert "is not one of your opponents" in page, key
        assert history_ids(alice, f"?opponent={key}") == every
    page = client_for(alice).get(reverse("games:history") + "?opponent=u:bob").text
    assert "is not one of your opponents" not in page


@pytest.fixture
def dave(db: None) -> User:
    return make_user("dave", display_name="Dave")


def test_history_page_numbers_below_one_show_the_first_page(alice, bob) -> None:
    """Issue 33, item 6: `page=0` and `page=-1` jumped to the last page."""
    games = [finished("akropolis", day, [(alice, day, 1), (bob, 0, 2)]) for day in range(25)]
    newest = [g.pk for g in reversed(games[5:])]
    for number in ("0", "-1", "-30"):
        assert history_ids(alice, f"?page={number}") == newest, number


def test_history_pages_hold_twenty_games(alice, bob) -> None:
    games = [finished("akropolis", day, [(alice, day, 1), (bob, 0, 2)]) for day in range(25)]
    assert history_ids(alice) == [g.pk for g in reversed(games[5:])]
    assert history_ids(alice, "?page=2") == [g.pk for g in reversed(games[:5])]


# --- profile ----------------------------------------------------------------------------------


def stat(page: str, slug: str, name: str) -> str:
    section = page[page.index(f'data-game="{slug}"') :]
    return re.search(rf'data-stat="{name}">([^<]*)<', section).group(1).strip()


def test_profile_counts_games_wins_average_and_best_per_game(club, alice, bob) -> None:
    Rating.objects.create(engine_slug="akropolis", user=alice, mu=30, sigma=8, games_played=3)
    page = client_for(bob).get(reverse("accounts:member", args=["alice"])).content.decode()
    assert stat(page, "akropolis", "played") == "3"
    assert stat(page, "akropolis", "wins") == "2"  # g1, and g3's shared victory
    assert stat(page, "akropolis", "average") == "46.7"  # (50 + 30 + 60) / 3
    assert stat(page, "akropolis", "best") == "60"
    assert stat(page, "akropolis", "rating").startswith("1240")  # 1000 + 40 x (30 - 3 x 8)
    assert stat(page, "babylon", "played") == "1"
    assert stat(page, "babylon", "wins") == "0"
    assert stat(page, "babylon", "average") == "10.0"


def test_profile_breaks_down_the_average_score_by_category(club, alice) -> None:
    page = client_for(alice).get(reverse("accounts:member", args=["alice"])).content.decode()
    section = page[page.index('data-game="akropolis"') : page.index('data-game="babylon"')]
    # Houses: (20 + 10 + 30) / 3; markets: (30 + 20 + 30) / 3.
    assert re.search(r'data-category="house"><th scope="row">Houses</th><td>20.0<', section)
    assert re.search(r'data-category="market"><th scope="row">Markets</th><td>26.7<', section)


def test_profile_chart_marks_each_rated_game_with_its_number(club, alice) -> None:
    page = client_for(alice).get(reverse("accounts:member", args=["alice"])).content.decode()
    section = page[page.index('data-game="akropolis"') : page.index('data-game="babylon"')]
    svg = section[section.index("<svg") : section.index("</svg>")]
    assert svg.count("<rect") == 3 and "<polyline" in svg
    # Issue 33, item 2: each point's words are its readout (shown on focus), not a <title>.
    for game, number in ((club["g1"], 1040), (club["g2"], 1020), (club["g3"], 1080)):
        assert f"Game #{game.pk}, " in svg and f"rating {number} (" in svg
    table = section[section.index('<details class="rating-table">') :]
    assert [int(n) for n in re.findall(r"<td>(\d{4})</td></tr>", table)] == [1040, 1020, 1080]
    # The unrated Babylon game draws no chart.
    babylon = page[page.index('data-game="babylon"') :]
    assert "<svg" not in babylon.split("</section>")[0]


def test_the_rating_chart_explains_itself(club, alice) -> None:
    """Issue 33, item 2: a title, a value axis with several values and a date axis, each game
    a point that takes the focus (a tap focuses it too) and shows its result, and a table to
    read instead of the picture."""
    page = client_for(alice).get(reverse("accounts:member", args=["alice"])).content.decode()
    section = page[page.index('data-game="akropolis"') : page.index('data-game="babylon"')]
    figure = section[section.index('<figure class="rating-chart"') : section.index("</figure>")]
    assert "<figcaption" in figure and "Rating in Akropolis" in figure
    svg = figure[figure.index("<svg") : figure.index("</svg>")]
    values = [int(v) for v in re.findall(r'<text class="tick value"[^>]*>(\d+)</text>', svg)]
    assert len(values) >= 3 and values == sorted(values)
    assert values[0] <= 1020 and values[-1] >= 1080  # the ratings 1040, 1020, 1080 lie within
    dates = re.findall(r'<text class="tick date"[^>]*>([^<]+)</text>', svg)
    assert dates[0] == "11/03/2026" and dates[-1] == "11/05/2026"  # games 1 and 3 (Budapest)
    points = re.findall(r'<g class="point" tabindex="0"[^>]*>(.*?)</g>', svg, re.S)
    assert len(points) == 3
    g1, g2, g3 = club["g1"].pk, club["g2"].pk, club["g3"].pk
    for point, text in zip(
        points,
        (
            f"Game #{g1}, 11/03/2026: placed 1 of 3, rating 1040 (+40)",
            f"Game #{g2}, 11/04/2026: placed 2 of 2, rating 1020 (-20)",
            f"Game #{g3}, 11/05/2026: placed 1 of 3, rating 1080 (+60)",
        ),
        strict=True,
    ):
        assert '<text class="readout"' in point and f">{text}</text>" in point
    # The table is there for everyone, folded under the chart.
    assert "<details" in figure and "visually-hidden" not in figure
    table = figure[figure.index("<table") :]
    assert [int(n) for n in re.findall(r"<td>(\d{4})</td>", table)] == [1040, 1020, 1080]


def test_a_single_rated_game_is_said_rather_than_drawn(alice, bob) -> None:
    """Issue 33, item 2: one rated game drew a lone dot."""
    finished("babylon", 1, [(alice, 30, 1, {}, 0.0, 0.5), (bob, 20, 2)])
    page = client_for(alice).get(reverse("accounts:member", args=["alice"])).content.decode()
    figure = page[page.index('<figure class="rating-chart"') : page.index("</figure>")]
    assert "<svg" not in figure
    assert "After 1 rated game: 1020 (+20 from 1000)." in figure


def test_hungarian_calls_the_rating_one_name(club, alice) -> None:
    """Issue 33, item 2: the figures said "Értékszám", the chart and notes "Pontszám"."""
    client = client_for(alice)
    User.objects.filter(pk=alice.pk).update(language="hu")
    page = client.get(reverse("accounts:member", args=["alice"])).content.decode()
    chart = page[page.index('<figure class="rating-chart"') : page.index("</figure>")]
    assert "Értékszám" in chart and "ontszám" not in chart


@pytest.mark.parametrize("language", ["hu", "pl"])
def test_profile_chart_numbers_stay_plain_in_every_language(club, alice, language) -> None:
    client = client_for(alice)
    client.cookies["django_language"] = language
    page = client.get(reverse("accounts:member", args=["alice"])).content.decode()
    svg = page[page.index("<svg") : page.index("</svg>")]
    numbers = re.findall(r' (?:x|y|x1|x2|y1|y2|width|height)="([^"]*)"', svg)
    assert numbers and all(re.fullmatch(r"-?\d+", n) for n in numbers), numbers
    assert re.search(r'viewBox="\d+ \d+ \d+ \d+"', svg)
    points = re.search(r'points="([^"]*)"', svg).group(1)
    assert all(re.fullmatch(r"\d+,\d+", pair) for pair in points.split(" ")), points


def test_head_to_head_counts_places_against_members_and_bots(club, alice) -> None:
    page = client_for(alice).get(reverse("accounts:member", args=["alice"])).content.decode()

    def row(key: str) -> list[int]:
        found = re.search(rf'<tr data-opponent="{key}">.*?</tr>', page, re.S).group(0)
        return [int(n) for n in re.findall(r"<td[^>]*>(\d+)</td>", found)]

    # Games together, finished ahead, behind, level (same rank).
    assert row("u:bob") == [3, 1, 1, 1]  # g1 ahead, g2 behind, g3 shared win
    assert row("u:carol") == [1, 1, 0, 0]
    assert row("b:normal") == [1, 1, 0, 0]
    assert row("b:easy") == [1, 0, 1, 0]
    order = re.findall(r'<tr data-opponent="([^"]+)">', page)
    assert order[0] == "u:bob"  # most games together first


def test_profiles_are_for_members_only(club) -> None:
    url = reverse("accounts:member", args=["alice"])
    response = Client().get(url)
    assert response.status_code == 302 and "login" in response["Location"]


def test_an_unknown_member_is_not_found(alice) -> None:
    assert client_for(alice).get(reverse("accounts:member", args=["nobody"])).status_code == 404


# --- standings --------------------------------------------------------------------------------


def test_leaderboard_orders_by_rating_shares_places_and_needs_five_games(alice, bob, carol) -> None:
    dave = make_user("dave", display_name="Dave")
    # Displayed rating: 1000 + 40 x (mu - 3 sigma).
    Rating.objects.create(engine_slug="akropolis", user=alice, mu=30, sigma=5, games_played=5)
    Rating.objects.create(engine_slug="akropolis", user=bob, mu=27, sigma=4, games_played=7)
    Rating.objects.create(engine_slug="akropolis", user=carol, mu=40, sigma=5, games_played=4)
    Rating.objects.create(engine_slug="akropolis", user=dave, mu=20, sigma=5, games_played=5)
    Rating.objects.create(
        engine_slug="akropolis", bot_level="normal", mu=25, sigma=3, games_played=12
    )
    Rating.objects.create(engine_slug="babylon", user=carol, mu=50, sigma=1, games_played=9)
    page = client_for(alice).get(reverse("games:leaderboard", args=["akropolis"])).content.decode()
    rows = re.findall(r'<tr data-player="([^"]+)"><td>(\d+)(.*?)</td>.*?<td>(\d+)</td>', page, re.S)
    table = [(key, int(place), "tied" in extra, int(rating)) for key, place, extra, rating in rows]
    assert table == [
        ("b:normal", 1, False, 1640),  # 25 - 9 = 16
        ("u:alice", 2, True, 1600),  # 30 - 15 = 15
        ("u:bob", 2, True, 1600),  # 27 - 12 = 15
        ("u:dave", 4, False, 1200),  # 20 - 15 = 5
    ]  # carol: the best rating, but only 4 rated games


def test_the_top_of_a_leaderboard_is_its_first_rows_with_places_and_ties(alice, bob) -> None:
    """The club page reads the head of each table alone: each cut must match the whole table,
    a tie across the cut and a bot level's second row included."""
    members = [alice, bob, *(make_user(f"m{n}") for n in range(8))]
    # Ordinals 16, 15, 15, 15, 14, 12, 12, 9, 9, 3: ties on the cut after 2, 3, 4, 6 and 8.
    for member, (mu, sigma) in zip(
        members,
        [(25, 3), (30, 5), (27, 4), (24, 3), (20, 2), (18, 2), (21, 3), (15, 2), (12, 1), (6, 1)],
        strict=True,
    ):
        Rating.objects.create(
            engine_slug="akropolis", user=member, mu=mu, sigma=sigma, games_played=6
        )
    # A bot level's second row, left by two first games at once: only the oldest is listed.
    for mu in (26, 20):
        Rating.objects.create(
            engine_slug="akropolis", bot_level="normal", mu=mu, sigma=3, games_played=9
        )
    # Babylon: five rows of a bot level the site no longer has on top, never listed, so the
    # first rows read for every game at once are not enough there.
    for mu in range(40, 45):
        Rating.objects.create(
            engine_slug="babylon", bot_level="gone", mu=mu, sigma=1, games_played=9
        )
    for member, mu in zip(members[:3], (30, 20, 20), strict=True):
        Rating.objects.create(engine_slug="babylon", user=member, mu=mu, sigma=2, games_played=7)
    whole = stats.leaderboard("akropolis")
    assert [row["rating"] for row in whole][:4] == [1680, 1640, 1600, 1600]
    babylon = stats.leaderboard("babylon")
    assert [(row["player"].username, row["place"]) for row in babylon] == [
        ("alice", 1),
        ("bob", 2),
        ("m0", 2),
    ]
    for head in range(1, len(whole) + 2):
        assert stats.leaderboard("akropolis", head=head) == whole[:head]
        tops = {top["slug"]: top["board"] for top in stats.top_of_every_game(count=head)}
        assert tops["akropolis"] == whole[:head]
        assert tops["babylon"] == babylon[:head]
        assert tops["tower-of-babel"] == []


def test_a_bot_levels_duplicate_row_shows_the_oldest_the_one_its_games_move(alice) -> None:
    """Two first games of a bot level at once may leave it two rating rows (the unique
    constraint cannot hold with no member); every later game rates the oldest
    (games/ratings.rating_for), so that one is the level's rating, wherever the other stands."""
    for member in (alice, make_user("bob")):
        Rating.objects.create(engine_slug="akropolis", user=member, mu=23, sigma=3, games_played=6)
    oldest = Rating.objects.create(
        engine_slug="akropolis", bot_level="normal", mu=20, sigma=3, games_played=9
    )
    Rating.objects.create(
        engine_slug="akropolis", bot_level="normal", mu=26, sigma=3, games_played=5
    )
    assert ratings.rating_for("akropolis", (None, "normal")).pk == oldest.pk
    # Displayed: 1000 + 40 x (mu - 3 sigma): the members 1560, the oldest row 1440.
    expected = [("alice", 1560, 6), ("bob", 1560, 6), ("normal", 1440, 9)]
    board = stats.leaderboard("akropolis")
    assert [
        (r["player"].username or r["player"].bot_level, r["rating"], r["games"]) for r in board
    ] == expected
    [top] = [t["board"] for t in stats.top_of_every_game(count=3) if t["slug"] == "akropolis"]
    assert top == board


def test_leaderboard_of_an_unknown_game_is_not_found(alice) -> None:
    response = client_for(alice).get(reverse("games:leaderboard", args=["chess"]))
    assert response.status_code == 404


def test_leaderboard_is_linked_from_game_rulebook_and_profile(club, alice, make_game) -> None:
    link = reverse("games:leaderboard", args=["akropolis"])
    client = client_for(alice)
    game = make_game(alice, "normal")
    assert link in client.get(reverse("games:play", args=[game.pk])).content.decode()
    assert link in client.get(reverse("accounts:member", args=["alice"])).content.decode()
    from rulebooks.importers import import_all

    import_all()
    assert link in client.get(reverse("rulebooks:book", args=["akropolis"])).content.decode()


# --- unrated games ----------------------------------------------------------------------------


def test_an_unrated_game_keeps_its_result_but_moves_no_rating(alice, quick_bots) -> None:
    game = services.create_game(
        engine_slug="akropolis",
        players=2,
        options={},
        seats=[{"kind": "me"}, {"kind": "bot", "bot_level": "easy"}],
        created_by=alice,
        seed=5,
        rated=False,
    )
    game = play_random_moves(game)
    results = services.finish_game(game_id=game.pk)
    assert len(results) == 2
    assert all(r.rating_before is None and r.rating_after is None for r in results)
    assert not Rating.objects.exists()


def test_the_creator_marks_a_game_unrated_in_the_lobby(alice) -> None:
    from tests.games.test_views import post_create

    assert post_create(alice, "me", "easy").status_code == 302
    assert post_create(alice, "me", "easy", unrated="on").status_code == 302
    assert list(Game.objects.order_by("pk").values_list("rated", flat=True)) == [True, False]


def test_history_lists_a_finished_game_whose_results_are_not_stored_yet(alice, bob) -> None:
    game = finished("akropolis", 1, [(alice, 5, 1), (bob, 3, 2)])
    game.results.all().delete()  # the end-of-game task has not run yet
    assert history_ids(alice) == [game.pk]
