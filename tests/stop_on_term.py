"""A pytest plugin (`-p tests.stop_on_term`, in pyproject's addopts): a test run stopped with
SIGTERM (a time limit, `kill`) ends as one stopped with Ctrl-C does. pytest unwinds, and the
fixtures' teardown stops the servers and Celery workers the tests started; without it the run
ended at once and left them running with no parent."""

from __future__ import annotations

import signal
import threading
from types import FrameType

import pytest


def interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt(f"stopped by signal {signum}")


def pytest_configure(config: pytest.Config) -> None:
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, interrupt)
