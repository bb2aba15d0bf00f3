"""The exact (perfect-information) solver: optimal future point margins of card-play positions.

>>> import tute
>>> from tute.solver import Solver
>>> deal = tute.Deal.new("tute_parejas", seed=7, dealer=3)
>>> for _ in range(32):
...     _ = deal.apply(deal.legal_actions()[0])
>>> solver = Solver(tt_mb=16)
>>> analysis = solver.analyze(deal)
>>> analysis.value == max(v for _a, v in analysis.actions) if deal.to_move % 2 == 0 else True
True

Value: side 0's future points minus the other side's -- card points of the tricks still to be
won (including the current trick), the 10 of the last trick, and the cantes still to come,
under the variant's options (rules.md §1.3–§1.6) -- with every hand known and both sides
playing perfectly. A tute ends the deal: it is worth ``+-TUTE_VALUE`` (1000) to the side that
sings it, whatever the points. Declarations are part of the search (see
:mod:`tute.solver._search` for the one exact pruning used), so the value equals exhaustive
minimax over the core's ``Deal.legal_actions()``.

Tute arrastrado (three players, or four with ``players=4``): one player, the *hero* (by
default the player to move at the queried position), against the other players combined.
The value is then the hero's future points (card points of the tricks the hero still wins,
the current trick included; the 10 of the last trick if the hero takes it; the hero's cantes
still to come) minus the sum of the same future points of every other player, the hero
maximising it and the others, as one coalition, minimising it. A tute is ``+TUTE_VALUE`` if
the hero sings it, ``-TUTE_VALUE`` if anybody else does. As every point still out goes to
somebody, this is ``2 * (hero's future points) - (all future points)``: the hero's guaranteed
share against the worst case. The rules stay individual (each player declares only after its
own wins; first-win restrictions and forfeits are per player). "Side 0" then means the hero,
"side 1" the coalition; :meth:`Solver.analyze` values every action with the same hero.

Positions covered: any card-play position of Tute por parejas and of Tute arrastrado (after
the table-card exchanges); the arrastre (stock empty) of Guiñote and of the two-player games;
and with ``stock_limit`` the stock phase of those games with at most that many cards in the
stock, the stock's order known (:mod:`tute.solver.stock`: its polls, exchanges and cantes
included). Not covered (``UnsupportedPositionError``; ``NotCardPlayPositionError`` for a
stock past the limit): a pending exchange or dealt-tute poll outside the stock phase, deals
*de vueltas* with ``vueltas_claim=auto`` (play may stop at 101), ``thirty_malas`` (cantes
conditional on the final card points), ``renuncio_mode=claim`` (any card may be played)
and the card play of Tute cabrón and Tute subastado (cantes by the cards of a trick, the
idle seat, the widow: not in the kernel).
"""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numba
import numpy as np

from ..errors import TuteError
from ..kernel import NotCardPlayPositionError, from_deal
from ..kernel import _tables as T
from ._search import (
    HELPER_MOBILITY,
    KILLER_MIN,
    KILLERS,
    MAXPLY,
    MOBILITY,
    QUIET_MAX,
    SC_MOBILITY,
    SCRATCH,
    ST_ABORT,
    ST_GEN,
    ST_KMIN,
    ST_NODES,
    ST_PKILL,
    ST_QMAX,
    ST_QS,
    ST_SKEW,
    ST_T2,
    ST_VOID,
    STATS_SIZE,
    TUTE_VALUE,
    WIDE,
    root_search,
    root_search_threads,
)
from .stock import BIG, StockSearch, check_stock, is_tute

if TYPE_CHECKING:
    from ..deal import Deal

__all__ = [
    "TUTE_VALUE",
    "Analysis",
    "NotCardPlayPositionError",
    "SearchInterrupted",
    "Solver",
    "SolverError",
    "UnsupportedPositionError",
    "compiled",
]

def compiled() -> bool:
    """Whether the search's machine code is loaded in this process. Its first use compiles
    it (numba; about half a minute on a fresh install, then kept in numba's cache) or reads
    it from that cache: the front ends say they are preparing while it is not."""
    return bool(root_search.signatures)


ENTRY_BYTES = 32  # three key words and one data word per table entry
MAX_TT_MB = 4096
MAX_THREADS = 8
#: smaller positions are searched by one thread: their probes take less time than handing
#: them to other threads (a two-player endgame of 8 cards each takes ~0.3 ms)
PARALLEL_MIN_CARDS = 24
INF = 1 << 20
#: a probe whose bound lands this far past its threshold is followed by a probe at that
#: bound (200 deals: the slowest one -28% nodes, the total -1.5%)
JUMP = 40
#: at most this many rows (32 bytes each, 64 KB) for the bounds of last-two-trick positions:
#: looked up at every leaf of the last three tricks, the table pays for its misses only while
#: it stays in the core's own caches (150 deals paired, one thread / two: 2 MB of it against
#: 64 KB 1.06 / 1.03 times slower, the same-code control 1.04 / 1.045; 32 KB about as good as
#: 64, 16 KB and 4 KB worse)
T2_MAX = 1 << 11
#: the largest stock_limit (a full stock: 40 cards less two hands of six)
MAX_STOCK = 28
#: the stock search's table is dropped past this many positions (a sampling bot's worlds
#: would otherwise fill it without end)
STOCK_TABLE_MAX = 200_000
#: numba's parallel search needs a thread-safe threading layer (OpenMP or TBB; the built-in
#: "workqueue" one aborts the process when two threads launch at once): asked for here,
#: before anything runs in parallel, unless the environment chose one
if "NUMBA_THREADING_LAYER" not in os.environ:
    numba.config.THREADING_LAYER = "threadsafe"  # type: ignore[attr-defined]
_PARALLEL_OK: list[bool] = []


def _numba_threads() -> bool:
    """Can the parallel search run in numba's thread pool? (Checked once, by launching it
    on a tiny position: an unavailable layer raises.)"""
    if not _PARALLEL_OK:
        ok = False
        try:
            st = np.zeros(T.S_SIZE, dtype=np.int64)
            st[T.S_OVER] = 1
            out = np.zeros(2, dtype=np.int64)
            root_search_threads(st, np.zeros(T.C_SIZE, dtype=np.int64),
                                np.zeros((2, STATS_SIZE), dtype=np.int64),
                                np.zeros((2, 4), dtype=np.int64),
                                np.zeros((2, MAXPLY, SCRATCH), dtype=np.int64), 0, 1, out)
            ok = numba.threading_layer() in ("omp", "tbb")  # type: ignore[attr-defined]
        except (ValueError, ImportError, RuntimeError):
            ok = False
        _PARALLEL_OK.append(ok)
    return _PARALLEL_OK[0]


def _table_rows(rows: int) -> np.ndarray:
    """A zeroed (rows, 4) int64 table that starts on a 64-byte cache line, so that a bucket
    (two rows) is one line: numpy's own arrays start 16 bytes past one, which split every
    bucket over two lines."""
    raw = np.zeros(rows * 4 + 8, dtype=np.int64)
    start = (-raw.ctypes.data % 64) // 8
    return raw[start:start + rows * 4].reshape(rows, 4)


class SolverError(TuteError):
    """Base class of the solver's errors."""


class UnsupportedPositionError(SolverError):
    """A position the solver cannot value exactly (see the module docstring)."""


class SearchInterrupted(Exception):
    """:meth:`Solver.interrupt` stopped a search: it has no value. Not a :class:`TuteError`
    (the position is fine; the caller ran out of time)."""


@dataclass
class Analysis:
    """The value of a position and of each legal action (both as side 0's future margin;
    in arrastrado, the ``hero``'s against the others combined)."""

    value: int
    actions: list[tuple[str, int]] = field(default_factory=list)
    to_move: int | None = None
    nodes: int = 0
    ms: float = 0.0
    hero: int | None = None  # arrastrado: the seat whose margin the values are

    def to_json(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "to_move": self.to_move,
            "actions": [{"action": a, "value": v} for a, v in self.actions],
            "nodes": self.nodes,
            "ms": round(self.ms, 3),
            **({} if self.hero is None else {"hero": self.hero}),
        }


def _signs(deal: Deal, hero: int | None) -> list[int]:
    """+1 / -1 per rule side: side 0 against side 1, or ``hero`` against everybody else."""
    sides = deal.variant.sides(deal.options)
    if sides == 2:
        return [1, -1]
    if hero is None:
        hero = deal.to_move if deal.to_move is not None else 0
    return [1 if s == hero else -1 for s in range(sides)]


def taken_margin(deal: Deal, hero: int | None = None) -> int:
    """Side 0's points minus side 1's so far: cards, cantes, and the last trick once over.
    With more than two sides: ``hero``'s (default: the seat to move) minus the others'."""
    sign = _signs(deal, hero)
    if deal.is_over():
        res = deal.result()
        if res.reason == "tute":
            singer = next(s for s, d, _p in deal.cantes if d.is_tute)
            return TUTE_VALUE * sign[deal.side_of(singer)]
        return sum(g * t for g, t in zip(sign, res.totals, strict=True))
    total = sum(g * p for g, p in zip(sign, deal.card_points, strict=True))
    for seat, _decl, p in deal.cantes:
        total += sign[deal.side_of(seat)] * p
    return total


class Solver:
    """An exact solver with its own transposition table (``tt_mb`` megabytes, power of two
    entries, at most 512 MB by default policy; reused across calls on the same rules), plus
    a small one (up to 64 KB) for the bounds of positions two tricks from the end. A full
    parejas deal stores a median 24k entries (the most of 30 deals: 96k); 4 to 16 MB
    instead of 64 took 2-5% off its median time (one thread or two, 200 deals paired) and
    made the slowest deals slower (the worst of 200 with two threads: 209 ms against 155);
    the gain came with the smaller last-two-trick table of a smaller table: with that one at
    64 KB, 8 and 16 MB are within 2% of 64 (200 deals paired, two threads), and arrastrado's
    full deals take 16% longer in 16 MB than in 64 (12 deals).

    ``threads`` (default: 2 when the process may use two cores, else 1) searches every probe
    of :meth:`value` and :meth:`wins` with that many threads over the one table: the helpers
    start with their second-best lead (and take the root's other leads from the worst up,
    meeting the main thread halfway) and order moves with a heavier
    penalty for the opponents' options, filling the table with bounds the others then find,
    and whichever finishes first answers (lazy SMP). Values never depend on the thread
    count; node counts and times do. Measured against it and not kept (150 deals, two
    threads): each thread searching a zero window of its own (the two halves of a one-value
    window, or two thresholds at once) and, at trick starts with 4 to 8 cards in hand,
    leads another thread is searching put off to a second pass (ABDADA): times within 5%.

    The threads are numba's own (its OpenMP or TBB threading layer, asked for on import
    unless ``NUMBA_THREADING_LAYER`` is set): they start a probe in ~5 us. Without a
    thread-safe layer (no GNU libgomp, no tbb) a Python thread pool takes over (~85 us a
    probe, ~4% slower on full deals). With GNU OpenMP, a process that forks after solving
    with two threads must not solve in the child (OpenMP is not fork-safe): use the
    ``spawn`` start method, or ``threads=1`` there."""

    def __init__(self, tt_mb: int = 64, threads: int | None = None, stock_limit: int = 0):
        if (isinstance(stock_limit, bool) or not isinstance(stock_limit, int)
                or not 0 <= stock_limit <= MAX_STOCK):
            raise SolverError(f"invalid stock_limit {stock_limit!r}: expected 0..{MAX_STOCK}")
        #: stock-phase positions with at most this many cards in the stock are searched too
        #: (:mod:`tute.solver.stock`: the stock's order known); 0: from the arrastre only
        self.stock_limit = stock_limit
        self._stock: StockSearch | None = None
        self._stock_rules: tuple[str, object] | None = None
        self.stock_nodes = 0  # the stock search's own nodes (its leaves' are the tables')
        if isinstance(tt_mb, bool) or not isinstance(tt_mb, int) or not 1 <= tt_mb <= MAX_TT_MB:
            raise SolverError(f"invalid tt_mb {tt_mb!r}: expected 1..{MAX_TT_MB}")
        if threads is None:
            threads = min(2, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                          else os.cpu_count() or 1)
        if (isinstance(threads, bool) or not isinstance(threads, int)
                or not 1 <= threads <= MAX_THREADS):
            raise SolverError(f"invalid threads {threads!r}: expected 1..{MAX_THREADS}")
        entries = 1 << ((tt_mb << 20) // ENTRY_BYTES).bit_length() - 1
        # one row per entry: three key words and the data word (32 bytes; a bucket of two
        # entries is one cache line)
        # plus up to T2_MAX rows (64 KB) for the bounds of last-two-trick positions: one array,
        # so that the recursive search takes one argument fewer (each one costs every call)
        t2_rows = min(T2_MAX, max(entries >> 4, 1))
        self.tt = _table_rows(entries + t2_rows)
        #: ``threads`` probes of the exact value run at once, each with its own counters and
        #: scratch rows, all sharing the table
        self.threads = threads
        # one block of counters and one of scratch rows for all threads (numba's parallel
        # search takes them as one array each); ``_work`` holds each thread's views
        self._stats = np.zeros((threads, STATS_SIZE), dtype=np.int64)
        self._scratch = np.zeros((threads, MAXPLY, SCRATCH), dtype=np.int64)
        self._out = np.zeros(threads, dtype=np.int64)
        self._work = [(self._stats[j], self._scratch[j]) for j in range(threads)]
        for j, (stats, mv) in enumerate(self._work):
            stats[ST_SKEW] = j  # helpers (j > 0) try other leads first; reset() keeps it
            stats[ST_T2] = t2_rows
            stats[ST_QS] = 1
            stats[ST_KMIN] = KILLER_MIN
            stats[ST_PKILL] = 1
            stats[ST_QMAX] = QUIET_MAX
            mv[0, SC_MOBILITY] = MOBILITY if j == 0 else HELPER_MOBILITY
        self.stats, self._moves = self._work[0]
        self.stats[ST_GEN] = 1
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()
        self._last_cfg: bytes | None = None
        self.nodes = 0  # nodes of the last call
        #: the last :meth:`reaches` probe's fail-soft value: a bound of the value past the
        #: threshold (at most it when the probe failed, at least it when it held), often
        #: the value itself -- a caller that needs the value next guesses it
        self.bound = 0
        # set by interrupt() from any thread: every search stops at its next trick start
        self._interrupted = False

    @property
    def tt_bytes(self) -> int:
        return int(self.tt.nbytes)

    def interrupt(self) -> None:
        """Stop the search under way (callable from another thread, e.g. a timer): it
        raises :class:`SearchInterrupted`, having stored nothing, and so does every search
        until :meth:`resume`."""
        self._interrupted = True
        self._stats[:, ST_ABORT] = 1

    def resume(self) -> None:
        """Undo :meth:`interrupt`: searches run again."""
        self._interrupted = False
        self._stats[:, ST_ABORT] = 0
        self._stats[:, ST_VOID] = 0

    def reset(self) -> None:
        """Forget the tables' contents (O(1): entries carry a generation stamp)."""
        self._reset_table()
        self._stock = None  # and the stock search's table

    def _reset_table(self) -> None:
        gen = int(self.stats[ST_GEN]) + 1
        if gen >= 0xFFFF:
            self.tt[:] = 0
            gen = 1
        for stats, _mv in self._work:
            stats[ST_GEN] = gen
        # and the killer moves: what a query searches depends only on the queries since the
        # last reset (the table's entries and the killers), never on those before
        self._stats[:, KILLERS:] = 0
        self._last_cfg = None

    # ------------------------------------------------------------------ positions

    def _state(self, deal: Deal, hero: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        if hero is not None and (isinstance(hero, bool) or not isinstance(hero, int)
                                 or not 0 <= hero < deal.seats):
            raise SolverError(f"invalid hero {hero!r}: expected a seat 0..{deal.seats - 1}")
        cfg, st = from_deal(deal, hero)
        if st[T.S_OVER]:
            return cfg, st
        if st[T.S_STOCK]:
            raise NotCardPlayPositionError(
                f"not a card-play position: {deal.variant.id} is in its stock phase "
                f"({deal.stock_count} cards in the stock); the solver starts at the arrastre"
            )
        if cfg[T.C_NSIDES] != 2 and not deal.game.kernel_config(deal.options).solver_sides:
            raise UnsupportedPositionError(
                f"{deal.variant.id}: the card play of this game is not supported by the solver")
        self._check_options(deal)
        key = cfg.tobytes()
        if key != self._last_cfg:
            self._reset_table()  # the stock search's table is kept: it knows its rules
            self._last_cfg = key
        return cfg, st

    @staticmethod
    def _check_options(deal: Deal) -> None:
        if deal.options.renuncio_mode == "claim":
            raise UnsupportedPositionError("renuncio_mode=claim is not supported by the solver")
        if deal.options.thirty_malas:
            raise UnsupportedPositionError("thirty_malas is not supported by the solver")
        if deal.carry is not None and deal.options.vueltas_claim == "auto":
            raise UnsupportedPositionError(
                "deals de vueltas with vueltas_claim=auto are not supported by the solver")

    # ------------------------------------------------------------------ the stock phase

    @staticmethod
    def in_stock(deal: Deal) -> bool:
        """A position of the stock phase (the stock search's, not the numba search's)."""
        return bool(deal.stock_count) and not deal.is_over()

    def _stock_search(self, deal: Deal) -> StockSearch:
        check_stock(deal, self.stock_limit)
        self._check_options(deal)
        if deal.variant.sides(deal.options) != 2:
            raise UnsupportedPositionError(f"{deal.variant.id}: no stock search for it")
        rules = (deal.variant.id, deal.options)
        if (self._stock is None or self._stock_rules != rules
                or len(self._stock.table) > STOCK_TABLE_MAX):
            self._stock = StockSearch(self, taken_margin, SearchInterrupted)
            self._stock_rules = rules
        return self._stock

    def covers(self, deal: Deal) -> bool:
        """Whether :meth:`value` takes this position (a stock within ``stock_limit``)."""
        try:
            if self.in_stock(deal):
                self._stock_search(deal)
            else:
                self._state(deal)
        except TuteError:
            return False
        return True

    def _stock_window(self, deal: Deal, alpha: int, beta: int) -> int:
        """Side 0's future margin of a stock-phase position, fail-soft in ``(alpha, beta)``
        (a tute whole, as everywhere in the solver)."""
        search = self._stock_search(deal)
        taken = taken_margin(deal)
        start = self._total_nodes()

        def total(x: int) -> int:
            return max(-BIG, min(BIG, x if is_tute(x) else x + taken))

        v = search.search(deal.copy(), total(alpha), total(beta))
        self.nodes = self._total_nodes() - start
        return v if is_tute(v) else v - taken

    def _serial(self, st: np.ndarray) -> bool:
        if self.threads == 1:
            return True
        cards = sum(int(st[T.S_H0 + i]).bit_count() for i in range(4))
        return cards < PARALLEL_MIN_CARDS

    def _window(self, cfg: np.ndarray, st: np.ndarray, alpha: int, beta: int) -> int:
        """One fail-soft window search: by this thread, or by every thread at once."""
        if self._interrupted:
            raise SearchInterrupted
        if self._serial(st):
            v = int(root_search(st, cfg, self.stats, self.tt, self._moves, alpha, beta))
        else:
            v = self._search(cfg, st, alpha, beta)
        if self._interrupted:  # the value may be void: an aborted search returns anything
            raise SearchInterrupted
        return v

    def _search(self, cfg: np.ndarray, st: np.ndarray, alpha: int, beta: int) -> int:
        """One window search by every thread at once over the shared table (each helper
        starts with another lead at the root, so that they fill the table with what the
        others will need); the first to finish answers and the others are told to stop.
        In numba's thread pool when it has a thread-safe layer (OpenMP or TBB), else in a
        Python thread pool."""
        if _numba_threads():
            stats = self._stats
            stats[:, ST_ABORT] = 0
            stats[:, ST_VOID] = 0
            if self._interrupted:  # interrupt() came between the check and the reset
                raise SearchInterrupted
            root_search_threads(st, cfg, stats, self.tt, self._scratch, alpha, beta,
                                self._out)
            if self._interrupted:
                raise SearchInterrupted
            stats[:, ST_ABORT] = 0
            # the first search to finish never saw the flag: at least one value is good
            return next(int(self._out[t]) for t in range(self.threads)
                        if stats[t, ST_VOID] == 0)
        return self._search_pool(cfg, st, alpha, beta)

    def _search_pool(self, cfg: np.ndarray, st: np.ndarray, alpha: int, beta: int) -> int:
        """:meth:`_search` in Python threads: the calling thread searches too, and a helper
        that finishes first stops it."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.threads - 1, thread_name_prefix="tute-solver")
        main = self.stats
        lock = self._lock
        live = [True]  # helpers may stop the main search only while it runs
        first: list[int] = []  # the value of the helper that finished first

        def helper(stats: np.ndarray, mv: np.ndarray) -> None:
            v = int(root_search(st, cfg, stats, self.tt, mv, alpha, beta))
            with lock:
                if live[0] and not first:
                    first.append(v)
                    main[ST_ABORT] = 1

        main[ST_ABORT] = 0
        helpers = [self._pool.submit(helper, *work) for work in self._work[1:]]
        value = int(root_search(st, cfg, main, self.tt, self._moves, alpha, beta))
        with lock:
            live[0] = False
        if first:  # a helper finished first: the main search's value is void
            value = first[0]
        for stats, _mv in self._work[1:]:
            stats[ST_ABORT] = 1
        wait(helpers)
        for stats, _mv in self._work:
            stats[ST_ABORT] = 0
        return value

    def _probe(self, cfg: np.ndarray, st: np.ndarray, threshold: int) -> bool:
        """Is the value >= threshold? One zero-window search."""
        return self._window(cfg, st, threshold - 1, threshold) >= threshold

    def _run_value(self, cfg: np.ndarray, st: np.ndarray, guess: int, tolerance: int = 0) -> int:
        """The exact value by probes with windows holding one value: stepping out from
        ``guess`` by doubling steps until the value is bracketed, then bisecting, then one
        search over the bracket once it is at most ``WIDE`` wide. MTD(f)'s fixed steps of 2
        took 30-50 probes on the parejas benchmark; this takes about 2 log2(error) + 2.

        The probe at the value costs most (from the exact value: -35% nodes over 80 deals;
        from a guess off by a normal error of sd 10: -15%, sd 20: -6 to -9%). Cheap first
        guesses for a full parejas deal, tried and not kept (40 + 40 deals): a linear fit of
        hand statistics (median error 15 points): nodes +5% / -11%; that fit plus the value
        of the deal without each hand's two lowest cards (searched for ~6% of the nodes,
        median error 13): instructions -5.1% / -3.4%; the deal without one card per hand
        (median error 6) costs 26% of the nodes itself. At the root, leads ordered by their
        bounds from the earlier probes and skipped once proven past the window: nodes +0.2%
        / +3% (the table already answers a re-searched lead after its first trick). The
        schedule itself hardly matters (200 deals, nodes within 5%: first steps of 4 to 40
        points, steps growing 1.5x to 3x, a first window of +-8 to +-64 around the guess;
        the wide windows cost 3-11% more): the half of all deals whose value is 48 points
        or more from 0 pay mostly for the probes next to the value, whatever leads there.
        Nor is the move ordering far from its floor: with the best lead of every trick start
        known (a solved deal's table with its bounds dropped), the probe at the value still
        takes 86% of its nodes (40 deals, median).

        Every value has the parity of ``scale * (points still in play) + tb`` (the 10 of
        the last trick and the cantes are even), so only thresholds of that parity are
        probed; a tute (+-1000) may break the parity, which costs a probe, never
        correctness."""
        fam = int(cfg[T.C_FAMILY])
        rem = 0
        for i in range(4):
            rem |= int(st[T.S_H0 + i])
        for i in range(int(st[T.S_TLEN])):
            rem |= 1 << int(st[T.S_T0 + i])
        r = sum(int(T.POINTS[fam, c]) for c in range(40) if rem >> c & 1)
        par = (int(cfg[T.C_SCALE]) * r + int(cfg[T.C_TB])) & 1
        lo, hi = -INF, INF
        step = 2
        b = guess
        jumped = False
        while lo < hi:
            if tolerance and hi - lo <= tolerance and lo > -INF and hi < INF:
                return (lo + hi) // 2  # close enough for the caller: a value in the bracket
            if hi - lo <= WIDE and lo > -INF and hi < INF:
                # bracketed closely: one search with the whole bracket as its window
                return self._window(cfg, st, lo - 1, hi + 1)
            if (b - par) & 1:
                b += 1
            b = min(max(b, lo + 1), hi)
            # a window holding the single value b: one search tells below / exactly b /
            # above, where a zero window would need a second probe
            g = self._window(cfg, st, b - 1, b + 1)
            if g >= b + 1:
                lo = g
            elif g <= b - 1:
                hi = g
            else:
                return g
            if abs(g - b) > JUMP and not jumped:
                # a bound far past the threshold (the table's or the quick bounds' at the
                # root, a forced line) is often the value itself: probe it next, once
                jumped = True
                b = g
                continue
            if hi == INF:
                b = lo + step
            elif lo == -INF:
                b = hi - step
            else:
                b = lo + 2 * (((hi - lo) // 2 + 1) // 2)
            step *= 2
        return lo

    def _total_nodes(self) -> int:
        return sum(int(stats[ST_NODES]) for stats, _mv in self._work) + self.stock_nodes

    # ------------------------------------------------------------------ queries

    def value(self, deal: Deal, guess: int = 0, hero: int | None = None,
              tolerance: int = 0) -> int:
        """Side 0's optimal future margin from this position (0 once the deal is over). In
        arrastrado: ``hero``'s (default: the seat to move) against the others combined.
        ``tolerance`` > 0 stops once the value is known within that many points and answers
        the middle of the bracket (fewer probes; for sampling bots that average values)."""
        if self.in_stock(deal):
            # one full-window search: the Python nodes cost most, and probes from a guess
            # (MTD(f)) visit three times as many of them for 7% fewer nodes in all (stock 4)
            return self._stock_window(deal, -BIG, BIG)
        cfg, st = self._state(deal, hero)
        start = self._total_nodes()
        v = 0 if st[T.S_OVER] else self._run_value(cfg, st, guess, tolerance)
        self.nodes = self._total_nodes() - start
        return v

    def reaches(self, deal: Deal, threshold: int, hero: int | None = None) -> bool:
        """Is :meth:`value` at least ``threshold``? One zero-window probe: far cheaper than
        the exact value (the analysis asks it of an action against the known best value)."""
        if self.in_stock(deal):
            self.bound = self._stock_window(deal, threshold - 1, threshold)
            return self.bound >= threshold
        cfg, st = self._state(deal, hero)
        if st[T.S_OVER]:
            self.bound = 0
            return threshold <= 0
        start = self._total_nodes()
        self.bound = self._window(cfg, st, threshold - 1, threshold)
        self.nodes = self._total_nodes() - start
        return self.bound >= threshold

    def analyze(self, deal: Deal, hero: int | None = None) -> Analysis:
        """The position's value and the value of each legal action (side 0's future margin
        from this position when that action is taken and play is perfect afterwards). In
        arrastrado every value is ``hero``'s (default: the seat to move)."""
        t0 = time.perf_counter()
        start = self._total_nodes()
        multi = deal.variant.sides(deal.options) > 2
        if multi and hero is None:
            hero = deal.to_move if deal.to_move is not None else 0
        value = self.value(deal, hero=hero)
        base = taken_margin(deal, hero)
        out: list[tuple[str, int]] = []
        for act in deal.legal_actions():
            child = deal.copy()
            child.apply(act)
            gained = taken_margin(child, hero) - base
            if child.is_over():  # a tute is worth +-TUTE_VALUE whatever was taken before
                v = taken_margin(child, hero) if child.result().reason == "tute" else gained
            else:
                v = gained + self.value(child, guess=value - gained, hero=hero)
            out.append((str(act), v))
        self.nodes = self._total_nodes() - start
        return Analysis(value, out, deal.to_move, self.nodes, (time.perf_counter() - t0) * 1e3,
                        hero if multi else None)

    def wins(self, deal: Deal, side: int = 0) -> bool:
        """Does ``side`` win the deal from here with perfect play: a final total strictly
        greater than the other side's, equal totals going by the tie rule (``tie_break`` of
        parejas; the last trick in the stock games)? Points already taken count."""
        if side not in (0, 1):
            raise SolverError(f"invalid side {side!r}: expected 0 or 1")
        if deal.variant.sides(deal.options) != 2:
            raise UnsupportedPositionError(
                f"{deal.variant.id}: wins() answers for two-sided games only")
        cfg, st = self._state(deal)
        taken = taken_margin(deal)
        if st[T.S_OVER]:
            res = deal.result()
            return res.winner == side
        rule = deal.options.tie_break if not deal.variant.stock else "last_trick"
        start = self._total_nodes()
        if rule == "last_trick":
            cfg = cfg.copy()
            cfg[T.C_SCALE] = 2
            cfg[T.C_TB] = 1
            # 2*taken + future is odd (the last trick adds +-1), so never a tie
            yes0 = self._probe(cfg, st, -2 * taken + 1)
            won = yes0 if side == 0 else not yes0
        else:
            mano0 = rule == "mano_side" and deal.side_of(deal.mano) == 0
            mano1 = rule == "mano_side" and deal.side_of(deal.mano) == 1
            if side == 0:
                won = self._probe(cfg, st, -taken + (0 if mano0 else 1))
            else:  # side 1 wins iff the final margin is < 0, or == 0 with its mano
                won = not self._probe(cfg, st, -taken + (1 if mano1 else 0))
        self.nodes = self._total_nodes() - start
        return won
