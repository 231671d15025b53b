"""Site addresses, kept once worked out.

Every board names the same few addresses (its rulebook, the move form's action, the deal's
check, the players' profiles) for every viewpoint of every move, and Django's `reverse` works
each out anew: its namespaces alone cost about as much as drawing a city's changed hexes. An
address depends only on the URL patterns, the script prefix and what is put into it, so it
is kept by all of them; the patterns change only when a test overrides `ROOT_URLCONF`, which
empties the kept ones.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Iterable

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.urls import get_script_prefix, get_urlconf
from django.urls import reverse as django_reverse


def reverse(viewname: str, args: Iterable[Hashable] = ()) -> str:
    """`django.urls.reverse(viewname, args=args)`, kept."""
    urlconf = get_urlconf() or settings.ROOT_URLCONF
    return _reverse(urlconf, get_script_prefix(), viewname, tuple(args))


@functools.lru_cache(maxsize=4096)
def _reverse(urlconf: str, prefix: str, viewname: str, args: tuple[Hashable, ...]) -> str:
    return django_reverse(viewname, urlconf=urlconf, args=args)


@receiver(setting_changed)
def _forget(setting: str, **_kwargs: object) -> None:
    if setting == "ROOT_URLCONF":
        _reverse.cache_clear()
