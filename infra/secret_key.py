"""A secret key kept in a file (SECRET_KEY_FILE): `make run`'s, `var/secret_key`.

The first process to start writes a new random key; every later start, and the worker beside
the server, reads the same one, so sessions and signed links stay valid across restarts. The
file is readable by its owner only.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import tempfile
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

# Django's own check (security.W009) wants at least 50 characters with 5 different ones.
MIN_LENGTH = 50


def read_or_create(path: Path) -> str:
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        # Written whole to a private temporary file, then linked into place: a server and a
        # worker starting together never read a half-written key, and only one key wins.
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".secret_key-")
        try:
            with os.fdopen(handle, "w") as file:  # mkstemp creates it with mode 0600
                file.write(secrets.token_urlsafe(64) + "\n")
            # Another process starting at the same moment may have written it first.
            with contextlib.suppress(FileExistsError):
                os.link(temporary, path)
        finally:
            os.unlink(temporary)
    key = path.read_text(encoding="utf-8").strip()
    if len(key) < MIN_LENGTH:
        raise ImproperlyConfigured(
            f"The secret key in {path} is shorter than {MIN_LENGTH} characters: delete the file "
            "to have a new one made (every member is then signed out)."
        )
    return key
