"""A puzzle's themes: what the right action is about, read from the position and the answer.

The themes are facts a player recognises at the table (the words are in :mod:`tute.i18n`,
``puzzleTheme_<code>``), in the order they are found; a puzzle has at least one:

- ``cante``: the answer is a cante (``forty`` for the 40), or ``cante_timing``: it takes the
  trick that lets the seat sing a marriage it holds;
- ``cante_later``: a cante could be sung now and the answer is something else (the stock
  games: a cante is sung on one's turn after a won trick, one a trick);
- ``exchange_7``: the answer is the exchange of the trump 7 (or 2) for the upcard;
- ``upcard``: the last trick of the stock (its winner draws the last face-down card, the
  upcard goes to the last drawer): the answer plays a card to it;
- ``last_ten``: two tricks or fewer are left: the ten of the last trick (diez de últimas);
- ``arrastre``: the answer leads a trump (drawing the others' trumps);
- ``ruff`` / ``overtrump``: the answer trumps a plain-suit trick (over another trump);
- ``partner_exemption``: the partner is winning the trick and the answer does not head it,
  though a card that would was legal; ``load_partner`` when it gives the partner points;
- ``duck``: an opponent is winning the trick and the answer lets it, though it could win;
- ``take``: the answer wins the trick, and some other legal card would not;
- ``lead`` / ``follow``: a choice of lead or of follow with none of the above.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import Action, Exchange
from ..cards import Card
from ..rules import Declaration, marriage_mask, trick_winner

if TYPE_CHECKING:
    from ..deal import Deal

__all__ = ["THEMES", "themes_of"]

THEMES = ("cante", "forty", "cante_timing", "cante_later", "exchange_7", "upcard", "last_ten",
          "arrastre", "ruff", "overtrump", "partner_exemption", "load_partner", "duck", "take",
          "lead", "follow")


def _wins(deal: Deal, card: Card) -> bool:
    """Does ``card``, played now, head the trick so far?"""
    cards = [c.index for _s, c in deal.trick] + [card.index]
    trump = None if deal.trump is None else int(deal.trump)
    return trick_winner(cards, trump, deal.order) == len(cards) - 1


def _current_winner(deal: Deal) -> int | None:
    trick = deal.trick
    if not trick:
        return None
    trump = None if deal.trump is None else int(deal.trump)
    return trick[trick_winner([c.index for _s, c in trick], trump, deal.order)][0]


def _unsung_marriage(deal: Deal, seat: int) -> bool:
    sung = {d.suit for s, d, _p in deal.cantes if d.suit is not None}
    if any(d.kind == "cuarenta" for _s, d, _p in deal.cantes) and deal.trump is not None:
        sung.add(deal.trump)
    hand = deal.hand(seat).mask
    return any(hand & marriage_mask(s, deal.order) == marriage_mask(s, deal.order)
               for s in range(4) if all(int(x) != s for x in sung if x is not None))


def _card_themes(deal: Deal, card: Card, legal: list[Action]) -> list[str]:
    seat = deal.to_move
    assert seat is not None
    cards = [a for a in legal if isinstance(a, Card)]
    trick = deal.trick
    trump = deal.trump
    out: list[str] = []
    if not trick:
        if trump is not None and card.suit == trump and any(c.suit != trump for c in cards):
            out.append("arrastre")
        return out
    wins = _wins(deal, card)
    lead = trick[0][1].suit
    if trump is not None and card.suit == trump and lead != trump:
        out.append("overtrump" if any(c.suit == trump for _s, c in trick) else "ruff")
    winner = _current_winner(deal)
    partner = (winner is not None and winner != seat
               and deal.side_of(winner) == deal.side_of(seat) and deal.variant.partnerships)
    could_win = any(_wins(deal, c) for c in cards if c != card)
    if partner and not wins:
        if could_win:
            out.append("partner_exemption")
        if deal.order.points[card.index] >= 10:
            out.append("load_partner")
    elif not partner and not wins and could_win:
        out.append("duck")
    if wins and any(not _wins(deal, c) for c in cards if c != card):
        out.append("take")
        if len(trick) == deal.seats - 1 and _unsung_marriage(deal, seat):
            out.append("cante_timing")
    return out


def themes_of(deal: Deal, answer: str) -> list[str]:
    """The themes of the position ``deal`` (before the answer) whose right action is
    ``answer`` (its record notation)."""
    legal = deal.legal_actions()
    action = next(a for a in legal if str(a) == answer)
    out: list[str] = []
    if isinstance(action, Declaration):
        out.append("forty" if action.kind == "cuarenta" else "cante")
    elif isinstance(action, Exchange):
        out.append("exchange_7")
    elif any(isinstance(a, Declaration) for a in legal):
        out.append("cante_later")
    if isinstance(action, Card):
        if 0 < deal.stock_count <= deal.seats:
            # the last draw round: who wins this trick decides who gets the upcard
            out.append("upcard")
        out += _card_themes(deal, action, legal)
    seat = deal.to_move
    assert seat is not None
    if len(deal.hand(seat)) <= 2 and deal.stock_count == 0:
        out.append("last_ten")
    if not out:
        out.append("follow" if deal.trick else "lead")
    return out
