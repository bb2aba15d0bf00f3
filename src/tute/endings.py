"""How a deal ends and is scored: the last trick, a tute, 101 reached de vueltas, a weak hand
thrown in, all passing the auction, a renuncio claimed. :func:`finish` tallies the deal and
asks its game for the score (:meth:`tute.games.base.Game.score`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import CLAIM, STOP, THROW
from .events import DealEnded, RenuncioClaimed, ThrownIn
from .games.base import Tally
from .phase import OVER
from .scoring import TARGET
from .views import DealResult

if TYPE_CHECKING:
    from .deal import Deal


def finish(deal: Deal, reason: str, who: int | None, *, offender: int | None = None) -> None:
    """End the deal. ``reason``: "tricks"; "tute" (``who`` sang it); "vueltas" (``who`` is
    the side that reached 101 de vueltas); "void" (all passed, or ``who`` threw in a weak
    hand); "renuncio" (``who`` claimed; ``offender`` is the revoker found, if any). The
    game scores it."""
    deal._phase = OVER
    deal._queue = ()
    sides = deal._sides
    opts = deal.options
    points = list(deal._points)
    auction = deal._auction
    contract = None if auction is None else auction.contract
    if auction is not None and auction.discard >= 0 and contract is not None:
        points[contract[0]] += deal._points_table[auction.discard]  # the widow discard
    cantes: list[list[int]] = [[] for _ in range(sides)]
    seat_cantes: list[list[int]] = [[] for _ in range(deal._n)]
    for s, _d, p in deal._cantes:
        seat_cantes[s].append(p)
        if p:
            cantes[deal.side_of(s)].append(p)
    if opts.thirty_malas:  # Guiñote house rule: cantes count only with 30 card points
        cantes = [c if points[i] >= 30 else [] for i, c in enumerate(cantes)]
    last = [False] * sides
    if reason in ("tricks", "renuncio") and len(deal._completed) == deal.total_tricks:
        last[deal.side_of(deal._completed[-1][2])] = True
    bonus = opts.last_trick_bonus  # 10 but where a game lets it be 0 (cabrero, gana-pierde)
    totals = tuple(points[i] + sum(cantes[i]) + (bonus if last[i] else 0)
                   for i in range(sides))
    tally = Tally(
        reason=reason, who=who, offender=offender, totals=totals, points=tuple(points),
        cantes=tuple(map(tuple, cantes)), seat_cantes=tuple(map(tuple, seat_cantes)),
        last_side=last.index(True) if any(last) else None, seats=deal._n,
        side_of=tuple(s % 2 for s in range(deal._n)) if deal._partners else tuple(
            range(deal._n)), mano=deal.mano,
        carry=deal.carry, tricks_won=deal._tricks_won, contract=contract,
    )
    game = deal._game
    score = game.void_score(tally, opts) if reason == "void" else game.score(tally, opts)
    games = score.games or (0,) * sides
    winner = score.winner
    result = DealResult(
        totals, tuple(points), tally.cantes, tuple(last), winner, games,
        reason=reason, replay=score.replay, match_won=score.match_won,
        running=score.running, vueltas=score.vueltas, losses=score.losses,
        balances=score.balances, made=score.made, void=deal._void or None,
        contract=None if contract is None else (
            contract[0], contract[1], deal.trump.letter if deal.trump else None, contract[2]),
        claim=None if reason != "renuncio" or who is None else (
            who, offender is not None, offender),
    )
    deal._events.append(DealEnded(reason, winner, 0 if winner is None else games[winner]))
    deal._result = result


# ---------------------------------------------------------------- de vueltas

def stop(deal: Deal, seat: int) -> None:
    """vueltas_claim=manual: stopping play claims 101; a wrong claim loses the game."""
    deal._actions.append(STOP)
    side = deal.side_of(seat)
    finish(deal, "vueltas", side if running(deal, side) >= TARGET else 1 - side)


def running(deal: Deal, side: int) -> int:
    """De vueltas: the carried total plus this deal's card points and cantes so far."""
    assert deal.carry is not None
    cantes = sum(p for s, _d, p in deal._cantes if deal.side_of(s) == side)
    return deal.carry[side] + deal._points[side] + cantes


def vueltas_reached(deal: Deal, side: int) -> bool:
    """De vueltas with vueltas_claim=auto: a side wins as soon as its running total
    reaches 101."""
    if deal.carry is None or deal.options.vueltas_claim != "auto":
        return False
    if running(deal, side) >= TARGET:
        finish(deal, "vueltas", side)
        return True
    return False


# ---------------------------------------------------------------- table customs

def throw_in(deal: Deal, seat: int) -> None:
    deal._actions.append(THROW)
    deal._events.append(ThrownIn(seat))
    deal._void = "weak_hand"
    finish(deal, "void", seat)


def can_claim(deal: Deal, seat: int) -> bool:
    """Whether an opponent of ``seat`` has played a card this deal (so could have revoked)."""
    opp = deal._game.opponents(seat, deal._n, deal._contract)
    for lead, cards, _w, _p in deal._completed:
        if any(s in opp for s in deal._trick_seats(lead, len(cards))):
            return True
    return any(s in opp for s in deal._trick_seats(deal._leader, len(deal._trick))
               ) if deal._trick else False


def claim(deal: Deal, seat: int) -> None:
    """A renuncio claim: the engine checks the history for an opponent's illegal play."""
    deal._actions.append(CLAIM)
    opp = deal._game.opponents(seat, deal._n, deal._contract)
    offender = next((s for s, _i in deal._revokes if s in opp), None)
    deal._events.append(RenuncioClaimed(seat, offender is not None, offender))
    finish(deal, "renuncio", seat, offender=offender)
