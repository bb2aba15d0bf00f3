"""The cards outside the hands that a deal's players may take: the stock games' stock and
upcard (drawn after every trick, the upcard taken by exchange), arrastrado's table card and
the exchanges made. A :class:`Stock` is one immutable part of the deal's state, replaced when
it changes, so that undo's snapshot keeps it by reference; the functions here play its part
of a deal (the draw, the exchange rights, the exchange itself)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .actions import Action, Exchange
from .cards import ALL_CARDS
from .events import Drew, Exchanged
from .phase import PLAY, POLL
from .rules import _SEVEN, _TWO, available_declarations

if TYPE_CHECKING:
    from .deal import Deal
    from .games.base import Layout, StockDraw


class Stock:
    """The stock, the face-up cards an exchange may take, and the exchange rights. Never
    changed once made (a new one replaces it); a class with slots rather than a named tuple,
    as a playout reads it at every turn and makes one at every trick."""

    __slots__ = ("cards", "upcard", "pending", "table_card", "exchanges", "due")

    def __init__(self, cards: tuple[int, ...], upcard: int, pending: bool, table_card: int,
                 exchanges: tuple[tuple[int, int, int], ...], due: int) -> None:
        self.cards: Final = cards  # the stock games' stock, top first, the upcard last
        self.upcard: Final = upcard  # the face-up card under the stock (-1: none)
        # a draw is due once the polls of the trick's end are answered
        self.pending: Final = pending
        # arrastrado: the card left on the table (out of play), -1: none
        self.table_card: Final = table_card
        self.exchanges: Final = exchanges  # (seat, card given, card taken)
        # The exchange rights kept for a seat's next turn (rules-decisions.md, "Asking
        # nobody"): the 7 and 2 of trumps it held when the rule book granted the right. A
        # mask of cards, as a card names the hand that holds it; never shown in a view or an
        # event.
        self.due: Final = due

    def __repr__(self) -> str:
        return (f"Stock(cards={self.cards}, upcard={self.upcard}, pending={self.pending}, "
                f"table_card={self.table_card}, exchanges={self.exchanges}, due={self.due})")


def dealt(layout: Layout) -> Stock:
    """The stock as the layout deals it."""
    stock = layout.stock
    return Stock(stock, stock[-1] if stock else -1, False, layout.table_card, (), 0)


def swap_table(deal: Deal, seat: int, give: int) -> None:
    """``seat`` gives ``give`` (the 7 or the 2 of trumps) for the face-up card: the upcard,
    or arrastrado's table card."""
    pile = deal._pile
    take = pile.table_card if pile.table_card >= 0 else pile.upcard
    hands = deal._hands
    deal._hands = (*hands[:seat], (hands[seat] & ~(1 << give)) | (1 << take),
                   *hands[seat + 1:])
    known = deal._known
    deal._known = (*known[:seat], (known[seat] & ~(1 << give)) | (1 << take),
                   *known[seat + 1:])
    exchanges = (*pile.exchanges, (seat, give, take))
    if pile.table_card >= 0:
        deal._pile = Stock(pile.cards, pile.upcard, pile.pending, give, exchanges, pile.due)
    else:
        deal._pile = Stock((*pile.cards[:-1], give), give, pile.pending, pile.table_card,
                           exchanges, pile.due)
    deal._events.append(Exchanged(seat, ALL_CARDS[give], ALL_CARDS[take]))


# ---------------------------------------------------------------- exchange rights

def exchange_target(deal: Deal) -> int | None:
    """The trump card that may take the upcard (or arrastrado's table card) now."""
    pile = deal._pile
    table = pile.table_card
    return deal._game.exchange_target(
        table if table >= 0 else pile.upcard, deal.trump,
        bool(deal._completed or deal._trick), len(pile.cards), deal.options)


def exchange_public(deal: Deal) -> bool:
    """Could anybody exchange now, judging by public information only? (Asking a seat
    only when it holds the 7 would tell the table that it does.)"""
    target = exchange_target(deal)
    return (target is not None and not deal._played >> target & 1
            and deal._game.exchange_open(len(deal._pile.cards), deal._n, deal.options))


def exchanges_for(deal: Deal, seat: int) -> list[Action]:
    """The exchange ``seat`` may make now by the rules of the moment (a poll, its own
    turn with own_turn_any or any_trick_won)."""
    target = exchange_target(deal)
    if target is None or not deal._hands[seat] >> target & 1:
        return []
    if not deal._game.exchange_open(len(deal._pile.cards), deal._n, deal.options):
        return []
    return [Exchange(ALL_CARDS[target])]


def due_exchange(deal: Deal, seat: int) -> list[Action]:
    """The exchange ``seat`` may make by a right kept for its turn: the card that may take
    the upcard now, if it is due and still in the hand."""
    due = deal._pile.due & deal._hands[seat]
    if not due:
        return []
    target = exchange_target(deal)
    if target is None or not due >> target & 1:
        return []
    return [Exchange(ALL_CARDS[target])]


def kept_rights(deal: Deal, seats: tuple[int, ...]) -> int:
    """The exchange rights of ``seats`` kept for their next turn, over the cards they hold
    now (a 7 drawn next was not held when the right was granted). Set at every stock
    trick's end, so a right lapses once its seat has played: a seat has one turn a trick
    (and the partner's cante poll before it), and the next trick's end replaces it."""
    if not seats or deal.trump is None:
        return 0
    t = 10 * int(deal.trump)
    held = 0
    for s in seats:
        held |= deal._hands[s]
    if deal._trace is not None:
        deal._trace.append((len(deal._actions), seats))
    return held & (1 << (t + _SEVEN) | 1 << (t + _TWO))


def sings_after_exchange(deal: Deal, seat: int) -> bool:
    """Whether the exchange kept for ``seat`` would give it a declaration (the upcard a
    king, caballo or sota): then it is asked now, as it was when it exchanged first."""
    ex = due_exchange(deal, seat)
    if not ex:
        return False
    give = ex[0].card.index  # type: ignore[union-attr]
    hand = deal._hands[seat] & ~(1 << give) | 1 << deal._pile.upcard
    o = deal.options
    return bool(available_declarations(
        hand, deal.trump, deal.order, sung_suits=deal._sung,
        forty_forfeited=bool(deal._forty_lost >> seat & 1), forty_first=o.forty_first,
        tute_enabled=o.tute_enabled))


# ---------------------------------------------------------------- after a trick

def after_trick(deal: Deal, winner: int) -> None:
    """The exchange right (kept for the seat's next turn, or in the last round a poll),
    with cante_before_draw the declaration window and its poll; then the draw."""
    pile = deal._pile
    polls, window, rights = deal._game.after_trick(
        winner, deal._n, deal.options, exchange_public(deal), len(pile.cards) <= deal._n)
    due = kept_rights(deal, rights)
    if window:
        deal._window = deal._window_seats = window
        deal._window_declared = False
    if polls:
        deal._pile = Stock(pile.cards, pile.upcard, True, pile.table_card, pile.exchanges, due)
        deal._queue = tuple(polls)
        deal._phase = POLL
        deal._to_move = polls[0].seat
    else:
        draw(deal, due)


def draw(deal: Deal, due: int) -> None:
    """The draw after a trick, winner first; ``due``: the exchange rights kept meanwhile."""
    pile = deal._pile
    deal._window = deal._window_seats = 0
    winner = deal._leader
    stock = pile.cards
    game: StockDraw = deal._game  # type: ignore[assignment]  # only a stock game draws
    deal._hands, deal._known, draws = game.draw(stock, deal._hands, deal._known, winner)
    events = deal._events
    for seat, card, public in draws:
        events.append(Drew(seat, ALL_CARDS[card], public))
    left = stock[deal._n:]
    deal._pile = Stock(left, pile.upcard, False, pile.table_card, pile.exchanges, due)
    deal._to_move = winner
    deal._phase = PLAY
    o = deal.options
    if deal._game.window_after_draw(len(left), o):
        first = o.cante_restriction != "none" and deal._first_win_of(winner)
        deal._open_window(winner, first)
