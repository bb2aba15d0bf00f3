"""Subastado's auction before the first lead (rules.md §5): the bids, the idle dealer's
takeover, the widow's discard and the declarer's choice of trumps. An :class:`Auction` is one
immutable part of the deal's state, there only in the game that has an auction (None in the
others) and replaced when it changes, so that undo's snapshot keeps it by reference; the
functions here play its polls. What the game decides (the bids allowed, who speaks next, the
contract) it answers as data (:mod:`tute.games.subastado`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from . import endings
from .actions import PASS, TAKEOVER, Action, Bid, ChooseTrump, Discard, TakeOver
from .cards import Suit, cards_of
from .events import AuctionWon, BidMade, Discarded, TookOver, TrumpNamed
from .games.base import BID, DISCARD, TRUMP, AuctionRules, Poll
from .games.base import TAKEOVER as _TAKEOVER
from .games.subastado import NEW_AUCTION
from .messages import Refusal
from .phase import PLAY, POLL

if TYPE_CHECKING:
    from .deal import Deal


class Auction:
    """The auction and what it decided. Never changed once made (a new one replaces it)."""

    __slots__ = ("bidding", "contract", "widow", "discard")

    def __init__(self, bidding: tuple[int, int, int, int], contract: tuple[int, int, bool] | None,
                 widow: int, discard: int) -> None:
        self.bidding: Final = bidding  # bid, bidder, passed seats (mask), spoken (mask)
        self.contract: Final = contract  # declarer, bid, taken over
        # with widow_card: the face-down 40th card (-1 after the discard), and the card the
        # declarer put aside (counts for him)
        self.widow: Final = widow
        self.discard: Final = discard

    def __repr__(self) -> str:
        return (f"Auction(bidding={self.bidding}, contract={self.contract}, "
                f"widow={self.widow}, discard={self.discard})")


def opening(widow: int) -> Auction:
    """The auction before anybody has spoken, over the widow dealt (-1: none)."""
    return Auction(NEW_AUCTION, None, widow, -1)


def _rules(deal: Deal) -> AuctionRules:
    """The deal's game as the auction's rules (only a game with an auction has an Auction)."""
    return deal._game  # type: ignore[return-value]


def poll_actions(deal: Deal, seat: int, kind: str) -> list[Action] | None:
    """The answers to an auction's poll of ``kind``; None if ``kind`` is not one."""
    if kind == BID:
        assert deal._auction is not None
        return [PASS, *(Bid(b) for b in _rules(deal).bids(deal._auction.bidding, deal.options))]
    if kind == _TAKEOVER:
        return [TAKEOVER, PASS]
    if kind == DISCARD:
        return [Discard(c) for c in cards_of(deal._hands[seat])]
    if kind == TRUMP:
        return [ChooseTrump(s) for s in Suit]
    return None


def refusal(deal: Deal, seat: int, act: Action, kind: str) -> Refusal | None:
    """Why a bid or a discard is refused while the poll ``kind`` waits; None if ``act`` is
    neither, or not that poll's."""
    if isinstance(act, Bid) and kind == BID:
        assert deal._auction is not None
        return _rules(deal).why_not_bid(act.points, deal._auction.bidding, deal.options)
    if isinstance(act, Discard) and kind == DISCARD:
        return Refusal.of("discard_not_held", card=str(act.card), seat=seat)
    return None


def apply(deal: Deal, seat: int, act: Action) -> None:
    """Apply a legal bid, takeover, discard or choice of trumps of ``seat``."""
    deal._actions.append(TAKEOVER if isinstance(act, TakeOver) else act)
    if isinstance(act, Bid):
        _bid(deal, seat, act)
    elif isinstance(act, Discard):
        _discard(deal, seat, act)
    elif isinstance(act, ChooseTrump):
        _choose_trump(deal, seat, act)
    else:
        _take_over(deal, seat)


def passed(deal: Deal, seat: int, kind: str) -> None:
    """``seat`` passed the auction's poll ``kind`` (a bid or the takeover)."""
    if kind == BID:
        auction = deal._auction
        assert auction is not None
        bid, bidder, out, spoken = auction.bidding
        deal._auction = Auction((bid, bidder, out | 1 << seat, spoken | 1 << seat),
                                auction.contract, auction.widow, auction.discard)
        _next(deal, seat)
    else:
        deal._queue = ()
        _after_takeover(deal)


def _bid(deal: Deal, seat: int, act: Bid) -> None:
    auction = deal._auction
    assert auction is not None
    _points, _bidder, out, spoken = auction.bidding
    deal._auction = Auction((act.points, seat, out, spoken | 1 << seat), auction.contract,
                            auction.widow, auction.discard)
    deal._events.append(BidMade(seat, act.points))
    _next(deal, seat)


def _next(deal: Deal, seat: int) -> None:
    """The next speaker after ``seat``; or, the auction closed, its contract (or the
    redeal when all passed) and the takeover poll."""
    auction = deal._auction
    assert auction is not None
    game = _rules(deal)
    order = deal._trick_seats(deal.mano, deal._k)
    nxt = game.next_bidder(auction.bidding, seat, order, deal.options)
    if nxt is not None:
        deal._queue = (Poll(nxt, BID),)
        deal._to_move = nxt
        return
    contract = game.contract(auction.bidding, deal.mano, deal.options)
    if contract is None:
        deal._void = "all_pass"
        endings.finish(deal, "void", None)
        return
    deal._auction = Auction(auction.bidding, contract, auction.widow, auction.discard)
    deal._events.append(AuctionWon(contract[0], contract[1]))
    poll = game.takeover_poll(deal._n, deal.dealer, deal.options)
    if poll is not None:
        deal._queue = (poll,)
        deal._to_move = poll.seat
    else:
        _after_takeover(deal)


def _take_over(deal: Deal, seat: int) -> None:
    """The idle dealer takes the top bidder's cards and contract, raised."""
    auction = deal._auction
    assert auction is not None and auction.contract is not None
    bidder = auction.contract[0]
    contract = _rules(deal).take_over(auction.contract, seat, deal.options)
    deal._auction = Auction(auction.bidding, contract, auction.widow, auction.discard)
    hands = list(deal._hands)
    hands[seat], hands[bidder] = hands[bidder], 0
    deal._hands = tuple(hands)
    known = list(deal._known)
    known[seat], known[bidder] = known[bidder], 0
    deal._known = tuple(known)
    deal._set_active([s for s in range(deal._n) if hands[s]])
    deal._events.append(TookOver(seat, bidder, contract[1]))
    deal._queue = ()
    _after_takeover(deal)


def _after_takeover(deal: Deal) -> None:
    auction = deal._auction
    assert auction is not None and auction.contract is not None
    declarer = auction.contract[0]
    deal._phase = POLL
    deal._to_move = declarer
    if auction.widow >= 0:  # the declarer takes the widow
        hands = deal._hands
        deal._hands = (*hands[:declarer], hands[declarer] | 1 << auction.widow,
                       *hands[declarer + 1:])
    deal._queue = (_rules(deal).declarer_poll(declarer, auction.widow),)


def _discard(deal: Deal, seat: int, act: Discard) -> None:
    auction = deal._auction
    assert auction is not None
    card = act.card.index
    hands = deal._hands
    deal._hands = (*hands[:seat], hands[seat] & ~(1 << card), *hands[seat + 1:])
    deal._auction = Auction(auction.bidding, auction.contract, -1, card)
    deal._events.append(Discarded(seat, act.card))
    deal._queue = (Poll(seat, TRUMP),)


def _choose_trump(deal: Deal, seat: int, act: ChooseTrump) -> None:
    deal.trump = act.suit
    deal._events.append(TrumpNamed(seat, act.suit))
    deal._queue = ()
    deal._phase = PLAY
    leader = _rules(deal).first_leader(seat, deal.dealer, deal._hands, deal.options)
    deal._leader = deal._to_move = leader
