"""Reports of bot moves from the analysis page (``POST /api/games/{id}/reports``).

Someone reading the analysis of a finished game reports a decision a bot made there (a
blunder, they think): the server checks that the game is over, that the deal and the move
exist, that a bot's seat made that move and that it was a decision (a choice between actions
the seat could tell apart), then stores the report -- the game's record, the move, the bot,
the action played, the analysis' figures of it if they are at hand, the comment, the time
and the account if one is logged in -- and answers only once it is stored. One report a move:
a second is told it is filed already. Reports are rate-limited per address.

Reports become a regression set (``tute reports export``, docs/reports.md) that
``tute regress`` replays against a bot before a change of it lands.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from ..analysis import deals_of_record
from ..errors import TuteError
from .hub import Hub
from .limits import Buckets
from .reports_store import ReportRow, ReportStore
from .table import TableError

__all__ = ["COMMENT_MAX", "Reports"]

log = logging.getLogger("tute.server")

#: a comment at most (characters)
COMMENT_MAX = 300


class Reports:
    """The reports of one server: framework-free, like the hub (the route calls these)."""

    def __init__(self, hub: Hub, per_minute: float = 6.0, burst: int = 6):
        self.hub = hub
        self.store = ReportStore(hub.store.engine)
        self.clock = hub.config.clock
        self.rate = Buckets(per_minute / 60.0, burst)  # per address

    async def file(self, table_id: str, deal: int, move: int, comment: str, address: str,
                   account_id: str | None) -> dict[str, Any]:
        """Store a report of move ``move`` (0-based, in its deal) of deal ``deal`` (0-based)
        of a finished game; :class:`TableError` says what is wrong, and nothing is stored."""
        comment = " ".join(comment.split())
        if len(comment) > COMMENT_MAX:
            raise TableError("too_long", f"the comment has {len(comment)} characters; at most "
                             f"{COMMENT_MAX}")
        if deal < 0 or move < 0:
            raise TableError("bad_move", "deal and move are counted from 0")
        if not self.rate.take(address):
            raise TableError("rate_limited", "too many reports; wait a minute",
                             retry_after=max(1, round(self.rate.retry_after(address))))
        record = await self.hub.record(table_id)  # not_found / not_finished / unavailable
        row = await asyncio.to_thread(self.hub.store.get, table_id)
        assert row is not None  # the record was read from it
        record = {k: v for k, v in record.items() if k != "players"}
        seat, played = await asyncio.to_thread(_decision, record, deal, move)
        who = row.seats[seat] if seat < len(row.seats) else {}
        if who.get("kind") != "bot":
            raise TableError("not_bot_move", f"move {move + 1} of deal {deal + 1} was made by "
                             f"a person (seat {seat + 1}), not a bot: only bots' moves are "
                             "reported")
        report = ReportRow(
            id=secrets.token_hex(6), table_id=table_id, deal=deal, move=move, seat=seat,
            variant=row.variant, bot=str(who.get("level") or "?"), played=played,
            analysis=await self.hub.analyses.known(table_id, deal, move) or {},
            record=record, comment=comment, account_id=account_id, status="open",
            at=self.clock.time())
        try:
            report_id, new = await self.hub.store.write(ReportStore.op_file(report))
        except Exception as exc:
            log.error("report of %s not stored: %s", table_id, self.hub.store.reason(exc))
            raise TableError("storage", "the report could not be saved; try again") from None
        log.info("bot move reported: %s deal %d move %d", table_id, deal, move)
        return {"id": report_id, "filed": True, "new": new, "deal": deal, "move": move,
                "seat": seat, "bot": report.bot, "played": played}


def _decision(record: dict[str, Any], deal: int, move: int) -> tuple[int, str]:
    """The seat that made move ``move`` of deal ``deal`` and its action, checked to be a
    decision (:class:`TableError` otherwise)."""
    from ..bots.pimc import equivalent_actions

    try:
        _, deals = deals_of_record(record)
    except TuteError as exc:  # a stored game replays: only a damaged one gets here
        raise TableError("unavailable", f"this game cannot be replayed ({exc})") from None
    if deal >= len(deals):
        raise TableError("bad_move", f"no deal {deal + 1} in this game (it has {len(deals)})")
    pos = deals[deal].copy()
    if move >= len(pos.actions):
        raise TableError("bad_move", f"no move {move + 1} in deal {deal + 1} (it has "
                         f"{len(pos.actions)})")
    while len(pos.actions) > move + 1:
        pos.undo()
    played = pos.undo()
    seat = pos.to_move
    assert seat is not None
    legal = list(pos.legal_actions())
    rep = equivalent_actions(pos.order, pos.stock_count,
                             pos.hand(seat).mask | pos.played.mask, legal)
    if sum(r == i for i, r in enumerate(rep)) < 2:
        raise TableError("not_a_decision", f"move {move + 1} of deal {deal + 1} was forced: "
                         "the seat had no choice to report")
    return seat, str(played)
