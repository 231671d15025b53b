from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.forms import ProfileForm


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/profile.html", {"member": request.user})


@login_required
def profile_edit(request: HttpRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        translation.activate(user.language)
        messages.success(request, _("Your profile has been saved."))
        response = HttpResponseRedirect(reverse("accounts:profile"))
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME, user.language, max_age=settings.LANGUAGE_COOKIE_AGE
        )
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
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        samesite="Lax",
    )
    if request.user.is_authenticated:
        request.user.language = language
        request.user.save(update_fields=["language"])
    return response


@login_required
def notifications(request: HttpRequest) -> HttpResponse:
    notes = list(request.user.notifications.all()[:50])
    request.user.notifications.filter(read_at__isnull=True).update(read_at=timezone.now())
    return render(request, "accounts/notifications.html", {"notes": notes})
