"""A member cannot pose as a bot: the names the site gives its bots, in every language, are
reserved, and the pages mark bot seats with a badge no name can draw."""

from __future__ import annotations

import unicodedata

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from accounts.names import is_reserved_name, validate_member_name
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


@pytest.mark.parametrize(
    "name",
    [
        "Alice",
        "Abbott",
        "Botond",
        "Bottle",
        "Zsombor",
        "Ewa",
        "Richard Bottomley",  # "hardbot" runs across his two words, but is neither
        "Talbot",
        "Łukasz",
        "Zoë",
    ],
)
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


# Issue 20, item 7: names a probe got accepted although they render as a bot or an empty seat.
LOOK_ALIKES = [
    "Hard b\u200bot",  # zero-width space
    "Hard b\u00adot",  # soft hyphen
    "\u202etob draH",  # right-to-left override: shows "Hard bot"
    "Hard b\u043et",  # Cyrillic o
    "Hard b\u03bft",  # Greek omicron
    "\u0141atwy b\u043et",  # Polish, Cyrillic o
    "Neh\u00e9z g\u00e9pi j\u00e1t\u00e9k\u043es",  # Hungarian, Cyrillic o
    "Open se\u0430t",  # Cyrillic a
    "Sz\u0430bad hely",  # Cyrillic a
    "HardBot",  # no space
    "Trudnybot",
    "Neh\u00e9z g\u00e9pij\u00e1t\u00e9kos",
    "Hard b0t",  # a digit for a letter
    "hard_b0t",
    "\uff28\uff41\uff52\uff44\uff22\uff4f\uff54",  # full-width "HardBot"
    "Wolne miejsce",  # Polish empty seat
]


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_names_that_look_like_a_bot_or_an_empty_seat_are_refused(name: str) -> None:
    with pytest.raises(ValidationError):
        validate_member_name(name)


@pytest.mark.parametrize(
    "name", [n for n in LOOK_ALIKES if n.isprintable()]
)  # the others are refused for their invisible characters (below)
def test_look_alikes_read_as_the_reserved_name_they_show(name: str) -> None:
    assert is_reserved_name(name)


@pytest.mark.parametrize(
    "name",
    ["Al\u200bice", "Alice\u00ad", "\u202eecilA", "Alice\u2066", "Ali\u200dce", "\ufeffAlice"],
)
def test_names_with_invisible_or_direction_characters_are_refused(name: str) -> None:
    with pytest.raises(ValidationError) as exc:
        validate_member_name(name)
    assert exc.value.code == "invisible_character"


def test_every_bot_level_and_the_empty_seat_are_reserved_in_every_language() -> None:
    """The names the pages draw (games.models.Seat.BotLevel, games.rendering), each language's."""
    from games.models import Seat
    from games.rendering import seat_name

    seats = [Seat(position=0, bot_level=level) for level in Seat.BotLevel.values]
    seats.append(Seat(position=0))  # nobody holds it
    for code, _language in settings.LANGUAGES:
        with translation.override(code):
            shown = [seat_name(seat) for seat in seats]
        assert len(set(shown)) == 4
        for name in shown:
            assert is_reserved_name(name), (code, name)
            assert is_reserved_name(name.upper().replace(" ", "")), (code, name)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "username", ["hard_b0t", "HardBot", "h\u0430rd_b\u043et", "open_se\u0430t"]
)
def test_sign_up_refuses_a_username_that_looks_like_a_bot(username: str) -> None:
    status, page = sign_up(username, "")
    assert status == 200
    assert "reserved for the site&#x27;s bots" in page
    assert not User.objects.filter(username=username).exists()


@pytest.mark.django_db
def test_sign_up_refuses_a_display_name_with_a_direction_override() -> None:
    status, page = sign_up("mallory", "\u202etob draH")
    assert status == 200
    assert "Names cannot hold invisible characters" in page
    assert not User.objects.filter(username="mallory").exists()


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("hu", "A név nem tartalmazhat láthatatlan karaktert"),
        ("pl", "Nazwa nie może zawierać niewidocznych znaków"),
    ],
)
def test_the_invisible_character_refusal_reads_in_the_members_language(
    client: Client, db: None, language: str, text: str
) -> None:
    member = make_user("ilona", display_name="Ilona", language=language)
    client.force_login(member)
    response = client.post(
        reverse("accounts:profile-edit"), {"display_name": "Ilo\u200bna", "language": language}
    )
    assert text in response.text
    member.refresh_from_db()
    assert member.display_name == "Ilona"


# Issue 31, item 5: names a probe got accepted although they render blank or as a bot.
# U+3164 (Hangul filler) and U+2800 (Braille blank) draw as a blank; U+0299, U+1D0F and U+1D1B
# are the small capitals B, O and T; U+042C is the Cyrillic capital soft sign "Ь".
RENDER_BLANK_OR_AS_A_BOT = [
    "Hard\u3164bot",
    "Open\u3164seat",
    "Hard \u0299ot",
    "Hard b\u1d0f\u1d1b",
    "Hard \u042cot",
    "\u3164",
    "\u3164\u3164\u3164",
    "\u2800",
    "\u2800\u2800",
    "Hard\uffa0bot",  # the half-width Hangul filler
    "\u115f\u1160",  # the Hangul choseong and jungseong fillers
]
ACCENTED_NAMES = ["Kovács Éva", "Łucja Wójcik", "Anna Nowak"]


@pytest.mark.parametrize("name", RENDER_BLANK_OR_AS_A_BOT)
def test_names_that_render_blank_or_as_a_bot_are_refused(name: str) -> None:
    with pytest.raises(ValidationError):
        validate_member_name(name)


@pytest.mark.parametrize("name", ["\u3164", "Al\u3164ice", "\u2800", "Alice\u2800", "\u115f"])
def test_blank_characters_count_as_invisible(name: str) -> None:
    with pytest.raises(ValidationError) as exc:
        validate_member_name(name)
    assert exc.value.code == "invisible_character"


@pytest.mark.parametrize("name", ACCENTED_NAMES)
def test_hungarian_and_polish_names_with_accents_and_one_space_are_accepted(name: str) -> None:
    validate_member_name(name)
    assert not is_reserved_name(name)


@pytest.mark.parametrize(
    "name",
    [
        " Alice",
        "Alice ",
        "Kovács  Éva",  # two spaces
        "Kovács\u00a0Éva",  # no-break space
        "Kovács\u3000Éva",  # ideographic space
        "Kovács\u2003Éva",  # em space
        "Kovács\u2028Éva",  # line separator
    ],
)
def test_only_one_ordinary_space_between_words_is_accepted(name: str) -> None:
    with pytest.raises(ValidationError) as exc:
        validate_member_name(name)
    assert exc.value.code == "bad_spacing"


@pytest.mark.django_db
@pytest.mark.parametrize("display_name", RENDER_BLANK_OR_AS_A_BOT)
def test_sign_up_refuses_a_display_name_that_renders_blank_or_as_a_bot(display_name: str) -> None:
    status, page = sign_up("mallory", display_name)
    assert status == 200
    assert "Names cannot hold invisible characters" in page or "reserved for the site" in page
    assert not User.objects.filter(username="mallory").exists()


@pytest.mark.django_db
@pytest.mark.parametrize("username", ["\u3164", "hard\u3164bot", "\u3164\u3164", "hard\u0299ot"])
def test_sign_up_refuses_a_username_that_renders_blank_or_as_a_bot(username: str) -> None:
    status, page = sign_up(username, "")
    assert status == 200
    assert "Names cannot hold invisible characters" in page or "reserved for the site" in page
    assert not User.objects.filter(username=username).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("display_name", ACCENTED_NAMES)
def test_sign_up_accepts_a_name_with_accents_and_one_space(display_name: str) -> None:
    status, _page = sign_up("ewa", display_name)
    assert status == 302
    assert User.objects.get(username="ewa").display_name == display_name


@pytest.mark.parametrize("display_name", RENDER_BLANK_OR_AS_A_BOT)
def test_profile_refuses_a_name_that_renders_blank_or_as_a_bot(
    client: Client, alice: User, display_name: str
) -> None:
    client.force_login(alice)
    response = client.post(
        reverse("accounts:profile-edit"), {"display_name": display_name, "language": "en"}
    )
    assert response.status_code == 200
    assert (
        "Names cannot hold invisible characters" in response.text
        or "reserved for the site" in response.text
    )
    alice.refresh_from_db()
    assert alice.display_name == "Alice"


@pytest.mark.parametrize("display_name", ACCENTED_NAMES)
def test_profile_accepts_a_name_with_accents_and_one_space(
    client: Client, alice: User, display_name: str
) -> None:
    client.force_login(alice)
    response = client.post(
        reverse("accounts:profile-edit"), {"display_name": display_name, "language": "en"}
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.display_name == display_name


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "Names may hold spaces only between words"),
        ("hu", "A névben csak a szavak között állhat szóköz"),
        ("pl", "Spacje mogą stać w nazwie tylko między słowami"),
    ],
)
def test_the_spacing_refusal_reads_in_the_members_language(
    client: Client, db: None, language: str, text: str
) -> None:
    member = make_user("ilona", display_name="Ilona", language=language)
    client.force_login(member)
    response = client.post(
        reverse("accounts:profile-edit"),
        {"display_name": "Ilona\u3000Kiss", "language": language},
    )
    assert text in response.text
    member.refresh_from_db()
    assert member.display_name == "Ilona"


# Look-alikes written by hand (not derived by the code under test): the small capital of each
# Latin letter that has one, and Cyrillic letters that draw as Latin ones.
SMALL_CAPITALS = dict(
    zip(
        "abcdefghijklmnopqrstuvwyz",
        "\u1d00\u0299\u1d04\u1d05\u1d07\ua730\u0262\u029c\u026a\u1d0a\u1d0b\u029f\u1d0d"
        "\u0274\u1d0f\u1d18\ua7af\u0280\ua731\u1d1b\u1d1c\u1d20\u1d21\u028f\u1d22",
        strict=True,
    )
)
CYRILLIC = {
    "a": "\u0430",
    "b": "\u042c",
    "c": "\u0441",
    "e": "\u0435",
    "o": "\u043e",
    "p": "\u0440",
    "x": "\u0445",
    "y": "\u0443",
    "B": "\u0412",
    "E": "\u0415",
    "H": "\u041d",
    "K": "\u041a",
    "M": "\u041c",
    "O": "\u041e",
    "P": "\u0420",
    "T": "\u0422",
}


def _written_with(name: str, letters: dict[str, str], only: int | None = None) -> str:
    """`name` with its letters swapped for the look-alikes in `letters` (accents kept as
    combining marks); `only`: swap just the letter at that index of the decomposed name."""
    decomposed = unicodedata.normalize("NFD", name)
    return "".join(
        letters.get(c, c) if only is None or i == only else c for i, c in enumerate(decomposed)
    )


def _names_the_pages_give_bots_and_empty_seats() -> list[str]:
    from games.models import Seat
    from games.rendering import seat_name

    seats = [Seat(position=0, bot_level=level) for level in Seat.BotLevel.values]
    seats.append(Seat(position=0))
    names = []
    for code, _language in settings.LANGUAGES:
        with translation.override(code):
            names.extend(str(seat_name(seat)) for seat in seats)
            # A member's seat a bot plays (games.rendering.seat_name).
            names.append(translation.gettext("%(name)s (played by a bot)") % {"name": "Zoë"})
    return names


@pytest.mark.parametrize("letters", [SMALL_CAPITALS, CYRILLIC], ids=["small-caps", "cyrillic"])
def test_small_capital_and_cyrillic_look_alikes_of_every_reserved_name_are_reserved(
    letters: dict[str, str],
) -> None:
    names = _names_the_pages_give_bots_and_empty_seats()
    # Three bot levels, the empty seat and a seat a bot plays, in three languages.
    assert len(set(names)) == 15
    for name in names:
        whole = _written_with(name, letters)
        assert whole != name
        assert is_reserved_name(whole), (name, whole)
        for index, char in enumerate(unicodedata.normalize("NFD", name)):
            if char in letters:
                one = _written_with(name, letters, only=index)
                assert is_reserved_name(one), (name, one)
                with pytest.raises(ValidationError):
                    validate_member_name(one)


@pytest.mark.parametrize(
    "name", ["demo", "Demo", "DEMO", "d\u0435mo", "dem0", "\u1d05\u1d07\u1d0d\u1d0f"]
)
def test_the_demo_accounts_name_is_reserved(name: str) -> None:
    with pytest.raises(ValidationError) as exc:
        validate_member_name(name)
    assert exc.value.code == "demo_account"


@pytest.mark.parametrize("name", ["Demo Dave", "Demeter", "Ademola"])
def test_names_that_only_contain_demo_are_free(name: str) -> None:
    validate_member_name(name)


def test_the_demo_account_keeps_its_own_name_on_the_profile(client: Client, db: None) -> None:
    demo = make_user("demo", display_name="Demo")
    client.force_login(demo)
    response = client.post(
        reverse("accounts:profile-edit"), {"display_name": "Demo", "language": "hu"}
    )
    assert response.status_code == 302
    demo.refresh_from_db()
    assert (demo.display_name, demo.language) == ("Demo", "hu")
