from __future__ import annotations

from accounts.routing import websocket_urlpatterns as accounts_ws
from games.routing import websocket_urlpatterns as games_ws

websocket_urlpatterns = [*accounts_ws, *games_ws]
