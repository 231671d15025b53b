"""The mail backend until SMTP is configured: e-mails printed on the console."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from django.core.mail.backends import console

logger = logging.getLogger(__name__)


class ConsoleEmailBackend(console.EmailBackend):
    """Django's console backend, saying once per process that the e-mails it prints were not
    sent. At INFO: this is how `make run` starts, not a fault; EMAIL_HOST turns on SMTP."""

    told = False

    def send_messages(self, email_messages: Sequence[Any]) -> int:
        if email_messages and not ConsoleEmailBackend.told:
            ConsoleEmailBackend.told = True
            logger.info(
                "E-mails are printed here, not sent: set EMAIL_HOST to send them over SMTP."
            )
        return super().send_messages(email_messages)
