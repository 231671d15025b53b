"""The ASGI server the site runs on, in one place: `make run`, the tests and the benchmarks
start it from here.

    .venv/bin/python -m infra.serve --host 0.0.0.0 --port 8000

uvicorn (with uvloop, httptools and its `websockets-sansio` implementation) serves HTTP and
the sockets. It replaced daphne after `manage.py bench_live` measured both on the same app: with
1,000 sockets on two servers, uvicorn's sends took about half of daphne's time
(docs/benchmarks.md, "The live fan-out"). daphne, and granian, stay available to the
benchmark (`bench_live --asgi`, `tools.load --asgi`) so the comparison can be made again, and
so does uvicorn over the `websockets` library's legacy server (`uvicorn-legacy`), which uvicorn
deprecates and the site served its sockets with until 8 December 2026: side by side, the
Sans-I/O one spent 4 to 7 % less of the servers' CPU (docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

BIN = Path(sys.executable).parent
APP = "config.asgi:application"
SITE = "uvicorn"


# uvicorn's implementations of the websocket protocol by server kind: the Sans-I/O one over
# the `websockets` library's protocol, and the one over that library's legacy server, which
# uvicorn deprecates (kept for the benchmarks' comparison).
WEBSOCKETS = {"uvicorn": "websockets-sansio", "uvicorn-legacy": "websockets"}


def argv(host: str, port: int, kind: str = SITE) -> list[str]:
    """The command line serving the site on `host:port` with the server `kind`."""
    if kind in WEBSOCKETS:
        return [
            *(str(BIN / "uvicorn"), "--host", host, "--port", str(port)),
            *("--ws", WEBSOCKETS[kind], "--loop", "uvloop", "--http", "httptools"),
            # Channels' router has no lifespan protocol; a stop waits at most 10 s for requests.
            *("--lifespan", "off", "--timeout-graceful-shutdown", "10"),
            *("--no-access-log", "--log-level", "warning", APP),
        ]
    if kind == "daphne":
        return [str(BIN / "daphne"), "-b", host, "-p", str(port), APP]
    if kind == "granian":
        return [
            *(str(BIN / "granian"), "--interface", "asgi", "--host", host, "--port", str(port)),
            *("--workers", "1", "--loop", "uvloop", "--log-level", "warning", APP),
        ]
    raise ValueError(f"unknown ASGI server {kind!r}")


KINDS = ("uvicorn", "uvicorn-legacy", "daphne", "granian")


def main() -> None:
    parser = argparse.ArgumentParser(description="Serve the site (HTTP and websockets).")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--server", choices=KINDS, default=SITE)
    options = parser.parse_args()
    command = argv(options.host, options.port, options.server)
    # The server takes this process's place, so Ctrl-C and a supervisor's signals reach it.
    os.execv(command[0], command)


if __name__ == "__main__":
    main()
