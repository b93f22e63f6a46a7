"""Issue 38 §5: "the table-socket lines (accepted, open, closed) carry no
request id, account or table … Filtering by table must find every line
about it." A real server process writes JSON lines; a player's socket opens
and closes; every line about it names the table, the account and one
request id."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from tests.tables.liveserver import LiveServer, seed_table
from tests.tables.test_ws import open_client

pytestmark = [pytest.mark.db]


def test_a_table_sockets_lines_name_its_table_account_and_request(db_url, tmp_path) -> None:
    srv = LiveServer(db_url, tmp_path, extra_env={"TAVERN_LOG_FORMAT": "json", "TAVERN_LOG_LEVEL": "INFO"},
                     log_level="info")
    table_id, ids = seed_table(db_url, ("ana", "bob"))
    srv.table_id, srv.ids = table_id, ids
    srv.start()
    log = tmp_path / f"server-{srv.port}.log"
    try:
        async def scenario() -> None:
            c = await open_client(srv, "ana")
            await c.ws.close()

        asyncio.run(scenario())

        def about_the_socket() -> list[dict]:
            lines = [json.loads(ln) for ln in log.read_text().splitlines() if ln.startswith("{")]
            return [ln for ln in lines if f"/ws/tables/{table_id}" in ln["message"] or "table socket" in ln["message"]]

        for _ in range(200):
            lines = about_the_socket()
            if any(ln["message"] == "table socket: closed" for ln in lines):
                break
            time.sleep(0.05)
    finally:
        srv.stop()
    messages = [ln["message"] for ln in lines]
    assert any("[accepted]" in m for m in messages), messages
    assert "table socket: open" in messages and "table socket: closed" in messages, messages
    for ln in lines:
        assert ln.get("table") == table_id and ln.get("account") == ids["ana"], ln
    assert len({ln["request_id"] for ln in lines}) == 1 and lines[0]["request_id"], lines
