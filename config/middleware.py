"""Site-wide middleware."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


class MethodNotAllowedPage:
    """Answer a 405 (a view's `require_http_methods`) with a page of the site, not an empty
    body: a member who opens a form's address in the browser learns what to do instead."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 405 or response.content:
            return response
        page = render(request, "405.html", status=405)
        page["Allow"] = response.get("Allow", "")
        return page
