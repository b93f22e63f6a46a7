"""Words of English that the French interface never uses: the scan of
rendered pages (tests/web/test_french_pages.py) and of the live table's
messages in the browser runs (tests/browser/watch.py) share them."""

from __future__ import annotations

import re

#: Words of English that French pages never use (checked as whole words).
ENGLISH = re.compile(r"\b(the|you|your|must|cannot|is not|are|players?|table is|seats?|stakes?|"
                     r"please|error|invalid|required|not found|forbidden|deal|cards?|welcome|"
                     # a table's variant left as its code: « Draw Poker (fixed-limit) » (issue 33 §14)
                     r"fixed|limit|registered|level)\b", re.I)
#: Words shared by both languages or names of things, allowed as they are.
ALLOWED = {"Rummoli", "Ramponneau", "Draw Poker", "Gin", "Rams", "Remigio", "API", "tavern"}


def english_in(text: str) -> list[str]:
    for word in ALLOWED:
        text = text.replace(word, "")
    return sorted({m.group(0) for m in ENGLISH.finditer(text)})
