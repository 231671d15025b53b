"""The parts of Tower of Babel's board written here as SVG and HTML text rather than by the
templates: the discs, the cards' and players' swatches, the building parts of each wonder, the
three tables (score track, wonder scoring, turn order) and the list of players. A board holds
some thirty discs and eight wonders' parts, and the template engine took most of the board's
drawing to include them one file at a time. What depends on whether the viewer is to move (the
forms of the discs one may build) stays in the template.

Numbers are Python's own (never localised: the board is drawn inside `localize off`); every
text a member or a translation may have written goes through `escape`, as the templates'
autoescape did. Each piece ends as its template file did, with a line end.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import npgettext, pgettext


def disc_svg(disc: dict[str, Any]) -> SafeString:
    """A disc (`drawing.disc_drawing`): one circle, or two half circles for a two-type disc,
    with the cards it needs as numbers."""
    if disc["halves"]:
        body = "".join(f'<path d="{h["d"]}" fill="{h["fill"]}"/>' for h in disc["halves"])
        body += f'<circle cx="0" cy="0" r="{disc["r"]}" fill="none" class="rim"/>'
    else:
        body = f'<circle cx="0" cy="0" r="{disc["r"]}" fill="{disc["fill"]}" class="rim"/>'
    return mark_safe(
        f'<svg viewBox="{disc["box"]}" xmlns="http://www.w3.org/2000/svg" class="disc-svg"'
        f' role="img" aria-label="{escape(disc["text"])}" data-types="{disc["types"]}">{body}'
        f'<text x="0" y="0" class="num" fill="{disc["ink"]}">{disc["numbers"]}</text></svg>\n'
    )


def disc_span(disc: dict[str, Any]) -> SafeString:
    """A disc nobody may build now, with its needs as its title (marked when it is the disc
    of the build in progress)."""
    chosen = " chosen" if disc["chosen"] else ""
    return mark_safe(
        f'<span class="tob-disc{chosen}" data-disc="{disc["id"]}" title="{escape(disc["text"])}">'
        f"{disc['svg']}</span>"
    )


def swatch_svg(fill: str) -> SafeString:
    return mark_safe(
        '<svg viewBox="0 0 12 12" xmlns="http://www.w3.org/2000/svg" class="swatch-svg"'
        f' aria-hidden="true"><rect x="0" y="0" width="12" height="12" rx="2" fill="{fill}"/>'
        "</svg>\n"
    )


def card_svg(fill: str) -> SafeString:
    return mark_safe(
        '<svg viewBox="0 0 14 20" xmlns="http://www.w3.org/2000/svg" class="card-svg"'
        f' aria-hidden="true"><rect x="1" y="1" width="12" height="18" rx="2" fill="{fill}"/>'
        "</svg>\n"
    )


def parts_svg(parts: dict[str, Any], complete: bool) -> SafeString:
    """Everyone's building parts on a wonder (`drawing.wonder_parts`) as bars."""
    label = escape(pgettext("tower of babel", "Building parts on this wonder"))
    rows = "".join(
        f'<g class="part-row" data-seat="{r["seat"]}"><title>{escape(r["title"])}</title>'
        f'<rect x="0" y="{r["y"]}" width="{r["width"]}" height="10" fill="{r["fill"]}"/>'
        f'<text x="{r["width"] + 4}" y="{r["y"] + 9}">{r["units"]}</text></g>'
        for r in parts["rows"]
    )
    if not rows:
        none = (
            pgettext("tower of babel", "no building parts")
            if complete
            else pgettext("tower of babel", "no building parts yet")
        )
        rows = f'<text x="0" y="14" class="none">{escape(none)}</text>'
    return mark_safe(
        f'<svg viewBox="0 0 180 {parts["height"]}" xmlns="http://www.w3.org/2000/svg"'
        f' class="parts-svg" role="img" aria-label="{label}">{rows}</svg>\n'
    )


def track_svg(track: dict[str, Any]) -> SafeString:
    """The score track (`drawing.score_track`) with every player's marker."""
    label = escape(pgettext("tower of babel", "Score track"))
    width, height = track["width"], track["height"]
    ticks = "".join(
        f'<line x1="{t["x"]}" y1="4" x2="{t["x"]}" y2="12" class="tick"/>'
        f'<text x="{t["x"]}" y="{height - 2}" class="tick-label">{t["label"]}</text>'
        for t in track["ticks"]
    )
    markers = "".join(
        f'<circle cx="{m["x"]}" cy="{m["y"]}" r="5" fill="{m["fill"]}" class="marker">'
        f"<title>{escape(m['title'])}</title></circle>"
        for m in track["markers"]
    )
    return mark_safe(
        f'<svg viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg" role="img"'
        f' aria-label="{label}" class="tob-track-svg">\n'
        f'        <line x1="10" y1="8" x2="{width - 10}" y2="8" class="axis"/>\n'
        f"        {ticks}\n"
        f"        {markers}\n"
        "      </svg>"
    )


def table_svg(table: dict[str, Any]) -> SafeString:
    """The wonder scoring table (`drawing.scoring_table`) with its marker."""
    on_this_row = escape(pgettext("tower of babel", "The scoring marker is on this row"))
    drawn = []
    for r in table["rows"]:
        y, text_y = r["y"], r["text_y"]
        classes = (" current" if r["current"] else "") + (" light" if r.get("light") else "")
        marker = (
            f'<polygon points="4,{y + 2} 14,{y + 7} 4,{y + 12}" class="marker">'
            f"<title>{on_this_row}</title></polygon>"
            if r["current"]
            else ""
        )
        drawn.append(
            f'<g class="row{classes}"><rect x="2" y="{y}" width="196" height="15"/>'
            f'<text x="30" y="{text_y}">{escape(r["label"])}</text>'
            f'<text x="85" y="{text_y}">{r["first"]}</text>'
            f'<text x="130" y="{text_y}">{r["second"]}</text>'
            f'<text x="175" y="{text_y}">{table["others"]}</text>{marker}</g>'
        )
    label = escape(pgettext("tower of babel", "Wonder scoring table"))
    heads = (
        escape(pgettext("tower of babel", "row")),
        escape(pgettext("tower of babel", "1st")),
        escape(pgettext("tower of babel", "2nd")),
        escape(pgettext("tower of babel", "others")),
    )
    return mark_safe(
        f'<svg viewBox="0 0 200 {table["height"]}" xmlns="http://www.w3.org/2000/svg" role="img"'
        f' aria-label="{label}" class="tob-table-svg">\n'
        f'        <text x="30" y="12" class="head">{heads[0]}</text>'
        f'<text x="85" y="12" class="head">{heads[1]}</text>'
        f'<text x="130" y="12" class="head">{heads[2]}</text>'
        f'<text x="175" y="12" class="head">{heads[3]}</text>\n'
        f"        {''.join(drawn)}\n"
        "      </svg>"
    )


def columns_svg(columns: dict[str, Any]) -> SafeString:
    """The turn-order track (`drawing.turn_order`), highest space first."""
    label = escape(pgettext("tower of babel", "Turn order: the lowest column moves now"))
    spaces = "".join(
        f'<g class="space{" active" if c["active"] else ""}">'
        f'<rect x="2" y="{c["y"]}" width="20" height="18" fill="{c["fill"]}"/>'
        f'<text x="30" y="{c["y"] + 13}">{c["place"]}. {escape(c["name"])}</text></g>'
        for c in columns["spaces"]
    )
    return mark_safe(
        f'<svg viewBox="0 0 200 {columns["height"]}" xmlns="http://www.w3.org/2000/svg"'
        f' role="img" aria-label="{label}" class="tob-columns-svg">\n'
        f"        {spaces}\n"
        "      </svg>"
    )


def players_html(players: Iterable[dict[str, Any]]) -> SafeString:
    """The list of players (`drawing.board`'s players): each one's colour, points, cards in
    hand, action cards, trading card, collected discs and revealed action cards."""
    active = (
        '<span class="badge tob-active-badge">'
        f"{escape(pgettext('tower of babel', 'active'))}</span>"
    )
    last = (
        ' <span class="badge last-move-badge">'
        f"{escape(pgettext('tower of babel', 'last move'))}</span>"
    )
    offered = escape(pgettext("tower of babel", "trading card offered"))
    collected = escape(pgettext("tower of babel", "Collected discs"))
    action_cards = escape(pgettext("tower of babel", "Action cards:"))
    parts = []
    for p in players:
        classes = (
            (" mine" if p["is_mine"] else "")
            + (" active" if p["is_active"] else "")
            + (" last-move" if p["last"] else "")
        )
        badges = (active if p["is_active"] else "") + (last if p["last"] else "")
        meta = " · ".join(
            (
                npgettext("tower of babel", "%(points)s point", "%(points)s points", p["total"])
                % {"points": p["total"]},
                npgettext(
                    "tower of babel",
                    "%(cards)s card in hand",
                    "%(cards)s cards in hand",
                    p["hand_size"],
                )
                % {"cards": p["hand_size"]},
                npgettext(
                    "tower of babel",
                    "%(cards)s action card",
                    "%(cards)s action cards",
                    p["actions"],
                )
                % {"cards": p["actions"]},
            )
        ) + ("" if p["trading_card"] else f" · {offered}")
        discs = (
            f'<div class="tob-owned" aria-label="{collected}">'
            + "".join(
                f'<span class="tob-disc small" title="{escape(d["text"])}">{d["svg"]}</span>'
                for d in p["discs"]
            )
            + "</div>"
            if p["discs"]
            else ""
        )
        actions = (
            f'<div class="meta">{action_cards} '
            f"{', '.join(escape(a) for a in p['revealed_actions'])}</div>"
            if p["revealed_actions"]
            else ""
        )
        parts.append(
            f'\n        <li class="tob-player{classes}" data-seat="{p["seat"]}">\n'
            f"          {swatch_svg(p['fill'])} <strong>{escape(p['name'])}</strong>"
            f' <span class="meta">({escape(p["colour"])})</span>\n'
            f"          {badges}\n"
            f'          <div class="meta">{meta}</div>\n'
            f"          {discs}\n"
            f"          {actions}\n"
            "        </li>\n      "
        )
    return mark_safe("".join(parts))
