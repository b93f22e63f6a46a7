"""Issue 40 §3, « The replayer and the village read the same way »: the
village page read as a screen reader reads it — the tables a real table
(caption, column headers, each row named by its table), the filters
labelled — and its polite live region (#village-told) telling briefly what
changed at the tables the visitor looks at, « Table : une place prise,
1 sur 6. », without flooding: the changes of a few seconds told in one line,
a filtered-out table's never. axe-core (tests/browser/axe.py, the yardstick
nobody here wrote) on the village logged out and in, after a live change, at
a laptop's and a phone's width.

What the test reads: Playwright's roles and accessible names
(``get_by_role``), and the lines the live region receives (a
MutationObserver, with the page's clock: the gap between two lines is the
page's own promise, not a measure of the machine)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.browser.test_a11y import check, login
from tests.browser.test_table_page import ARTIFACTS, Player, start_server

pytestmark = [pytest.mark.browser, pytest.mark.db]

#: Installed before the page's scripts: every line #village-told receives, with when.
LISTEN = """window.told = [];
new MutationObserver(ms => ms.forEach(m => m.addedNodes.forEach(n => {
  if (n.nodeType === 1 && m.target.id === 'village-told') window.told.push([performance.now(), n.textContent]);
}))).observe(document, {childList: true, subtree: true});"""

GAP_MS = 4000  # static/village.js: at most one line every GAP_MS


def told(page: Any) -> list[str]:
    return [t for _, t in page.evaluate("() => window.told")]


def wait_told(page: Any, count: int) -> list[str]:
    page.wait_for_function("n => window.told.length >= n", arg=count, timeout=20_000)
    return told(page)


def heard(page: Any) -> int:
    """How many times the page went through its changes (told or learnt silently)."""
    return int(page.get_attribute("#village-told", "data-heard") or 0)


def test_the_village_reads_as_a_table_and_tells_what_changed(browser, db_url, tmp_path) -> None:
    srv = start_server(db_url, tmp_path)
    found: list[str] = []
    try:
        anon = browser.new_context(viewport={"width": 1366, "height": 768}, base_url=srv.base).new_page()
        errors: list[str] = []
        anon.on("pageerror", lambda exc: errors.append(str(exc)))
        anon.add_init_script(LISTEN)
        anon.goto("/")
        name = anon.locator(f"[data-table-name='{srv.table_id}']").inner_text()
        tavern = anon.locator("article.tavern h3").first.inner_text()
        # A table with a name, read row by row under its columns' headings, at both widths
        # (on a phone the rows are blocks: the roles must stay).
        for w, h in ((1366, 768), (390, 844)):
            anon.set_viewport_size({"width": w, "height": h})
            table = anon.get_by_role("table", name=f"Les tables de {tavern}")
            expect(table).to_have_count(1)
            for heading in ("Table", "Jeu", "Mises", "Places prises", "Dernière donne", "Liste d'attente"):
                expect(table.get_by_role("columnheader", name=heading)).to_have_count(1)
            row = table.get_by_role("row", name=re.compile(re.escape(name)))
            expect(row.get_by_role("rowheader", name=name)).to_have_count(1)
            expect(row.get_by_role("cell", name="0 sur 6")).to_have_count(1)
            expect(anon.get_by_role("combobox", name="Jeu")).to_have_count(1)
            expect(anon.get_by_role("combobox", name="Mises")).to_have_count(1)
            expect(anon.get_by_role("log", name="Ce qui change aux tables")).to_have_count(1)
        anon.set_viewport_size({"width": 1366, "height": 768})
        found += check(anon, "village logged out")
        # Seats taken at the table he looks at: told, briefly.
        ana = Player(browser, srv, "ana")
        ana.sit(0, 100)
        first = wait_told(anon, 1)
        assert first[0] == f"{name} : une place prise, 1 sur 6.", first
        expect(anon.get_by_role("cell", name="1 sur 6")).to_have_count(1)
        found += check(anon, "village logged out, a change told")
        # Logged in, the same page.
        mine = login(browser, srv, "patron")
        mine.goto("/")
        found += check(mine, "village logged in")
        # A table filtered out is learnt silently: bob sits while only Gin is shown, nothing is told;
        # shown again, cid's seat is told from where the table stood (2 → 3: « une place prise »),
        # not from what was told last (1 → 3: « 2 places prises »); never sooner than the gap after the last line.
        anon.select_option("#village-filters select[name=game]", "gin")
        expect(anon.locator(f"tr:has([data-table-seats='{srv.table_id}'])")).to_be_hidden()
        before = heard(anon)
        bob = Player(browser, srv, "bob")
        bob.sit(1, 100)
        expect(anon.locator(f"[data-table-seats='{srv.table_id}']")).to_have_text("2/6", timeout=20_000)
        anon.wait_for_function("n => Number(document.getElementById('village-told').dataset.heard) > n",
                               arg=before, timeout=20_000)
        assert told(anon) == first, told(anon)
        anon.select_option("#village-filters select[name=game]", "")
        cid = Player(browser, srv, "cid")
        cid.sit(2, 100)
        wait_told(anon, 2)
        lines = anon.evaluate("() => window.told")
        assert [t for _, t in lines] == [first[0], f"{name} : une place prise, 3 sur 6."], lines
        assert lines[1][0] - lines[0][0] >= GAP_MS - 50, lines
        ARTIFACTS.mkdir(exist_ok=True)
        anon.screenshot(path=str(ARTIFACTS / "village-reader.png"), full_page=True)
        anon.set_viewport_size({"width": 390, "height": 844})
        anon.screenshot(path=str(ARTIFACTS / "village-reader-phone.png"), full_page=True)
        assert not errors, errors
    finally:
        srv.stop()
    assert not found, "axe-core, serious or critical:\n" + "\n".join(found)
