from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts import mail, services
from accounts.forms import ProfileForm
from accounts.language import set_language_cookie
from accounts.models import User
from accounts.requests import MemberRequest


@login_required
def profile(request: MemberRequest) -> HttpResponse:
    return render(request, "accounts/profile.html", {"member": request.user})


@login_required
def profile_edit(request: MemberRequest) -> HttpResponse:
    # A POST with no fields at all is still a submission (and must show what is missing),
    # which `request.POST or None` would take for a first visit.
    form = ProfileForm(request.POST if request.method == "POST" else None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        translation.activate(user.language)
        messages.success(request, _("Your profile has been saved."))
        response = HttpResponseRedirect(reverse("accounts:profile"))
        set_language_cookie(response, user.language)
        return response
    return render(request, "accounts/profile_edit.html", {"form": form})


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """The switcher on every page: a cookie for everyone, and remembered for members."""
    language = request.POST.get("language", "")
    next_url = request.POST.get("next") or "/"
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = "/"
    response = HttpResponseRedirect(next_url)
    if language not in dict(settings.LANGUAGES):
        return response
    set_language_cookie(response, language)
    if request.user.is_authenticated:
        request.user.language = language
        request.user.save(update_fields=["language"])
    return response


@require_GET
@login_required
def notifications(request: MemberRequest) -> HttpResponse:
    """The member's notifications, newest first. Reading the page changes nothing: the
    "mark as read" button posts (a GET must not change data, and a link preview or a
    prefetch would otherwise clear the badge unseen)."""
    notes = list(request.user.notifications.all()[:50])
    return render(
        request,
        "accounts/notifications.html",
        {"notes": notes, "newest": notes[0].number if notes else 0},
    )


@require_POST
@login_required
def notifications_read(request: MemberRequest) -> HttpResponse:
    """Mark read what the page showed: up to the number it posts (all when it posts none)."""
    raw = request.POST.get("upto", "")
    upto = int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 9 else None
    if upto is None:
        upto = services.badge(request.user)["number"]
    services.mark_read(user=request.user, upto=upto)
    if request.htmx:
        return HttpResponseClientRedirect(reverse("accounts:notifications"))
    return HttpResponseRedirect(reverse("accounts:notifications"))


@require_GET
@login_required
def notifications_badge(request: MemberRequest) -> HttpResponse:
    """The badge over HTTP, for a page whose notification socket (re)connected or missed a
    message (DESIGN.md principle 7)."""
    return render(request, "accounts/_badge.html", {"badge": services.badge(request.user)})


@csrf_exempt  # the signed token is the credential; mail clients post RFC 8058's one click
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """The link at the foot of every e-mail. Opening it shows one button (a GET changes
    nothing: mail scanners open links); the button, or a mail client's one-click POST
    (List-Unsubscribe-Post), turns that kind of e-mail off. No sign-in needed."""
    found = mail.read_unsubscribe_token(token)
    member = User.objects.filter(pk=found[0]).first() if found is not None else None
    if found is None or member is None:
        return render(request, "accounts/unsubscribe.html", {"bad": True}, status=400)
    # In the member's language, as the e-mail was (the browser that opens the link may not be
    # signed in, or may be someone else's).
    with translation.override(member.language or settings.LANGUAGE_CODE):
        question, done = mail.UNSUBSCRIBE_WORDS[found[1]]
        context = {"token": token, "question": question, "done_text": done}
        if request.method == "POST":
            mail.unsubscribe(token)
            context["done"] = True
        response = render(request, "accounts/unsubscribe.html", context)
        response.headers["Content-Language"] = translation.get_language()
    return response
