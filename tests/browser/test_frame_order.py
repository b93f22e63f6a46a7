"""The page's order of state frames across owners (issue 38 §2, docs/protocol.md
"Order"), in a real Chromium running the page's own module
(static/table/frames.js, served by a live server under its CSP): a frame
is taken when its owner's epoch (the lease fence) is newer, or the same
epoch with a higher sequence — a new owner counts its sequence from 1
again, and a paused former owner's late frame carries the older epoch."""

from __future__ import annotations

import pytest
from tests.browser.test_table_page import start_server

pytestmark = [pytest.mark.browser, pytest.mark.db]

#: Frames as the server sends them (the held result is named by result_at;
#: each carries the table's held keys, its `id` among them: docs/protocol.md).
RUN = """async (frames) => {
  const { accept } = await import('/static/table/frames.js');
  const S = { story: [] };
  let syncs = 0;
  return frames.map(([epoch, seq]) => {
    const m = { type: 'state', epoch, seq, table: { id: 1 }, table_at: seq, deal: null, result_at: 0,
                story_at: 0, story: [] };
    if (seq === 1 || epoch === 0) m.last_result = null;
    const taken = accept(S, m, () => { syncs += 1; });
    return [epoch, seq, taken, S.msg.epoch, S.msg.seq];
  });
}"""


def test_the_page_orders_frames_by_the_owners_epoch_then_the_sequence(browser, db_url, tmp_path) -> None:
    srv = start_server(db_url, tmp_path)
    try:
        page = browser.new_page(base_url=srv.base)
        page.goto("/login")
        steps = page.evaluate(RUN, [[3, 1], [3, 7], [3, 5],  # the same owner: a late frame of its own dropped
                                    [2, 40],                  # the paused former owner's late frame: dropped
                                    [4, 1],                   # a new owner from 1: taken, whatever the sequence
                                    [4, 2], [3, 99]])         # and the one before it is old news for good
        page.close()
    finally:
        srv.stop()
    taken = [(e, s) for e, s, ok, _, _ in steps if ok]
    assert taken == [(3, 1), (3, 7), (4, 1), (4, 2)], steps
    assert steps[-1][3:] == [4, 2]  # what the page shows: the newest owner's last frame
