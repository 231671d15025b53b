"""Seeded matches between bots, a benchmark apart from the tests.

    python -m tools.arena akropolis --players 2 --games 100 --bots greedy,random --seed 1

Game g uses seed `S + g` and rotates the seats, so every bot plays every seat equally
often; the bots' own seeds follow the game's seed, so a game plays the same in any run that
holds it with the same seats. Each bot sees only its seat's view. One line per finished game
goes to stderr; the summary goes to stdout: win rates (a shared victory counts 1/k for each
of the k winners) with Wilson 95% intervals, average scores, and the median, 95th percentile
and worst time per move.

`--first K` plays only games K to GAMES - 1 of the match (the same deals and seats as in a run of
all of them), and `--results FILE` appends each finished game to FILE as a JSON line and sums
up every game of the same match the file holds: a long match stopped part way goes on with the
same command and `--first` at the next game, and its summary covers the whole match.

`--cpu-clock` counts the search's budget and the move times in the process's CPU time
instead of wall time, so a budget buys what it buys on an idle core however busy the
machine is (the site keeps wall time).

GAME is a registered slug, or `module:ATTRIBUTE` for an engine outside the registry.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import importlib
import json
import math
import signal
import statistics
import sys
import threading
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from games.bots import BOTS, LEVELS, choose_move, turn_mcts
from games.bots.evaluation import outcome

# Longer than any real game; a bot that loops forever fails the match loudly instead.
MAX_MOVES = 10_000
# Where the position before a failed move is saved.
FAILURES = Path("var") / "arena-failures"
Z95 = 1.959964


@dataclass(frozen=True, slots=True)
class Match:
    game: str
    players: int
    bots: tuple[str, ...]
    seed: int
    budget: float | None = None
    iterations: int | None = None
    cpu_clock: bool = False


@dataclass(slots=True)
class GameResult:
    index: int
    lineup: tuple[int, ...]
    totals: list[int]
    credit: list[float]
    times: dict[int, list[float]] = field(default_factory=dict)
    seconds: float = 0.0


def load_engine(game: str) -> Any:
    if ":" in game:
        module, attribute = game.split(":", 1)
        return getattr(importlib.import_module(module), attribute)
    from games import engines

    return engines.get(game)


def lineup(match: Match, index: int) -> tuple[int, ...]:
    """For each seat, the index of the bot playing it: rotated by one seat per game."""
    n = len(match.bots)
    return tuple((seat + index) % n for seat in range(match.players))


class GameFailed(Exception):
    """A bot's move failed (it raised, or the engine refused its move). Its text names the
    game, the move and the file holding the position before it; only text, so it crosses
    from a worker process whatever the original error was."""


def failure(
    match: Match, index: int, ply: int, seat: int, position: Any, move: Any, error: Exception
) -> GameFailed:
    """Save the position before the failed move for replaying, and say where it is."""
    name = labels(match.bots)[lineup(match, index)[seat]]
    game = match.game.replace(":", "-")
    saved = FAILURES / f"{game}-seed{match.seed + index}-move{ply}.json"
    saved.parent.mkdir(parents=True, exist_ok=True)
    saved.write_text(json.dumps({"seat": seat, "move": move, "state": position}))
    chose = f"chose {json.dumps(move)} and " if move is not None else ""
    return GameFailed(
        f"game {index + 1} (seed {match.seed + index}), move {ply}: {name} in seat {seat} "
        f"{chose}failed: {type(error).__name__}: {error} (position saved in {saved})"
    )


def move_seed(match: Match, index: int, ply: int) -> int:
    """The bots' seed for one move: of the game's own seed and the move's number, so a game
    is played the same in whichever run it falls (a 200-game match split into two runs at an
    even game, say, plays the same 200 games)."""
    return (match.seed + index) * 100_003 + ply


def play_game(match: Match, index: int) -> GameResult:
    """One game, its search deadlines and move times on the match's clock (the search's
    own clock is back to what it was afterwards)."""
    clock = time.process_time if match.cpu_clock else time.perf_counter
    kept = turn_mcts.clock
    turn_mcts.clock = clock
    try:
        return _play_game(match, index, clock)
    finally:
        turn_mcts.clock = kept


def _play_game(match: Match, index: int, clock: Callable[[], float]) -> GameResult:
    engine = load_engine(match.game)
    seats = lineup(match, index)
    state = engine.new_game(match.players, seed=match.seed + index)
    times: dict[int, list[float]] = {b: [] for b in set(seats)}
    started = time.perf_counter()
    for ply in range(MAX_MOVES):
        if engine.is_over(state):
            break
        seat = engine.to_move(state)[0]
        bot = seats[seat]
        before = clock()
        move = None
        try:
            move = choose_move(
                engine,
                engine.view(state, seat),
                seat,
                match.bots[bot],
                seed=move_seed(match, index, ply),
                budget=match.budget,
                iterations=match.iterations,
            )
            times[bot].append(clock() - before)
            state = engine.apply_move(state, seat, move)
        except Exception as error:
            raise failure(match, index, ply, seat, engine.dump(state), move, error) from error
    else:
        raise RuntimeError(f"game {index} did not end within {MAX_MOVES} moves")
    return GameResult(
        index=index,
        lineup=seats,
        totals=list(engine.scores(state)["totals"]),
        credit=outcome(engine, state),
        times=times,
        seconds=time.perf_counter() - started,
    )


def play_match(
    match: Match, games: int, jobs: int = 1, first: int = 0
) -> Generator[GameResult, None, None]:
    """Games `first` to `games - 1` of the match, in order."""
    if jobs <= 1:
        for index in range(first, games):
            yield play_game(match, index)
        return
    # Fresh processes (not forks): the caller may run threads (a test server), and a fork
    # copies any lock one of them holds, which can hang the child. However the match ends
    # (finished, a failed game, Ctrl-C, SIGTERM: `main`), leaving the block terminates the
    # processes; a pool left to itself kept playing its games with no one to report to.
    with get_context("spawn").Pool(jobs) as pool:
        yield from pool.imap(functools.partial(play_game, match), range(first, games))


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (half-wins allowed in `successes`)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = p + z * z / (2 * n)
    margin = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    denominator = 1 + z * z / n
    return (centre - margin) / denominator, (centre + margin) / denominator


def p95(times: list[float]) -> float:
    """The time 95% of the moves took at most (inclusive quantiles: within the range)."""
    if len(times) < 2:
        return times[0] if times else 0.0
    return statistics.quantiles(times, n=20, method="inclusive")[18]


def labels(bots: tuple[str, ...]) -> list[str]:
    """Bot names, numbered when the same bot plays twice."""
    return [f"{b}#{i + 1}" if bots.count(b) > 1 else b for i, b in enumerate(bots)]


def game_line(match: Match, result: GameResult, done: int, total: int) -> str:
    names = labels(match.bots)
    seats = ", ".join(
        f"{names[bot]} {result.totals[seat]}" for seat, bot in enumerate(result.lineup)
    )
    won = " = ".join(names[result.lineup[s]] for s, c in enumerate(result.credit) if c > 0)
    seed = match.seed + result.index
    return f"game {done}/{total} (seed {seed}): {seats} -> {won} [{result.seconds:.1f}s]"


def summary(match: Match, results: list[GameResult]) -> str:
    names = labels(match.bots)
    width = max(len(n) for n in names)
    lines = [
        f"{match.game}, {match.players} players, {len(results)} games, seed {match.seed}"
        + (f", budget {match.budget}s" if match.budget is not None else "")
        + (f", {match.iterations} iterations" if match.iterations is not None else "")
        + (", CPU clock" if match.cpu_clock else ""),
        f"{'bot':<{width}}  games  wins   win rate  95% CI          avg score"
        "  median move  p95 move  worst move",
    ]
    for bot, name in enumerate(names):
        played = [(r, seat) for r in results for seat, b in enumerate(r.lineup) if b == bot]
        wins = sum(r.credit[seat] for r, seat in played)
        scores = [r.totals[seat] for r, seat in played]
        times = [t for r in results for t in r.times.get(bot, [])]
        low, high = wilson(wins, len(played))
        rate = wins / len(played) if played else 0.0
        lines.append(
            f"{name:<{width}}  {len(played):>5}  {wins:>5.1f}  {rate:>7.1%}  "
            f"[{low:.1%}, {high:.1%}]  {statistics.fmean(scores) if scores else 0:>9.1f}  "
            f"{statistics.median(times) if times else 0:>10.3f}s  {p95(times):>7.3f}s  "
            f"{max(times, default=0):>9.3f}s"
        )
    return "\n".join(lines)


def result_line(match: Match, result: GameResult) -> str:
    """One finished game as a JSON line of a results file, with the match it belongs to."""
    return json.dumps({"match": dataclasses.asdict(match), **dataclasses.asdict(result)})


def read_results(path: Path, match: Match) -> dict[int, GameResult]:
    """The games of `match` a results file holds, by index (lines of other matches are left
    out; a game written twice counts once; a line cut off by a run stopped while it wrote is
    skipped, and that game is played again)."""
    found: dict[int, GameResult] = {}
    if not path.exists():
        return found
    for line in path.read_text().splitlines():
        try:
            data = json.loads(line)
        except json.JSONDecodeError:
            continue
        recorded = data.pop("match")
        if Match(**{**recorded, "bots": tuple(recorded["bots"])}) != match:
            continue
        data["lineup"] = tuple(data["lineup"])
        data["times"] = {int(bot): times for bot, times in data["times"].items()}
        result = GameResult(**data)
        found[result.index] = result
    return found


@dataclass(frozen=True, slots=True)
class Run:
    """What one command asks for: games `first` to `games - 1` of `match`."""

    match: Match
    games: int
    jobs: int = 1
    first: int = 0
    results: Path | None = None


def parse(argv: list[str] | None) -> Run:
    parser = argparse.ArgumentParser(
        prog="python -m tools.arena", description="Seeded matches between bots."
    )
    parser.add_argument("game", help="engine slug, or module:ATTRIBUTE")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument(
        "--bots", required=True, help=f"comma-separated, from {', '.join(LEVELS + BOTS)}"
    )
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--budget", type=float, default=None, help="seconds per MCTS move")
    parser.add_argument("--iterations", type=int, default=None, help="MCTS iterations per move")
    parser.add_argument(
        "--cpu-clock",
        action="store_true",
        help="count the budget and move times in the process's CPU time, not wall time",
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes playing games at once")
    parser.add_argument(
        "--first", type=int, default=0, help="the first game to play (0: the match's first)"
    )
    parser.add_argument(
        "--results",
        type=Path,
        default=None,
        help="append each game to this file as a JSON line; the summary covers every game "
        "of the same match in it",
    )
    args = parser.parse_args(argv)
    bots = tuple(args.bots.split(","))
    unknown = [b for b in bots if b not in LEVELS + BOTS]
    if unknown:
        parser.error(f"unknown bots: {', '.join(unknown)}")
    if len(bots) > args.players:
        parser.error("more bots than players")
    if not 0 <= args.first < args.games:
        parser.error("--first must be a game of the match: from 0 to --games minus one")
    match = Match(
        args.game, args.players, bots, args.seed, args.budget, args.iterations, args.cpu_clock
    )
    return Run(match, args.games, args.jobs, args.first, args.results)


def stopped_by_signal(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt(f"stopped by signal {signum}")


def main(argv: list[str] | None = None) -> int:
    run = parse(argv)
    match = run.match
    # The games of this match played before (the results file), then this run's.
    results = {} if run.results is None else read_results(run.results, match)
    results = {i: r for i, r in results.items() if i < run.games}
    if run.results is not None and run.results.exists():
        text = run.results.read_text()
        if text and not text.endswith("\n"):  # a line cut off: the next game starts its own
            with run.results.open("a") as out:
                out.write("\n")
    count = run.games - run.first
    # A match stopped with SIGTERM (`kill`, a time limit) ends as one stopped with Ctrl-C: its
    # game processes end with it (`play_match`), and the games finished so far stay in the
    # results file.
    main_thread = threading.current_thread() is threading.main_thread()
    before = signal.signal(signal.SIGTERM, stopped_by_signal) if main_thread else None
    games = play_match(match, run.games, run.jobs, run.first)
    try:
        for done, result in enumerate(games, start=1):
            results[result.index] = result
            print(game_line(match, result, done, count), file=sys.stderr, flush=True)
            if run.results is not None:
                with run.results.open("a") as out:
                    out.write(result_line(match, result) + "\n")
    except GameFailed as failed:
        print(f"stopped: {failed}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"stopped: {len(results)} of the match's games finished", file=sys.stderr)
        return 130
    finally:
        games.close()
        if main_thread:
            signal.signal(signal.SIGTERM, before)
    print(summary(match, [results[i] for i in sorted(results)]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
