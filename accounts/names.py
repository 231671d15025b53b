"""Names a member may not take: those that read as one of the site's bots or as an empty seat.

The site calls its bots "Easy bot", "Normal bot"... ("Könnyű gépi játékos" in Hungarian,
"Łatwy bot" in Polish), a member's seat a bot plays "<name> (played by a bot)", and an empty
seat "Open seat". A member named like that could pass for a bot, or for a seat nobody holds.
Usernames and display names are both checked (a member is shown by either), at sign-up and on
the profile page; the pages also mark bot seats with a badge no name can draw.
"""

from __future__ import annotations

import re
import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

# Whole words (accents and case ignored) that name a bot in the site's languages.
BOT_WORDS = {"bot", "bots", "robot", "robots"}
BOT_PHRASES = ("gepi jatekos",)  # Hungarian: "machine player", the site's word for a bot
BOT_SIGNS = ("🤖",)
# What an empty seat is called, in English, Hungarian and Polish.
EMPTY_SEAT_NAMES = {"open seat", "szabad hely", "wolne miejsce"}


def _words(name: str) -> str:
    """The name as plain lower-case words: accents dropped, anything else a space."""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(re.split(r"[\W_]+", bare.casefold())).strip()


def is_reserved_name(name: str) -> bool:
    if any(sign in name for sign in BOT_SIGNS):
        return True
    words = _words(name)
    if words in EMPTY_SEAT_NAMES:
        return True
    padded = f" {words} "
    if any(f" {phrase} " in padded for phrase in BOT_PHRASES):
        return True
    return any(word in BOT_WORDS for word in words.split())


def validate_member_name(name: str) -> None:
    if name and is_reserved_name(name):
        raise ValidationError(
            _("This name is reserved for the site's bots and empty seats. Please choose another."),
            code="reserved_name",
        )
