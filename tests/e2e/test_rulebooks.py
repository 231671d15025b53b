from __future__ import annotations

from typing import Any

import pytest

from rulebooks.importers import CONTENT_DIR, import_rulebook

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_babylon_side_by_side_in_hungarian_and_polish_with_glossary(
    asgi_server: str, new_page: Any
) -> None:
    import_rulebook(CONTENT_DIR / "babylon")  # the database is flushed between these tests
    page = new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"http://{asgi_server}/rules/babylon/compare/?left=hu&right=pl#dig")

    dig = page.locator("section.rb-row#dig")
    assert "Ásás" in dig.locator(".rb-left h2").inner_text()
    assert "Kopanie" in dig.locator(".rb-right h2").inner_text()
    left_box, right_box = (
        dig.locator(".rb-left").bounding_box(),
        dig.locator(".rb-right").bounding_box(),
    )
    assert left_box["x"] < right_box["x"]  # side by side on a wide screen
    assert abs(left_box["y"] - right_box["y"]) < 2

    popup = page.locator("#rb-term-popup")
    pillar_hu = page.locator('.rb-left .term[data-term="pillar"]').first
    pillar_hu.scroll_into_view_if_needed()
    pillar_hu.hover()
    popup.wait_for(state="visible")
    shown = popup.inner_text().casefold()
    assert "filar" in shown and "pillar" in shown and "oszlop" in shown

    # Following the term: the popup links to its row in the glossary, and so does the term.
    entry = page.locator("tr#term-pillar")
    popup.locator("a.rb-term-link").click()
    page.wait_for_url("**#term-pillar")
    assert_glossary_entry_reached(entry)
    popup.wait_for(state="hidden")

    page.goto(f"http://{asgi_server}/rules/babylon/compare/?left=hu&right=pl#dig")
    pillar_pl = page.locator('.rb-right .term[data-term="pillar"]').first
    pillar_pl.scroll_into_view_if_needed()
    pillar_pl.click()
    page.wait_for_url("**#term-pillar")
    assert_glossary_entry_reached(entry)

    # From the keyboard: focusing a term shows the popup, Escape closes it, Enter follows it.
    page.goto(f"http://{asgi_server}/rules/babylon/compare/?left=hu&right=pl#dig")
    pillar_hu.focus()
    popup.wait_for(state="visible")
    page.keyboard.press("Escape")
    popup.wait_for(state="hidden")
    page.keyboard.press("Enter")
    page.wait_for_url("**#term-pillar")
    assert_glossary_entry_reached(entry)
    assert errors == []

    # On a phone: side by side becomes stacked, and a tap shows the term before following it.
    phone = new_page(viewport={"width": 375, "height": 740}, has_touch=True, is_mobile=True)
    phone.goto(f"http://{asgi_server}/rules/babylon/compare/?left=hu&right=pl#dig")
    row = phone.locator("section.rb-row#dig")
    left_box, right_box = (
        row.locator(".rb-left").bounding_box(),
        row.locator(".rb-right").bounding_box(),
    )
    assert right_box["y"] >= left_box["y"] + left_box["height"] - 1  # stacked per section
    term = phone.locator('.rb-right .term[data-term="pillar"]').first
    term.scroll_into_view_if_needed()
    term.tap()
    phone_popup = phone.locator("#rb-term-popup")
    phone_popup.wait_for(state="visible")
    assert "oszlop" in phone_popup.inner_text().casefold()
    assert "#term-" not in phone.url  # the first tap only shows the term
    phone_popup.locator("a.rb-term-link").tap()
    phone.wait_for_url("**#term-pillar")
    assert_glossary_entry_reached(phone.locator("tr#term-pillar"))


def assert_glossary_entry_reached(entry: Any) -> None:
    assert entry.evaluate("row => row.matches(':target')")
    box = entry.bounding_box()
    viewport = entry.page.viewport_size
    assert box is not None and 0 <= box["y"] < viewport["height"]  # scrolled into view
    cells = [text.casefold() for text in entry.locator("td").all_inner_texts()]
    assert cells == ["pillar", "oszlop", "filar"]


def test_editor_edits_a_section_in_place_and_restores_the_previous_version(
    asgi_server: str, new_page: Any
) -> None:
    from django.contrib.auth.models import Group

    from rulebooks.models import SectionText
    from rulebooks.services import EDITORS_GROUP
    from tests.conftest import PASSWORD, make_user

    import_rulebook(CONTENT_DIR / "babylon")
    editor = make_user("edna", display_name="Edna")
    editor.groups.add(Group.objects.get_or_create(name=EDITORS_GROUP)[0])
    original = SectionText.objects.get(section__key="winner", language="en").body

    page = new_page()
    page.goto(f"http://{asgi_server}/accounts/login/?next=/rules/babylon/%3Flang%3Den")
    page.fill("input[name=login]", "edna")
    page.fill("input[name=password]", PASSWORD)
    page.locator("form button[type=submit]").last.click()
    page.wait_for_url("**/rules/babylon/?lang=en")

    section = page.locator("section#winner")
    section.locator(".rb-edit").click()
    form = section.locator("form.rb-edit-form")
    form.locator("textarea[name=body]").fill("The player with the **most points** wins.")
    form.locator("input[name=comment]").fill("shorter")
    form.locator(".rb-preview-button").click()
    assert section.locator(".rb-preview strong").inner_text() == "most points"
    form.locator(".rb-save").click()
    section.locator(".rb-body strong").wait_for()
    assert "most points" in section.locator(".rb-body").inner_text()
    assert page.url.endswith("/rules/babylon/?lang=en")  # edited in place, no reload

    section.get_by_role("link", name="History").click()
    page.locator("#revision-1 button", has_text="Restore").click()
    page.locator(".message").wait_for()
    assert SectionText.objects.get(section__key="winner", language="en").body == original
    assert page.locator("tr#revision-3").is_visible()
