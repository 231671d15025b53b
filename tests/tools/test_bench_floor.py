"""The floor benchmark (`manage.py bench_floor`) runs briefly and prints one line per hop of a
bot's move, with the site's figure beside the hops it is given for."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tools.test_load import postgres_and_redis_run
from tools.management.commands.bench_floor import HOPS

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


@pytest.mark.skipif(not postgres_and_redis_run(), reason="needs PostgreSQL and Redis locally")
def test_a_short_floor_run_prints_every_hop_with_the_sites_figure_beside_it() -> None:
    run = subprocess.run(
        [sys.executable, "manage.py", "bench_floor", "--tasks", "20", "--rate", "0"]
        + ["--countdown", "0.2", "--transactions", "10", "--announcements", "20"]
        + ["--renders", "2", "--boards", "5", "--site", "task=9.5,render=3.25"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    lines = run.stdout.strip().splitlines()
    rows = {line.split()[0]: line.split() for line in lines if line.startswith("  ")}
    assert set(rows) == {"hop"} | {name for name, _ in HOPS}
    assert rows["task"][2] == "9.50"
    assert rows["render"][2] == "3.25"
    assert rows["send"][2] == "-"  # not given: nothing to compare with
    floor = json.loads(lines[-1])
    assert set(floor) == {name for name, _ in HOPS}
    assert all(math.isfinite(value) and value >= 0 for value in floor.values())
    # Each of these does measurable work in this very process at least once per round.
    for name in ("transaction", "transaction_raw", "render"):
        assert floor[name] > 0, name


def test_a_site_figure_for_a_hop_that_does_not_exist_is_refused() -> None:
    from django.core.management.base import CommandError

    from tools.management.commands.bench_floor import Command

    assert Command.site_figures("task=9.5, render=3") == {"task": 9.5, "render": 3.0}
    with pytest.raises(CommandError):
        Command.site_figures("workers=11.5")
