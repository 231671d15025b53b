"""Readable diffs of two Markdown texts: by line (one paragraph is one line), then by word."""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from html import escape

from django.utils.safestring import SafeString, mark_safe

_WORDS = re.compile(r"\s+|[^\s]+")


@dataclass(frozen=True, slots=True)
class DiffRow:
    kind: str  # "same", "removed", "added" or "changed"
    html: SafeString


def _word_diff(old: str, new: str) -> str:
    a, b = _WORDS.findall(old), _WORDS.findall(new)
    out: list[str] = []
    for op, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            out.append(escape("".join(a[i1:i2])))
            continue
        if i2 > i1:
            out.append(f"<del>{escape(''.join(a[i1:i2]))}</del>")
        if j2 > j1:
            out.append(f"<ins>{escape(''.join(b[j1:j2]))}</ins>")
    return "".join(out)


def diff_rows(old: str, new: str, *, context: int | None = None) -> list[DiffRow]:
    """Rows of a diff from ``old`` to ``new``; with ``context``, unchanged runs are shortened."""
    a, b = old.splitlines(), new.splitlines()
    rows: list[DiffRow] = []
    for op, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            lines = a[i1:i2]
            if context is not None and len(lines) > 2 * context + 1:
                lines = [*lines[:context], "…", *lines[-context:]] if context else ["…"]
            rows.extend(DiffRow("same", mark_safe(escape(line))) for line in lines)  # noqa: S308
        elif op == "replace" and i2 - i1 == j2 - j1:
            for old_line, new_line in zip(a[i1:i2], b[j1:j2], strict=True):
                rows.append(DiffRow("changed", mark_safe(_word_diff(old_line, new_line))))  # noqa: S308
        else:
            rows.extend(DiffRow("removed", mark_safe(escape(line))) for line in a[i1:i2])  # noqa: S308
            rows.extend(DiffRow("added", mark_safe(escape(line))) for line in b[j1:j2])  # noqa: S308
    return rows


def title_and_body_rows(
    old_title: str, old_body: str, new_title: str, new_body: str, *, context: int | None = None
) -> list[DiffRow]:
    return diff_rows(
        f"## {old_title}\n\n{old_body}", f"## {new_title}\n\n{new_body}", context=context
    )
