from __future__ import annotations

from django.urls import path

from games.views import (
    deals,
    hint,
    history,
    lobby,
    members,
    nights,
    play,
    review,
    seasons,
    tournaments,
    vacation,
)

app_name = "games"

urlpatterns = [
    path("", lobby.lobby, name="lobby"),
    path("new/", lobby.create, name="create"),
    path("history/", history.history, name="history"),
    path("vacation/", vacation.vacation, name="vacation"),
    path("import/", history.import_game, name="import"),
    path("nights/new/", nights.new, name="night-new"),
    path("nights/invite-search/", nights.invite_search, name="night-invite-search"),
    path("nights/<int:night_id>/", nights.night, name="night"),
    path("nights/<int:night_id>/join/", nights.join, name="night-join"),
    path("nights/<int:night_id>/leave/", nights.leave, name="night-leave"),
    path("nights/<int:night_id>/cancel/", nights.cancel, name="night-cancel"),
    path("nights/<int:night_id>/calendar.ics", nights.calendar, name="night-calendar"),
    path("tournaments/", tournaments.index, name="tournaments"),
    path("tournaments/new/", tournaments.new, name="tournament-new"),
    path("tournaments/<int:tournament_id>/", tournaments.tournament, name="tournament"),
    path("tournaments/<int:tournament_id>/enter/", tournaments.register, name="tournament-enter"),
    path(
        "tournaments/<int:tournament_id>/withdraw/",
        tournaments.withdraw,
        name="tournament-withdraw",
    ),
    path(
        "tournaments/<int:tournament_id>/cancel/",
        tournaments.cancel,
        name="tournament-cancel",
    ),
    path(
        "tournaments/<int:tournament_id>/calendar.ics",
        tournaments.calendar,
        name="tournament-calendar",
    ),
    path(
        "tournaments/<int:tournament_id>/standings.csv",
        tournaments.standings_csv,
        name="tournament-csv",
    ),
    path(
        "tournaments/<int:tournament_id>/standings.json",
        tournaments.standings_json,
        name="tournament-json",
    ),
    path("standings/", members.standings, name="standings"),
    path("standings/<slug:slug>/", members.leaderboard, name="leaderboard"),
    path("seasons/", seasons.index, name="seasons"),
    path("seasons/new/", seasons.edit, name="season-new"),
    path("seasons/<int:season_id>/", seasons.season, name="season"),
    path("seasons/<int:season_id>/edit/", seasons.edit, name="season-edit"),
    path("<int:game_id>/", play.play, name="play"),
    path("<int:game_id>/join/", lobby.join, name="join"),
    path("<int:game_id>/leave/", lobby.leave, name="leave"),
    path("<int:game_id>/board/", play.board, name="board"),
    path("<int:game_id>/move/", play.move, name="move"),
    path("<int:game_id>/resign/", play.resign, name="resign"),
    path("<int:game_id>/take-back/", play.take_back, name="take_back"),
    path("<int:game_id>/take-back-step/", play.take_back_step, name="take_back_step"),
    path("<int:game_id>/replay/", history.replay, name="replay"),
    path("<int:game_id>/export/", history.export, name="export"),
    path("<int:game_id>/verify/", deals.verify, name="verify"),
    path("<int:game_id>/review/", review.request, name="review"),
    path("<int:game_id>/review.json", review.data, name="review_json"),
    path("<int:game_id>/hint/", hint.request, name="hint"),
    path("<int:game_id>/hint/status/", hint.status, name="hint_status"),
]
