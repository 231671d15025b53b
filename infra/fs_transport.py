"""kombu's filesystem transport (the embedded broker), with messages that appear whole.

kombu writes a message straight into the queue folder under its final name, and a worker
polling that folder may take the file before its bytes are written: it reads an empty message
and dies on the JSON error. Here a message is written under a name the reader skips (it does
not end in ``.<queue>.msg``) and renamed into place, which is atomic on one file system.
"""

from __future__ import annotations

import os
import uuid
from time import monotonic
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps


class Channel(filesystem.Channel):
    # The filesystem channel's signature: kombu's base channel names `payload` `message`.
    def _put(self, queue: str, payload: Any, **kwargs: Any) -> None:  # type: ignore[override]
        token = uuid.uuid4()
        name = f"{int(round(monotonic() * 1000))}_{token}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        staging = os.path.join(self.data_folder_out, f".{token}.writing")
        try:
            with open(staging, "wb") as out:
                out.write(str_to_bytes(dumps(payload)))
            os.replace(staging, final)
        except OSError as exc:
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc


class Transport(filesystem.Transport):
    Channel = Channel
