from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.conftest import PASSWORD


@pytest.mark.django_db
def test_sign_up_creates_member_with_language_and_signs_them_in(client: Client) -> None:
    response = client.post(
        reverse("account_signup"),
        {
            "username": "dora",
            "email": "dora@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "display_name": "Dóra",
            "language": "hu",
        },
    )
    assert response.status_code == 302
    user = User.objects.get(username="dora")
    assert user.display_name == "Dóra"
    assert user.language == "hu"
    profile = client.get(reverse("accounts:profile"))
    assert profile.status_code == 200
    assert "Dóra" in profile.text


def test_log_in_with_right_password(client: Client, alice: User) -> None:
    response = client.post(reverse("account_login"), {"login": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get(reverse("accounts:profile")).status_code == 200


def test_wrong_password_shows_a_clear_message(client: Client, alice: User) -> None:
    response = client.post(reverse("account_login"), {"login": "alice", "password": "nope"})
    assert response.status_code == 200
    assert "not correct" in response.text
    assert client.get(reverse("accounts:profile")).status_code == 302


def test_log_out_ends_the_session(client: Client, alice: User) -> None:
    client.force_login(alice)
    response = client.post(reverse("account_logout"))
    assert response.status_code == 302
    assert client.get(reverse("accounts:profile")).status_code == 302


@pytest.mark.parametrize(
    "url_name", ["accounts:profile", "accounts:profile-edit", "accounts:notifications"]
)
def test_pages_that_need_an_account_redirect_to_log_in(
    client: Client, db: None, url_name: str
) -> None:
    response = client.get(reverse(url_name))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))


def test_language_switch_is_remembered_for_a_member(client: Client, alice: User) -> None:
    client.force_login(alice)
    client.post(reverse("accounts:set-language"), {"language": "pl", "next": "/"})
    alice.refresh_from_db()
    assert alice.language == "pl"
    # Another device: no language cookie, a browser asking for English.
    other = Client(headers={"accept-language": "en"})
    other.force_login(alice)
    page = other.get(reverse("home"))
    assert page.headers["Content-Language"] == "pl"
    assert '<html lang="pl">' in page.text


def test_language_switch_for_a_visitor_uses_a_cookie(client: Client, db: None) -> None:
    client.post(reverse("accounts:set-language"), {"language": "hu", "next": "/"})
    page = client.get(reverse("home"))
    assert '<html lang="hu">' in page.text


def test_language_switch_ignores_unknown_language_and_foreign_next(
    client: Client, db: None
) -> None:
    response = client.post(
        reverse("accounts:set-language"), {"language": "xx", "next": "https://evil.example/"}
    )
    assert response["Location"] == "/"
    assert '<html lang="en">' in client.get("/").text


def test_profile_shows_name_member_since_and_language(client: Client, bob: User) -> None:
    client.force_login(bob)
    page = client.get(reverse("accounts:profile"))
    assert "Bob" in page.text
    assert "bob" in page.text
    assert page.context["member"].date_joined == bob.date_joined


def test_profile_edit_changes_display_name(client: Client, alice: User) -> None:
    client.force_login(alice)
    client.post(reverse("accounts:profile-edit"), {"display_name": "Alíz", "language": "hu"})
    alice.refresh_from_db()
    assert (alice.display_name, alice.language) == ("Alíz", "hu")
