from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from rulebooks import services
from rulebooks.models import GlossaryTerm, Revision, Rulebook, Section, SectionText, SiteNote
from tests.conftest import make_user
from tests.rulebooks.conftest import login

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(babylon: None) -> Client:
    return login(make_user("root", is_staff=True, is_superuser=True))


@pytest.mark.parametrize(
    "model", [Rulebook, Section, SectionText, Revision, GlossaryTerm, SiteNote]
)
def test_admin_lists_and_opens_every_rulebook_model(admin_client: Client, model: type) -> None:
    info = (model._meta.app_label, model._meta.model_name)
    assert admin_client.get(reverse("admin:{}_{}_changelist".format(*info))).status_code == 200
    obj = model.objects.first()
    assert (
        admin_client.get(reverse("admin:{}_{}_change".format(*info), args=[obj.pk])).status_code
        == 200
    )


def change_url(text: SectionText) -> str:
    return reverse("admin:rulebooks_sectiontext_change", args=[text.pk])


def opened_form(client: Client, text: SectionText) -> dict[str, str]:
    """What the admin's change page posts back when the editor saves it unchanged."""
    html = client.get(change_url(text)).content.decode()
    return {
        "title": text.title,
        "body": text.body,
        "opened_revision": hidden_value(html, "opened_revision"),
        "revisions-TOTAL_FORMS": "0",
        "revisions-INITIAL_FORMS": "0",
    }


def hidden_value(html: str, name: str) -> str:
    match = re.search(rf'<input type="hidden" name="{name}" value="(\d+)"', html)
    assert match, f"no hidden {name} on the page"
    return match.group(1)


def test_saving_a_text_in_the_admin_keeps_the_history(admin_client: Client) -> None:
    text = SectionText.objects.get(section__key="winner", language="en")
    data = {**opened_form(admin_client, text), "body": "Changed in the admin."}
    response = admin_client.post(change_url(text), data)
    assert response.status_code == 302
    text.refresh_from_db()
    assert text.body == "Changed in the admin."
    assert text.revisions.count() == 2


def test_admin_refuses_to_save_over_a_revision_made_after_it_was_opened(
    admin_client: Client, editor: User
) -> None:
    text = SectionText.objects.get(section__key="winner", language="en")
    data = {**opened_form(admin_client, text), "body": "Root's version."}
    services.save_section_text(
        section=text.section,
        language="en",
        title=text.title,
        body="Edna's version.",
        author=editor,
        comment="meanwhile",
        base_number=text.revision_number,
    )

    response = admin_client.post(change_url(text), data)

    html = response.content.decode()
    assert response.status_code == 200
    assert "Not saved: someone saved revision 2 of this text after you opened revision 1" in html
    assert "Root&#x27;s version." in html  # the editor's text is kept to merge
    text.refresh_from_db()
    assert text.body == "Edna's version."
    assert text.revisions.count() == 2

    # Having merged, the editor saves again from the page they were shown, and it goes through.
    merged = {**data, "body": "Merged.", "opened_revision": hidden_value(html, "opened_revision")}
    assert admin_client.post(change_url(text), merged).status_code == 302
    text.refresh_from_db()
    assert (text.body, text.revision_number) == ("Merged.", 3)


@pytest.fixture
def stale_polish(editor: User) -> SectionText:
    """The Polish "dig" section after the Hungarian original (the source) changed."""
    source = SectionText.objects.get(section__key="dig", language="hu")
    services.save_section_text(
        section=source.section,
        language="hu",
        title=source.title,
        body=source.body + "\n\nÚj mondat az eredetiben.",
        author=editor,
        comment="changed the original",
        base_number=source.revision_number,
    )
    polish = SectionText.objects.get(section__key="dig", language="pl")
    assert services.out_of_date(polish, services.source_text(polish.section))
    return polish


def test_admin_edit_of_a_translation_keeps_it_out_of_date(
    admin_client: Client, stale_polish: SectionText
) -> None:
    data = {**opened_form(admin_client, stale_polish), "body": "Poprawiona literówka."}
    assert admin_client.post(change_url(stale_polish), data).status_code == 302
    stale_polish.refresh_from_db()
    assert stale_polish.body == "Poprawiona literówka."
    assert services.out_of_date(stale_polish, services.source_text(stale_polish.section))


def test_admin_edit_marked_as_matching_the_original_clears_out_of_date(
    admin_client: Client, stale_polish: SectionText
) -> None:
    data = {
        **opened_form(admin_client, stale_polish),
        "body": stale_polish.body + "\n\nNowe zdanie z oryginału.",
        "translation_is_current": "on",
    }
    assert admin_client.post(change_url(stale_polish), data).status_code == 302
    stale_polish.refresh_from_db()
    assert not services.out_of_date(stale_polish, services.source_text(stale_polish.section))


def test_admin_can_mark_a_translation_current_without_changing_it(
    admin_client: Client, stale_polish: SectionText
) -> None:
    data = {**opened_form(admin_client, stale_polish), "translation_is_current": "on"}
    assert admin_client.post(change_url(stale_polish), data).status_code == 302
    stale_polish.refresh_from_db()
    assert stale_polish.revisions.count() == 1
    assert not services.out_of_date(stale_polish, services.source_text(stale_polish.section))
