"""Table leases in PostgreSQL: which process of a site owns each live table, and the fence
that keeps every other process from writing it.

One row per table: ``(table_id, owner, epoch, expires_at)``. Times are the database's clock
(``clock_timestamp()``), so the processes' own clocks never matter. The owner renews all its
leases in one statement every second or so; a lease not renewed for ``ttl`` seconds may be
taken by another process, which bumps ``epoch``.

Fencing: every write of a table's rows runs in a transaction that first reads its lease row
``FOR SHARE`` and checks that owner and epoch are still this process's (:meth:`refused`, the
store's :class:`~tute.server.store.Fence`). A thief's epoch bump needs the row's exclusive
lock, so it waits for the writes in flight, and whatever it then reads of the table includes
every write the old owner committed; the old owner's later writes find the new epoch and are
refused. A paused owner that wakes up after losing its lease thus cannot write.

The methods are blocking (SQLAlchemy Core on the store's engine): the asyncio side calls them
in a thread, the store's writer thread calls :meth:`refused` itself.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from sqlalchemy import BigInteger, Column, DateTime, Engine, MetaData, String, Table, text
from sqlalchemy.engine import Connection

from .schema import create_tables

__all__ = ["Lease", "Leases"]

log = logging.getLogger("tute.server")

metadata = MetaData()

leases = Table(
    "tute_leases", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("owner", String(40), nullable=False),
    Column("epoch", BigInteger, nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False, index=True),
)

_ACQUIRE = text("""
    INSERT INTO tute_leases AS l (table_id, owner, epoch, expires_at)
    VALUES (:t, :me, 1, clock_timestamp() + make_interval(secs => :ttl))
    ON CONFLICT (table_id) DO UPDATE
        SET owner = EXCLUDED.owner, epoch = l.epoch + 1, expires_at = EXCLUDED.expires_at
        WHERE l.expires_at < clock_timestamp()
    RETURNING epoch""")

_RENEW = text("""
    UPDATE tute_leases SET expires_at = clock_timestamp() + make_interval(secs => :ttl)
    WHERE owner = :me AND table_id = ANY(:ids)
    RETURNING table_id, epoch""")

# released: expired at once (the epoch stays, so it only ever grows)
_RELEASE = text("""
    UPDATE tute_leases SET expires_at = clock_timestamp() - interval '1 second'
    WHERE owner = :me AND table_id = ANY(:ids) AND epoch = ANY(:epochs)""")

_LOOKUP = text("""
    SELECT table_id, owner, epoch, expires_at > clock_timestamp() AS live
    FROM tute_leases WHERE table_id = ANY(:ids)""")

_FENCE = text("""
    SELECT table_id, epoch FROM tute_leases
    WHERE table_id = ANY(:ids) AND owner = :me FOR SHARE""")

# the unfinished tables nobody holds: never leased, or their owner stopped renewing
_ORPHANS = text("""
    SELECT t.id FROM tute_tables t LEFT JOIN tute_leases l ON l.table_id = t.id
    WHERE t.status IN ('waiting', 'playing')
      AND (l.table_id IS NULL OR l.expires_at < clock_timestamp())
    ORDER BY random() LIMIT :n""")


@dataclass(frozen=True)
class Lease:
    table_id: str
    owner: str
    epoch: int
    live: bool  # not expired by the database's clock


class Leases:
    """This process's leases: ``held`` maps the tables it owns to their epochs."""

    def __init__(self, engine: Engine, owner: str, ttl: float = 3.0):
        if engine.dialect.name != "postgresql":
            raise ValueError("table leases need PostgreSQL")
        self.engine = engine
        self.owner = owner
        self.ttl = ttl
        self.held: dict[str, int] = {}
        create_tables(engine, metadata)

    def acquire(self, table_id: str) -> int | None:
        """Take the table's lease if nobody holds it (never leased, or expired); its new
        epoch, or None when another process holds it."""
        with self.engine.begin() as conn:
            epoch = conn.execute(_ACQUIRE, {"t": table_id, "me": self.owner,
                                            "ttl": self.ttl}).scalar()
        if epoch is None:
            return None
        self.held[table_id] = int(epoch)
        return int(epoch)

    def renew(self) -> set[str]:
        """Extend every held lease; returns the tables whose lease was lost meanwhile (taken
        over: they are no longer held)."""
        held = dict(self.held)
        if not held:
            return set()
        with self.engine.begin() as conn:
            rows = conn.execute(_RENEW, {"me": self.owner, "ttl": self.ttl,
                                         "ids": list(held)}).all()
        kept = {str(t): int(e) for t, e in rows}
        lost = {t for t, e in held.items() if kept.get(t) != e}
        for t in lost:
            if self.held.get(t) == held[t]:
                del self.held[t]
        return lost

    def release(self, table_ids: list[str]) -> None:
        """Give leases up (a retired table, a shutdown): another process may take them now."""
        epochs = {t: self.held.pop(t) for t in table_ids if t in self.held}
        if not epochs:
            return
        with self.engine.begin() as conn:
            conn.execute(_RELEASE, {"me": self.owner, "ids": list(epochs),
                                    "epochs": list(set(epochs.values()))})

    def forget(self, table_id: str) -> None:
        """Stop holding a lease without writing (it was found lost)."""
        self.held.pop(table_id, None)

    def lookup(self, table_ids: list[str]) -> dict[str, Lease]:
        """The lease rows of ``table_ids`` (a table never leased is absent)."""
        if not table_ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(_LOOKUP, {"ids": table_ids}).all()
        return {str(r.table_id): Lease(str(r.table_id), str(r.owner), int(r.epoch),
                                       bool(r.live)) for r in rows}

    def orphans(self, limit: int = 50) -> list[str]:
        """Unfinished tables whose lease is free (some at random: processes spread them)."""
        with self.engine.connect() as conn:
            return [str(t) for (t,) in conn.execute(_ORPHANS, {"n": limit}).all()]

    # ------------------------------------------------------------ the store's fence

    def refused(self, conn: Connection, table_ids: set[str]) -> set[str]:
        """Within a write's transaction: lock the lease rows this process holds (FOR SHARE,
        until the commit) and return the tables it may not write (their lease lost: also
        forgotten here)."""
        rows = conn.execute(_FENCE, {"ids": list(table_ids), "me": self.owner}).all()
        ok = {str(t) for t, e in rows if self.held.get(str(t)) == int(e)}
        lost = table_ids - ok
        for t in lost:
            if t in self.held:
                log.warning("table %s: lease lost; its writes are refused", t)
                self.held.pop(t, None)
        return lost

    def holds(self, table_id: str) -> bool:
        return table_id in self.held
