"""Durable storage of accounts, sessions, the seats and games they hold, and ratings.

The same database and the same writer as the tables (:class:`~tute.server.store.Store`): every
change is an op run by :meth:`Store.write`, acknowledged only once committed. The tables are
created beside tute's own when the accounts start; a database made before them simply gains
them. Nothing here holds a password (an argon2 hash only) or a session token (its SHA-256).
A seat's token is kept for the account that holds it, so that the seat follows its player to
another device: the same database already holds every unfinished game's seed, a greater secret.
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
    cast,
    delete,
    func,
    insert,
    select,
    update,
)

from .schema import create_tables
from .store import Op, Store

__all__ = ["AccountRow", "AccountStore", "RatingRow"]

metadata = MetaData()

accounts = Table(
    "tute_accounts", metadata,
    Column("id", String(24), primary_key=True),
    Column("name", String(24), nullable=False),
    Column("name_key", String(24), nullable=False, unique=True),  # casefolded: one "Ana"
    Column("pw_hash", Text, nullable=False),
    Column("settings", Text, nullable=False, default="{}"),
    Column("created_at", Float, nullable=False),
)

sessions = Table(
    "tute_sessions", metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("account_id", String(24), nullable=False, index=True),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False, index=True),
)

# The seats an account holds (made, joined or claimed), with the seat's token; ``rated``: a
# rated table's seat; ``left``: its player left the game on purpose (the rating's penalty).
account_seats = Table(
    "tute_account_seats", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", String(24), nullable=False, index=True),
    Column("token", String(64), nullable=False),
    Column("variant", String(40), nullable=False),
    Column("at", Float, nullable=False),
    Column("left_at", Float, nullable=True),
)

# Rated tables and their mode; ``settled`` once their ratings (and the players' statistics)
# were applied, so that a restart applies each game once.
rated_tables = Table(
    "tute_rated_tables", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("mode", String(16), nullable=False),
    Column("settled", Boolean, nullable=False, default=False, index=True),
    Column("outcome", String(16), nullable=True),  # rated | unrated | abandoned
    Column("at", Float, nullable=False),
)

# One row per finished game of an account's: what its statistics add up.
account_games = Table(
    "tute_account_games", metadata,
    Column("account_id", String(24), primary_key=True),
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("variant", String(40), nullable=False),
    Column("deals", Integer, nullable=False),
    Column("won", Boolean, nullable=False),
    Column("cantes", Integer, nullable=False),
    Column("tutes", Integer, nullable=False),
    Column("at", Float, nullable=False, index=True),
)

ratings = Table(
    "tute_ratings", metadata,
    Column("account_id", String(24), primary_key=True),
    Column("mode", String(16), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("at", Float, nullable=False),
)

rating_history = Table(
    "tute_rating_history", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", String(24), nullable=False, index=True),
    Column("mode", String(16), nullable=False),
    Column("table_id", String(32), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("delta", Float, nullable=False),  # the change of the shown rating (mu - 3 sigma)
    Column("reason", String(12), nullable=False),  # game | left
    Column("at", Float, nullable=False, index=True),
)


@dataclass
class AccountRow:
    id: str
    name: str
    pw_hash: str
    settings: dict[str, Any]
    created_at: float


@dataclass
class RatingRow:
    account_id: str
    mode: str
    mu: float
    sigma: float
    games: int


def _settings(text: Any) -> dict[str, Any]:
    try:
        value = json.loads(text) if isinstance(text, str) else None
    except ValueError:
        value = None
    return value if isinstance(value, dict) else {}


def _account(r: Any) -> AccountRow:
    return AccountRow(str(r.id), str(r.name), str(r.pw_hash), _settings(r.settings),
                      float(r.created_at))


class AccountStore:
    """Reads (synchronous: the caller runs them in a thread) and ops for the store's writer."""

    def __init__(self, store: Store):
        self.store = store
        self.engine = store.engine
        create_tables(self.engine, metadata)

    # ------------------------------------------------------------ accounts and sessions

    def by_name(self, name_key: str) -> AccountRow | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(accounts).where(accounts.c.name_key == name_key)).first()
        return None if r is None else _account(r)

    def by_id(self, account_id: str) -> AccountRow | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(accounts).where(accounts.c.id == account_id)).first()
        return None if r is None else _account(r)

    def by_session(self, token_hash: str, now: float) -> AccountRow | None:
        q = (select(accounts).join(sessions, sessions.c.account_id == accounts.c.id)
             .where(and_(sessions.c.token_hash == token_hash, sessions.c.expires_at > now)))
        with self.engine.connect() as conn:
            r = conn.execute(q).first()
        return None if r is None else _account(r)

    @staticmethod
    def op_create(row: AccountRow, name_key: str) -> Op:
        values = {"id": row.id, "name": row.name, "name_key": name_key, "pw_hash": row.pw_hash,
                  "settings": json.dumps(row.settings), "created_at": row.created_at}

        def op(conn: Connection) -> None:
            conn.execute(insert(accounts).values(**values))
        return op

    @staticmethod
    def op_session(token_hash: str, account_id: str, now: float, expires: float) -> Op:
        def op(conn: Connection) -> None:
            conn.execute(delete(sessions).where(sessions.c.expires_at <= now))  # the expired
            conn.execute(insert(sessions).values(token_hash=token_hash, account_id=account_id,
                                                 created_at=now, expires_at=expires))
        return op

    @staticmethod
    def op_end_session(token_hash: str) -> Op:
        def op(conn: Connection) -> None:
            conn.execute(delete(sessions).where(sessions.c.token_hash == token_hash))
        return op

    @staticmethod
    def op_settings(account_id: str, settings: dict[str, Any]) -> Op:
        def op(conn: Connection) -> None:
            conn.execute(update(accounts).where(accounts.c.id == account_id)
                         .values(settings=json.dumps(settings)))
        return op

    @staticmethod
    def op_delete(account_id: str) -> Op:
        """The account and everything personal of it; the games stay (their seats' names are
        anonymised by the caller, in the tables' rows)."""
        def op(conn: Connection) -> None:
            for t in (sessions, account_seats, account_games, ratings, rating_history):
                conn.execute(delete(t).where(t.c.account_id == account_id))
            conn.execute(delete(accounts).where(accounts.c.id == account_id))
        return op

    # ------------------------------------------------------------ seats

    @staticmethod
    def op_link(account_id: str, table_id: str, seat: int, token: str, variant: str,
                at: float) -> Op:
        """The seat is the account's (a seat already someone else's stays theirs)."""
        def op(conn: Connection) -> bool:
            have = conn.execute(select(account_seats.c.account_id).where(and_(
                account_seats.c.table_id == table_id, account_seats.c.seat == seat))).first()
            if have is not None:
                if have[0] == account_id:
                    conn.execute(update(account_seats).where(and_(
                        account_seats.c.table_id == table_id, account_seats.c.seat == seat))
                        .values(token=token))
                return bool(have[0] == account_id)
            conn.execute(insert(account_seats).values(
                table_id=table_id, seat=seat, account_id=account_id, token=token,
                variant=variant, at=at))
            return True
        return op

    @staticmethod
    def op_left(table_id: str, seat: int, at: float) -> Op:
        def op(conn: Connection) -> None:
            conn.execute(update(account_seats).where(and_(
                account_seats.c.table_id == table_id, account_seats.c.seat == seat,
                account_seats.c.left_at.is_(None))).values(left_at=at))
        return op

    def seats_of(self, account_id: str, limit: int = 200) -> list[dict[str, Any]]:
        q = (select(account_seats).where(account_seats.c.account_id == account_id)
             .order_by(account_seats.c.at.desc()).limit(limit))
        with self.engine.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(q).all()]

    def seats_at(self, table_id: str) -> dict[int, dict[str, Any]]:
        q = select(account_seats).where(account_seats.c.table_id == table_id)
        with self.engine.connect() as conn:
            return {int(r.seat): dict(r._mapping) for r in conn.execute(q).all()}

    # ------------------------------------------------------------ rated tables

    @staticmethod
    def op_rated(table_id: str, mode: str, at: float) -> Op:
        def op(conn: Connection) -> None:
            conn.execute(insert(rated_tables).values(table_id=table_id, mode=mode,
                                                     settled=False, at=at))
        return op

    def rated(self, table_id: str) -> tuple[str, bool, str | None] | None:
        """A rated table's mode, whether it is settled and how."""
        with self.engine.connect() as conn:
            r = conn.execute(select(rated_tables).where(
                rated_tables.c.table_id == table_id)).first()
        return None if r is None else (str(r.mode), bool(r.settled), r.outcome)

    def unsettled(self) -> list[tuple[str, str]]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(rated_tables.c.table_id, rated_tables.c.mode)
                                .where(rated_tables.c.settled.is_(False))).all()
        return [(str(a), str(b)) for a, b in rows]

    def unrecorded_games(self, account_id: str) -> list[dict[str, Any]]:
        """The account's seats whose game is not yet in its statistics."""
        done = select(account_games.c.table_id).where(account_games.c.account_id == account_id)
        q = select(account_seats).where(and_(account_seats.c.account_id == account_id,
                                             account_seats.c.table_id.not_in(done)))
        with self.engine.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(q).all()]

    @staticmethod
    def op_game(account_id: str, table_id: str, seat: int, variant: str, deals: int,
                won: bool, cantes: int, tutes: int, at: float) -> Op:
        def op(conn: Connection) -> None:
            have = conn.execute(select(account_games.c.table_id).where(and_(
                account_games.c.account_id == account_id,
                account_games.c.table_id == table_id))).first()
            if have is None:
                conn.execute(insert(account_games).values(
                    account_id=account_id, table_id=table_id, seat=seat, variant=variant,
                    deals=deals, won=won, cantes=cantes, tutes=tutes, at=at))
        return op

    def stats(self, account_id: str) -> dict[str, dict[str, int]]:
        q = (select(account_games.c.variant, func.count(), func.sum(account_games.c.deals),
                    func.sum(cast(account_games.c.won, Integer)),
                    func.sum(account_games.c.cantes), func.sum(account_games.c.tutes))
             .where(account_games.c.account_id == account_id)
             .group_by(account_games.c.variant))
        with self.engine.connect() as conn:
            rows = conn.execute(q).all()
        return {str(v): {"games": int(n or 0), "deals": int(d or 0), "wins": int(w or 0),
                         "cantes": int(c or 0), "tutes": int(t or 0)}
                for v, n, d, w, c, t in rows}

    # ------------------------------------------------------------ ratings

    def ratings_of(self, account_ids: list[str], mode: str) -> dict[str, RatingRow]:
        if not account_ids:
            return {}
        q = select(ratings).where(and_(ratings.c.account_id.in_(account_ids),
                                       ratings.c.mode == mode))
        with self.engine.connect() as conn:
            return {str(r.account_id): RatingRow(str(r.account_id), str(r.mode), float(r.mu),
                                                 float(r.sigma), int(r.games))
                    for r in conn.execute(q).all()}

    def all_ratings(self, account_id: str) -> list[RatingRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(ratings).where(ratings.c.account_id == account_id)).all()
        return [RatingRow(str(r.account_id), str(r.mode), float(r.mu), float(r.sigma),
                          int(r.games)) for r in rows]

    @staticmethod
    def op_settle(table_id: str, outcome: str, updates: list[tuple[RatingRow, float, str]],
                  games: list[Op], at: float) -> Op:
        """Apply a rated table's outcome in one transaction: each account's new rating (and
        its history point: the change of the shown rating, and why), the statistics' rows,
        and the table marked settled, so that it is never applied twice."""
        def op(conn: Connection) -> bool:
            done = conn.execute(select(rated_tables.c.settled).where(
                rated_tables.c.table_id == table_id)).scalar()
            if done:
                return False
            for row, delta, reason in updates:
                key = and_(ratings.c.account_id == row.account_id, ratings.c.mode == row.mode)
                values = {"mu": row.mu, "sigma": row.sigma, "games": row.games, "at": at}
                if conn.execute(update(ratings).where(key).values(**values)).rowcount == 0:
                    conn.execute(insert(ratings).values(account_id=row.account_id,
                                                        mode=row.mode, **values))
                conn.execute(insert(rating_history).values(
                    account_id=row.account_id, mode=row.mode, table_id=table_id, mu=row.mu,
                    sigma=row.sigma, delta=delta, reason=reason, at=at))
            for g in games:
                g(conn)
            conn.execute(update(rated_tables).where(rated_tables.c.table_id == table_id)
                         .values(settled=True, outcome=outcome))
            return True
        return op

    def history(self, account_id: str, mode: str, limit: int = 500) -> list[dict[str, Any]]:
        q = (select(rating_history.c.mu, rating_history.c.sigma, rating_history.c.delta,
                    rating_history.c.reason, rating_history.c.at, rating_history.c.table_id)
             .where(and_(rating_history.c.account_id == account_id,
                         rating_history.c.mode == mode))
             .order_by(rating_history.c.id.desc()).limit(limit))
        with self.engine.connect() as conn:
            rows = conn.execute(q).all()
        return [dict(r._mapping) for r in reversed(rows)]

    def leaderboard(self, mode: str, since: float | None, limit: int = 50
                    ) -> list[dict[str, Any]]:
        """The accounts rated in ``mode`` (those with a rated game since ``since``, if given)
        by their shown rating, best first, with the change since then."""
        shown = ratings.c.mu - 3 * ratings.c.sigma
        q = (select(accounts.c.name, ratings.c.mu, ratings.c.sigma, ratings.c.games,
                    ratings.c.account_id)
             .join(accounts, accounts.c.id == ratings.c.account_id)
             .where(ratings.c.mode == mode))
        gained = None
        if since is not None:
            gained = (select(rating_history.c.account_id,
                             func.sum(rating_history.c.delta).label("gain"))
                      .where(and_(rating_history.c.mode == mode, rating_history.c.at >= since))
                      .group_by(rating_history.c.account_id).subquery())
            q = q.add_columns(gained.c.gain).join(
                gained, gained.c.account_id == ratings.c.account_id)
        q = q.order_by(shown.desc(), accounts.c.name).limit(limit)
        with self.engine.connect() as conn:
            rows = conn.execute(q).all()
        return [{"name": r.name, "mu": r.mu, "sigma": r.sigma, "games": r.games,
                 "gain": getattr(r, "gain", None)} for r in rows]
