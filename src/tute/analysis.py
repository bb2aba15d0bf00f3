"""Analysis of game records: what every decision cost (docs/analysis.md).

For each decision of a deal or a match record -- a card, a cante, an exchange, a bid, a trump
choice, a pass --, two measures of the action taken against the best one:

- **search** (``best``, ``loss``): the pimc bot's valuation from the deciding seat's own view
  (:func:`tute.bots.pimc.action_values`): the mean value of every legal action over a fixed
  number of worlds sampled uniformly from what the seat knew, the worlds drawn from a seed
  derived from ``seed``, the deal and the move. With no time cap the figures depend on the
  record, ``worlds`` and ``seed`` alone: the analysis is reproducible.
- **double dummy** (``dd_best``, ``dd_loss``): the exact solver with every hand known, where
  it covers the position (card play of parejas and arrastrado, the arrastre of the stock
  games, and their stock phase with the stock's order known once at most ``stock_limit``
  cards are left in it: ``DEFAULT_STOCK_LIMIT``, 4); ``None`` elsewhere. One solver and its
  table serve the whole deal, and each position's value is the one found for the action
  played before it, so a whole deal costs about one solve of its first position.

A loss is the best value minus the value of the action taken, from the deciding seat's side
(≥ 0; 0 for the best action), in the units of :func:`tute.bots.pimc.objective`: points of the
side's margin (its points minus the other side's) in most games. A decision is a position
with at least two legal actions that differ from the seat's point of view (forced moves and a
choice between equivalent cards are not decisions). A record stopped mid-deal is analysed up
to its last action.

    >>> import tute
    >>> from tute.analysis import analyze_deals
    >>> deal = tute.Deal.new("tute_parejas", seed=3)
    >>> for _ in range(36):
    ...     _ = deal.apply(deal.legal_actions()[0])
    >>> report = analyze_deals([deal], worlds=4)
    >>> all(d.loss >= 0 and (d.dd_loss is None or d.dd_loss >= 0) for d in report.decisions)
    True
"""

from __future__ import annotations

import contextlib
import math
import random
import statistics
import time
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .actions import (
    Action,
    Bid,
    ChooseTrump,
    Claim,
    Discard,
    Exchange,
    Pass,
    Stop,
    TakeOver,
    ThrowIn,
)
from .cards import Card
from .errors import RecordError, TuteError
from .rules import Declaration

if TYPE_CHECKING:
    from .deal import Deal
    from .solver import Solver
    from .views import SeatView

__all__ = [
    "ACCURACY_MARGIN",
    "DEFAULT_SEED",
    "DEFAULT_STOCK_LIMIT",
    "DEFAULT_WORLDS",
    "Decision",
    "RecordAnalysis",
    "analyze_deals",
    "analyze_record",
    "costliest",
    "deals_of_record",
    "double_dummy",
    "format_analysis",
    "summarize",
]

DEFAULT_WORLDS = 32
#: the double-dummy measure solves stock-phase decisions with at most this many cards in the
#: stock (the stock's order known; bench/stock_solve.py: habanero's positions with 4 cards
#: left take about 0.1 s each, with 6 about 1 s, each two more cards about ten times longer)
DEFAULT_STOCK_LIMIT = 4
MAX_STOCK_LIMIT = 28
DEFAULT_SEED = 0
MAX_WORLDS = 10_000
#: a decision within this many points of the best counts as accurate: below a sota's worth
#: of margin, and above the sampling noise between close actions at the default budget
ACCURACY_MARGIN = 2.0
COSTLIEST = 3

Progress = Callable[[int, int], None]

_KINDS: tuple[tuple[type, str], ...] = (
    (Card, "card"), (Declaration, "cante"), (Exchange, "exchange"), (Bid, "bid"),
    (ChooseTrump, "trump"), (Discard, "discard"), (TakeOver, "takeover"), (Claim, "claim"),
    (ThrowIn, "throw"), (Stop, "stop"), (Pass, "pass"),
)


def action_kind(action: Action) -> str:
    return next((name for cls, name in _KINDS if isinstance(action, cls)), "other")


def _decision_kind(played: Action, legal: Sequence[Action]) -> str:
    """What was decided: the played action's kind, or for a pass what it declined."""
    if not isinstance(played, Pass):
        return action_kind(played)
    other = [action_kind(a) for a in legal if not isinstance(a, Pass)]
    return other[0] if other else "pass"


@dataclass
class Decision:
    """One decision of the record and what each measure says of it."""

    index: int  # the action's index in the record (a match counts its deals' actions in order)
    deal: int  # 0-based deal of the record
    move: int  # the action's index in its deal
    trick: int  # 1-based trick number
    seat: int
    side: int
    kind: str  # card, cante, exchange, bid, trump, discard, ...
    played: str
    legal: tuple[str, ...]
    best: str | None = None  # search measure (None: not measured, worlds=0)
    loss: float | None = None
    values: dict[str, float] | None = None  # search: the mean value of each legal action
    worlds: int = 0
    dd_best: str | None = None  # double dummy (None: the solver does not cover it)
    dd_loss: int | None = None
    #: double dummy: the deal's expected final margin at this decision with best play from
    #: here (side 0's with two sides, else the mover's against the rest; a tute is +-1000)
    dd_value: int | None = None
    #: search: why ``best`` (when it is not the action played), a fact about the position
    #: from the seat's view (tute.hints' reasons): {code, params, worlds, edge, es, en}
    reason: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index, "deal": self.deal, "move": self.move, "trick": self.trick,
            "seat": self.seat, "side": self.side, "kind": self.kind, "played": self.played,
            "best": self.best, "loss": None if self.loss is None else round(self.loss, 2),
            "dd_best": self.dd_best, "dd_loss": self.dd_loss, "dd_value": self.dd_value,
            "values": None if self.values is None
            else {a: round(v, 2) for a, v in self.values.items()},
            "worlds": self.worlds, "reason": self.reason,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Decision:
        """A decision of an analysis' JSON (its legal actions are those it has values of)."""
        names = ("index", "deal", "move", "trick", "seat", "side", "kind", "played", "best",
                 "loss", "values", "worlds", "dd_best", "dd_loss", "dd_value", "reason")
        return cls(legal=tuple(data.get("values") or ()),
                   **{k: data[k] for k in names if k in data})


@dataclass
class RecordAnalysis:
    """Every decision of a record with both measures, and a summary per seat and side."""

    variant: str
    kind: str  # "deal" | "match"
    seats: int
    sides: tuple[int, ...]  # the side of each seat
    decisions: list[Decision] = field(default_factory=list)
    deals: int = 0
    complete: bool = True  # the record's last deal is finished
    budget: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0

    def summary(self) -> dict[str, Any]:
        seats = [{"seat": s, "side": self.sides[s],
                  **summarize([d for d in self.decisions if d.seat == s])}
                 for s in range(self.seats)]
        out: dict[str, Any] = {"seats": seats, "accuracy_margin": ACCURACY_MARGIN}
        if len(set(self.sides)) < self.seats:  # partnerships: the sides too
            out["sides"] = [{"side": k, "seats": [s for s in range(self.seats)
                                                  if self.sides[s] == k],
                             **summarize([d for d in self.decisions if d.side == k])}
                            for k in sorted(set(self.sides))]
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RecordAnalysis:
        """An analysis from its JSON (:meth:`to_json`; the summary is computed again)."""
        sides = tuple(data["sides"])
        return cls(data["variant"], data.get("kind", "deal"), data.get("seats", len(sides)),
                   sides, [Decision.from_json(d) for d in data["decisions"]],
                   deals=data.get("deals", 1), complete=data.get("complete", True),
                   budget=dict(data.get("budget") or {}), seconds=data.get("seconds", 0.0))

    def to_json(self) -> dict[str, Any]:
        return {"variant": self.variant, "kind": self.kind, "deals": self.deals,
                "seats": self.seats, "sides": list(self.sides),
                "complete": self.complete, "budget": self.budget,
                "seconds": round(self.seconds, 3),
                "decisions": [d.to_json() for d in self.decisions],
                "summary": self.summary()}


def _mean(values: Sequence[float]) -> float | None:
    return round(statistics.fmean(values), 3) if values else None


def _accuracy(losses: Sequence[float]) -> float | None:
    if not losses:
        return None
    return round(100.0 * sum(x <= ACCURACY_MARGIN for x in losses) / len(losses), 1)


def costliest(decisions: Sequence[Decision], by: str = "loss",
              n: int = COSTLIEST) -> list[Decision]:
    """The ``n`` decisions that lost most by one measure (``loss`` or ``dd_loss``), the
    earliest first among equals; decisions that lost nothing are left out."""
    lost = [d for d in decisions if (getattr(d, by) or 0) > 0]
    return sorted(lost, key=lambda d: (-getattr(d, by), d.index))[:n]


def _brief(d: Decision, by: str) -> dict[str, Any]:
    best = d.best if by == "loss" else d.dd_best
    loss = getattr(d, by)
    return {"index": d.index, "deal": d.deal, "trick": d.trick, "seat": d.seat,
            "played": d.played, "best": best,
            by: round(loss, 2) if isinstance(loss, float) else loss}


def summarize(decisions: Sequence[Decision]) -> dict[str, Any]:
    """Per group of decisions: counts, points lost per decision, accuracy, the costliest."""
    search = [d.loss for d in decisions if d.loss is not None]
    dd = [float(d.dd_loss) for d in decisions if d.dd_loss is not None]
    return {
        "decisions": len(decisions),
        "loss_per_decision": _mean(search), "accuracy": _accuracy(search),
        "costliest": [_brief(d, "loss") for d in costliest(decisions, "loss")],
        "dd_decisions": len(dd),
        "dd_loss_per_decision": _mean(dd), "dd_accuracy": _accuracy(dd),
        "dd_costliest": [_brief(d, "dd_loss") for d in costliest(decisions, "dd_loss")],
    }


# ---------------------------------------------------------------------------------------------
# Reading records


def deals_of_record(record: Mapping[str, Any] | str | bytes) -> tuple[str, list[Deal]]:
    """The record's kind and its deals (a deal record has one), every action replayed and
    checked; :class:`~tute.RecordError` names what is wrong with a bad record."""
    from .deal import Deal
    from .match import Match
    from .records import parse_record_text

    if isinstance(record, (str, bytes)):
        record = parse_record_text(record)
    if not isinstance(record, Mapping):
        raise RecordError("invalid record: expected a JSON object at the top level")
    kind = record.get("kind", "deal")
    if kind == "match":
        return "match", list(Match.from_record(record).deals)
    return "deal", [Deal.from_record(record)]


def _start(deal: Deal) -> Deal:
    """The deal as it was before its first action (the engine's own opening moves, such as
    arrastrado's table-card exchanges, stay made)."""
    start = deal.copy()
    while start.actions:
        start.undo()
    return start


# ---------------------------------------------------------------------------------------------
# The double-dummy measure


def _tute_total(child: Deal, hero: int | None) -> int | None:
    """A child that ends the deal with a tute is worth +-TUTE_VALUE whatever came before (the
    solver's scale); None for any other child."""
    from .solver import taken_margin

    if child.is_over() and child.result().reason == "tute":
        return taken_margin(child, hero)
    return None


def _is_tute(value: int) -> bool:
    """A value that is a tute's (+-TUTE_VALUE): the solver gives it whole, whatever was taken
    before, so the points an action takes on the way are not added to it."""
    from .solver import TUTE_VALUE

    return abs(value) >= TUTE_VALUE // 2


@contextlib.contextmanager
def _applied(pos: Deal, act: Action) -> Iterator[Deal]:
    """``pos`` with ``act`` applied, taken back on leaving (a copy costs more)."""
    pos.apply(act)
    try:
        yield pos
    finally:
        pos.undo()


class _DoubleDummy:
    """The exact measure along one deal: one solver, whose table every position of the deal
    shares, and the value of the position reached by the action played, which is the next
    decision's value."""

    def __init__(self, solver: Solver):
        self.solver = solver
        self._known: tuple[int, int | None, int] | None = None  # (actions, hero, value)

    def _value(self, pos: Deal, hero: int | None, guess: int | None = None) -> int:
        key = (len(pos.actions), hero)
        if self._known is not None:
            if self._known[:2] == key:
                return self._known[2]
            if guess is None:  # after a forced move: the value is close to the last one
                guess = self._known[2]
        v = 0 if pos.is_over() else self.solver.value(pos, guess=guess or 0, hero=hero)
        self._known = (*key, v)
        return v

    def _total(self, pos: Deal, act: Action, hero: int | None, base: int, best: int,
               maximize: bool) -> int:
        """The value of ``act`` from ``pos`` (future margin, as :meth:`Solver.analyze`). No
        action is worth more to the mover than the best, so one zero-window probe tells
        whether ``act`` is worth it; only a mistake needs its exact value (a search that
        proves the value from both sides)."""
        from .solver import taken_margin

        with _applied(pos, act) as child:
            tute = _tute_total(child, hero)
            if tute is not None:
                return tute
            gained = taken_margin(child, hero) - base
            need = best if _is_tute(best) else best - gained
            if child.is_over():
                v = 0
            elif (self.solver.reaches(child, need, hero) if maximize
                  else not self.solver.reaches(child, need + 1, hero)):
                v = need
                self._known = (len(child.actions), hero, v)
            else:  # a mistake: the failed probe's bound is often its value
                v = self._value(child, hero, guess=self.solver.bound)
        return v if _is_tute(v) else gained + v

    def _reaches(self, pos: Deal, act: Action, hero: int | None, base: int, target: int,
                 maximize: bool) -> bool:
        """Is ``act`` worth ``target`` (the best) to the mover? A probe, not a value."""
        from .solver import taken_margin

        with _applied(pos, act) as child:
            tute = _tute_total(child, hero)
            if tute is not None:
                return tute == target
            need = target if _is_tute(target) else target - (taken_margin(child, hero) - base)
            if maximize:
                return self.solver.reaches(child, need, hero)
            return not self.solver.reaches(child, need + 1, hero)

    def measure(self, pos: Deal, act: Action) -> tuple[str, int, int] | None:
        """(the best action, the points ``act`` loses against it for the mover's side, the
        position's expected final margin) or None where the solver does not cover it."""
        from .solver import taken_margin

        mover = pos.to_move
        assert mover is not None
        hero = mover if pos.variant.sides(pos.options) > 2 else None
        maximize = hero is not None or pos.side_of(mover) == 0
        try:
            best = self._value(pos, hero)
            base = taken_margin(pos, hero)
            played = self._total(pos, act, hero, base, best, maximize)
            loss = best - played if maximize else played - best
            value = best if _is_tute(best) else base + best
            if loss <= 0:
                return str(act), 0, value
            for other in pos.legal_actions():
                if other != act and self._reaches(pos, other, hero, base, best, maximize):
                    return str(other), loss, value
        except TuteError:  # a position (or the child) the solver does not take
            self._known = None
            return None
        raise AssertionError("no legal action reaches the position's value")  # a solver bug


def double_dummy(deal: Deal, solver: Solver | None = None) -> list[Decision]:
    """The double-dummy measure alone over one deal (fast: the terminal game's post-deal
    review); the search fields stay None."""
    return analyze_deals([deal], worlds=0, dd_solver=solver).decisions


# ---------------------------------------------------------------------------------------------
# The analysis


def _solver(tt_mb: int) -> Solver | None:
    try:
        from .solver import Solver
    except ImportError:  # numba missing: rollouts only, no double dummy
        return None
    # one thread: the figures do not depend on it, and an analysis runs beside other work
    return Solver(tt_mb=tt_mb, threads=1)


@contextlib.contextmanager
def _stock_limit(solver: Solver | None, limit: int) -> Iterator[None]:
    """The solver searches stock-phase positions up to ``limit`` cards for the analysis
    (a solver passed in gets its own limit back afterwards)."""
    if solver is None:
        yield
        return
    kept = solver.stock_limit
    solver.stock_limit = limit
    try:
        yield
    finally:
        solver.stock_limit = kept


def _check_budget(worlds: Any, seed: Any, move_time: Any) -> None:
    if isinstance(worlds, bool) or not isinstance(worlds, int) or not 0 <= worlds <= MAX_WORLDS:
        raise TuteError(f"invalid worlds {worlds!r}: expected an integer 0..{MAX_WORLDS} "
                        "(0: the double-dummy measure only)")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise TuteError(f"invalid seed {seed!r}: expected an integer >= 0")
    if move_time is not None and (isinstance(move_time, bool)
                                  or not isinstance(move_time, int | float)
                                  or not 0 < move_time <= 600):
        raise TuteError(f"invalid move_time {move_time!r}: expected seconds in (0, 600]")


def analyze_deals(deals: Sequence[Deal], *, worlds: int = DEFAULT_WORLDS,
                  seed: int = DEFAULT_SEED, move_time: float | None = None,
                  kind: str = "deal", progress: Progress | None = None,
                  dd_solver: Solver | None = None, tt_mb: int = 64,
                  only: Collection[int] | None = None,
                  moves: Collection[tuple[int, int]] | None = None, exact: bool = True,
                  search_solver: Solver | None = None,
                  stock_limit: int = DEFAULT_STOCK_LIMIT) -> RecordAnalysis:
    """Both measures over every decision of ``deals`` (a deal, or a match's deals in order).

    ``worlds`` per decision for the search measure (0: double dummy only); ``move_time``
    caps the seconds of one decision's search (at least one world; the figures then depend
    on the machine); ``progress(done, total)`` is called after each action.

    Parts of the work, for a server that spreads it over time (each part gives the figures
    the whole analysis gives for it: indexes, seeds and the solver's values do not depend
    on what else is analysed): ``only`` the deals of these 0-based numbers; ``moves`` only
    the decisions at these (deal, move) pairs; ``exact=False`` leaves the double-dummy
    measure out. ``dd_solver`` and ``search_solver`` reuse solvers (a process analysing
    many games keeps its own). ``stock_limit``: the double-dummy measure solves the stock
    phase's decisions with at most this many cards in the stock (0: from the arrastre on);
    the decisions with more stay unmeasured (``dd_loss`` None)."""
    _check_budget(worlds, seed, move_time)
    if (isinstance(stock_limit, bool) or not isinstance(stock_limit, int)
            or not 0 <= stock_limit <= MAX_STOCK_LIMIT):
        raise TuteError(f"invalid stock_limit {stock_limit!r}: expected an integer "
                        f"0..{MAX_STOCK_LIMIT}")
    if exact and dd_solver is None:
        dd_solver = _solver(tt_mb)
    with _stock_limit(dd_solver if exact else None, stock_limit):
        return _analyze(deals, worlds=worlds, seed=seed, move_time=move_time, kind=kind,
                        progress=progress, dd_solver=dd_solver, tt_mb=tt_mb, only=only,
                        moves=moves, exact=exact, search_solver=search_solver)


def _analyze(deals: Sequence[Deal], *, worlds: int, seed: int, move_time: float | None,
             kind: str, progress: Progress | None, dd_solver: Solver | None, tt_mb: int,
             only: Collection[int] | None, moves: Collection[tuple[int, int]] | None,
             exact: bool, search_solver: Solver | None) -> RecordAnalysis:
    """:func:`analyze_deals` once its arguments are checked."""
    from .bots.pimc import equivalent_actions

    if not deals:
        raise TuteError("nothing to analyse: no deal")
    first = deals[0]
    n = first.seats
    out = RecordAnalysis(first.variant.id, kind, n, tuple(first.side_of(s) for s in range(n)),
                         deals=len(deals), complete=deals[-1].is_over())
    out.budget = {"search": "pimc" if worlds else None, "worlds": worlds, "seed": seed,
                  "move_time": move_time, "double_dummy": "exact solver"}
    if dd_solver is not None and first.variant.stock:
        out.budget["stock_limit"] = dd_solver.stock_limit
    # the search's own solver: the sampled worlds would evict the real deal's entries
    search = search_solver or (_solver(max(1, tt_mb // 2)) if worlds else None)
    if not exact or dd_solver is None:
        out.budget["double_dummy"] = None
    wanted = None if moves is None else set(moves)
    total = sum(len(d.actions) for d in deals)
    done = 0
    t0 = time.perf_counter()
    for k, deal in enumerate(deals):
        if only is not None and k not in only:
            done += len(deal.actions)
            continue
        pos = _start(deal)
        dd = _DoubleDummy(dd_solver) if exact and dd_solver is not None else None
        for move, act in enumerate(deal.actions):
            seat = pos.to_move
            assert seat is not None
            if wanted is None or (k, move) in wanted:
                legal = list(pos.legal_actions())
                # what the seat has seen: its hand and every card played (as its view says)
                rep = equivalent_actions(pos.order, pos.stock_count,
                                         pos.hand(seat).mask | pos.played.mask, legal)
                if sum(r == i for i, r in enumerate(rep)) > 1:
                    dec = Decision(done, k, move, pos.trick_number, seat, pos.side_of(seat),
                                   _decision_kind(act, legal), str(act), tuple(map(str, legal)))
                    if dd is not None:
                        found = dd.measure(pos, act)
                        if found is not None:
                            dec.dd_best, dec.dd_loss, dec.dd_value = found
                    if worlds:
                        view = pos.view(seat)  # the search measure's only input
                        deadline = (math.inf if move_time is None
                                    else time.perf_counter() + move_time)
                        _search_measure(dec, view, legal, act,
                                        random.Random(f"tute-analysis:{seed}:{k}:{move}"),
                                        worlds, search, deadline)
                    out.decisions.append(dec)
            pos.apply(act)
            done += 1
            if progress is not None:
                progress(done, total)
    out.seconds = time.perf_counter() - t0
    return out


def _search_measure(dec: Decision, view: SeatView, legal: list[Action], act: Action,
                    rng: random.Random, worlds: int, solver: Solver | None,
                    deadline: float) -> None:
    """The search's fields of ``dec``: every legal action's mean value over the worlds, the
    best, the loss and, when the best is not the action played, why (from the view)."""
    from .bots.pimc import action_values
    from .hints import Hint, reason_for

    res = action_values(view, legal, worlds, rng, solver, deadline=deadline)
    dec.values = {str(a): v for a, v in zip(legal, res.values, strict=True)}
    dec.worlds = res.worlds
    top = max(res.values)
    mine = dec.values[str(act)]
    # a tie with the best is the best (to the reported precision: lost games weigh 100 and
    # the margin only breaks ties, in thousandths)
    if math.isclose(mine, top, abs_tol=0.005):
        dec.best, dec.loss = str(act), 0.0
        return
    i = next(i for i, v in enumerate(res.values) if math.isclose(v, top))
    dec.best, dec.loss = str(legal[i]), top - mine
    code, params = reason_for(view, legal[i], legal)
    dec.reason = Hint(dec.best, code, params, res.worlds, dec.loss).to_json()["reason"]


def analyze_record(record: Mapping[str, Any] | str | bytes, **kwargs: Any) -> RecordAnalysis:
    """:func:`analyze_deals` over a record's deals (a bad record: :class:`~tute.RecordError`)."""
    kind, deals = deals_of_record(record)
    return analyze_deals(deals, kind=kind, **kwargs)


# ---------------------------------------------------------------------------------------------
# Text


def _num(value: float | int | None, digits: int = 1) -> str:
    if value is None:
        return "-"
    return f"{value:.{digits}f}" if isinstance(value, float) else str(value)


def format_analysis(report: RecordAnalysis) -> list[str]:
    """The analysis as text lines: one row per decision, then the summary per seat."""
    b = report.budget
    state = "finished" if report.complete else "stopped mid-deal"
    lines = [f"{report.variant}, {report.kind} record: {len(report.decisions)} decisions "
             f"in {report.deals} deal{'s' if report.deals != 1 else ''} ({state})"]
    search = (f"search: pimc from each seat's own view, {b['worlds']} worlds a decision, "
              f"seed {b['seed']}" + (f", at most {b['move_time']:g} s a decision"
                                     if b.get("move_time") else "")
              if b.get("worlds") else "search: off (--worlds 0)")
    dd = ("double dummy: the exact solver, every hand known (- where it does not reach)"
          if b.get("double_dummy") else "double dummy: unavailable (the solver needs numba)")
    lines += [search, dd, f"losses: points of the deciding side's margin; accuracy: the share "
              f"of decisions within {ACCURACY_MARGIN:g} points of the best", ""]
    lines.append(f"{'#':>5} {'deal':>4} {'trick':>5} {'seat':>4}  {'kind':<9}{'played':<10}"
                 f"{'best':<10}{'loss':>6}   {'dd best':<10}{'dd loss':>7}")
    for d in report.decisions:
        flag = "?" if max(d.loss or 0, d.dd_loss or 0) > ACCURACY_MARGIN else " "
        lines.append(f"{d.index:>5} {d.deal + 1:>4} {d.trick:>5} {d.seat:>4}{flag} "
                     f"{d.kind:<9}{d.played:<10}{d.best or '-':<10}{_num(d.loss):>6}   "
                     f"{d.dd_best or '-':<10}{_num(d.dd_loss):>7}")
    summary = report.summary()
    lines += ["", f"{'seat':>4} {'side':>4} {'decisions':>9} {'loss/dec':>9} {'accuracy':>9}"
              f" {'dd dec':>7} {'dd loss/dec':>12} {'dd accuracy':>12}"]
    for row in summary["seats"]:
        lines.append(f"{row['seat']:>4} {row['side']:>4} {row['decisions']:>9} "
                     f"{_num(row['loss_per_decision'], 2):>9} "
                     f"{_pct(row['accuracy']):>9} {row['dd_decisions']:>7} "
                     f"{_num(row['dd_loss_per_decision'], 2):>12} {_pct(row['dd_accuracy']):>12}")
    for key, what in (("costliest", "search"), ("dd_costliest", "double dummy")):
        worst = [(row["seat"], row[key]) for row in summary["seats"] if row[key]]
        if worst:
            lines.append("")
            lines.append(f"costliest decisions ({what}):")
            loss = "loss" if key == "costliest" else "dd_loss"
            for seat, rows in worst:
                lines.append(f"  seat {seat}: " + ", ".join(
                    f"#{r['index']} {r['played']} (best {r['best']}, -{_num(r[loss])})"
                    for r in rows))
    return lines


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}%"
