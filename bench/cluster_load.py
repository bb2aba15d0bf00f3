"""Load benchmark of a two-process site (docs/cluster.md): N concurrent two-player tables and
S spectators over two `tute serve` processes sharing one PostgreSQL and one Redis, on loopback.

Half the tables are made at each process; each table's first seat connects to the process
that owns it and its second seat to the other one (every second intent and update is relayed
over Redis: the worst case), and the spectators are spread the same way. Clients play random
legal actions after a pause of 0.5-1.5 x ``--think`` seconds (bench/server_load.py's clients).
Measured: the time from sending an intent to receiving its broadcast update (p50/p99), the
servers' memory per connection (their RSS with every client connected, less before), and the
Redis and PostgreSQL operations per intent (Redis ``PUBLISH`` calls, PostgreSQL commits). The
stored logs are checked afterwards: versions 1..n with no gap, at least every acknowledged
intent stored (nothing lost) and no version twice (nothing duplicated).

PostgreSQL: ``--database-url`` (an empty database), else a throwaway server from the installed
binaries (the tests' own). Redis: ``--redis-url``, else a throwaway ``redis-server``.

    .venv/bin/python bench/cluster_load.py                       # the goal: 1000 tables
    .venv/bin/python bench/cluster_load.py --tables 100 --spectators 100 --seconds 15

Prints PASS (exit status 0) when p99 <= 100 ms with at least 1000 tables and 2000 spectators,
no errors, nothing lost or duplicated, and <= 100 KiB per connection; else FAIL (status 1).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "bench"), str(ROOT / "src"), str(ROOT)]

from server_load import Stats, cpu_seconds, free_port, pct, seat_client  # noqa: E402

GOAL_TABLES, GOAL_SPECTATORS, GOAL_P99_MS, GOAL_KIB = 1000, 2000, 100.0, 100.0


async def spectator(url: str, ready: asyncio.Event, stop: list[float], go: asyncio.Event,
                    seen: list[int]) -> None:
    async with connect(url, max_size=2**20, compression=None) as ws:
        await ws.send('{"type":"hello","protocol":2}')
        await ws.recv()
        ready.set()
        await go.wait()
        while time.monotonic() < stop[0]:
            try:
                await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop[0] - time.monotonic()))
            except TimeoutError:
                break
            seen[0] += 1


def worker(seats: list[tuple[int, str, str]], watchers: list[str], think: float,
           seconds: float, barrier: Any, out: Any) -> None:
    async def main() -> tuple[Stats, int]:
        stats, seen = Stats(), [0]
        readies = [asyncio.Event() for _ in range(len(seats) + len(watchers))]
        go, stop = asyncio.Event(), [float("inf")]
        tasks = [asyncio.create_task(seat_client(url, tok, i, r, go, stop, stats, think))
                 for (i, url, tok), r in zip(seats, readies, strict=False)]
        tasks += [asyncio.create_task(spectator(url, r, stop, go, seen))
                  for url, r in zip(watchers, readies[len(seats):], strict=True)]
        await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), timeout=300)
        await asyncio.to_thread(barrier.wait, 300)  # everybody connected: measure, then play
        await asyncio.to_thread(barrier.wait, 300)
        stop[0] = time.monotonic() + seconds
        go.set()
        ended = await asyncio.gather(*tasks, return_exceptions=True)
        stats.errors += sum(isinstance(e, Exception) for e in ended)  # e.g. a socket closed
        return stats, seen[0]

    stats, seen = asyncio.run(main())
    out.put((stats.latencies, stats.errors, seen))


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def redis_publishes(url: str) -> int:
    import redis

    r = redis.Redis.from_url(url)
    try:
        return int(r.info("commandstats").get("cmdstat_publish", {}).get("calls", 0))
    finally:
        r.close()


def pg_commits(url: str) -> int:
    from sqlalchemy import create_engine, text

    from tute.server.store import database_url

    engine = create_engine(database_url(url))
    try:
        with engine.connect() as conn:
            return int(conn.execute(text("SELECT xact_commit FROM pg_stat_database WHERE "
                                         "datname = current_database()")).scalar() or 0)
    finally:
        engine.dispose()


def check_logs(url: str, table_ids: list[str]) -> tuple[int, int]:
    """(events stored, tables whose log has a gap or a duplicate)."""
    from tute.server.store import Store

    store = Store(url)
    try:
        n = bad = 0
        for t in table_ids:
            evs = store.events(t)
            row = store.get(t)
            n += sum(e.kind == "action" for e in evs)
            if [e.version for e in evs] != list(range(1, len(evs) + 1)) or (
                    row is None or row.version != len(evs)):
                bad += 1
        return n, bad
    finally:
        store.close()


def start_backends(a: argparse.Namespace, tmp: Path, stack: list[Any]
                   ) -> tuple[list[str], str]:
    """Two empty databases (the reference's, the site's; one given URL serves both) and a
    Redis URL."""
    rurl = a.redis_url
    if a.database_url:
        dbs = [a.database_url, a.database_url]
    else:
        from tests.server.conftest import PostgresServer, ThrowawayPostgres, _postgres_bindir

        bindir = _postgres_bindir()
        if bindir is None:
            raise SystemExit("no PostgreSQL: give --database-url or install postgresql")
        pg = ThrowawayPostgres(bindir)
        stack.append(pg.stop)
        server = PostgresServer(pg.start())
        dbs = [server.create_database(), server.create_database()]
    if not rurl:
        binary = shutil.which("redis-server")
        if binary is None:
            raise SystemExit("no Redis: give --redis-url or install redis-server")
        port = free_port()
        proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save",
                                 "", "--appendonly", "no", "--dir", str(tmp)],
                                stdout=subprocess.DEVNULL)
        stack.append(proc.terminate)
        rurl = f"redis://127.0.0.1:{port}/0"
    return dbs, rurl


LIMITS = " ".join(f"{k}=100000" for k in (
    "per_address", "connect_rate", "accept_rate", "http_rate", "http_burst",
    "spectators_per_address", "spectators_total", "spectators_per_address_total",
    "tables_per_address", "waiting_per_address")) + " max_connections=4096"


def measure(a: argparse.Namespace, db: str, rurl: str | None, tmp: str) -> dict[str, Any]:
    """One run: two processes on ``rurl``'s Redis, or (None) a single process, the
    reference."""
    n_servers = 2 if rurl else 1
    servers: list[subprocess.Popen[bytes]] = []
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "TUTE_DATABASE_URL": db,
           "TUTE_LIMITS": LIMITS}
    env.pop("TUTE_REDIS_URL", None)
    if rurl:
        env["TUTE_REDIS_URL"] = rurl
    try:
        bases = []
        for k in range(n_servers):
            port = free_port()
            servers.append(subprocess.Popen(
                [sys.executable, "-m", "tute.server", "--host", "127.0.0.1", "--port",
                 str(port), "--data-dir", f"{tmp}/srv{k}", "--log-level", "warning",
                 "--max-tables", "4000", "--create-per-minute", "1000000",
                 "--ws-rate", "1000", "--bot-timeout", "3600"], env=env))
            bases.append(f"http://127.0.0.1:{port}")
        for base in bases:
            for _ in range(300):
                try:
                    if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
        seats: list[tuple[int, str, str]] = []
        watchers: list[str] = []
        ids: list[str] = []
        ws = [b.replace("http", "ws") for b in bases]
        with httpx.Client(timeout=60) as http:
            for i in range(a.tables):
                mine, other = i % n_servers, (i + 1) % n_servers
                r = http.post(bases[mine] + "/api/tables", json={
                    "variant": "tute_2p_habanero", "seats": ["you", "open"],
                    "public": True, "name": "A"}).json()
                j = http.post(bases[other] + f"/api/tables/{r['id']}/join",
                              json={"name": "B"}).json()
                ids.append(r["id"])
                seats += [(2 * i, f"{ws[mine]}/ws/{r['id']}", r["token"]),
                          (2 * i + 1, f"{ws[other]}/ws/{r['id']}", j["token"])]
        for s in range(a.spectators):
            watchers.append(f"{ws[s % n_servers]}/ws/{ids[(s // 2) % a.tables]}")
        rss0 = sum(rss_kib(p.pid) for p in servers)
        ctx = mp.get_context("spawn")
        barrier, out = ctx.Barrier(a.procs + 1), ctx.Queue()
        workers = [ctx.Process(target=worker, daemon=True,
                               args=(seats[k::a.procs], watchers[k::a.procs], a.think,
                                     a.seconds, barrier, out)) for k in range(a.procs)]
        for w in workers:
            w.start()
        barrier.wait(600)
        conns = len(seats) + len(watchers)
        per_conn = (sum(rss_kib(p.pid) for p in servers) - rss0) / conns
        pub0 = redis_publishes(rurl) if rurl else 0
        commits0 = pg_commits(db)
        cpu0 = [cpu_seconds(p.pid) for p in servers]
        barrier.wait(600)
        start = time.perf_counter()
        results = [out.get(timeout=a.seconds + 300) for _ in workers]
        elapsed = time.perf_counter() - start
        cpu = sum(cpu_seconds(p.pid) - c for p, c in zip(servers, cpu0, strict=True))
        pubs = (redis_publishes(rurl) - pub0) if rurl else 0
        commits = pg_commits(db) - commits0
        for w in workers:
            w.join(10)
    finally:
        for p in servers:
            p.terminate()
            p.wait(20)
    stored, bad = check_logs(db, ids)
    lat = [x for r in results for x in r[0]]
    n = len(lat)
    return {"n": n, "elapsed": elapsed, "lat": lat, "errors": sum(r[1] for r in results),
            "seen": sum(r[2] for r in results), "conns": conns, "per_conn": per_conn,
            "pubs": pubs / max(n, 1), "commits": commits / max(n, 1),
            "cpu_ms": 1e3 * cpu / max(n, 1), "stored": stored, "bad": bad}


def report(name: str, m: dict[str, Any]) -> None:
    lat = m["lat"]
    print(f"{name}: {m['conns']} connections; intents acknowledged {m['n']} "
          f"({m['n'] / m['elapsed']:.0f}/s), errors {m['errors']}, spectator messages "
          f"{m['seen']}")
    print(f"  intent -> broadcast: p50 {pct(lat, 50):.1f} ms, p90 {pct(lat, 90):.1f} ms, "
          f"p99 {pct(lat, 99):.1f} ms, max {pct(lat, 100):.1f} ms")
    print(f"  memory {m['per_conn']:.1f} KiB a connection; per intent: {m['pubs']:.1f} Redis "
          f"PUBLISH, {m['commits']:.2f} PostgreSQL commits, {m['cpu_ms']:.2f} ms server CPU")
    print(f"  stored actions {m['stored']} (acknowledged {m['n']}), tables with a gap or a "
          f"duplicate: {m['bad']}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--tables", type=int, default=GOAL_TABLES)
    ap.add_argument("--spectators", type=int, default=GOAL_SPECTATORS)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--think", type=float, default=0.5)
    ap.add_argument("--procs", type=int, default=2, help="client processes (1-8)")
    ap.add_argument("--database-url")
    ap.add_argument("--redis-url")
    a = ap.parse_args()
    a.tables = max(1, min(a.tables, 2000))
    a.spectators = max(0, min(a.spectators, 4000))
    a.seconds = max(1.0, min(a.seconds, 300.0))
    a.procs = max(1, min(a.procs, 8))
    stack: list[Any] = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            dbs, rurl = start_backends(a, Path(tmp), stack)
            ref = measure(a, dbs[0], None, tmp)
            site = measure(a, dbs[1], rurl, tmp)
    finally:
        for undo in reversed(stack):
            undo()
    print(f"{a.tables} two-player tables, {a.spectators} spectators, think {a.think:g} s, "
          f"{a.seconds:g} s of play; the site relays one seat of every table")
    report("reference, one process on PostgreSQL", ref)
    report("site, two processes on PostgreSQL and Redis", site)
    p99, ref99 = pct(site["lat"], 99), pct(ref["lat"], 99)
    print(f"site / reference: p50 x{pct(site['lat'], 50) / max(pct(ref['lat'], 50), 1e-9):.2f}"
          f", p99 x{p99 / max(ref99, 1e-9):.2f}, CPU per intent "
          f"x{site['cpu_ms'] / max(ref['cpu_ms'], 1e-9):.2f}")
    ok = (site["n"] > 0 and site["errors"] == 0 and site["bad"] == 0
          and site["stored"] >= site["n"] and p99 <= GOAL_P99_MS
          and site["per_conn"] <= GOAL_KIB and a.tables >= GOAL_TABLES
          and a.spectators >= GOAL_SPECTATORS)
    print(f"{'PASS' if ok else 'FAIL'}: goal p99 <= {GOAL_P99_MS:g} ms, <= {GOAL_KIB:g} KiB "
          f"a connection at {GOAL_TABLES} tables and {GOAL_SPECTATORS} spectators")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
