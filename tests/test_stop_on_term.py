"""A test run stopped with SIGTERM stops what its fixtures started (tests/stop_on_term.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROCESS_TEST = """
import subprocess, sys, time
import pytest

@pytest.fixture
def helper(tmp_path_factory):
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
    open({pid_file!r}, "w").write(str(proc.pid))
    yield proc
    proc.terminate()
    proc.wait()

def test_waits(helper):
    time.sleep(300)
"""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (ended, not yet collected by its parent) counts as ended.
    status = Path(f"/proc/{pid}/stat").read_text().split(") ")[-1].split()[0]
    return status != "Z"


def test_sigterm_runs_the_fixtures_teardown(tmp_path: Path) -> None:
    """Without the plugin pytest ends at once on SIGTERM and the helper outlives the run (seen
    when the plugin was written); with it the fixture's teardown stops the helper."""
    pid_file = tmp_path / "helper.pid"
    (tmp_path / "test_inner.py").write_text(PROCESS_TEST.format(pid_file=str(pid_file)))
    command = [sys.executable, "-m", "pytest", "-q", "-p", "tests.stop_on_term"]
    command += ["-p", "no:cacheprovider", str(tmp_path)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE)
    try:
        for _ in range(600):
            if pid_file.exists() and pid_file.read_text():
                break
            time.sleep(0.05)
        helper = int(pid_file.read_text())
        run.send_signal(signal.SIGTERM)
        run.wait(timeout=60)
        for _ in range(100):
            if not alive(helper):
                break
            time.sleep(0.05)
        assert not alive(helper)
    finally:
        run.kill()
        run.wait()
        if pid_file.exists() and alive(int(pid_file.read_text())):
            os.kill(int(pid_file.read_text()), signal.SIGKILL)
