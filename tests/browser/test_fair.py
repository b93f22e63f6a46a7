"""« Donne vérifiable » in a real browser (issue 16, docs/fairness.md): the
page's Web Crypto code derives the same deck as the server's Python, a player
sets his own seed, plays a deal, and the page itself says the deal checks
out — the archived record saying the same under ``tavern verify``."""

from __future__ import annotations

import json
import random

import pytest
from sqlalchemy import select
from tests.browser.test_table_page import ARTIFACTS, LIVE, passive, play, result_shown, start_server
from tests.test_fair import TABLE_DECKS, _fair_deal, _forgeries, _packs, _shuffles_of_seeds

from tavern import cards, fair, fair_cards
from tavern.games import registry
from tavern.store.db import make_engine, session_factory
from tavern.store.models import ArchivedHand

pytestmark = [pytest.mark.browser, pytest.mark.db]

JS_DECK = """async ([seed, table, deal, seeds, cards]) => {
  const m = await import('/static/fair.js');
  const s = await m.Stream.open(seed, table, deal, seeds);
  const first = await s.shuffle(cards);
  const second = await s.shuffle(first);   // the stream goes on, as a reshuffle reads it
  return [await m.commitment(seed), first, second];
}"""


def test_the_page_and_the_server_derive_the_same_decks(browser, players, db_url, tmp_path):
    srv = start_server(db_url, tmp_path)
    try:
        page = players(srv)["ana"].page
        rng = random.Random(16)
        packs = [cards.deck52(), cards.deck(decks=2, jokers=4), cards.deck32(), cards.deck52()[:7]]
        for k, pack in enumerate(packs):
            seed = bytes(rng.randrange(256) for _ in range(32))
            seeds = ["".join(rng.choice("abc019_-") for _ in range(rng.randrange(0, 40)))
                     for _ in range(rng.randrange(0, 7))]
            table, deal = rng.randrange(1, 10**6), k + 1
            py = fair.FairStream(seed, table, deal, seeds)
            want = [fair.commitment(seed), py.shuffle(pack), None]
            want[2] = py.shuffle(want[1])
            got = page.evaluate(JS_DECK, [seed.hex(), table, deal, seeds, rng.sample(pack, len(pack))])
            assert got == want, f"pack {k}: the page's deck differs from the server's"
    finally:
        srv.stop()


def test_a_player_seeds_plays_and_verifies_his_deal(browser, players, db_url, tmp_path):
    srv = start_server(db_url, tmp_path, game="ramponneau", stakes={"small_blind": 1, "big_blind": 2})
    try:
        ps = players(srv)
        ana = ps["ana"].page
        ana.click("#fair-panel summary")
        promised = ana.text_content("#fair-next").split(": ")[-1]
        assert len(promised) == 64, "the next deal's commitment is shown before it"
        ana.fill("#fair-seed", "graine_d_ana-16")
        ana.click("#fair-seed-form button[type=submit]")
        ana.wait_for_selector("#fair-result:has-text('Graine enregistrée')")
        ana.fill("#fair-seed", "pas|bon")
        ana.click("#fair-seed-form button[type=submit]")
        ana.wait_for_selector("#fair-result:has-text('64 caractères')")
        for k, p in enumerate(ps.values()):
            p.sit(k, 200)
        for p in ps.values():
            p.page.wait_for_selector(f"{LIVE}[data-phase=bet]", timeout=15_000)
        shown = ana.text_content("#fair-cards")  # deal 1's digests, shown with its first state
        play(ps, passive, result_shown(ps, 1))

        ana.wait_for_selector("#fair-check:not([disabled])")
        ana.click("#fair-check")
        ana.wait_for_selector("#fair-result[data-ok]")
        ARTIFACTS.mkdir(exist_ok=True)
        ana.locator("#fair-panel").screenshot(path=str(ARTIFACTS / "fair-verified.png"))
        assert ana.get_attribute("#fair-result", "data-ok") == "1", ana.text_content("#fair-result")
        text = ana.text_content("#fair-result")
        # Issue 42 §6: what she checked are the openings of the cards she saw,
        # against the digests her page was shown before the deal — no seed.
        assert "les cartes que vous avez vues sont celles engagées avant la donne" in text, text
        assert "conformes aux empreintes" in text and "Cette page n'a pas vu" not in text

        # The same deal in the archive: ana's seed went in, and it verifies.
        engine = make_engine(db_url)
        with session_factory(engine)() as s:
            record = s.scalars(select(ArchivedHand).where(ArchivedHand.table_id == srv.table_id)
                               .order_by(ArchivedHand.id)).first().record
        engine.dispose()
        assert record["fair"]["commitment"] == promised
        assert {"player": "ana", "seed": "graine_d_ana-16"} in record["fair"]["client_seeds"]
        assert fair.verify(record)

        # Issue 42 §6: « the page's check refuses a swapped card » — her own
        # reveal checks out in the page's code; the same with two of her cards
        # swapped, a card replaced by one she never saw, a forged salt or a
        # rewritten leaf is refused in French, in the panel too.
        mine = _own_reveal(record, "ana")
        digests = record["fair"]["cards"]
        assert shown == f"Empreintes des cartes de la donne en cours : {digests[0]}"
        assert ana.evaluate(JS_OPENINGS, [mine, digests])["ok"] is True
        refused = {}
        for name, forged in _forged_openings(record, mine).items():
            refused[name] = ana.evaluate(JS_OPENINGS, [forged, digests])
        assert not any(r["ok"] for r in refused.values()), refused
        assert "carte échangée ou falsifiée, ouverture refusée" in refused["swapped"]["lines"][-1]
        assert "carte échangée ou falsifiée" in refused["another card"]["lines"][-1]
        assert "carte échangée ou falsifiée" in refused["forged salt"]["lines"][-1]
        assert "ne sont pas celles annoncées avant la donne" in refused["rewritten leaf"]["lines"][-1]
        assert "mal formée" in refused["malformed"]["lines"][-1]
        ana.evaluate("""(f) => document.dispatchEvent(new CustomEvent("tavern:state",
            { detail: { type: "state", table: {}, fair: f } }))""", _forged_openings(record, mine)["swapped"])
        ana.click("#fair-check")
        ana.wait_for_selector("#fair-result[data-ok='0']")
        ana.locator("#fair-panel").screenshot(path=str(ARTIFACTS / "fair-swapped.png"))
        assert "carte échangée ou falsifiée" in ana.text_content("#fair-result")

        # « Mes donnes »: the deal is listed and replays step by step in the
        # page, showing ana her own cards, nobody else's before a showdown.
        ana.click("header a[href='/mes-donnes']")  # the menu link
        ana.click("#my-deals a")
        ana.wait_for_selector("#rp-step")
        assert ana.text_content("#rp-step").startswith("Étape 1 / ")
        mine = set(ana.locator("#rp-stage [data-player='ana'] .pc").evaluate_all("els => els.map(e => e.dataset.card)"))
        assert len(mine) == 2, "her two cards"
        others = ana.locator("#rp-stage [data-player='bob'] .pc, #rp-stage [data-player='cid'] .pc")
        assert others.count() == 0, "the others' cards are hidden at the deal"
        ana.click("#rp-next")
        assert ana.text_content("#rp-step").startswith("Étape 2 / ")
        assert ana.text_content("#rp-move").endswith(".")
        ana.screenshot(path=str(ARTIFACTS / "replay.png"), full_page=True)

        # A tampered reveal fails in the page too.
        bad = _revealed(record)
        bad["deck"] = record["deck"][1:] + record["deck"][:1]
        ok = ana.evaluate("async (f) => (await (await import('/static/fair.js')).verify(f, new Set())).ok", bad)
        assert ok is False
    finally:
        srv.stop()


JS_OPENINGS = """async ([f, digests]) => {
  const m = await import('/static/fair.js');
  return await m.verify(f, new Set([f.commitment]), new Map([[f.commitment, digests]]));
}"""


def _own_reveal(record: dict, player: str) -> dict:
    """What ``player`` receives at the deal's end (tables/deals.py): the
    common block without the seed, his openings and every shuffle's leaves."""
    common = {k: v for k, v in record["fair"].items() if k not in ("server_seed", "seen")}
    own = fair_cards.deal_cards(record).reveal(map(tuple, record["fair"]["seen"][player]))
    return json.loads(json.dumps({**common, "game": record["game"], **own}))


def _forged_openings(record: dict, mine: dict) -> dict[str, dict]:
    """His reveal with two of his cards swapped, one replaced by a card he
    never saw (at its place, with its salt), a salt forged, a leaf rewritten
    to fit a forged card, an opening with no card."""
    out = {}
    swapped = json.loads(json.dumps(mine))
    a, b = swapped["openings"][0], swapped["openings"][1]
    a["card"], b["card"] = b["card"], a["card"]
    out["swapped"] = swapped
    other = json.loads(json.dumps(mine))
    unseen = next(c for c in record["deck"] if c not in {o["card"] for o in mine["openings"]})
    other["openings"][0]["card"] = unseen
    out["another card"] = other
    salted = json.loads(json.dumps(mine))
    salted["openings"][0]["salt"] = "00" * 32
    out["forged salt"] = salted
    leafed = json.loads(json.dumps(other))
    o = leafed["openings"][0]
    leafed["leaves"][o["shuffle"] - 1][o["position"]] = fair_cards.leaf(o["shuffle"], o["position"], o["card"],
                                                                          o["salt"])
    out["rewritten leaf"] = leafed
    broken = json.loads(json.dumps(mine))
    del broken["openings"][0]["card"]
    out["malformed"] = broken
    return out


def _revealed(record: dict) -> dict:
    """What a deal's players receive (tables/actor.py): the fair block with
    the game, its config, the deck and the rebuilt stocks."""
    return {**json.loads(json.dumps(record["fair"])), "game": record["game"], "config": record["config"],
            "deck": record["deck"], "reshuffles": record.get("reshuffles") or []}


JS_VERIFY = """async (reveals) => {
  const m = await import('/static/fair.js');
  const out = [];
  for (const f of reveals) out.push(await m.verify(f, new Set()));
  return out;
}"""


def test_the_page_starts_from_the_games_own_deck_and_refuses_a_forged_one(browser, players, db_url, tmp_path):
    """Issue 33: the page's check must, like `tavern verify`, start from the
    game's deck — its packs for every game equal the server's, a true deal of
    every deck kind checks out, and a deck with a card twice, a joker added,
    a card replaced or a card too few is refused though it is a shuffle of
    the seeds."""
    srv = start_server(db_url, tmp_path)
    try:
        page = players(srv)["ana"].page
        cases = [p.values for p in TABLE_DECKS]
        js_packs = page.evaluate("""async (cases) => {
          const m = await import('/static/fair.js');
          return cases.map(([game, config, players]) => m.tablePacks(game, config, players).map(m.canonical));
        }""", [[g, c, n] for g, c, n, _ in cases])
        for (game, config, n, _), packs in zip(cases, js_packs, strict=True):
            assert packs == [fair.canonical(p) for p in fair.table_packs(game, config, n)], (game, config, n)

        true, forged, names = [], [], []
        for game, config, n, _ in cases:
            record = _fair_deal(game, config, [f"p{i}" for i in range(n)])
            true.append(_revealed(record))
            for name, (packs, _code) in _forgeries(_packs(record)).items():
                forged.append(_revealed(_shuffles_of_seeds(record, packs)))
                names.append(f"{game} {config} {name}")
        for f, result in zip(true, page.evaluate(JS_VERIFY, true), strict=True):
            assert result["ok"], (f["game"], result["lines"])
        for name, result in zip(names, page.evaluate(JS_VERIFY, forged), strict=True):
            assert not result["ok"], name
            last = result["lines"][-1]
            assert "n'est pas celui de cette table" in last or "mélange des paquets de" in last, (name, last)
        # The auditor's two records, word for word: two 2♣ (no 3♣), a joker for the A♠.
        record = _fair_deal("ramponneau", {"small_blind": 1, "big_blind": 2}, ["a", "b", "c"])
        twice = [c if c != "3c" else "2c" for c in cards.deck52()]
        joker = [c if c != "As" else "X1" for c in cards.deck52()]
        results = page.evaluate(JS_VERIFY, [_revealed(_shuffles_of_seeds(record, [d])) for d in (twice, joker)])
        assert results[0]["lines"][-1] == ("Le paquet du mélange n° 1 n'est pas celui de cette table (manquent : 3♣ ; "
                                           "en trop : 2♣) : aucune graine ne peut le donner.")
        assert "manquent : A♠ ; en trop : Joker" in results[1]["lines"][-1]
        # A rebuilt stock holding a card the deal's packs lack.
        stranger = _revealed(record)
        stranger["reshuffles"], stranger["shuffles"] = [["X1"]], [52, 1]
        assert page.evaluate(JS_VERIFY, [stranger])[0]["ok"] is False
        assert {g for g, *_ in cases} == set(registry.GAMES)
    finally:
        srv.stop()
