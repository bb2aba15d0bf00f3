"""The tournaments of one server: made, joined and left by accounts, and driven on.

Framework-free like the hub and the accounts (the routes call these coroutines). The rules are
:mod:`tute.server.tournaments`' pure functions; this module reads and stores their values
(:class:`~tute.server.tournaments_store.TournamentStore`) and makes the tables: every seat
taken (bots of the tournament's level in the seats no player fills), each player's seat
linked to its account (so its page finds the table and the seat follows it to its other
devices), rated when the tournament is.

A tournament moves on at each *tick*: its tables that ended are recorded (read from the
tables, as the accounts' ratings are settled: a game that ended before a restart counts after
it), and then a Swiss round is paired once the last one is over, or an arena pairs its waiting
players. A tick runs when the tournament is asked for (its page polls it) and every
:data:`TICK` seconds on the server's clock while a tournament is running or due to start, so
that it goes on with nobody watching (tests move a ManualClock instead of waiting).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection

from .accounts import Accounts, mode_of
from .accounts_store import AccountRow, AccountStore
from .hub import LEVELS
from .limits import Buckets
from .store import Op
from .table import TableError, new_table_id, new_token
from .tournaments import (
    MAX_PLAYERS,
    Entry,
    Tournament,
    add_game,
    check_settings,
    next_games,
    record_result,
    standings,
)
from .tournaments import start as start_tournament
from .tournaments_store import TournamentStore, tournaments_of

__all__ = ["TICK", "Tournaments"]

log = logging.getLogger("tute.server")

#: seconds between the ticks of the running tournaments
TICK = 2.0
#: the furthest ahead a start may be set
MAX_AHEAD = 30 * 24 * 3600.0
#: games of an arena listed on its page (the latest)
GAMES_SHOWN = 60


class Tournaments:
    def __init__(self, accounts: Accounts):
        self.accounts = accounts
        self.hub = accounts.hub
        self.store = tournaments_of(self.hub.store)
        self.clock = self.hub.config.clock
        self.creates = Buckets(5 / 60.0, 5)  # per account
        self._locks: dict[str, asyncio.Lock] = {}
        self._timer: Any = None
        self._tasks: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------ changes

    def _lock(self, tid: str) -> asyncio.Lock:
        if len(self._locks) > 1000:
            self._locks = {k: v for k, v in self._locks.items() if v.locked()}
        return self._locks.setdefault(tid, asyncio.Lock())

    async def _load(self, tid: str) -> tuple[Tournament, int]:
        if not (0 < len(tid) <= 16 and tid.replace("-", "").replace("_", "").isalnum()):
            raise TableError("not_found", "no such tournament")
        found = await asyncio.to_thread(self.store.get, tid)
        if found is None:
            raise TableError("not_found", "no such tournament")
        return found

    async def _change(self, tid: str, change: Callable[[Tournament], None]) -> Tournament:
        """Apply ``change`` (which raises a TableError to refuse) and store it; the stored
        value is untouched when refused or not stored."""
        async with self._lock(tid):
            t, version = await self._load(tid)
            change(t)
            await self._save(t, version)
        self._arm()
        return t

    async def _save(self, t: Tournament, version: int | None, then: list[Op] | None = None
                    ) -> None:
        """Store ``t`` over ``version``, and with it (in one transaction) the writes ``then``."""
        try:
            ok = await self.hub.store.write(_together(TournamentStore.op_save(t, version),
                                                      then or []))
        except Exception as exc:
            log.error("tournament %s not stored: %s", t.id, self.hub.store.reason(exc))
            raise TableError("storage", "the tournament could not be saved; try again later"
                             ) from None
        if not ok:
            raise TableError("conflict", "the tournament changed meanwhile; try again")

    async def create(self, account: AccountRow, *, name: str, variant: str,
                     options: dict[str, Any], kind: str, pairs: str, rounds: int,
                     minutes: int, level: str, rated: bool, starts_at: float | None,
                     join: bool = True) -> Tournament:
        now = self.clock.time()
        name = " ".join(name.split())
        if not 1 <= len(name) <= 40 or not name.isprintable():
            raise TableError("bad_tournament", "a tournament's name has 1 to 40 characters")
        if level not in (*LEVELS, "random", "rules"):
            raise TableError("bad_tournament", "level is one of: " + ", ".join(LEVELS))
        if starts_at is not None and not now - 60 <= starts_at <= now + MAX_AHEAD:
            raise TableError("bad_tournament", "the start is from now to 30 days ahead")
        try:
            pairs = check_settings(variant, options, kind, pairs, rounds, minutes)
        except ValueError as exc:
            raise TableError("bad_tournament", str(exc)) from None
        if not self.creates.take(account.id):
            raise TableError("rate_limited", "too many tournaments made; wait a minute")
        t = Tournament(secrets.token_urlsafe(9), name, account.id, account.name, variant,
                       dict(options), kind, pairs, rounds, minutes, level, rated,
                       starts_at, now, seed=secrets.randbits(32))
        if join:
            t.entries.append(Entry(account.id, account.name, now))
        await self._save(t, None)
        self._arm()
        return t

    async def join(self, account: AccountRow, tid: str, partner: str | None) -> Tournament:
        def change(t: Tournament) -> None:
            _open(t)
            if t.entry(account.id) is not None:
                raise TableError("already_joined", "you are in this tournament already")
            if len(t.entries) >= MAX_PLAYERS:
                raise TableError("full", f"a tournament has {MAX_PLAYERS} players at most")
            wanted = " ".join((partner or "").split()) or None
            if wanted is not None and t.pairs != "fixed":
                raise TableError("bad_tournament", "a partner is named in fixed pairs only")
            t.entries.append(Entry(account.id, account.name, self.clock.time(), wanted))
        return await self._change(tid, change)

    async def leave(self, account: AccountRow, tid: str) -> Tournament:
        def change(t: Tournament) -> None:
            _open(t)
            if t.entry(account.id) is None:
                raise TableError("not_joined", "you are not in this tournament")
            t.entries = [e for e in t.entries if e.account != account.id]
        return await self._change(tid, change)

    async def start(self, account: AccountRow, tid: str) -> Tournament:
        def change(t: Tournament) -> None:
            if t.creator != account.id:
                raise TableError("not_creator", "only who made the tournament starts it")
            _open(t)
            if len(t.entries) < 2:
                raise TableError("too_few", "a tournament needs two players at least")
            start_tournament(t, self.clock.time())
        await self._change(tid, change)
        return await self.tick(tid)

    # ------------------------------------------------------------ moving on

    async def tick(self, tid: str) -> Tournament:
        """Record the tournament's tables that ended and make the next ones.

        The next games are stored first, with their table ids and their players' seats and
        tokens (one transaction), and their tables made from that after: a stop (or a failed
        write) between the two leaves games whose tables the next tick makes, here or after
        a restart, and never a table the tournament does not name or a round paired twice."""
        async with self._lock(tid):
            t, version = await self._load(tid)
            if t.status == "finished" or (t.status == "open" and (
                    t.starts_at is None or self.clock.time() < t.starts_at)):
                return t
            changed = await self._make_tables(t) > 0  # stored before a stop, not made yet
            for g in [g for g in t.games if g.status == "playing" and g.made]:
                ended = await self._ended(g.table)
                if ended is not None:
                    changed |= record_result(t, g.table, ended[0], ended[1],
                                             self.clock.time())
            status, games = t.status, len(t.games)
            seats = self._plan(t, next_games(t, self.clock.time()))
            if changed or seats or t.status != status or len(t.games) != games:
                await self._save(t, version, seats)  # raises when not stored: nothing made
                version += 1
            if seats and await self._make_tables(t):
                with contextlib.suppress(TableError):  # the next tick finds them made
                    await self._save(t, version)
        return t

    async def _ended(self, table_id: str) -> tuple[str, dict[str, Any] | None] | None:
        """A table's end (its status and result), or None while it is being played."""
        live = self.hub.tables.get(table_id)
        if live is not None and live.status in ("waiting", "playing"):
            return None
        try:
            row = await asyncio.to_thread(self.hub.store.get, table_id)
        except Exception:  # damaged: counted as abandoned
            return "abandoned", None
        if row is None or row.status == "expired":
            return "abandoned", None
        if row.status in ("waiting", "playing"):
            return None
        return row.status, row.result

    def _plan(self, t: Tournament, groups: list[tuple[list[str | None], list[str | None]]]
              ) -> list[Op]:
        """Add the games of ``groups`` to ``t``, their tables to be made; the writes that
        give each player its seat there (its token), stored with the tournament."""
        now = self.clock.time()
        ops: list[Op] = []
        for seats, units in groups:
            table_id = new_table_id()
            for i, a in enumerate(seats):
                if a is not None:
                    ops.append(AccountStore.op_link(a, table_id, i, new_token(), t.variant, now))
            if t.rated:
                ops.append(AccountStore.op_rated(table_id, mode_of(t.variant, t.options), now))
            add_game(t, table_id, seats, units, now, made=False)
        return ops

    async def _make_tables(self, t: Tournament) -> int:
        """Make the tables of the stored games that have none yet, with the ids and the seat
        tokens stored for them; how many games changed (a table that cannot be made now is
        tried again at the next tick)."""
        names = {e.account: e.name for e in t.entries}
        done = 0
        for g in [g for g in t.games if not g.made and g.status == "playing"]:
            try:
                if not await self._exists(g.table):
                    links = await asyncio.to_thread(self.accounts.store.seats_at, g.table)
                    tokens = {i: str(r["token"]) for i, r in links.items()
                              if r["account_id"] == g.seats[i]}
                    await self.hub.create_seated(
                        t.variant, t.options,
                        [None if a is None else names.get(a, "?") for a in g.seats],
                        t.level, table_id=g.table, tokens=tokens)
            except Exception as exc:
                if not isinstance(exc, TableError):
                    log.exception("tournament %s: table %s could not be made", t.id, g.table)
                continue
            g.made = True
            done += 1
        return done

    async def _exists(self, table_id: str) -> bool:
        if table_id in self.hub.tables:
            return True
        return await asyncio.to_thread(self.hub.store.get, table_id) is not None

    def _arm(self) -> None:
        """Tick the running tournaments in TICK seconds (one timer for them all)."""
        if self._timer is None:
            self._timer = self.clock.call_later(TICK, self._fire)

    def _fire(self) -> None:
        self._timer = None
        task = asyncio.get_running_loop().create_task(self._tick_all())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _tick_all(self) -> None:
        again = False
        try:
            active = await asyncio.to_thread(self.store.active_ids)
        except RuntimeError:  # the server is shutting down
            return
        except Exception:
            log.exception("tournaments: the running ones could not be read")
            self._arm()
            return
        for tid in active:
            try:
                t = await self.tick(tid)
            except Exception:
                log.exception("tournament %s: tick failed", tid)
                again = True
                continue
            again |= t.status == "running" or (t.status == "open" and t.starts_at is not None)
        if again:
            self._arm()

    async def resume(self) -> None:
        """At the server's start: drive the tournaments left running."""
        if await asyncio.to_thread(self.store.active_ids):
            self._arm()

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for task in self._tasks:
            task.cancel()

    # ------------------------------------------------------------ reading

    async def view(self, tid: str, account: AccountRow | None) -> dict[str, Any]:
        t = await self.tick(tid)
        return await self.to_json(t, account)

    async def listed(self) -> list[dict[str, Any]]:
        return [_summary(t) for t in await asyncio.to_thread(self.store.listed)]

    async def to_json(self, t: Tournament, account: AccountRow | None) -> dict[str, Any]:
        names = {e.account: e.name for e in t.entries}
        layout = t.layout()
        shown = t.games if t.kind == "swiss" else t.games[-GAMES_SHOWN:]
        you: dict[str, Any] | None = None
        if account is not None:
            unit = t.unit_of(account.id)
            you = {"joined": t.entry(account.id) is not None, "creator": t.creator == account.id,
                   "unit": None if unit is None else unit.id,
                   "table": await self._my_table(t, account.id)}
        return {**_summary(t), "options": t.options, "now": self.clock.time(),
                "players": [{"name": e.name, "partner": e.partner} for e in t.entries],
                "units": [{"id": u.id, "name": u.name, "names": list(u.names)} for u in t.units],
                "standings": [s.to_json() for s in standings(t)] if t.units else [],
                "games": [{"table": g.table, "round": g.round, "status": g.status,
                           "seats": [None if a is None else names.get(a, "?") for a in g.seats],
                           "units": g.units, "ranks": g.ranks,
                           # the seats of the side placed first (None: a bot)
                           "won": None if g.ranks is None else [
                               None if a is None else names.get(a, "?")
                               for i, a in enumerate(g.seats)
                               if g.ranks[layout.side_of[i]] == 0]}
                          for g in reversed(shown)],
                "waiting": [u for u in t.waiting], "you": you}

    async def _my_table(self, t: Tournament, account_id: str) -> dict[str, Any] | None:
        """The account's table being played in the tournament, with its seat's token (this
        player's alone)."""
        game = next((g for g in reversed(t.games)
                     if g.status == "playing" and g.made and account_id in g.seats), None)
        if game is None:
            return None
        seat = game.seats.index(account_id)
        links = await asyncio.to_thread(self.accounts.store.seats_at, game.table)
        link = links.get(seat)
        if link is None or link["account_id"] != account_id:
            return None
        return {"id": game.table, "seat": seat, "token": link["token"], "url": f"/t/{game.table}"}


def _together(save: Op, then: list[Op]) -> Op:
    """``save``, then (only when it stored) ``then``: one op, so one transaction."""
    if not then:
        return save

    def op(conn: Connection) -> bool:
        if not save(conn):
            return False
        for more in then:
            more(conn)
        return True
    return op


def _open(t: Tournament) -> None:
    if t.status != "open":
        raise TableError("started", "the tournament has started: players join before it does")


def _summary(t: Tournament) -> dict[str, Any]:
    return {"id": t.id, "name": t.name, "creator": t.creator_name, "variant": t.variant,
            "kind": t.kind, "pairs": t.pairs, "rounds": t.rounds, "minutes": t.minutes,
            "level": t.level, "rated": t.rated, "status": t.status, "round": t.round,
            "starts_at": t.starts_at, "started_at": t.started_at, "ends_at": t.ends_at,
            "finished_at": t.finished_at, "cancelled": t.cancelled,
            "count": len(t.entries), "url": f"/torneo/{t.id}"}
