"""Load benchmark of a two-process site (docs/cluster.md): N concurrent tables (four-player
parejas by default, ``--variant``) and S spectators over two `tute serve` processes sharing
one PostgreSQL and one Redis, on loopback.

Half the tables are made at each process; a table's seats connect to the two processes in
turn, its first to the owner (every second seat's intents and updates are relayed over Redis:
the worst case), and the spectators are spread the same way. Clients play random
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

from server_load import LIMITS, Stats, cpu_seconds, free_port, pct, seat_client  # noqa: E402
from tute.variants import find_variant  # noqa: E402

GOAL_TABLES, GOAL_SPECTATORS, GOAL_P99_MS, GOAL_KIB = 1000, 2000, 100.0, 100.0
RAMP = 100  # connections a client process opens at once


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
        jobs = [lambda r, i=i, url=url, tok=tok: seat_client(url, tok, i, r, go, stop, stats,
                                                              think)
                for i, url, tok in seats]
        jobs += [lambda r, url=url: spectator(url, r, stop, go, seen) for url in watchers]
        # People arrive over time, not all in one second: connect in waves of RAMP, each
        # once the last is in (thousands of handshakes at once outlast the servers' header
        # timeout before they are read)
        tasks = []
        for k in range(0, len(jobs), RAMP):
            tasks += [asyncio.create_task(job(r)) for job, r in
                      zip(jobs[k:k + RAMP], readies[k:k + RAMP], strict=True)]
            await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies[k:k + RAMP])),
                                   timeout=300)
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


def redis_calls(url: str) -> dict[str, int]:
    """Redis's calls so far by command (INFO commandstats), "all" their sum."""
    import redis

    r = redis.Redis.from_url(url)
    try:
        stats = r.info("commandstats")
    finally:
        r.close()
    calls = {k.removeprefix("cmdstat_"): int(v.get("calls", 0)) for k, v in stats.items()}
    return {**calls, "all": sum(calls.values())}


PG_COUNTERS = ("xact_commit", "xact_rollback", "tup_inserted", "tup_updated", "tup_deleted",
               "tup_returned")


def pg_counters(url: str) -> dict[str, int]:
    """The database's counters so far (pg_stat_database: transactions, rows), and its
    statements when pg_stat_statements is loaded (else -1). The statistics collector
    reports with a delay of up to half a second: read after a pause."""
    from sqlalchemy import create_engine, text

    from tute.server.store import database_url

    engine = create_engine(database_url(url))
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT pg_stat_clear_snapshot()"))
            row = conn.execute(text(f"SELECT {', '.join(PG_COUNTERS)} FROM pg_stat_database "
                                    "WHERE datname = current_database()")).one()
            out = {k: int(v or 0) for k, v in zip(PG_COUNTERS, row, strict=True)}
            try:
                out["statements"] = int(conn.execute(text(
                    "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements WHERE dbid = "
                    "(SELECT oid FROM pg_database WHERE datname = current_database())"
                )).scalar() or 0)
            except Exception:  # the extension is not loaded
                out["statements"] = -1
        return out
    finally:
        engine.dispose()


def pg_statements(url: str) -> dict[str, tuple[int, int]]:
    """pg_stat_statements's statements of the database: query -> (calls, rows); empty when
    the extension is not loaded."""
    from sqlalchemy import create_engine, text

    from tute.server.store import database_url

    engine = create_engine(database_url(url))
    try:
        with engine.connect() as conn:
            rows = conn.execute(text(
                "SELECT query, sum(calls), sum(rows) FROM pg_stat_statements WHERE dbid = "
                "(SELECT oid FROM pg_database WHERE datname = current_database()) "
                "GROUP BY query")).all()
        return {" ".join(str(q).split())[:90]: (int(c), int(r)) for q, c, r in rows}
    except Exception:
        return {}
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


def _statements_on(url: str) -> None:
    from sqlalchemy import create_engine, text

    from tute.server.store import database_url

    engine = create_engine(database_url(url), isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(text("CREATE EXTENSION IF NOT EXISTS pg_stat_statements"))
    finally:
        engine.dispose()


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
        admin = pg.start()
        # pg_stat_statements counts the statements per intent (loaded at startup only)
        with (pg.data / "postgresql.conf").open("a") as conf:
            conf.write("\nshared_preload_libraries = 'pg_stat_statements'\n")
        pg._run("pg_ctl", "-D", str(pg.data), "-l", str(pg.log), "-w", "-t", "30", "restart")
        server = PostgresServer(admin)
        dbs = [server.create_database(), server.create_database()]
        for db in dbs:
            _statements_on(db)
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


def measure(a: argparse.Namespace, db: str, rurl: str | None, tmp: str) -> dict[str, Any]:
    """One run: two processes on ``rurl``'s Redis, or (None) a single process, the
    reference."""
    n_servers = 2 if rurl else 1
    servers: list[subprocess.Popen[bytes]] = []
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "TUTE_DATABASE_URL": db,
           "TUTE_LIMITS": LIMITS + " max_connections=16384"}
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
            # one at a time: the first makes the database's tables (two at once would race)
            for _ in range(300):
                try:
                    if httpx.get(bases[-1] + "/api/health", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
        seats: list[tuple[int, str, str]] = []
        watchers: list[str] = []
        ids: list[str] = []
        ws = [b.replace("http", "ws") for b in bases]
        players = find_variant(a.variant).players
        with httpx.Client(timeout=60) as http:
            for i in range(a.tables):
                # seats alternate between the processes: half of every table is relayed
                at = [bases[(i + k) % n_servers] for k in range(players)]
                r = http.post(at[0] + "/api/tables", json={
                    "variant": a.variant, "seats": ["you"] + ["open"] * (players - 1),
                    "public": True, "name": "A"}).json()
                ids.append(r["id"])
                seats.append((players * i, f"{at[0].replace('http', 'ws')}/ws/{r['id']}",
                              r["token"]))
                for k in range(1, players):
                    j = http.post(at[k] + f"/api/tables/{r['id']}/join",
                                  json={"name": f"P{k}", "seat": k}).json()
                    seats.append((players * i + k,
                                  f"{at[k].replace('http', 'ws')}/ws/{r['id']}", j["token"]))
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
        time.sleep(1.0)  # the statistics collector's last report before the play
        redis0 = redis_calls(rurl) if rurl else {}
        pg0 = pg_counters(db)
        st0 = pg_statements(db)
        cpu0 = [cpu_seconds(p.pid) for p in servers]
        barrier.wait(600)
        start = time.perf_counter()
        results = [out.get(timeout=a.seconds + 300) for _ in workers]
        elapsed = time.perf_counter() - start
        cpus = [cpu_seconds(p.pid) - c for p, c in zip(servers, cpu0, strict=True)]
        cpu = sum(cpus)
        rss = [rss_kib(p.pid) for p in servers]
        time.sleep(1.0)
        redis1 = redis_calls(rurl) if rurl else {}
        pg1 = pg_counters(db)
        st1 = pg_statements(db)
        for w in workers:
            w.join(10)
    finally:
        for p in servers:
            p.terminate()
            p.wait(20)
    stored, bad = check_logs(db, ids)
    lat = [x for r in results for x in r[0]]
    n = len(lat)
    per = max(n, 1)
    redis_d = {k: v - redis0.get(k, 0) for k, v in redis1.items() if v - redis0.get(k, 0)}
    pg_d = {k: v - pg0[k] for k, v in pg1.items()}
    st_d = sorted(((c - st0.get(q, (0, 0))[0], r - st0.get(q, (0, 0))[1], q)
                   for q, (c, r) in st1.items()), reverse=True)
    return {"n": n, "elapsed": elapsed, "lat": lat, "errors": sum(r[1] for r in results),
            "seen": sum(r[2] for r in results), "conns": conns, "per_conn": per_conn,
            "pubs": redis_d.get("publish", 0) / per, "commits": pg_d["xact_commit"] / per,
            "redis": {k: v / per for k, v in sorted(redis_d.items())},
            "pg": {k: v / per for k, v in pg_d.items() if v >= 0},
            "cpu_ms": 1e3 * cpu / per, "stored": stored, "bad": bad,
            "processes": n_servers, "tables": a.tables, "cpu_share": [c / elapsed for c in cpus],
            "rss_mib": [r / 1024 for r in rss],
            "statements": [(c / per, r / elapsed, q) for c, r, q in st_d if c > 0][:8]}


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
    k = m["processes"]
    print(f"  per process: {m['tables'] / k:.0f} tables, {m['conns'] / k:.0f} connections, "
          + ", ".join(f"{100 * c:.0f}% of a core, {r:.0f} MiB RSS"
                      for c, r in zip(m["cpu_share"], m["rss_mib"], strict=True)))
    if m["redis"]:
        print("  Redis calls per intent: " + ", ".join(
            f"{c} {v:.2f}" for c, v in m["redis"].items()))
    print("  PostgreSQL per intent: " + ", ".join(f"{c} {v:.2f}" for c, v in m["pg"].items()))
    for calls, rows, query in m["statements"]:  # the most frequent statements of the play
        print(f"    {calls:6.2f} calls/intent {rows:8.1f} rows/s  {query}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--tables", type=int, default=GOAL_TABLES)
    ap.add_argument("--spectators", type=int, default=GOAL_SPECTATORS)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--think", type=float, default=0.5,
                    help="seconds a player takes to play (0.5-1.5 x this)")
    ap.add_argument("--variant", default="tute_parejas",
                    help="the tables' game: every seat a client (default four-player parejas)")
    ap.add_argument("--procs", type=int, default=2, help="client processes (1-8)")
    ap.add_argument("--database-url")
    ap.add_argument("--redis-url")
    ap.add_argument("--site-only", action="store_true",
                    help="skip the one-process reference run (half the time)")
    a = ap.parse_args()
    a.tables = max(1, min(a.tables, 2000))
    a.spectators = max(0, min(a.spectators, 4000))
    a.seconds = max(1.0, min(a.seconds, 300.0))
    a.procs = max(1, min(a.procs, 8))
    stack: list[Any] = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            dbs, rurl = start_backends(a, Path(tmp), stack)
            ref = None if a.site_only else measure(a, dbs[0], None, tmp)
            site = measure(a, dbs[1], rurl, tmp)
    finally:
        for undo in reversed(stack):
            undo()
    print(f"{a.tables} tables of {a.variant}, {a.spectators} spectators, think {a.think:g} s, "
          f"{a.seconds:g} s of play; the site relays every second seat of every table")
    if ref is not None:
        report("reference, one process on PostgreSQL", ref)
    report("site, two processes on PostgreSQL and Redis", site)
    p99 = pct(site["lat"], 99)
    if ref is not None:
        ref99 = pct(ref["lat"], 99)
        print(f"site / reference: p50 "
              f"x{pct(site['lat'], 50) / max(pct(ref['lat'], 50), 1e-9):.2f}, p99 "
              f"x{p99 / max(ref99, 1e-9):.2f}, CPU per intent "
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
