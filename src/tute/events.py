"""Frozen events: every accepted action leaves one or more of these in ``Deal.events``."""

from __future__ import annotations

from typing import NamedTuple

from .cards import Card, Suit
from .rules import Declaration


class CardPlayed(NamedTuple):
    seat: int
    card: Card


class TrickTaken(NamedTuple):
    number: int  # 1-based
    leader: int
    cards: tuple[Card, ...]  # in playing order, starting with the leader
    winner: int
    points: int
    # who played each card, in the same order: clients show each card on the seat that
    # played it (not every seat plays: four-seat subastado's dealer sits out)
    seats: tuple[int, ...] = ()


class Declared(NamedTuple):
    seat: int
    declaration: Declaration
    points: int
    cards: tuple[Card, ...]  # shown to the table


class Drew(NamedTuple):
    """A card drawn from the stock; only the upcard (the last card) is drawn face up."""

    seat: int
    card: Card | None  # None in another seat's copy of the log (see Deal.events_for)
    public: bool


class Exchanged(NamedTuple):
    """The 7 (or 2) of trumps given for the upcard; public."""

    seat: int
    given: Card
    taken: Card


class Passed(NamedTuple):
    seat: int


class DealEnded(NamedTuple):
    reason: str  # "tricks" | "tute" | "vueltas" | "void" | "renuncio" (as DealResult.reason)
    winner: int | None
    games: int


class BidMade(NamedTuple):
    seat: int
    points: int


class AuctionWon(NamedTuple):
    seat: int
    points: int


class TookOver(NamedTuple):
    """Subastado: the idle dealer took the top bidder's cards and contract (+increment)."""

    seat: int
    from_seat: int
    points: int


class Discarded(NamedTuple):
    """Subastado with a widow: the declarer's discard (face down: hidden from others)."""

    seat: int
    card: Card | None


class TrumpNamed(NamedTuple):
    seat: int
    suit: Suit


class ThrownIn(NamedTuple):
    """A weak hand thrown in before the first lead: the same dealer deals again."""

    seat: int


class RenuncioClaimed(NamedTuple):
    seat: int
    valid: bool
    offender: int | None


Event = (CardPlayed | TrickTaken | Declared | Drew | Exchanged | Passed | DealEnded | BidMade
         | AuctionWon | TookOver | Discarded | TrumpNamed | ThrownIn | RenuncioClaimed)
