"""What cutting puzzles costs with the stock phase searched, by stock limit.

For each variant and each stock limit (0 first: the arrastre alone, the reference of the same
run) the same ``--deals`` self-play deals (``selfplay:VARIANT``, seed ``--seed``) are cut with
the puzzles' default settings and ``stock_limit`` set. Prints the seconds per deal, the
puzzles found, how many of them are stock-phase positions, and the time per deal against the
limit 0's. Wall-clock on a busy machine: compare the ratios.

    .venv/bin/python bench/puzzles_stock.py [--variants tute_2p_habanero,guinote]
        [--limits 0,4,6] [--deals 20] [--seed 0]
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from tute.puzzles.make import Settings, cut_deal, deals_from, puzzle_solver


def measure(variant: str, limit: int, deals: int, seed: int) -> tuple[float, int, int]:
    """Seconds per deal, puzzles, stock-phase puzzles."""
    settings = Settings(stock_limit=limit, seed=seed)
    solver = puzzle_solver(settings)
    found = stock = 0
    t0 = time.perf_counter()
    for deal, source in itertools.islice(deals_from(f"selfplay:{variant}", seed), deals):
        for p in cut_deal(deal, solver, settings, source):
            found += 1
            stock += p.position().stock_count > 0
    return (time.perf_counter() - t0) / deals, found, stock


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variants", default="tute_2p_habanero,tute_2p_corriente,guinote_2p,"
                    "guinote")
    ap.add_argument("--limits", default="0,4,6")
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    limits = [int(x) for x in args.limits.split(",")]
    measure(args.variants.split(",")[0], min(limits), 1, args.seed + 999)  # numba's load
    print(f"{args.deals} self-play deals per variant, default settings, one thread")
    for variant in args.variants.split(","):
        base = None
        for limit in limits:
            per, found, stock = measure(variant, limit, args.deals, args.seed)
            base = base or per
            print(f"{variant:<18} stock_limit {limit:2d}  {per:7.2f} s/deal  puzzles {found:3d}"
                  f"  in the stock {stock:3d}  time / limit {limits[0]}'s {per / base:5.2f}x",
                  flush=True)


if __name__ == "__main__":
    main()
