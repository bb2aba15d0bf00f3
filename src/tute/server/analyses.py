"""The analyses of finished games for the page (``GET /api/games/{id}/analysis``).

Two measures (:mod:`tute.analysis`, docs/analysis.md), computed in the bot pool, never on the
event loop, and never of a game being played (the double-dummy measure shows every hand):

- the **double-dummy** measure first, deal by deal, the deal the page asked for before the
  others: a parejas deal takes a second or two, so the page has something to show at once;
- then the **search** measure (the pimc valuation from each seat's own view: what a strong
  player could have known), in the background: a fixed budget (:class:`SearchBudget`: worlds
  and seed as ``tute analyze``, a safety cap on the seconds of a decision, a cap on the
  seconds of a whole game) spent in chunks of a few decisions, the deal the page shows
  first. The page polls ``/analysis/progress`` and asks again when its deal is done.

One job per game: whoever asks while it runs shares it. A finished analysis is kept in
memory and as ``<data dir>/analysis/<id>.json`` (the double-dummy part as soon as it is done,
so a restart only redoes the search). At most two analysis tasks run in the pool at once, one
double-dummy and one chunk of one game's search, so the double-dummy measure never waits for
a search and the pool's other workers stay free for the bots' moves; the games waiting for
the search form a queue of at most :data:`MAX_QUEUED`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..analysis import DEFAULT_SEED, DEFAULT_WORLDS, MAX_WORLDS, RecordAnalysis
from .botpool import BotPool
from .table import TableError

__all__ = ["ANALYSIS_VERSION", "Analyses", "SearchBudget", "analysis_of_deal"]

log = logging.getLogger("tute.server")

#: bumped when the analysis JSON changes: stored analyses of another version are redone
ANALYSIS_VERSION = 2
#: games whose search waits for its turn at most; past it the page is told "busy" and asks
#: again later (the double-dummy measure is given all the same)
MAX_QUEUED = 16
#: analyses kept in memory (the files stay)
KEPT = 256
#: the seconds a chunk of the search should take (between chunks the job takes the deal the
#: page asks for, reports its progress and checks the game's budget)
CHUNK_SECONDS = 2.0
FIRST_CHUNK = 1
MAX_CHUNK = 16
#: the search's fields of a decision (the rest is the double-dummy analysis')
SEARCH_FIELDS = ("best", "loss", "values", "worlds", "reason")
#: states of the search after which nothing more happens (until a restart, for "failed")
FINAL = ("done", "capped", "off", "failed")


@dataclass(frozen=True)
class SearchBudget:
    """The search measure's budget on the server: ``worlds`` a decision from ``seed`` (as
    ``tute analyze --worlds --seed``; 0: the double-dummy measure only), at most
    ``move_time`` seconds a decision (at least one world) and ``game_seconds`` of search a
    game (the decisions not reached keep the double-dummy measure alone)."""

    worlds: int = DEFAULT_WORLDS
    seed: int = DEFAULT_SEED
    move_time: float | None = 30.0
    game_seconds: float = 600.0

    def __post_init__(self) -> None:
        if not 0 <= self.worlds <= MAX_WORLDS:
            raise ValueError(f"analysis worlds {self.worlds}: expected 0..{MAX_WORLDS}")
        if self.move_time is not None and not 0 < self.move_time <= 600:
            raise ValueError(f"analysis move time {self.move_time}: expected (0, 600] s")
        if not self.game_seconds > 0:
            raise ValueError(f"analysis game seconds {self.game_seconds}: expected > 0")

    def to_json(self) -> dict[str, Any]:
        return {"search": "pimc" if self.worlds else None, "worlds": self.worlds,
                "seed": self.seed, "move_time": self.move_time,
                "game_seconds": self.game_seconds}

    def same(self, budget: dict[str, Any] | None) -> bool:
        """Whether a stored analysis' budget gives this budget's figures."""
        b = budget or {}
        return (b.get("worlds"), b.get("seed"), b.get("move_time")) == (
            self.worlds, self.seed, self.move_time)


class _Job:
    """One game's analysis while it is computed: its double-dummy decisions deal by deal,
    the search's fields of each decision done, and where the search is."""

    def __init__(self, table_id: str) -> None:
        self.id = table_id
        loop = asyncio.get_running_loop()
        # the stored analysis when it is whole, else None once the record is read
        self.ready: asyncio.Future[dict[str, Any] | None] = loop.create_future()
        self.task: asyncio.Task[None] | None = None
        self.record: dict[str, Any] = {}
        self.players: list[str] = []
        self.deals = 0
        self.header: dict[str, Any] = {}  # variant, kind, deals, seats, sides, complete
        self.dd: dict[int, list[dict[str, Any]]] = {}  # deal -> its decisions (JSON)
        self.dd_done: dict[int, asyncio.Future[None]] = {}
        self.dd_seconds = 0.0
        self.searched: dict[int, dict[str, Any]] = {}  # decision index -> search fields
        self.tried: set[int] = set()
        self.wanted: list[int] = []  # deals asked for, the latest last
        self.state = "pending"  # pending, queued, running, then one of FINAL, or busy
        self.current: int | None = None  # the deal of the chunk being searched
        self.search_seconds = 0.0
        self.error: str | None = None

    def start(self, record: dict[str, Any], stored: dict[str, Any] | None) -> None:
        self.record = {k: v for k, v in record.items() if k != "players"}
        self.players = list(record.get("players") or [])
        self.deals = len(record["deals"]) if record.get("kind") == "match" else 1
        loop = asyncio.get_running_loop()
        self.dd_done = {k: loop.create_future() for k in range(self.deals)}
        if stored is not None:  # the double-dummy part was stored: only the search is left
            self.header = _header(stored)
            self.dd_seconds = float(stored.get("compute_seconds") or 0.0)
            for d in stored["decisions"]:
                self.dd.setdefault(d["deal"], []).append(
                    {**d, "best": None, "loss": None, "values": None, "worlds": 0,
                     "reason": None})
            for k in range(self.deals):
                self.dd.setdefault(k, [])
                self.dd_done[k].set_result(None)

    def want(self, deal: int | None) -> None:
        if deal is not None:
            if deal in self.wanted:
                self.wanted.remove(deal)
            self.wanted.append(deal)

    def next_dd(self) -> int | None:
        missing = [k for k in range(self.deals) if k not in self.dd]
        first = [k for k in reversed(self.wanted) if k in missing]
        return next(iter(first or missing), None)

    def next_chunk(self, size: int) -> list[dict[str, Any]]:
        """Up to ``size`` decisions of one deal that the search has not measured: of the
        deal asked for last, else the first deal with some left."""
        order = [*reversed(self.wanted), *range(self.deals)]
        for k in dict.fromkeys(order):
            left = [d for d in self.dd.get(k, []) if d["index"] not in self.tried]
            if left:
                return left[:size]
        return []

    def decisions(self, deal: int | None) -> list[dict[str, Any]]:
        deals = range(self.deals) if deal is None else [deal]
        return [{**d, **self.searched.get(d["index"], {})}
                for k in deals for d in self.dd.get(k, [])]

    def progress(self, ahead: int = 0) -> dict[str, Any]:
        total = sum(len(v) for v in self.dd.values())
        done = [k + 1 for k in range(self.deals) if k in self.dd
                and all(d["index"] in self.tried for d in self.dd[k])]
        return {"state": self.state, "done": len(self.tried), "total": total,
                "deal": None if self.current is None else self.current + 1,
                "deals": self.deals, "deals_done": done if self.state != "off" else [],
                "ahead": ahead, "seconds": round(self.search_seconds, 1),
                "error": self.error}

    def analysis(self, budget: SearchBudget, ahead: int = 0) -> dict[str, Any]:
        """The whole analysis so far (the deals whose double-dummy part is done)."""
        decisions = self.decisions(None)
        return _whole(self.id, self.players, self.header, decisions, budget,
                      self.dd_seconds, self.progress(ahead))


class Analyses:
    """Every game's analysis: the jobs under way, the finished ones kept, the pool's turn."""

    def __init__(self, record: Callable[[str], Awaitable[dict[str, Any]]],
                 pool: Callable[[], BotPool], directory: Path | None = None,
                 budget: SearchBudget | None = None) -> None:
        self._record = record  # the game's record; raises not_found / not_finished
        self._pool = pool
        self.directory = directory
        self.budget = budget or SearchBudget()
        self._kept: dict[str, dict[str, Any]] = {}  # id -> a whole analysis, search final
        self._jobs: dict[str, _Job] = {}
        # one double-dummy task in the pool at a time, and one game's search (one chunk of
        # it) beside it: the pool's other workers stay free for the bots' moves
        self._dd_turn = asyncio.Semaphore(1)
        self._search_turn = asyncio.Semaphore(1)  # the games' searches in order
        self._queue: list[str] = []  # the games waiting for their search's turn
        self._running: str | None = None  # the game whose search has the turn
        self.started = 0  # jobs that began computing (once a game; the tests count them)

    # ------------------------------------------------------------ what the web layer asks

    async def get(self, table_id: str, deal: int | None = None) -> dict[str, Any]:
        """The analysis of a finished game, or of one deal of it (1-based), with the search
        measure where it is done and the search's progress; waits for the double-dummy part
        only (of that deal alone when one is asked for)."""
        found = await self._find(table_id, None if deal is None else deal - 1)
        if isinstance(found, dict):
            return found if deal is None else _deal_view(found, deal)
        job = found
        if deal is not None and not 1 <= deal <= job.deals:
            raise TableError("not_found", f"no deal {deal} in this game")
        waits = list(job.dd_done.values()) if deal is None else [job.dd_done[deal - 1]]
        await asyncio.shield(asyncio.gather(*waits))
        kept = self._kept.get(table_id)  # finished meanwhile
        if kept is not None:
            return kept if deal is None else _deal_view(kept, deal)
        whole = job.analysis(self.budget, self._ahead(job.id))
        return whole if deal is None else _deal_view(whole, deal, complete=all(
            f.done() for f in job.dd_done.values()))

    async def progress(self, table_id: str) -> dict[str, Any]:
        """Where the search of a finished game's analysis is (starting it if need be)."""
        found = await self._find(table_id)
        if isinstance(found, dict):
            out: dict[str, Any] = found["search"]
            return out
        return found.progress(self._ahead(found.id))

    async def known(self, table_id: str, deal: int, move: int) -> dict[str, Any] | None:
        """The figures of one decision (0-based deal, move in it) where they are at hand: a
        kept analysis, one under way or one stored; never starts computing (a report of a bot
        move files what the analysis had said, if anything)."""
        kept = self._kept.get(table_id)
        job = self._jobs.get(table_id)
        if kept is not None:
            decisions = kept["decisions"]
        elif job is not None:
            decisions = job.decisions(None)
        else:
            stored = await self._read(table_id)
            decisions = stored["decisions"] if stored is not None else []
        found = next((d for d in decisions if d["deal"] == deal and d["move"] == move), None)
        if found is None:
            return None
        return {k: found.get(k) for k in ("dd_best", "dd_loss", "best", "loss", "worlds")}

    async def close(self) -> None:
        for job in list(self._jobs.values()):
            if job.task is not None:
                job.task.cancel()
        for job in list(self._jobs.values()):
            if job.task is not None:
                with suppress(asyncio.CancelledError, Exception):
                    await job.task

    # ------------------------------------------------------------ jobs

    async def _find(self, table_id: str, deal: int | None = None) -> dict[str, Any] | _Job:
        """A whole analysis kept, or the game's job (started now if there is none), told
        that ``deal`` (0-based) is wanted first."""
        kept = self._kept.get(table_id)
        if kept is not None:
            return kept
        job = self._jobs.get(table_id)
        if job is None:
            job = self._jobs[table_id] = _Job(table_id)
            job.task = asyncio.get_running_loop().create_task(self._run(job))
        job.want(deal)
        whole = await asyncio.shield(job.ready)
        return job if whole is None else whole

    def _ahead(self, table_id: str) -> int:
        """How many games' searches come before this one's (the one running included)."""
        if table_id not in self._queue:
            return 0
        return self._queue.index(table_id) + (self._running is not None)

    async def _run(self, job: _Job) -> None:
        try:
            await self._begin(job)
        except BaseException as exc:
            self._jobs.pop(job.id, None)
            _fail(job.ready, exc)
            if isinstance(exc, asyncio.CancelledError):
                raise
            return
        if job.ready.result() is not None:  # stored whole: nothing to compute
            self._jobs.pop(job.id, None)
            return
        try:
            await self._double_dummy(job)
        except BaseException as exc:
            self._jobs.pop(job.id, None)
            for fut in job.dd_done.values():
                _fail(fut, exc)
            if not isinstance(exc, asyncio.CancelledError | TableError):
                log.exception("analysis of %s failed", job.id)
            if isinstance(exc, asyncio.CancelledError):
                raise
            return
        try:
            await self._search(job)
        except asyncio.CancelledError:
            self._jobs.pop(job.id, None)
            raise
        except Exception as exc:  # kept as failed until a restart: not tried again and again
            log.exception("search analysis of %s failed", job.id)
            job.state, job.error = "failed", type(exc).__name__
            job.current = None
        if job.state == "busy":  # the queue was full: asked again, it starts again
            self._jobs.pop(job.id, None)
            return
        whole = job.analysis(self.budget)
        if job.state != "failed":
            await self._write(job.id, whole)
        self._keep(job.id, whole)
        self._jobs.pop(job.id, None)

    async def _begin(self, job: _Job) -> None:
        stored = await self._read(job.id)
        if stored is not None and self._whole(stored):
            self._keep(job.id, stored)
            job.ready.set_result(stored)
            return
        record = await self._record(job.id)  # not_found / not_finished / unavailable
        job.start(record, stored)
        self.started += 1
        job.ready.set_result(None)

    def _whole(self, stored: dict[str, Any]) -> bool:
        """Whether a stored analysis is whole for this server's budget."""
        state = (stored.get("search") or {}).get("state")
        if state == "off":
            return self.budget.worlds == 0
        return state in ("done", "capped") and self.budget.same(stored.get("budget"))

    async def _double_dummy(self, job: _Job) -> None:
        if all(f.done() for f in job.dd_done.values()):
            return  # stored
        pool = self._pool()
        while (k := job.next_dd()) is not None:
            async with self._dd_turn:
                t0 = time.perf_counter()
                out = await pool.analyse(job.record, [k])
                job.dd_seconds += time.perf_counter() - t0
            if not job.header:
                job.header = _header(out)
            job.dd[k] = out["decisions"]
            job.dd_done[k].set_result(None)
        job.state = "pending" if self.budget.worlds else "off"
        # the double-dummy part is kept at once: a restart redoes the search alone
        await self._write(job.id, job.analysis(self.budget))

    async def _search(self, job: _Job) -> None:
        b = self.budget
        if not b.worlds:
            job.state = "off"
            return
        if len(self._queue) >= MAX_QUEUED:
            job.state = "busy"
            return
        job.state = "queued"
        self._queue.append(job.id)
        try:
            async with self._search_turn:
                self._queue.remove(job.id)
                self._running, job.state = job.id, "running"
                try:
                    await self._search_chunks(job, b)
                finally:
                    self._running = None
        finally:
            if job.id in self._queue:
                self._queue.remove(job.id)

    async def _search_chunks(self, job: _Job, b: SearchBudget) -> None:
        pool = self._pool()
        size = FIRST_CHUNK
        while True:
            if job.search_seconds >= b.game_seconds:
                job.state = "capped"
                break
            chunk = job.next_chunk(size)
            if not chunk:
                job.state = "done"
                break
            if chunk[0]["deal"] != job.current and job.current is not None:
                # a deal's first decisions are its slowest: a chunk sized on the end of the
                # last deal would be far too long
                chunk = chunk[:FIRST_CHUNK]
            job.current = chunk[0]["deal"]
            t0 = time.perf_counter()
            found = await pool.search(job.record, [(d["deal"], d["move"]) for d in chunk],
                                      b.worlds, b.seed, b.move_time)
            spent = time.perf_counter() - t0
            job.search_seconds += spent
            job.tried.update(d["index"] for d in chunk)
            for d in found:
                job.searched[d["index"]] = {k: d.get(k) for k in SEARCH_FIELDS}
            # the next chunk should take about CHUNK_SECONDS
            each = spent / len(chunk)
            size = max(1, min(MAX_CHUNK, int(CHUNK_SECONDS / max(each, 1e-3))))
        job.current = None

    # ------------------------------------------------------------ kept analyses

    def _keep(self, table_id: str, whole: dict[str, Any]) -> None:
        if len(self._kept) >= KEPT:
            self._kept.pop(next(iter(self._kept)))  # the oldest entry
        self._kept[table_id] = whole

    def _path(self, table_id: str) -> Path | None:
        return None if self.directory is None else self.directory / f"{table_id}.json"

    async def _read(self, table_id: str) -> dict[str, Any] | None:
        path = self._path(table_id)
        if path is None:
            return None
        stored = await asyncio.to_thread(_read_json, path)
        if stored is None or stored.get("version") != ANALYSIS_VERSION:
            return None
        return stored

    async def _write(self, table_id: str, whole: dict[str, Any]) -> None:
        path = self._path(table_id)
        if path is not None:
            await asyncio.to_thread(_write_json, path, whole)


def _fail(fut: asyncio.Future[Any], exc: BaseException) -> None:
    if fut.done():
        return
    if isinstance(exc, asyncio.CancelledError):
        fut.cancel()
        return
    fut.set_exception(exc)
    fut.exception()  # retrieved: nobody may be waiting


def _header(analysis: dict[str, Any]) -> dict[str, Any]:
    return {k: analysis[k] for k in ("variant", "kind", "deals", "seats", "sides", "complete")}


def _whole(table_id: str, players: list[str], header: dict[str, Any],
           decisions: list[dict[str, Any]], budget: SearchBudget, dd_seconds: float,
           search: dict[str, Any]) -> dict[str, Any]:
    """A game's analysis JSON: the header, every decision with both measures where they are
    done, the summary of them all and the search's state."""
    part = RecordAnalysis.from_json({**header, "decisions": decisions})
    return {"version": ANALYSIS_VERSION, "id": table_id, "players": players, **header,
            "budget": {**budget.to_json(), "double_dummy": "exact solver"},
            "measure": _measure(decisions), "compute_seconds": round(dd_seconds, 3),
            "decisions": decisions, "summary": part.summary(), "search": search}


def _measure(decisions: list[dict[str, Any]]) -> str:
    """"search" when every decision has the search measure, "double_dummy" when none has
    it, "partial" between (a search under way, or stopped by the game's budget)."""
    searched = sum(d.get("loss") is not None for d in decisions)
    if decisions and searched == len(decisions):
        return "search"
    return "partial" if searched else "double_dummy"


def analysis_of_deal(full: dict[str, Any], deal: int) -> dict[str, Any]:
    """The decisions and summary of one deal (0-based) of a game's analysis JSON."""
    decisions = [d for d in full["decisions"] if d["deal"] == deal]
    part = RecordAnalysis.from_json({**full, "kind": "deal", "deals": 1,
                                     "decisions": decisions})
    return {"deal": deal + 1, "decisions": decisions, "summary": part.summary(),
            "measure": _measure(decisions)}


def _deal_view(whole: dict[str, Any], deal: int, complete: bool = True) -> dict[str, Any]:
    """One deal (1-based) of a whole analysis, with the game's summary beside its own (None
    while the other deals' double-dummy part is still being computed)."""
    if not 1 <= deal <= whole["deals"]:
        raise TableError("not_found", f"no deal {deal} in this game")
    return {**whole, **analysis_of_deal(whole, deal - 1),
            "game_summary": whole["summary"] if complete else None}


def _read_json(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _write_json(path: Path, data: dict[str, Any]) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")
        tmp.replace(path)
    except OSError:  # a full or read-only disk: the analysis is kept in memory only
        log.warning("could not store the analysis %s", path)
