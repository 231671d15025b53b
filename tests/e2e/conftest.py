"""Real-browser tests: Playwright driving Debian's Chromium (never a downloaded browser)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        if os.environ.get("REQUIRE_E2E"):
            pytest.fail(f"Chromium not found at {CHROMIUM} but REQUIRE_E2E is set")
        pytest.skip("Chromium is not installed (apt-get install chromium); .ci/run installs it")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop running in the test thread; the ORM calls that
    # tests make between browser steps are still plain synchronous code. Browser tests run last
    # (tests/conftest.py), so nothing else runs with this switch on.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser: Any) -> Iterator[Any]:
    """Each call opens a page in a fresh browser context (a separate visitor)."""
    contexts: list[Any] = []

    def open_page(**kwargs: Any) -> Any:
        kwargs.setdefault("locale", "en-GB")
        context = browser.new_context(**kwargs)
        context.set_default_timeout(20_000)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()
