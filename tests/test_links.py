"""The kept site addresses (infra/links.py) are Django's own, under the script prefix and the
URL patterns in force when they are asked for."""

from __future__ import annotations

import pytest
from django.test import override_settings
from django.urls import clear_script_prefix, reverse, set_script_prefix
from django.urls import path as url_path

from games import engines
from games.models import Game, Seat
from infra import links

urlpatterns = [url_path("elsewhere/<int:pk>/", lambda request, pk: None, name="move")]


@pytest.mark.parametrize(
    ("viewname", "args"),
    [
        ("games:move", [7]),
        ("games:leaderboard", ["akropolis"]),
        ("accounts:member", ["élő_tag"]),
        ("rulebooks:book", ["tower-of-babel"]),
        ("games:standings", []),
    ],
)
def test_an_address_is_djangos_own_each_time(viewname: str, args: list) -> None:
    assert links.reverse(viewname, args) == reverse(viewname, args=args)
    assert links.reverse(viewname, args) == reverse(viewname, args=args)


def test_the_script_prefix_of_the_request_is_used() -> None:
    plain = links.reverse("games:move", [7])
    set_script_prefix("/club/")
    try:
        assert links.reverse("games:move", [7]) == "/club" + plain
    finally:
        clear_script_prefix()
    assert links.reverse("games:move", [7]) == plain


def test_other_url_patterns_are_not_answered_from_the_kept_addresses() -> None:
    assert links.reverse("games:move", [7]) == reverse("games:move", args=[7])
    with override_settings(ROOT_URLCONF=__name__):
        assert links.reverse("move", [7]) == "/elsewhere/7/"
    assert links.reverse("games:move", [7]) == reverse("games:move", args=[7])


@pytest.mark.django_db
def test_the_board_partials_use_the_kept_addresses(client, django_user_model) -> None:
    """The move forms' actions on a member's board are the move view's address."""
    member = django_user_model.objects.create_user("ann", "ann@example.org", "a-long-password-1")
    engine = engines.get("akropolis")
    game = Game.objects.create(
        engine_slug="akropolis",
        seed=3,
        players=2,
        status=Game.Status.RUNNING,
        state=engine.dump(engine.new_game(2, 3)),
        version=0,
    )
    Seat.objects.create(game=game, position=0, user=member)
    Seat.objects.create(game=game, position=1, bot_level="easy")
    client.force_login(member)
    page = client.get(reverse("games:play", args=[game.pk])).content.decode()
    assert f'hx-post="{reverse("games:move", args=[game.pk])}"' in page
