"""The puzzles' pages and HTTP routes (the puzzles themselves: :mod:`tute.puzzles`).

A puzzle goes out as the seat's view alone -- its hand, the table and what anyone may know --
never the record it was cut from: the other hands stay on the server. An answer is checked
here and comes back right or wrong, with every action's value, the themes and why."""

from __future__ import annotations

import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import FileResponse
from pydantic import Field

from ..errors import TuteError
from ..puzzles import Puzzle, check_answer, daily, find_puzzle, load_puzzles
from ..puzzles.themes import THEMES
from .protocol import private_deal_json, spectator_deal_json
from .routes_info import WEB_DIR
from .shared import StrictBody
from .table import TableError
from .tutorials import seating_json

__all__ = ["router"]

router = APIRouter()
#: a page of the list at most
LIST_MAX = 200


async def page() -> FileResponse:
    return FileResponse(WEB_DIR / "index.html", headers={"Cache-Control": "no-cache"})


for _path in ("/problemas", "/problemas/hoy", "/problemas/{puzzle_id}"):
    router.add_api_route(_path, page, methods=["GET"], include_in_schema=False)


class AnswerBody(StrictBody):
    answer: Annotated[str, Field(max_length=24)]


def _puzzle(puzzle_id: str) -> Puzzle:
    found = find_puzzle(puzzle_id)
    if found is None:
        raise TableError("not_found", "no such puzzle")
    return found


def _brief(p: Puzzle) -> dict[str, Any]:
    return {"id": p.id, "variant": p.variant, "rating": p.rating}


def _listed(p: Puzzle) -> dict[str, Any]:
    """A row of the list: its themes too (the page of the puzzle keeps them for after)."""
    return {**_brief(p), "themes": p.themes}


def _neighbour(p: Puzzle) -> str:
    """The next puzzle of the list (the first after the last): a 'next' link."""
    pool = load_puzzles()
    k = next(i for i, x in enumerate(pool) if x.id == p.id)
    return pool[(k + 1) % len(pool)].id


def puzzle_json(p: Puzzle, day: str | None = None) -> dict[str, Any]:
    """What the page may see of a puzzle: the seat's view and the legal actions (the answer,
    the values and the themes come only with an answer)."""
    deal = p.position()
    view = {**spectator_deal_json(deal), **private_deal_json(deal, p.seat)}
    return {**_brief(p), "seat": p.seat, "day": day, "next": _neighbour(p),
            "state": {"deal": view, "seating": seating_json(deal)}}


@router.get("/api/puzzles")
async def puzzles(variant: Annotated[str | None, Query(max_length=40)] = None,
                  theme: Annotated[str | None, Query(max_length=40)] = None,
                  offset: Annotated[int, Query(ge=0)] = 0,
                  limit: Annotated[int, Query(ge=1, le=LIST_MAX)] = 50) -> dict[str, Any]:
    pool = [p for p in load_puzzles() if (variant is None or p.variant == variant)
            and (theme is None or theme in p.themes)]
    # every theme's code, for the page's filter (its words are in the page's catalogue)
    return {"total": len(pool), "offset": offset, "themes": list(THEMES),
            "puzzles": [_listed(p) for p in pool[offset:offset + limit]]}


@router.get("/api/puzzles/today")
async def puzzle_today() -> dict[str, Any]:
    today = datetime.datetime.now(datetime.UTC).date()
    return puzzle_json(daily(today), today.isoformat())


@router.get("/api/puzzles/{puzzle_id}")
async def puzzle(puzzle_id: str) -> dict[str, Any]:
    return puzzle_json(_puzzle(puzzle_id))


@router.post("/api/puzzles/{puzzle_id}/answer")
async def puzzle_answer(puzzle_id: str, body: AnswerBody) -> dict[str, Any]:
    p = _puzzle(puzzle_id)
    try:
        return check_answer(p, body.answer)
    except TuteError as exc:
        raise TableError("bad_request", str(exc)[:200]) from exc
