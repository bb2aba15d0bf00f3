"""Durable entries of the deal of the day and of the week, in the tables' own database.

One row per (event, player): the actions the player took, its margins and score once done, its
decisions for "how the others played", and the double-dummy analysis once made. Every process
of a site reads and writes the same rows, with nothing cached: a step is a compare-and-set on
the number of actions already taken, so two steps of one player at two processes (or two
tabs) cannot both land, and the second is told so. The player is ``a:<account id>`` when logged
in, else ``b:<the browser's random id>``; deleting an account deletes its entries.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    and_,
    delete,
    func,
    insert,
    select,
    update,
)

from .schema import create_tables
from .store import Op, Store

__all__ = ["DailyEntry", "DailyStore"]

metadata = MetaData()

entries = Table(
    "tute_daily_entries", metadata,
    Column("event_id", String(48), primary_key=True),
    Column("player", String(80), primary_key=True),
    Column("account_id", String(24), nullable=True, index=True),
    Column("name", String(24), nullable=False, default=""),
    Column("taken", Text, nullable=False, default="[]"),
    Column("steps", Integer, nullable=False, default=0),  # len(taken): the compare-and-set
    Column("done", Boolean, nullable=False, default=False),
    Column("score", Float, nullable=True),
    Column("margins", Text, nullable=False, default="[]"),
    Column("decisions", Text, nullable=True),
    Column("analysis", Text, nullable=True),
    Column("at", Float, nullable=False),
)


@dataclass
class DailyEntry:
    player: str
    name: str
    taken: list[str]
    done: bool
    score: float | None
    margins: list[float]
    decisions: list[Any] | None
    analysis: dict[str, Any] | None
    at: float


def _entry(r: Any) -> DailyEntry:
    return DailyEntry(r.player, r.name, json.loads(r.taken), bool(r.done), r.score,
                      json.loads(r.margins), None if r.decisions is None else
                      json.loads(r.decisions),
                      None if r.analysis is None else json.loads(r.analysis), r.at)


class DailyStore:
    """Reads (synchronous: the caller runs them in a thread) and ops for the store's writer."""

    def __init__(self, store: Store):
        self.engine = store.engine
        create_tables(self.engine, metadata)

    def entry(self, event_id: str, player: str) -> DailyEntry | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(entries).where(and_(
                entries.c.event_id == event_id, entries.c.player == player))).first()
        return None if r is None else _entry(r)

    def finished(self, event_id: str) -> list[DailyEntry]:
        """The entries played to the end, best score first."""
        q = (select(entries).where(and_(entries.c.event_id == event_id, entries.c.done))
             .order_by(entries.c.score.desc(), entries.c.at))
        with self.engine.connect() as conn:
            return [_entry(r) for r in conn.execute(q)]

    def players(self, event_ids: list[str]) -> dict[str, int]:
        """How many played each event to the end."""
        q = (select(entries.c.event_id, func.count()).where(and_(
            entries.c.event_id.in_(event_ids), entries.c.done)).group_by(entries.c.event_id))
        with self.engine.connect() as conn:
            return {e: int(n) for e, n in conn.execute(q)}

    def of_account(self, account_id: str, limit: int = 60) -> list[dict[str, Any]]:
        """An account's finished events, the newest first, with its place among the players
        of each (ties share a place)."""
        mine = (select(entries.c.event_id, entries.c.score, entries.c.at)
                .where(and_(entries.c.account_id == account_id, entries.c.done))
                .order_by(entries.c.at.desc()).limit(limit))
        out: list[dict[str, Any]] = []
        with self.engine.connect() as conn:
            for event_id, score, at in conn.execute(mine).all():
                same = and_(entries.c.event_id == event_id, entries.c.done)
                better, players = conn.execute(select(
                    func.count().filter(entries.c.score > score), func.count()).where(same)
                ).one()
                out.append({"event": event_id, "score": score, "rank": 1 + int(better),
                            "players": int(players), "at": at})
        return out

    @staticmethod
    def op_step(event_id: str, player: str, account_id: str | None, before: int,
                values: dict[str, Any], at: float) -> Op:
        """The entry after one more action: only if it still has ``before`` actions; False
        (nothing written) when another step landed first. A failing op would make the
        writer redo its whole batch one op at a time: a conflict is an answer, not an error."""
        row = {"name": values["name"], "taken": json.dumps(values["taken"]),
               "steps": len(values["taken"]), "done": values["done"],
               "score": values["score"], "margins": json.dumps(values["margins"]),
               "decisions": (None if values.get("decisions") is None
                             else json.dumps(values["decisions"])), "at": at}

        def op(conn: Connection) -> bool:
            if before == 0:
                have = conn.execute(select(entries.c.steps).where(and_(
                    entries.c.event_id == event_id, entries.c.player == player))).first()
                if have is None:
                    conn.execute(insert(entries).values(event_id=event_id, player=player,
                                                        account_id=account_id, **row))
                    return True
            done = conn.execute(update(entries).where(and_(
                entries.c.event_id == event_id, entries.c.player == player,
                entries.c.steps == before, entries.c.done.is_(False))).values(**row))
            return bool(done.rowcount == 1)
        return op

    @staticmethod
    def op_analysis(event_id: str, player: str, analysis: dict[str, Any]) -> Op:
        def op(conn: Connection) -> None:
            conn.execute(update(entries).where(and_(
                entries.c.event_id == event_id, entries.c.player == player)).values(
                analysis=json.dumps(analysis, separators=(",", ":"))))
        return op

    @staticmethod
    def op_forget(account_id: str) -> Op:
        """An account's entries (its deletion: they name it)."""
        def op(conn: Connection) -> None:
            conn.execute(delete(entries).where(entries.c.account_id == account_id))
        return op
