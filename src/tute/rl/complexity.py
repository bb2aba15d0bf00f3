"""How big each game is, as RLCard tabulates its games (docs/rl.md, "How big the games are").

For every game of the registry, :func:`measure` gives the seats, the cards, the distinct
action ids, the number of information sets (log10, an estimate), the average size of an
information set (log10: the worlds consistent with what the seat to move knows) and the
length of a deal (decisions a deal, every seat's, forced moves included).

**Information sets.** A node of the game tree is a deal (the chance outcome) and the actions
played so far; the seat to move cannot tell apart the nodes whose deals agree with everything
it has seen, its information set ``I(h)``. Each set holds ``|I(h)|`` nodes, so the number of
sets is ``sum over decision nodes h of 1 / |I(h)|``. It is estimated by sampling, as Knuth
estimates the size of a tree: a uniformly random deal, then uniformly random legal actions;
at step ``t`` the node stands for ``D * b_0 * ... * b_(t-1)`` nodes (``D`` deals, ``b_i`` the
legal actions at step ``i``), and ``|I(h)|`` is counted exactly by :mod:`tute.worlds` (the
worlds consistent with the seat's view). The mean over deals of
``sum_t D * b_0 ... b_(t-1) / |I(h_t)|`` is an unbiased estimate of the count (its spread
is wide: the products of branchings vary by orders of magnitude, so the log10 is good to
about one order with a hundred deals).

``D``, the number of deals, is each seat's *root views* (the hands it may be dealt, with the
cards turned face up: the trump card, the upcard, the table card) times the worlds consistent
with one of them (:func:`deal_count`); every seat gives the same ``D`` (a test checks it in
every game), and in Tute por parejas it is ``40! / (10!)^4 * 10`` (which of the dealer's ten
cards is turned). Where cards change hands in public before the first action (arrastrado's
table card) a root view stands for several deals, and ``D`` is the multinomial of the deal.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..deal import Deal
from ..errors import TuteError
from ..games import game_for
from ..shuffle import derive_seed
from ..variants import VARIANTS, Options, Variant, find_variant
from ..views import SeatView
from ..worlds import WorldSampler
from .encoding import ActionCatalogue

__all__ = ["Complexity", "deal_count", "infoset_estimate", "markdown", "measure",
           "root_views"]


def root_views(view: SeatView, pack: int) -> int:
    """How many different views ``view.seat`` may have before anyone acts: its hand out of
    the ``pack`` cards, times the ways to fill each face-up card's place (out of its own hand
    for a turned card it holds, out of the other cards otherwise)."""
    h = len(view.hand)
    shown = [c for c in (view.trump_card, view.upcard, view.table_card) if c is not None]
    for cards in view.known:  # a card shown in a hand (arrastrado's exchange of the 7)
        shown += [c for c in cards if c not in shown]
    mine = sum(1 for c in shown if c in view.hand)
    others = len(shown) - mine
    return math.comb(pack, h) * math.perm(h, mine) * math.perm(pack - h, others)


def deal_count(deal: Deal) -> list[int]:
    """Per seat dealt cards, its root views times the worlds consistent with its root view:
    the number of deals, the same from every seat (``deal`` before its first action)."""
    game = game_for(deal.variant)
    pack = bin(game.pack(deal.options)).count("1")
    out = []
    for s in range(deal.variant.seat_count(deal.options)):
        view = deal.view(s)
        if len(view.hand) == 0:  # an idle seat (subastado's dealer with four) sees nothing
            continue
        out.append(root_views(view, pack) * WorldSampler(view).count())
    return out


def _deals(var: Variant, opts: Options, counts: set[int], exchanged: bool) -> int:
    """``D`` from the seats' counts at the root, which agree (one value), unless cards
    changed hands in public before the first action (``exchanged``: arrastrado's table card,
    taken by the seat with the 7 or the 2 of its suit, so that a root view stands for several
    deals). Such a game without a stock is dealt as hands and a face-up card alone, so ``D``
    is the multinomial ``N! / prod(hand sizes!)``, in the units of the worlds' count (hands
    as sets, face-up cards placed)."""
    if len(counts) == 1 and not exchanged:
        return next(iter(counts))
    game = game_for(var)
    pack, hand = game.layout(opts)
    if var.stock or not exchanged:
        raise TuteError(f"{var.id}: the seats count different numbers of deals "
                        f"{sorted(counts)} (root_views misses a face-up card of this game)")
    n = bin(pack).count("1")
    seats = var.seat_count(opts)
    return int(math.factorial(n) // math.factorial(hand) ** seats)


def infoset_estimate(samples: Sequence[Sequence[tuple[int, int]]], deals: int) -> float:
    """The information-set count from sampled paths: each path lists, per node, the legal
    actions there and the size of the mover's information set; ``deals`` chance outcomes.
    The mean over paths of ``sum_t deals * b_0 ... b_(t-1) / size_t``."""
    if not samples:
        raise TuteError("no sampled path")
    totals = []
    for path in samples:
        weight, total = deals, 0.0
        for branching, size in path:
            total += weight / size
            weight *= branching
        totals.append(total)
    return statistics.fmean(totals)


@dataclass(frozen=True)
class Complexity:
    variant: str
    seats: int
    cards: int
    actions: int
    deals_log10: float  # chance outcomes (D)
    infosets_log10: float
    infoset_size_log10: float  # mean over decisions of log10 |I(h)|
    first_size_log10: float  # mean log10 |I(h)| at the first decision of a deal
    decisions: float  # per deal, every seat's (forced moves included)
    choices: float  # per deal, decisions with two or more legal actions
    branching: float  # mean legal actions at a decision with a choice
    samples: int
    inexact: int  # decisions whose count the replay had to check (not encoded exactly)

    def to_json(self) -> dict[str, Any]:
        return {k: (round(v, 3) if isinstance(v, float) else v)
                for k, v in self.__dict__.items()}


def measure(variant: str, samples: int = 50, seed: int = 0,
            **options: Any) -> Complexity:
    """The figures of ``variant`` with ``options`` from ``samples`` random deals played with
    uniformly random legal actions (seeded: the same figures for the same arguments)."""
    var = find_variant(variant)
    opts = var.resolve(options)
    game = game_for(var)
    rng = random.Random(seed)
    paths: list[list[tuple[int, int]]] = []
    counts: set[int] = set()
    sizes: list[float] = []
    firsts: list[float] = []
    lengths, choices, branching = [], [], []
    inexact = 0
    exchanged = False
    for k in range(samples):
        deal = Deal.new(var, seed=derive_seed(seed, k), options=opts)
        counts.update(deal_count(deal))
        exchanged = exchanged or bool(deal.view(0).exchanges)
        path: list[tuple[int, int]] = []
        chosen = 0
        while not deal.is_over():
            seat = deal.to_move
            assert seat is not None
            legal = deal.legal_actions()
            sampler = WorldSampler(deal.view(seat))
            size = sampler.count()
            inexact += not sampler.count_exact
            path.append((len(legal), size))
            sizes.append(math.log10(size))
            if len(path) == 1:
                firsts.append(math.log10(size))
            if len(legal) > 1:
                chosen += 1
                branching.append(len(legal))
            deal.apply(legal[rng.randrange(len(legal))])
        paths.append(path)
        lengths.append(len(path))
        choices.append(chosen)
    d = _deals(var, opts, counts, exchanged)
    return Complexity(
        variant=var.id, seats=var.seat_count(opts),
        cards=bin(game.pack(opts)).count("1"), actions=len(ActionCatalogue(var, opts)),
        deals_log10=math.log10(d), infosets_log10=math.log10(infoset_estimate(paths, d)),
        infoset_size_log10=statistics.fmean(sizes),
        first_size_log10=statistics.fmean(firsts), decisions=statistics.fmean(lengths),
        choices=statistics.fmean(choices), branching=statistics.fmean(branching or [1]),
        samples=samples, inexact=inexact)


def markdown(rows: Sequence[Complexity]) -> str:
    """The table of docs/rl.md."""
    out = ["| game | seats | cards | action ids | deals (log10) | information sets (log10) "
           "| information-set size (log10, mean; first decision) | decisions a deal "
           "(with a choice) | legal actions at a choice |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        out.append(f"| `{r.variant}` | {r.seats} | {r.cards} | {r.actions} | "
                   f"{r.deals_log10:.1f} | {r.infosets_log10:.1f} | "
                   f"{r.infoset_size_log10:.1f}; {r.first_size_log10:.1f} | "
                   f"{r.decisions:.1f} ({r.choices:.1f}) | {r.branching:.1f} |")
    return "\n".join(out)


def all_variants() -> list[str]:
    return [v.id for v in (VARIANTS.values() if isinstance(VARIANTS, dict) else VARIANTS)]
