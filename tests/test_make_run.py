"""`make run` is the club's server too (issue 31, item 7): with the environment the Makefile's
`run` target exports, the site serves production-safe pages over plain HTTP, with a secret key
kept in `var/`. The tests read that environment from the Makefile itself and start the settings,
and the server, in processes of their own, as `make run` does (no `make` is run)."""

from __future__ import annotations

import io
import json
import logging
import re
import socket
import stat
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.mail import EmailMessage

from infra import hosts
from infra.mail import ConsoleEmailBackend
from tests.conftest import free_port, stop, wait_for_port
from tests.test_settings import ROOT, clean_env, run_python

EXPORTED = re.compile(r"run: export (\w+) \?= (.*)")
SHELL = re.compile(r"\$\(shell (.*)\)")


def make_run_env(tmp_path: Path, host: str = "127.0.0.1") -> dict[str, str]:
    """The variables the Makefile exports to `make run`'s commands, evaluated as make would
    in a checkout at `tmp_path` for `make run HOST=host`, over a clean environment."""
    exported = {}
    for line in (ROOT / "Makefile").read_text(encoding="utf-8").splitlines():
        match = EXPORTED.fullmatch(line)
        if match is None:
            continue
        value = match[2].replace("$(CURDIR)", str(tmp_path)).replace("$(HOST)", host)
        value = value.replace("$(or $(BASE_PYTHON),python3)", sys.executable)
        if command := SHELL.fullmatch(value):
            value = subprocess.run(
                command[1], shell=True, cwd=ROOT, capture_output=True, text=True, check=True
            ).stdout.strip()
        exported[match[1]] = value
    return clean_env(tmp_path, **exported)


SETTINGS = """
import json, django
from django.conf import settings
django.setup()
print(json.dumps({
    "debug": settings.DEBUG,
    "secret_key": settings.SECRET_KEY,
    "allowed_hosts": settings.ALLOWED_HOSTS,
    "ssl_redirect": settings.SECURE_SSL_REDIRECT,
    "session_cookie_secure": settings.SESSION_COOKIE_SECURE,
    "csrf_cookie_secure": settings.CSRF_COOKIE_SECURE,
    "language_cookie_secure": settings.LANGUAGE_COOKIE_SECURE,
    "mail_backend": settings.MAILERS["default"]["BACKEND"],
}))
"""


def make_run_settings(env: dict[str, str]) -> dict:
    result = run_python(SETTINGS, env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_make_run_has_debug_off_and_one_secret_key_kept_in_var(tmp_path: Path) -> None:
    env = make_run_env(tmp_path)
    first = make_run_settings(env)
    assert first["debug"] is False
    key_file = tmp_path / "var" / "secret_key"
    assert key_file.read_text().strip() == first["secret_key"]
    assert len(first["secret_key"]) >= 50
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600  # the owner's only
    # The next start (and the worker beside the server) signs with the same key.
    assert make_run_settings(env)["secret_key"] == first["secret_key"]


def test_make_run_debug_is_one_switch_away(tmp_path: Path) -> None:
    env = make_run_env(tmp_path)
    assert make_run_settings({**env, "DEBUG": "1"})["debug"] is True


def test_make_run_serves_plain_http_and_prints_e_mail_on_the_console(tmp_path: Path) -> None:
    loaded = make_run_settings(make_run_env(tmp_path))
    assert loaded["ssl_redirect"] is False
    assert not loaded["session_cookie_secure"] and not loaded["csrf_cookie_secure"]
    assert not loaded["language_cookie_secure"]
    assert loaded["mail_backend"] == "infra.mail.ConsoleEmailBackend"
    # HTTPS=1: served through a proxy that speaks HTTPS, every cookie is Secure.
    behind_https = make_run_settings({**make_run_env(tmp_path), "HTTPS": "1"})
    assert behind_https["ssl_redirect"] is True
    assert behind_https["session_cookie_secure"] and behind_https["language_cookie_secure"]


def test_make_run_answers_to_the_names_of_the_address_it_serves_on(tmp_path: Path) -> None:
    local = make_run_settings(make_run_env(tmp_path))["allowed_hosts"]
    assert {"127.0.0.1", "localhost"} <= set(local)
    everywhere = make_run_settings(make_run_env(tmp_path, host="0.0.0.0"))["allowed_hosts"]
    assert {"127.0.0.1", "localhost", socket.gethostname()} <= set(everywhere)
    # A name the README tells the club to give is kept as given.
    chosen = make_run_settings({**make_run_env(tmp_path), "ALLOWED_HOSTS": "club.example.org"})
    assert chosen["allowed_hosts"] == ["club.example.org"]


BROKEN_VIEW = """
import django
django.setup()
from django.test import Client, override_settings
from django.test.utils import setup_test_environment
setup_test_environment()
with override_settings(ROOT_URLCONF="tests.accounts.test_error_pages"):
    response = Client(raise_request_exception=False).get("/broken/")
print(response.status_code)
print(response.content.decode())
"""


def test_a_view_that_raises_gets_the_friendly_500_page(tmp_path: Path) -> None:
    result = run_python(BROKEN_VIEW, make_run_env(tmp_path))
    assert result.returncode == 0, result.stderr
    status, page = result.stdout.split("\n", 1)
    assert status == "500"
    assert "Something went wrong" in page
    assert "Traceback" not in page and "SECRET_KEY" not in page  # no debug page


@pytest.fixture(scope="module")
def make_run_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The site as `make run` serves it: migrated, then infra.serve on a free port."""
    tmp_path = tmp_path_factory.mktemp("make-run")
    env = make_run_env(tmp_path)
    migrate = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert migrate.returncode == 0, migrate.stderr
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "infra.serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT,
        env=env,
    )
    try:
        wait_for_port(port, proc)
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(proc)


def fetch(url: str, language: str = "en") -> tuple[int, str, list[str]]:
    request = urllib.request.Request(url, headers={"Accept-Language": language})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, body, headers = response.status, response.read(), response.headers
    except urllib.error.HTTPError as error:
        status, body, headers = error.code, error.read(), error.headers
    return status, body.decode(), headers.get_all("Set-Cookie") or []


@pytest.mark.parametrize(
    ("language", "title"),
    [("en", "Page not found"), ("hu", "Az oldal nem található"), ("pl", "Nie znaleziono strony")],
)
def test_an_unknown_address_gets_the_friendly_404(
    make_run_server: str, language: str, title: str
) -> None:
    status, page, _cookies = fetch(f"{make_run_server}/no/such/page/", language)
    assert status == 404
    assert f'<html lang="{language}">' in page
    assert title in page
    # Django's debug page would list every URL pattern of the site.
    assert "URLconf" not in page and "games/history/" not in page


def test_pages_and_static_files_are_served_over_plain_http(make_run_server: str) -> None:
    status, page, cookies = fetch(f"{make_run_server}/accounts/login/")
    assert status == 200
    assert cookies and all("secure" not in cookie.lower() for cookie in cookies)
    stylesheet = re.search(r'href="(/static/[^"]+\.css)"', page)
    assert stylesheet is not None
    assert fetch(make_run_server + stylesheet[1])[0] == 200


def test_e_mail_printed_on_the_console_is_said_once_at_info(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ConsoleEmailBackend, "told", False)
    console = io.StringIO()
    backend = ConsoleEmailBackend(stream=console)
    with caplog.at_level(logging.INFO):
        for subject in ("Your turn", "The game has finished"):
            backend.send_messages([EmailMessage(subject, "body", to=["vera@example.com"])])
    assert "Subject: Your turn" in console.getvalue()
    assert "Subject: The game has finished" in console.getvalue()
    told = [r for r in caplog.records if r.name == "infra.mail"]
    assert [r.levelno for r in told] == [logging.INFO]
    assert "EMAIL_HOST" in told[0].getMessage()


def test_an_address_is_allowed_as_a_browser_names_it_in_the_host_header() -> None:
    assert hosts.allowed_hosts("192.168.1.20")[0] == "192.168.1.20"
    assert hosts.allowed_hosts("fd00::20")[0] == "[fd00::20]"  # IPv6 comes in brackets
    assert "localhost" in hosts.allowed_hosts("192.168.1.20")
