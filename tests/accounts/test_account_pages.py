"""The account pages read as one site: "Log in" and "Sign up" everywhere, each field's error
under that field, the "Remember me" box beside its label, a real address for help."""

from __future__ import annotations

import re

import pytest
from django.test import Client, override_settings

pytestmark = pytest.mark.django_db


def field_block(html: str, name: str) -> str:
    """The <div class="field"> that holds the input called `name`."""
    for block in re.findall(
        r'<div class="field[^"]*">.*?</div>\s*(?=<div class="field|$|<)', html, re.S
    ):
        if f'name="{name}"' in block:
            return block
    raise AssertionError(f"no field {name!r}")


@pytest.mark.parametrize(
    "url", ["/accounts/login/", "/accounts/signup/", "/accounts/password/reset/"]
)
def test_account_pages_say_log_in_and_sign_up_like_the_rest_of_the_site(
    client: Client, url: str
) -> None:
    page = client.get(url).text
    main = page[page.index("<main") : page.index("</main>")]
    for wording in ("Sign In", "Sign Up", "sign in", "Signup", "Remember Me"):
        assert wording not in main, f"{url} says {wording!r}"


def test_the_log_in_page_has_the_sites_words(client: Client) -> None:
    page = client.get("/accounts/login/").text
    assert re.search(r"<h1[^>]*>\s*Log in\s*</h1>", page)
    assert re.search(r'<button[^>]*type="submit"[^>]*>\s*Log in\s*</button>', page)
    # The box comes first and its label right after it, on one line.
    remember = field_block(page, "remember")
    assert re.search(
        r'<label for="id_remember"><input type="checkbox"[^>]*> Remember me</label>', remember
    )


def test_each_fields_error_stands_under_that_field(client: Client, alice) -> None:
    page = client.post(
        "/accounts/signup/",
        {"username": "newbie", "email": "not-an-address", "password1": "x", "password2": "y"},
    ).text
    email = field_block(page, "email")
    assert 'class="field has-error"' in email
    error = re.search(r'<p class="field-error"[^>]*>(.*?)</p>', email)
    assert error is not None
    assert "email" in error.group(1).lower().replace("e-mail", "email")
    # The username had no error, so its block shows none.
    assert "field-error" not in field_block(page, "username")


@override_settings(CLUB_CONTACT_EMAIL="board@club.example")
def test_the_reset_page_gives_a_real_address_to_write_to(client: Client) -> None:
    page = client.get("/accounts/password/reset/").text
    assert '<a href="mailto:board@club.example">board@club.example</a>' in page
    assert "contact us" not in page
