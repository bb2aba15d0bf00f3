"""Tournaments over HTTP: their pages (``/torneos``, ``/torneo/{id}``) and JSON calls under
``/api/tournaments`` (see :mod:`tute.server.tournament_director` for what they do, and
docs/tournaments.md). Making, joining, leaving and starting need an account; anyone may look.
Refusals are the server's ``{"error": code, "reason": ...}``; a refused call changes nothing.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import FileResponse
from pydantic import Field

from .accounts_store import AccountRow
from .routes_accounts import _me, accounts_for
from .routes_info import WEB_DIR
from .shared import StrictBody
from .table import TableError
from .tournament_director import Tournaments
from .tournaments_store import tournaments_of

__all__ = ["director_for", "resume", "router"]

router = APIRouter()


async def page() -> FileResponse:
    return FileResponse(WEB_DIR / "index.html", headers={"Cache-Control": "no-cache"})


for _path in ("/torneos", "/torneo/{tournament_id}"):
    router.add_api_route(_path, page, methods=["GET"], include_in_schema=False)


class CreateBody(StrictBody):
    name: Annotated[str, Field(max_length=80)]
    variant: Annotated[str, Field(max_length=40)] = "tute_parejas"
    options: dict[str, Any] = Field(default_factory=dict, max_length=40)
    kind: Annotated[str, Field(max_length=8)] = "swiss"
    pairs: Annotated[str, Field(max_length=12)] = "rotating"
    rounds: int = 3
    minutes: int = 60
    level: Annotated[str, Field(max_length=16)] = "medio"
    rated: bool = False
    starts_at: float | None = None  # seconds since the epoch; None: the creator starts it
    join: bool = True


class JoinBody(StrictBody):
    partner: Annotated[str, Field(max_length=24)] | None = None


def director_for(app: FastAPI) -> Tournaments:
    """The app's tournaments, made on first use beside its accounts."""
    accounts = accounts_for(app)
    found: Tournaments | None = getattr(app.state, "tournaments", None)
    if found is None or found.accounts is not accounts:
        if found is not None:
            found.stop()
        found = Tournaments(accounts)
        app.state.tournaments = found
    return found


async def resume(app: FastAPI) -> None:
    """At the start: the tournaments left running go on (the accounts and the tournaments
    are made now only if there are some)."""
    hub = app.state.hub
    if await asyncio.to_thread(lambda: tournaments_of(hub.store).active_ids()):
        await director_for(app).resume()


async def _need(request: Request) -> AccountRow:
    account = await _me(request)
    if account is None:
        raise TableError("not_logged_in", "log in first: tournaments are for accounts")
    return account


@router.get("/api/tournaments")
async def listed(request: Request) -> dict[str, Any]:
    return {"tournaments": await director_for(request.app).listed()}


@router.post("/api/tournaments")
async def create(body: CreateBody, request: Request) -> dict[str, Any]:
    account = await _need(request)
    director = director_for(request.app)
    t = await director.create(account, **body.model_dump())
    return await director.to_json(t, account)


@router.get("/api/tournaments/{tournament_id}")
async def view(tournament_id: str, request: Request) -> dict[str, Any]:
    return await director_for(request.app).view(tournament_id, await _me(request))


@router.post("/api/tournaments/{tournament_id}/join")
async def join(tournament_id: str, body: JoinBody, request: Request) -> dict[str, Any]:
    account = await _need(request)
    director = director_for(request.app)
    t = await director.join(account, tournament_id, body.partner)
    return await director.to_json(t, account)


@router.post("/api/tournaments/{tournament_id}/leave")
async def leave(tournament_id: str, request: Request) -> dict[str, Any]:
    account = await _need(request)
    director = director_for(request.app)
    return await director.to_json(await director.leave(account, tournament_id), account)


@router.post("/api/tournaments/{tournament_id}/start")
async def start(tournament_id: str, request: Request) -> dict[str, Any]:
    account = await _need(request)
    director = director_for(request.app)
    return await director.to_json(await director.start(account, tournament_id), account)
