"""OpenSkill (Plackett-Luce) ratings per game, for members and for each bot level.

A finished game updates the rating of every participant that occupies exactly one seat:
a bot level playing several seats of the same game (two "normal" bots) learns nothing from
playing itself, so those seats are left out. A member whose seat a bot finished (timeout,
resignation) is rated on the result, since the member chose to leave it. The number shown
is the ordinal mu - 3 sigma, which starts at 0 and rises as the rating grows surer.
"""

from __future__ import annotations

from collections import Counter

from openskill.models import PlackettLuce

from games.models import Rating, Result

MODEL = PlackettLuce()


def _key(result: Result) -> tuple[int | None, str]:
    return (result.user_id, "") if result.user_id is not None else (None, result.bot_level)


def rating_for(engine_slug: str, key: tuple[int | None, str]) -> Rating:
    user_id, bot_level = key
    rows = Rating.objects.select_for_update().filter(engine_slug=engine_slug, bot_level=bot_level)
    rows = rows.filter(user_id=user_id) if user_id is not None else rows.filter(user__isnull=True)
    # order_by pk: with a NULL user the unique constraint cannot stop a duplicate bot row
    # created by a concurrent game, so every reader agrees on the oldest one.
    row = rows.order_by("pk").first()
    if row is None:
        row = Rating.objects.create(
            engine_slug=engine_slug,
            user_id=user_id,
            bot_level=bot_level,
            mu=MODEL.mu,
            sigma=MODEL.sigma,
        )
    return row


def rated_keys(results: list[Result]) -> list[tuple[Result, tuple[int | None, str]]]:
    """The results a game rates, each with its participant's key (none when fewer than two)."""
    keys = [_key(result) for result in results]
    counts = Counter(keys)
    rated = [
        (result, key)
        for result, key in zip(results, keys, strict=True)
        if counts[key] == 1 and (key[0] is not None or key[1])
    ]
    return rated if len(rated) >= 2 else []


def rate(before: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """New (mu, sigma) for each participant, given their (mu, sigma) before and their ranks."""
    ratings = [MODEL.rating(mu=mu, sigma=sigma) for mu, sigma in before]
    places: list[float] = list(ranks)
    after = MODEL.rate([[rating] for rating in ratings], ranks=places)
    return [(new.mu, new.sigma) for [new] in after]


def update_ratings(*, engine_slug: str, results: list[Result]) -> None:
    """Rate one finished game; sets `rating_before`/`rating_after` on the results it rates."""
    rated = rated_keys(results)
    if not rated:
        return
    # Lock the rating rows in one fixed order, so two games finishing at once cannot deadlock.
    locked = {key: rating_for(engine_slug, key) for key in sorted((k for _, k in rated), key=str)}
    rows = [locked[key] for _, key in rated]
    after = rate([(row.mu, row.sigma) for row in rows], [r.rank for r, _ in rated])
    for (result, _), row, (mu, sigma) in zip(rated, rows, after, strict=True):
        result.rating_before = row.ordinal
        row.mu, row.sigma = mu, sigma
        row.games_played += 1
        row.save(update_fields=["mu", "sigma", "games_played"])
        result.rating_after = row.ordinal
        result.save(update_fields=["rating_before", "rating_after"])


# The number members see: 1000 for a newcomer (ordinal 0), and 40 per point of ordinal, so a
# game moves it by tens rather than by fractions (docs/club.md, "Ratings").
DISPLAY_BASE = 1000
DISPLAY_SCALE = 40


def display(ordinal: float) -> int:
    return round(DISPLAY_BASE + DISPLAY_SCALE * ordinal)
