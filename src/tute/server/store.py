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
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import queue
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

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
    select,
    update,
)
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError

from ..errors import TuteError

__all__ = ["EventRow", "StorageError", "Store", "TableRow", "database_url", "mask_url",
           "normalize_url"]


class StorageError(TuteError):
    """The database cannot be used: a bad URL, a missing driver or a server that refuses us.
    The message names the URL with its password masked."""


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


def _row(r: Any) -> TableRow:
    return TableRow(r.id, r.code, r.variant, dict(r.options), int(r.seed), r.first_dealer,
                    list(r.seats), r.host, bool(r.public), r.status, r.version, r.result,
                    r.created_at, r.finished_at)


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

    Opening connects and creates the tables if missing; :class:`StorageError` says why not."""

    def __init__(self, url: str):
        u = database_url(url)
        self.url = mask_url(url)  # for logs: never the password
        kwargs: dict[str, Any] = {}
        sqlite = u.get_backend_name() == "sqlite"
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
            metadata.create_all(self.engine)
        except DBAPIError as exc:
            self.engine.dispose()
            reason = " ".join(str(exc.orig or exc).split())
            if u.password:
                reason = reason.replace(u.password, "***")
            raise StorageError(f"cannot open the database {self.url}: {reason}") from None
        self._q: queue.SimpleQueue[tuple[Op, asyncio.Future[Any]] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None

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

    async def write(self, op: Op) -> Any:
        """Run ``op`` in a committed transaction; returns once it is durable."""
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._q.put((op, fut))
        return await fut

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
            try:
                with self.engine.begin() as conn:
                    values = _run_batch(conn, [op for op, _ in batch])
                results = [(fut, value, None)
                           for (_, fut), value in zip(batch, values, strict=True)]
            except Exception:
                # One bad op must not sink the others. The batch's transaction is rolled back
                # (PostgreSQL refuses every statement after a failed one until then); redo the
                # ops one fresh transaction each.
                results = []
                for op, fut in batch:
                    try:
                        with self.engine.begin() as conn:
                            results.append((fut, op(conn), None))
                    except Exception as exc:  # reported to the awaiting caller
                        results.append((fut, None, exc))
            for fut, value, error in results:
                with contextlib.suppress(RuntimeError):  # its loop is closed: nobody waits
                    fut.get_loop().call_soon_threadsafe(_settle, fut, value, error)

    # ------------------------------------------------------------ operations

    @staticmethod
    def op_create(row: TableRow) -> Op:
        values = dict(row.__dict__)
        values["seed"] = str(row.seed)

        def op(conn: Connection) -> None:
            conn.execute(insert(tables).values(**values))
        return op

    @staticmethod
    def op_event(table_id: str, version: int, kind: str, seat: int | None, data: str,
                 *, status: str | None = None, seats: list[dict[str, Any]] | None = None,
                 result: dict[str, Any] | None = None) -> Op:
        """Append one event and move the table's version (and status/seats/result) with it."""
        return EventOp(table_id, version, kind, seat, data, time.time(), status, seats, result)

    @staticmethod
    def op_status(table_id: str, status: str) -> Op:
        ended = {"finished_at": time.time()} if status == "abandoned" else {}  # history order
        def op(conn: Connection) -> None:
            conn.execute(update(tables).where(tables.c.id == table_id).values(status=status,
                                                                               **ended))
        return op

    def live_tables(self) -> list[TableRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(tables).where(
                tables.c.status.in_(("waiting", "playing")))).all()
        return [_row(r) for r in rows]

    def get(self, table_id: str) -> TableRow | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(tables).where(tables.c.id == table_id)).first()
        return None if r is None else _row(r)

    def by_code(self, code: str) -> TableRow | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(tables).where(tables.c.code == code)).first()
        return None if r is None else _row(r)

    def events(self, table_id: str) -> list[EventRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(events.c.version, events.c.kind, events.c.seat,
                                       events.c.data, events.c.at)
                                .where(events.c.table_id == table_id)
                                .order_by(events.c.version)).all()
        return [EventRow(r.version, r.kind, r.seat, r.data, r.at) for r in rows]

    def finished(self, limit: int = 50, before: float | None = None) -> list[TableRow]:
        q = select(tables).where(tables.c.status.in_(("finished", "abandoned")))
        if before is not None:
            q = q.where(and_(tables.c.finished_at < before))
        newest = tables.c.finished_at.desc()
        if self.engine.dialect.name != "sqlite":  # SQLite sorts NULLs last here by itself
            newest = newest.nulls_last()  # (SQLite only knows NULLS LAST since 3.30)
        q = q.order_by(newest, tables.c.id).limit(limit)
        with self.engine.connect() as conn:
            return [_row(r) for r in conn.execute(q).all()]


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


def dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"))
