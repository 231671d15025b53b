"""The review benchmark reviews every decision of the game it plays."""

import re

from games import engines
from tools import review_bench


def test_the_bench_reviews_each_decision_of_a_greedy_game_once(capsys) -> None:
    engine = engines.get("akropolis")
    decisions = review_bench.greedy_game(engine, 2, seed=5)
    final = engine.apply_move(*decisions[-1])
    assert engine.is_over(final)
    review_bench.main(["akropolis", "--players", "2", "--seed", "5", "--iterations", "1"])
    out = capsys.readouterr().out
    assert f": {len(decisions)} decisions reviewed at 1 iteration a search in " in out
    small, large, none = map(int, re.search(r"small (\d+), large (\d+), none (\d+)", out).groups())
    assert small + large + none == len(decisions)
