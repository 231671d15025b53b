"""The move path's writes (games/services/writes.py) store what `Model.save` stores: the log's
new row with its key and creation stamp, and only the named columns of the game with its
update stamp."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import DatabaseError
from django.db.models import Model
from django.utils import timezone

from games.models import Game, Move
from games.services import writes
from tests.games.conftest import build_game

pytestmark = pytest.mark.django_db


def stored(instance: Model) -> dict[str, Any]:
    row = type(instance).objects.get(pk=instance.pk)
    return {f.attname: getattr(row, f.attname) for f in row._meta.concrete_fields}


def test_a_new_log_row_is_stored_as_save_stores_it(alice) -> None:
    game = build_game(alice, "easy", seed=3)
    payload = {"type": "take", "tile": 4, "at": [1, -2], "note": "ünïcode"}
    summary = {"took": [4], "by": "bot"}
    mine = Move(game=game, number=0, seat=1, payload=payload, summary=summary, by_bot=True)
    saved = Move(game=game, number=1, seat=1, payload=payload, summary=summary, by_bot=True)
    before = timezone.now()
    writes.insert(mine)
    saved.save(force_insert=True)
    assert mine.pk is not None and mine.pk != saved.pk
    assert not mine._state.adding
    mine_row, saved_row = stored(mine), stored(saved)
    assert mine_row["payload"] == payload and mine_row["summary"] == summary
    assert before <= mine.created_at <= timezone.now()
    assert mine_row["created_at"] == mine.created_at  # the stamp on the instance is the row's
    for name in ("id", "number", "created_at"):
        del mine_row[name], saved_row[name]
    assert mine_row == saved_row


def test_only_the_named_columns_are_written_and_the_update_stamp_is_set(alice) -> None:
    game = build_game(alice, "easy", seed=3)
    was = stored(game)
    game.state = {**game.state, "written": True}
    game.version = 5
    game.steps_taken_back = 9  # changed here but not named: stays as stored
    game.turn_started_at = timezone.now() - timedelta(seconds=30)
    writes.update(game, ["state", "version", "turn_started_at", "updated_at"])
    row = stored(game)
    assert row["state"]["written"] is True
    assert row["version"] == 5
    assert row["steps_taken_back"] == was["steps_taken_back"]
    assert row["turn_started_at"] == game.turn_started_at
    assert row["updated_at"] == game.updated_at > was["updated_at"]


def test_writing_a_game_that_is_gone_is_an_error(alice) -> None:
    game = build_game(alice, "easy", seed=3)
    Game.objects.filter(pk=game.pk).delete()
    with pytest.raises(DatabaseError):
        writes.update(game, ["version"])
