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

__all__ = ["CARD_PARAMS", "SEAT_PARAMS", "describe"]

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
