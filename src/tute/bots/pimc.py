"""Search bots: Perfect-Information Monte Carlo (``pimc``) and the all-seeing ``cheat``.

``pimc`` decides from its seat's view alone. At each decision it samples full positions (the
hidden hands, the stock's order, the widow) uniformly among those consistent with what the seat
knows (:mod:`tute.worlds`), values every legal action in each of them and plays the action with
the best mean over the worlds. A world's action values come from

- the exact solver where it covers the position (card play of parejas and arrastrado, the
  arrastre of the stock games): every legal action searched over the one table;
- the stock phase of the stock games too once at most ``stock_solve`` cards are left in the
  stock (default 2): a world holds the stock's order, so the solver's stock search values it
  exactly (:mod:`tute.solver.stock`);
- otherwise (a larger stock, cantes, exchanges, bids and trumps, cabrón, subastado) a rollout:
  the action, then ``rules`` bots for every seat to the end of the deal -- or only until the
  solver covers the position (the stock games once the stock is down to ``stock_solve``),
  whose exact value then ends it.

The objective is the game's: the point margin of the seat's side, the balance where the deal
pays (subastado's contract), the lost games where deals are lost (arrastrado, cabrón: one lost
game weighs a whole deal of points). It is anytime and keeps its clock: worlds are taken
until ``move_time`` seconds have nearly passed, then a timer interrupts the world under way
(its values are dropped); the rules bot answers when not even one world was finished in
time. ``threads=2`` values two worlds at once, each with its own solver (the search releases
the GIL): twice the worlds on two cores. Within a world the first action's exact value plus
the last world's differences between actions seeds the others' probes.
The valuation itself is :func:`action_values`, which the analysis of records
(:mod:`tute.analysis`) calls with a fixed number of worlds and no clock.

``pimc_infer`` (or ``pimc:infer=true``) draws its worlds weighted by how likely the other
seats' actions were in them, the rules bot made stochastic as their model, and values every
consistent world once where they are few (``exact_below``): :mod:`tute.bots.inference`.

``cheat`` sees every hand (``attach(deal)``) and plays the exact solver's best card: a yardstick
for analysis and arenas, never offered at a table.
"""

from __future__ import annotations

import contextlib
import math
import queue
import random
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import TYPE_CHECKING, Any, NamedTuple

from ..actions import Action
from ..errors import TuteError
from .base import Bot, register
from .inference import WorldSource
from .policy_model import PolicyModel
from .rules_bot import RulesBot

if TYPE_CHECKING:
    from ..cards import RankOrder
    from ..deal import Deal, SeatView
    from ..solver import Solver

__all__ = ["ActionValues", "CheatBot", "PimcBot", "PimcInferBot", "Settle", "action_values",
           "objective"]

#: the weight of one lost game (arrastrado, cabrón) against one point of margin
LOST_GAME = 100.0
MAX_MOVE_TIME = 60.0
#: the stock sizes (cards left) whose worlds are solved, not rolled out: a habanero world at
#: 2 cards takes a median ~10 ms a solve (bench/stock_solve.py), about a rollout's budget
#: per action at the default clock; at 4, ~0.1 s, a few worlds a second
STOCK_SOLVE = 2


def objective(deal: Deal, seat: int) -> float:
    """What a finished deal is worth to ``seat``'s side, in the game's own terms."""
    res = deal.result()
    side = deal.side_of(seat)
    if res.balances is not None:  # payments: the contract's balance decides
        return float(res.balances[side])
    margin = res.totals[side] - max((t for s, t in enumerate(res.totals) if s != side),
                                    default=0)
    if res.losses is not None:
        return -LOST_GAME * res.losses[side] + margin / 1000.0
    return float(margin)


def _settings(move_time: Any, max_worlds: Any) -> tuple[float, int]:
    if isinstance(move_time, bool) or not isinstance(move_time, int | float) or not (
            0 < float(move_time) <= MAX_MOVE_TIME):
        raise TuteError(f"invalid move_time {move_time!r}: expected seconds in "
                        f"(0, {MAX_MOVE_TIME:g}]")
    if isinstance(max_worlds, bool) or not isinstance(max_worlds, int) or not (
            1 <= max_worlds <= 100_000):
        raise TuteError(f"invalid worlds {max_worlds!r}: expected an integer 1..100000")
    return float(move_time), max_worlds


class _Evaluator:
    """Values the legal actions of one world: exact where the solver reaches, else rollouts.
    One per thread: its solver (and table) and its guesses are its own."""

    def __init__(self, rng: random.Random, solver: Solver | None, tolerance: int = 0,
                 strict: bool = False):
        self.rng = rng
        self.solver = solver
        self.tolerance = tolerance
        # strict: the deadline stops a rollout too (the solver is stopped by interrupt())
        self.strict = strict
        # per legal action, the last world's exact future value: a world's actions differ
        # from each other much as they did in the last world, so the first action's value
        # in this world plus the last world's offsets guesses the others closely (the
        # solver's probes step out from the guess: a close one saves most of them)
        self.last: list[int] | None = None

    def solvable(self, deal: Deal) -> bool:
        return self.solver is not None and _solver_covers(self.solver, deal)

    def exact(self, deal: Deal, seat: int, guess: int = 0) -> tuple[float, int]:
        """The seat's side's margin with perfect play from here, in the solver's terms (a
        tute is worth ``TUTE_VALUE``), counting what was taken before; and the solver's
        future value (side 0's), a guess for the next probe of a similar position."""
        from ..solver import taken_margin

        assert self.solver is not None
        hero = seat if deal.variant.sides(deal.options) > 2 else None
        sign = 1 if hero is not None or deal.side_of(seat) == 0 else -1
        future = 0
        if not deal.is_over():
            future = self.solver.value(deal, guess=guess, hero=hero, tolerance=self.tolerance)
        return float(sign * (taken_margin(deal, hero) + future)), future

    def _check_time(self, deadline: float) -> None:
        if self.strict and time.perf_counter() >= deadline:
            from ..solver import SearchInterrupted

            raise SearchInterrupted

    def rollout(self, deal: Deal, seat: int, deadline: float) -> float:
        """Play ``deal`` on with rules bots; the exact value as soon as the solver covers it."""
        bots = [RulesBot(seed=self.rng.randrange(1 << 30)) for _ in range(deal.seats)]
        while not deal.is_over():
            if self.solvable(deal) and time.perf_counter() < deadline:
                try:
                    return self.exact(deal, seat)[0]
                except TuteError:
                    self.solver = None  # a position it refuses: roll out from now on
            self._check_time(deadline)
            mover = deal.to_move
            assert mover is not None
            view = deal.view(mover, history=False)  # the rules bot reads no event log
            deal.apply(bots[mover].choose(view, view.legal_actions))
        return objective(deal, seat)

    def values(self, world: Deal, seat: int, legal: Sequence[Action],
               deadline: float) -> list[float]:
        # one scale per decision: the solver's margins where it covers this position (a child
        # that ends the deal too), else rollouts
        exact = self.solvable(world)
        last = self.last if self.last is not None and len(self.last) == len(legal) else None
        futures: list[int] = []
        out: list[float] = []
        for k, act in enumerate(legal):
            self._check_time(deadline)
            child = world.copy()
            child.apply(act)
            if exact:
                if not futures:
                    guess = last[0] if last else 0
                elif last:
                    guess = futures[0] + last[k] - last[0]
                else:
                    guess = futures[0]
                try:
                    value, future = self.exact(child, seat, guess)
                    out.append(value)
                    futures.append(future)
                    continue
                except TuteError:  # a child position it refuses (a poll): roll out
                    pass
            futures.append(futures[0] if futures else 0)
            if child.is_over():
                out.append(objective(child, seat))
            else:
                out.append(self.rollout(child, seat, deadline))
        if exact:
            self.last = futures
        return out


def _equivalents(view: SeatView, legal: Sequence[Action]) -> list[int]:
    """For each legal action, the index of the first one worth the same in every world: cards
    of one suit with the same points and nothing unseen between them (5 and 4 with the 6 in
    the seat's hand or played). Not while a stock lasts: the 7 of trumps is not the 6 there."""
    from ..variants import find_variant

    return equivalent_actions(find_variant(view.variant).order, view.stock_count,
                              view.hand.mask | view.played.mask, legal)


def equivalent_actions(order: RankOrder, stock_count: int, seen: int,
                       legal: Sequence[Action]) -> list[int]:
    """:func:`_equivalents` of a seat that has seen the cards ``seen`` (its hand and every
    card played) with ``stock_count`` cards in the stock."""
    from ..cards import Card

    rep = list(range(len(legal)))
    if stock_count:
        return rep
    for i, a in enumerate(legal):
        if not isinstance(a, Card):
            continue
        for j in range(i):
            b = legal[j]
            if (isinstance(b, Card) and b.suit == a.suit and rep[j] == j
                    and order.points[a.index] == order.points[b.index]):
                lo, hi = sorted((order.strength[a.index], order.strength[b.index]))
                between = sum(1 << c for c in range(40) if c // 10 == a.index // 10
                              and lo < order.strength[c] < hi)
                if between & ~seen == 0:
                    rep[i] = j
                    break
    return rep


def _solver_covers(solver: Solver, deal: Deal) -> bool:
    """Whether the exact solver takes this position (card play it models, no poll pending)."""
    if deal.is_over() or deal.to_move is None:
        return False
    # the solver's own refusal is the one source of what it covers (a stock phase: up to
    # its stock_limit, the bot's stock_solve)
    return solver.covers(deal)


class ActionValues(NamedTuple):
    """What :func:`action_values` found: per legal action its mean value, and the worlds."""

    values: list[float]
    #: 0 when every legal action is worth the same (nothing was sampled); -1 when a strict
    #: deadline came before the first world was valued
    worlds: int
    #: with an ``anchor``: per legal action the standard error of its mean difference from
    #: the anchor's value, world by world (inf with fewer than two worlds)
    stderr: list[float] | None = None


class Settle(NamedTuple):
    """When a decision is settled before its clock: after at least ``worlds`` worlds, no
    action's mean gain over the leader's, world by world, can reach ``margin`` points at
    ``z`` standard errors. The rest of the clock would only refine the means of a choice
    already made (a forced-looking follow, an ace that takes the trick whatever lies out)."""

    z: float = 2.5
    worlds: int = 16
    margin: float = 1.0


class _Paired:
    """Running weighted sums of each action's value and of every pair's products, world by
    world: the mean and the standard error of any two actions' difference at any moment.
    Weights are 1 but with inference (a world's likelihood, or how often it was drawn); the
    standard error then counts the effective number of worlds, ``W**2 / sum(w**2)``."""

    def __init__(self, k: int):
        self.n = 0
        self.weight = 0.0
        self.weight2 = 0.0
        self.sums = [0.0] * k
        self.products = [[0.0] * k for _ in range(k)]

    def add(self, values: Sequence[float], weight: float = 1.0) -> None:
        self.n += 1
        self.weight += weight
        self.weight2 += weight * weight
        for i, v in enumerate(values):
            wv = weight * v
            self.sums[i] += wv
            row = self.products[i]
            for j in range(i, len(values)):
                row[j] += wv * values[j]

    def mean(self, i: int) -> float:
        return self.sums[i] / self.weight

    def _product(self, i: int, j: int) -> float:
        return self.products[min(i, j)][max(i, j)]

    def difference(self, i: int, j: int) -> tuple[float, float]:
        """The mean of ``v_i - v_j`` and its standard error (inf with fewer than 2 worlds)."""
        w = self.weight
        d = (self.sums[i] - self.sums[j]) / w
        n = w * w / self.weight2 if self.weight2 else 0.0  # = n with unit weights
        if self.n < 2 or n <= 1.0:
            return d, math.inf
        square = (self._product(i, i) - 2 * self._product(i, j) + self._product(j, j)) / w
        var = max(square - d * d, 0.0) * n / (n - 1)
        return d, math.sqrt(var / n)

    def settled(self, rule: Settle) -> bool:
        if self.n < max(rule.worlds, 2):
            return False
        lead = max(range(len(self.sums)), key=self.sums.__getitem__)
        for a in range(len(self.sums)):
            if a != lead:
                d, se = self.difference(a, lead)
                if d + rule.z * se >= rule.margin:
                    return False
        return True


def action_values(view: SeatView, legal: Sequence[Action], worlds: int, rng: random.Random,
                  solver: Solver | None, *, deadline: float = math.inf,
                  tolerance: int = 0, helpers: Sequence[Solver] = (),
                  strict: bool = False, anchor: int | None = None,
                  settle: Settle | None = None, source: WorldSource | None = None
                  ) -> ActionValues:
    """The mean value of each legal action (in ``legal``'s order) over up to ``worlds``
    worlds sampled uniformly from ``view``, in the seat's side's terms (:func:`objective`;
    the solver's margins where it covers the position). Equivalent cards are valued once
    and share the value.

    No world is started once ``deadline`` (a ``time.perf_counter()`` instant) has passed.
    Without ``strict`` at least one world is valued whatever the time; with it the deadline
    also stops the world under way (its searches are interrupted and its values dropped),
    so the answer comes on time and may hold no world at all (``worlds == -1``: the caller
    decides another way). ``helpers``, more solvers, value worlds at the same time in
    threads (the solver's search releases the GIL): worlds are sampled in order from
    ``rng`` in this thread, and each world's rollouts draw from a generator seeded from it,
    so with no deadline and no tolerance the result depends on the view, ``worlds`` and the
    rng's state alone -- the pimc bot's choice and the analysis' measure. ``anchor`` (an
    index into ``legal``) also measures how sure each action's difference from that one is
    (``stderr``). ``settle`` stops taking worlds once the choice is made (:class:`Settle`).
    ``source`` gives the worlds and their weights instead of uniform draws
    (:class:`~tute.bots.inference.WorldSource`: weighted by inference, or every world where
    they are few -- then no more than those are valued)."""
    from ..solver import SearchInterrupted

    rep = _equivalents(view, legal)
    distinct = [a for i, a in enumerate(legal) if rep[i] == i]
    if len(distinct) == 1:
        return ActionValues([0.0] * len(legal), 0)
    if source is None:
        source = WorldSource(view)
    spent = False
    evaluators = [_Evaluator(rng, s, tolerance, strict) for s in (solver, *helpers)]
    paired = _Paired(len(distinct))
    slot = {i: k for k, i in enumerate(i for i in range(len(legal)) if rep[i] == i)}
    base = None if anchor is None else slot[rep[anchor]]
    done = False

    def add(values: list[float], weight: float) -> None:
        nonlocal done
        paired.add(values, weight)
        if settle is not None and paired.settled(settle):
            done = True

    def room(started: int) -> bool:
        return not done and not spent and started < worlds and (
            (started == 0 and not strict) or time.perf_counter() < deadline)

    def draw() -> tuple[Deal, float] | None:
        nonlocal spent
        got = source.next(rng)
        spent = got is None
        return got

    with _Alarm(deadline if strict else math.inf,
                [e.solver for e in evaluators if e.solver is not None]):
        if len(evaluators) == 1:
            ev = evaluators[0]
            started = 0
            while room(started):
                got = draw()
                if got is None:
                    break
                ev.rng = random.Random(rng.getrandbits(64))
                started += 1
                try:
                    add(ev.values(got[0], view.seat, distinct, deadline), got[1])
                except SearchInterrupted:
                    break
        else:
            _parallel(evaluators, draw, rng, view.seat, distinct, deadline, room, add)
    n = paired.n
    if n == 0:
        return ActionValues([0.0] * len(legal), -1)
    means = [paired.mean(slot[rep[i]]) for i in range(len(legal))]
    if base is None:
        return ActionValues(means, n)
    errors = [paired.difference(slot[rep[i]], base)[1] for i in range(len(legal))]
    return ActionValues(means, n, errors)


def _parallel(evaluators: list[_Evaluator], draw: Callable[[], tuple[Deal, float] | None],
              rng: random.Random, seat: int, distinct: list[Action], deadline: float,
              room: Callable[[int], bool], add: Callable[[list[float], float], None]) -> None:
    """:func:`action_values`' loop with one world in flight per evaluator, in threads."""
    from ..solver import SearchInterrupted

    free: queue.SimpleQueue[_Evaluator] = queue.SimpleQueue()
    for ev in evaluators:
        free.put(ev)

    def task(world: Deal, weight: float, seed: int) -> tuple[list[float], float]:
        ev = free.get()
        try:
            ev.rng = random.Random(seed)
            return ev.values(world, seat, distinct, deadline), weight
        finally:
            free.put(ev)

    pool = _thread_pool(len(evaluators))
    pending: set[Future[tuple[list[float], float]]] = set()
    started = 0
    while True:
        while len(pending) < len(evaluators) and room(started):
            got = draw()
            if got is None:
                break
            pending.add(pool.submit(task, got[0], got[1], rng.getrandbits(64)))
            started += 1
        if not pending:
            return
        left = deadline - time.perf_counter()
        done, pending = wait(pending, timeout=None if math.isinf(left) else max(left, 0) + 0.05,
                             return_when=FIRST_COMPLETED)
        for fut in done:
            with contextlib.suppress(SearchInterrupted):
                add(*fut.result())


_POOLS: dict[int, ThreadPoolExecutor] = {}


def _thread_pool(size: int) -> ThreadPoolExecutor:
    if size not in _POOLS:
        _POOLS[size] = ThreadPoolExecutor(size, thread_name_prefix="tute-pimc")
    return _POOLS[size]


class _Alarm:
    """Interrupts the solvers at ``deadline`` (a timer thread), and lets them run again at
    the end of the ``with`` block -- never after it, even if the timer fires meanwhile."""

    def __init__(self, deadline: float, solvers: list[Solver]):
        self.solvers = solvers
        self.lock = threading.Lock()
        self.over = False
        self.timer: threading.Timer | None = None
        if solvers and not math.isinf(deadline):
            self.timer = threading.Timer(max(deadline - time.perf_counter(), 0.0), self._ring)
            self.timer.daemon = True

    def _ring(self) -> None:
        with self.lock:
            if not self.over:
                for s in self.solvers:
                    s.interrupt()

    def __enter__(self) -> _Alarm:
        if self.timer is not None:
            self.timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.timer is not None:
            self.timer.cancel()
        with self.lock:
            self.over = True
            for s in self.solvers:
                s.resume()


class _SearchBot(Bot):
    """Shared by the sampling bots: settings, the solver and the anytime loop."""

    heavy = True  # seconds of CPU a decision: servers run it in a worker process

    def __init__(self, seed: int | None = None, move_time: float = 1.0, worlds: int = 10_000,
                 tt_mb: int = 16, threads: int = 1, tolerance: int = 0,
                 stock_solve: int = STOCK_SOLVE, **settings: Any):
        super().__init__(seed=seed, **settings)
        self.move_time, self.max_worlds = _settings(move_time, worlds)
        for key, value, low, top in (("tt_mb", tt_mb, 1, 512), ("threads", threads, 1, 2),
                                     ("tolerance", tolerance, 0, 60),
                                     ("stock_solve", stock_solve, 0, 28)):
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= top:
                raise TuteError(f"invalid {key} {value!r}: expected an integer {low}..{top}")
        # threads: worlds valued at once, each by its own solver in its own thread
        self.tt_mb, self.threads = tt_mb, threads
        # the solver may stop within this many points of a world's value: noise well below
        # the spread between worlds, for a fraction of the probes
        self.tolerance = tolerance
        # worlds with at most this many cards in the stock are solved, not rolled out
        self.stock_solve = stock_solve
        self._solvers: list[Solver] | None = None
        self.last_worlds = 0  # worlds valued at the last decision (for benches and tests)
        self.fallbacks = 0  # decisions the clock left to the rules bot (no world in time)

    def _all_solvers(self) -> list[Solver]:
        if self._solvers is None:
            try:
                from ..solver import Solver
            except ImportError:  # numba missing: rollouts only
                self._solvers = []
            else:
                self._solvers = [Solver(tt_mb=self.tt_mb, threads=1,
                                        stock_limit=self.stock_solve)
                                 for _ in range(self.threads)]
        return self._solvers

    def solver(self) -> Solver | None:
        solvers = self._all_solvers()
        return solvers[0] if solvers else None

    def helpers(self) -> list[Solver]:
        return self._all_solvers()[1:]


@register("pimc", "samples worlds consistent with its view and solves each exactly "
                  "(rollouts where the solver does not reach); move_time seconds per move")
class PimcBot(_SearchBot):
    """``settle`` (standard errors, default 2.5; 0: off) ends a decision before its clock once
    it is made (:class:`Settle`): an obvious card takes a fraction of ``move_time``.
    ``prior="rules"`` (the default) keeps the rules bot's choice unless the worlds show a
    better action with confidence: its mean gain over the rules bot's action, world by world,
    at least ``confidence`` standard errors, so a search of few worlds -- a short clock in a
    stock phase valued by rollouts -- does not trade a sound move for noise (Tute habanero at
    0.05 s a move: +11.0 points a deal over ``rules`` with it, +1.3 and not significant
    without). ``prior="none"``: the best mean, however few the worlds.

    Inference (off by default; on in ``pimc_infer``): ``infer=True`` weights the worlds by how
    likely the other seats' actions were in them under the rules bot made stochastic
    (:mod:`tute.bots.inference`; ``temperature`` in points), drawing ``oversample``
    candidates per world valued; ``exact_below=N`` values every consistent world, once,
    where there are at most N of them (and no more than ``worlds``) instead of sampling."""

    def __init__(self, seed: int | None = None, prior: str = "rules", confidence: float = 1.0,
                 settle: float = Settle().z, infer: bool = False, temperature: float = 2.0,
                 oversample: int = 4, exact_below: int = 0, **settings: Any):
        super().__init__(seed=seed, **settings)
        if not isinstance(infer, bool):
            raise TuteError(f"invalid infer {infer!r}: expected true or false")
        for name, count, top in (("oversample", oversample, 64),
                                 ("exact_below", exact_below, 100_000)):
            if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= top:
                raise TuteError(f"invalid {name} {count!r}: expected an integer 0..{top}")
        self.model = PolicyModel(temperature=temperature) if infer else None
        self.oversample, self.exact_below = max(1, oversample), exact_below
        if prior not in ("none", "rules"):
            raise TuteError(f"invalid prior {prior!r}: expected none or rules")
        for key, value in (("confidence", confidence), ("settle", settle)):
            if isinstance(value, bool) or not isinstance(value, int | float) or not (
                    0 <= value <= 10):
                raise TuteError(f"invalid {key} {value!r}: expected 0..10 standard errors")
        self.prior, self.confidence = prior, float(confidence)
        # settle: the decision ends before its clock once no other action can be better by a
        # point at this many standard errors (0: always use the whole clock)
        self.settle = Settle(z=float(settle)) if settle else None
        self._fallback = RulesBot(seed=seed)

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        # a little of the budget is kept for what follows the last world (choosing,
        # answering): the clock is the caller's, not the search's
        start = time.perf_counter()
        anchor = None
        if self.prior == "rules":
            anchor = list(legal).index(self._fallback.choose(view, legal))
        deadline = start + 0.97 * self.move_time - 0.002
        source = None
        if self.model is not None or self.exact_below:
            source = WorldSource(view, model=self.model, oversample=self.oversample,
                                 batch=min(8, self.max_worlds), deadline=deadline,
                                 exact_below=min(self.exact_below, self.max_worlds))
        found = action_values(view, legal, self.max_worlds, self.rng, self.solver(),
                              deadline=deadline,
                              tolerance=self.tolerance, helpers=self.helpers(), strict=True,
                              anchor=anchor, settle=self.settle, source=source)
        if found.worlds < 0:  # out of time before the first world: the rules bot's choice
            self.fallbacks += 1
            self.last_worlds = 0
            return legal[anchor] if anchor is not None else self._fallback.choose(view, legal)
        if found.worlds:
            self.last_worlds = found.worlds
        best = max(found.values)
        # ties (common: equivalent cards) go to the first of the engine's order, as rules do
        pick = next(i for i, v in enumerate(found.values) if math.isclose(v, best))
        if anchor is not None and found.stderr is not None and pick != anchor:
            gain = found.values[pick] - found.values[anchor]
            if not gain > self.confidence * found.stderr[pick]:
                return legal[anchor]
        return legal[pick]


@register("pimc_infer", "pimc whose worlds are weighted by how likely the others' plays were "
                        "in them (the rules bot as their model), every world valued where few")
class PimcInferBot(PimcBot):
    """:class:`PimcBot` with ``infer=True`` and ``exact_below=64`` by default."""

    def __init__(self, seed: int | None = None, infer: bool = True, exact_below: int = 64,
                 **settings: Any):
        super().__init__(seed=seed, infer=infer, exact_below=exact_below, **settings)


@register("cheat", "sees every hand and plays the exact solver's best action "
                   "(analysis only: never offered at a table)", at_table=False)
class CheatBot(_SearchBot):
    """Needs the real deal: ``attach(deal)`` before each decision (the arena does it)."""

    sees_all = True

    def __init__(self, seed: int | None = None, **settings: Any):
        super().__init__(seed=seed, **settings)
        self._deal: Callable[[], Deal] | None = None

    def attach(self, deal: Deal | Callable[[], Deal]) -> None:
        self._deal = deal if callable(deal) else (lambda: deal)

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        if self._deal is None:
            raise TuteError("the cheat bot needs the deal (attach(deal)); it is for analysis "
                            "only and cannot sit at a table")
        if len(legal) == 1:
            return legal[0]
        deal = self._deal()
        evaluator = _Evaluator(self.rng, self.solver())
        values = evaluator.values(deal, view.seat, legal, math.inf)
        best = max(values)
        return legal[next(i for i, t in enumerate(values) if math.isclose(t, best))]
