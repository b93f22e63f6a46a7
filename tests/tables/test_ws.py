"""The WebSocket channel against a real server process."""

from __future__ import annotations

import asyncio
import json

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from tavern.games.base import lay_own
from tavern.web import protocol

pytestmark = [pytest.mark.db]




class Client:
    """One player's connection: keeps the latest state and every reply."""

    def __init__(self, ws):
        self.ws = ws
        self.state = None
        self.replies = []
        self.states = []
        self._n = 0

    async def state_at_least(self, seq, timeout=10.0):
        if self.state is not None and self.state["seq"] >= seq:
            return self.state
        return await self.recv_until(lambda m: m["type"] == "state" and m["seq"] >= seq, timeout)

    async def recv_until(self, pred, timeout=10.0):
        async def loop():
            while True:
                msg = json.loads(await self.ws.recv())
                if msg["type"] == "state":
                    if "own" in msg:  # laid over the public view, as the page does (docs/protocol.md)
                        msg["deal"] = lay_own(msg["deal"], msg.pop("own"))
                    self.state = msg
                    self.states.append(msg)
                else:
                    self.replies.append(msg)
                if pred(msg):
                    return msg
        return await asyncio.wait_for(loop(), timeout)

    async def send(self, **msg):
        self._n += 1
        msg["id"] = self._n
        await self.ws.send(json.dumps(msg))
        return await self.recv_until(lambda m: m["type"] in ("ok", "error") and m.get("id") == self._n)


async def open_client(srv, name):
    ws = await connect(f"{srv.ws_base}/ws/tables/{srv.table_id}",
                       additional_headers={"Cookie": srv.login(name)}, origin=srv.base)
    c = Client(ws)
    await c.recv_until(lambda m: m["type"] == "state")  # the snapshot on (re)connection
    return c


def test_unauthenticated_and_foreign_origin_are_refused(server):
    """Issue: "authenticated by the session cookie, Origin checked against the
    allowed origins (403 otherwise)"."""

    async def scenario():
        url = f"{server.ws_base}/ws/tables/{server.table_id}"
        with pytest.raises(InvalidStatus) as no_cookie:
            await connect(url, origin=server.base)
        cookie = server.login("ana")
        with pytest.raises(InvalidStatus) as foreign:
            await connect(url, additional_headers={"Cookie": cookie}, origin="http://evil.example")
        return no_cookie.value.response.status_code, foreign.value.response.status_code

    assert asyncio.run(scenario()) == (403, 403)


def test_malformed_messages_get_an_error_frame_and_the_table_carries_on(server):
    """Issue: "messages validated (pydantic) and answered with an error frame
    when refused — the connection and the table carry on"."""

    async def scenario():
        c = await open_client(server, "ana")
        await c.ws.send("{not json")
        err = await c.recv_until(lambda m: m["type"] == "error")
        assert "mal formé" in err["message"]
        await c.ws.send(json.dumps({"type": "sit", "seat": "x", "cave": 100}))
        err = await c.recv_until(lambda m: m["type"] == "error")
        # The field named by the form's label, the problem by pydantic's stable code.
        assert err["code"] == "malformed_message" and err["params"]["refusal"]["params"]["field"] == "sit.seat"
        assert protocol.messages.validate_json(json.dumps(err)).type == "error"  # the typed frame of docs/protocol.md
        assert err["message"] == "Message mal formé : « Place » : un nombre entier est attendu.", err
        await c.ws.send("x" * 5000)
        err = await c.recv_until(lambda m: m["type"] == "error")
        assert err["code"] == "message_too_long" and "trop long" in err["message"]
        r = await c.send(type="sit", seat=0, cave=5)  # below the cave bounds
        assert r["type"] == "error" and r["code"] == "cave_out_of_range" and "cave" in r["message"]
        assert set(r["params"]) == {"minimum", "maximum"}
        r = await c.send(type="act", action="raise", args={"amount": 10})
        assert r["type"] == "error" and r["code"] == "not_seated", r
        assert r["message"] == "Vous n'êtes pas assis à cette table." and r["params"] == {}
        r = await c.send(type="sit", seat=0, cave=100)
        assert r["type"] == "ok" and r["result"]["chips"] == 100
        await c.ws.close()

    asyncio.run(scenario())


def test_a_binary_frame_gets_an_error_frame_and_the_socket_stays_open(server):
    """Issue 33 §5: a binary frame killed the handler (``receive_text`` →
    ``KeyError``) and the socket dropped with 1006. docs/protocol.md "Limits":
    a binary frame gets an ``error`` frame (``binary_frame``); the socket and
    the table carry on."""

    async def scenario():
        c = await open_client(server, "ana")
        await c.ws.send(b'{"type": "sync"}')
        err = await c.recv_until(lambda m: m["type"] == "error")
        assert protocol.messages.validate_json(json.dumps(err)).type == "error"
        assert err["code"] == "binary_frame" and err["id"] is None
        assert err["message"] == "Message binaire refusé : la table parle en texte (JSON)."
        await c.ws.send(b"\x00\xff" * 10)  # not even UTF-8
        assert (await c.recv_until(lambda m: m["type"] == "error"))["code"] == "binary_frame"
        r = await c.send(type="sit", seat=0, cave=100)  # the same socket still plays
        assert r["type"] == "ok" and r["result"]["chips"] == 100
        await c.ws.close()
        assert c.ws.close_code == 1000  # closed by the client, not dropped

    asyncio.run(scenario())


def test_a_move_without_id_is_answered_by_the_state_that_shows_it(server):
    """docs/protocol.md: a command without an ``id`` gets no ``ok`` — the next
    state shows it done; refused, it still gets its ``error`` (``id`` null)."""
    async def scenario():
        a = await open_client(server, "ana")
        b = await open_client(server, "bob")
        clients = {"ana": a, "bob": b}
        assert (await a.send(type="sit", seat=0, cave=200))["type"] == "ok"
        assert (await b.send(type="sit", seat=1, cave=200))["type"] == "ok"
        await a.recv_until(lambda m: m["type"] == "state" and bool(m["deal"]) and m["deal"]["phase"] == "bet")
        name = a.state["deal"]["to_act"]
        mover = clients[name]
        other = b if mover is a else a
        st = await mover.state_at_least(a.state["seq"])
        move = "call" if any(x["action"] == "call" for x in st["you"]["legal"]) else "check"
        # Out of turn, without an id: refused by its code, id null.
        await other.state_at_least(a.state["seq"])
        await other.ws.send(json.dumps({"type": "act", "action": "fold", "seq": other.state["seq"]}))
        err = await other.recv_until(lambda m: m["type"] == "error")
        assert err["code"] == "not_your_turn" and err["id"] is None, err
        mover.replies.clear()
        await mover.ws.send(json.dumps({"type": "act", "action": move, "args": {}, "seq": st["seq"]}))
        shown = await mover.recv_until(lambda m: m["type"] == "state" and m["seq"] > st["seq"]
                                       and m["you"]["legal"] != st["you"]["legal"])
        # The state that answers it tells the move played (the story's new events).
        assert any(e["event"] == move and e["player"] == name for e in shown["story"]), shown["story"]
        # Commands are answered in order: an ok for the move would come before this one's.
        r = await mover.send(type="auto", auto=None)
        assert r["type"] == "ok"
        assert [m for m in mover.replies if m["type"] == "ok"] == [r], mover.replies
        for c in (a, b):
            await c.ws.close()

    asyncio.run(scenario())


def test_two_players_play_a_deal_each_seeing_only_his_cards(server):
    async def scenario():
        a = await open_client(server, "ana")
        b = await open_client(server, "bob")
        spectator = await open_client(server, "cid")
        assert (await a.send(type="sit", seat=0, cave=200))["type"] == "ok"
        assert (await b.send(type="sit", seat=1, cave=200))["type"] == "ok"
        clients = {"ana": a, "bob": b}
        await a.recv_until(lambda m: m["type"] == "state" and bool(m["deal"]) and m["deal"]["phase"] != "over")
        # The engine's refusal reaches the player by its code, in French (issue 10: "the table").
        first = clients[a.state["deal"]["to_act"]]
        other = b if first is a else a
        await other.state_at_least(a.state["seq"])
        r = await other.send(type="act", action="fold", seq=other.state["seq"])
        assert r["type"] == "error" and r["code"] == "not_your_turn", r
        assert r["message"] == "Ce n'est pas votre tour." and r["params"]["action"] == "fold"
        for _ in range(40):
            st = a.state
            if st["deal"]["phase"] == "over":
                break
            who = st["deal"].get("to_act")
            c = clients[who]
            await c.state_at_least(st["seq"])
            legal = [x["action"] for x in c.state["you"]["legal"]]
            move = "check" if "check" in legal else "call" if "call" in legal else legal[0]
            r = await c.send(type="act", action=move, seq=c.state["seq"])
            if r["type"] == "error" and "plus ancien" in r["message"]:
                continue
            assert r["type"] == "ok", r
            await a.state_at_least(st["seq"] + 1)
        # The result comes once, with the publication after the settlement.
        done = next((m for m in reversed(a.states) if m.get("last_result")), None) or await a.recv_until(
            lambda m: m["type"] == "state" and m.get("last_result") is not None)
        result = done["last_result"]["result"]
        assert sum(result["chips"].values()) + result["rake"] == 400  # no chip created or lost
        # Each player saw his own two cards and never the other's before showdown.
        for name, c in clients.items():
            for st in c.states:
                if not st["deal"] or st["deal"]["phase"] in ("over", "showdown"):
                    continue
                for p in st["deal"]["players"]:
                    assert (p["cards"] is not None) == (p["player"] == name)
        for st in spectator.states:
            if st["deal"] and st["deal"]["phase"] not in ("over", "showdown"):
                assert all(p["cards"] is None for p in st["deal"]["players"])
        # docs/protocol.md: every publication reaches every connection, in
        # order — after the snapshot, each state is the next one (the server
        # writes most of them at once, the others through the socket's outbox).
        latest = max(st["seq"] for c in (a, b) for st in c.states)
        for c in (a, b, spectator):
            await c.state_at_least(latest)
            first = c.states[0]["seq"]
            newer = [st["seq"] for st in c.states[1:] if st["seq"] > first]
            assert newer == list(range(first + 1, first + 1 + len(newer))) and len(newer) > 5, newer
        for c in (a, b, spectator):
            await c.ws.close()

    asyncio.run(scenario())


def test_a_commands_ok_comes_before_the_state_that_shows_it_done(server):
    """Issue 33 item 11, docs/protocol.md "Order": the ``ok`` answering a
    command comes before any ``state`` that shows the command done — here with
    the table in this process, where the state used to be written first (at
    once, as the table published it) and the ``ok`` after it."""
    async def scenario():
        a = await open_client(server, "ana")
        b = await open_client(server, "bob")
        clients = {"ana": a, "bob": b}
        for c, name, seat in ((a, "ana", 0), (b, "bob", 1)):
            k = len(c.states)
            r = await c.send(type="sit", seat=seat, cave=200)
            assert r["type"] == "ok", r
            early = [st["seq"] for st in c.states[k:] if any(p["name"] == name for p in st["table"]["players"])]
            assert not early, f"{name} saw himself seated (states {early}) before the ok of his sit"
            await c.recv_until(lambda m, name=name: m["type"] == "state"
                               and any(p["name"] == name for p in m["table"]["players"]))
        await a.recv_until(lambda m: m["type"] == "state" and bool(m["deal"]) and m["deal"]["phase"] == "bet")
        moves = 0
        for _ in range(6):
            deal = a.state["deal"]
            if deal["phase"] not in ("bet",) or not deal.get("to_act"):
                break
            name = deal["to_act"]
            c = clients[name]
            st = await c.state_at_least(a.state["seq"])
            legal = [x["action"] for x in st["you"]["legal"]]
            move = "check" if "check" in legal else "call"

            def shows(m, name=name, move=move):
                return m["type"] == "state" and any(e.get("event") == move and e.get("player") == name
                                                    for e in m["story"])

            k = len(c.states)
            r = await c.send(type="act", action=move, args={}, seq=st["seq"])
            assert r["type"] == "ok", r
            assert not [m["seq"] for m in c.states[k:] if shows(m)], f"{name}'s {move} shown before its ok"
            await c.recv_until(shows)  # and it follows the ok
            await a.state_at_least(c.state["seq"])
            moves += 1
        assert moves >= 2
        for c in (a, b):
            await c.ws.close()

    asyncio.run(scenario())
