from __future__ import annotations

from pathlib import Path

from django.apps import AppConfig
from django.conf import settings


class InfraConfig(AppConfig):
    name = "infra"
    verbose_name = "Infrastructure"

    def ready(self) -> None:
        make_folders()


def make_folders() -> None:
    """The folders the settings name, made when Django starts in a process (a server, a worker,
    a command, a test run) rather than when the settings are read: the files under VAR_DIR
    (SQLite, the file cache), the static root WhiteNoise serves from, and the embedded broker's
    queue, control and results folders (Celery's file result backend refuses a missing one)."""
    folders = [Path(settings.VAR_DIR), Path(settings.STATIC_ROOT)]
    broker = getattr(settings, "CELERY_FS_DIR", None)
    if broker is not None:
        folders += [Path(broker) / name for name in ("queue", "control", "results")]
    for folder in folders:
        folder.mkdir(parents=True, exist_ok=True)
