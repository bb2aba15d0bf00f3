"""World sampling throughput (tute.worlds): how fast a search bot gets its worlds.

For Tute por parejas and Tute habanero, at three points of a deal (the first lead, mid-deal,
late), it builds the sampler from the seat's view (its knowledge and counting tables: once per
decision), then samples worlds as data (``sample``) and as replayed deals ready to search
(``deal``). Each figure is the median over several deals and repeats; the goal is 100 worlds
per decision, set-up included, in well under 100 ms.

    .venv/bin/python bench/worlds_bench.py
    .venv/bin/python bench/worlds_bench.py --deals 10 --repeats 5 --worlds 100 --json
    .venv/bin/python bench/worlds_bench.py --variant tute_arrastrado_3p --variant guinote

This is a benchmark, not a test: it always exits 0 unless it cannot run at all.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import tute
from tute.worlds import WorldSampler

GOAL_MS = 100.0
POINTS = {"first lead": 0.0, "mid-deal": 0.5, "late": 0.8}


def position(variant: str, seed: int, fraction: float) -> tuple[tute.Deal, int]:
    """A card decision after ``fraction`` of the deal's 40 card plays (random legal play with
    cantes and exchanges taken); another seed when the deal ends first (a tute)."""
    for attempt in range(100):
        deal = tute.Deal.new(variant, seed=seed + 7919 * attempt)
        rng = random.Random(seed)
        target = int(fraction * 40)
        played = 0
        while not deal.is_over():
            acts = deal.legal_actions()
            cards = [a for a in acts if isinstance(a, tute.Card)]
            if played >= target and len(cards) > 1:
                assert deal.to_move is not None
                return deal, deal.to_move
            special = [a for a in acts if not isinstance(a, tute.Card) and a is not tute.PASS]
            act = special[0] if special and rng.random() < 0.8 else rng.choice(acts)
            played += isinstance(act, tute.Card)
            deal.apply(act)
    raise RuntimeError("no position found")


def measure(variant: str, fraction: float, deals: int, repeats: int, worlds: int
            ) -> dict[str, float]:
    setup, per_sample, per_deal, decision = [], [], [], []
    for seed in range(deals):
        deal, seat = position(variant, 1000 + seed, fraction)
        view = deal.view(seat)
        for r in range(repeats):
            rng = random.Random(r)
            t0 = time.perf_counter()
            sampler = WorldSampler(view)
            sampler.count()
            t1 = time.perf_counter()
            for _ in range(worlds):
                sampler.sample(rng)
            t2 = time.perf_counter()
            for _ in range(worlds):
                sampler.deal(rng)
            t3 = time.perf_counter()
            setup.append((t1 - t0) * 1e3)
            per_sample.append((t2 - t1) / worlds * 1e6)
            per_deal.append((t3 - t2) / worlds * 1e6)
            decision.append((t1 - t0 + t3 - t2) * 1e3)
    med = statistics.median
    return {
        "setup_ms": med(setup),
        "sample_us": med(per_sample),
        "deal_us": med(per_deal),
        "samples_per_s": 1e6 / med(per_sample),
        "deals_per_s": 1e6 / med(per_deal),
        "decision_ms": med(decision),
        "decision_ms_max": max(decision),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", action="append", help="variants (default parejas, habanero)")
    ap.add_argument("--deals", type=int, default=8, help="deals per point")
    ap.add_argument("--repeats", type=int, default=3, help="timed repeats per deal")
    ap.add_argument("--worlds", type=int, default=100, help="worlds per decision")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    variants = args.variant or ["tute_parejas", "tute_2p_habanero"]
    results: list[dict[str, Any]] = []
    for variant in variants:
        for name, fraction in POINTS.items():
            fig = measure(variant, fraction, args.deals, args.repeats, args.worlds)
            results.append({"variant": variant, "point": name, **fig})
    if args.json:
        print(json.dumps({"python": platform.python_version(), "worlds": args.worlds,
                          "results": results}, indent=2))
        return 0
    print(f"tute.worlds, Python {platform.python_version()}, medians over {args.deals} deals "
          f"x {args.repeats} repeats; {args.worlds} worlds per decision")
    print(f"{'variant':18} {'point':11} {'set-up ms':>9} {'sample/s':>9} {'deal/s':>8} "
          f"{'decision ms':>11} {'(max)':>7}")
    for r in results:
        print(f"{r['variant']:18} {r['point']:11} {r['setup_ms']:9.2f} {r['samples_per_s']:9.0f} "
              f"{r['deals_per_s']:8.0f} {r['decision_ms']:11.1f} {r['decision_ms_max']:7.1f}")
    worst = max(r["decision_ms"] for r in results)
    verdict = "meets" if worst < GOAL_MS else "misses"
    print(f"set-up + {args.worlds} replayed deals: worst median {worst:.1f} ms per decision "
          f"({verdict} the {GOAL_MS:.0f} ms goal)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
