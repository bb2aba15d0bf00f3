"""HTTP routes of accounts and ratings (an APIRouter that ``create_app`` includes).

Sessions travel in a Secure, HttpOnly, SameSite=Strict cookie limited to ``/api``: scripts of
the page never see the token, other sites never send it, and it is never in a URL (so never in
an access log). A browser keeps a Secure cookie over https or from localhost only: a server on
a local network over plain http drops ``Secure`` when started with ``--insecure-cookies``.
See :mod:`tute.server.accounts` for what the calls do.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import FileResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from ..errors import TuteError
from ..variants import find_variant, resolve_options
from .accounts import COOKIE, SESSION_TTL, Accounts
from .accounts_store import AccountRow
from .hub import LEVELS, Hub
from .limits import ADDRESS
from .table import Table, TableError
from .tournaments_store import tournaments_of

__all__ = ["accounts_router"]

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
# the refusals of these calls and their HTTP status (the others: the app's own table)
_STATUS = {"bad_login": 401, "not_logged_in": 401, "name_taken": 409, "rate_limited": 429,
           "not_found": 404, "storage": 503, "no_open_seat": 409, "seat_taken": 409,
           "busy": 503, "too_many_tables": 429}

Str40 = Annotated[str, Field(max_length=40)]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class SeatRef(_Body):
    id: Annotated[str, Field(max_length=32)]
    token: Annotated[str, Field(max_length=64)]


class SignupBody(_Body):
    name: Str40
    password: Annotated[str, Field(max_length=256)]
    seats: list[SeatRef] = Field(default_factory=list, max_length=200)


class LoginBody(_Body):
    name: Annotated[str, Field(max_length=64)]
    password: Annotated[str, Field(max_length=256)]


class PasswordBody(_Body):
    password: Annotated[str, Field(max_length=256)]


class SettingsBody(_Body):
    lang: Annotated[str, Field(max_length=8)] | None = None
    sound: bool | None = None
    pace: float | None = None


class ClaimBody(_Body):
    seats: list[SeatRef] = Field(max_length=200)


class _Table(_Body):
    variant: Str40 = "tute_parejas"
    options: dict[str, Any] = Field(default_factory=dict, max_length=40)
    rated: bool = False
    public: bool = False
    chat: bool = True
    hints: bool = False
    clock: Annotated[int, Field(ge=0, le=600)] = 0


class TableBody(_Table):
    seats: list[Annotated[str, Field(max_length=16)]] = Field(min_length=2, max_length=6)


class PlayBody(_Table):
    level: Annotated[str, Field(max_length=16)] = "medio"


class JoinBody(_Body):
    seat: Annotated[int, Field(ge=0, le=5)] | None = None


def _answers(f: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    """These calls' refusals with their own HTTP status (401 for a wrong login...)."""
    @functools.wraps(f)
    async def wrapped(*args: Any, **kwargs: Any) -> Any:
        try:
            return await f(*args, **kwargs)
        except TableError as exc:
            if exc.code not in _STATUS or exc.retry_after is not None:
                raise
            return JSONResponse({"error": exc.code, "reason": exc.reason},
                                status_code=_STATUS[exc.code])
    return wrapped


def _address(request: Request) -> str:
    return str(request.scope.get(ADDRESS) or "?")


def accounts_of(request: Request) -> Accounts:
    """The app's accounts, made on first use beside its hub."""
    return accounts_for(request.app)


def accounts_for(app: Any) -> Accounts:
    """The accounts of ``app`` (a FastAPI app), made on first use beside its hub."""
    state = app.state
    accounts: Accounts | None = getattr(state, "accounts", None)
    hub: Hub = state.hub
    if accounts is None or accounts.hub is not hub:
        accounts = Accounts(hub)
        state.accounts = accounts
    return accounts


async def _me(request: Request) -> AccountRow | None:
    return await accounts_of(request).current(request.cookies.get(COOKIE))


async def _need(request: Request) -> AccountRow:
    account = await _me(request)
    if account is None:
        raise TableError("not_logged_in", "log in first")
    return account


def _secure(request: Request) -> bool:
    return not getattr(request.app.state, "insecure_cookies", False)


def _set_session(request: Request, response: Response, token: str) -> None:
    response.set_cookie(COOKIE, token, max_age=int(SESSION_TTL), path="/api",
                        secure=_secure(request), httponly=True, samesite="strict")


def _end_session(request: Request, response: Response) -> None:
    response.delete_cookie(COOKIE, path="/api", secure=_secure(request), httponly=True,
                           samesite="strict")


def _me_json(a: AccountRow) -> dict[str, Any]:
    return {"name": a.name, "settings": a.settings, "since": a.created_at}


def _check_id(table_id: str) -> None:
    if len(table_id) > 32 or not table_id.replace("-", "").replace("_", "").isalnum():
        raise TableError("not_found", "no such table")


async def _table(request: Request, table_id: str) -> Table:
    """The table, here or (a RemoteTable) at the process that owns it in a site of several:
    these calls use only what both answer (info, status, join, leave_seat)."""
    _check_id(table_id)
    table: Table | None = await request.app.state.hub.get(table_id)
    if table is None:
        raise TableError("not_found", "no such table")
    return table


def _created(table: Table, seat: int, token: str) -> dict[str, Any]:
    return {"id": table.id, "code": table.code, "seat": seat, "token": token,
            "url": f"/t/{table.id}", "invite": f"/j/{table.code}"}


def accounts_router() -> APIRouter:
    r = APIRouter()
    index = WEB_DIR / "index.html"

    async def page() -> FileResponse:
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    for path in ("/cuenta", "/clasificacion", "/jugador/{name}"):
        r.add_api_route(path, page, methods=["GET"], include_in_schema=False)

    @r.post("/api/account/signup", response_model=None)
    @_answers
    async def signup(body: SignupBody, request: Request, response: Response
                     ) -> dict[str, Any]:
        account, token = await accounts_of(request).signup(
            body.name, body.password, _address(request), [(s.id, s.token) for s in body.seats])
        _set_session(request, response, token)
        return {"account": _me_json(account)}

    @r.post("/api/account/login", response_model=None)
    @_answers
    async def login(body: LoginBody, request: Request, response: Response) -> dict[str, Any]:
        account, token = await accounts_of(request).login(body.name, body.password,
                                                          _address(request))
        _set_session(request, response, token)
        return {"account": _me_json(account)}

    @r.post("/api/account/logout")
    async def logout(request: Request, response: Response) -> dict[str, Any]:
        await accounts_of(request).logout(request.cookies.get(COOKIE))
        _end_session(request, response)
        return {"account": None}

    @r.get("/api/account")
    async def me(request: Request) -> dict[str, Any]:
        account = await _me(request)
        if account is None:
            return {"account": None}
        accounts = accounts_of(request)
        await accounts.settle_pending()
        rated = await accounts.ratings(account.id)
        return {"account": {**_me_json(account), "ratings": rated}}

    @r.post("/api/account/settings", response_model=None)
    @_answers
    async def settings(body: SettingsBody, request: Request) -> dict[str, Any]:
        account = await _need(request)
        merged = await accounts_of(request).settings(account, body.model_dump(
            exclude_none=True))
        return {"settings": merged}

    @r.post("/api/account/delete", response_model=None)
    @_answers
    async def delete(body: PasswordBody, request: Request, response: Response
                     ) -> dict[str, Any]:
        account = await _need(request)
        await accounts_of(request).delete(account, body.password)
        _end_session(request, response)
        return {"deleted": True}

    _seat_routes(r)
    _rating_routes(r)
    return r


def _seat_routes(r: APIRouter) -> None:
    """The account's seats and games, and the tables it makes, joins and leaves."""

    @r.get("/api/account/seats", response_model=None)
    @_answers
    async def seats(request: Request) -> dict[str, Any]:
        account = await _need(request)
        return {"seats": await accounts_of(request).seats(account)}

    @r.post("/api/account/claim", response_model=None)
    @_answers
    async def claim(body: ClaimBody, request: Request) -> dict[str, Any]:
        account = await _need(request)
        n = await accounts_of(request).claim(account, [(s.id, s.token) for s in body.seats])
        return {"claimed": n}

    @r.get("/api/account/games", response_model=None)
    @_answers
    async def games(request: Request) -> dict[str, Any]:
        account = await _need(request)
        accounts = accounts_of(request)
        held = {s["id"]: s["token"] for s in await accounts.seats(account)}
        listed = await accounts.hub.history(seats=held, limit=200)
        return {"games": [g for g in listed if g.get("mine")]}

    @r.post("/api/account/tables", response_model=None)
    @_answers
    async def create(body: TableBody, request: Request) -> dict[str, Any]:
        account = await _need(request)
        table, seat, token = await accounts_of(request).create(
            account, _address(request), body.variant, body.options, list(body.seats),
            body.rated, public=body.public, chat=body.chat, hints=body.hints,
            clock=_clock(body.clock))
        return {**_created(table, seat, token), "rated": body.rated}

    @r.post("/api/account/play", response_model=None)
    @_answers
    async def play(body: PlayBody, request: Request) -> dict[str, Any]:
        account = await _need(request)
        n = _seat_count(body.variant, body.options)
        if body.level not in (*LEVELS, "random", "rules"):
            raise TableError("bad_table", "level must be one of: " + ", ".join(LEVELS))
        table, seat, token = await accounts_of(request).create(
            account, _address(request), body.variant, body.options,
            ["you"] + [body.level] * (n - 1), body.rated, public=body.public,
            chat=body.chat, hints=body.hints, clock=_clock(body.clock))
        return {**_created(table, seat, token), "rated": body.rated}

    @r.get("/api/account/tables/{table_id}", response_model=None)
    @_answers
    async def at_table(table_id: str, request: Request) -> dict[str, Any]:
        """For the table page: is it rated, and which seat there is this account's."""
        _check_id(table_id)
        return await accounts_of(request).at_table(await _me(request), table_id)

    @r.post("/api/account/tables/{table_id}/join", response_model=None)
    @_answers
    async def join(table_id: str, body: JoinBody, request: Request) -> dict[str, Any]:
        account = await _need(request)
        table = await _table(request, table_id)
        seat, token = await accounts_of(request).join(account, table, body.seat)
        return {"id": table.id, "seat": seat, "token": token}

    @r.post("/api/account/tables/{table_id}/leave", response_model=None)
    @_answers
    async def leave(table_id: str, request: Request) -> dict[str, Any]:
        account = await _need(request)
        table = await _table(request, table_id)
        seat = await accounts_of(request).leave(account, table)
        return {"id": table.id, "seat": seat, "left": True}


def _rating_routes(r: APIRouter) -> None:
    """Leaderboards, chances before a game and player pages."""

    @r.get("/api/ratings/leaderboard", response_model=None)
    @_answers
    async def leaderboard(request: Request, mode: str = "parejas", period: str = "all"
                          ) -> dict[str, Any]:
        return await accounts_of(request).leaderboard(mode[:16], period[:8])

    @r.get("/api/ratings/chances", response_model=None)
    @_answers
    async def chances(request: Request, variant: str = "tute_parejas", level: str = "medio"
                      ) -> dict[str, Any]:
        """Before a rated game against bots: the visitor's side's chance to win."""
        account = await _me(request)
        n = _seat_count(variant[:40], {})
        if level not in (*LEVELS, "random", "rules"):
            raise TableError("bad_table", "level must be one of: " + ", ".join(LEVELS))
        seats: list[str | None] = [account.id if account else None] + [level] * (n - 1)
        return await accounts_of(request).chances(account, variant, {}, seats)

    @r.get("/api/ratings/chances/{table_id}", response_model=None)
    @_answers
    async def table_chances(table_id: str, request: Request) -> dict[str, Any]:
        """Each side's chance to win at a table (its players' ratings, its bots' anchors)."""
        table = await _table(request, table_id)
        accounts = accounts_of(request)
        links = await accounts.held_at(table.id)
        info = table.info()  # the same at a table another process owns
        seats: list[str | None] = [
            links.get(i) if s["kind"] == "human" else s["level"] if s["kind"] == "bot" else None
            for i, s in enumerate(info["seats"])]
        return await accounts.chances(None, info["variant"], info["options"], seats)

    @r.get("/api/players/{name}", response_model=None)
    @_answers
    async def player(name: str, request: Request) -> dict[str, Any]:
        accounts = accounts_of(request)
        page = await accounts.player(name)
        row = await asyncio.to_thread(accounts.store.by_name, str(page["name"]).casefold())
        # the tournaments played, with the place in each (tute.server.tournament_director)
        played = tournaments_of(accounts.hub.store)
        page["tournaments"] = [] if row is None else await asyncio.to_thread(
            played.of_account, row.id)
        return page


def _seat_count(variant: str, options: dict[str, Any]) -> int:
    try:
        var = find_variant(variant)
    except Exception:
        raise TableError("bad_table", f"unknown variant {variant!r}") from None
    try:
        return var.seat_count(resolve_options(var, options))
    except TuteError as exc:
        raise TableError("bad_table", str(exc)) from None


def _clock(seconds: int) -> int:
    if 0 < seconds < 10:
        raise TableError("bad_table", f"clock must be 0 (no clock) or 10 to 600 seconds, not "
                         f"{seconds}")
    return seconds
