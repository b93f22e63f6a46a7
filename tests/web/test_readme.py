"""The README's settings table stays complete."""

from __future__ import annotations

from pathlib import Path

from tavern.settings import Settings

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_lists_every_setting() -> None:
    text = README.read_text(encoding="utf-8")
    assert "make run" in text and "make test" in text and "docs/" in text
    missing = [f"TAVERN_{name.upper()}" for name in Settings.model_fields
               if f"`TAVERN_{name.upper()}`" not in text]
    assert missing == [], f"README.md settings table lacks {missing}"
