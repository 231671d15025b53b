"""The embedded broker (kombu's filesystem transport) never shows a reader half a message."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from kombu import Connection
from kombu.transport import filesystem as kombu_filesystem
from kombu.transport.virtual import Empty

from infra import fs_transport


def channel_on(folder: Path) -> Any:
    connection = Connection(
        transport=fs_transport.Transport,
        transport_options={
            "data_folder_in": str(folder),
            "data_folder_out": str(folder),
            "control_folder": str(folder / "control"),
            "store_processed": False,
        },
    )
    return connection.default_channel


def test_a_message_being_written_is_not_taken_by_a_polling_worker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "control").mkdir()
    channel = channel_on(tmp_path)
    real_dumps = fs_transport.dumps
    polled: list[str] = []

    def dumps_while_a_worker_polls(payload: Any) -> str:
        # The file is open and still empty: a worker polling the queue now must find nothing
        # to take (kombu's own transport gave it the empty file, and the worker died on it).
        with pytest.raises(Empty):
            channel._get("bots")
        polled.append("empty")
        return real_dumps(payload)

    monkeypatch.setattr(fs_transport, "dumps", dumps_while_a_worker_polls)
    monkeypatch.setattr(kombu_filesystem, "dumps", dumps_while_a_worker_polls)
    channel._put("bots", {"task": "play", "game": 7})
    assert polled == ["empty"]
    assert channel._get("bots") == {"task": "play", "game": 7}
    with pytest.raises(Empty):
        channel._get("bots")
    assert [p.name for p in tmp_path.iterdir() if p.is_file()] == []  # nothing left behind
