"""What one audience of a deal (a seat, or None: a spectator) is told.

It differs from what another is told in two ways only, both decided here: another seat's
face-down cards (its draws, its widow discard) and the suit of another seat's 20 sung hidden
(:meth:`tute.games.base.Game.hides_cante`: guinote_hide_arrastre_suit). The event log, the
cantes and the known cards of a view are all filtered through these functions; records and
``Deal.events`` keep everything."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import ALL_CARDS, CardSet
from .events import Declared, Discarded, Drew, Event
from .rules import HIDDEN_VEINTE, Declaration, declaration_cards
from .views import SeatView

if TYPE_CHECKING:
    from .deal import Deal


def hides(hidden: int, decl: Declaration) -> bool:
    """Whether ``decl`` is the 20 of one of the ``hidden`` suits (a mask)."""
    return decl.kind == "veinte" and decl.suit is not None and bool(hidden >> decl.suit & 1)


def hidden_from(deal: Deal, seat: int | None) -> int:
    """The suits of the 20s ``seat`` is not told: the hidden ones another seat sang."""
    hidden = deal._hidden
    if hidden and seat is not None:
        for s, d, _p in deal._cantes:
            if s == seat and d.suit is not None and d.kind == "veinte":
                hidden &= ~(1 << d.suit)
    return hidden


def events_for(deal: Deal, seat: int | None, start: int = 0, stop: int | None = None
               ) -> list[Event]:
    """:meth:`tute.deal.Deal.events_for`."""
    hidden = hidden_from(deal, seat)
    out: list[Event] = []
    for e in deal._events[start:stop]:
        if isinstance(e, Drew):
            out.append(e if e.public or e.seat == seat else e._replace(card=None))
        elif isinstance(e, Discarded):
            out.append(e if e.seat == seat else e._replace(card=None))
        elif hidden and isinstance(e, Declared) and hides(hidden, e.declaration):
            out.append(e._replace(declaration=HIDDEN_VEINTE, cards=()))
        else:
            out.append(e)
    return out


def cantes_for(deal: Deal, seat: int | None) -> tuple[tuple[int, Declaration, int], ...]:
    """:meth:`tute.deal.Deal.cantes_for`."""
    hidden = hidden_from(deal, seat)
    if not hidden:
        return deal._cantes
    return tuple((s, HIDDEN_VEINTE if hides(hidden, d) else d, p) for s, d, p in deal._cantes)


def known_for(deal: Deal, seat: int | None) -> tuple[CardSet, ...]:
    """:meth:`tute.deal.Deal.known_for`."""
    known = deal._known
    hidden = hidden_from(deal, seat)
    if hidden:
        trump = None if deal.trump is None else int(deal.trump)
        secret = [0] * deal._n
        shown = [0] * deal._n
        for s, d, _p in deal._cantes:
            if hides(hidden, d):
                secret[s] |= declaration_cards(d, trump, deal.order)
            else:  # a later tute shows some of them again
                shown[s] |= declaration_cards(d, trump, deal.order)
        known = tuple(k & ~(x & ~y) for k, x, y in zip(known, secret, shown, strict=True))
    return tuple(CardSet(k) for k in known)


def view(deal: Deal, seat: int, history: bool) -> SeatView:
    """:meth:`tute.deal.Deal.view`."""
    tc = deal.trump_card
    with_dealer = (not deal._game.stock and tc is not None
                   and bool(deal._known[deal.dealer] & tc.mask))
    auction = deal._auction
    table_card = deal._pile.table_card
    return SeatView(
        variant=deal.variant.id,
        options=deal.options,
        seat=seat,
        side=deal.side_of(seat),
        seats=deal._n,
        dealer=deal.dealer,
        mano=deal.mano,
        trump=deal.trump,
        trump_card=tc,
        trump_card_with_dealer=with_dealer,
        hand=CardSet(deal._hands[seat]),
        hand_sizes=tuple(h.bit_count() for h in deal._hands),
        trick=deal.trick,
        tricks=deal.tricks,
        cantes=cantes_for(deal, seat),
        card_points=deal._points,
        played=CardSet(deal._played),
        to_move=deal.to_move,
        legal_actions=tuple(deal.legal_actions()) if deal.to_move == seat else (),
        result=deal._result,
        upcard=deal.upcard,
        stock_count=len(deal._pile.cards),
        exchanges=deal.exchanges,
        known=known_for(deal, seat),
        carry=deal.carry,
        table_card=None if table_card < 0 else ALL_CARDS[table_card],
        auction=None if auction is None else auction.bidding[:2],
        contract=None if auction is None else auction.contract,
        history=tuple(events_for(deal, seat)) if history else (),
        play_order=deal.play_order,
        side_of=tuple(deal.side_of(s) for s in range(deal._n)),
        partnerships=deal._partners,
        total_tricks=deal.total_tricks,
        goal=deal._game.goal_info(deal.options),
    )
