"""Find real bot blunders with the analysis, as reports for a regression set (docs/reports.md).

Plays seeded deals with one bot level at every seat (as the server's quick games fill their
seats), measures every decision with the double-dummy solver, and keeps the bots' decisions
that lost at least ``--dd-loss`` points with every hand known and ``--loss`` points by the
search from the seat's own view (what the bot could have known: not a bad guess at a hidden
card). For each it prints whether ``--against`` (default: the server's default level, medio)
repeats it, and writes the reports as JSON lines: those the other bot avoids with
``--avoided FILE``, those it repeats with ``--repeated FILE``.

    PYTHONPATH=src python bench/find_blunders.py --level facil --seeds 1-40 \
        --avoided src/tute/regressions/data/bots.jsonl

It prints how many decisions it measured, how many blunders it found and the seconds taken.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from tute import Deal
from tute.analysis import analyze_deals
from tute.arena import play_deal
from tute.bots import make_bot
from tute.regressions import Regression, check, dump_set, regression_id


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="tute_parejas")
    ap.add_argument("--level", default="facil", help="the bot at every seat")
    ap.add_argument("--against", default="medio", help="the bot the blunders are tried on")
    ap.add_argument("--seeds", default="1-20", help="deal seeds, A-B")
    ap.add_argument("--dd-loss", type=int, default=20)
    ap.add_argument("--loss", type=float, default=10.0)
    ap.add_argument("--worlds", type=int, default=32)
    ap.add_argument("--avoided", type=Path)
    ap.add_argument("--repeated", type=Path)
    ap.add_argument("--max", type=int, default=12, help="reports at most in each file")
    args = ap.parse_args()
    first, _, last = args.seeds.partition("-")
    t0 = time.perf_counter()
    measured = 0
    avoided: list[Regression] = []
    repeated: list[Regression] = []
    for seed in range(int(first), int(last or first) + 1):
        deal = Deal.new(args.variant, seed=seed)
        bots = [make_bot(args.level, seed=seed * 10 + s) for s in range(deal.seats)]
        play_deal(deal, bots)
        record = deal.to_record()
        dd = analyze_deals([deal], worlds=0)
        measured += len(dd.decisions)
        suspects = [(d.deal, d.move) for d in dd.decisions
                    if d.dd_loss is not None and d.dd_loss >= args.dd_loss]
        if not suspects:
            continue
        search = analyze_deals([deal], worlds=args.worlds, moves=suspects, exact=False)
        by_move = {(d.deal, d.move): d for d in dd.decisions}
        for s in search.decisions:
            if s.loss is None or s.loss < args.loss:
                continue
            d = by_move[(s.deal, s.move)]
            reg = Regression(
                id=regression_id(record, s.deal, s.move), record=record, deal=s.deal,
                move=s.move, seat=s.seat, played=s.played, bot=args.level,
                analysis={"dd_best": d.dd_best, "dd_loss": d.dd_loss, "best": s.best,
                          "loss": round(s.loss, 2), "worlds": s.worlds},
                source=f"selfplay:{args.variant}:seed={seed}:{args.level}")
            out = check(reg, args.against)
            print(f"seed {seed} move {s.move} seat {s.seat}: played {s.played}, dd best "
                  f"{d.dd_best} (-{d.dd_loss}), search best {s.best} (-{s.loss:.1f}); "
                  f"{args.against} plays {out.choice}"
                  + (" (repeats it)" if out.repeats else ""), flush=True)
            (repeated if out.repeats else avoided).append(reg)
    secs = time.perf_counter() - t0
    print(f"{measured} decisions measured, {len(avoided) + len(repeated)} blunders "
          f"({len(avoided)} avoided by {args.against}, {len(repeated)} repeated) in "
          f"{secs:.0f} s", file=sys.stderr)
    for path, regs in ((args.avoided, avoided), (args.repeated, repeated)):
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(dump_set(regs[:args.max]), encoding="utf-8")


if __name__ == "__main__":
    main()
