"""Durable storage of tables and their events (SQLAlchemy 2 Core).

Everything a table needs to come back after a crash is here: the table row (variant, options,
seed, seats) and its event log (accepted actions and seat changes, one row per version).
Writes go through one writer thread that commits batches (group commit), so a burst of actions
from many tables costs one transaction, and the asyncio loop never waits on the disk itself.
Within a batch the table events are written with one multi-row insert and one executemany
update: statement by statement they cost ~150 µs of the writer's time (and GIL) each.

The URL is any SQLAlchemy URL: SQLite (the default, a file in the data dir) or PostgreSQL, where
the plain ``postgresql://`` and ``postgres://`` forms pick the psycopg 3 driver
(``pip install 'tute[postgres]'``). Errors and logs show URLs with the password masked.

Nothing is acknowledged that is not stored: :meth:`Store.write` returns only after its op's
transaction committed and raises otherwise. Reads never trust a row: one
that cannot be decoded raises :class:`DamagedTableError` for that table alone (or is skipped by
the listings), so one bad row cannot stop the server. One server per SQLite file: it holds an
exclusive lock on ``<file>.lock`` beside it while open.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import queue
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Protocol
from urllib.parse import unquote

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    and_,
    bindparam,
    create_engine,
    event,
    insert,
    inspect,
    select,
    type_coerce,
    update,
)
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError
from sqlalchemy.pool import NullPool

from ..errors import TuteError
from .schema import create_tables

try:
    import fcntl
except ImportError:  # not on Windows: no lock there
    fcntl = None  # type: ignore[assignment]

__all__ = ["DamagedTableError", "EventRow", "Fence", "LeaseLost", "StorageError", "Store",
           "TableRow", "database_url", "mask_url", "normalize_url"]

log = logging.getLogger("tute.server")


class StorageError(TuteError):
    """The database cannot be used: a bad URL, a missing driver, a server that refuses us, or a
    write that did not commit. The message (one line) names the URL with its password
    masked; it is for logs and the operator, not for players."""


class DamagedTableError(StorageError):
    """One table's stored data cannot be read or replayed: that table is unavailable, the
    others are not. ``reason`` says what is wrong without quoting the data (it may hold the
    seed or hidden cards), so it may be shown to players."""

    def __init__(self, table_id: str, reason: str):
        super().__init__(f"table {table_id} is damaged: {reason}")
        self.table_id = table_id
        self.reason = reason


class LeaseLost(StorageError):
    """A write refused because this process no longer holds the table's lease (several
    processes, :mod:`tute.server.lease`): another one took the table over."""

    def __init__(self, table_id: str):
        super().__init__(f"table {table_id}: lease lost, the write is refused")
        self.table_id = table_id


class Fence(Protocol):
    """What the writer asks before writing a table's rows when several processes share the
    database (:class:`tute.server.lease.Leases`); a single process has none."""

    def refused(self, conn: Connection, table_ids: set[str]) -> set[str]:
        """Inside the write's transaction: lock the leases of ``table_ids`` this process
        holds (until the commit) and return the ids whose lease it does not hold."""
        ...

    def holds(self, table_id: str) -> bool:
        """Whether this process still believes it holds the table's lease."""
        ...


def mask_url(url: str | URL) -> str:
    """``url`` fit for errors and logs: the password (also a ``password=`` query parameter)
    replaced by ``***``."""
    if isinstance(url, URL):
        url = url.render_as_string(hide_password=True)
    else:
        # By hand, not by parsing: a password with an unescaped "@" or a URL SQLAlchemy cannot
        # parse must not leak either. The credentials end at the last "@".
        head, at, rest = url.rpartition("@")
        if at:
            scheme, sep, creds = head.partition("://") if "://" in head else ("", "", head)
            user, colon, _ = creds.partition(":")
            url = f"{scheme}{sep}{user}{':***' if colon else ''}@{rest}"
    return re.sub(r"([?&]password=)[^&]*", r"\1***", url, flags=re.IGNORECASE)


def normalize_url(url: str) -> URL:
    """Parse ``url``; ``postgresql://`` and ``postgres://`` become psycopg 3's
    ``postgresql+psycopg://`` (an explicit driver such as ``+psycopg2`` is kept)."""
    try:
        u = make_url(url)
    except ArgumentError:
        raise StorageError(
            f"cannot parse the database URL {mask_url(url)!r}: expected sqlite:///path/file or "
            "postgresql://user:password@host/dbname") from None
    backend, _, driver = u.drivername.partition("+")
    if backend == "postgres":  # the Heroku-style alias SQLAlchemy no longer knows
        backend = "postgresql"
    if backend == "postgresql" and not driver:
        driver = "psycopg"  # SQLAlchemy's default would be psycopg2; we ship psycopg 3
    return u.set(drivername=f"{backend}+{driver}" if driver else backend)


def database_url(url: str) -> URL:
    """:func:`normalize_url`, then check that SQLAlchemy knows the scheme and its driver is
    installed. Raises :class:`StorageError` saying what is wrong (and how to install it)."""
    u = normalize_url(url)
    scheme, shown = url.partition(":")[0], mask_url(url)
    try:
        dialect = u.get_dialect()
    except NoSuchModuleError:
        raise StorageError(
            f"unknown database URL scheme {scheme!r} in {shown}: use sqlite:///path/file or "
            "postgresql://user:password@host/dbname") from None
    if dialect.is_async:
        raise StorageError(f"the database URL scheme {scheme!r} in {shown} names an asyncio "
                           "driver, which the storage cannot use: write postgresql://...")
    try:
        dialect.import_dbapi()
    except ImportError as exc:
        if u.drivername == "postgresql+psycopg":
            need, how = "the psycopg 3 driver", "pip install 'tute[postgres]'"
        else:
            need = f"the Python module {exc.name or u.drivername!r}"
            how = "install the package that provides it"
        raise StorageError(f"the database URL scheme {scheme!r} ({shown}) needs {need}, which "
                           f"is not installed: {how}") from None
    return u


metadata = MetaData()

tables = Table(
    "tute_tables", metadata,
    Column("id", String(32), primary_key=True),
    Column("code", String(12), nullable=False, unique=True),
    Column("variant", String(40), nullable=False),
    Column("options", JSON, nullable=False),
    Column("seed", String(24), nullable=False),  # up to 2**64-1: too big for a signed BIGINT
    Column("first_dealer", Integer, nullable=True),
    Column("seats", JSON, nullable=False),  # [{kind, name, level, token_hash}]
    Column("host", Integer, nullable=True),
    Column("public", Boolean, nullable=False, default=False),
    Column("status", String(12), nullable=False, index=True),  # waiting|playing|finished|expired
    Column("version", Integer, nullable=False, default=0),
    Column("result", JSON, nullable=True),
    Column("created_at", Float, nullable=False),
    Column("finished_at", Float, nullable=True, index=True),
)

events = Table(
    "tute_events", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("version", Integer, primary_key=True),
    Column("kind", String(12), nullable=False),  # action | seat
    Column("seat", Integer, nullable=True),
    Column("data", Text, nullable=False),
    Column("at", Float, nullable=False),
)

# Rows beside the game that never touch its version or its replay: table chat and per-table
# settings (e.g. chat turned off). A damaged note is skipped, never the table.
notes = Table(
    "tute_notes", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(32), nullable=False, index=True),
    Column("kind", String(12), nullable=False),  # chat | settings
    Column("seat", Integer, nullable=True),
    Column("data", Text, nullable=False),
    Column("at", Float, nullable=False),
)


@dataclass
class TableRow:
    id: str
    code: str
    variant: str
    options: dict[str, Any]
    seed: int
    first_dealer: int | None
    seats: list[dict[str, Any]]
    host: int | None
    public: bool
    status: str
    version: int
    result: dict[str, Any] | None
    created_at: float
    finished_at: float | None


@dataclass
class EventRow:
    version: int
    kind: str
    seat: int | None
    data: str
    at: float = 0.0


STATUSES = ("waiting", "playing", "finished", "expired", "abandoned")
SEAT_KINDS = ("human", "bot", "open")
_JSON_COLUMNS = ("options", "seats", "result")
# The JSON columns read as text and decoded row by row (SQLAlchemy's JSON type would decode them
# while fetching, so one bad value would sink the whole query). PostgreSQL's driver hands over
# json values already decoded (and the server never stores malformed ones).
_READ_TABLES = select(*[type_coerce(c, Text).label(c.name) if c.name in _JSON_COLUMNS else c
                        for c in tables.c])


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, (str, bytes)) else value


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _seat_ok(s: Any) -> bool:
    return (isinstance(s, dict) and s.get("kind") in SEAT_KINDS
            and isinstance(s.get("name", ""), str)
            and isinstance(s.get("level") or "", str)
            and isinstance(s.get("token_hash") or "", str))


def _row(r: Any) -> TableRow:
    """Decode and check one table row; :class:`DamagedTableError` says which field is bad."""
    tid = str(r.id)

    def field(name: str, decode: Callable[[Any], Any], ok: Callable[[Any], bool]) -> Any:
        try:
            value = decode(getattr(r, name))
            good = ok(value)
        except (ValueError, TypeError):  # JSONDecodeError is a ValueError
            good = False
        if not good:
            raise DamagedTableError(tid, f"its stored {name} cannot be read")
        return value

    def same(v: Any) -> Any:
        return v

    def seed(v: Any) -> int:
        if not (isinstance(v, str) and v.isascii() and v.isdigit()):
            raise ValueError(v)
        return int(v)

    return TableRow(
        id=tid,
        code=field("code", same, lambda v: isinstance(v, str)),
        variant=field("variant", same, lambda v: isinstance(v, str)),
        options=field("options", _json, lambda v: isinstance(v, dict)),
        seed=field("seed", seed, lambda v: 0 <= v < 2**64),
        first_dealer=field("first_dealer", same, lambda v: v is None or _is_int(v)),
        seats=field("seats", _json,
                    lambda v: isinstance(v, list) and all(map(_seat_ok, v))),
        host=field("host", same, lambda v: v is None or _is_int(v)),
        public=bool(r.public),
        status=field("status", same, lambda v: v in STATUSES),
        version=field("version", same, lambda v: _is_int(v) and v >= 0),
        result=field("result", _json, lambda v: v is None or isinstance(v, dict)),
        created_at=field("created_at", same, _is_num),
        finished_at=field("finished_at", same, lambda v: v is None or _is_num(v)),
    )


def _event(table_id: str, r: Any) -> EventRow:
    if not (_is_int(r.version) and r.kind in ("action", "seat") and isinstance(r.data, str)
            and (r.seat is None or _is_int(r.seat)) and _is_num(r.at)):
        raise DamagedTableError(table_id, f"its stored event {r.version!r} cannot be read")
    return EventRow(r.version, r.kind, r.seat, r.data, r.at)


Op = Callable[[Connection], Any]


@dataclass
class EventOp:
    """Append one event and move the table's version (and status/seats/result) with it. An
    op like any other (callable on a connection); the writer also batches runs of them."""

    table_id: str
    version: int
    kind: str
    seat: int | None
    data: str
    at: float
    status: str | None = None
    seats: list[dict[str, Any]] | None = None
    result: dict[str, Any] | None = None

    def event_values(self) -> dict[str, Any]:
        return {"table_id": self.table_id, "version": self.version, "kind": self.kind,
                "seat": self.seat, "data": self.data, "at": self.at}

    def table_values(self) -> dict[str, Any]:
        values: dict[str, Any] = {"version": self.version}
        if self.status is not None:
            values["status"] = self.status
            if self.status == "finished":
                values["finished_at"] = self.at
        if self.seats is not None:
            values["seats"] = self.seats
        if self.result is not None:
            values["result"] = self.result
        return values

    def __call__(self, conn: Connection) -> None:
        _write_events(conn, [self])


_VERSION_ONLY = (update(tables).where(tables.c.id == bindparam("_id"))
                 .values(version=bindparam("_version")))


def _write_events(conn: Connection, ops: list[EventOp]) -> None:
    conn.execute(insert(events), [op.event_values() for op in ops])
    one_each = len({op.table_id for op in ops}) == len(ops)  # else keep the order of updates
    plain = [{"_id": op.table_id, "_version": op.version} for op in ops
             if one_each and op.status is None and op.seats is None and op.result is None]
    if plain:
        conn.execute(_VERSION_ONLY, plain)
    for op in ops:
        if not one_each or op.status is not None or op.seats is not None or op.result is not None:
            conn.execute(update(tables).where(tables.c.id == op.table_id)
                         .values(**op.table_values()))


@dataclass
class TableOp:
    """A write of one table's rows other than an event (its creation, a status, a note):
    ``table_id`` lets a fence check its lease."""

    table_id: str
    run: Callable[[Connection], Any]

    def __call__(self, conn: Connection) -> Any:
        return self.run(conn)


def op_table(op: Op) -> str | None:
    """The table an op writes to, if it says (events and :class:`TableOp`)."""
    if isinstance(op, (EventOp, TableOp)):
        return op.table_id
    return None


def _run_batch(conn: Connection, ops: list[Op]) -> list[Any]:
    """Run ``ops`` in order on one connection; consecutive event ops go in one statement."""
    results: list[Any] = []
    run: list[EventOp] = []
    for op in ops:
        if isinstance(op, EventOp):
            run.append(op)
            continue
        if run:
            _write_events(conn, run)
            results.extend([None] * len(run))
            run = []
        results.append(op(conn))
    if run:
        _write_events(conn, run)
        results.extend([None] * len(run))
    return results


class Store:
    """Synchronous storage API plus an async, batching writer (:meth:`write`).

    Opening connects and creates the tables if missing; :class:`StorageError` says why not
    (also: another server holds the SQLite file, or the database is not tute's)."""

    def __init__(self, url: str):
        u = database_url(url)
        self.url = mask_url(url)  # for logs: never the password
        self._password = u.password
        kwargs: dict[str, Any] = {}
        sqlite = u.get_backend_name() == "sqlite"
        file = _sqlite_file(u.database) if sqlite else None
        self._lock: tuple[int, int] | None = None
        if file is not None:
            self._lock = _lock_sqlite(file)
        if sqlite:
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        else:
            # a server restart leaves dead connections in the pool: test before use
            kwargs["pool_pre_ping"] = True
            if u.get_driver_name() in ("psycopg", "psycopg2") and "connect_timeout" not in u.query:
                kwargs["connect_args"] = {"connect_timeout": 10}  # not the TCP minutes
        self.engine: Engine = create_engine(u, **kwargs)
        if sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        try:
            self._check_schema(sqlite)
            create_tables(self.engine, metadata)
        except (DBAPIError, StorageError) as exc:
            self.engine.dispose()
            self._unlock()
            if isinstance(exc, StorageError):
                raise
            raise StorageError(f"cannot open the database {self.url}: {self.reason(exc)}"
                               ) from None
        self._q: queue.SimpleQueue[tuple[Op, asyncio.Future[Any]] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        # several processes on one database: every table write is fenced by its lease
        self.fence: Fence | None = None

    # ------------------------------------------------------------ writer thread

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._writer, name="tute-db-writer",
                                            daemon=True)
            self._thread.start()

    def close(self) -> None:
        if self._thread is not None:
            self._q.put(None)
            self._thread.join(timeout=10)
            self._thread = None
        self.engine.dispose()
        self._unlock()

    def _unlock(self) -> None:
        if self._lock is not None:
            _unlock_sqlite(self._lock)
            self._lock = None

    def reason(self, exc: BaseException) -> str:
        """``exc`` in one line, the password masked."""
        orig = exc.orig if isinstance(exc, DBAPIError) else None
        reason = " ".join(str(orig or exc).split()) or type(exc).__name__
        return reason.replace(self._password, "***") if self._password else reason

    def _check_schema(self, sqlite: bool) -> None:
        """Refuse a database that is not tute's: a SQLite file of another program (its tables
        and none of ours), or tables named like ours without our columns."""
        # SQLite: looked at through a plain engine first, so that a refused file is left as it
        # was (our connections switch it to WAL)
        probe = create_engine(self.engine.url, poolclass=NullPool) if sqlite else self.engine
        try:
            self._check_tables(probe, sqlite)
        finally:
            if sqlite:
                probe.dispose()

    def _check_tables(self, engine: Engine, sqlite: bool) -> None:
        with engine.connect() as conn:
            insp = inspect(conn)
            names = set(insp.get_table_names())
            ours = {t.name for t in (tables, events)}
            if sqlite and names and not names & ours:
                raise StorageError(
                    f"the database {self.url} is not a tute database (it has other tables: "
                    f"{', '.join(sorted(names)[:5])}); give tute a file of its own")
            for t in (tables, events):
                if t.name in names:
                    have = {c["name"] for c in insp.get_columns(t.name)}
                    if missing := [c.name for c in t.c if c.name not in have]:
                        raise StorageError(
                            f"the database {self.url} has a table {t.name} that is not tute's "
                            f"(no column {', '.join(missing)})")

    async def write(self, op: Op) -> Any:
        """Run ``op`` in a committed transaction; returns once it is durable. Raises the
        error (the database driver's, through SQLAlchemy) when it did not commit."""
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._q.put((op, fut))
        return await fut

    async def committed(self, table_id: str, version: int) -> bool:
        """After a failed write: whether the table reached ``version`` all the same (a commit
        that landed but reported an error, e.g. a connection lost during COMMIT). False when
        that cannot be read either, or when the table's lease is lost (another process may
        have written that version)."""
        if self.fence is not None and not self.fence.holds(table_id):
            return False
        try:
            row = await asyncio.to_thread(self._version, table_id)
        except Exception:
            return False
        return row == version

    def _version(self, table_id: str) -> int | None:
        with self.engine.connect() as conn:
            v = conn.execute(select(tables.c.version).where(tables.c.id == table_id)).scalar()
        return v if _is_int(v) else None

    def _writer(self) -> None:
        while True:
            item = self._q.get()
            if item is None:
                return
            batch = [item]
            while len(batch) < 500:
                try:
                    nxt = self._q.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    self._q.put(None)  # finish this batch, then stop
                    break
                batch.append(nxt)
            results: list[tuple[asyncio.Future[Any], Any, BaseException | None]] = []
            # A result counts only once the ``with`` block has exited: that is the COMMIT, and
            # it can fail (a full disk) after every statement succeeded.
            try:
                with self.engine.begin() as conn:
                    # fenced out (another process took the table): refused, the rest written
                    lost = self._fenced(conn, [op for op, _ in batch])
                    kept = [(op, fut) for op, fut in batch if op_table(op) not in lost]
                    values = _run_batch(conn, [op for op, _ in kept])
                results = [(fut, value, None)
                           for (_, fut), value in zip(kept, values, strict=True)]
                results += [(fut, None, LeaseLost(str(op_table(op)))) for op, fut in batch
                            if op_table(op) in lost]
            except Exception:
                # One bad op must not sink the others. The batch's transaction is rolled back
                # (PostgreSQL refuses every statement after a failed one until then); redo the
                # ops one fresh transaction each.
                results = []
                for op, fut in batch:
                    try:
                        with self.engine.begin() as conn:
                            if self._fenced(conn, [op]):
                                raise LeaseLost(str(op_table(op)))
                            value = op(conn)
                    except Exception as exc:  # reported to the awaiting caller
                        results.append((fut, None, exc))
                    else:
                        results.append((fut, value, None))
            for fut, value, error in results:
                with contextlib.suppress(RuntimeError):  # its loop is closed: nobody waits
                    fut.get_loop().call_soon_threadsafe(_settle, fut, value, error)

    def _fenced(self, conn: Connection, ops: list[Op]) -> set[str | None]:
        """The tables among ``ops``' whose lease this process lost (none without a fence)."""
        if self.fence is None:
            return set()
        ids = {t for op in ops if (t := op_table(op)) is not None}
        return set(self.fence.refused(conn, ids)) if ids else set()

    # ------------------------------------------------------------ operations

    @staticmethod
    def op_create(row: TableRow) -> Op:
        values = dict(row.__dict__)
        values["seed"] = str(row.seed)

        def op(conn: Connection) -> None:
            conn.execute(insert(tables).values(**values))
        return TableOp(row.id, op)

    @staticmethod
    def op_event(table_id: str, version: int, kind: str, seat: int | None, data: str,
                 *, status: str | None = None, seats: list[dict[str, Any]] | None = None,
                 result: dict[str, Any] | None = None, at: float | None = None) -> Op:
        """Append one event and move the table's version (and status/seats/result) with it;
        ``at``: its time (default now)."""
        return EventOp(table_id, version, kind, seat, data, time.time() if at is None else at,
                       status, seats, result)

    @staticmethod
    def op_status(table_id: str, status: str, at: float | None = None) -> Op:
        when = time.time() if at is None else at
        ended = {"finished_at": when} if status == "abandoned" else {}  # history order
        def op(conn: Connection) -> None:
            conn.execute(update(tables).where(tables.c.id == table_id).values(status=status,
                                                                               **ended))
        return TableOp(table_id, op)

    @staticmethod
    def op_note(table_id: str, kind: str, seat: int | None, data: str,
                at: float | None = None) -> Op:
        """Store one non-game row (a chat line, the table's settings)."""
        values = {"table_id": table_id, "kind": kind, "seat": seat, "data": data,
                  "at": time.time() if at is None else at}

        def op(conn: Connection) -> None:
            conn.execute(insert(notes).values(**values))
        return TableOp(table_id, op)

    def notes(self, table_id: str, kind: str, limit: int = 50) -> list[dict[str, Any]]:
        """The latest ``limit`` notes of one kind, oldest first, as their JSON data; a note
        that cannot be read is left out."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(notes.c.data).where(
                and_(notes.c.table_id == table_id, notes.c.kind == kind))
                .order_by(notes.c.id.desc()).limit(limit)).all()
        out = []
        for (data,) in reversed(rows):
            try:
                value = json.loads(data)
            except (ValueError, TypeError):
                continue
            if isinstance(value, dict):
                out.append(value)
        return out

    def live_tables(self, damaged: dict[str, str] | None = None) -> list[TableRow]:
        """The unfinished tables. A row that cannot be read is left out (and logged); its id
        and reason go into ``damaged`` if given."""
        with self.engine.connect() as conn:
            rows = conn.execute(_READ_TABLES.where(
                tables.c.status.in_(("waiting", "playing")))).all()
        return _rows(rows, damaged)

    def lobby_rows(self, per_status: int) -> list[TableRow]:
        """The newest ``per_status`` public waiting tables and as many public games being
        played: what a lobby lists of the tables other processes own. Bounded, so a site's
        once-a-second read costs the same at 100 tables as at 100,000."""
        out: list[TableRow] = []
        with self.engine.connect() as conn:
            for status in ("waiting", "playing"):
                out += _rows(conn.execute(_READ_TABLES.where(and_(
                    tables.c.status == status, tables.c.public.is_(True)))
                    .order_by(tables.c.created_at.desc()).limit(per_status)).all())
        return out

    def check_readable(self) -> None:
        """Read what a server reads at startup (the unfinished tables and their events):
        a damaged database file ("database disk image is malformed") is then one
        :class:`StorageError` before anything is served."""
        try:
            with self.engine.connect() as conn:
                conn.execute(_READ_TABLES.where(
                    tables.c.status.in_(("waiting", "playing")))).all()
                conn.execute(select(events.c.table_id, events.c.version, events.c.data)
                             .where(events.c.table_id.in_(
                                 select(tables.c.id).where(
                                     tables.c.status.in_(("waiting", "playing"))))
                                    )).all()
        except DBAPIError as exc:
            raise StorageError(f"cannot read the database {self.url}: "
                               f"{self.reason(exc)}") from None

    def get(self, table_id: str) -> TableRow | None:
        """The table's row; :class:`DamagedTableError` if it cannot be read."""
        with self.engine.connect() as conn:
            r = conn.execute(_READ_TABLES.where(tables.c.id == table_id)).first()
        return None if r is None else _row(r)

    def by_code(self, code: str) -> TableRow | None:
        with self.engine.connect() as conn:
            r = conn.execute(_READ_TABLES.where(tables.c.code == code)).first()
        return None if r is None else _row(r)

    def events(self, table_id: str) -> list[EventRow]:
        """The table's event log in version order; :class:`DamagedTableError` if an event
        cannot be read."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(events.c.version, events.c.kind, events.c.seat,
                                       events.c.data, events.c.at)
                                .where(events.c.table_id == table_id)
                                .order_by(events.c.version)).all()
        return [_event(table_id, r) for r in rows]

    def finished(self, limit: int = 50, before: float | None = None) -> list[TableRow]:
        """The newest finished games; rows that cannot be read are skipped (and logged)."""
        q = _READ_TABLES.where(tables.c.status.in_(("finished", "abandoned")))
        if before is not None:
            q = q.where(and_(tables.c.finished_at < before))
        newest = tables.c.finished_at.desc()
        if self.engine.dialect.name != "sqlite":  # SQLite sorts NULLs last here by itself
            newest = newest.nulls_last()  # (SQLite only knows NULLS LAST since 3.30)
        q = q.order_by(newest, tables.c.id).limit(limit)
        with self.engine.connect() as conn:
            return _rows(conn.execute(q).all())


def _rows(rows: Any, damaged: dict[str, str] | None = None) -> list[TableRow]:
    out = []
    for r in rows:
        try:
            out.append(_row(r))
        except DamagedTableError as exc:
            log.error("%s; skipped", exc)
            if damaged is not None:
                damaged[exc.table_id] = exc.reason
    return out


def _sqlite_file(database: str | None) -> Path | None:
    """The file an SQLite URL's database names (``file:`` URIs too), or None in memory."""
    if not database or database == ":memory:":
        return None
    if database.startswith("file:"):
        path, _, query = database[5:].partition("?")
        if "mode=memory" in query or not path or path == ":memory:":
            return None
        return Path(unquote(path))
    return Path(database)


def _lock_sqlite(db: Path) -> tuple[int, int]:
    """Take the exclusive lock of SQLite file ``db`` for this process: a ``flock`` on the
    database file itself, so that no other path to it (a ``file:`` URI, a symbolic or hard
    link) lets a second server in; ``<db>.lock`` names the holder's pid. A process may open
    one file more than once (tests restart an app while the old one is still open): the lock
    is counted, not taken again. Returns the file's identity (device, inode)."""
    db = db.resolve()
    try:
        db.parent.mkdir(parents=True, exist_ok=True)
        f = db.open("ab")  # an empty file is a new database (made here if missing)
    except OSError as exc:
        raise StorageError(f"cannot open the database file {db}: {exc.strerror}") from None
    st = os.fstat(f.fileno())
    key = (st.st_dev, st.st_ino)
    pidfile = db.with_name(db.name + ".lock")
    with _LOCKS_GUARD:
        held = _LOCKS.get(key)
        if held is not None:
            f.close()
            _LOCKS[key] = (held[0], held[1] + 1)
            return key
        if fcntl is not None:
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                f.close()
                try:
                    pid = pidfile.read_text().strip()[:20] or "unknown"
                except OSError:
                    pid = "unknown"  # the holder came through another path to the file
                raise StorageError(f"another tute server is using data folder {db.parent} "
                                   f"(pid {pid})") from None
            with contextlib.suppress(OSError):
                pidfile.write_text(f"{os.getpid()}\n")
        _LOCKS[key] = (f, 1)
    return key


def _unlock_sqlite(key: tuple[int, int]) -> None:
    with _LOCKS_GUARD:
        held = _LOCKS.pop(key, None)
        if held is None:
            return
        f, n = held
        if n > 1:
            _LOCKS[key] = (f, n - 1)
        else:
            # closed only once the engine is disposed: closing a descriptor of the file
            # drops the process's POSIX locks on it, SQLite's included
            f.close()


_LOCKS: dict[tuple[int, int], tuple[IO[bytes], int]] = {}
_LOCKS_GUARD = threading.Lock()


def _settle(fut: asyncio.Future[Any], value: Any, exc: BaseException | None) -> None:
    if fut.done():
        return
    if exc is not None:
        fut.set_exception(exc)
    else:
        fut.set_result(value)


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    # WAL lets readers (lobby, history) run beside the writer; FULL syncs every commit so an
    # accepted action survives even a power cut, and group commit keeps that affordable.
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
    # Invalid UTF-8 in a text column (a flipped bit) becomes U+FFFD, which the row's checks
    # then refuse, instead of an error that fails the whole query.
    dbapi_conn.text_factory = _lenient_text


def _lenient_text(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")


def dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"))
