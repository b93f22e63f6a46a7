"""The table chat over the table's WebSocket, against a real server process
(issue 30 §1; docs/protocol.md "Chat")."""

from __future__ import annotations

import asyncio
import json

import pytest
from sqlalchemy import select
from tests.tables.test_ws import Client
from websockets.asyncio.client import connect

from tavern.store.db import make_engine, session_factory
from tavern.store.models import ChatMessage
from tavern.web import protocol

pytestmark = [pytest.mark.db]




def stored(db_url) -> list[str]:
    engine = make_engine(db_url)
    try:
        with session_factory(engine)() as s:
            return list(s.scalars(select(ChatMessage.text).order_by(ChatMessage.id)))
    finally:
        engine.dispose()


def write_many(db_url, table_id, user_id, n) -> None:
    engine = make_engine(db_url)
    try:
        with session_factory(engine)() as s, s.begin():
            s.add_all(ChatMessage(table_id=table_id, user_id=user_id, text=f"n{i}") for i in range(n))
    finally:
        engine.dispose()


async def join(srv, name) -> tuple[Client, dict]:
    """A connection: its snapshot, then the chat's part of it (``chat_log``)."""
    ws = await connect(f"{srv.ws_base}/ws/tables/{srv.table_id}",
                       additional_headers={"Cookie": srv.login(name)}, origin=srv.base)
    c = Client(ws)
    await c.recv_until(lambda m: m["type"] == "state")
    log = await c.recv_until(lambda m: m["type"] == "chat_log")
    protocol.messages.validate_python(log)
    return c, log


async def chat_of(c: Client, author: str, text: str) -> dict:
    """The message, among the frames already read or the next ones."""
    def it(m):
        return m["type"] == "chat" and m["author"] == author and m["text"] == text
    seen = [m for m in c.replies if it(m)]
    return seen[0] if seen else await c.recv_until(it)


def test_two_clients_at_a_table_receive_the_message_and_the_snapshot_has_the_last_50(server, db_url):
    """Issue 30: "everyone at the table reads, over the table's existing WebSocket … The last 50
    messages arrive with the snapshot"."""

    async def scenario():
        ana, log = await join(server, "ana")
        bob, _ = await join(server, "bob")  # a spectator: not seated
        assert log["messages"] == [] and log["may_write"] is True
        ok = await ana.send(type="chat_say", text="  Bonne chance  ")
        assert ok["type"] == "ok" and ok["result"]["message"] >= 1
        for c in (ana, bob):
            msg = await chat_of(c, "ana", "Bonne chance")
            protocol.messages.validate_python(msg)
            assert msg["table_id"] == server.table_id and msg["id"] == ok["result"]["message"]
        said = await bob.send(type="chat_say", text="Merci")
        assert said["type"] == "ok"
        await chat_of(ana, "bob", "Merci")
        # 55 messages in all (53 more written straight into the store: the rate
        # would make the test wait); a new connection gets the last 50, oldest first.
        write_many(db_url, server.table_id, server.ids["ana"], 53)
        cid, log = await join(server, "cid")
        texts = [m["text"] for m in log["messages"]]
        assert len(texts) == 50 and texts[-1] == "n52" and texts[0] == "n3"
        # ``sync`` brings the chat's part again after the snapshot.
        await cid.ws.send(json.dumps({"type": "sync"}))
        again = await cid.recv_until(lambda m: m["type"] == "chat_log")
        assert [m["text"] for m in again["messages"]] == texts
        for c in (ana, bob, cid):
            await c.ws.close()

    asyncio.run(scenario())


def test_bad_chat_input_is_refused_in_french_and_nothing_is_stored(server, db_url):
    """Issue 30: "Bad input: an empty, oversized or binary chat message, a flood, markup — a
    French refusal, nothing changed, never a 5xx"; the socket stays open."""

    async def scenario():
        ana, _ = await join(server, "ana")
        codes = []
        for text in ("", "   ", "\u200b\u3164\u2800\ufe0f", "x" * 301, "a\x00b", "ligne\nligne"):
            err = await ana.send(type="chat_say", text=text)
            protocol.messages.validate_python(err)
            codes.append(err["code"])
            assert err["message"] and "chat_" not in err["message"]
        await ana.ws.send(json.dumps({"type": "chat_say", "text": ["pas", "un", "texte"]}))
        wrong = await ana.recv_until(lambda m: m["type"] == "error" and m["id"] is None)
        assert wrong["code"] == "malformed_message" and "« Message »" in wrong["message"]
        await ana.ws.send(b"\x00\x01binary chat")
        binary = await ana.recv_until(lambda m: m["type"] == "error" and m["code"] == "binary_frame")
        assert binary["message"].startswith("Message binaire refusé")
        # Markup is a message like another: stored and sent as the text it is.
        markup = "<img src=x onerror=alert(1)><b>gras</b>"
        assert (await ana.send(type="chat_say", text=markup))["type"] == "ok"
        assert (await chat_of(ana, "ana", markup))["text"] == markup
        # A flood: 5 messages per 10 seconds per account, then a French refusal.
        answers = [await ana.send(type="chat_say", text=f"flot {i}") for i in range(6)]
        assert [a["type"] for a in answers[:4]] == ["ok"] * 4
        assert answers[-1]["code"] == "chat_too_fast" and "attendez" in answers[-1]["message"]
        # The socket is still open and the table answers.
        await ana.ws.send(json.dumps({"type": "sync"}))
        await ana.recv_until(lambda m: m["type"] == "chat_log")
        await ana.ws.close()
        return codes

    codes = asyncio.run(scenario())
    assert codes == ["chat_empty", "chat_empty", "chat_empty", "chat_too_long", "chat_control_chars", "chat_control_chars"]
    assert stored(db_url) == ["<img src=x onerror=alert(1)><b>gras</b>", "flot 0", "flot 1", "flot 2", "flot 3"]


def test_a_player_who_hides_another_no_longer_receives_his_messages(server):
    """Issue 30: "any player hides another's messages for himself"."""

    async def scenario():
        ana, _ = await join(server, "ana")
        bob, _ = await join(server, "bob")
        cid, _ = await join(server, "cid")
        hid = await ana.send(type="chat_hide", author="bob")
        assert hid["result"] == {"hidden": ["bob"]}
        await bob.send(type="chat_say", text="tu ne me lis plus")
        await cid.send(type="chat_say", text="moi si")
        await chat_of(cid, "bob", "tu ne me lis plus")  # cid still reads bob
        await chat_of(ana, "cid", "moi si")
        seen = [m for m in ana.replies if m["type"] == "chat"]
        assert [m["author"] for m in seen] == ["cid"]
        _, log = await join(server, "ana")  # and the snapshot leaves him out too
        assert log["hidden"] == ["bob"] and [m["author"] for m in log["messages"]] == ["cid"]
        err = await ana.send(type="chat_report", message=10_000)
        assert err["code"] == "chat_no_such_message"
        bobs = [m for m in cid.replies if m["type"] == "chat" and m["author"] == "bob"]
        rep = await cid.send(type="chat_report", message=bobs[0]["id"])
        assert rep["type"] == "ok"
        for c in (ana, bob, cid):
            await c.ws.close()

    asyncio.run(scenario())

