"""The tables' HTTP routes: a quick game against bots, a table with its seats, the open and
live tables, a table's info, taking a seat, and finding a table by its invite code."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from pydantic import Field

from .hub import LEVELS
from .shared import StrictBody, address, check_id, clean_name, created, hub_of, server_of
from .table import Table, TableError

__all__ = ["router"]

router = APIRouter()

Name = Annotated[str, Field(max_length=40)]
# The turn clock: seconds a player has for each decision before the table's bot plays it
# (0: no clock). Below 10 s nobody can read the table; above 10 minutes it is no clock.
TurnClock = Annotated[int, Field(ge=0, le=600)]


class PlayBody(StrictBody):
    variant: Annotated[str, Field(max_length=40)] = "tute_parejas"
    level: Annotated[str, Field(max_length=16)] = "medio"
    name: Name = ""
    options: dict[str, Any] = Field(default_factory=dict, max_length=40)
    public: bool = False  # a quick game is private (not in the history) unless asked
    chat: bool = True
    hints: bool = False  # against bots hints are always allowed; this stores the setting
    clock: TurnClock = 0


class CreateBody(StrictBody):
    variant: Annotated[str, Field(max_length=40)] = "tute_parejas"
    options: dict[str, Any] = Field(default_factory=dict, max_length=40)
    seats: list[Annotated[str, Field(max_length=16)]] = Field(min_length=2, max_length=6)
    name: Name = ""
    public: bool = False
    chat: bool = True
    hints: bool = False  # hints also where other people play (against bots: always)
    clock: TurnClock = 0


class JoinBody(StrictBody):
    name: Name = ""
    seat: Annotated[int, Field(ge=0, le=5)] | None = None


def _clock(seconds: int) -> int:
    if 0 < seconds < 10:
        raise TableError("bad_table", f"clock must be 0 (no clock) or 10 to 600 seconds, not "
                         f"{seconds}")
    return seconds


async def _table(request: Request, table_id: str) -> Table:
    check_id(table_id)
    table = await hub_of(request).get(table_id)
    if table is None:
        raise TableError("not_found", "no such table")
    return table


@router.post("/api/play")
async def play(body: PlayBody, request: Request) -> dict[str, Any]:
    server_of(request).check_rate(request)
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
        body.variant, body.options, seats, clean_name(body.name), public=body.public,
        chat=body.chat, hints=body.hints, clock=_clock(body.clock),
        address=address(request))
    return created(table, seat, token)


@router.post("/api/tables")
async def create(body: CreateBody, request: Request) -> dict[str, Any]:
    server_of(request).check_rate(request)
    table, seat, token = await hub_of(request).create(
        body.variant, body.options, list(body.seats), clean_name(body.name), body.public,
        chat=body.chat, hints=body.hints, clock=_clock(body.clock),
        address=address(request))
    return created(table, seat, token)


@router.get("/api/tables")
async def open_tables(request: Request) -> dict[str, Any]:
    hub = hub_of(request)
    return {"tables": hub.open_tables(), "live": hub.live_tables()}


@router.get("/api/tables/{table_id}")
async def table_info(table_id: str, request: Request) -> dict[str, Any]:
    table = await _table(request, table_id)
    return table.info()


@router.post("/api/tables/{table_id}/join")
async def join(table_id: str, body: JoinBody, request: Request) -> dict[str, Any]:
    server_of(request).check_rate(request)
    table = await _table(request, table_id)
    seat, token = await table.call(table.join, clean_name(body.name), body.seat)
    return {"id": table.id, "seat": seat, "token": token}


@router.get("/api/code/{code}")
async def by_code(code: str, request: Request) -> dict[str, Any]:
    # every lookup counts, found or not: guessing codes is what this limit stops
    if not server_of(request).lookups.take(address(request)):
        raise TableError("rate_limited", "too many code lookups; wait a minute")
    if len(code) > 16:
        raise TableError("not_found", "no table with that code")
    table_id = await hub_of(request).by_code(code)
    if table_id is None:
        raise TableError("not_found", "no table with that code")
    return {"id": table_id}
