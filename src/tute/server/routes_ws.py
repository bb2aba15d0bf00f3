"""The table's WebSocket (docs/protocol.md): the hello and its admission, then every message
to the table, under the address's message rate, with spectators counted and let go when idle
or when the server needs their room."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from .clock import Clock, TimerHandle
from .protocol import ProtocolError, parse_client_message
from .shared import ServerState, address, hub_of, server_of, storage_failure
from .table import Client, Table, TableError

__all__ = ["router"]

log = logging.getLogger("tute.server")

router = APIRouter()


@router.websocket("/ws/{table_id}")
async def ws(websocket: WebSocket, table_id: str) -> None:
    await websocket.accept()
    server = server_of(websocket)
    config = server.config
    addr = address(websocket)
    client = Client(config.client_queue, config.rate, config.burst, address=addr,
                    clock=config.clock)
    handler = asyncio.current_task()
    if handler is not None:
        def stop() -> None:
            handler.cancel()
        client.on_drop = stop
    peer = websocket.scope.get("client")
    peer = tuple(peer) if peer else None
    pump = asyncio.create_task(_pump(websocket, client))
    table: Table | None = None
    watching = False
    idle: list[TimerHandle] = []
    try:
        table = await _admit(websocket, table_id, client, server)
        if table is None:
            return
        if client.seat is None:
            watching = True
            server.watchers[addr] = server.watchers.get(addr, 0) + 1
            if server.gate is not None and peer is not None:
                server.gate.watching(peer, addr, lambda: client.drop("server full", {
                    "type": "error", "code": "server_full", "fatal": True,
                    "reason": "the server is full: spectators make room for players"}))
            idle = _idle_watch(client, table, config.clock, server.limits.spectator_idle)
        await _read_on(websocket, client, table, server)
    except (TimeoutError, WebSocketDisconnect, _Gone):
        pass
    except asyncio.CancelledError:
        if not client.dropped or handler is None:
            raise
        handler.uncancel()  # dropped (too slow, or making room): ended here
    except Exception:
        log.exception("websocket failure")  # never sent to the client
    finally:
        for timer in idle:
            timer.cancel()
        if watching:
            server.watchers[addr] -= 1
            if not server.watchers[addr]:
                del server.watchers[addr]
            if server.gate is not None and peer is not None:
                server.gate.left(peer, addr)
        if table is not None:
            table.post(table.disconnect, client)
        client.close()
        with contextlib.suppress(asyncio.TimeoutError, Exception):
            await asyncio.wait_for(pump, timeout=2)


async def _admit(websocket: WebSocket, table_id: str, client: Client,
                 server: ServerState) -> Table | None:
    """Read the hello and connect the client to its table; None (the client told why, and
    closed) when it may not."""
    first = await asyncio.wait_for(_receive(websocket), timeout=server.limits.hello_timeout)
    # The address's messages, hellos included, share one bucket: beyond it the connection
    # waits before reading on (the socket stops being read), so neither reconnecting nor many
    # connections buy more than the address's rate.
    wait = server.messages.reserve(client.address)
    if wait:
        await asyncio.sleep(wait)
    try:
        hello = parse_client_message(first)
        if hello["type"] != "hello":
            raise ProtocolError("the first message must be 'hello'", "hello_expected")
    except ProtocolError as exc:
        _fatal(client, exc.code, exc.reason)
        return None
    if len(table_id) > 32:
        _fatal(client, "not_found", "no such table")
        return None
    try:
        table = await hub_of(websocket).get(table_id)
    except TableError as exc:  # a damaged table (its reason), storage unreachable
        _refuse(client, exc)
        return None
    except Exception as exc:  # the storage failed reading it: said, never silent
        _fatal(client, *storage_failure(exc))
        return None
    if table is None:
        _fatal(client, "not_found", "no such table")
        return None
    if not hello.get("token") and (full := server.watchers_full(client.address)):
        _fatal(client, "too_many_spectators", full)  # a spectator: no token
        return None
    try:
        await table.call(table.connect, client, hello)
    except TableError as exc:
        _refuse(client, exc)
        return None
    return table


async def _read_on(websocket: WebSocket, client: Client, table: Table,
                   server: ServerState) -> None:
    """Hand the table every message after the hello, under the client's and its address's
    rates, until the client closes."""
    strikes = 0
    throttled = False
    while not client.closed:
        raw = await _receive(websocket)
        client.heard += 1
        if not client.allow():
            strikes += 1
            client.send({"type": "error", "code": "rate_limited",
                         "reason": "too many messages; slow down"})
            if strikes > 100:
                client.close("rate limit")
            continue
        wait = server.messages.reserve(client.address)
        if wait:
            if not throttled:  # once per slow spell, not per message
                client.send({"type": "error", "code": "rate_limited",
                             "reason": "too many messages from your address; slow down"})
            throttled = True
            await asyncio.sleep(wait)
        else:
            throttled = False
        try:
            msg = parse_client_message(raw)
            if msg["type"] == "hello":
                raise ProtocolError("already greeted", "already_greeted")
        except ProtocolError as exc:
            client.send({"type": "error", "code": exc.code, "reason": exc.reason})
            continue
        await table.call(table.intent, client, msg)


class _Gone(Exception):
    pass


async def _receive(ws: WebSocket) -> str | bytes:
    msg = await ws.receive()
    if msg["type"] == "websocket.disconnect":
        raise _Gone
    text = msg.get("text")
    if text is not None:
        return str(text).encode()  # the size limit counts bytes, not characters
    data: bytes = msg.get("bytes") or b""
    return data


def _idle_watch(client: Client, table: Table, clock: Clock,
                seconds: float) -> list[TimerHandle]:
    """Let a spectator go once ``seconds`` pass with nothing played at its table and nothing
    said by it (a socket left open in a forgotten tab holds a slot of the server's). The
    list holds the pending check, for the caller to cancel."""
    pending: list[TimerHandle] = []
    mark = (table.v, client.heard)

    def check() -> None:
        nonlocal mark
        now = (table.v, client.heard)
        if now == mark:
            client.drop("idle", {"type": "error", "code": "idle", "fatal": True,
                                 "reason": "nothing happened at this table for long"})
            return
        mark = now
        pending[:] = [clock.call_later(seconds, check)]

    if seconds > 0:
        pending.append(clock.call_later(seconds, check))
    return pending


def _refuse(client: Client, exc: TableError) -> None:
    """A refused hello: fatal, but for a table moving between the processes of a site (the
    socket closes and the page connects again)."""
    if exc.code == "moved":
        client.close(exc.reason)
    else:
        _fatal(client, exc.code, exc.reason)


def _fatal(client: Client, code: str, reason: str) -> None:
    client.send({"type": "error", "code": code, "reason": reason, "fatal": True})
    client.close(reason)


async def _pump(ws: WebSocket, client: Client) -> None:
    """Drain the client's outbound queue into the socket; close it when the queue ends."""
    try:
        while True:
            text = await client.outbox.get()
            if text is None:
                break
            await ws.send_text(text)
        with contextlib.suppress(Exception):
            await ws.close(code=1000 if not client.close_reason else 4000,
                           reason=client.close_reason[:100])
    except Exception:
        client.closed = True
