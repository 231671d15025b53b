from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from rulebooks import services
from rulebooks.models import Revision, Section, SectionText
from tests.rulebooks.conftest import HTMX, login

pytestmark = pytest.mark.django_db


def url(name: str, lang: str = "hu", key: str = "dig", slug: str = "babylon") -> str:
    return reverse(f"rulebooks:{name}", args=[slug, lang, key])


def text_of(lang: str = "hu", key: str = "dig", slug: str = "babylon") -> SectionText:
    return SectionText.objects.get(section__rulebook__slug=slug, section__key=key, language=lang)


def edit_data(text: SectionText, body: str, **extra: object) -> dict:
    source = services.source_text(text.section)
    return {
        "title": text.title,
        "body": body,
        "comment": "test edit",
        "base_number": text.revision_number,
        "source_number": source.revision_number if source else "",
        **extra,
    }


def test_edit_form_is_an_htmx_partial(editor_client: Client, babylon: None) -> None:
    response = editor_client.get(url("section-edit"), headers=HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert 'hx-post="/rules/babylon/hu/dig/edit/"' in html
    assert 'action="/rules/babylon/hu/dig/edit/"' in html


def test_saving_creates_a_revision_with_author_and_comment(
    editor_client: Client, editor: User, babylon: None
) -> None:
    text = text_of()
    response = editor_client.post(
        url("section-edit"), edit_data(text, "Új szöveg az oszlopokról."), headers=HTMX
    )
    assert response.status_code == 200
    assert "<html" not in response.content.decode()
    assert "Új szöveg" in response.content.decode()
    text.refresh_from_db()
    assert text.body == "Új szöveg az oszlopokról."
    revision = text.revisions.get(number=text.revision_number)
    assert (revision.author, revision.comment, revision.origin) == (editor, "test edit", "edit")
    assert text.revisions.count() == 2


def test_saving_without_htmx_redirects_to_the_section(editor_client: Client, babylon: None) -> None:
    response = editor_client.post(url("section-edit"), edit_data(text_of(), "Sima űrlap."))
    assert response.status_code == 302
    assert response["Location"].endswith("/rules/babylon/?lang=hu#dig")


def test_preview_renders_without_saving(editor_client: Client, babylon: None) -> None:
    text = text_of()
    response = editor_client.post(
        url("section-preview"), edit_data(text, "**vastag**"), headers=HTMX
    )
    assert "<strong>vastag</strong>" in response.content.decode()
    text.refresh_from_db()
    assert text.revisions.count() == 1


def test_restore_brings_back_an_old_revision_as_a_new_one(
    editor_client: Client, babylon: None
) -> None:
    text = text_of()
    original = text.body
    editor_client.post(url("section-edit"), edit_data(text, "Rossz szöveg."), headers=HTMX)
    response = editor_client.post(url("section-restore"), {"number": 1})
    assert response.status_code == 302
    text.refresh_from_db()
    assert text.body == original
    assert text.revision_number == 3
    assert list(text.revisions.order_by("number").values_list("origin", flat=True)) == [
        "import",
        "edit",
        "restore",
    ]


def test_history_and_diff_show_what_changed(editor_client: Client, babylon: None) -> None:
    text = text_of()
    first, rest = text.body.split(" ", 1)
    body = f"Kotrás {rest}"
    editor_client.post(url("section-edit"), edit_data(text, body), headers=HTMX)
    history = editor_client.get(url("section-history")).content.decode()
    assert "Edna" in history and "test edit" in history
    diff = editor_client.get(url("section-diff"), {"a": 1, "b": 2}).content.decode()
    assert "<del>" in diff and "<ins>Kotrás" in diff


def test_saving_over_a_newer_revision_is_refused_and_keeps_my_text(
    editor_client: Client, editor: User, bob: User, rulebooks: None
) -> None:
    text = text_of()
    opened_at = text.revision_number
    services.save_section_text(
        section=text.section,
        language="hu",
        title=text.title,
        body="Bob változata.",
        author=bob,
        comment="",
        base_number=opened_at,
    )
    data = edit_data(text, "Edna változata.", base_number=opened_at)
    response = editor_client.post(url("section-edit"), data, headers=HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "rb-conflict" in html
    assert "Edna változata." in html  # kept in the form to merge
    assert "Bob változata." in html  # what changed meanwhile
    text.refresh_from_db()
    assert text.body == "Bob változata."
    # The form now carries the newest revision, so a merged save goes through.
    assert f'name="base_number" value="{text.revision_number}"' in html


def test_changed_original_marks_translation_out_of_date_until_updated(
    editor_client: Client, rulebooks: None
) -> None:
    pl_text = text_of("pl")
    assert "is-stale" not in editor_client.get(url("section", "pl"), headers=HTMX).content.decode()
    hu = text_of("hu")
    editor_client.post(
        url("section-edit"), edit_data(hu, hu.body + "\n\nÚj szabály."), headers=HTMX
    )

    html = editor_client.get(url("section", "pl"), headers=HTMX).content.decode()
    assert "is-stale" in html
    assert "<ins>Új szabály.</ins>" in html

    pl_text.refresh_from_db()
    editor_client.post(
        url("section-edit", "pl"),
        edit_data(pl_text, pl_text.body + "\n\nNowa zasada."),
        headers=HTMX,
    )
    assert "is-stale" not in editor_client.get(url("section", "pl"), headers=HTMX).content.decode()


def test_marking_a_translation_still_current_clears_out_of_date(
    editor_client: Client, babylon: None
) -> None:
    hu = text_of("hu")
    editor_client.post(url("section-edit"), edit_data(hu, hu.body + " (pontosítva)"), headers=HTMX)
    book = editor_client.get(
        reverse("rulebooks:book", args=["babylon"]), {"lang": "pl"}
    ).content.decode()
    assert "rb-badge stale" in book
    response = editor_client.post(url("section-mark-current", "pl"), headers=HTMX)
    assert response.status_code == 200
    assert "is-stale" not in response.content.decode()
    pl = text_of("pl")
    assert not services.out_of_date(pl, text_of("hu"))
    assert pl.revision_number == 1  # confirming writes no new text


def test_editor_can_start_a_missing_translation(editor_client: Client, rulebooks: None) -> None:
    data = {
        "title": "Przegląd",
        "body": "Tekst.",
        "comment": "",
        "base_number": 0,
        "source_number": 1,
    }
    response = editor_client.post(
        url("section-edit", "pl", "overview", "akropolis"), data, headers=HTMX
    )
    assert response.status_code == 200
    text = text_of("pl", "overview", "akropolis")
    assert text.source_revision == text_of("hu", "overview", "akropolis").revisions.get(number=1)


@pytest.mark.parametrize(
    ("name", "method"),
    [
        ("section-edit", "get"),
        ("section-edit", "post"),
        ("section-preview", "post"),
        ("section-restore", "post"),
        ("section-mark-current", "post"),
    ],
)
def test_non_editors_are_refused(
    name: str, method: str, carol: User, client: Client, babylon: None
) -> None:
    text = text_of("pl")
    data = {**edit_data(text, "Hacked."), "number": 1}
    for visitor in (client, login(carol)):
        response = getattr(visitor, method)(url(name, "pl"), data, headers=HTMX)
        assert response.status_code == 403
    text.refresh_from_db()
    assert text.body != "Hacked."
    assert text.revisions.count() == 1


def test_readers_see_no_edit_button(carol: User, editor_client: Client, babylon: None) -> None:
    book = reverse("rulebooks:book", args=["babylon"])
    assert "rb-edit" not in login(carol).get(book).content.decode()
    assert "rb-edit" in editor_client.get(book).content.decode()


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.seen.append((tag, attrs))


def test_xss_payload_in_a_section_is_neutralised(editor_client: Client, babylon: None) -> None:
    payload = (
        '<script>alert("x")</script>\n\n<img src=x onerror="alert(1)">\n\n'
        '[click](javascript:alert(2)) <a href="javascript:alert(3)" onclick="alert(4)">a</a>'
    )
    editor_client.post(url("section-edit", "en"), edit_data(text_of("en"), payload), headers=HTMX)
    html = editor_client.get(
        reverse("rulebooks:book", args=["babylon"]), {"lang": "en"}
    ).content.decode()
    section = html[html.index('id="dig"') : html.index('id="build-terraces"')]
    tags = Tags()
    tags.feed(section)
    assert "script" not in {tag for tag, _attrs in tags.seen}
    assert "img" not in {tag for tag, _attrs in tags.seen}
    for _tag, attrs in tags.seen:
        assert not [name for name, _value in attrs if name.startswith("on")]
        assert not [v for name, v in attrs if name == "href" and "javascript" in (v or "").lower()]
    assert "&lt;script&gt;" in section  # shown as text, harmlessly
    assert Revision.objects.filter(body=payload).exists()  # stored as written, only rendered safely


def test_unknown_language_or_section_is_404(client: Client, babylon: None) -> None:
    assert client.get(url("section-history", "de")).status_code == 404
    assert client.get(url("section-history", "hu", "nope")).status_code == 404
    assert Section.objects.filter(key="nope").count() == 0
