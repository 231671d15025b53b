"""The settings of a test run (pytest-django's DJANGO_SETTINGS_MODULE, in pyproject.toml): the
site's settings, with files of the run's own and quicker searches and password hashes. The
worker and server processes a test starts are given this module too (tests/conftest.py), and
share the run's database, queues and channel relay."""

from __future__ import annotations

import os
from pathlib import Path

# Each test run gets files of its own (SQLite, queues, cache, channel relay) under a VAR_DIR
# named after its process, handed on to the processes it starts through the environment; two
# runs never share them, nor with `make run`. Set before the site's settings read it.
os.environ.setdefault(
    "VAR_DIR", str(Path(__file__).resolve().parent.parent / "var" / "test-runs" / str(os.getpid()))
)

from config.settings import *  # noqa: E402, F403
from config.settings import (  # noqa: E402
    CHANNEL_LAYERS,
    DATABASE_URL,
    DATABASES,
    REDIS_URL,
    VAR_DIR,
    env_float,
    env_int,
    env_str,
    filesystem_broker_options,
)

if not DATABASE_URL:
    DATABASES["default"]["NAME"] = env_str("SQLITE_PATH", str(VAR_DIR / "test-db.sqlite3"))
    # A file, not :memory:, so the worker and server processes started by tests share it.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test-db.sqlite3")}

if not REDIS_URL:
    CHANNEL_LAYERS["default"]["CONFIG"]["path"] = env_str(
        "CHANNELS_RELAY_PATH", str(VAR_DIR / "test-channels.sqlite3")
    )
    CELERY_FS_DIR = Path(env_str("CELERY_FS_DIR", str(VAR_DIR / "test-celery")))
    CELERY_BROKER_TRANSPORT_OPTIONS = filesystem_broker_options(CELERY_FS_DIR)
    CELERY_RESULT_BACKEND = f"file://{CELERY_FS_DIR / 'results'}"
    CELERY_BEAT_SCHEDULE_FILENAME = str(CELERY_FS_DIR / "beat-schedule")

# Creating the cast of test members would otherwise cost a second each.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# The hard bot searches briefly (TEST_HARD_BUDGET seconds), and a review a few iterations.
BOT_BUDGETS = {"hard": env_float("TEST_HARD_BUDGET", 0.05)}
REVIEW_ITERATIONS = env_int("REVIEW_ITERATIONS", 2)
# One call reviews a whole game, however loaded the machine: the tests of slices set their own.
REVIEW_SLICE_SECONDS = env_float("REVIEW_SLICE_SECONDS", 600)
# No collection on a timer in the test processes (infra/memory.py): their tests of memory call
# it themselves.
SERVER_QUIET_SECONDS = env_int("SERVER_QUIET_SECONDS", 0)
PLAY_IDLE_SECONDS = env_int("PLAY_IDLE_SECONDS", 0)
