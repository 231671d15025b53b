"""Names a member may not take: those that read as one of the site's bots or as an empty seat.

The site calls its bots "Easy bot", "Normal bot"... ("Könnyű gépi játékos" in Hungarian,
"Łatwy bot" in Polish), a member's seat a bot plays "<name> (played by a bot)", and an empty
seat "Open seat". A member named like that could pass for a bot, or for a seat nobody holds.
Usernames and display names are both checked (a member is shown by either), at sign-up and on
the profile page; the pages also mark bot seats with a badge no name can draw.

Names are compared by what they look like, not by their code points: invisible characters
(zero-width spaces, soft hyphens, text-direction controls) are refused outright, and a name is
reduced to its confusable skeleton (Unicode's UTS #39, from ICU through PyICU), so that a
Cyrillic "о", a Greek "ο" or a digit "0" in "Hard bоt" counts as the "o" it shows, and then
compared without case, accents, spaces or punctuation with every reserved name in every
language of the site ("HardBot", "hard_b0t", "Nehéz gépijátékos").
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

import icu
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.translation import gettext_lazy as _

# Whole words that name a bot in the site's languages.
BOT_WORDS = ("bot", "bots", "robot", "robots")
BOT_PHRASES = ("gépi játékos",)  # Hungarian: "machine player", the site's word for a bot
BOT_SIGNS = ("🤖",)
# What the pages call the bots and an empty seat (the same texts as games.models.Seat.BotLevel
# and games.rendering), reserved in every language of the site.
RESERVED_NAMES = (_("Easy bot"), _("Normal bot"), _("Hard bot"), _("Open seat"))
# Unicode's format characters (zero-width space and joiners, soft hyphen, every bidirectional
# control) and control characters: a name holding one shows something else than it is.
INVISIBLE_CATEGORIES = ("Cf", "Cc")
# A name's words: runs of letters, or of digits ("Bot2" is "bot" and "2").
WORD = re.compile(r"[^\W\d_]+|\d+")

_spoof_checker = icu.SpoofChecker()


def has_invisible_characters(name: str) -> bool:
    return any(unicodedata.category(c) in INVISIBLE_CATEGORIES for c in name)


def _bare(text: str) -> str:
    """Lower case, compatibility forms unfolded (full-width, circled letters), accents dropped."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def looks_like(text: str) -> str:
    """What `text` looks like: invisible characters removed, then its UTS #39 skeleton without
    case or accents. Twice, because a skeleton can hold capitals again (that of "0" is "O")."""
    text = _bare("".join(c for c in text if unicodedata.category(c) not in INVISIBLE_CATEGORIES))
    for _round in range(2):
        text = _bare(_spoof_checker.getSkeleton(0, text))
    return text


def _words(text: str) -> list[str]:
    return WORD.findall(looks_like(text))


def _spellings(words: list[str]) -> set[str]:
    """Every run of consecutive words, written without the spaces between them: "Hard bot",
    "HardBot" and "hard_b0t" all spell "hardbot", and "Richard Bottomley" never does."""
    return {"".join(words[i:j]) for i in range(len(words)) for j in range(i + 1, len(words) + 1)}


@cache
def _reserved() -> frozenset[str]:
    """The reserved names in every language of the site, the bot phrases and the bot words,
    each as it looks (looks_like) and without spaces."""
    texts: list[str] = [*BOT_PHRASES, *BOT_WORDS]
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            texts.extend(str(name) for name in RESERVED_NAMES)
    return frozenset("".join(_words(text)) for text in texts)


def is_reserved_name(name: str) -> bool:
    if any(sign in name for sign in BOT_SIGNS):
        return True
    return not _reserved().isdisjoint(_spellings(_words(name)))


def validate_member_name(name: str) -> None:
    if name and has_invisible_characters(name):
        raise ValidationError(
            _(
                "Names cannot hold invisible characters (such as zero-width spaces, soft "
                "hyphens or text-direction marks). Please type the name again."
            ),
            code="invisible_character",
        )
    if name and is_reserved_name(name):
        raise ValidationError(
            _("This name is reserved for the site's bots and empty seats. Please choose another."),
            code="reserved_name",
        )
