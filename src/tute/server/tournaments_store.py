"""Durable storage of tournaments, beside the accounts in the same database and through the
same writer (:class:`~tute.server.store.Store`): a tournament is one row holding its value as
JSON (:class:`~tute.server.tournaments.Tournament`) and a version; a change is written only
over the version it was made from, so two processes (or two requests) never both apply one.
Each player's entry is a row of its own too, for the player's page (the tournaments played and
the place)."""

from __future__ import annotations

import dataclasses
import json
import weakref
from typing import Any

from sqlalchemy import (
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
    insert,
    select,
    update,
)

from .schema import create_tables
from .store import Op, Store
from .tournaments import Tournament, places

__all__ = ["TournamentStore", "tournaments_of"]

metadata = MetaData()

tournaments = Table(
    "tute_tournaments", metadata,
    Column("id", String(16), primary_key=True),
    Column("status", String(12), nullable=False, index=True),
    Column("creator_id", String(24), nullable=False),
    Column("data", Text, nullable=False),
    Column("version", Integer, nullable=False),
    Column("created_at", Float, nullable=False, index=True),
)

# One row per player of a tournament: its place and points once it is over.
tournament_players = Table(
    "tute_tournament_players", metadata,
    Column("tournament_id", String(16), primary_key=True),
    Column("account_id", String(24), primary_key=True, index=True),
    Column("place", Integer, nullable=True),
    Column("points", Float, nullable=True),
    Column("at", Float, nullable=False),
)

ACTIVE = ("open", "running")


class TournamentStore:
    """Reads (synchronous: the caller runs them in a thread) and ops for the store's writer."""

    def __init__(self, store: Store):
        self.store = store
        self.engine = store.engine
        create_tables(self.engine, metadata)

    def get(self, tournament_id: str) -> tuple[Tournament, int] | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(tournaments.c.data, tournaments.c.version).where(
                tournaments.c.id == tournament_id)).first()
        return None if r is None else (Tournament.from_json(json.loads(r.data)), int(r.version))

    def listed(self, limit: int = 30) -> list[Tournament]:
        """The open and running tournaments, then the latest finished ones."""
        with self.engine.connect() as conn:
            live = conn.execute(select(tournaments.c.data).where(
                tournaments.c.status.in_(ACTIVE)).order_by(tournaments.c.created_at.desc())
                .limit(limit)).all()
            done = conn.execute(select(tournaments.c.data).where(
                tournaments.c.status.not_in(ACTIVE)).order_by(tournaments.c.created_at.desc())
                .limit(limit)).all()
        return [Tournament.from_json(json.loads(r.data)) for r in [*live, *done]]

    def active_ids(self) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(tournaments.c.id).where(
                tournaments.c.status.in_(ACTIVE))).all()
        return [str(r.id) for r in rows]

    def of_account(self, account_id: str, limit: int = 50) -> list[dict[str, Any]]:
        """The tournaments an account plays or played, newest first, with its place."""
        q = (select(tournaments.c.data, tournament_players.c.place, tournament_players.c.points)
             .join(tournament_players, tournament_players.c.tournament_id == tournaments.c.id)
             .where(tournament_players.c.account_id == account_id)
             .order_by(tournaments.c.created_at.desc()).limit(limit))
        with self.engine.connect() as conn:
            rows = conn.execute(q).all()
        out = []
        for r in rows:
            t = Tournament.from_json(json.loads(r.data))
            out.append({"id": t.id, "name": t.name, "variant": t.variant, "kind": t.kind,
                        "status": t.status, "cancelled": t.cancelled, "place": r.place,
                        "points": r.points, "players": len(t.entries),
                        "at": t.started_at or t.created_at})
        return out

    @staticmethod
    def op_save(t: Tournament, version: int | None) -> Op:
        """Store ``t`` over ``version`` (None: a new one); the players' rows follow its entries
        and, once it is over, their places. Returns False when the stored version moved on
        (nothing is written)."""
        data = json.dumps(t.to_json(), separators=(",", ":"))
        values = {"status": t.status, "data": data}

        def op(conn: Connection) -> bool:
            if version is None:
                conn.execute(insert(tournaments).values(
                    id=t.id, creator_id=t.creator, version=1, created_at=t.created_at,
                    **values))
            elif conn.execute(update(tournaments).where(and_(
                    tournaments.c.id == t.id, tournaments.c.version == version)).values(
                    version=version + 1, **values)).rowcount != 1:
                return False
            _players(conn, t)
            return True
        return op


    @staticmethod
    def op_forget(account_id: str, anonymous: str) -> Op:
        """A deleted account: its name leaves every tournament it played (its entries, its
        pair's name), and its rows of places go."""
        def op(conn: Connection) -> None:
            ids = [str(a) for (a,) in conn.execute(select(
                tournament_players.c.tournament_id).where(
                tournament_players.c.account_id == account_id)).all()]
            for tid in ids:
                r = conn.execute(select(tournaments.c.data, tournaments.c.version).where(
                    tournaments.c.id == tid)).first()
                if r is None:
                    continue
                t = Tournament.from_json(json.loads(r.data))
                for e in t.entries:
                    if e.account == account_id:
                        e.name = anonymous
                t.units = [dataclasses.replace(u, names=tuple(
                    anonymous if a == account_id else n for a, n in zip(
                        u.members, u.names, strict=True))) for u in t.units]
                conn.execute(update(tournaments).where(tournaments.c.id == tid).values(
                    data=json.dumps(t.to_json(), separators=(",", ":")),
                    version=int(r.version) + 1))
            conn.execute(delete(tournament_players).where(
                tournament_players.c.account_id == account_id))
        return op


def _players(conn: Connection, t: Tournament) -> None:
    have = {str(a) for (a,) in conn.execute(select(tournament_players.c.account_id).where(
        tournament_players.c.tournament_id == t.id)).all()}
    want = {e.account: e.at for e in t.entries}
    gone = have - set(want)
    if gone:
        conn.execute(delete(tournament_players).where(and_(
            tournament_players.c.tournament_id == t.id,
            tournament_players.c.account_id.in_(gone))))
    for a in set(want) - have:
        conn.execute(insert(tournament_players).values(tournament_id=t.id, account_id=a,
                                                       at=want[a]))
    if t.status == "finished" and not t.cancelled:
        for a, (place, points) in places(t).items():
            conn.execute(update(tournament_players).where(and_(
                tournament_players.c.tournament_id == t.id,
                tournament_players.c.account_id == a)).values(place=place, points=points))


_OPENED: weakref.WeakKeyDictionary[Store, TournamentStore] = weakref.WeakKeyDictionary()


def tournaments_of(store: Store) -> TournamentStore:
    """The tournaments of ``store``'s database (their tables made on first use, once)."""
    found = _OPENED.get(store)
    if found is None:
        found = _OPENED[store] = TournamentStore(store)
    return found
