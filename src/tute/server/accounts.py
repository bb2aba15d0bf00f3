"""Accounts (optional), their sessions and seats, and the ratings of rated tables.

Anyone plays without an account, as before. An account is a name and a password (argon2 via
argon2-cffi); a session is a random token in a Secure, HttpOnly, SameSite cookie, stored only
as its SHA-256. Logging in is rate limited per address and per name, and answers the same
(same words, same work: a dummy hash is checked for an unknown name) whether the name is
unknown or the password wrong. The seats an account holds follow it to other devices; the
seats a browser held before signing up are claimed with their tokens. Deleting an account
deletes its personal data; its games stay, its seats named "Anónimo".

A rated table is made by an account holder; its game is rated once it ends if every person
at it has an account (bots are fixed anchors, :mod:`tute.server.skill`). Settling reads the
stored outcome, so a game finished before a restart is rated after it, and once: see
:meth:`Accounts.settle_pending`.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import hmac
import logging
import secrets
import unicodedata
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import Connection

from ..daily import parse_event
from ..errors import TuteError
from ..events import Declared
from ..games import game_for
from ..variants import find_variant, resolve_options
from .accounts_store import AccountRow, AccountStore, RatingRow
from .daily_store import DailyStore
from .hub import LEVELS, Hub
from .limits import Buckets
from .skill import DEFAULT_MU as MU0
from .skill import DEFAULT_SIGMA as SIGMA0
from .skill import (
    LEAVE_PENALTY,
    PROVISIONAL_SIGMA,
    Player,
    bot_anchor,
    load_bot_ratings,
    predict,
    rate,
    shown,
    side_ranks,
)
from .store import TableRow, tables
from .table import Table, TableError, hash_token, restore_match
from .tournaments_store import tournaments_of

__all__ = ["COOKIE", "Accounts", "mode_of"]

log = logging.getLogger("tute.server")

COOKIE = "tute_session"
SESSION_TTL = 30 * 24 * 3600.0
NAME_MIN, NAME_MAX = 3, 24
PASSWORD_MIN, PASSWORD_MAX = 8, 128
#: argon2's cost: passes and KiB of memory (argon2-cffi's defaults: 3 over 64 MiB); tests
#: lower it
PASSWORD_COST: dict[str, int] = {"time_cost": 3, "memory_cost": 65536}
#: hashes computed at once: each takes 64 MiB, and a flood must not take the machine's memory
HASHING = 2
#: what an account keeps of the page's settings: the values allowed (None: a pace factor)
SETTINGS: dict[str, tuple[object, ...] | None] = {"lang": ("es", "en"), "sound": (True, False),
                                                   "pace": None}
ANONYMOUS = "Anónimo"


def mode_of(variant: str, options: dict[str, Any]) -> str:
    """The rating pool of a game: its game class says (``Game.rating_mode``)."""
    var = find_variant(variant)
    return game_for(var).rating_mode(resolve_options(var, options))


def _name_key(name: str) -> str:
    return name.casefold()


def check_name(name: str) -> str:
    name = unicodedata.normalize("NFC", name).strip()
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise TableError("bad_name", f"a name has {NAME_MIN} to {NAME_MAX} characters")
    if not all(c.isalnum() or c in " _.-" for c in name) or "  " in name:
        raise TableError("bad_name", "a name holds letters, digits, spaces and _ . - only")
    return name


def check_password(password: str) -> None:
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise TableError("bad_password",
                         f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters")


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Accounts:
    """The accounts of one server: framework-free, like the hub (the routes call these)."""

    def __init__(self, hub: Hub, login_per_minute: float = 10.0, signup_per_minute: float = 5.0):
        self.hub = hub
        self.store = AccountStore(hub.store)
        self.daily = DailyStore(hub.store)
        self.clock = hub.config.clock
        self.hasher = PasswordHasher(time_cost=PASSWORD_COST["time_cost"],
                                     memory_cost=PASSWORD_COST["memory_cost"])
        # checked for an unknown name, so that it costs what a known one does (made on first
        # use, in a thread: hashing is slow by design)
        self._dummy: str | None = None
        self._hashing = asyncio.Semaphore(HASHING)
        # per address and per name (a name tried from many addresses is slowed all the same);
        # every try counts, right or wrong, known name or not
        self.logins = Buckets(login_per_minute / 60.0, login_per_minute)
        self.login_names = Buckets(login_per_minute / 60.0, login_per_minute)
        self.signups = Buckets(signup_per_minute / 60.0, signup_per_minute)
        self.creates = Buckets(30 / 60.0, 30)
        self._settling = asyncio.Lock()

    # ------------------------------------------------------------ passwords and sessions

    async def _hash(self, password: str) -> str:
        async with self._hashing:
            return await asyncio.to_thread(self.hasher.hash, password)

    async def _verify(self, pw_hash: str, password: str) -> bool:
        def check() -> bool:
            try:
                return self.hasher.verify(pw_hash, password)
            except (VerifyMismatchError, VerificationError, InvalidHashError):
                return False
        async with self._hashing:
            return await asyncio.to_thread(check)

    async def _new_session(self, account_id: str) -> str:
        token = secrets.token_urlsafe(32)
        now = self.clock.time()
        await self.hub.store.write(AccountStore.op_session(_token_hash(token), account_id, now,
                                                           now + SESSION_TTL))
        return token

    async def signup(self, name: str, password: str, address: str,
                     seats: list[tuple[str, str]]) -> tuple[AccountRow, str]:
        """A new account, logged in (its session token), holding the ``seats`` (table id,
        seat token) this browser held before."""
        name = check_name(name)
        check_password(password)
        if not self.signups.take(address):
            raise TableError("rate_limited", "too many accounts made; wait a minute")
        key = _name_key(name)
        if await asyncio.to_thread(self.store.by_name, key) is not None:
            raise TableError("name_taken", "that name is taken; choose another")
        row = AccountRow(secrets.token_urlsafe(12), name, await self._hash(password), {},
                         self.clock.time())
        try:
            await self.hub.store.write(AccountStore.op_create(row, key))
        except Exception as exc:  # most likely the same name made a moment ago
            if await asyncio.to_thread(self.store.by_name, key) is not None:
                raise TableError("name_taken", "that name is taken; choose another") from None
            raise TableError("storage", "the account could not be saved; try again later"
                             ) from exc
        token = await self._new_session(row.id)
        await self.claim(row, seats)
        log.info("account made")  # never the name's password nor the session
        return row, token

    async def login(self, name: str, password: str, address: str) -> tuple[AccountRow, str]:
        """The account and a new session; one refusal for an unknown name and a wrong
        password, after the same work."""
        if len(password) > PASSWORD_MAX or len(name) > 64:
            raise TableError("bad_login", "wrong name or password")
        key = _name_key(unicodedata.normalize("NFC", name).strip())
        if not (self.logins.take(address) and self.login_names.take(key)):
            raise TableError("rate_limited", "too many tries to log in; wait a minute")
        row = await asyncio.to_thread(self.store.by_name, key)
        if row is None and self._dummy is None:
            self._dummy = await self._hash(secrets.token_urlsafe(16))
        ok = await self._verify(row.pw_hash if row else self._dummy or "", password)
        if row is None or not ok:
            raise TableError("bad_login", "wrong name or password")
        return row, await self._new_session(row.id)

    async def current(self, token: str | None) -> AccountRow | None:
        if not token or len(token) > 100:
            return None
        return await asyncio.to_thread(self.store.by_session, _token_hash(token),
                                       self.clock.time())

    async def logout(self, token: str | None) -> None:
        if token and len(token) <= 100:
            await self.hub.store.write(AccountStore.op_end_session(_token_hash(token)))

    async def settings(self, account: AccountRow, changes: dict[str, Any]) -> dict[str, Any]:
        merged = dict(account.settings)
        for k, v in changes.items():
            if k not in SETTINGS:
                raise TableError("bad_settings", f"no setting {k!r}: " + ", ".join(SETTINGS))
            allowed = SETTINGS[k]
            if allowed is None:
                if not isinstance(v, (int, float)) or isinstance(v, bool) or not 0.05 <= v <= 2:
                    raise TableError("bad_settings", f"{k} is a number from 0.05 to 2")
            elif v not in allowed or type(v) is not type(allowed[0]):
                raise TableError("bad_settings", f"{k} is one of: " + ", ".join(map(str, allowed)))
            merged[k] = v
        await self.hub.store.write(AccountStore.op_settings(account.id, merged))
        return merged

    async def delete(self, account: AccountRow, password: str) -> None:
        """Delete the account and its personal data (asks its password again); its games stay
        with its seats named "Anónimo"."""
        if not await self._verify(account.pw_hash, password[:PASSWORD_MAX]):
            raise TableError("bad_login", "wrong password")
        seats = await asyncio.to_thread(self.store.seats_of, account.id, 100_000)
        forget, gone = AccountStore.op_delete(account.id), DailyStore.op_forget(account.id)
        unnamed = tournaments_of(self.hub.store).op_forget(account.id, ANONYMOUS)

        def op(conn: Connection) -> None:  # one transaction: all of it or nothing
            gone(conn)
            unnamed(conn)
            forget(conn)
        await self.hub.store.write(op)
        await self._anonymise([(s["table_id"], int(s["seat"])) for s in seats])
        log.info("account deleted")

    async def _anonymise(self, seats: list[tuple[str, int]]) -> None:
        by_table: dict[str, list[int]] = {}
        for table_id, seat in seats:
            by_table.setdefault(table_id, []).append(seat)
        for table_id, mine in by_table.items():
            live = self.hub.tables.get(table_id)
            if live is not None:
                for i in mine:
                    live.seats[i] = dataclasses.replace(live.seats[i], name=ANONYMOUS)
            self.hub._finished.pop(table_id, None)  # its cached row holds the name
            row = await asyncio.to_thread(self.hub.store.get, table_id)
            if row is None:
                continue
            new = [dict(s, name=ANONYMOUS) if i in mine else s for i, s in enumerate(row.seats)]

            def op(conn: Any, table_id: str = table_id, new: Any = new) -> None:
                from sqlalchemy import update
                conn.execute(update(tables).where(tables.c.id == table_id).values(seats=new))
            await self.hub.store.write(op)
            if live is not None:
                live.row.seats = new

    # ------------------------------------------------------------ seats

    async def _seat_of(self, table_id: str, token: str) -> tuple[int, TableRow] | None:
        """The seat ``token`` holds at the table, and the table's row."""
        if not (0 < len(table_id) <= 32 and 0 < len(token) <= 64):
            return None
        live = self.hub.tables.get(table_id)
        try:
            row = live.row if live is not None else await asyncio.to_thread(
                self.hub.store.get, table_id)
        except Exception:  # a damaged row: not claimable
            return None
        if row is None:
            return None
        h = hash_token(token)
        if live is not None:
            seat = live.find_seat(token)
        else:
            seat = next((i for i, s in enumerate(row.seats)
                         if s.get("token_hash") and hmac.compare_digest(s["token_hash"], h)),
                        None)
        return None if seat is None else (seat, row)

    async def claim(self, account: AccountRow, seats: list[tuple[str, str]]) -> int:
        """Make the seats this browser holds (table id, token) the account's; how many."""
        n = 0
        for table_id, token in seats[:200]:
            found = await self._seat_of(table_id, token)
            if found is None:
                continue
            seat, row = found
            if await self.hub.store.write(AccountStore.op_link(
                    account.id, table_id, seat, token, row.variant, self.clock.time())):
                n += 1
        return n

    async def seats(self, account: AccountRow) -> list[dict[str, Any]]:
        rows = await asyncio.to_thread(self.store.seats_of, account.id)
        return [{"id": r["table_id"], "seat": r["seat"], "token": r["token"],
                 "variant": r["variant"], "at": r["at"]} for r in rows]

    async def link(self, account: AccountRow, table: Table, seat: int, token: str) -> None:
        # the variant from the table's description: a table another process owns (a
        # RemoteTable in a site of several) has no row here
        variant = str(table.info()["variant"])
        await self.hub.store.write(AccountStore.op_link(account.id, table.id, seat, token,
                                                        variant, self.clock.time()))

    async def create(self, account: AccountRow, address: str, variant: str,
                     options: dict[str, Any], seats: list[str], rated: bool,
                     **settings: Any) -> tuple[Table, int, str]:
        """A table made by an account holder (rated or casual); the seat is theirs."""
        if not self.creates.take(address):
            raise TableError("rate_limited", "too many tables created; wait a minute")
        mode = None
        if rated:
            try:
                mode = mode_of(variant, options)
            except TuteError as exc:
                raise TableError("bad_table", str(exc)) from None
        table, seat, token = await self.hub.create(variant, options, seats, account.name,
                                                   address=address, **settings)
        await self.link(account, table, seat, token)
        if mode is not None:
            await self.hub.store.write(AccountStore.op_rated(table.id, mode, self.clock.time()))
        return table, seat, token

    async def join(self, account: AccountRow, table: Table, seat: int | None
                   ) -> tuple[int, str]:
        seat, token = await table.call(table.join, account.name, seat)
        await self.link(account, table, seat, token)
        return seat, token

    async def leave(self, account: AccountRow, table: Table) -> int:
        """The account's player leaves the game on purpose: their bot plays on for them, and
        a rated game's rating takes the leaving penalty."""
        mine = [s for s, r in (await asyncio.to_thread(self.store.seats_at, table.id)).items()
                if r["account_id"] == account.id]
        if not mine:
            raise TableError("not_seated", "you hold no seat at this table")
        if table.status != "playing":
            raise TableError("not_started" if table.status == "waiting" else "over",
                             "only a game being played can be left")
        seat = mine[0]
        await self.hub.store.write(AccountStore.op_left(table.id, seat, self.clock.time()))
        await table.call(table.leave_seat, seat)  # relayed to its owner if another process
        return seat

    # ------------------------------------------------------------ ratings

    async def settle_pending(self) -> int:
        """Rate every rated table that ended and is not settled yet (at most once each:
        the op checks and marks in one transaction); how many were settled now."""
        async with self._settling:  # one at a time: two games of a player read one rating
            n = 0
            for table_id, mode in await asyncio.to_thread(self.store.unsettled):
                live = self.hub.tables.get(table_id)
                if live is not None and live.status in ("waiting", "playing"):
                    continue
                row = await asyncio.to_thread(self.hub.store.get, table_id)
                if row is None or row.status in ("waiting", "playing"):
                    continue
                try:
                    n += await self._settle(row, mode)
                except Exception:
                    log.exception("table %s: its rating could not be settled", table_id)
            return n

    async def _settle(self, row: TableRow, mode: str) -> int:
        links = await asyncio.to_thread(self.store.seats_at, row.id)
        var = find_variant(row.variant)
        now = self.clock.time()
        ids = sorted({r["account_id"] for r in links.values()})
        have = await asyncio.to_thread(self.store.ratings_of, ids, mode)
        updates: list[tuple[RatingRow, float, str]] = []
        games: list[Any] = []

        def current(account_id: str) -> RatingRow:
            return have.get(account_id) or RatingRow(account_id, mode, MU0, SIGMA0, 0)

        people = [i for i, s in enumerate(row.seats) if s.get("kind") == "human"]
        if row.status == "abandoned":
            outcome = "abandoned"
            for i in people:  # every person left it (gone until it was abandoned)
                if i in links:
                    r = current(links[i]["account_id"])
                    updates.append((dataclasses.replace(r, mu=r.mu - LEAVE_PENALTY),
                                    -LEAVE_PENALTY, "left"))
        elif row.status != "finished" or not row.result or any(i not in links
                                                                 for i in people):
            outcome = "unrated"  # someone played without an account
        else:
            outcome = "rated"
            n = len(row.seats)
            options = resolve_options(var, row.options)
            side_of = [var.side_of(i, options) for i in range(n)]
            sides = max(side_of) + 1
            players = [Player(current(links[i]["account_id"]).mu,
                              current(links[i]["account_id"]).sigma, links[i]["account_id"],
                              current(links[i]["account_id"]).games)
                       if i in links else bot_anchor(mode, row.seats[i].get("level") or "medio")
                       for i in range(n)]
            after = rate(players, side_of, side_ranks(row.result, sides))
            for i, (p0, p1) in enumerate(zip(players, after, strict=True)):
                if p1.account is None:
                    continue
                left = links[i].get("left_at") is not None
                mu = p1.mu - (LEAVE_PENALTY if left else 0.0)
                updates.append((RatingRow(p1.account, mode, mu, p1.sigma, p1.games),
                                shown(mu, p1.sigma) - shown(p0.mu, p0.sigma),
                                "left" if left else "game"))
            games = [await self._game_op(row, i, links[i]["account_id"]) for i in people]
        return int(bool(await self.hub.store.write(
            AccountStore.op_settle(row.id, outcome, updates, games, now))))

    async def _game_op(self, row: TableRow, seat: int, account_id: str) -> Any:
        """The statistics' row of one seat of a finished game."""
        evs = await asyncio.to_thread(self.hub.store.events, row.id)
        match = await asyncio.to_thread(restore_match, row, evs)
        cantes = tutes = 0
        for deal in match.deals:
            for e in deal.events:
                if isinstance(e, Declared) and e.seat == seat:
                    if e.declaration.kind.startswith("tute"):
                        tutes += 1
                    else:
                        cantes += 1
        winner = (row.result or {}).get("winner")
        won = isinstance(winner, int) and find_variant(row.variant).side_of(seat) == winner
        return AccountStore.op_game(account_id, row.id, seat, row.variant, len(match.deals),
                                    won, cantes, tutes, row.finished_at or self.clock.time())

    async def record_games(self, account_id: str) -> None:
        """Add the account's finished games not yet in its statistics (casual ones too)."""
        for s in (await asyncio.to_thread(self.store.unrecorded_games, account_id))[:50]:
            try:
                row = await asyncio.to_thread(self.hub.store.get, s["table_id"])
            except Exception:
                continue
            if row is None or row.status != "finished":
                continue
            try:
                op = await self._game_op(row, int(s["seat"]), account_id)
            except Exception:  # a damaged game: left out of the statistics
                continue
            await self.hub.store.write(op)

    async def ratings(self, account_id: str) -> list[dict[str, Any]]:
        rated = await asyncio.to_thread(self.store.all_ratings, account_id)
        return [self.rating_json(r) for r in sorted(rated, key=lambda r: MODES.index(r.mode)
                                                    if r.mode in MODES else len(MODES))]

    async def held_at(self, table_id: str) -> dict[int, str]:
        """The seats of a table that accounts hold: seat -> account id."""
        links = await asyncio.to_thread(self.store.seats_at, table_id)
        return {i: str(r["account_id"]) for i, r in links.items()}

    async def at_table(self, account: AccountRow | None, table_id: str) -> dict[str, Any]:
        """What the table page asks: whether the table is rated (its mode) and the seat the
        account holds there (None: none, or not logged in)."""
        rated = await asyncio.to_thread(self.store.rated, table_id)
        seat = None
        if account is not None:
            links = await self.held_at(table_id)
            seat = next((i for i, a in sorted(links.items()) if a == account.id), None)
        return {"id": table_id, "rated": rated is not None,
                "mode": None if rated is None else rated[0], "seat": seat,
                "penalty": LEAVE_PENALTY}

    def rating_json(self, r: RatingRow) -> dict[str, Any]:
        return {"mode": r.mode, "rating": shown(r.mu, r.sigma), "mu": round(r.mu, 3),
                "sigma": round(r.sigma, 3), "games": r.games,
                "provisional": r.sigma >= PROVISIONAL_SIGMA}

    async def player(self, name: str) -> dict[str, Any]:
        """A player's public page: ratings per mode with their history, statistics."""
        await self.settle_pending()
        row = await asyncio.to_thread(self.store.by_name, _name_key(name[:64]))
        if row is None:
            raise TableError("not_found", "no player of that name")
        await self.record_games(row.id)
        rated = await asyncio.to_thread(self.store.all_ratings, row.id)
        history = {r.mode: await asyncio.to_thread(self.store.history, row.id, r.mode)
                   for r in rated}
        return {"name": row.name, "since": row.created_at,
                "ratings": await self.ratings(row.id),
                "history": {m: [{"rating": shown(h["mu"], h["sigma"]), "at": h["at"],
                                 "delta": round(h["delta"], 2), "reason": h["reason"]}
                                for h in hs] for m, hs in history.items()},
                "stats": await asyncio.to_thread(self.store.stats, row.id),
                "daily": await self._daily(row.id)}

    async def _daily(self, account_id: str) -> list[dict[str, Any]]:
        """The account's deals of the day and of the week played, with its place."""
        played = await asyncio.to_thread(self.daily.of_account, account_id)
        out = []
        for p in played:
            try:
                ev = parse_event(p["event"])
            except TuteError:  # an event id of another version: not shown
                continue
            out.append({**ev.to_json(), "score": p["score"], "rank": p["rank"],
                        "players": p["players"]})
        return out

    async def leaderboard(self, mode: str, period: str) -> dict[str, Any]:
        await self.settle_pending()
        span = {"week": 7 * 86400.0, "month": 30 * 86400.0, "all": None}
        if period not in span:
            raise TableError("bad_request", "period is one of: week, month, all")
        if mode not in MODES:
            raise TableError("bad_request", "mode is one of: " + ", ".join(MODES))
        seconds = span[period]
        since = None if seconds is None else self.clock.time() - seconds
        rows = await asyncio.to_thread(self.store.leaderboard, mode, since)
        players = [{"name": r["name"], "rating": shown(r["mu"], r["sigma"]),
                    "games": r["games"], "provisional": r["sigma"] >= PROVISIONAL_SIGMA,
                    "gain": None if r["gain"] is None else round(r["gain"], 2)} for r in rows]
        measured = load_bot_ratings().get(mode, {})  # the levels the arena measured
        bots = [{"level": lvl, "rating": shown(p.mu, p.sigma)}
                for lvl in (*LEVELS, "random", "rules") if lvl in measured
                for p in [bot_anchor(mode, lvl)]]
        return {"mode": mode, "period": period, "players": players, "bots": bots}

    async def chances(self, account: AccountRow | None, variant: str,
                      options: dict[str, Any], seats: list[str | None]) -> dict[str, Any]:
        """Each side's chance to win (openskill's predict_win) at a table whose seats are
        ``seats``: an account id, a bot level, or None for a person without a rating."""
        var = find_variant(variant)
        opts = resolve_options(var, options)
        mode = game_for(var).rating_mode(opts)
        ids = [s for s in seats if s is not None and s not in LEVELS and s not in (
            "random", "rules")]
        have = await asyncio.to_thread(self.store.ratings_of, ids, mode)
        players = []
        for s in seats:
            if s is not None and s in have:
                players.append(Player(have[s].mu, have[s].sigma, s))
            elif s is None or s in ids:
                players.append(Player(MU0, SIGMA0, s))
            else:
                players.append(bot_anchor(mode, s))
        side_of = [var.side_of(i, opts) for i in range(len(seats))]
        sides = max(side_of) + 1
        return {"mode": mode, "chances": [round(c, 4) for c in predict(players, side_of,
                                                                          sides)],
                "side_of": side_of,
                "ratings": [shown(p.mu, p.sigma) for p in players]}


#: the rating pools, in the order the leaderboard shows them
MODES = ("parejas", "guinote", "two", "three", "many")

