"""Issue 40 §4, « Zero serious or critical axe-core violations on every page,
logged out and in, at every state of every game's table (waiting, a deal at
his turn, at another's turn, the result), in the owner's and admin pages, at
both widths ». The yardstick is axe-core's own rules (tests/browser/axe.py),
not ours: one browser, one server, every page audited at 1366×768 and at a
phone's 390×844 without reloading it (the viewport changes, axe runs again).

The tables' states (his turn, another's, the result) are audited in
test_keyboard.py, where each game's practice deal is played by keyboard;
here the waiting table (the seeded one nobody sits at) and a practice
deal's result, for the replayer."""

from __future__ import annotations

import re
from typing import Any

import pytest
from tests.browser.axe import audit
from tests.browser.test_table_page import LIVE, start_server
from tests.dbtools import harness_settings
from tests.tables.liveserver import PASSWORD

from tavern.services import users
from tavern.store.db import make_engine, session_factory

pytestmark = [pytest.mark.browser, pytest.mark.db]

SIZES = ((1366, 768), (390, 844))
LOGGED_OUT = ("/", "/login", "/register", "/concours", "/classements", "/confidentialite")
PLAYER = ("/", "/compte", "/mes-donnes", "/mes-statistiques", "/premium", "/concours", "/classements",
          "/mes-donnees", "/joueurs/ana", "/confidentialite")
OWNER = ("/ma-taverne",)  # one tavern: the page redirects to it
ADMIN = ("/admin/utilisateurs", "/admin/tavernes", "/admin/audit", "/admin/discussion", "/admin/concours",
         "/admin/surveillance", "/admin/maison", "/admin/salle-des-machines")


def check(page: Any, where: str) -> list[str]:
    """axe at both sizes, the page as it is (the viewport put back after)."""
    found = []
    for w, h in SIZES:
        page.set_viewport_size({"width": w, "height": h})
        found += audit(page, f"{where} @{w}×{h}")
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
    return found


def login(browser: Any, srv: Any, name: str) -> Any:
    ctx = browser.new_context(viewport={"width": 1366, "height": 768}, base_url=srv.base)
    page = ctx.new_page()
    page.goto("/login")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(re.compile(r"/$"))
    return page


def open_practice(page: Any, game: str) -> None:
    page.goto("/")
    form = page.locator("form.practice-form")
    form.locator("select[name=game]").select_option(game)
    low = form.locator("input[name=opponents]").get_attribute("min") or "1"
    form.locator("input[name=opponents]").fill(low)
    form.locator("input[name=fast]").check()
    form.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"/tables/\d+$"))
    page.wait_for_selector(f"{LIVE}[data-seq]")


def test_every_page_and_every_table_state_has_no_serious_axe_violation(browser, db_url, tmp_path) -> None:
    srv = start_server(db_url, tmp_path)
    engine = make_engine(db_url)
    with session_factory(engine)() as s, s.begin():
        users.create_user(s, "admin", PASSWORD, role="admin", settings=harness_settings())
    engine.dispose()
    found: list[str] = []
    try:
        anon = browser.new_context(viewport={"width": 1366, "height": 768}, base_url=srv.base).new_page()
        for path in (*LOGGED_OUT, f"/tables/{srv.table_id}"):
            anon.goto(path)
            found += check(anon, f"logged out {path}")
        ana = login(browser, srv, "ana")
        for path in PLAYER:
            ana.goto(path)
            found += check(ana, f"player {path}")
        ana.goto(f"/tables/{srv.table_id}")  # nobody seated: the table waits
        ana.wait_for_selector(f"{LIVE}[data-seq]")
        found += check(ana, "table waiting")
        ana.goto("/compte")  # « mode lecteur d'écran »: the table's animations off (issue 40 §3)
        ana.check("#reader-mode")
        open_practice(ana, "ramponneau")  # a deal played (« f »: he folds), for the replayer below
        assert ana.get_attribute(LIVE, "data-motion") == "off"
        ana.wait_for_selector(f"{LIVE} .tl-yourturn", timeout=60_000)
        ana.keyboard.press("f")
        ana.wait_for_selector(f"{LIVE} .tl-result h3", timeout=60_000)
        ana.goto("/mes-donnes")
        ana.locator("main a[href^='/mes-donnes/']").first.click()
        ana.wait_for_selector(".rp-step, main h1")
        found += check(ana, "replay")
        patron = login(browser, srv, "patron")
        for path in OWNER:
            patron.goto(path)
            found += check(patron, f"owner {path}")
        admin = login(browser, srv, "admin")
        for path in ADMIN:
            admin.goto(path)
            found += check(admin, f"admin {path}")
    finally:
        srv.stop()
    assert not found, "axe-core, serious or critical:\n" + "\n".join(found)
