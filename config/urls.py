from __future__ import annotations

from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from accounts.signup import padded_signup
from games.views.home import home
from infra import views

urlpatterns = [
    path("", home, name="home"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("accounts/signup/", padded_signup, name="account_signup"),  # before allauth's own
    path("accounts/", include("allauth.urls")),
    path("members/", include("accounts.urls")),
    path("rules/", include("rulebooks.urls")),
    path("games/", include("games.urls")),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
]

handler400 = "infra.views.bad_request"
handler403 = "infra.views.permission_denied"
handler404 = "infra.views.page_not_found"
handler500 = "infra.views.server_error"

if settings.DEBUG:
    urlpatterns += [path("404/", views.page_not_found, {"exception": None})]
