"""The verify page of a game's deal (DESIGN.md principle 11, games/deals.py)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from accounts.requests import MemberRequest
from games import deals, rendering, services
from games.views.common import get_game


@require_GET
@login_required
def verify(request: MemberRequest, game_id: int) -> HttpResponse:
    """A finished game: the commitment recomputed from the revealed seed and salt, and the
    deal replayed from the seed. A running game: only its commitment (the seed stays on the
    server until the end)."""
    game = get_game(game_id)
    deal = deals.shown(game)
    ctx = {
        "game": game,
        "engine_name": rendering.game_name(game.engine_slug),
        "deal": deal,
        "started": game.state is not None,
    }
    if deal["revealed"]:
        ctx["check"] = services.verify_deal(game=game)
        if game.commitment:
            ctx["recomputed"] = deals.commitment(game.seed, game.salt)
    return render(request, "games/verify.html", ctx)
