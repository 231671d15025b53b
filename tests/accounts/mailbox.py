"""Django's locmem e-mail backend, made visible to a test from a worker process.

The locmem backend keeps sent messages in `django.core.mail.outbox`, in the memory of the
process that sent them: a real Celery worker is another process, so a test cannot read that
list. This backend is locmem's own (every message goes through `locmem.EmailBackend`, which
stores it in the worker's outbox); after each send it appends the messages locmem just
stored, as JSON lines, to the file named by `MAILBOX_FILE`, which the test reads. A test
starts its worker with `EMAIL_BACKEND=tests.accounts.mailbox.EmailBackend`.
"""

from __future__ import annotations

import json
import os
from typing import Any

from django.core import mail
from django.core.mail.backends import locmem


class EmailBackend(locmem.EmailBackend):
    def send_messages(self, messages: Any) -> int:
        before = len(getattr(mail, "outbox", []))
        count = super().send_messages(messages)
        stored = mail.outbox[before:]
        with open(os.environ["MAILBOX_FILE"], "a", encoding="utf-8") as out:
            for message in stored:
                out.write(
                    json.dumps(
                        {
                            "to": list(message.to),
                            "subject": message.subject,
                            "body": message.body,
                            "headers": dict(message.extra_headers),
                        }
                    )
                    + "\n"
                )
        return count
