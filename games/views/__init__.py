"""Game pages, split by page as in django-htmx-patterns: lobby, play, history/replay."""
