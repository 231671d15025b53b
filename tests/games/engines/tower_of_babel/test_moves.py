"""Passing, building with secret offers, failed builds and the game end:
tower-of-babel.md §2.2-§2.5, §2.9 and the cases T1, T9-T11, T15, T16."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalMove
from games.engines.tower_of_babel import ENGINE
from games.engines.tower_of_babel.state import OFFERS, OVER, RESOLVE, TURN, State

from .positions import (
    BLUE,
    CAMEL_3,
    CRANE_4,
    CRANE_6,
    D1,
    D2,
    FULL_BOARD,
    GREEN,
    RED,
    SHIP_3,
    SHIP_5,
    STONEMASON_3,
    YELLOW,
    hand,
    offer,
    offering,
    play,
    points,
    position,
    resolving,
)

# T1: Red builds 5 ships on the Tower of Babel; Yellow offers 1 ship, Green 2 ships with
# the trading card, Blue 1 ship with the trading card.
T1_OFFERS = {
    YELLOW: offer({"ship": 1}),
    GREEN: offer({"ship": 2}, trading=True),
    BLUE: offer({"ship": 1}, trading=True),
}
T1_HANDS = [{"ship": 4, "camel": 1}, {"camel": 2}, {"crane": 1}, {}]


def accept(state: State, seats: list[int], jokers: dict[str, int] | None = None) -> State:
    return play(state, RED, "accept", offers=seats, jokers=jokers or {})


def test_t9_a_pass_gives_the_active_player_two_cards_and_the_others_one() -> None:
    four = {"camel": 1, "crane": 1, "ship": 1, "stonemason": 1}
    state = position(hands=[four] * 4)
    after = play(state, RED, "pass")
    assert [sum(h.values()) for h in ENGINE.dump(after)["hands"]] == [6, 5, 5, 5]
    # §2.2: Red's column goes to the top; the player to his left is next.
    assert ENGINE.to_move(after) == [YELLOW]
    assert ENGINE.view(after, None)["columns"] == [YELLOW, GREEN, BLUE, RED]
    assert after.phase == TURN


def test_a_build_opens_secret_offers_for_every_other_player() -> None:
    state = position(hands=T1_HANDS)
    after = play(state, RED, "build", wonder=8, disc=SHIP_5)
    assert after.phase == OFFERS
    assert ENGINE.to_move(after) == [YELLOW, GREEN, BLUE]
    after = play(after, GREEN, "offer", **offer())
    assert ENGINE.to_move(after) == [YELLOW, BLUE]
    assert ENGINE.legal_moves(after, GREEN) == []
    after = play(after, YELLOW, "offer", **offer())
    after = play(after, BLUE, "offer", **offer())
    assert after.phase == RESOLVE
    assert ENGINE.to_move(after) == [RED]


def test_a_build_needs_a_disc_that_is_still_on_that_wonder() -> None:
    state = position()
    with pytest.raises(IllegalMove) as caught:
        play(state, RED, "build", wonder=1, disc=SHIP_5)
    assert caught.value.code == "no_such_disc"
    with pytest.raises(IllegalMove) as caught:
        play(state, RED, "build", wonder=9, disc=SHIP_5)
    assert caught.value.code == "no_such_wonder"
    builds = [m for m in ENGINE.legal_moves(state, RED) if m["type"] == "build"]
    assert len(builds) == 24


def test_t1a_red_takes_yellows_offer_and_completes_from_his_hand() -> None:
    state = resolving(SHIP_5, T1_OFFERS, hands=T1_HANDS)
    after = accept(state, [YELLOW])
    assert after.units[7] == (4, 1, 0, 0)
    assert after.discs[RED] == (SHIP_5,)
    assert SHIP_5 not in after.wonders[7]
    # Rejected offers score one point per card; the trading card scores nothing.
    assert [points(after, s)["rejected_offers"] for s in range(4)] == [0, 0, 2, 1]
    assert ENGINE.dump(after)["discard"] == {"ship": 5}
    # Offered cards come back; then everyone draws one, Red first (camel, crane, ship,
    # stonemason from the top of the deck).
    assert hand(after, RED) == {"camel": 2}
    assert hand(after, YELLOW) == {"camel": 2, "crane": 1}
    assert hand(after, GREEN) == {"crane": 1, "ship": 3}
    assert hand(after, BLUE) == {"ship": 1, "stonemason": 1}
    assert ENGINE.to_move(after) == [YELLOW]


def test_t1b_the_trading_card_gives_green_the_disc_and_red_the_parts() -> None:
    state = resolving(SHIP_5, T1_OFFERS, hands=T1_HANDS)
    after = accept(state, [YELLOW, GREEN])
    assert after.units[7] == (4, 1, 0, 0)  # Red 2 own + 2 for Green's cards
    assert after.discs[GREEN] == (SHIP_5,)
    assert after.discs[RED] == ()
    assert [points(after, s)["rejected_offers"] for s in range(4)] == [0, 0, 0, 1]
    assert hand(after, RED) == {"camel": 2, "ship": 2}
    assert ENGINE.dump(after)["discard"] == {"ship": 5}


@pytest.mark.parametrize("seats", [[GREEN, BLUE], [YELLOW, GREEN, BLUE]])
def test_t1c_two_offers_with_trading_cards_cannot_both_be_taken(seats: list[int]) -> None:
    state = resolving(SHIP_5, T1_OFFERS, hands=T1_HANDS)
    with pytest.raises(IllegalMove) as caught:
        accept(state, seats)
    assert caught.value.code == "two_trading_cards"
    accepted = [m["offers"] for m in ENGINE.legal_moves(state, RED) if m["type"] == "accept"]
    assert seats not in accepted
    assert [YELLOW, GREEN] in accepted


def test_t1d_with_one_ship_red_can_only_abandon_and_every_offer_scores() -> None:
    hands = [{"ship": 1}, {"camel": 2}, {"crane": 1}, {}]
    state = resolving(SHIP_5, T1_OFFERS, hands=hands)
    assert ENGINE.legal_moves(state, RED) == [{"type": "abandon"}]
    with pytest.raises(IllegalMove) as caught:
        accept(state, [YELLOW, GREEN])
    assert caught.value.code == "cannot_complete"
    after = play(state, RED, "abandon")
    assert SHIP_5 in after.wonders[7]
    assert after.units[7] == (0, 0, 0, 0)
    assert [points(after, s)["rejected_offers"] for s in range(4)] == [0, 1, 2, 1]
    assert hand(after, GREEN) == {"crane": 1, "ship": 3}  # 2 back + 1 drawn
    assert [sum(h.values()) for h in ENGINE.dump(after)["hands"]] == [2, 4, 4, 2]
    assert ENGINE.to_move(after) == [YELLOW]


def test_t10_a_failed_build_returns_the_disc_and_scores_every_offer() -> None:
    offers = {YELLOW: offer({"crane": 2}), GREEN: offer({"crane": 1}, trading=True)}
    hands = [{}, {}, {}, {"camel": 3}]
    state = resolving(CRANE_6, offers, wonder=7, hands=hands)
    after = play(state, RED, "abandon")
    assert CRANE_6 in after.wonders[6]
    assert [points(after, s)["rejected_offers"] for s in range(4)] == [0, 2, 1, 0]
    assert [sum(h.values()) for h in ENGINE.dump(after)["hands"]] == [1, 3, 2, 4]
    assert after.last_build is not None and after.last_build.taker is None


def test_t11_two_type_disc_selections_respect_each_types_number() -> None:
    offers = {
        YELLOW: offer({"camel": 2}),
        GREEN: offer({"stonemason": 2}, trading=True),
        BLUE: offer({"camel": 1, "stonemason": 1}),
    }
    hands = [{"camel": 1, "stonemason": 1}, {}, {}, {}]
    state = resolving(D1, offers, hands=hands, options={"two_type_discs": True})
    first = accept(state, [YELLOW, GREEN])
    assert first.units[7] == (3, 2, 0, 0)
    assert first.discs[GREEN] == (D1,)
    assert [points(first, s)["rejected_offers"] for s in range(4)] == [0, 0, 0, 2]
    with pytest.raises(IllegalMove) as caught:
        accept(state, [YELLOW, BLUE])
    assert caught.value.code == "too_many_cards"
    second = accept(state, [GREEN, BLUE])
    assert second.units[7] == (3, 0, 0, 2)
    assert second.discs[GREEN] == (D1,)
    assert [points(second, s)["rejected_offers"] for s in range(4)] == [0, 2, 0, 0]


def test_t11_an_offer_of_three_camels_for_d1_is_refused_when_made() -> None:
    state = offering(D1, options={"two_type_discs": True}, hands=[{}, {"camel": 3}, {}, {}])
    with pytest.raises(IllegalMove) as caught:
        play(state, YELLOW, "offer", **offer({"camel": 3}))
    assert caught.value.code == "offer_too_large"
    offered = [m["cards"] for m in ENGINE.legal_moves(state, YELLOW)]
    assert {"camel": 2} in offered and {"camel": 3} not in offered


def test_a5_wrong_type_cards_and_a_bare_trading_card_are_refused() -> None:
    state = offering(SHIP_5, hands=[{}, {"camel": 2, "ship": 1}, {}, {}])
    for cards, trading, code in [
        ({"camel": 1}, False, "wrong_type"),
        ({}, True, "offer_needs_cards"),
        ({"ship": 2}, False, "not_in_hand"),
    ]:
        with pytest.raises(IllegalMove) as caught:
            play(state, YELLOW, "offer", **offer(cards, trading=trading))
        assert caught.value.code == code
    assert ENGINE.legal_moves(state, YELLOW) == [
        {"type": "offer", **offer()},
        {"type": "offer", **offer({"ship": 1})},
        {"type": "offer", **offer({"ship": 1}, trading=True)},
    ]


def test_offered_cards_leave_the_hand_until_the_offer_is_settled() -> None:
    state = play(position(hands=[{}, {"ship": 3}, {}, {}]), RED, "build", wonder=8, disc=SHIP_5)
    after = play(state, YELLOW, "offer", **offer({"ship": 2}))
    assert hand(after, YELLOW) == {"ship": 1}


def test_the_selected_offers_may_fill_the_disc_without_cards_from_the_hand() -> None:
    offers = {YELLOW: offer({"ship": 3}), GREEN: offer({"ship": 2})}
    state = resolving(SHIP_5, offers, hands=[{}, {}, {}, {}])
    after = accept(state, [YELLOW, GREEN])
    assert after.units[7] == (0, 3, 2, 0)
    assert after.discs[RED] == (SHIP_5,)


def test_t15_the_last_camel_disc_ends_the_game_after_its_wonder_scores() -> None:
    board = [[CAMEL_3], [], [7, 13], [8, 14], [9, 15], [10, 19], [11, 20], [12, 21]]
    units = [[2, 3, 0, 0]] + [[0, 0, 0, 0]] * 7
    state = resolving(
        CAMEL_3,
        {BLUE: offer({"camel": 1})},
        wonder=1,
        wonders=board,
        units=units,
        hands=[{"camel": 3}, {}, {}, {}],
        action_deck=["five_points"],
    )
    after = accept(state, [])
    assert after.phase == OVER
    assert ENGINE.to_move(after) == []
    scores = ENGINE.scores(after)
    # Second completed wonder: row 2 pays 10 / 5 (A16); Red 5 units, Yellow 3.
    assert [b["wonders"] for b in scores["breakdown"]] == [10, 5, 0, 0]
    assert [b["rejected_offers"] for b in scores["breakdown"]] == [0, 0, 0, 1]
    # A10: Red still draws the action card, and it counts at final scoring.
    assert scores["breakdown"][RED]["action_cards"] == 5
    assert scores["totals"] == [15, 5, 0, 1]
    assert scores["winners"] == [RED]
    # §2.9: no end-of-turn draws; Blue's camel came back.
    assert [sum(h.values()) for h in ENGINE.dump(after)["hands"]] == [0, 0, 0, 1]


def test_t15_abandoning_the_last_camel_disc_does_not_end_the_game() -> None:
    board = [[CAMEL_3], [], [7, 13], [8, 14], [9, 15], [10, 19], [11, 20], [12, 21]]
    state = resolving(CAMEL_3, {}, wonder=1, wonders=board, hands=[{"camel": 3}, {}, {}, {}])
    after = play(state, RED, "abandon")
    assert after.phase == TURN
    assert ENGINE.to_move(after) == [YELLOW]


def test_t16_a_two_type_disc_counts_for_both_of_its_types() -> None:
    board = [[CRANE_4], [D2], [STONEMASON_3], [CAMEL_3], [SHIP_3], [], [], []]
    hands = [{"crane": 7, "stonemason": 2}, {}, {}, {}]
    opts = {"two_type_discs": True}
    state = resolving(D2, {}, wonder=2, wonders=board, hands=hands, options=opts)
    after_d2 = accept(state, [])
    assert after_d2.phase == TURN  # crane 4 and a stonemason disc remain
    next_build = resolving(
        CRANE_4,
        {},
        wonder=1,
        wonders=[list(w) for w in after_d2.wonders],
        hands=hands,
        options=opts,
    )
    assert accept(next_build, []).phase == OVER
    # Were D2 the last stonemason disc, taking it would end the game.
    board[2] = []
    last_stonemason = resolving(D2, {}, wonder=2, wonders=board, hands=hands, options=opts)
    assert accept(last_stonemason, []).phase == OVER


def test_moves_of_the_wrong_step_are_refused() -> None:
    state = resolving(SHIP_5, T1_OFFERS, hands=T1_HANDS)
    with pytest.raises(IllegalMove) as caught:
        play(state, RED, "pass")
    assert caught.value.code == "wrong_phase"
    with pytest.raises(IllegalMove) as caught:
        play(state, YELLOW, "offer", **offer())
    assert caught.value.code == "not_your_turn"


def test_a_seat_that_offered_may_not_offer_again() -> None:
    state = play(position(hands=[{}, {"ship": 2}, {}, {}]), RED, "build", wonder=8, disc=SHIP_5)
    after = play(state, YELLOW, "offer", **offer({"ship": 1}))
    with pytest.raises(IllegalMove) as caught:
        play(after, YELLOW, "offer", **offer({"ship": 1}))
    assert caught.value.code == "not_your_turn"


def test_the_full_board_has_discs_of_every_type() -> None:
    assert sorted(d for w in FULL_BOARD for d in w) == list(range(1, 25))
