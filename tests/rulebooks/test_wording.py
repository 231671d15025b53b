"""The rulebook texts, site boxes and glossaries use one word per language for the same thing.

Read from `rulebooks/content/` itself, all four games: a reader who meets "oldal" in one box
and "weboldal" in the next, or "serwis" in the text and "strona" in the glossary, wonders
whether two things are meant.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

CONTENT = Path(__file__).resolve().parents[2] / "rulebooks" / "content"
GAMES = sorted(p.name for p in CONTENT.iterdir() if p.is_dir())

# The site is "site", "oldal", "serwis"; the words below name it otherwise.
OTHER_WORDS_FOR_THE_SITE = {
    "en": [r"\bweb ?site\b"],
    "hu": [r"\bweboldal", r"\bhonlap", r"\bwebhely"],
    "pl": [
        r"\bwartoś\w* strony\b",
        r"\bnasz\w* stron\w*",
        r"\bstron\w* internetow\w*",
        r"\bwitryn\w*",
    ],
}


def texts(game: str, lang: str) -> dict[str, str]:
    """Every text of one game in one language: the rulebook, the site box, the glossary."""
    found = {}
    for name in (f"{lang}.md", f"site.{lang}.md"):
        path = CONTENT / game / name
        if path.exists():
            found[name] = path.read_text(encoding="utf-8")
    glossary = json.loads((CONTENT / game / "glossary.json").read_text(encoding="utf-8"))
    found["glossary.json"] = "\n".join(
        str(value)
        for entry in glossary
        for field in entry.values()
        if isinstance(field, dict)
        for key, value in field.items()
        if key == lang
    )
    return found


def test_every_game_has_its_texts() -> None:
    assert GAMES == ["akropolis", "babylon", "hanging-gardens", "tower-of-babel"]
    for game in GAMES:
        for lang in ("en", "hu", "pl"):
            assert f"site.{lang}.md" in texts(game, lang)


@pytest.mark.parametrize("lang", sorted(OTHER_WORDS_FOR_THE_SITE))
@pytest.mark.parametrize("game", GAMES)
def test_the_site_is_one_word_per_language(game: str, lang: str) -> None:
    for name, text in texts(game, lang).items():
        for pattern in OTHER_WORDS_FOR_THE_SITE[lang]:
            hits = re.findall(pattern, text, flags=re.IGNORECASE)
            assert not hits, f"{game}/{name}: {hits}"


def test_babylons_quarry_stacks_are_kupac_in_hungarian() -> None:
    # "halom" is the pile of round tokens; the quarry's 16 stacks are "kupac".
    for name, text in texts("babylon", "hu").items():
        for sentence in re.split(r"(?<=[.!?])\s", text):
            if "kőbány" in sentence:
                assert not re.search(r"\bhal(om|m)", sentence), f"{name}: {sentence}"
