"""Sign-up, log-in and their e-mails speak the reader's language and name the club.

A member is told things in the language of the page they are on, or of the language they
chose; never English above a Hungarian page. Logging in keeps the language just chosen.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.conftest import PASSWORD, make_user

pytestmark = pytest.mark.django_db


def client_in(language: str) -> Client:
    """A visitor who picked ``language`` with the switcher (it sets this cookie)."""
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def sign_up(client: Client, username: str, email: str, language: str) -> Any:
    return client.post(
        reverse("account_signup"),
        {
            "username": username,
            "email": email,
            "password1": PASSWORD,
            "password2": PASSWORD,
            "display_name": "",
            "language": language,
        },
        follow=True,
    )


def page_language(html: str) -> str:
    match = re.search(r'<html lang="(\w+)"', html)
    assert match is not None
    return match.group(1)


def messages_on(html: str) -> str:
    start = html.index('<ul class="messages">')
    return html[start : html.index("</ul>", start)]


def test_signing_up_on_a_hungarian_page_is_answered_in_hungarian(
    mailoutbox: list[Any],
) -> None:
    response = sign_up(client_in("hu"), "dora", "dora@example.com", "hu")
    html = response.content.decode()
    assert page_language(html) == "hu"
    assert "Megerősítő levelet küldtünk" in messages_on(html)
    [mail] = mailoutbox
    assert mail.subject == "[Társasjátékklub] Erősítsd meg az e-mail-címedet"
    assert mail.body.startswith("Szia!")
    assert "amikor regisztrált ide: Társasjátékklub" in mail.body
    assert "Please" not in mail.body and "Hello" not in mail.body


def test_the_language_chosen_in_the_sign_up_form_is_the_one_used_from_then_on(
    mailoutbox: list[Any],
) -> None:
    client = client_in("en")
    response = sign_up(client, "zofia", "zofia@example.com", "pl")
    html = response.content.decode()
    assert page_language(html) == "pl"
    assert "E-mail z potwierdzeniem został wysłany" in messages_on(html)
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "pl"
    [mail] = mailoutbox
    assert mail.subject == "[Klub gier planszowych] Potwierdź swój adres e-mail"
    assert "Do zobaczenia przy stole!" in mail.body


def test_e_mails_name_the_club_and_not_the_server(mailoutbox: list[Any], settings: Any) -> None:
    settings.CLUB_NAME = "Kraków Meeples"
    sign_up(client_in("en"), "erin", "erin@example.com", "en")
    [mail] = mailoutbox
    assert mail.subject == "[Kraków Meeples] Confirm your e-mail address"
    assert "signing up with the Kraków Meeples." in mail.body
    assert "testserver" not in mail.subject
    assert "Thank you for using" not in mail.body


def test_logging_in_keeps_the_language_just_chosen_and_says_so() -> None:
    member = make_user("bela", language="en")
    client = client_in("hu")
    response = client.post(
        reverse("account_login"), {"login": "bela", "password": PASSWORD}, follow=True
    )
    html = response.content.decode()
    assert page_language(html) == "hu"
    shown = messages_on(html)
    assert "Sikeresen bejelentkeztél" in shown
    assert "Mostantól ez a választott nyelved: Magyar" in shown
    member.refresh_from_db()
    assert member.language == "hu"


def test_logging_in_without_a_choice_uses_the_members_saved_language() -> None:
    make_user("zofia", language="pl")
    response = Client().post(
        reverse("account_login"), {"login": "zofia", "password": PASSWORD}, follow=True
    )
    html = response.content.decode()
    assert page_language(html) == "pl"
    assert "Zalogowano jako" in messages_on(html)


def test_a_password_reset_mail_reaches_a_member_in_their_saved_language(
    mailoutbox: list[Any],
) -> None:
    make_user("bela", language="hu")
    client_in("en").post(reverse("account_reset_password"), {"email": "bela@example.com"})
    [mail] = mailoutbox
    assert mail.subject.startswith("[Társasjátékklub] ")
    assert mail.body.startswith("Szia!")
    assert "Azért kaptad ezt az emailt" in mail.body


def test_the_owner_of_a_taken_address_is_told_in_their_own_language(
    mailoutbox: list[Any],
) -> None:
    make_user("bela", language="hu")
    sign_up(client_in("pl"), "intruder", "bela@example.com", "pl")
    [mail] = [m for m in mailoutbox if m.to == ["bela@example.com"]]
    assert mail.subject.startswith("[Társasjátékklub] ")
    assert "Szia!" in mail.body


def test_the_sign_up_page_speaks_of_the_other_members_in_correct_hungarian() -> None:
    html = client_in("hu").get(reverse("account_signup")).content.decode()
    assert "Így lát téged a többi tag." in html
    assert "többi tagok" not in html


def test_in_hungarian_a_stack_of_tiles_is_not_called_a_column() -> None:
    with translation.override("hu"):
        column = translation.gettext(
            "Column %(q)s, row %(r)s, rotation %(rotation)s, level %(level)s"
        )
        stacks = translation.ngettext("%(stacks)s stack left", "%(stacks)s stacks left", 3)
    column_word = column.split(":")[0].casefold()
    assert column_word == "oszlop"
    assert column_word not in stacks.casefold()


@pytest.mark.parametrize("secure", [True, False])
def test_the_language_cookie_is_sent_like_the_session_cookie(secure: bool, settings: Any) -> None:
    """Issue 31, item 6: under DEBUG=0 the session and CSRF cookies were Secure and the
    language cookie was not (config/settings.py makes all three alike)."""
    settings.LANGUAGE_COOKIE_SECURE = secure
    member = make_user("irma")
    client = Client()
    client.force_login(member)
    switched = client.post(reverse("accounts:set-language"), {"language": "hu", "next": "/"})
    saved = client.post(
        reverse("accounts:profile-edit"),
        {"display_name": "Irma", "language": "pl", "time_zone": "Europe/Budapest"},
    )
    for response in (switched, saved):
        cookie = response.cookies[settings.LANGUAGE_COOKIE_NAME]
        assert bool(cookie["secure"]) is secure
        assert cookie["httponly"] and cookie["samesite"] == "Lax"
