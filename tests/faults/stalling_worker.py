"""A Celery worker whose bot turns stop halfway, for the test that kills a worker mid-turn.

Run as ``python -m tests.faults.stalling_worker -A config worker …`` (the `celery` command's
arguments). A bot turn chooses its move, writes it inside its transaction, then, instead of
committing, writes the move number to the file named by ``STALL_MARKER`` and waits until the
process is killed.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from celery.signals import task_prerun


@task_prerun.connect
def stall_bot_turns(sender: Any = None, **kwargs: Any) -> None:
    if getattr(sender, "name", "") != "games.tasks.play_bot_turn":
        return
    from games.services import moves

    def stall(game: Any) -> None:  # in place of broadcast_on_commit, the move's last step
        Path(os.environ["STALL_MARKER"]).write_text(str(game.version - 1))
        time.sleep(3600)

    moves.broadcast_on_commit = stall


if __name__ == "__main__":
    from celery.__main__ import main

    main()
