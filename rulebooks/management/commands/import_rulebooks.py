from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from rulebooks.importers import CONTENT_DIR, ContentError, import_all


class Command(BaseCommand):
    help = (
        "Load or update the rulebooks from rulebooks/content/ (texts, 'How this site plays it' "
        "boxes, glossaries). Running it again changes nothing unless a content file changed. "
        "Nothing is lost: a changed shipped text becomes a new revision; if an editor changed "
        "that section since the last import, the shipped text is stored as a revision and the "
        "editor's text is stored again after it, so the editor's text stays current and both "
        "are in the history. Glossary terms and site notes changed in the admin are kept too."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--content-dir", type=Path, default=CONTENT_DIR)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            report = import_all(options["content_dir"])
        except ContentError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(self.style.SUCCESS(str(report)))
