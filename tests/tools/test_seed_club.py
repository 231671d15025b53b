"""seed_club: every game it writes is a legal, finished game that audit_games accepts."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import connection

from games.models import Game, Move, Rating, Result


@pytest.mark.django_db(transaction=True)
def test_seeded_games_replay_and_carry_results_and_ratings() -> None:
    call_command("seed_club", games=8, members=4, jobs=1, bot_share=0.2, seed=3)
    games = list(Game.objects.all())
    assert len(games) == 8
    assert {g.engine_slug for g in games} == {
        "akropolis",
        "babylon",
        "hanging-gardens",
        "tower-of-babel",
    }
    assert all(g.status == Game.Status.FINISHED for g in games)
    assert Move.objects.count() == sum(g.version for g in games)
    for game in games:
        assert game.results.count() == game.players
        assert game.results.filter(rank=1).exists()
    call_command("audit_games")  # raises CommandError when a game does not match its log
    # Each rated game moves the rating of every participant it rates, once.
    rated = Result.objects.filter(rating_after__isnull=False)
    assert sum(Rating.objects.values_list("games_played", flat=True)) == rated.count() > 0
    # Games finish one after another, so ratings follow the finishing order.
    ordered = list(Game.objects.order_by("pk").values_list("finished_at", flat=True))
    assert ordered == sorted(ordered)


@pytest.mark.django_db(transaction=True)
def test_seeding_twice_adds_games_for_the_same_members() -> None:
    call_command("seed_club", games=4, members=3, jobs=1, seed=1)
    call_command("seed_club", games=4, members=3, jobs=1, seed=2)
    assert Game.objects.count() == 8
    from accounts.models import User

    assert User.objects.filter(username__startswith="member").count() == 3
    call_command("audit_games")


def assert_planner_counts_the_results() -> None:
    """The row count the database keeps for its planner is the real one. Without statistics
    PostgreSQL plans the pages' joins for a few hundred rows, whatever was loaded."""
    stored = Result.objects.count()
    assert stored == sum(Game.objects.values_list("players", flat=True)) > 0
    table = Result._meta.db_table
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT reltuples FROM pg_class WHERE relname = %s", [table])
            assert int(cursor.fetchone()[0]) == stored
        else:
            # sqlite_stat1's figures for a table's index start with the table's row count.
            cursor.execute(
                "SELECT stat FROM sqlite_stat1 WHERE tbl = %s AND idx IS NOT NULL", [table]
            )
            counts = {int(row[0].split()[0]) for row in cursor.fetchall()}
            assert counts == {stored}


@pytest.mark.django_db(transaction=True)
def test_seeding_leaves_the_planner_statistics_of_what_it_wrote() -> None:
    call_command("seed_club", games=4, members=3, jobs=1, seed=1)
    assert_planner_counts_the_results()


@pytest.mark.django_db
def test_seeding_inside_a_transaction_refreshes_the_statistics_too() -> None:
    # VACUUM cannot run in a transaction block: there the statistics come from ANALYZE alone.
    call_command("seed_club", games=4, members=3, jobs=1, seed=2)
    assert_planner_counts_the_results()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("games", "jobs"), [(7, 1), (7, 2), (2, 2)])
def test_seeding_stores_every_game_it_reports_when_the_last_batch_is_partial(
    games: int, jobs: int, monkeypatch
) -> None:
    """Issue 33, item 8: with --jobs above 1, the games of a last partial batch were never
    written (`--games 150` stored 100, `--games 8` none) while the command reported them all.
    The batch is three games here, so 7 games end with a batch of one and 2 games make only a
    partial batch."""
    from io import StringIO

    from tools.management.commands import seed_club

    monkeypatch.setattr(seed_club, "BATCH", 3)
    out = StringIO()
    call_command("seed_club", games=games, members=3, jobs=jobs, seed=4, stdout=out)
    assert Game.objects.count() == games
    moves = Move.objects.count()
    assert out.getvalue().startswith(f"{games} games ({moves} moves) for 3 members")
    call_command("audit_games")


@pytest.mark.django_db(transaction=True)
def test_seeded_members_joined_over_the_year_before_their_first_game() -> None:
    """Issue 33, item 8: seeded members all said "Member since" today and filled the club
    page's newest members. They join over the days the games span, each before playing."""
    from datetime import timedelta

    from django.utils import timezone

    from accounts.models import User

    call_command("seed_club", games=6, members=6, jobs=1, seed=5, days=365)
    now = timezone.now()
    members = list(User.objects.filter(username__startswith="member").order_by("username"))
    joined = [m.date_joined for m in members]
    assert all(now - timedelta(days=367) < date < now - timedelta(days=1) for date in joined)
    assert max(joined) - min(joined) > timedelta(days=180)  # spread over the year
    for member in members:
        games = Game.objects.filter(seats__user=member)
        if games.exists():
            first = min(games.values_list("started_at", flat=True))
            assert member.date_joined < first


@pytest.mark.django_db(transaction=True)
def test_seeding_adds_a_finished_and_a_running_tournament_of_each_format() -> None:
    from itertools import combinations

    from django.utils import timezone

    from games.models import Tournament, TournamentEntry, TournamentTable

    call_command("seed_club", games=40, members=8, jobs=1, seed=3)
    # The tournaments' tables are games of the 40 asked for.
    assert Game.objects.count() == 40
    call_command("audit_games")
    kinds = sorted(Tournament.objects.values_list("format", "status"))
    assert kinds == [
        ("round_robin", "finished"),
        ("round_robin", "running"),
        ("swiss", "finished"),
        ("swiss", "running"),
    ]
    for table in TournamentTable.objects.select_related("game"):
        users = dict(TournamentEntry.objects.values_list("pk", "user_id"))
        seats = list(table.game.seats.order_by("position"))
        assert [s.user_id for s in seats] == [users.get(e) for e in table.entries]
        assert all(s.bot_level == "normal" for s in seats if s.user_id is None)
        assert table.game.status == Game.Status.FINISHED
    for t in Tournament.objects.filter(status="finished"):
        assert {r.status for r in t.rounds.all()} == {"finished"}
        places = sorted(t.entries.values_list("final_place", flat=True))
        # Every member ranked (a shared place repeats a number), from the first place on.
        assert places[0] == 1 and None not in places and len(places) == t.entries.count()
    robin = Tournament.objects.get(format="round_robin", status="finished")
    met = dict.fromkeys(combinations(sorted(robin.order), 2), 0)
    for table in TournamentTable.objects.filter(round__tournament=robin):
        for pair in combinations(sorted(e for e in table.entries if e), 2):
            met[pair] += 1
    assert set(met.values()) == {1}  # every two members of the group met exactly once
    for t in Tournament.objects.filter(status="running"):
        rounds = list(t.rounds.order_by("number"))
        assert rounds[0].status == "finished"
        assert all(r.status == "scheduled" and r.starts_at > timezone.now() for r in rounds[1:])
        assert set(t.entries.values_list("final_place", flat=True)) == {None}


# What the log keeps of a move: every column of the row but its key, its game and the time
# it was written (a new column is compared without touching this test).
MOVE_CONTENT = [
    f.attname for f in Move._meta.concrete_fields if f.name not in ("id", "game", "created_at")
]


@pytest.mark.django_db
def test_seeded_moves_are_stored_as_the_move_path_stores_them() -> None:
    """Issue 36: seeding writes moves through the one move path's writer. Each seeded game is
    played again through `play_move`, in a fresh game with the same seed, seats and moves: its
    log comes out the same, row by row and column by column, and so does the stored game."""
    from games import services
    from tests.games.conftest import build_game

    call_command("seed_club", games=4, members=4, jobs=1, bot_share=0.3, seed=6)
    seeded = list(Game.objects.order_by("pk"))
    assert sorted(g.engine_slug for g in seeded) == [
        "akropolis",
        "babylon",
        "hanging-gardens",
        "tower-of-babel",
    ]
    assert Move.objects.filter(by_bot=True).exists()  # the bots' moves are compared too
    assert Move.objects.filter(can_take_back=True).exists()  # and steps that could be taken back
    for game in seeded:
        players = [s.user or s.bot_level for s in game.seats.order_by("position")]
        fresh = build_game(*players, engine=game.engine_slug, seed=game.seed)
        for move in game.moves.order_by("number"):
            services.play_move(
                game_id=fresh.pk,
                seat=move.seat,
                move=move.payload,
                expected_version=move.number,
                by_bot=move.by_bot,
            )
        fresh.refresh_from_db()
        replayed = list(fresh.moves.order_by("number").values_list(*MOVE_CONTENT))
        assert replayed == list(game.moves.order_by("number").values_list(*MOVE_CONTENT))
        assert (fresh.state, fresh.version, fresh.status, fresh.turn_started_at) == (
            game.state,
            game.version,
            Game.Status.FINISHED,
            None,
        )


@pytest.mark.django_db(transaction=True)
def test_seeding_again_counts_the_kept_season_standings_anew() -> None:
    from games import season_standings
    from games.models import Season, SeasonStanding

    def played() -> int:
        return sum(r.played for r in SeasonStanding.objects.all())

    call_command("seed_club", games=6, members=3, jobs=1, seed=1)
    season_standings.ensure_kept(Season.objects.all())
    before = played()
    call_command("seed_club", games=6, members=3, jobs=1, seed=2)
    season_standings.ensure_kept(Season.objects.all())
    assert played() > before > 0
    for season in Season.objects.all():
        kept = SeasonStanding.objects.filter(season=season)
        assert sorted((r.engine_slug, r.user_id, r.doubled, r.played) for r in kept) == sorted(
            (r.engine_slug, r.user_id, r.doubled, r.played)
            for r in season_standings.recount(season)
        )
