"""The tournament pages: list, create form, the tournament page, the standings exports."""

from __future__ import annotations

import csv
import io
import random
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import Notification, User
from games.models import Tournament, TournamentEntry
from games.services import tournaments
from tests.conftest import make_user
from tests.games.test_tournaments import FIRST, beat_at, create, organiser, play_out

pytestmark = pytest.mark.django_db


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def form_data(**extra: Any) -> dict[str, Any]:
    data = {
        "name": "Autumn cup",
        "engine_slug": "akropolis",
        "format": "swiss",
        "rounds": "3",
        "table_size": "3",
        "capacity": "12",
        "bot_level": "easy",
        "day": (date.today() + timedelta(days=10)).isoformat(),
        "clock": "18:00",
        "round_minutes": "90",
    }
    data.update(extra)
    return data


def test_an_organiser_creates_a_tournament_with_the_form() -> None:
    olga = organiser()
    response = signed_in(olga).post(reverse("games:tournament-new"), form_data())
    t = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == t.get_absolute_url()
    assert (t.format, t.table_size, t.capacity, t.rounds.count()) == ("swiss", 3, 12, 3)
    gaps = [
        b.starts_at - a.starts_at for a, b in zip(t.rounds.all(), t.rounds.all()[1:], strict=False)
    ]
    assert gaps == [timedelta(minutes=90)] * 2


def test_a_member_who_is_no_organiser_is_told_so_and_nothing_is_created(alice: User) -> None:
    client = signed_in(alice)
    response = client.post(reverse("games:tournament-new"), form_data(), follow=True)
    assert "Only an organiser can create tournaments." in response.content.decode()
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("field", "value"),
    [("table_size", "9"), ("day", "2001-01-01"), ("day", "9999-12-31"), ("rounds", "99")],
)
def test_bad_input_is_refused_with_the_form_never_a_500(field: str, value: str) -> None:
    response = signed_in(organiser()).post(
        reverse("games:tournament-new"), form_data(**{field: value})
    )
    assert response.status_code == 400
    assert not Tournament.objects.exists()


def test_a_table_size_the_game_does_not_seat_is_refused_in_the_members_language() -> None:
    olga = organiser()
    olga.language = "hu"
    olga.save()
    client = signed_in(olga)
    response = client.post(
        reverse("games:tournament-new"),
        form_data(table_size="5"),
    )
    assert response.status_code == 400
    with translation.override("hu"):
        expected = translation.gettext("This game is for %(min)s to %(max)s players.") % {
            "min": 2,
            "max": 4,
        }
    assert expected in response.content.decode()
    assert not Tournament.objects.exists()


def test_members_enter_and_withdraw_from_the_tournament_page(alice: User) -> None:
    t = create(organiser())
    client = signed_in(alice)
    client.post(reverse("games:tournament-enter", args=[t.pk]))
    assert TournamentEntry.objects.get(user=alice).status == "registered"
    page = client.get(t.get_absolute_url()).content.decode()
    assert "Withdraw" in page and "Alice" in page
    client.post(reverse("games:tournament-withdraw", args=[t.pk]))
    assert TournamentEntry.objects.get(user=alice).status == "withdrawn"


def test_the_page_shows_tables_with_game_links_bots_labelled_and_the_exports_agree(
    quick_bots: None, django_capture_on_commit_callbacks: Any
) -> None:
    t = create(organiser(), table_size=2, rounds=1)
    members = [make_user(f"m{i}", display_name=f"Member {i}") for i in range(3)]
    for member in members:
        tournaments.register(tournament_id=t.pk, user=member)
    beat_at(FIRST, django_capture_on_commit_callbacks)
    tables = list(t.rounds.get().tables.order_by("number"))
    page = Client().get(t.get_absolute_url()).content.decode()
    for table in tables:
        assert table.game.get_absolute_url() in page
    assert "bot-badge" in page
    for table in tables:
        play_out(table.game, random.Random(4))
    beat_at(FIRST + timedelta(minutes=1), django_capture_on_commit_callbacks)
    page = Client().get(t.get_absolute_url()).content.decode()
    assert "Final ranking" in page
    assert "then by the sum of game scores, then by the tournament points of one" in page

    data = Client().get(reverse("games:tournament-json", args=[t.pk])).json()
    assert data["tiebreaks"] == ["points", "score", "opponents"]
    assert sorted(r["member"] for r in data["standings"]) == ["m0", "m1", "m2"]
    body = Client().get(reverse("games:tournament-csv", args=[t.pk])).content.decode()
    rows = list(csv.DictReader(io.StringIO(body)))
    assert [r["member"] for r in rows] == [r["member"] for r in data["standings"]]
    assert [r["points"] for r in rows] == [r["points"] for r in data["standings"]]
    # Members at a 2-player table: the winner 1 point, the loser 0 (shared: a half each).
    assert sum(float(r["points"]) for r in rows) in (1.0, 1.5, 2.0)


def test_the_list_links_every_tournament() -> None:
    t = create(organiser())
    page = Client().get(reverse("games:tournaments")).content.decode()
    assert t.get_absolute_url() in page and "Spring cup" in page


def test_the_tournament_page_speaks_polish(alice: User) -> None:
    alice.language = "pl"
    alice.save()
    t = create(organiser())
    page = signed_in(alice).get(t.get_absolute_url()).content.decode()
    assert "Zgłoś się do turnieju" in page  # "Enter the tournament"
    assert "punkty turniejowe przeciwników" in page  # the tiebreak order


# --- async rounds, the hour shown twice, the calendar, the cancel (issue 35) ---------------------


def test_an_organiser_creates_a_tournament_of_async_rounds_with_the_form() -> None:
    client = signed_in(organiser())
    response = client.post(
        reverse("games:tournament-new"),
        form_data(pace="async", round_days="7", days_per_move="2", round_minutes=""),
    )
    t = Tournament.objects.get()
    assert response.status_code == 302
    assert (t.round_days, t.days_per_move) == (7, 2)
    page = client.get(t.get_absolute_url()).content.decode()
    assert "Async: each round lasts 7 days from its start; 2 days per move." in page
    assert "a bot (Easy bot) plays every member's seat still in play to the end" in page


def test_async_rounds_without_their_days_are_refused() -> None:
    response = signed_in(organiser()).post(
        reverse("games:tournament-new"), form_data(pace="async", round_days="", days_per_move="")
    )
    assert response.status_code == 400
    assert "Async rounds need this." in response.content.decode()
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("hu", "Levelezős: minden forduló a kezdetétől 7 napig tart"),
        ("pl", "Korespondencyjnie: każda runda trwa 7 dni od swojego początku"),
    ],
)
def test_the_async_rules_are_told_in_the_readers_language(language: str, words: str) -> None:
    t = create(organiser(), round_days=7, days_per_move=2)
    reader = make_user("vera", language=language)
    client = signed_in(reader)
    with translation.override(language):
        page = client.get(t.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert words in page


def test_a_first_round_time_the_clocks_show_twice_is_asked_about() -> None:
    """Europe/Budapest (the club's zone) shows 02:00-02:59 twice on 25 October 2026."""
    client = signed_in(organiser())
    data = form_data(day="2026-10-25", clock="02:30")
    with time_machine.travel(datetime(2026, 10, 1, 12, 0, tzinfo=UTC), tick=False):
        asked = client.post(reverse("games:tournament-new"), data)
        assert asked.status_code == 400
        assert "02:30 CEST (UTC+2)" in asked.text and "02:30 CET (UTC+1)" in asked.text
        assert not Tournament.objects.exists()
        answered = client.post(reverse("games:tournament-new"), {**data, "fold": "1"})
    assert answered.status_code == 302
    first = Tournament.objects.get().rounds.get(number=1)
    assert first.starts_at == datetime(2026, 10, 25, 1, 30, tzinfo=UTC)  # 02:30 CET


def test_the_rounds_are_offered_as_a_calendar_file() -> None:
    t = create(organiser())
    page = Client().get(t.get_absolute_url()).content.decode()
    link = reverse("games:tournament-calendar", args=[t.pk])
    assert f'href="{link}"' in page
    answer = Client().get(link)
    assert answer["Content-Type"].startswith("text/calendar")
    body = answer.content.decode()
    assert body.count("BEGIN:VEVENT") == 2
    # The rounds' instants in UTC: 18:00 and 19:00 on 1 May 2026 (test_tournaments.FIRST).
    assert "DTSTART:20260501T180000Z" in body and "DTSTART:20260501T190000Z" in body
    assert "SUMMARY:Spring cup: round 2" in body


def test_an_async_tournaments_calendar_holds_the_rounds_with_known_dates() -> None:
    t = create(organiser(), round_days=5, days_per_move=1)
    body = Client().get(reverse("games:tournament-calendar", args=[t.pk])).content.decode()
    # Round 1 from its start to its deadline; round 2 has no date until round 1 is over.
    assert body.count("BEGIN:VEVENT") == 1
    assert "DTSTART:20260501T180000Z" in body and "DTEND:20260506T180000Z" in body


def test_the_organisers_cancel_asks_first_when_members_entered(
    django_capture_on_commit_callbacks,
) -> None:
    olga = organiser()
    t = create(olga)
    for name in ("ann", "ben"):
        tournaments.register(tournament_id=t.pk, user=make_user(name))
    client = signed_in(olga)
    cancel = reverse("games:tournament-cancel", args=[t.pk])
    assert "Cancel the tournament" in client.get(t.get_absolute_url()).content.decode()
    asked = client.post(cancel)
    assert asked.status_code == 200
    assert "2 members have entered and will be told that you cancelled it." in asked.text
    t.refresh_from_db()
    assert t.status == Tournament.Status.REGISTRATION
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(cancel, {"confirm": "yes"}, follow=True)
    t.refresh_from_db()
    assert t.status == Tournament.Status.CANCELLED
    assert "This tournament was cancelled." in done.content.decode()
    assert Notification.objects.filter(kind="tourn_cancelled").count() == 2


def test_only_the_organiser_may_cancel(alice: User) -> None:
    t = create(organiser())
    client = signed_in(alice)
    assert "Cancel the tournament" not in client.get(t.get_absolute_url()).content.decode()
    client.post(reverse("games:tournament-cancel", args=[t.pk]), {"confirm": "yes"})
    t.refresh_from_db()
    assert t.status == Tournament.Status.REGISTRATION


# --- the live page ----------------------------------------------------------------------------


def row_of(part: str, username: str) -> str:
    return part[part.index(f'<tr data-member="{username}"') :].split("</tr>")[0]


def test_a_members_page_listens_on_its_tournaments_socket_and_fetches_its_live_part(
    alice: User,
) -> None:
    t = create(organiser())
    tournaments.register(tournament_id=t.pk, user=alice)
    client = signed_in(alice)
    page = client.get(t.get_absolute_url()).text
    assert f'ws-connect="/ws/tournaments/{t.pk}/"' in page
    assert f'hx-get="{t.get_absolute_url()}"' in page
    part = client.get(t.get_absolute_url(), headers={"HX-Request": "true"}).text
    assert "<html" not in part
    assert part.lstrip().startswith('<div id="tournament-part"')
    assert "Alice" in part and "Withdraw" in part
    # A visitor reads the page; the tournament's socket takes members only.
    assert "/ws/tournaments/" not in Client().get(t.get_absolute_url()).text


def test_every_change_of_a_tournament_hints_its_open_pages(
    quick_bots: None, django_capture_on_commit_callbacks: Any, monkeypatch: Any
) -> None:
    from games import broadcast

    hints: list[None] = []
    monkeypatch.setattr(broadcast, "notify_lobby_changed", lambda: hints.append(None))
    t = create(organiser(), table_size=2, rounds=1)
    members = [make_user(f"m{i}") for i in range(3)]

    def hinted(step: Any) -> bool:
        before = len(hints)
        with django_capture_on_commit_callbacks(execute=True):
            step()
        return len(hints) > before

    for member in members:
        assert hinted(lambda m=member: tournaments.register(tournament_id=t.pk, user=m))
    assert hinted(lambda: tournaments.withdraw(tournament_id=t.pk, user=members[2]))
    assert beat_at(FIRST, django_capture_on_commit_callbacks)["started"] == 1
    assert hints, "the round's start"
    table = t.rounds.get().tables.get()
    before = len(hints)
    with django_capture_on_commit_callbacks(execute=True):
        play_out(table.game, random.Random(2))
    assert len(hints) > before, "the table's game scored"
    before = len(hints)
    counts = beat_at(FIRST + timedelta(minutes=1), django_capture_on_commit_callbacks)
    assert counts["closed"] == counts["finished"] == 1
    assert len(hints) > before, "the round closed, the final ranking"


def test_a_tournaments_pages_hear_its_own_changes_and_no_other_game(
    quick_bots: None, django_capture_on_commit_callbacks: Any, monkeypatch: Any
) -> None:
    """The hints of its own socket (broadcast.tournament_group): every change of this
    tournament, its table's game scored included; a game played outside it sends none."""
    from games import broadcast
    from tests.games.conftest import build_game

    groups: list[str] = []
    monkeypatch.setattr(broadcast, "notify_page_changed", groups.append)
    t = create(organiser(), table_size=2, rounds=1)
    ours = broadcast.tournament_group(t.pk)
    members = [make_user(f"m{i}") for i in range(3)]

    def hints(step: Any) -> list[str]:
        before = len(groups)
        with django_capture_on_commit_callbacks(execute=True):
            step()
        return groups[before:]

    for member in members:
        assert ours in hints(lambda m=member: tournaments.register(tournament_id=t.pk, user=m))
    assert ours in hints(lambda: tournaments.withdraw(tournament_id=t.pk, user=members[2]))
    before = len(groups)
    assert beat_at(FIRST, django_capture_on_commit_callbacks)["started"] == 1
    assert ours in groups[before:], "the round's start"
    elsewhere = build_game(members[0], members[2], seed=4)
    assert hints(lambda: play_out(elsewhere, random.Random(3))) == []
    assert elsewhere.results.count() == 2  # played and scored, outside the tournament
    table = t.rounds.get().tables.get()
    assert ours in hints(lambda: play_out(table.game, random.Random(2))), "the table's game scored"
    before = len(groups)
    counts = beat_at(FIRST + timedelta(minutes=1), django_capture_on_commit_callbacks)
    assert counts["closed"] == counts["finished"] == 1
    assert ours in groups[before:], "the round closed, the final ranking"


def test_the_live_part_moves_the_standings_once_a_tables_game_is_scored(
    quick_bots: None, django_capture_on_commit_callbacks: Any
) -> None:
    t = create(organiser(), table_size=2, rounds=2)
    members = [make_user(f"m{i}", display_name=f"Member {i}") for i in range(4)]
    for member in members:
        tournaments.register(tournament_id=t.pk, user=member)
    beat_at(FIRST, django_capture_on_commit_callbacks)
    client = signed_in(members[0])
    url = t.get_absolute_url()
    part = client.get(url, headers={"HX-Request": "true"}).text
    assert 'data-played="0"' in row_of(part, "m0")
    table = next(x for x in t.rounds.get(number=1).tables.all() if x.entries[0] or x.entries[1])
    play_out(table.game, random.Random(3))
    part = client.get(url, headers={"HX-Request": "true"}).text
    seated = [e.user.username for e in TournamentEntry.objects.filter(pk__in=table.entries)]
    results = {r.user.username: r.rank for r in table.game.results.select_related("user")}
    for username in seated:
        row = row_of(part, username)
        assert 'data-played="1"' in row
        # A table of two: 1 point for the first, 0 for the second, a shared first half each.
        shared = list(results.values()).count(results[username]) > 1
        points = "0.5" if shared else ("1" if results[username] == 1 else "0")
        assert f'data-points="{points}"' in row


# --- results on profiles and the club page ----------------------------------------------------


def test_profiles_show_the_final_place_and_the_club_page_the_winners_bots_never_ranked(
    quick_bots: None, django_capture_on_commit_callbacks: Any
) -> None:
    t = create(organiser(), table_size=2, rounds=1)
    members = [make_user(f"m{i}", display_name=f"Member {i}") for i in range(3)]
    for member in members:
        tournaments.register(tournament_id=t.pk, user=member)
    beat_at(FIRST, django_capture_on_commit_callbacks)
    viewer = signed_in(members[0])
    profile = viewer.get(reverse("accounts:member", args=["m1"])).text
    row = profile[profile.index(f'<tr data-tournament="{t.pk}"') :].split("</tr>")[0]
    assert "running" in row and "Spring cup" in row
    club = viewer.get("/").text
    assert f'data-tournament="{t.pk}"' in club and "running: 0 of 1 round played" in club

    for table in t.rounds.get().tables.all():
        play_out(table.game, random.Random(5))
    beat_at(FIRST + timedelta(minutes=1), django_capture_on_commit_callbacks)
    ranking = Client().get(reverse("games:tournament-json", args=[t.pk])).json()["standings"]
    # Three members at two tables of two: the bot completing a table is never ranked.
    assert len(ranking) == 3
    for row in ranking:
        profile = viewer.get(reverse("accounts:member", args=[row["member"]])).text
        mine = profile[profile.index(f'<tr data-tournament="{t.pk}"') :].split("</tr>")[0]
        assert f"{row['place']} of 3" in mine
    club = viewer.get("/").text
    listed = club[club.index(f'<li data-tournament="{t.pk}"') :].split("</li>")[0]
    winners = {f"Member {r['member'][1:]}" for r in ranking if r["place"] == 1}
    others = {f"Member {r['member'][1:]}" for r in ranking if r["place"] != 1}
    assert "Won by" in listed
    assert all(name in listed for name in winners)
    assert not any(name in listed for name in others)


@pytest.mark.parametrize(
    ("language", "words"),
    [("hu", ["Versenyek", "Verseny", "folyamatban"]), ("pl", ["Turnieje", "Turniej", "w toku"])],
)
def test_a_profiles_tournaments_speak_the_readers_language(
    quick_bots: None, django_capture_on_commit_callbacks: Any, language: str, words: list[str]
) -> None:
    t = create(organiser(), table_size=2, rounds=1)
    members = [make_user(f"m{i}", language=language) for i in range(2)]
    for member in members:
        tournaments.register(tournament_id=t.pk, user=member)
    beat_at(FIRST, django_capture_on_commit_callbacks)
    profile = signed_in(members[0]).get(reverse("accounts:member", args=["m1"])).text
    section = profile[profile.index('id="member-tournaments"') :].split("</section>")[0]
    for word in words:
        assert word in section


def test_tournament_pages_read_a_fixed_number_of_queries(
    quick_bots: None, django_capture_on_commit_callbacks: Any
) -> None:
    """The tournament page, its live part, a player's profile and the club page: their queries
    grow with neither the rounds played nor the club's games and tournaments."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.games.test_seasons import add_games

    members = [make_user(f"m{i}") for i in range(4)]
    client = signed_in(members[0])

    def tournament_with_a_round_played(rounds: int) -> Tournament:
        t = create(organiser(f"olga{rounds}"), table_size=2, rounds=rounds)
        for member in members:
            tournaments.register(tournament_id=t.pk, user=member)
        beat_at(FIRST, django_capture_on_commit_callbacks)
        for table in t.rounds.get(number=1).tables.all():
            play_out(table.game, random.Random(6))
        return t

    def counts(t: Tournament) -> list[int]:
        found = []
        for url, headers in [
            (t.get_absolute_url(), {}),
            (t.get_absolute_url(), {"HX-Request": "true"}),
            (reverse("accounts:member", args=["m1"]), {}),
            ("/", {}),
        ]:
            with CaptureQueriesContext(connection) as captured:
                assert client.get(url, headers=headers).status_code == 200
            found.append(len(captured))
        return found

    add_games(members, 8)
    first = tournament_with_a_round_played(2)
    beat_at(FIRST + timedelta(hours=1), django_capture_on_commit_callbacks)
    for table in first.rounds.get(number=2).tables.all():
        play_out(table.game, random.Random(7))
    beat_at(FIRST + timedelta(hours=2), django_capture_on_commit_callbacks)
    first.refresh_from_db()
    assert first.status == Tournament.Status.FINISHED
    few = counts(first)
    # Another tournament running for the same members, and many more of the club's games.
    tournament_with_a_round_played(3)
    add_games(members, 80)
    assert counts(first) == few
