"""The web shell: FastAPI routes and the WebSocket endpoint around the framework-free hub.

All game logic lives in :mod:`tute.server.table` and :mod:`tute.server.hub`; the routers
(``routes_*``, one per concern) only translate HTTP/WebSocket traffic into calls on them (see
docs/protocol.md), sharing the app's state through one
:class:`~tute.server.shared.ServerState`. This module builds the app: the storage and the
hub's lifespan, the middleware, the error answers and the routers.
"""

from __future__ import annotations

import gc
import logging
import os
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException

from . import (
    routes_daily,
    routes_games,
    routes_info,
    routes_puzzles,
    routes_tables,
    routes_tournaments,
    routes_tutorials,
    routes_ws,
)
from .analyses import SearchBudget
from .botpool import close_shared_pool
from .clock import Clock
from .hub import Hub
from .limits import Buckets, Gate, Guard, Limits
from .middleware import MAX_BODY, BodyLimit, charged, security_headers
from .routes_accounts import accounts_router
from .shared import STATUS, ServerState, error, storage_failure
from .store import StorageError, Store
from .store import database_url as parse_database_url
from .table import TableConfig, TableError

__all__ = ["create_app"]

log = logging.getLogger("tute.server")


def create_app(data_dir: str | Path = "data", database_url: str | None = None,
               bot_timeout: float = 60.0, bot_delay: float = 0.8, trick_pause: float = 1.2,
               max_tables: int = 1000, create_per_minute: float = 30.0,
               ws_rate: float = 8.0, ws_burst: int = 24,
               waiting_ttl: float = 24 * 3600.0, limits: Limits | None = None,
               abandon_after: float = 30 * 60.0,
               analysis_budget: SearchBudget | None = None,
               clock: Clock | None = None, seeds: random.Random | None = None,
               gate: Gate | None = None, redis_url: str | None = None,
               insecure_cookies: bool | None = None, warm_hints: bool = True) -> FastAPI:
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
    database and a Redis (docs/cluster.md); ``insecure_cookies`` (else env
    ``TUTE_INSECURE_COOKIES=1``): the session cookie without ``Secure``, for a server on a
    local network reached over plain http (docs/accounts.md); ``warm_hints``: when a table
    where hints may be asked starts, the bot pool prepares their search in the background
    (tests turn it off: it costs each fresh pool a second of CPU a worker). A bad URL or a
    missing driver raises :class:`~tute.server.store.StorageError` here, before anything is
    served."""
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
                         clock=clock or Clock(), warm_hints=warm_hints)
    # per address, shared by its connections: reconnecting starts no new bucket
    server = ServerState(
        config=config, limits=limits, gate=gate,
        creates=Buckets(create_per_minute / 60.0, max(5, int(create_per_minute))),
        lookups=Buckets(limits.code_per_minute / 60.0, limits.code_burst),
        messages=Buckets(ws_rate * limits.ws_address_factor,
                         ws_burst * limits.ws_address_factor))

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
        server.hub = app.state.hub = hub
        hub.analyses.directory = Path(data_dir) / "analysis"  # analyses of finished games
        hub.analyses.budget = analysis_budget or SearchBudget()
        restored = await hub.restore_all()
        if restored:
            log.info("restored %d unfinished tables", restored)
        await routes_tournaments.resume(app)  # tournaments left running go on
        _settle_collector()
        try:
            yield
        finally:
            if getattr(app.state, "tournaments", None) is not None:
                app.state.tournaments.stop()
            await hub.shutdown()
            store.close()
            close_shared_pool()

    app = FastAPI(title="tute", lifespan=lifespan, docs_url=None, redoc_url=None,
                  openapi_url=None)
    app.state.server = server
    app.state.database_url = url  # for run(): it opens the database once before serving
    app.state.limits = limits
    if insecure_cookies is None:
        insecure_cookies = os.environ.get("TUTE_INSECURE_COOKIES", "").strip().lower() in (
            "1", "true", "yes", "on")
    app.state.insecure_cookies = insecure_cookies
    app.add_middleware(BodyLimit)
    app.add_middleware(Guard, limits=limits, charged=charged, max_body=MAX_BODY)
    app.middleware("http")(security_headers)
    _answer_errors(app)
    app.include_router(accounts_router())  # accounts and ratings (routes_accounts.py)
    app.include_router(routes_puzzles.router)  # puzzles and their pages (routes_puzzles.py)
    app.include_router(routes_daily.router)  # the deal of the day and of the week
    app.include_router(routes_tournaments.router)  # tournaments of people (Swiss, arena)
    app.include_router(routes_info.router)  # the pages first, as the page routes on them
    app.mount("/static", StaticFiles(directory=routes_info.WEB_DIR), name="static")
    for routes in (routes_tutorials, routes_tables, routes_games, routes_ws):
        app.include_router(routes.router)
    return app


def _settle_collector() -> None:
    # Everything loaded so far (the libraries, restored tables) lives as long as the
    # process: keep it out of the collector's full passes, which otherwise stall the loop
    # for 100+ ms under load (the p99 of the load benchmark).
    gc.collect()
    gc.freeze()
    # Tables made later are young objects: with the default thresholds the collector runs
    # every 700 allocations (an update makes hundreds of dicts, all freed at once) and its
    # older passes walk every live table. Rarer passes cost less in all.
    gc.set_threshold(50_000, 20, 100)


def _answer_errors(app: FastAPI) -> None:
    """Every failure answers JSON ``{"error", "reason"}``; internals only go to the log."""

    @app.exception_handler(RequestValidationError)
    async def bad_request(_: Request, exc: RequestValidationError) -> JSONResponse:
        errs = exc.errors()
        where = ".".join(str(x) for x in errs[0]["loc"]) if errs else "body"
        msg = errs[0]["msg"] if errs else "invalid request"
        return error("bad_request", f"{where}: {msg}"[:200], 422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        return error("http", str(exc.detail)[:200], exc.status_code)

    @app.exception_handler(TableError)
    async def table_error(_: Request, exc: TableError) -> JSONResponse:
        if exc.retry_after is None:
            return error(exc.code, exc.reason)
        return JSONResponse({"error": exc.code, "reason": exc.reason,
                             "retry_after": exc.retry_after},
                            status_code=STATUS.get(exc.code, 400),
                            headers={"Retry-After": str(exc.retry_after)})

    @app.exception_handler(StorageError)
    async def storage_error(_: Request, exc: Exception) -> JSONResponse:
        return error(*storage_failure(exc))

    app.add_exception_handler(SQLAlchemyError, storage_error)  # a read that failed: the same

    @app.exception_handler(Exception)
    async def internal(_: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error")  # logged here, never sent to the client
        return error("internal", "internal server error", 500)
