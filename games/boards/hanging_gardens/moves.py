"""What a move of The Hanging Gardens did, in data (stored with the move) and in words."""

from __future__ import annotations

from typing import Any

from django.utils.translation import npgettext, pgettext

from games.boards.hanging_gardens.names import (
    card_motifs,
    card_words,
    garden_box,
    group_words,
    place_words,
    square_words,
)
from games.boards.hanging_gardens.texts import (
    BUILDING,
    DISCARD_CARD,
    MOVE_LABELS,
    MOVE_TEMPLE,
    PLACE_CARD,
    PLACE_TEMPLE,
    SKIP_SCORING,
    TAKE_TILE,
    card_label,
    motif_name,
    tile_name,
)

# --- what a move did, in data and in words ----------------------------------------------------


def garden_cells(garden: dict[str, Any]) -> dict[tuple[int, int], str]:
    """{(x, y): top square} of a garden in the engine's row notation."""
    x0, y0 = garden["x"], garden["y"]
    return {
        (x0 + dx, y0 + dy): square
        for dy, row in enumerate(garden["rows"])
        for dx, square in enumerate(row)
        if square != " "
    }


def group_size(cells: dict[tuple[int, int], str], start: tuple[int, int]) -> int:
    """Squares connected to `start` with its motif (spec §2.5)."""
    motif = cells.get(start)
    if motif is None or motif == BUILDING:
        return 0
    seen, todo = {start}, [start]
    while todo:
        x, y = todo.pop()
        for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if n not in seen and cells.get(n) == motif:
                seen.add(n)
                todo.append(n)
    return len(seen)


def summarize(
    before: dict[str, Any], seat: int, move: dict[str, Any], after: dict[str, Any]
) -> dict[str, Any]:
    """The public facts of a move, from the table's views before and after it."""
    kind = move["type"]
    if kind in (PLACE_CARD, DISCARD_CARD):
        summary: dict[str, Any] = {"card": move["card"]}
        entry = next(e for e in before["display"] if e["card"] == move["card"])
        summary["motifs"] = card_motifs(entry["rotations"][0])
        if kind == PLACE_CARD:
            rows = entry["rotations"][move["rotation"]]
            summary["cells"] = [
                [move["x"] + dx, move["y"] + dy]
                for dy, row in enumerate(rows)
                for dx in range(len(row))
            ]
            summary["rotation"] = move["rotation"]
            # The garden before the card, to say where the card went (words.place_words).
            summary["box"] = list(garden_box(garden_cells(before["gardens"][seat])))
            summary["size"] = [len(rows[0]), len(rows)]
        return summary
    if kind in (PLACE_TEMPLE, MOVE_TEMPLE):
        cells = garden_cells(after["gardens"][seat])
        where = (move["x"], move["y"])
        summary = {
            "cell": list(where),
            "box": list(garden_box(cells)),
            "motif": cells.get(where, BUILDING),
            "size": group_size(cells, where),
            # §2.7: a face-down tile for 6+, and 5-point credits for tiles that were not there.
            "drew_hidden": after["tiles"][seat]["hidden_count"]
            - before["tiles"][seat]["hidden_count"],
            "missing": after["tiles"][seat]["missing"] - before["tiles"][seat]["missing"],
        }
        if kind == MOVE_TEMPLE:
            summary["from"] = [move["from_x"], move["from_y"]]
        return summary
    if kind == TAKE_TILE:
        taken = before["tile_display"][move["column"] - 1][move["slot"] - 1]
        return {"kind": taken, "column": move["column"], "slot": move["slot"]}
    return {}


def describe(name: str, move_type: str, summary: dict[str, Any]) -> str:
    """One line of the move log: "Anna placed building card H27"."""
    values = {"name": name}
    if move_type == PLACE_CARD and "box" in summary:
        x0, y0 = (min(c[i] for c in summary["cells"]) for i in (0, 1))
        return pgettext("hanging gardens", "%(name)s placed %(card)s %(where)s") % {
            **values,
            "card": card_words(summary["motifs"]),
            "where": place_words(tuple(summary["box"]), x0, y0, *summary["size"]),
        }
    if move_type == DISCARD_CARD and "motifs" in summary:
        return pgettext(
            "hanging gardens", "%(name)s could place no card and discarded %(card)s"
        ) % {**values, "card": card_words(summary["motifs"])}
    # Moves stored before the words above (no "box" or "motifs" in their summary).
    if move_type == PLACE_CARD and "card" in summary:
        return pgettext("hanging gardens", "%(name)s placed building card %(card)s") % {
            **values,
            "card": card_label(summary["card"]),
        }
    if move_type == DISCARD_CARD and "card" in summary:
        return pgettext(
            "hanging gardens", "%(name)s could place no card and discarded %(card)s"
        ) % {
            **values,
            "card": card_label(summary["card"]),
        }
    if move_type in (PLACE_TEMPLE, MOVE_TEMPLE) and "size" in summary:
        values.update(motif=motif_name(summary["motif"]), size=summary["size"])
        if "box" in summary:
            group = group_words(summary["motif"], summary["size"])
            text = (
                pgettext("hanging gardens", "%(name)s moved a temple to %(group)s")
                if move_type == MOVE_TEMPLE
                else pgettext("hanging gardens", "%(name)s built a temple on %(group)s")
            ) % {"name": name, "group": group}
        elif move_type == MOVE_TEMPLE:
            text = (
                npgettext(
                    "hanging gardens",
                    "%(name)s moved a temple to a group of %(size)s square (%(motif)s)",
                    "%(name)s moved a temple to a group of %(size)s squares (%(motif)s)",
                    summary["size"],
                )
                % values
            )
        else:
            text = (
                npgettext(
                    "hanging gardens",
                    "%(name)s built a temple on a group of %(size)s square (%(motif)s)",
                    "%(name)s built a temple on a group of %(size)s squares (%(motif)s)",
                    summary["size"],
                )
                % values
            )
        if summary.get("drew_hidden"):
            text += pgettext("hanging gardens", ", drew a face-down tile")
        if summary.get("missing"):
            text += npgettext(
                "hanging gardens",
                ", %(count)s tile missing: 5 points instead",
                ", %(count)s tiles missing: 5 points each instead",
                summary["missing"],
            ) % {"count": summary["missing"]}
        return text
    if move_type == SKIP_SCORING:
        return pgettext("hanging gardens", "%(name)s did not score a group") % values
    if move_type == TAKE_TILE and summary.get("kind"):
        return pgettext("hanging gardens", "%(name)s took the point tile %(tile)s") % {
            **values,
            "tile": tile_name(summary["kind"]),
        }
    label = MOVE_LABELS.get(move_type)
    return f"{name} {label}" if label is not None else name


def turned(rotation: int) -> str:
    if not rotation:
        return pgettext("hanging gardens", "not turned")
    return npgettext(
        "hanging gardens", "turned %(count)s quarter", "turned %(count)s quarters", rotation
    ) % {"count": rotation}


def advise(names: list[str], move_type: str, move: dict[str, Any], summary: dict[str, Any]) -> str:
    """What to do, addressed to the player ("Place a card with 2 parks on the right edge: …,
    turned 1 quarter"): the card, where and how turned, so moves differing only in one of
    them read differently."""
    if move_type == PLACE_CARD and "box" in summary:
        x0, y0 = (min(c[i] for c in summary["cells"]) for i in (0, 1))
        return pgettext("hanging gardens", "Place %(card)s %(where)s, %(turned)s") % {
            "card": card_words(summary["motifs"]),
            "where": place_words(tuple(summary["box"]), x0, y0, *summary["size"]),
            "turned": turned(move["rotation"]),
        }
    if move_type == DISCARD_CARD and "motifs" in summary:
        return pgettext("hanging gardens", "Discard %(card)s") % {
            "card": card_words(summary["motifs"])
        }
    if move_type in (PLACE_TEMPLE, MOVE_TEMPLE) and "box" in summary:
        values = {
            "group": group_words(summary["motif"], summary["size"]),
            "square": square_words(tuple(summary["box"]), *summary["cell"]),
        }
        if move_type == MOVE_TEMPLE:
            return pgettext("hanging gardens", "Move a temple to %(group)s, at %(square)s") % values
        return pgettext("hanging gardens", "Build a temple on %(group)s, at %(square)s") % values
    if move_type == SKIP_SCORING:
        return pgettext("hanging gardens", "Do not score a group")
    if move_type == TAKE_TILE and summary.get("kind"):
        return pgettext(
            "hanging gardens", "Take the point tile %(tile)s from column %(column)s"
        ) % {"tile": tile_name(summary["kind"]), "column": move["column"]}
    label = MOVE_LABELS.get(move_type)
    return str(label) if label is not None else move_type
