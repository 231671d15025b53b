"""Benchmark an engine: random full games per second, legal_moves calls per second, memory.

    python -m tools.engine_bench akropolis [--seconds 5] [--seed 1]

Each player count runs for the given CPU time. A random game is `legal_moves` plus a
uniformly random choice plus `apply_move` until the game is over. Figures go to stdout;
they are never asserted in tests.
"""

from __future__ import annotations

import argparse
import random
import resource
import time
import tracemalloc
from typing import Any

from games import engines
from games.engines.base import Engine


def random_game(engine: Engine, players: int, seed: int) -> tuple[int, Any]:
    """Play one uniformly random game; return the number of moves and the final state."""
    chooser = random.Random(seed)
    state = engine.new_game(players, seed)
    moves = 0
    while not engine.is_over(state):
        seat = engine.to_move(state)[0]
        state = engine.apply_move(state, seat, chooser.choice(engine.legal_moves(state, seat)))
        moves += 1
    return moves, state


def games_per_second(engine: Engine, players: int, seconds: float, seed: int) -> tuple[float, int]:
    start = time.process_time()
    games = moves = 0
    while time.process_time() - start < seconds:
        played, _ = random_game(engine, players, seed + games)
        games += 1
        moves += played
    return games / (time.process_time() - start), moves // max(games, 1)


def legal_moves_per_second(engine: Engine, players: int, seconds: float, seed: int) -> float:
    """legal_moves on fresh states from a random game (each state asked once, so no cache)."""
    chooser = random.Random(seed)
    states = []
    state = engine.new_game(players, seed)
    while not engine.is_over(state):
        seat = engine.to_move(state)[0]
        states.append((engine.load(engine.dump(state)), seat))
        state = engine.apply_move(state, seat, chooser.choice(engine.legal_moves(state, seat)))
    fresh = [(engine.dump(s), seat) for s, seat in states]
    calls = 0
    elapsed = 0.0
    while elapsed < seconds:
        loaded = [(engine.load(payload), seat) for payload, seat in fresh]
        start = time.process_time()
        for s, seat in loaded:
            engine.legal_moves(s, seat)
        elapsed += time.process_time() - start
        calls += len(loaded)
    return calls / elapsed


def peak_memory(engine: Engine, players: int, seed: int) -> tuple[int, int]:
    """Peak Python allocation during one random game (tracemalloc), and process max RSS."""
    tracemalloc.start()
    random_game(engine, players, seed)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    known = ", ".join(sorted(engines.ENGINE_MODULES))
    parser.add_argument("game", help=f"engine slug, one of: {known}")
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per measure")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    engine = engines.get(args.game)
    print(f"{engine.name}: {args.seconds:g} CPU s per measure, seed {args.seed}")
    for players in range(engine.min_players, engine.max_players + 1):
        rate, moves = games_per_second(engine, players, args.seconds, args.seed)
        calls = legal_moves_per_second(engine, players, args.seconds, args.seed)
        peak, rss = peak_memory(engine, players, args.seed)
        print(
            f"{players} players: {rate:8.1f} games/s ({moves} moves/game), "
            f"{calls:10.0f} legal_moves/s, peak {peak / 1024:7.0f} KiB traced, "
            f"max RSS {rss / 1024:6.1f} MiB"
        )


if __name__ == "__main__":
    main()
