"""Every page must be usable in Hungarian and Polish: no interface string left untranslated."""

from __future__ import annotations

import ast
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


# --- every string of the source is in the catalogues -------------------------------------------
# `makemessages` reads only .html and .txt templates by default, so a string in an .svg template
# was never offered for translation ("City of …" on the board). This reads every template and
# every module of the site itself and asks for each string's translation.

ROOT = LOCALE.parent
GETTEXT_CALLS = {
    "gettext": (None, 0),
    "gettext_lazy": (None, 0),
    "_": (None, 0),
    "ngettext": (None, 0),
    "ngettext_lazy": (None, 0),
    "pgettext": (0, 1),
    "pgettext_lazy": (0, 1),
    "npgettext": (0, 1),
    "npgettext_lazy": (0, 1),
}


def _calls(tree: ast.AST) -> list[tuple[str | None, str]]:
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
        if name not in GETTEXT_CALLS:
            continue
        context_at, msgid_at = GETTEXT_CALLS[name]
        args = node.args
        if len(args) <= msgid_at or not isinstance(args[msgid_at], ast.Constant):
            continue
        context = args[context_at].value if context_at is not None else None
        if isinstance(args[msgid_at].value, str):
            found.append((context, args[msgid_at].value))
    return found


def source_strings() -> dict[tuple[str | None, str], str]:
    """(context, msgid) -> the first file using it, from our templates and Python modules."""
    from django.utils.translation.template import templatize

    strings: dict[tuple[str | None, str], str] = {}
    for path in sorted((ROOT / "templates").rglob("*")):
        if path.suffix not in {".html", ".svg", ".txt"}:
            continue
        code = templatize(path.read_text("utf-8"), origin=str(path))
        # templatize writes the template's strings as gettext calls amid filler: parse them
        # one call at a time.
        for match in re.finditer(r"\b(?:n?p?gettext)\(", code):
            end = code.find(") ", match.end())
            while end != -1:
                try:
                    tree = ast.parse(code[match.start() : end + 1])
                except SyntaxError:
                    end = code.find(") ", end + 1)
                    continue
                for key in _calls(tree):
                    strings.setdefault(key, str(path.relative_to(ROOT)))
                break
    for folder in ("games", "accounts", "rulebooks", "config"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "migrations" in path.parts or "engines" in path.parts:
                continue
            for key in _calls(ast.parse(path.read_text("utf-8"))):
                strings.setdefault(key, str(path.relative_to(ROOT)))
    return strings


@pytest.mark.parametrize("language", ["hu", "pl"])
def test_every_string_of_the_source_has_a_translation(language: str) -> None:
    from django.utils import translation

    po = polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po"))
    ours = {(e.msgctxt, e.msgid) for e in po if e.translated() and not e.obsolete}
    strings = source_strings()
    assert len(strings) > 300  # the reader found the site's strings
    missing = []
    with translation.override(language):
        for (context, msgid), where in strings.items():
            if (context, msgid) in ours:
                continue
            # A library's own catalogue may hold it (allauth's words in its templates).
            text = translation.pgettext(context, msgid) if context else translation.gettext(msgid)
            if text == msgid:
                missing.append(f"{where}: {msgid[:70]!r}")
    assert missing == []
