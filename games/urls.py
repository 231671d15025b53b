from __future__ import annotations

from django.urls import path

from games.views import history, lobby, play, review

app_name = "games"

urlpatterns = [
    path("", lobby.lobby, name="lobby"),
    path("new/", lobby.create, name="create"),
    path("history/", history.history, name="history"),
    path("import/", history.import_game, name="import"),
    path("<int:game_id>/", play.play, name="play"),
    path("<int:game_id>/join/", lobby.join, name="join"),
    path("<int:game_id>/leave/", lobby.leave, name="leave"),
    path("<int:game_id>/board/", play.board, name="board"),
    path("<int:game_id>/move/", play.move, name="move"),
    path("<int:game_id>/resign/", play.resign, name="resign"),
    path("<int:game_id>/take-back/", play.take_back, name="take_back"),
    path("<int:game_id>/replay/", history.replay, name="replay"),
    path("<int:game_id>/export/", history.export, name="export"),
    path("<int:game_id>/review/", review.request, name="review"),
    path("<int:game_id>/review.json", review.data, name="review_json"),
    path("<int:game_id>/review/progress/", review.progress, name="review_progress"),
    path("<int:game_id>/hint/", review.hint, name="hint"),
]
