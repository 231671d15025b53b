"""The one move path and the lobby services (DESIGN.md principles 2 and 3)."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from accounts.models import Notification
from games import engines, selectors, services
from games.engines.base import IllegalMove
from games.error_texts import describe
from games.models import Game, Move, Seat
from tests.conftest import make_user
from tests.games.conftest import first_legal_move, play_random_moves, state_of

ENGINE = engines.get("akropolis")


class SentTasks:
    """Records the Celery tasks the services send, instead of a broker."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.sent: list[tuple[str, tuple, float]] = []
        monkeypatch.setattr(services.common, "send_task", self.record)

    def record(self, task: Any, args: tuple, countdown: float = 0) -> None:
        self.sent.append((task.name, args, countdown))


@pytest.fixture
def sent_tasks(monkeypatch: pytest.MonkeyPatch) -> SentTasks:
    return SentTasks(monkeypatch)


# --- lobby ------------------------------------------------------------------------------------


def test_game_of_members_starts_when_the_last_seat_is_taken(alice, bob) -> None:
    game = services.create_game(
        engine_slug="akropolis",
        players=2,
        options={},
        created_by=alice,
        seats=[{"kind": "me"}, {"kind": "open"}],
    )
    assert game.status == Game.Status.OPEN
    seat = services.join_seat(game_id=game.pk, user=bob)
    game.refresh_from_db()
    assert seat.position == 1
    assert game.status == Game.Status.RUNNING
    assert game.version == 0
    assert game.state == ENGINE.dump(ENGINE.new_game(2, game.seed, {}))


def test_joining_with_an_invitation_takes_that_seat(alice, bob, carol) -> None:
    game = services.create_game(
        engine_slug="akropolis",
        players=3,
        options={},
        created_by=alice,
        seats=[{"kind": "me"}, {"kind": "open"}, {"kind": "open"}],
    )
    invited = game.seats.get(position=2)
    seat = services.join_seat(game_id=game.pk, user=carol, token=invited.invite_token)
    assert seat.position == 2
    with pytest.raises(services.GameError) as exc:
        services.join_seat(game_id=game.pk, user=bob, token="not-a-token")
    assert exc.value.code == "bad_invite"


def test_an_invited_seat_is_taken_only_with_its_link(alice, bob, carol) -> None:
    game = services.create_game(
        engine_slug="akropolis",
        players=2,
        options={},
        created_by=alice,
        seats=[{"kind": "me"}, {"kind": "invite"}],
    )
    invited = game.seats.get(position=1)
    assert invited.is_open and invited.invited
    with pytest.raises(services.GameError) as first_open:
        services.join_seat(game_id=game.pk, user=carol)
    with pytest.raises(services.GameError) as by_position:
        services.join_seat(game_id=game.pk, user=carol, position=1)
    assert first_open.value.code == by_position.value.code == "invited_only"
    invited.refresh_from_db()
    assert invited.user is None
    seat = services.join_seat(game_id=game.pk, user=bob, token=invited.invite_token)
    assert seat.position == 1 and seat.user == bob


def test_a_seat_open_to_the_club_is_taken_without_a_link(alice, bob) -> None:
    game = services.create_game(
        engine_slug="akropolis",
        players=3,
        options={},
        created_by=alice,
        seats=[{"kind": "me"}, {"kind": "invite"}, {"kind": "open"}],
    )
    seat = services.join_seat(game_id=game.pk, user=bob)
    assert seat.position == 2  # the club's seat, not the invited one before it


def test_a_game_waiting_only_for_invited_players_is_not_listed(alice, bob, carol) -> None:
    invited_only = services.create_game(
        engine_slug="akropolis",
        players=2,
        options={},
        created_by=alice,
        seats=[{"kind": "me"}, {"kind": "invite"}],
    )
    for_the_club = services.create_game(
        engine_slug="akropolis",
        players=3,
        options={},
        created_by=alice,
        seats=[{"kind": "me"}, {"kind": "invite"}, {"kind": "open"}],
    )
    listed = [g.pk for g in selectors.open_games(user=carol)]
    assert listed == [for_the_club.pk]
    assert invited_only.pk not in listed


def test_a_member_cannot_sit_twice_or_join_a_started_game(alice, bob, carol) -> None:
    game = services.create_game(
        engine_slug="akropolis",
        players=2,
        options={},
        created_by=alice,
        seats=[{"kind": "me"}, {"kind": "open"}],
    )
    with pytest.raises(services.GameError) as twice:
        services.join_seat(game_id=game.pk, user=alice)
    services.join_seat(game_id=game.pk, user=bob)
    with pytest.raises(services.GameError) as late:
        services.join_seat(game_id=game.pk, user=carol)
    assert (twice.value.code, late.value.code) == ("already_seated", "not_open")
    assert describe(late.value) == "This game is no longer waiting for players."


def test_leaving_before_the_start_opens_the_seat_with_a_new_invitation(alice, bob) -> None:
    game = services.create_game(
        engine_slug="akropolis",
        players=3,
        options={},
        created_by=alice,
        seats=[{"kind": "me"}, {"kind": "open"}, {"kind": "open"}],
    )
    seat = services.join_seat(game_id=game.pk, user=bob)
    old_token = seat.invite_token
    services.leave_seat(game_id=game.pk, user=bob)
    seat.refresh_from_db()
    assert seat.is_open
    assert seat.invite_token != old_token


def test_bad_options_and_player_counts_are_refused(alice) -> None:
    with pytest.raises(services.GameError) as options:
        services.create_game(
            engine_slug="akropolis",
            players=2,
            options={"variants": ["no-such-variant"]},
            created_by=alice,
            seats=[{"kind": "me"}, {"kind": "bot", "bot_level": "easy"}],
        )
    with pytest.raises(services.GameError) as players:
        services.create_game(
            engine_slug="akropolis",
            players=5,
            options={},
            created_by=alice,
            seats=[{"kind": "me"}] + [{"kind": "bot", "bot_level": "easy"}] * 4,
        )
    assert (options.value.code, players.value.code) == ("bad_options", "bad_players")
    assert Game.objects.count() == 0


def test_open_seat_is_filled_by_its_bot_after_the_deadline(alice, sent_tasks) -> None:
    game = services.create_game(
        engine_slug="akropolis",
        players=2,
        options={},
        created_by=alice,
        seats=[
            {"kind": "me"},
            {"kind": "open", "fill_bot_level": "hard", "fill_after_minutes": 10},
        ],
    )
    assert services.fill_open_seats_with_bots() == 0
    later = timezone.now() + timedelta(minutes=11)
    assert services.fill_open_seats_with_bots(now=later) == 1
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    assert game.seats.get(position=1).bot_level == "hard"


# --- the move path ----------------------------------------------------------------------------


def test_a_move_is_logged_stored_and_announced_after_commit(
    make_game, alice, bob, django_capture_on_commit_callbacks, monkeypatch
) -> None:
    announced: list[tuple[int, int]] = []
    monkeypatch.setattr(
        services.common.broadcast, "notify_game_changed", lambda gid, v: announced.append((gid, v))
    )
    game = make_game(alice, bob)
    seat, move = first_legal_move(game)
    with django_capture_on_commit_callbacks(execute=True):
        services.play_move(game_id=game.pk, seat=seat, move=move, expected_version=0)
    game.refresh_from_db()
    assert game.version == 1
    assert list(game.moves.values_list("number", "seat", "payload")) == [(0, seat, move)]
    expected = ENGINE.apply_move(ENGINE.new_game(2, game.seed, {}), seat, move)
    assert game.state == ENGINE.dump(expected)
    assert announced == [(game.pk, 1)]


def _rejected_cases(game: Game) -> dict[str, dict[str, Any]]:
    seat, move = first_legal_move(game)
    return {
        "wrong seat": {"seat": 1 - seat, "move": move, "expected_version": 0},
        "stale number": {"seat": seat, "move": move, "expected_version": 5},
        "illegal move": {
            "seat": seat,
            "move": {"type": "take_tile", "index": 3},
            "expected_version": 0,
        },
        "malformed payload": {"seat": seat, "move": ["take_tile", 0], "expected_version": 0},
        "payload without a type": {"seat": seat, "move": {"index": 0}, "expected_version": 0},
        "no such seat": {"seat": 7, "move": move, "expected_version": 0},
    }


@pytest.mark.parametrize(
    ("case", "code"),
    [
        ("wrong seat", "not_your_turn"),
        ("stale number", "stale"),
        ("illegal move", "not_enough_stones"),
        ("malformed payload", "bad_move"),
        ("payload without a type", "bad_move"),
        ("no such seat", "not_seated"),
    ],
)
def test_a_rejected_move_changes_nothing(
    make_game, alice, bob, django_capture_on_commit_callbacks, case, code
) -> None:
    game = make_game(alice, bob)
    before = dict(game.state)
    with (
        django_capture_on_commit_callbacks() as callbacks,
        pytest.raises((services.GameError, IllegalMove)) as exc,
    ):
        services.play_move(game_id=game.pk, **_rejected_cases(game)[case])
    assert exc.value.code == code
    assert describe(exc.value)  # a sentence for the member, never an empty box
    game.refresh_from_db()
    assert game.version == 0
    assert game.state == before
    assert Move.objects.filter(game=game).count() == 0
    assert callbacks == []  # no broadcast, no bot turn


def test_a_double_click_plays_once_and_then_says_the_game_moved_on(make_game, alice, bob) -> None:
    game = make_game(alice, bob)
    seat, move = first_legal_move(game)
    services.play_move(game_id=game.pk, seat=seat, move=move, expected_version=0)
    with pytest.raises(services.GameError) as exc:
        services.play_move(game_id=game.pk, seat=seat, move=move, expected_version=0)
    assert exc.value.code == "stale"
    assert "moved on" in describe(exc.value)
    assert game.moves.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_submissions_of_one_move_number_apply_exactly_one() -> None:
    """Two tabs post at the same moment from real threads with their own connections.

    On PostgreSQL the row lock serialises them; on SQLite, BEGIN IMMEDIATE does.
    """
    alice, bob = make_user("alice"), make_user("bob")
    from tests.games.conftest import build_game

    game = build_game(alice, bob)
    seat = ENGINE.to_move(state_of(game))[0]
    moves = ENGINE.legal_moves(state_of(game), seat)[:2]  # two different moves, same number
    start = threading.Barrier(2)
    outcomes: list[str] = []

    def submit(move: dict) -> None:
        start.wait()
        try:
            services.play_move(game_id=game.pk, seat=seat, move=move, expected_version=0)
            outcomes.append("played")
        except services.GameError as exc:
            outcomes.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(move,)) for move in moves]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    game.refresh_from_db()
    assert sorted(outcomes) == ["played", "stale"]
    assert game.version == 1
    assert game.moves.count() == 1
    assert services.audit_game(game=game) == []


def test_a_member_cannot_move_for_a_bot_seat(make_game, alice) -> None:
    game = make_game("normal", alice)
    seat, move = first_legal_move(game)
    assert seat == 0
    with pytest.raises(services.GameError) as exc:
        services.play_move(game_id=game.pk, seat=0, move=move, expected_version=0)
    assert exc.value.code == "bot_seat"


def test_a_move_before_a_bot_turn_schedules_it_with_the_delay(
    make_game, alice, sent_tasks, django_capture_on_commit_callbacks, settings
) -> None:
    settings.BOT_MOVE_DELAY = 1.5
    game = make_game(alice, "easy")
    with django_capture_on_commit_callbacks(execute=True):
        play_random_moves(game, count=2)  # alice takes and places: the bot's turn
    assert ("games.tasks.play_bot_turn", (game.pk, 1, 2), 1.5) in sent_tasks.sent


def test_the_last_move_finishes_the_game_and_sends_the_end_of_game_task(
    make_game, alice, bob, sent_tasks, django_capture_on_commit_callbacks
) -> None:
    game = make_game(alice, bob)
    play_random_moves(game, count=71)
    with django_capture_on_commit_callbacks(execute=True):
        play_random_moves(game)
    assert game.status == Game.Status.FINISHED
    assert game.finished_at is not None
    assert sent_tasks.sent == [("games.tasks.finish_game", (game.pk,), 0)]
    with pytest.raises(services.GameError) as exc:
        services.play_move(
            game_id=game.pk,
            seat=0,
            move={"type": "take_tile", "index": 0},
            expected_version=game.version,
        )
    assert exc.value.code == "not_running"


# --- bots -------------------------------------------------------------------------------------


def test_a_bot_turn_plays_exactly_one_legal_move(make_game, alice) -> None:
    game = make_game("normal", alice)
    legal = ENGINE.legal_moves(state_of(game), 0)
    assert services.play_bot_turn(game_id=game.pk, seat=0, expected_version=0)
    game.refresh_from_db()
    assert game.version == 1
    move = game.moves.get()
    assert move.by_bot
    assert move.payload in legal


def test_a_bot_task_with_a_stale_version_does_nothing(make_game, alice) -> None:
    game = make_game("normal", alice)
    services.play_bot_turn(game_id=game.pk, seat=0, expected_version=0)
    game.refresh_from_db()
    state = game.state
    assert not services.play_bot_turn(game_id=game.pk, seat=0, expected_version=0)
    assert not services.play_bot_turn(game_id=game.pk, seat=0, expected_version=7)
    game.refresh_from_db()
    assert game.version == 1
    assert game.state == state


def test_a_duplicate_bot_task_never_plays_twice(make_game, monkeypatch) -> None:
    """The copy thinks while the first copy plays; it must then find the game moved on."""
    game = make_game("normal", "normal")
    real_choose = services.bots.choose_move
    played_first = []

    def choose_while_the_twin_plays(*args: Any, **kwargs: Any) -> dict:
        move = real_choose(*args, **kwargs)
        if not played_first:
            played_first.append(True)
            assert services.play_bot_turn(game_id=game.pk, seat=0, expected_version=0)
        return move

    monkeypatch.setattr(services.bots, "choose_move", choose_while_the_twin_plays)
    assert not services.play_bot_turn(game_id=game.pk, seat=0, expected_version=0)
    game.refresh_from_db()
    assert game.version == 1
    assert game.moves.count() == 1


def test_a_bot_is_given_only_its_seats_view(make_game, alice, monkeypatch) -> None:
    game = make_game("easy", alice)
    seen: list[dict] = []
    real_choose = services.bots.choose_move

    def spy(engine: Any, view: dict, seat: int, level: str, **kwargs: Any) -> dict:
        seen.append(view)
        return real_choose(engine, view, seat, level, **kwargs)

    monkeypatch.setattr(services.bots, "choose_move", spy)
    state = state_of(game)
    services.play_bot_turn(game_id=game.pk, seat=0, expected_version=0)
    assert seen == [ENGINE.view(state, 0)]


def test_a_bot_game_replays_identically_from_its_seed(make_game) -> None:
    first = play_random_moves(make_game("easy", "normal", seed=11), count=12)
    second = play_random_moves(make_game("easy", "normal", seed=11), count=12)
    log = list(first.moves.values_list("seat", "payload"))
    assert log == list(second.moves.values_list("seat", "payload"))
    assert first.state == second.state


# --- leaving a running game -------------------------------------------------------------------


def test_resigning_hands_the_seat_to_a_bot_which_moves_if_it_is_that_turn(
    make_game, alice, bob, sent_tasks, django_capture_on_commit_callbacks
) -> None:
    game = make_game(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        services.resign(game_id=game.pk, user=alice)
    seat = game.seats.get(user=alice)
    assert seat.resigned and seat.is_bot
    assert [(name, args) for name, args, _ in sent_tasks.sent] == [
        ("games.tasks.play_bot_turn", (game.pk, 0, 0))
    ]
    with pytest.raises(services.GameError) as again:
        services.resign(game_id=game.pk, user=alice)
    assert again.value.code == "already_resigned"


def test_a_member_who_resigned_ranks_last_even_when_the_bot_scored_best() -> None:
    scores = {"totals": [50, 40, 30], "ranking": [0, 1, 2], "winners": [0]}
    assert services.final_ranks(scores, resigned={0}) == {1: 1, 2: 2, 0: 3}
    tied = {"totals": [50, 50, 30], "ranking": [1, 0, 2], "winners": [1, 0]}
    assert services.final_ranks(tied, resigned=set()) == {1: 1, 0: 1, 2: 3}


def test_a_timed_out_seat_is_taken_over_by_a_bot_and_its_member_told(
    make_game, alice, bob, sent_tasks, django_capture_on_commit_callbacks, settings
) -> None:
    settings.TURN_TIMEOUT = 3600
    game = make_game(alice, bob)
    assert services.take_over_timed_out_seats() == 0
    later = timezone.now() + timedelta(hours=2)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.take_over_timed_out_seats(now=later) == 1
    seat = Seat.objects.get(game=game, position=0)
    assert seat.bot_took_over and seat.is_bot and seat.user == alice
    assert not Seat.objects.get(game=game, position=1).is_bot
    note = Notification.objects.get(user=alice)
    assert "bot now plays your seat" in note.message
    assert note.link == game.get_absolute_url()
    assert [args for name, args, _ in sent_tasks.sent if name.endswith("play_bot_turn")] == [
        (game.pk, 0, 0)
    ]


def test_a_member_takes_back_a_seat_a_bot_took_over_and_the_late_bot_task_plays_nothing(
    make_game, alice, bob, sent_tasks, django_capture_on_commit_callbacks, settings
) -> None:
    settings.TURN_TIMEOUT = 3600
    game = make_game(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        services.take_over_timed_out_seats(now=timezone.now() + timedelta(hours=2))
    services.reclaim_seat(game_id=game.pk, user=alice)
    seat = Seat.objects.get(game=game, position=0)
    assert not seat.is_bot and not seat.bot_took_over and seat.user == alice
    game.refresh_from_db()
    # The whole turn's time again: the next beat a minute later takes nothing over.
    minute_later = timezone.now() + timedelta(minutes=1)
    assert services.take_over_timed_out_seats(now=minute_later) == 0
    # The task the take-over sent arrives now: the seat is a member's, so nothing is played.
    assert services.play_bot_turn(game_id=game.pk, seat=0, expected_version=0) is False
    assert not game.moves.exists()
    seat_to_move, move = first_legal_move(game)
    assert seat_to_move == 0
    services.play_move(game_id=game.pk, seat=0, move=move, expected_version=0)
    assert game.moves.get().by_bot is False


def test_only_a_seat_taken_over_for_a_timeout_can_be_taken_back(make_game, alice, bob) -> None:
    game = make_game(alice, bob)
    with pytest.raises(services.GameError) as playing:
        services.reclaim_seat(game_id=game.pk, user=alice)
    assert playing.value.code == "not_taken_over"
    services.resign(game_id=game.pk, user=bob)
    with pytest.raises(services.GameError) as resigned:
        services.reclaim_seat(game_id=game.pk, user=bob)
    assert resigned.value.code == "already_resigned"
    assert Seat.objects.get(game=game, user=bob).is_bot
    with pytest.raises(services.GameError) as stranger:
        services.reclaim_seat(game_id=game.pk, user=make_user("dave"))
    assert stranger.value.code == "not_seated"


def test_a_bot_turn_whose_task_was_lost_is_sent_again(make_game, alice, sent_tasks) -> None:
    game = make_game("easy", alice)  # the bot's first turn: its task never reached a broker
    assert services.reschedule_stuck_bot_turns() == 0
    later = timezone.now() + timedelta(minutes=5)
    assert services.reschedule_stuck_bot_turns(now=later) == 1
    assert sent_tasks.sent == [("games.tasks.play_bot_turn", (game.pk, 0, 0), 0)]


def test_a_starting_worker_sends_again_each_waiting_bot_turn_for_when_it_is_due(
    make_game, alice, bob, sent_tasks, settings
) -> None:
    """A killed worker took with it the turns it was keeping until their delay had passed:
    the next worker sends them again, each to be played when its delay is over."""
    settings.BOT_MOVE_DELAY = 30
    game = make_game("easy", alice)  # the bot moves first, 30 s after the game began
    make_game(alice, bob)  # a member's turn: nothing to send
    began = Game.objects.get(pk=game.pk).turn_started_at
    assert services.resend_bot_turns(now=began + timedelta(seconds=10)) == 1
    assert sent_tasks.sent == [("games.tasks.play_bot_turn", (game.pk, 0, 0), 20.0)]
    sent_tasks.sent.clear()
    # Already overdue: played at once.
    assert services.resend_bot_turns(now=began + timedelta(seconds=45)) == 1
    assert sent_tasks.sent == [("games.tasks.play_bot_turn", (game.pk, 0, 0), 0.0)]


def test_a_finished_game_whose_end_task_was_lost_is_scored(make_game, alice, bob) -> None:
    game = play_random_moves(make_game(alice, bob))
    assert not game.results.exists()
    assert services.finish_unscored_games() == 1
    assert game.results.count() == 2
    assert services.finish_unscored_games() == 0


# --- reading the log --------------------------------------------------------------------------


def test_state_at_move_k_equals_replaying_k_moves(make_game, alice, bob) -> None:
    game = play_random_moves(make_game(alice, bob), count=9)
    moves = list(game.moves.order_by("number"))
    for k in (0, 1, 5, 9):
        state = ENGINE.new_game(2, game.seed, game.options)
        for move in moves[:k]:
            state = ENGINE.apply_move(state, move.seat, move.payload)
        assert services.state_at(game=game, number=k) == state
    assert ENGINE.dump(services.state_at(game=game)) == game.state
    with pytest.raises(services.GameError):
        services.state_at(game=game, number=10)


def test_view_for_a_past_move_is_that_seats_view_then(make_game, alice, bob) -> None:
    game = play_random_moves(make_game(alice, bob), count=4)
    at_two = services.state_at(game=game, number=2)
    assert services.view_for(game=game, seat=1, number=2) == ENGINE.view(at_two, 1)
    assert services.view_for(game=game, seat=None) == ENGINE.view(state_of(game), None)


# --- selectors --------------------------------------------------------------------------------


def test_my_games_list_shows_whose_turn_it_is_with_mine_first(make_game, alice, bob, carol) -> None:
    from games import selectors

    waiting_for_bob = make_game(bob, alice)  # bob moves first
    my_turn = make_game(alice, carol)
    finished = play_random_moves(make_game(alice, "easy"), count=None)
    games = selectors.games_for_user(alice)
    assert [g.pk for g in games] == [my_turn.pk, waiting_for_bob.pk, finished.pk]
    assert games[0].my_turn and not games[1].my_turn
    assert [s.user for s in games[1].to_move_seats] == [bob]
    assert games[2].to_move_seats == []
    assert games[1].my_seat.position == 1


def test_open_games_lists_games_with_a_free_seat_that_i_am_not_in(alice, bob) -> None:
    from games import selectors

    def new(creator: Any, seats: list[dict]) -> Game:
        return services.create_game(
            engine_slug="akropolis",
            players=len(seats),
            options={},
            seats=seats,
            created_by=creator,
        )

    waiting = new(bob, [{"kind": "me"}, {"kind": "open"}])
    mine = new(alice, [{"kind": "me"}, {"kind": "open"}])
    new(bob, [{"kind": "me"}, {"kind": "bot", "bot_level": "easy"}])  # full: already running
    assert [g.pk for g in selectors.open_games(alice)] == [waiting.pk]
    assert {g.pk for g in selectors.open_games()} == {waiting.pk, mine.pk}


def test_replays_of_a_running_game_show_a_player_only_their_own_seat(
    make_game, alice, bob, carol
) -> None:
    from games import selectors

    game = make_game(alice, bob)
    assert selectors.replay_seats(game, alice) == [0]
    assert selectors.replay_seats(game, carol) == [None]
    game = play_random_moves(game)
    assert selectors.replay_seats(game, carol) == [None, 0, 1]


def test_while_seats_choose_at_once_another_seats_move_does_not_make_a_choice_stale(
    make_game, alice, bob
) -> None:
    """Secret offers: every other player offers at the same time. Bob's page was drawn before
    Carol offered; his offer is still his to make. His second click is stale as ever."""
    from tests.conftest import make_user

    carol = make_user("carol")
    game = make_game(alice, bob, carol, engine="tower-of-babel", seed=3)
    engine = engines.get("tower-of-babel")
    state = state_of(game)
    # With this seed the first seat can start a build.
    build = next(m for m in engine.legal_moves(state, 0) if m["type"] == "build")
    services.play_move(game_id=game.pk, seat=0, move=build, expected_version=0)
    state = state_of(game)
    assert sorted(engine.to_move(state)) == [1, 2]  # both others offer now
    carol_offer = engine.legal_moves(state, 2)[0]
    bob_offer = engine.legal_moves(state, 1)[0]
    services.play_move(game_id=game.pk, seat=2, move=carol_offer, expected_version=1)
    services.play_move(game_id=game.pk, seat=1, move=bob_offer, expected_version=1)
    assert game.moves.count() == 3
    with pytest.raises(services.GameError) as again:
        services.play_move(game_id=game.pk, seat=1, move=bob_offer, expected_version=1)
    assert again.value.code == "stale"
