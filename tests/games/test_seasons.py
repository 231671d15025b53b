"""Seasons: standings on hand-computed games, the organisers' form, and the pages.

Every expected number is worked out by hand from the games in `autumn` (place points: n - 1
for the first of n players down to 0 for the last; shared places split their points), never
taken from a run of our own code.
"""

from __future__ import annotations

import io
from datetime import UTC, date, datetime
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from games import season_standings, seasons
from games.models import Game, Result, Season, Seat
from tests.conftest import make_user
from tests.games.test_stats import client_for


def game_at(when: datetime, rows: list[tuple[Any, ...]], *, slug: str = "akropolis", **flags: Any):
    """A finished game at `when`: rows are (player, rank[, rating before, rating after]) in
    seat order, the player a member or a bot level."""
    game = Game.objects.create(
        engine_slug=slug,
        seed=1,
        players=len(rows),
        status=Game.Status.FINISHED,
        started_at=when,
        finished_at=when,
        version=1,
        **flags,
    )
    for seat, (player, rank, *rating) in enumerate(rows):
        member = player if isinstance(player, User) else None
        Seat.objects.create(
            game=game, position=seat, user=member, bot_level="" if member else player
        )
        Result.objects.create(
            game=game,
            seat=seat,
            user=member,
            bot_level="" if member else player,
            score=10 * (len(rows) - rank),
            rank=rank,
            rating_before=rating[0] if rating else None,
            rating_after=rating[1] if rating else None,
        )
    # Written past finish_game, as seeding writes: the kept standings are counted again.
    season_standings.forget_standings()
    return game


def at(day: int, hour: int = 18, minute: int = 0, month: int = 11) -> datetime:
    return datetime(2026, month, day, hour, minute, tzinfo=UTC)


@pytest.fixture
def season(db: None) -> Season:
    return Season.objects.create(
        name="Autumn 2026", starts_on=date(2026, 11, 1), ends_on=date(2026, 11, 30)
    )


@pytest.fixture
def autumn(season: Season, alice: User, bob: User, carol: User, settings) -> Season:
    """Akropolis in November 2026 (ratings as ordinals: shown as 1000 + 40 x ordinal):

    g1 3 players: alice 1st, bob 2nd, normal bot 3rd     points: alice 2, bob 1
    g2 3 players: alice and bob share 1st, carol 3rd      points: alice 1.5, bob 1.5, carol 0
    g3 4 players: hard bot 1st, carol 2nd, alice 3rd, bob 4th   points: carol 2, alice 1, bob 0
    Not counted: an unrated game, one with hints, an imported one, one in October, and one
    on 1 December 00:30 in Budapest (30 November 23:30 UTC), each won by bob.
    """
    settings.SEASON_MIN_GAMES = 3
    game_at(at(2), [(alice, 1, 0.0, 1.0), (bob, 2, 0.0, -0.5), ("normal", 3)])
    game_at(at(3), [(alice, 1, 1.0, 2.0), (bob, 1, -0.5, 0.5), (carol, 3, 0.0, -1.0)])
    game_at(
        at(4),
        [("hard", 1), (carol, 2, -1.0, 0.25), (alice, 3, 2.0, 1.5), (bob, 4, 0.5, 0.0)],
    )
    game_at(at(5), [(bob, 1), (alice, 2)], rated=False)
    game_at(at(6), [(bob, 1), (alice, 2)], hints_used=True)
    game_at(at(7), [(bob, 1), (alice, 2)], imported=True)
    game_at(at(31, month=10), [(bob, 1, 0.0, 5.0), (alice, 2, 0.0, -5.0)])
    game_at(at(30, hour=23, minute=30), [(bob, 1, 0.0, 9.0), (alice, 2, 1.5, 8.0)])
    return season


def rows_of(table: seasons.Table) -> list[tuple[Any, ...]]:
    return [
        (s.player.username, s.place, s.points, s.played, round(s.average_place, 2), s.rating)
        for s in [*table.ranked, *table.unranked]
    ]


def test_standings_sum_place_points_with_shared_places_split(autumn: Season) -> None:
    table, [] = seasons.season_tables(autumn)
    assert table.slug == "akropolis"
    assert rows_of(table) == [
        # 2 + 1.5 + 1; places (1 + 1 + 3) / 3; rating after g3: 1000 + 40 x 1.5
        ("alice", 1, 4.5, 3, 1.67, 1060),
        # 1 + 1.5 + 0; places (2 + 1 + 4) / 3; after g3: 1000 + 40 x 0.0
        ("bob", 2, 2.5, 3, 2.33, 1000),
        # 0 + 2 in two games: below the minimum of 3, listed apart; after g3: 1000 + 40 x 0.25
        ("carol", None, 2.0, 2, 2.5, 1010),
    ]
    assert [s.player.username for s in table.unranked] == ["carol"]


def test_bots_take_places_but_are_never_listed(autumn: Season) -> None:
    table, [] = seasons.season_tables(autumn)
    assert all(not s.player.is_bot for s in [*table.ranked, *table.unranked])


def test_a_season_ends_at_midnight_in_the_club_time_zone(season: Season, alice, bob) -> None:
    # 30 November 22:30 UTC is 23:30 in Budapest: still the season's last day.
    game_at(at(30, hour=22, minute=30), [(alice, 1, 0.0, 1.0), (bob, 2, 0.0, -1.0)])
    # 30 November 23:30 UTC is 1 December 00:30 in Budapest: the next season's.
    game_at(at(30, hour=23, minute=30), [(bob, 1, -1.0, 2.0), (alice, 2, 1.0, 0.0)])
    table, [] = seasons.season_tables(season)
    assert [(s.player.username, s.points, s.played, s.rating) for s in table.unranked] == [
        ("alice", 1.0, 1, 1040),
        ("bob", 0.0, 1, 960),
    ]


def test_the_rating_at_the_end_comes_from_before_when_no_game_of_the_season_moved_it(
    season: Season, alice: User, bob: User
) -> None:
    # October: alice's rating rises to ordinal 2.0 (shown 1080).
    game_at(at(20, month=10), [(alice, 1, 0.0, 2.0), (bob, 2, 0.0, -2.0)])
    # November: alice against two normal bots, a rated game that rates nobody (one bot level
    # in two seats learns nothing, and alice alone is no field): still counted, 2 points.
    game_at(at(2), [(alice, 1), ("normal", 2), ("normal", 3)])
    table, [] = seasons.season_tables(season)
    assert [(s.player.username, s.points, s.rating) for s in table.unranked] == [
        ("alice", 2.0, 1080)
    ]


def test_equal_points_and_average_place_share_a_place(
    season: Season, alice, bob, carol, settings
) -> None:
    settings.SEASON_MIN_GAMES = 1
    game_at(at(2), [(alice, 1), (carol, 2), (bob, 3)])  # alice 2, carol 1, bob 0
    game_at(at(3), [(bob, 1), (carol, 2), (alice, 3)])  # bob 2, carol 1, alice 0
    table, [] = seasons.season_tables(season)
    # alice and bob: 2 points, places 1 and 3 (average 2); carol: 2 points, average 2 too.
    assert sorted((s.player.username, s.place) for s in table.ranked) == [
        ("alice", 1),
        ("bob", 1),
        ("carol", 1),
    ]
    game_at(at(4), [(carol, 1), (alice, 2)])  # carol 1 more point
    table, [] = seasons.season_tables(season)
    assert [(s.player.username, s.place, s.points) for s in table.ranked] == [
        ("carol", 1, 3.0),
        ("alice", 2, 2.0),
        ("bob", 2, 2.0),
    ]


# --- organisers --------------------------------------------------------------------------------


def organiser(username: str) -> User:
    user = make_user(username)
    user.user_permissions.add(Permission.objects.get(codename="manage_seasons"))
    return user


def season_post(name: str, first: str, last: str) -> dict[str, str]:
    return {"name": name, "starts_on": first, "ends_on": last}


@pytest.mark.django_db
def test_a_member_without_the_permission_cannot_create_a_season(alice: User) -> None:
    client = client_for(alice)
    assert client.get(reverse("games:season-new")).status_code == 403
    response = client.post(
        reverse("games:season-new"), season_post("Mine", "2026-01-01", "2026-03-31")
    )
    assert response.status_code == 403
    assert "organisers" in response.text
    assert not Season.objects.exists()
    assert "New season" not in client.get(reverse("games:seasons")).text


@pytest.mark.django_db
def test_an_organiser_creates_and_edits_a_season() -> None:
    client = client_for(organiser("olga"))
    response = client.post(
        reverse("games:season-new"), season_post("Winter", "2027-01-01", "2027-03-31")
    )
    winter = Season.objects.get()
    assert response.status_code == 302 and response.url == reverse("games:season", args=[winter.pk])
    assert (winter.starts_on, winter.ends_on) == (date(2027, 1, 1), date(2027, 3, 31))
    # Editing a season against its own days is no overlap.
    client.post(
        reverse("games:season-edit", args=[winter.pk]),
        season_post("Winter 2027", "2027-01-01", "2027-02-28"),
    )
    winter.refresh_from_db()
    assert (winter.name, winter.ends_on) == ("Winter 2027", date(2027, 2, 28))


@pytest.mark.django_db
def test_the_demo_account_is_an_organiser() -> None:
    call_command("create_demo", stdout=io.StringIO())
    assert User.objects.get(username="demo").has_perm("games.manage_seasons")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "These days overlap the season Autumn 2026"),
        ("hu", "Ezek a napok átfedik a(z) Autumn 2026 szezont"),
        ("pl", "Te dni nakładają się na sezon Autumn 2026"),
    ],
)
def test_an_overlapping_season_is_refused_in_the_members_language(
    season: Season, language: str, message: str
) -> None:
    user = organiser("olga")
    user.language = language
    user.save()
    client = client_for(user)
    response = client.post(
        reverse("games:season-new"), season_post("Late autumn", "2026-11-30", "2026-12-31")
    )
    assert response.status_code == 400
    assert message in response.text
    assert Season.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("first", "last", "message"),
    [
        ("2026-03-31", "2026-01-01", "The last day cannot come before the first day."),
        ("2026-01-01", "2027-06-30", "A season lasts at most 366 days."),
        ("9999-12-31", "9999-12-31", "Choose a day between the years 2000 and 2999."),
        ("2026-02-30", "2026-03-31", "Enter a valid date."),
    ],
)
def test_impossible_days_are_refused_with_a_message(first: str, last: str, message: str) -> None:
    response = client_for(organiser("olga")).post(
        reverse("games:season-new"), season_post("Odd", first, last)
    )
    assert response.status_code == 400
    assert message in response.text
    assert not Season.objects.exists()


# --- pages ------------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["Place points", "Not yet ranked", "Average place"]),
        ("hu", ["Helyezési pontok", "Még nincs rangsorolva", "Átlagos helyezés"]),
        ("pl", ["Punkty za miejsca", "Jeszcze bez miejsca", "Średnie miejsce"]),
    ],
)
def test_the_season_page_speaks_the_members_language(
    autumn: Season, alice: User, language: str, words: list[str]
) -> None:
    alice.language = language
    alice.save()
    page = client_for(alice).get(reverse("games:season", args=[autumn.pk])).text
    for word in words:
        assert word in page
    # Names link to the members' profiles.
    assert f'href="{reverse("accounts:member", args=["bob"])}"' in page


@pytest.mark.django_db
def test_the_season_page_shows_one_games_table_and_links_the_others(
    autumn: Season, alice: User, bob: User
) -> None:
    game_at(at(9), [(bob, 1, 0.0, 3.0), (alice, 2, 0.0, -3.0)], slug="babylon")
    client = client_for(alice)
    url = reverse("games:season", args=[autumn.pk])
    page = client.get(url).text  # Akropolis comes first in the club's order of games
    assert 'data-game="akropolis"' in page and 'href="?game=babylon"' in page
    page = client.get(url + "?game=babylon").text
    assert 'data-game="babylon"' in page and 'href="?game=akropolis"' in page
    row = page[page.index('<tr data-player="u:bob"') :].split("</tr>")[0]
    assert 'data-stat="points">1<' in row  # first of two
    assert 'data-stat="rating">1120<' in row  # 1000 + 40 x 3.0
    assert client.get(url + "?game=chess").status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["Seasons", "Champion:"]),
        ("hu", ["Szezonok", "Bajnok:"]),
        ("pl", ["Sezony", "Mistrz:"]),
    ],
)
def test_past_seasons_show_their_champions(
    autumn: Season, alice: User, language: str, words: list[str], time_machine
) -> None:
    time_machine.move_to(datetime(2026, 12, 10, 12, tzinfo=UTC))
    alice.language = language
    alice.save()
    page = client_for(alice).get(reverse("games:seasons")).text
    for word in words:
        assert word in page
    champions = page[page.index('data-game="akropolis"') :].split("</dd>")[0]
    assert "Alice" in champions and "Bob" not in champions


@pytest.mark.django_db
def test_the_club_page_shows_the_current_seasons_top(autumn: Season, alice, time_machine) -> None:
    time_machine.move_to(datetime(2026, 11, 20, 12, tzinfo=UTC))
    page = client_for(alice).get("/").text
    top = page[page.index('class="game-list season-top"') :].split("</ol>")[0]
    # Ranked members only (carol has 2 games of the 3 needed), best first.
    assert top.index("Alice") < top.index("Bob")
    assert "Carol" not in top
    assert "4.5 points, 3 games" in top


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "Nobody has played 5 rated games of one kind in this season yet."),
        ("hu", "Ebben a szezonban még senki sem játszott 5 értékelt játékot"),
        ("pl", "W tym sezonie nikt nie rozegrał jeszcze 5 gier rankingowych"),
    ],
)
def test_the_club_page_says_when_nobody_is_ranked_yet(
    season: Season, alice: User, bob: User, language: str, words: str, time_machine
) -> None:
    time_machine.move_to(datetime(2026, 11, 20, 12, tzinfo=UTC))
    game_at(at(2), [(alice, 1, 0.0, 1.0), (bob, 2, 0.0, -1.0)])
    alice.language = language
    alice.save()
    page = client_for(alice).get("/").text
    assert "Autumn 2026" in page
    assert words in page
    assert 'class="game-list season-top"' not in page


@pytest.mark.django_db
def test_a_profile_lists_the_seasons_and_places_earned(autumn: Season, bob: User, carol) -> None:
    page = client_for(carol).get(reverse("accounts:member", args=["bob"])).text
    row = page[page.index(f'<tr data-season="{autumn.pk}" data-game="akropolis"') :]
    assert "2 of 2" in row.split("</tr>")[0]
    page = client_for(bob).get(reverse("accounts:member", args=["carol"])).text
    row = page[page.index(f'<tr data-season="{autumn.pk}" data-game="akropolis"') :]
    assert "not yet ranked" in row.split("</tr>")[0]


def add_games(members: list[User], count: int) -> None:
    for n in range(count):
        first, second = members[n % len(members)], members[(n + 1) % len(members)]
        game_at(
            at(1 + n % 28, hour=n % 20),
            [(first, 1, 0.0, n / 10), (second, 2, 0.0, -n / 10), ("normal", 3)],
            slug=["akropolis", "babylon", "hanging-gardens", "tower-of-babel"][n % 4],
        )


@pytest.mark.django_db
def test_season_pages_read_a_fixed_number_of_queries(season: Season, alice: User) -> None:
    members = [alice, *(make_user(f"member{n}") for n in range(8))]
    client = client_for(alice)
    pages = [
        reverse("games:season", args=[season.pk]),
        reverse("games:seasons"),
        reverse("accounts:member", args=["alice"]),
        "/",
    ]

    def counts() -> list[int]:
        found = []
        for url in pages:
            with CaptureQueriesContext(connection) as captured:
                assert client.get(url).status_code == 200
            found.append(len(captured))
        return found

    add_games(members[:3], 8)
    few = counts()
    add_games(members, 120)
    assert counts() == few


@pytest.mark.django_db
def test_an_ended_season_is_counted_once_and_then_read_from_its_kept_standings(
    autumn: Season, alice: User, time_machine
) -> None:
    time_machine.move_to(datetime(2026, 12, 10, 12, tzinfo=UTC))
    first, [] = seasons.season_tables(autumn)
    with CaptureQueriesContext(connection) as captured:
        again, [] = seasons.season_tables(autumn)
        summary = seasons.summaries([autumn])[autumn.pk]
    assert (
        rows_of(again)
        == rows_of(first)
        == [
            ("alice", 1, 4.5, 3, 1.67, 1060),
            ("bob", 2, 2.5, 3, 2.33, 1000),
            ("carol", None, 2.0, 2, 2.5, 1010),
        ]
    )
    assert [s.player.username for s in summary[0].champions] == ["alice"]
    # Read from the kept rows: no result of the season's games is counted again.
    assert not any("games_result" in q["sql"] for q in captured.captured_queries)


@pytest.mark.django_db
def test_a_game_of_an_ended_season_scored_late_is_counted_in_its_standings(
    autumn: Season, bob: User, carol: User, time_machine
) -> None:
    from games.services import finish_game
    from tests.games.conftest import build_game, play_random_moves

    time_machine.move_to(datetime(2026, 12, 10, 12, tzinfo=UTC))
    seasons.season_tables(autumn)
    # A game that ended on 20 November, whose end-of-game task was lost: scored only now.
    game = play_random_moves(build_game(carol, bob))
    assert game.status == Game.Status.FINISHED and not game.results.exists()
    Game.objects.filter(pk=game.pk).update(finished_at=at(20))
    finish_game(game_id=game.pk)
    table, [] = seasons.season_tables(Season.objects.get(pk=autumn.pk))
    played = {s.player.username: s.played for s in [*table.ranked, *table.unranked]}
    assert played == {"alice": 3, "bob": 4, "carol": 3}
    # Three games now: carol reaches the minimum and is ranked.
    assert [s.player.username for s in table.unranked] == []


@pytest.mark.django_db
def test_editing_an_ended_seasons_days_counts_its_standings_again(
    autumn: Season, alice: User, time_machine
) -> None:
    time_machine.move_to(datetime(2026, 12, 10, 12, tzinfo=UTC))
    seasons.season_tables(autumn)
    # From 3 November on: g1 (2 November) is left out; alice 1.5 + 1, bob 1.5 + 0, carol 0 + 2.
    autumn.starts_on = date(2026, 11, 3)
    seasons.save_season(season=autumn, user=alice)
    table, [] = seasons.season_tables(Season.objects.get(pk=autumn.pk))
    points = {s.player.username: s.points for s in [*table.ranked, *table.unranked]}
    assert points == {"alice": 2.5, "bob": 1.5, "carol": 2.0}


@pytest.mark.django_db
def test_ended_season_pages_read_a_fixed_number_of_queries(alice: User, time_machine) -> None:
    """The index and the profile with many ended seasons: their queries grow with neither the
    games nor the seasons."""
    time_machine.move_to(datetime(2027, 6, 10, 12, tzinfo=UTC))
    members = [alice, *(make_user(f"member{n}") for n in range(8))]
    client = client_for(alice)
    pages = [reverse("games:seasons"), reverse("accounts:member", args=["alice"])]

    def counts() -> list[int]:
        found = []
        for url in pages:
            client.get(url)  # the first visit counts what ended since
            with CaptureQueriesContext(connection) as captured:
                assert client.get(url).status_code == 200
            found.append(len(captured))
        return found

    Season.objects.create(name="Nov", starts_on=date(2026, 11, 1), ends_on=date(2026, 11, 30))
    add_games(members[:3], 8)
    few = counts()
    for month in (1, 2, 3):
        Season.objects.create(
            name=f"M{month}", starts_on=date(2027, month, 1), ends_on=date(2027, month, 28)
        )
    add_games(members, 120)
    assert counts() == few


@pytest.mark.django_db
def test_seed_club_fills_the_last_quarters_as_seasons() -> None:
    from tools import seeding

    made = seeding.ensure_seasons(datetime(2026, 11, 27, 12, tzinfo=UTC))
    assert [(s.name, s.starts_on, s.ends_on) for s in made] == [
        ("2025 Q4", date(2025, 10, 1), date(2025, 12, 31)),
        ("2026 Q1", date(2026, 1, 1), date(2026, 3, 31)),
        ("2026 Q2", date(2026, 4, 1), date(2026, 6, 30)),
        ("2026 Q3", date(2026, 7, 1), date(2026, 9, 30)),
        ("2026 Q4", date(2026, 10, 1), date(2026, 12, 31)),
    ]
    # Seeding again adds no season over the ones there.
    assert seeding.ensure_seasons(datetime(2026, 11, 27, 12, tzinfo=UTC)) == []


def test_a_season_saved_past_the_forms_check_is_still_refused_when_it_overlaps(db) -> None:
    olga = make_user("olga")
    seasons.save_season(
        season=Season(name="Autumn", starts_on=date(2026, 9, 1), ends_on=date(2026, 11, 30)),
        user=olga,
    )
    with pytest.raises(seasons.SeasonOverlap) as refused:
        seasons.save_season(
            season=Season(name="Late", starts_on=date(2026, 11, 30), ends_on=date(2026, 12, 31)),
            user=olga,
        )
    assert refused.value.other.name == "Autumn"
    assert Season.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_organisers_saving_overlapping_seasons_at_once_cannot_both_succeed(
    monkeypatch,
) -> None:
    """Real threads with their own connections; each looks for an overlap, finds none, and
    waits a moment before saving, so without a lock both would save."""
    import threading
    import time

    olga, otto = make_user("olga"), make_user("otto")
    look = seasons.overlapping

    def slow_overlapping(*args: Any, **kwargs: Any) -> Season | None:
        found = look(*args, **kwargs)
        time.sleep(0.3)
        return found

    monkeypatch.setattr(seasons, "overlapping", slow_overlapping)
    start = threading.Barrier(2)
    outcomes: list[str] = []

    def save(user: User, name: str, first: date, last: date) -> None:
        start.wait()
        try:
            season = Season(name=name, starts_on=first, ends_on=last)
            seasons.save_season(season=season, user=user)
            outcomes.append("saved")
        except seasons.SeasonOverlap:
            outcomes.append("overlap")
        finally:
            connection.close()

    threads = [
        threading.Thread(target=save, args=(olga, "Winter", date(2027, 1, 1), date(2027, 3, 31))),
        threading.Thread(target=save, args=(otto, "Q1", date(2027, 3, 1), date(2027, 5, 31))),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["overlap", "saved"]
    assert Season.objects.count() == 1
