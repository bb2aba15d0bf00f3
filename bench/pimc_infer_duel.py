"""``pimc_infer`` (worlds weighted by inference, every world valued where few) against today's
``pimc`` on duplicate deals, at equal worlds or equal time a move.

Every deal is played once per seating (Tute por parejas: A at seats 0 and 2, then at 1 and
3) with the same cards; the figure per deal is A's mean margin over its seatings (points, or
the game's own aim: :func:`tute.arena.deal_values`). Prints the mean margin per deal with its
95% interval, and per bot the decision time (median, 99th percentile; decisions with a
choice only) and the worlds valued per decision (median).

    # equal worlds (16 a decision, the clock out of the way):
    .venv/bin/python bench/pimc_infer_duel.py --deals 150 \\
        --a pimc_infer:worlds=16:move_time=30:settle=0 --b pimc:worlds=16:move_time=30:settle=0
    # equal time (0.2 s a move):
    .venv/bin/python bench/pimc_infer_duel.py --deals 150 \\
        --a pimc_infer:move_time=0.2 --b pimc:move_time=0.2

A benchmark, not a test: it exits 0 unless it cannot run at all. Runs are deterministic for a
fixed number of worlds and no clock (each bot's seed is its seat's and the deal's).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

try:
    import tute
except ModuleNotFoundError:  # run from a checkout without the venv
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
    import tute

from tute.arena import _lineup_seats, _seatings, deal_values, interval
from tute.bots import Bot, make_bot


class Clocked:
    """Times one bot's decisions with a choice, and counts its worlds."""

    def __init__(self) -> None:
        self.seconds: list[float] = []
        self.worlds: list[int] = []

    def choose(self, bot: Bot, deal: tute.Deal) -> Any:
        seat = deal.to_move
        assert seat is not None
        view = deal.view(seat)
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        t0 = time.perf_counter()
        act = bot.choose(view, legal)
        self.seconds.append(time.perf_counter() - t0)
        self.worlds.append(int(getattr(bot, "last_worlds", 0)))
        return act


def duel(specs: Sequence[str], variant: str, deals: int, seed: int, first: int = 0,
         progress: bool = True) -> dict[str, Any]:
    var = tute.find_variant(variant)
    opts = var.resolve(None)
    clocks = [Clocked(), Clocked()]
    margins: list[float] = []
    for i in range(first, first + deals):
        pair: list[float] = []
        for seating in _seatings(var, opts, True):
            bots = [make_bot(specs[who], seed=seed * 1000 + 10 * i + s)
                    for s, who in enumerate(seating)]
            deal = tute.Deal.new(variant, seed=seed + i, options=opts)
            while not deal.is_over():
                mover = deal.to_move
                assert mover is not None
                deal.apply(clocks[seating[mover]].choose(bots[mover], deal))
            _, values = deal_values(deal.result())
            side_a, sides_b = _lineup_seats(seating, var, opts)
            pair.append(values[side_a] - statistics.fmean(values[s] for s in sides_b))
        margins.append(statistics.fmean(pair))
        if progress:
            ci = interval(margins) if len(margins) > 1 else None
            print(f"# deal {i + 1 - first}/{deals}: margin {margins[-1]:+.1f}"
                  + (f", so far {ci}" if ci else ""), file=sys.stderr, flush=True)
    out: dict[str, Any] = {"variant": variant, "deals": deals, "seed": seed, "first": first,
                           "a": specs[0], "b": specs[1], "margins": margins}
    ci = interval(margins)
    out["margin"] = {"mean": ci.mean, "low": ci.low, "high": ci.high}
    for name, c in zip("ab", clocks, strict=True):
        ms = sorted(1e3 * s for s in c.seconds)
        out[f"ms_{name}"] = {"median": statistics.median(ms),
                             "p99": ms[min(len(ms) - 1, int(0.99 * len(ms)))],
                             "decisions": len(ms)}
        out[f"worlds_{name}"] = statistics.median(c.worlds) if c.worlds else 0
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", default="pimc_infer:worlds=16:move_time=30:settle=0")
    ap.add_argument("--b", default="pimc:worlds=16:move_time=30:settle=0")
    ap.add_argument("--variant", default="tute_parejas")
    ap.add_argument("--deals", type=int, default=100, help="duplicate deals (pairs)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--first", type=int, default=0,
                    help="start at this deal (parts of one run, played apart)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    r = duel([args.a, args.b], args.variant, args.deals, args.seed, args.first)
    if args.json:
        print(json.dumps(r, indent=1))
        return
    m = r["margin"]
    print(f"{args.variant}: A = {args.a}  vs  B = {args.b}; {args.deals} duplicate deals, "
          f"seed {args.seed}")
    print(f"A's margin per deal: {m['mean']:+.2f} [95% CI {m['low']:+.2f}, {m['high']:+.2f}]"
          f" ({'excludes' if m['low'] > 0 or m['high'] < 0 else 'includes'} 0)")
    for name, spec in (("a", args.a), ("b", args.b)):
        t = r[f"ms_{name}"]
        print(f"  {name.upper()} {spec}: decision {t['median']:.1f} ms median, "
              f"{t['p99']:.1f} ms p99 ({t['decisions']} decisions with a choice); "
              f"worlds a decision {r[f'worlds_{name}']:g} (median)")


if __name__ == "__main__":
    main()
