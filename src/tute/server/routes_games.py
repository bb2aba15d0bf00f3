"""Finished (and stored) games over HTTP: the history, a game's record, its replay, its
analysis with the analysis's progress, and the reports of its bots' moves."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from .accounts import COOKIE
from .reports import Reports
from .routes_accounts import accounts_of
from .shared import StrictBody, address, check_id, hub_of

__all__ = ["router"]

router = APIRouter()


@router.get("/api/history")
async def history(request: Request) -> dict[str, Any]:
    # Public games, and the visitor's own: the page sends the seats it holds as
    # "id:token,..." in a header (not the query string, which ends up in logs).
    seats: dict[str, str] = {}
    for pair in request.headers.get("x-tute-seats", "").split(",")[:50]:
        table_id, _, token = pair.strip().partition(":")
        if 0 < len(table_id) <= 32 and 0 < len(token) <= 64:
            seats[table_id] = token
    return {"games": await hub_of(request).history(seats=seats)}


@router.get("/api/games/{table_id}/record")
async def record(table_id: str, request: Request) -> JSONResponse:
    check_id(table_id)
    rec = await hub_of(request).record(table_id)
    return JSONResponse(rec, headers={
        "Content-Disposition": f'attachment; filename="tute-{table_id}.json"'})


@router.get("/api/games/{table_id}/replay")
async def replay(table_id: str, request: Request) -> dict[str, Any]:
    check_id(table_id)
    return await hub_of(request).replay(table_id)


@router.get("/api/games/{table_id}/analysis")
async def analysis(table_id: str, request: Request, deal: int | None = None) -> dict[str, Any]:
    check_id(table_id)
    return await hub_of(request).analysis(table_id, deal)


@router.get("/api/games/{table_id}/analysis/progress")
async def analysis_progress(table_id: str, request: Request) -> dict[str, Any]:
    check_id(table_id)
    return await hub_of(request).analysis_progress(table_id)


class ReportBody(StrictBody):
    deal: int  # 0-based deal of the game
    move: int  # 0-based index of the action in its deal
    comment: str = ""  # at most reports.COMMENT_MAX characters (the body is bounded anyway)


def reports_of(request: Request) -> Reports:
    """The app's reports, made on first use beside its hub."""
    state = request.app.state
    reports: Reports | None = getattr(state, "reports", None)
    hub = hub_of(request)
    if reports is None or reports.hub is not hub:
        reports = Reports(hub)
        state.reports = reports
    return reports


@router.post("/api/games/{table_id}/reports")
async def report_move(table_id: str, body: ReportBody, request: Request) -> dict[str, Any]:
    """Report a bot's move of a finished game (tute.server.reports): answered once stored."""
    check_id(table_id)
    # the account only (its id), never the session's token
    account = await accounts_of(request).current(request.cookies.get(COOKIE))
    return await reports_of(request).file(table_id, body.deal, body.move, body.comment,
                                          address(request), account.id if account else None)
