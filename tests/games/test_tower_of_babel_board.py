"""The Tower of Babel board module: what the page draws and says, from a seat's view only."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.boards import tower_of_babel as board_module
from games.boards.tower_of_babel.drawing import disc_drawing
from games.engines.tower_of_babel import ENGINE
from tests.games.engines.tower_of_babel.positions import (
    BLUE,
    GREEN,
    RED,
    SHIP_5,
    YELLOW,
    offer,
    offering,
    play,
    resolving,
)

NAMES = ["Red", "Yellow", "Green", "Blue"]


def test_a_secret_offer_is_summarized_without_its_cards() -> None:
    state = offering(SHIP_5, hands=[{}, {"ship": 2}, {"ship": 1}, {}])
    after = play(state, YELLOW, "offer", **offer({"ship": 2}, trading=True))
    move = {"type": "offer", **offer({"ship": 2}, trading=True)}
    summary = board_module.summarize(
        ENGINE.view(state, None), YELLOW, move, ENGINE.view(after, None)
    )
    assert summary == {"revealed": False}


def test_the_last_offer_is_summarized_with_every_revealed_offer() -> None:
    state = offering(SHIP_5, hands=[{}, {"ship": 2}, {"ship": 1}, {}])
    state = play(state, YELLOW, "offer", **offer({"ship": 2}))
    state = play(state, GREEN, "offer", **offer({"ship": 1}, trading=True))
    move = {"type": "offer", **offer()}
    after = play(state, BLUE, "offer", **offer())
    summary = board_module.summarize(ENGINE.view(state, None), BLUE, move, ENGINE.view(after, None))
    assert summary["revealed"] is True
    assert summary["offers"][GREEN] == offer({"ship": 1}, trading=True)


@pytest.mark.parametrize("language", ["en", "hu", "pl"])
def test_every_move_reads_as_words_with_the_players_name(language: str) -> None:
    summaries = {
        "pass": {},
        "build": {"wonder": 8, "disc": SHIP_5, "needs": {"ship": 5}},
        "offer": {"revealed": False},
        "accept": {
            "wonder": 8,
            "disc": SHIP_5,
            "needs": {"ship": 5},
            "accepted": [1, 2],
            "completed": True,
        },
        "abandon": {"wonder": 8, "disc": SHIP_5, "needs": {"ship": 5}, "bids": 2},
        "double_turn": {},
        "end_turn": {},
        "card_exchange": {"count": 3},
        "draw_three": {},
    }
    assert set(summaries) == set(ENGINE.move_types)
    with translation.override(language):
        for move_type, summary in summaries.items():
            text = board_module.describe("Zsófi", move_type, summary)
            assert "Zsófi" in text
            # An offer is called an offer in English (the rulebook's word), as its code is.
            if (language, move_type) != ("en", "offer"):
                assert move_type not in text
            assert "%(" not in text


def test_the_english_move_log_names_cards_and_wonders() -> None:
    with translation.override("en"):
        text = board_module.describe(
            "Red",
            "accept",
            {"wonder": 8, "needs": {"camel": 2, "stonemason": 3}, "accepted": [1]},
        )
    assert text == "Red built 2 camels + 3 stonemasons at the Tower of Babel, taking 1 offer"


# The rulebook's word for an offer in each language (rulebooks/content/tower-of-babel/), and
# words the log used before for the same thing.
OFFER_WORDS = {"en": ("offer", "bid"), "hu": ("ajánlat", "licit"), "pl": ("ofert", "propozycj")}


@pytest.mark.parametrize("language", ["en", "hu", "pl"])
def test_the_log_and_the_board_call_an_offer_by_the_rulebooks_word(language: str) -> None:
    word, other = OFFER_WORDS[language]
    accepted = {"wonder": 8, "needs": {"ship": 5}, "accepted": [1, 2]}
    with translation.override(language):
        texts = [
            board_module.describe("Zsófi", "offer", {"revealed": False}),
            board_module.describe("Zsófi", "offer", {"revealed": True}),
            board_module.describe("Zsófi", "accept", accepted),
            str(board_module.MOVE_LABELS["offer"]),
        ]
        state = offering(SHIP_5, hands=[{}, {"ship": 2}, {"ship": 1}, {}])
        state = play(state, YELLOW, "offer", **offer({"ship": 2}))
        drawn = board_module.board(ENGINE.view(state, GREEN), NAMES, [])
        rows = {row["seat"]: row for row in drawn["build"]["offers"]}
        texts.append(rows[YELLOW]["text"])
    for text in texts:
        assert word in text.lower() and other not in text.lower(), text


def test_others_see_only_that_an_offer_was_made() -> None:
    state = offering(SHIP_5, hands=[{}, {"ship": 2}, {"ship": 1}, {}])
    state = play(state, YELLOW, "offer", **offer({"ship": 2}, trading=True))
    with translation.override("en"):
        drawn = board_module.board(ENGINE.view(state, GREEN), NAMES, [])
    rows = {row["seat"]: row for row in drawn["build"]["offers"]}
    assert rows[YELLOW]["status"] == "hidden"
    assert "ship" not in rows[YELLOW]["text"]
    assert rows[GREEN]["status"] == "waiting"
    assert drawn["accept_form"] is None
    # Green may offer nothing, its one ship, and the ship with its trading card.
    assert [o["label"] for o in drawn["offer_form"]["options"]] == [
        "Offer nothing",
        "1 ship",
        "1 ship + trading card",
    ]


def test_the_choice_of_offers_says_what_comes_from_the_hand() -> None:
    # Spec T1: Red needs 5 ships; taking Yellow's 1 ship leaves 4 from his hand.
    state = resolving(
        SHIP_5,
        {YELLOW: offer({"ship": 1}), GREEN: offer({"ship": 2}, trading=True)},
        hands=[{"ship": 4}, {}, {}, {}],
    )
    with translation.override("en"):
        drawn = board_module.board(ENGINE.view(state, RED), NAMES, [])
    labels = {o["seats"]: o["label"] for o in drawn["accept_form"]["options"]}
    assert labels["1"] == "Take the offers of: Yellow; add 4 ships from your hand; you get the disc"
    # Green's offer holds her trading card: taking it hands her the disc (spec §2.4 step 4).
    assert labels["1 2"] == (
        "Take the offers of: Yellow, Green; add 2 ships from your hand; the disc goes to Green"
    )
    assert drawn["accept_form"]["total"] == 5


@pytest.mark.parametrize(
    ("language", "disc_to_green", "parts_by_yellow"),
    [
        ("en", "the disc goes to Green", "Yellow places 1 building part"),
        ("hu", "a korongot Green kapja", "Yellow 1 épületelemet rak"),
        ("pl", "krążek dostaje Green", "Yellow stawia na cudzie 1 element"),
    ],
)
def test_each_offer_to_take_says_what_taking_it_gives_its_player(
    language: str, disc_to_green: str, parts_by_yellow: str
) -> None:
    state = resolving(
        SHIP_5,
        {YELLOW: offer({"ship": 1}), GREEN: offer({"ship": 2}, trading=True)},
        hands=[{"ship": 4}, {}, {}, {}],
    )
    with translation.override(language):
        drawn = board_module.board(ENGINE.view(state, RED), NAMES, [])
    rows = {row["seat"]: row for row in drawn["build"]["offers"]}
    assert disc_to_green in rows[GREEN]["if_taken"]
    assert parts_by_yellow in rows[YELLOW]["if_taken"]
    assert rows[BLUE]["if_taken"] == ""  # Blue offered nothing: there is nothing to take


def test_a_kept_disc_drawing_follows_the_readers_language_and_is_the_boards_own() -> None:
    # Discs are drawn once per process by disc, size and language: one kept in English must not
    # answer a Hungarian or Polish reader, and what a board adds to its copy stays its own.
    disc = {"id": 1, "needs": {"camel": 3}}
    texts = {}
    for language in ("en", "hu", "pl", "en"):
        with translation.override(language):
            drawn = disc_drawing(disc)
            texts.setdefault(language, set()).add(drawn["text"])
            assert f'aria-label="{drawn["text"]}"' in drawn["svg"]
            drawn["can_build"] = True
            assert "can_build" not in disc_drawing(disc)
    # Polish counts three camels with its "few" form (2 to 4).
    assert texts == {"en": {"3 camels"}, "hu": {"3 teve"}, "pl": {"3 wielbłądy"}}
