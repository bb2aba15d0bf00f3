"""Exact solves of the stock phase (the stock's order known) by stock size.

For each stock size (0, 2, 4, ...: cards left in the stock at the start of a trick; 0 is the
arrastre, the numba search alone: the post-stock reference of the same run) the positions
of ``--deals`` seeded deals played by ``rules`` bots up to that size, each solved from an
empty table (``Solver(stock_limit=size).value``). Prints the median and p99 time, the median
nodes (the stock search's Python nodes plus the numba search's) and the median's ratio to
size 0's. A size whose slowest solve passes ``--cap`` seconds is the last one measured.
Times are wall-clock on a busy machine; the nodes are what to compare between versions.

    .venv/bin/python bench/stock_solve.py [--variant tute_2p_habanero] [--deals 30]
        [--sizes 0,2,4,6,8] [--cap 20]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import tute
from tute.bots import make_bot
from tute.solver import Solver


def _trick_start(deal: tute.Deal, size: int) -> bool:
    """A trick to lead (no poll: a poll's last action is a pass) with at most ``size`` cards
    in the stock."""
    return (deal.stock_count <= size and not deal.trick
            and isinstance(deal.legal_actions()[-1], tute.Card))


def positions(variant: str, deals: int, size: int) -> list[tute.Deal]:
    """The position of each seeded deal when its stock first holds ``size`` cards or fewer
    at a trick start with a card to play (rules bots for both seats)."""
    out = []
    for seed in range(deals):
        deal = tute.Deal.new(variant, seed=seed)
        bots = [make_bot("rules", seed=seed * 7 + s) for s in range(deal.seats)]
        while not deal.is_over() and not _trick_start(deal, size):
            seat = deal.to_move
            assert seat is not None
            view = deal.view(seat, history=False)
            deal.apply(bots[seat].choose(view, view.legal_actions))
        if not deal.is_over():
            out.append(deal)
    return out


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="tute_2p_habanero")
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--sizes", default="0,2,4,6,8")
    ap.add_argument("--cap", type=float, default=20.0, help="seconds: the slowest solve of "
                    "a size past this ends the run")
    ap.add_argument("--tt-mb", type=int, default=16)
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    warm = Solver(tt_mb=args.tt_mb, threads=1, stock_limit=2)
    warm.value(positions(args.variant, 1, 2)[0])  # numba's compile or cache load
    print(f"{args.variant}: {args.deals} deals per size, one thread, an empty table per solve")
    base = None
    for size in sizes:
        ms: list[float] = []
        nodes: list[int] = []
        solver = Solver(tt_mb=args.tt_mb, threads=1, stock_limit=size)
        for deal in positions(args.variant, args.deals, size):
            solver.reset()
            t0 = time.perf_counter()
            solver.value(deal)
            ms.append((time.perf_counter() - t0) * 1e3)
            nodes.append(solver.nodes)
        if not ms:
            continue
        med = statistics.median(ms)
        base = base or med
        label = "arrastre (post-stock)" if size == 0 else f"stock {size:2d}"
        print(f"{label:<22} n={len(ms):3d}  median {med:10.2f} ms  p99 {pct(ms, 0.99):10.2f} ms"
              f"  median nodes {statistics.median(nodes):>10,.0f}  "
              f"median / arrastre's {med / base:8.1f}x", flush=True)
        if max(ms) > args.cap * 1e3:
            print(f"(stopped: a solve of stock {size} took {max(ms) / 1e3:.1f} s > --cap)")
            break


if __name__ == "__main__":
    main()
