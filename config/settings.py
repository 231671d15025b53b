"""Settings for the board-game club site: one module, driven by environment variables.

With no variables at all the site runs on embedded defaults: SQLite under ``var/``, Celery on
kombu's filesystem transport under ``var/celery/`` and a channel layer that relays group
messages between processes through a small SQLite file (see ``infra/channel_layers.py``).
``DATABASE_URL`` switches to PostgreSQL (psycopg 3) and ``REDIS_URL`` to Redis for Celery, the
channel layer and the cache.

Reading this module changes nothing outside it: the folders it names are made when Django
starts (``infra/apps.py``). The tests' own choices are in ``config/settings_test.py``.
"""

from __future__ import annotations

import operator
import os
from pathlib import Path
from typing import Any, Final

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from infra import secret_key

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("VAR_DIR", BASE_DIR / "var"))


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), not {raw!r}.")


def env_float(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return float(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be a number, not {raw!r}.") from exc


def env_int(name: str, default: int) -> int:
    """A count or a whole number of seconds: "2.5" is refused, never rounded."""
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {raw!r}.") from exc


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)

SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY and env_str("SECRET_KEY_FILE"):
    # `make run`'s way (Makefile): a key made once in var/ and read by every later start.
    SECRET_KEY = secret_key.read_or_create(Path(env_str("SECRET_KEY_FILE")))
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set when DEBUG is off (or SECRET_KEY_FILE: a file to keep one in)."
        )
    # Only for local development on embedded defaults.
    SECRET_KEY = "insecure-development-key-only-for-debug-mode-do-not-use-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", [])
if not ALLOWED_HOSTS:
    if not DEBUG:
        # Django would answer every request with 400 Bad Request, which is hard to trace back.
        raise ImproperlyConfigured(
            "ALLOWED_HOSTS must be set when DEBUG is off: the host names the site is served "
            "under, comma-separated (for example ALLOWED_HOSTS=club.example.org)."
        )
    ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]", "testserver"]
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "django_htmx",
    "channels",
    "allauth",
    "allauth.account",
    "infra",
    "accounts",
    "rulebooks",
    "games",
    "tools",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "infra.middleware.RefuseNulCharacters",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.UserLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "infra.middleware.MethodNotAllowedPage",
]

ROOT_URLCONF = "config.urls"
CSRF_FAILURE_VIEW = "infra.views.csrf_failure"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "accounts.context_processors.notifications",
                "infra.context_processors.club",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------

DATABASE_URL = env_str("DATABASE_URL")
# PostgreSQL: each process keeps a pool of at most DB_POOL_SIZE connections (psycopg_pool, through
# Django's OPTIONS["pool"]) and takes one for each request or task, giving it back at the end.
# Under ASGI every request runs in a thread of its own, and persistent connections
# (CONN_MAX_AGE) would keep one connection per thread: 77 for one server after 400 requests.
# Size it so that servers x DB_POOL_SIZE + worker processes + 1 (beat) stays under PostgreSQL's
# max_connections (docs/operations.md, "Several servers and workers"). A request that finds every
# connection in use waits up to DB_POOL_TIMEOUT seconds for one.
DB_POOL_SIZE = env_int("DB_POOL_SIZE", 8)
DB_POOL_TIMEOUT = env_float("DB_POOL_TIMEOUT", 20)
if DB_POOL_SIZE < 1:
    raise ImproperlyConfigured(f"DB_POOL_SIZE must be at least 1, not {DB_POOL_SIZE}.")
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0)}
    if DATABASES["default"]["ENGINE"].endswith("postgresql"):
        from psycopg_pool import ConnectionPool

        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": 1,
            "max_size": DB_POOL_SIZE,
            "timeout": DB_POOL_TIMEOUT,
            # Each connection is checked (one round trip) before a request gets it: after
            # PostgreSQL restarts, the pool's idle connections are dead, and without the check
            # the next request on each got one and failed with a 500.
            "check": ConnectionPool.check_connection,
        }
        # The statements of every move are prepared on each connection on their first use and
        # PostgreSQL only executes them after that (infra/prepared.py). Only the cursors made
        # there prepare: Django's own bind their values on the client and never do. Django's
        # default (None) would turn preparing off for every cursor.
        DATABASES["default"]["OPTIONS"].setdefault("prepare_threshold", 5)
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": env_str("SQLITE_PATH", str(VAR_DIR / "db.sqlite3")),
            "OPTIONS": {
                # WAL lets the server read while the worker writes; IMMEDIATE makes every
                # transaction take the write lock up front, which serialises moves on SQLite
                # the way SELECT ... FOR UPDATE does on PostgreSQL.
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
                "transaction_mode": "IMMEDIATE",
                "timeout": 30,
            },
        }
    }
USING_POSTGRES = DATABASES["default"]["ENGINE"].endswith("postgresql")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]

# --- Redis: cache, channel layer, Celery -----------------------------------------------------

REDIS_URL = env_str("REDIS_URL")


def filesystem_broker_options(folder: Path) -> dict[str, Any]:
    """The embedded broker's folders (made at start-up: infra/apps.py): the messages in
    `queue`, the workers' control messages in `control`; the results go to `results`."""
    return {
        "data_folder_in": str(folder / "queue"),
        "data_folder_out": str(folder / "queue"),
        "control_folder": str(folder / "control"),
        "store_processed": False,
    }


REDIS_READ_TIMEOUT = 15.0  # seconds; see the channel layer below
# The longest a request waits for Redis (the cache); live hints are sent after the response
# (infra/announce.py), Celery tasks from a thread of their own (games/outbox.py).
REDIS_REQUEST_TIMEOUT = 0.2

if REDIS_URL:
    CACHES = {
        "default": {
            # Falls back to each process's memory while Redis is down (infra/cache.py).
            "BACKEND": "infra.cache.RedisCacheWithFallback",
            "LOCATION": REDIS_URL,
            # A cache answer takes a millisecond; a request must not hang on a Redis that is
            # unreachable or paused: past this it uses the process's memory (infra/cache.py).
            "OPTIONS": {
                "socket_connect_timeout": REDIS_REQUEST_TIMEOUT,
                "socket_timeout": REDIS_REQUEST_TIMEOUT,
            },
        }
    }
    CHANNEL_LAYERS: dict[str, dict[str, Any]] = {
        "default": {
            "BACKEND": "infra.channel_layers.RedisChannelLayer",
            "CONFIG": {
                # Each socket waits for its next message with a blocking read that Redis answers
                # after 5 s of silence (RedisChannelLayer.brpop_timeout); redis-py's default
                # socket timeout is also 5 s and would end that read first, closing every idle
                # socket (1011). Reads may last longer than the blocking wait, never shorter.
                # A command that finds its pooled connection closed (Redis restarted since
                # it was last used) is sent once more on a new one; with no retry, the first
                # announcement after Redis returned was lost on every stale connection.
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "socket_timeout": REDIS_READ_TIMEOUT,
                        "retry": Retry(NoBackoff(), 1),
                    }
                ],
                "prefix": env_str("CHANNELS_PREFIX", "club"),
            },
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(VAR_DIR / "cache"),
        }
    }
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "infra.channel_layers.EmbeddedChannelLayer",
            "CONFIG": {"path": env_str("CHANNELS_RELAY_PATH", str(VAR_DIR / "channels.sqlite3"))},
        }
    }
    CELERY_FS_DIR = Path(env_str("CELERY_FS_DIR", str(VAR_DIR / "celery")))
    CELERY_BROKER_URL = "clubfs://"  # kombu's filesystem transport, messages appearing whole
    CELERY_BROKER_TRANSPORT_OPTIONS = filesystem_broker_options(CELERY_FS_DIR)
    CELERY_RESULT_BACKEND = f"file://{CELERY_FS_DIR / 'results'}"
    CELERY_BEAT_SCHEDULE_FILENAME = str(CELERY_FS_DIR / "beat-schedule")

CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_EXPIRES = 3600
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A worker rides out a broker outage of any length: it reconnects with no limit on the attempts,
# and puts back the tasks it held (infra/celery_consumer.py).
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_WORKER_CONSUMER = "infra.celery_consumer:RecoveringConsumer"
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
# Two queues, each consumed by its own worker processes (infra/workers.py): `play` holds what
# a game in play waits for (bot turns, the end of a game, the rescues, game nights, notices),
# `heavy` the searches a member asks for (reviews, hints). A bot's turn never waits behind a
# review. Every task is named here; one left out goes to `heavy`, never in front of a bot.
PLAY_QUEUE = "play"
HEAVY_QUEUE = "heavy"
CELERY_TASK_DEFAULT_QUEUE = HEAVY_QUEUE
CELERY_TASK_ROUTES = {
    **{
        f"games.tasks.{name}": {"queue": PLAY_QUEUE}
        for name in [
            "play_bot_turn",
            "finish_game",
            "take_over_timed_out_seats",
            "fill_open_seats_with_bots",
            "reschedule_stuck_bot_turns",
            "resend_overdue_work",
            "run_game_nights",
            "run_tournaments",
        ]
    },
    **{
        f"accounts.tasks.{name}": {"queue": PLAY_QUEUE}
        for name in ["send_notification", "send_notification_email", "ping"]
    },
    "games.tasks.review_game": {"queue": HEAVY_QUEUE},
    "games.tasks.compute_hint": {"queue": HEAVY_QUEUE},
}
# The play worker's processes (infra/workers.py): each is a Celery worker of its own with the
# solo pool, taking one bot turn at a time; together they take that many at once.
PLAY_PROCESSES = max(1, env_int("PLAY_PROCESSES", 2))
# The heavy worker's processes (each runs one search at a time) and how much it yields the CPU
# to everything else (a `nice` increment): reviews take at most this share of the machine.
HEAVY_CONCURRENCY = max(1, env_int("HEAVY_CONCURRENCY", 1))
HEAVY_NICE = env_int("HEAVY_NICE", 10)
# A play process, or the heavy worker's pool process, is replaced by a fresh one after a task
# that leaves it holding more than this much resident memory (KiB; 0: never): Python keeps
# memory a search has freed for itself, and a worker that plays or reviews for hours would hold
# its largest search's worth (docs/operations.md, "Memory"; docs/benchmarks.md, "Memory after
# a club evening"). A fresh play process or pool process is about 105 MB resident.
PLAY_MAX_MEMORY_PER_CHILD = env_int("PLAY_MAX_MEMORY_PER_CHILD", 120_000)
HEAVY_MAX_MEMORY_PER_CHILD = env_int("HEAVY_MAX_MEMORY_PER_CHILD", 120_000)
# A play process that has run no task for this many seconds, and then still holds 16 MB more
# of its own than when it started (what its searches left in Python's arenas, and the shared
# pages it wrote to, which no hand-back returns), is replaced by a fresh one (0: never). Idle,
# no bot's turn is under way in it (infra/memory.py, `IdleRenewal`): keep it well above
# BOT_MOVE_DELAY, the gap between a bot's steps, and below beat's 30 s, the longest a process
# waits for a task of beat's.
PLAY_IDLE_SECONDS = env_int("PLAY_IDLE_SECONDS", 15)
# The heavy worker's pool process is replaced after this many tasks (0: never). A review or a
# hint runs for seconds to minutes and a replacement is a fork of the worker, so by default
# each search starts in a fresh process and leaves nothing behind. (The play worker keeps its
# processes: a bot's plan for the rest of its turn lives there, games/bots/turn_mcts.py.)
HEAVY_MAX_TASKS_PER_CHILD = env_int("HEAVY_MAX_TASKS_PER_CHILD", 1)
# Entries each of the bots' caches keeps within a search (games/bots/memo.py); all are emptied
# once a search has decided.
BOT_CACHE_ENTRIES = max(1, env_int("BOT_CACHE_ENTRIES", 1024))
CELERY_BEAT_SCHEDULE: dict[str, dict] = {
    name: {"task": f"games.tasks.{name}", "schedule": 60.0}
    for name in [
        "take_over_timed_out_seats",
        "fill_open_seats_with_bots",
        "reschedule_stuck_bot_turns",
    ]
}
# Game nights: reminders 15 minutes before, the start at the time (games/services/nights.py).
CELERY_BEAT_SCHEDULE["run_game_nights"] = {"task": "games.tasks.run_game_nights", "schedule": 30.0}
# Tournaments: each round starts at its time once the round before is over.
CELERY_BEAT_SCHEDULE["run_tournaments"] = {"task": "games.tasks.run_tournaments", "schedule": 30.0}
# Search budget per bot level: seconds, or {"iterations": n}; none: each level's own default.
BOT_BUDGETS: dict[str, object] = {}

# --- Games ------------------------------------------------------------------------------------

BOT_MOVE_DELAY = env_float("BOT_MOVE_DELAY", 1.0)  # seconds between a move and a bot's reply
# Live boards end with an HTML comment giving the time of each hop from the commit to the send
# (games/consumers.py); `manage.py bench_live` and the load test turn it on to print where the
# time goes...
LIVE_TRACE = env_bool("LIVE_TRACE", False)
# The memory the boards a server process keeps drawn for the sockets take (games/live.py), at most.
LIVE_BOARDS_KEPT_BYTES = env_int("LIVE_BOARDS_KEPT_BYTES", 8 * 2**20)
# A server process that used little CPU over this many seconds, and has grown since it last
# did, hands its free memory back to the system (infra/memory.py; 0: never).
SERVER_QUIET_SECONDS = env_int("SERVER_QUIET_SECONDS", 30)
# How long a server's thread may hold the interpreter while another waits for it (Python's
# switch interval, 5 ms by default). A server's threads (the event loop, the live hub drawing
# boards, the requests) mostly wait on sockets and the database, and each wait ended behind a
# board being drawn cost up to the whole interval: in the 200-game load test 0.5 ms took the
# move post's median from 179 to 123 ms at the same CPU (docs/benchmarks.md).
SERVER_SWITCH_INTERVAL = env_float("SERVER_SWITCH_INTERVAL", 0.0005)
# ... and every answer carries a Server-Timing header with its own hops (infra/timing.py).
if LIVE_TRACE:
    MIDDLEWARE.insert(0, "infra.timing.ServerTiming")
TURN_TIMEOUT = env_float("TURN_TIMEOUT", 24 * 3600)  # seconds before a bot takes over a seat
# Clocks (games/services/clocks.py): a member is warned this many seconds before the clock of
# a game with a time control runs out, and may take this many vacation days a calendar year.
CLOCK_WARNING = env_float("CLOCK_WARNING", 12 * 3600)
VACATION_DAYS = env_int("VACATION_DAYS", 20)
# The members of a tournament's live round are reminded this many seconds before it starts
# (games/services/tournaments.py).
TOURNAMENT_REMINDER = env_float("TOURNAMENT_REMINDER", 3600)
# Hints (games/services/hints.py): new hints a member may have in one turn of theirs, and in
# any hour over all games; a position's stored hint is shown again without counting.
HINTS_PER_TURN = env_int("HINTS_PER_TURN", 3)
HINTS_PER_HOUR = env_int("HINTS_PER_HOUR", 20)
# Search iterations per decision of a post-game review (games/services/reviews.py).
REVIEW_ITERATIONS = env_int("REVIEW_ITERATIONS", 8)
# A review runs in slices of about this many seconds (at least one decision each), each sent to
# the back of the heavy queue: a hint asked for meanwhile waits for one slice, not a whole review.
# Each new slice costs milliseconds (the game replayed to its next decision, one task sent), well
# under 1% of 5 s; a hint behind the reviews of k members waits some k slices.
REVIEW_SLICE_SECONDS = env_float("REVIEW_SLICE_SECONDS", 5.0)
# A member is ranked in a season's standings of a game after this many of its rated games
# there (games/seasons.py); with fewer they are listed apart, "not yet ranked".
SEASON_MIN_GAMES = env_int("SEASON_MIN_GAMES", 5)

# --- Limits: what one member may ask for (README, "Limits"); refused work changes nothing -----

NIGHT_DAYS_AHEAD = env_int("NIGHT_DAYS_AHEAD", 365)  # a game night is at most this far off
NIGHTS_PER_HOST = env_int("NIGHTS_PER_HOST", 10)  # upcoming nights one member hosts
NIGHT_INVITATIONS = env_int("NIGHT_INVITATIONS", 20)  # members invited to one night
REVIEWS_PER_DAY = env_int("REVIEWS_PER_DAY", 10)  # reviews one member starts in 24 hours
IMPORTS_PER_DAY = env_int("IMPORTS_PER_DAY", 20)  # games one member imports in 24 hours
SEARCHES_PER_MINUTE = env_int("SEARCHES_PER_MINUTE", 30)  # member searches in one minute
# practice games from a review (games/services/practice.py) one member has running at once
PRACTICE_GAMES_AT_ONCE = env_int("PRACTICE_GAMES_AT_ONCE", 3)

# --- Internationalisation --------------------------------------------------------------------

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("hu", _("Hungarian")), ("pl", _("Polish"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = env_str("TIME_ZONE", "Europe/Budapest")
USE_TZ = True
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600

# --- Static files -----------------------------------------------------------------------------

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [
    BASE_DIR / "static",
    ("vendor/htmx", BASE_DIR / "node_modules" / "htmx.org" / "dist"),
    ("vendor/htmx-ext-ws", BASE_DIR / "node_modules" / "htmx-ext-ws"),
]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
# Serve straight from the finders so a fresh checkout needs no collectstatic step.
WHITENOISE_USE_FINDERS = True

# --- Accounts (django-allauth) ----------------------------------------------------------------

LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"
ACCOUNT_LOGOUT_REDIRECT_URL = "home"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
# Sign-up must not tell anyone which addresses are registered (allauth's enumeration
# prevention): that needs mandatory verification, so that a sign-up with a taken address ends on
# the same "check your e-mail" page as any other, and only the address's owner hears about it.
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_PREVENT_ENUMERATION = True
# The link, opened in the browser that signed up, finishes the sign-up by signing the member in.
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_SIGNUP_FORM_CLASS = "accounts.forms.SignupExtraForm"
# ... and takes as long for a registered address as for a new one (accounts/signup.py).
ACCOUNT_FORMS = {"signup": "accounts.signup.SignupForm", "login": "accounts.forms.LoginForm"}
# A sign-up post is answered no sooner than this (accounts/signup.py), so that its time does not
# tell a registered address from a new one.
SIGNUP_MIN_SECONDS = env_float("SIGNUP_MIN_SECONDS", 1.0)
# E-mails in the member's language, naming the club; logging in keeps the language just chosen.
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
# allauth's messages ("Successfully signed in as ...") call members by their display name.
ACCOUNT_USER_DISPLAY = operator.attrgetter("name")
# The club's name in e-mails; empty: "Board-game club" in the reader's language.
CLUB_NAME = env_str("CLUB_NAME")
ACCOUNT_RATE_LIMITS = {"login_failed": "10/m/ip,5/5m/key"}
ACCOUNT_PRESERVE_USERNAME_CASING = False
# E-mails go over SMTP once EMAIL_HOST names a server; until then they are printed on the
# console (the worker's and the server's), which is how `make run` starts.
EMAIL_BACKEND_DEFAULT = (
    "django.core.mail.backends.smtp.EmailBackend"
    if env_str("EMAIL_HOST")
    else "infra.mail.ConsoleEmailBackend"
)
MAILERS: dict[str, dict] = {
    "default": {"BACKEND": env_str("EMAIL_BACKEND", EMAIL_BACKEND_DEFAULT), "OPTIONS": {}}
}
if env_str("EMAIL_HOST"):
    MAILERS["default"]["OPTIONS"] = {
        "host": env_str("EMAIL_HOST"),
        "port": env_int("EMAIL_PORT", 587),
        "username": env_str("EMAIL_HOST_USER"),
        "password": env_str("EMAIL_HOST_PASSWORD"),
        "use_tls": env_bool("EMAIL_USE_TLS", True),
    }
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "club@localhost")
# The site's address as links in e-mails sent by a worker (which has no request) give it.
SITE_URL = env_str("SITE_URL", "http://127.0.0.1:8000")
# The address the pages give for help (the password-reset page): the club's own mailbox.
CLUB_CONTACT_EMAIL = env_str("CLUB_CONTACT_EMAIL", DEFAULT_FROM_EMAIL)

# --- Content-Security-Policy ------------------------------------------------------------------
# Only the site's own files run or style a page: no inline scripts, handlers or styles (a test
# checks the templates), nothing from other hosts. 'self' covers the same-origin websockets.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}

# --- Production hygiene -----------------------------------------------------------------------

# Members reach the site over HTTPS, served by a proxy in front that says so in
# X-Forwarded-Proto: production (DEBUG off) unless HTTPS=0, as `make run` serves plain HTTP.
# Then cookies are Secure, plain HTTP is redirected and browsers are told to keep to HTTPS.
HTTPS = env_bool("HTTPS", not DEBUG)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = False
if HTTPS:
    SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", True)
    CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", True)
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_CONTENT_TYPE_NOSNIFF = True
# The language switcher's cookie is sent like the session's; no script reads it.
LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE: Final = "Lax"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "INFO"}},
}
