"""Content-Security-Policy: pages run only the site's own scripts and styles, so a script or
style that slipped into a page (a rulebook text, a member's name) would not run."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

from rulebooks.markdown import render
from tests.conftest import ROOT

TEMPLATES = ROOT / "templates"
INLINE_HANDLER = re.compile(r"""[\s"']on[a-z]+\s*=""", re.IGNORECASE)
SCRIPT_TAG = re.compile(r"<script\b[^>]*>", re.IGNORECASE)


def policy(page_header: str) -> dict[str, list[str]]:
    directives: dict[str, list[str]] = {}
    for part in page_header.split(";"):
        name, *values = part.split()
        directives[name] = values
    return directives


@pytest.mark.parametrize("path", ["/", "/rules/", "/accounts/login/", "/no/such/page/"])
def test_pages_allow_only_the_sites_own_scripts_and_styles(
    client: Client, db: None, path: str
) -> None:
    header = client.get(path).headers.get("Content-Security-Policy")
    assert header is not None
    rules = policy(header)
    assert rules["script-src"] == ["'self'"]
    assert rules["style-src"] == ["'self'"]
    assert rules["object-src"] == ["'none'"]
    assert rules["frame-ancestors"] == ["'none'"]
    assert "unsafe" not in header


def template_files() -> list[Path]:
    return sorted(p for p in TEMPLATES.rglob("*") if p.suffix in {".html", ".svg", ".txt"})


@pytest.mark.parametrize("template", template_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_template_has_an_inline_handler_script_or_style(template: Path) -> None:
    text = template.read_text()
    assert not INLINE_HANDLER.search(text), "an on…= handler: move it into static/js"
    for tag in SCRIPT_TAG.findall(text):
        assert "src=" in tag, f"an inline script: {tag}"
    assert "<style" not in text.lower(), "a <style> element: move it into static/css"
    assert not re.search(r"""\sstyle\s*=""", text), "a style= attribute: use a class"


@pytest.mark.django_db
def test_htmx_adds_no_inline_style_of_its_own(client: Client) -> None:
    """htmx would insert a <style> element for its request indicators; the policy blocks it,
    so htmx is told not to (the site's stylesheet has the rules instead)."""
    page = client.get("/").text
    assert '"includeIndicatorStyles": false' in page
    assert ".htmx-indicator" in (ROOT / "static" / "css" / "site.css").read_text()


def test_aligned_table_cells_use_classes_not_inline_styles() -> None:
    html = render("| left | mid | right |\n|:---|:---:|---:|\n| 1 | 2 | 3 |")
    assert "style=" not in html
    assert '<td class="align-left">1</td>' in html
    assert '<td class="align-center">2</td>' in html
    assert '<th class="align-right">right</th>' in html
