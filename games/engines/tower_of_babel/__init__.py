"""Tower of Babel (Reiner Knizia, Hans im Glück 2005), rules per `games/tower-of-babel.md`.

Seat 0 is the start player (spec §2.1 step 7): seats are numbered from the first player,
so the website decides who sits where, at random or by the host.
"""

from __future__ import annotations

from games.engines.tower_of_babel.engine import TowerOfBabel

ENGINE = TowerOfBabel()

__all__ = ["ENGINE", "TowerOfBabel"]
