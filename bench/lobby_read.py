"""The cluster's once-a-second lobby read: every unfinished table (before) against the newest
public ones of each status (``Store.lobby_rows``, after), on a throwaway PostgreSQL holding
``--tables`` public games being played and as many private ones. Prints the median CPU and
wall time of each read (the CPU is what the server's event loop competes with for the GIL)
and their ratio, measured in the same run.

    .venv/bin/python bench/lobby_read.py --tables 1000 --repeat 30
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from tute.server.cluster import LOBBY_ROWS  # noqa: E402
from tute.server.store import Store, TableRow  # noqa: E402


def _row(i: int, public: bool) -> TableRow:
    seats = [{"kind": "human", "name": f"P{i}-{k}", "level": "medio", "token_hash": "x" * 64}
             for k in range(4)]
    return TableRow(id=f"t{i:06d}{int(public)}", code=f"C{i:06d}{int(public)}",
                    variant="tute_parejas", options={"games_to_win": 2}, seed=i,
                    first_dealer=0, seats=seats, host=0, public=public, status="playing",
                    version=40, result=None, created_at=float(i), finished_at=None)


def _timed(read: Callable[[], object], repeat: int) -> tuple[float, float, int]:
    cpu, wall, n = [], [], 0
    for _ in range(repeat):
        c0, w0 = time.process_time(), time.perf_counter()
        got = read()
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
        n = len(got) if isinstance(got, list) else 0
    return statistics.median(cpu) * 1000, statistics.median(wall) * 1000, n


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=1000)
    p.add_argument("--repeat", type=int, default=30)
    a = p.parse_args()
    from tests.server.conftest import PostgresServer, ThrowawayPostgres, _postgres_bindir

    bindir = _postgres_bindir()
    if bindir is None:
        raise SystemExit("no PostgreSQL: install postgresql")
    pg = ThrowawayPostgres(bindir)
    try:
        store = Store(PostgresServer(pg.start()).create_database())
        store.start()
        for i in range(a.tables):
            for public in (True, False):
                asyncio.run(store.write(Store.op_create(replace(_row(i, public)))))
        before = _timed(store.live_tables, a.repeat)
        after = _timed(lambda: store.lobby_rows(LOBBY_ROWS), a.repeat)
        store.close()
    finally:
        pg.stop()
    print(f"{a.tables} public + {a.tables} private games being played, median of {a.repeat}")
    for name, (cpu, wall, n) in (("every unfinished table", before),
                                 (f"lobby_rows({LOBBY_ROWS})", after)):
        print(f"  {name:24s} {n:6d} rows  {cpu:7.2f} ms CPU  {wall:7.2f} ms wall")
    print(f"  ratio (before / after): CPU x{before[0] / max(after[0], 1e-6):.1f}, "
          f"wall x{before[1] / max(after[1], 1e-6):.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
