"""The outbox thread (games/outbox.py): a job that finds the broker unreachable is sent once it
answers, ahead of the jobs behind it; any other failure drops only that job."""

from __future__ import annotations

import pytest
from kombu.exceptions import OperationalError

from games import outbox as outbox_module
from games.outbox import Outbox


class Broker:
    """A broker that is away for the first `away` tries, then takes every task."""

    def __init__(self, away: int) -> None:
        self.away = away
        self.taken: list[str] = []

    def send(self, task: str) -> None:
        if self.away:
            self.away -= 1
            raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        self.taken.append(task)


def test_a_task_the_broker_could_not_take_is_sent_once_it_answers_before_the_next(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(outbox_module, "RETRY_SECONDS", 0.01)
    box, broker = Outbox("test-outbox"), Broker(away=3)
    box.submit(broker.send, "bot turn of game 1")
    box.submit(broker.send, "e-mail of notification 2")
    assert box.wait_until_idle(5)
    assert broker.taken == ["bot turn of game 1", "e-mail of notification 2"]


def test_a_job_that_fails_otherwise_is_dropped_and_the_next_still_runs() -> None:
    box, broker = Outbox("test-outbox"), Broker(away=0)

    def broken() -> None:
        raise ValueError("not a broker's failure")

    box.submit(broken)
    box.submit(broker.send, "bot turn of game 1")
    assert box.wait_until_idle(5)
    assert broker.taken == ["bot turn of game 1"]
