"""A member cannot pose as a bot: the names the site gives its bots, in every language, are
reserved, and the pages mark bot seats with a badge no name can draw."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.names import is_reserved_name
from tests.conftest import PASSWORD, make_user
from tests.games.conftest import build_game


@pytest.mark.parametrize(
    "name",
    [
        "Normal bot",
        "HARD BOT",
        "easy-bot",
        "normal_bot",
        "Könnyű gépi játékos",  # the Hungarian bot names
        "Gepi Jatekos",
        "Trudny bot",  # Polish
        "Alice (played by a bot)",
        "Robot",
        "Alice 🤖",
        "Open seat",  # what an empty seat says
        "Szabad hely",
    ],
)
def test_names_that_read_as_a_bot_or_an_empty_seat_are_reserved(name: str) -> None:
    assert is_reserved_name(name)


@pytest.mark.parametrize("name", ["Alice", "Abbott", "Botond", "Bottle", "Zsombor", "Ewa"])
def test_ordinary_names_are_free(name: str) -> None:
    assert not is_reserved_name(name)


def sign_up(username: str, display_name: str) -> tuple[int, str]:
    response = Client().post(
        reverse("account_signup"),
        {
            "username": username,
            "email": f"{username}@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "display_name": display_name,
            "language": "en",
        },
    )
    return response.status_code, response.text


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("username", "display_name"), [("mallory", "Normal bot"), ("hard_bot", "")]
)
def test_sign_up_refuses_a_bots_name(username: str, display_name: str) -> None:
    status, page = sign_up(username, display_name)
    assert status == 200
    assert "reserved for the site&#x27;s bots" in page
    assert not User.objects.filter(username=username).exists()


def test_profile_refuses_a_bots_name(client: Client, alice: User) -> None:
    client.force_login(alice)
    response = client.post(
        reverse("accounts:profile-edit"), {"display_name": "Hard bot", "language": "en"}
    )
    assert response.status_code == 200
    assert "reserved for the site&#x27;s bots" in response.text
    alice.refresh_from_db()
    assert alice.display_name == "Alice"


@pytest.mark.django_db
def test_game_lists_mark_bot_seats_and_no_member(client: Client) -> None:
    botond = make_user("botond", display_name="Botond")
    build_game(botond, "normal", seed=3)
    client.force_login(botond)
    page = client.get(reverse("games:history")).text
    badge = ' <span class="badge bot-badge"'
    assert page.count("Normal bot") >= 1
    assert page.count("Normal bot" + badge) == page.count("Normal bot")
    assert page.count(badge) == page.count("Normal bot")
    assert "Botond" + badge not in page


def test_the_refusal_reads_in_the_members_language(client: Client, db: None) -> None:
    ilona = make_user("ilona", display_name="Ilona", language="hu")
    client.force_login(ilona)
    response = client.post(
        reverse("accounts:profile-edit"), {"display_name": "Nehéz gépi játékos", "language": "hu"}
    )
    assert "az oldal gépi játékosainak és a szabad helyeknek van fenntartva" in response.text
