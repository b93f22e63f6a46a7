"""The table's settings and fair commitments held by the page (issue 41):
a publication carries them only when they changed (docs/protocol.md
``table_at``), and the page keeps them (table/frames.js). A page opened in
the middle of a deal gets the whole picture in its first frame — its own
cards, nobody else's — and keeps showing the commitments while the frames
that follow come without them. Real server, Debian's Chromium.
"""

from __future__ import annotations

import json
import re

import pytest
from tests.browser.test_table_page import LIVE, passive, seat_everyone, start_server

from tavern.tables.publication import HELD, HELD_YOU

pytestmark = [pytest.mark.browser, pytest.mark.db]

#: table/frames.js's accept() fed frames by hand: what it keeps, puts back and asks.
FRAMES_JS = """async (held) => {
  const f = await import('/static/table/frames.js');
  const out = { list: f.HELD, you: f.HELD_YOU };
  let syncs = 0; const sync = () => { syncs += 1; };
  const S = { msg: null, story: [] };
  const table = { id: 1, name: 't', game: 'g', fair: { next: 'n1' }, players: [], clock: {} };
  const frame = (seq, at, t) => ({ type: 'state', epoch: 1, seq: seq, table_at: at, table: t,
                                   result_at: 0, last_result: null, story_at: 0, story: [] });
  // Nothing held: a frame without them is not drawn, a snapshot is asked.
  out.bare = [f.accept(S, frame(1, 1, { players: [], clock: {} }), sync), syncs];
  out.carried = f.accept(S, frame(2, 2, table), sync);
  const lean = frame(3, 2, { players: [{ seat: 0 }], clock: {} });
  out.lean = [f.accept(S, lean, sync), syncs, lean.table.name, lean.table.fair.next, lean.table.players.length];
  // A frame naming another carrier than the one held: a frame was missed.
  const gap = frame(4, 3, { players: [], clock: {} });
  out.gap = [f.accept(S, gap, sync), syncs, gap.table.id];
  // `you`'s daily hands and seed, by `you_at`.
  const mine = frame(5, 3, table); mine.you = { seat: 0, hands: { free: 3 }, client_seed: 's' };
  mine.you_at = 5;
  out.mine = f.accept(S, mine, sync);
  const next = frame(6, 3, { players: [], clock: {} }); next.you = { seat: 0 }; next.you_at = 5;
  out.next = [f.accept(S, next, sync), syncs, next.you.hands.free, next.you.client_seed];
  const missed = frame(7, 3, { players: [], clock: {} }); missed.you = { seat: 0 }; missed.you_at = 6;
  out.missed = [f.accept(S, missed, sync), syncs, missed.you.hands.free];
  return out;
}"""


def moves(ps, n: int) -> None:
    """``n`` moves of the deal, each player checking or calling in turn."""
    moved = 0
    while moved < n:
        for p in ps.values():
            choice = passive(p, p.actions())
            if choice and moved < n:
                p.click_action(choice)
                moved += 1


def test_a_page_joining_mid_deal_has_everything_and_keeps_what_is_held(browser, players, db_url, tmp_path):
    srv = start_server(db_url, tmp_path)
    try:
        ps = players(srv)
        seat_everyone(ps, cave=100)
        moves(ps, 2)  # a move or two of the deal: publications without the held keys
        ana = ps["ana"]
        cards = sorted(ana.my_cards())
        assert len(cards) == 2
        # A second page of ana's, opened now (a reconnection's first frame is the same snapshot).
        page = ana.context.new_page()
        frames: list[dict] = []
        page.on("websocket", lambda ws: ws.on(
            "framereceived", lambda data: frames.append(json.loads(data)) if isinstance(data, str) else None))
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"/tables/{srv.table_id}")
        page.wait_for_selector(f"{LIVE}[data-seq]")
        first = next(m for m in frames if m["type"] == "state")
        assert {"id", "name", "game", "stakes", "seats", "timer", "label", "view", "fair"} <= set(first["table"])
        assert first["table"]["fair"]["deal"] and first["table"]["fair"]["cards"], "the running deal's commitments"
        assert first["deal"]["phase"] == "bet" and first["story_at"] == 0 and len(first["story"]) >= 3
        me = next(p for p in first["deal"]["players"] if p["player"] == "ana")
        assert sorted(me["cards"]) == cards, "her own cards in the first frame"
        assert all(p["cards"] is None for p in first["deal"]["players"] if p["player"] != "ana"), "never another's"
        assert sorted(page.locator(f"{LIVE} .tl-seat.me .tl-myhand .pc.face").evaluate_all(
            "els => els.map(e => e.dataset.card)")) == cards
        promised = first["table"]["fair"]["next"]
        # The next moves come without the held keys; the page still shows them.
        seq = first["seq"]
        moves(ps, 2)
        page.wait_for_function("s => Number(document.getElementById('table-live').dataset.seq) > s + 1", arg=seq)
        later = [m for m in frames if m["type"] == "state" and m["seq"] > seq]
        assert later and all(not set(HELD) & set(m["table"]) for m in later), [sorted(m["table"]) for m in later]
        assert all(m["table_at"] == first["table_at"] for m in later)
        assert "hands" in first["you"] and all("hands" not in m["you"] and m["you_at"] == first["you_at"] for m in later)
        hands = page.locator(f"{LIVE} .tl-hands").text_content() or ""
        assert hands and hands == ana.page.locator(f"{LIVE} .tl-hands").text_content(), "the daily hands still shown"
        assert page.locator("#fair-next").text_content() == f"Engagement de la prochaine donne : {promised}"
        assert re.search(r"Empreintes des cartes de la donne en cours : [0-9a-f]{64}",
                         page.locator("#fair-cards").text_content() or "")
        assert page.locator(f"{LIVE} .tl-seat").count() == 6, "the seats drawn from the held table"
        assert not [m for m in frames if m["type"] == "state" and m["seq"] > seq and m.get("story_at") == 0], \
            "no snapshot asked again: nothing was missed"
        out = page.evaluate(FRAMES_JS, list(HELD))
        assert out["list"] == list(HELD) and out["you"] == list(HELD_YOU), "the page's lists are the server's"
        assert out["bare"] == [False, 1]
        assert out["carried"] is True
        assert out["lean"] == [True, 1, "t", "n1", 1]
        assert out["gap"] == [True, 2, 1]
        assert out["mine"] is True
        assert out["next"] == [True, 2, 3, "s"]
        assert out["missed"] == [True, 3, 3]
        assert not errors, errors
        page.close()
    finally:
        srv.stop()
