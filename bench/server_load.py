"""Load benchmark of `tute serve`: N concurrent two-player tables played by real WebSocket
clients on loopback, against the goal of 200 tables with p99 <= 100 ms on this 2-core machine.

It starts the server in a subprocess on a free 127.0.0.1 port (its own temporary data dir, the
default SQLite storage with a synced commit per batch), creates N tables
(``tute_2p_habanero`` by default), joins both seats of each, and has one client per seat play
random legal actions, each after a pause drawn uniformly from 0.5-1.5 x ``--think`` seconds (a
player's pace; 0: as fast as the server answers, a saturation test). For each intent it
measures the time from sending it to receiving the broadcast update that contains it.

The clients run in ``--procs`` worker processes (default 2) apart from the one that starts the
server and prints, so their own JSON and WebSocket work is spread over both cores instead of
sharing one interpreter; their CPU time and the server's are printed, the server's also per
intent (the figure that least depends on what else the machine runs).

Bounded: at most 1000 tables and 300 s of play (default 20 s); loopback only.

    .venv/bin/python bench/server_load.py                  # the goal: 200 tables, think 0.25 s
    .venv/bin/python bench/server_load.py --think 0.5 --seconds 30
    .venv/bin/python bench/server_load.py --bot-tables 4 --level dificil   # search bots too

Prints PASS (exit status 0) when p99 <= 100 ms with at least 200 tables and no errors, else
FAIL (exit status 1).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
GOAL_TABLES = 200
GOAL_P99_MS = 100.0

try:  # the server's JSON codec when installed; the stdlib otherwise
    import orjson

    loads: Any = orjson.loads
except ImportError:
    loads = json.loads


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    # the humans' at tables with search bots (--bot-tables)
    bot_table_latencies: list[float] = field(default_factory=list)
    errors: int = 0
    games: int = 0
    cpu: float = 0.0  # seconds of this worker's CPU while playing


async def seat_client(url: str, token: str, seed: int, ready: asyncio.Event,
                      go: asyncio.Event, stop: list[float], stats: Stats, think: float,
                      kind: int = 0) -> None:
    rng = random.Random(seed)
    mine = stats.latencies if kind == 0 else stats.bot_table_latencies
    async with connect(url, max_size=2**20, compression=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "protocol": 2}))
        welcome = loads(await ws.recv())
        seat, deal, v = welcome["seat"], dict(welcome["state"]["deal"]), welcome["v"]
        over = welcome["state"]["over"]
        ready.set()
        await go.wait()
        sent_at: float | None = None
        while time.monotonic() < stop[0] and not over:
            if deal["to_move"] == seat and sent_at is None:
                if think:
                    await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
                legal = deal["legal_actions"]
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "v": v,
                                          "action": legal[rng.randrange(len(legal))]}))
            try:
                raw = await asyncio.wait_for(ws.recv(),
                                             timeout=max(0.1, stop[0] - time.monotonic()))
            except TimeoutError:
                break
            m = loads(raw)
            if m["type"] == "update":
                v = m["v"]
                delta = m["delta"]  # only what changed: protocol 2
                if "deal" in delta:
                    deal.update(delta["deal"])
                over = delta.get("over", over)
                if m["seat"] == seat and sent_at is not None:
                    mine.append(time.perf_counter() - sent_at)
                    sent_at = None
            elif m["type"] == "error":
                stats.errors += 1
                sent_at = None
        if over:
            stats.games += 1


def worker(ws_base: str, seats: list[tuple[int, str, str, int]], think: float, seconds: float,
           barrier: Any, out: Any) -> None:
    """One client process: connect its seats, wait for the others, play, report."""
    try:
        import uvloop

        uvloop.install()  # the clients' own loop costs less CPU this way
    except ImportError:
        pass

    async def main() -> Stats:
        stats = Stats()
        readies = [asyncio.Event() for _ in seats]
        go = asyncio.Event()
        stop = [float("inf")]
        tasks = [asyncio.create_task(seat_client(f"{ws_base}/ws/{tid}", tok, i, r, go, stop,
                                                 stats, think, kind))
                 for (i, tid, tok, kind), r in zip(seats, readies, strict=True)]
        await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), timeout=120)
        await asyncio.to_thread(barrier.wait, 120)  # every process connected: play
        stop[0] = time.monotonic() + seconds
        cpu0 = time.process_time()
        go.set()
        await asyncio.gather(*tasks)
        stats.cpu = time.process_time() - cpu0
        return stats

    stats = asyncio.run(main())
    out.put((stats.latencies, stats.errors, stats.games, stats.cpu,
             stats.bot_table_latencies))


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(xs: list[float], p: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(p / 100 * len(s)))] * 1000 if s else float("nan")


# The per-address caps raised (every client here comes from 127.0.0.1; a server's defaults
# allow 20 tables an address), through TUTE_LIMITS as `tute serve` reads it.
LIMITS = " ".join(f"{k}=100000" for k in (
    "per_address", "connect_rate", "accept_rate", "http_rate", "http_burst",
    "spectators_per_address", "spectators_total", "spectators_per_address_total",
    "tables_per_address", "waiting_per_address")) + " max_connections=4096"


def _answer(r: httpx.Response, what: str) -> dict[str, Any]:
    """The JSON of a 200, else the server's refusal, said (not a KeyError later)."""
    if r.status_code != 200:
        raise SystemExit(f"{what}: HTTP {r.status_code} {r.text[:200]}")
    body: dict[str, Any] = r.json()
    return body


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--tables", type=int, default=GOAL_TABLES)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--variant", default="tute_2p_habanero")
    ap.add_argument("--think", type=float, default=0.25,
                    help="mean seconds a client waits before acting (0: as fast as possible)")
    ap.add_argument("--procs", type=int, default=2, help="client processes (1-8)")
    ap.add_argument("--bot-tables", type=int, default=0, metavar="N",
                    help="also N tables of one client against the server's bots")
    ap.add_argument("--level", default="dificil",
                    help="the bots' level at those tables (default dificil: pimc, 1 s)")
    ap.add_argument("--profile", metavar="FILE",
                    help="run the server under cProfile and write its stats to FILE")
    a = ap.parse_args()
    tables = max(1, min(a.tables, 1000))
    bot_tables = max(0, min(a.bot_tables, 100))
    seconds = max(1.0, min(a.seconds, 300.0))
    think = max(0.0, a.think)
    procs = max(1, min(a.procs, 8, tables))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as data:
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "TUTE_LIMITS": LIMITS}
        env.pop("TUTE_DATABASE_URL", None)
        # (cProfile's own command line writes nothing: uvicorn re-raises SIGTERM once shut
        # down, which the default handler turns into death, so it is made a SystemExit here)
        run = (["-c", "import cProfile, runpy, signal, sys; p = cProfile.Profile()\n"
                "signal.signal(signal.SIGTERM, lambda *_: sys.exit(0)); sys.argv[0] = 'tute'\n"
                "try: p.runcall(runpy.run_module, 'tute.server', run_name='__main__')\n"
                f"except SystemExit: pass\nfinally: p.dump_stats({a.profile!r})"]
               if a.profile else ["-m", "tute.server"])
        server = subprocess.Popen(
            [sys.executable, *run, "--host", "127.0.0.1", "--port", str(port),
             "--data-dir", data, "--log-level", "warning", "--max-tables", "2000",
             "--create-per-minute", "100000", "--ws-rate", "1000", "--bot-timeout", "3600"],
            env=env)
        try:
            for _ in range(200):
                try:
                    if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            seats: list[tuple[int, str, str, int]] = []
            with httpx.Client(base_url=base, timeout=30) as http:
                for _ in range(tables):
                    r = _answer(http.post("/api/tables", json={
                        "variant": a.variant, "seats": ["you", "open"], "name": "A"}),
                        "creating a table")
                    j = _answer(http.post(f"/api/tables/{r['id']}/join", json={"name": "B"}),
                                "joining a table")
                    seats += [(len(seats), r["id"], r["token"], 0),
                              (len(seats) + 1, r["id"], j["token"], 0)]
                for _ in range(bot_tables):
                    r = http.post("/api/tables", json={
                        "variant": a.variant, "seats": ["you", a.level], "name": "H"})
                    if r.status_code != 200:
                        raise SystemExit(f"cannot create a table with {a.level!r} bots: "
                                         f"{r.text}")
                    seats.append((len(seats), r.json()["id"], r.json()["token"], 1))
            ctx = mp.get_context("spawn")
            barrier = ctx.Barrier(procs + 1)
            out = ctx.Queue()
            ws_base = base.replace("http", "ws")
            workers = [ctx.Process(target=worker, daemon=True,
                                   args=(ws_base, seats[k::procs], think, seconds, barrier, out))
                       for k in range(procs)]
            for w in workers:
                w.start()
            barrier.wait(180)
            cpu0, start = cpu_seconds(server.pid), time.perf_counter()
            results = [out.get(timeout=seconds + 120) for _ in workers]
            elapsed = time.perf_counter() - start
            server_cpu = cpu_seconds(server.pid) - cpu0
            for w in workers:
                w.join(10)
        finally:
            server.terminate()
            server.wait(10)
    lat = [x for r in results for x in r[0]]
    bot_lat = [x for r in results for x in r[4]]
    errors = sum(r[1] for r in results)
    games = sum(r[2] for r in results) // 2
    client_cpu = sum(r[3] for r in results)
    n = len(lat)
    p99 = pct(lat, 99)
    print(f"tables: {tables} ({a.variant}), clients: {2 * tables} in {procs} processes, "
          f"pace: think {think:g} s (uniform {0.5 * think:g}-{1.5 * think:g} s), "
          f"play time: {elapsed:.1f} s")
    print(f"intents accepted: {n}  ({n / elapsed:.0f} intents/s), errors: {errors}, "
          f"matches finished: {games}")
    print(f"latency intent -> broadcast: p50 {pct(lat, 50):.1f} ms, p90 {pct(lat, 90):.1f} ms, "
          f"p99 {p99:.1f} ms, max {pct(lat, 100):.1f} ms")
    if bot_tables:
        print(f"tables against {a.level!r} bots: {bot_tables}; their humans' intents: "
              f"{len(bot_lat)}, p50 {pct(bot_lat, 50):.1f} ms, p99 {pct(bot_lat, 99):.1f} ms "
              f"(the bots think in the server's worker processes)")
    print(f"CPU: server {100 * server_cpu / elapsed:.0f}% of a core "
          f"({1e3 * server_cpu / max(n, 1):.2f} ms per intent), "
          f"clients {100 * client_cpu / elapsed:.0f}%")
    ok = n > 0 and errors == 0 and p99 <= GOAL_P99_MS and tables >= GOAL_TABLES
    why = [] if ok else [s for s, bad in (
        (f"p99 {p99:.1f} ms > {GOAL_P99_MS:g} ms", not p99 <= GOAL_P99_MS),
        (f"{tables} < {GOAL_TABLES} tables", tables < GOAL_TABLES),
        (f"{errors} errors", errors > 0), ("no intents", n == 0)) if bad]
    print(f"{'PASS' if ok else 'FAIL'}: goal p99 <= {GOAL_P99_MS:g} ms at {GOAL_TABLES} tables; "
          f"got p99 {p99:.1f} ms at {tables} tables, think {think:g} s"
          + ("" if ok else f" ({'; '.join(why)})"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
