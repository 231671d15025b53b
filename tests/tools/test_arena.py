"""The arena: a tiny seeded match between bots, and its statistics."""

from __future__ import annotations

import itertools
import json
import pickle
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from games.bots import turn_mcts
from games.engines.base import IllegalMove
from games.services.common import GameError
from tests.games.bots.toy_engine import ROW_TWO_CLOSED
from tools import arena, evening

TOY = "tests.games.bots.toy_engine:ENGINE"


def test_arena_plays_a_tiny_match_and_prints_the_summary(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = [TOY, "--players", "2", "--games", "4", "--bots", "greedy,random", "--seed", "3"]
    assert arena.main(argv) == 0
    out, err = capsys.readouterr()
    assert len([line for line in err.splitlines() if line.startswith("game ")]) == 4
    assert "95% CI" in out
    rows = {line.split()[0]: line.split() for line in out.splitlines()[2:]}
    assert set(rows) == {"greedy", "random"}
    # Seats rotate, so each bot plays every one of the four games.
    assert rows["greedy"][1] == rows["random"][1] == "4"
    wins = float(rows["greedy"][2]) + float(rows["random"][2])
    assert wins == 4.0


def test_seats_rotate_between_games() -> None:
    match = arena.Match(TOY, 3, ("easy", "normal", "random"), seed=1)
    assert [arena.lineup(match, g) for g in range(3)] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]


def test_same_seed_gives_the_same_games() -> None:
    match = arena.Match(TOY, 2, ("easy", "random"), seed=7)
    first = [arena.play_game(match, g).totals for g in range(2)]
    again = [arena.play_game(match, g).totals for g in range(2)]
    assert first == again


def test_a_game_is_played_the_same_in_a_run_that_starts_later() -> None:
    """Game 2 of a run from seed 7 and game 0 of a run from seed 9 have the same deal and the
    same seats (rotated by two of two), so they are the same game, the random bot's choices
    included."""
    match = arena.Match(TOY, 2, ("easy", "random"), seed=7)
    later = arena.Match(TOY, 2, ("easy", "random"), seed=9)
    for index in range(2, 12, 2):
        whole, split = arena.play_game(match, index), arena.play_game(later, index - 2)
        assert (whole.lineup, whole.totals) == (split.lineup, split.totals)


def summary_rows(out: str) -> dict[str, list[str]]:
    """Each bot's games, wins, win rate, interval and average score from a printed summary
    (the move times differ from run to run)."""
    rows = [line.split() for line in out.splitlines()[2:]]
    return {row[0]: row[1:7] for row in rows}


def test_a_match_stopped_part_way_goes_on_from_its_next_game_and_sums_up_all_of_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [TOY, "--players", "2", "--bots", "greedy,random", "--seed", "5"]
    assert arena.main([*argv, "--games", "6"]) == 0
    whole = summary_rows(capsys.readouterr().out)
    results = tmp_path / "match.jsonl"
    # Stopped after four games (a run of four is the same match's first four), then resumed.
    assert arena.main([*argv, "--games", "4", "--results", str(results)]) == 0
    capsys.readouterr()
    assert arena.main([*argv, "--games", "6", "--first", "4", "--results", str(results)]) == 0
    out, err = capsys.readouterr()
    assert [line.split()[1] for line in err.splitlines() if line.startswith("game ")] == [
        "1/2",
        "2/2",
    ]
    assert "seed 9)" in err and "seed 10)" in err  # games 4 and 5: seeds 5 + 4 and 5 + 5
    assert "6 games" in out.splitlines()[0]
    assert summary_rows(out) == whole
    assert len(results.read_text().splitlines()) == 6


def test_a_game_cut_off_while_it_was_written_is_played_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [TOY, "--players", "2", "--bots", "greedy,random", "--seed", "5"]
    assert arena.main([*argv, "--games", "3"]) == 0
    whole = summary_rows(capsys.readouterr().out)
    results = tmp_path / "match.jsonl"
    assert arena.main([*argv, "--games", "2", "--results", str(results)]) == 0
    lines = results.read_text().splitlines()
    # The run was stopped while it wrote its second game: half a line.
    results.write_text(lines[0] + "\n" + lines[1][: len(lines[1]) // 2])
    capsys.readouterr()
    assert arena.main([*argv, "--games", "3", "--first", "1", "--results", str(results)]) == 0
    out = capsys.readouterr().out
    assert "3 games" in out.splitlines()[0]
    assert summary_rows(out) == whole
    match = arena.parse([*argv, "--games", "3"]).match
    assert sorted(arena.read_results(results, match)) == [0, 1, 2]


def test_a_results_file_counts_only_the_games_of_the_same_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "match.jsonl"
    other = [TOY, "--players", "2", "--bots", "greedy,random", "--seed", "5", "--games", "3"]
    assert arena.main([*other, "--results", str(results)]) == 0
    argv = [TOY, "--players", "2", "--bots", "greedy,random", "--seed", "6", "--games", "2"]
    capsys.readouterr()
    assert arena.main([*argv, "--results", str(results)]) == 0
    out = capsys.readouterr().out
    assert "2 games" in out.splitlines()[0]
    assert summary_rows(out)["greedy"][0] == "2"


@pytest.mark.parametrize("first", ["-1", "4"])
def test_a_first_game_outside_the_match_is_refused(
    first: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [TOY, "--players", "2", "--games", "4", "--bots", "greedy,random", "--seed", "1"]
    with pytest.raises(SystemExit):
        arena.main([*argv, "--first", first])
    assert "--first" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("wins", "n", "low", "high"),
    # Wilson score intervals at 95% (z = 1.96): 0/10 and 5/10, textbook values.
    [(0, 10, 0.0, 0.2775), (5, 10, 0.2366, 0.7634), (10, 10, 0.7225, 1.0)],
)
def test_wilson_interval(wins: int, n: int, low: float, high: float) -> None:
    got = arena.wilson(wins, n)
    assert got == pytest.approx((low, high), abs=1e-4)


def test_unknown_bot_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        arena.main([TOY, "--players", "2", "--games", "1", "--bots", "genius", "--seed", "1"])
    assert "unknown bots: genius" in capsys.readouterr().err


@pytest.mark.parametrize("error_class", [IllegalMove, GameError])
def test_the_games_errors_cross_a_process_whole(error_class: type[Exception]) -> None:
    error = error_class("row_closed", "Row 2 is closed.", row=2)
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is error_class
    assert (again.code, again.message, again.params, str(again)) == (
        "row_closed",
        "Row 2 is closed.",
        {"row": 2},
        "Row 2 is closed.",
    )


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_refused_move_stops_the_match_naming_the_game_and_saving_its_position(
    jobs: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # the position is saved under var/ here
    game = "tests.games.bots.toy_engine:ROW_TWO_CLOSED"
    argv = [game, "--players", "2", "--games", "3", "--bots", "random,random", "--seed", "5"]
    assert arena.main([*argv, "--jobs", jobs]) == 1
    out, err = capsys.readouterr()
    assert out == ""  # no summary of a match that did not finish
    stopped = err.strip().splitlines()[-1]
    found = re.search(
        r"game (\d) \(seed (\d)\), move (\d+): random#\d in seat (\d) chose (.*) and failed: "
        r"IllegalMove: Row 2 is closed\. \(position saved in (.*)\)$",
        stopped,
    )
    assert found, stopped
    number, seed, ply, seat = (int(found.group(i)) for i in range(1, 5))
    assert seed == 5 + number - 1
    assert found.group(6).startswith("var/arena-failures/")
    saved = json.loads((tmp_path / found.group(6)).read_text())
    move = json.loads(found.group(5))
    assert saved["seat"] == seat and saved["move"] == move and move["row"] == 2
    # The saved position is the one the move was refused in: replayed, it is refused again,
    # and the move was among those the engine listed.
    position = ROW_TWO_CLOSED.load(saved["state"])
    assert move in ROW_TWO_CLOSED.legal_moves(position, seat)
    with pytest.raises(IllegalMove):
        ROW_TWO_CLOSED.apply_move(position, seat, move)
    assert ply >= 1  # the refused move came after at least one accepted one


def test_the_95th_percentile_move_time_lies_within_the_times() -> None:
    times = [float(t) for t in range(1, 101)]
    assert arena.p95(times) == pytest.approx(95.05)
    assert arena.p95([0.5]) == 0.5
    assert arena.p95([]) == 0.0


def test_under_the_cpu_clock_the_search_ends_when_the_process_time_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`--cpu-clock`: a 1.3 s search ends by the process's CPU time, whatever the wall time.
    A fake CPU clock moves one second at each reading, so every search has time for one
    iteration only: after it the slowest iteration took a second, and a second one would
    end past the budget. On wall time the same search runs for 1.3 real seconds."""
    readings = itertools.count()
    monkeypatch.setattr(time, "process_time", lambda: float(next(readings)))
    searched: list[int] = []
    real_search = turn_mcts.search

    def counting(*args: Any, **kwargs: Any) -> Any:
        found = real_search(*args, **kwargs)
        searched.append(found.iterations)
        return found

    monkeypatch.setattr(turn_mcts, "search", counting)
    turn_mcts.forget_plans()
    argv = [TOY, "--players", "2", "--games", "1", "--bots", "hard,greedy", "--seed", "4"]
    match = arena.parse([*argv, "--budget", "1.3", "--cpu-clock"]).match
    result = arena.play_game(match, 0)
    assert searched and set(searched) == {1}
    # The move times are read on the same clock: whole seconds of the fake one.
    times = [t for bot_times in result.times.values() for t in bot_times]
    assert times and all(t == int(t) >= 1 for t in times)
    # The site's searches keep wall time.
    assert turn_mcts.clock is time.perf_counter


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has ended; only its exit status is left


@pytest.mark.slow
def test_a_match_stopped_with_sigterm_ends_its_game_processes(tmp_path: Path) -> None:
    # `kill` of a long match with `--jobs`: the processes playing its games end with it, and
    # the games it finished are in its results file. (They went on playing before.)
    results = tmp_path / "match.jsonl"
    argv = [TOY, "--players", "2", "--bots", "hard,hard", "--seed", "5", "--games", "40"]
    argv += ["--budget", "0.3", "--jobs", "2", "--results", str(results)]
    root = Path(__file__).resolve().parents[2]
    match = subprocess.Popen(
        [sys.executable, "-m", "tools.arena", *argv],
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not (results.exists() and results.read_text().count("\n") >= 1):
            assert match.poll() is None and time.monotonic() < deadline, "no game finished"
            time.sleep(0.1)
        players = evening.children(match.pid)
        assert len([p for p in players if alive(p)]) >= 2  # the two game processes, busy
        match.send_signal(signal.SIGTERM)
        _out, err = match.communicate(timeout=30)
    finally:
        if match.poll() is None:
            match.kill()
    assert match.returncode == 130
    finished = len(results.read_text().splitlines())
    assert f"stopped: {finished} of the match's games finished" in err
    assert 1 <= finished < 40
    deadline = time.monotonic() + 10
    while any(alive(p) for p in players) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(p) for p in players)
