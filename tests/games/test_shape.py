"""DESIGN.md principle 6: a game lives in its own places, and nothing generic names a game.

A game's own places are its engine folder (games/engines/<pkg>/), its board package
(games/boards/<pkg>), its bot package (games/bots/<pkg>/), its templates
(templates/games/<pkg>/), its rulebook folder and its static files named after it; the
registry (games/registry.py) holds its one entry. `tests/games/test_registry.py` checks that
every registered game fills the registry's Protocols. Everything else (the
services, views, consumers, rendering, error texts, forms, catalogue, base templates and
scripts) must work for any game, so it may not mention one by slug or package name.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

from games import boards

ROOT = Path(__file__).resolve().parents[2]
CODE_DIRS = ("games", "accounts", "config", "rulebooks")
REGISTRY = {ROOT / "games" / "registry.py"}


def game_names() -> list[str]:
    names = []
    for module in boards.all():
        slug = module.INFO.slug
        names.extend({slug, boards.package_name(slug)})
    return names


def name_pattern() -> re.Pattern[str]:
    # "hanging-gardens", "hanging_gardens", "Hanging Gardens" are the same game.
    parts = [re.escape(name).replace(r"\-", "[-_ ]").replace("_", "[-_ ]") for name in game_names()]
    return re.compile("|".join(parts), re.I)


def own_place(path: Path) -> bool:
    """Paths with a game's slug or package name in them belong to that game."""
    relative = path.relative_to(ROOT).as_posix()
    return any(name in relative for name in game_names())


def python_code_tokens(source: str) -> list[tuple[int, str]]:
    """Tokens of the code: comments and docstrings left out (they may cite a game)."""
    docstrings = set()
    for node in ast.walk(ast.parse(source)):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                docstrings.add(body[0].lineno)
    tokens = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            continue
        if token.type == tokenize.STRING and token.start[0] in docstrings:
            continue
        tokens.append((token.start[0], token.string))
    return tokens


def test_game_names_are_known() -> None:
    # The check below is only as good as its list of names: every game of the club is in it.
    assert len(boards.all()) >= 4
    assert name_pattern().search("hanging_gardens") and name_pattern().search("Tower of Babel")


def test_no_generic_python_module_names_a_game() -> None:
    pattern = name_pattern()
    offenders = []
    for folder in CODE_DIRS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "migrations" in path.parts or path in REGISTRY or own_place(path):
                continue
            for line, text in python_code_tokens(path.read_text("utf-8")):
                if pattern.search(text):
                    offenders.append(f"{path.relative_to(ROOT)}:{line}: {text[:60]}")
    assert offenders == []


def test_no_generic_template_or_script_names_a_game() -> None:
    pattern = name_pattern()
    comment = re.compile(r"{%\s*comment\s*%}.*?{%\s*endcomment\s*%}|{#.*?#}|/\*.*?\*/", re.S)
    offenders = []
    for folder, suffixes in (("templates", {".html", ".svg", ".txt"}), ("static", {".js", ".css"})):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in suffixes or "vendor" in path.parts or own_place(path):
                continue
            text = comment.sub("", path.read_text("utf-8"))
            for number, line in enumerate(text.splitlines(), start=1):
                if pattern.search(line):
                    offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:80]}")
    assert offenders == []


def test_the_shape_check_finds_a_game_name_in_generic_code() -> None:
    """The checks above can fail: a generic line naming a game is caught."""
    source = 'def rules(slug):\n    """Akropolis is fine in a docstring."""\n'
    source += '    return slug == "akropolis"\n'
    hits = [text for _, text in python_code_tokens(source) if name_pattern().search(text)]
    assert hits == ['"akropolis"']
