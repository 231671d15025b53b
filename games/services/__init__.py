"""The only writers of game state (DESIGN.md principle 2), one module per concept.

- `lobby`: creating a game, joining and leaving seats, bots filling open seats, the start;
- `moves`: the one move path. `record_move` is the only function that writes a move;
  `play_move` (members and bots) and `import_game` call it; its `log_entry` (a move's row)
  and `settle` (the game where its log left it) are also what tools/seeding.py writes in
  bulk; `take_back_step` removes a member's last step again. `state_at`/`view_for` read the log;
- `bots`: bot turns and re-sending lost ones;
- `seats`: resigning, timeouts that hand a seat to a bot, taking a seat back;
- `clocks`: time controls, vacations that pause them, the warning before a clock runs out;
- `results`: the end of a game (results, ranks, ratings), the audit and the deal's check;
- `transfer`: export and import;
- `nights`: game nights, scheduled games that bots fill when they start;
- `review`: the post-game review; `hints`: the hint, computed once per position by a worker;
- `practice`: unrated practice games from a reviewed position of the member's own;
- `tournaments`: tournaments in rounds of tables, paired by `games.pairing`; `tournament_events`
  their reminders, async deadlines and cancelling;
- `common`: the error type and what the others share.

Callers use this package's names (`services.play_move`); tests that replace a collaborator
patch it where it is used (`games.services.bots.choose_move`).
"""

from games.services.bots import (
    STUCK_BOT_SECONDS,
    play_bot_turn,
    reschedule_stuck_bot_turns,
    resend_bot_turns,
)
from games.services.clocks import take_vacation, vacation_days_left, warn_running_clocks
from games.services.common import (
    BOT_LEVELS,
    MAX_MOVE_BYTES,
    TAKE_OVER_LEVEL,
    GameError,
    bot_budget,
    bot_seed,
)
from games.services.lobby import (
    create_game,
    fill_open_seats_with_bots,
    join_seat,
    leave_seat,
    start_game,
)
from games.services.moves import play_move, record_move, state_at, take_back_step, view_for
from games.services.nights import (
    cancel_night,
    join_night,
    leave_night,
    run_game_nights,
    schedule_night,
)
from games.services.results import (
    DealCheck,
    audit_game,
    final_ranks,
    finish_game,
    finish_unscored_games,
    verify_deal,
)
from games.services.seats import (
    reclaim_seat,
    resign,
    take_over_timed_out_seats,
)
from games.services.tournaments import run_tournaments
from games.services.transfer import (
    EXPORT_FORMAT,
    EXPORT_VERSION,
    MAX_IMPORT_MOVES,
    export_game,
    import_game,
    seat_name,
)

__all__ = [
    "BOT_LEVELS",
    "EXPORT_FORMAT",
    "EXPORT_VERSION",
    "MAX_IMPORT_MOVES",
    "MAX_MOVE_BYTES",
    "STUCK_BOT_SECONDS",
    "TAKE_OVER_LEVEL",
    "DealCheck",
    "GameError",
    "audit_game",
    "cancel_night",
    "bot_budget",
    "bot_seed",
    "create_game",
    "export_game",
    "fill_open_seats_with_bots",
    "final_ranks",
    "finish_game",
    "finish_unscored_games",
    "import_game",
    "join_night",
    "join_seat",
    "leave_night",
    "leave_seat",
    "play_bot_turn",
    "play_move",
    "record_move",
    "reschedule_stuck_bot_turns",
    "resend_bot_turns",
    "resign",
    "run_game_nights",
    "run_tournaments",
    "schedule_night",
    "seat_name",
    "start_game",
    "state_at",
    "reclaim_seat",
    "take_back_step",
    "take_over_timed_out_seats",
    "take_vacation",
    "vacation_days_left",
    "warn_running_clocks",
    "verify_deal",
    "view_for",
]
