"""Markdown to safe HTML: markdown-it-py (CommonMark + tables), then nh3, then glossary marks.

Glossary terms are marked after sanitising, on text nodes only, and every piece of glossary data
that reaches the page is escaped here, so neither a section nor a glossary entry can inject markup.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from html import escape
from html.parser import HTMLParser

import nh3
from django.utils.safestring import SafeString, mark_safe
from markdown_it import MarkdownIt

_md = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")

ALLOWED_TAGS = {
    "a",
    "abbr",
    "b",
    "blockquote",
    "br",
    "code",
    "del",
    "em",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "i",
    "li",
    "ol",
    "p",
    "pre",
    "strong",
    "sub",
    "sup",
    "table",
    "tbody",
    "td",
    "th",
    "thead",
    "tr",
    "ul",
}
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "td": {"style"}, "th": {"style"}, "ol": {"start"}}
# markdown-it aligns table cells with style="text-align:..."; nothing else may use style.
ALLOWED_STYLE = re.compile(r"^text-align:\s*(left|right|center);?$")


def _filter_attribute(element: str, attribute: str, value: str) -> str | None:
    if attribute == "style" and not ALLOWED_STYLE.match(value):
        return None
    return value


@dataclass(frozen=True, slots=True)
class Term:
    key: str
    stems: tuple[str, ...]
    title: str  # the term in every language, shown as a native tooltip


class GlossaryMatcher:
    """Finds glossary terms in text of one language; the longest stem wins where several fit.

    A stem marks every word that starts with it (Hungarian and Polish inflect at the end). A
    stem ending in ``$`` marks only that whole word: ``király$`` marks "király" but neither
    "királyság" nor "királyi", where a plain ``király`` stem would mark both.
    """

    def __init__(self, terms: Iterable[Term]) -> None:
        by_stem: dict[str, Term] = {}
        by_word: dict[str, Term] = {}
        for term in terms:
            for stem in term.stems:
                stem = " ".join(stem.casefold().split())
                target = by_stem
                if stem.endswith("$"):
                    stem, target = stem[:-1].rstrip(), by_word
                if stem and stem not in target:
                    target[stem] = term
        self.by_stem = by_stem
        self.by_word = by_word
        if not by_stem and not by_word:
            self.pattern: re.Pattern[str] | None = None
            return
        tails = [(stem, r"\w*") for stem in by_stem] + [(word, r"(?!\w)") for word in by_word]
        alternatives = [
            r"\s+".join(re.escape(part) for part in stem.split()) + tail
            for stem, tail in sorted(tails, key=lambda item: len(item[0]), reverse=True)
        ]
        self.pattern = re.compile(r"(?<!\w)(?:" + "|".join(alternatives) + ")", re.IGNORECASE)

    def term_for(self, matched: str) -> Term | None:
        folded = " ".join(matched.casefold().split())
        best: Term | None = self.by_word.get(folded)
        best_len = len(folded) if best is not None else -1
        for stem, term in self.by_stem.items():
            if folded.startswith(stem) and len(stem) > best_len:
                best, best_len = term, len(stem)
        return best

    def mark(self, text: str, seen: set[str] | None = None) -> str:
        """Escapes ``text`` and wraps the terms found in it.

        With ``seen``, a term already marked (in an earlier part of the same section) is left
        plain: the first mention is enough, and a page full of marks is hard to read.
        """
        if self.pattern is None:
            return escape(text, quote=False)
        out: list[str] = []
        last = 0
        for match in self.pattern.finditer(text):
            term = self.term_for(match.group(0))
            if term is None or (seen is not None and term.key in seen):
                continue
            if seen is not None:
                seen.add(term.key)
            out.append(escape(text[last : match.start()], quote=False))
            # A link to the term's row in the page's glossary: it works with no script and
            # from the keyboard; the page script adds the popup with the other languages.
            out.append(
                f'<a class="term" href="#term-{escape(term.key)}" data-term="{escape(term.key)}" '
                f'title="{escape(term.title)}">{escape(match.group(0), quote=False)}</a>'
            )
            last = match.end()
        out.append(escape(text[last:], quote=False))
        return "".join(out)


class _TermMarker(HTMLParser):
    """Re-emits sanitised HTML unchanged except for glossary marks in text nodes."""

    SKIP = {"a", "code", "pre"}

    def __init__(self, matcher: GlossaryMatcher) -> None:
        super().__init__(convert_charrefs=True)
        self.matcher = matcher
        self.out: list[str] = []
        self.skip_depth = 0
        self.seen: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.SKIP:
            self.skip_depth += 1
        self.out.append(self.get_starttag_text() or "")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.out.append(self.get_starttag_text() or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP and self.skip_depth:
            self.skip_depth -= 1
        self.out.append(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        if self.skip_depth:
            self.out.append(escape(data, quote=False))
        else:
            self.out.append(self.matcher.mark(data, self.seen))


def render(text: str, glossary: GlossaryMatcher | None = None) -> SafeString:
    """Markdown to HTML that is safe to put on the page, with glossary terms marked."""
    html = nh3.clean(
        _md.render(text or ""),
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer nofollow",
        attribute_filter=_filter_attribute,
    )
    if glossary is not None and glossary.pattern is not None:
        marker = _TermMarker(glossary)
        marker.feed(html)
        marker.close()
        html = "".join(marker.out)
    return mark_safe(html)  # noqa: S308 - sanitised by nh3 above; marks are escaped by Term
