"""How well world inference locates the hidden cards: uniform worlds against worlds weighted by
the likelihood of the other seats' plays (``tute.bots.inference``).

Self-plays seeded deals (``--players``, default ``rules`` at every seat) and, at held-out
positions (every ``--every``-th decision with a choice), asks for each card the seat to move
cannot see "where is it?": which other seat holds it, or the stock. The same ``--worlds``
worlds, drawn uniformly from the seat's view, answer twice: each world counting the same
(today's ``pimc``), and each weighted by its likelihood under the policy model (self-
normalised importance weights). Prints, per trick bucket and overall, the number of
positions and of questions, the log-loss (nats; each answer mixed with 1% of the uniform
over the places the card may be in, so a world-less place costs a finite amount) and the
top-1 accuracy of both, and the cost of weighting a world beside the cost of drawing it.

The model is the rules bot made stochastic: against rules-bot players it is (near) the truth,
so ``--players rules:noise=0.3`` (a share of random plays) shows how it holds up when it is
not.

    .venv/bin/python bench/inference_quality.py                       # parejas, 40 deals
    .venv/bin/python bench/inference_quality.py --variant tute_habanero --deals 100
    .venv/bin/python bench/inference_quality.py --players rules:noise=0.3 --temperature 4

A benchmark, not a test: it exits 0 unless it cannot run at all.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

try:
    import tute
except ModuleNotFoundError:  # run from a checkout without the venv
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
    import tute

from tute.bots import make_bot
from tute.bots.inference import log_likelihood
from tute.bots.policy_model import PolicyModel
from tute.worlds import WorldSampler

EPS = 0.01


def where(deal: tute.Deal, card: int, observer: int) -> int:
    """The seat holding ``card`` now, or -1 (the stock, widow or discard)."""
    for s in range(deal.seats):
        if s != observer and deal.hand(s).mask >> card & 1:
            return s
    return -1


class Tally:
    def __init__(self) -> None:
        self.positions = 0
        self.questions = 0
        self.loss = [0.0, 0.0]
        self.hits = [0, 0]

    def row(self, name: str) -> str:
        q = max(self.questions, 1)
        return (f"{name:<12} {self.positions:>9} {self.questions:>9} "
                f"{self.loss[0] / q:>10.4f} {self.loss[1] / q:>10.4f} "
                f"{100 * self.hits[0] / q:>8.1f}% {100 * self.hits[1] / q:>8.1f}%")


def measure(args: argparse.Namespace) -> None:
    model = PolicyModel(temperature=args.temperature, floor=args.floor)
    buckets: dict[str, Tally] = {}
    total = Tally()
    draw_ms: list[float] = []
    weigh_ms: list[float] = []
    for i in range(args.deals):
        deal = tute.Deal.new(args.variant, seed=args.seed + i)
        bots = [make_bot(args.players, seed=args.seed * 1000 + 10 * i + s)
                for s in range(deal.seats)]
        decision = 0
        while not deal.is_over():
            seat = deal.to_move
            assert seat is not None
            view = deal.view(seat)
            legal = view.legal_actions
            if len(legal) > 1:
                decision += 1
                if decision % args.every == 0:
                    tally = buckets.setdefault(_bucket(len(deal.tricks)), Tally())
                    _ask(deal, view, model, args, random.Random(args.seed * 7919 + decision + i),
                         (tally, total), draw_ms, weigh_ms)
            deal.apply(bots[seat].choose(view, legal))
        print(f"# deal {i + 1}/{args.deals}", file=sys.stderr, flush=True)
    print(f"{args.variant}, players {args.players}, {args.deals} deals, {args.worlds} worlds a "
          f"position, model: rules softmax T={args.temperature:g} floor={args.floor:g}")
    head = (f"{'tricks done':<12} {'positions':>9} {'questions':>9} {'loss unif':>10} "
            f"{'loss wtd':>10} {'top1 unif':>9} {'top1 wtd':>9}")
    print(head)
    print("-" * len(head))
    for name in sorted(buckets):
        print(buckets[name].row(name))
    print(total.row("all"))
    if draw_ms:
        d, w = statistics.median(draw_ms), statistics.median(weigh_ms)
        print(f"per world: drawing {d:.2f} ms, weighting {w:.2f} ms (median; {w / d:.2f}x "
              "the draw)")


def _bucket(done: int) -> str:
    lo = 3 * (done // 3)
    return f"{lo:>2}-{lo + 2}"


def _ask(deal: tute.Deal, view: tute.SeatView, model: PolicyModel, args: argparse.Namespace,
         rng: random.Random, tallies: tuple[Tally, ...], draw_ms: list[float],
         weigh_ms: list[float]) -> None:
    sampler = WorldSampler(view)
    hidden = sampler.knowledge.hidden_cards
    if not hidden:
        return
    t0 = time.perf_counter()
    worlds = [sampler.deal(rng) for _ in range(args.worlds)]
    t1 = time.perf_counter()
    cache: dict[tuple[int, int, int, tuple[tute.Action, ...]], float] = {}
    logs = [log_likelihood(w, view.seat, model, cache) for w in worlds]
    t2 = time.perf_counter()
    draw_ms.append(1e3 * (t1 - t0) / len(worlds))
    weigh_ms.append(1e3 * (t2 - t1) / len(worlds))
    top = max(logs)
    weights = [math.exp(x - top) for x in logs]
    schemes = ([1.0] * len(worlds), weights)
    for card in hidden:
        places = {s if isinstance(s, int) else -1 for s in sampler.knowledge.places(card)}
        truth = where(deal, card, view.seat)
        held = [where(w, card, view.seat) for w in worlds]
        for k, ws in enumerate(schemes):
            mass = dict.fromkeys(places, 0.0)
            for p, wt in zip(held, ws, strict=True):
                mass[p] = mass.get(p, 0.0) + wt
            tot = sum(ws)
            prob = (1 - EPS) * mass.get(truth, 0.0) / tot + EPS / len(mass)
            guess = max(sorted(mass), key=lambda p: mass[p])
            for t in tallies:
                t.loss[k] -= math.log(prob)
                t.hits[k] += guess == truth
    for t in tallies:
        t.positions += 1
        t.questions += len(hidden)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="tute_parejas")
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--worlds", type=int, default=64, help="worlds drawn per position")
    ap.add_argument("--every", type=int, default=3, help="ask at every n-th decision")
    ap.add_argument("--players", default="rules", help="the bot at every seat")
    ap.add_argument("--temperature", type=float, default=2.0)
    ap.add_argument("--floor", type=float, default=0.05)
    ap.add_argument("--seed", type=int, default=1)
    measure(ap.parse_args())


if __name__ == "__main__":
    main()
