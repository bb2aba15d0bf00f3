"""Strength and speed of the ``rules`` bot: ``rules`` against ``random`` on duplicate deals.

Every deal is played twice with the same cards, the line-ups exchanging seats; the figure per
deal is the mean of the rules side's point margin over both seatings. Prints, per variant, the
mean margin with its 95% interval (which must exclude zero), the win rate with its interval
and the milliseconds per decision of each bot.

    .venv/bin/python bench/bot_strength.py                   # 500 duplicate deals per variant
    .venv/bin/python bench/bot_strength.py --deals 2000 --variants tute_parejas guinote
    .venv/bin/python bench/bot_strength.py --bots rules rules --json

This is a benchmark, not a test: it exits 0 unless it cannot run at all.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

try:
    import tute
except ModuleNotFoundError:  # run from a checkout without the venv
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
    import tute

from tute.arena import selfplay


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=500, help="duplicate deals per variant")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bots", nargs=2, default=["rules", "random"], metavar=("A", "B"))
    ap.add_argument("--variants", nargs="*", default=None)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    variants = args.variants or list(tute.VARIANTS)
    results = []
    for vid in variants:
        print(f"# {vid} …", file=sys.stderr, flush=True)
        results.append(selfplay(args.bots, vid, deals=args.deals, seed=args.seed,
                                duplicate=True))
    if args.json:
        print(json.dumps([r.to_json() for r in results], indent=1))
        return
    a, b = args.bots
    print(f"{a} (A) vs {b} (B), {args.deals} duplicate deals per variant, seed {args.seed}")
    head = (f"{'variant':<20} {'margin A−B [95% CI]':>28} {'excl. 0':>8} "
            f"{'A win rate [95% CI]':>26} {'ms/dec ' + a:>14} {'ms/dec ' + b:>14}")
    print(head)
    print("-" * len(head))
    for r in results:
        wr = r.win_rate
        print(f"{r.variant:<20} {r.margin!s:>28} {'yes' if r.margin.excludes(0) else 'NO':>8} "
              f"{f'{100 * wr.mean:.1f}% [{100 * wr.low:.1f}, {100 * wr.high:.1f}]':>26} "
              f"{r.ms_per_decision.get(a, float('nan')):>14.4f} "
              f"{r.ms_per_decision.get(b, float('nan')):>14.4f}")


if __name__ == "__main__":
    main()
