"""Translated texts for the errors a member can cause while playing.

Engines raise `IllegalMove` with a stable `code` and English text and never call gettext
(STYLE.md); services raise `GameError` the same way. This module is the one place that turns
either into a sentence in the member's language.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games import boards
from games.engines.base import IllegalMove

# Codes whose text needs no numbers. Texts with numbers are built in `describe`.
PLAIN: dict[str, object] = {
    # games.services.GameError
    "unknown_game": gettext_lazy("This game is not available."),
    "bad_players": gettext_lazy("This game cannot be played with that many players."),
    "bad_seats": gettext_lazy("Each seat must be you, an open seat or a bot."),
    "bad_bot_level": gettext_lazy("Choose a bot level: easy, normal or hard."),
    "bad_options": gettext_lazy("These game options cannot be combined."),
    "two_seats_for_me": gettext_lazy("You can take only one seat in a game."),
    "not_open": gettext_lazy("This game is no longer waiting for players."),
    "already_seated": gettext_lazy("You already have a seat in this game."),
    "no_open_seat": gettext_lazy("There is no open seat left in this game."),
    "bad_invite": gettext_lazy("This invitation link is not valid for this game."),
    "invited_only": gettext_lazy(
        "The open seats of this game are for invited players: take one with its invitation link."
    ),
    "not_seated": gettext_lazy("You do not have a seat in this game."),
    "not_full": gettext_lazy("The game can start only when every seat is taken."),
    "not_running": gettext_lazy("This game is not running."),
    "bot_seat": gettext_lazy("A bot plays this seat now."),
    "not_your_turn": gettext_lazy("It is not your turn."),
    "bad_days_per_move": gettext_lazy("Choose the days per move from the list."),
    "bad_vacation": gettext_lazy("A vacation is a whole number of days, at least one."),
    "review_running": gettext_lazy(
        "Your review of another game is still running: ask for this one when it has finished."
    ),
    "review_not_finished": gettext_lazy(
        "Only a finished game can be reviewed: a review of a running game would tell what "
        "the bot thinks of draws that are still hidden."
    ),
    "practice_no_review": gettext_lazy(
        "A position can be practised once the game's review has finished."
    ),
    "practice_not_yours": gettext_lazy("You can practise only your own decisions."),
    "hint_members": gettext_lazy(
        "Hints are only for games against bots: another member plays in this game."
    ),
    "stale": gettext_lazy(
        "The game has moved on since this page was loaded (another tab, or a double click). "
        "The board now shows the current position; nothing was played."
    ),
    "bad_move": gettext_lazy("That is not a move this game understands."),
    "nothing_to_take_back": gettext_lazy("There is no step of yours to take back now."),
    "cannot_take_back_whole_turns": gettext_lazy(
        "Nothing can be taken back in this game: each move is a whole turn."
    ),
    "cannot_take_back_turn_passed": gettext_lazy(
        "That step cannot be taken back: it ended your turn."
    ),
    "cannot_take_back_step_revealed": gettext_lazy(
        "That step cannot be taken back: it showed something that was hidden."
    ),
    "already_resigned": gettext_lazy("You have already resigned from this game."),
    "not_taken_over": gettext_lazy("You already play this seat yourself."),
    "not_finished": gettext_lazy("Only a finished game can be exported."),
    "bad_number": gettext_lazy("There is no such move in this game."),
    "bad_file": gettext_lazy("This file is not a game exported from this site."),
    "scores_differ": gettext_lazy(
        "The scores in this file do not match its moves; the file was changed."
    ),
    # games.services.nights
    "no_night": gettext_lazy("There is no such game night."),
    "night_in_past": gettext_lazy("Choose a time that is still to come."),
    "night_not_scheduled": gettext_lazy("This game night is no longer waiting for players."),
    "night_joined": gettext_lazy("You have already joined this game night."),
    "night_invited_only": gettext_lazy("Only invited members can join this game night."),
    "night_full": gettext_lazy("Every seat of this game night is taken."),
    "night_not_joined": gettext_lazy("You have not joined this game night."),
    "host_leaves": gettext_lazy("As the host you cannot leave; you can cancel the game night."),
    "not_host": gettext_lazy("Only the host can cancel a game night."),
    # games.services.tournaments
    "not_organiser": gettext_lazy("Only an organiser can create tournaments."),
    "bad_format": gettext_lazy("Choose Swiss or round robin."),
    "tournament_rounds": gettext_lazy("A Swiss tournament has 1 to 12 rounds."),
    "tournament_places": gettext_lazy("A tournament has 2 to 200 places."),
    "tournament_in_past": gettext_lazy("Choose a time for the first round that is still to come."),
    "tournament_too_far": gettext_lazy("The first round can be at most a year ahead."),
    "tournament_interval": gettext_lazy("Rounds are at most a week apart."),
    "no_tournament": gettext_lazy("There is no such tournament."),
    "tournament_closed": gettext_lazy("This tournament takes no more entries."),
    "tournament_entered": gettext_lazy("You have already entered this tournament."),
    "tournament_withdrawn": gettext_lazy("You withdrew from this tournament after playing in it."),
    "tournament_over": gettext_lazy("This tournament is over."),
    "tournament_not_entered": gettext_lazy("You have not entered this tournament."),
    "tournament_round_days": gettext_lazy("An async round lasts 1 to 60 days."),
    "not_tournament_organiser": gettext_lazy("Only its organiser can cancel a tournament."),
    "tournament_confirm_cancel": gettext_lazy(
        "Members have entered this tournament: confirm that you cancel it."
    ),
    "round_over": gettext_lazy(
        "The deadline of this tournament round has passed: a bot plays your seat to the end."
    ),
    # games.engines: what any engine may say
    "game_over": gettext_lazy("The game is over."),
    "wrong_phase": gettext_lazy("That is not what this turn asks for now."),
}


# How a field of an imported file can be wrong (GameError "bad_field"); numbers in `describe`.
FIELD_PROBLEMS: dict[str, object] = {
    "not_text": gettext_lazy("must be text"),
    "bad_character": gettext_lazy(
        "holds a character that cannot be stored (a NUL character or a lone surrogate)"
    ),
    "not_integer": gettext_lazy("must be a whole number"),
    "out_of_range": gettext_lazy("is out of range"),
    "not_boolean": gettext_lazy("must be true or false"),
    "not_object": gettext_lazy("must be an object"),
    "not_list": gettext_lazy("must be a list"),
    "unknown_value": gettext_lazy("has a value this site does not know"),
    "duplicate": gettext_lazy("names a seat a second time"),
    "out_of_order": gettext_lazy("is missing or out of order"),
    # A seat's name breaks the rules of members' names (accounts.names).
    "invisible_character": gettext_lazy(
        "holds an invisible character (such as a zero-width space, a Hangul filler or a "
        "Braille blank)"
    ),
    "bad_spacing": gettext_lazy("holds a space other than one ordinary space between words"),
    "reserved_name": gettext_lazy("is reserved for the site's bots and empty seats"),
    "demo_account": gettext_lazy("is the name of the site's demo account"),
}


def limit_text(code: str, most: int) -> str:
    """What a limit a club sets (settings, README "Limits") says when it refuses work."""
    if code == "night_too_far":
        return ngettext(
            "A game night can be scheduled at most %(max)s day ahead.",
            "A game night can be scheduled at most %(max)s days ahead.",
            most,
        ) % {"max": most}
    if code == "night_invitations":
        return ngettext(
            "A game night can have at most %(max)s invited member.",
            "A game night can have at most %(max)s invited members.",
            most,
        ) % {"max": most}
    if code == "night_limit":
        return ngettext(
            "You already host %(max)s game night to come, the most a member may: "
            "schedule another once it has begun or you have cancelled it.",
            "You already host %(max)s game nights to come, the most a member may: "
            "schedule another once one has begun or you have cancelled one.",
            most,
        ) % {"max": most}
    if code == "review_limit":
        return ngettext(
            "You have asked for %(max)s review in the last 24 hours, the most a member may; "
            "please ask again later.",
            "You have asked for %(max)s reviews in the last 24 hours, the most a member may; "
            "please ask again later.",
            most,
        ) % {"max": most}
    if code == "practice_limit":
        return ngettext(
            "You already have %(max)s practice game running, the most a member may: finish "
            "or resign it before you start another.",
            "You already have %(max)s practice games running, the most a member may: finish "
            "or resign one of them before you start another.",
            most,
        ) % {"max": most}
    if code == "hint_turn_limit":
        return ngettext(
            "You have had %(limit)s hint this turn, the most a turn allows. Play on; you can ask "
            "again on your next turn.",
            "You have had %(limit)s hints this turn, the most a turn allows. Play on; you can ask "
            "again on your next turn.",
            most,
        ) % {"limit": most}
    if code == "hint_hour_limit":
        return ngettext(
            "You have asked for %(limit)s hint in the last hour, the most an hour allows. Please "
            "try again later.",
            "You have asked for %(limit)s hints in the last hour, the most an hour allows. Please "
            "try again later.",
            most,
        ) % {"limit": most}
    if code == "search_limit":
        return ngettext(
            "You have searched %(max)s time in the last minute, the most a member may; please "
            "wait a moment and type again.",
            "You have searched %(max)s times in the last minute, the most a member may; please "
            "wait a moment and type again.",
            most,
        ) % {"max": most}
    return ngettext(
        "You have imported %(max)s game in the last 24 hours, the most a member may; "
        "please import this one later.",
        "You have imported %(max)s games in the last 24 hours, the most a member may; "
        "please import this one later.",
        most,
    ) % {"max": most}


# Codes of limits: their texts say the number (limit_text).
LIMITS = (
    "night_too_far",
    "night_invitations",
    "night_limit",
    "review_limit",
    "practice_limit",
    "hint_turn_limit",
    "hint_hour_limit",
    "import_limit",
    "search_limit",
)


def field_problem(params: dict) -> str:
    problem = params.get("problem")
    if problem == "too_long":
        return _("is too long (at most %(max)s characters)") % {"max": params.get("max")}
    if problem == "too_many":
        return _("has too many entries (at most %(max)s)") % {"max": params.get("max")}
    return str(FIELD_PROBLEMS.get(str(problem), _("is not valid")))


def describe(exc: Exception, slug: str = "") -> str:
    """The member-facing text for a `GameError` or an `IllegalMove`, in the active language.

    An engine's own codes are translated by its game's board module (`error_message`), so
    pass the game's slug for a move's error.
    """
    code = getattr(exc, "code", "")
    params = getattr(exc, "params", {}) or {}
    board = boards.get(slug) if slug else None
    if isinstance(exc, IllegalMove) and board is not None:
        text = board.error_message(code, params)
        if text is not None:
            return str(text)
    if code == "bad_players" and "min" in params:
        return _("This game is for %(min)s to %(max)s players.") % {
            "min": params["min"],
            "max": params["max"],
        }
    if code == "bad_move_number" and "number" in params:
        return _("Move %(number)s of the file cannot be played: %(reason)s") % {
            "number": params["number"],
            "reason": describe(params["cause"], params.get("game", ""))
            if "cause" in params
            else "",
        }
    if code == "vacation_allowance" and "left" in params:
        return ngettext(
            "You have %(left)s vacation day left this year (%(max)s a year).",
            "You have %(left)s vacation days left this year (%(max)s a year).",
            params["left"],
        ) % {"left": params["left"], "max": params.get("max")}
    if code == "too_deep":
        return _(
            "This move is nested too deeply (at most %(max)s levels of lists and objects)."
        ) % {"max": params.get("max")}
    if code == "file_too_deep":
        return _(
            "This file is nested too deeply to be a game export "
            "(at most %(max)s levels of lists and objects)."
        ) % {"max": params.get("max")}
    if code == "bad_field" and "field" in params:
        return _("This file cannot be imported: %(field)s %(problem)s.") % {
            "field": params["field"],
            "problem": field_problem(params),
        }
    most = params.get("max", params.get("limit"))
    if code in LIMITS and most is not None:
        return limit_text(code, most)
    if code in PLAIN:
        return str(PLAIN[code])
    if isinstance(exc, IllegalMove):
        return _("That move is not allowed.")
    return _("Something went wrong with this game; please reload the page.")
