"""The web shell: FastAPI routes and the WebSocket endpoint around the framework-free hub.

All game logic lives in :mod:`tute.server.table` and :mod:`tute.server.hub`; this module only
translates HTTP/WebSocket traffic into calls on them (see docs/protocol.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import random
import unicodedata
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..i18n import LANGS, catalogue
from ..tutorials import LessonRefusal
from .analyses import SearchBudget
from .botpool import close_shared_pool
from .clock import Clock, TimerHandle
from .hub import LEVELS, Hub, variants_json
from .limits import ADDRESS, Buckets, Gate, Guard, Limits
from .protocol import PROTOCOL, ProtocolError, parse_client_message
from .store import DamagedTableError, StorageError, Store
from .store import database_url as parse_database_url
from .table import Client, Table, TableConfig, TableError
from .tutorials import catalogue_json, find, lesson_json, step_json

__all__ = ["create_app"]

log = logging.getLogger("tute.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
MAX_BODY = 16 * 1024

_STATUS = {"not_found": 404, "not_finished": 409, "no_open_seat": 409, "seat_taken": 409,
           "busy": 503, "rate_limited": 429, "storage": 503, "unavailable": 409,
           "too_many_tables": 429, "moved": 503}


def _clean_name(name: str) -> str:
    name = "".join(c for c in unicodedata.normalize("NFC", name)
                   if unicodedata.category(c)[0] != "C").strip()
    return name[:24] or "Anónimo"


Name = Annotated[str, Field(max_length=40)]
# The turn clock: seconds a player has for each decision before the table's bot plays it
# (0: no clock). Below 10 s nobody can read the table; above 10 minutes it is no clock.
TurnClock = Annotated[int, Field(ge=0, le=600)]


class _Body(BaseModel):
    # strict: JSON names each value in its type ("true" is no boolean, "30" no number)
    model_config = ConfigDict(extra="forbid", strict=True)


class PlayBody(_Body):
    variant: Annotated[str, Field(max_length=40)] = "tute_parejas"
    level: Annotated[str, Field(max_length=16)] = "medio"
    name: Name = ""
    options: dict[str, Any] = Field(default_factory=dict, max_length=40)
    public: bool = False  # a quick game is private (not in the history) unless asked
    chat: bool = True
    hints: bool = False  # against bots hints are always allowed; this stores the setting
    clock: TurnClock = 0


class CreateBody(_Body):
    variant: Annotated[str, Field(max_length=40)] = "tute_parejas"
    options: dict[str, Any] = Field(default_factory=dict, max_length=40)
    seats: list[Annotated[str, Field(max_length=16)]] = Field(min_length=2, max_length=6)
    name: Name = ""
    public: bool = False
    chat: bool = True
    hints: bool = False  # hints also where other people play (against bots: always)
    clock: TurnClock = 0


def _clock(seconds: int) -> int:
    if 0 < seconds < 10:
        raise TableError("bad_table", f"clock must be 0 (no clock) or 10 to 600 seconds, not "
                         f"{seconds}")
    return seconds


class StepBody(_Body):
    taken: list[Annotated[str, Field(max_length=24)]] = Field(default_factory=list, max_length=16)


class JoinBody(_Body):
    name: Name = ""
    seat: Annotated[int, Field(ge=0, le=5)] | None = None


class _BodyLimit:
    """Refuse request bodies above ``MAX_BODY`` bytes, declared or streamed."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: MutableMapping[str, Any], receive: Callable[[], Awaitable[Any]],
                       send: Callable[[Any], Awaitable[None]]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for k, v in scope.get("headers", []):
            if k == b"content-length" and (not v.isdigit() or int(v) > MAX_BODY):
                await _too_large(send)
                return
        seen = 0
        over = answered = False

        async def limited() -> Any:
            nonlocal seen, over
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > MAX_BODY:
                    over = True
                    raise _TooLarge
            return msg

        async def answer(msg: Any) -> None:
            # a body streamed past the limit (chunked: no length declared) is a 413 whatever
            # the app made of the interrupted read (FastAPI answers 400 to a failed parse)
            nonlocal answered
            if over:
                if not answered:
                    answered = True
                    await _too_large(send)
                return
            answered = True
            await send(msg)

        try:
            await self.app(scope, limited, answer)
        except _TooLarge:
            if not answered:
                await _too_large(send)


class _TooLarge(Exception):
    pass


async def _too_large(send: Callable[[Any], Awaitable[None]]) -> None:
    body = b'{"error":"too_large","reason":"request body too large"}'
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def _error(code: str, reason: str, status: int | None = None) -> JSONResponse:
    return JSONResponse({"error": code, "reason": reason},
                        status_code=status or _STATUS.get(code, 400))


def create_app(data_dir: str | Path = "data", database_url: str | None = None,
               bot_timeout: float = 60.0, bot_delay: float = 0.8, trick_pause: float = 1.2,
               max_tables: int = 1000, create_per_minute: float = 30.0,
               ws_rate: float = 8.0, ws_burst: int = 24,
               waiting_ttl: float = 24 * 3600.0, limits: Limits | None = None,
               abandon_after: float = 30 * 60.0,
               analysis_budget: SearchBudget | None = None,
               clock: Clock | None = None, seeds: random.Random | None = None,
               gate: Gate | None = None, redis_url: str | None = None) -> FastAPI:
    """The tute web app. Storage: ``database_url``, else env ``TUTE_DATABASE_URL``, else a
    SQLite file in ``data_dir``. ``bot_timeout``: seconds before a bot plays for an absent
    player; ``bot_delay``/``trick_pause``: how long bots wait so people can follow;
    ``waiting_ttl``: seconds before a table with open seats and nobody connected expires
    (0: never); ``limits``: the caps and rate limits per address (:class:`Limits`, whose
    socket-level part :func:`tute.server.run` applies); ``analysis_budget``: the budget of the
    search measure of finished games' analyses (:class:`SearchBudget`); ``clock``: the time
    of every table timer (:class:`~tute.server.clock.Clock`; tests pass a ManualClock);
    ``seeds``: where new tables' deals come from (tests pass a seeded Random); ``gate``:
    the socket level's connection accounting (:func:`tute.server.run`), told which
    connections are spectators so that they make room when the server is full; ``redis_url``
    (else env ``TUTE_REDIS_URL``): one process of a site of several sharing a PostgreSQL
    database and a Redis (docs/cluster.md). A bad URL or a missing driver raises
    :class:`~tute.server.store.StorageError` here, before anything is served."""
    limits = limits or Limits()
    url = database_url or os.environ.get("TUTE_DATABASE_URL")
    if not url:
        Path(data_dir).mkdir(parents=True, exist_ok=True)
        url = f"sqlite:///{Path(data_dir).resolve() / 'tute.sqlite3'}"
    parse_database_url(url)  # a bad URL or a missing driver fails now, not when serving
    redis_url = redis_url or os.environ.get("TUTE_REDIS_URL") or None
    if redis_url:
        from .cluster import check_site

        check_site(url, redis_url)
    config = TableConfig(bot_timeout=bot_timeout, bot_delay=bot_delay, trick_pause=trick_pause,
                         rate=ws_rate, burst=ws_burst, waiting_ttl=waiting_ttl,
                         abandon_after=abandon_after,  # a started table with its humans gone
                         max_spectators=limits.spectators,
                         spectators_per_address=limits.spectators_per_address,
                         seat_clients=limits.seat_connections,
                         unclaimed_ttl=limits.unclaimed_ttl,
                         clock=clock or Clock())
    # per address, shared by its connections: reconnecting starts no new bucket
    creates = Buckets(create_per_minute / 60.0, max(5, int(create_per_minute)))
    lookups = Buckets(limits.code_per_minute / 60.0, limits.code_burst)
    messages = Buckets(ws_rate * limits.ws_address_factor, ws_burst * limits.ws_address_factor)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(url)
        log.info("database: %s", store.url)
        store.start()
        hub_options: dict[str, Any] = dict(
            max_tables=max_tables, seeds=seeds, tables_per_address=limits.tables_per_address,
            waiting_per_address=limits.waiting_per_address)
        if redis_url:  # one of several processes: tables leased, sockets relayed
            from .cluster import ClusterHub

            hub: Hub = ClusterHub(store, config, redis_url, **hub_options)
        else:
            hub = Hub(store, config, **hub_options)
        app.state.hub = hub
        hub.analyses.directory = Path(data_dir) / "analysis"  # analyses of finished games
        hub.analyses.budget = analysis_budget or SearchBudget()
        restored = await hub.restore_all()
        if restored:
            log.info("restored %d unfinished tables", restored)
        # Everything loaded so far (the libraries, restored tables) lives as long as the
        # process: keep it out of the collector's full passes, which otherwise stall the loop
        # for 100+ ms under load (the p99 of the load benchmark).
        gc.collect()
        gc.freeze()
        # Tables made later are young objects: with the default thresholds the collector runs
        # every 700 allocations (an update makes hundreds of dicts, all freed at once) and its
        # older passes walk every live table. Rarer passes cost less in all.
        gc.set_threshold(50_000, 20, 100)
        try:
            yield
        finally:
            await hub.shutdown()
            store.close()
            close_shared_pool()

    app = FastAPI(title="tute", lifespan=lifespan, docs_url=None, redoc_url=None,
                  openapi_url=None)
    app.state.database_url = url  # for run(): it opens the database once before serving
    app.add_middleware(_BodyLimit)
    app.state.limits = limits
    app.add_middleware(Guard, limits=limits, charged=_charged, max_body=MAX_BODY)

    def hub_of(request: Request | WebSocket) -> Hub:
        hub: Hub = request.app.state.hub
        return hub

    @app.middleware("http")
    async def headers(request: Request, call_next: Callable[[Request], Awaitable[Response]]
                      ) -> Response:
        resp = await call_next(request)
        resp.headers["X-Content-Type-Options"] = "nosniff"
        resp.headers["Referrer-Policy"] = "same-origin"
        resp.headers["Content-Security-Policy"] = (
            "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
            "connect-src 'self' ws: wss:; frame-ancestors 'none'")
        return resp

    @app.exception_handler(RequestValidationError)
    async def bad_request(_: Request, exc: RequestValidationError) -> JSONResponse:
        errs = exc.errors()
        where = ".".join(str(x) for x in errs[0]["loc"]) if errs else "body"
        msg = errs[0]["msg"] if errs else "invalid request"
        return _error("bad_request", f"{where}: {msg}"[:200], 422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        return _error("http", str(exc.detail)[:200], exc.status_code)

    @app.exception_handler(TableError)
    async def table_error(_: Request, exc: TableError) -> JSONResponse:
        if exc.retry_after is None:
            return _error(exc.code, exc.reason)
        return JSONResponse({"error": exc.code, "reason": exc.reason,
                             "retry_after": exc.retry_after},
                            status_code=_STATUS.get(exc.code, 400),
                            headers={"Retry-After": str(exc.retry_after)})

    @app.exception_handler(StorageError)
    async def storage_error(_: Request, exc: Exception) -> JSONResponse:
        return _error(*_storage_failure(exc))

    app.add_exception_handler(SQLAlchemyError, storage_error)  # a read that failed: the same

    @app.exception_handler(Exception)
    async def internal(_: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error")  # logged here, never sent to the client
        return _error("internal", "internal server error", 500)

    def check_rate(request: Request) -> None:
        if not creates.take(_address(request)):
            raise TableError("rate_limited", "too many tables created; wait a minute")

    # ------------------------------------------------------------ pages

    index = WEB_DIR / "index.html"

    async def page() -> FileResponse:
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    # the single page app routes on the path in the browser
    for path in ("/", "/t/{table_id}", "/r/{table_id}", "/a/{table_id}", "/j/{code}",
                 "/reglas/{variant}", "/aprende/{lesson_id}"):
        app.add_api_route(path, page, methods=["GET"], include_in_schema=False)

    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")

    # ------------------------------------------------------------ API

    @app.get("/api/health")
    async def health(request: Request) -> dict[str, Any]:
        return {"ok": True, "protocol": PROTOCOL, "tables": len(hub_of(request).tables)}

    @app.get("/api/variants")
    async def variants() -> dict[str, Any]:
        return {"variants": variants_json(), "levels": list(LEVELS)}

    @app.get("/api/messages/{lang}")
    async def refusal_catalogue(lang: str) -> dict[str, Any]:
        # the page words the engine's refusals from tute.i18n's own catalogue
        if lang not in LANGS:
            raise TableError("not_found", f"no messages in {lang!r}: " + ", ".join(LANGS))
        return catalogue(lang)

    # ------------------------------------------------------------ tutorials

    def tutorial(lesson_id: str) -> Any:
        x = find(lesson_id)
        if x is None:
            raise TableError("not_found", "no such tutorial")
        return x

    @app.get("/api/tutorials")
    async def tutorials() -> dict[str, Any]:
        return catalogue_json()

    @app.get("/api/tutorials/{lesson_id}")
    async def tutorial_info(lesson_id: str) -> dict[str, Any]:
        return lesson_json(tutorial(lesson_id))

    @app.post("/api/tutorials/{lesson_id}/step", response_model=None)
    async def tutorial_step(lesson_id: str, body: StepBody) -> dict[str, Any] | JSONResponse:
        x = tutorial(lesson_id)
        try:
            return step_json(x, body.taken)
        except LessonRefusal as exc:
            return JSONResponse({"error": exc.code, "reason": exc.reason["en"],
                                 "reasons": exc.reason, "refusal": exc.refusal}, status_code=400)

    @app.post("/api/play")
    async def play(body: PlayBody, request: Request) -> dict[str, Any]:
        check_rate(request)
        from ..errors import TuteError
        from ..variants import find_variant, resolve_options

        try:
            var = find_variant(body.variant)
        except Exception:
            raise TableError("bad_table", f"unknown variant {body.variant!r}") from None
        try:  # the options may change the table (cabrón's players, subastado's seats)
            n = var.seat_count(resolve_options(var, body.options))
        except TuteError as exc:
            raise TableError("bad_table", str(exc)) from None
        if body.level not in (*LEVELS, "random", "rules"):
            raise TableError("bad_table", "level must be one of: " + ", ".join(LEVELS))
        seats = ["you"] + [body.level] * (n - 1)
        table, seat, token = await hub_of(request).create(
            body.variant, body.options, seats, _clean_name(body.name), public=body.public,
            chat=body.chat, hints=body.hints, clock=_clock(body.clock),
            address=_address(request))
        return _created(table, seat, token)

    @app.post("/api/tables")
    async def create(body: CreateBody, request: Request) -> dict[str, Any]:
        check_rate(request)
        table, seat, token = await hub_of(request).create(
            body.variant, body.options, list(body.seats), _clean_name(body.name), body.public,
            chat=body.chat, hints=body.hints, clock=_clock(body.clock),
            address=_address(request))
        return _created(table, seat, token)

    @app.get("/api/tables")
    async def open_tables(request: Request) -> dict[str, Any]:
        hub = hub_of(request)
        return {"tables": hub.open_tables(), "live": hub.live_tables()}

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str, request: Request) -> dict[str, Any]:
        table = await _table(request, table_id)
        return table.info()

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, body: JoinBody, request: Request) -> dict[str, Any]:
        check_rate(request)
        table = await _table(request, table_id)
        seat, token = await table.call(table.join, _clean_name(body.name), body.seat)
        return {"id": table.id, "seat": seat, "token": token}

    @app.get("/api/code/{code}")
    async def by_code(code: str, request: Request) -> dict[str, Any]:
        # every lookup counts, found or not: guessing codes is what this limit stops
        if not lookups.take(_address(request)):
            raise TableError("rate_limited", "too many code lookups; wait a minute")
        if len(code) > 16:
            raise TableError("not_found", "no table with that code")
        table_id = await hub_of(request).by_code(code)
        if table_id is None:
            raise TableError("not_found", "no table with that code")
        return {"id": table_id}

    @app.get("/api/history")
    async def history(request: Request) -> dict[str, Any]:
        # Public games, and the visitor's own: the page sends the seats it holds as
        # "id:token,..." in a header (not the query string, which ends up in logs).
        seats: dict[str, str] = {}
        for pair in request.headers.get("x-tute-seats", "").split(",")[:50]:
            table_id, _, token = pair.strip().partition(":")
            if 0 < len(table_id) <= 32 and 0 < len(token) <= 64:
                seats[table_id] = token
        return {"games": await hub_of(request).history(seats=seats)}

    @app.get("/api/games/{table_id}/record")
    async def record(table_id: str, request: Request) -> JSONResponse:
        _check_id(table_id)
        rec = await hub_of(request).record(table_id)
        return JSONResponse(rec, headers={
            "Content-Disposition": f'attachment; filename="tute-{table_id}.json"'})

    @app.get("/api/games/{table_id}/replay")
    async def replay(table_id: str, request: Request) -> dict[str, Any]:
        _check_id(table_id)
        return await hub_of(request).replay(table_id)

    @app.get("/api/games/{table_id}/analysis")
    async def analysis(table_id: str, request: Request, deal: int | None = None
                       ) -> dict[str, Any]:
        _check_id(table_id)
        return await hub_of(request).analysis(table_id, deal)

    @app.get("/api/games/{table_id}/analysis/progress")
    async def analysis_progress(table_id: str, request: Request) -> dict[str, Any]:
        _check_id(table_id)
        return await hub_of(request).analysis_progress(table_id)

    async def _table(request: Request, table_id: str) -> Table:
        _check_id(table_id)
        table = await hub_of(request).get(table_id)
        if table is None:
            raise TableError("not_found", "no such table")
        return table

    # ------------------------------------------------------------ WebSocket

    # spectators in all and per address (the per-table caps are the table's)
    watchers: dict[str, int] = {}

    def _watchers_full(address: str) -> str | None:
        if sum(watchers.values()) >= limits.spectators_total:
            return "too many spectators on this server; try again later"
        if watchers.get(address, 0) >= limits.spectators_per_address_total:
            return "too many spectators from your address"
        return None

    @app.websocket("/ws/{table_id}")
    async def ws(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        address = _address(websocket)
        client = Client(config.client_queue, config.rate, config.burst, address=address,
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
            first = await asyncio.wait_for(_receive(websocket), timeout=limits.hello_timeout)
            # The address's messages, hellos included, share one bucket: beyond it the
            # connection waits before reading on (the socket stops being read), so neither
            # reconnecting nor many connections buy more than the address's rate.
            wait = messages.reserve(address)
            if wait:
                await asyncio.sleep(wait)
            try:
                hello = parse_client_message(first)
                if hello["type"] != "hello":
                    raise ProtocolError("the first message must be 'hello'", "hello_expected")
            except ProtocolError as exc:
                _fatal(client, exc.code, exc.reason)
                return
            if len(table_id) > 32:
                _fatal(client, "not_found", "no such table")
                return
            try:
                table = await hub_of(websocket).get(table_id)
            except TableError as exc:  # a damaged table (its reason), storage unreachable
                _refuse(client, exc)
                return
            except Exception as exc:  # the storage failed reading it: said, never silent
                code, reason = _storage_failure(exc)
                _fatal(client, code, reason)
                return
            if table is None:
                _fatal(client, "not_found", "no such table")
                return
            if not hello.get("token") and (full := _watchers_full(address)):
                _fatal(client, "too_many_spectators", full)  # a spectator: no token
                return
            try:
                await table.call(table.connect, client, hello)
            except TableError as exc:
                table = None
                _refuse(client, exc)
                return
            if client.seat is None:
                watching = True
                watchers[address] = watchers.get(address, 0) + 1
                if gate is not None and peer is not None:
                    gate.watching(peer, address, lambda: client.drop("server full", {
                        "type": "error", "code": "server_full", "fatal": True,
                        "reason": "the server is full: spectators make room for players"}))
                idle = _idle_watch(client, table, config.clock, limits.spectator_idle)
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
                wait = messages.reserve(address)
                if wait:
                    if not throttled:  # once per slow spell, not per message
                        client.send({"type": "error", "code": "rate_limited",
                                     "reason": "too many messages from your address; slow "
                                     "down"})
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
                watchers[address] -= 1
                if not watchers[address]:
                    del watchers[address]
                if gate is not None and peer is not None:
                    gate.left(peer, address)
            if table is not None:
                table.post(table.disconnect, client)
            client.close()
            with contextlib.suppress(asyncio.TimeoutError, Exception):
                await asyncio.wait_for(pump, timeout=2)

    return app


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


def _address(conn: Request | WebSocket) -> str:
    """The client's address key (set by :class:`~tute.server.limits.Guard`)."""
    return str(conn.scope.get(ADDRESS) or "?")


def _charged(method: str, path: str) -> bool:
    """Whether an HTTP request counts against the address's request rate: not the calls
    with a bucket of their own (creating and joining tables, invite-code lookups)."""
    if path.startswith("/api/code/"):
        return False
    return not (method == "POST" and (path in ("/api/play", "/api/tables")
                                      or path.endswith("/join")))


def _storage_failure(exc: BaseException) -> tuple[str, str]:
    """The error code and the words for players of a storage failure (the details, the
    database and its error, go to the log only)."""
    if isinstance(exc, DamagedTableError):
        log.error("%s", exc)
        return "unavailable", f"this table's stored data is damaged ({exc.reason})"
    log.error("storage: %s", exc)
    return "storage", "the server cannot use its storage right now; try again later"


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


def _check_id(table_id: str) -> None:
    if len(table_id) > 32 or not table_id.replace("-", "").replace("_", "").isalnum():
        raise TableError("not_found", "no such table")


def _created(table: Table, seat: int, token: str) -> dict[str, Any]:
    return {"id": table.id, "code": table.code, "seat": seat, "token": token,
            "url": f"/t/{table.id}", "invite": f"/j/{table.code}"}
