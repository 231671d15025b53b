"""How deep the JSON that members send may nest: a move, or an exported game to import.

A move or a file nested a thousand levels deep fits easily in their size limits, and every
function that walks such a value recursively (checking its texts, storing it, rendering it)
fails with RecursionError, or with DEBUG on keeps a server thread busy drawing the error page.
Such a value is refused before anything walks it; this check uses its own stack, never
recursion. The deepest real move or export is a few levels deep.
"""

from __future__ import annotations

from typing import Any

MAX_DEPTH = 32


def too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """True when lists and objects nest more than `limit` levels deep in `value` (a plain
    value is 0 levels deep, `[]` and `{"type": "pass"}` one level)."""
    stack = [(value, 1)] if isinstance(value, dict | list) else []
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False
