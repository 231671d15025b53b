"""Export a finished game as JSON and import it again to replay it (principle 3)."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from games import engines, services
from games.error_texts import describe
from games.models import Game, Result
from games.rendering import recent_moves, seat_names
from tests.conftest import make_user
from tests.games.conftest import play_random_moves

ENGINE = engines.get("akropolis")


@pytest.fixture
def finished(make_game, alice, quick_bots) -> Game:
    game = play_random_moves(make_game(alice, "easy", seed=21))
    services.finish_game(game_id=game.pk)
    return game


def test_export_then_import_reproduces_the_final_state_and_scores(finished, bob) -> None:
    data = json.loads(json.dumps(services.export_game(game=finished)))  # through a file
    copy = services.import_game(data=data, user=bob)
    assert copy.pk != finished.pk
    assert copy.imported and copy.status == Game.Status.FINISHED
    assert copy.state == finished.state
    assert list(copy.moves.values_list("number", "seat", "payload")) == list(
        finished.moves.values_list("number", "seat", "payload")
    )
    original = {r.seat: (r.score, r.breakdown, r.rank) for r in finished.results.all()}
    assert {r.seat: (r.score, r.breakdown, r.rank) for r in copy.results.all()} == original
    # The bot is the site's easy bot again, named in the reader's language with its badge.
    assert [(s.label, s.bot_level, s.is_bot) for s in copy.seats.order_by("position")] == [
        ("Alice", "", False),
        ("", "easy", True),
    ]
    with translation.override("en"):
        assert seat_names(copy) == ["Alice", "Easy bot"]
    with translation.override("hu"):
        assert seat_names(copy)[1] == seat_names(finished)[1] != "easy"
    # An imported game is replayed, not played: it changes nobody's rating.
    assert all(r.rating_after is None for r in Result.objects.filter(game=copy))
    assert services.audit_game(game=copy) == []


def test_an_imported_replay_tells_the_bots_moves_by_the_bots_name(finished, bob) -> None:
    copy = services.import_game(data=services.export_game(game=finished), user=bob)
    with translation.override("en"):
        texts = [m["text"] for m in recent_moves(copy) if m["seat"] == 1]
    assert texts and all(text.startswith("Easy bot ") for text in texts)


def test_a_file_from_before_the_bot_field_still_gives_the_bot_its_name(finished, bob) -> None:
    data = services.export_game(game=finished)
    for seat in data["seats"]:
        del seat["bot"]
    data["seats"][1]["name"] = "easy"  # how such files named a bot
    copy = services.import_game(data=data, user=bob)
    with translation.override("en"):
        assert seat_names(copy) == ["Alice", "Easy bot"]


def test_export_holds_options_seed_moves_scores_and_names(finished) -> None:
    data = services.export_game(game=finished)
    assert data["game"] == "akropolis"
    assert (data["seed"], data["options"], data["players"]) == (21, {}, 2)
    assert len(data["moves"]) == finished.version
    assert data["scores"]["totals"] == ENGINE.scores(ENGINE.load(finished.state))["totals"]
    assert [(s["name"], s["bot_level"], s["bot"]) for s in data["seats"]] == [
        ("Alice", "", False),
        ("Easy bot", "easy", True),
    ]


def test_a_running_game_cannot_be_exported(make_game, alice) -> None:
    # The seed would tell anyone the order of the face-down stacks.
    game = play_random_moves(make_game(alice, "easy"), count=3)
    with pytest.raises(services.GameError) as exc:
        services.export_game(game=game)
    assert exc.value.code == "not_finished"


def test_a_changed_move_in_the_file_gives_a_clear_error(finished, bob) -> None:
    data = services.export_game(game=finished)
    data["moves"][4]["move"] = {"type": "take_tile", "index": 99}
    with pytest.raises(services.GameError) as exc:
        services.import_game(data=data, user=bob)
    assert exc.value.params["number"] == 4
    assert "Move 4" in describe(exc.value)
    assert Game.objects.filter(imported=True).count() == 0


def test_changed_scores_in_the_file_are_refused(finished, bob) -> None:
    data = services.export_game(game=finished)
    data["scores"]["totals"][0] += 10
    with pytest.raises(services.GameError) as exc:
        services.import_game(data=data, user=bob)
    assert exc.value.code == "scores_differ"


@pytest.mark.parametrize(
    "content",
    [b"not json at all", b"[1, 2, 3]", json.dumps({"format": "something else"}).encode()],
)
def test_a_file_that_is_not_an_export_is_refused(content, bob) -> None:
    with pytest.raises(services.GameError) as exc:
        services.import_game(data=content, user=bob)
    assert exc.value.code == "bad_file"
    assert describe(exc.value) == "This file is not a game exported from this site."


def test_an_unfinished_log_is_refused(finished, bob) -> None:
    data = services.export_game(game=finished)
    data["moves"] = data["moves"][:10]
    data.pop("scores")
    with pytest.raises(services.GameError) as exc:
        services.import_game(data=data, user=bob)
    assert exc.value.code == "bad_file"


def test_a_seed_out_of_the_databases_range_is_refused(finished, bob) -> None:
    data = services.export_game(game=finished)
    data["seed"] = 2**63
    with pytest.raises(services.GameError) as exc:
        services.import_game(data=data, user=bob)
    assert (exc.value.code, exc.value.params["field"]) == ("bad_field", "seed")
    assert describe(exc.value) == "This file cannot be imported: seed is out of range."
    assert Game.objects.filter(imported=True).count() == 0


_EXPORTED: list[str] = []


@pytest.fixture
def exported(make_game, alice, quick_bots) -> dict:
    """The export of the `finished` game, as a file holds it: played once for all the tests
    below, which only change the file (the game itself is the same every time: fixed seeds)."""
    if not _EXPORTED:
        game = play_random_moves(make_game(alice, "easy", seed=21))
        services.finish_game(game_id=game.pk)
        _EXPORTED.append(json.dumps(services.export_game(game=game)))
    return json.loads(_EXPORTED[0])


# Issue 10, defect 8: PostgreSQL refuses NUL characters and lone surrogates (which JSON's
# \ud800 escapes produce), and a name that is not text used to be stored as Python's repr.
@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("Al\x00ice", "holds a character that cannot be stored"),
        ("Al\ud800ice", "holds a character that cannot be stored"),
        (123, "must be text"),
        (["Alice"], "must be text"),
        ({"first": "Alice"}, "must be text"),
        ("A" * 151, "is too long (at most 150 characters)"),
    ],
)
def test_a_seat_name_that_cannot_be_stored_is_refused_by_name(exported, bob, name, problem) -> None:
    data = exported
    data["seats"][0]["name"] = name
    with pytest.raises(services.GameError) as exc:
        services.import_game(data=data, user=bob)
    assert exc.value.params["field"] == "seats[0].name"
    assert describe(exc.value).startswith(f"This file cannot be imported: seats[0].name {problem}")
    assert Game.objects.filter(imported=True).count() == 0


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["seats"].append({"seat": 0, "name": "again"}), "seats"),
        (lambda d: d["seats"][1].update(seat=1.0), "seats[1].seat"),
        (lambda d: d["seats"][1].update(seat=0), "seats[1].seat"),
        (lambda d: d["seats"][1].update(bot_level="godlike"), "seats[1].bot_level"),
        (lambda d: d["seats"][0].update(resigned="no"), "seats[0].resigned"),
        (lambda d: d["seats"][1].update(bot="yes"), "seats[1].bot"),
        (lambda d: d["seats"].__setitem__(1, "easy"), "seats[1]"),
        (lambda d: d["moves"][3].update(by_bot=1), "moves[3].by_bot"),
        (lambda d: d["moves"][3].update(seat=True), "moves[3].seat"),
        (lambda d: d["moves"][3].update(number=None), "moves[3].number"),
        (lambda d: d["moves"][3].update(move=["take_tile", 0]), "moves[3].move"),
        (lambda d: d["moves"][3]["move"].update(note="\x00"), "moves[3].move"),
        (lambda d: d["moves"].__setitem__(3, None), "moves[3]"),
        (lambda d: d.update(options={"\ud83d": True}), "options"),
        (lambda d: d.update(players=2.0), "players"),
        (lambda d: d.update(game=["akropolis"]), "game"),
        (lambda d: d.update(game="chess"), "game"),
        (lambda d: d.update(finished_at=20240101), "finished_at"),
        (lambda d: d.update(scores=[1, 2]), "scores"),
        (lambda d: d["scores"].update(totals="10, 20"), "scores.totals"),
    ],
)
def test_every_field_of_an_import_is_checked(exported, bob, change, field) -> None:
    data = exported
    change(data)
    with pytest.raises(services.GameError) as exc:
        services.import_game(data=data, user=bob)
    assert exc.value.code == "bad_field"
    assert exc.value.params["field"] == field
    assert describe(exc.value).startswith(f"This file cannot be imported: {field} ")
    assert Game.objects.filter(imported=True).count() == 0


def test_the_import_page_names_the_field_instead_of_failing(exported, bob, client) -> None:
    text = json.dumps(exported).replace('"Alice"', '"Al\\u0000ice"')
    assert "\\u0000" in text
    client.force_login(bob)
    upload = SimpleUploadedFile("game.json", text.encode(), content_type="application/json")
    response = client.post(reverse("games:import"), {"file": upload})
    assert response.status_code == 400
    assert "seats[0].name holds a character that cannot be stored" in response.content.decode()
    assert Game.objects.filter(imported=True).count() == 0


@pytest.mark.parametrize("query", ["", "?move=1", "?seat=0", "?seat=1&move=3"])
def test_the_replay_of_a_finished_game_offers_its_export_at_every_move_and_seat(
    finished, alice, client, query: str
) -> None:
    client.force_login(alice)
    page = client.get(reverse("games:replay", args=[finished.pk]) + query).content.decode()
    assert reverse("games:export", args=[finished.pk]) in page


# Issue 31, item 5: an imported seat's name follows the rules of members' names
# (accounts.names); a file holding one that breaks them is refused, naming the seat.
@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("demo", "is the name of the site's demo account"),
        ("Dem0", "is the name of the site's demo account"),
        ("Hard bot", "is reserved for the site's bots and empty seats"),
        ("Open seat", "is reserved for the site's bots and empty seats"),
        ("Hard \u0299ot", "is reserved for the site's bots and empty seats"),
        ("Hard b\u1d0f\u1d1b", "is reserved for the site's bots and empty seats"),
        ("Hard \u042cot", "is reserved for the site's bots and empty seats"),
        ("Trudny b\u043et", "is reserved for the site's bots and empty seats"),
        ("Hard b\u200bot", "holds an invisible character"),
        ("Hard\u3164bot", "holds an invisible character"),
        ("Open\u3164seat", "holds an invisible character"),
        ("\u3164", "holds an invisible character"),
        ("\u2800\u2800", "holds an invisible character"),
        ("Al\u200dice", "holds an invisible character"),
        (" Alice", "holds a space other than one ordinary space between words"),
        ("Kovács\u3000Éva", "holds a space other than one ordinary space between words"),
    ],
)
def test_an_imported_seat_name_that_renders_blank_or_as_a_bot_is_refused(
    exported, bob, name, problem
) -> None:
    data = exported
    data["seats"][0]["name"] = name
    with pytest.raises(services.GameError) as exc:
        services.import_game(data=data, user=bob)
    assert exc.value.params["field"] == "seats[0].name"
    assert describe(exc.value).startswith(f"This file cannot be imported: seats[0].name {problem}")
    assert Game.objects.filter(imported=True).count() == 0


@pytest.mark.parametrize("name", ["Kovács Éva", "Łucja Wójcik", "Anna Nowak"])
def test_an_imported_seat_keeps_a_name_with_accents_and_one_space(exported, bob, name) -> None:
    data = exported
    data["seats"][0]["name"] = name
    copy = services.import_game(data=data, user=bob)
    assert seat_names(copy)[0] == name


def test_a_bots_seat_may_still_be_called_by_the_bots_name_in_a_file(exported, bob) -> None:
    """The site's own export names its bots ("Easy bot"): such a seat is the site's bot again,
    with its badge, not a seat named like one."""
    data = exported
    assert (data["seats"][1]["name"], data["seats"][1]["bot"]) == ("Easy bot", True)
    copy = services.import_game(data=data, user=bob)
    assert copy.seats.get(position=1).is_bot


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("hu", "fenntartott"),
        ("pl", "zarezerwowan"),
    ],
)
def test_the_import_refusal_of_a_bots_name_reads_in_the_members_language(
    exported, bob, language, text
) -> None:
    data = exported
    data["seats"][0]["name"] = "Hard \u0299ot"
    with pytest.raises(services.GameError) as exc:
        services.import_game(data=data, user=bob)
    with translation.override(language):
        assert text in describe(exc.value)


def test_the_demo_account_may_import_its_own_games(exported, db) -> None:
    demo = make_user("demo", display_name="Demo")
    data = exported
    data["seats"][0]["name"] = "Demo"
    copy = services.import_game(data=data, user=demo)
    assert seat_names(copy)[0] == "Demo"
