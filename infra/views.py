"""Site-wide pages: the favicon and the friendly error pages, in the reader's language."""

from __future__ import annotations

import sys

from django.db import OperationalError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template import loader
from django.templatetags.static import static


def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page says: the club's icon, from static."""
    return redirect(static("favicon.ico"), permanent=True)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """A request the site could not read at all (a broken upload, a body over the size
    limit): the site's own page, in the reader's language, instead of Django's bare one."""
    return render(request, "400.html", status=400)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    reason = str(exception) if exception is not None and str(exception) else ""
    return render(request, "403.html", {"reason": reason}, status=403)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form sent without its valid CSRF token, mostly from a page that outlived its session:
    the site's own page, in the reader's language, instead of Django's bare one."""
    return render(request, "403_csrf.html", status=403)


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return render(request, "404.html", status=404)


# Seconds a browser or a script is told to wait before trying again after a 503.
RETRY_AFTER_SECONDS = 5


def server_error(request: HttpRequest) -> HttpResponse:
    """The page of a request that failed. A request that could not get at the database (no
    connection free in the pool within DB_POOL_TIMEOUT, PostgreSQL restarting, SQLite locked:
    Django's OperationalError) gets 503 and a page saying to try again, not the 500 page: the
    site is busy, not broken. Django calls this handler while it handles the exception, which
    is where `sys.exc_info` finds it (as Django's own debug page does)."""
    # No context processors and no database here: whatever broke must not break this page too.
    if isinstance(sys.exc_info()[1], OperationalError):
        response = HttpResponse(loader.get_template("503.html").render(), status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    return HttpResponse(loader.get_template("500.html").render(), status=500)
