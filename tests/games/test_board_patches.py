"""Incremental board updates (games/board_patches.py): for every game, the changes sent for a
move, applied to the board a page had, give the document of the new board drawn whole; they
hold nothing that the new board of the same viewpoint does not show, and no part or attributes
the page has already; and an ordinary move sends far less than the board.

The changes are applied here by a small document model of our own (Python's html.parser), as
a browser's htmx would: each part replaces the element of its id, and each template naming a
part gives that element its attributes."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import pytest

from games import board_patches, engines, live
from games.models import Game
from tests.games.conftest import build_game, play_random_moves

pytestmark = pytest.mark.django_db

VOID = {"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
PATCH_ATTRIBUTES = {"hx-swap-oob", "data-patch-of", "data-base-version", "data-base-stamp"}


class Element:
    def __init__(self, tag: str, attributes: list[tuple[str, str | None]]) -> None:
        self.tag = tag
        self.attributes = dict(attributes)
        self.children: list[Element | str] = []

    def dump(self) -> str:
        attributes = "".join(f" {k}={v!r}" for k, v in sorted(self.attributes.items()))
        inner = "".join(c if isinstance(c, str) else c.dump() for c in self.children)
        return f"<{self.tag}{attributes}>{inner}</{self.tag}>"


class Reader(HTMLParser):
    """A document as a tree of elements: end tags close the nearest open element of their
    name; void elements and `<x/>` have no content."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.top = Element("#document", [])
        self.open = [self.top]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, attrs)
        self.open[-1].children.append(element)
        if tag not in VOID:
            self.open.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.open[-1].children.append(Element(tag, attrs))

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.open) - 1, 0, -1):
            if self.open[depth].tag == tag:
                del self.open[depth:]
                return

    def handle_data(self, data: str) -> None:
        self.open[-1].children.append(data)


def read(text: str) -> list[Element]:
    reader = Reader()
    reader.feed(text)
    reader.close()
    return [c for c in reader.top.children if isinstance(c, Element)]


def by_id(elements: list[Any], wanted: str) -> list[tuple[Element, int]]:
    """Every (parent, index) whose child has the id `wanted`."""
    found = []
    for parent in elements:
        for index, child in enumerate(parent.children):
            if isinstance(child, Element):
                if child.attributes.get("id") == wanted:
                    found.append((parent, index))
                found += by_id([child], wanted)
    return found


def apply(board: str, message: str) -> str:
    """The board a page shows after taking `message`, as htmx and static/js/game.js take it."""
    page = Element("#page", [])
    page.children = list(read(board))
    root = page.children[0]
    assert isinstance(root, Element)
    parts = read(message)
    marker = parts[0]
    assert marker.tag == "template" and marker.attributes["data-patch-of"] == "game-board"
    # Applied only to exactly the board it was made from.
    assert marker.attributes["data-base-version"] == root.attributes["data-version"]
    assert marker.attributes["data-base-stamp"] == root.attributes["data-stamp"]
    for part in parts:
        target = part.attributes.get("data-patch-of") or part.attributes.get("id")
        found = by_id([page], str(target))
        assert len(found) == 1, f"the page has one element #{target}"
        parent, index = found[0]
        element = parent.children[index]
        assert isinstance(element, Element)
        if part.tag == "template":
            kept_id = element.attributes["id"]
            element.attributes = {
                k: v for k, v in part.attributes.items() if k not in PATCH_ATTRIBUTES
            }
            element.attributes["id"] = kept_id
        else:
            parent.children[index] = part
    return "".join(c.dump() for c in page.children if isinstance(c, Element))


def whole(board: str) -> str:
    return "".join(element.dump() for element in read(board))


def check_every_move(game: Game, moves: int) -> list[tuple[int, int]]:
    """Play `moves` moves; after each, for every seat's view and the spectator's, in English,
    Hungarian and Polish: the changes from the previous board applied to it give the new
    board. Returns (message size, board size) of every change made."""
    sizes = []
    viewpoints = (None, *range(game.players))
    before: dict[tuple[int | None, str], tuple[str, str, str]] = {}
    for number in range(moves + 1):
        game.refresh_from_db()
        for seat in viewpoints:
            for language in ("en", "hu", "pl"):
                board = live.render_board(game, seat, language)
                root = read(board)[0].attributes
                if (seat, language) in before:
                    old, version, stamp = before[(seat, language)]
                    message = board_patches.board_patch(old, board, base=(int(version), stamp))
                    if message is not None:
                        assert apply(old, message) == whole(board)
                        # Nothing in it that this viewpoint's new board does not show, and
                        # no part the page has already: each part sent has changed.
                        old_document = read(old)
                        for part in read(message)[1:]:
                            if part.tag != "template":
                                assert part.dump() in whole(board)
                                was = by_id(old_document, str(part.attributes.get("id")))
                                assert [p.children[i].dump() for p, i in was] != [part.dump()]
                            else:
                                was = by_id(old_document, str(part.attributes["data-patch-of"]))
                                assert len(was) == 1
                                element = was[0][0].children[was[0][1]]
                                assert isinstance(element, Element)
                                sent = {
                                    k: v
                                    for k, v in part.attributes.items()
                                    if k not in PATCH_ATTRIBUTES | {"id"}
                                }
                                assert sent != {
                                    k: v for k, v in element.attributes.items() if k != "id"
                                }
                        sizes.append((len(message), len(board)))
                before[(seat, language)] = (
                    board,
                    str(root["data-version"]),
                    str(root["data-stamp"]),
                )
        if game.status != Game.Status.RUNNING:
            break
        play_random_moves(game, 1, seed=number)
    return sizes


@pytest.mark.parametrize("engine", [engine.slug for engine in engines.all()])
def test_the_changes_of_a_move_applied_to_the_last_board_give_the_new_board(
    alice, bob, quick_bots, engine
) -> None:
    game = build_game(alice, bob, "easy", engine=engine, seed=6)
    sizes = check_every_move(game, 14)
    assert sizes, "some move is sent as its changes"
    # An ordinary move (another seat's, seen from a seat or by a spectator) sends at most
    # half the board.
    assert min(message / board for message, board in sizes) < 0.5


def test_a_board_whose_structure_changed_goes_whole() -> None:
    old = '<section id="game-board" data-version="1" data-stamp="s"><p id="a">x</p></section>'
    new = '<section id="game-board" data-version="2" data-stamp="s"><div>y</div></section>'
    assert board_patches.board_patch(old, new, base=(1, "s")) is None


def test_text_outside_every_part_makes_the_board_go_whole() -> None:
    old = '<section id="game-board" data-version="1">a<p id="p">x</p></section>'
    new = '<section id="game-board" data-version="2">b<p id="p">x</p></section>'
    assert board_patches.board_patch(old, new, base=(1, "")) is None


def test_a_changed_part_inside_an_svg_sends_its_html_parent() -> None:
    svg = '<svg viewBox="0 0 1 1"><g id="g">{}</g></svg>'
    old = (
        '<section id="game-board" data-version="1" data-stamp=""><div id="big">'
        + "x" * 200
        + '</div><figure id="f">'
        + svg.format("<rect/>")
        + "</figure></section>"
    )
    new = old.replace('data-version="1"', 'data-version="2"').replace("<rect/>", "<circle/>")
    message = board_patches.board_patch(old, new, base=(1, ""))
    assert message is not None
    assert '<figure id="f">' + svg.format("<circle/>") + "</figure>" in message
    assert 'id="big"' not in message
    assert apply(old, message) == whole(new)


def test_two_parts_of_one_id_make_the_board_go_whole() -> None:
    old = '<section id="game-board" data-version="1"><p id="p">x</p><p id="p">y</p>' + "z" * 99
    old += "</section>"
    new = old.replace("x", "w").replace('"1"', '"2"')
    assert board_patches.board_patch(old, new, base=(1, "")) is None


def test_parts_after_nested_svgs_and_comments_are_still_found() -> None:
    # Inside an <svg> nothing is a part: an inner <svg>, a comment naming </svg> and an end tag
    # in capitals must not end it early, nor hide the parts after it.
    svg = (
        '<SVG viewBox="0 0 2 2"><svg x="1"><div id="inside">no part</div></svg>'
        '<!-- not the end: </svg> --><g><p id="in-svg">no part</p>{}</g></Svg>'
    )
    old = (
        '<section id="game-board" data-version="1" data-stamp=""><figure id="f">'
        + svg.format("<rect/>")
        + '</figure><p id="after">'
        + "x" * 200
        + '</p><p id="last">a</p></section>'
    )
    new = old.replace('data-version="1"', 'data-version="2"').replace(">a</p>", ">b</p>")
    parsed = board_patches.parse(new)
    assert parsed is not None
    assert [part.id for part in parsed.root.parts] == ["f", "after", "last"]
    assert parsed.root.parts[0].parts == []
    message = board_patches.board_patch(old, new, base=(1, ""))
    assert message is not None
    assert '<p id="last">b</p>' in message
    assert 'id="f"' not in message and 'id="after"' not in message
    assert apply(old, message) == whole(new)
