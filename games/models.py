"""Games, their seats, the append-only move log, and results.

DESIGN.md principle 3: a game is its engine, options, seed and ordered moves. ``state`` and
``version`` are a cache of replaying the log (``version`` = number of moves applied), kept so a
page never has to replay; ``audit_games`` checks the cache against the log.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games.levels import BotLevel

# The key of a practice game's options: the position it starts from and the decision of the
# reviewed game it practises (games/services/practice.py).
PRACTICE_OPTION = "practice"


def new_token() -> str:
    return secrets.token_urlsafe(16)


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        ABANDONED = "abandoned", _("Abandoned")

    engine_slug = models.CharField(_("game"), max_length=40)
    options = models.JSONField(_("options"), default=dict, blank=True)
    seed = models.BigIntegerField(_("seed"))
    # Principle 11 (games/deals.py): the salt is drawn with the seed, and the commitment, a
    # SHA-256 of both, is shown from the start; seed and salt are revealed when the game is
    # finished. Both blank: an imported game, or one created before commitments.
    salt = models.CharField(_("salt"), max_length=64, blank=True, default="")
    commitment = models.CharField(_("commitment"), max_length=64, blank=True, default="")
    players = models.PositiveSmallIntegerField(_("players"))
    status = models.CharField(_("status"), max_length=12, choices=Status, default=Status.OPEN)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="games_created"
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)
    # When the game's last step was played (or it began): bot turns are due from here. Each
    # seat's own clock is `Seat.clock_started_at` (games/clocks.py).
    turn_started_at = models.DateTimeField(_("turn started"), null=True, blank=True)
    # The time control of a game played over days (games/services/clocks.py): days each seat
    # has for a move; None: the site's TURN_TIMEOUT. A member's vacation pauses their clock.
    days_per_move = models.PositiveSmallIntegerField(_("days per move"), null=True, blank=True)
    state = models.JSONField(_("cached state"), null=True, blank=True)
    version = models.PositiveIntegerField(_("moves played"), default=0)
    # Steps members took back (principle 8): with `version`, it numbers the board's changes.
    steps_taken_back = models.PositiveIntegerField(_("steps taken back"), default=0)
    imported = models.BooleanField(_("imported"), default=False)
    # Draw the first player when the game starts (the seats are rotated then, so the waiting
    # room lists them in the order the host gave).
    random_first = models.BooleanField(_("random first player"), default=False)
    # The creator may mark a friendly or practice game unrated: its result is kept and
    # counted in the statistics, but it never moves a rating.
    rated = models.BooleanField(_("rated"), default=True)
    # A member asked the hard bot for a hint during the game: it is not rated.
    hints_used = models.BooleanField(_("hints used"), default=False)

    class Meta:
        ordering = ["-updated_at", "-pk"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        indexes = [
            models.Index(fields=["status", "updated_at"]),
            # The club's latest results, and each history page, newest first.
            models.Index(fields=["status", "finished_at"], name="game_status_finished"),
        ]

    def __str__(self) -> str:
        return f"{self.engine_slug} #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("games:play", args=[self.pk])

    @property
    def is_practice(self) -> bool:
        """An unrated game from a reviewed position (games/services/practice.py)."""
        return isinstance(self.options, dict) and PRACTICE_OPTION in self.options

    @property
    def revision(self) -> int:
        """The number of changes of the board so far: a move adds one to `version`, a step
        taken back removes one and adds one to `steps_taken_back`, so this grows by exactly
        one with each. Live boards carry it (`data-version`), and a browser orders them and
        finds gaps by it (principle 7); the move number alone goes back with a take-back."""
        return self.version + 2 * self.steps_taken_back


class Seat(models.Model):
    BotLevel = BotLevel

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField(_("seat"))  # engine seat number, 0-based
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="seats",
    )
    bot_level = models.CharField(_("bot level"), max_length=8, choices=BotLevel, blank=True)
    invite_token = models.CharField(max_length=40, default=new_token, unique=True)
    # An open seat is either the club's (anyone may take it; the game is listed) or invited:
    # only the holder of its link may take it, and a game waiting only for invited seats is
    # not listed for others.
    invited = models.BooleanField(_("by invitation only"), default=False)
    # An open seat may be filled by a bot of this level if nobody joins by the deadline.
    fill_bot_level = models.CharField(max_length=8, choices=BotLevel, blank=True)
    fill_deadline = models.DateTimeField(null=True, blank=True)
    # A member's seat played by a bot after a timeout or resignation; the member stays listed.
    bot_took_over = models.BooleanField(default=False)
    resigned = models.BooleanField(default=False)
    # The player's name as recorded in an imported file (such seats have no member).
    label = models.CharField(_("name"), max_length=150, blank=True)
    # The member was sent "your turn" and has not moved since: one notice per wait, not one
    # per move of the others.
    told_turn = models.BooleanField(default=False)
    # The seat's clock (games/clocks.py): when the seat came to move in the turn it is in,
    # None while it has no move to make. Its member was warned for the clock started then.
    clock_started_at = models.DateTimeField(null=True, blank=True)
    clock_warned_for = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="unique_seat_position"),
        ]

    def __str__(self) -> str:
        return f"{self.game} seat {self.position}"

    @property
    def is_open(self) -> bool:
        return self.user_id is None and not self.bot_level

    @property
    def is_open_to_club(self) -> bool:
        """Open, and any member may take it without an invitation."""
        return self.is_open and not self.invited

    @property
    def is_bot(self) -> bool:
        """True when a bot plays this seat now (a bot seat, or a member's seat taken over)."""
        return bool(self.bot_level) and (self.user_id is None or self.bot_took_over)


def position_of(seat: Seat | int | None) -> int | None:
    """A seat's position from a `Seat`, a position or None, so callers pass what they hold."""
    if seat is None or isinstance(seat, int):
        return seat
    return int(seat.position)


class OpenPage(models.Model):
    """A page of a game that a member has open now (one per game socket).

    "Your turn" is sent only to a member who has no page of the game open. A server that
    dies cannot remove its rows, so each socket renews `seen_at` and older rows do not count.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="open_pages")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="open_pages"
    )
    channel = models.CharField(max_length=200, unique=True)
    seen_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["game", "user", "seen_at"])]

    def __str__(self) -> str:
        return f"{self.user} on {self.game}"


class Move(models.Model):
    """One entry of the append-only move log."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    number = models.PositiveIntegerField()  # 0-based; the game's version before this move
    seat = models.PositiveSmallIntegerField()
    payload = models.JSONField()
    # What the table saw happen, in data (no words): the game's board module derives it from
    # the public views before and after the move, so it never holds a secret of the payload.
    # The move log and the last-move marks are drawn from it (docs/adding-a-game.md, "summarize").
    summary = models.JSONField(default=dict, blank=True)
    by_bot = models.BooleanField(default=False)
    # The engine's answer when the move was played (engines.base.can_take_back_step): whether this
    # step may be taken back while it is the last one. Only shows the button; the take-back
    # itself asks the engine again.
    can_take_back = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="unique_move_number"),
        ]

    def __str__(self) -> str:
        return f"{self.game} move {self.number}"


class Result(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="results")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="results",
    )
    bot_level = models.CharField(max_length=8, blank=True)
    score = models.IntegerField()
    breakdown = models.JSONField(default=dict)
    rank = models.PositiveSmallIntegerField()  # 1 = winner; shared victories share rank 1
    rating_before = models.FloatField(null=True, blank=True)
    rating_after = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["game", "rank", "seat"]
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="unique_result_seat")]
        indexes = [
            # A member's results (history, profile), and a bot level's (head-to-head).
            models.Index(fields=["user", "game"], name="result_user_game"),
            models.Index(fields=["bot_level", "game"], name="result_bot_game"),
        ]

    def __str__(self) -> str:
        return f"{self.game} seat {self.seat}: {self.score}"


class Rating(models.Model):
    """A member's (or bot level's) OpenSkill rating for one game."""

    engine_slug = models.CharField(max_length=40)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="ratings",
    )
    bot_level = models.CharField(max_length=8, blank=True)
    mu = models.FloatField()
    sigma = models.FloatField()
    games_played = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["engine_slug", "user", "bot_level"], name="unique_rating"
            ),
        ]
        # The leaderboard: one game's ratings with enough games played.
        indexes = [models.Index(fields=["engine_slug", "games_played"], name="rating_board")]

    def __str__(self) -> str:
        who = self.user or self.bot_level
        return f"{who} on {self.engine_slug}: {self.mu:.1f} ± {self.sigma:.1f}"

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


class GameNight(models.Model):
    """A game scheduled for a date and time: members join beforehand, and at the time the game
    starts with them, bots of `bot_level` in the seats still empty (games/services/nights.py).
    A night that no member besides its host joined is cancelled, never played by bots alone."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Scheduled")
        STARTED = "started", _("Started")
        CANCELLED = "cancelled", _("Cancelled")

    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_nights_hosted"
    )
    engine_slug = models.CharField(_("game"), max_length=40)
    players = models.PositiveSmallIntegerField(_("players"))
    starts_at = models.DateTimeField(_("starts at"))
    # The zone the host scheduled in: the calendar file and the host's page say it.
    time_zone = models.CharField(_("time zone"), max_length=64)
    bot_level = models.CharField(_("bots fill empty seats"), max_length=8, choices=Seat.BotLevel)
    # Open seats: any member may join; otherwise only the invited members.
    open_to_club = models.BooleanField(_("open to every member"), default=True)
    invited = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="game_nights_invited", blank=True
    )
    status = models.CharField(_("status"), max_length=10, choices=Status, default=Status.SCHEDULED)
    reminded_at = models.DateTimeField(null=True, blank=True)
    game = models.OneToOneField(
        Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="night"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["starts_at", "pk"]
        indexes = [models.Index(fields=["status", "starts_at"])]
        verbose_name = _("game night")
        verbose_name_plural = _("game nights")

    def __str__(self) -> str:
        return f"{self.engine_slug} night #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("games:night", args=[self.pk])


class GameNightPlayer(models.Model):
    """A member who joined a game night; seats follow the order they joined in."""

    night = models.ForeignKey(GameNight, on_delete=models.CASCADE, related_name="players_joined")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_nights_joined"
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["night", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["night", "user"], name="unique_game_night_player")
        ]

    def __str__(self) -> str:
        return f"{self.user} at {self.night}"


class Review(models.Model):
    """The hard bot's review of a finished game (games/services/reviews.py), stored once.

    `decisions` holds one entry per move of the log, in order (see `review.json`);
    `progress` is how many are done, so a review interrupted by a dead worker resumes."""

    class Status(models.TextChoices):
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="review")
    # The member who asked first (their limits count it); None for one the site started.
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reviews_requested",
    )
    status = models.CharField(max_length=8, choices=Status, default=Status.RUNNING)
    progress = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField()
    iterations = models.PositiveIntegerField()
    decisions = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"review of {self.game}"

    @property
    def costliest(self) -> int | None:
        """The number of the decision that cost the most (the first of equals), if any did."""
        costly = [d for d in self.decisions if d.get("cost", 0) > 0]
        return max(costly, key=lambda d: (d["cost"], -d["number"]))["number"] if costly else None


class Hint(models.Model):
    """The hard bot's choice for a member's seat at one position (games/services/hints.py),
    computed once by a worker and kept: the words, the board and every later request at the
    same position show this move. A position is the game's `revision` (a move or a step taken
    back makes a new one); `version` is the number of moves played before the hinted move."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Thinking")
        READY = "ready", _("Ready")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hints")
    seat = models.PositiveSmallIntegerField()
    version = models.PositiveIntegerField()
    revision = models.PositiveIntegerField()
    # Who asked: the hourly limit counts a member's hints (settings.HINTS_PER_HOUR).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hints"
    )
    status = models.CharField(max_length=8, choices=Status, default=Status.PENDING)
    move = models.JSONField(null=True, blank=True)
    # The move's public facts (games/boards: summarize), for its words.
    summary = models.JSONField(default=dict, blank=True)
    # The seat's view after the move (what is hidden from the seat drawn from its own view),
    # for the board preview.
    view = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "seat", "revision"], name="one_hint_per_position"
            )
        ]
        indexes = [models.Index(fields=["user", "created_at"], name="hints_by_member_time")]

    def __str__(self) -> str:
        return f"hint for seat {self.seat} of {self.game} at {self.revision}"


class Vacation(models.Model):
    """Days a member is away: their clocks stand still in every game meanwhile
    (games/services/clocks.py). A member takes at most VACATION_DAYS a calendar year."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations"
    )
    starts_at = models.DateTimeField(_("from"))
    ends_at = models.DateTimeField(_("until"))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["user", "starts_at"]
        verbose_name = _("vacation")
        verbose_name_plural = _("vacations")

    def __str__(self) -> str:
        return f"{self.user} {self.starts_at:%Y-%m-%d} - {self.ends_at:%Y-%m-%d}"


# The season and tournament models live in their own modules (one concept a file).
from games.season_models import Season, SeasonStanding  # noqa: E402, F401
from games.tournament_models import (  # noqa: E402, F401
    MAX_ROUND_DAYS,
    Tournament,
    TournamentEntry,
    TournamentRound,
    TournamentTable,
)
