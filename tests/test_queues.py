"""Issue 31, item 1: heavy work apart from play. Bot turns and everything a game in play waits for
go to the `play` queue, reviews and hints to the `heavy` queue, each consumed by worker processes
of its own (infra/workers.py), on Redis and on the embedded filesystem broker alike."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.conf import settings
from pytest_django.fixtures import Settings

from config.celery import app
from games import engines
from games.models import Game, Review
from games.outbox import outbox
from games.services import reviews
from infra import workers
from tests.conftest import empty_task_queue, make_user, start_celery_worker, stop
from tests.games.conftest import build_game, play_random_moves
from tests.games.test_broker_outage import the_move_that_ends_alices_turn

PLAY_TASKS = [
    "games.tasks.play_bot_turn",
    "games.tasks.finish_game",
    "games.tasks.take_over_timed_out_seats",
    "games.tasks.fill_open_seats_with_bots",
    "games.tasks.reschedule_stuck_bot_turns",
    "games.tasks.resend_overdue_work",
    "games.tasks.run_game_nights",
    "accounts.tasks.send_notification_email",
]
HEAVY_TASKS = ["games.tasks.review_game", "games.tasks.compute_hint"]


def queue_of(name: str) -> str:
    return app.amqp.router.route({}, name)["queue"].name


@pytest.mark.parametrize("name", PLAY_TASKS)
def test_what_a_game_in_play_waits_for_goes_to_the_play_queue(name: str) -> None:
    assert queue_of(name) == "play"


@pytest.mark.parametrize("name", HEAVY_TASKS)
def test_reviews_and_hints_go_to_the_heavy_queue(name: str) -> None:
    assert queue_of(name) == "heavy"


def test_a_task_nobody_routed_never_lands_with_the_bot_turns() -> None:
    # Importing the task modules registers their tasks.
    import accounts.tasks  # noqa: F401
    import games.tasks  # noqa: F401

    ours = [n for n in app.tasks if n.split(".")[0] in ("games", "accounts", "rulebooks")]
    assert set(PLAY_TASKS + HEAVY_TASKS) <= set(ours)
    assert queue_of("games.tasks.some_new_search") == "heavy"


def test_the_heavy_worker_runs_one_search_at_a_time_at_a_lower_priority() -> None:
    command = workers.argv("heavy")
    assert command[command.index("-Q") + 1] == "heavy"
    assert command[command.index("--concurrency") + 1] == "1"
    assert settings.HEAVY_NICE > 0
    play = workers.argv("play", "--beat")
    assert play[play.index("-Q") + 1] == "play" and "--beat" in play


def test_the_play_worker_is_solo_processes_with_beat_in_the_first_only(
    settings: Settings,
) -> None:
    """Each play process is a Celery worker of its own (no prefork pool to hand tasks over to)
    with a name of its own; beat runs once."""
    settings.PLAY_PROCESSES = 3
    commands = workers.play_commands(["--beat", "--loglevel=INFO"])
    assert [c[c.index("-n") + 1] for c in commands] == ["play1@%h", "play2@%h", "play3@%h"]
    assert all(c[c.index("-Q") + 1] == "play" for c in commands)
    assert all(c[c.index("--pool") + 1] == "solo" for c in commands)
    assert ["--beat" in c for c in commands] == [True, False, False]
    assert all("--loglevel=INFO" in c for c in commands)
    assert len(workers.play_commands(["--processes", "1"])) == 1


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_play_worker_never_takes_a_heavy_task(
    process_env: dict[str, str], tmp_path: Path
) -> None:
    """On the configured broker (the embedded filesystem one in the default run): a task on the
    heavy queue waits for a heavy worker, however long a play worker runs beside it."""
    empty_task_queue()
    log = tmp_path / "workers.log"
    play = start_celery_worker(process_env, log, kind="play")
    heavy = None
    try:
        waiting = app.send_task("accounts.tasks.ping", queue="heavy")
        # The play worker answers its own queue meanwhile, several times over.
        for _ in range(5):
            assert app.send_task("accounts.tasks.ping", queue="play").get(timeout=30) == "pong"
            time.sleep(0.5)
        assert not waiting.ready()
        heavy = start_celery_worker(process_env, log, kind="heavy")
        assert waiting.get(timeout=30) == "pong"
    finally:
        for proc in (play, heavy):
            if proc is not None:
                stop(proc)


REVIEWS = 8


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_bot_turn_is_played_on_time_with_eight_reviews_queued(
    process_env: dict[str, str], tmp_path: Path, settings: Settings
) -> None:
    """Issue 31: after 8 review requests a bot's first move took 36.6 s. With the production
    layout (a play worker and a heavy one), the bot plays each step within its delay and 2 s
    more while the reviews wait for the heavy worker."""
    delay = 1.0
    settings.BOT_MOVE_DELAY = delay
    # The site's review depth, so that each review is seconds of search.
    env = {**process_env, "BOT_MOVE_DELAY": str(delay), "REVIEW_ITERATIONS": "8"}
    alice, bob = make_user("alice-reviews"), make_user("bob-reviews")
    finished = [play_random_moves(build_game(alice, bob, seed=seed)) for seed in range(REVIEWS)]
    empty_task_queue()
    started: list[subprocess.Popen[bytes]] = []
    try:
        for kind in workers.KINDS:
            started.append(start_celery_worker(env, tmp_path / f"{kind}.log", kind=kind))
        for game in finished:
            assert game.status == Game.Status.FINISHED
            reviews.request_review(game_id=game.pk)
        assert outbox.wait_until_idle(30)
        # The heavy worker has begun: the reviews hold it now.
        deadline = time.monotonic() + 60
        while not Review.objects.filter(progress__gt=0).exists():
            assert time.monotonic() < deadline, "no review started"
            time.sleep(0.2)

        from games import services

        game = build_game(alice, "easy", seed=5)
        move = the_move_that_ends_alices_turn(game)
        services.play_move(game_id=game.pk, seat=0, move=move, expected_version=game.version)
        game.refresh_from_db()
        handed_over = game.version - 1  # alice's last step; the bot's turn follows
        deadline = time.monotonic() + 60
        engine = engines.get(game.engine_slug)
        while engine.to_move(engine.load(game.state)) != [0]:
            assert time.monotonic() < deadline, "the bot did not play its turn in 60 s"
            time.sleep(0.1)
            game.refresh_from_db()
        # Each step of the bot's turn waits the delay after the one before (an Akropolis turn
        # is two steps): each must come within the delay and 2 s more.
        steps = list(game.moves.filter(number__gte=handed_over).order_by("number"))
        assert len(steps) >= 2 and all(m.by_bot for m in steps[1:])
        times = [m.created_at for m in steps]
        for before, after in zip(times, times[1:], strict=False):
            assert (after - before).total_seconds() <= delay + 2
        # The reviews were still queued or running behind the bot's turn.
        assert Review.objects.exclude(status=Review.Status.DONE).count() >= REVIEWS - 1
    finally:
        for proc in started:
            proc.kill()  # a review in hand would hold a warm shutdown for seconds
            proc.wait()
        assert outbox.wait_until_idle(30)


def test_worker_processes_are_replaced_past_their_memory_limit(settings: Settings) -> None:
    settings.HEAVY_MAX_MEMORY_PER_CHILD = 150_000
    settings.PLAY_MAX_MEMORY_PER_CHILD = 0
    heavy = workers.argv("heavy")
    assert heavy[heavy.index("--max-memory-per-child") + 1] == "150000"
    assert "--retire-above" not in workers.argv("play")  # 0: never replaced
    # A solo play process has no pool process to replace: it ends itself, for a fresh one.
    settings.PLAY_MAX_MEMORY_PER_CHILD = 130_000
    play = workers.argv("play", number=2)
    assert play[play.index("--retire-above") + 1] == "130000"


def test_a_play_process_is_renewed_after_an_idle_spell_only_where_asked(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    from celery.concurrency.solo import TaskPool as SoloPool

    from config.celery import RetireAbove
    from infra import memory

    settings.PLAY_IDLE_SECONDS = 0
    assert "--renew-idle" not in workers.argv("play")
    settings.PLAY_IDLE_SECONDS = 45
    play = workers.argv("play", number=2)
    assert play[play.index("--renew-idle") + 1] == "45"
    assert "--renew-idle" not in workers.argv("heavy")
    monkeypatch.setattr(memory.Renewal, "idle_seconds", 0.0)
    RetireAbove(SimpleNamespace(pool_cls=SoloPool), renew_idle=45.0)
    assert memory.Renewal.idle_seconds == 45.0


def test_a_task_running_or_just_ended_is_no_idle_spell(monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker's tasks tell the idle renewal when they start and end (config/celery.py)."""
    from infra import memory

    watch = memory.IdleRenewal(30)
    monkeypatch.setattr(memory.Renewal, "watch", watch)
    seen: list[int] = []
    monkeypatch.setattr(
        memory, "task_started", lambda: (watch.started(), seen.append(watch.running))
    )
    app.tasks["accounts.tasks.ping"].apply()
    assert seen == [1]
    assert watch.running == 0 and watch.ended is not None
    assert not watch.step()  # it ended a moment ago


def test_each_search_of_the_heavy_worker_starts_in_a_fresh_process(settings: Settings) -> None:
    settings.HEAVY_MAX_TASKS_PER_CHILD = 1
    heavy = workers.argv("heavy")
    assert heavy[heavy.index("--max-tasks-per-child") + 1] == "1"
    # A bot's plan for the rest of its turn lives in the play worker's process.
    assert "--max-tasks-per-child" not in workers.argv("play")


def test_a_play_process_over_its_limit_after_a_task_asks_for_a_warm_shutdown(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from celery.worker import state

    from infra import memory

    monkeypatch.setattr(state, "should_stop", None)
    monkeypatch.setattr(memory.Retirement, "above", 2 * memory.resident_kib())
    app.tasks["accounts.tasks.ping"].apply()
    assert state.should_stop is None  # within its limit: it carries on
    monkeypatch.setattr(memory.Retirement, "above", memory.resident_kib() // 2)
    app.tasks["accounts.tasks.ping"].apply()
    assert state.should_stop == 0  # what SIGTERM asks for: a warm shutdown, exit status 0


def test_only_a_solo_worker_takes_a_memory_limit_it_enforces_by_stopping(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A prefork worker would stop its whole pool for one process's memory: Celery's own
    `--max-memory-per-child` is the one for it."""
    import click
    from celery.concurrency.prefork import TaskPool as PreforkPool
    from celery.concurrency.solo import TaskPool as SoloPool

    from config.celery import RetireAbove
    from infra import memory

    monkeypatch.setattr(memory.Retirement, "above", 0)
    with pytest.raises(click.UsageError):
        RetireAbove(SimpleNamespace(pool_cls=PreforkPool), retire_above=100_000)
    assert memory.Retirement.above == 0
    RetireAbove(SimpleNamespace(pool_cls=SoloPool), retire_above=100_000)
    assert memory.Retirement.above == 100_000


def test_a_worker_hands_memory_back_after_a_task_that_grew_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from infra import memory

    calls: list[None] = []
    resident = [100 * 1024]
    monkeypatch.setattr(memory, "hand_back", lambda: calls.append(None))
    monkeypatch.setattr(memory, "resident_kib", lambda: resident[0])
    monkeypatch.setattr(memory, "_resident_after", None)
    ping = app.tasks["accounts.tasks.ping"]
    ping.apply()  # the process's first task: nothing to compare with yet
    assert len(calls) == 1
    resident[0] += memory.GROWTH_KIB // 2  # an ordinary task's growth: no collection
    ping.apply()
    assert len(calls) == 1
    resident[0] += memory.GROWTH_KIB // 2  # together a search's size since the last one
    ping.apply()
    assert len(calls) == 2
    ping.apply()
    assert len(calls) == 2


def test_a_hand_back_returns_the_pages_a_search_left_behind() -> None:
    """The real thing, on glibc: blocks made and dropped (all but the newest, which holds the
    heap's top) leave their pages with the allocator until the hand-back returns them."""
    from infra import memory

    if not Path("/proc/self/statm").exists() or memory._malloc_trim is None:
        pytest.skip("needs /proc and glibc")
    memory.hand_back_if_grown()
    before = memory.resident_kib()
    blocks = [bytearray(1000) for _ in range(60_000)]  # some 60 MB, each block from malloc
    newest = blocks[-1]
    del blocks
    grown = memory.resident_kib()
    assert grown - before >= memory.GROWTH_KIB
    assert memory.hand_back_if_grown()
    assert memory.resident_kib() < grown - memory.GROWTH_KIB
    assert len(newest) == 1000
