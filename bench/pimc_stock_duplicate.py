"""pimc with solved stock leaves against today's pimc (rollouts in the whole stock phase), on
duplicate deals.

Each deal is played twice with the same cards, the two bots exchanging seats; the figure per
deal is the mean point margin of ``A`` (``pimc`` with ``stock_solve=N``: worlds with at most
N cards in the stock solved exactly, the stock's order known) over ``B`` (``pimc`` with
``stock_solve=0``: rollouts until the arrastre) over both seatings. Prints the mean margin
with its 95% interval, and per bot the median and p99 time of a decision, over all its
decisions and over those with 1..N cards in the stock (where the two bots differ).

    .venv/bin/python bench/pimc_stock_duplicate.py --pairs 20 --move-time 0.1   # ~5 min
    .venv/bin/python bench/pimc_stock_duplicate.py --pairs 1000 --move-time 1  # the real run

A benchmark, not a test: a short run's interval is wide.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import tute
from tute.arena import interval
from tute.bots import make_bot
from tute.bots.pimc import objective


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))] if s else float("nan")


def play(variant: str, seed: int, specs: list[str], bot_seed: int,
         times: dict[str, list[float]], stock_times: dict[str, list[float]],
         solve: int) -> tute.Deal:
    deal = tute.Deal.new(variant, seed=seed)
    bots = [make_bot(spec, seed=bot_seed + s) for s, spec in enumerate(specs)]
    while not deal.is_over():
        seat = deal.to_move
        assert seat is not None
        view = deal.view(seat)
        t0 = time.perf_counter()
        act = bots[seat].choose(view, view.legal_actions)
        ms = (time.perf_counter() - t0) * 1e3
        if len(view.legal_actions) > 1:
            times[specs[seat]].append(ms)
            if 0 < deal.stock_count <= solve:
                stock_times[specs[seat]].append(ms)
        deal.apply(act)
    return deal


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="tute_2p_habanero")
    ap.add_argument("--pairs", type=int, default=20, help="duplicate deals")
    ap.add_argument("--move-time", type=float, default=0.1)
    ap.add_argument("--stock-solve", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    a = f"pimc:move_time={args.move_time}:stock_solve={args.stock_solve}"
    b = f"pimc:move_time={args.move_time}:stock_solve=0"
    times: dict[str, list[float]] = {a: [], b: []}
    stock_times: dict[str, list[float]] = {a: [], b: []}
    margins: list[float] = []
    warm = tute.Deal.new(args.variant, seed=0)  # numba's compile or cache load, untimed
    make_bot(a, seed=0).choose(warm.view(warm.to_move or 0), warm.legal_actions())
    from tute.solver import Solver

    while (Solver.in_stock(warm) and warm.stock_count > 2) or warm.trick:
        warm.apply(warm.legal_actions()[0])
    Solver(tt_mb=1, threads=1, stock_limit=28).value(warm)
    for i in range(args.pairs):
        seed = args.seed * 100_003 + i
        pair = 0.0
        for seating in ([a, b], [b, a]):
            deal = play(args.variant, seed, seating, seed, times, stock_times,
                        args.stock_solve)
            pair += objective(deal, seating.index(a)) / 2
        margins.append(pair)
        ci = interval(margins)
        print(f"pair {i + 1}: {pair:+.1f}  running mean {ci.mean:+.2f} "
              f"[{ci.low:+.2f}, {ci.high:+.2f}]", file=sys.stderr, flush=True)
    ci = interval(margins)
    print(f"{args.variant}: A = {a} vs B = {b}, {args.pairs} duplicate deals")
    print(f"margin A-B per deal: {ci.mean:+.2f} points [95% CI {ci.low:+.2f}, {ci.high:+.2f}]")
    for name, label in ((a, "A"), (b, "B")):
        t, st = times[name], stock_times[name]
        print(f"{label}: decisions {len(t)}, median {statistics.median(t):.1f} ms, "
              f"p99 {pct(t, 0.99):.1f} ms | stock 1..{args.stock_solve}: {len(st)} decisions, "
              f"median {statistics.median(st) if st else float('nan'):.1f} ms, "
              f"p99 {pct(st, 0.99):.1f} ms")


if __name__ == "__main__":
    main()
