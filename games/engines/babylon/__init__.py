"""Babylon (Olivier Grégoire, Geek Attitude Games 2024), rules per `games/babylon.md`.

Seat 0 is always the first player (spec §2.1 step 5): seats are numbered from the first
player, so the website decides who sits where.
"""

from __future__ import annotations

from games.engines.babylon.engine import Babylon

ENGINE = Babylon()

__all__ = ["ENGINE", "Babylon"]
