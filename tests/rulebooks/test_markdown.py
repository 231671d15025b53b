from __future__ import annotations

import json

from rulebooks.importers import CONTENT_DIR
from rulebooks.markdown import GlossaryMatcher, Term, render

PILLAR = Term(key="pillar", stems=("oszlop",), title="pillar · oszlop · filar")
DOUBLE = Term(key="double-pillar", stems=("dupla oszlop",), title="double pillar")


def test_markdown_renders_tables_and_emphasis() -> None:
    html = render("| a | b |\n|---|---|\n| 1 | **2** |")
    assert "<table>" in html and "<strong>2</strong>" in html


def test_scripts_handlers_and_javascript_links_never_reach_the_page() -> None:
    html = render(
        "<script>alert(1)</script>\n\n[x](javascript:alert(1))\n\n"
        '<a href="#" onclick="alert(1)">y</a>'
    )
    assert "<script" not in html
    assert 'href="javascript' not in html
    assert '<a href="#" onclick' not in html


def test_inflected_words_are_marked_by_their_stem() -> None:
    html = render("Tegyél két oszlopot a lapkára.", GlossaryMatcher([PILLAR]))
    assert '<a class="term" href="#term-pillar" data-term="pillar"' in html
    assert ">oszlopot</a>" in html


def test_the_longest_stem_wins() -> None:
    html = render("Vegyél egy dupla oszlopot.", GlossaryMatcher([PILLAR, DOUBLE]))
    assert 'data-term="double-pillar"' in html
    assert 'data-term="pillar"' not in html


def test_terms_are_not_marked_inside_links_or_code() -> None:
    html = render("[oszlop](https://example.com) `oszlop`", GlossaryMatcher([PILLAR]))
    assert "term" not in html


def test_glossary_data_cannot_inject_markup() -> None:
    evil = Term(
        key='x" onmouseover="alert(1)', stems=("oszlop",), title="<img src=x onerror=alert(1)>"
    )
    html = render("oszlop", GlossaryMatcher([evil]))
    assert "<img" not in html
    assert '" onmouseover=' not in html


def test_only_the_first_mention_in_a_section_is_marked() -> None:
    html = render("oszlop, oszlopok\n\nmég egy oszlop", GlossaryMatcher([PILLAR]))
    assert html.count('class="term"') == 1


def test_a_stem_ending_in_dollar_marks_only_that_whole_word() -> None:
    king = Term(key="king", stems=("király$", "királyt"), title="king")
    queen = Term(key="queen", stems=("királynő",), title="queen")
    matcher = GlossaryMatcher([king, queen])
    assert matcher.term_for("király") == king
    assert matcher.term_for("Királyt") == king
    assert matcher.term_for("királynőt") == queen
    html = render("A királyság és a királyi kert.", matcher)
    assert "term" not in html


def shipped_matcher(slug: str, language: str) -> GlossaryMatcher:
    entries = json.loads((CONTENT_DIR / slug / "glossary.json").read_text())
    return GlossaryMatcher(
        Term(key=e["key"], stems=tuple(e["stems"][language]), title="") for e in entries
    )


def marked(matcher: GlossaryMatcher, word: str) -> str | None:
    term = matcher.term_for(word) if matcher.pattern and matcher.pattern.fullmatch(word) else None
    return term.key if term else None


def test_hanging_gardens_king_is_marked_in_its_base_form_without_hitting_other_words() -> None:
    hu = shipped_matcher("hanging-gardens", "hu")
    assert [marked(hu, w) for w in ("király", "királyt", "királynő", "királyság", "királyi")] == [
        "king",
        "king",
        "queen",
        None,
        None,
    ]
    pl = shipped_matcher("hanging-gardens", "pl")
    words = ("król", "króla", "królowa", "królik", "królestwo", "królewski")
    assert [marked(pl, w) for w in words] == ["king", "king", "queen", None, None, None]


def test_a_site_blockquote_becomes_a_labelled_note_in_the_texts_language() -> None:
    html = render("> [!site] This site lays the quarry out as 16 stacks.", language="hu")
    assert '<aside class="site-note">' in html
    assert '<p class="site-note-label">Az oldal megjegyzése</p>' in html
    assert "<p>This site lays the quarry out as 16 stacks.</p>" in html
    assert "[!site]" not in html and "<blockquote>" not in html


def test_a_site_note_keeps_all_its_paragraphs_and_a_plain_quote_stays_a_quote() -> None:
    html = render("> [!site]\n>\n> First.\n>\n> Second.\n\n> A quotation.", language="pl")
    note = html[html.index("<aside") : html.index("</aside>")]
    assert "Uwaga serwisu" in note and "<p>First.</p>" in note and "<p>Second.</p>" in note
    assert "<blockquote>\n<p>A quotation.</p>\n</blockquote>" in html


def test_the_marker_only_counts_at_the_start_of_a_blockquote() -> None:
    html = render("Write [!site] here.\n\n> Quoted [!site] text.", language="en")
    assert "site-note" not in html
    assert "[!site]" in html


def test_editors_cannot_forge_a_site_note_or_its_label() -> None:
    html = render(
        '<aside class="site-note">x</aside>\n\n<p class="site-note-label">y</p>\n\n> [!site] ok',
        language="en",
    )
    assert html.count("<aside") == 1
    assert html.count('<p class="site-note-label">') == 1
    assert "&lt;aside" in html


def test_the_label_of_a_site_note_is_never_marked_as_a_glossary_term() -> None:
    note = Term(key="note", stems=("note",), title="note")
    html = render("> [!site] A note about the quarry.", GlossaryMatcher([note]), language="en")
    assert '<p class="site-note-label">Note from this site</p>' in html
    assert '<p>A <a class="term"' in html
