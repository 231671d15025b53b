"""Finding members by what a member types: a display name or a username, in any language's
letters ("zoe" finds "Zoë", "lukasz" and "ŁUKASZ" find "Łukasz").

Both sides are folded in Python (case folding, accents and other marks dropped, and the few
letters that carry their stroke in the letter itself, such as ł, written plainly): SQLite's
LIKE folds only ASCII letters. A club has some hundreds of members, so every active member's
two names are read and folded for each search.
"""

from __future__ import annotations

import time
import unicodedata
from typing import Any

from django.conf import settings
from django.core.cache import cache

from accounts.models import User

# Letters that Unicode does not decompose into a base letter and a mark.
PLAIN = str.maketrans({"ł": "l", "đ": "d", "ø": "o", "ħ": "h", "ŀ": "l", "ı": "i", "æ": "ae"})
LIMIT = 10


def fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return bare.translate(PLAIN)


def find_members(query: str, *, exclude: set[int], limit: int = LIMIT) -> list[Any]:
    """Active members whose display name or username contains `query` (folded), names that
    begin with it first, then by name; at most `limit`, none of the ids in `exclude`."""
    wanted = fold(query.strip())
    if not wanted:
        return []
    found = []
    rows = User.objects.filter(is_active=True).values_list("pk", "username", "display_name")
    for pk, username, display_name in rows:
        if pk in exclude:
            continue
        names = [fold(display_name or ""), fold(username)]
        if any(wanted in name for name in names):
            starts = any(name.startswith(wanted) for name in names)
            found.append((not starts, fold(display_name or username), pk))
    found.sort()
    ids = [pk for _, _, pk in found[:limit]]
    members = User.objects.in_bulk(ids)
    return [members[pk] for pk in ids]


def allow_search(user: Any) -> bool:
    """Count one search of `user` in the current minute; False past `SEARCHES_PER_MINUTE`
    (README, "Limits"). The count lives in the shared cache, so every server counts alike."""
    key = count_key(user.pk, int(time.time() // 60))
    cache.add(key, 0, timeout=120)
    try:
        count = cache.incr(key)
    except ValueError:  # the count expired between add and incr: this is the minute's first
        cache.set(key, 1, timeout=120)
        count = 1
    return count <= settings.SEARCHES_PER_MINUTE


def count_key(user_id: int, minute: int) -> str:
    """The cache key of a member's searches in one minute (minutes since the epoch)."""
    return f"member-searches:{user_id}:{minute}"
