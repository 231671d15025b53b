"""A request body the site cannot read at all gets the site's own 400 page, translated."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "title"),
    [
        ("en", "Request not understood"),
        ("hu", "A kérés nem értelmezhető"),
        ("pl", "Nie udało się odczytać żądania"),
    ],
)
def test_a_broken_upload_gets_the_sites_400_page(language: str, title: str) -> None:
    """Found by the fuzzer: a multipart body without a boundary was answered with Django's
    bare English 'Bad Request (400)'."""
    client = Client(headers={"accept-language": language})
    response = client.post(reverse("account_login"), b"abc", content_type="multipart/form-data")
    assert response.status_code == 400
    assert title in response.content.decode()
    assert reverse("home") in response.content.decode()  # the way back


def test_a_body_over_the_size_limit_gets_the_sites_400_page() -> None:
    response = Client().post(
        reverse("account_login"), {"login": "x" * (3 * 1024 * 1024), "password": "y"}
    )
    assert response.status_code == 400
    assert "Request not understood" in response.content.decode()
