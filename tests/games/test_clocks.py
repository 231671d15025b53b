"""Clocks that respect holidays (issue 35 item 3; games/clocks.py, games/services/clocks.py):
a time control in days per move, vacations that pause a member's clocks in every game, a
warning before a clock runs out, and the take-over when it does."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from accounts.models import Notification
from games import engines, services
from games.error_texts import describe
from games.models import Game, Vacation
from tests.conftest import make_user
from tests.games.conftest import state_of

# The wait began here in every test; times below are counted from it.
T = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
DAY = timedelta(days=1)


def game_of(user, *, days: int | None = 3) -> Game:
    """A running game against a bot that waits for `user` (seat 0, who moves first) since T."""
    game = services.create_game(
        engine_slug="akropolis",
        players=2,
        options={},
        seats=[{"kind": "me"}, {"kind": "bot", "bot_level": "easy"}],
        created_by=user,
        seed=5,
        days_per_move=days,
    )
    Game.objects.filter(pk=game.pk).update(turn_started_at=T)
    game.seats.filter(position=0).update(clock_started_at=T)
    game.refresh_from_db()
    return game


def taken_over(game: Game) -> bool:
    return game.seats.get(position=0).bot_took_over


@pytest.fixture
def no_site_timeout(settings) -> None:
    """The site's own timeout far away, so only the games' time controls count."""
    settings.TURN_TIMEOUT = 365 * 24 * 3600


def test_a_seat_is_taken_over_when_its_days_per_move_have_passed(alice, no_site_timeout) -> None:
    game = game_of(alice, days=3)
    assert services.take_over_timed_out_seats(now=T + 3 * DAY - timedelta(minutes=1)) == 0
    assert not taken_over(game)
    assert services.take_over_timed_out_seats(now=T + 3 * DAY + timedelta(minutes=1)) == 1
    assert taken_over(game)
    # The member may take the seat back, as after any timeout.
    services.reclaim_seat(game_id=game.pk, user=alice)
    assert not taken_over(game)


def test_a_game_without_a_time_control_keeps_the_sites_timeout(alice, settings) -> None:
    settings.TURN_TIMEOUT = 3600
    game = game_of(alice, days=None)
    assert services.take_over_timed_out_seats(now=T + timedelta(minutes=59)) == 0
    assert services.take_over_timed_out_seats(now=T + timedelta(minutes=61)) == 1
    assert taken_over(game)


def test_a_vacation_pauses_the_members_clock_in_every_game(alice, no_site_timeout) -> None:
    first, second = game_of(alice, days=3), game_of(alice, days=2)
    Vacation.objects.create(user=alice, starts_at=T + DAY, ends_at=T + 3 * DAY)
    # Two days away: the 3-day clock runs out at T + 5 days, the 2-day clock at T + 4 days.
    assert services.take_over_timed_out_seats(now=T + 4 * DAY - timedelta(minutes=1)) == 0
    assert services.take_over_timed_out_seats(now=T + 4 * DAY + timedelta(minutes=1)) == 1
    assert taken_over(second) and not taken_over(first)
    assert services.take_over_timed_out_seats(now=T + 5 * DAY + timedelta(minutes=1)) == 1
    assert taken_over(first)


def test_another_members_vacation_does_not_pause_my_clock(alice, bob, no_site_timeout) -> None:
    game = game_of(alice, days=1)
    Vacation.objects.create(user=bob, starts_at=T, ends_at=T + 10 * DAY)
    assert services.take_over_timed_out_seats(now=T + DAY + timedelta(minutes=1)) == 1
    assert taken_over(game)


def test_the_member_is_warned_once_before_the_clock_runs_out(
    alice, settings, no_site_timeout, django_capture_on_commit_callbacks
) -> None:
    settings.CLOCK_WARNING = 12 * 3600
    game = game_of(alice, days=3)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.warn_running_clocks(now=T + 3 * DAY - timedelta(hours=13)) == 0
        assert services.warn_running_clocks(now=T + 3 * DAY - timedelta(hours=11)) == 1
        assert services.warn_running_clocks(now=T + 3 * DAY - timedelta(hours=1)) == 0
    notes = Notification.objects.filter(user=alice, kind=Notification.Kind.CLOCK_WARNING)
    assert notes.count() == 1
    note = notes.get()
    assert note.link == game.get_absolute_url()
    with translation.override("en"):
        assert f"#{game.pk} runs out at" in note.text


def test_a_member_on_vacation_is_not_warned(alice, settings, no_site_timeout) -> None:
    settings.CLOCK_WARNING = 12 * 3600
    game_of(alice, days=3)
    Vacation.objects.create(user=alice, starts_at=T + 2 * DAY, ends_at=T + 4 * DAY)
    assert services.warn_running_clocks(now=T + 3 * DAY - timedelta(hours=11)) == 0


def members_game(slug: str, members: list, *, days: int) -> Game:
    """A game of `members` in seat order with a time control, begun at T, each move of
    `play` below made at the time the test moves to."""
    game = services.create_game(
        engine_slug=slug,
        players=len(members),
        options={},
        seats=[{"kind": "me"}] + [{"kind": "invite"}] * (len(members) - 1),
        created_by=members[0],
        seed=7,
        days_per_move=days,
        random_first=False,
    )
    for member, seat in zip(members[1:], game.seats.filter(invited=True), strict=True):
        services.join_seat(game_id=game.pk, user=member, token=seat.invite_token, tell=False)
    return Game.objects.get(pk=game.pk)


def play(game: Game, seat: int, move_type: str) -> Game:
    """`seat` plays its first legal move of `move_type`."""
    game.refresh_from_db()
    engine = engines.get(game.engine_slug)
    move = next(m for m in engine.legal_moves(state_of(game), seat) if m["type"] == move_type)
    return services.play_move(game_id=game.pk, seat=seat, move=move, expected_version=game.version)


def test_in_a_simultaneous_choice_each_seat_has_its_own_clock(
    alice, bob, carol, no_site_timeout, time_machine
) -> None:
    """Tower of Babel: after Alice builds, Bob and Carol make their secret offers at once.
    Bob's offer a day later must not give Carol a new clock: hers runs from Alice's build."""
    time_machine.move_to(T, tick=False)
    game = members_game("tower-of-babel", [alice, bob, carol], days=2)
    time_machine.move_to(T + timedelta(hours=1), tick=False)
    play(game, 0, "build")
    assert sorted(engines.get("tower-of-babel").to_move(state_of(game))) == [1, 2]
    time_machine.move_to(T + DAY, tick=False)
    play(game, 1, "offer")
    ends = T + timedelta(hours=1) + 2 * DAY
    assert services.take_over_timed_out_seats(now=ends - timedelta(minutes=1)) == 0
    assert services.take_over_timed_out_seats(now=ends + timedelta(minutes=1)) == 1
    seats = {s.position: s for s in game.seats.all()}
    assert seats[2].bot_took_over and not seats[1].bot_took_over


def test_each_seat_choosing_at_once_is_warned_by_its_own_clock(
    alice, bob, carol, settings, no_site_timeout, time_machine, django_capture_on_commit_callbacks
) -> None:
    """Bob and Carol offer at once from T + 1 h on a 2-day clock; Bob offers at T + 1 d. Carol's
    clock still runs out at T + 2 d 1 h, so she is warned 12 hours before, once; Bob is not."""
    settings.CLOCK_WARNING = 12 * 3600
    time_machine.move_to(T, tick=False)
    game = members_game("tower-of-babel", [alice, bob, carol], days=2)
    time_machine.move_to(T + timedelta(hours=1), tick=False)
    play(game, 0, "build")
    time_machine.move_to(T + DAY, tick=False)
    play(game, 1, "offer")
    ends = T + timedelta(hours=1) + 2 * DAY
    with django_capture_on_commit_callbacks(execute=True):
        assert services.warn_running_clocks(now=ends - timedelta(hours=13)) == 0
        assert services.warn_running_clocks(now=ends - timedelta(hours=11)) == 1
        assert services.warn_running_clocks(now=ends - timedelta(hours=10)) == 0
    warned = Notification.objects.filter(kind=Notification.Kind.CLOCK_WARNING)
    assert list(warned.values_list("user__username", flat=True)) == [carol.username]


def test_a_turn_of_several_steps_runs_on_one_clock(
    alice, bob, no_site_timeout, time_machine
) -> None:
    """Babylon: a turn is dig, place, ... end_turn. Alice's clock starts when her turn does and
    her own steps do not wind it back; Bob's clock starts when her turn ends."""
    time_machine.move_to(T - DAY, tick=False)
    game = members_game("babylon", [alice, bob], days=1)
    for seat in (0, 1, 0, 1, 0):  # the set-up: three clay pieces each, in turns
        play(game, seat, "remove_clay")
    time_machine.move_to(T, tick=False)
    play(game, 1, "remove_clay")  # Alice's first turn begins now
    time_machine.move_to(T + timedelta(hours=20), tick=False)
    play(game, 0, "dig")
    assert services.take_over_timed_out_seats(now=T + DAY - timedelta(minutes=1)) == 0
    assert services.take_over_timed_out_seats(now=T + DAY + timedelta(minutes=1)) == 1
    assert taken_over(game)
    bob_seat = game.seats.get(position=1)
    assert bob_seat.clock_started_at is None  # Bob has no move to make


def test_the_next_seat_gets_a_whole_turn_when_the_last_ends_it(
    alice, bob, no_site_timeout, time_machine
) -> None:
    time_machine.move_to(T, tick=False)
    game = members_game("akropolis", [alice, bob], days=1)
    time_machine.move_to(T + timedelta(hours=22), tick=False)
    play(game, 0, "take_tile")
    time_machine.move_to(T + timedelta(hours=23), tick=False)
    play(game, 0, "place_tile")  # the end of Alice's turn: Bob's begins
    assert game.seats.get(position=1).clock_started_at == T + timedelta(hours=23)
    assert game.seats.get(position=0).clock_started_at is None
    assert services.take_over_timed_out_seats(now=T + DAY + timedelta(hours=1)) == 0
    assert services.take_over_timed_out_seats(now=T + 2 * DAY) == 1
    assert game.seats.get(position=1).bot_took_over


def test_the_vacation_allowance_is_counted_over_the_year(alice, settings) -> None:
    settings.VACATION_DAYS = 20
    now = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
    first = services.take_vacation(user=alice, days=15, now=now)
    assert first.ends_at - first.starts_at == 15 * DAY
    with pytest.raises(services.GameError) as refused:
        services.take_vacation(user=alice, days=6, now=now)
    assert refused.value.params["left"] == 5
    with translation.override("hu"):
        assert "5" in describe(refused.value)
    # The next one follows the first, never overlapping it.
    second = services.take_vacation(user=alice, days=5, now=now)
    assert second.starts_at == first.ends_at
    assert services.vacation_days_left(alice, now=now) == 0


@pytest.mark.parametrize("days", [0, -1, None, "3", 1.5])
def test_a_vacation_is_a_whole_number_of_days(alice, days) -> None:
    with pytest.raises(services.GameError):
        services.take_vacation(user=alice, days=days)
    assert not Vacation.objects.exists()


def test_the_board_shows_the_time_left_and_a_paused_clock(alice) -> None:
    game = game_of(alice, days=3)
    now = timezone.now()
    game.seats.filter(position=0).update(clock_started_at=now - DAY - timedelta(minutes=30))
    client = Client()
    client.force_login(alice)
    page = client.get(reverse("games:play", args=[game.pk])).content.decode()
    assert "Time left for Alice: 1 d 23 h." in page
    Vacation.objects.create(user=alice, starts_at=now - timedelta(hours=1), ends_at=now + DAY)
    page = client.get(reverse("games:play", args=[game.pk])).content.decode()
    assert "Alice is on vacation: their clock is paused." in page


def test_the_lobby_creates_a_game_with_days_per_move(alice) -> None:
    client = Client()
    client.force_login(alice)
    answer = client.post(
        reverse("games:create"),
        {
            "engine_slug": "akropolis",
            "players": 2,
            "first_player": "listed",
            "days_per_move": "7",
        }
        | {f"seat_{n}": ("me", "easy")[n] if n < 2 else "open" for n in range(5)},
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    game = Game.objects.get()
    assert game.days_per_move == 7
    assert state_of(game) is not None


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "20 days left this year"),
        ("hu", "20 szabadnap maradt idén"),
        ("pl", "zostało 20 dni urlopu"),
    ],
)
def test_the_vacation_page_takes_days_in_the_members_language(language, words, db) -> None:
    member = make_user("vera", language=language)
    client = Client()
    client.force_login(member)
    assert words in client.get(reverse("games:vacation")).content.decode()
    assert client.post(reverse("games:vacation"), {"days": "3"}).status_code == 302
    vacation = Vacation.objects.get(user=member)
    assert vacation.ends_at - vacation.starts_at == 3 * DAY
    refused = client.post(reverse("games:vacation"), {"days": "40"})
    assert refused.status_code == 400
    assert Vacation.objects.filter(user=member).count() == 1
