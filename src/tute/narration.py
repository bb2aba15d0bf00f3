"""What an engine event says, as data: a message code and its parameters, worded by every front
end (the CLI, the terminal game, the page) from the same templates (``tute.i18n.EVENTS``).

Parameters are plain values so that the page can receive them as JSON: ``who`` and ``other``
are seats, ``card``, ``given`` and ``taken`` card notations (``Ac``), ``suit`` a suit letter,
``what`` a declaration's notation (``veinte:o``), ``points`` a number.

>>> from tute.cards import parse_card
>>> from tute.events import CardPlayed, TrickTaken
>>> describe(CardPlayed(2, parse_card("Ac")))
('played', {'who': 2, 'card': 'Ac'})
>>> describe(TrickTaken(1, 0, (), 3, 21))
('trick', {'who': 3, 'points': 21})
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .events import (
    AuctionWon,
    BidMade,
    CardPlayed,
    DealEnded,
    Declared,
    Discarded,
    Drew,
    Event,
    Exchanged,
    Passed,
    RenuncioClaimed,
    ThrownIn,
    TookOver,
    TrickTaken,
    TrumpNamed,
)
from .views import DealResult

__all__ = ["CARD_PARAMS", "SEAT_PARAMS", "describe", "describe_result"]

#: the parameters that hold a seat, and those that hold a card's notation
SEAT_PARAMS = frozenset({"who", "other"})
CARD_PARAMS = frozenset({"card", "given", "taken"})


def describe(ev: Event, *, table: bool = False) -> tuple[str, dict[str, Any]]:
    """``ev`` as ``(code, params)``. ``table``: the deal has a card on the table instead of an
    upcard (arrastrado), so an exchange takes that card."""
    if isinstance(ev, CardPlayed):
        return "played", {"who": ev.seat, "card": str(ev.card)}
    if isinstance(ev, TrickTaken):
        return "trick", {"who": ev.winner, "points": ev.points}
    if isinstance(ev, Declared):
        code = "declared_tute" if ev.declaration.is_tute else "declared"
        return code, {"who": ev.seat, "what": str(ev.declaration), "points": ev.points}
    if isinstance(ev, Drew):
        if ev.card is None:
            return "drew_hidden", {"who": ev.seat}
        return "drew", {"who": ev.seat, "card": str(ev.card)}
    if isinstance(ev, Exchanged):
        return ("exchanged_table" if table else "exchanged",
                {"who": ev.seat, "given": str(ev.given), "taken": str(ev.taken)})
    if isinstance(ev, Passed):
        return "passed", {"who": ev.seat}
    if isinstance(ev, DealEnded):
        return "deal_ended", {"reason": ev.reason, "winner": ev.winner, "games": ev.games}
    if isinstance(ev, BidMade):
        return "bid", {"who": ev.seat, "points": ev.points}
    if isinstance(ev, AuctionWon):
        return "auction_won", {"who": ev.seat, "points": ev.points}
    if isinstance(ev, TookOver):
        return "took_over", {"who": ev.seat, "other": ev.from_seat, "points": ev.points}
    if isinstance(ev, Discarded):
        if ev.card is None:
            return "discarded", {"who": ev.seat}
        return "discarded_card", {"who": ev.seat, "card": str(ev.card)}
    if isinstance(ev, TrumpNamed):
        return "trump_named", {"who": ev.seat, "suit": ev.suit.letter}
    if isinstance(ev, ThrownIn):
        return "thrown_in", {"who": ev.seat}
    if isinstance(ev, RenuncioClaimed):
        if ev.valid:
            return "renuncio_ok", {"who": ev.seat, "other": ev.offender}
        return "renuncio_bad", {"who": ev.seat}
    raise TypeError(f"no words for the event {type(ev).__name__}")


#: deals thrown in with words of their own (others: ``result.void_other``)
_VOIDS = frozenset({"all_pass", "weak_hand"})


def describe_result(res: DealResult, *, carried: bool = False,
                    seat_sides: Sequence[int] = ()) -> list[tuple[str, dict[str, Any]]]:
    """How a finished deal ended, line by line, as ``(code, params)`` (templates
    ``result.*`` of ``tute.i18n.EVENTS``): why it was void, or each side's total (card
    points, cantes, last trick), the running totals of a deal played de vueltas
    (``carried``), and what the deal decided in its game's terms. ``side`` is a side (a
    seat where each plays for himself), ``sides`` a list of them, ``payments`` a list of
    ``[side, amount]``, ``who``/``other`` seats; ``seat_sides``: each seat's
    side (by default its own).

    >>> from tute.views import DealResult
    >>> describe_result(DealResult((80, 50), (70, 50), ((), ()), (True, False), 0, (1, 0)))
    ... # doctest: +NORMALIZE_WHITESPACE
    [('result.totals_last', {'side': 0, 'total': 80, 'cards': 70, 'n': 0}),
     ('result.totals', {'side': 1, 'total': 50, 'cards': 50, 'n': 0}),
     ('result.winner', {'side': 0})]
    """
    if res.void is not None:
        code = f"result.void_{res.void}" if res.void in _VOIDS else "result.void_other"
        return [(code, {"why": res.void})]
    out: list[tuple[str, dict[str, Any]]] = []
    for side, total in enumerate(res.totals):
        cantes = sum(res.cantes[side])
        code = ("result.totals" + ("_cantes" if cantes else "")
                + ("_last" if res.last_trick[side] else ""))
        out.append((code, {"side": side, "total": total, "cards": res.card_points[side],
                           "n": cantes}))
    if res.running is not None and carried:
        out.append(("result.running", {"payments": [[side, str(points)]
                                                     for side, points in enumerate(res.running)]}))
    return out + _verdict(res, seat_sides)


def _verdict(res: DealResult, seat_sides: Sequence[int]) -> list[tuple[str, dict[str, Any]]]:
    """What the deal decided, in the terms of its game."""
    out: list[tuple[str, dict[str, Any]]] = []
    if res.claim is not None:
        claimant, valid, offender = res.claim
        out.append(("result.claim_ok" if valid else "result.claim_bad",
                    {"who": claimant, "other": offender}))
    if res.contract is not None:
        who, bid, trump, taken = res.contract
        code = "result.contract_made" if res.made else "result.contract_failed"
        side = seat_sides[who] if seat_sides else who
        params: dict[str, Any] = {"who": who, "bid": bid, "total": res.totals[side]}
        if trump is not None:
            code += "_trump"
            params["suit"] = trump
        out.append((code, params))
        if taken:
            out.append(("result.contract_taken", {}))
    if res.reason == "tute" and res.winner is not None:
        out.append(("result.tute", {"side": res.winner}))
    if res.replay:
        out.append(("result.replay", {}))
    elif res.vueltas:
        out.append(("result.vueltas", {}))
    elif res.losses is not None:
        losers = [side for side, n in enumerate(res.losses) if n]
        if losers:
            out.append(("result.lose" if len(losers) == 1 else "result.lose_many",
                        {"sides": losers}))
    elif res.balances is not None:
        out.append(("result.pays", {"payments": [[side, f"{b:+d}" if b else "0"]
                                                 for side, b in enumerate(res.balances)]}))
    elif res.winner is not None and res.reason != "tute":
        g = res.games[res.winner]
        out.append(("result.winner_games" if g > 1 else "result.winner",
                    {"side": res.winner, **({"g": g} if g > 1 else {})}))
    elif res.winner is None:
        out.append(("result.no_winner", {}))
    return out
