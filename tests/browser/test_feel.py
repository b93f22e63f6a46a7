"""Issue 11, "what players of online card rooms expect": light animations
(a card dealt, chips to the pot) and an optional sound when it is your turn,
both switchable off and respecting ``prefers-reduced-motion``.

Watched through the page's own hooks, never through timing: a
MutationObserver notes the animation marks (``tl-dealt``, ``tl-chips-in``,
``tl-pot-grew``) as the felt is drawn, and the ``tavern:chime`` event says
when the chime sounded and whose turn the frame gave."""

from __future__ import annotations

import json

import pytest
from tests.browser.test_table_page import LIVE, passive, play, result_shown, start_server

pytestmark = [pytest.mark.browser, pytest.mark.db]

MARKS = ("tl-dealt", "tl-chips-in", "tl-pot-grew")
WATCH = """
window.__feel = { marks: {}, chimes: [], dealtStyle: null };
new MutationObserver(function (records) {
  records.forEach(function (r) {
    r.addedNodes.forEach(function (n) {
      if (n.nodeType !== 1) return;
      [n].concat(Array.from(n.querySelectorAll('.tl-dealt, .tl-chips-in, .tl-pot-grew'))).forEach(function (e) {
        MARKS.forEach(function (c) {
          if (!e.classList.contains(c)) return;
          window.__feel.marks[c] = (window.__feel.marks[c] || 0) + 1;
          if (c === 'tl-dealt' && window.__feel.dealtStyle === null) window.__feel.dealtStyle = getComputedStyle(e).animationName;
        });
      });
    });
  });
}).observe(document, { subtree: true, childList: true });
document.addEventListener('tavern:chime', function (e) { window.__feel.chimes.push(e.detail); });
""".replace("MARKS", json.dumps(MARKS))


def feel(p) -> dict:
    return p.page.evaluate("() => window.__feel")


def test_animations_and_the_turn_chime_are_the_players_to_switch(browser, players, db_url, tmp_path):
    srv = start_server(db_url, tmp_path, game="ramponneau", stakes={"small_blind": 1, "big_blind": 2})
    try:
        ps = players(srv)
        ana, bob, cid = ps["ana"], ps["bob"], ps["cid"]
        # bob's system asks for reduced motion; everybody's page is watched from its first frame.
        bob.page.emulate_media(reduced_motion="reduce")
        for p in ps.values():
            p.context.add_init_script(WATCH)
            p.page.reload()
            p.page.wait_for_selector(f"{LIVE}[data-seq]")
        box = {p.name: (p.page.locator(f"{LIVE} .tl-feel input[name=motion]"),
                        p.page.locator(f"{LIVE} .tl-feel input[name=sound]")) for p in ps.values()}
        # By default: animations on, the chime off (nothing sounds unasked).
        assert ana.page.get_attribute(LIVE, "data-motion") == "on"
        assert box["ana"][0].is_checked() and not box["ana"][1].is_checked()
        # Reduced motion: no animation, and the page says why the box is off.
        assert bob.page.get_attribute(LIVE, "data-motion") == "off"
        assert box["bob"][0].is_disabled() and not box["bob"][0].is_checked()
        assert "moins de mouvement" in bob.page.locator(f"{LIVE} .tl-feel").text_content()
        # cid switches the animations off: kept in his browser across a reload.
        box["cid"][0].uncheck()
        assert cid.page.get_attribute(LIVE, "data-motion") == "off"
        cid.page.reload()
        cid.page.wait_for_selector(f"{LIVE}[data-seq]")
        assert cid.page.get_attribute(LIVE, "data-motion") == "off"
        assert not cid.page.locator(f"{LIVE} .tl-feel input[name=motion]").is_checked()
        # ana and cid want the chime; bob does not.
        box["ana"][1].check()
        cid.page.locator(f"{LIVE} .tl-feel input[name=sound]").check()
        assert ana.page.evaluate("localStorage.getItem('tavern.sound')") == "on"
        for k, p in enumerate(ps.values()):
            p.sit(k, 100)
        moves = play(ps, passive, result_shown(ps, 1))

        # Animations: ana saw cards dealt, chips going to the pot and the pot grow,
        # animated by the stylesheet; bob (reduced motion) and cid (switched off) none.
        seen = feel(ana)
        assert all(seen["marks"].get(m, 0) > 0 for m in MARKS), seen["marks"]
        assert seen["dealtStyle"] == "tl-deal-in"
        assert feel(bob)["marks"] == {} and feel(cid)["marks"] == {}
        # A dealt card under reduced motion is still drawn, without any animation.
        assert bob.page.evaluate("getComputedStyle(document.querySelector('.tl-seat.me .pc')).animationName") == "none"

        # The chime: only on the player's own turn, once as each turn begins.
        for p in (ana, cid):
            chimes = feel(p)["chimes"]
            mine = [n for n, _ in moves if n == p.name]
            assert chimes, f"{p.name} heard no chime"
            assert all(p.name == c["to_act"] or p.name in (c["to_act"] or []) for c in chimes), (p.name, chimes)
            # One per turn: never more chimes than moves, never fewer than betting rounds he spoke in.
            assert 4 <= len(chimes) <= len(mine), (p.name, chimes, moves)
            assert int(p.page.get_attribute(LIVE, "data-chimes")) == len(chimes)
        assert feel(bob)["chimes"] == [] and bob.page.get_attribute(LIVE, "data-chimes") == "0"
        assert any(n == "bob" for n, _ in moves), "bob had turns, heard nothing"
        for p in ps.values():
            assert not p.errors, f"{p.name}'s page: {p.errors}"
    finally:
        srv.stop()
