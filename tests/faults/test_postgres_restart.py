"""PostgreSQL restarted between two moves: the next move succeeds, and no request fails.

Proves: a server whose pool holds connections from before a restart of PostgreSQL checks each
one before it lends it to a request (config/settings.py, the pool's `check`), so the first
move after the restart is stored and answered like any other, and the server's log has no
error. Without the check the pool lent the dead connection and that move answered 500.

The cluster is the test's own (initdb into a temporary folder, on a free port), so the
machine's PostgreSQL, which the suite runs against, is never restarted; the server under test
runs on that cluster in both runs (in the embedded run too, the pool is what is tested).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from games import engines
from tests.conftest import start_server, stop
from tests.faults.servers import PrivatePostgres, manage, postgres_bin, private_postgres
from tests.test_redis import Browser

pytestmark = [pytest.mark.faults, pytest.mark.slow]

DATABASE = "club_faults_restart"
ENGINE = engines.get("akropolis")
# Run in the server's database by `manage.py shell`: two members and their game.
SET_UP = """
import json
from tests.conftest import make_user
from tests.games.conftest import build_game
alice, bob = make_user("alice"), make_user("bob")
print(json.dumps({"game": build_game(alice, bob, seed=13).pk}))
"""


@pytest.fixture
def cluster() -> Iterator[PrivatePostgres]:
    if postgres_bin() is None:
        pytest.skip("PostgreSQL's initdb is not installed (apt-get install postgresql)")
    yield from private_postgres()


@pytest.fixture
def site(
    cluster: PrivatePostgres, process_env: dict[str, str], tmp_path: Path
) -> Iterator[tuple[str, Path, int]]:
    """The ASGI server on the private cluster, with two members' game: address, log and game id."""
    cluster.create_database(DATABASE)
    env = {**process_env, "DATABASE_URL": cluster.url(DATABASE)}
    manage(env, "migrate", "--noinput", "-v", "0")
    game_id = json.loads(manage(env, "shell", "-c", SET_UP).strip().splitlines()[-1])["game"]
    log = tmp_path / "server.log"
    proc, address = start_server(env, log)
    yield address, log, game_id
    stop(proc)


def next_move(cluster: PrivatePostgres, game_id: int) -> tuple[int, int, dict]:
    """The seat to move, the move number and a legal move, read from the cluster itself."""
    with psycopg.connect(cluster.url(DATABASE)) as db:
        row = db.execute("SELECT state, version FROM games_game WHERE id = %s", (game_id,))
        state, version = row.fetchone()  # type: ignore[misc]
    state = ENGINE.load(state)
    seat = ENGINE.to_move(state)[0]
    return seat, version, ENGINE.legal_moves(state, seat)[0]


def test_the_first_move_after_a_postgres_restart_is_stored_and_answered(
    site: tuple[str, Path, int], cluster: PrivatePostgres
) -> None:
    address, log, game_id = site
    browsers = {}
    for seat, name in enumerate(["alice", "bob"]):
        browser = Browser(address)
        assert browser.sign_in(name)[0] == 302, log.read_text()[-3000:]
        browsers[seat] = browser

    def play() -> tuple[int, int]:
        seat, version, move = next_move(cluster, game_id)
        status, _, _ = browsers[seat].request(
            f"/games/{game_id}/move/", {"expected_version": str(version), "move": json.dumps(move)}
        )
        return status, version

    assert play() == (302, 0), log.read_text()[-3000:]
    # The server's pool now holds connections opened before the restart.
    cluster.stop()
    cluster.start()

    status, version = play()
    assert (status, version) == (302, 1), log.read_text()[-3000:]
    assert next_move(cluster, game_id)[1] == 2  # stored
    page = browsers[0].request(f"/games/{game_id}/")
    assert page[0] == 200 and 'data-version="2"' in page[1]
    assert "Internal Server Error" not in log.read_text(), log.read_text()[-3000:]
