"""The live-table benchmark's world: a migrated SQLite database, one owner,
one tavern, N Ramponneau tables and 6·N players with écus, and one session
cookie per player.

Cheap but honest shortcuts, so that setting up 600 players takes seconds:

* one Argon2 hash (cheap parameters) computed once and given to every
  player — hashing per user is slow on purpose;
* cookies are signed with the application's own :class:`SessionCodec` and the
  secret key handed to the server (exactly what ``POST /api/auth/login``
  puts in the ``Set-Cookie`` header); the benchmark still logs one player in
  through the real API to check the two agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from argon2 import PasswordHasher
from sqlalchemy.pool import NullPool
from starlette.requests import Request
from starlette.responses import Response

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "bench-password"
SEATS = 6
CAVE = 200


@dataclass
class World:
    db_url: str
    tables: list[int]  #: table ids
    players: dict[int, list[tuple[str, int]]]  #: table id -> [(username, user id)] in seat order


def migrate(db_url: str) -> None:
    """``alembic upgrade head``, as ``tests/conftest.py`` does."""
    from alembic import command
    from alembic.config import Config

    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.attributes["url"] = db_url
    command.upgrade(cfg, "head")


def seed(db_url: str, n_tables: int) -> World:
    """The tavern owner's world (:func:`seed_tables`) and six players per
    table with 1,000 écus, written straight into the database."""
    from tavern.services import ledger
    from tavern.store.db import make_engine, session_factory
    from tavern.store.models import User

    ids = seed_tables(db_url, n_tables)
    pw_hash = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1).hash(PASSWORD)
    engine = make_engine(db_url, poolclass=NullPool)
    factory = session_factory(engine)
    with factory() as s, s.begin():
        players: dict[int, list[tuple[str, int]]] = {}
        for t, table_id in enumerate(ids):
            row = []
            for seat in range(SEATS):
                u = User(username=f"p{t:03d}s{seat}", password_hash=pw_hash, level=1, role="player")
                s.add(u)
                s.flush()
                ledger.issue(s, u.id, 1000)
                row.append((u.username, u.id))
            players[table_id] = row
    engine.dispose()
    return World(db_url, ids, players)


def cookies_for(secret_key: str, db_url: str, user_ids: list[int]) -> dict[int, str]:
    """The ``Cookie`` headers of logged-in sessions of ``user_ids``: a
    server-side session each (``web_sessions``, as the login endpoint opens),
    the cookie signed by the app's own codec."""
    from tavern.store.db import make_engine, run_transaction
    from tavern.store.db import session_factory as factory
    from tavern.web.session import open_session

    engine = make_engine(db_url)
    tokens = run_transaction(factory(engine), lambda s: {uid: open_session(s, uid) for uid in user_ids})
    engine.dispose()
    return {uid: cookie_for(secret_key, uid, tokens[uid]) for uid in user_ids}


def cookie_for(secret_key: str, user_id: int, token: str) -> str:
    """The ``Cookie`` header of the session ``token`` of ``user_id``, signed by
    the app's own codec (what the login endpoint answers)."""
    from tavern.web.session import COOKIE_NAME, SessionCodec, SessionData

    sess = SessionData()
    sess.login(user_id, token)
    response = Response()
    request = Request({"type": "http", "scheme": "http", "method": "GET", "path": "/",
                       "headers": [], "query_string": b"", "server": ("127.0.0.1", 80)})
    SessionCodec(secret_key).save(request, response, sess)
    value = response.headers["set-cookie"].split(";", 1)[0]
    assert value.startswith(COOKIE_NAME + "=")
    return value


def seed_tables(db_url: str, n_tables: int) -> list[int]:
    """One owner, one tavern and ``n_tables`` open 6-max Ramponneau tables
    (blinds 1/2, caves 20 to 200): the tavern owner's part of the world. The
    players are registered through the API (:func:`register`)."""
    from tavern.store.db import make_engine, session_factory
    from tavern.store.models import TableConfig, Tavern, User, Village

    pw_hash = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1).hash(PASSWORD)
    engine = make_engine(db_url, poolclass=NullPool)
    factory = session_factory(engine)
    with factory() as s, s.begin():
        owner = User(username="patron", password_hash=pw_hash, level=1, role="player")
        village = Village(name="Montmartre")
        s.add_all([owner, village])
        s.flush()
        tavern = Tavern(village_id=village.id, owner_id=owner.id, name="Au Lapin Agile")
        s.add(tavern)
        s.flush()
        tables = [TableConfig(
            tavern_id=tavern.id, name=f"Table {t + 1}", game="ramponneau", variant="",
            stakes={"small_blind": 1, "big_blind": 2}, options={},
            buy_in_min=20, buy_in_max=CAVE, rake_percent=5, rake_cap=None, no_flop_no_drop=True,
            seats=SEATS, action_timer_seconds=30, status="open") for t in range(n_tables)]
        s.add_all(tables)
        s.flush()
        ids = [t.id for t in tables]
    engine.dispose()
    return ids


async def _register_one(base: str, name: str, sem: Any, tls: Any) -> str:
    import httpx

    # Each bot has its own client (its own cookies); the TLS context, unused
    # on loopback HTTP, is made once: loading the CA bundle for each of
    # 2,400 clients took most of the setup's minute.
    async with sem, httpx.AsyncClient(base_url=base, timeout=60, verify=tls) as c:
        token = (await c.get("/api/auth/session")).json()["csrf_token"]
        r = await c.post("/api/auth/register", json={"username": name, "password": PASSWORD},
                         headers={"X-CSRF-Token": token})
        r.raise_for_status()
        cookie = "; ".join(f"{k}={v}" for k, v in c.cookies.items())
        me = (await c.get("/api/auth/session")).json()
        if not me.get("user") or me["user"]["username"] != name:
            raise RuntimeError(f"{name}: registered but not logged in: {me}")
        return cookie


def register(base: str, names: list[str], concurrency: int = 16) -> list[str]:
    """Each bot registers through the API as a browser's script would (the
    CSRF token of its session, then ``POST /api/auth/register``); returns
    each one's ``Cookie`` header. A new account starts with the house's
    welcome écus (``TAVERN_WELCOME_ECUS``)."""
    import asyncio
    import ssl

    async def run() -> list[str]:
        sem = asyncio.Semaphore(concurrency)
        tls = ssl.create_default_context()
        return list(await asyncio.gather(*(_register_one(base, n, sem, tls) for n in names)))

    return asyncio.run(run())
