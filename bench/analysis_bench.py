"""Analysis figures (``tute analyze``, docs/analysis.md) on seeded Tute por parejas deals played
by ``rules`` bots (seeds 1..N).

* double dummy: a whole deal analysed with the exact measure (every decision's best and loss)
  against one exact solve of its first position, both with a fresh one-thread solver of the
  same size: the ratio per deal, and its median. Goal: median <= 2x.
* search: a whole deal analysed with the pimc measure at its default budget (32 worlds a
  decision, no time cap) and the double-dummy one. Goal: <= 60 s a deal.

Times are wall-clock: a busy machine inflates them (the ratio less so).

    .venv/bin/python bench/analysis_bench.py [--deals 9] [--search-deals 3] [--worlds 32]
        [--repeat 3]
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import tute
from tute.analysis import DEFAULT_WORLDS, analyze_deals
from tute.bots import make_bot
from tute.solver import Solver


def played(seed: int) -> tute.Deal:
    deal = tute.Deal.new("tute_parejas", seed=seed)
    bots = [make_bot("rules", seed=seed * 10 + s) for s in range(4)]
    while not deal.is_over():
        seat = deal.to_move
        assert seat is not None
        view = deal.view(seat)
        deal.apply(bots[seat].choose(view, view.legal_actions))
    return deal


def first_position(deal: tute.Deal) -> tute.Deal:
    start = deal.copy()
    while start.actions:
        start.undo()
    return start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=9, help="deals for the double-dummy ratio")
    ap.add_argument("--search-deals", type=int, default=3, help="deals for the search measure")
    ap.add_argument("--worlds", type=int, default=DEFAULT_WORLDS)
    ap.add_argument("--tt-mb", type=int, default=64)
    ap.add_argument("--repeat", type=int, default=3,
                    help="runs of each double-dummy figure (the least is kept)")
    args = ap.parse_args()

    solver = Solver(tt_mb=args.tt_mb, threads=1)
    t0 = time.perf_counter()
    solver.value(first_position(played(0)))  # numba's compile or cache load, off the clock
    print(f"numba load / compile + a warm-up solve: {time.perf_counter() - t0:.1f} s")

    print(f"\ndouble dummy, {args.deals} parejas deals played by rules bots:")
    ratios = []
    for seed in range(1, args.deals + 1):
        deal = played(seed)
        # each figure the least of --repeat runs, the two alternated: a shared machine's
        # hiccups only ever add time, and one in a few-millisecond solve moves a ratio a lot
        solve = whole = math.inf
        for _ in range(args.repeat):
            solver.reset()
            t0 = time.perf_counter()
            solver.value(first_position(deal))
            solve = min(solve, time.perf_counter() - t0)
            solver.reset()
            t0 = time.perf_counter()
            rep = analyze_deals([deal], worlds=0, dd_solver=solver)
            whole = min(whole, time.perf_counter() - t0)
        ratios.append(whole / solve)
        print(f"  seed {seed:3d}: first position {solve * 1e3:7.1f} ms, whole deal "
              f"{whole * 1e3:7.1f} ms ({len(rep.decisions)} decisions): {whole / solve:5.2f}x")
    print(f"  median ratio {statistics.median(ratios):.2f}x (goal <= 2x), "
          f"max {max(ratios):.2f}x")

    print(f"\nsearch measure, {args.worlds} worlds a decision, {args.search_deals} deals:")
    secs = []
    for seed in range(1, args.search_deals + 1):
        deal = played(seed)
        t0 = time.perf_counter()
        rep = analyze_deals([deal], worlds=args.worlds)
        secs.append(time.perf_counter() - t0)
        slowest = max(rep.decisions, key=lambda d: d.worlds)  # (all take the full budget)
        print(f"  seed {seed:3d}: {secs[-1]:6.1f} s for {len(rep.decisions)} decisions "
              f"({slowest.worlds} worlds each)")
    if secs:
        print(f"  median {statistics.median(secs):.1f} s a deal, max {max(secs):.1f} s "
              "(goal <= 60 s)")


if __name__ == "__main__":
    main()
