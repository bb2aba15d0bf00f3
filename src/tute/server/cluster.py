"""Several ``tute serve`` processes as one site: PostgreSQL for the tables and their leases,
Redis pub/sub for the sockets relayed between processes (docs/cluster.md).

:class:`ClusterHub` is the :class:`~tute.server.hub.Hub` of such a process. It owns the tables
whose lease it holds (:mod:`tute.server.lease`) and runs them as a single process does; a
table another process owns is reached through :class:`~tute.server.relay.RemoteTable`. Once a
second it renews its leases (a table whose lease was lost is stopped here: its sockets close
and reconnect), takes over the unfinished tables nobody holds (their owner died or was
redeployed), and closes the relayed sockets whose owner changed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from typing import Any

from .hub import Hub
from .lease import Leases
from .relay import Moved, Relay, RemoteTable
from .store import DamagedTableError, Store, TableRow, mask_url
from .table import Table, TableConfig, new_match

__all__ = ["ClusterHub", "Moved"]

log = logging.getLogger("tute.server")

TICK = 1.0  # seconds between renewals and takeover scans
TTL = 3.0  # seconds a lease lasts unrenewed
#: the other processes' public tables a lobby lists, newest first: so many waiting, so many
#: being played (a bounded read each tick, however large the site)
LOBBY_ROWS = 200


class ClusterHub(Hub):
    def __init__(self, store: Store, config: TableConfig, redis_url: str, **kw: Any):
        super().__init__(store, config, **kw)
        self.relay = Relay(redis_url, config, self.tables.get)
        self.node = self.relay.node
        self.leases = Leases(store.engine, self.node, ttl=TTL)
        store.fence = self.leases
        self._locks: dict[str, asyncio.Lock] = {}
        self._loop_tasks: list[asyncio.Task[None]] = []
        self._renewer: threading.Thread | None = None
        self._stop_renewing = threading.Event()
        self._renewed = time.monotonic()
        self._rows: list[TableRow] = []  # the public unfinished tables at the last tick
        self._entries: dict[str, tuple[int, dict[str, Any]]] = {}  # id -> (version, entry)

    # ------------------------------------------------------------ life cycle

    async def restore_all(self) -> int:
        """Start relaying, then take the unfinished tables nobody holds (the others' owners
        are alive and keep them)."""
        await self.relay.start()
        n = await self._take_orphans(limit=10_000)
        await self._refresh_lobby()
        loop = asyncio.get_running_loop()
        self._loop_tasks = [loop.create_task(self._loop(), name="cluster-loop")]
        self._renewer = threading.Thread(target=self._renewals, args=(loop,), daemon=True,
                                         name="tute-leases")
        self._renewer.start()
        return n

    async def shutdown(self) -> None:
        for task in self._loop_tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._stop_renewing.set()
        if self._renewer is not None:
            await asyncio.to_thread(self._renewer.join, 2 * TICK)
        held = list(self.leases.held)
        await super().shutdown()  # the tables stop: their sockets close and reconnect
        with contextlib.suppress(Exception):  # released: the others take them now
            await asyncio.to_thread(self.leases.release, held)
        await self.relay.close()

    async def _claim(self, table_id: str) -> None:
        if await asyncio.to_thread(self.leases.acquire, table_id) is None:
            raise RuntimeError(f"table id {table_id} is leased already")

    async def _unclaim(self, table_id: str) -> None:
        await self._release(table_id)

    def _retire(self, table: Table) -> None:
        super()._retire(table)
        if table.id not in self.tables:
            asyncio.get_running_loop().create_task(self._release(table.id))

    async def _release(self, table_id: str) -> None:
        try:
            await asyncio.to_thread(self.leases.release, [table_id])
        except Exception as exc:  # it expires by itself
            log.warning("table %s: lease not released: %s", table_id, self.store.reason(exc))

    # ------------------------------------------------------------ finding a table

    async def get(self, table_id: str) -> Table | None:
        """The table if this process owns it (taking it over if nobody does), else a
        :class:`RemoteTable` to its owner; :class:`Moved` when no owner answers in time."""
        t = self.tables.get(table_id)
        if t is not None:
            return t
        if table_id in self.damaged:
            return await super().get(table_id)  # raises its "unavailable"
        deadline = time.monotonic() + TTL + 3 * TICK
        while True:
            found = (await asyncio.to_thread(self.leases.lookup, [table_id])).get(table_id)
            if found is None or not found.live:
                try:
                    return await self._take(table_id)
                except _Taken:
                    pass
            elif found.owner == self.node:  # being loaded here, or just lost
                local = self.tables.get(table_id)
                if local is not None:
                    return local
            else:
                remote = RemoteTable(self.relay, table_id, found.owner, found.epoch)
                try:
                    await remote.fetch()
                    return remote
                except Moved:
                    pass
            if time.monotonic() > deadline:
                raise Moved()
            await asyncio.sleep(0.1)  # its owner died: its lease expires within TTL

    async def _take(self, table_id: str) -> Table | None:
        """Take the table's lease and load it from storage; None when it is not a table to
        serve; raises :class:`_Taken` when another process holds it."""
        lock = self._locks.setdefault(table_id, asyncio.Lock())
        try:
            async with lock:
                if (t := self.tables.get(table_id)) is not None:
                    return t
                if await asyncio.to_thread(self.leases.acquire, table_id) is None:
                    raise _Taken
                try:
                    # read after the lease: every write of the previous owner is committed
                    row = await asyncio.to_thread(self.store.get, table_id)
                    if row is None or row.status == "expired":
                        await self._release(table_id)
                        return None
                    table = await self._load(row)
                except DamagedTableError:
                    await self._release(table_id)
                    return await super().get(table_id)  # raises its "unavailable"
                except BaseException:
                    await self._release(table_id)
                    raise
                log.info("table %s: taken (epoch %s)", table_id,
                         self.leases.held.get(table_id))
                return table
        finally:
            if not lock.locked():
                self._locks.pop(table_id, None)

    async def _take_orphans(self, limit: int = 50) -> int:
        ids = await asyncio.to_thread(self.leases.orphans, limit)
        n = 0
        for table_id in ids:
            with contextlib.suppress(_Taken):
                try:
                    n += await self._take(table_id) is not None
                except Exception as exc:
                    log.error("table %s not taken over: %s", table_id, self.store.reason(exc))
        return n

    # ------------------------------------------------------------ the loop

    def _renewals(self, loop: asyncio.AbstractEventLoop) -> None:
        """Renew the leases every tick, on a thread of their own with its own timer: neither
        a busy event loop (a burst of requests, a slow step) nor a busy pool of reads can make
        them late. Only the tables found lost go to the loop, to be dropped there."""
        while not self._stop_renewing.wait(TICK):
            try:
                lost = self.leases.renew()
            except Exception as exc:
                log.error("cluster: leases not renewed: %s", self.store.reason(exc))
                if time.monotonic() - self._renewed <= TTL:
                    continue
                lost = set(self.leases.held)  # they may be taken now: let go
                for t in lost:
                    self.leases.forget(t)
            else:
                self._renewed = time.monotonic()
            if lost:
                with contextlib.suppress(RuntimeError):  # the loop has closed: nothing to drop
                    asyncio.run_coroutine_threadsafe(self._drop_all(lost), loop)

    async def _drop_all(self, table_ids: set[str]) -> None:
        for table_id in table_ids:
            await self._drop(table_id)

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(TICK)
            for step in (self._take_orphans, self._check_edges, self._check_remotes,
                         self._refresh_lobby):
                try:
                    await step()
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    log.error("cluster %s: %s", step.__name__, self.store.reason(exc))

    async def _drop(self, table_id: str) -> None:
        """Stop serving a table whose lease was lost: its sockets close (not fatally), and
        reconnect to wherever it is now."""
        self.leases.forget(table_id)
        table = self.tables.pop(table_id, None)
        if table is None:
            return
        log.warning("table %s: lease lost; stopped here", table_id)
        self._codes.pop(table.code, None)
        await table.stop()

    async def _check_edges(self) -> None:
        """Close the relayed sockets whose table changed owner. (A lease that merely expired
        is left alone: its owner may be slow, not dead. A dead owner's table is taken over
        within a tick, and the epoch changes then; a message to a dead owner already
        closes its socket at once.)"""
        edges = list(self.relay.edges.items())
        if not edges:
            return
        found = await asyncio.to_thread(self.leases.lookup,
                                        list({t.id for _, (_, t) in edges}))
        for conn, (client, remote) in edges:
            lease = found.get(remote.id)
            if lease is None or (lease.owner, lease.epoch) != (remote.owner, remote.epoch):
                self.relay.edges.pop(conn, None)
                client.close("the table moved; reconnect")

    async def _check_remotes(self) -> None:
        """Forget the relayed connections of processes that are gone."""
        remotes = list(self.relay.remotes.values())
        if not remotes:
            return
        alive = await self.relay.alive(list({rc.edge for rc in remotes}))
        for rc in remotes:
            if rc.edge not in alive:
                self.relay._end_remote(rc, notify=False)

    # ------------------------------------------------------------ the lobby

    def open_tables(self) -> list[dict[str, Any]]:
        return self._lobby_list("waiting")

    def live_tables(self, limit: int = 30) -> list[dict[str, Any]]:
        live = self._lobby_list("playing")
        live.sort(key=lambda i: (-sum(s["online"] and s["kind"] == "human"
                                      for s in i["seats"]), -i["created_at"]))
        return live[:limit]

    def _lobby_list(self, status: str) -> list[dict[str, Any]]:
        """Every process's public tables: this one's as they are now, the others' as the
        database said at the last tick (a second ago at most)."""
        mine = [t.info() for t in self.tables.values() if t.public and t.status == status]
        return mine + [self._entry(r) for r in self._rows
                       if r.status == status and r.id not in self.tables]

    async def _refresh_lobby(self) -> None:
        rows = await asyncio.to_thread(self.store.lobby_rows, LOBBY_ROWS)
        # an entry is made once a version (a match is built for it), not at every request
        self._entries = {r.id: e for r in rows
                         if (e := self._entries.get(r.id)) is not None and e[0] == r.version}
        self._rows = rows

    def _entry(self, row: TableRow) -> dict[str, Any]:
        kept = self._entries.get(row.id)
        if kept is None or kept[0] != row.version:
            kept = self._entries[row.id] = (row.version, self._info(row))
        return kept[1]

    def _info(self, row: TableRow) -> dict[str, Any]:
        """A table's lobby entry: its own when it is here, else from its row (who is
        connected is known to its owner alone: human seats show as offline)."""
        local = self.tables.get(row.id)
        if local is not None:
            return local.info()
        match = new_match(row)
        seats = [{"seat": i, "kind": s["kind"], "name": s.get("name", ""),
                  "level": s.get("level") if s["kind"] == "bot" else None,
                  "online": s["kind"] == "bot", "away": False, "bot_in": None}
                 for i, s in enumerate(row.seats)]
        return {"id": row.id, "code": row.code, "variant": row.variant,
                "options": row.options, "public": row.public, "status": row.status,
                "host": row.host, "seats": seats, "v": row.version,
                "created_at": row.created_at, "goal": match.goal(),
                "open_seats": sum(s["kind"] == "open" for s in row.seats),
                "chat": True, "hints": False, "clock": 0, "rematch": None,
                "game": {"auction": match.game.auction,
                         "stock_over": match.game.stock_over_notice}}


class _Taken(Exception):
    """Another process holds the lease."""


def check_site(database_url: str, redis_url: str) -> None:
    """Refuse a site configuration that cannot work, before anything is served: several
    processes share a PostgreSQL database (SQLite is one process's file), and Redis needs
    its client library."""
    from .store import StorageError, normalize_url

    if normalize_url(database_url).get_backend_name() != "postgresql":
        raise StorageError("TUTE_REDIS_URL (several processes, one site) needs a PostgreSQL "
                           "database: set TUTE_DATABASE_URL=postgresql://user:pw@host/db")
    try:
        import redis  # noqa: F401
    except ImportError:
        raise StorageError("TUTE_REDIS_URL needs the redis client library, which is not "
                           "installed: pip install 'tute[postgres]'") from None
    if not redis_url.startswith(("redis://", "rediss://", "unix://")):
        raise StorageError(f"cannot read the Redis URL {mask_url(redis_url)!r}: expected "
                           "redis://host:6379/0")
