"""How big each game is (RLCard's table: information sets, their size, actions), every game
of the registry, printed as the markdown table of docs/rl.md.

    .venv/bin/python bench/rl_complexity.py [--samples 100] [--seed 0] [--json FILE]

:func:`tute.rl.complexity.measure` per game, with its default options: ``--samples`` random
deals played with uniformly random legal actions; at every decision the worlds consistent with
the seat to move are counted exactly (``tute.worlds``). The module's doc says how the count
of information sets is estimated from them.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from tute.rl import complexity


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--variants", default=None, help="comma-separated (default: every game)")
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    names = args.variants.split(",") if args.variants else complexity.all_variants()
    rows = []
    start = time.perf_counter()
    for name in names:
        rows.append(complexity.measure(name, samples=args.samples, seed=args.seed))
    print(complexity.markdown(rows))
    inexact = {r.variant: r.inexact for r in rows if r.inexact}
    print(f"\n{args.samples} random deals a game, seed {args.seed}, "
          f"{time.perf_counter() - start:.0f} s"
          + (f"; decisions whose world count is an upper bound (a condition of the record "
             f"the worlds' tables do not encode): {inexact}" if inexact else ""))
    if args.json:
        Path(args.json).write_text(json.dumps([r.to_json() for r in rows], indent=1) + "\n")


if __name__ == "__main__":
    main()
