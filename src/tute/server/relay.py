"""The relay between the processes of a site, over Redis pub/sub.

Each process subscribes to its own inbox channel (``tute:node:<id>``). A player's socket may
land on any process (the *edge*); the table lives in one (its *owner*, the lease holder). The
edge sends the owner the connection's ``hello``, its intents and its end; the owner's table
treats the connection as one of its own through a :class:`RemoteClient`, whose ``push`` sends
the exact text built for that connection's audience back to the edge, which writes it to the
socket. So nothing a seat may not see ever reaches another seat's socket, and the table's
logic is the same whether its players are local or not.

A message is one header line (JSON: ``op``, ``conn``, ``rid``...) and, for intents and
pushes, the payload after the newline (the protocol's own JSON text, forwarded untouched).

Whatever gets lost is never papered over: a message that reached no subscriber (``PUBLISH``
answers 0: the other process is gone), a Redis connection lost (Redis restarted), a request
unanswered, all close the connections concerned, and the page reconnects and resyncs with
``since`` (docs/protocol.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from .protocol import dumps
from .table import Client, Table, TableConfig, TableError

if TYPE_CHECKING:
    from redis.asyncio import Redis

__all__ = ["Moved", "Relay", "RemoteClient", "RemoteTable"]

log = logging.getLogger("tute.server")

REQUEST_TIMEOUT = 3.0  # seconds an owner has to answer a request
_POSTED: set[asyncio.Task[Any]] = set()


class Moved(TableError):
    """The table's owner did not answer, or no longer holds it: the socket is closed without
    a fatal error, so the page connects again (and finds the table where it is now)."""

    def __init__(self, reason: str = "the table is moving to another server; reconnecting"):
        super().__init__("moved", reason, retry_after=1)


def _inbox(node: str) -> str:
    return f"tute:node:{node}"


class Relay:
    """One process's end: its inbox, the relayed connections at this edge, and the remote
    clients of its own tables."""

    def __init__(self, url: str, config: TableConfig,
                 local: Callable[[str], Table | None]):
        self.url = url
        self.node = secrets.token_hex(8)
        self.inbox = _inbox(self.node)
        self.config = config
        self.local = local  # the table this process owns, by id (None: not ours)
        self._redis: Redis | None = None
        self._out: asyncio.Queue[tuple[str, bytes, Callable[[], None] | None]] = \
            asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._ids = itertools.count(1)
        self._requests: dict[int, asyncio.Future[dict[str, Any]]] = {}
        # at this edge: connection id -> (the socket's client, the stand-in of its table)
        self.edges: dict[int, tuple[Client, RemoteTable]] = {}
        # at this owner: (edge node, connection id) -> the remote client at a table of ours
        self.remotes: dict[tuple[str, int], RemoteClient] = {}
        self.up = asyncio.Event()  # subscribed now
        self.resets = 0  # times the Redis connection was lost (and every relay closed)

    async def start(self) -> None:
        from redis.asyncio import Redis

        self._redis = Redis.from_url(self.url, socket_connect_timeout=2.0,
                                     socket_keepalive=True)
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen(), name="relay-listen"),
                       loop.create_task(self._publish(), name="relay-publish")]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.up.wait(), timeout=5.0)
        if not self.up.is_set():
            log.warning("redis %s: not reachable yet; relaying once it is", self.url)

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._redis is not None:
            with contextlib.suppress(Exception):
                await self._redis.aclose()

    # ------------------------------------------------------------ Redis

    async def _listen(self) -> None:
        delay = 0.1
        first = True
        while True:
            assert self._redis is not None
            pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.inbox)
                if not first:
                    log.warning("redis: subscribed again")
                first = False
                self.up.set()
                delay = 0.1
                while True:
                    msg = await pubsub.get_message(timeout=1.0)
                    if msg is not None and msg.get("type") == "message":
                        self._dispatch(msg["data"])
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self.up.is_set():
                    log.warning("redis: connection lost (%s); relayed sockets closed", exc)
                self.up.clear()
                self.reset()
                await asyncio.sleep(delay)
                delay = min(2.0, delay * 2)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()

    async def _publish(self) -> None:
        """Send what is queued, in order, many messages a round trip."""
        while True:
            batch = [await self._out.get()]
            while len(batch) < 500 and not self._out.empty():
                batch.append(self._out.get_nowait())
            try:
                assert self._redis is not None
                async with self._redis.pipeline(transaction=False) as pipe:
                    for channel, data, _ in batch:
                        pipe.publish(channel, data)
                    counts = await pipe.execute()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # lost: whatever it carried, the relays resync
                log.warning("redis: publish failed (%s); relayed sockets closed", exc)
                self.reset()
                continue
            for (_, _, missed), n in zip(batch, counts, strict=True):
                if not n and missed is not None:
                    missed()

    def send(self, node: str, head: dict[str, Any], payload: str = "",
             missed: Callable[[], None] | None = None) -> None:
        """Queue a message for ``node``'s inbox; ``missed`` runs if nobody received it."""
        data = (json.dumps(head, separators=(",", ":")) + "\n" + payload).encode()
        self._out.put_nowait((_inbox(node), data, missed))

    def reset(self) -> None:
        """The Redis link was lost: messages may be lost both ways, so every relayed
        connection ends (pages reconnect and resync) and pending requests fail."""
        self.resets += 1
        for client, _ in list(self.edges.values()):
            client.close("relay lost; reconnect")
        self.edges.clear()
        for rc in list(self.remotes.values()):
            self._end_remote(rc)
        for fut in self._requests.values():
            if not fut.done():
                fut.set_exception(Moved())
        self._requests.clear()

    async def alive(self, nodes: list[str]) -> set[str]:
        """The nodes among ``nodes`` whose inbox has a subscriber."""
        if not nodes or self._redis is None:
            return set(nodes)
        counts = await self._redis.pubsub_numsub(*[_inbox(n) for n in nodes])
        return {n for n, (_, c) in zip(nodes, counts, strict=True) if c}

    # ------------------------------------------------------------ requests

    async def request(self, node: str, head: dict[str, Any]) -> dict[str, Any]:
        """Send a request to ``node`` and wait for its reply; :class:`Moved` when it cannot
        be delivered or is not answered in time."""
        if not self.up.is_set():
            raise Moved("the servers cannot reach each other right now; reconnecting")
        rid = next(self._ids)
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._requests[rid] = fut

        def missed() -> None:
            if not fut.done():
                fut.set_exception(Moved())

        self.send(node, {**head, "rid": rid, "from": self.node}, missed=missed)
        try:
            reply = await asyncio.wait_for(fut, timeout=REQUEST_TIMEOUT)
        except TimeoutError:
            raise Moved() from None
        finally:
            self._requests.pop(rid, None)
        if reply.get("moved"):
            raise Moved()
        if "error" in reply:
            raise TableError(str(reply["error"]), str(reply.get("reason", "")))
        return reply

    def _reply(self, to: str, rid: int, body: dict[str, Any]) -> None:
        self.send(to, {"op": "reply", "rid": rid, **body})

    # ------------------------------------------------------------ dispatch

    def _dispatch(self, data: bytes) -> None:
        try:
            raw_head, _, payload = data.decode().partition("\n")
            head = json.loads(raw_head)
            op = head["op"]
        except (ValueError, KeyError, TypeError):
            log.error("relay: unreadable message dropped")
            return
        try:
            if op == "push":
                entry = self.edges.get(head["conn"])
                if entry is not None:
                    entry[1].v += 1  # something happened: a spectator is not idle
                    entry[0].push(payload)
            elif op == "close":
                entry = self.edges.pop(head["conn"], None)
                if entry is not None:
                    entry[0].close(str(head.get("reason", "")))
            elif op == "reply":
                fut = self._requests.get(head["rid"])
                if fut is not None and not fut.done():
                    fut.set_result(head)
            elif op == "intent":
                self._on_intent(head, payload)
            elif op == "bye":
                rc = self.remotes.get((head["from"], head["conn"]))
                if rc is not None:
                    self._end_remote(rc, notify=False)
            else:
                task = asyncio.get_running_loop().create_task(self._on_request(head))
                _POSTED.add(task)
                task.add_done_callback(_POSTED.discard)
        except Exception:
            log.exception("relay: message %s failed", op)

    def _on_intent(self, head: dict[str, Any], payload: str) -> None:
        rc = self.remotes.get((head["from"], head["conn"]))
        if rc is None or rc.closed:  # this process no longer has it: the edge reconnects
            self.send(head["from"], {"op": "close", "conn": head["conn"],
                                     "reason": "the table moved; reconnect"})
            return
        assert rc.table is not None
        try:
            msg = json.loads(payload)
        except ValueError:
            return
        rc.table.post(rc.table.intent, rc, msg)  # in order: the table's inbox is a queue

    async def _on_request(self, head: dict[str, Any]) -> None:
        sender, rid, op = head["from"], head["rid"], head["op"]
        table = self.local(str(head.get("table")))
        if table is None:
            self._reply(sender, rid, {"moved": True})
            return
        try:
            if op == "hello":
                body = await self._hello(table, head)
            elif op == "info":
                body = {"info": table.info()}
            elif op == "join":
                seat, token = await table.call(table.join, str(head["name"]), head["seat"])
                body = {"seat": seat, "token": token}
            elif op == "rekey":
                body = {"token": await table.call(table.rekey, int(head["seat"]))}
            elif op == "leave":
                await table.call(table.leave_seat, int(head["seat"]))
                body = {"left": True}
            else:
                body = {"error": "bad_message", "reason": f"unknown request {op!r}"}
        except TableError as exc:
            body = {"error": exc.code, "reason": exc.reason}
        self._reply(sender, rid, body)

    async def _hello(self, table: Table, head: dict[str, Any]) -> dict[str, Any]:
        key = (str(head["from"]), int(head["conn"]))
        rc = RemoteClient(self, key[0], key[1], self.config, str(head.get("address", "")))
        self.remotes[key] = rc
        try:
            await table.call(table.connect, rc, head["hello"])
        except BaseException:
            self.remotes.pop(key, None)
            raise
        if rc.closed:  # ended while connecting
            return {"moved": True}
        return {"seat": rc.seat}

    def _end_remote(self, rc: RemoteClient, notify: bool = True) -> None:
        """The connection of an edge ended (or can no longer be relayed)."""
        self.remotes.pop((rc.edge, rc.conn), None)
        table = rc.table
        if notify:
            rc.close("relay lost; reconnect")
        else:
            rc.closed = True
        if table is not None:
            table.post(table.disconnect, rc)

    # ------------------------------------------------------------ edge connections

    def open(self, client: Client, table: RemoteTable) -> int:
        conn = next(self._ids)
        self.edges[conn] = (client, table)
        return conn

    def end(self, conn: int, owner: str) -> None:
        if self.edges.pop(conn, None) is not None:
            self.send(owner, {"op": "bye", "conn": conn, "from": self.node})


class RemoteClient(Client):
    """At the owner: a connection whose socket is at another process. What the table pushes
    to it is sent there as it is."""

    def __init__(self, relay: Relay, edge: str, conn: int, config: TableConfig,
                 address: str):
        super().__init__(1, config.rate, config.burst, address=address, clock=config.clock)
        self.relay = relay
        self.edge = edge
        self.conn = conn

    def _gone(self) -> None:  # the edge's process is gone: the table forgets the connection
        if not self.closed:
            self.relay._end_remote(self, notify=False)

    def push(self, text: str) -> None:
        if not self.closed:
            self.relay.send(self.edge, {"op": "push", "conn": self.conn}, text, self._gone)

    def close(self, reason: str = "") -> None:
        if not self.closed:
            self.closed = True
            self.close_reason = reason
            self.relay.remotes.pop((self.edge, self.conn), None)
            self.relay.send(self.edge, {"op": "close", "conn": self.conn, "reason": reason})

    def drop(self, reason: str, msg: dict[str, Any] | None = None) -> None:
        if self.closed:
            return
        if msg is not None:
            self.push(dumps(msg))
        self.close(reason)
        self.dropped = True


class RemoteTable(Table):
    """At an edge: the stand-in of a table another process owns, with the part of
    :class:`Table`'s interface the web layer uses (connect, intent, disconnect, join, info,
    status, leave_seat).
    One per request or socket, made from the lease just read: nothing of the table is kept
    here beyond it."""

    def __init__(self, relay: Relay, table_id: str, owner: str, epoch: int):
        # deliberately not Table.__init__: there is no match here, only the way to its owner
        self.id = table_id
        self.relay = relay
        self.owner = owner
        self.epoch = epoch
        self.v = 0  # messages relayed to this socket (a spectator's idle check reads it)
        self._info: dict[str, Any] = {}
        self._conn: int | None = None
        self.code = ""

    async def fetch(self) -> None:
        reply = await self.relay.request(self.owner, {"op": "info", "table": self.id})
        self._info = dict(reply["info"])
        self.code = str(self._info.get("code", ""))
        self.status = str(self._info.get("status", ""))

    def info(self) -> dict[str, Any]:
        return self._info

    async def call(self, fn: Callable[..., Awaitable[Any]], *args: Any) -> Any:
        return await fn(*args)

    def post(self, fn: Callable[..., Awaitable[Any]], *args: Any) -> None:
        task = asyncio.get_running_loop().create_task(self.call(fn, *args))
        _POSTED.add(task)  # held until done (the loop keeps only weak references)
        task.add_done_callback(_POSTED.discard)

    async def connect(self, client: Client, hello: dict[str, Any]) -> None:
        self._conn = conn = self.relay.open(client, self)
        try:
            reply = await self.relay.request(self.owner, {
                "op": "hello", "table": self.id, "conn": conn, "hello": hello,
                "address": client.address})
        except BaseException:
            self.relay.end(conn, self.owner)
            raise
        client.seat = reply.get("seat")

    async def intent(self, client: Client, msg: dict[str, Any]) -> None:
        conn = self._conn
        if conn is None or conn not in self.relay.edges:
            client.close("relay lost; reconnect")
            return

        def missed() -> None:  # the owner is gone: the page reconnects
            entry = self.relay.edges.pop(conn, None)
            if entry is not None:
                entry[0].close("the table's server is gone; reconnect")

        self.relay.send(self.owner, {"op": "intent", "conn": conn, "from": self.relay.node},
                        dumps(msg), missed)

    async def disconnect(self, client: Client) -> None:
        if self._conn is not None:
            self.relay.end(self._conn, self.owner)

    async def join(self, name: str, seat: int | None) -> tuple[int, str]:
        reply = await self.relay.request(self.owner, {"op": "join", "table": self.id,
                                                      "name": name, "seat": seat})
        return int(reply["seat"]), str(reply["token"])

    async def rekey(self, seat: int) -> str | None:
        reply = await self.relay.request(self.owner, {"op": "rekey", "table": self.id,
                                                      "seat": seat})
        token = reply.get("token")
        return None if token is None else str(token)

    async def leave_seat(self, seat: int) -> None:
        await self.relay.request(self.owner, {"op": "leave", "table": self.id, "seat": seat})

    async def stop(self) -> None:
        return None
