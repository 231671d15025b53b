from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

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


def test_saving_a_text_in_the_admin_keeps_the_history(admin_client: Client) -> None:
    text = SectionText.objects.get(section__key="winner", language="en")
    url = reverse("admin:rulebooks_sectiontext_change", args=[text.pk])
    data = {
        "title": text.title,
        "body": "Changed in the admin.",
        "revisions-TOTAL_FORMS": "0",
        "revisions-INITIAL_FORMS": "0",
    }
    response = admin_client.post(url, data)
    assert response.status_code == 302
    text.refresh_from_db()
    assert text.body == "Changed in the admin."
    assert text.revisions.count() == 2
