"""A season's kept standings: each game scored adds itself to them, and they always equal a
count of the season's results made anew.

The hand-worked numbers follow the place points of issue 35 (with n players, n - 1 for the
first down to 0 for the last; shared places split their points), never a run of our code.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

import pytest
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import season_standings, seasons
from games.models import Game, Result, Season, SeasonStanding, Seat
from games.services import finish_game
from tests.conftest import make_user
from tests.games.conftest import build_game, play_random_moves


def at(day: int, hour: int = 18, month: int = 11) -> datetime:
    return datetime(2026, month, day, hour, tzinfo=UTC)


def scored_at(when: datetime, rows: list[tuple[Any, ...]], **flags: Any) -> Game:
    """A game finished at `when` and scored as finish_game scores one: its results stored,
    then counted in the season's kept standings. Rows are (player, rank[, rating after]) in
    seat order, the player a member or a bot level."""
    game = Game.objects.create(
        engine_slug=flags.pop("slug", "akropolis"),
        seed=1,
        players=len(rows),
        status=Game.Status.FINISHED,
        started_at=when,
        finished_at=when,
        version=1,
        **flags,
    )
    results = []
    for seat, (player, rank, *rating) in enumerate(rows):
        member = player if isinstance(player, User) else None
        Seat.objects.create(
            game=game, position=seat, user=member, bot_level="" if member else player
        )
        results.append(
            Result.objects.create(
                game=game,
                seat=seat,
                user=member,
                bot_level="" if member else player,
                score=10 * (len(rows) - rank),
                rank=rank,
                rating_after=rating[0] if rating else None,
            )
        )
    season_standings.count_finished_game(game, results)
    return game


def kept(season: Season) -> list[tuple[Any, ...]]:
    rows = SeasonStanding.objects.filter(season=season)
    return sorted(
        (r.engine_slug, r.user_id, r.doubled, r.played, r.rank_sum, r.rating, r.place) for r in rows
    )


def recounted(season: Season) -> list[tuple[Any, ...]]:
    return sorted(
        (r.engine_slug, r.user_id, r.doubled, r.played, r.rank_sum, r.rating, r.place)
        for r in season_standings.recount(season)
    )


@pytest.fixture
def autumn(db: None, settings) -> Season:
    settings.SEASON_MIN_GAMES = 3
    season = Season.objects.create(
        name="Autumn 2026", starts_on=date(2026, 11, 1), ends_on=date(2026, 11, 30)
    )
    season_standings.keep_standings(season)  # kept while it has no game yet
    season.refresh_from_db()
    return season


def test_each_game_scored_updates_the_kept_standings_as_a_recount_would(
    autumn: Season, alice: User, bob: User, carol: User
) -> None:
    games = [
        # 3 players: alice 2 points, bob 1, the bot 0.
        (at(2), [(alice, 1, 1.0), (bob, 2, -0.5), ("normal", 3)], {}),
        # alice and bob share the win of 3: (2 + 1) / 2 = 1.5 each, carol 0.
        (at(3), [(alice, 1, 2.0), (bob, 1, 0.5), (carol, 3, -1.0)], {}),
        # Not counted: unrated, hints taken, imported.
        (at(5), [(bob, 1), (alice, 2)], {"rated": False}),
        (at(6), [(bob, 1), (alice, 2)], {"hints_used": True}),
        (at(7), [(bob, 1), (alice, 2)], {"imported": True}),
        # 4 players: the bot 3 points, carol 2, alice 1, bob 0.
        (at(4), [("hard", 1), (carol, 2, 0.25), (alice, 3, 1.5), (bob, 4, 0.0)], {}),
    ]
    for when, rows, flags in games:
        scored_at(when, rows, **flags)
        assert kept(autumn) == recounted(autumn)
    table, [] = seasons.season_tables(autumn)
    assert [
        (s.player.username, s.place, s.points, s.played, round(s.average_place, 2), s.rating)
        for s in [*table.ranked, *table.unranked]
    ] == [
        ("alice", 1, 4.5, 3, 1.67, 1060),  # after g3: 1000 + 40 x 1.5
        ("bob", 2, 2.5, 3, 2.33, 1000),
        ("carol", None, 2.0, 2, 2.5, 1010),  # two games of the three needed: not ranked
    ]


def test_a_member_reaching_the_minimum_takes_a_place_and_moves_the_others(
    autumn: Season, alice: User, bob: User, carol: User
) -> None:
    for day in (2, 3, 4):
        scored_at(at(day), [(alice, 1), (bob, 2)])  # alice 3 points, bob 0
    scored_at(at(5), [(carol, 1), (bob, 2)])
    scored_at(at(6), [(carol, 1), (bob, 2)])
    places = {r.user_id: r.place for r in SeasonStanding.objects.filter(season=autumn)}
    assert places == {alice.pk: 1, bob.pk: 2, carol.pk: None}
    scored_at(at(7), [(carol, 1), (alice, 2)])  # carol: 3 games, 3 points, average place 1
    places = {r.user_id: r.place for r in SeasonStanding.objects.filter(season=autumn)}
    # alice 3 points in 4 games (average 1.25), carol 3 in 3 (average 1): carol first.
    assert places == {carol.pk: 1, alice.pk: 2, bob.pk: 3}
    assert kept(autumn) == recounted(autumn)


def test_equal_points_and_average_place_share_the_kept_place(
    autumn: Season, alice: User, bob: User, carol: User, settings
) -> None:
    settings.SEASON_MIN_GAMES = 1
    season_standings.keep_standings(autumn)  # another minimum: placed again
    autumn.refresh_from_db()
    scored_at(at(2), [(alice, 1), (carol, 2), (bob, 3)])  # alice 2, carol 1, bob 0
    scored_at(at(3), [(bob, 1), (carol, 2), (alice, 3)])  # bob 2, carol 1, alice 0
    places = {r.user_id: r.place for r in SeasonStanding.objects.filter(season=autumn)}
    assert places == {alice.pk: 1, bob.pk: 1, carol.pk: 1}  # 2 points, average place 2 each
    assert kept(autumn) == recounted(autumn)


def test_another_minimum_of_games_places_the_kept_standings_again(
    autumn: Season, alice: User, bob: User, settings
) -> None:
    scored_at(at(2), [(alice, 1), (bob, 2)])
    table, [] = seasons.season_tables(autumn)
    assert table.ranked == []
    settings.SEASON_MIN_GAMES = 1
    table, [] = seasons.season_tables(autumn)
    assert [(s.player.username, s.place) for s in table.ranked] == [("alice", 1), ("bob", 2)]


def test_a_game_scored_late_before_a_kept_season_moves_its_rating_at_the_end(
    autumn: Season, alice: User, bob: User
) -> None:
    # November: a rated game that rates nobody (alice against one bot level in two seats).
    scored_at(at(2), [(alice, 1), ("normal", 2), ("normal", 3)])
    [row] = SeasonStanding.objects.filter(season=autumn)
    assert row.rating is None
    # An October game whose end-of-game task was lost is scored only now.
    scored_at(at(20, month=10), [(alice, 1, 2.0), (bob, 2, -2.0)])
    table, [] = seasons.season_tables(autumn)
    assert [(s.player.username, s.rating) for s in table.unranked] == [("alice", 1080)]
    assert kept(autumn) == recounted(autumn)


@pytest.mark.django_db
def test_real_games_finished_and_scored_late_keep_the_standings_equal_to_a_recount(
    alice: User, bob: User, carol: User, time_machine
) -> None:
    time_machine.move_to(datetime(2026, 11, 20, 12, tzinfo=UTC))
    season = Season.objects.create(
        name="Autumn", starts_on=date(2026, 11, 1), ends_on=date(2026, 11, 30)
    )
    season_standings.keep_standings(season)
    dave = make_user("dave")
    for seed, players in enumerate([(alice, bob), (bob, carol, dave), (alice, carol, bob)]):
        game = play_random_moves(build_game(*players, seed=seed + 3), seed=seed)
        finish_game(game_id=game.pk)
    # A game of 10 November scored only now (its end-of-game task lost).
    late = play_random_moves(build_game(dave, alice, seed=11), seed=5)
    Game.objects.filter(pk=late.pk).update(finished_at=at(10))
    finish_game(game_id=late.pk)
    counted = recounted(season)
    assert kept(season) == counted
    assert sum(played for _slug, _user, _doubled, played, *_ in counted) == 2 + 3 + 3 + 2


@pytest.mark.django_db
def test_editing_a_kept_seasons_days_counts_it_again(alice: User, bob: User) -> None:
    season = Season.objects.create(
        name="Autumn", starts_on=date(2026, 11, 1), ends_on=date(2026, 11, 30)
    )
    season_standings.keep_standings(season)
    scored_at(at(2), [(alice, 1), (bob, 2)])
    scored_at(at(4), [(bob, 1), (alice, 2)])
    season.starts_on = date(2026, 11, 3)
    seasons.save_season(season=season, user=alice)
    table, [] = seasons.season_tables(Season.objects.get(pk=season.pk))
    # Only the game of 4 November counts now: bob 1 point, alice 0.
    assert [(s.player.username, s.points) for s in table.unranked] == [("bob", 1.0), ("alice", 0.0)]
    assert kept(season) == recounted(season)


@pytest.mark.django_db
def test_a_game_outside_every_kept_season_changes_no_standing(alice: User, bob: User) -> None:
    season = Season.objects.create(
        name="Autumn", starts_on=date(2026, 11, 1), ends_on=date(2026, 11, 30)
    )
    season_standings.keep_standings(season)
    scored_at(at(2, month=12), [(alice, 1, 1.0), (bob, 2, -1.0)])
    assert kept(season) == []


@pytest.mark.django_db
def test_days_changed_in_the_admin_count_the_season_again(alice: User, bob: User) -> None:
    season = Season.objects.create(
        name="Autumn", starts_on=date(2026, 11, 1), ends_on=date(2026, 11, 30)
    )
    season_standings.keep_standings(season)
    scored_at(at(2), [(alice, 1), (bob, 2)])
    scored_at(at(4), [(bob, 1), (alice, 2)])
    admin = make_user("root", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(admin)
    response = client.post(
        reverse("admin:games_season_change", args=[season.pk]),
        {"name": "Autumn", "starts_on": "2026-11-03", "ends_on": "2026-11-30"},
    )
    assert response.status_code == 302
    season.refresh_from_db()
    assert season.starts_on == date(2026, 11, 3)
    table, [] = seasons.season_tables(season)
    # Only the game of 4 November counts now: bob 1 point, alice 0.
    assert [(s.player.username, s.points) for s in table.unranked] == [("bob", 1.0), ("alice", 0.0)]
    assert kept(season) == recounted(season)


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="SQLite runs one writing transaction at a time"
)
@pytest.mark.parametrize("first", ["counted", "scored"])
def test_a_season_counted_while_a_game_of_it_is_scored_misses_nothing(first: str) -> None:
    """Real threads with their own connections. "counted": a page counts the season while a
    game's results are stored but not yet committed, then the game's end counts it in.
    "scored": the game's end runs first, finds no kept standings, and the page's count waits
    for its commit."""
    import threading
    import time

    alice, bob = make_user("alice"), make_user("bob")
    season = Season.objects.create(
        name="Autumn", starts_on=date(2026, 11, 1), ends_on=date(2026, 11, 30)
    )
    with transaction.atomic():
        scored_at(at(2), [(alice, 1), (bob, 2)])
    stored, counted = threading.Event(), threading.Event()
    failures: list[BaseException] = []

    def score() -> None:
        try:
            with transaction.atomic():
                game = Game.objects.create(
                    engine_slug="akropolis",
                    seed=1,
                    players=2,
                    status=Game.Status.FINISHED,
                    finished_at=at(3),
                    version=1,
                )
                results = [
                    Result.objects.create(game=game, seat=s, user=u, score=0, rank=s + 1)
                    for s, u in enumerate([bob, alice])
                ]
                if first == "counted":
                    stored.set()
                    assert counted.wait(10)
                season_standings.count_finished_game(game, results)
                if first == "scored":
                    stored.set()
                    time.sleep(0.3)  # the page's count waits for this commit
        except BaseException as exc:  # reported by the test's thread below
            failures.append(exc)
        finally:
            connection.close()

    def count() -> None:
        try:
            assert stored.wait(10)
            season_standings.keep_standings(Season.objects.get(pk=season.pk))
            counted.set()
        except BaseException as exc:
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=score), threading.Thread(target=count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert failures == []
    # Each played both games: 1 point each.
    assert {(r.user_id, r.doubled, r.played) for r in SeasonStanding.objects.all()} == {
        (alice.pk, 2, 2),
        (bob.pk, 2, 2),
    }
    assert kept(season) == recounted(season)


def table_on_the_page(season: Season) -> list[tuple[str, int | None, float, int]]:
    """The season page's table as alice reads it: name, place, points and games."""
    client = Client()
    client.force_login(User.objects.get(username="alice"))
    response = client.get(reverse("games:season", args=[season.pk]))
    assert response.status_code == 200
    table = response.context["table"]
    return [
        (s.player.username, s.place, s.points, s.played) for s in [*table.ranked, *table.unranked]
    ]


def admin_client() -> Client:
    client = Client()
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    return client


def two_winners_and_a_loser(alice: User, bob: User, carol: User) -> Game:
    """Alice beats bob on 2, 3 and 4 November, carol beats him on 5, 6 and 7 (two players:
    1 point for the win). Alice and carol share the first place (3 points, average place 1),
    bob is third with 0 points in 6 games. Returns the game of 3 November."""
    middle = None
    for day in (2, 3, 4):
        game = scored_at(at(day), [(alice, 1, 1.0), (bob, 2, -1.0)])
        middle = game if day == 3 else middle
    for day in (5, 6, 7):
        scored_at(at(day), [(carol, 1, 1.0), (bob, 2, -1.0)])
    assert middle is not None
    return middle


def test_a_game_deleted_in_the_admin_leaves_the_season_and_the_places_close_up(
    autumn: Season, alice: User, bob: User, carol: User
) -> None:
    middle = two_winners_and_a_loser(alice, bob, carol)
    assert table_on_the_page(autumn) == [
        ("alice", 1, 3.0, 3),
        ("carol", 1, 3.0, 3),
        ("bob", 3, 0.0, 6),
    ]
    response = admin_client().post(
        reverse("admin:games_game_delete", args=[middle.pk]), {"post": "yes"}
    )
    assert response.status_code == 302
    assert not Game.objects.filter(pk=middle.pk).exists()
    # Alice has 2 games of the 3 needed: not ranked any more; bob moves up to second.
    assert table_on_the_page(autumn) == [
        ("carol", 1, 3.0, 3),
        ("bob", 2, 0.0, 5),
        ("alice", None, 2.0, 2),
    ]
    assert kept(autumn) == recounted(autumn)


def test_a_member_deleted_in_the_admin_leaves_the_table_and_the_places_close_up(
    autumn: Season, alice: User, bob: User, carol: User
) -> None:
    two_winners_and_a_loser(alice, bob, carol)
    table_on_the_page(autumn)  # counted and kept with carol in it
    response = admin_client().post(
        reverse("admin:accounts_user_delete", args=[carol.pk]), {"post": "yes"}
    )
    assert response.status_code == 302
    assert not User.objects.filter(pk=carol.pk).exists()
    # Carol's games stay played (bob lost them), but she is listed no more.
    assert table_on_the_page(autumn) == [("alice", 1, 3.0, 3), ("bob", 2, 0.0, 6)]
    assert kept(autumn) == recounted(autumn)


def test_a_result_deleted_alone_counts_its_season_again(
    autumn: Season, alice: User, bob: User, carol: User
) -> None:
    middle = two_winners_and_a_loser(alice, bob, carol)
    table_on_the_page(autumn)
    Result.objects.get(game=middle, user=alice).delete()
    # Bob's seat alone is left of that game: alice 2 games (not ranked), bob still 6.
    assert table_on_the_page(autumn) == [
        ("carol", 1, 3.0, 3),
        ("bob", 2, 0.0, 6),
        ("alice", None, 2.0, 2),
    ]
    assert kept(autumn) == recounted(autumn)


def test_a_game_deleted_before_a_kept_season_moves_its_rating_at_the_end(
    autumn: Season, alice: User, bob: User
) -> None:
    # November: a rated game that rates nobody (alice against one bot level in two seats), so
    # alice's rating at the season's end is the one October's game left her.
    scored_at(at(2), [(alice, 1), ("normal", 2), ("normal", 3)])
    october = scored_at(at(20, month=10), [(alice, 1, 2.0), (bob, 2, -2.0)])
    [row] = SeasonStanding.objects.filter(season=autumn)
    assert row.rating == 2.0
    october.delete()
    [row] = SeasonStanding.objects.filter(season=autumn)
    assert row.rating is None
    assert kept(autumn) == recounted(autumn)


def test_deleting_an_unfinished_game_or_an_idle_member_keeps_the_standings(
    autumn: Season, alice: User, bob: User, carol: User
) -> None:
    two_winners_and_a_loser(alice, bob, carol)
    table_on_the_page(autumn)
    build_game(alice, bob, seed=3).delete()
    make_user("dave").delete()
    autumn.refresh_from_db()
    assert season_standings.is_kept(autumn)
