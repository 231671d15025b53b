"""The host names `make run` lets the site answer to (ALLOWED_HOSTS), from the address it
serves on (`HOST`). The Makefile runs this file as a script before the virtualenv exists, so it
uses only the standard library:

    python3 infra/hosts.py 0.0.0.0      # prints a comma-separated list

On one address the site answers to that address and to this machine's loopback names. On every
address (`0.0.0.0` or `::`) it also answers to this machine's name (and `name.local`, as
multicast DNS announces it) and its address on the local network, which is what members type on
a club's own network; a name or address members reach
the site by beyond those (a DNS name, a router's public address) goes in ALLOWED_HOSTS
(docs/operations.md, "`make run` is the club's server too").
"""

from __future__ import annotations

import socket
import sys

LOOPBACK = ["127.0.0.1", "localhost", "[::1]"]
EVERY_ADDRESS = {"0.0.0.0", "::", "[::]"}


def as_host(address: str) -> str:
    """An IPv6 address in a Host header comes in brackets."""
    return f"[{address}]" if ":" in address and not address.startswith("[") else address


def local_network_address() -> str | None:
    """The address this machine's default route leaves from. A UDP socket's connect sends no
    packet; it only picks the route. None on a machine with no network."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1 (RFC 5737): never a real host
            return str(probe.getsockname()[0])
        except OSError:
            return None


def allowed_hosts(host: str) -> list[str]:
    if host not in EVERY_ADDRESS:
        return list(dict.fromkeys([as_host(host), *LOOPBACK]))
    # No DNS lookup here: on a machine whose resolver hangs it would hold up every `make run`.
    name = socket.gethostname()
    names = [name, f"{name}.local" if "." not in name else "", local_network_address()]
    return list(dict.fromkeys([*LOOPBACK, *(as_host(host) for host in names if host)]))


if __name__ == "__main__":
    print(",".join(allowed_hosts(sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1")))
