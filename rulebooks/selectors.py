"""Read side of the rulebooks: language choice, sections ready to show, glossary, search."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import escape

from django.conf import settings
from django.db.models import Q
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language_info, gettext

from rulebooks.diff import DiffRow, title_and_body_rows
from rulebooks.markdown import GlossaryMatcher, Term, render
from rulebooks.models import GlossaryTerm, Rulebook, Section, SectionText, SiteNote
from rulebooks.services import LANGUAGE_CODES, out_of_date


def available_languages(book: Rulebook) -> list[str]:
    """Languages in which the rulebook has at least one section, in the site's language order."""
    present = set(
        SectionText.objects.filter(section__rulebook=book).values_list("language", flat=True)
    )
    return [code for code in LANGUAGE_CODES if code in present]


def choose_language(
    book: Rulebook, *, requested: str | None, preferred: str
) -> tuple[str, str | None]:
    """The language to show and why it is not the reader's one (None when it is).

    An explicit request is honoured even without a text ("not translated yet" is shown, with
    links); otherwise the reader's language, then English, then the original.
    """
    available = available_languages(book)
    if requested in LANGUAGE_CODES:
        return requested, (None if requested in available else "missing")
    for candidate in (preferred, "en", book.source_language, *available):
        if candidate in available:
            return candidate, (None if candidate == preferred else "fallback")
    return preferred, "missing"


def glossary_matcher(terms: list[GlossaryTerm], language: str) -> GlossaryMatcher:
    return GlossaryMatcher(
        Term(
            key=t.key,
            stems=tuple(t.stems.get(language) or [t.terms.get(language, "")]),
            title=" · ".join(t.terms[code] for code in LANGUAGE_CODES if t.terms.get(code)),
        )
        for t in terms
    )


def glossary_data(terms: list[GlossaryTerm]) -> dict[str, object]:
    """What the page script needs to show a term in the other languages (sent as JSON)."""
    return {
        "languages": {
            code: str(get_language_info(code)["name_translated"]) for code in LANGUAGE_CODES
        },
        "terms": {t.key: {"terms": t.terms, "notes": t.notes} for t in terms},
        "link": gettext("See it in the glossary"),
    }


@dataclass
class SectionItem:
    section: Section
    language: str
    text: SectionText | None
    html: SafeString = field(default_factory=lambda: mark_safe(""))
    stale: bool = False
    stale_diff: list[DiffRow] = field(default_factory=list)
    available: list[str] = field(default_factory=list)
    source: SectionText | None = None

    @property
    def key(self) -> str:
        return self.section.key

    @property
    def dom_id(self) -> str:
        return f"text-{self.language}-{self.section.key}"


class BookTexts:
    """Every section text of one rulebook, loaded once, to build items for any language."""

    def __init__(self, book: Rulebook) -> None:
        self.book = book
        self.sections = list(book.sections.all())
        self.texts: dict[tuple[int, str], SectionText] = {
            (t.section_id, t.language): t
            for t in SectionText.objects.filter(section__rulebook=book).select_related(
                "source_revision"
            )
        }
        self.terms = list(book.glossary.all())
        self._matchers: dict[str, GlossaryMatcher] = {}

    def matcher(self, language: str) -> GlossaryMatcher:
        if language not in self._matchers:
            self._matchers[language] = glossary_matcher(self.terms, language)
        return self._matchers[language]

    def item(self, section: Section, language: str) -> SectionItem:
        text = self.texts.get((section.pk, language))
        source = self.texts.get((section.pk, self.book.source_language))
        item = SectionItem(section=section, language=language, text=text, source=source)
        item.available = [
            code for code in LANGUAGE_CODES if (section.pk, code) in self.texts and code != language
        ]
        if text is None:
            return item
        item.html = render(text.body, self.matcher(language), language=language)
        if out_of_date(text, source) and source is not None and text.source_revision is not None:
            item.stale = True
            old = text.source_revision
            item.stale_diff = title_and_body_rows(
                old.title, old.body, source.title, source.body, context=1
            )
        return item

    def items(self, language: str) -> list[SectionItem]:
        return [self.item(section, language) for section in self.sections]

    def section(self, key: str) -> Section | None:
        return next((s for s in self.sections if s.key == key), None)


def site_note(book: Rulebook, language: str) -> tuple[SafeString, str]:
    """The "How this site plays it" box in ``language`` (else English, else any), and the
    language it is written in: the box is tagged with it and headed in it."""
    notes = {n.language: n for n in SiteNote.objects.filter(rulebook=book)}
    note = notes.get(language) or notes.get("en") or next(iter(notes.values()), None)
    if note is None:
        return mark_safe(""), language
    return render(note.body, language=note.language), note.language


# --- search -----------------------------------------------------------------------------------

WORD = re.compile(r"\w+")
START, STOP = "\x02", "\x03"  # never in a rulebook text; replaced by <mark> after escaping


@dataclass(frozen=True, slots=True)
class SearchHit:
    rulebook: Rulebook
    language: str
    key: str
    title: SafeString
    snippet: SafeString


def search_words(query: str) -> list[str]:
    return WORD.findall(query.casefold())[:8]


def search(query: str, *, limit: int = 50) -> list[SearchHit]:
    """Sections (any rulebook, any language) containing every word of the query, by prefix."""
    words = search_words(query)
    if not words:
        return []
    if settings.USING_POSTGRES:
        return _search_postgres(words, limit)
    return _search_simple(words, limit)


TABLE_RULE = re.compile(r"\|?(\s*:?-{3,}:?\s*\|)+\s*(:?-{3,}:?)?")
CELL_BARS = re.compile(r"\s*(\|\s*)+")
LIST_MARK = re.compile(r"(^|\n|\|)\s*(?:[-+*]|\d+\.)\s+")
EMPHASIS = re.compile(r"[*_`]+|^#+\s*|\n#+\s*")
# A site note's "> [!site]" (and a quotation's "> ") is markup, not words.
QUOTE_MARK = re.compile(r"(^|\n)[ \t]*>[ \t]?(\[!site\][ \t]*)?", re.IGNORECASE)
SPACES = re.compile(r"\s+")


def plain_excerpt(text: str) -> str:
    """A Markdown excerpt as a reader sees it: no table rules, bars, list marks, emphasis or
    heading signs, one line (a search hit shows words, not syntax)."""
    text = QUOTE_MARK.sub(r"\1", text)
    text = TABLE_RULE.sub(" ", text)
    text = LIST_MARK.sub(r"\1· ", text)
    text = EMPHASIS.sub(" ", text)
    text = CELL_BARS.sub(" · ", text)
    text = SPACES.sub(" ", text).strip()
    return re.sub(r"(· )+", "· ", text).strip(" ·")


def _marked(text: str) -> SafeString:
    safe = escape(text).replace(START, "<mark>").replace(STOP, "</mark>")
    return mark_safe(safe)  # noqa: S308 - everything but our own marks is escaped


def _search_postgres(words: list[str], limit: int) -> list[SearchHit]:
    from django.contrib.postgres.search import SearchHeadline, SearchQuery, SearchRank, SearchVector
    from django.db.models import Value
    from django.db.models.functions import Replace

    # The 'simple' configuration: PostgreSQL has a Hungarian stemmer but no Polish one, so
    # every language is matched the same way, by word prefix (oszlop finds oszlopot, filar
    # finds filary).
    raw = " & ".join(f"{word}:*" for word in words)
    query = SearchQuery(raw, config="simple", search_type="raw")
    vector = SearchVector("title", weight="A", config="simple") + SearchVector(
        "body", weight="B", config="simple"
    )
    texts = (
        SectionText.objects.annotate(document=vector, rank=SearchRank(vector, query))
        .filter(document=query)
        .annotate(
            snippet=SearchHeadline(
                # The site-note marker is markup: PostgreSQL would show "site]" in a fragment.
                Replace("body", Value("[!site]"), Value("")),
                query,
                config="simple",
                start_sel=START,
                stop_sel=STOP,
                max_words=30,
                min_words=12,
                max_fragments=2,
                fragment_delimiter=" … ",
            ),
            marked_title=SearchHeadline(
                "title",
                query,
                config="simple",
                start_sel=START,
                stop_sel=STOP,
                highlight_all=True,
            ),
        )
        .select_related("section__rulebook")
        .order_by("-rank", "section__rulebook__order", "section__order")[:limit]
    )
    return [
        SearchHit(
            rulebook=t.section.rulebook,
            language=t.language,
            key=t.section.key,
            title=_marked(t.marked_title),
            snippet=_marked(plain_excerpt(t.snippet)),
        )
        for t in texts
    ]


def _highlight(text: str, pattern: re.Pattern[str]) -> str:
    return pattern.sub(lambda m: f"{START}{m.group(0)}{STOP}", text)


def _search_simple(words: list[str], limit: int) -> list[SearchHit]:
    """SQLite: case-insensitive word-prefix matching in Python.

    SQLite's LIKE folds case for ASCII only, so the comparison is done here (a few hundred
    sections); the database narrows nothing it could get wrong.
    """
    patterns = [re.compile(r"(?<!\w)" + re.escape(word) + r"\w*", re.IGNORECASE) for word in words]
    hits: list[SearchHit] = []
    texts = SectionText.objects.select_related("section__rulebook").order_by(
        "section__rulebook__order", "section__order", "language"
    )
    for text in texts.filter(~Q(body="") | ~Q(title="")):
        haystack = f"{text.title}\n{text.body}"
        if not all(p.search(haystack) for p in patterns):
            continue
        title, body = text.title, text.body
        for pattern in patterns:
            title = _highlight(title, pattern)
        first = min((m.start() for p in patterns if (m := p.search(body))), default=0)
        start = max(0, body.rfind(" ", 0, max(0, first - 80)) + 1)
        excerpt = body[start : start + 240]
        for pattern in patterns:
            excerpt = _highlight(excerpt, pattern)
        prefix = "… " if start else ""
        suffix = " …" if start + 240 < len(body) else ""
        hits.append(
            SearchHit(
                rulebook=text.section.rulebook,
                language=text.language,
                key=text.section.key,
                title=_marked(title),
                snippet=_marked(prefix + plain_excerpt(excerpt) + suffix),
            )
        )
        if len(hits) >= limit:
            break
    return hits
