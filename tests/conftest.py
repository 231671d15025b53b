"""Shared fixtures: the cast of members, and real worker and server processes for the tests
that must cross process boundaries (Celery worker, the ASGI server, browsers)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.conf import settings

from accounts.models import User
from infra import serve, workers
from tools.livestack import free_port, wait_for_port

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
PASSWORD = "correct horse battery 42"


def make_user(username: str, **extra: Any) -> User:
    """A member as sign-up leaves one: their e-mail address confirmed (signing in needs it)."""
    extra.setdefault("email", f"{username}@example.com")
    user = User.objects.create_user(username=username, password=PASSWORD, **extra)
    if user.email:
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


@pytest.fixture
def alice(db: None) -> User:
    return make_user("alice", display_name="Alice")


@pytest.fixture
def bob(db: None) -> User:
    return make_user("bob", display_name="Bob")


@pytest.fixture
def carol(db: None) -> User:
    return make_user("carol", display_name="Carol")


@pytest.fixture(autouse=True)
def english_outside_requests() -> Iterator[None]:
    """Each test starts in English: a request handled by the test client leaves its language
    active in this thread, which would otherwise leak into the next test's messages."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.deactivate()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Browser tests last: Playwright's session-wide event loop would break the async tests."""
    items.sort(key=lambda item: item.get_closest_marker("e2e") is not None)


# --- processes ------------------------------------------------------------------------------


def kill_worker(proc: subprocess.Popen[bytes]) -> None:
    """Kill a Celery worker outright (SIGKILL): the play worker's supervisor takes its
    processes with it (infra/workers.py). Returns once each has ended and so let go of its
    broker connection: a process still dying could take a message sent meanwhile with it."""
    from tools.evening import children

    processes = children(proc.pid)
    proc.kill()
    proc.wait()
    deadline = time.monotonic() + 30
    while any(alive(pid) for pid in processes):
        assert time.monotonic() < deadline, "the worker's processes outlived it"
        time.sleep(0.05)


def wait_for(condition: Callable[[], bool], what: str, log: Path, wait: float) -> None:
    """Wait up to `wait` seconds for `condition`; failing, show the end of the processes' `log`."""
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    pytest.fail(f"{what} within {wait:.0f} s; the workers' log:\n{log.read_text()[-4000:]}")


def alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie has ended: only its exit status is left)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="session")
def process_env(django_db_setup: None, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Environment for a worker or server process that shares this session's test database."""
    env = dict(os.environ)
    db = settings.DATABASES["default"]
    if settings.USING_POSTGRES:
        url = settings.DATABASE_URL
        env["DATABASE_URL"] = url.rsplit("/", 1)[0] + "/" + str(db["NAME"])
    else:
        env["SQLITE_PATH"] = str(db["NAME"])
    env["DJANGO_SETTINGS_MODULE"] = "config.settings_test"
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # servers must keep the async safety check
    env["BOT_MOVE_DELAY"] = os.environ.get("BOT_MOVE_DELAY", "0")
    env["PYTHONUNBUFFERED"] = "1"
    return env


def empty_task_queue() -> None:
    """Drop the tasks left on the configured broker: an earlier test's name games that no
    longer exist."""
    from config.celery import app

    if settings.REDIS_URL:
        with app.connection_for_write() as conn:
            for queue in workers.KINDS:
                conn.default_channel.queue_purge(queue)
    else:
        shutil.rmtree(settings.CELERY_FS_DIR / "queue", ignore_errors=True)
        (settings.CELERY_FS_DIR / "queue").mkdir(parents=True, exist_ok=True)


def start_celery_worker(
    env: dict[str, str], log: Path, program: list[str] | None = None, kind: str = workers.PLAY
) -> subprocess.Popen[bytes]:
    """A real Celery worker of `kind` (infra/workers.py: `play` or `heavy`, each on its own
    queue, as production runs them) with `env`, writing to `log`; returned once a ping sent to
    its queue has made the round trip, which proves it is up and consuming (it fails with the
    log's end if not). The play worker is production's supervisor of `PLAY_PROCESSES` solo
    workers; stopping or killing it stops or kills them. `program` runs instead of the
    `celery` command, with the same arguments (for `play`, those of one solo worker, with no
    supervisor)."""
    from config.celery import app

    options = ["--loglevel=INFO", "--without-gossip", "--without-mingle", "--without-heartbeat"]
    if kind == workers.HEAVY:
        # One process: a test that kills the worker kills the search in hand.
        options.insert(0, "--pool=solo")
    if program is None:
        # The launcher production uses: the play worker's supervisor, the heavy worker at its
        # lower CPU priority.
        command = [sys.executable, "-m", "infra.workers", kind, *options]
    else:
        command = [*program, *workers.argv(kind, *options)[1:]]
    with open(log, "ab") as out:
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        app.send_task("accounts.tasks.ping", queue=kind).get(timeout=60)
    except Exception:
        stop(proc)
        raise RuntimeError(
            "the Celery worker did not answer:\n" + log.read_text()[-3000:]
        ) from None
    return proc


@pytest.fixture
def celery_workers(
    process_env: dict[str, str], tmp_path: Path
) -> Iterator[dict[str, subprocess.Popen[bytes]]]:
    """Real Celery worker processes (not eager mode) on the configured broker, in production's
    layout: one for the `play` queue and one for the `heavy` queue (infra/workers.py).

    One pair per test, stopped before the test's database is flushed: a worker left running
    between tests could still be inside a bot's move, holding row locks, when the flush
    truncates the tables, and PostgreSQL would end one of the two with a deadlock.
    """
    empty_task_queue()
    started: dict[str, subprocess.Popen[bytes]] = {}
    try:
        for kind in workers.KINDS:
            started[kind] = start_celery_worker(
                process_env, tmp_path / f"worker-{kind}.log", kind=kind
            )
        yield started
    finally:
        for proc in started.values():
            stop(proc)  # a warm shutdown: the task in hand finishes and commits first


@pytest.fixture
def celery_worker_process(
    celery_workers: dict[str, subprocess.Popen[bytes]],
) -> subprocess.Popen[bytes]:
    """The `play` worker of a real pair (`celery_workers`): the one that takes bot turns."""
    return celery_workers[workers.PLAY]


@pytest.fixture
def asgi_server(process_env: dict[str, str], tmp_path: Path) -> Iterator[str]:
    """The site's ASGI server (infra/serve.py) serving the real app, HTTP and websockets, on a
    free port.

    One per test, like the worker: stopped before the flush, so no request it is still
    answering can hold a transaction open while the tables are truncated.
    """
    proc, address = start_server(process_env, tmp_path / "server.log")
    yield address
    stop(proc)


def start_server(
    env: dict[str, str], log: Path, port: int = 0
) -> tuple[subprocess.Popen[bytes], str]:
    """The site's ASGI server (infra/serve.py) with `env` on `port` (a free one by default),
    once it listens; its output goes to the end of `log`."""
    port = port or free_port()
    with open(log, "ab") as out:
        proc = subprocess.Popen(
            serve.argv("127.0.0.1", port),
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_for_port(port, proc)
    except RuntimeError:
        stop(proc)
        raise RuntimeError("the ASGI server did not start:\n" + log.read_text()[-3000:]) from None
    return proc, f"127.0.0.1:{port}"


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Remove this run's own files (config/settings_test.py gives each run a VAR_DIR of its own)."""
    var_dir = Path(settings.VAR_DIR)
    if var_dir.parent.name == "test-runs" and var_dir.name == str(os.getpid()):
        shutil.rmtree(var_dir, ignore_errors=True)
