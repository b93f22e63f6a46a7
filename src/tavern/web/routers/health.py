"""``/healthz``: is the database (and Redis, when configured) answering?"""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from sqlalchemy import text

from tavern.web.deps import ReadRoute
from tavern.web.state import services

api = APIRouter(route_class=ReadRoute, tags=["santé"])


class Health(BaseModel):
    ok: bool
    database: str
    redis: str | None = None


def _ping_db(request: Request) -> str:
    try:
        with services(request).engine.connect() as conn:
            conn.execute(text("SELECT 1"))
        return "ok"
    except Exception as exc:  # any failure is "down", with its reason
        return f"down: {type(exc).__name__}"


def _ping_redis(url: str) -> str:
    try:
        import redis

        client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
        try:
            client.ping()
        finally:
            client.close()
        return "ok"
    except Exception as exc:
        return f"down: {type(exc).__name__}"


@api.get("/healthz", response_model=Health, summary="Database (and Redis) health",
         responses={503: {"model": Health}})
async def healthz(request: Request) -> JSONResponse:
    database = await asyncio.to_thread(_ping_db, request)
    redis_url = services(request).settings.redis_url
    redis_state = await asyncio.to_thread(_ping_redis, redis_url) if redis_url else None
    ok = database == "ok" and redis_state in (None, "ok")
    body = Health(ok=ok, database=database, redis=redis_state)
    return JSONResponse(body.model_dump(), status_code=200 if ok else 503)
