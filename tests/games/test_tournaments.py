"""Tournaments through the services and the beat task (games/services/tournaments.py)."""

from __future__ import annotations

import contextlib
import io
import random
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from itertools import combinations
from typing import Any

import pytest
import time_machine
from django.contrib.auth.models import Permission
from django.test import Client
from django.utils import timezone, translation

from accounts.models import Notification, User
from games import engines, services, tasks
from games.models import Game, Result, Tournament, TournamentEntry, TournamentTable
from games.services import tournaments
from tests.accounts.test_email import eager_mail  # noqa: F401 (a fixture)
from tests.conftest import make_user

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 5, 1, 17, 0, tzinfo=UTC)
FIRST = datetime(2026, 5, 1, 18, 0, tzinfo=UTC)
Entry = TournamentEntry.Status


def organiser(username: str = "olga") -> User:
    user = make_user(username)
    user.user_permissions.add(Permission.objects.get(codename="organise_tournament"))
    return User.objects.get(pk=user.pk)  # permissions are cached on the instance


def create(by: User, **extra: Any) -> Tournament:
    fields: dict[str, Any] = {
        "name": "Spring cup",
        "engine_slug": "akropolis",
        "format": "swiss",
        "table_size": 3,
        "capacity": 8,
        "bot_level": "easy",
        "first_round_at": FIRST,
        "round_interval": timedelta(hours=1),
        "rounds": 2,
        "now": NOW,
    }
    fields.update(extra)
    return tournaments.create_tournament(organiser=by, **fields)


def beat_at(instant: datetime, capture: Any) -> dict[str, int]:
    """What the beat task does at `instant`."""
    import time_machine

    with time_machine.travel(instant, tick=False), capture(execute=True):
        return tasks.run_tournaments()


def play_out(game: Game, rng: random.Random) -> None:
    """Members play random legal moves, bots their own turns; then the game is scored."""
    engine = engines.get(game.engine_slug)
    for _ in range(5_000):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            break
        state = engine.load(game.state)
        seat = engine.to_move(state)[0]
        row = game.seats.get(position=seat)
        if row.is_bot:
            assert services.play_bot_turn(game_id=game.pk, seat=seat, expected_version=game.version)
        else:
            move = rng.choice(engine.legal_moves(state, seat))
            services.play_move(game_id=game.pk, seat=seat, move=move, expected_version=game.version)
    services.finish_game(game_id=game.pk)


def members_at(table: Any) -> list[User | None]:
    seats = table.game.seats.order_by("position")
    return [s.user if not s.bot_level or s.bot_took_over else None for s in seats]


def expected_points(t: Tournament) -> dict[int, Fraction]:
    """Tournament points straight from the rule: at a table of n, n - 1 for first ... 0 for
    last, a shared place sharing the points of the places it covers."""
    points: dict[int, Fraction] = {}
    for table in TournamentTable.objects.filter(round__tournament=t):
        results = list(Result.objects.filter(game=table.game))
        n = len(results)
        for r in results:
            shared = [o for o in results if o.rank == r.rank]
            first = sorted(o.rank for o in results).index(r.rank)  # 0-based best place
            places = range(first, first + len(shared))
            entry = table.entries[r.seat]
            if entry is not None:
                share = Fraction(sum(n - 1 - p for p in places), len(shared))
                points[entry] = points.get(entry, Fraction(0)) + share
    return points


def test_only_an_organiser_creates_a_tournament(alice: User) -> None:
    with pytest.raises(services.GameError) as exc:
        create(alice)
    assert exc.value.code == "not_organiser"
    t = create(organiser())
    assert [(r.number, r.starts_at) for r in t.rounds.all()] == [
        (1, FIRST),
        (2, FIRST + timedelta(hours=1)),
    ]


@pytest.mark.parametrize("size", [1, 5])
def test_a_table_size_outside_the_games_player_counts_is_refused(size: int) -> None:
    with pytest.raises(services.GameError) as exc:
        create(organiser(), table_size=size)
    assert exc.value.code == "bad_players"
    assert not Tournament.objects.exists()


def test_a_round_robin_has_one_round_more_than_the_table_size() -> None:
    t = create(organiser(), format="round_robin", table_size=2, rounds=None)
    assert t.rounds.count() == 3


def test_beyond_the_places_members_wait_and_a_withdrawal_gives_the_place(
    alice: User, bob: User, carol: User
) -> None:
    t = create(organiser(), capacity=2)
    for member in (alice, bob, carol):
        services.tournaments.register(tournament_id=t.pk, user=member)
    status = dict(t.entries.values_list("user__username", "status"))
    assert status == {"alice": Entry.REGISTERED, "bob": Entry.REGISTERED, "carol": Entry.WAITLISTED}
    tournaments.withdraw(tournament_id=t.pk, user=alice)
    status = dict(t.entries.values_list("user__username", "status"))
    assert status == {"alice": Entry.WITHDRAWN, "bob": Entry.REGISTERED, "carol": Entry.REGISTERED}


def test_a_tournament_with_one_member_at_its_first_round_is_cancelled(
    alice: User, django_capture_on_commit_callbacks: Any
) -> None:
    t = create(organiser())
    tournaments.register(tournament_id=t.pk, user=alice)
    assert beat_at(FIRST, django_capture_on_commit_callbacks)["cancelled"] == 1
    t.refresh_from_db()
    assert t.status == Tournament.Status.CANCELLED
    assert not Game.objects.exists()


def test_a_small_swiss_tournament_is_played_end_to_end(
    quick_bots: None, django_capture_on_commit_callbacks: Any
) -> None:
    capture = django_capture_on_commit_callbacks
    rng = random.Random(5)
    t = create(organiser())
    members = [make_user(f"m{i}") for i in range(5)]
    for member in members:
        tournaments.register(tournament_id=t.pk, user=member)

    assert beat_at(FIRST - timedelta(seconds=1), capture)["started"] == 0
    assert beat_at(FIRST, capture)["started"] == 1
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING
    first = t.rounds.get(number=1)
    tables = list(first.tables.order_by("number"))
    # Round 1 in order of entry: a full table, and a table that one bot completes.
    assert [members_at(x) for x in tables] == [members[:3], [*members[3:], None]]
    bot_seat = tables[1].game.seats.get(position=2)
    assert (bot_seat.user, bot_seat.bot_level) == (None, "easy")
    for member, table in zip(members, [0, 0, 0, 1, 1], strict=True):
        notice = member.notifications.get(kind="tournament_round")
        assert notice.link == tables[table].game.get_absolute_url()
    for table in tables:
        play_out(table.game, rng)

    # The second round waits for its time even though the first is over.
    assert beat_at(FIRST + timedelta(minutes=30), capture) == {
        "reminded": 0,
        "decided": 0,
        "closed": 1,
        "started": 0,
        "cancelled": 0,
        "finished": 0,
    }
    after_one = tournaments.standings(t)
    assert len(after_one) == 5
    assert beat_at(FIRST + timedelta(hours=1), capture)["started"] == 1
    second = list(t.rounds.get(number=2).tables.order_by("number"))
    seated = [u for x in second for u in members_at(x)]
    assert sorted(u.pk for u in seated if u) == sorted(m.pk for m in members)
    assert seated.count(None) == 1 and members_at(second[-1])[-1] is None
    # The leader after round 1 sits at the top table unless that would add a repeat: the
    # meetings of round 1 allow it here (a table of three can hold the leader and two members
    # who did not meet them, with at most one pair that met).
    leader = TournamentEntry.objects.get(pk=after_one[0].member).user
    assert leader in members_at(second[0])
    for table in second:
        play_out(table.game, rng)

    assert beat_at(FIRST + timedelta(hours=1, minutes=1), capture)["finished"] == 1
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    rows = tournaments.standings(t)
    expected = expected_points(t)
    assert {r.member: r.points for r in rows} == expected
    assert all(r.played == 2 for r in rows)
    points = [r.points for r in rows]
    assert points == sorted(points, reverse=True)
    # Bots are never ranked.
    assert all(r.member is not None for r in rows)


def test_a_withdrawal_hands_the_running_seat_to_a_bot_and_the_member_is_paired_no_more(
    quick_bots: None, django_capture_on_commit_callbacks: Any
) -> None:
    capture = django_capture_on_commit_callbacks
    t = create(organiser(), table_size=2)
    members = [make_user(f"m{i}") for i in range(4)]
    for member in members:
        tournaments.register(tournament_id=t.pk, user=member)
    beat_at(FIRST, capture)
    quitter = members[0]
    tournaments.withdraw(tournament_id=t.pk, user=quitter)
    table = t.rounds.get(number=1).tables.get(number=1)
    seat = table.game.seats.get(user=quitter)
    assert seat.resigned and seat.is_bot
    rng = random.Random(1)
    for x in t.rounds.get(number=1).tables.all():
        play_out(x.game, rng)
    beat_at(FIRST + timedelta(hours=1), capture)
    second = [u for x in t.rounds.get(number=2).tables.all() for u in members_at(x)]
    assert quitter not in second
    assert second.count(None) == 1  # three members: a bot completes the second table


def test_a_late_entry_starts_at_zero_and_plays_from_the_next_round(
    quick_bots: None, django_capture_on_commit_callbacks: Any
) -> None:
    capture = django_capture_on_commit_callbacks
    t = create(organiser(), table_size=2)
    members = [make_user(f"m{i}") for i in range(2)]
    for member in members:
        tournaments.register(tournament_id=t.pk, user=member)
    beat_at(FIRST, capture)
    late = make_user("late")
    tournaments.register(tournament_id=t.pk, user=late)
    play_out(t.rounds.get(number=1).tables.get().game, random.Random(2))
    beat_at(FIRST + timedelta(hours=1), capture)
    rows = {TournamentEntry.objects.get(pk=r.member).user: r for r in tournaments.standings(t)}
    assert rows[late].points == 0 and rows[late].played == 0
    seated = [u for x in t.rounds.get(number=2).tables.all() for u in members_at(x)]
    assert late in seated


def test_a_round_robin_seats_every_pair_together_once(
    quick_bots: None, django_capture_on_commit_callbacks: Any
) -> None:
    capture = django_capture_on_commit_callbacks
    t = create(organiser(), format="round_robin", table_size=2, rounds=None)
    members = [make_user(f"m{i}") for i in range(4)]
    for member in members:
        tournaments.register(tournament_id=t.pk, user=member)
    rng = random.Random(3)
    met = []
    for n in range(3):
        beat_at(FIRST + timedelta(hours=n), capture)
        for table in t.rounds.get(number=n + 1).tables.all():
            met.append(frozenset(u.pk for u in members_at(table)))
            play_out(table.game, rng)
    assert sorted(met, key=sorted) == sorted(
        (frozenset((a.pk, b.pk)) for a, b in combinations(members, 2)), key=sorted
    )


def test_the_demo_account_organises_tournaments() -> None:
    from django.core.management import call_command

    call_command("create_demo", stdout=io.StringIO())
    assert tournaments.may_organise(User.objects.get(username="demo"))


def test_a_round_robin_takes_no_late_entry(
    quick_bots: None, django_capture_on_commit_callbacks: Any
) -> None:
    t = create(organiser(), format="round_robin", table_size=2, rounds=None)
    for member in (make_user("m0"), make_user("m1")):
        tournaments.register(tournament_id=t.pk, user=member)
    beat_at(FIRST, django_capture_on_commit_callbacks)
    with pytest.raises(services.GameError) as exc:
        tournaments.register(tournament_id=t.pk, user=make_user("late"))
    assert exc.value.code == "tournament_closed"


# --- async rounds, reminders, the organiser's cancel (issue 35) ---------------------------------


def enter(t: Tournament, *names: str) -> list[User]:
    members = [make_user(name) for name in names]
    for member in members:
        tournaments.register(tournament_id=t.pk, user=member)
    return members


def test_an_async_round_runs_on_its_clock_and_the_next_starts_once_it_is_scored(
    django_capture_on_commit_callbacks,
) -> None:
    t = create(organiser(), round_days=5, days_per_move=2, rounds=2)
    assert t.is_async
    # The rounds wait for no time of their own: each follows the one before.
    assert [r.starts_at for r in t.rounds.all()] == [FIRST, FIRST]
    members = enter(t, "ann", "ben", "cid")
    capture = django_capture_on_commit_callbacks
    assert beat_at(FIRST + timedelta(minutes=1), capture)["started"] == 1
    first = t.rounds.get(number=1)
    assert first.starts_at == FIRST + timedelta(minutes=1)
    assert first.deadline == FIRST + timedelta(minutes=1, days=5)
    game = first.tables.get().game
    assert game.days_per_move == 2
    notice = members[0].notifications.get(kind="tournament_round")
    assert "Its deadline is" in notice.text
    play_out(game, random.Random(3))
    later = FIRST + timedelta(days=1)
    counts = beat_at(later, capture)
    assert (counts["closed"], counts["started"]) == (1, 1)
    second = t.rounds.get(number=2)
    assert (second.starts_at, second.deadline) == (later, later + timedelta(days=5))


def test_at_an_async_deadline_the_seats_still_playing_go_to_bots_for_good(
    django_capture_on_commit_callbacks,
) -> None:
    t = create(organiser(), round_days=3, days_per_move=1, rounds=1)
    ann, ben, cid = enter(t, "ann", "ben", "cid")
    capture = django_capture_on_commit_callbacks
    beat_at(FIRST, capture)
    round_ = t.rounds.get()
    game = round_.tables.get().game
    # A day before the deadline nothing is handed over.
    assert beat_at(FIRST + timedelta(days=2), capture)["decided"] == 0
    assert beat_at(FIRST + timedelta(days=3, minutes=1), capture)["decided"] == 3
    seats = list(game.seats.order_by("position"))
    assert all(s.bot_took_over and s.bot_level == "easy" for s in seats)
    for member in (ann, ben, cid):
        note = member.notifications.get(kind="tourn_deadline")
        assert "a bot plays your seat" in note.text and note.link == game.get_absolute_url()
    with pytest.raises(services.GameError) as refused:
        services.reclaim_seat(game_id=game.pk, user=ann)
    assert refused.value.code == "round_over"
    client = Client()
    client.force_login(ann)
    with time_machine.travel(FIRST + timedelta(days=3, minutes=1), tick=False):
        page = client.get(game.get_absolute_url()).content.decode()
    assert "Take my seat back" not in page
    assert "The deadline of this tournament round has passed" in page
    # Handed once: the next beat finds nobody left to hand over.
    assert beat_at(FIRST + timedelta(days=3, minutes=2), capture)["decided"] == 0


@pytest.mark.parametrize(
    ("extra", "code"),
    [
        ({"round_days": 0, "days_per_move": 1}, "tournament_round_days"),
        ({"round_days": 61, "days_per_move": 1}, "tournament_round_days"),
        ({"round_days": 7, "days_per_move": None}, "bad_days_per_move"),
        ({"round_days": 7, "days_per_move": 31}, "bad_days_per_move"),
    ],
)
def test_async_rounds_need_days_in_bounds(extra: dict, code: str) -> None:
    with pytest.raises(services.GameError) as refused:
        create(organiser(), **extra)
    assert refused.value.code == code
    assert not Tournament.objects.exists()


def test_the_members_of_a_live_round_are_reminded_once_before_it_starts(
    django_capture_on_commit_callbacks, settings
) -> None:
    settings.TOURNAMENT_REMINDER = 3600
    t = create(organiser())
    ann, ben = enter(t, "ann", "ben")
    capture = django_capture_on_commit_callbacks
    assert beat_at(FIRST - timedelta(minutes=61), capture)["reminded"] == 0
    assert beat_at(FIRST - timedelta(minutes=59), capture)["reminded"] == 1
    assert beat_at(FIRST - timedelta(minutes=30), capture)["reminded"] == 0
    for member in (ann, ben):
        note = member.notifications.get(kind="tourn_reminder")
        assert note.link == t.get_absolute_url()
        assert "Round 1 of Spring cup starts on" in note.text


def test_a_reminder_is_in_the_members_language_and_time_zone(
    django_capture_on_commit_callbacks,
) -> None:
    t = create(organiser())
    vera = make_user("vera", language="hu")
    vera.time_zone = "Europe/Budapest"
    vera.save()
    tournaments.register(tournament_id=t.pk, user=vera)
    beat_at(FIRST - timedelta(minutes=30), django_capture_on_commit_callbacks)
    note = vera.notifications.get(kind="tourn_reminder")
    with translation.override("hu"), timezone.override("Europe/Budapest"):
        # 18:00 UTC on 1 May is 20:00 in Budapest (CEST).
        assert "a(z) Spring cup 1. fordulója" in note.text and "20:00 CEST" in note.text


def test_an_organisers_cancel_with_entrants_needs_confirming_and_tells_them(
    django_capture_on_commit_callbacks,
) -> None:
    olga = organiser()
    t = create(olga)
    ann, ben = enter(t, "ann", "ben")
    capture = django_capture_on_commit_callbacks
    beat_at(FIRST, capture)
    game = t.rounds.get(number=1).tables.get().game
    with pytest.raises(services.GameError) as refused:
        tournaments.cancel_tournament(tournament_id=t.pk, user=olga)
    assert refused.value.code == "tournament_confirm_cancel"
    with pytest.raises(services.GameError) as refused:
        tournaments.cancel_tournament(tournament_id=t.pk, user=ann, confirmed=True)
    assert refused.value.code == "not_tournament_organiser"
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING
    with capture(execute=True):
        tournaments.cancel_tournament(tournament_id=t.pk, user=olga, confirmed=True)
    t.refresh_from_db()
    assert t.status == Tournament.Status.CANCELLED
    for member in (ann, ben):
        note = member.notifications.get(kind="tourn_cancelled")
        assert note.text == "olga cancelled the tournament Spring cup that you had entered."
    assert not olga.notifications.filter(kind="tourn_cancelled").exists()
    # Its running game goes on as an ordinary game; no round starts or closes any more.
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    play_out(game, random.Random(1))
    assert beat_at(FIRST + timedelta(hours=2), capture) == dict.fromkeys(
        ["reminded", "decided", "closed", "started", "cancelled", "finished"], 0
    )
    assert t.rounds.get(number=2).tables.count() == 0


def test_a_tournament_nobody_entered_is_cancelled_without_asking() -> None:
    olga = organiser()
    t = create(olga)
    tournaments.cancel_tournament(tournament_id=t.pk, user=olga)
    t.refresh_from_db()
    assert t.status == Tournament.Status.CANCELLED


# --- with real workers --------------------------------------------------------------------------


def beat_in_worker() -> None:
    """What the beat does every 30 s: send the tournaments' task to the play worker."""
    from config.celery import app

    app.send_task("games.tasks.run_tournaments")


def wait_until(check: Any, worker: Any, seconds: float = 300) -> None:
    import time

    deadline = time.monotonic() + seconds
    while not check():
        assert worker.poll() is None, "the worker died"
        assert time.monotonic() < deadline, "the worker did not get there in time"
        time.sleep(0.2)


def members_play(games: list[Game], rng: random.Random, worker: Any) -> None:
    """The members move (random legal moves, from this process) while the worker plays the bots'
    turns and scores each game at its end."""
    import time

    engine = engines.get("akropolis")
    deadline = time.monotonic() + 300
    while not all(Result.objects.filter(game=g).exists() for g in games):
        assert worker.poll() is None, "the worker died"
        assert time.monotonic() < deadline, "the games did not end in time"
        for game in games:
            game.refresh_from_db()
            if game.status != Game.Status.RUNNING:
                continue
            seat = engine.to_move(engine.load(game.state))[0]
            if game.seats.get(position=seat).is_bot:
                continue
            move = rng.choice(engine.legal_moves(engine.load(game.state), seat))
            with contextlib.suppress(services.GameError):  # a bot's move came first: look again
                services.play_move(
                    game_id=game.pk, seat=seat, move=move, expected_version=game.version
                )
        time.sleep(0.05)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_tournament_is_played_with_real_workers_live_then_async_past_its_deadline(
    celery_worker_process: Any,
) -> None:
    """A live round started by the beat's task in a real worker, played by members and a bot;
    then an async round in which nobody moves, one member away on vacation, decided at its
    deadline: the worker's bots play every seat to the end and the tournament finishes."""
    from games.models import TournamentRound, Vacation

    worker = celery_worker_process
    olga = organiser()
    ann, ben, cid = (make_user(name) for name in ("ann", "ben", "cid"))
    now = timezone.now()

    live = create(olga, table_size=2, rounds=1, first_round_at=now + timedelta(hours=1), now=now)
    for member in (ann, ben, cid):
        tournaments.register(tournament_id=live.pk, user=member)
    # The round's time has come: set it in the past rather than wait.
    TournamentRound.objects.filter(tournament=live).update(starts_at=now - timedelta(minutes=1))
    beat_in_worker()
    wait_until(lambda: TournamentTable.objects.filter(round__tournament=live).count() == 2, worker)
    tables = list(TournamentTable.objects.filter(round__tournament=live).order_by("number"))
    # Three members at two-player tables: one table of two members, one completed by a bot.
    assert sorted(len([e for e in t.entries if e]) for t in tables) == [1, 2]
    members_play([t.game for t in tables], random.Random(7), worker)
    beat_in_worker()
    wait_until(
        lambda: Tournament.objects.get(pk=live.pk).status == Tournament.Status.FINISHED, worker
    )
    assert [row.played for row in tournaments.standings(live)] == [1, 1, 1]

    later = timezone.now()
    cup = create(
        olga,
        name="Slow cup",
        table_size=3,
        rounds=1,
        round_days=3,
        days_per_move=1,
        first_round_at=later + timedelta(hours=1),
        now=later,
    )
    for member in (ann, ben, cid):
        tournaments.register(tournament_id=cup.pk, user=member)
    TournamentRound.objects.filter(tournament=cup).update(starts_at=later - timedelta(minutes=1))
    beat_in_worker()
    wait_until(lambda: TournamentTable.objects.filter(round__tournament=cup).exists(), worker)
    round_ = TournamentRound.objects.get(tournament=cup)
    game = round_.tables.get().game
    assert game.days_per_move == 1
    # Two days pass with nobody moving; Ann has been on vacation all along, so her clock stood
    # still while another member's clock ran out.
    began = timezone.now() - timedelta(days=2)
    Vacation.objects.create(user=ann, starts_at=began, ends_at=began + timedelta(days=10))
    game.seats.exclude(clock_started_at=None).update(clock_started_at=began)
    first = game.seats.get(clock_started_at=began)
    assert first.user == ann  # round 1 seats the members in order of entry; Ann moves first
    assert services.take_over_timed_out_seats() == 0
    first.refresh_from_db()
    assert not first.bot_took_over
    # The round's deadline has passed: the beat hands every member's seat to a bot, and the
    # worker plays the game to the end and scores it.
    TournamentRound.objects.filter(pk=round_.pk).update(
        deadline=timezone.now() - timedelta(minutes=1)
    )
    beat_in_worker()
    wait_until(lambda: Result.objects.filter(game=game).count() == 3, worker)
    seats = list(game.seats.all())
    assert all(s.bot_took_over and s.bot_level == "easy" for s in seats)
    assert ann.notifications.filter(kind="tourn_deadline", link=game.get_absolute_url()).exists()
    beat_in_worker()
    wait_until(
        lambda: Tournament.objects.get(pk=cup.pk).status == Tournament.Status.FINISHED, worker
    )
    assert sorted(row.played for row in tournaments.standings(cup)) == [1, 1, 1]
    game.refresh_from_db()
    assert services.audit_game(game=game) == []


@pytest.mark.usefixtures("eager_mail")
def test_a_reminder_is_emailed_in_the_members_language_to_who_asked_for_it(
    django_capture_on_commit_callbacks: Any,
) -> None:
    from django.core import mail

    t = create(organiser())
    vera = make_user("vera", language="pl", time_zone="Europe/Warsaw", email_game_nights=True)
    ben = make_user("ben")
    for member in (vera, ben):
        tournaments.register(tournament_id=t.pk, user=member)
    beat_at(FIRST - timedelta(minutes=30), django_capture_on_commit_callbacks)
    assert Notification.objects.filter(kind="tourn_reminder").count() == 2
    [message] = mail.outbox  # ben did not ask for e-mail about scheduled games
    assert message.to == ["vera@example.com"]
    # 18:00 UTC on 1 May is 20:00 in Warsaw (CEST).
    assert "Runda 1 turnieju Spring cup zaczyna się" in message.body
    assert "20:00 CEST" in message.body
