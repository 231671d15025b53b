"""Site-wide pages: the home page and the friendly error pages."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template import loader

from games import catalog


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"games": catalog.games()})


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return render(request, "404.html", status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    # No context processors and no database here: whatever broke must not break this page too.
    return HttpResponse(loader.get_template("500.html").render(), status=500)
