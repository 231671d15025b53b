"""The arena: a tiny seeded match between bots, and its statistics."""

from __future__ import annotations

import pytest

from games.bots import arena

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
