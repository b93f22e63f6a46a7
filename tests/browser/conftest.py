"""The browser fixtures of the table page's tests, shared by the other
browser tests (one Chromium per module, three logged-in players), and the
final check of what the runs did: every action each game offers sent from a
page at least once, the screenshots of each game mid-deal and at its end."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.browser import watch
from tests.browser.test_table_page import ARTIFACTS, browser, players  # noqa: F401

HERE = Path(__file__).parent
GAMES = ("ramponneau", "draw", "rami", "double_rami", "remigio", "gin", "rams", "rummoli")


@pytest.fixture(scope="session", autouse=True)
def every_action_used(request: pytest.FixtureRequest) -> Iterator[None]:
    """After the session: what was sent goes to test-artifacts/browser-actions.json;
    when the session ran every browser test (``pytest tests/browser``) and all
    passed, an action never used or a screenshot missing fails it. A run of one
    file only writes the report (the files are run one at a time on a small machine)."""
    yield
    missing = watch.never_used()
    shots = [f"{g}-{when}.png" for g in GAMES for when in ("mid-deal", "end") if not (ARTIFACTS / f"{g}-{when}.png").exists()]
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "browser-actions.json").write_text(json.dumps(
        {"sent": {g: dict(sorted(c.items())) for g, c in sorted(watch.SENT.items())},
         "never_used": missing, "screenshots_missing": shots}, indent=1, ensure_ascii=False))
    ran = {Path(str(item.fspath)).name for item in request.session.items}
    whole = {p.name for p in HERE.glob("test_*.py")} <= ran and not request.session.testsfailed
    if whole:
        assert not missing, f"actions no page ever sent: {missing}"
        assert not shots, f"screenshots missing in test-artifacts/: {shots}"
