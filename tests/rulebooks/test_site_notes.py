"""On the page: the site's notes are labelled boxes, explained once at the top of each book."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_a_book_explains_the_site_note_once_before_its_text_in_the_texts_language(
    client: Client, babylon: None
) -> None:
    html = client.get(reverse("rulebooks:book", args=["babylon"]) + "?lang=hu").content.decode()
    assert html.count('class="rb-site-note-help"') == 1
    help_box = html[html.index('class="rb-site-note-help"') :]
    assert help_box.startswith('class="rb-site-note-help" lang="hu">')
    assert "Az oldal megjegyzése" in help_box[: help_box.index("</p>")]
    assert html.index("rb-site-note-help") < html.index('class="rb-sections"')


def test_the_site_notes_of_a_text_are_labelled_boxes_in_its_language(
    client: Client, babylon: None
) -> None:
    html = client.get(reverse("rulebooks:book", args=["babylon"]) + "?lang=en").content.decode()
    sections = html[html.index('class="rb-sections"') :]
    assert sections.count('<aside class="site-note">') >= 5
    assert '<p class="site-note-label">Note from this site</p>' in sections
    assert "[!site]" not in sections


def test_side_by_side_explains_the_note_in_both_languages(client: Client, babylon: None) -> None:
    url = reverse("rulebooks:compare", args=["babylon"]) + "?left=hu&right=pl"
    html = client.get(url).content.decode()
    assert 'class="rb-site-note-help" lang="hu"' in html
    assert 'class="rb-site-note-help" lang="pl"' in html
    assert "Uwaga serwisu" in html
