from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from rulebooks import services
from rulebooks.models import Rulebook, Section, SectionText
from tests.conftest import make_user
from tests.rulebooks.conftest import login

pytestmark = pytest.mark.django_db


def book_url(slug: str, **query: str) -> str:
    url = reverse("rulebooks:book", args=[slug])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


@pytest.fixture
def hungarian(db: None) -> User:
    return make_user("bela", display_name="Béla", language="hu")


@pytest.fixture
def polish(db: None) -> User:
    return make_user("zofia", display_name="Zofia", language="pl")


def test_index_lists_rulebooks_with_their_languages(client: Client, rulebooks: None) -> None:
    # Every shipped book is in every language; take two languages away from one of them.
    SectionText.objects.filter(
        section__rulebook__slug="hanging-gardens", language__in=["hu", "pl"]
    ).delete()
    html = client.get(reverse("rulebooks:index")).content.decode()
    babylon = html[html.index('id="babylon"') :]
    babylon = babylon[: babylon.index("</li>")]
    assert re.findall(r'class="rb-lang-link" data-lang="(\w+)"', babylon) == ["en", "hu", "pl"]
    gardens = html[html.index('id="hanging-gardens"') :]
    gardens = gardens[: gardens.index("</li>")]
    assert re.findall(r'class="rb-lang-link" data-lang="(\w+)"', gardens) == ["en"]


def test_rulebook_opens_in_the_readers_language(hungarian: User, rulebooks: None) -> None:
    html = login(hungarian).get(book_url("babylon")).content.decode()
    assert '<div class="rb-sections" lang="hu">' in html
    assert "Ásás" in html
    assert "rb-notice" not in html


def test_rulebook_falls_back_to_english_with_a_notice(hungarian: User, rulebooks: None) -> None:
    SectionText.objects.filter(section__rulebook__slug="hanging-gardens", language="hu").delete()
    response = login(hungarian).get(book_url("hanging-gardens"))
    html = response.content.decode()
    assert '<div class="rb-sections" lang="en">' in html
    assert 'data-wanted="hu" data-shown="en"' in html
    assert "Magyar" in html[html.index("rb-notice") :]


def test_fallback_goes_to_english_before_the_original(polish: User, rulebooks: None) -> None:
    # The shipped books exist in every language, so this test takes the Polish text away.
    SectionText.objects.filter(section__rulebook__slug="tower-of-babel", language="pl").delete()
    html = login(polish).get(book_url("tower-of-babel")).content.decode()
    assert '<div class="rb-sections" lang="en">' in html


def test_with_no_english_either_the_original_is_shown_with_a_notice(
    polish: User, editor: User
) -> None:
    book = Rulebook.objects.create(
        slug="kakuro-klub", titles={"hu": "Kakuró"}, originals=["hu"], source_language="hu"
    )
    section = Section.objects.create(rulebook=book, key="overview")
    services.save_section_text(
        section=section,
        language="hu",
        title="Áttekintés",
        body="A játék célja.",
        author=editor,
        comment="",
        base_number=0,
    )

    html = login(polish).get(book_url("kakuro-klub")).content.decode()

    assert '<div class="rb-sections" lang="hu">' in html
    assert "A játék célja." in html
    notice = html[html.index("rb-notice") : html.index("</p>", html.index("rb-notice"))]
    assert 'data-wanted="pl" data-shown="hu"' in notice
    # In the reader's own language, naming what they asked for and what they get instead.
    assert "polski" in notice.casefold() and "węgierski" in notice.casefold()


def test_missing_language_says_not_translated_with_links(client: Client, rulebooks: None) -> None:
    # The shipped books exist in every language, so this test takes the Polish text away.
    SectionText.objects.filter(section__rulebook__slug="akropolis", language="pl").delete()
    html = client.get(book_url("akropolis", lang="pl")).content.decode()
    assert "not translated into Polish yet" in html
    assert 'href="?lang=en"' in html and 'href="?lang=hu"' in html
    # Never an empty page: each section offers the languages it exists in.
    assert html.count('class="rb-missing"') > 5
    assert "/rules/akropolis/?lang=en#take-tile" in html


def test_every_section_is_an_anchor_listed_in_the_contents(client: Client, rulebooks: None) -> None:
    html = client.get(book_url("akropolis", lang="en")).content.decode()
    assert '<section class="rb-section" id="take-tile">' in html
    assert '<a href="#take-tile">' in html


def test_site_box_opens_the_rulebook_in_every_language(client: Client, rulebooks: None) -> None:
    for lang in ("en", "hu", "pl"):
        html = client.get(book_url("babylon", lang=lang)).content.decode()
        box = html.index('id="how-this-site-plays-it"')
        assert box < html.index('class="rb-sections"')
    html = client.get(book_url("hanging-gardens", lang="en")).content.decode()
    assert (
        "Yucata"
        in html[html.index('id="how-this-site-plays-it"') : html.index('class="rb-sections"')]
    )


def test_side_by_side_aligns_sections(client: Client, rulebooks: None) -> None:
    url = reverse("rulebooks:compare", args=["babylon"]) + "?left=hu&right=pl"
    html = client.get(url).content.decode()
    rows = re.findall(
        r'<section class="rb-row" id="([\w-]+)"'
        r'.*?id="text-(\w+)-([\w-]+)".*?id="text-(\w+)-([\w-]+)"',
        html,
        re.S,
    )
    assert len(rows) == 14
    for key, left_lang, left_key, right_lang, right_key in rows:
        assert (left_lang, right_lang) == ("hu", "pl")
        assert left_key == right_key == key
    dig = html[html.index('id="dig"') :]
    assert dig.index("Ásás") < dig.index("Kopanie")


def test_glossary_terms_are_marked_with_their_other_languages(
    client: Client, rulebooks: None
) -> None:
    html = client.get(book_url("babylon", lang="hu")).content.decode()
    assert re.search(
        r'<a class="term" href="#term-pillar" data-term="pillar"[^>]*'
        r'title="pillar · oszlop · filar"',
        html,
        re.I,
    )
    assert 'id="rb-glossary"' in html


@pytest.mark.parametrize(
    ("lang", "word"), [("en", "score pad"), ("hu", "pontozótömb"), ("pl", "notatnik")]
)
def test_babylon_components_mark_the_score_pad_as_a_glossary_term(
    client: Client, babylon: None, lang: str, word: str
) -> None:
    html = client.get(book_url("babylon", lang=lang)).text
    components = html[html.index('id="components"') : html.index('id="terrace-tiles"')]
    assert f'data-term="score-pad" title="score pad · pontozótömb · notatnik">{word}</a>' in (
        components
    )


@pytest.mark.parametrize("page", ["book", "compare"])
def test_every_marked_term_links_to_its_row_in_the_glossary(
    client: Client, rulebooks: None, page: str
) -> None:
    url = reverse(f"rulebooks:{page}", args=["babylon"])
    html = client.get(url + ("?lang=hu" if page == "book" else "?left=hu&right=pl")).text
    linked = set(re.findall(r'<a class="term" href="#term-([\w-]+)"', html))
    rows = dict(re.findall(r'<tr id="term-([\w-]+)">(.*?)</tr>', html, re.S))
    assert "pillar" in linked
    assert linked <= set(rows)
    assert all(word in rows["pillar"].casefold() for word in ("pillar", "oszlop", "filar"))
