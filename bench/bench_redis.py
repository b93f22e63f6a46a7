"""Where one Redis saturates with the tavern's traffic (issue 41 §4,
docs/scale.md): ``redis-benchmark`` (Redis' own tool, from the
``redis-tools`` package) sends PUBLISHes of a table's publication size to a
channel a real subscriber reads (``redis-cli SUBSCRIBE``, its output thrown
away, as a worker's listener would drain it), against a fresh
``redis-server`` on loopback.

For each payload and concurrency it prints the PUBLISHes a second Redis
answered, the bytes a second that makes in and out, and whether the
subscriber was still connected at the end (Redis drops a pub/sub client
whose output buffer passes its limit: past that point the fan-out is lost,
not slow). The cluster's own traffic per 1,000 players comes from
``bench_scaleout.py``; docs/scale.md divides one by the other.

    python bench/bench_redis.py                       # 2.4 KB and 13 KB payloads, 8 and 32 clients
    python bench/bench_redis.py --sizes 13000 --clients 8 --requests 50000
"""

from __future__ import annotations

import argparse
import csv
import io
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_scaleout import start_redis  # noqa: E402

CHANNEL = "tavern:bench:table"


def publish_rate(port: int, size: int, clients: int, requests: int) -> float:
    """PUBLISHes a second of ``size`` bytes from ``clients`` connections (no pipelining, as the workers send them)."""
    payload = "x" * size
    out = subprocess.run(["redis-benchmark", "-h", "127.0.0.1", "-p", str(port), "-n", str(requests), "-c", str(clients),
                          "--csv", "PUBLISH", CHANNEL, payload], capture_output=True, text=True, check=True).stdout
    rows = list(csv.reader(io.StringIO(out)))
    return float(rows[-1][1])  # "test","rps",…: the last row is the command's


def subscribers(client: object) -> int:
    return sum(1 for c in client.client_list() if c.get("flags", "").find("P") >= 0)  # type: ignore[attr-defined]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="2400,13000", help="payload bytes (a player's view, a table's publication)")
    ap.add_argument("--clients", default="8,32")
    ap.add_argument("--requests", type=int, default=100_000)
    args = ap.parse_args()
    if shutil.which("redis-benchmark") is None:
        print("redis-benchmark not found: bash scripts/system-deps.sh installs redis-tools", file=sys.stderr)
        return 2
    import redis

    tmp = Path(tempfile.mkdtemp(prefix="tavern-bench-redis-"))
    server, url = start_redis(tmp)
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    try:
        client = redis.Redis.from_url(url)
        for size in (int(x) for x in args.sizes.split(",")):
            for clients in (int(x) for x in args.clients.split(",")):
                listener = subprocess.Popen(["redis-cli", "-p", str(port), "SUBSCRIBE", CHANNEL],
                                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                for _ in range(100):
                    if subscribers(client):
                        break
                    time.sleep(0.05)
                cpu0 = client.info("cpu")
                rate = publish_rate(port, size, clients, args.requests)
                cpu1 = client.info("cpu")
                alive = subscribers(client) > 0
                listener.kill()
                listener.wait()
                cpu = sum(cpu1[k] - cpu0[k] for k in ("used_cpu_sys", "used_cpu_user"))
                print(f"PUBLISH {size:6d} B, {clients:3d} clients, 1 subscriber: {rate:9.0f}/s, "
                      f"{rate * size / 2**20:7.1f} MiB/s in and out; Redis CPU {cpu:.1f} s for {args.requests} "
                      f"({cpu / args.requests * 1e6:.1f} µs each); subscriber "
                      f"{'kept up' if alive else 'DROPPED (output buffer limit): saturated'}", flush=True)
    finally:
        server.kill()
        server.wait()
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
