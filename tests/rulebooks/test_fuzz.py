"""Fuzzing the rulebook editor (edit, preview, restore, mark as current) and the reading
pages' query strings, as an editor, as a member who is not one, and as a visitor.

Every answer is a redirect, a 4xx that says why, or the editor's form again (200) with its
error; a preview answers 200 with the text as it would read. Never a 500; a member who is
not an editor changes no text, and nobody's input changes a game.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from accounts.models import User
from rulebooks.models import Revision, SectionText
from tests.fuzzing import (
    FIELD,
    FUZZ,
    HUGE,
    RAW_BODY,
    TEXT,
    assert_answer,
    form_data,
    one_megabyte_form,
    post_any,
    snapshot,
)
from tests.games.conftest import build_game, play_random_moves
from tests.rulebooks.conftest import login

pytestmark = [pytest.mark.django_db, pytest.mark.fuzz]

EDIT_FIELDS = ["title", "body", "comment", "base_number", "source_number"]
ACTIONS = {
    "rulebooks:section-edit": EDIT_FIELDS,
    "rulebooks:section-preview": EDIT_FIELDS,
    "rulebooks:section-restore": ["number"],
    "rulebooks:section-mark-current": ["next"],
}
# Numbers as a form posts them: the revision numbers of a text, and far beyond.
NUMBER = st.integers(-2, 5).map(str) | HUGE.map(str) | FIELD


def texts() -> list[Any]:
    return list(SectionText.objects.order_by("pk").values()) + [Revision.objects.count()]


@pytest.fixture
def setting(babylon: None, alice: User, bob: User) -> None:
    play_random_moves(build_game(alice, bob, seed=61), count=3)


def section_args() -> st.SearchStrategy[list[str]]:
    return st.tuples(
        st.just("babylon"),
        st.sampled_from(["hu", "pl", "en"]) | TEXT.filter(lambda t: t and "/" not in t),
        st.sampled_from(["setup", "dig", "overview", "no-such-section"]),
    ).map(list)


def test_editor_forms_never_fail(setting: None, editor: User, alice: User) -> None:
    users = {"editor": editor, "member": alice, "visitor": None}

    @FUZZ
    @given(
        who=st.sampled_from(sorted(users)),
        action=st.sampled_from(sorted(ACTIONS)),
        args=section_args(),
        data=st.data(),
        htmx=st.booleans(),
    )
    def fuzz(who: str, action: str, args: list[str], data: st.DataObject, htmx: bool) -> None:
        fields = ACTIONS[action]
        numbers = dict.fromkeys(("base_number", "source_number", "number"), NUMBER)
        chosen = st.fixed_dictionaries({}, optional={n: numbers.get(n, FIELD) for n in fields})
        payload: Any = data.draw(
            st.tuples(chosen, form_data(fields)).map(lambda p: {**p[1], **p[0]}) | RAW_BODY
        )
        try:
            url = reverse(action, args=args)
        except Exception:  # a language the URL pattern cannot hold: nothing to post to
            return
        before, before_texts = snapshot(), texts()
        # A client of its own: no message left in the session by an earlier example.
        client = login(users[who]) if users[who] else Client()
        response = post_any(client, url, payload, htmx=htmx)
        if action == "rulebooks:section-preview" and response.status_code == 200:
            assert who == "editor"  # the text as it would read: not a refusal
        elif response.status_code == 200 and b'class="message success"' in response.content:
            # Input that happened to be valid (or none needed: mark as current) is saved,
            # and htmx gets the section with "Saved." in its place.
            assert who == "editor"
        else:
            assert_answer(response, form_page=action == "rulebooks:section-edit")
        assert snapshot() == before
        if who != "editor":
            assert texts() == before_texts

    fuzz()


def test_megabyte_edits_never_fail(setting: None, editor: User) -> None:
    before = snapshot()
    for action, fields in ACTIONS.items():
        response = login(editor).post(
            reverse(action, args=["babylon", "en", "setup"]), one_megabyte_form(fields)
        )
        assert response.status_code < 500
    assert snapshot() == before


def test_query_strings_of_the_rulebook_pages_never_fail(setting: None, editor: User) -> None:
    clients = [login(editor), Client()]
    pages = {
        "rulebooks:index": [],
        "rulebooks:search": [],
        "rulebooks:book": ["babylon"],
        "rulebooks:compare": ["babylon"],
        "rulebooks:section": ["babylon", "hu", "setup"],
        "rulebooks:section-edit": ["babylon", "en", "setup"],
        "rulebooks:section-history": ["babylon", "hu", "setup"],
        "rulebooks:section-diff": ["babylon", "hu", "setup"],
    }

    @FUZZ
    @given(
        client=st.sampled_from(clients),
        page=st.sampled_from(sorted(pages)),
        query=st.dictionaries(
            st.sampled_from(["q", "lang", "left", "right", "a", "b"]) | TEXT,
            NUMBER | FIELD,
            max_size=3,
        ),
        htmx=st.booleans(),
    )
    def fuzz(client: Client, page: str, query: dict[str, Any], htmx: bool) -> None:
        before, before_texts = snapshot(), texts()
        headers = {"HX-Request": "true"} if htmx else {}
        response = client.get(reverse(page, args=pages[page]), query, headers=headers)
        assert response.status_code < 500
        assert (snapshot(), texts()) == (before, before_texts)

    fuzz()


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "This form came incomplete from the page."),
        ("hu", "Ez az űrlap hiányosan érkezett az oldalról."),
        ("pl", "Ten formularz przyszedł ze strony niekompletny."),
    ],
)
def test_a_save_without_the_pages_revision_number_says_why(
    babylon: None, editor: User, language: str, message: str
) -> None:
    """Found by the fuzzer: a save without the hidden revision number was refused with the
    form shown again and no message (the page shows no errors of hidden fields)."""
    before = texts()
    editor.language = language  # a member reads the site in their own language
    editor.save(update_fields=["language"])
    client = login(editor)
    response = client.post(
        reverse("rulebooks:section-edit", args=["babylon", "hu", "setup"]), {"title": "0"}
    )
    assert response.status_code == 200
    assert message in response.content.decode()
    assert texts() == before
