"""Exact-solver figures on a fixed set of 200 seeded deals (seeds 0..199).

* full Tute por parejas deal (10 tricks, 40 cards) from the first lead: exact value;
* "does side 0 win?" from the first lead (one zero-window probe);
* two-player arrastre endgame (8 cards each, tute_2p_habanero, reached by random play of
  the stock phase with a fixed seed).

Prints median / p90 / p99 / max per query, nodes/s, and the numba compile (or cache load)
time separately. Goals: full deal median <= 20 ms, p99 <= 250 ms; win query median <= 2 ms;
2p endgame median <= 1 ms. Times are wall-clock; the solver searches each probe with
``--threads`` threads (default: the solver's, 2 on a machine with two cores) and the full
deal is also run with one thread for comparison. A busy machine inflates the times; the
node counts are what to compare between versions.

    .venv/bin/python bench/solver_bench.py [--deals 200] [--tt-mb 64] [--threads N]
    .venv/bin/python bench/solver_bench.py --dds 3      # the ratio to DDS, three rounds

``--dds R`` measures beside the bridge double-dummy solver DDS (bundled with OpenSpiel, timed
by ``../shared/tools/dds_bench.py`` in the ``.osvenv`` interpreter that ``playouts.py`` sets
up): R rounds of DDS's per-solve median then this solver's full-deal median, alternating so
that the machine's load hits both, and the ratio of each round (goal: median <= 1.5x).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import tute
from tute.solver import Solver


def dist(label: str, ms: list[float], nodes: list[int], goal: str) -> None:
    s = sorted(ms)
    p = lambda q: s[min(len(s) - 1, int(q * len(s)))]  # noqa: E731
    rate = sum(nodes) / (sum(ms) / 1e3) if sum(ms) else 0.0
    print(f"{label:<34} median {statistics.median(s):8.3f} ms  p90 {p(0.9):8.3f}  "
          f"p99 {p(0.99):8.3f}  max {s[-1]:8.3f}  | {rate / 1e6:5.2f} M nodes/s, "
          f"median {statistics.median(nodes):,.0f} nodes  | {goal}")


def timed(solver: Solver, deals: list[tute.Deal],
          fn: Callable[[tute.Deal], object]) -> tuple[list[float], list[int]]:
    ms, nodes = [], []
    for d in deals:
        solver.reset()
        t0 = time.perf_counter()
        fn(d)
        ms.append((time.perf_counter() - t0) * 1e3)
        nodes.append(solver.nodes)
    return ms, nodes


def arrastre_endgame(seed: int) -> tute.Deal:
    rng = random.Random(seed)
    deal = tute.Deal.new("tute_2p_habanero", seed=seed)
    while deal.in_stock_phase or deal._pile.pending or (
            deal._phase == 1 and deal._queue[0][1] != "cante"):
        acts = deal.legal_actions()
        deal.apply(acts[rng.randrange(len(acts))])
    return deal


ROOT = Path(__file__).resolve().parent.parent
DDS_TOOL = ROOT.parent / "shared" / "tools" / "dds_bench.py"


def dds_per_solve(python: str, deals: int) -> float | None:
    """DDS's median milliseconds per solve (its 20-solve table / 20), or None."""
    try:
        out = subprocess.run([python, str(DDS_TOOL), "--deals", str(deals)], capture_output=True,
                             text=True, timeout=1800, check=True).stdout
        return float(json.loads(out.strip().splitlines()[-1])["dds_per_solve_ms_median"])
    except (OSError, subprocess.SubprocessError, ValueError, KeyError, IndexError) as exc:
        print(f"DDS reference not available ({type(exc).__name__}: {exc}); see "
              "bench/README.md for the .osvenv", file=sys.stderr)
        return None


def dds_ratio(args: argparse.Namespace, solver: Solver, single: Solver,
              parejas: list[tute.Deal]) -> None:
    rows = []
    for r in range(args.dds):
        dds = dds_per_solve(args.openspiel_python, args.dds_deals)
        if dds is None:
            return
        med = statistics.median(timed(solver, parejas, solver.value)[0])
        med1 = (statistics.median(timed(single, parejas, single.value)[0])
                if solver.threads != 1 else med)
        rows.append((dds, med, med1))
        print(f"round {r + 1}: DDS {dds:.2f} ms per solve; full parejas deal median "
              f"{med:.2f} ms ({solver.threads} thr) = {med / dds:.2f}x, {med1:.2f} ms "
              f"(1 thr) = {med1 / dds:.2f}x")
    ratio = statistics.median(m / d for d, m, _ in rows)
    ratio1 = statistics.median(m / d for d, _, m in rows)
    print(f"ratio to DDS per solve, median of {len(rows)} rounds: {ratio:.2f}x with "
          f"{solver.threads} threads, {ratio1:.2f}x with one (goal <= 1.5x)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--tt-mb", type=int, default=64)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--dds", type=int, default=0, metavar="R",
                    help="rounds of the ratio to DDS (0: none)")
    ap.add_argument("--dds-deals", type=int, default=40)
    ap.add_argument("--openspiel-python", default=str(ROOT / ".osvenv" / "bin" / "python"))
    args = ap.parse_args()
    solver = Solver(tt_mb=args.tt_mb, threads=args.threads)
    single = Solver(tt_mb=args.tt_mb, threads=1)
    t0 = time.perf_counter()
    # a whole deal, so that the threaded search compiles here too (it starts at 24 cards;
    # on a fresh machine it once compiled inside the first timed deal: 7.2 s)
    warm = tute.Deal.new("tute_parejas", seed=10**6)
    for s in (solver, single):
        s.value(warm)
        s.wins(warm, 0)
    print(f"numba compile/cache load: {time.perf_counter() - t0:.2f} s "
          f"(TT {solver.tt_bytes / 2**20:.0f} MB, {solver.threads} threads)")
    parejas = [tute.Deal.new("tute_parejas", seed=s) for s in range(args.deals)]
    ends = [arrastre_endgame(s) for s in range(args.deals)]
    assert all(len(d.hand(0)) == 8 for d in ends if not d.is_over())
    ms, nodes = timed(solver, parejas, solver.value)
    dist(f"parejas full deal, exact, {solver.threads} thr", ms, nodes,
         "goal median <= 20, p99 <= 250")
    if solver.threads != 1:
        ms, nodes = timed(single, parejas, single.value)
        dist("parejas full deal, exact, 1 thr", ms, nodes, "(one thread, for comparison)")
    if args.dds:
        dds_ratio(args, solver, single, parejas)
    ms, nodes = timed(solver, parejas, lambda d: solver.wins(d, 0))
    dist("parejas 'side 0 wins?' first lead", ms, nodes, "goal median <= 2")
    ms, nodes = timed(solver, ends, solver.value)
    dist("2p arrastre endgame (8 cards each)", ms, nodes, "goal median <= 1")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
