"""The card-play state of a deal as plain values (:meth:`tute.deal.Deal.snapshot`): what the
fast kernel (:mod:`tute.kernel`) and the solver read, never the deal's private state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .games.base import Poll
from .phase import POLL

if TYPE_CHECKING:
    from .deal import Deal


@dataclass(frozen=True)
class Position:
    """The card-play state of a deal, as the fast kernel reads it (:meth:`Deal.snapshot`).

    Tuples are by seat unless said; cards are indices 0..39, hands 40-bit masks."""

    hands: tuple[int, ...]
    trick: tuple[int, ...]  # cards in playing order from ``leader``
    leader: int
    to_move: int
    best: int  # the winning card of the trick so far (-1: no trick)
    best_seat: int
    ruffed: bool  # a plain-suit lead has been trumped
    next_seat: tuple[int, ...]  # the next active seat in playing order
    active: int  # active seats: cards per trick
    trump: int | None
    sung: int  # suits whose marriage was declared (mask)
    forty_lost: int  # seats that lost the right to the 40 (mask)
    side_first: int  # sides that have won a trick (mask)
    side_forfeit: int  # sides that forfeited their declarations (mask)
    points: tuple[int, ...]  # card points by side (subastado's widow discard counted)
    cante_points: tuple[int, ...]  # by side
    tricks_done: int
    side_tricks: tuple[int, ...]  # tricks won, by side
    window: int  # seats that may declare now (mask)
    window_seats: int  # seats the window opened for (mask)
    window_declared: bool
    poll: Poll | None  # the seat asked a question, and what
    draw_pending: bool  # a draw from the stock is due
    stock_left: int
    sole_singer: int  # the one seat whose cantes count, or -1
    total_tricks: int


def snapshot(deal: Deal) -> Position:
    """:meth:`tute.deal.Deal.snapshot`."""
    sides = deal._sides
    points = list(deal._points)
    auction = deal._auction
    contract = None if auction is None else auction.contract
    if auction is not None and auction.discard >= 0 and contract is not None:
        points[deal.side_of(contract[0])] += deal._points_table[auction.discard]  # the widow's
    cante_points = [0] * sides
    for seat, _decl, p in deal._cantes:
        cante_points[deal.side_of(seat)] += p
    side_tricks = [0] * sides
    for _lead, _cards, winner, _pts in deal._completed:
        side_tricks[deal.side_of(winner)] += 1
    tlen = len(deal._trick)
    pile = deal._pile
    return Position(
        hands=deal._hands, trick=deal._trick, leader=deal._leader, to_move=deal._to_move,
        best=deal._best if tlen else -1, best_seat=deal._best_seat if tlen else -1,
        ruffed=bool(deal._ruffed) and bool(tlen), next_seat=deal._nxt, active=deal._k,
        trump=None if deal.trump is None else int(deal.trump), sung=deal._sung,
        forty_lost=deal._forty_lost, side_first=deal._side_first,
        side_forfeit=deal._side_forfeit, points=tuple(points),
        cante_points=tuple(cante_points), tricks_done=len(deal._completed),
        side_tricks=tuple(side_tricks), window=deal._window,
        window_seats=deal._window_seats, window_declared=deal._window_declared,
        poll=deal._queue[0] if deal._phase == POLL and deal._queue else None,
        draw_pending=pile.pending, stock_left=len(pile.cards),
        sole_singer=deal._game.sole_singer(contract, deal.options),
        total_tricks=deal.total_tricks,
    )
