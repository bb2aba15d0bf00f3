"""The deal of the day and of the week over HTTP (the events themselves: :mod:`tute.daily`).

A player is its account when logged in, else the browser's own id (the page keeps a random one);
each has one entry an event: the actions it took, replayed on every step (the bots answer as
they did), so a move can never be taken back and the event is played once. The entries are
rows of the tables' database (:mod:`tute.server.daily_store`): every process of a site serves
the same ones, and a step is acknowledged once stored.
The ranking, each player's double-dummy analysis (the points its decisions lost with every
hand known, made once it has finished) and "how the others played" open to a player once it
has played the event."""

from __future__ import annotations

import asyncio
import datetime
import logging
import threading
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse
from pydantic import Field
from sqlalchemy.exc import IntegrityError

from ..daily import Event, Play, analyse, current_events, others_play, parse_event, replay
from ..errors import TuteError
from .accounts import COOKIE
from .daily_store import DailyStore
from .protocol import private_deal_json, spectator_deal_json
from .routes_info import WEB_DIR
from .shared import StrictBody, hub_of, server_of
from .table import TableError
from .tutorials import seating_json

__all__ = ["router"]

log = logging.getLogger("tute.server")
router = APIRouter()
#: one solver for the analyses of the played events, one analysis at a time (its table is
#: its own; a thread of the pool runs it)
_SOLVER: list[Any] = []
_SOLVER_LOCK = threading.Lock()
_TASKS: set[asyncio.Task[None]] = set()  # analyses under way (kept referenced)

PlayerId = Annotated[str, Field(min_length=8, max_length=64, pattern=r"^[\w-]+$")]


async def page() -> FileResponse:
    return FileResponse(WEB_DIR / "index.html", headers={"Cache-Control": "no-cache"})


for _path in ("/diario", "/diario/{event_id}"):
    router.add_api_route(_path, page, methods=["GET"], include_in_schema=False)


class StepBody(StrictBody):
    player: PlayerId
    name: Annotated[str, Field(max_length=24)] = ""
    action: Annotated[str | None, Field(max_length=24)] = None


def _entries(request: Request) -> DailyStore:
    state = request.app.state
    found: DailyStore | None = getattr(state, "daily_entries", None)
    if found is None:
        found = DailyStore(hub_of(request).store)
        state.daily_entries = found
    return found


def _analysis(ev: Event, taken: list[str]) -> dict[str, Any]:
    with _SOLVER_LOCK:
        if not _SOLVER:
            from ..solver import Solver

            _SOLVER.append(Solver(tt_mb=32, threads=1))
        return analyse(replay(ev, taken), _SOLVER[0])


async def _analyse_later(request: Request, ev: Event, key: str, taken: list[str]) -> None:
    """The double-dummy analysis of a finished entry, added to it once made (the step that
    finished it has answered already: a first analysis may wait for the solver's code)."""
    try:
        result = await asyncio.to_thread(_analysis, ev, taken)
        await hub_of(request).store.write(DailyStore.op_analysis(ev.id, key, result))
    except Exception:  # an analysis that fails leaves the entry without one
        log.exception("daily %s: analysis failed", ev.id)


def _today() -> datetime.date:
    return datetime.datetime.now(datetime.UTC).date()


def _event(event_id: str) -> Event:
    try:
        return parse_event(event_id)
    except TuteError as exc:
        raise TableError("not_found", str(exc)[:200]) from None


async def _player(request: Request, browser: str) -> str:
    """The entry's key: the account when logged in, else the browser's id."""
    from .routes_accounts import _me

    account = await _me(request) if request.cookies.get(COOKIE) else None
    return f"a:{account.id}" if account is not None else f"b:{browser}"


def _state(play: Play) -> dict[str, Any]:
    deal, seat = play.deal, play.event.seat
    view = {**spectator_deal_json(deal), **private_deal_json(deal, seat)}
    return {"event": play.event.to_json(), "number": play.number, "done": play.done,
            "margins": play.margins, "score": play.score,
            "state": {"deal": view, "seating": seating_json(deal)}}


@router.get("/api/daily")
async def daily_events(request: Request) -> dict[str, Any]:
    events = current_events(_today())
    players = await asyncio.to_thread(_entries(request).players, [ev.id for ev in events])
    return {"today": _today().isoformat(),
            "events": [{**ev.to_json(), "players": players.get(ev.id, 0)} for ev in events]}


@router.post("/api/daily/{event_id}/step")
async def daily_step(event_id: str, body: StepBody, request: Request) -> dict[str, Any]:
    """The player's event after its actions so far and, with ``action``, one more."""
    ev = _event(event_id)
    if ev not in current_events(_today()):
        raise TableError("closed", "this event is over: only its ranking can be seen")
    key = await _player(request, body.player)
    store = _entries(request)
    entry = await asyncio.to_thread(store.entry, ev.id, key)
    taken = [] if entry is None else list(entry.taken)
    name = (entry.name if entry is not None and entry.name else body.name.strip()[:24])
    if body.action is not None:
        if entry is not None and entry.done:
            raise TableError("already_played", "this event is played once")
        if not taken:  # a new entry: counted as a table created
            server_of(request).check_rate(request)
        taken.append(body.action)
    try:
        play = await asyncio.to_thread(replay, ev, taken)
    except TuteError as exc:
        raise TableError("illegal", str(exc)[:200]) from None
    if body.action is not None:
        values = {"name": name, "taken": taken, "done": play.done, "score": play.score,
                  "margins": play.margins,
                  "decisions": [list(d) for d in play.decisions] if play.done else None}
        account = key[2:] if key.startswith("a:") else None
        try:
            stored = await hub_of(request).store.write(DailyStore.op_step(
                ev.id, key, account, len(taken) - 1, values, hub_of(request).config.clock.time()))
        except IntegrityError:  # a first step of the same player at another process
            stored = False
        if not stored:
            raise TableError("conflict", "another move of yours was taken at the same time: "
                             "reload the page")
        if play.done:
            task = asyncio.create_task(_analyse_later(request, ev, key, taken))
            _TASKS.add(task)
            task.add_done_callback(_TASKS.discard)
    return _state(play)


@router.get("/api/daily/{event_id}/ranking")
async def daily_ranking(event_id: str, request: Request,
                        player: Annotated[str, Query(min_length=8, max_length=64)]
                        ) -> dict[str, Any]:
    """The ranking by the summed margin, and at each of the player's decisions what the
    others took there: only for a player who has played the event."""
    ev = _event(event_id)
    key = await _player(request, player)
    store = _entries(request)
    mine = await asyncio.to_thread(store.entry, ev.id, key)
    if mine is None or not mine.done:
        raise TableError("not_played", "the ranking opens once you have played this event")
    done = await asyncio.to_thread(store.finished, ev.id)
    ranking = []
    for e in done:
        rank = 1 + sum((x.score or 0) > (e.score or 0) for x in done)
        dd = e.analysis or {}
        ranking.append({"rank": rank, "name": e.name, "score": e.score,
                        "margins": e.margins, "me": e.player == key, "lost": dd.get("loss"),
                        "accuracy": dd.get("accuracy")})
    others = others_play(mine.decisions or [],
                         [e.decisions or [] for e in done if e.player != key])
    return {"event": ev.to_json(), "players": len(done), "ranking": ranking[:200],
            "me": next(r for r in ranking if r["me"]), "others": others,
            "analysis": mine.analysis}
