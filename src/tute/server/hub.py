"""The hub: creates, finds, restores and retires table actors; the lobby's data.

Framework-free like the tables: the web layer calls these coroutines.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Collection, Mapping
from typing import Any

from ..bots import LEVELS as BOT_LEVELS
from ..errors import TuteError
from ..games import game_for
from ..games.descriptions import describe
from ..i18n import bot_name, option_words
from ..match import Match
from ..records import options_to_json
from ..variants import (
    OPTION_SPECS,
    VARIANTS,
    Variant,
    check_json_types,
    find_variant,
    resolve_options,
)
from .analyses import Analyses
from .botpool import shared_pool
from .protocol import deal_summary
from .store import DamagedTableError, Store, TableRow
from .store import dumps as store_dumps
from .table import (
    CHAT_KEPT,
    Seat,
    Table,
    TableConfig,
    TableError,
    hash_token,
    new_table_id,
    new_token,
    restore_match,
)

__all__ = ["LEVELS", "Hub"]

log = logging.getLogger("tute.server")

LEVELS = tuple(BOT_LEVELS)  # the bot registry's levels, easiest first
_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I
# 32**8 = 2**40 codes: guessing one of a thousand live tables takes about 10**9 lookups, and
# lookups are rate-limited per address. Tables made before keep their 6-character codes.
CODE_LENGTH = 8


def variants_json() -> list[dict[str, Any]]:
    out = []
    for v in VARIANTS.values():
        out.append({"id": v.id, "name": v.name, "english": v.english,
                    "seats": v.seat_count(), "seat_counts": _seat_counts(v),
                    "partnerships": v.partnerships,
                    "summary": v.summary, "words": describe(v.id),
                    # the match lengths to offer (the game's own: the page never guesses)
                    "lengths": game_for(v).lengths(v.defaults),
                    "options": list(v.option_names),
                    "option_specs": [_option_json(v, name) for name in v.option_names]})
    return out


def _seat_counts(v: Variant) -> dict[str, Any]:
    """The table sizes a variant may be played at, by the option that sets it: {option: None,
    counts: [n]} for a fixed table, else the option and {value: seats} (the lobby asks for the
    right number of seats once the option is chosen)."""
    for name in v.option_names:
        spec = OPTION_SPECS[name]
        if spec.kind != "choice":
            continue
        counts = {}
        for x in spec.choices:
            try:
                counts[str(x)] = v.seat_count(resolve_options(v, {name: x}))
            except TuteError:
                continue  # a value that needs another option set: not a table size
        if len(set(counts.values())) > 1:
            return {"option": name, "by_value": counts, "counts": sorted(set(counts.values()))}
    return {"option": None, "by_value": {}, "counts": [v.seat_count()]}


def _option_json(v: Any, name: str) -> dict[str, Any]:
    """One house rule as the lobby offers it: its kind, domain, this game's default and the
    engine's line of explanation."""
    spec = v.spec(name)
    default = v.defaults.get(name)
    if hasattr(default, "to_json"):
        default = default.to_json()
    out: dict[str, Any] = {"name": name, "kind": spec.kind, "default": default,
                           "doc": spec.doc, "words": option_words(name, spec.doc)}
    if spec.kind == "choice":
        out["choices"] = list(spec.choices)
    elif spec.kind in ("int", "int_or_null"):
        out.update(min=spec.minimum, max=spec.maximum)
    return out


class Hub:
    def __init__(self, store: Store, config: TableConfig, max_tables: int = 1000,
                 seeds: random.Random | None = None, tables_per_address: int = 20,
                 waiting_per_address: int = 5):
        self.store = store
        self.config = config
        self.max_tables = max_tables
        # where new tables' deals come from: None, the engine's own unpredictable seeds;
        # tests pass a seeded Random so that every run deals the same cards
        self._seeds = seeds
        # live tables (and waiting ones) one address may have made (Limits): far below
        # max_tables, so that a few addresses cannot fill it
        self.tables_per_address = tables_per_address
        self.waiting_per_address = waiting_per_address
        self.tables: dict[str, Table] = {}
        self._codes: dict[str, str] = {}
        self._loading: dict[str, asyncio.Future[Table | None]] = {}
        self.history_ttl = 2.0  # seconds the list of public finished games is reused
        self._public_history: tuple[float, list[TableRow]] | None = None
        self._finished: dict[str, TableRow | None] = {}  # table id -> finished row (or none)
        # tables whose stored data cannot be read or replayed: id -> reason (until a restart;
        # every other table keeps working)
        self.damaged: dict[str, str] = {}
        # analyses of finished games (both measures, in the bot pool; create_app sets where
        # they are kept and the search's budget)
        self.analyses = Analyses(self.record, shared_pool)

    # ------------------------------------------------------------ life cycle

    async def restore_all(self) -> int:
        """Bring back every unfinished table from storage (after a crash or a restart). A table
        whose row or event log is damaged stays unavailable (logged); the others come back."""
        rows = await asyncio.to_thread(self.store.live_tables, self.damaged)
        n = 0
        for row in rows:
            try:
                await self._load(row)
            except DamagedTableError:
                continue  # logged and remembered by _load
            except Exception as exc:  # a read failed: tried again when someone asks for it
                log.error("table %s not restored: %s", row.id, self.store.reason(exc))
                continue
            n += 1
        return n

    async def _load(self, row: TableRow) -> Table:
        """The table of ``row`` replayed from its event log. Raises
        :class:`DamagedTableError` (and remembers it) when the log cannot be replayed."""
        try:
            evs = await asyncio.to_thread(self.store.events, row.id)
            match = await asyncio.to_thread(restore_match, row, evs)
        except DamagedTableError as exc:
            log.error("table %s cannot be restored: %s", row.id, exc.reason)
            self.damaged[row.id] = exc.reason
            raise
        # a waiting table's time to expire counts from its last stored event, across restarts
        idle_since = evs[-1].at if evs else row.created_at
        settings = await asyncio.to_thread(self.store.notes, row.id, "settings", 1)
        chat = await asyncio.to_thread(self.store.notes, row.id, "chat", CHAT_KEPT)
        kept = settings[-1] if settings else {}
        # a rematch's seats whose players had not come yet stay without countdowns
        pending = _stored_seats(kept.get("pending"), len(row.seats))
        if pending:
            accepted = await asyncio.to_thread(self.store.notes, row.id, "accepted",
                                               len(row.seats))
            pending -= _stored_seats([n.get("seat") for n in accepted], len(row.seats))
        table = Table(row, match, self.store, self.config, on_idle=self._retire,
                      idle_since=idle_since, chat=kept.get("chat", True) is not False,
                      chat_log=chat, on_rematch=self.rematch, hints=kept.get("hints") is True,
                      clock=_stored_clock(kept.get("clock")), pending=pending)
        self.tables[row.id] = table
        self._codes[row.code] = row.id
        table.start()
        return table

    async def shutdown(self) -> None:
        await self.analyses.close()
        for t in list(self.tables.values()):
            await t.stop()
        self.tables.clear()

    def _retire(self, table: Table) -> None:
        # An idle finished table leaves memory (it can be loaded again from storage to be looked
        # at); an expired one leaves for good.
        if table.status in ("finished", "expired", "abandoned") and not table._all_clients():
            self.tables.pop(table.id, None)
            self._codes.pop(table.code, None)
            asyncio.get_running_loop().create_task(table.stop())

    async def get(self, table_id: str) -> Table | None:
        """A live table, loading a stored one (e.g. a finished game to look at) on demand.
        Raises ``TableError("unavailable")`` for a table whose stored data is damaged and
        the database error when storage cannot be read."""
        t = self.tables.get(table_id)
        if t is not None:
            return t
        if table_id in self.damaged:
            raise _unavailable(self.damaged[table_id])
        if table_id in self._loading:
            return await self._loading[table_id]
        fut: asyncio.Future[Table | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = fut
        try:
            try:
                row = await asyncio.to_thread(self.store.get, table_id)
                t = None if row is None or row.status == "expired" else await self._load(row)
            except DamagedTableError as exc:
                self.damaged[table_id] = exc.reason
                err: Exception = _unavailable(exc.reason)
            except Exception as exc:
                err = exc
            else:
                fut.set_result(t)
                return t
            fut.set_exception(err)  # the others waiting for this load get the error too
            fut.exception()  # retrieved: no "never retrieved" warning when nobody else waits
            raise err
        finally:
            del self._loading[table_id]

    async def by_code(self, code: str) -> str | None:
        """The table of an invite code: 8 characters, or 6 for tables made before; case,
        spaces and dashes do not matter (the web layer rate-limits the lookups)."""
        code = "".join(code.split()).replace("-", "").upper()
        if len(code) not in (CODE_LENGTH, 6) or not set(code) <= set(_CODE_ALPHABET):
            return None
        if code in self._codes:
            return self._codes[code]
        row = await asyncio.to_thread(self.store.by_code, code)
        return None if row is None or row.status == "expired" else row.id

    # ------------------------------------------------------------ creation

    async def create(self, variant: str, options: Mapping[str, Any] | None,
                     seats: list[str], name: str, public: bool,
                     seed: int | None = None, chat: bool = True,
                     hints: bool = False, clock: int = 0,
                     address: str = "") -> tuple[Table, int, str]:
        """Create a table; ``seats`` holds one entry per seat: "you", "open" or a bot level
        ("bot", "bot:medio", "medio"); ``address``: who asks (its live tables are capped).
        Returns (table, your seat, your token)."""
        self._check_room(address, waiting="open" in seats)
        try:
            var = find_variant(variant)
            check_json_types(var, options or {})  # JSON: "3" is not 3, "true" not true
            match = Match.new(var, seed=self._seed() if seed is None else seed,
                              options=options or {})
        except TuteError as exc:
            raise TableError("bad_table", str(exc)) from None
        n = var.seat_count(match.options)
        if len(seats) != n:
            raise TableError("bad_table", f"{var.id} needs {n} seats, got {len(seats)}")
        if seats.count("you") != 1:
            raise TableError("bad_table", "exactly one seat must be 'you'")
        token = new_token()
        built: list[Seat] = []
        for i, s in enumerate(seats):
            if s == "you":
                built.append(Seat("human", name, token_hash=hash_token(token)))
            elif s == "open":
                built.append(Seat("open"))
            else:
                level = s.partition(":")[2] if s.startswith("bot") else s
                level = level or "medio"
                if level not in (*LEVELS, "random", "rules"):
                    raise TableError("bad_table", f"unknown seat kind {s!r}; expected 'you', "
                                     "'open', or a bot level: " + ", ".join(LEVELS))
                built.append(Seat("bot", bot_name(i), level))
        you = seats.index("you")
        table = await self._open(match, built, you, public, chat, hints, clock)
        table.creator = address
        return table, you, token

    async def create_seated(self, variant: str, options: Mapping[str, Any] | None,
                            people: list[str | None], level: str, *,
                            table_id: str | None = None,
                            tokens: Mapping[int, str] | None = None
                            ) -> tuple[Table, dict[int, str]]:
        """A table with every seat taken, for a tournament: ``people`` holds a person's name
        per seat (its token is returned, by seat) or None for a bot of ``level``. It starts
        at once; the server's cap on live tables holds, the per-address ones do not.
        ``table_id`` and ``tokens`` (by seat): the id and seat tokens chosen, and stored, by
        the tournament beforehand (the others are new)."""
        self._check_room("", waiting=False)
        try:
            var = find_variant(variant)
            check_json_types(var, options or {})
            match = Match.new(var, seed=self._seed(), options=options or {})
        except TuteError as exc:
            raise TableError("bad_table", str(exc)) from None
        if len(people) != var.seat_count(match.options):
            raise TableError("bad_table", f"{var.id} needs {var.seat_count(match.options)} "
                             f"seats, got {len(people)}")
        given = dict(tokens or {})
        tokens = {}
        built: list[Seat] = []
        for i, name in enumerate(people):
            if name is None:
                built.append(Seat("bot", bot_name(i), level))
            else:
                tokens[i] = given.get(i) or new_token()
                built.append(Seat("human", name, token_hash=hash_token(tokens[i])))
        table = await self._open(match, built, min(tokens, default=0), False, True,
                                 table_id=table_id)
        return table, tokens

    async def _open(self, match: Match, built: list[Seat], host: int, public: bool,
                    chat: bool, hints: bool = False, clock: int = 0,
                    pending: Collection[int] = (), table_id: str | None = None) -> Table:
        """Store a new table (and, with chat off, hints on or a turn clock, its settings) and
        start its actor; ``table_id``: its id, chosen beforehand (else a new one)."""
        var = match.variant
        row = TableRow(
            id=table_id or new_table_id(), code=self._new_code(), variant=var.id,
            options=_jsonable(options_to_json(match.options, var.defaults)),
            seed=match.seed, first_dealer=match.first_dealer,
            seats=[s.to_store() for s in built], host=host, public=public,
            status="waiting" if any(s.kind == "open" for s in built) else "playing",
            version=0, result=None, created_at=self.config.clock.time(), finished_at=None)
        try:
            await self._claim(row.id)
            await self.store.write(Store.op_create(row))
            if not chat or hints or clock or pending:
                await self.store.write(Store.op_note(row.id, "settings", None, store_dumps(
                    {"chat": chat, "hints": hints, "clock": clock,
                     "pending": sorted(pending)})))
        except Exception as exc:  # not stored: no table, no token
            log.error("table %s not created: %s", row.id, self.store.reason(exc))
            await self._unclaim(row.id)
            raise TableError("storage", "the table could not be saved; try again later"
                             ) from None
        table = Table(row, match, self.store, self.config, on_idle=self._retire, chat=chat,
                      on_rematch=self.rematch, hints=hints, clock=clock, pending=pending)
        self.tables[row.id] = table
        self._codes[row.code] = row.id
        table.start()
        return table

    async def _claim(self, table_id: str) -> None:
        """Before a new table is stored: a site of several processes takes its lease
        (:class:`~tute.server.cluster.ClusterHub`); a single process has nothing to do."""

    async def _unclaim(self, table_id: str) -> None:
        """A new table could not be stored: its lease (if any) is given up."""

    async def rematch(self, old: Table, seat: int) -> tuple[Table, dict[int, str], bool]:
        """The rematch of a finished table, asked by ``seat``: the table made for it before
        (its link is stored with the old table, so one made before the old table was
        forgotten is found again), with a new token for that seat; else a new match with the
        same game, rules, seats, names and bot levels (a new deal, a new seed) and each human
        seat's new token. The flag says whether it was made now."""
        if old.rematch_id is None:
            notes = await asyncio.to_thread(self.store.notes, old.id, "rematch", 1)
            if notes and isinstance(notes[-1].get("table"), str):
                old.rematch_id = notes[-1]["table"]
        if old.rematch_id is not None:
            made = await self.get(old.rematch_id)
            if made is not None:
                token = await made.call(made.rekey, seat)
                return made, ({} if token is None else {seat: token}), False
        table, tokens = await self._rematch(old)
        try:
            await self.store.write(Store.op_note(old.id, "rematch", None,
                                                 store_dumps({"table": table.id})))
        except Exception as exc:  # the rematch stands; only its link to this table is lost
            log.error("table %s: rematch link not stored: %s", old.id, self.store.reason(exc))
        old.rematch_id = table.id
        return table, tokens, True

    async def _rematch(self, old: Table) -> tuple[Table, dict[int, str]]:
        self._check_room("", waiting=False)
        match = Match.new(old.row.variant, seed=self._seed(), options=old.row.options)
        tokens: dict[int, str] = {}
        built: list[Seat] = []
        for i, st in enumerate(old.seats):
            if st.kind == "human":
                tokens[i] = new_token()
                built.append(Seat("human", st.name, st.level, hash_token(tokens[i])))
            else:
                built.append(Seat(st.kind, st.name, st.level))
        host = old.host if old.host is not None and old.host in tokens else min(tokens)
        # its players accept by coming: nobody's countdown runs before (Seat.pending)
        table = await self._open(match, built, host, old.public, old.chat, old.hints,
                                 old.clock, pending=set(tokens))
        table.creator = old.creator
        return table, tokens

    def _check_room(self, address: str, waiting: bool) -> None:
        """Refuse a new table beyond the server's cap (saying when one should be free) or
        beyond what one address may hold."""
        if len(self.tables) >= self.max_tables:
            retry = self._next_free()
            raise TableError("busy", "the server has too many live tables; try again in "
                             f"about {_minutes(retry)}", retry_after=retry)
        if not address:
            return
        mine = [t for t in self.tables.values()
                if t.creator == address and t.status in ("waiting", "playing")]
        if len(mine) >= self.tables_per_address:
            raise TableError("too_many_tables", "you have too many tables being played; "
                             "finish or leave one first")
        if waiting and sum(t.status == "waiting" for t in mine) >= self.waiting_per_address:
            raise TableError("too_many_tables", "you have too many tables waiting for "
                             "players; start or leave one first")

    def _next_free(self) -> int:
        """Seconds until a live table is due to expire or be abandoned (at least 1; a minute
        when none is due)."""
        due = [t.expires_in() for t in self.tables.values()]
        known = [d for d in due if d is not None]
        return max(1, round(min(known))) if known else 60

    def _seed(self) -> int | None:
        return None if self._seeds is None else self._seeds.getrandbits(63)

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(_CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self._codes:
                return code  # the DB's unique constraint catches a clash with an old table

    # ------------------------------------------------------------ lobby data

    def open_tables(self) -> list[dict[str, Any]]:
        return [t.info() for t in self.tables.values()
                if t.public and t.status == "waiting"]

    def live_tables(self, limit: int = 30) -> list[dict[str, Any]]:
        """Public games being played, to watch: those with people at them first."""
        live = [t for t in self.tables.values() if t.public and t.status == "playing"]
        live.sort(key=lambda t: (-sum(bool(s.clients) for s in t.seats), -t.row.created_at))
        return [t.info() for t in live[:limit]]

    async def history(self, limit: int = 50,
                      seats: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
        """The latest finished public games, and the visitor's own: ``seats`` maps table ids
        to the seat tokens the visitor holds there (a private game is shown only to a holder
        of one of its seats)."""
        now = self.config.clock.monotonic()
        if self._public_history is None or now - self._public_history[0] > self.history_ttl:
            # one scan serves every lobby polling within history_ttl seconds
            self._public_history = (now, await asyncio.to_thread(self._public_rows, limit))
        rows = {r.id: r for r in self._public_history[1]}
        mine: dict[str, int] = {}  # table id -> the visitor's seat there
        for table_id, token in list((seats or {}).items())[:limit]:
            row = await self._finished_row(table_id)
            if row is None:
                continue
            h = hash_token(token)
            seat = next((i for i, s in enumerate(row.seats) if s.get("token_hash") == h), None)
            if seat is not None:
                mine[row.id] = seat
            if row.public or seat is not None:
                rows[row.id] = row
        newest = sorted(rows.values(), key=lambda r: (-(r.finished_at or 0.0), r.id))[:limit]
        return [{"id": r.id, "code": r.code, "variant": r.variant,
                 "players": [s.get("name") or s["kind"] for s in r.seats],
                 "status": r.status, "result": r.result, "finished_at": r.finished_at,
                 "created_at": r.created_at, **_yours(r, mine.get(r.id))} for r in newest]

    def _public_rows(self, limit: int, pages: int = 5) -> list[TableRow]:
        # The store lists every finished game, most of them private quick games: page back
        # until there are `limit` public ones (or a few pages were seen).
        out: list[TableRow] = []
        before: float | None = None
        for _ in range(pages):
            rows = self.store.finished(4 * limit, before)
            out += [r for r in rows if r.public]
            if len(out) >= limit or len(rows) < 4 * limit or rows[-1].finished_at is None:
                break
            before = rows[-1].finished_at
        return out[:limit]

    async def _finished_row(self, table_id: str) -> TableRow | None:
        """A finished table's row, cached: a table neither live nor waiting never changes."""
        live = self.tables.get(table_id)
        if live is not None and live.status not in ("finished", "abandoned"):
            return None
        if table_id in self._finished:
            return self._finished[table_id]
        try:
            row = await asyncio.to_thread(self.store.get, table_id)
        except Exception:  # damaged or unreadable: left out of the list, not an error
            return None
        if row is not None and row.status not in ("finished", "expired", "abandoned"):
            return None  # still being played (e.g. its finish is being stored): ask again
        if len(self._finished) >= 10_000:
            self._finished.pop(next(iter(self._finished)))  # the oldest entry
        self._finished[table_id] = row if row is not None and row.status in (
            "finished", "abandoned") else None
        return self._finished[table_id]

    async def record(self, table_id: str) -> dict[str, Any]:
        """The game record of a finished game (never of a running one: it holds the seed)."""
        row = await asyncio.to_thread(self.store.get, table_id)
        if row is None:
            raise TableError("not_found", "no such table")
        if row.status not in ("finished", "abandoned"):  # an abandoned game never goes on
            raise TableError("not_finished", "the record is available when the game is over")
        if table_id in self.damaged:
            raise _unavailable(self.damaged[table_id])
        try:
            evs = await asyncio.to_thread(self.store.events, table_id)
            match = await asyncio.to_thread(restore_match, row, evs)
        except DamagedTableError as exc:
            log.error("table %s cannot be replayed: %s", table_id, exc.reason)
            self.damaged[table_id] = exc.reason
            raise _unavailable(exc.reason) from None
        rec = match.to_record()
        rec["players"] = [s.get("name") or s["kind"] for s in row.seats]
        return rec

    async def replay(self, table_id: str) -> dict[str, Any]:
        """Every position of a finished game with all hands open, for the replay viewer."""
        rec = await self.record(table_id)
        return await asyncio.to_thread(_frames, rec)


    async def analysis(self, table_id: str, deal: int | None = None) -> dict[str, Any]:
        """The analysis of a finished game (never of one being played: the double-dummy
        measure shows every hand), or of one of its deals (1-based): the double-dummy measure,
        and the search's where it is done (tute.server.analyses); with ``bots``, the level of
        each seat a bot played (None for a person's), whose moves the page offers to report."""
        found = await self.analyses.get(table_id, deal)
        row = await self._finished_row(table_id)
        bots = [] if row is None else [s.get("level") if s.get("kind") == "bot" else None
                                       for s in row.seats]
        return {**found, "bots": bots}

    async def analysis_progress(self, table_id: str) -> dict[str, Any]:
        """How far the search measure of a finished game's analysis has got."""
        return await self.analyses.progress(table_id)


def _yours(row: TableRow, seat: int | None) -> dict[str, Any]:
    """For a game of the visitor's: their seat and whether their side won."""
    if seat is None:
        return {"mine": False}
    won = None
    winner = (row.result or {}).get("winner")
    if isinstance(winner, int):
        won = find_variant(row.variant).side_of(seat) == winner
    return {"mine": True, "seat": seat, "won": won}


def _unavailable(reason: str) -> TableError:
    return TableError("unavailable", f"this table's stored data is damaged ({reason}); "
                      "it cannot be played or shown")


def _frames(rec: dict[str, Any]) -> dict[str, Any]:
    m = Match.from_record({k: v for k, v in rec.items() if k != "players"})
    # replay again from scratch, recording a frame after every action
    replay = Match.new(m.variant, seed=m.seed, options=m.options, first_dealer=m.first_dealer)
    frames = [_frame(replay, None, None, False)]
    for d in rec["deals"]:
        for a in d["actions"]:
            seat = replay.to_move
            deal, tricks = replay.deal, len(replay.deal.tricks)
            replay.apply(a)
            frames.append(_frame(replay, seat, a, len(deal.tricks) > tricks))
    return {"record": rec, "seats": replay.deal.seats, "frames": frames}


def _frame(m: Match, seat: int | None, action: str | None, took: bool) -> dict[str, Any]:
    """The position after ``action``; ``took``: that action finished a trick, which the
    frame shows whole, with its winner (the next frame starts the next trick)."""
    deal = m.deal
    shown = deal
    # right after a deal ends the match deals the next one: show the finished deal's end
    if seat is not None and not deal.actions and len(m.deals) > 1:
        shown = m.deals[-2]
    n = m.deals.index(shown) + 1
    whole = shown.tricks[-1] if shown.tricks and not shown.trick and (
        took or shown.is_over()) else None
    return {
        "deal_number": n, "seat": seat, "action": action,
        "hands": [shown.hand(s).to_list() for s in range(shown.seats)],
        "trick": [[s, str(c)] for s, c in shown.trick] or (
            [[s, str(c)] for s, c in whole.plays()] if whole is not None else []),
        # the trick shown whole: who took it and its points
        "trick_winner": None if whole is None else whole.winner,
        "trick_points": None if whole is None else whole.points,
        "trump": None if shown.trump is None else shown.trump.letter,
        "trump_card": None if shown.trump_card is None else str(shown.trump_card),
        "upcard": None if shown.upcard is None else str(shown.upcard),
        "stock_count": shown.stock_count, "dealer": shown.dealer,
        "card_points": list(shown.card_points), "games": list(m.games),
        "to_move": shown.to_move,
        "summary": deal_summary(shown, n),
        # what the replay shows beside the board: the cantes so far, and the tricks done (to
        # step trick by trick)
        "cantes": [[s, str(d), p] for s, d, p in shown.cantes],
        "tricks": len(shown.tricks),
    }


def _jsonable(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {str(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v) for v in obj]
    return obj


def _stored_clock(value: object) -> int:
    """The turn clock of a stored table's settings (0 when none, or not a sane number)."""
    if isinstance(value, int) and not isinstance(value, bool) and 10 <= value <= 600:
        return value
    return 0


def _stored_seats(value: object, seats: int) -> set[int]:
    """The seat numbers of a stored list (those that are not seats left out)."""
    if not isinstance(value, list):
        return set()
    return {v for v in value if isinstance(v, int) and not isinstance(v, bool)
            and 0 <= v < seats}


def _minutes(seconds: int) -> str:
    return f"{seconds} s" if seconds < 60 else f"{round(seconds / 60)} min"
