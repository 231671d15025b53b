"""Incremental board updates: what changed between two drawings of one board, as htmx
out-of-band swaps (issue 37, "smaller messages").

A live board (games/live.py) is drawn once per revision, viewpoint and language. When a
socket's page holds the previous drawing of the same viewpoint and language, the hub can send
only the parts that changed. `board_patch(old, new)` gives that message, or None when the
whole board should go (the structure changed, text outside every part changed, or the parts
would be most of the board anyway).

The message, in order:

    <template hx-swap-oob="none:#game-board" data-patch-of="game-board"
              data-base-version="12" data-base-stamp="running.0.01b"
              class="game-board" data-version="13" data-stamp="running.0.01b" ...></template>
    <template hx-swap-oob="none:#bab-board" data-patch-of="bab-board" class="bab"
              data-phase="build"></template>             (a part whose attributes changed)
    <section class="recent-moves card" id="board-recent" ...>...</section>
    <figure class="city card" id="city-1">...</figure>     (each changed part, whole)

- The first element names the board it applies to: `data-base-version` and `data-base-stamp`
  are the revision and stamp of the board it was made from. Its other attributes are those
  of the new board's root element (the `#game-board` section: `data-version`, `data-stamp`,
  `data-phase` and the rest), which the page gives its root, dropping the ones it lacks.
- Each further template names a part whose start tag alone changed (its content is patched
  by the parts inside it); the page gives that element the template's attributes the same
  way. A template's own swap is `none`, so htmx leaves the page alone for it.
- Every other element is a part of the new board carrying an `id`, swapped in place of the
  page's element of that id (htmx's default out-of-band swap: outerHTML by id).

The browser (static/js/game.js) applies the message only when its board is exactly the base
(revision and stamp); otherwise it drops it and fetches the board over HTTP, as for a missed
revision (principle 7). The two drawings are always of the same viewpoint and language, so a
patch holds nothing the whole board it replaces would not (principle 4).

A part is an HTML element with an `id` outside any `<svg>` (so it parses alone, as htmx
parses a message), of a tag that is not bound to a parent (no `li`, `tr`, `option`...). Two
drawings are compared part by part: where the parts of an element come in the same order
and all the text between them is equal, only the changed parts are sent (looking into them
the same way); otherwise that element is sent whole. Before a message is returned, the parts
are put into the old text in place of the old ones, and the result must be the new text: a
patch that would not rebuild the board exactly is never sent.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

# Parts larger than this share of the new board: the whole board goes instead.
MOST_OF_THE_BOARD = 0.8

# Elements that parse on their own, outside their usual parent, as the same element.
PART_TAGS = frozenset(
    {
        "article",
        "aside",
        "details",
        "div",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "header",
        "nav",
        "ol",
        "p",
        "section",
        "span",
        "table",
        "ul",
    }
)
# Where a part cannot be: their content is not HTML (an HTML tag there is the foreign
# language's own), or not markup at all.
FOREIGN_TAGS = frozenset({"svg", "math"})
RAW_TEXT_TAGS = frozenset({"script", "style", "textarea"})

# Only the tags that matter are read: boards are mostly SVG shapes, which are skipped over. (A
# `>` inside an attribute's value ends a tag early here: Django escapes it in values, and a
# tag cut short only makes its element go whole, as its start tags' texts then differ.)
# The names are matched in either case letter by letter (`[dD][iI][vV]`): Python's regular
# expressions scan a board about a quarter faster so than with the IGNORECASE flag (which also
# let the Kelvin sign match a "k").


def _any_case(names: frozenset[str]) -> str:
    return "|".join("".join(f"[{c}{c.upper()}]" for c in name) for name in sorted(names))


_TAG_NAMES = _any_case(PART_TAGS | FOREIGN_TAGS | RAW_TEXT_TAGS)
TAG = re.compile(rf"<(?:!--.*?-->|(/?)({_TAG_NAMES})(?=[\s/>])([^>]*)>)", re.DOTALL)
# Inside an <svg> or <math> nothing is a part and only its end matters: the rest of the
# foreign element (most of a board's text) is passed over by this pattern, which finds only
# comments and the foreign tags themselves (nested ones counted, so the right end is found).
FOREIGN_TAG = re.compile(
    rf"<(?:!--.*?-->|(/?)({_any_case(FOREIGN_TAGS)})(?=[\s/>])([^>]*)>)", re.DOTALL
)
ID = re.compile(r"(?:^|\s)id=\"([^\"]*)\"")
TAG_NAME = re.compile(r"<[A-Za-z][A-Za-z0-9:-]*")


@dataclass
class Part:
    """An element with an id: where it starts, where its start tag ends, where it ends, and
    its own parts, in order."""

    id: str
    start: int
    open_end: int
    end: int = -1
    parts: list[Part] = field(default_factory=list)


@dataclass
class Board:
    text: str
    root: Part


# Boards read lately: the new board of a move is the old one of the next move's changes (the
# same text, kept by the hub), so each board is read once. (At most this many texts are held
# here besides the hub's own: about 5 MB of 40 kB boards.)
KEEP_READ = 128


@functools.lru_cache(maxsize=KEEP_READ)
def parse(text: str) -> Board | None:
    """The board's root element and its parts, or None when the text does not start with one
    element whose end can be found. The result is shared: it is never changed."""
    root: Part | None = None
    # Open elements: (tag, the part it is, if it is one).
    stack: list[tuple[str, Part | None]] = []
    parents: list[Part] = []
    foreign = 0
    raw_text = ""  # inside a script, style or textarea: only its end tag counts
    at = 0
    while (match := (FOREIGN_TAG if foreign else TAG).search(text, at)) is not None:
        at = match.end()
        closing, name, attributes = match.groups()
        if name is None:  # a comment
            continue
        tag = name.lower()
        if raw_text:
            if closing and tag == raw_text:
                raw_text = ""
            continue
        if closing:
            for depth in range(len(stack) - 1, -1, -1):
                if stack[depth][0] == tag:
                    break
            else:
                continue  # a stray end tag: a browser ignores it
            for open_tag, part in stack[depth:]:
                if open_tag in FOREIGN_TAGS:
                    foreign -= 1
                if part is not None:
                    part.end = match.end()
                    parents.pop()
            del stack[depth:]
            if not stack:
                break  # the root ended
            continue
        if root is None and text[: match.start()].strip():
            return None  # text before the root
        if attributes.endswith("/"):
            continue  # a foreign element closed at once
        if tag in RAW_TEXT_TAGS:
            raw_text = tag
            continue
        part = None
        found = ID.search(attributes) if tag in PART_TAGS and not foreign else None
        if found is not None or root is None:
            part = Part(found.group(1) if found else "", match.start(), match.end())
            if root is None:
                root = part
            else:
                parents[-1].parts.append(part)
            parents.append(part)
        if tag in FOREIGN_TAGS:
            foreign += 1
        stack.append((tag, part))
    if root is None or root.end < 0 or not root.id:
        return None
    return Board(text, root)


@dataclass
class Changes:
    """What turns one drawing into the other: parts sent whole, and parts (the root first)
    whose start tag alone changed, as (old part, new part)."""

    parts: list[tuple[Part, Part]] = field(default_factory=list)
    tags: list[tuple[Part, Part]] = field(default_factory=list)


def _compare(old: Board, new: Board, a: Part, b: Part, changes: Changes) -> bool:
    """Add to `changes` what turns `a` into `b` inside them; False when `a` and `b` differ
    outside their parts, so that they must be sent whole."""
    if [p.id for p in a.parts] != [p.id for p in b.parts]:
        return False
    # The text between the parts (after the start tag): equal, or the element goes whole.
    a_from, b_from = a.open_end, b.open_end
    for pa, pb in zip(a.parts, b.parts, strict=True):
        if old.text[a_from : pa.start] != new.text[b_from : pb.start]:
            return False
        a_from, b_from = pa.end, pb.end
    if old.text[a_from : a.end] != new.text[b_from : b.end]:
        return False
    for pa, pb in zip(a.parts, b.parts, strict=True):
        if old.text[pa.start : pa.end] == new.text[pb.start : pb.end]:
            continue
        if not _same_tag_name(old.text, pa, new.text, pb):
            changes.parts.append((pa, pb))
            continue
        found = Changes()
        if not _compare(old, new, pa, pb, found):
            changes.parts.append((pa, pb))
            continue
        if old.text[pa.start : pa.open_end] != new.text[pb.start : pb.open_end]:
            changes.tags.append((pa, pb))
        changes.parts += found.parts
        changes.tags += found.tags
    return True


def _same_tag_name(old: str, a: Part, new: str, b: Part) -> bool:
    first, second = TAG_NAME.match(old, a.start), TAG_NAME.match(new, b.start)
    return first is not None and second is not None and first.group() == second.group()


def _ids(board: Board) -> set[str] | None:
    """The ids of the board's parts; None when two parts share one (a swap by id would hit
    both)."""
    ids: set[str] = set()
    todo = [board.root]
    while todo:
        part = todo.pop()
        if part.id in ids:
            return None
        ids.add(part.id)
        todo.extend(part.parts)
    return ids


def board_patch(old_text: str, new_text: str, *, base: tuple[int, str]) -> str | None:
    """The message that turns the board `old_text` (drawn for revision and stamp `base`) into
    `new_text`, another drawing of the same viewpoint and language; None when the whole board
    should be sent instead. The module's docstring says what the message holds."""
    old, new = parse(old_text), parse(new_text)
    if old is None or new is None or old.root.id != new.root.id:
        return None
    if not _same_tag_name(old_text, old.root, new_text, new.root):
        return None
    # What follows the root (out-of-band parts of the page around the board) goes whole.
    if old_text[old.root.end :] != new_text[new.root.end :]:
        return None
    changes = Changes()
    if not _compare(old, new, old.root, new.root, changes):
        return None
    if sum(b.end - b.start for _, b in changes.parts) > MOST_OF_THE_BOARD * len(new_text):
        return None
    if _ids(old) is None or _ids(new) is None:
        return None
    # Rebuilt from the old text with the new root's start tag, the changed start tags and the
    # changed parts, the board must be the new text exactly.
    edits = [(old.root.start, old.root.open_end, new_text[new.root.start : new.root.open_end])]
    edits += [(a.start, a.open_end, new_text[b.start : b.open_end]) for a, b in changes.tags]
    edits += [(a.start, a.end, new_text[b.start : b.end]) for a, b in changes.parts]
    edits.sort()
    pieces, at = [], 0
    for start, end, text in edits:
        if start < at:
            return None
        pieces += [old_text[at:start], text]
        at = end
    pieces.append(old_text[at:])
    if "".join(pieces) != new_text:
        return None
    version, stamp = base
    base_attributes = f'data-base-version="{version}" data-base-stamp="{_escape(stamp)}"'
    return (
        _tag_update(new_text, new.root, base_attributes)
        + "".join(_tag_update(new_text, b, "") for _, b in changes.tags)
        + "".join(new_text[b.start : b.end] for _, b in changes.parts)
    )


def _tag_update(text: str, part: Part, extra: str) -> str:
    """An empty template naming the part whose attributes become its own (htmx leaves the
    page alone for it: its swap is `none`)."""
    start_tag = text[part.start : part.open_end]
    name = TAG_NAME.match(start_tag)
    assert name is not None
    attributes = ID.sub("", start_tag[name.end() : -1], count=1).strip()
    return (
        f'<template hx-swap-oob="none:#{part.id}" data-patch-of="{part.id}"'
        f"{' ' + extra if extra else ''} {attributes}></template>"
    )


def _escape(value: str) -> str:
    return value.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
