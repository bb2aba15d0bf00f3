"""Durable storage of the reports of bot moves (docs/reports.md).

The same database and writer as the tables (:class:`~tute.server.store.Store`): a report is
filed by one op, acknowledged only once committed. The table is created beside tute's own on
first use. A report keeps the finished game's record (public once the game is over), never a
seat's token nor a session's, nor the reporter's address; the account, if one was logged in.

The command line reads and decides reports through a plain engine on the same URL
(:func:`open_engine`): ``tute reports export`` while the server runs.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Column,
    Connection,
    Engine,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    and_,
    create_engine,
    insert,
    select,
    update,
)

from ..regressions import Regression
from .schema import create_tables
from .store import Op, database_url

__all__ = ["ReportRow", "ReportStore", "open_engine", "read_reports", "set_decided"]

metadata = MetaData()

reports = Table(
    "tute_reports", metadata,
    Column("id", String(16), primary_key=True),
    Column("table_id", String(32), nullable=False, index=True),
    Column("deal", Integer, nullable=False),
    Column("move", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("variant", String(40), nullable=False),
    Column("bot", String(40), nullable=False),  # the seat's level ("medio")
    Column("played", String(40), nullable=False),
    Column("analysis", Text, nullable=False),  # JSON: dd_best, dd_loss, best, loss (or {})
    Column("record", Text, nullable=False),  # JSON: the game's record, players left out
    Column("comment", Text, nullable=False),
    Column("account_id", String(24), nullable=True),
    Column("status", String(12), nullable=False),  # open | decided
    Column("expect", String(40), nullable=True),
    Column("note", Text, nullable=True),
    Column("at", Float, nullable=False, index=True),
    Column("decided_at", Float, nullable=True),
    # one report a move: a second reporter is told it is already filed
    UniqueConstraint("table_id", "deal", "move", name="tute_reports_move"),
)


@dataclass
class ReportRow:
    id: str
    table_id: str
    deal: int
    move: int
    seat: int
    variant: str
    bot: str
    played: str
    analysis: dict[str, Any]
    record: dict[str, Any]
    comment: str
    account_id: str | None
    status: str
    at: float
    expect: str | None = None
    note: str | None = None
    decided_at: float | None = None

    def regression(self) -> Regression:
        """The report as a line of a regression set."""
        return Regression(id=self.id, record=self.record, deal=self.deal, move=self.move,
                          seat=self.seat, played=self.played, bot=self.bot,
                          status=self.status, expect=self.expect, note=self.note,
                          comment=self.comment, analysis=self.analysis,
                          source=f"table:{self.table_id}", at=self.at)


def _json(text: Any) -> dict[str, Any]:
    try:
        value = json.loads(text) if isinstance(text, str) else None
    except ValueError:
        value = None
    return value if isinstance(value, dict) else {}


def _report(r: Any) -> ReportRow:
    return ReportRow(id=str(r.id), table_id=str(r.table_id), deal=int(r.deal),
                     move=int(r.move), seat=int(r.seat), variant=str(r.variant),
                     bot=str(r.bot), played=str(r.played), analysis=_json(r.analysis),
                     record=_json(r.record), comment=str(r.comment),
                     account_id=r.account_id, status=str(r.status), at=float(r.at),
                     expect=r.expect, note=r.note, decided_at=r.decided_at)


def read_reports(engine: Engine, status: str | None = None) -> list[ReportRow]:
    """Every report (or those of one status), oldest first; a row whose record cannot be
    read is left out (a regression set cannot replay it)."""
    q = select(reports).order_by(reports.c.at, reports.c.id)
    if status is not None:
        q = q.where(reports.c.status == status)
    with engine.connect() as conn:
        rows = [_report(r) for r in conn.execute(q).all()]
    return [r for r in rows if r.record]


def set_decided(engine: Engine, report_id: str, note: str, expect: str | None,
                at: float) -> bool:
    """Mark a report decided (committed on return); False when there is no such report."""
    with engine.begin() as conn:
        done = conn.execute(update(reports).where(reports.c.id == report_id).values(
            status="decided", note=note, expect=expect, decided_at=at))
    return bool(done.rowcount)


def open_engine(url: str) -> Engine:
    """A plain engine on the server's database for the command line (no lock: the server may
    be running), the reports' table made if missing. Raises StorageError on a bad URL."""
    u = database_url(url)
    kwargs: dict[str, Any] = {}
    if u.get_backend_name() == "sqlite":
        kwargs["connect_args"] = {"timeout": 30}
    engine = create_engine(u, **kwargs)
    create_tables(engine, metadata)
    return engine


class ReportStore:
    """The reports' reads (synchronous: callers run them in a thread) and ops for the
    store's writer."""

    def __init__(self, engine: Engine):
        self.engine = engine
        create_tables(engine, metadata)

    def find(self, table_id: str, deal: int, move: int) -> ReportRow | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(reports).where(and_(
                reports.c.table_id == table_id, reports.c.deal == deal,
                reports.c.move == move))).first()
        return None if r is None else _report(r)

    def get(self, report_id: str) -> ReportRow | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(reports).where(reports.c.id == report_id)).first()
        return None if r is None else _report(r)

    @staticmethod
    def op_file(row: ReportRow) -> Op:
        """Store the report unless its move is reported already; the op's value is the id
        of the move's report and whether it is this one."""
        values = {"id": row.id, "table_id": row.table_id, "deal": row.deal,
                  "move": row.move, "seat": row.seat, "variant": row.variant,
                  "bot": row.bot, "played": row.played,
                  "analysis": json.dumps(row.analysis, separators=(",", ":")),
                  "record": json.dumps(row.record, separators=(",", ":")),
                  "comment": row.comment, "account_id": row.account_id,
                  "status": row.status, "at": row.at}

        def op(conn: Connection) -> tuple[str, bool]:
            had = conn.execute(select(reports.c.id).where(and_(
                reports.c.table_id == row.table_id, reports.c.deal == row.deal,
                reports.c.move == row.move))).scalar()
            if had is not None:
                return str(had), False
            conn.execute(insert(reports).values(**values))
            return row.id, True
        return op
