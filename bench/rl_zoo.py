"""The zoo's table: every pair of zoo agents on duplicate deals, per game (docs/rl.md).

    .venv/bin/python bench/rl_zoo.py [--games tute_parejas,guinote_2p] [--deals 100]
        [--pimc-deals 30] [--worlds 8] [--move-time 0.2] [--seed 0] [--json FILE]

Round robin of ``random``, ``rules``, ``pimc`` (``--worlds`` worlds and at most
``--move-time`` s a decision) and ``policy`` (the network shipped for the game), each pair
played by :func:`tute.rl.zoo.duel` through the PettingZoo environment: every deal twice, the
line-ups exchanging seats, the same deals for every pair. Printed: A's mean margin over B per
duplicate pair (points) with its 95% interval, the pairs, the seconds. Pairs with ``pimc``
play ``--pimc-deals`` deals (a decision costs up to ``--move-time``), the others ``--deals``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from tute.rl import zoo


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default="tute_parejas,guinote_2p")
    ap.add_argument("--agents", default="random,rules,pimc,policy")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--pimc-deals", type=int, default=30)
    ap.add_argument("--worlds", type=int, default=8)
    ap.add_argument("--move-time", type=float, default=0.2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    names = args.agents.split(",")
    rows: list[dict[str, Any]] = []
    print("| game | A | B | A - B per duplicate pair [95%] | pairs | seconds |")
    print("|---|---|---|---|---:|---:|")
    for game in args.games.split(","):
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                agents = []
                for k, name in enumerate((a, b)):
                    settings: dict[str, Any] = {}
                    if name == "pimc":
                        settings = {"worlds": args.worlds, "move_time": args.move_time}
                    if name == "policy":
                        settings = {"variant": game}
                    agents.append(zoo.agent(name, seed=args.seed + k, **settings))
                deals = args.pimc_deals if "pimc" in (a, b) else args.deals
                start = time.perf_counter()
                res = zoo.duel(agents[0], agents[1], game, deals=deals, seed=args.seed)
                m = res.margin
                row = {"game": game, "a": a, "b": b, "mean": round(m.mean, 2),
                       "low": round(m.low, 2), "high": round(m.high, 2), "pairs": m.n,
                       "measure": res.measure,
                       "seconds": round(time.perf_counter() - start, 1)}
                rows.append(row)
                print(f"| `{game}` | {a} | {b} | {m.mean:+.1f} [{m.low:+.1f}, {m.high:+.1f}] "
                      f"| {m.n} | {row['seconds']} |", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps({"args": vars(args), "rows": rows}, indent=1)
                                   + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
