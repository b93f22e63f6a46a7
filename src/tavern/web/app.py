"""The application factory: ``uvicorn tavern.web.app:create_app --factory``."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import os
import re
import sys
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager, asynccontextmanager

import anyio.to_thread
from fastapi import FastAPI, Request
from fastapi.staticfiles import StaticFiles
from starlette.responses import Response

from tavern import logs, metrics
from tavern.contests.manager import ContestManager
from tavern.contests.table import ContestBank
from tavern.settings import Settings, get_settings
from tavern.store.db import make_engine, on_disk_full, pool_options, read_session_factory, session_factory
from tavern.tables.bank import SqlBank
from tavern.tables.broadcast import LocalBroadcaster, RedisBroadcaster
from tavern.tables.cluster import LocalCluster, RedisCluster
from tavern.tables.manager import TableManager
from tavern.web import errors, headers, sampler
from tavern.web.collector import Collector
from tavern.web.deps import socket_users
from tavern.web.guard import RequestGuard
from tavern.web.mailer import Mailer
from tavern.web.ratelimit import Throttles
from tavern.web.rendering import STATIC_DIR
from tavern.web.session import SessionCodec
from tavern.web.single import TablesLock, check_workers
from tavern.web.state import Services
from tavern.web.visits import VisitBook
from tavern.web.wslimits import ConnectionLimits

log = logging.getLogger("tavern.web")

NO_SESSION_PATHS = ("/healthz", "/static/", "/metrics")
#: A request id a proxy gives (``X-Request-ID``) is kept when it looks like one.
_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")

API_DESCRIPTION = """\
The tavern's JSON API: everything the pages do.

Authentication is the same signed session cookie as the pages (log in with
`POST /api/auth/login`). Every state-changing call must carry the session's
CSRF token in the `X-CSRF-Token` header; `GET /api/auth/session` returns it.
Refusals answer 4xx with a readable `detail`.
"""


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the web application for ``settings`` (default: the environment's)."""
    settings = settings or get_settings()
    logs.configure(settings.log_level, settings.log_format)
    svc = _services(settings)
    app = FastAPI(
        lifespan=_lifespan(svc),
        title="tavern",
        version="0.1.0",
        description=API_DESCRIPTION,
        docs_url=None,  # our own /docs page (routers/docs.py): no CDN script
        redoc_url=None,
    )
    app.state.services = svc

    # Inside the session middleware (added later, so outside): its refusals
    # get the security headers and a page drawn with the visitor's session.
    app.add_middleware(RequestGuard)
    _session_and_headers(app, svc)
    errors.install(app)
    app.mount("/static", StaticFiles(directory=str(STATIC_DIR)), name="static")

    from tavern.web import notices, village_feed, ws
    from tavern.web.routers import ROUTERS

    # The table socket first: a handshake is matched against the routes in
    # order, and matching it behind every included router cost about 1 ms
    # each (a restart's thousands of reconnections).
    app.include_router(ws.router)
    app.include_router(village_feed.pages)  # the live village's one socket (issue 30 §4)
    app.include_router(notices.pages)  # a player's own notices on every page (issue 30 §3)
    for router in ROUTERS:
        app.include_router(router)

    return app


def _services(settings: Settings) -> Services:
    """What the running site holds: one typed object (web/state.py), read
    through services(request) by every route, dependency and socket."""
    engine = make_engine(settings.database_url,
                         **pool_options(settings.db_pool_size, settings.db_pool_timeout))
    metrics.watch_engine(engine)
    on_disk_full(engine, metrics.DISK_FULL.inc)
    metrics.watch_gc()
    write_sessions = session_factory(engine)
    read_sessions = read_session_factory(engine)
    broadcaster = RedisBroadcaster(settings.redis_url) if settings.redis_url else LocalBroadcaster()
    cluster = (RedisCluster(settings.redis_url, lease_seconds=settings.lease_seconds)
               if settings.redis_url else LocalCluster())
    tables = TableManager(SqlBank(write_sessions, settings), broadcaster, cluster=cluster,
                          sweep_seconds=settings.lease_seconds / 2, drain_seconds=settings.drain_seconds,
                          deal_pause=settings.deal_pause_seconds,
                          grace=settings.reconnect_grace_seconds)
    return Services(
        settings=settings,
        engine=engine,
        write_sessions=write_sessions,
        read_sessions=read_sessions,
        codec=SessionCodec(settings.get_secret_key()),
        socket_users=socket_users(read_sessions, dt.timedelta(hours=settings.session_idle_hours)),  # web/ws.py: one lookup for many sockets
        throttles=Throttles(write_sessions),
        ws_limits=ConnectionLimits(settings.ws_per_account, settings.ws_per_address),
        push_limits=ConnectionLimits(settings.push_per_account, settings.push_per_address, prefix="push"),
        visits=VisitBook(write_sessions),  # web/ws.py notes, written in batches
        broadcaster=broadcaster,
        tables=tables,
        contests=ContestManager(ContestBank(write_sessions, settings, share_with=tables.bank), tables,
                                actor_options={"deal_pause": settings.deal_pause_seconds,
                                               "grace": settings.reconnect_grace_seconds}),
        mailer=Mailer(write_sessions, settings),
    )


def _lifespan(svc: Services) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """The server's start and graceful stop around its life."""
    settings = svc.settings

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Threads and connections are sized together (settings "capacity").
        anyio.to_thread.current_default_thread_limiter().total_tokens = settings.web_threads
        sys.setswitchinterval(settings.gil_switch_ms / 1000)
        collector = Collector(settings.gc_full_seconds, settings.gc_young_seconds)  # before the tables: only the imports are frozen
        collector.start()
        try:
            asyncio.get_running_loop().set_default_executor(
                ThreadPoolExecutor(max_workers=settings.table_threads, thread_name_prefix="tables"))
            # Without Redis one process runs a store's tables (web/single.py),
            # said before any starts; with it, leases share them (tables/cluster.py).
            shared = svc.tables.cluster.shared
            check_workers(settings.workers, shared)
            lock = None if shared else TablesLock(settings.data_dir, settings.database_url)
            if lock is not None:
                lock.acquire()
            # The live tables: deals interrupted by a previous crash are voided
            # before any table starts again (tavern.tables.bank).
            await svc.tables.start()
            # Running contests resume (their interrupted deals were just voided),
            # then contests begin at their start time.
            await svc.contests.start()
            await svc.visits.start()
            await svc.mailer.start()
            svc.ws_limits.attach(svc.tables.cluster)
            svc.push_limits.attach(svc.tables.cluster, sessions=False)  # counts only: ws_limits ends the sessions
            sampling = asyncio.create_task(sampler.run(app), name="metrics-sampler")
            try:
                yield
            finally:
                sampling.cancel()
                await svc.mailer.close()
                # A graceful stop: with several workers the running deals end and
                # the tables move to another worker before this one exits.
                await svc.visits.close()
                await svc.contests.close()
                await svc.tables.close(drain_seconds=settings.drain_seconds)
                svc.engine.dispose()
                if lock is not None:
                    lock.release()
        finally:
            await collector.close()  # also when the start failed: the process as it was
            metrics.worker_gone(os.getpid())

    return lifespan


def _session_and_headers(app: FastAPI, svc: Services) -> None:
    """Every request's session, log context, last-resort error page,
    request count and security headers."""

    @app.middleware("http")
    async def session_and_headers(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        codec = svc.codec
        sess = codec.load(request)
        request.state.session = sess
        # The log lines of this request (and of the threads it starts) carry its id and account.
        given = request.headers.get("x-request-id", "")
        request_id = given if _REQUEST_ID.fullmatch(given) else uuid.uuid4().hex[:16]
        logs.bind(request_id=request_id, account=sess.user_id, table=None, deal=None)
        try:
            response = await call_next(request)
        except Exception as exc:  # the last net: log it, answer a clean page, never a traceback
            response = errors.failed(request, exc)
        route = request.scope.get("route")
        metrics.child(metrics.HTTP, request.method, getattr(route, "path", "unmatched"), str(response.status_code)).inc()
        # Health probes and static files need no session: no cookie for them.
        if sess.dirty and not request.url.path.startswith(NO_SESSION_PATHS):
            codec.save(request, response, sess)
        headers.apply(response, https=request.url.scheme == "https")
        response.headers["X-Request-ID"] = request_id
        return response
