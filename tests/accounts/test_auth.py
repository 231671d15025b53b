from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.conftest import PASSWORD


@pytest.mark.django_db
def test_sign_up_creates_member_with_language_and_signs_them_in_once_confirmed(
    client: Client, mailoutbox: list[Any]
) -> None:
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
    # Signing in waits for the address to be confirmed (config/settings.py: enumeration).
    assert client.get(reverse("accounts:profile")).status_code == 302
    [mail] = mailoutbox
    link = re.search(r"https?://[^/\s]+(/accounts/confirm-email/\S+/)", mail.body)
    assert link is not None
    assert client.post(link.group(1)).status_code == 302
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


def test_repeated_failed_log_ins_lock_the_account_for_a_while(
    client: Client, alice: User, bob: User
) -> None:
    # config/settings.py ACCOUNT_RATE_LIMITS: 5 failures per 5 minutes for one account (the
    # cache starts empty: tests/accounts/conftest.py).
    for _attempt in range(5):
        response = client.post(reverse("account_login"), {"login": "alice", "password": "nope"})
        assert "not correct" in response.text

    response = client.post(reverse("account_login"), {"login": "alice", "password": PASSWORD})

    assert response.status_code == 200
    assert "Too many failed login attempts. Try again later." in response.text
    assert client.get(reverse("accounts:profile")).status_code == 302
    # The lock is on the account under attack: another member can still sign in.
    response = Client().post(reverse("account_login"), {"login": "bob", "password": PASSWORD})
    assert response.status_code == 302


def test_member_changes_password_and_logs_in_with_the_new_one(client: Client, alice: User) -> None:
    client.force_login(alice)
    new_password = "a brand new passphrase 77"
    response = client.post(
        reverse("account_change_password"),
        {"oldpassword": PASSWORD, "password1": new_password, "password2": new_password},
    )
    assert response.status_code == 302

    client.post(reverse("account_logout"))
    old = client.post(reverse("account_login"), {"login": "alice", "password": PASSWORD})
    assert "not correct" in old.text
    new = client.post(reverse("account_login"), {"login": "alice", "password": new_password})
    assert new.status_code == 302
    assert client.get(reverse("accounts:profile")).status_code == 200


def test_password_change_needs_the_current_password(client: Client, alice: User) -> None:
    client.force_login(alice)
    new_password = "a brand new passphrase 77"
    response = client.post(
        reverse("account_change_password"),
        {"oldpassword": "not my password", "password1": new_password, "password2": new_password},
    )
    assert response.status_code == 200
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


def sign_up(client: Client, username: str, email: str) -> Any:
    return client.post(
        reverse("account_signup"),
        {
            "username": username,
            "email": email,
            "password1": PASSWORD,
            "password2": PASSWORD,
            "display_name": "",
            "language": "en",
        },
    )


def test_sign_up_does_not_reveal_that_an_email_is_registered(
    alice: User, mailoutbox: list[Any]
) -> None:
    """Someone trying alice's address sees exactly what a newcomer sees; only the owner of the
    address learns, by e-mail, that it already has an account."""
    newcomer = sign_up(Client(), "dora", "dora@example.com")
    prober = sign_up(Client(), "mallory", "alice@example.com")

    assert prober.status_code == newcomer.status_code == 302
    assert prober["Location"] == newcomer["Location"]
    assert "already" not in prober.text
    assert not User.objects.filter(username="mallory").exists()
    assert [m.to for m in mailoutbox] == [["dora@example.com"], ["alice@example.com"]]


def test_the_log_in_limit_counts_per_account_by_username_and_email_alike(
    client: Client, alice: User
) -> None:
    """Five wrong guesses at alice's account, however it is named, lock it (config/settings.py
    ACCOUNT_RATE_LIMITS: 5 per 5 minutes per account), not five per name."""
    for login in ["alice", "alice@example.com", "ALICE", "Alice@Example.com", "alice"]:
        response = client.post(reverse("account_login"), {"login": login, "password": "nope"})
        assert "not correct" in response.text

    for login in ["alice", "alice@example.com"]:
        response = client.post(reverse("account_login"), {"login": login, "password": PASSWORD})
        assert response.status_code == 200
        assert "Too many failed login attempts. Try again later." in response.text
    assert client.get(reverse("accounts:profile")).status_code == 302


@pytest.mark.django_db
def test_the_welcome_after_log_in_calls_the_member_by_their_display_name(
    client: Client, alice: User
) -> None:
    response = client.post(
        reverse("account_login"), {"login": "alice", "password": PASSWORD}, follow=True
    )
    texts = [str(m) for m in response.context["messages"]]
    assert any("Alice" in text for text in texts), texts
    assert not any("alice" in text for text in texts), texts


@pytest.mark.django_db
@pytest.mark.parametrize("page_language", ["en", "hu", "pl"])
def test_sign_up_and_profile_offer_each_language_by_its_own_name(
    client: Client, alice: User, page_language: str
) -> None:
    # The header's switch says "Magyar" and "Polski" on every page; so do the forms.
    client.cookies["django_language"] = page_language
    signup = client.get(reverse("account_signup")).content.decode()
    client.force_login(alice)
    alice.language = page_language
    alice.save(update_fields=["language"])
    profile = client.get(reverse("accounts:profile-edit")).content.decode()
    for page in (signup, profile):
        found = re.search(r'<select[^>]*id="id_language"[^>]*>(.*?)</select>', page, re.S)
        assert found is not None
        for value, name in (("en", "English"), ("hu", "Magyar"), ("pl", "Polski")):
            assert re.search(rf'<option value="{value}"[^>]*>{name}</option>', found.group(1))
