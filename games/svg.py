"""Small helpers for the server-drawn SVG of every game.

Drawing numbers never go through localisation: the board templates are rendered inside
`{% localize off %}` (templates/games/_board_frame.html), and what is built here as text uses
Python's own formatting, which always writes a decimal point.
"""

from __future__ import annotations

from collections.abc import Sequence


def view_box(points: Sequence[tuple[float, float]], pad: float) -> str:
    """A viewBox holding every point with `pad` around it."""
    if not points:
        return f"{-pad:.1f} {-pad:.1f} {2 * pad:.1f} {2 * pad:.1f}"
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    left, top = min(xs) - pad, min(ys) - pad
    return f"{left:.1f} {top:.1f} {max(xs) + pad - left:.1f} {max(ys) + pad - top:.1f}"
