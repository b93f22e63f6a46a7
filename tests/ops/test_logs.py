"""Issue 32 §2: logging configured once; ``TAVERN_LOG_FORMAT=json`` writes
one JSON object a line, with the request id, the account, the table and the
deal where they apply — "never a password, a session token, a seed before
its reveal, or a hidden card"."""

from __future__ import annotations

import json
import logging

import pytest
from fastapi.testclient import TestClient
from tests.dbtools import session_scope
from tests.web.webtools import PASSWORD, login, make_user

from tavern import logs
from tavern.web.app import create_app
from tavern.web.state import services

pytestmark = [pytest.mark.db]


def _json_lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_a_json_line_holds_the_request_id_and_account_and_no_secret(settings, db_url, capsys) -> None:
    with session_scope() as s:
        uid = make_user(s, "ana")
    app = create_app(settings.model_copy(update={"log_format": "json"}))

    # A failure whose text echoes what it was handed (as a library's error may):
    # the log must say what failed, and still not the secrets.
    @app.get("/boom")
    def boom() -> None:
        cookie = client.cookies.get("tavern_session") or "?"
        raise RuntimeError(f"could not sign in password={PASSWORD!r} token={cookie} "
                           f"server_seed=9f2c hole cards=['Ah', 'Kd']")

    try:
        with TestClient(app, raise_server_exceptions=False) as client:
            assert login(client, "ana").status_code == 303
            cookie = next(iter(client.cookies.values()))
            capsys.readouterr()
            r = client.get("/boom", headers={"X-Request-ID": "req-123"})
            assert r.status_code == 500 and r.headers["X-Request-ID"] == "req-123"
            err = capsys.readouterr().err
    finally:
        services(app).engine.dispose()
    lines = _json_lines(err)  # every line parses: one object a line
    failure = [ln for ln in lines if ln["logger"].startswith("tavern") and ln["level"] == "ERROR"]
    assert failure, err
    line = failure[0]
    assert line["request_id"] == "req-123" and line["account"] == uid
    assert "RuntimeError" in line["message"] and "/boom" in line["message"]
    for secret in (PASSWORD, "horse", cookie, "9f2c", "'Ah'", "Kd"):
        assert secret not in err, f"{secret!r} leaked into the log"


def test_a_request_without_an_id_gets_one_and_a_bad_one_is_replaced(settings, db_url) -> None:
    app = create_app(settings)
    try:
        with TestClient(app) as client:
            given = client.get("/healthz").headers["X-Request-ID"]
            forged = client.get("/healthz", headers={"X-Request-ID": "a\"b c" * 30}).headers["X-Request-ID"]
    finally:
        services(app).engine.dispose()
    assert len(given) == 16 and len(forged) == 16 and '"' not in forged


def test_the_actor_context_names_table_and_deal_in_text_format(capsys) -> None:
    logs.configure("INFO", "text")
    logs.bind(table=7, deal=42, request_id=None, account=None)
    try:
        logging.getLogger("tavern.tables.actor").warning("table failed")
    finally:
        logs.bind(table=None, deal=None)
    err = capsys.readouterr().err
    assert "table=7 deal=42" in err and "WARNING" in err and "table failed" in err


def test_the_level_is_a_setting(capsys) -> None:
    logs.configure("ERROR", "text")
    try:
        logging.getLogger("tavern.web").warning("not shown")
        logging.getLogger("tavern.web").error("shown")
    finally:
        logs.configure("INFO", "text")
    err = capsys.readouterr().err
    assert "shown" in err and "not shown" not in err


@pytest.mark.parametrize("text", [
    'password=hunter2', '"token": "abc.def"', "server_seed: 00ff", "cards=['Ah', 'Kd']", "csrf_token=xyz",
])
def test_redact_masks_named_secrets(text: str) -> None:
    out = logs.redact(f"before {text} after")
    assert out.startswith("before ") and out.endswith(" after") and logs.MASK in out
    assert not any(v in out for v in ("hunter2", "abc.def", "00ff", "Ah", "xyz"))


def test_a_migration_run_in_the_process_keeps_its_logging(tmp_path, monkeypatch) -> None:
    """``tavern migrate`` and ``tavern restore`` run Alembic inside a process
    whose logging is configured: alembic.ini's fileConfig closed and replaced
    the root's handlers, the JSON one by a plain one that masks nothing."""
    monkeypatch.setenv("TAVERN_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("TAVERN_DATABASE_URL", f"sqlite:///{tmp_path}/tavern.db")
    root = logging.getLogger()
    saved, level = root.handlers[:], root.level
    root.handlers = []  # as in the command's own process (pytest adds its capture handlers)
    try:
        logs.configure("INFO", "json")
        from tavern import cli

        assert cli.main(["migrate"]) == 0
        handlers = root.handlers[:]
    finally:
        root.handlers, root.level = saved, level
    assert [h.get_name() for h in handlers if isinstance(h, logging.StreamHandler)] == ["tavern"]
    assert isinstance(next(h for h in handlers if h.get_name() == "tavern").formatter, logs.JsonFormatter)
