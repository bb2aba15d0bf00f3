"""A live table: one asyncio actor owning a match, its seats, its clients and its bots.

Nothing here imports the web framework. The web layer hands the actor :class:`Client` objects
(an outbound queue per connection) and calls :meth:`Table.call`; every state change happens
inside the actor's task, one message at a time, so there are no locks and no races.

An accepted action is applied to the match, committed to storage, and only then broadcast
(boardgame.io's master, lichess's round actor). A connection gets its whole state once (welcome,
catchup) and then per action only a delta: the public part of the state is built once per
action and diffed against the previous one, and each seat adds the changes of its own hand and
choices; spectators get the public part alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import hmac
import logging
import secrets
import unicodedata
from collections import deque
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..actions import parse_action
from ..bots import LEVELS, make_bot
from ..bots.base import Bot
from ..errors import InvalidNotationError, RecordError, TuteError
from ..events import Event
from ..i18n import bot_name, refusal_text
from ..match import Match, replay_stored
from ..messages import Refusal
from .botpool import is_heavy, shared_pool
from .clock import Clock, TimerHandle
from .protocol import (
    PROTOCOL,
    action_for,
    dumps,
    event_json,
    private_deal_json,
    public_state,
    state_delta,
    with_private,
)
from .store import DamagedTableError, Store, TableRow
from .store import dumps as store_dumps

__all__ = ["Client", "Seat", "Table", "TableConfig", "TableError"]

log = logging.getLogger("tute.server")

# Event types that every audience sees as they are (Deal.events_for hides nothing in them): an
# update made only of these skips the per-audience filtering. Anything else, including event
# types added later, goes through the core's own Deal.events_for (Declared too: a 20 sung
# hidden under guinote_hide_arrastre_suit shows its suit to its singer alone).
_PUBLIC_EVENTS = frozenset({"CardPlayed", "TrickTaken", "Exchanged", "Passed",
                            "DealEnded", "BidMade", "AuctionWon", "TookOver", "TrumpNamed",
                            "ThrownIn", "RenuncioClaimed"})


@dataclass
class TableConfig:
    bot_timeout: float = 60.0  # seconds before a bot plays for an absent player
    bot_delay: float = 0.8  # a bot's pause before it plays, so people can follow
    trick_pause: float = 1.2  # extra pause before a bot leads the next trick
    history: int = 256  # updates kept in memory for reconnecting clients
    client_queue: int = 512  # outbound messages buffered per connection before it is dropped
    rate: float = 8.0  # intents per second per connection (token bucket refill)
    burst: int = 24
    max_spectators: int = 48  # spectator connections per table (seat holders: always let in)
    spectators_per_address: int = 8  # spectator connections per table from one address
    seat_clients: int = 4  # connections per seat; a newer one replaces the oldest
    linger: float = 30.0  # seconds an idle finished table stays in memory
    unclaimed_ttl: float = 600.0  # seconds a table lasts that no player has come to
    waiting_ttl: float = 24 * 3600.0  # seconds a table with open seats and nobody there lasts
    abandon_after: float = 30 * 60.0  # seconds a started table lasts with its humans all gone
    chat_rate: float = 0.5  # chat lines per second per seat (bursts of chat_burst)
    chat_burst: int = 4
    hint_rate: float = 0.2  # hints per second per seat (bursts of hint_burst): CPU of the pool
    hint_burst: int = 3
    # prepare the hints' search in the bot pool when a table where hints may be asked starts
    # (the first hint then does not wait for the solver to load); tests turn it off
    warm_hints: bool = True
    clock: Clock = field(default_factory=Clock)  # every timer's time (tests: a ManualClock)


class TableError(Exception):
    """A refused request; ``code`` is stable, ``reason`` is for people (English);
    ``refusal``: the engine's reason as a value, for the page to word in its language."""

    def __init__(self, code: str, reason: str, refusal: Refusal | None = None,
                 retry_after: int | None = None):
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.refusal = refusal
        self.retry_after = retry_after  # seconds after which trying again may work

    def message(self) -> dict[str, Any]:
        """The protocol's ``error`` message (``refusal`` only for the engine's refusals)."""
        msg: dict[str, Any] = {"type": "error", "code": self.code, "reason": self.reason}
        if self.refusal is not None:
            msg["refusal"] = self.refusal.as_json()
        return msg


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def new_table_id() -> str:
    return secrets.token_urlsafe(9)


class Client:
    """One connection as the table sees it: a bounded outbound queue and a rate limiter.

    The web layer drains :attr:`outbox` into its socket; a client that stops reading is cut
    off (its queue fills) instead of slowing the table down.
    """

    def __init__(self, maxsize: int = 512, rate: float = 8.0, burst: int = 24,
                 address: str = "", clock: Clock | None = None):
        self.clock = clock or Clock()
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue(maxsize)
        self.address = address  # the client's address key: spectator caps count per address
        self.opened = self.clock.monotonic()
        self.seat: int | None = None
        self.table: Table | None = None
        self.closed = False
        self.close_reason = ""
        # set by the web layer: stops the connection's handler (a client that does not read
        # never reaches its next receive)
        self.on_drop: Callable[[], None] | None = None
        self.dropped = False
        self.heard = 0  # messages received from it (a spectator's idle check reads it)
        self._rate = rate
        self._burst = float(burst)
        self._tokens = float(burst)
        self._stamp = self.clock.monotonic()

    def push(self, text: str) -> None:
        if self.closed:
            return
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            self.drop("too slow: outbound queue full")

    def send(self, msg: dict[str, Any]) -> None:
        self.push(dumps(msg))

    def close(self, reason: str = "") -> None:
        if not self.closed:
            self.closed = True
            self.close_reason = reason
            with contextlib.suppress(asyncio.QueueFull):
                self.outbox.put_nowait(None)

    def drop(self, reason: str, msg: dict[str, Any] | None = None) -> None:
        """Close the connection from outside its handler (it does not read, or it makes room
        for others): ``msg`` is its last message if there is room for it."""
        if self.closed:
            return
        if msg is not None:
            with contextlib.suppress(asyncio.QueueFull):
                self.outbox.put_nowait(dumps(msg))
        self.close(reason)
        self.dropped = True
        if self.on_drop is not None:
            self.on_drop()

    def allow(self) -> bool:
        """Token bucket: ``rate`` messages per second, bursts up to ``burst``."""
        now = self.clock.monotonic()
        self._tokens = min(self._burst, self._tokens + (now - self._stamp) * self._rate)
        self._stamp = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False


@dataclass
class Seat:
    kind: str  # "human" | "bot" | "open"
    name: str = ""
    level: str = "medio"  # the bot's level (for a human seat: the stand-in's level)
    token_hash: str | None = None
    clients: set[Client] = field(default_factory=set)
    away: bool = False  # a bot is playing for the absent human
    timer: TimerHandle | None = None
    chat: tuple[float, float] = (0.0, 0.0)  # chat token bucket: (tokens, last refill)
    hint: tuple[float, float] = (0.0, 0.0)  # hint token bucket: (tokens, last refill)
    hinting: bool = False  # a hint of this seat is being computed
    # A rematch's seat whose player has not come yet (in memory only): nobody's countdown
    # runs for it, neither the stand-in's nor the turn clock, until they accept by coming.
    pending: bool = False

    def to_store(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "level": self.level,
                "token_hash": self.token_hash}

    @property
    def bot_plays(self) -> bool:
        return self.kind == "bot" or self.away


@dataclass
class _Update:
    v: int
    kind: str
    seat: int | None
    action: str | None
    segments: tuple[tuple[int, int, int], ...]  # (deal index, first event, end) per deal
    # a bot made this decision for a human seat: "clock" (its turn clock ran out) or "away"
    # (its player is gone and the stand-in holds the seat); None: the seat's own player
    stand_in: str | None = None


def make_table_bot(level: str, seed: int) -> Bot:
    try:
        return make_bot(level, seed=seed)
    except TuteError:
        return make_bot("random", seed=seed)  # a level the bot registry lacks yet


class Table:
    """The actor. Public coroutines go through :meth:`call`, which queues them."""

    def __init__(self, row: TableRow, match: Match, store: Store, config: TableConfig,
                 on_idle: Callable[[Table], None] | None = None,
                 idle_since: float | None = None, chat: bool = True,
                 chat_log: Sequence[dict[str, Any]] = (),
                 on_rematch: Callable[[Table, int],
                                      Awaitable[tuple[Table, dict[int, str], bool]]]
                 | None = None, hints: bool = False, clock: int = 0,
                 pending: Collection[int] = ()):
        self.id = row.id
        self.code = row.code
        self.row = row
        self.match = match
        self.store = store
        self.config = config
        self.seats = [Seat(s["kind"], s.get("name", ""), s.get("level") or "medio",
                           s.get("token_hash"), pending=i in pending)
                      for i, s in enumerate(row.seats)]
        self.host = row.host
        self.public = row.public
        self.status = row.status
        self.v = row.version
        self.spectators: set[Client] = set()
        self.history: deque[_Update] = deque(maxlen=config.history)
        self._inbox: asyncio.Queue[tuple[Callable[..., Awaitable[Any]], tuple[Any, ...],
                                         asyncio.Future[Any] | None]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._bots: dict[int, tuple[Bot, int]] = {}  # seat -> (bot, deal index it saw last)
        self._bot_task: asyncio.Task[None] | None = None
        self._idle: TimerHandle | None = None
        self._on_idle = on_idle
        self._expiry: TimerHandle | None = None
        self._humans_gone_at: float | None = None  # wall clock; see _check_expiry
        self.creator = ""  # the address that made it (in memory only: the caps per address)
        # a player has come to it since it was made (a table restored from storage: assumed)
        self.claimed = row.version > 0
        self.timekeeper = config.clock  # every timer of the table (tests: a ManualClock)
        self._idle_since = (self.timekeeper.time() if idle_since is None
                            else idle_since)  # wall clock
        # The state as last sent: the public part, and per seat with connections its private
        # part (None: no connection saw it; rebuilt on connect). Deltas are diffs of these.
        self._pub: dict[str, Any] | None = None
        self._priv: list[dict[str, Any] | None] = [None] * len(self.seats)
        self.intents = 0
        self.chat = chat  # the host may create a table without chat
        self.chat_log: deque[dict[str, Any]] = deque(chat_log, maxlen=CHAT_KEPT)
        self._on_rematch = on_rematch
        self._rematch: tuple[Table, dict[int, str]] | None = None  # the next table, its tokens
        self.rematch_id: str | None = None  # the next table's id (also stored, as a note)
        # hints where other people play too (against bots only they are always allowed)
        self.hints = hints
        self._hint_tasks: set[asyncio.Task[None]] = set()
        # the turn clock: seconds a player has for a decision before the bot plays it (0: off)
        self.clock = clock
        self._turn: tuple[int, int, TimerHandle] | None = None  # (seat, version, timer)

    # ------------------------------------------------------------ actor plumbing

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"table-{self.id}")
        self._check_expiry()
        if self.status == "playing":
            self._warm_hints()
            for s, seat in enumerate(self.seats):
                if seat.kind == "human" and not seat.clients and not seat.pending:
                    self._arm_timer(s)
            self._kick()

    async def stop(self) -> None:
        for seat in self.seats:
            if seat.timer:
                seat.timer.cancel()
        self._stop_clock()
        if self._bot_task:
            self._bot_task.cancel()
        for task in list(self._hint_tasks):
            task.cancel()
        if self._idle:
            self._idle.cancel()
        if self._expiry:
            self._expiry.cancel()
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for c in self._all_clients():
            c.close("server shutting down")

    async def call(self, fn: Callable[..., Awaitable[Any]], *args: Any) -> Any:
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._inbox.put_nowait((fn, args, fut))
        return await fut

    def post(self, fn: Callable[..., Awaitable[Any]], *args: Any) -> None:
        self._inbox.put_nowait((fn, args, None))

    async def _run(self) -> None:
        while True:
            fn, args, fut = await self._inbox.get()
            try:
                result = await fn(*args)
            except Exception as exc:
                if not isinstance(exc, TableError):
                    log.exception("table %s: %s failed", self.id, fn.__name__)
                if fut is not None and not fut.done():
                    fut.set_exception(exc)
            else:
                if fut is not None and not fut.done():
                    fut.set_result(result)

    # ------------------------------------------------------------ information

    def seats_json(self) -> list[dict[str, Any]]:
        return [{"seat": i, "kind": s.kind, "name": s.name,
                 "level": s.level if s.kind == "bot" else None,
                 "online": bool(s.clients) or s.kind == "bot", "away": s.away,
                 "bot_in": _seconds_left(self.timekeeper, s.timer), "pending": s.pending}
                for i, s in enumerate(self.seats)]

    def info(self) -> dict[str, Any]:
        """Public description of the table (lobby and welcome)."""
        return {
            "id": self.id, "code": self.code, "variant": self.row.variant,
            "options": self.row.options, "public": self.public, "status": self.status,
            "host": self.host, "seats": self.seats_json(), "v": self.v,
            "created_at": self.row.created_at, "goal": self.match.goal(),
            "open_seats": sum(s.kind == "open" for s in self.seats),
            "chat": self.chat,
            "hints": self.hints,
            "clock": self.clock,
            "rematch": None if self._rematch is None else self._rematch[0].id,
            # what the page needs to know of the game, told rather than guessed from its id
            "game": {"auction": self.match.game.auction,
                     "stock_over": self.match.game.stock_over_notice},
        }

    def _all_clients(self) -> list[Client]:
        out = list(self.spectators)
        for s in self.seats:
            out.extend(s.clients)
        return out

    def find_seat(self, token: str) -> int | None:
        h = hash_token(token)
        for i, s in enumerate(self.seats):
            if s.token_hash and hmac.compare_digest(s.token_hash, h):
                return i
        return None

    async def _store_accepted(self, seat: int) -> None:
        """Keep that ``seat`` accepted its rematch, so that after a restart its countdowns
        run again. Not stored, the seat is only thought pending again after a restart: no
        countdown for it until its player comes back, never one they did not accept."""
        try:
            await self.store.write(Store.op_note(self.id, "accepted", seat,
                                                 store_dumps({"seat": seat})))
        except Exception as exc:
            log.error("table %s: the rematch's acceptance not stored: %s", self.id,
                      self.store.reason(exc))

    # ------------------------------------------------------------ connections

    async def connect(self, client: Client, hello: dict[str, Any]) -> None:
        if hello.get("protocol", PROTOCOL) != PROTOCOL:
            raise TableError("protocol", f"this server speaks protocol {PROTOCOL} only")
        if self.status == "expired":
            raise TableError("not_found", "this table expired: nobody took its open seats")
        token = hello.get("token")
        seat: int | None = None
        if token:
            seat = self.find_seat(token)
            if seat is None:
                raise TableError("bad_token", "this token does not hold a seat at this table")
        if seat is None:
            # Spectators have caps of their own, so that however many watch, a seat holder is
            # always let in (they once filled the table and locked the players out).
            if len(self.spectators) >= self.config.max_spectators:
                raise TableError("table_full", "too many spectators at this table")
            if sum(c.address == client.address for c in self.spectators) >= \
                    self.config.spectators_per_address:
                raise TableError("table_full", "too many spectators from your address here")
        elif len(self.seats[seat].clients) >= self.config.seat_clients:
            # a token opening tab after tab: the newest connection wins, the oldest goes
            held = self.seats[seat].clients
            oldest = min(held, key=lambda c: c.opened)
            held.discard(oldest)
            # fatal, so that the page it belongs to does not reconnect and push out another
            oldest.send({"type": "error", "code": "replaced", "fatal": True,
                         "reason": "this seat was opened in another window"})
            oldest.close("replaced by a newer connection to this seat")
        client.seat = seat
        client.table = self
        if seat is not None:
            self.claimed = True
        if self._idle:
            self._idle.cancel()
            self._idle = None
        if self._expiry:
            self._expiry.cancel()
            self._expiry = None
        changed = False
        if seat is None:
            self.spectators.add(client)
        else:
            st = self.seats[seat]
            changed = not st.clients or st.away
            st.clients.add(client)
            if st.pending:  # the rematch accepted: its countdowns may run from now on
                st.pending = False
                await self._store_accepted(seat)
                self._kick()
            if st.timer:
                st.timer.cancel()
                st.timer = None
            if st.away:
                st.away = False  # the player is back: hand the seat back
                if self._bot_task and self.match.to_move == seat:
                    self._bot_task.cancel()
                    self._bot_task = None
                    self._kick()  # their turn: the turn clock runs again
        welcome: dict[str, Any] = {
            "type": "welcome", "protocol": PROTOCOL, "table": self.info(), "seat": seat,
            "v": self.v, "state": self._state(seat),
            "missed": self._missed(hello.get("since"), seat),
            "chat": list(self.chat_log),
        }
        client.send(welcome)
        if changed:
            self._broadcast_seats()
        self._check_expiry()  # a human is back (no abandoning), or only a spectator came

    async def disconnect(self, client: Client) -> None:
        client.closed = True
        if client.seat is None:
            self.spectators.discard(client)
        else:
            st = self.seats[client.seat]
            st.clients.discard(client)
            if not st.clients:
                if self.status == "playing":
                    self._arm_timer(client.seat)
                self._broadcast_seats()
        self._check_idle()
        self._idle_since = self.timekeeper.time()
        self._check_expiry()

    def _check_expiry(self) -> None:
        """A table still waiting for players with nobody connected expires ``waiting_ttl``
        seconds after the last seat change or departure (it was forgotten). A started table
        whose humans have all been gone for ``abandon_after`` seconds is abandoned (spectators
        do not keep it: its bots would play on for nobody, and come back at every restart).
        A table no player has come to since it was made goes after ``unclaimed_ttl`` if that
        is sooner (tables made and never used cannot fill the server for a day)."""
        if self._expiry:
            self._expiry.cancel()
            self._expiry = None
        if self.status == "playing":
            if any(s.clients for s in self.seats if s.kind == "human"):
                self._humans_gone_at = None
                return
            if self._humans_gone_at is None:  # they just left (or, restored: the last event)
                self._humans_gone_at = self._idle_since
            ttl, since = self.config.abandon_after, self._humans_gone_at
        else:
            ttl, since = self.config.waiting_ttl, self._idle_since
            if self.status != "waiting" or self._all_clients():
                return
        if ttl <= 0:
            return
        if not self.claimed and self.config.unclaimed_ttl > 0:
            ttl = min(ttl, self.config.unclaimed_ttl)  # made, and never come to: reclaimed
        delay = max(0.0, since + ttl - self.timekeeper.time())
        self._expiry = self.timekeeper.call_later(delay, lambda: self.post(self._expire))

    def expires_in(self) -> float | None:
        """Seconds until the table is due to expire or be abandoned, or None."""
        if self._expiry is None or self._expiry.cancelled():
            return None
        return self.timekeeper.left(self._expiry)

    async def _expire(self) -> None:
        self._expiry = None
        if self.status == "playing":
            await self._abandon()
            return
        if self.status != "waiting" or self._all_clients():
            return
        await self.store.write(Store.op_status(self.id, "expired", at=self.timekeeper.time()))
        self.status = "expired"
        if self._on_idle:
            self._on_idle(self)

    async def _abandon(self) -> None:
        """Stop the game: stored as ``abandoned`` (listed in the history, never restored), no
        bot plays again; a player coming back finds it over."""
        if any(s.clients for s in self.seats if s.kind == "human"):
            return
        try:
            await self.store.write(Store.op_status(self.id, "abandoned",
                                                    at=self.timekeeper.time()))
        except Exception:
            log.exception("table %s: could not store its abandonment; trying again", self.id)
            self._expiry = self.timekeeper.call_later(60.0, lambda: self.post(self._expire))
            return
        self.status = "abandoned"
        for st in self.seats:
            if st.timer:
                st.timer.cancel()
                st.timer = None
        if self._bot_task:
            self._bot_task.cancel()
            self._bot_task = None
        self._broadcast_seats()  # its status tells the spectators
        self._check_idle()

    def _check_idle(self) -> None:
        if self.status in ("finished", "abandoned") and not self._all_clients() and self._on_idle:
            if self._idle:
                self._idle.cancel()
            on_idle = self._on_idle
            self._idle = self.timekeeper.call_later(self.config.linger, lambda: on_idle(self))

    def _missed(self, since: Any, seat: int | None) -> list[dict[str, Any]] | None:
        """The updates after version ``since`` as this audience saw them, or None when they are
        no longer in memory (the client then relies on the fresh state alone)."""
        if not isinstance(since, int) or since > self.v:
            return None
        if since == self.v:
            return []
        if not self.history or self.history[0].v > since + 1:
            return None
        return [self._update_json(u, seat) for u in self.history if u.v > since]

    def _update_json(self, u: _Update, seat: int | None) -> dict[str, Any]:
        """The update as ``seat`` (None: a spectator) saw it: its events and its action are
        both that audience's copy (see :func:`action_for`)."""
        evs = self._events_json(u, seat)
        out: dict[str, Any] = {"v": u.v, "kind": u.kind, "seat": u.seat,
                               "action": action_for(u.action, evs),
                               "events": evs}
        if u.stand_in is not None:
            out["stand_in"] = u.stand_in
        return out

    def _events_json(self, u: _Update, seat: int | None) -> list[dict[str, Any]]:
        """The update's engine events as ``seat`` (None: a spectator) may see them."""
        evs: list[dict[str, Any]] = []
        for d, a, b in u.segments:
            deal = self.match.deals[d]
            new: Sequence[Event] = deal.events[a:b]
            if not all(type(e).__name__ in _PUBLIC_EVENTS for e in new):
                new = deal.events_for(seat, a, b)
            evs.extend(event_json(e, table=not deal.variant.stock) for e in new)
        return evs

    def _hides(self, u: _Update) -> bool:
        """Whether some audience sees the update's events differently from another."""
        return any(type(e).__name__ not in _PUBLIC_EVENTS
                   for d, a, b in u.segments for e in self.match.deals[d].events[a:b])

    # ------------------------------------------------------------ state

    def _public(self) -> dict[str, Any]:
        if self._pub is None:
            self._pub = public_state(self.match)
        return self._pub

    def _state(self, seat: int | None) -> dict[str, Any]:
        """The whole state of an audience now; a seat's private part is kept for its deltas."""
        pub = self._public()
        if seat is None:
            return pub
        priv = private_deal_json(self.match.deal, seat)
        self._priv[seat] = priv
        return with_private(pub, priv)

    # ------------------------------------------------------------ intents

    async def intent(self, client: Client, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        ref = msg.get("ref")
        try:
            if kind == "act":
                await self._act(client, msg)
            elif kind == "sync":
                client.send({"type": "catchup", "v": self.v,
                             "state": self._state(client.seat),
                             "missed": self._missed(msg.get("since"), client.seat)})
            elif kind == "fill_bots":
                await self._fill_bots(client, msg.get("level") or "medio")
            elif kind == "ping":
                client.send({"type": "pong", "ref": ref, "v": self.v})
            elif kind == "chat":
                await self._chat(client, msg)
            elif kind == "rematch":
                await self._rematch_for(client)
            elif kind == "hint":
                self._hint(client, ref)
        except TableError as exc:
            client.send({**exc.message(), "ref": ref})

    async def _act(self, client: Client, msg: dict[str, Any]) -> None:
        seat = client.seat
        if seat is None:
            raise TableError("not_seated", "spectators cannot act")
        if self.status != "playing":
            raise TableError("not_started" if self.status == "waiting" else "over",
                             "the game has not started: seats are still open"
                             if self.status == "waiting" else "the game is over")
        if "v" in msg and msg["v"] != self.v:
            raise TableError("stale", f"the table is at version {self.v}, not {msg['v']}")
        if self.match.to_move != seat:
            why = Refusal.of("not_your_turn")
            raise TableError("not_your_turn", refusal_text("en", why), why)
        self.intents += 1
        await self._accept(seat, msg["action"], ref=msg.get("ref"))

    async def _accept(self, seat: int, text: str, ref: str | None = None,
                      stand_in: str | None = None) -> None:
        try:
            act = parse_action(text)
        except InvalidNotationError as exc:
            bad = Refusal.of("bad_notation", text=text, detail=str(exc))
            raise TableError("bad_action", str(exc), bad) from None
        deal = self.match.deal
        why = deal.refusal(act)
        if why is not None:
            raise TableError("illegal", refusal_text("en", why), why)
        d0, e0 = len(self.match.deals) - 1, len(deal.events)
        self.match.apply(act)
        segments = [(d0, e0, len(deal.events))]
        for d in range(d0 + 1, len(self.match.deals)):  # the next deal, dealt by the match
            segments.append((d, 0, len(self.match.deals[d].events)))
        over = self.match.is_over()
        v = self.v + 1
        try:
            await self.store.write(Store.op_event(
                self.id, v, "action", seat, str(act),
                status="finished" if over else None,
                result=self.match.result().to_json() if over else None,
                at=self.timekeeper.time()))
        except Exception as exc:
            if not await self.store.committed(self.id, v):
                # Not stored: nothing is broadcast and the match goes back to the stored
                # version, so the next try (or a restart) continues from there, without a gap.
                log.error("table %s: action %s not stored: %s", self.id, act,
                          self.store.reason(exc))
                self.match = await asyncio.to_thread(self._reload_match)
                if self.seats[seat].bot_plays:  # nobody will send it again: the bot retries
                    self.timekeeper.call_later(_STORAGE_RETRY, self._kick)
                raise TableError("storage", "the action could not be saved; try again") from None
        self.v = v
        if over:
            self.status = "finished"
        u = _Update(v, "action", seat, str(act), tuple(segments), stand_in)
        self.history.append(u)
        self._broadcast_update(u, ref)
        if over:
            for st in self.seats:
                if st.timer:
                    st.timer.cancel()
                    st.timer = None
            self._check_idle()
        self._kick()

    def _reload_match(self) -> Match:
        """The match without its last action, the one that could not be stored: replayed from
        memory (the store may be unreadable too), which held the stored state before it."""
        actions = [a for d in self.match.deals for a in d.actions]
        m = new_match(self.row)
        for a in actions[:-1]:
            m.apply(a)
        return m

    def _broadcast_update(self, u: _Update, ref: str | None) -> None:
        """Send every connection the update with the change of its state since the last one.

        The public part is built and diffed once; a seat's delta adds only its own changed
        private keys (``hand``, ``legal_actions``...), and its own copy of any private key the
        public delta carries (a hidden 20's singer keeps its ``cantes`` and ``known``); a
        spectator's has nothing private at all.
        """
        old = self._public()
        self._pub = None
        pub_delta = state_delta(old, self._public())
        pub_changed = pub_delta.get("deal", {})
        hides = self._hides(u)
        shared = self._events_json(u, None)
        deal = self.match.deal
        # the action is rendered from each audience's events: it hides what they hide
        head = {"type": "update", "v": u.v, "kind": u.kind, "seat": u.seat,
                "action": action_for(u.action, shared)}
        if u.stand_in is not None:  # public, as the seats' away and the turn clock are
            head["stand_in"] = u.stand_in
        if self.spectators:
            text = dumps({**head, "events": shared, "delta": pub_delta})
            for c in self.spectators:
                c.push(text)
        for seat, st in enumerate(self.seats):
            if not st.clients:
                self._priv[seat] = None  # rebuilt when someone connects
                continue
            priv = private_deal_json(deal, seat)
            before = self._priv[seat]
            mine = {k: v for k, v in priv.items()
                    if before is None or before[k] != v or k in pub_changed}
            self._priv[seat] = priv
            delta = pub_delta
            if mine:
                delta = {**pub_delta, "deal": {**pub_delta.get("deal", {}), **mine}}
            if hides:
                evs = self._events_json(u, seat)
                msg = {**head, "action": action_for(u.action, evs), "events": evs,
                       "delta": delta}
            else:
                msg = {**head, "events": shared, "delta": delta}
            text = dumps(msg)
            echo = None
            if ref is not None and seat == u.seat:
                echo = dumps({**msg, "ref": ref})  # lets the acting client match its intent
            for c in st.clients:
                c.push(echo if echo is not None else text)

    def _broadcast_seats(self) -> None:
        text = dumps({"type": "seats", "v": self.v, "status": self.status,
                      "seats": self.seats_json()})
        for c in self._all_clients():
            c.push(text)

    # ------------------------------------------------------------ chat and rematch

    async def _chat(self, client: Client, msg: dict[str, Any]) -> None:
        """A chat line or a quick phrase from a seat: text only, stored beside the game (never
        in its event log: no version, no replay), sent to every connection."""
        seat = client.seat
        if seat is None:
            raise TableError("not_seated", "spectators cannot chat")
        if not self.chat:
            raise TableError("chat_off", "chat is turned off at this table")
        line: dict[str, Any] = {"seat": seat, "name": self.seats[seat].name}
        if "phrase" in msg:
            if msg["phrase"] not in CHAT_PHRASES:
                raise TableError("bad_message", "unknown quick phrase")
            line["phrase"] = msg["phrase"]
        else:
            text = clean_chat(msg.get("text", ""))
            if not text:
                raise TableError("bad_message", "an empty chat message")
            line["text"] = text
        if not self._chat_allowed(self.seats[seat]):
            raise TableError("rate_limited", "too many chat messages; wait a moment")
        line["at"] = round(self.timekeeper.time(), 1)
        try:
            await self.store.write(Store.op_note(self.id, "chat", seat, store_dumps(line),
                                                  at=self.timekeeper.time()))
        except Exception as exc:
            log.error("table %s: chat not stored: %s", self.id, self.store.reason(exc))
            raise TableError("storage", "the message could not be saved; try again") from None
        self.chat_log.append(line)
        text = dumps({"type": "chat", **line})
        for c in self._all_clients():
            c.push(text)

    def _chat_allowed(self, st: Seat) -> bool:
        """A token bucket per seat (shared by its connections): chat_rate lines a second."""
        now = self.timekeeper.monotonic()
        tokens, stamp = st.chat if st.chat[1] else (float(self.config.chat_burst), now)
        tokens = min(float(self.config.chat_burst), tokens + (now - stamp) * self.config.chat_rate)
        if tokens < 1.0:
            st.chat = (tokens, now)
            return False
        st.chat = (tokens - 1.0, now)
        return True

    async def _rematch_for(self, client: Client) -> None:
        """Another match with the same players, seats, bots and rules. The first request
        makes the table; every seat's connections get their own new token (spectators the
        table to watch), now and whenever they ask again."""
        seat = client.seat
        if seat is None or self.seats[seat].kind != "human":
            raise TableError("not_seated", "only the players can ask for a rematch")
        if self.status != "finished":
            raise TableError("not_finished", "a rematch follows a finished match")
        if self._rematch is None or seat not in self._rematch[1]:
            if self._on_rematch is None:
                raise TableError("bad_message", "rematches are not available here")
            table, tokens, made = await self._on_rematch(self, seat)
            known = {} if self._rematch is None else self._rematch[1]
            self._rematch = (table, {**known, **tokens})
            if made:  # every seat learns of it, and the spectators
                for s, st in enumerate(self.seats):
                    for c in st.clients:
                        c.send(self._rematch_json(s))
                for c in self.spectators:
                    c.send(self._rematch_json(None))
                return
        client.send(self._rematch_json(seat))

    async def rekey(self, seat: int) -> str | None:
        """A new token for human ``seat`` (its player asked for this rematch again, from a
        table that had forgotten the first answer); None once the table is over."""
        st = self.seats[seat]
        if st.kind != "human" or self.status not in ("waiting", "playing"):
            return None
        token = new_token()
        await self._change_seats({seat: dataclasses.replace(st, token_hash=hash_token(token))})
        return token

    def _rematch_json(self, seat: int | None) -> dict[str, Any]:
        assert self._rematch is not None
        table, tokens = self._rematch
        out: dict[str, Any] = {"type": "rematch", "id": table.id, "url": f"/t/{table.id}"}
        if seat is not None and seat in tokens:
            out.update(seat=seat, token=tokens[seat])
        return out

    # ------------------------------------------------------------ hints

    def _hint(self, client: Client, ref: str | None) -> None:
        """``{"type": "hint"}``: the search bot's choice for the asking player's seat, from
        that seat's view alone, computed in the bot pool and sent to the asker only. Allowed
        where every other seat is a bot, elsewhere only at tables made with ``hints``."""
        seat = client.seat
        if seat is None or self.seats[seat].kind != "human":
            raise TableError("not_seated", "only the players get hints")
        if not self.hints and any(st.kind != "bot" for i, st in enumerate(self.seats)
                                  if i != seat):
            raise TableError("hints_off", "hints are off at this table: other people play "
                             "here (a table made with hints allows them)")
        if self.status != "playing" or self.match.to_move != seat:
            raise TableError("not_your_turn", "a hint is for your own turn")
        st = self.seats[seat]
        if st.hinting:
            raise TableError("rate_limited", "a hint is already on its way")
        if not self._hint_allowed(st):
            raise TableError("rate_limited", "too many hints; wait a moment")
        view = self.match.deal.view(seat)  # the seat's own view: never another hand
        seed = (self.row.seed * 1_000_003 + seat * 7919 + self.v * 104_729 + 17) % (2**63)
        st.hinting = True
        task = asyncio.get_running_loop().create_task(self._send_hint(client, st, view, seed,
                                                                      self.v, ref))
        self._hint_tasks.add(task)
        task.add_done_callback(self._hint_tasks.discard)

    async def _send_hint(self, client: Client, st: Seat, view: Any, seed: int, v: int,
                         ref: str | None) -> None:
        try:
            hint = await shared_pool().hint(view, seed)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: hint failed", self.id)
            client.send({"type": "error", "code": "hint_failed", "ref": ref,
                         "reason": "no hint could be computed; try again"})
            return
        finally:
            st.hinting = False
        # ``v``: the version it is for (a player who acted meanwhile can tell it is old)
        client.send({"type": "hint", "v": v, "ref": ref, **hint})

    def _hints_possible(self) -> bool:
        """Whether some player here may ask for a hint (see :meth:`_hint`)."""
        return any(st.kind == "human" and (self.hints or all(
            o.kind == "bot" for j, o in enumerate(self.seats) if j != i))
            for i, st in enumerate(self.seats))

    def _warm_hints(self) -> None:
        """A game with hints starts: the bot pool prepares their search in the background
        (once per pool), so the first hint does not wait half a minute for it."""
        if self.config.warm_hints and not self.match.is_over() and self._hints_possible():
            shared_pool().warm()

    def _hint_allowed(self, st: Seat) -> bool:
        """A token bucket per seat: hint_rate hints a second, bursts of hint_burst."""
        now = self.timekeeper.monotonic()
        burst = float(self.config.hint_burst)
        tokens, stamp = st.hint if st.hint[1] else (burst, now)
        tokens = min(burst, tokens + (now - stamp) * self.config.hint_rate)
        if tokens < 1.0:
            st.hint = (tokens, now)
            return False
        st.hint = (tokens - 1.0, now)
        return True

    # ------------------------------------------------------------ seats

    async def join(self, name: str, seat: int | None) -> tuple[int, str]:
        """Take an open seat (the first one if ``seat`` is None); returns (seat, token)."""
        if self.status != "waiting":
            raise TableError("no_open_seat", "this table has no open seat")
        open_seats = [i for i, s in enumerate(self.seats) if s.kind == "open"]
        if seat is None:
            if not open_seats:
                raise TableError("no_open_seat", "this table has no open seat")
            seat = open_seats[0]
        elif seat not in open_seats:
            raise TableError("seat_taken", f"seat {seat} is not open")
        token = new_token()
        new = Seat("human", name, token_hash=hash_token(token))
        self.claimed = True  # someone took a seat
        await self._change_seats({seat: new})
        return seat, token

    async def _fill_bots(self, client: Client, level: str) -> None:
        if client.seat is None or client.seat != self.host:
            raise TableError("not_host", "only the table's host can fill the seats with bots")
        if self.status != "waiting":
            raise TableError("not_waiting", "the game has already started")
        level = level if level in (*LEVELS, "random", "rules") else "medio"
        await self._change_seats({i: Seat("bot", bot_name(i), level)
                                  for i, s in enumerate(self.seats) if s.kind == "open"})

    async def _change_seats(self, changes: dict[int, Seat]) -> None:
        seats = list(self.seats)
        for i, s in changes.items():
            seats[i] = s
        status = "playing" if all(s.kind != "open" for s in seats) else "waiting"
        v = self.v + 1
        try:
            await self.store.write(Store.op_event(
                self.id, v, "seat", None,
                store_dumps({str(i): s.to_store() for i, s in changes.items()}),
                status=status, seats=[s.to_store() for s in seats], at=self.timekeeper.time()))
        except Exception as exc:
            if not await self.store.committed(self.id, v):  # not stored: nothing changes
                log.error("table %s: seat change not stored: %s", self.id,
                          self.store.reason(exc))
                raise TableError("storage", "the seat change could not be saved; try again"
                                 ) from None
        self.seats = seats
        self.v = v
        self.history.append(_Update(v, "seat", None, None, ()))
        started = status == "playing" and self.status == "waiting"
        self.status = status
        self._idle_since = self.timekeeper.time()
        self._check_expiry()
        self._broadcast_seats()
        if started:
            self._warm_hints()
            for i, s in enumerate(self.seats):
                if s.kind == "human" and not s.clients and not s.pending:
                    self._arm_timer(i)
            self._kick()

    # ------------------------------------------------------------ bots

    def _arm_timer(self, seat: int) -> None:
        st = self.seats[seat]
        if st.timer:
            st.timer.cancel()
        st.timer = self.timekeeper.call_later(self.config.bot_timeout,
                                         lambda: self.post(self._take_over, seat))

    async def leave_seat(self, seat: int) -> None:
        """In the actor: the seat's player leaves on purpose (an account's leave): its
        connections go, told why, and its stand-in bot plays from now on, as for a player
        gone for good."""
        st = self.seats[seat]
        for c in list(st.clients):
            c.send({"type": "error", "code": "left", "fatal": True,
                    "reason": "you left this game"})
            c.close("left the game")
        st.clients.clear()
        await self._take_over(seat)

    async def _take_over(self, seat: int) -> None:
        st = self.seats[seat]
        st.timer = None
        if st.kind != "human" or st.clients or self.status != "playing":
            return
        st.away = True
        self._broadcast_seats()
        self._kick()

    def _kick(self) -> None:
        """Start the bot for the seat to move, if a bot plays it; start the turn clock of a
        player to move."""
        if self.status != "playing" or self.match.is_over():
            self._stop_clock()
            return
        seat = self.match.to_move
        if seat is None:
            return
        if self.seats[seat].pending:  # no clock for a rematch not accepted yet
            self._stop_clock()
            return
        if not self.seats[seat].bot_plays:
            self._start_clock(seat)
            return
        self._stop_clock()
        if self._bot_task and not self._bot_task.done():
            return
        deal = self.match.deal
        delay = self.config.bot_delay
        if not deal.trick and (deal.tricks or not deal.actions):
            delay += self.config.trick_pause  # let people see the last trick (or the deal)
        self._bot_task = asyncio.get_running_loop().create_task(
            self._think(seat, self.v, delay))

    def _start_clock(self, seat: int) -> None:
        """The player to move has ``clock`` seconds (after the pause that shows the last
        trick) for this decision; then the bot plays it for them, once."""
        if not self.clock or (self._turn is not None and self._turn[:2] == (seat, self.v)):
            return
        self._stop_clock()
        deal = self.match.deal
        pause = self.config.trick_pause if not deal.trick and deal.tricks else 0.0
        v = self.v
        timer = self.timekeeper.call_later(
            self.clock + pause,
            lambda: self.post(self._clock_out, seat, v))
        self._turn = (seat, v, timer)

    def _stop_clock(self) -> None:
        if self._turn is not None:
            self._turn[2].cancel()
            self._turn = None

    async def _clock_out(self, seat: int, v: int) -> None:
        """The turn clock ran out: the seat's stand-in bot makes this one decision."""
        if self._turn is None or self._turn[:2] != (seat, v):
            return
        self._turn = None
        if v != self.v or self.status != "playing" or self.match.to_move != seat:
            return
        if self._bot_task and not self._bot_task.done():
            return
        log.info("table %s: seat %d ran out of time; its bot plays", self.id, seat)
        self._bot_task = asyncio.get_running_loop().create_task(
            self._think(seat, v, 0.0, forced=True))

    async def _think(self, seat: int, v: int, delay: float, forced: bool = False) -> None:
        if delay > 0:
            await self.timekeeper.sleep(delay)
        bot = self._bot_for(seat)
        view = self.match.deal.view(seat)
        legal = list(view.legal_actions)
        if not legal:
            return
        try:
            if is_heavy(bot):  # a search bot: seconds of CPU, in a worker process
                seed = (self.row.seed * 1_000_003 + seat * 7919 + v * 104_729) % (2**63)
                action: Any = await shared_pool().choose(self.seats[seat].level, seed, view,
                                                         legal)
            else:
                action = await asyncio.to_thread(bot.choose, view, legal)
        except Exception:
            log.exception("table %s: bot for seat %d failed; playing a random card", self.id,
                          seat)
            action = legal[0]
        self.post(self._bot_move, seat, v, str(action), forced)

    async def _bot_move(self, seat: int, v: int, action: str, forced: bool = False) -> None:
        """The bot's action, unless the table moved on meanwhile; ``forced``: made for a
        player whose turn clock ran out."""
        self._bot_task = None
        plays = forced or self.seats[seat].bot_plays
        if v != self.v or not plays or self.match.to_move != seat or (
                self.status != "playing"):
            self._kick()  # the table moved on (the player came back, or acted, or it stopped)
            return
        st = self.seats[seat]
        stand_in = None if st.kind != "human" else "clock" if forced else "away"
        try:
            await self._accept(seat, action, stand_in=stand_in)
        except TableError as exc:
            log.error("table %s: bot action %s refused: %s", self.id, action, exc.reason)

    def _bot_for(self, seat: int) -> Bot:
        deal_index = len(self.match.deals) - 1
        entry = self._bots.get(seat)
        if entry is None:
            seed = (self.row.seed * 1_000_003 + seat * 7919 + 1) % (2**63)
            entry = (make_table_bot(self.seats[seat].level, seed), deal_index)
            self._bots[seat] = entry
        bot, seen = entry
        if seen != deal_index:
            bot.reset()  # the bot protocol: forget the previous deal
            self._bots[seat] = (bot, deal_index)
        return bot


def _seconds_left(clock: Clock, timer: TimerHandle | None) -> float | None:
    """Seconds until a bot takes an absent player's seat (a countdown the others can see),
    or None when no bot is due."""
    if timer is None or timer.cancelled():
        return None
    return round(clock.left(timer), 1)


CHAT_KEPT = 50  # chat lines kept in memory and sent with the welcome
CHAT_MAX = 200  # characters of one chat line
#: the quick phrases a seat may send by id (each page shows them in its own language)
CHAT_PHRASES = frozenset({"hola", "bien", "suerte", "gracias", "uy", "otra", "adios", "espera"})


def clean_chat(text: str) -> str:
    """A chat line as plain text: no control or format characters, spaces collapsed, at most
    ``CHAT_MAX`` characters."""
    text = "".join(c for c in unicodedata.normalize("NFC", text)
                   if c.isspace() or unicodedata.category(c)[0] != "C")
    return " ".join(text.split())[:CHAT_MAX]


_STORAGE_RETRY = 2.0  # seconds before a bot tries again a move that could not be stored


def new_match(row: TableRow) -> Match:
    return Match.new(row.variant, seed=row.seed, options=row.options,
                     first_dealer=row.first_dealer)


def restore_match(row: TableRow, events: list[Any]) -> Match:
    """Rebuild a table's match by replaying its stored actions through the core, checking the
    row against the log: versions 1..n with n the row's version, every action legal, the seats
    and status those of the match. :class:`DamagedTableError` says what does not fit."""
    def damaged(reason: str) -> DamagedTableError:
        return DamagedTableError(row.id, reason)

    try:
        m = new_match(row)
    except Exception:  # TuteError, or whatever odd options make the core raise
        raise damaged("its variant, options, seed or first dealer are not valid") from None
    if [e.version for e in events] != list(range(1, len(events) + 1)):
        raise damaged("its event log has gaps")
    if len(events) != row.version:
        raise damaged(f"it is at version {row.version} but its event log ends at version "
                      f"{len(events)}")
    if len(row.seats) != (n := m.variant.seat_count(m.options)):
        raise damaged(f"it has {len(row.seats)} seats, its game {n}")
    acted = [e for e in events if e.kind == "action"]
    try:  # a table stored before the exchange right was kept for the seat's turn migrates
        m = replay_stored(lambda: new_match(row), [e.data for e in acted])
    except RecordError as exc:
        at = acted[exc.index].version if exc.index is not None else "?"
        raise damaged(f"its event {at} cannot be replayed") from None
    except Exception:
        raise damaged("its event log cannot be replayed") from None
    is_open = any(s["kind"] == "open" for s in row.seats)
    expected = "finished" if m.is_over() else "waiting" if is_open else "playing"
    stopped = {("expired", "waiting"), ("abandoned", "playing")}  # stored stops, not logged
    if row.status != expected and (row.status, expected) not in stopped:
        raise damaged(f"it is stored as {row.status}, its event log says {expected}")
    return m
