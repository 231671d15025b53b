"""Action cards: tower-of-babel.md §2.7, §3.4 and the cases T12-T14, T19; deck refills (A11)."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalMove
from games.engines.tower_of_babel import ENGINE
from games.engines.tower_of_babel.state import DOUBLE_TURN, OVER, TURN

from .positions import (
    BLUE,
    CRANE_6,
    GREEN,
    RED,
    SHIP_5,
    YELLOW,
    hand,
    offer,
    offering,
    play,
    points,
    position,
    resolving,
)

FIVE_EACH = {"camel": 2, "crane": 1, "ship": 1, "stonemason": 1}


def test_t12_a_joker_stands_for_two_cards_and_two_building_parts() -> None:
    state = resolving(
        SHIP_5,
        {YELLOW: offer({"ship": 1})},
        hands=[{"ship": 2}, {}, {}, {}],
        actions=[["joker"], [], [], []],
    )
    after = play(state, RED, "accept", offers=[YELLOW], jokers={"ship": 1})
    assert after.units[7] == (4, 1, 0, 0)
    assert after.actions[RED] == ()
    assert after.action_discard == ("joker",)
    assert ENGINE.dump(after)["discard"] == {"ship": 3}


def test_t12_a_joker_cannot_fill_a_single_missing_card() -> None:
    offers = {YELLOW: offer({"ship": 2}), GREEN: offer({"ship": 2})}
    state = resolving(
        SHIP_5, offers, hands=[{"ship": 1}, {}, {}, {}], actions=[["joker"], [], [], []]
    )
    with pytest.raises(IllegalMove) as caught:
        play(state, RED, "accept", offers=[YELLOW, GREEN], jokers={"ship": 1})
    assert caught.value.code == "joker_does_not_fit"
    accepts = [m for m in ENGINE.legal_moves(state, RED) if m["type"] == "accept"]
    assert {"type": "accept", "offers": [YELLOW, GREEN], "jokers": {}} in accepts
    assert all(m["jokers"] == {} or m["offers"] != [YELLOW, GREEN] for m in accepts)


def test_two_jokers_may_be_used_together_and_only_if_held() -> None:
    state = resolving(
        SHIP_5, {}, hands=[{"ship": 1}, {}, {}, {}], actions=[["joker", "joker"], [], [], []]
    )
    after = play(state, RED, "accept", offers=[], jokers={"ship": 2})
    assert after.units[7] == (5, 0, 0, 0)
    one_joker = resolving(
        SHIP_5, {}, hands=[{"ship": 1}, {}, {}, {}], actions=[["joker"], [], [], []]
    )
    with pytest.raises(IllegalMove) as caught:
        play(one_joker, RED, "accept", offers=[], jokers={"ship": 2})
    assert caught.value.code == "no_action_card"


def test_t13_a_rejected_offer_with_the_offer_bonus_scores_three_per_card() -> None:
    offers = {GREEN: offer({"crane": 3}, bonus=True), YELLOW: offer({"crane": 3})}
    hands = [{"crane": 3}, {}, {}, {}]
    state = resolving(CRANE_6, offers, wonder=7, hands=hands)
    rejected = play(state, RED, "accept", offers=[YELLOW], jokers={})
    assert points(rejected, GREEN)["rejected_offers"] == 9
    assert rejected.action_discard == ("offer_bonus",)
    taken = play(state, RED, "accept", offers=[GREEN], jokers={})
    assert points(taken, GREEN)["rejected_offers"] == 0
    assert points(taken, YELLOW)["rejected_offers"] == 3
    assert taken.action_discard == ("offer_bonus",)  # A7: discarded anyway


def test_a7_the_offer_bonus_also_pays_in_a_failed_build() -> None:
    state = resolving(CRANE_6, {GREEN: offer({"crane": 2}, bonus=True)}, wonder=7)
    after = play(state, RED, "abandon")
    assert points(after, GREEN)["rejected_offers"] == 6
    assert after.action_discard == ("offer_bonus",)


def test_the_offer_bonus_card_is_attached_secretly_and_needs_cards() -> None:
    state = offering(
        CRANE_6,
        wonder=7,
        hands=[{}, {"crane": 1}, {"crane": 2}, {}],
        actions=[[], [], ["offer_bonus"], []],
    )
    with pytest.raises(IllegalMove) as caught:
        play(state, GREEN, "offer", **offer({}, bonus=True))
    assert caught.value.code == "offer_needs_cards"
    after = play(state, GREEN, "offer", **offer({"crane": 2}, bonus=True))
    assert after.actions[GREEN] == ()
    with pytest.raises(IllegalMove) as caught:
        play(after, YELLOW, "offer", **offer({"crane": 1}, bonus=True))
    assert caught.value.code == "no_action_card"


def test_t14_double_turn_two_passes_and_one_common_draw() -> None:
    state = position(hands=[FIVE_EACH] * 4, actions=[["double_turn"], [], [], []])
    after = play(state, RED, "pass")
    assert after.phase == DOUBLE_TURN
    assert sum(hand(after, RED).values()) == 6
    after = play(after, RED, "double_turn")
    assert after.phase == TURN and after.extra_turn and ENGINE.to_move(after) == [RED]
    after = play(after, RED, "pass")
    assert [sum(h.values()) for h in ENGINE.dump(after)["hands"]] == [8, 6, 6, 6]
    assert ENGINE.to_move(after) == [YELLOW]
    assert after.turn == 2
    assert after.action_discard == ("double_turn",)


def test_a20_no_double_turn_during_the_extra_turn() -> None:
    state = position(hands=[FIVE_EACH] * 4, actions=[["double_turn", "double_turn"], [], [], []])
    after = play(play(play(state, RED, "pass"), RED, "double_turn"), RED, "pass")
    assert after.phase == TURN
    assert ENGINE.to_move(after) == [YELLOW]
    assert after.actions[RED] == ("double_turn",)


def test_declining_the_double_turn_ends_the_turn_and_keeps_the_card() -> None:
    state = position(hands=[FIVE_EACH] * 4, actions=[["double_turn"], [], [], []])
    after = play(play(state, RED, "pass"), RED, "end_turn")
    assert ENGINE.to_move(after) == [YELLOW]
    assert after.actions[RED] == ("double_turn",)
    assert [sum(h.values()) for h in ENGINE.dump(after)["hands"]] == [7, 6, 6, 6]


def test_double_turn_after_a_build_waits_with_the_draws_until_the_extra_turn() -> None:
    state = resolving(
        SHIP_5,
        {YELLOW: offer({"ship": 1})},
        hands=[{"ship": 5}, {}, {}, {}],
        actions=[["double_turn"], [], [], []],
    )
    after = play(state, RED, "accept", offers=[], jokers={})
    assert after.phase == DOUBLE_TURN
    # Step 5 happened (Yellow scored and has his ship back), the draws did not.
    assert points(after, YELLOW)["rejected_offers"] == 1
    assert [sum(h.values()) for h in ENGINE.dump(after)["hands"]] == [0, 1, 0, 0]
    after = play(after, RED, "double_turn")
    after = play(after, RED, "build", wonder=1, disc=1)
    assert ENGINE.to_move(after) == [YELLOW, GREEN, BLUE]


def test_card_exchange_discards_the_chosen_cards_and_draws_as_many() -> None:
    state = offering(
        SHIP_5, hands=[{}, {"camel": 2, "ship": 1}, {}, {}], actions=[[], ["card_exchange"], [], []]
    )
    after = play(state, YELLOW, "card_exchange", cards={"camel": 2})
    # The deck's top cards are camel and crane.
    assert hand(after, YELLOW) == {"camel": 1, "crane": 1, "ship": 1}
    assert ENGINE.dump(after)["discard"] == {"camel": 2}
    assert after.action_discard == ("card_exchange",)
    # Still Yellow's offer to make.
    assert YELLOW in ENGINE.to_move(after)


def test_card_exchange_trades_one_to_five_cards_of_the_hand() -> None:
    state = position(hands=[{"camel": 6}, {}, {}, {}], actions=[["card_exchange"], [], [], []])
    exchanges = [m["cards"] for m in ENGINE.legal_moves(state, RED) if m["type"] == "card_exchange"]
    assert exchanges == [{"camel": n} for n in range(1, 6)]
    with pytest.raises(IllegalMove) as caught:
        play(state, RED, "card_exchange", cards={"camel": 6})
    assert caught.value.code == "exchange_size"
    with pytest.raises(IllegalMove) as caught:
        play(state, RED, "card_exchange", cards={"ship": 1})
    assert caught.value.code == "not_in_hand"


def test_draw_three_lets_the_active_player_complete_a_build() -> None:
    state = resolving(
        SHIP_5,
        {YELLOW: offer({"ship": 2})},
        hands=[{"ship": 1}, {}, {}, {}],
        actions=[["draw_three"], [], [], []],
        deck=["ship", "ship", "camel", "crane"],
    )
    assert ENGINE.legal_moves(state, RED) == [{"type": "abandon"}, {"type": "draw_three"}]
    after = play(state, RED, "draw_three")
    assert hand(after, RED) == {"camel": 1, "ship": 3}
    assert {"type": "accept", "offers": [YELLOW], "jokers": {}} in ENGINE.legal_moves(after, RED)


def test_a19_a_player_the_game_does_not_wait_for_cannot_play_an_action_card() -> None:
    state = position(hands=[{}, {"ship": 1}, {}, {}], actions=[[], ["draw_three"], [], []])
    assert ENGINE.legal_moves(state, YELLOW) == []
    with pytest.raises(IllegalMove) as caught:
        play(state, YELLOW, "draw_three")
    assert caught.value.code == "not_your_turn"
    with pytest.raises(IllegalMove) as caught:
        play(state, RED, "draw_three")
    assert caught.value.code == "no_action_card"


def test_completing_a_wonder_gives_the_active_player_an_action_card_even_after_a_trade() -> None:
    board = [[SHIP_5], [2], [3], [4], [5], [6], [12], [17, 23, 24]]
    state = resolving(
        SHIP_5,
        {GREEN: offer({"ship": 2}, trading=True)},
        wonder=1,
        wonders=board,
        hands=[{"ship": 3}, {}, {}, {}],
        action_deck=["joker", "five_points"],
    )
    after = play(state, RED, "accept", offers=[GREEN], jokers={})
    assert after.discs[GREEN] == (SHIP_5,)
    assert after.actions[RED] == ("joker",)
    assert after.action_deck == ("five_points",)
    # Red placed all 5 parts (3 own + 2 for Green), alone on the first wonder: 8.
    assert points(after, RED)["wonders"] == 8


def test_without_action_cards_completing_a_wonder_draws_nothing() -> None:
    board = [[SHIP_5], [2], [3], [4], [5], [6], [12], [17, 23, 24]]
    state = resolving(
        SHIP_5,
        {},
        wonder=1,
        wonders=board,
        hands=[{"ship": 5}, {}, {}, {}],
        options={"no_action_cards": True},
        action_deck=["joker"],
    )
    after = play(state, RED, "accept", offers=[], jokers={})
    assert after.actions[RED] == ()


def test_t19_disc_bonus_and_five_points_count_at_the_end() -> None:
    state = position(
        phase="over",
        discs=[[1, 7, 13, 19, 2, 8, 14], [], [], []],
        actions=[["disc_bonus", "five_points", "joker", "draw_three"], [], [], []],
    )
    # Seven discs of four types: 2 camels (5), 2 cranes (5), 2 ships (5), 1 stonemason.
    assert points(state, RED)["action_cards"] == 7 + 5
    assert points(state, RED)["disc_sets"] == 15


def test_a11_an_empty_deck_is_refilled_from_the_discard_pile() -> None:
    state = position(hands=[{}, {}, {}, {}], deck=[], discard={"ship": 3})
    after = play(state, RED, "pass")
    # Red draws 2 (pass + end of turn), Yellow 1; then both piles are empty.
    assert [hand(after, s) for s in range(4)] == [{"ship": 2}, {"ship": 1}, {}, {}]
    assert ENGINE.dump(after)["discard"] == {} and after.deck == ()


def test_no_action_card_can_be_played_after_the_game_ends() -> None:
    state = position(phase="over", actions=[["draw_three"], [], [], []], hands=[{}, {}, {}, {}])
    assert state.phase == OVER
    assert ENGINE.legal_moves(state, RED) == []
    with pytest.raises(IllegalMove) as caught:
        play(state, RED, "draw_three")
    assert caught.value.code == "game_over"


def test_blue_is_not_asked_for_anything_while_red_decides() -> None:
    state = resolving(
        SHIP_5, {}, actions=[[], [], [], ["card_exchange"]], hands=[{}, {}, {}, {"camel": 1}]
    )
    assert ENGINE.to_move(state) == [RED]
    assert ENGINE.legal_moves(state, BLUE) == []
