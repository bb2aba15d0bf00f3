"""One deal of any game of the family, played action by action: ``Deal.new`` →
``legal_actions``/``apply`` → ``result``.

The deal is a generic engine: where the games differ — the layout, the polls before the first
lead, what follows a trick, the score — it asks its game (:mod:`tute.games`), whose answers are
data. State is a handful of ints and tuples (hands are 40-bit masks) so that ``copy``, ``undo``
and random playouts are cheap. Every action is validated with a reason and leaves frozen
events.

The class keeps the hands, the tricks, the declaration windows, the polls, the events and
undo. Beside it: the phase components, parts of its state undone with it —
:mod:`tute.stockpile` (the stock, the draw, the exchanges) and :mod:`tute.auction`
(subastado's auction) —, and :mod:`tute.dealing` (setting a deal up), :mod:`tute.refusals`
(why an action is refused), :mod:`tute.endings` (how a deal ends, and its score),
:mod:`tute.audience` (what a seat is told), :mod:`tute.position` (the kernel's snapshot) and
:mod:`tute.deal_records` (records).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from . import auction, audience, deal_records, dealing, endings, position, refusals, stockpile
from .actions import (
    CLAIM,
    PASS,
    STOP,
    THROW,
    Action,
    Bid,
    ChooseTrump,
    Claim,
    Discard,
    Exchange,
    Stop,
    TakeOver,
    ThrowIn,
    parse_action,
)
from .auction import Auction
from .cards import ALL_CARDS, Card, CardSet, RankOrder, Suit, cards_of
from .errors import IllegalActionError, InvalidNotationError, TuteError
from .events import CardPlayed, Declared, Event, Passed, TrickTaken
from .games import Game
from .games.base import BID, CANTE, EXCHANGE, TUTE, Extras, Layout, Poll
from .games.base import CLAIM as _CLAIM
from .games.base import TAKEOVER as _TAKEOVER
from .games.base import THROW as _THROW
from .i18n import refusal_text
from .messages import Refusal
from .phase import OVER as _OVER
from .phase import PLAY as _PLAY
from .phase import POLL as _POLL
from .position import Position
from .rules import (
    Declaration,
    available_declarations,
    declaration_cards,
    legal_in_trick,
    marriage_mask,
)
from .stockpile import Stock
from .variants import Options, Variant
from .views import DealResult, SeatView, TrickRecord

__all__ = ["Deal", "DealResult", "Position", "SeatView", "TrickRecord"]

# Per suit, the cards of every 10-bit pattern in display order (strongest first).
_SUIT_CARDS: Final = tuple(
    tuple(cards_of(pattern << (10 * s)) for pattern in range(1024)) for s in range(4)
)


# The state an action may change, by component; ``undo`` restores it as one snapshot.
@functools.lru_cache(maxsize=256)
def _seat_orders(nxt: tuple[int, ...], count: int) -> tuple[tuple[int, ...], ...]:
    """For each leader, the ``count`` seats of a trick along ``nxt``: worked out once per
    order of play, so that a trick's end (a playout's hot path) only looks them up."""
    out = []
    for leader in range(len(nxt)):
        seats = [leader]
        for _ in range(count - 1):
            seats.append(nxt[seats[-1]])
        out.append(tuple(seats))
    return tuple(out)


_STATE: Final = (
    # the cards: hands, what is publicly known of them, played cards, the trick in progress
    "_hands", "_known", "_played", "_trick", "_leader", "_to_move", "_best", "_best_seat",
    "_ruffed", "trump", "_nxt", "_k", "_orders",
    # the tally: card points by side, tricks by seat, the completed tricks, cantes made (and
    # the suits of the 20s told to their singer alone)
    "_points", "_tricks_won", "_completed", "_cantes", "_hidden",
    # declaration windows and their rights
    "_sung", "_forty_lost", "_window", "_window_seats", "_window_declared", "_side_first",
    "_side_forfeit",
    # the phase and its polls; the end
    "_phase", "_queue", "_result", "_revokes", "_void",
    # the phase components: the stock and the face-up cards (stockpile.Stock), subastado's
    # auction (auction.Auction; None in the other games), each one immutable value
    "_pile", "_auction",
)


def _state_methods() -> tuple[Callable[[Deal], None], Callable[[Deal], Any]]:
    """``Deal._save`` and the restoring half of ``Deal.undo``, generated from ``_STATE``: the
    names are written once, yet the snapshot is one tuple display of attribute loads (as
    fast as spelling them out, which ``attrgetter`` and loops are not). The length of the
    event log goes last: undo cuts the log back to it."""
    names = ", ".join(f"self.{name}" for name in _STATE)
    code = (f"def _save(self):\n    self._undo.append(({names}, len(self._events)))\n"
            f"def _restore(self):\n    ({names}, n) = self._undo.pop()\n"
            f"    del self._events[n:]\n")
    scope: dict[str, Any] = {}
    exec(code, scope)  # built from the constant names above, nothing else
    return scope["_save"], scope["_restore"]


class Deal:
    """A deal of a game of the Tute family.

    >>> deal = Deal.new("tute_parejas", seed=7, dealer=3)
    >>> deal.to_move, deal.trump_card
    (0, Card('2e'))
    >>> while not deal.is_over():
    ...     _ = deal.apply(deal.legal_actions()[0])
    >>> sum(deal.result().card_points)
    120
    """

    __slots__ = (
        # fixed for the deal
        "variant", "options", "order", "seed", "dealer", "mano", "trump_card", "total_tricks",
        "carry", "_game", "_n", "_sides", "_partners", "_exempt", "_undertrump",
        "_head_after_ruff", "_higher", "_points_table", "_claim_mode", "_turn_exchange",
        "_stock_rule", "_trick_cantes_on", "_turn_extras",
        "_layout",
        "_initial_hands",
        *_STATE,
        # bookkeeping
        "_actions", "_events", "_undo", "_legal_cache", "_records", "_trace",
    )

    variant: Variant
    options: Options
    order: RankOrder
    seed: int | None
    dealer: int
    mano: int
    trump: Suit | None
    trump_card: Card | None
    total_tricks: int
    carry: tuple[int, ...] | None
    _game: Game
    _n: int
    _sides: int
    _partners: bool
    _exempt: bool
    _undertrump: bool
    _head_after_ruff: bool
    _higher: tuple[int, ...]
    _points_table: tuple[int, ...]
    _claim_mode: bool
    _turn_exchange: int  # exchanges on one's own turn: 0 never, 1 always, 2 once side won
    _stock_rule: str  # the play duties while the stock lasts
    _trick_cantes_on: bool  # the cards of a trick may sing (cabrón)
    _turn_extras: bool  # a turn may offer more than cards and cantes (see _with_turn_extras)
    _layout: Layout  # the cards outside the hands as dealt
    _initial_hands: tuple[int, ...]
    _hands: tuple[int, ...]
    _known: tuple[int, ...]
    _played: int
    _trick: tuple[int, ...]
    _leader: int
    _to_move: int
    _best: int
    _best_seat: int
    _ruffed: bool
    _nxt: tuple[int, ...]  # next active seat in playing order, per seat
    _k: int  # active seats (cards per trick)
    _points: tuple[int, ...]
    _tricks_won: tuple[int, ...]
    _completed: tuple[tuple[int, tuple[int, ...], int, int], ...]
    _cantes: tuple[tuple[int, Declaration, int], ...]
    # suits of the 20s whose suit only their singer is told (Game.hides_cante): a 20 of a suit
    # is sung once a deal, so the suit names the cante (see audience.hidden_from)
    _hidden: int
    _sung: int
    _forty_lost: int
    _window: int
    _window_seats: int
    _window_declared: bool
    _side_first: int
    _side_forfeit: int
    _phase: int
    _queue: tuple[Poll, ...]
    _result: DealResult | None
    _revokes: tuple[tuple[int, int], ...]  # (seat, action index) of illegal plays (claim mode)
    _void: str  # why the deal was thrown in ("" when it was played)
    _pile: Stock  # the stock, the upcard, arrastrado's table card, the exchanges
    _auction: Auction | None
    _actions: list[Action]
    _events: list[Event]
    _undo: list[tuple[Any, ...]]
    _legal_cache: int
    # the completed tricks as records, with the ``_completed`` they were built from
    _records: tuple[tuple[tuple[int, tuple[int, ...], int, int], ...], tuple[TrickRecord, ...]]
    # Reading version-1 records (records.V1Replay): where an exchange question was
    # turned into a kept right, as (actions before it, the seats in asking order); else None.
    _trace: list[tuple[int, tuple[int, ...]]] | None

    # ---------------------------------------------------------------- construction

    @classmethod
    def new(
        cls,
        variant: str | Variant = "tute_parejas",
        seed: int | None = None,
        dealer: int | None = None,
        options: Mapping[str, Any] | Options | None = None,
        *,
        hands: Sequence[Sequence[str | Card]] | None = None,
        trump_card: str | Card | None = None,
        trump: str | Suit | None = None,
        upcard: str | Card | None = None,
        stock: Sequence[str | Card] | None = None,
        table_card: str | Card | None = None,
        widow: str | Card | None = None,
        carry: Sequence[int] | None = None,
    ) -> Deal:
        """A new deal, shuffled from ``seed`` or laid out explicitly with ``hands``.

        ``dealer`` defaults to one drawn from the seed. Hands are listed by seat (in
        subastado with ``seats=4`` the dealer's hand is empty). Explicit layouts by game:
        parejas (and arrastrado for 4) ``trump_card``, one of the dealer's cards (default:
        the dealer's last), or ``trump`` alone (a suit; no card turned — the
        ``two_of_oros_mano`` first deal); stock games ``upcard`` and ``stock`` (face down, top
        first, without the upcard); arrastrado for 3 the ``table_card``; subastado with
        ``widow_card`` the ``widow``. ``carry`` makes this a deal *de vueltas* with the
        previous totals carried over.
        """
        return dealing.new_deal(
            cls, variant, seed, dealer, options,
            Extras(trump_card, trump, upcard, stock, table_card, widow), hands, carry)

    def _set_active(self, active: Sequence[int]) -> None:
        """Play passes among ``active`` seats, counter-clockwise from the dealer's right."""
        n = self._n
        self._set_order([s for s in ((self.dealer + 1 + k) % n for k in range(n))
                         if s in active])

    def _set_order(self, order: Sequence[int]) -> None:
        """Play passes along ``order`` (the active seats from the dealer's right)."""
        nxt = list(range(self._n))
        for i, s in enumerate(order):
            nxt[s] = order[(i + 1) % len(order)]
        self._nxt = tuple(nxt)
        self._k = len(order)
        self._orders = _seat_orders(self._nxt, self._k)

    # ---------------------------------------------------------------- public state

    @property
    def seats(self) -> int:
        return self._n

    @property
    def to_move(self) -> int | None:
        return None if self._phase == _OVER else self._to_move

    def is_over(self) -> bool:
        return self._phase == _OVER

    def hand(self, seat: int) -> CardSet:
        return CardSet(self._hands[self._seat_arg(seat)])

    @property
    def hands(self) -> tuple[CardSet, ...]:
        return tuple(CardSet(h) for h in self._hands)

    @property
    def initial_hands(self) -> tuple[CardSet, ...]:
        return tuple(CardSet(h) for h in self._initial_hands)

    @property
    def initial_stock(self) -> tuple[Card, ...]:
        """Stock games: the face-down stock as dealt, top first, without the upcard."""
        return tuple(ALL_CARDS[c] for c in self._layout.stock[:-1])

    @property
    def initial_table_card(self) -> Card | None:
        """Arrastrado for three: the 40th card as dealt, before the compulsory exchanges."""
        tc = self._layout.table_card
        return None if tc < 0 else ALL_CARDS[tc]

    @property
    def initial_widow(self) -> Card | None:
        """Subastado with ``widow_card``: the face-down 40th card as dealt."""
        widow = self._layout.widow
        return None if widow < 0 else ALL_CARDS[widow]

    @property
    def initial_upcard(self) -> Card | None:
        stock = self._layout.stock
        return ALL_CARDS[stock[-1]] if stock else None

    @property
    def upcard(self) -> Card | None:
        """The face-up card under the stock, while it is there (stock games)."""
        pile = self._pile
        return ALL_CARDS[pile.upcard] if pile.cards else None

    @property
    def stock_count(self) -> int:
        """Cards left in the stock, the upcard included."""
        return len(self._pile.cards)

    @property
    def played(self) -> CardSet:
        """Every card played so far, the trick on the table included (public)."""
        return CardSet(self._played)

    @property
    def in_stock_phase(self) -> bool:
        """True while the trick being played (or the next one) is a stock-phase trick."""
        return bool(self._pile.cards)

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        return tuple(zip(self._trick_seats(self._leader, len(self._trick)),
                         (ALL_CARDS[c] for c in self._trick), strict=True))

    def _trick_seats(self, leader: int, count: int) -> list[int]:
        """The first ``count`` seats in playing order from ``leader``."""
        seats: list[int] = []
        seat = leader
        nxt = self._nxt
        for _ in range(count):
            seats.append(seat)
            seat = nxt[seat]
        return seats

    @property
    def tricks(self) -> tuple[TrickRecord, ...]:
        # Built once per completed trick: views read them after every action, and the server
        # builds a view for every update. ``_completed`` is an immutable tuple replaced on
        # each trick (and restored by undo), so its identity tells whether the records hold.
        done, records = self._records
        completed = self._completed
        if done is completed:
            return records
        n = len(records)
        if len(completed) < n or completed[:n] != done:
            n, records = 0, ()  # undone, or another line of play: rebuilt from the start
        # the order of play is fixed before the first lead, so it gives every trick's seats
        records += tuple(
            TrickRecord(i + 1, lead, tuple(ALL_CARDS[c] for c in cards), win, pts,
                        tuple(self._trick_seats(lead, len(cards))))
            for i, (lead, cards, win, pts) in enumerate(completed[n:], n)
        )
        self._records = (completed, records)
        return records

    @property
    def play_order(self) -> tuple[int, ...]:
        """The seats that play this deal, in playing order from the dealer's right (a seat
        that sits out, such as subastado's idle dealer, is left out)."""
        n, nxt = self._n, self._nxt
        return tuple(s for s in ((self.dealer + 1 + k) % n for k in range(n)) if nxt[s] != s)

    @property
    def trick_number(self) -> int:
        """1-based number of the trick being played (or the last one, when over)."""
        return min(len(self._completed) + 1, self.total_tricks)

    @property
    def cantes(self) -> tuple[tuple[int, Declaration, int], ...]:
        return self._cantes

    @property
    def exchanges(self) -> tuple[tuple[int, Card, Card], ...]:
        return tuple((s, ALL_CARDS[g], ALL_CARDS[t]) for s, g, t in self._pile.exchanges)

    @property
    def card_points(self) -> tuple[int, ...]:
        return self._points

    @property
    def actions(self) -> tuple[Action, ...]:
        return tuple(self._actions)

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._events)

    # ---------------------------------------------------------------- per audience
    # (what a seat or a spectator is told: tute.audience)

    def events_for(self, seat: int | None, start: int = 0, stop: int | None = None
                   ) -> list[Event]:
        """The event log as ``seat`` sees it (``None``: a spectator): other seats' draws of
        face-down cards are hidden (their ``card`` is ``None``), and so is the suit of
        another seat's 20 sung hidden (a :data:`~tute.rules.HIDDEN_VEINTE` showing no
        cards). ``start``/``stop``: only that slice of it, as
        ``events_for(seat)[start:stop]`` (the server sends each action's events alone)."""
        return audience.events_for(self, seat, start, stop)

    def cantes_for(self, seat: int | None) -> tuple[tuple[int, Declaration, int], ...]:
        """The cantes as ``seat`` (``None``: a spectator) sees them: another seat's 20 sung
        hidden is a :data:`~tute.rules.HIDDEN_VEINTE` (who sang it and its points stay)."""
        return audience.cantes_for(self, seat)

    def known_for(self, seat: int | None) -> tuple[CardSet, ...]:
        """Per seat, the cards ``seat`` (``None``: a spectator) knows to be in that hand: those
        shown to the table (a turned trump card, a taken upcard, a cante's cards), less the
        cards of another seat's 20 sung hidden that nothing else showed."""
        return audience.known_for(self, seat)

    @property
    def hides_cantes(self) -> bool:
        """Whether some seat sang a 20 whose suit the others are not told (then the seats'
        views differ in their cantes and known cards, not only in their hands)."""
        return bool(self._hidden)

    def side_of(self, seat: int) -> int:
        return seat % 2 if self._partners else seat

    @property
    def game(self) -> Game:
        """The deal's game (:mod:`tute.games`): what makes it differ from the others."""
        return self._game

    def _seat_arg(self, seat: int) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self._n:
            raise TuteError(f"invalid seat {seat!r}: expected 0..{self._n - 1}")
        return seat

    # ---------------------------------------------------------------- legality

    def _legal_cards(self) -> int:
        """Mask of the cards the player to move may play: :func:`tute.rules.legal_in_trick`
        on the trick's winning card, which the deal keeps as it plays."""
        if self._legal_cache >= 0:
            return self._legal_cache
        seat = self._to_move
        trick = self._trick
        if not trick:
            mask = self._hands[seat]  # the leader plays anything (saves a call per trick)
        else:
            mask = legal_in_trick(
                self._hands[seat], trick, self._best, self._ruffed, self.trump, self.order,
                self._stock_rule if self._pile.cards else "full",
                self._exempt and (self._best_seat - seat) % 2 == 0,
                self._undertrump, self._head_after_ruff,
            )
        self._legal_cache = mask
        return mask

    def _available(self, seat: int) -> list[Declaration]:
        o = self.options
        return available_declarations(
            self._hands[seat], self.trump, self.order, sung_suits=self._sung,
            forty_forfeited=bool(self._forty_lost >> seat & 1), forty_first=o.forty_first,
            tute_enabled=o.tute_enabled,
        )

    def _decls(self, seat: int) -> list[Declaration]:
        """Declarations ``seat`` may make right now."""
        if self._phase == _POLL and self._queue and self._queue[0].kind == TUTE:
            return [d for d in self._available(seat) if d.is_tute]
        if not self._window >> seat & 1:
            return []
        return self._available(seat)

    def legal_actions(self) -> list[Action]:
        """The actions the player to move may take: exchanges and declarations first, then
        cards in display order; ``[]`` when the deal is over."""
        phase = self._phase
        if phase == _PLAY:
            seat = self._to_move
            mask = self._hands[seat] if self._claim_mode else self._legal_cards()
            t = _SUIT_CARDS
            acts: list[Action] = [*t[0][mask & 0x3FF], *t[1][mask >> 10 & 0x3FF],
                                  *t[2][mask >> 20 & 0x3FF], *t[3][mask >> 30]]
            if self._window >> seat & 1:
                decls: list[Action] = list(self._available(seat))
                if decls:
                    acts = decls + acts
            if self._turn_extras:
                acts = self._with_turn_extras(seat, acts)
            elif self._pile.due:
                acts = stockpile.due_exchange(self, seat) + acts
            return acts
        if phase == _POLL:
            return self._poll_actions()
        return []

    def _with_turn_extras(self, seat: int, acts: list[Action]) -> list[Action]:
        """A turn's actions besides cards and cantes: an exchange on one's own turn, a
        renuncio claim, stopping play de vueltas."""
        turn = self._turn_exchange
        ex: list[Action] = []
        pile = self._pile
        if turn and pile.cards and (turn == 1 or self._side_first >> self.side_of(seat) & 1):
            ex = stockpile.exchanges_for(self, seat)
        if not ex and pile.due:
            ex = stockpile.due_exchange(self, seat)
        if ex:
            acts = ex + acts
        if self._claim_mode and endings.can_claim(self, seat):
            acts.append(CLAIM)
        if (self.carry is not None and not self._trick and self._completed
                and self.options.vueltas_claim == "manual"):
            acts.append(STOP)
        return acts

    def _poll_actions(self) -> list[Action]:
        seat, kind = self._queue[0]
        if kind == EXCHANGE:
            return [*stockpile.exchanges_for(self, seat), *self._decls(seat), PASS]
        if kind == CANTE:  # the partner's turn to speak: a kept exchange may come first
            return [*stockpile.due_exchange(self, seat), *self._decls(seat), PASS]
        if kind == TUTE:
            return [*self._decls(seat), PASS]
        if kind == _THROW:
            weak = self.order.points_of(self._hands[seat]) <= (
                self.options.weak_hand_max_points or 0)
            return [THROW, PASS] if weak else [PASS]
        if kind == _CLAIM:
            return [CLAIM, PASS] if endings.can_claim(self, seat) else [PASS]
        bids = auction.poll_actions(self, seat, kind)
        if bids is None:
            raise AssertionError(kind)
        return bids

    def why_illegal(self, action: str | Action) -> str | None:
        """None if ``action`` is legal now, else the reason it is refused (English; see
        :meth:`refusal` for the reason as a value)."""
        why = self.refusal(action)
        return None if why is None else refusal_text("en", why)

    def card_refusals(self) -> dict[str, Refusal]:
        """{card: its :meth:`refusal`} for every card of the mover's hand that may not be
        played now (each as ``refusal(card)`` gives it, the duties worked out once)."""
        return refusals.card_refusals(self)

    def refusal(self, action: str | Action) -> Refusal | None:
        """None if ``action`` is legal now, else the :class:`~tute.messages.Refusal` of it."""
        return refusals.refusal(self, action)

    # ---------------------------------------------------------------- applying actions

    def apply(self, action: str | Action) -> Action:
        """Apply a legal action (or its notation) and return it; refuse anything else with
        :class:`IllegalActionError` and leave the deal unchanged."""
        act: Action
        if action.__class__ is Card:
            act = action
        else:
            try:
                act = parse_action(action)
            except InvalidNotationError as exc:
                why = Refusal.of("bad_notation", text=str(action), detail=str(exc))
                raise IllegalActionError(str(exc), action=str(action), refusal=why) from None
        if act.__class__ is Card and self._phase == _PLAY:
            card: Card = act
            seat = self._to_move
            legal = self._legal_cache  # mostly known: legal_actions() was just asked
            if legal < 0:
                legal = self._legal_cards()
            if not card.mask & legal:
                if not (self._claim_mode and card.mask & self._hands[seat]):
                    self._refuse(act)
                self._save()  # a renuncio, allowed at a table that claims them
                self._revokes = (*self._revokes, (seat, len(self._actions)))
            else:
                self._save()
            self._play(seat, card.index)
            return act
        if self._phase == _OVER or act not in self.legal_actions():
            self._refuse(act)
        self._save()
        self._legal_cache = -1
        seat = self._to_move
        if isinstance(act, Declaration):
            self._declare(seat, act)
        elif isinstance(act, Exchange):
            self._actions.append(act)
            stockpile.swap_table(self, seat, act.card.index)
            # the seat stays polled (a 2 may follow a 7 in the same window)
        elif isinstance(act, (Bid, ChooseTrump, Discard, TakeOver)):
            auction.apply(self, seat, act)
        elif isinstance(act, ThrowIn):
            endings.throw_in(self, seat)
        elif isinstance(act, Claim):
            endings.claim(self, seat)
        elif isinstance(act, Stop):
            endings.stop(self, seat)
        else:
            self._pass(seat)
        return act

    def _refuse(self, act: Action) -> None:
        why = self.refusal(act) or Refusal.of("not_legal_now")
        reason = refusal_text("en", why)
        who = "" if self._phase == _OVER else f"seat {self._to_move}: "
        raise IllegalActionError(f"illegal action {str(act)!r} ({who}{reason})",
                                 action=str(act), reason=reason, refusal=why)

    def _save(self) -> None:
        """Push the undo snapshot of the state (replaced by :func:`_state_methods`)."""
        raise NotImplementedError

    def _restore(self) -> None:
        """Pop the last undo snapshot into the state (replaced by :func:`_state_methods`)."""
        raise NotImplementedError

    def undo(self) -> Action:
        """Take back the last action and return it (for search and for 'undo' buttons)."""
        if not self._undo:
            raise TuteError("nothing to undo: no action has been applied")
        self._restore()
        self._legal_cache = -1
        act: Action = self._actions.pop()
        trace = self._trace
        while trace and trace[-1][0] > len(self._actions):
            trace.pop()
        return act

    def _play(self, seat: int, idx: int) -> None:
        self._legal_cache = -1
        self._actions.append(ALL_CARDS[idx])
        bit = 1 << idx
        if not self._trick and self._window_seats:
            self._close_window()
        hands = self._hands
        self._hands = (*hands[:seat], hands[seat] ^ bit, *hands[seat + 1:])
        self._played |= bit
        if self._known[seat] & bit:
            known = self._known
            self._known = (*known[:seat], known[seat] ^ bit, *known[seat + 1:])
        trick = (*self._trick, idx)
        self._trick = trick
        if len(trick) == 1:
            self._best = idx
            self._best_seat = seat
            self._ruffed = False
        else:
            best = self._best
            if idx // 10 == best // 10:
                if self._higher[best] >> idx & 1:
                    self._best = idx
                    self._best_seat = seat
            elif idx // 10 == self.trump:
                self._best = idx
                self._best_seat = seat
                self._ruffed = True
        self._events.append(CardPlayed(seat, ALL_CARDS[idx]))
        if len(trick) < self._k:
            self._to_move = self._nxt[seat]
            return
        self._end_trick(trick)

    def _end_trick(self, trick: tuple[int, ...]) -> None:
        winner = self._best_seat
        pts = sum(map(self._points_table.__getitem__, trick))
        number = len(self._completed) + 1
        side = winner % 2 if self._partners else winner
        points = self._points
        self._points = (*points[:side], points[side] + pts, *points[side + 1:])
        won = self._tricks_won
        self._tricks_won = (*won[:winner], won[winner] + 1, *won[winner + 1:])
        self._completed = (*self._completed, (self._leader, trick, winner, pts))
        self._events.append(TrickTaken(number, self._leader,
                                       tuple(map(ALL_CARDS.__getitem__, trick)), winner, pts,
                                       self._orders[self._leader]))
        self._trick = ()
        self._leader = winner
        self._to_move = winner
        first_win = not self._side_first >> side & 1
        self._side_first |= 1 << side
        if self._trick_cantes_on:
            self._trick_cantes(trick, winner)
        if number == self.total_tricks:
            if self._claim_mode:
                self._queue = tuple(Poll(s, _CLAIM) for s in self._trick_seats(winner, self._k))
                self._phase = _POLL
                self._to_move = winner
            else:
                endings.finish(self, "tricks", None)
            return
        if self.carry is not None and endings.vueltas_reached(self, side):
            return
        if self._pile.cards:
            stockpile.after_trick(self, winner)
        elif self._game.arrastre_cantes:
            self._open_window(winner, first_win)

    def _trick_cantes(self, trick: tuple[int, ...], winner: int) -> None:
        """Cantes sung by the cards of a trick (cabrón), for the trick's winner."""
        trump, found = self._game.trick_cantes(
            trick, None if self.trump is None else int(self.trump), self.order)
        if trump is not None and self.trump is None:
            self.trump = Suit(trump)  # the first marriage named it
        for suit, decl, pts in found:
            self._sung |= 1 << suit
            self._cantes = (*self._cantes, (winner, decl, pts))
            self._events.append(Declared(winner, decl, pts,
                                         cards_of(marriage_mask(suit, self.order))))

    @property
    def _contract(self) -> tuple[int, int, bool] | None:
        """Subastado's contract (declarer, bid, taken over), once the auction made one."""
        part = self._auction
        return None if part is None else part.contract

    def _first_win_of(self, winner: int) -> bool:
        side = self.side_of(winner)
        return sum(1 for t in self._completed if self.side_of(t[2]) == side) == 1

    # ---------------------------------------------------------------- declarations

    def _open_window(self, winner: int, first_win: bool) -> None:
        side = self.side_of(winner)
        self._window_declared = False
        restriction = self.options.cante_restriction
        if self._side_forfeit >> side & 1 or (restriction == "first_win_only" and not first_win):
            self._window = self._window_seats = 0
            return
        part = self._auction
        contract = None if part is None else part.contract
        seats = self._game.entitled(winner, self._n, contract, self.options)
        self._window = self._window_seats = seats
        # the partner of the trick winner speaks first, and only when it has something to say
        partner = seats & ~(1 << winner)
        if partner:
            p = partner.bit_length() - 1
            if self._available(p) or stockpile.sings_after_exchange(self, p):
                self._queue = (Poll(p, CANTE),)
                self._phase = _POLL
                self._to_move = p
            else:
                self._window &= ~partner

    def _close_window(self) -> None:
        """The next trick is being led: apply the skipped-first-win forfeit and close."""
        if (
            not self._window_declared
            and self.options.cante_restriction == "forfeit_if_skipped_first"
            and self._completed
        ):
            side = self.side_of(self._completed[-1][2])
            if self._first_win_of(self._completed[-1][2]):
                hands = self._hands
                seats = self._window_seats
                if any(seats >> s & 1 and available_declarations(
                        hands[s], self.trump, self.order, sung_suits=self._sung,
                        forty_first=self.options.forty_first,
                        tute_enabled=self.options.tute_enabled) for s in range(self._n)):
                    self._side_forfeit |= 1 << side
        self._window = 0
        self._window_seats = 0

    def _declare(self, seat: int, decl: Declaration) -> None:
        self._actions.append(decl)
        cards = declaration_cards(decl, self.trump, self.order)
        known = self._known
        self._known = (*known[:seat], known[seat] | (cards & self._hands[seat]),
                       *known[seat + 1:])
        if decl.is_tute:
            self._cantes = (*self._cantes, (seat, decl, 0))
            self._events.append(Declared(seat, decl, 0, cards_of(cards)))
            endings.finish(self, "tute", seat)
            return
        suit = decl.marriage_suit(self.trump)
        assert suit is not None
        if (
            decl.kind == "veinte" and self.options.forty_first == "forfeit"
            and any(d.kind == "cuarenta" for d in self._available(seat))
        ):
            self._forty_lost |= 1 << seat
        self._sung |= 1 << suit
        if self._game.hides_cante(decl, len(self._pile.cards), self.options):
            self._hidden |= 1 << suit
        pts = decl.points
        self._cantes = (*self._cantes, (seat, decl, pts))
        self._events.append(Declared(seat, decl, pts, cards_of(cards)))
        self._window_declared = True
        self._window &= ~(1 << seat)
        if self.options.cante_by == "winning_side_one":
            self._window = 0
        if endings.vueltas_reached(self, self.side_of(seat)):
            return
        if self._phase == _POLL and self._queue[0].kind != EXCHANGE:
            self._next_in_queue()

    def _pass(self, seat: int) -> None:
        self._actions.append(PASS)
        self._events.append(Passed(seat))
        kind = self._queue[0].kind
        if kind == CANTE:
            self._window &= ~(1 << seat)
        elif kind in (BID, _TAKEOVER):
            auction.passed(self, seat, kind)
            return
        self._next_in_queue()

    def _next_in_queue(self) -> None:
        queue = self._queue[1:]
        self._queue = queue
        if queue:
            self._to_move = queue[0].seat
            return
        self._phase = _PLAY
        if len(self._completed) == self.total_tricks:
            endings.finish(self, "tricks", None)  # the end-of-deal claims window closed
        elif self._pile.pending:
            stockpile.draw(self, self._pile.due)
        else:
            self._to_move = self._leader

    # ---------------------------------------------------------------- results, views, copies

    def result(self) -> DealResult:
        """The score of the finished deal; raises if it is not over yet."""
        if self._result is None:
            raise TuteError("the deal is not over yet: no result")
        return self._result

    def view(self, seat: int, *, history: bool = True) -> SeatView:
        """What ``seat`` may know: its own hand and everything public; nothing else.

        ``history=False`` leaves the event log out (an empty ``history``): for a reader that
        keeps the events apart, such as the server, whose wire state carries no log."""
        return audience.view(self, self._seat_arg(seat), history)

    def snapshot(self) -> Position:
        """The card-play state of the deal as plain values (what the fast kernel reads)."""
        return position.snapshot(self)

    def copy(self) -> Deal:
        """An independent copy (shares only immutable state); cheap enough for search."""
        other = object.__new__(Deal)
        for name in Deal.__slots__:
            object.__setattr__(other, name, getattr(self, name))
        other._actions = list(self._actions)
        other._events = list(self._events)
        other._undo = list(self._undo)
        other._trace = None
        return other

    def __copy__(self) -> Deal:
        return self.copy()

    # ---------------------------------------------------------------- records

    def to_record(self) -> dict[str, Any]:
        """The JSON-able record of the deal, finished or not (docs/records.md)."""
        return deal_records.to_record(self)

    @classmethod
    def from_record(cls, record: Mapping[str, Any] | str | bytes) -> Deal:
        """Rebuild a deal from its record, validating every field and action."""
        return deal_records.from_record(cls, record)

    def __repr__(self) -> str:
        state = "over" if self.is_over() else f"trick {self.trick_number}, seat {self._to_move}"
        return f"<Deal {self.variant.id} dealer={self.dealer} trump={self.trump_card} {state}>"


Deal._save, Deal._restore = _state_methods()  # type: ignore[method-assign, assignment]
