from __future__ import annotations

from django.urls import path

from games.consumers import GameConsumer, LobbyConsumer, NightConsumer, TournamentConsumer

websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/tournaments/<int:tournament_id>/", TournamentConsumer.as_asgi()),
    path("ws/nights/<int:night_id>/", NightConsumer.as_asgi()),
]
