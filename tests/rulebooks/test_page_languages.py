"""Every block of the rulebook pages is tagged with the language it is written in.

A reader may read a text in one language with the site in another (a Hungarian text, English
menus). The page is tagged with the site's language (``<html lang>``), so every piece of the
text, its "How this site plays it" box included, must carry its own ``lang``, and the site's
own words inside the text (buttons, badges, messages) must be tagged back.

The check needs no list of strings: the same text is rendered with the site in each of its three
languages. A piece that changes with the site's language is the site's: it must be tagged with
the site's language. A piece that stays the same belongs to the text (or the glossary): its
language must not follow the site's, and must be named.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from rulebooks.models import SectionText
from tests.rulebooks.conftest import login

pytestmark = pytest.mark.django_db

SITE_LANGUAGES = ["en", "hu", "pl"]
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
LETTER = re.compile(r"[^\W\d_]")


class TaggedText(HTMLParser):
    """The text pieces inside the element of class ``root_class``, each with its language."""

    def __init__(self, root_class: str) -> None:
        super().__init__(convert_charrefs=True)
        self.root_class = root_class
        self.stack: list[tuple[str, str | None, bool]] = []  # tag, lang, inside the root
        self.pieces: list[tuple[str, str | None, str]] = []  # path, lang, text

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        parent_lang = self.stack[-1][1] if self.stack else None
        inside = (self.stack[-1][2] if self.stack else False) or self.root_class in (
            values.get("class") or ""
        ).split()
        if tag not in VOID:
            self.stack.append((tag, values.get("lang", parent_lang), inside))

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        if not self.stack or not self.stack[-1][2] or self.stack[-1][0] in ("script", "style"):
            return
        if LETTER.search(data):
            path = "/".join(tag for tag, _lang, _inside in self.stack)
            self.pieces.append((path, self.stack[-1][1], " ".join(data.split())))


def pieces(url: str, site_language: str, root_class: str, user: User | None) -> list:
    """The pieces of the page at ``url`` with the site in ``site_language`` (a member's own
    language setting wins over the cookie, so a member's is changed)."""
    if user is None:
        client = Client()
        client.cookies["django_language"] = site_language
    else:
        user.language = site_language
        user.save(update_fields=["language"])
        client = login(user)
    html = client.get(url).content.decode()
    assert f'<html lang="{site_language}">' in html
    parser = TaggedText(root_class)
    parser.feed(html)
    assert parser.pieces, f"nothing found in .{root_class}"
    return parser.pieces


def untagged(url: str, root_class: str, user: User | None = None) -> list[str]:
    """Every piece whose tagging is wrong, described; each rendering aligned with the others."""
    renders = {code: pieces(url, code, root_class, user) for code in SITE_LANGUAGES}
    assert len({len(found) for found in renders.values()}) == 1, "the renders do not align"
    wrong = []
    for aligned in zip(*renders.values(), strict=True):
        texts = {text for _path, _lang, text in aligned}
        langs = [lang for _path, lang, _text in aligned]
        if len(texts) > 1:  # the site's words: in the site's language
            for site_language, (path, lang, text) in zip(SITE_LANGUAGES, aligned, strict=True):
                if lang != site_language:
                    wrong.append(f"site's words {text!r} at {path} tagged {lang}")
        elif len(set(langs)) > 1 or langs[0] is None:  # the text's words: always its language
            wrong.append(f"{aligned[0][2]!r} at {aligned[0][0]} tagged {langs}")
    return wrong


@pytest.mark.parametrize("text_language", ["en", "hu", "pl"])
def test_every_block_of_a_book_page_carries_its_language(
    rulebooks: None, text_language: str
) -> None:
    url = reverse("rulebooks:book", args=["hanging-gardens"]) + f"?lang={text_language}"
    wrong = untagged(url, "rb-book-page")
    assert wrong == []


def test_the_site_box_is_headed_and_tagged_in_the_texts_language(
    client: Client, rulebooks: None
) -> None:
    client.cookies["django_language"] = "en"
    url = reverse("rulebooks:book", args=["hanging-gardens"])
    html = client.get(url + "?lang=hu").content.decode()
    box = html[html.index('id="how-this-site-plays-it"') :]
    box = box[: box.index("</aside>")]
    assert box.startswith('id="how-this-site-plays-it" lang="hu">')
    assert "<h2>Így játsszuk ezen az oldalon</h2>" in box
    assert "How this site plays it" not in html
    html = client.get(url + "?lang=pl").content.decode()
    assert "<h2>Jak gramy w tym serwisie</h2>" in html


def test_missing_and_stale_sections_tag_the_source_and_the_sites_words(
    client: Client, rulebooks: None, editor: User
) -> None:
    """A section not translated yet shows the source's title; an out-of-date one shows the
    source's changes in a box of the site's words: each in its own language."""
    texts = SectionText.objects.filter(section__rulebook__slug="hanging-gardens", language="pl")
    texts.filter(section__key="groups").delete()
    source = SectionText.objects.get(
        section__rulebook__slug="hanging-gardens", section__key="winner", language="en"
    )
    source.body += "\n\nA new sentence of the original."
    source.save()
    url = reverse("rulebooks:book", args=["hanging-gardens"]) + "?lang=pl"
    html = client.get(url).content.decode()
    assert "rb-stale-box" in html and "rb-missing" in html
    assert untagged(url, "rb-book-page", editor) == []


def test_side_by_side_tags_both_texts_and_the_sites_words(rulebooks: None) -> None:
    url = reverse("rulebooks:compare", args=["babylon"]) + "?left=hu&right=pl"
    assert untagged(url, "rb-compare") == []


def test_the_check_finds_an_untagged_block() -> None:
    """The parser sees the language a piece inherits, so a box without ``lang`` is caught."""
    parser = TaggedText("rb-book-page")
    parser.feed(
        '<html lang="en"><article class="rb-book-page"><aside><h2>Így játsszuk</h2></aside>'
        '<div lang="hu"><p>Szöveg<br>tovább</p><p lang="en">Edit</p></div></article></html>'
    )
    assert parser.pieces == [
        ("html/article/aside/h2", "en", "Így játsszuk"),
        ("html/article/div/p", "hu", "Szöveg"),
        ("html/article/div/p", "hu", "tovább"),
        ("html/article/div/p", "en", "Edit"),
    ]


def test_an_editors_preview_and_source_are_tagged_with_their_languages(
    rulebooks: None, editor: User
) -> None:
    """Editing the Polish text with the site in English: the preview is Polish, the Hungarian
    source shown beside it is Hungarian."""
    editor.language = "en"
    editor.save(update_fields=["language"])
    client = login(editor)
    args = ["babylon", "pl", "dig"]
    html = client.get(reverse("rulebooks:section-edit", args=args)).content.decode()
    assert '<pre class="rb-source-text" lang="hu">' in html
    assert re.search(r'<h3 lang="hu">[^<]*Ásás', html)
    text = SectionText.objects.get(
        section__rulebook__slug="babylon", section__key="dig", language="pl"
    )
    data = {"title": "Kopanie", "body": "**Filar**", "base_number": text.revision_number}
    html = client.post(reverse("rulebooks:section-preview", args=args), data).content.decode()
    assert '<h2 class="rb-heading" lang="pl">Kopanie</h2><div class="rb-body" lang="pl">' in html
