"""The Celery app's configuration (config/celery.py): Django's `CELERY_*` settings copied once
into a mapping of their own, giving Celery every value its reading of Django's settings
object gave, without a look-up in that object for each setting of each task."""

from __future__ import annotations

import pytest
from celery import Celery
from celery.app.defaults import DEFAULTS
from django.conf import settings

from config.celery import app


def test_every_celery_setting_has_the_value_reading_djangos_settings_gives() -> None:
    through_django = Celery("through-django")
    through_django.config_from_object("django.conf:settings", namespace="CELERY")
    names = set(DEFAULTS) | {
        name.removeprefix("CELERY_").lower() for name in dir(settings) if name.startswith("CELERY_")
    }
    differing = {name for name in names if app.conf.get(name) != through_django.conf.get(name)}
    assert differing == set()
    assert app.conf.task_acks_late is True
    assert app.conf.worker_prefetch_multiplier == 1


def test_celery_reads_its_settings_from_its_copy_not_from_djangos_settings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert app.conf.task_acks_late is True  # read (and copied) once
    looked_up: list[str] = []
    wrapped = type(settings._wrapped)

    def watched(self: object, name: str) -> object:
        if name.startswith("CELERY_"):
            looked_up.append(name)
        return object.__getattribute__(self, name)

    monkeypatch.setattr(wrapped, "__getattribute__", watched, raising=False)
    assert app.conf.task_acks_late is True
    assert app.conf.task_publish_retry is True  # Celery's default: the site does not set it
    assert app.conf.broker_pool_limit == DEFAULTS["broker_pool_limit"]
    assert looked_up == []


def test_the_worker_is_not_told_the_sites_settings_are_celery_3s() -> None:
    """Celery's worker warns of Celery 3 setting names unless the settings come from the
    string `django.conf:settings`, whose `CELERY_` names only look like them."""
    assert app._config_source == "django.conf:settings"
