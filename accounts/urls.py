from __future__ import annotations

from django.urls import path

from accounts import views
from games.views import members

app_name = "accounts"

urlpatterns = [
    path("me/", views.profile, name="profile"),
    path("me/edit/", views.profile_edit, name="profile-edit"),
    path("me/notifications/", views.notifications, name="notifications"),
    path("me/notifications/read/", views.notifications_read, name="notifications-read"),
    path("me/notifications/badge/", views.notifications_badge, name="notifications-badge"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("language/", views.set_language, name="set-language"),
    path("profile/<str:username>/", members.member, name="member"),
]
