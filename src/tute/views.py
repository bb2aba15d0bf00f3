"""The read-only results of play: a completed trick, a deal's score, and a seat's view."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .actions import Action
from .cards import Card, CardSet, Suit
from .events import Event
from .rules import Declaration
from .variants import Options

__all__ = ["DealResult", "SeatView", "TrickRecord"]


@dataclass(frozen=True)
class TrickRecord:
    """A completed trick: who led, the cards in playing order, who won, its card points, and
    the seat of each card (``seats``, from the engine: a seat that sits the deal out, such as
    subastado's dealer with four, plays no card, so ``leader + i`` is not the i-th player)."""

    number: int
    leader: int
    cards: tuple[Card, ...]
    winner: int
    points: int
    seats: tuple[int, ...] = ()

    def plays(self, seats: int | None = None) -> list[tuple[int, Card]]:
        """(seat, card) in playing order; ``seats`` (the table size) is only read by a record
        built without its seats."""
        if self.seats or seats is None:
            return list(zip(self.seats, self.cards, strict=True))
        return [((self.leader + i) % seats, c) for i, c in enumerate(self.cards)]


@dataclass(frozen=True)
class DealResult:
    """The score of a finished deal; every tuple is indexed by side.

    ``winner`` is the side that won the deal (parejas, per-deal scoring) or the game/partida
    (the 101 games), the seat that won (arrastrado) or the declarer who made the contract
    (subastado); ``None`` with ``vueltas`` means nobody reached 101 and a deal *de vueltas*
    follows with ``running`` carried over.
    """

    totals: tuple[int, ...]
    card_points: tuple[int, ...]
    cantes: tuple[tuple[int, ...], ...]
    last_trick: tuple[bool, ...]
    winner: int | None
    games: tuple[int, ...]
    # "tricks" (played out) | "tute" | "vueltas" (101 reached de vueltas) | "void" (thrown in:
    # see ``void``) | "renuncio" (a claim: see ``claim``)
    reason: str = "tricks"
    replay: bool = False
    match_won: bool = False
    running: tuple[int, ...] | None = None  # totals including the carried ones (101 games)
    vueltas: bool = False
    losses: tuple[int, ...] | None = None  # lost games added (arrastrado, cabrón)
    balances: tuple[int, ...] | None = None  # payments (subastado, arrastrado payments)
    made: bool | None = None  # subastado: the contract was made
    void: str | None = None  # "all_pass" or "weak_hand": the deal was thrown in, not scored
    contract: tuple[int, int, str | None, bool] | None = None  # declarer, bid, trump, takeover
    claim: tuple[int, bool, int | None] | None = None  # claimant, valid, offender

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "totals": list(self.totals),
            "card_points": list(self.card_points),
            "cantes": [list(c) for c in self.cantes],
            "last_trick": list(self.last_trick),
            "winner": self.winner,
            "games": list(self.games),
            "reason": self.reason,
            "replay": self.replay,
            "match_won": self.match_won,
        }
        if self.running is not None:
            out["running"] = list(self.running)
            out["vueltas"] = self.vueltas
        for name in ("losses", "balances"):
            value = getattr(self, name)
            if value is not None:
                out[name] = list(value)
        if self.made is not None:
            out["made"] = self.made
        if self.void is not None:
            out["void"] = self.void
        if self.contract is not None:
            d, bid, trump, takeover = self.contract
            out["contract"] = {"declarer": d, "bid": bid, "trump": trump, "takeover": takeover}
        if self.claim is not None:
            c, valid, offender = self.claim
            out["claim"] = {"claimant": c, "valid": valid, "offender": offender}
        return out


@dataclass(frozen=True)
class SeatView:
    """Everything one seat may know about a deal, and nothing else."""

    variant: str
    options: Options
    seat: int
    side: int
    seats: int
    dealer: int
    mano: int
    trump: Suit | None
    trump_card: Card | None
    trump_card_with_dealer: bool  # parejas: the turned card is still in the dealer's hand
    hand: CardSet
    hand_sizes: tuple[int, ...]
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[TrickRecord, ...]
    cantes: tuple[tuple[int, Declaration, int], ...]
    card_points: tuple[int, ...]  # per side, taken so far
    played: CardSet
    to_move: int | None
    legal_actions: tuple[Action, ...]
    result: DealResult | None
    upcard: Card | None = None  # stock games: the face-up card while it lies under the stock
    stock_count: int = 0  # cards left in the stock, the upcard included
    exchanges: tuple[tuple[int, Card, Card], ...] = ()  # (seat, given, taken)
    known: tuple[CardSet, ...] = ()  # per seat: cards publicly known to be in that hand
    carry: tuple[int, ...] | None = None  # de vueltas: totals carried from the last deal
    table_card: Card | None = None  # arrastrado: the card left on the table (out of play)
    auction: tuple[int, int] | None = None  # subastado: (highest bid, its bidder) so far
    contract: tuple[int, int, bool] | None = None  # subastado: declarer, bid, taken over
    # the event log as this seat sees it (Deal.events_for): what inference and sampled worlds
    # replay; face-down draws and discards of other seats carry no card
    history: tuple[Event, ...] = ()
    # who sits where, from the engine (no consumer recomputes it from the seat count): the
    # seats that play this deal in playing order from the dealer's right (an idle seat left
    # out), each seat's scoring side, whether sides are partnerships, the number of tricks
    play_order: tuple[int, ...] = ()
    side_of: tuple[int, ...] = ()
    partnerships: bool = False
    total_tricks: int = 0
    # the match goal as data (Game.goal_info: kind and its numbers); i18n renders the words.
    # Out of eq and hash: a dict does not hash, and the goal follows from ``options``
    goal: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def unseen(self) -> CardSet:
        """Cards this seat has not seen: neither in its hand nor played nor face up."""
        up = CardSet() if self.upcard is None else CardSet([self.upcard])
        return ~(self.hand | self.played | up)

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "seat": self.seat,
            "side": self.side,
            "dealer": self.dealer,
            "mano": self.mano,
            "trump": None if self.trump is None else self.trump.letter,
            "trump_card": None if self.trump_card is None else str(self.trump_card),
            "trump_card_with_dealer": self.trump_card_with_dealer,
            "upcard": None if self.upcard is None else str(self.upcard),
            "stock_count": self.stock_count,
            "hand": self.hand.to_list(),
            "hand_sizes": list(self.hand_sizes),
            "known": [k.to_list() for k in self.known],
            "trick": [[s, str(c)] for s, c in self.trick],
            "tricks": [
                {"number": t.number, "leader": t.leader, "cards": [str(c) for c in t.cards],
                 "winner": t.winner, "points": t.points, "seats": list(t.seats)}
                for t in self.tricks
            ],
            "cantes": [[s, str(d), p] for s, d, p in self.cantes],
            "exchanges": [[s, str(g), str(t)] for s, g, t in self.exchanges],
            "card_points": list(self.card_points),
            "carry": None if self.carry is None else list(self.carry),
            "table_card": None if self.table_card is None else str(self.table_card),
            "auction": None if self.auction is None else list(self.auction),
            "contract": None if self.contract is None else list(self.contract),
            "to_move": self.to_move,
            "legal_actions": [str(a) for a in self.legal_actions],
            "result": None if self.result is None else self.result.to_json(),
            "play_order": list(self.play_order),
            "side_of": list(self.side_of),
            "partnerships": self.partnerships,
            "total_tricks": self.total_tricks,
            "goal": dict(self.goal),
        }
