"""What the fuzz tests share: strategies for malformed input, and the checks every answer
must pass (never a 500; a 4xx that says why, a redirect, or the form again with its error;
and no game changed by input that was refused).

The examples are derandomized, so a run in CI tries the same inputs as a run on a laptop,
and a failure can be replayed; 30 examples keep each test to a few seconds. To search
further, `FUZZ_EXAMPLES=2000` runs that many new, random examples per test.
"""

from __future__ import annotations

import json
import math
import os
from typing import Any

from django.http import HttpResponse
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from games.models import Game, Move, Seat

EXPLORE = int(os.environ.get("FUZZ_EXAMPLES", "0"))
FUZZ = settings(
    max_examples=EXPLORE or 30,
    deadline=None,
    database=None,
    derandomize=not EXPLORE,
    # The database fixtures are built once per test and shared by its examples on purpose:
    # every example checks that nothing in them changed.
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
    ],
)

ONE_MB = 1024 * 1024

# Text as a browser could send it (lone surrogates cannot be encoded into a request at all).
TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=30)
UNICODE = st.sampled_from(
    ["é", "ő", "ł", "😀", "\u202e", "\u200b", "\ufeff", "ᾈ", "Ａ", "①", "²", "\u0000", "\x7f"]
)
HUGE = st.integers(min_value=-(10**40), max_value=10**40) | st.sampled_from(
    [2**31, 2**31 - 1, 2**63, 2**63 - 1, -(2**63) - 1, 10**100, -1]
)
FLOATS = st.sampled_from([math.nan, math.inf, -math.inf, 0.5, -0.0, 1e308, 1.0])
SCALAR = st.none() | st.booleans() | HUGE | FLOATS | TEXT | UNICODE

# JSON of any shape, a few levels deep (the nesting limit itself is another test's subject).
JSON = st.recursive(
    SCALAR,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)

# One form field as posted: text of every kind, numbers written out, JSON written out.
FIELD = (
    TEXT
    | UNICODE
    | HUGE.map(str)
    | JSON.map(json.dumps)
    | st.sampled_from(
        ["", " ", "0", "-1", "1e999", "NaN", "Infinity", "null", "true", "[]", "{}", "0x10"]
    )
    | st.sampled_from(["9" * 5000, "é" * 3000, "<script>alert(1)</script>", "' OR 1=1 --"])
)
FIELD_VALUE = FIELD | st.lists(FIELD, min_size=2, max_size=3)  # a key sent several times

# Raw bodies in content types the forms were not made for (broken multipart, JSON, bytes).
RAW_BODY = st.tuples(
    st.sampled_from(
        [
            "application/json",
            "text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=xyz",
            "multipart/form-data",
            "application/octet-stream",
        ]
    ),
    st.binary(max_size=300) | JSON.map(lambda v: json.dumps(v).encode()),
)


def form_data(fields: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    """A form post: some of the form's own fields (others missing), maybe unknown keys, each
    value malformed in its own way."""
    return st.dictionaries(st.sampled_from(fields) | TEXT, FIELD_VALUE, max_size=len(fields) + 2)


def post_any(client: Any, url: str, payload: Any, *, htmx: bool = False) -> HttpResponse:
    """Post `payload`: a dict as a form, a (content type, bytes) pair as a raw body."""
    headers = {"HX-Request": "true"} if htmx else {}
    if isinstance(payload, tuple):
        content_type, body = payload
        return client.post(url, body, content_type=content_type, headers=headers)
    return client.post(url, payload, headers=headers)


def one_megabyte_form(fields: list[str]) -> dict[str, str]:
    """A form whose first field alone is a whole megabyte (under Django's 2.5 MB limit)."""
    return {name: ("x" * ONE_MB if n == 0 else "1") for n, name in enumerate(fields)}


def snapshot() -> dict[str, Any]:
    """Everything a refused request must leave as it was: every game row, every seat, the
    move log. (`updated_at` is included: a refusal must not even touch a row.)"""
    return {
        "games": list(Game.objects.order_by("pk").values()),
        "seats": list(Seat.objects.order_by("pk").values()),
        "moves": list(Move.objects.order_by("pk").values_list("pk", "game_id", "number")),
    }


# A form's error, a field's error, or a message of the messages framework (base.html).
ERROR_MARKERS = ('role="alert"', "errorlist", 'class="field-error"', 'class="message error"')


def assert_answer(response: HttpResponse, *, form_page: bool = False) -> None:
    """The site's answer to bad input: a 4xx page that says why, a redirect (the next page
    shows the message), or, where that is how the form answers (`form_page`), the form again
    with status 200 and its error marked."""
    status = response.status_code
    body = b"" if getattr(response, "streaming", False) else response.content
    assert status < 500, f"{status}: {body[:500]!r}"
    if 300 <= status < 400:
        assert response["Location"]
    elif status == 200 and response.has_header("HX-Redirect"):
        pass  # htmx's redirect (django-htmx's HttpResponseClientRedirect)
    elif status >= 400:
        assert body.strip(), f"{status} with an empty body"
        assert b"Traceback" not in body
    elif response.get("Content-Type", "").startswith("application/json"):
        # allauth answers a request sent as JSON in JSON: where to go next, or the form
        # with its errors.
        assert {"location", "form"} & set(json.loads(body)), body[:500]
    elif form_page:
        text = body.decode()
        assert any(marker in text for marker in ERROR_MARKERS), text[:2000]
    else:
        raise AssertionError(f"{status} where a refusal was expected: {body[:500]!r}")
