"""What a table's ``state`` frames weigh, field by field, raw and deflated
(issue 41: the CPU an action is mostly each socket deflating its frames).

Real deals through the real table: a migrated SQLite database, the real
actor, bank and in-process broadcaster, every seat subscribed as a socket
is, and every move submitted as a socket submits it (``act`` with the seq it
was chosen on). Ramponneau is played by a fixed, seeded policy that reads
only the legal actions (so that any build of the table plays it the same
way); the other games by the house players (``tavern.bots``).

Each seat's stream of frames is deflated as its socket deflates it
(permessage-deflate as ``tavern.web.wsproto`` sets it: zlib level 1, a 16 KB
window, memLevel 5, the context kept from frame to frame). A field's raw
cost is the bytes of its ``"key":value,`` in each frame; its deflated cost
is what the stream loses when the field is taken out of every frame (so
what the field costs on the wire with everything else around it).

    .venv/bin/python bench/bench_frame_bytes.py                     # Ramponneau, 40 deals
    .venv/bin/python bench/bench_frame_bytes.py --games all --deals 12
    PYTHONPATH=/tmp/old79/src .venv/bin/python bench/bench_frame_bytes.py   # an older build

The database is migrated by the build's own migrations (the ``alembic.ini``
beside the ``tavern`` package imported), so an older checkout runs as it was.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
import zlib
from collections import defaultdict
from pathlib import Path
from typing import Any

import tavern

#: The build measured: the checkout of the ``tavern`` package imported.
ROOT = Path(tavern.__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from _tables_world import migrate, seed  # noqa: E402

#: A table of each game: its stakes, variant and seats (the game's usual table).
GAMES: dict[str, tuple[dict[str, int], str, int]] = {
    "ramponneau": ({"small_blind": 1, "big_blind": 2}, "", 6),
    "draw": ({"small_bet": 2}, "fixed-limit", 4),
    "rami": ({"unit": 1}, "", 3),
    "double_rami": ({"unit": 1}, "", 3),
    "remigio": ({"unit": 1}, "", 3),
    "gin": ({"unit": 1}, "", 2),
    "rummoli": ({"unit": 1}, "", 4),
    "rams": ({"unit": 1}, "", 4),
}
CAVE = 200
#: permessage-deflate as the server runs it (tavern.web.wsproto).
LEVEL, WBITS, MEMLEVEL = 1, 14, 5


def deflated_sizes(frames: list[bytes]) -> list[int]:
    """Each frame's size on the wire, deflated in one socket's context."""
    z = zlib.compressobj(LEVEL, zlib.DEFLATED, -WBITS, MEMLEVEL)
    return [len(z.compress(f) + z.flush(zlib.Z_SYNC_FLUSH)) - 4 for f in frames]


def _dumps(value: Any) -> bytes:
    import orjson

    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def without(frame: dict[str, Any], path: tuple[str, ...]) -> dict[str, Any]:
    """The frame with the field at ``path`` taken out (a copy)."""
    if len(path) == 1:
        return {k: v for k, v in frame.items() if k != path[0]}
    inner = frame.get(path[0])
    if not isinstance(inner, dict):
        return frame
    return {**frame, path[0]: without(inner, path[1:])}


def fields_of(frame: dict[str, Any]) -> list[tuple[str, ...]]:
    """The fields measured: every top-level key, and the keys of ``table``,
    ``you``, ``deal`` and ``table.fair``."""
    out: list[tuple[str, ...]] = [(k,) for k in frame]
    for top in ("table", "you", "deal"):
        if isinstance(frame.get(top), dict):
            out += [(top, k) for k in frame[top]]
    if isinstance(frame.get("table"), dict) and isinstance(frame["table"].get("fair"), dict):
        out += [("table", "fair", k) for k in frame["table"]["fair"]]
    return out


def raw_bytes(frame: dict[str, Any], path: tuple[str, ...]) -> int:
    at: Any = frame
    for key in path[:-1]:
        at = at.get(key) if isinstance(at, dict) else None
    if not isinstance(at, dict) or path[-1] not in at:
        return 0
    return len(_dumps({path[-1]: at[path[-1]]})) - 1  # `"key":value` and its comma


def ramponneau_move(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Check or call mostly, a minimum raise now and then, a fold against a
    bet a third of the time: deals of a few streets, as players play them."""
    by = {a["action"]: a for a in legal}
    r = rng.random()
    if "raise" in by and r < 0.12:
        return {"action": "raise", "amount": by["raise"]["min"]}
    if "bet" in by and r < 0.12:
        return {"action": "bet", "amount": by["bet"]["min"]}
    if "check" in by:
        return {"action": "check"}
    if "call" in by and r < 0.67:
        return {"action": "call"}
    if "fold" in by:
        return {"action": "fold"}
    return {"action": legal[0]["action"]}


async def play(db_url: str, game: str, deals: int, seed_no: int) -> tuple[dict[str | None, list[str]], int]:
    """``deals`` deals of ``game`` at one table (fewer if it stops dealing):
    every recipient's frames, and the deals played."""
    from sqlalchemy import text
    from sqlalchemy.pool import NullPool

    from tavern.cards import SeededSource
    from tavern.settings import Settings
    from tavern.store.db import make_engine, session_factory
    from tavern.tables.actor import TableActor
    from tavern.tables.bank import SqlBank
    from tavern.tables.broadcast import LocalBroadcaster

    stakes, variant, n_seats = GAMES[game]
    world = seed(db_url, 1)
    [table_id] = world.tables
    engine = make_engine(db_url, poolclass=NullPool)
    with engine.begin() as c:
        c.execute(text("UPDATE table_configs SET game=:g, variant=:v, stakes=:s, seats=:n, "
                       "buy_in_min=1, buy_in_max=1000 WHERE id=:i"),
                  {"g": game, "v": variant, "s": json.dumps(stakes), "n": n_seats, "i": table_id})
    # Every deal counts against the players' daily hands: enough for the run.
    bank = SqlBank(session_factory(engine), Settings(free_hands_per_day=1_000_000))
    players = world.players[table_id][:n_seats]
    for seat, (_, user_id) in enumerate(players):
        bank.sit(table_id, user_id, seat, CAVE)
    broadcaster = LocalBroadcaster()
    frames: dict[str | None, list[str]] = defaultdict(list)
    for name, _ in players:
        broadcaster.subscribe(table_id, name, frames[name].append)
    info = bank.table_info(table_id)
    assert info is not None
    # A seeded source for the server seeds: the same deals for any build
    # dealing them the same way (the shuffle of the fair stream).
    actor = TableActor(info, bank, broadcaster, deal_pause=0.0, rng=SeededSource(random.Random(seed_no)))
    ids = dict(players)
    await actor.start()
    for name, _ in players:
        await _submit(actor, "connect", name, ids[name], {})
    rng = random.Random(seed_no)
    first = None
    idle = 0
    while idle < 2000:  # no move to play for 4 s: the table stopped dealing (stacks gone)
        eng = actor.engine
        if eng is None or eng.over or not eng.to_act():
            if first is not None and actor.deals - first >= deals:
                break
            idle += 1
            await asyncio.sleep(0.002)
            continue
        idle = 0
        first = actor.deals if first is None else first
        name = eng.to_act()[0]
        legal = eng.legal_actions(name)
        if game == "ramponneau":
            move = ramponneau_move(legal, rng)
        else:
            from tavern.bots import decide

            move = decide(game, "débutant", eng.view(name), legal, rng)
        action = move.pop("action")
        await _submit(actor, "act", name, ids[name], {"action": action, "args": move, "seq": actor.seq})
    played = actor.deals - (first or 0)
    await actor.stop()
    engine.dispose()
    return frames, played


async def _submit(actor: Any, command: str, name: str, user_id: int, args: dict[str, Any]) -> None:
    """A command as a socket submits it, in either shape of the actor's API
    (the table commands' models now; a name and keywords in older builds)."""
    import inspect

    first = next(iter(inspect.signature(actor.submit).parameters.values()))
    if first.annotation in ("str", str):
        await actor.submit(command, name, **args)
        return
    from tavern.tables.commands import Act, Connect

    model = Connect() if command == "connect" else Act(**args)
    await actor.submit(model, name, user_id=user_id)


def measure(frames: dict[str | None, list[str]]) -> dict[str, Any]:
    """Bytes a frame, raw and deflated, over every seat's stream; and each
    field's share (see the module's docstring)."""
    streams = [[json.loads(t) for t in texts if t.startswith('{"type":"state"')] for texts in frames.values()]
    n = sum(len(s) for s in streams)
    encoded = [[_dumps(f) for f in s] for s in streams]
    raw = sum(len(b) for s in encoded for b in s)
    wire = sum(sum(deflated_sizes(s)) for s in encoded)
    # The CPU of deflating them as the sockets do, the best of five passes.
    rounds = []
    for _ in range(5):
        began = time.process_time()
        for s in encoded:
            deflated_sizes(s)
        rounds.append((time.process_time() - began) / n * 1e6)
    paths = sorted({p for s in streams for f in s for p in fields_of(f)})
    per_field = {}
    for path in paths:
        r = sum(raw_bytes(f, path) for s in streams for f in s)
        d = wire - sum(sum(deflated_sizes([_dumps(without(f, path)) for f in s])) for s in streams)
        per_field[".".join(path)] = (r / n, d / n, sum(1 for s in streams for f in s if raw_bytes(f, path)) / n)
    return {"frames": n, "raw": raw / n, "wire": wire / n, "deflate_us": min(rounds), "fields": per_field}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default="ramponneau", help="comma-separated, or 'all'")
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--json", help="write the figures to this file too")
    args = ap.parse_args()
    games = list(GAMES) if args.games == "all" else args.games.split(",")
    out = {}
    for game in games:
        with tempfile.TemporaryDirectory(prefix="tavern-bench-frames-") as tmp:
            db_url = f"sqlite:///{tmp}/bench.db"
            migrate(db_url)
            frames, played = asyncio.run(play(db_url, game, args.deals, args.seed))
        m = out[game] = measure(frames)
        print(f"\n{game} ({ROOT}): {m['frames']} state frames to the seats, {played} deals — "
              f"{m['raw']:.0f} B raw, {m['wire']:.1f} B deflated a frame, "
              f"{m['deflate_us']:.1f} µs of CPU to deflate it")
        print(f"  {'field':<28}{'raw B/frame':>12}{'deflated':>10}{'in frames':>10}")
        for name, (r, d, share) in sorted(m["fields"].items(), key=lambda kv: -kv[1][1]):
            print(f"  {name:<28}{r:>12.1f}{d:>10.1f}{share:>9.0%}")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
