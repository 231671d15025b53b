"""The friendly error pages speak the reader's language, like every other page."""

from __future__ import annotations

import pytest
from django.db import OperationalError
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import path
from psycopg_pool import PoolTimeout

from tests.conftest import make_user


def broken_view(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("something broke")


def view_without_a_connection(request: HttpRequest) -> HttpResponse:
    """What a request meets when no pooled connection comes free within DB_POOL_TIMEOUT:
    psycopg_pool's PoolTimeout, which Django's PostgreSQL connection raises again as its own
    OperationalError (django.db.utils.DatabaseErrorWrapper)."""
    try:
        raise PoolTimeout("couldn't get a connection after 20.00 sec")
    except PoolTimeout as exc:
        raise OperationalError(*exc.args) from exc


# This module doubles as the URLconf of the tests below: the site's 500 handler, two broken pages.
urlpatterns = [path("broken/", broken_view), path("busy/", view_without_a_connection)]
handler500 = "infra.views.server_error"


@pytest.mark.django_db
@pytest.mark.urls(__name__)
@pytest.mark.parametrize(
    ("language", "heading"), [("hu", "Valami hiba történt"), ("pl", "Coś poszło nie tak")]
)
def test_server_error_page_is_in_the_members_language(language: str, heading: str) -> None:
    client = Client(raise_request_exception=False)
    client.force_login(make_user("vera", language=language))
    response = client.get("/broken/")
    assert response.status_code == 500
    assert f'<html lang="{language}">' in response.text
    assert heading in response.text


@pytest.mark.django_db
@pytest.mark.urls(__name__)
def test_server_error_page_follows_a_visitors_language_cookie() -> None:
    client = Client(raise_request_exception=False)
    client.cookies["django_language"] = "pl"
    response = client.get("/broken/")
    assert response.status_code == 500
    assert '<html lang="pl">' in response.text


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "heading"),
    [
        ("en", "This form has expired"),
        ("hu", "Ez az űrlap már lejárt"),
        ("pl", "Ten formularz wygasł"),
    ],
)
def test_a_form_sent_without_its_csrf_token_gets_a_page_of_the_site(
    language: str, heading: str
) -> None:
    """A member whose page outlived its session used to meet Django's bare 403 page."""
    client = Client(enforce_csrf_checks=True, headers={"accept-language": language})
    response = client.post("/accounts/login/", {"login": "vera", "password": "x"})
    assert response.status_code == 403
    assert f'<html lang="{language}">' in response.text
    assert heading in response.text
    assert 'href="/"' in response.text  # the way back


@pytest.mark.django_db
@pytest.mark.urls(__name__)
@pytest.mark.parametrize(
    ("language", "heading"),
    [("en", "The site is busy"), ("hu", "Az oldal most túlterhelt"), ("pl", "Strona jest teraz")],
)
def test_a_request_that_gets_no_database_connection_is_told_to_try_again(
    language: str, heading: str
) -> None:
    """Busy, not broken: 503 with Retry-After and a page that says nothing was lost, in the
    member's language; any other failure still gets the 500 page."""
    client = Client(raise_request_exception=False)
    client.force_login(make_user("vera", language=language))
    response = client.get("/busy/")
    assert response.status_code == 503
    assert int(response["Retry-After"]) > 0
    assert f'<html lang="{language}">' in response.text
    assert heading in response.text
    assert 'href="/"' in response.text
    assert client.get("/broken/").status_code == 500
