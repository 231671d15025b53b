"""Markdown to safe HTML: markdown-it-py (CommonMark + tables), then nh3, then glossary marks.

Glossary terms are marked after sanitising, on text nodes only, and every piece of glossary data
that reaches the page is escaped here, so neither a section nor a glossary entry can inject markup.

The site's own words in a rulebook (notes, reconstructions, clarifications, readings of unreadable
words) have one marked form, a blockquote whose text starts with ``[!site]``::

    > [!site] This site lays the quarry out as 16 stacks in a 4 × 4 grid.

It becomes ``<aside class="site-note">`` with a label in the text's language. Raw HTML is off
and nh3 lets a ``class`` through only with exactly these values, so the marker is the only way
to get the box, and no text can dress itself up as one by other means.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from html import escape
from html.parser import HTMLParser

import nh3
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext
from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

SITE_MARKER = re.compile(r"^\[!site\][ \t]*\n?", re.IGNORECASE)
SITE_NOTE_CLASS = "site-note"
SITE_LABEL_CLASS = "site-note-label"


def _find_site_notes(state: StateCore) -> None:
    """Marks each blockquote whose first paragraph starts with ``[!site]`` and drops the marker."""
    tokens = state.tokens
    index = 0
    while index < len(tokens):
        token = tokens[index]
        first = tokens[index + 2] if index + 2 < len(tokens) else None
        if (
            token.type == "blockquote_open"
            and tokens[index + 1].type == "paragraph_open"
            and first is not None
            and first.type == "inline"
            and SITE_MARKER.match(first.content)
        ):
            token.meta["site_note"] = True
            closing = next(
                t
                for t in tokens[index + 1 :]
                if t.type == "blockquote_close" and t.level == token.level
            )
            closing.meta["site_note"] = True
            first.content = SITE_MARKER.sub("", first.content, count=1).lstrip()
            if not first.content:  # "> [!site]" alone on the first paragraph
                del tokens[index + 1 : index + 4]
        index += 1


def _blockquote_open(
    renderer: RendererHTML, tokens: list[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    if tokens[idx].meta.get("site_note"):
        label = escape(env.get("site_note_label") or gettext("Note from this site"))
        return f'<aside class="{SITE_NOTE_CLASS}">\n<p class="{SITE_LABEL_CLASS}">{label}</p>\n'
    return renderer.renderToken(tokens, idx, options, env)


def _blockquote_close(
    renderer: RendererHTML, tokens: list[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    if tokens[idx].meta.get("site_note"):
        return "</aside>\n"
    return renderer.renderToken(tokens, idx, options, env)


ALIGNMENT = re.compile(r"^text-align:\s*(left|right|center);?$")


def _cell_open(
    renderer: RendererHTML, tokens: list[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    """An aligned table cell gets a class, not markdown-it's style="text-align:...": the
    Content-Security-Policy (SECURE_CSP) lets no inline style apply."""
    token = tokens[idx]
    align = ALIGNMENT.match(str(token.attrGet("style") or ""))
    if align:
        del token.attrs["style"]
        token.attrSet("class", f"align-{align.group(1)}")
    return renderer.renderToken(tokens, idx, options, env)


_md = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")
_md.core.ruler.after("block", "site_note", _find_site_notes)
_md.add_render_rule("blockquote_open", _blockquote_open)
_md.add_render_rule("blockquote_close", _blockquote_close)
_md.add_render_rule("td_open", _cell_open)
_md.add_render_rule("th_open", _cell_open)

ALLOWED_TAGS = {
    "a",
    "abbr",
    "aside",
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
ALLOWED_ATTRIBUTES = {
    "a": {"href", "title"},
    "td": {"class"},
    "th": {"class"},
    "ol": {"start"},
    "aside": {"class"},
    "p": {"class"},
}
# The site-note box and the alignment of table cells are the only uses of class, and only with
# these exact values; no element may carry a style.
ALLOWED_CLASSES = {("aside", SITE_NOTE_CLASS), ("p", SITE_LABEL_CLASS)} | {
    (cell, f"align-{side}") for cell in ("td", "th") for side in ("left", "right", "center")
}


def _filter_attribute(element: str, attribute: str, value: str) -> str | None:
    if attribute == "class" and (element, value) not in ALLOWED_CLASSES:
        return None
    return value


def _stem_weight(words: tuple[tuple[str, bool], ...]) -> tuple[int, int]:
    """Longer stems first; at equal length a whole word beats a word beginning."""
    return sum(len(word) for word, _whole in words), sum(whole for _word, whole in words)


@dataclass(frozen=True, slots=True)
class Term:
    key: str
    stems: tuple[str, ...]
    title: str  # the term in every language, shown as a native tooltip


class GlossaryMatcher:
    """Finds glossary terms in text of one language; the longest stem wins where several fit.

    A stem marks every word that starts with it (Hungarian and Polish inflect at the end). A
    stem ending in ``$`` marks only that whole word: ``király$`` marks "király" but neither
    "királyság" nor "királyi", where a plain ``király`` stem would mark both. A stem of several
    words marks them together, as one link, and each of its words is a word beginning in the
    same way: ``pojedyncz filar`` marks "pojedynczy Filar" and "pojedynczych Filarów".
    """

    def __init__(self, terms: Iterable[Term]) -> None:
        stems: dict[tuple[tuple[str, bool], ...], Term] = {}
        for term in terms:
            for stem in term.stems:
                words = tuple(
                    (word[:-1], True) if word.endswith("$") else (word, False)
                    for word in stem.casefold().split()
                )
                if words and all(word for word, _whole in words) and words not in stems:
                    stems[words] = term
        self.stems = stems
        if not stems:
            self.pattern: re.Pattern[str] | None = None
            return
        alternatives = [
            r"\s+".join(re.escape(word) + (r"(?!\w)" if whole else r"\w*") for word, whole in words)
            for words in sorted(stems, key=_stem_weight, reverse=True)
        ]
        self.pattern = re.compile(r"(?<!\w)(?:" + "|".join(alternatives) + ")", re.IGNORECASE)

    def term_for(self, matched: str) -> Term | None:
        found = matched.casefold().split()
        best: Term | None = None
        best_weight = (-1, -1)
        for words, term in self.stems.items():
            if len(words) != len(found):
                continue
            fits = all(
                text == word if whole else text.startswith(word)
                for (word, whole), text in zip(words, found, strict=True)
            )
            if fits and _stem_weight(words) > best_weight:
                best, best_weight = term, _stem_weight(words)
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

    # Links, code, and headings: a heading names a part of the text, it is not a mention of a
    # term (and a link inside it would pull the reader away from the section it titles).
    SKIP = {"a", "code", "pre", "h1", "h2", "h3", "h4", "h5", "h6"}

    def __init__(self, matcher: GlossaryMatcher) -> None:
        super().__init__(convert_charrefs=True)
        self.matcher = matcher
        self.out: list[str] = []
        self.skipping: list[str] = []  # open elements whose text is never marked
        self.seen: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.SKIP or (tag == "p" and ("class", SITE_LABEL_CLASS) in attrs):
            self.skipping.append(tag)
        self.out.append(self.get_starttag_text() or "")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.out.append(self.get_starttag_text() or "")

    def handle_endtag(self, tag: str) -> None:
        if self.skipping and self.skipping[-1] == tag:
            self.skipping.pop()
        self.out.append(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        if self.skipping:
            self.out.append(escape(data, quote=False))
        else:
            self.out.append(self.matcher.mark(data, self.seen))


def site_note_label(language: str | None = None) -> str:
    """The label of a site note, in ``language`` (the text's language), else the page's."""
    if language is None:
        return gettext("Note from this site")
    with translation.override(language):
        return gettext("Note from this site")


def render(
    text: str, glossary: GlossaryMatcher | None = None, *, language: str | None = None
) -> SafeString:
    """Markdown to HTML that is safe to put on the page, with glossary terms marked.

    ``language`` is the language of ``text``: site notes are labelled in it.
    """
    html = nh3.clean(
        _md.render(text or "", {"site_note_label": site_note_label(language)}),
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
