"""Tower of Babel in real browsers: two members and a bot complete one build with secret offers.

Alice picks a disc she can complete, Bob hands in his offer in his own browser while the bot
makes its offer as its own Celery task, nobody sees an offer before all are in, and then Alice
takes Bob's offer and builds. Both pages follow every move over the game socket.
"""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.engines.tower_of_babel import ENGINE, data
from tests.conftest import make_user
from tests.e2e.test_play import (
    in_another_thread,
    join_in_another_thread,
    logged_in_page,
    wait_for_version,
    wait_for_version_at_least,
    wait_until_settled,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def a_seed_where_alice_can_build() -> tuple[int, int, int, str]:
    """A 3-player setup in which Alice (seat 0, the start player) holds three cards of a
    type whose 3-card disc lies on a wonder, and Bob (seat 1) holds one of that type too:
    (seed, wonder, disc, type)."""
    for seed in range(2_000):
        state = ENGINE.new_game(3, seed)
        for wonder, discs in enumerate(state.wonders, start=1):
            for disc in discs:
                needs = data.DISCS[disc]
                kind = next(k for k in range(4) if needs[k])
                if needs[kind] == 3 and state.hands[0][kind] >= 3 and state.hands[1][kind] >= 1:
                    return seed, wonder, disc, data.TYPES[kind]
    raise AssertionError("no such seed")


def test_two_members_and_a_bot_complete_a_build_with_secret_offers(
    asgi_server: str, celery_worker_process: Any, new_page: Any
) -> None:
    alice, bob = make_user("alice", display_name="Alice"), make_user("bob", display_name="Bob")
    seed, wonder, disc, kind = a_seed_where_alice_can_build()
    game = services.create_game(
        engine_slug="tower-of-babel",
        players=3,
        options={},
        seats=[{"kind": "me"}, {"kind": "open"}, {"kind": "bot", "bot_level": "normal"}],
        created_by=alice,
        seed=seed,
    )
    join_in_another_thread(game, bob)
    phone = {"viewport": {"width": 390, "height": 844}, "has_touch": True}
    alice_page = logged_in_page(new_page, asgi_server, alice, **phone)
    bob_page = logged_in_page(new_page, asgi_server, bob)
    for page in (alice_page, bob_page):
        page.goto(f"http://{asgi_server}/games/{game.pk}/")
        page.wait_for_selector('#game-board[data-version="0"]')

    # Alice taps the disc on its wonder: the build asks Bob and the bot for offers. The bot
    # may offer before either page shows the build, so a page may go from move 0 to move 2.
    alice_page.locator(f'#wonder-{wonder} button.tob-disc[data-disc="{disc}"]').tap()
    wait_for_version_at_least(alice_page, 1)
    wait_for_version_at_least(bob_page, 1)
    assert game.moves.get(number=0).payload == {"type": "build", "wonder": wonder, "disc": disc}

    # Bob picks one card of the type with the picker and hands it in (the bot's offer may
    # redraw his board just after he types).
    form = bob_page.locator("form.tob-offer-form")
    form.locator(f'input[data-type="{kind}"]').fill("1")
    wait_for_move_to_hand_in(bob_page, one_card_offer(kind))
    form.get_by_role("button", name="Hand in my offer").click()

    # The bot offers by itself; once every offer is in, all are shown to everyone.
    wait_for_version(alice_page, 3)
    wait_for_version(bob_page, 3)
    bob_offer = alice_page.locator('.tob-offers li[data-seat="1"]')
    assert bob_offer.get_attribute("data-status") == "shown"
    assert f"1 {kind}" in bob_offer.inner_text()

    # Alice ticks Bob's offer, sees the total against the disc, and confirms.
    accept = alice_page.locator("form.tob-accept-form")
    accept.locator('input[data-seat="1"]').check()
    assert "Cards from offers: 1 of 3" in accept.locator(".tob-total").inner_text()
    accept.get_by_role("button", name="Confirm and build").tap()
    wait_for_version(alice_page, 4)
    wait_for_version(bob_page, 4)
    assert game.moves.get(number=3).payload == {"type": "accept", "offers": [1], "jokers": {}}

    game.refresh_from_db()
    state = ENGINE.load(game.state)
    assert disc in state.discs[0]
    assert state.units[wonder - 1][:2] == (2, 1)  # Alice's two own cards, Bob's one
    log = bob_page.inner_text(".recent-moves")
    # Whoever offered last made the offers visible; both offers are told without their cards.
    assert "Alice built 3" in log and "Bob handed in" in log and "Normal bot handed in" in log
    assert "Your turn." in bob_page.inner_text(".turn-bar")
    assert alice_page.errors == [] and bob_page.errors == []


def test_an_offer_stays_secret_until_every_offer_is_in(asgi_server: str, new_page: Any) -> None:
    alice, bob = make_user("alice", display_name="Alice"), make_user("bob", display_name="Bob")
    carol = make_user("carol", display_name="Carol")
    seed, wonder, disc, kind = a_seed_where_alice_can_build()
    game = services.create_game(
        engine_slug="tower-of-babel",
        players=3,
        options={},
        seats=[{"kind": "me"}, {"kind": "open"}, {"kind": "open"}],
        created_by=alice,
        seed=seed,
    )
    join_in_another_thread(game, bob)
    join_in_another_thread(game, carol)
    alice_page = logged_in_page(new_page, asgi_server, alice)
    bob_page = logged_in_page(new_page, asgi_server, bob)
    for page in (alice_page, bob_page):
        page.goto(f"http://{asgi_server}/games/{game.pk}/")
        page.wait_for_selector('#game-board[data-version="0"]')
    alice_page.locator(f'#wonder-{wonder} button.tob-disc[data-disc="{disc}"]').click()
    wait_for_version(bob_page, 1)

    # Keyboard: Tab reaches the picker, the arrow raises the count, Enter hands it in.
    field = bob_page.locator(f'form.tob-offer-form input[data-type="{kind}"]')
    field.focus()
    bob_page.keyboard.press("ArrowUp")
    assert field.input_value() == "1"
    bob_page.keyboard.press("Enter")
    wait_for_version(alice_page, 2)

    # Alice and Bob both see that Bob has offered; only Bob sees what.
    row = alice_page.locator('.tob-offers li[data-seat="1"]')
    assert row.get_attribute("data-status") == "hidden"
    assert kind not in row.inner_text()
    assert "Waiting for Carol." in alice_page.inner_text(".turn-bar")
    assert alice_page.locator("form.tob-accept-form").count() == 0
    assert alice_page.errors == [] and bob_page.errors == []


# The move Bob's offer form hands in, as its picker has judged what he typed.
MOVE_TO_HAND_IN = "form.tob-offer-form select[name=move]"


def one_card_offer(kind: str) -> str:
    """The offer move of one card of `kind`, as the offer form writes it."""
    return f'{{"type":"offer","cards":{{"{kind}":1}},"trading_card":false,"offer_bonus":false}}'


def wait_for_move_to_hand_in(page: Any, move: str) -> None:
    """Wait until the offer form hands in `move`: after a board is drawn anew, the input put
    back is judged again one turn of the page's event loop later."""
    page.wait_for_function(
        "([css, value]) => document.querySelector(css).value === value",
        arg=[MOVE_TO_HAND_IN, move],
    )


def bob_typing_an_offer_after_alices_build(asgi_server: str, new_page: Any) -> tuple[Any, Any, str]:
    """Alice, Bob and Carol's game after Alice's build, and Bob's page with one card of the
    kind her disc needs typed into his offer: the game, Bob's page and that kind."""
    alice, bob = make_user("alice", display_name="Alice"), make_user("bob", display_name="Bob")
    carol = make_user("carol", display_name="Carol")
    seed, wonder, disc, kind = a_seed_where_alice_can_build()
    game = services.create_game(
        engine_slug="tower-of-babel",
        players=3,
        options={},
        seats=[{"kind": "me"}, {"kind": "open"}, {"kind": "open"}],
        created_by=alice,
        seed=seed,
    )
    join_in_another_thread(game, bob)
    join_in_another_thread(game, carol)
    build = {"type": "build", "wonder": wonder, "disc": disc}
    in_another_thread(
        lambda: services.play_move(game_id=game.pk, seat=0, move=build, expected_version=0)
    )
    bob_page = logged_in_page(new_page, asgi_server, bob)
    bob_page.goto(f"http://{asgi_server}/games/{game.pk}/")
    bob_page.wait_for_selector('#game-board[data-version="1"]')
    bob_page.locator(f'form.tob-offer-form input[data-type="{kind}"]').fill("1")
    return game, bob_page, kind


def test_an_offer_being_made_survives_another_seats_offer(asgi_server: str, new_page: Any) -> None:
    """Bob is filling in his offer when Carol hands in hers, and the board is drawn anew: what
    Bob entered is still there, so he hands in the offer he made, never an empty one unseen."""
    game, bob_page, kind = bob_typing_an_offer_after_alices_build(asgi_server, new_page)
    picker = f'form.tob-offer-form input[data-type="{kind}"]'
    wanted = one_card_offer(kind)
    assert bob_page.locator(MOVE_TO_HAND_IN).input_value() == wanted

    nothing = {"type": "offer", "cards": {}, "trading_card": False, "offer_bonus": False}
    in_another_thread(
        lambda: services.play_move(game_id=game.pk, seat=2, move=nothing, expected_version=1)
    )
    wait_for_version(bob_page, 2)
    # Over the socket the input is back at once; a board that came over HTTP (a socket that
    # opened after Carol's offer fetches it) gets it back once htmx has settled it.
    wait_until_settled(bob_page)
    assert bob_page.locator(picker).input_value() == "1"
    wait_for_move_to_hand_in(bob_page, wanted)
    bob_page.locator("form.tob-offer-form").get_by_role("button", name="Hand in my offer").click()
    wait_for_version(bob_page, 3)
    assert game.moves.get(number=2).payload["cards"] == {kind: 1}
    assert bob_page.errors == []


def test_an_offer_being_made_survives_a_board_that_comes_while_another_settles(
    asgi_server: str, new_page: Any
) -> None:
    """A board fetched over HTTP is settling when the next one arrives over the socket (htmx
    puts the member's input back only once it has settled the first): what Bob entered still
    comes back. The socket's message is dispatched at that moment, as the race would bring it;
    the page kept nothing then, and the input was lost."""
    game, bob_page, kind = bob_typing_an_offer_after_alices_build(asgi_server, new_page)
    picker = f'form.tob-offer-form input[data-type="{kind}"]'

    bob_page.evaluate(
        """([url]) => {
             document.addEventListener("htmx:afterSwap", function next(event) {
               if (event.detail.target.id !== "game-board") { return; }
               document.removeEventListener("htmx:afterSwap", next);
               window.swapped = true;
               document.getElementById("game-live").dispatchEvent(new CustomEvent(
                 "htmx:wsBeforeMessage",
                 {bubbles: true, cancelable: true,
                  detail: {message: '<section id="game-board" data-version="2"></section>'}}));
             });
             htmx.ajax("GET", url, {target: "#game-board", swap: "outerHTML"});
           }""",
        [f"/games/{game.pk}/board/?known=-1"],
    )
    bob_page.wait_for_function("() => window.swapped === true")
    wait_until_settled(bob_page)
    assert bob_page.locator(picker).input_value() == "1"
    assert bob_page.errors == []


def a_seed_where_alice_needs_an_offer() -> tuple[int, int, int, str]:
    """A 3-player setup in which Alice holds two cards of a type whose 3-card disc lies on a
    wonder and Bob holds one: once Bob offers it and Carol offers nothing, Alice can build
    with Bob's offer and not without it."""
    for seed in range(2_000):
        state = ENGINE.new_game(3, seed)
        for wonder, discs in enumerate(state.wonders, start=1):
            for disc in discs:
                needs = data.DISCS[disc]
                kind = next(k for k in range(4) if needs[k])
                if needs[kind] != 3 or state.hands[0][kind] != 2 or state.hands[1][kind] < 1:
                    continue
                after = state
                for seat, move in build_and_offers(wonder, disc, data.TYPES[kind]):
                    after = ENGINE.apply_move(after, seat, move)
                choices = [
                    m["offers"]
                    for m in ENGINE.legal_moves(after, 0)
                    if m["type"] == "accept" and not m["jokers"]
                ]
                if [1] in choices and [] not in choices:
                    return seed, wonder, disc, data.TYPES[kind]
    raise AssertionError("no such seed")


def build_and_offers(wonder: int, disc: int, kind: str) -> list[tuple[int, dict]]:
    return [
        (0, {"type": "build", "wonder": wonder, "disc": disc}),
        (1, {"type": "offer", "cards": {kind: 1}, "trading_card": False, "offer_bonus": False}),
        (2, {"type": "offer", "cards": {}, "trading_card": False, "offer_bonus": False}),
    ]


@pytest.mark.parametrize("width", [1280, 390])
def test_the_choice_of_offers_is_judged_only_once_something_is_ticked(
    asgi_server: str, new_page: Any, width: int
) -> None:
    alice, bob = make_user("alice", display_name="Alice"), make_user("bob", display_name="Bob")
    carol = make_user("carol", display_name="Carol")
    seed, wonder, disc, kind = a_seed_where_alice_needs_an_offer()
    game = services.create_game(
        engine_slug="tower-of-babel",
        players=3,
        options={},
        seats=[{"kind": "me"}, {"kind": "open"}, {"kind": "open"}],
        created_by=alice,
        seed=seed,
    )
    join_in_another_thread(game, bob)
    join_in_another_thread(game, carol)
    for number, (seat, move) in enumerate(build_and_offers(wonder, disc, kind)):
        services.play_move(game_id=game.pk, seat=seat, move=move, expected_version=number)
    page = logged_in_page(new_page, asgi_server, alice, viewport={"width": width, "height": 844})
    page.goto(f"http://{asgi_server}/games/{game.pk}/")
    accept = page.locator("form.tob-accept-form")
    accept.locator(".tob-pickers").wait_for()

    # Nothing is ticked yet: no verdict, and the button waits for a choice.
    assert not accept.locator(".tob-invalid").is_visible()
    assert accept.locator(".tob-submit").is_disabled()
    accept.locator('input[data-seat="1"]').check()
    assert not accept.locator(".tob-invalid").is_visible()
    assert accept.locator(".tob-submit").is_enabled()
    # Without Bob's card her hand cannot complete the disc: now that is said.
    accept.locator('input[data-seat="1"]').uncheck()
    assert accept.locator(".tob-invalid").is_visible()
    assert accept.locator(".tob-submit").is_disabled()

    # Every offer row reads "Name: what", with nothing drawn between the name and the colon.
    for row in page.locator(".tob-offers li").all():
        shown = row.evaluate(
            "li => { const name = li.querySelector('strong');"
            " const after = getComputedStyle(name, '::after').content;"
            " return li.innerText + (after === 'none' ? '' : after); }"
        )
        assert " :" not in shown and ": " in shown, shown
    log = page.inner_text(".recent-moves")
    assert "Carol handed in the last secret offer; all offers are shown" in log
    assert "bid" not in log
    assert page.errors == []
