"""Kernel random-playout throughput (numba, one core) beside OpenSpiel's C++ skat.

Plays the same fixed set of 200 seeded Tute por parejas deals (seeds 0..199) over and over
with uniformly random legal actions (cards, declarations, passes), like the core's random
bot, and prints deals/s; in the same run it measures OpenSpiel's skat through
``../shared/tools/openspiel_bench.py`` in ``.osvenv`` (helpers of ``bench/playouts.py``).
Goal: >= 500,000 parejas deals/s.

    .venv/bin/python bench/kernel_playouts.py [--seconds 3] [--repeats 5] [--no-reference]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import playouts as ref

ref.REFERENCE_GAMES = ("skat",)
GOAL = 500_000.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--no-reference", action="store_true")
    args = ap.parse_args()
    tute = ref.import_tute()
    from tute import kernel

    starts, cfgs = [], []
    for seed in range(200):
        cfg, st = kernel.from_deal(tute.Deal.new("tute_parejas", seed=seed))
        starts.append(st)
        cfgs.append(cfg)
    S, C = np.array(starts), np.array(cfgs)
    t0 = time.perf_counter()
    kernel.playout_batch(S, C, 1, 0)
    print(f"numba compile/load: {time.perf_counter() - t0:.2f} s")
    rates = []
    for rep in range(args.repeats):
        reps = 50
        done = 0
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < args.seconds:
            out = kernel.playout_batch(S, C, reps, rep * 1000 + done)
            done += int(out[0])
        rates.append(done / (time.perf_counter() - t0))
    rate = statistics.median(rates)
    print(f"kernel parejas random playouts: {rate:,.0f} deals/s (median of {args.repeats}; "
          f"{out[1] / out[0]:.1f} actions/deal; goal >= {GOAL:,.0f}: "
          f"{'met' if rate >= GOAL else 'NOT met'})")
    if not args.no_reference:
        python, why = ref.ensure_osvenv(ref.DEFAULT_OSVENV)
        if python is None:
            print(f"OpenSpiel reference unavailable: {why}")
        else:
            row = ref.reference_round(python, ref.DEFAULT_TOOL, args.seconds, 1)["skat"]
            print(f"OpenSpiel skat (C++ from Python): {row['games_per_s']:,.0f} games/s "
                  f"({row['actions_per_game']:.1f} actions/game); kernel/skat = "
                  f"{rate / row['games_per_s']:.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
