"""Search bots think in worker processes, never on the server's event loop.

A search bot spends its whole ``move_time`` (about a second at *difícil*) in Python: in a thread
it would hold the interpreter lock and delay every other table's intents. Bots whose class says
``heavy = True`` are sent to a small pool of processes (``spawn``: the solver's OpenMP threads
are not fork-safe) with only what they may know -- the seat's view and the legal actions -- and
a seed derived from the table's, so a restart replays the same choices. Light bots (``random``,
``rules``: microseconds) keep running in a thread beside the loop. Hints (:mod:`tute.hints`:
the search bot's suggestion for a player, from the player's view) and the analysis of finished
games (:mod:`tute.analysis`: the double-dummy measure of one deal, the search measure of a few
decisions at a time; :mod:`tute.server.analyses` schedules them) go to the same pool.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ..actions import Action
from ..bots import Bot, make_bot
from ..views import SeatView

__all__ = ["BotPool", "close_shared_pool", "is_heavy", "shared_pool"]


def _watch_server(server: int) -> None:
    """In a worker: exit when the server that started it is gone. A server killed outright
    (kill -9, an out-of-memory kill) never shuts its pool down, and its workers -- a few
    hundred MB each, with the solver loaded -- would otherwise live on as orphans."""
    def watch() -> None:
        while os.getppid() == server:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="watch-server", daemon=True).start()


def is_heavy(bot: Bot) -> bool:
    return bool(getattr(bot, "heavy", False))


def _choose(spec: str, seed: int, view: SeatView, legal: Sequence[Action]) -> str:
    """In the worker: a fresh bot from its spec and seed chooses from the view alone."""
    bot = make_bot(spec, seed=seed)
    return str(bot.choose(view, legal))


def _hint(view: SeatView, seed: int) -> dict[str, Any]:
    """In the worker: the search bot's suggestion for the seat, from its view alone."""
    from ..hints import suggest

    return suggest(view, seed).to_json()


def _warm() -> bool:
    """In the worker: load the hints' search (tute.hints.prepare); whether it is ready."""
    from ..hints import prepare

    return prepare()


_SOLVERS: dict[str, Any] = {}


def _kept_solver(name: str, tt_mb: int) -> Any:
    """One solver per use and worker process, reused by every analysis (None without numba)."""
    if name not in _SOLVERS:
        try:
            from ..solver import Solver
        except ImportError:
            _SOLVERS[name] = None
        else:  # one thread: the figures do not depend on it, and the bots need the cores
            _SOLVERS[name] = Solver(tt_mb=tt_mb, threads=1)
    return _SOLVERS[name]


def _analyse(record: dict[str, Any], deals: list[int] | None) -> dict[str, Any]:
    """In the worker: the double-dummy analysis of a finished game's record (all hands
    known), of the ``deals`` of these numbers (0-based; None: all)."""
    from ..analysis import analyze_record

    return analyze_record(record, worlds=0, only=deals,
                          dd_solver=_kept_solver("dd", 64)).to_json()


def _search(record: dict[str, Any], moves: list[tuple[int, int]], worlds: int, seed: int,
            move_time: float | None) -> list[dict[str, Any]]:
    """In the worker: the search measure (pimc from each seat's own view, ``tute analyze``'s
    seeds) of the decisions at these (deal, move) pairs of a finished game's record."""
    from ..analysis import analyze_record

    report = analyze_record(record, worlds=worlds, seed=seed, move_time=move_time,
                            moves=moves, exact=False,
                            search_solver=_kept_solver("search", 32))
    return [d.to_json() for d in report.decisions]


class BotPool:
    """A lazily started process pool for the heavy bots of every table."""

    def __init__(self, workers: int | None = None) -> None:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 2
        self.workers = workers or max(1, min(4, cores))
        self._pool: ProcessPoolExecutor | None = None
        self._warming: asyncio.Future[list[Any]] | None = None

    def warm(self) -> None:
        """Prepare the hints' search in the background, once per pool: the workers start and
        each loads the solver's compiled code (from numba's cache, or compiled on a fresh
        install: half a minute), so the first hint after a start does not wait for it. One
        task per worker: each holds its worker for a while, so idle workers take one each."""
        if self._warming is not None:
            return
        loop = asyncio.get_running_loop()
        tasks = [loop.run_in_executor(self._executor(), _warm) for _ in range(self.workers)]
        self._warming = asyncio.gather(*tasks, return_exceptions=True)

    def readiness(self) -> str:
        """The hints' search in the pool: "cold" (not prepared: the first hint loads it),
        "preparing", "ready", or "failed" (a worker could not load it)."""
        if self._warming is None:
            return "cold"
        if not self._warming.done():
            return "preparing"
        return "ready" if all(r is True for r in self._warming.result()) else "failed"

    async def warmed(self) -> bool:
        """Whether warming was asked for and every worker's search is ready (waits for it)."""
        if self._warming is None:
            return False
        done = await asyncio.shield(self._warming)
        return all(r is True for r in done)

    async def choose(self, spec: str, seed: int, view: SeatView,
                     legal: Sequence[Action]) -> str:
        loop = asyncio.get_running_loop()
        result: Any = await loop.run_in_executor(self._executor(), _choose, spec, seed, view,
                                                 list(legal))
        return str(result)

    async def hint(self, view: SeatView, seed: int) -> dict[str, Any]:
        """A hint for the seat of ``view`` (tute.hints: action and reason), off the loop."""
        loop = asyncio.get_running_loop()
        result: dict[str, Any] = await loop.run_in_executor(self._executor(), _hint, view, seed)
        return result

    async def analyse(self, record: dict[str, Any],
                      deals: Sequence[int] | None = None) -> dict[str, Any]:
        """The double-dummy analysis of a finished game's record (tute.analysis), or of some
        of its deals (0-based), off the loop."""
        loop = asyncio.get_running_loop()
        result: dict[str, Any] = await loop.run_in_executor(
            self._executor(), _analyse, record, None if deals is None else list(deals))
        return result

    async def search(self, record: dict[str, Any], moves: Sequence[tuple[int, int]],
                     worlds: int, seed: int, move_time: float | None) -> list[dict[str, Any]]:
        """The search measure of the decisions at these (deal, move) pairs, off the loop."""
        loop = asyncio.get_running_loop()
        result: list[dict[str, Any]] = await loop.run_in_executor(
            self._executor(), _search, record, list(moves), worlds, seed, move_time)
        return result

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=_watch_server, initargs=(os.getpid(),))
        return self._pool

    def close(self) -> None:
        self._warming = None
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


_SHARED: BotPool | None = None


def shared_pool() -> BotPool:
    """The server's one pool (its processes start with the first search bot's move)."""
    global _SHARED
    if _SHARED is None:
        _SHARED = BotPool()
    return _SHARED


def close_shared_pool() -> None:
    global _SHARED
    if _SHARED is not None:
        _SHARED.close()
        _SHARED = None
