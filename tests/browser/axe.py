"""axe-core in the page: the accessibility yardstick nobody here wrote
(issue 40 §4). ``scripts/axe.sh`` installs the npm package ``axe-core`` (4.x)
into ``.cache/axe`` when missing and says where ``axe.min.js`` is; it is
evaluated in the page through the DevTools protocol (an inline script tag
would be refused by the page's own CSP, as it should) and run
with the WCAG 2.x A/AA rules and axe's best practices.

Only the *serious* and *critical* findings fail a test; the others are
written to ``test-artifacts/axe-minor.json`` for a human to read."""

from __future__ import annotations

import json
import subprocess
from functools import cache
from pathlib import Path
from typing import Any

from tests.tables.liveserver import ROOT

FAILING = ("serious", "critical")
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]


@cache
def axe_source() -> str:
    """axe.min.js, installed by scripts/axe.sh on first use (npm)."""
    path = subprocess.run(["bash", str(ROOT / "scripts" / "axe.sh")], check=True, capture_output=True,
                          text=True, timeout=600).stdout.strip().splitlines()[-1]
    return Path(path).read_text(encoding="utf-8")


def audit(page: Any, where: str) -> list[str]:
    """Run axe on the page as it is now; each serious or critical violation
    as « where: rule (impact): the nodes' selectors — help »."""
    # The page as it stands, not half-way through a card's or a chip's
    # animation: a fading face has half its contrast for a third of a second.
    page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')", timeout=10_000)
    if not page.evaluate("() => !!window.axe"):
        page.evaluate(axe_source() + "\n;0")  # evaluated by the DevTools protocol: no inline script for the CSP to stop
    found = page.evaluate("""async (tags) => {
        const r = await axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
        return {version: axe.version, violations: r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map(n => n.target.join(' ') + (n.failureSummary ? ' — ' + n.failureSummary.split('\\n')[1] : ''))}))};
    }""", TAGS)
    minor = [v for v in found["violations"] if v["impact"] not in FAILING]
    if minor:
        ARTIFACTS = ROOT / "test-artifacts"
        ARTIFACTS.mkdir(exist_ok=True)
        log = ARTIFACTS / "axe-minor.json"
        seen = json.loads(log.read_text()) if log.exists() else {}
        seen[where] = minor
        log.write_text(json.dumps(seen, indent=1, ensure_ascii=False))
    return [f"{where}: {v['id']} ({v['impact']}): {'; '.join(v['nodes'][:4])} — {v['help']}"
            for v in found["violations"] if v["impact"] in FAILING]
