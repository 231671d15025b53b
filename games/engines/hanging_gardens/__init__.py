"""The Hanging Gardens (Din Li, Hans im Glück 2008), rules per `games/hanging-gardens.md`.

Seat 0 holds the start player flower in round 1 (spec §2.1 step 6, §7.14): seats are
numbered from the first player, so the website draws who sits where.
"""

from __future__ import annotations

from games.engines.hanging_gardens.engine import HangingGardens

ENGINE = HangingGardens()

__all__ = ["ENGINE", "HangingGardens"]
