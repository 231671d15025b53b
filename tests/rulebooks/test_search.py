from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from rulebooks import services
from rulebooks.models import Section
from rulebooks.selectors import search

pytestmark = pytest.mark.django_db


def test_search_finds_oszlop_in_the_hungarian_babylon_rules(babylon: None) -> None:
    hits = search("oszlop")
    assert ("babylon", "hu") in {(h.rulebook.slug, h.language) for h in hits}
    assert all(h.language == "hu" for h in hits)
    assert any("<mark>oszlop" in h.snippet.lower() for h in hits)


def test_search_finds_filar_in_the_polish_babylon_rules(babylon: None) -> None:
    hits = search("filar")
    assert ("babylon", "pl") in {(h.rulebook.slug, h.language) for h in hits}
    assert any("<mark>filar" in h.snippet.lower() for h in hits)


def test_search_needs_every_word(babylon: None) -> None:
    both = {(h.rulebook.slug, h.key) for h in search("quarry pillar")}
    quarry = {(h.rulebook.slug, h.key) for h in search("quarry")}
    assert both and both <= quarry
    assert search("quarry zzzyzzx") == []


def test_search_page_links_to_the_section_in_its_language(client: Client, babylon: None) -> None:
    html = client.get(reverse("rulebooks:search"), {"q": "filar"}).content.decode()
    assert "/rules/babylon/?lang=pl#" in html
    assert "<mark>" in html


def rewrite_dig_section(editor: User, body: str) -> None:
    """An editor saves `body` as the English text of Babylon's "dig" section."""
    section = Section.objects.get(rulebook__slug="babylon", key="dig")
    text = section.texts.get(language="en")
    services.save_section_text(
        section=section,
        language="en",
        title=text.title,
        body=body,
        author=editor,
        comment="",
        base_number=text.revision_number,
    )


def test_search_escapes_the_text_around_hits(babylon: None, editor: User) -> None:
    rewrite_dig_section(editor, "<script>alert(1)</script> zebrafish pillar")
    [hit] = search("zebrafish")
    assert "<script>" not in hit.snippet
    assert "<mark>zebrafish</mark>" in hit.snippet


def test_hits_show_words_not_markdown(babylon: None, editor: User) -> None:
    rewrite_dig_section(
        editor, "| players | zebrafish |\n|---|---|\n| 2 | **three** |\n\n- one zebrafish\n- two"
    )
    [hit] = search("zebrafish")
    for syntax in ("|", "---", "**", "- one"):
        assert syntax not in hit.snippet
    assert "players · <mark>zebrafish</mark> · 2 · three" in hit.snippet


def test_hits_in_a_site_note_show_its_words_not_its_marker(babylon: None, editor: User) -> None:
    rewrite_dig_section(editor, "Dig.\n\n> [!site] The zebrafish stack is ours.\n> More words.")
    [hit] = search("zebrafish")
    assert "site]" not in hit.snippet and "&gt;" not in hit.snippet
    # PostgreSQL's fragments start and end at words near the hit, so the words around it
    # (and the last full stop) may be left out; the note's own words are there.
    assert "<mark>zebrafish</mark> stack is ours. More words" in hit.snippet
