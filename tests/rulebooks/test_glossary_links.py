"""Glossary links read right: sentences from the rulebooks get exactly the links a reader expects.

Each case is a sentence (taken from, or written like, the rulebook texts) and the links it must
get, in order, as (the words linked, the glossary key). A multi-word term is one link; inflected
forms are linked; words that only start like a term are not. Sentences come from the books so
the shipped glossary stems are what is tested.
"""

from __future__ import annotations

import json
import re

import pytest

from rulebooks.importers import CONTENT_DIR
from rulebooks.markdown import GlossaryMatcher, Term, render

LINK = re.compile(r'<a class="term" href="#term-([\w-]+)"[^>]*>([^<]+)</a>')

CASES: dict[tuple[str, str], list[tuple[str, list[tuple[str, str]]]]] = {
    ("akropolis", "en"): [
        (
            "The player who most recently climbed a mountain takes the Chief Architect marker.",
            [("Chief Architect marker", "chief-architect")],
        ),
        (
            "Her house plazas show 3 stars in total.",
            [("house plazas", "plaza"), ("stars", "star")],
        ),
        ("A house plaza with 1 star in the middle.", [("house plaza", "plaza"), ("star", "star")]),
        (
            "A barracks scores only if it lies on the edge of your city.",
            [
                ("barracks", "barracks"),
                ("edge of your city", "city-edge"),
            ],
        ),
    ],
    ("akropolis", "hu"): [
        (
            "Ha egy építésznek nem maradt köve, az első lapkát kell elvennie.",
            [
                ("építésznek", "architect"),
                ("köve", "stone"),
                ("lapkát", "city-tile"),
                ("elvennie", "take-tile"),
            ],
        ),
        (
            "Cili 3 követ kell kifizetnie, a következő körben pedig 1 kő is elég.",
            [
                ("követ", "stone"),
            ],
        ),
        ("Azonnal elvesz 2 követ a készletből.", [("követ", "stone"), ("készletből", "supply")]),
        ("Ő magához veszi a főépítész-jelölőt.", [("főépítész-jelölőt", "chief-architect")]),
    ],
    ("akropolis", "pl"): [
        (
            "Każdy gracz dobiera kafelki z jednego stosu.",
            [("kafelki", "city-tile"), ("stosu", "stack")],
        ),
        ("Ten stosunek nie zmienia się.", []),
        ("Weź kamień z puli.", [("kamień", "stone"), ("puli", "supply")]),
        ("Domyślnie dom stoi obok domu.", [("dom", "house")]),
        (
            "Bierze znacznik Głównego Architekta.",
            [("znacznik Głównego Architekta", "chief-architect")],
        ),
        (
            "Wszystko policzycie w notesie do punktacji; reszta jest na pomocy gracza.",
            [("notesie do punktacji", "score-pad"), ("pomocy gracza", "player-aid")],
        ),
    ],
    ("babylon", "en"): [
        (
            "Put the single and double pillars into the supply.",
            [
                ("double pillars", "double-pillar"),
                ("supply", "supply"),
            ],
        ),
        ("A staircase connects 2 stairs symbols.", [("staircase", "stairs")]),
        (
            "You gain 1 single pillar and a terrace tile.",
            [
                ("single pillar", "single-pillar"),
                ("terrace tile", "terrace-tile"),
            ],
        ),
    ],
    ("babylon", "hu"): [
        (
            "Bármikor kicserélhetsz 2 szimpla oszlopot 1 dupla oszlopra.",
            [
                ("szimpla oszlopot", "single-pillar"),
                ("dupla oszlopra", "double-pillar"),
            ],
        ),
        ("Ásd ki a legjobb kőzeteket a kőbányából.", [("kőbányából", "quarry")]),
    ],
    ("babylon", "pl"): [
        (
            "Na polach w Magazynie można przechować do 6 pojedynczych Filarów.",
            [
                ("polach", "field"),
                ("Magazynie", "storage-area"),
                ("pojedynczych Filarów", "single-pillar"),
            ],
        ),
        ("Wykopuj kamienie w poszukiwaniu najlepszych materiałów.", []),
        (
            "Weź 1 podwójny Filar z Puli Ogólnej.",
            [
                ("podwójny Filar", "double-pillar"),
                ("Puli Ogólnej", "supply"),
            ],
        ),
        (
            "Kafelek musi być umieszczony stroną Ogrodu do góry, a nie stroną Materiału.",
            [
                ("stroną Ogrodu", "garden-side"),
                ("stroną Materiału", "material-side"),
            ],
        ),
    ],
    ("hanging-gardens", "en"): [
        (
            "He places a temple and takes a point tile from the display.",
            [
                ("temple", "temple"),
                ("point tile", "point-tile"),
                ("display", "display"),
            ],
        ),
        ("An additional bonus: he draws a bonus tile.", [("bonus tile", "bonus-tile")]),
    ],
    ("hanging-gardens", "hu"): [
        (
            "A király és a királynő a királyság kertjében.",
            [
                ("király", "king"),
                ("királynő", "queen"),
            ],
        ),
        (
            "Építési telek bárhová kerülhet, és ő kapja meg a kezdőjátékos-virágot.",
            [
                ("Építési telek", "building-space"),
                ("kezdőjátékos-virágot", "start-player-flower"),
            ],
        ),
        (
            "A kertekhez a kertész, a kelyhekhez a pap tartozik, a papír nem.",
            [
                ("kertekhez", "garden-tile"),
                ("kertész", "gardener"),
                ("kelyhekhez", "chalice"),
                ("pap", "priest"),
            ],
        ),
        ("Kertépítés: a kert 2, 8 vagy 16 pontot ér.", [("kert", "garden-tile")]),
        # "bónusz" alone is any bonus; the glossary's term is the bonus tile only.
        (
            "Extra bónusz jár: a bónuszlapkát képpel lefelé teszi le.",
            [("bónuszlapkát", "bonus-tile")],
        ),
    ],
    ("hanging-gardens", "pl"): [
        ("Król i królowa w królestwie.", [("Król", "king"), ("królowa", "queen")]),
        (
            "Gracze na królewskie zlecenie projektują wiszące ogrody z kart budowy.",
            [("kart budowy", "building-card")],
        ),
        (
            "Za 5 płytek ogrodu dostaje 24 punkty, a treser zwierząt to płytka postaci.",
            [
                ("płytek ogrodu", "garden-tile"),
                ("treser zwierząt", "animal-handler"),
                ("płytka postaci", "person-tile"),
            ],
        ),
        (
            "Kładzie plac budowy i kartę startową; pierwszy gracz ma kwiat pierwszego gracza.",
            [
                ("plac budowy", "building-space"),
                ("kartę startową", "start-card"),
                ("kwiat pierwszego gracza", "start-player-flower"),
            ],
        ),
        # "premia" alone is any bonus; the glossary's term is the bonus tile only.
        (
            "Dodatkowa premia: płytkę premiową kładzie zakrytą, a innej premii nie ma.",
            [("płytkę premiową", "bonus-tile")],
        ),
    ],
    ("tower-of-babel", "en"): [
        (
            "The active player places their column on a wonder.",
            [
                ("column", "column"),
                ("wonder", "wonder"),
            ],
        ),
    ],
    ("tower-of-babel", "hu"): [
        (
            "Az aktív játékos, akinek a tornya a legalsó helyen van, elkezdi a körét.",
            [
                ("tornya", "column"),
            ],
        ),
        (
            "A piros játékos Bábel tornyára állítja a tornyát.",
            [
                ("Bábel tornyára", "wonder"),
                ("tornyát", "column"),
            ],
        ),
    ],
    ("tower-of-babel", "pl"): [
        ("Podwójna tura pozwala zagrać jeszcze raz.", [("Podwójna tura", "double-turn")]),
        (
            "Premia za krążki i karta akcji.",
            [
                ("Premia za krążki", "disc-bonus"),
                ("karta akcji", "action-card"),
            ],
        ),
    ],
}


def shipped_matcher(slug: str, language: str) -> GlossaryMatcher:
    entries = json.loads((CONTENT_DIR / slug / "glossary.json").read_text(encoding="utf-8"))
    return GlossaryMatcher(
        Term(key=e["key"], stems=tuple(e["stems"].get(language) or []), title="") for e in entries
    )


def links(html: str) -> list[tuple[str, str]]:
    return [(text, key) for key, text in LINK.findall(html)]


@pytest.mark.parametrize(
    ("slug", "language", "sentence", "expected"),
    [
        pytest.param(slug, language, sentence, expected, id=f"{slug}-{language}-{number}")
        for (slug, language), cases in CASES.items()
        for number, (sentence, expected) in enumerate(cases, start=1)
    ],
)
def test_a_sentence_gets_exactly_the_expected_glossary_links(
    slug: str, language: str, sentence: str, expected: list[tuple[str, str]]
) -> None:
    html = render(sentence, shipped_matcher(slug, language), language=language)
    assert links(html) == expected


def test_every_book_and_language_has_glossary_sentences() -> None:
    books = sorted(path.parent.name for path in CONTENT_DIR.glob("*/glossary.json"))
    assert sorted({(slug, lang) for slug, lang in CASES}) == [
        (slug, lang) for slug in books for lang in ("en", "hu", "pl")
    ]


HEADING = re.compile(r"<h([1-6])[^>]*>(.*?)</h\1>", re.DOTALL)


def test_a_heading_gets_no_glossary_link_and_the_term_is_linked_after_it() -> None:
    html = render(
        "### Építőkorong-bónusz\n\nAz építőkorong-bónusz kártya pontot ér.",
        shipped_matcher("tower-of-babel", "hu"),
        language="hu",
    )
    assert "<h3>Építőkorong-bónusz</h3>" in html
    assert links(html) == [("építőkorong-bónusz", "disc-bonus")]


@pytest.mark.parametrize(
    ("slug", "language"),
    [
        (slug, language)
        for slug in sorted({s for s, _l in CASES})
        for language in ("en", "hu", "pl")
    ],
)
def test_no_heading_of_a_shipped_text_holds_a_glossary_link(slug: str, language: str) -> None:
    text = (CONTENT_DIR / slug / f"{language}.md").read_text(encoding="utf-8")
    html = render(text, shipped_matcher(slug, language), language=language)
    headings = HEADING.findall(html)
    assert len(headings) > 1  # the title and at least the sections
    assert [body for _level, body in headings if 'class="term"' in body] == []
