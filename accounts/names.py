"""Names a member may not take: those that render blank, and those that read as one of the
site's bots, as an empty seat or as the demo account.

The site calls its bots "Easy bot", "Normal bot"... ("Könnyű gépi játékos" in Hungarian,
"Łatwy bot" in Polish), a member's seat a bot plays "<name> (played by a bot)", an empty seat
"Open seat", and its demo account "demo". A member named like that could pass for a bot, for a
seat nobody holds, or for the account every newcomer tries. Usernames and display names are
both checked (a member is shown by either), at sign-up and on the profile page, and so are the
seat names of an imported game (games.services.transfer refuses the file and names the seat);
the pages also mark bot seats with a badge no name can draw.

Invisible characters are refused outright: Unicode's Default_Ignorable_Code_Point (zero-width
spaces and joiners, soft hyphen, the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0, which draw
as a blank, variation selectors...), read from ICU's property data, every other format and
control character (the text-direction controls among them), and the Braille blank U+2800. The
only space a name may hold is one ASCII space between two words.

A name is then compared by what it looks like, not by its code points: it is reduced to its
confusable skeleton (Unicode's UTS #39, from ICU), so that a Cyrillic "о", a Greek "ο" or a
digit "0" in "Hard bоt" counts as the "o" it shows, and compared without case, accents, spaces
or punctuation with every reserved name in every language of the site ("HardBot", "hard_b0t",
"Nehéz gépijátékos"). The skeleton keeps case and knows no small capitals, so two more steps:
the small capitals (ʙ, ᴏ, ᴛ...) become the letters they show, and the skeleton is taken both
of the name as typed (a Cyrillic capital "Ь" shows a "b", which its lower case "ь" does not)
and of the name in lower case (a capital "I" shows an "l" only where a lower-case "i" does
not); a name is reserved when either reading is.
"""

from __future__ import annotations

import contextlib
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
# The demo account `make run` creates (accounts/management/commands/create_demo.py): reserved
# as a whole name only ("Demo Dave" is free), and free for the demo account itself.
DEMO_ACCOUNT = "demo"
# Unicode's format characters (every bidirectional control among them) and control
# characters: a name holding one shows something else than it is.
INVISIBLE_CATEGORIES = ("Cf", "Cc")
# Characters that draw nothing though Unicode does not call them ignorable.
BLANK_CHARACTERS = frozenset("\u2800")  # BRAILLE PATTERN BLANK
SPACE_CATEGORIES = ("Zs", "Zl", "Zp")
# A name's words: runs of letters, or of digits ("Bot2" is "bot" and "2").
WORD = re.compile(r"[^\W\d_]+|\d+")

_spoof_checker = icu.SpoofChecker()
_ignorable = icu.UnicodeSet("[:Default_Ignorable_Code_Point:]")
_ignorable.freeze()  # read-only from here: safe to share between threads


def is_invisible(char: str) -> bool:
    return (
        unicodedata.category(char) in INVISIBLE_CATEGORIES
        or char in BLANK_CHARACTERS
        or _ignorable.contains(char)
    )


def has_invisible_characters(name: str) -> bool:
    return any(is_invisible(c) for c in name)


def has_bad_spacing(name: str) -> bool:
    """Anything but one ASCII space between two words: a space first or last, two in a row,
    or another kind of space (no-break, ideographic, em space, line separator...)."""
    if name != name.strip(" ") or "  " in name:
        return True
    return any(unicodedata.category(c) in SPACE_CATEGORIES and c != " " for c in name)


@cache
def _small_capitals() -> dict[int, str]:
    """Each Latin small capital (ʙ, ᴏ, ᴛ...) to the lower-case letter it shows, by the names
    Unicode gives them ("LATIN LETTER SMALL CAPITAL B")."""
    table = {}
    for letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
        with contextlib.suppress(KeyError):  # there is no small capital X
            table[ord(unicodedata.lookup(f"LATIN LETTER SMALL CAPITAL {letter}"))] = letter.lower()
    return table


def _bare(text: str) -> str:
    """Lower case, compatibility forms unfolded (full-width, circled letters, modifier
    letters), accents dropped, small capitals read as the letters they show."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return plain.translate(_small_capitals()).casefold()


def _skeleton(text: str) -> str:
    return _spoof_checker.getSkeleton(0, text)


def looks_like(text: str) -> tuple[str, str]:
    """What `text` looks like, read two ways: its UTS #39 skeleton taken of the text as typed
    and of the text in lower case, each then without case or accents. Twice over, because a
    skeleton can hold capitals again (that of "0" is "O")."""
    visible = "".join(c for c in text if not is_invisible(c))
    readings = []
    for reading in (_bare(_skeleton(visible)), _bare(visible)):
        for _round in range(2):
            reading = _bare(_skeleton(reading))
        readings.append(reading)
    return readings[0], readings[1]


def _words(text: str) -> list[list[str]]:
    return [WORD.findall(reading) for reading in looks_like(text)]


def _spellings(words: list[str]) -> set[str]:
    """Every run of consecutive words, written without the spaces between them: "Hard bot",
    "HardBot" and "hard_b0t" all spell "hardbot", and "Richard Bottomley" never does."""
    return {"".join(words[i:j]) for i in range(len(words)) for j in range(i + 1, len(words) + 1)}


@cache
def _reserved() -> frozenset[str]:
    """The reserved names in every language of the site, the bot phrases and the bot words,
    each as it looks (both readings of looks_like) and without spaces."""
    texts: list[str] = [*BOT_PHRASES, *BOT_WORDS]
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            texts.extend(str(name) for name in RESERVED_NAMES)
    return frozenset("".join(words) for text in texts for words in _words(text))


def is_reserved_name(name: str) -> bool:
    if any(sign in name for sign in BOT_SIGNS):
        return True
    return any(not _reserved().isdisjoint(_spellings(words)) for words in _words(name))


def is_demo_account_name(name: str) -> bool:
    demo = {"".join(words) for words in _words(DEMO_ACCOUNT)}
    return any("".join(words) in demo for words in _words(name))


def name_problem(name: str, *, account: str = "") -> str | None:
    """Why `name` cannot be a member's or a seat's name (a code of MESSAGES), or None.
    `account`: the username of the member who takes it (the demo account keeps its name)."""
    if not name:
        return None
    if has_invisible_characters(name):
        return "invisible_character"
    if has_bad_spacing(name):
        return "bad_spacing"
    if is_reserved_name(name):
        return "reserved_name"
    if is_demo_account_name(name) and account != DEMO_ACCOUNT:
        return "demo_account"
    return None


MESSAGES = {
    "invisible_character": _(
        "Names cannot hold invisible characters (such as zero-width spaces, soft "
        "hyphens or text-direction marks). Please type the name again."
    ),
    "bad_spacing": _(
        "Names may hold spaces only between words, one ordinary space at a time (none at the "
        "start or the end, and no other kind of space). Please type the name again."
    ),
    "reserved_name": _(
        "This name is reserved for the site's bots and empty seats. Please choose another."
    ),
    "demo_account": _("This name belongs to the site's demo account. Please choose another."),
}


def validate_member_name(name: str, *, account: str = "") -> None:
    problem = name_problem(name, account=account)
    if problem is not None:
        raise ValidationError(MESSAGES[problem], code=problem)
