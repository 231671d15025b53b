"""Benchmark the post-game review: how long the hard bot takes to review a whole game.

    python -m tools.review_bench akropolis --players 2 --seed 5 [--iterations 8]

Plays one game of greedy bots from the seed, then reviews every decision of it as the
review task does (`games.bots.advice.review_move` from the deciding seat's view, with the
site's iterations per search unless `--iterations` is given). Prints the moves, the whole
review's wall time and the median, 95th percentile and worst time per decision, with the
decisions marked small and large. The database writes of the task (one small row update a
decision) are left out. Figures go to stdout; they are never asserted in tests.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from games import engines
from games.bots import advice, choose_move
from games.engines.base import Engine
from tools.arena import p95

# What the site reviews with (config/settings.py REVIEW_ITERATIONS, outside the tests).
SITE_ITERATIONS = advice.DEFAULT_ITERATIONS


def greedy_game(engine: Engine, players: int, seed: int) -> list[tuple[Any, int, dict[str, Any]]]:
    """The decisions of one game of greedy bots: (state before, seat, move made)."""
    state = engine.new_game(players, seed)
    decisions: list[tuple[Any, int, dict[str, Any]]] = []
    while not engine.is_over(state):
        seat = engine.to_move(state)[0]
        move = choose_move(
            engine, engine.view(state, seat), seat, "greedy", seed=seed + len(decisions)
        )
        decisions.append((state, seat, move))
        state = engine.apply_move(state, seat, move)
    return decisions


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.review_bench")
    parser.add_argument("game", help="engine slug")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=SITE_ITERATIONS)
    args = parser.parse_args(argv)
    engine = engines.get(args.game)
    decisions = greedy_game(engine, args.players, args.seed)
    times, marks = [], {"none": 0, "small": 0, "large": 0}
    started = time.perf_counter()
    for state, seat, made in decisions:
        before = time.perf_counter()
        found = advice.review_move(engine, state, seat, made, iterations=args.iterations)
        times.append(time.perf_counter() - before)
        marks[advice.mark(engine, found.cost)] += 1
    total = time.perf_counter() - started
    print(
        f"{engine.name}, {args.players} players, seed {args.seed}: {len(decisions)} decisions "
        f"reviewed at {args.iterations} iteration{'s' if args.iterations != 1 else ''} a search "
        f"in {total:.1f} s"
    )
    print(
        f"  per decision: median {statistics.median(times):.3f} s, "
        f"95th percentile {p95(times):.3f} s, worst {max(times):.3f} s"
    )
    print(f"  marked small {marks['small']}, large {marks['large']}, none {marks['none']}")


if __name__ == "__main__":
    main()
