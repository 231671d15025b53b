from __future__ import annotations

from django.apps import AppConfig


class ToolsConfig(AppConfig):
    """Installed only so that Django finds the tools' management commands."""

    name = "tools"
    verbose_name = "Tools"
