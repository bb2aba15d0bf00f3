"""Limits a visitor cannot walk around: caps and rate limits keyed by client address.

Two levels. At the socket (:class:`Gate`, plugged into uvicorn's protocols by
:func:`gated_protocols`): a total connection cap, a per-address cap and connection rate, and
timeouts for a request's line and headers and for an idle keep-alive connection; a refused
connection gets a short JSON answer before anything of it is parsed. In the app (:class:`Guard`
and :class:`Buckets`): HTTP requests, WebSocket messages and invite-code lookups per address,
shared by all of that address's connections, so reconnecting resets nothing.

The address is the socket peer. Behind a reverse proxy every visitor would share the proxy's
address: list the proxy in ``trusted_proxies`` and the address becomes the last hop of
``X-Forwarded-For`` that is not a trusted proxy (a client cannot forge hops the proxy adds).
IPv6 addresses count per /64, the block one host usually holds.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import ipaddress
import json
import time
from collections import deque
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

__all__ = ["Buckets", "Gate", "Guard", "Limits", "address_key", "gated_protocols"]

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Any]]
Send = Callable[[Any], Awaitable[None]]
ADDRESS = "tute.address"  # the scope key where Guard leaves the client's address key


@dataclass(frozen=True)
class Limits:
    """Every limit of the server, with its default (docs/protocol.md, *Limits*)."""

    max_connections: int = 2048  # open connections in all (at most the fd limit - 64)
    per_address: int = 512  # open connections (HTTP and WebSocket) from one address
    connect_rate: float = 20.0  # new connections per second per address, bursts of per_address
    accept_rate: float = 500.0  # new connections taken up per second in all (others wait)
    header_timeout: float = 5.0  # seconds to send a request line and its headers
    idle_timeout: float = 5.0  # seconds a keep-alive connection may wait for its next request
    body_timeout: float = 10.0  # seconds to send a request body
    hello_timeout: float = 10.0  # seconds to send a WebSocket's first message
    http_rate: float = 20.0  # HTTP requests per second per address (beyond: 429)
    http_burst: int = 200
    ws_address_factor: float = 8.0  # an address's sockets together: this many times ws_rate
    code_per_minute: float = 20.0  # invite-code lookups per address (beyond: 429)
    code_burst: int = 10
    spectators: int = 48  # spectator connections per table
    spectators_per_address: int = 8  # spectator connections per table from one address
    # spectators in all and from one address in all: well below max_connections, and the
    # oldest spectator of the busiest address makes room when the server is full
    spectators_total: int = 1024
    spectators_per_address_total: int = 64
    spectator_idle: float = 900.0  # seconds a spectator stays with nothing said or played
    # live tables (waiting or playing) created from one address: far below the server's cap
    tables_per_address: int = 20
    waiting_per_address: int = 5
    unclaimed_ttl: float = 600.0  # seconds a table lasts that no player has come to
    seat_connections: int = 4  # per seat; a newer one replaces the oldest
    trusted_proxies: tuple[str, ...] = ()  # addresses or networks whose X-Forwarded-For counts

    @classmethod
    def parse(cls, text: str) -> Limits:
        """``"per_address=64 trusted_proxies=127.0.0.1,10.0.0.0/8"`` (the ``TUTE_LIMITS``
        form): pairs separated by spaces, list items by commas. Raises ValueError."""
        kinds = {f.name: f.type for f in dataclasses.fields(cls)}
        values: dict[str, Any] = {}
        for pair in text.split():
            name, eq, value = pair.partition("=")
            if not eq or name not in kinds:
                raise ValueError(f"{pair!r}: expected NAME=VALUE with NAME one of "
                                 + ", ".join(kinds))
            kind = str(kinds[name])
            try:
                if kind.startswith("tuple"):
                    values[name] = tuple(v for v in value.split(",") if v)
                    Trusted(values[name])  # a bad address fails here
                else:
                    num = int(value) if kind == "int" else float(value)
                    if num < 0:
                        raise ValueError("negative")
                    values[name] = num
            except ValueError as exc:
                raise ValueError(f"{pair!r}: {exc}") from None
        return cls(**values)


@functools.lru_cache(maxsize=4096)
def address_key(host: str) -> str:
    """The key an address's limits are kept under: the IPv4 address, the IPv6 /64."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]  # not an IP (a unix socket, a test client): itself
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class Trusted:
    """Membership in a list of addresses and networks (the trusted proxies)."""

    def __init__(self, items: tuple[str, ...]):
        self.nets = [ipaddress.ip_network(i, strict=False) for i in items]

    def __bool__(self) -> bool:
        return bool(self.nets)

    def __call__(self, host: str) -> bool:
        if not self.nets:
            return False
        try:
            ip = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(ip in n for n in self.nets)


def client_address(scope: Scope, trusted: Trusted) -> str:
    """The address key of a request: the socket peer, or behind a trusted proxy the last
    ``X-Forwarded-For`` hop that is not itself a trusted proxy."""
    client = scope.get("client")
    host = str(client[0]) if client else ""
    if trusted and trusted(host):
        hops = [h.strip() for k, v in scope.get("headers", []) if k == b"x-forwarded-for"
                for h in v.decode("latin-1").split(",")]
        for hop in reversed(hops):
            if hop and not trusted(hop):
                host = hop
                break
    return address_key(host)


class Buckets:
    """Token buckets keyed by address: ``rate`` tokens per second, at most ``burst`` saved.

    :meth:`take` refuses when the bucket is empty; :meth:`reserve` always takes, going into
    debt, and says how long the caller must wait for its token: a connection that waits that
    long before reading again is slowed to the shared rate, without polling.
    """

    def __init__(self, rate: float, burst: float, max_keys: int = 50_000):
        self.rate = max(rate, 1e-9)
        self.burst = max(float(burst), 1.0)
        self.max_keys = max_keys
        self.state: dict[str, tuple[float, float]] = {}

    def _level(self, key: str, now: float) -> float:
        tokens, stamp = self.state.get(key, (self.burst, now))
        return min(self.burst, tokens + (now - stamp) * self.rate)

    def _store(self, key: str, tokens: float, now: float) -> None:
        if key not in self.state and len(self.state) >= self.max_keys:
            self._prune(now)
        self.state[key] = (tokens, now)

    def _prune(self, now: float) -> None:
        # a refilled bucket is the same as no bucket; if that is not enough, forgetting every
        # bucket only forgives (memory stays bounded whatever the number of addresses)
        full = [k for k in self.state if self._level(k, now) >= self.burst]
        for k in full:
            del self.state[k]
        if len(self.state) >= self.max_keys * 0.9:
            self.state.clear()

    def take(self, key: str) -> bool:
        now = time.monotonic()
        tokens = self._level(key, now)
        if tokens < 1.0:
            self._store(key, tokens, now)
            return False
        self._store(key, tokens - 1.0, now)
        return True

    def reserve(self, key: str) -> float:
        """Take a token now, in debt if need be; the seconds until it was really there."""
        now = time.monotonic()
        tokens = self._level(key, now) - 1.0
        self._store(key, tokens, now)
        return 0.0 if tokens >= 0 else -tokens / self.rate

    def retry_after(self, key: str) -> float:
        return max(0.0, (1.0 - self._level(key, time.monotonic())) / self.rate)


def _json_error(code: str, reason: str) -> bytes:
    return json.dumps({"error": code, "code": code, "reason": reason}).encode()


class Guard:
    """ASGI middleware: the client's address for the app (``scope["tute.address"]``), HTTP
    requests per address (429 ``rate_limited``) and a deadline for request bodies (408)."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]], limits: Limits,
                 charged: Callable[[str, str], bool], max_body: int):
        self.app = app
        self.max_body = max_body  # read ahead at most this much (the app refuses more)
        self.limits = limits
        self.trusted = Trusted(limits.trusted_proxies)
        self.requests = Buckets(limits.http_rate, limits.http_burst)
        self.charged = charged  # (method, path) -> whether the request counts here

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        key = scope[ADDRESS] = client_address(scope, self.trusted)
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        if self.charged(scope["method"], scope["path"]) and not self.requests.take(key):
            wait = max(1, round(self.requests.retry_after(key)))
            await _answer(send, 429, "rate_limited", "too many requests; slow down",
                          [(b"retry-after", str(wait).encode())])
            return
        # Read the body here, against a deadline, and hand it on whole: a client sending it
        # byte by byte would otherwise hold the request open for ever (FastAPI turns any
        # error while it reads a body into a 400, so the deadline cannot be raised inside).
        deadline = time.monotonic() + self.limits.body_timeout
        chunks: list[bytes] = []
        size, more = 0, True
        while more and size <= self.max_body:
            try:
                msg = await asyncio.wait_for(receive(), max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                await _answer(send, 408, "timeout", "the request body came too slowly")
                return
            if msg["type"] != "http.request":
                return  # the client left
            chunks.append(msg.get("body", b""))
            size += len(chunks[-1])
            more = msg.get("more_body", False)
        first: Any = {"type": "http.request", "body": b"".join(chunks), "more_body": more}

        async def replay() -> Any:
            nonlocal first
            if first is None:
                return await receive()  # the rest of an oversized body, or the disconnect
            msg, first = first, None
            return msg

        await self.app(scope, replay, send)


async def _answer(send: Send, status: int, code: str, reason: str,
                  headers: list[tuple[bytes, bytes]] | None = None) -> None:
    body = _json_error(code, reason)
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()), *(headers or [])]})
    await send({"type": "http.response.body", "body": body})


# ---------------------------------------------------------------- the socket level

def _fd_budget() -> int:
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except (ImportError, OSError, ValueError):
        return 1 << 30
    # leave descriptors for the database, the log, the static files being sent
    return max(16, soft - 64) if soft != resource.RLIM_INFINITY else 1 << 30


_PHRASES = {429: "Too Many Requests", 503: "Service Unavailable"}


class Gate:
    """Connection accounting for the socket level: admission and release per transport."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.max_connections = min(limits.max_connections, _fd_budget())
        self.trusted = Trusted(limits.trusted_proxies)
        self.open: dict[object, str] = {}  # transport -> address key
        self.per: dict[str, int] = {}
        self.connects = Buckets(limits.connect_rate, limits.per_address)
        # Taking up a connection (its request, the WebSocket handshake, the hello) costs about
        # a millisecond: a burst of hundreds at once would stall every table for as long.
        # Beyond accept_rate (bursts of 20 ms' worth) new connections wait, unread, in turn.
        self.pace = Buckets(limits.accept_rate, max(1.0, limits.accept_rate / 50))
        self.waiting: deque[Callable[[], None]] = deque()
        self._timer: asyncio.TimerHandle | None = None
        # spectators, registered by the app once their hello is taken: address key -> peer
        # (host, port) -> the call that drops the connection, oldest first
        self.spectators: dict[str, dict[object, Callable[[], None]]] = {}
        self.spectator_of: dict[object, str] = {}  # a spectator's peer -> its address key
        self.peers: dict[object, object] = {}  # transport -> its peer (host, port)
        self.evicting: set[object] = set()  # peers dropped to make room, not yet closed

    def later(self, resume: Callable[[], None]) -> bool:
        """Whether a new connection must wait its turn; if so ``resume`` is called then."""
        if not self.waiting and self.pace.take(""):
            return False
        self.waiting.append(resume)
        self._schedule()
        return True

    def _schedule(self) -> None:
        if self._timer is None and self.waiting:
            self._timer = asyncio.get_running_loop().call_later(
                max(0.002, self.pace.retry_after("")), self._drain)

    def _drain(self) -> None:
        self._timer = None
        while self.waiting and self.pace.take(""):
            self.waiting.popleft()()
        self._schedule()

    def watching(self, peer: object, address: str, drop: Callable[[], None]) -> None:
        """A spectator's connection (``peer``: its (host, port)); ``drop`` closes it."""
        self.spectators.setdefault(address, {})[peer] = drop
        self.spectator_of[peer] = address

    def left(self, peer: object, address: str) -> None:
        """The spectator at ``peer`` is gone (or became something else)."""
        self.spectator_of.pop(peer, None)
        mine = self.spectators.get(address)
        if mine is not None and mine.pop(peer, None) is not None and not mine:
            del self.spectators[address]

    def _make_room(self) -> bool:
        """Drop the oldest spectator of the address with the most: a seated player coming
        back, or any visitor, never finds the server shut by watchers."""
        if not self.spectators:
            return False
        address = max(self.spectators, key=lambda a: len(self.spectators[a]))
        peer, drop = next(iter(self.spectators[address].items()))
        self.left(peer, address)
        self.evicting.add(peer)
        drop()
        return True

    def admit(self, transport: object, host: str,
              peer: object = None) -> tuple[int, str, str] | None:
        """None (admitted and counted), else (status, code, reason) of the refusal."""
        if len(self.open) - len(self.evicting) >= self.max_connections and (
                not self._make_room()):
            return 503, "server_full", "the server has too many connections; try again later"
        key = address_key(host)
        if not self.trusted(host):  # a trusted proxy carries many visitors: the total only
            if self.per.get(key, 0) >= self.limits.per_address:
                return 429, "too_many_connections", "too many connections from your address"
            if not self.connects.take(key):
                return 429, "rate_limited", "too many new connections from your address"
        self.open[transport] = key
        self.per[key] = self.per.get(key, 0) + 1
        if peer is not None:
            self.peers[transport] = peer
        return None

    def release(self, transport: object) -> None:
        peer = self.peers.pop(transport, None)
        if peer is not None:
            self.evicting.discard(peer)
            address = self.spectator_of.get(peer)
            if address is not None:
                self.left(peer, address)
        key = self.open.pop(transport, None)
        if key is not None:
            n = self.per[key] - 1
            if n:
                self.per[key] = n
            else:
                del self.per[key]


def _refuse(transport: asyncio.Transport, status: int, code: str, reason: str) -> None:
    body = _json_error(code, reason)
    head = (f"HTTP/1.1 {status} {_PHRASES[status]}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nretry-after: 1\r\nconnection: close\r\n\r\n")
    transport.write(head.encode() + body)
    # Half-close and keep reading (discarding) until the client closes or a second passes:
    # closing with its request unread would reset the connection, losing our answer.
    if transport.can_write_eof():
        transport.write_eof()
    asyncio.get_running_loop().call_later(1.0, transport.close)


def gated_protocols(gate: Gate) -> tuple[type[asyncio.Protocol], type[asyncio.Protocol]]:
    """uvicorn's HTTP and WebSocket protocol classes with the gate and the timeouts."""
    from uvicorn.protocols.http.auto import AutoHTTPProtocol
    from uvicorn.protocols.utils import get_remote_addr
    from uvicorn.protocols.websockets.auto import AutoWebSocketsProtocol

    header_timeout = gate.limits.header_timeout

    class GatedHTTP(AutoHTTPProtocol):  # type: ignore[misc,valid-type]
        _refused = False
        _upgraded = False
        _head: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:
            peer = get_remote_addr(transport)
            refusal = gate.admit(transport, peer[0] if peer else "",
                                 tuple(peer) if peer else None)
            if refusal is not None:
                self._refused = True
                self.transport = transport
                _refuse(transport, *refusal)
                return
            super().connection_made(transport)
            if gate.later(self._resume):
                transport.pause_reading()
            else:
                self._arm()

        def _resume(self) -> None:
            if not self.transport.is_closing():
                self._arm()  # the time waiting for its turn was ours, not the client's
                # (armed first: uvloop may hand over the waiting request, even upgrade it to
                # a WebSocket, within resume_reading itself)
                self.transport.resume_reading()

        def _arm(self) -> None:
            # uvicorn waits for a request's headers for ever (its keep-alive timer stops at
            # the first byte): close a connection that has not sent a whole head in time
            if self._head is not None:
                self._head.cancel()
            self._head = self.loop.call_later(header_timeout, self._expire, self.cycle)

        def _expire(self, cycle: Any) -> None:
            self._head = None
            idle = cycle is None or cycle.response_complete
            if self._upgraded:  # the transport is the WebSocket's now
                return
            if self.cycle is cycle and idle and not self.transport.is_closing():
                self.transport.close()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()  # the next request's head has header_timeout too

        def handle_websocket_upgrade(self, *args: Any) -> None:
            self._upgraded = True
            if self._head is not None:
                self._head.cancel()
                self._head = None
            super().handle_websocket_upgrade(*args)

        def data_received(self, data: bytes) -> None:
            if not self._refused:  # a refused connection's request is read and dropped
                super().data_received(data)

        def eof_received(self) -> None:
            if not self._refused:
                super().eof_received()

        def connection_lost(self, exc: Exception | None) -> None:
            gate.release(self.transport)
            if self._head is not None:
                self._head.cancel()
            if not self._refused:
                super().connection_lost(exc)

    class GatedWebSocket(AutoWebSocketsProtocol):  # type: ignore[misc,valid-type]
        # an upgraded connection keeps the slot its HTTP request took
        def connection_lost(self, exc: Exception | None) -> None:
            gate.release(self.transport)
            super().connection_lost(exc)

    return GatedHTTP, GatedWebSocket
