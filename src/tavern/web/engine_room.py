"""« Salle des machines »: the admins' live view, read from the very figures
``/metrics`` gives (tavern/metrics.py) — players and tables by game, deals
per minute, latency percentiles, workers and the tables each holds — and
the last errors this process logged (tavern/logs.py).

Deals per minute come from the settled-deals counter: the difference
between this reading and one taken at least a minute before (the page
reads every few seconds); until there is one, the deals this process
settled in the last minute.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any

from tavern import logs, metrics
from tavern.games.registry import spec

#: (time, deals settled so far by game) at each reading, for the rate.
_READINGS: deque[tuple[float, dict[str, float]]] = deque(maxlen=200)
WINDOW = 60.0


def _label(game: str) -> str:
    try:
        return spec(game).label
    except Exception:  # a game no longer registered: its name as recorded
        return game


def _samples(families: dict[str, Any], name: str, sample: str | None = None) -> list[Any]:
    family = families.get(name)
    if family is None:
        return []
    wanted = sample or name
    return [s for s in family.samples if s.name == wanted]


def _rate(settled: dict[str, float], now: float) -> dict[str, float] | None:
    """Deals settled per minute by game, from an old enough reading."""
    _READINGS.append((now, settled))
    while len(_READINGS) > 1 and now - _READINGS[1][0] >= WINDOW:
        _READINGS.popleft()  # keep the newest reading that is a window old
    then, before = _READINGS[0]
    if now - then < WINDOW:
        return None
    return {g: (n - before.get(g, 0.0)) * 60.0 / (now - then) for g, n in settled.items()}


def figures(now: float | None = None) -> dict[str, Any]:
    now = time.time() if now is None else now
    fam = metrics.families()
    tables: dict[str, int] = {}
    for s in _samples(fam, "tavern_tables_running"):
        tables[s.labels["game"]] = tables.get(s.labels["game"], 0) + int(s.value)
    settled: dict[str, float] = {}
    for s in _samples(fam, "tavern_deals", "tavern_deals_total"):
        if s.labels["outcome"] == "settled":
            settled[s.labels["game"]] = settled.get(s.labels["game"], 0.0) + s.value
    rate = _rate(settled, now)
    per_minute = round(sum(rate.values()), 1) if rate is not None else float(metrics.per_minute())
    buckets: dict[float, float] = {}
    for s in _samples(fam, "tavern_action_publication_seconds", "tavern_action_publication_seconds_bucket"):
        le = float(s.labels["le"])
        buckets[le] = buckets.get(le, 0.0) + s.value
    ordered = sorted(buckets.items())
    latency = {f"p{int(q * 100)}": (None if (v := metrics.quantile(ordered, q)) is None else round(v * 1000, 2))
               for q in (0.5, 0.9, 0.99)}
    workers = sorted(({"worker": s.labels.get("worker", "?"), "pid": s.labels.get("pid"), "tables": int(s.value)}
                      for s in _samples(fam, "tavern_worker_tables")), key=lambda w: (w["worker"], w["pid"] or ""))

    def total(name: str, sample: str | None = None) -> float:
        return float(sum(s.value for s in _samples(fam, name, sample)))

    games = sorted(set(tables) | set(settled))
    return {
        "players": int(total("tavern_players_connected")),
        "sockets": int(total("tavern_websockets_open")),
        "send_queue": int(total("tavern_websocket_send_queue_messages")),
        "tables": [{"game": g, "label": _label(g), "tables": tables.get(g, 0),
                    "per_minute": round(rate.get(g, 0.0), 1) if rate is not None else None}
                   for g in games],
        "tables_total": sum(tables.values()),
        "deals_per_minute": per_minute,
        "latency_ms": latency,
        "actions_published": int(total("tavern_action_publication_seconds", "tavern_action_publication_seconds_count")),
        "workers": workers,
        "pool_in_use": int(total("tavern_db_pool_in_use")),
        "pool_size": int(total("tavern_db_pool_size")),
        "pool_timeouts": int(total("tavern_db_pool_timeouts", "tavern_db_pool_timeouts_total")),
        "errors": list(reversed(logs.RECENT_ERRORS.lines))[:20],
    }
