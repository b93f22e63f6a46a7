"""Templates keep to the Content-Security-Policy: scripts and styles come from
files under /static only — no inline script, no style attribute, no on*= handler."""

from __future__ import annotations

import re
from pathlib import Path

from tavern.web.headers import CSP

TEMPLATES = Path(__file__).resolve().parents[2] / "src" / "tavern" / "web" / "templates"

#: A script element without src — but a JSON data block (type="application/json",
#: never run, outside script-src: the table page's words) is data, not code.
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*\btype=\"application/json\")[^>]*>", re.I)
STYLE_ATTR = re.compile(r"\sstyle\s*=", re.I)
STYLE_TAG = re.compile(r"<style\b", re.I)
HANDLER = re.compile(r"\son[a-z]+\s*=", re.I)
EXTERNAL = re.compile(r"""(?:src|href)\s*=\s*["'](?:https?:)?//""", re.I)


def test_csp_allows_only_self() -> None:
    assert "default-src 'self'" in CSP and "script-src 'self'" in CSP and "style-src 'self'" in CSP
    assert "unsafe" not in CSP and "frame-ancestors 'none'" in CSP


def test_templates_have_no_inline_code_or_external_assets() -> None:
    files = sorted(TEMPLATES.rglob("*.html"))
    assert len(files) >= 10
    problems = []
    for f in files:
        text = f.read_text(encoding="utf-8")
        for name, pattern in (("inline <script>", INLINE_SCRIPT), ("style attribute", STYLE_ATTR),
                              ("<style> block", STYLE_TAG), ("on* handler", HANDLER),
                              ("external asset", EXTERNAL)):
            if pattern.search(text):
                problems.append(f"{f.relative_to(TEMPLATES)}: {name}")
    assert problems == []


def test_every_state_changing_form_carries_the_csrf_token() -> None:
    """CSRF: each POST form sends the session's token as a hidden field."""
    missing = []
    for f in sorted(TEMPLATES.rglob("*.html")):
        for form in re.findall(r"<form\b[^>]*method=\"post\"[^>]*>.*?</form>", f.read_text(encoding="utf-8"),
                               re.S | re.I):
            if 'name="csrf_token" value="{{ csrf_token }}"' not in form:
                missing.append(f"{f.relative_to(TEMPLATES)}: {form[:60]}")
    assert missing == []
