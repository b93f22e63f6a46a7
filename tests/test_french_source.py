"""Every French sentence of the house comes from the catalogue (issue 28, section 3).

The source outside ``tavern/catalogue.py`` (and the templates, which are
pages) is scanned for string literals in French: accents, or the small
words a French sentence cannot do without. Docstrings and comments are not
scanned; log lines and metric help are English and pass.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "tavern"

ACCENT = re.compile(r"[àâçéèêëîïôûùüœÀÂÇÉÈÊËÎÏÔÛÙÜŒ«»]")
#: Words of a French sentence that no English log line uses.
WORDS = re.compile(
    r"(?i)\b(vous|votre|vos|le|la|les|de|du|des|au|aux|un|une|et|ou|est|sont|pas|pour|avec|dans|aucune?|cette|ces|ses|sur|n'\w+|"
    r"d'\w+|l'\w+|qu'\w+|donnes?|jetons|joueurs?|taverne|connectez|introuvable|réessayez|fermée?)\b")

#: Strings that are French on purpose, by file, each with why.
ALLOWED: dict[str, tuple[str, ...]] = {
    # A keyword the contest form accepts and shows as its default value, not a sentence.
    "contest_rules.py": ("défaut",),
    "web/routers/contests.py": ("défaut",),
    # OpenAPI tags: the names of the API's sections in its own documentation.
    "web/routers/health.py": ("santé",),
    "web/routers/tavern.py": ("ma taverne",),
    # The demonstration data `tavern seed` writes: names of things, not messages.
    "services/seed.py": ("Au Lapin Agile", "Rami français", " écus, "),
    # The site's default name, said in its mails' sender and subjects (issue 39): a name, not a sentence.
    "settings.py": ("La taverne",),
    # The house players' level names: identifiers players choose from, named in French (issue 29).
    "bots/levels.py": ("débutant", "habitué"),
}

def _docstring_ids(tree: ast.AST) -> set[int]:
    """Docstrings and bare string statements (attribute docs): prose, not output."""
    return {id(node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}


def french_literals() -> dict[str, list[str]]:
    """Every French string literal of the source, by file (catalogue excepted)."""
    found: dict[str, list[str]] = {}
    for path in sorted(SRC.rglob("*.py")):
        if path.name == "catalogue.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        prose = _docstring_ids(tree)
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Constant) and isinstance(node.value, str)) or id(node) in prose:
                continue
            text = node.value
            if ACCENT.search(text) or (" " in text.strip() and WORDS.search(text)):
                rel = str(path.relative_to(SRC))
                if text in ALLOWED.get(rel, ()):
                    continue
                found.setdefault(rel, []).append(f"{node.lineno}: {text[:80]!r}")
    return found


def test_no_french_sentence_outside_the_catalogue() -> None:
    """Routes and services raise codes or ask the catalogue for words; a new
    French literal elsewhere fails here, naming its line."""
    found = french_literals()
    assert not found, found


def test_the_finder_finds_french_and_lets_english_logs_pass(tmp_path: Path) -> None:
    """The scanner itself: a French sentence is caught, a log line is not."""
    assert ACCENT.search("Cette donne n'a pas de graine révélée.")
    assert WORDS.search("Connectez-vous pour regarder ou jouer.")
    assert not ACCENT.search("table %s: command %s failed")
    assert not WORDS.search("table %s: command %s failed") and not WORDS.search("letting a table go")
