"""Akropolis (Jules Messaud, Gigamic 2022), rules per `games/akropolis.md`.

Seat 0 is always the first Chief Architect (spec §2.2 step 4, A13): seats are numbered
from the first player, so the website decides who sits where, at random or by the host.
"""

from __future__ import annotations

from games.engines.akropolis.engine import Akropolis

ENGINE = Akropolis()

__all__ = ["ENGINE", "Akropolis"]
