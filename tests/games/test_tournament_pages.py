"""The tournament pages: list, create form, the tournament page, the standings exports."""

from __future__ import annotations

import csv
import io
import random
from datetime import date, timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import User
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
