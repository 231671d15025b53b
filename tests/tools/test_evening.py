"""The evening command (`python -m tools.evening`) runs one short evening on the embedded
defaults, as `make run` would, and prints the memory of every process it started: the
server, each worker and each worker's children and grandchildren, and the total."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow

LINE = re.compile(r"^PSS (.+) \(pid (\d+), .*\): ([\d.]+) MB$")


def test_an_evening_prints_each_process_and_its_children_and_the_total(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["REVIEW_ITERATIONS"] = "1"  # the review's length is not what is checked here
    env.pop("PYTEST_VERSION", None)
    run = subprocess.run(
        [sys.executable, "-m", "tools.evening", "--games", "1", "--engine", "akropolis"]
        + ["--bot-level", "easy", "--hints", "1", "--settle", "1"]
        + ["--var-dir", str(tmp_path / "evening")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-3000:]
    after = run.stdout.split("After evening 1", 1)[1].splitlines()
    rows = [LINE.match(line) for line in after if line.startswith("PSS ") and "total" not in line]
    assert all(rows), after
    names = [row[1] for row in rows if row]
    assert names[0].startswith("ASGI server")
    assert "play worker" in names and "heavy worker" in names
    # The play worker's two processes, beat below the first, the heavy worker's pool process.
    # Children are listed by pid, and the supervisor replaces a play process that retires
    # (infra/workers.py) with a newer pid, so the beat's parent may come first or second.
    play_at = names.index("play worker")
    heavy_at = names.index("heavy worker")
    child, grandchild = "  child of play worker", "    grandchild of play worker"
    assert names[play_at + 1 : heavy_at] in ([child, grandchild, child], [child, child, grandchild])
    assert names[heavy_at + 1 :] == ["  child of heavy worker"]
    total = [line for line in after if line.startswith("PSS total: ")]
    assert len(total) == 1
    listed = sum(float(row[3]) for row in rows if row)
    assert float(total[0].split()[2]) == pytest.approx(listed, abs=0.1 * len(rows))
    assert "game 1 (akropolis)" in run.stdout


def test_reports_are_asked_only_of_processes_that_answer_them(tmp_path: Path) -> None:
    """`--report` signals each process that has the report's handler (infra/memory.py) and
    leaves the others alone: SIGUSR2 ends a process that has none."""
    from tools import evening

    path = tmp_path / "report.txt"
    script = (
        "import time; from infra import memory; memory.report_on_signal(); "
        "print('ready', flush=True); time.sleep(60)"
    )
    env = {**os.environ, "MEMORY_REPORT": str(path)}
    reporter = subprocess.Popen(
        [sys.executable, "-c", script], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True
    )
    other = subprocess.Popen(["sleep", "60"])
    try:
        assert reporter.stdout is not None and reporter.stdout.readline() == "ready\n"
        processes = [evening.Process("reporter", reporter.pid), evening.Process("other", other.pid)]
        text = evening.ask_reports(processes, path)
        assert f"== pid {reporter.pid} " in text
        assert f"== pid {other.pid} " not in text
        assert other.poll() is None and reporter.poll() is None
    finally:
        reporter.kill()
        other.kill()
        reporter.wait()
        other.wait()
