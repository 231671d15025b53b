from __future__ import annotations

from typing import Any

import pytest
from allauth.account.models import EmailAddress, EmailConfirmationHMAC

from accounts.models import User

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_visitor_signs_up_and_switches_to_hungarian(asgi_server: str, new_page: Any) -> None:
    page = new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"http://{asgi_server}/")
    assert page.locator("#game-akropolis").is_visible()

    page.get_by_role("link", name="Sign up").first.click()
    page.fill("input[name=username]", "erzsi")
    page.fill("input[name=email]", "erzsi@example.com")
    page.fill("input[name=password1]", "a long enough passphrase 7")
    page.fill("input[name=password2]", "a long enough passphrase 7")
    page.fill("input[name=display_name]", "Erzsi")
    page.locator("form button[type=submit]").last.click()
    # Signing in waits for the e-mailed link (config/settings.py); it carries this key.
    page.wait_for_url("**/accounts/confirm-email/")
    address = EmailAddress.objects.get(email="erzsi@example.com")
    page.goto(f"http://{asgi_server}/accounts/confirm-email/{EmailConfirmationHMAC(address).key}/")
    page.locator("form button[type=submit]").last.click()
    page.wait_for_url(f"http://{asgi_server}/")
    assert page.locator(".site-header").get_by_role("link", name="Erzsi").is_visible()

    page.select_option("#language-select", "hu")
    page.wait_for_selector('html[lang="hu"]')
    assert page.get_by_role("link", name="Szabályok").first.is_visible()
    assert page.get_by_role("button", name="Kijelentkezés").is_visible()
    assert User.objects.get(username="erzsi").language == "hu"
    assert errors == []
