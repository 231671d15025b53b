from __future__ import annotations

from typing import Any

from allauth.account.models import EmailAddress
from django.contrib.auth.models import Group, Permission
from django.core.management.base import BaseCommand

from accounts.models import User

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "club-demo-2026"
EDITORS_GROUP = "Rulebook editors"
# The club's organisers: they set the seasons' dates (games/views/seasons.py).
ORGANISERS_GROUP = "Organisers"
# What an organiser may do: set the seasons and run tournaments.
ORGANISER_PERMISSIONS = [("games", "manage_seasons"), ("games", "organise_tournament")]


class Command(BaseCommand):
    help = "Create (or reset) the demo member, who is also a rulebook editor and an organiser."

    def handle(self, *args: Any, **options: Any) -> None:
        user, created = User.objects.get_or_create(
            username=DEMO_USERNAME,
            defaults={"display_name": "Demo", "email": "demo@example.com"},
        )
        user.set_password(DEMO_PASSWORD)
        user.save()
        # Signing in needs a confirmed address (config/settings.py); the demo has no mailbox.
        EmailAddress.objects.update_or_create(
            user=user, email=user.email, defaults={"verified": True, "primary": True}
        )
        editors, _ = Group.objects.get_or_create(name=EDITORS_GROUP)
        user.groups.add(editors)
        organisers, _ = Group.objects.get_or_create(name=ORGANISERS_GROUP)
        for app_label, codename in ORGANISER_PERMISSIONS:
            organisers.permissions.add(
                Permission.objects.get(content_type__app_label=app_label, codename=codename)
            )
        user.groups.add(organisers)
        verb = "Created" if created else "Ready"
        self.stdout.write(
            self.style.SUCCESS(
                f"{verb}: demo account '{DEMO_USERNAME}' / password '{DEMO_PASSWORD}' "
                f"(member of '{EDITORS_GROUP}' and '{ORGANISERS_GROUP}'). "
                "Bots ready at levels easy, normal and hard."
            )
        )
