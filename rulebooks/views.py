"""Reading, comparing, searching and (for editors) editing the rulebooks."""

from __future__ import annotations

from typing import cast

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from infra.requests import HtmxRequest
from rulebooks import selectors, services
from rulebooks.diff import title_and_body_rows
from rulebooks.forms import RestoreForm, SectionTextForm
from rulebooks.markdown import render as render_markdown
from rulebooks.models import Rulebook, Section, SectionText
from rulebooks.services import LANGUAGE_CODES


def _book(slug: str) -> Rulebook:
    return get_object_or_404(Rulebook, slug=slug)


def _section(book: Rulebook, lang: str, key: str) -> Section:
    if lang not in LANGUAGE_CODES:
        raise Http404
    return get_object_or_404(Section, rulebook=book, key=key)


def _forbidden() -> HttpResponse:
    """Refuse a member who is not an editor: the site's 403 page says why (infra.views)."""
    raise PermissionDenied(_("Only rulebook editors can change the rules."))


def _book_url(book: Rulebook, lang: str, key: str = "") -> str:
    url = f"{reverse('rulebooks:book', args=[book.slug])}?lang={lang}"
    return f"{url}#{key}" if key else url


def _reader_language(request: HtmxRequest) -> str:
    code = getattr(request, "LANGUAGE_CODE", "en") or "en"
    return code if code in LANGUAGE_CODES else code.split("-")[0]


@require_GET
def index(request: HtmxRequest) -> HttpResponse:
    books = [
        {
            "book": book,
            "languages": selectors.available_languages(book),
            "coverage": services.coverage(book),
        }
        for book in Rulebook.objects.all()
    ]
    return render(request, "rulebooks/index.html", {"books": books})


@require_GET
def book(request: HtmxRequest, slug: str) -> HttpResponse:
    rulebook = _book(slug)
    preferred = _reader_language(request)
    language, reason = selectors.choose_language(
        rulebook, requested=request.GET.get("lang"), preferred=preferred
    )
    texts = selectors.BookTexts(rulebook)
    site_note, site_note_language = selectors.site_note(rulebook, language)
    ctx = {
        "book": rulebook,
        "title": rulebook.title_in(language),
        "language": language,
        "reason": reason,
        "preferred": preferred,
        "available": selectors.available_languages(rulebook),
        "items": texts.items(language),
        "site_note": site_note,
        "site_note_language": site_note_language,
        "terms": texts.terms,
        "glossary": selectors.glossary_data(texts.terms),
        "coverage": services.coverage(rulebook),
        "is_editor": services.is_editor(request.user),
    }
    return render(request, "rulebooks/book.html", ctx)


@require_GET
def compare(request: HtmxRequest, slug: str) -> HttpResponse:
    rulebook = _book(slug)
    available = selectors.available_languages(rulebook)
    left = request.GET.get("left")
    right = request.GET.get("right")
    if left not in LANGUAGE_CODES:
        left = rulebook.source_language
    if right not in LANGUAGE_CODES:
        preferred = _reader_language(request)
        others = [code for code in available if code != left]
        right = preferred if preferred in others else (others[0] if others else left)
    texts = selectors.BookTexts(rulebook)
    rows = [(s, texts.item(s, left), texts.item(s, right)) for s in texts.sections]
    ctx = {
        "book": rulebook,
        "left": left,
        "right": right,
        "languages": LANGUAGE_CODES,
        "available": available,
        "rows": rows,
        "terms": texts.terms,
        "glossary": selectors.glossary_data(texts.terms),
        "is_editor": services.is_editor(request.user),
    }
    return render(request, "rulebooks/compare.html", ctx)


@require_GET
def search(request: HtmxRequest) -> HttpResponse:
    query = request.GET.get("q", "").strip()[:200]
    hits = selectors.search(query) if query else []
    ctx = {"query": query, "hits": hits, "searched": bool(selectors.search_words(query))}
    return render(request, "rulebooks/search.html", ctx)


def _section_response(
    request: HtmxRequest, rulebook: Rulebook, section: Section, lang: str, message: str = ""
) -> HttpResponse:
    texts = selectors.BookTexts(rulebook)
    ctx = {
        "book": rulebook,
        "item": texts.item(section, lang),
        "is_editor": services.is_editor(request.user),
        "message": message,
    }
    return render(request, "rulebooks/_section_text.html", ctx)


@require_GET
def section(request: HtmxRequest, slug: str, lang: str, key: str) -> HttpResponse:
    rulebook = _book(slug)
    sec = _section(rulebook, lang, key)
    if not request.htmx:
        return redirect(_book_url(rulebook, lang, key))
    return _section_response(request, rulebook, sec, lang)


def _edit_context(
    request: HtmxRequest, rulebook: Rulebook, sec: Section, lang: str, form: SectionTextForm
) -> dict:
    text = sec.texts.filter(language=lang).first()
    source = services.source_text(sec)
    return {
        "book": rulebook,
        "section": sec,
        "language": lang,
        "text": text,
        "source": source if source is not None and source.language != lang else None,
        "form": form,
        "dom_id": f"text-{lang}-{sec.key}",
    }


def _render_edit(request: HtmxRequest, ctx: dict) -> HttpResponse:
    template = "rulebooks/edit.html#form" if request.htmx else "rulebooks/edit.html"
    return render(request, template, ctx)


@require_http_methods(["GET", "POST"])
def section_edit(request: HtmxRequest, slug: str, lang: str, key: str) -> HttpResponse:
    rulebook = _book(slug)
    sec = _section(rulebook, lang, key)
    if not services.is_editor(request.user):
        return _forbidden()
    if request.method == "GET":
        text = sec.texts.filter(language=lang).first()
        source = services.source_text(sec)
        initial = {
            "title": text.title if text else (source.title if source else ""),
            "body": text.body if text else "",
            "base_number": text.revision_number if text else 0,
            "source_number": source.revision_number if source else None,
        }
        return _render_edit(
            request, _edit_context(request, rulebook, sec, lang, SectionTextForm(initial=initial))
        )

    form = SectionTextForm(request.POST)
    if not form.is_valid():
        return _render_edit(request, _edit_context(request, rulebook, sec, lang, form))
    data = form.cleaned_data
    try:
        services.save_section_text(
            section=sec,
            language=lang,
            title=data["title"],
            body=data["body"],
            author=request.user,
            comment=data["comment"],
            base_number=data["base_number"],
            source_number=data["source_number"],
        )
    except services.StaleEdit as exc:
        return _render_conflict(request, rulebook, sec, lang, form, exc.current)
    except services.UnknownRevision:
        form.add_error(None, _("This text no longer exists. Reload the page and try again."))
        return _render_edit(request, _edit_context(request, rulebook, sec, lang, form))
    if request.htmx:
        return _section_response(request, rulebook, sec, lang, message=_("Saved."))
    messages.success(request, _("Saved."))
    return redirect(_book_url(rulebook, lang, key))


def _render_conflict(
    request: HtmxRequest,
    rulebook: Rulebook,
    sec: Section,
    lang: str,
    form: SectionTextForm,
    current: SectionText,
) -> HttpResponse:
    """Refuses the save but keeps the editor's text, with what changed meanwhile, to merge."""
    data = form.cleaned_data
    base = current.revisions.filter(number=data["base_number"]).first()
    posted = cast(QueryDict, form.data).dict()  # a bound form's data is the POST
    rebound = SectionTextForm(data={**posted, "base_number": current.revision_number})
    rebound.is_valid()
    ctx = _edit_context(request, rulebook, sec, lang, rebound)
    ctx["conflict"] = {
        "current": current,
        "author": current.revisions.filter(number=current.revision_number).first(),
        "changes": title_and_body_rows(
            base.title if base else "", base.body if base else "", current.title, current.body
        ),
    }
    return _render_edit(request, ctx)


@require_POST
def section_preview(request: HtmxRequest, slug: str, lang: str, key: str) -> HttpResponse:
    rulebook = _book(slug)
    sec = _section(rulebook, lang, key)
    if not services.is_editor(request.user):
        return _forbidden()
    texts = selectors.BookTexts(rulebook)
    form = SectionTextForm(request.POST)
    body = request.POST.get("body", "")
    ctx = _edit_context(request, rulebook, sec, lang, form)
    ctx["preview"] = render_markdown(body, texts.matcher(lang), language=lang)
    ctx["preview_title"] = request.POST.get("title", "")
    if request.htmx:
        return render(request, "rulebooks/edit.html#preview", ctx)
    form.is_valid()
    return render(request, "rulebooks/edit.html", ctx)


@require_GET
def section_history(request: HtmxRequest, slug: str, lang: str, key: str) -> HttpResponse:
    rulebook = _book(slug)
    sec = _section(rulebook, lang, key)
    text = get_object_or_404(SectionText, section=sec, language=lang)
    ctx = {
        "book": rulebook,
        "section": sec,
        "language": lang,
        "text": text,
        "revisions": text.revisions.select_related("author").order_by("-number"),
        "is_editor": services.is_editor(request.user),
    }
    return render(request, "rulebooks/history.html", ctx)


def _number(raw: str | None, default: int) -> int:
    try:
        return int(raw) if raw else default
    except ValueError:
        return default


@require_GET
def section_diff(request: HtmxRequest, slug: str, lang: str, key: str) -> HttpResponse:
    rulebook = _book(slug)
    sec = _section(rulebook, lang, key)
    text = get_object_or_404(SectionText, section=sec, language=lang)
    b_number = _number(request.GET.get("b"), text.revision_number)
    a_number = _number(request.GET.get("a"), b_number - 1)
    if a_number > b_number:
        a_number, b_number = b_number, a_number
    old = text.revisions.select_related("author").filter(number=a_number).first()
    new = text.revisions.select_related("author").filter(number=b_number).first()
    ctx = {
        "book": rulebook,
        "section": sec,
        "language": lang,
        "text": text,
        "old": old,
        "new": new,
        "rows": title_and_body_rows(old.title, old.body, new.title, new.body)
        if old and new
        else [],
        "is_editor": services.is_editor(request.user),
    }
    return render(request, "rulebooks/diff.html", ctx)


@require_POST
def section_restore(request: HtmxRequest, slug: str, lang: str, key: str) -> HttpResponse:
    rulebook = _book(slug)
    sec = _section(rulebook, lang, key)
    if not services.is_editor(request.user):
        return _forbidden()
    text = get_object_or_404(SectionText, section=sec, language=lang)
    form = RestoreForm(request.POST)
    history_url = reverse("rulebooks:section-history", args=[slug, lang, key])
    if not form.is_valid():
        messages.error(request, _("Choose a revision to restore."))
        return redirect(history_url)
    try:
        revision = services.restore_revision(
            text=text, number=form.cleaned_data["number"], author=request.user
        )
    except services.UnknownRevision:
        messages.error(request, _("That revision does not exist."))
        return redirect(history_url)
    messages.success(
        request,
        _("Revision %(old)s restored as revision %(new)s.")
        % {"old": form.cleaned_data["number"], "new": revision.number},
    )
    return redirect(history_url)


@require_POST
def section_mark_current(request: HtmxRequest, slug: str, lang: str, key: str) -> HttpResponse:
    rulebook = _book(slug)
    sec = _section(rulebook, lang, key)
    if not services.is_editor(request.user):
        return _forbidden()
    text = get_object_or_404(SectionText, section=sec, language=lang)
    services.mark_still_current(text=text)
    message = _("Marked as still matching the original.")
    if request.htmx:
        return _section_response(request, rulebook, sec, lang, message=message)
    messages.success(request, message)
    return redirect(_book_url(rulebook, lang, key))
