"""Both configurations load from the environment alone; the embedded one needs no server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import json, django
from django.conf import settings
django.setup()
print(json.dumps({
    "db": settings.DATABASES["default"]["ENGINE"],
    "db_name": str(settings.DATABASES["default"]["NAME"]),
    "layer": settings.CHANNEL_LAYERS["default"]["BACKEND"],
    "broker": settings.CELERY_BROKER_URL,
    "cache": settings.CACHES["default"]["BACKEND"],
}))
"""


def run_python(code: str, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def clean_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k
        not in {
            "DATABASE_URL",
            "REDIS_URL",
            "DEBUG",
            "SECRET_KEY",
            "ALLOWED_HOSTS",
            "SQLITE_PATH",
            "PYTEST_VERSION",
        }
    }
    env.update({"DJANGO_SETTINGS_MODULE": "config.settings", "VAR_DIR": str(tmp_path / "var")})
    env.update(extra)
    return env


def test_embedded_defaults_use_sqlite_filesystem_broker_and_relay_layer(tmp_path: Path) -> None:
    result = run_python(PROBE, clean_env(tmp_path))
    assert result.returncode == 0, result.stderr
    loaded = json.loads(result.stdout)
    assert loaded["db"] == "django.db.backends.sqlite3"
    assert loaded["db_name"].startswith(str(tmp_path / "var"))
    assert loaded["layer"] == "infra.channel_layers.EmbeddedChannelLayer"
    assert loaded["broker"] == "clubfs://"  # kombu's filesystem transport (infra/fs_transport.py)


def test_embedded_defaults_migrate_and_query_without_any_server(tmp_path: Path) -> None:
    env = clean_env(tmp_path, DATABASE_URL="", REDIS_URL="")
    migrate = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert migrate.returncode == 0, migrate.stderr
    count = run_python(
        "import django; django.setup(); from accounts.models import User; "
        "print(User.objects.count())",
        env,
    )
    assert count.stdout.strip() == "0", count.stderr
    assert (tmp_path / "var" / "db.sqlite3").exists()


def test_database_and_redis_urls_switch_to_postgres_and_redis(tmp_path: Path) -> None:
    env = clean_env(
        tmp_path,
        DATABASE_URL="postgres://club@db.invalid:5432/club",
        REDIS_URL="redis://cache.invalid:6379/0",
    )
    result = run_python(PROBE, env)  # loading settings contacts neither server
    assert result.returncode == 0, result.stderr
    loaded = json.loads(result.stdout)
    assert loaded["db"] == "django.db.backends.postgresql"
    assert loaded["db_name"] == "club"
    assert loaded["layer"] == "infra.channel_layers.RedisChannelLayer"
    assert loaded["broker"] == "redis://cache.invalid:6379/0"
    assert loaded["cache"] == "infra.cache.RedisCacheWithFallback"


PRODUCTION_SECRET = "x" * 20 + "-a-long-and-random-production-secret-" + "y" * 20


def test_production_requires_a_secret_key(tmp_path: Path) -> None:
    result = run_python(PROBE, clean_env(tmp_path, DEBUG="0", ALLOWED_HOSTS="club.example.org"))
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_production_requires_allowed_hosts(tmp_path: Path) -> None:
    result = run_python(PROBE, clean_env(tmp_path, DEBUG="0", SECRET_KEY=PRODUCTION_SECRET))
    assert result.returncode != 0
    assert "ALLOWED_HOSTS must be set when DEBUG is off" in result.stderr


def test_allowed_hosts_come_from_the_environment(tmp_path: Path) -> None:
    code = "from django.conf import settings; print(settings.ALLOWED_HOSTS)"
    env = clean_env(
        tmp_path, DEBUG="0", SECRET_KEY=PRODUCTION_SECRET, ALLOWED_HOSTS="club.example.org, a.b"
    )
    result = run_python(code, env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "['club.example.org', 'a.b']"


def test_production_settings_pass_the_deploy_check(tmp_path: Path) -> None:
    env = clean_env(
        tmp_path,
        DEBUG="0",
        SECRET_KEY=PRODUCTION_SECRET,
        ALLOWED_HOSTS="club.example.org",
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_bad_boolean_fails_loudly(tmp_path: Path) -> None:
    result = run_python(PROBE, clean_env(tmp_path, DEBUG="maybe"))
    assert result.returncode != 0
    assert "DEBUG must be a boolean" in result.stderr


@pytest.mark.parametrize("raw", ["2.5", "abc"])
def test_an_integer_setting_that_is_not_a_whole_number_stops_start_up(
    tmp_path: Path, raw: str
) -> None:
    """A count is never silently rounded ("2.5" hints a turn were 2) nor a traceback from deep
    inside Django: the last line says which variable and what it was given."""
    result = run_python(PROBE, clean_env(tmp_path, HINTS_PER_TURN=raw))
    assert result.returncode != 0
    last = result.stderr.strip().splitlines()[-1]
    assert f"HINTS_PER_TURN must be a whole number, not {raw!r}" in last


def test_integer_and_seconds_settings_come_from_the_environment(tmp_path: Path) -> None:
    code = "from django.conf import settings as s; print(s.HINTS_PER_TURN, s.BOT_MOVE_DELAY)"
    result = run_python(code, clean_env(tmp_path, HINTS_PER_TURN="4", BOT_MOVE_DELAY="2.5"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["4", "2.5"]


def test_production_sends_every_cookie_over_https_only(tmp_path: Path) -> None:
    """Issue 31, item 6: the language cookie was not Secure under DEBUG=0."""
    code = (
        "from django.conf import settings as s; "
        "print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.LANGUAGE_COOKIE_SECURE)"
    )
    env = clean_env(
        tmp_path, DEBUG="0", SECRET_KEY=PRODUCTION_SECRET, ALLOWED_HOSTS="club.example.org"
    )
    result = run_python(code, env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "True", "True"]


SITE_CHOICES = """
import json
from django.conf import settings
print(json.dumps({
    "db_name": str(settings.DATABASES["default"]["NAME"]),
    "relay": settings.CHANNEL_LAYERS["default"]["CONFIG"]["path"],
    "broker_dir": str(settings.CELERY_FS_DIR),
    "hasher": settings.PASSWORD_HASHERS[0],
    "bot_budgets": settings.BOT_BUDGETS,
    "review_iterations": settings.REVIEW_ITERATIONS,
}))
"""


def test_the_sites_settings_know_nothing_of_tests(tmp_path: Path) -> None:
    """Started by pytest (which sets PYTEST_VERSION in every process it starts), the site's
    settings are still the site's: its own files, Django's password hasher, full searches."""
    result = run_python(SITE_CHOICES, clean_env(tmp_path, PYTEST_VERSION="9.2.0"))
    assert result.returncode == 0, result.stderr
    var = tmp_path / "var"
    assert json.loads(result.stdout) == {
        "db_name": str(var / "db.sqlite3"),
        "relay": str(var / "channels.sqlite3"),
        "broker_dir": str(var / "celery"),
        "hasher": "django.contrib.auth.hashers.PBKDF2PasswordHasher",
        "bot_budgets": {},
        "review_iterations": 8,
    }


def test_the_test_settings_keep_a_runs_files_apart(tmp_path: Path) -> None:
    env = clean_env(tmp_path, DJANGO_SETTINGS_MODULE="config.settings_test")
    result = run_python(SITE_CHOICES, env)
    assert result.returncode == 0, result.stderr
    var = tmp_path / "var"
    assert json.loads(result.stdout) == {
        "db_name": str(var / "test-db.sqlite3"),
        "relay": str(var / "test-channels.sqlite3"),
        "broker_dir": str(var / "test-celery"),
        "hasher": "django.contrib.auth.hashers.MD5PasswordHasher",
        "bot_budgets": {"hard": 0.05},
        "review_iterations": 2,
    }


def test_reading_the_settings_changes_nothing_until_django_starts(tmp_path: Path) -> None:
    """Reading the settings makes no folder and sets no variable; Django starting up makes the
    folders they name (the embedded broker's refuses to start without its own)."""
    code = (
        "import os, pathlib; before = dict(os.environ); "
        "from django.conf import settings; settings.DEBUG; "
        "var = pathlib.Path(os.environ['VAR_DIR']); "
        "print(var.exists(), dict(os.environ) == before); "
        "import django; django.setup(); "
        "print(*(p.is_dir() for p in [var, var / 'celery' / 'queue', var / 'celery' / 'results']))"
    )
    result = run_python(code, clean_env(tmp_path))
    assert result.returncode == 0, result.stderr
    read, started = result.stdout.splitlines()
    assert read == "False True"
    assert started == "True True True"


def test_make_runs_processes_start_on_the_sites_settings(tmp_path: Path) -> None:
    """`make run` names no settings module: manage.py, the ASGI app and the Celery app (the
    server's and the workers') each default to the site's own."""
    env = clean_env(tmp_path)
    del env["DJANGO_SETTINGS_MODULE"]
    which = "from django.conf import settings; print(settings.SETTINGS_MODULE)"
    for program in (
        [sys.executable, "manage.py", "shell", "-c", which],
        [sys.executable, "-c", f"import config.asgi; {which}"],
        [sys.executable, "-c", f"import config.celery; {which}"],
    ):
        result = subprocess.run(
            program, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
        )
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip().splitlines()[-1] == "config.settings", program


def test_the_site_runs_without_daphne_and_twisted(tmp_path: Path) -> None:
    """The site is served by uvicorn (infra/serve.py); daphne is only one of the servers the
    benchmark can start as a program of its own, so the site's processes load neither daphne
    nor the Twisted reactor it installs on import."""
    code = (
        "import sys, django; django.setup(); import config.asgi, config.celery; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in {'daphne', 'twisted'}))"
    )
    result = run_python(code, clean_env(tmp_path))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_the_server_hands_the_interpreter_over_at_its_switch_interval(tmp_path: Path) -> None:
    """A server's threads take turns at SERVER_SWITCH_INTERVAL (0.5 ms unless set), not at
    Python's 5 ms: a socket's or a query's answer waits at most that long for a board's drawing."""
    code = "import sys, config.asgi; print(sys.getswitchinterval())"
    default = run_python(code, clean_env(tmp_path))
    assert default.returncode == 0, default.stderr
    assert float(default.stdout.split()[-1]) == pytest.approx(0.0005)
    chosen = run_python(code, clean_env(tmp_path, SERVER_SWITCH_INTERVAL="0.002"))
    assert chosen.returncode == 0, chosen.stderr
    assert float(chosen.stdout.split()[-1]) == pytest.approx(0.002)
