"""Every page must be usable in Hungarian and Polish: no interface string left untranslated."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.test import Client

LOCALE = Path(__file__).resolve().parent.parent / "locale"
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\w+\}")


@pytest.mark.parametrize("language", ["hu", "pl"])
def test_every_interface_string_is_translated(language: str) -> None:
    po = polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po"))
    untranslated = [e.msgid for e in po if not e.obsolete and not e.translated()]
    assert untranslated == []


@pytest.mark.parametrize("language", ["hu", "pl"])
def test_translations_keep_their_placeholders(language: str) -> None:
    po = polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po"))
    for entry in po:
        if entry.obsolete:
            continue
        expected = sorted(PLACEHOLDER.findall(entry.msgid))
        texts = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        for text in texts:
            assert sorted(set(PLACEHOLDER.findall(text))) == sorted(set(expected)), entry.msgid


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("hu", ["Szabályok", "Játékaink", "Regisztráció"]),
        ("pl", ["Zasady", "Nasze gry", "Zarejestruj się"]),
    ],
)
def test_home_page_speaks_the_chosen_language(
    client: Client, language: str, words: list[str]
) -> None:
    client.post("/members/language/", {"language": language, "next": "/"})
    page = client.get("/").text
    for word in words:
        assert word in page


@pytest.mark.django_db
def test_a_member_reads_the_game_pages_in_their_own_language(client: Client) -> None:
    from tests.conftest import make_user

    client.force_login(make_user("zofia", language="pl"))
    page = client.get("/games/")
    assert '<html lang="pl">' in page.text
    assert "Graj" in page.text
