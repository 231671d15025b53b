"""Fuzzing the members' forms: sign-up, log-in, log-out, password and e-mail forms, the
profile edit page, the language switchers and the notifications, signed in and not.

Every answer is a redirect, a 4xx that says why, or (how these forms answer a mistake) the
form again with status 200 and its error marked; never a 500, and no game changes.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from accounts.models import User
from tests.fuzzing import (
    FIELD,
    FUZZ,
    ONE_MB,
    RAW_BODY,
    TEXT,
    assert_answer,
    form_data,
    one_megabyte_form,
    post_any,
    snapshot,
)
from tests.games.conftest import build_game, play_random_moves

pytestmark = [pytest.mark.django_db, pytest.mark.fuzz]

# url name -> the fields its form takes, and whether it answers a mistake with the form
# again (200) rather than a redirect or a 4xx.
FORMS: dict[str, tuple[list[str], bool]] = {
    "account_login": (["login", "password", "remember"], True),
    "account_signup": (
        ["username", "email", "password1", "password2", "display_name", "language"],
        True,
    ),
    "account_logout": ([], False),
    "account_reset_password": (["email"], True),
    "account_change_password": (["oldpassword", "password1", "password2"], True),
    "account_email": (["email", "action_add", "action_remove", "action_primary"], True),
    "account_reauthenticate": (["password"], True),
    "accounts:profile-edit": (["display_name", "language"], True),
    "accounts:set-language": (["language", "next"], False),
    "accounts:notifications-read": (["upto"], False),
    "set_language": (["language", "next"], False),
}


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def games(alice: User, bob: User) -> None:
    """A running game, which no member form may touch."""
    play_random_moves(build_game(alice, bob, seed=51), count=3)


def test_member_forms_never_fail(games: None, alice: User) -> None:
    @FUZZ
    @given(
        name=st.sampled_from(sorted(FORMS)),
        member=st.booleans(),
        data=st.data(),
        htmx=st.booleans(),
    )
    def fuzz(name: str, member: bool, data: st.DataObject, htmx: bool) -> None:
        fields, form_page = FORMS[name]
        payload: Any = data.draw(form_data(fields or ["next"]) | RAW_BODY)
        client = signed_in(alice) if member else Client()  # log-out must not end the next
        before = snapshot()
        response = post_any(client, reverse(name), payload, htmx=htmx)
        # Signing in, signing up or changing a field with input that happens to be
        # valid moves on (a redirect) like any other; a refusal re-shows the form.
        assert_answer(response, form_page=form_page)
        assert snapshot() == before

    fuzz()


def test_megabyte_member_forms_are_refused(games: None, alice: User) -> None:
    before = snapshot()
    for name, (fields, form_page) in FORMS.items():
        if not fields:
            continue
        for client in (signed_in(alice), Client()):
            response = client.post(reverse(name), one_megabyte_form(fields))
            assert_answer(response, form_page=form_page)
    assert snapshot() == before


def test_links_from_e_mails_with_made_up_keys_never_fail(games: None, alice: User) -> None:
    """The confirmation and password-reset links of the e-mails, with keys nobody sent."""
    key = st.from_regex(r"[-:\w]{1,80}", fullmatch=True)

    @FUZZ
    @given(
        link=st.one_of(
            key.map(lambda k: reverse("account_confirm_email", args=[k])),
            st.tuples(st.from_regex(r"[0-9A-Za-z]{1,12}", fullmatch=True), key).map(
                lambda p: reverse("account_reset_password_from_key", args=p)
            ),
        ),
        member=st.booleans(),
        post=st.booleans(),
        payload=form_data(["password1", "password2", "key"]),
    )
    def fuzz(link: str, member: bool, post: bool, payload: dict[str, Any]) -> None:
        client = signed_in(alice) if member else Client()
        before = snapshot()
        response = client.post(link, payload) if post else client.get(link)
        assert response.status_code < 500
        assert snapshot() == before

    fuzz()


def test_query_strings_of_member_pages_never_fail(games: None, alice: User) -> None:
    pages = ["accounts:profile", "accounts:notifications", "accounts:notifications-badge"]
    pages += ["account_login", "account_signup", "home"]

    @FUZZ
    @given(
        page=st.sampled_from(pages),
        member=st.booleans(),
        query=st.dictionaries(st.sampled_from(["next", "lang", "page"]) | TEXT, FIELD, max_size=3),
    )
    def fuzz(page: str, member: bool, query: dict[str, Any]) -> None:
        client = signed_in(alice) if member else Client()
        before = snapshot()
        response = client.get(reverse(page), query)
        assert response.status_code < 500
        assert snapshot() == before

    fuzz()


def test_an_empty_profile_form_is_shown_again_with_what_is_missing(alice: User) -> None:
    """Found by the fuzzer: a POST with no fields at all re-showed the form as on a first
    visit, saying nothing (the view took the empty POST for no POST)."""
    response = signed_in(alice).post(reverse("accounts:profile-edit"), {})
    assert response.status_code == 200
    assert "This field is required." in response.content.decode()
    alice.refresh_from_db()
    assert (alice.display_name, alice.language) == ("Alice", "en")


def test_a_megabyte_long_login_name_is_refused_with_a_message() -> None:
    """Found by the fuzzer: a username of a megabyte reached allauth's case-insensitive
    lookup, which SQLite refuses ("LIKE or GLOB pattern too complex"): a 500."""
    response = Client().post(
        reverse("account_login"), {"login": "a" * ONE_MB, "password": "whatever"}
    )
    assert response.status_code == 200
    assert "Ensure this value has at most 254 characters" in response.content.decode()
