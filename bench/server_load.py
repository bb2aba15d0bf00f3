"""Load benchmark of `tute serve`: N concurrent bot-vs-bot tables played by real WebSocket
clients on loopback.

It starts the server in a subprocess on a free 127.0.0.1 port (its own temporary data dir, the
default SQLite storage with a synced commit per batch), creates N two-player tables
(``tute_2p_habanero`` by default), joins both seats of each, and lets one client per seat play
random legal actions, each after a random pause around ``--think`` seconds (0: as fast as the
server answers, a saturation test). For each intent it measures the time from
sending it to receiving the broadcast update that contains it, and prints intents/s and the
p50/p99 latency. Bounded: at most 1000 tables and ``--seconds`` of play (default 20).

    .venv/bin/python bench/server_load.py --tables 200 --seconds 20

Goal: 200 concurrent tables with p99 <= 100 ms on a 2-core machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.errors = 0
        self.games = 0


async def seat_client(url: str, token: str, seed: int, stop: float, stats: Stats,
                      think: float) -> None:
    rng = random.Random(seed)
    async with connect(url, max_size=2**20) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        welcome = json.loads(await ws.recv())
        seat, state, v = welcome["seat"], welcome["state"], welcome["v"]
        sent_at: float | None = None
        while time.monotonic() < stop and not state["over"]:
            if state["deal"]["to_move"] == seat and sent_at is None:
                if think:
                    await asyncio.sleep(rng.uniform(0.5, 1.5) * think)  # a player's pace
                legal = state["deal"]["legal_actions"]
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "v": v,
                                          "action": legal[rng.randrange(len(legal))]}))
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop - time.monotonic()))
            except TimeoutError:
                break
            m = json.loads(raw)
            if m["type"] == "update":
                state, v = m["state"], m["v"]
                if m["seat"] == seat and sent_at is not None:
                    stats.latencies.append(time.perf_counter() - sent_at)
                    sent_at = None
            elif m["type"] == "error":
                stats.errors += 1
                sent_at = None
        if state["over"]:
            stats.games += 1


async def run(base: str, tables: int, seconds: float, variant: str, think: float) -> Stats:
    stats = Stats()
    seats: list[tuple[str, str]] = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        for _ in range(tables):
            r = (await http.post("/api/tables", json={
                "variant": variant, "seats": ["you", "open"], "name": "A"})).json()
            j = (await http.post(f"/api/tables/{r['id']}/join", json={"name": "B"})).json()
            seats += [(r["id"], r["token"]), (r["id"], j["token"])]
    ws_base = base.replace("http", "ws")
    stop = time.monotonic() + seconds
    start = time.perf_counter()
    await asyncio.gather(*(seat_client(f"{ws_base}/ws/{tid}", tok, i, stop, stats, think)
                           for i, (tid, tok) in enumerate(seats)))
    stats.elapsed = time.perf_counter() - start  # type: ignore[attr-defined]
    return stats


def pct(xs: list[float], p: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(p / 100 * len(s)))] * 1000 if s else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--variant", default="tute_2p_habanero")
    ap.add_argument("--think", type=float, default=0.25,
                    help="mean seconds a client waits before acting (0: as fast as possible)")
    a = ap.parse_args()
    tables = max(1, min(a.tables, 1000))
    seconds = max(1.0, min(a.seconds, 300.0))
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
        env.pop("TUTE_DATABASE_URL", None)
        proc = subprocess.Popen(
            [sys.executable, "-m", "tute.server", "--host", "127.0.0.1", "--port", str(port),
             "--data-dir", data, "--log-level", "warning", "--max-tables", "2000",
             "--create-per-minute", "100000", "--ws-rate", "1000", "--bot-timeout", "3600"],
            env=env)
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(200):
                try:
                    if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            stats = asyncio.run(run(base, tables, seconds, a.variant, max(0.0, a.think)))
        finally:
            proc.terminate()
            proc.wait(10)
    n = len(stats.latencies)
    elapsed = stats.elapsed  # type: ignore[attr-defined]
    print(f"tables: {tables} ({a.variant}), clients: {2 * tables}, think: {a.think:g} s, "
          f"play time: {elapsed:.1f} s")
    print(f"intents accepted: {n}  ({n / elapsed:.0f} intents/s), errors: {stats.errors}, "
          f"matches finished: {stats.games // 2}")
    print(f"latency intent -> broadcast: p50 {pct(stats.latencies, 50):.1f} ms, "
          f"p90 {pct(stats.latencies, 90):.1f} ms, p99 {pct(stats.latencies, 99):.1f} ms, "
          f"max {pct(stats.latencies, 100):.1f} ms")
    ok = n > 0 and pct(stats.latencies, 99) <= 100
    print(f"goal (p99 <= 100 ms at 200 tables): {'met' if ok and tables >= 200 else 'not met'}")


if __name__ == "__main__":
    main()
