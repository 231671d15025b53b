"""The post-game review (games/services/reviews.py): asked for once, stored, resumed after a
dead worker, refused for running games; its open data and replay page; and the hint."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.urls import reverse

from games import engines, rendering, services, tasks
from games.bots import advice
from games.models import Game, Hint, Rating, Review
from games.services import hints, reviews
from tests.games.conftest import build_game, play_random_moves


@pytest.fixture
def few_iterations(settings: Any) -> None:
    settings.REVIEW_ITERATIONS = 2


def finished_game(*players: Any, seed: int = 7) -> Game:
    game = play_random_moves(build_game(*players, seed=seed))
    assert game.status == Game.Status.FINISHED
    return game


def test_a_running_game_is_not_reviewed(make_game, alice, client, sent) -> None:
    game = make_game(alice, "normal")
    with pytest.raises(services.GameError) as caught:
        reviews.request_review(game_id=game.pk)
    assert caught.value.code == "review_not_finished"
    client.force_login(alice)
    response = client.post(reverse("games:review", args=[game.pk]), follow=True)
    assert "Only a finished game can be reviewed" in response.content.decode()
    assert not Review.objects.exists()
    assert sent == []
    assert client.get(reverse("games:review_json", args=[game.pk])).json() == {"status": "none"}


@pytest.mark.django_db(transaction=True)
def test_two_requests_make_one_review(alice, bob, client, sent, few_iterations) -> None:
    game = finished_game(alice, bob)
    client.force_login(bob)
    for _ in range(2):
        response = client.post(reverse("games:review", args=[game.pk]))
        assert response.status_code == 302
    assert Review.objects.filter(game=game).count() == 1
    assert [args for task, args in sent if task.name == tasks.review_game.name] == [(game.pk,)]
    data = client.get(reverse("games:review_json", args=[game.pk])).json()
    assert data["status"] == "running"
    assert (data["progress"], data["total"], data["iterations"]) == (0, game.version, 2)
    assert "decisions" not in data


def test_the_review_runs_once_and_is_open_data(alice, bob, client, sent, few_iterations) -> None:
    game = finished_game(alice, bob)
    reviews.request_review(game_id=game.pk)
    assert tasks.review_game.apply(args=(game.pk,)).get() is True
    # A second delivery of the task finds the review done.
    assert tasks.review_game.apply(args=(game.pk,)).get() is False
    client.force_login(alice)
    data = client.get(reverse("games:review_json", args=[game.pk])).json()
    assert data["status"] == "done"
    moves = list(game.moves.order_by("number"))
    assert [d["number"] for d in data["decisions"]] == list(range(1, len(moves) + 1))
    for decision, move in zip(data["decisions"], moves, strict=True):
        assert set(decision) == set(reviews.DECISION_KEYS)
        assert (decision["seat"], decision["move"]) == (move.seat, move.payload)
        assert decision["iterations"] == 2
        assert decision["cost"] >= 0
        if decision["move"] == decision["best"]:
            assert decision["cost"] == 0
        else:
            assert decision["cost"] == max(0, round(decision["best_value"] - decision["value"], 2))
    assert "estimates" in data["note"]


def test_a_review_cut_short_by_a_dead_worker_resumes_and_finishes_once(
    alice, bob, sent, few_iterations, monkeypatch
) -> None:
    game = finished_game(alice, bob)
    reviews.request_review(game_id=game.pk)
    real = advice.review_move
    calls: list[int] = []

    class WorkerKilled(BaseException):
        pass

    def dies_at_the_fourth(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 4:
            raise WorkerKilled
        return real(*args, **kwargs)

    monkeypatch.setattr(advice, "review_move", dies_at_the_fourth)
    with pytest.raises(WorkerKilled):
        reviews.run_review(game_id=game.pk)
    review = Review.objects.get(game=game)
    assert (review.status, review.progress, len(review.decisions)) == ("running", 3, 3)
    # The task is delivered again (late acknowledgement): it carries on from move 4.
    assert reviews.run_review(game_id=game.pk) is True
    review.refresh_from_db()
    assert review.status == "done"
    assert [d["number"] for d in review.decisions] == list(range(1, game.version + 1))
    assert len(calls) == game.version + 1  # every decision once, and the one cut short


def test_a_second_worker_stops_where_the_first_already_stored(
    alice, bob, sent, few_iterations
) -> None:
    game = finished_game(alice, bob)
    review = reviews.request_review(game_id=game.pk)
    entry = {"number": 1, "seat": 0, "move": {}, "best": {}, "value": 0, "best_value": 0}
    assert reviews._store(review.pk, 0, entry) is True
    # A worker that computed the same first decision cannot store it twice.
    assert reviews._store(review.pk, 0, entry) is False
    assert Review.objects.get(pk=review.pk).progress == 1


def test_the_replay_shows_the_review_in_hungarian(alice, bob, client, sent, few_iterations) -> None:
    game = finished_game(alice, bob)
    reviews.request_review(game_id=game.pk)
    reviews.run_review(game_id=game.pk)
    review = Review.objects.get(game=game)
    costly = max(review.decisions, key=lambda d: d["cost"])
    assert costly["cost"] > 0
    alice.language = "hu"
    alice.save()
    client.force_login(alice)
    url = reverse("games:replay", args=[game.pk])
    page = client.get(f"{url}?move={costly['number']}", HTTP_ACCEPT_LANGUAGE="hu").content.decode()
    assert "Becsült elvesztett pontok" in page
    assert f"?move={costly['number']}&amp;alt=1" in page
    assert "review-chart" in page
    alternative = client.get(
        f"{url}?move={costly['number']}&alt=1", HTTP_ACCEPT_LANGUAGE="hu"
    ).content.decode()
    assert "alt-note" in alternative


def test_the_replay_of_a_running_review_listens_on_the_games_socket(
    alice, bob, client, sent, few_iterations
) -> None:
    """While the review runs, the replay shows its progress and opens the game's socket for
    it (tests/games/test_consumers.py checks what that socket sends); once done, no socket."""
    game = finished_game(alice, bob)
    reviews.request_review(game_id=game.pk)
    client.force_login(alice)
    url = reverse("games:replay", args=[game.pk])
    running = client.get(url).content.decode()
    assert f'ws-connect="/ws/games/{game.pk}/?page=review"' in running
    assert f"move 0 of {game.version}" in running
    reviews.run_review(game_id=game.pk)
    assert "?page=review" not in client.get(url).content.decode()


def test_a_hint_is_refused_in_a_game_with_two_members(make_game, alice, bob, client) -> None:
    game = make_game(alice, bob)
    with pytest.raises(services.GameError) as caught:
        hints.request_hint(game_id=game.pk, user=alice)
    assert caught.value.code == "hint_members"
    client.force_login(alice)
    response = client.post(reverse("games:hint", args=[game.pk]), follow=True)
    assert "Hints are only for games against bots" in response.content.decode()
    game.refresh_from_db()
    assert game.hints_used is False
    assert not Hint.objects.exists()


def test_a_hint_against_bots_is_recorded_and_leaves_the_game_unrated(
    make_game, alice, client, sent, django_capture_on_commit_callbacks
) -> None:
    game = make_game(alice, "normal")
    client.force_login(alice)
    page = client.get(reverse("games:play", args=[game.pk])).content.decode()
    assert reverse("games:hint", args=[game.pk]) in page
    # The post answers at once: the heavy worker computes the hint (here: called directly).
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("games:hint", args=[game.pk]), follow=True)
    assert response.status_code == 200
    assert "The hard bot is thinking about your hint" in response.content.decode()
    game.refresh_from_db()
    assert game.hints_used is True
    [(task, (hint_id,))] = sent
    assert task.name == tasks.compute_hint.name
    assert hints.compute_hint(hint_id=hint_id)
    page = client.get(reverse("games:play", args=[game.pk])).content.decode()
    assert "Hint from the hard bot" in page
    game = play_random_moves(game)
    services.finish_game(game_id=game.pk)
    assert not Rating.objects.exists()
    assert all(r.rating_after is None for r in game.results.all())
    page = client.get(reverse("games:play", args=[game.pk])).content.decode()
    assert "so it is not rated" in page


def test_a_hint_is_only_for_the_member_to_move(make_game, alice) -> None:
    game = make_game("normal", alice)
    with pytest.raises(services.GameError) as caught:
        hints.request_hint(game_id=game.pk, user=alice)
    assert caught.value.code == "not_your_turn"


def test_the_game_page_shows_the_progress_its_socket_sends(
    alice, bob, client, sent, few_iterations, monkeypatch
) -> None:
    """Each stored decision announces the game on its socket, and the board it then gets
    (a new stamp) says how far the review has come."""
    from games import broadcast, rendering

    game = finished_game(alice, bob)
    # A step was taken back during the game: the board's revision is then ahead of its move
    # number, and live messages carry the revision (principle 7).
    Game.objects.filter(pk=game.pk).update(steps_taken_back=1)
    game.refresh_from_db()
    assert game.revision != game.version
    announced: list[tuple[int, int]] = []
    monkeypatch.setattr(broadcast, "notify_game_changed", lambda g, v: announced.append((g, v)))
    client.force_login(alice)
    client.post(reverse("games:review", args=[game.pk]), {"from": "play"})
    before = rendering.board_stamp(game)
    html = rendering.board_html(game=game, seat=0)
    assert f"move 0 of {game.version}" in html
    real = advice.review_move

    def stops_after_two(*args: Any, **kwargs: Any) -> Any:
        if len(announced) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(advice, "review_move", stops_after_two)
    with pytest.raises(KeyboardInterrupt):
        reviews.run_review(game_id=game.pk)
    assert announced == [(game.pk, game.revision)] * 2
    assert rendering.board_stamp(game) != before
    assert f"move 2 of {game.version}" in rendering.board_html(game=game, seat=0)


def test_a_hint_is_shown_on_the_board_without_being_played(make_game, alice, client, sent) -> None:
    from games import engines

    game = make_game(alice, "normal")
    engine = engines.get(game.engine_slug)
    client.force_login(alice)
    hints.compute_hint(hint_id=hints.request_hint(game_id=game.pk, user=alice).pk)
    page = client.post(reverse("games:hint", args=[game.pk]), {"show": "board"}).content.decode()
    assert "The board shows the position after the hint" in page
    # Akropolis begins by taking a tile: the board after the hint is in the placing phase.
    assert 'data-phase="place"' in page
    game.refresh_from_db()
    assert game.version == 0
    assert engine.view(engine.load(game.state), 0)["phase"] == "take"


def test_review_json_names_its_game_players_search_and_date(
    alice, carol, client, sent, few_iterations
) -> None:
    game = finished_game(alice, "hard")
    reviews.request_review(game_id=game.pk)
    assert tasks.review_game.apply(args=(game.pk,)).get() is True
    # Carol sat at no seat; like the replay of the finished game, its review is hers to read.
    client.force_login(carol)
    data = client.get(reverse("games:review_json", args=[game.pk])).json()
    assert (data["game"], data["engine"], data["iterations"]) == (game.pk, "akropolis", 2)
    assert data["players"] == [
        {"seat": 0, "name": "Alice", "member": "alice", "bot": None},
        {"seat": 1, "name": "Hard bot", "member": None, "bot": "hard"},
    ]
    reviewed = datetime.datetime.fromisoformat(data["reviewed_at"])
    assert reviewed == Review.objects.get(game=game).finished_at
    assert all(d["iterations"] == 2 for d in data["decisions"])


def test_review_json_is_readable_by_whoever_may_see_the_replay(alice, client, sent) -> None:
    game = finished_game(alice, "normal")
    reviews.request_review(game_id=game.pk)
    # Not signed in: the replay and the review both ask to sign in first.
    for name in ("games:replay", "games:review_json"):
        response = client.get(reverse(name, args=[game.pk]))
        assert response.status_code == 302
        assert reverse("account_login") in response["Location"]


def reviewed_by_hand(game: Game, costly: int, cost: float) -> dict[str, Any]:
    """A finished review of `game` stored as given: every decision valued at its move number
    tenths of a point for seat 0 and minus that for the others (costing nothing), but move
    `costly`, whose best is another legal move of the same kind, `cost` points better."""
    decisions = []
    for move in game.moves.order_by("number"):
        value = (move.number + 1) / 10 * (1 if move.seat == 0 else -1)
        entry = {
            "number": move.number + 1,
            "seat": move.seat,
            "move": move.payload,
            "best": move.payload,
            "value": value,
            "best_value": value,
            "cost": 0.0,
            "iterations": 2,
            "mark": "none",
        }
        if move.number + 1 == costly:
            state = services.state_at(game=game, number=move.number)
            engine = engines.get(game.engine_slug)
            other = next(
                m
                for m in engine.legal_moves(state, move.seat)
                if m["type"] == move.payload["type"] and m != move.payload
            )
            entry.update(best=other, best_value=value + cost, cost=cost, mark="large")
        decisions.append(entry)
    Review.objects.create(
        game=game,
        status=Review.Status.DONE,
        total=len(decisions),
        progress=len(decisions),
        iterations=2,
        decisions=decisions,
    )
    return next(d for d in decisions if d["number"] == costly)


def test_the_review_advises_the_reader_on_their_own_seats(alice, bob, client) -> None:
    game = finished_game(alice, bob)
    # Move 1 is Alice's first take: the alternative is another tile of the site.
    decision = reviewed_by_hand(game, costly=1, cost=6.4)
    assert decision["best"]["type"] == "take_tile"
    url = reverse("games:replay", args=[game.pk]) + "?move=1"
    client.force_login(alice)
    page = client.get(url).content.decode()
    assert re.search(r"Better: Take the (free|\d-stone) tile, about 6.4 points better\.", page)
    alice.language = "hu"
    alice.save()
    hungarian = client.get(url, HTTP_ACCEPT_LANGUAGE="hu").content.decode()
    assert re.search(
        r"Jobb lett volna: Vedd el a \d kőbe kerülő lapkát – nagyjából 6,4 ponttal", hungarian
    )
    client.force_login(bob)
    page = client.get(url).content.decode()
    assert re.search(r"Better for Alice: Take the (free|\d-stone) tile, about 6.4 points", page)


SVG_NUMBER = re.compile(r"-?\d+(\.\d+)?")


def test_the_review_chart_in_hungarian_has_axes_legend_marks_and_a_table(
    alice, bob, client
) -> None:
    game = finished_game(alice, bob)
    reviewed_by_hand(game, costly=3, cost=4.5)
    alice.language = "hu"
    alice.save()
    client.force_login(alice)
    page = client.get(
        reverse("games:replay", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="hu"
    ).content.decode()
    svg = re.search(r'<svg class="review-chart".*?</svg>', page, re.S).group(0)
    # Every number the drawing reads is written with a point, though Hungarian uses a comma.
    for name, value in re.findall(r'\s(x|y|x1|y1|x2|y2|cx|cy|r|height|width)="([^"]*)"', svg):
        assert SVG_NUMBER.fullmatch(value), (name, value)
    for points in re.findall(r'points="([^"]*)"', svg):
        for pair in points.split():
            assert all(SVG_NUMBER.fullmatch(n) for n in pair.split(",")), pair
    assert all(SVG_NUMBER.fullmatch(n) for n in re.search(r'viewBox="([^"]*)"', svg)[1].split())
    # Axes with their titles and move numbers, the zero line, a legend with both players.
    assert svg.count('class="axis"') == 2
    assert "Lépés" in svg and "Előny (+) vagy hátrány (−), pont" in svg
    assert re.search(r'class="tick" text-anchor="middle">1</text>', svg)
    assert 'class="zero"' in svg
    legend = re.search(r'<g class="legend">.*?</g>\s*</svg>', svg, re.S).group(0)
    assert "Alice" in legend and "Bob" in legend
    assert "A legtöbbe kerülő döntések" in legend
    # Told apart without colour: each line has its own dash pattern and marker.
    assert svg.count("<polyline") == 2 and 'stroke-dasharray="6 3"' in svg
    assert "●" in svg and "■" in svg
    # The costliest decision is marked and links to its move.
    assert re.search(r'<a href="\?move=3" class="costly-link"><title>3\. lépés', svg)
    # The data as a table, in the reader's number format (Akropolis: a turn is two moves).
    table = re.search(r'<table class="visually-hidden review-chart-data">.*?</table>', page, re.S)
    rows = re.findall(r"<tr><th scope=\"row\">(.*?)</th><td>(.*?)</td><td>(.*?)</td>", table[0])
    assert rows[1] == ("2", "Alice", "0,2")
    assert rows[2] == ('<a href="?move=3">3</a>', "Bob", "-0,3")


def test_my_games_lists_a_game_with_hints_as_unrated(alice, client) -> None:
    game = build_game(alice, "easy")
    Game.objects.filter(pk=game.pk).update(hints_used=True)
    game = play_random_moves(Game.objects.get(pk=game.pk))
    assert game.status == Game.Status.FINISHED
    client.force_login(alice)
    page = client.get(reverse("games:history")).content.decode()
    row = re.search(rf"<tr[^>]*>(?:(?!</tr>).)*?/games/{game.pk}/(?:(?!</tr>).)*</tr>", page, re.S)
    assert row is not None
    assert ">unrated<" in row.group(0)
    assert ">rated" not in row.group(0)


def test_a_live_board_of_a_finished_game_brings_the_review_button_and_drops_the_hint(
    alice, client, sent
) -> None:
    running = build_game(alice, "easy")
    assert 'id="game-actions"' not in rendering.board_html(game=running, seat=0)
    game = finished_game(alice, "easy")
    live = rendering.board_html(game=game, seat=0)
    actions = re.search(
        r'<div class="actions" id="game-actions" hx-swap-oob="true">.*?</div>', live, re.S
    )
    assert actions is not None
    assert "Review this game" in actions.group(0)
    assert f'hx-post="{reverse("games:review", args=[game.pk])}"' in actions.group(0)
    assert "Hint" not in actions.group(0)
    # The board fetched over HTTP (after a missed message) brings the same.
    client.force_login(alice)
    fetched = client.get(reverse("games:board", args=[game.pk])).content.decode()
    assert 'id="game-actions" hx-swap-oob="true"' in fetched
    # That button asks for the review and loads the game page again.
    response = client.post(
        reverse("games:review", args=[game.pk]), {"from": "play"}, headers={"HX-Request": "true"}
    )
    assert response["HX-Redirect"] == reverse("games:play", args=[game.pk])
    assert Review.objects.filter(game=game).exists()


def test_a_finished_board_without_its_results_asks_to_be_fetched_again(alice, sent) -> None:
    game = finished_game(alice, "easy")
    game.results.all().delete()
    assert 'data-results-pending="1"' in rendering.board_html(game=game, seat=0)
    services.finish_game(game_id=game.pk)
    board = rendering.board_html(game=Game.objects.get(pk=game.pk), seat=0)
    assert "data-results-pending" not in board
    assert 'class="rating"' in board
