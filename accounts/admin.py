from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.models import Notification, User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = (
        *(BaseUserAdmin.fieldsets or ()),
        (_("Club"), {"fields": ("display_name", "language")}),
    )
    list_display = ("username", "display_name", "email", "language", "is_staff", "date_joined")


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("user", "message", "created_at", "read_at")
    list_filter = ("read_at",)
