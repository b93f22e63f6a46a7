"""Crash safety: the server is killed mid-deal and restarted.

Issue: "if the process dies mid-deal, at restart the interrupted deal is
voided — every player gets back exactly what he put into it, no rake — and
archived as voided. Chips at a table are ledger balances, so nothing else is
lost."
"""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest
from sqlalchemy import select
from tests.tables.liveserver import LiveServer, seed_table
from tests.tables.test_ws import open_client

from tavern.services import hands as daily_hands
from tavern.services import ledger
from tavern.store.db import make_engine, session_factory
from tavern.store.models import ArchivedHand

pytestmark = [pytest.mark.db]


def test_sigkill_mid_deal_voids_the_deal_and_loses_no_chip(settings, db_url, tmp_path):
    srv = LiveServer(db_url, tmp_path)
    table_id, ids = seed_table(db_url, ("ana", "bob", "cid"))
    srv.table_id = table_id
    srv.start()
    try:
        async def until_mid_deal():
            clients = {n: await open_client(srv, n) for n in ("ana", "bob", "cid")}
            for seat, (_n, c) in enumerate(clients.items()):
                assert (await c.send(type="sit", seat=seat, cave=150))["type"] == "ok"
            a = clients["ana"]
            st = await a.recv_until(lambda m: m["type"] == "state" and bool(m["deal"])
                                    and m["deal"]["phase"] == "bet")
            # Somebody raises: chips are in the pot when the process dies.
            for _ in range(10):  # a newer view may overtake the one acted on: look again
                st = a.state
                who = st["deal"]["to_act"]
                c = clients[who]
                await c.state_at_least(st["seq"])
                raise_ = next(x for x in c.state["you"]["legal"] if x["action"] == "raise")
                r = await c.send(type="act", action="raise", args={"amount": raise_["min"]}, seq=c.state["seq"])
                if r["type"] == "ok":
                    break
                assert "plus ancien" in r["message"], r
                await a.state_at_least(st["seq"] + 1)
            assert r["type"] == "ok", r
            return clients

        clients = asyncio.run(until_mid_deal())
        srv.kill()  # SIGKILL with three WebSocket clients connected, a raise in the pot
        del clients

        engine = make_engine(db_url)
        with session_factory(engine)() as s:
            in_progress = [h for h in s.scalars(select(ArchivedHand)) if (h.result or {}).get("in_progress")]
            assert len(in_progress) == 1  # the deal was under way when the process died
        srv.start()  # restart: interrupted deals are voided before any table runs
        with session_factory(engine)() as s:
            hands = list(s.scalars(select(ArchivedHand)))
            voided = [h for h in hands if h.voided and "voided" in (h.result or {})]
            assert len(voided) == 1 and voided[0].rake == 0
            assert voided[0].record["deck"]  # archived with its record
            for _name, uid in ids.items():
                # Exactly what he put into the deal is back: his whole cave.
                assert ledger.chips(s, uid, table_id) == 150
                assert ledger.balance(s, "user", uid, "ecus") == 850
                # The voided deal gave back the daily hand it had counted (issue 12 §12).
                left = daily_hands.hands_left(s, uid, dt.datetime.now(dt.UTC), settings)
                assert left.free == settings.free_hands_per_day
            audit = ledger.audit(s)
            assert audit.ok, audit
        engine.dispose()
    finally:
        srv.stop()
