"""One deal of any game of the family, played action by action: ``Deal.new`` →
``legal_actions``/``apply`` → ``result``.

The deal is a generic engine: where the games differ — the layout, the polls before the first
lead, what follows a trick, the score — it asks its game (:mod:`tute.games`), whose answers are
data. State is a handful of ints and tuples (hands are 40-bit masks) so that ``copy``, ``undo``
and random playouts are cheap. Every action is validated with a reason and leaves frozen
events.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from .actions import (
    CLAIM,
    PASS,
    STOP,
    TAKEOVER,
    THROW,
    Action,
    Bid,
    ChooseTrump,
    Claim,
    Discard,
    Exchange,
    Pass,
    Stop,
    TakeOver,
    ThrowIn,
    parse_action,
)
from .cards import ALL_CARDS, Card, CardSet, RankOrder, Suit, cards_of, parse_card
from .errors import IllegalActionError, InvalidNotationError, RecordError, TuteError
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
from .games import Game, game_for
from .games.base import (
    BID,
    CANTE,
    DISCARD,
    EXCHANGE,
    TRUMP,
    TUTE,
    AuctionRules,
    Extras,
    Layout,
    Poll,
    StockDraw,
    Tally,
)
from .games.base import (
    CLAIM as _CLAIM,
)
from .games.base import (
    TAKEOVER as _TAKEOVER,
)
from .games.base import (
    THROW as _THROW,
)
from .games.subastado import NEW_AUCTION
from .i18n import refusal_text
from .messages import Refusal
from .records import (
    TRACE_RIGHTS,
    V1Replay,
    check_header,
    check_result,
    field,
    record_head,
    record_options,
    replay_actions,
    tracing_rights,
)
from .rules import (
    _SEVEN,
    _TWO,
    HIDDEN_VEINTE,
    Declaration,
    available_declarations,
    declaration_cards,
    explain_refusals,
    legal_in_trick,
    marriage_mask,
)
from .scoring import TARGET
from .shuffle import MAX_SEED, derive_seed, new_seed, shuffled
from .variants import Options, Variant, find_variant
from .views import DealResult, SeatView, TrickRecord

__all__ = ["Deal", "DealResult", "Position", "SeatView", "TrickRecord"]

# Per suit, the cards of every 10-bit pattern in display order (strongest first).
_SUIT_CARDS: Final = tuple(
    tuple(cards_of(pattern << (10 * s)) for pattern in range(1024)) for s in range(4)
)

_PLAY, _POLL, _OVER = 0, 1, 2
_DEALER_SEED_INDEX: Final = 1_000_003

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
    # the stock games' stock and upcard, and arrastrado's table card
    "_stock", "_upcard", "_draw_pending", "_table_card", "_exchanges", "_exchange_due",
    # subastado's auction, contract, widow and discard
    "_auction", "_contract", "_widow", "_discard",
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


@dataclass(frozen=True)
class Position:
    """The card-play state of a deal, as the fast kernel reads it (:meth:`Deal.snapshot`).

    Tuples are by seat unless said; cards are indices 0..39, hands 40-bit masks."""

    hands: tuple[int, ...]
    trick: tuple[int, ...]  # cards in playing order from ``leader``
    leader: int
    to_move: int
    best: int  # the winning card of the trick so far (-1: no trick)
    best_seat: int
    ruffed: bool  # a plain-suit lead has been trumped
    next_seat: tuple[int, ...]  # the next active seat in playing order
    active: int  # active seats: cards per trick
    trump: int | None
    sung: int  # suits whose marriage was declared (mask)
    forty_lost: int  # seats that lost the right to the 40 (mask)
    side_first: int  # sides that have won a trick (mask)
    side_forfeit: int  # sides that forfeited their declarations (mask)
    points: tuple[int, ...]  # card points by side (subastado's widow discard counted)
    cante_points: tuple[int, ...]  # by side
    tricks_done: int
    side_tricks: tuple[int, ...]  # tricks won, by side
    window: int  # seats that may declare now (mask)
    window_seats: int  # seats the window opened for (mask)
    window_declared: bool
    poll: Poll | None  # the seat asked a question, and what
    draw_pending: bool  # a draw from the stock is due
    stock_left: int
    sole_singer: int  # the one seat whose cantes count, or -1
    total_tricks: int


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
    # is sung once a deal, so the suit names the cante (see _hidden_from)
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
    _stock: tuple[int, ...]
    _upcard: int
    _draw_pending: bool
    _table_card: int  # arrastrado: the card left on the table (out of play)
    _exchanges: tuple[tuple[int, int, int], ...]
    # The exchange rights kept for a seat's next turn (rules-decisions.md, "Asking nobody"):
    # the 7 and 2 of trumps it held when the rule book granted the right. A mask of cards, as
    # a card names the hand that holds it; never shown in a view or an event.
    _exchange_due: int
    _auction: tuple[int, int, int, int] | None  # bid, bidder, passed mask, spoken mask
    _contract: tuple[int, int, bool] | None  # declarer, bid, taken over
    _widow: int  # subastado with widow_card: the face-down 40th card (-1 after the discard)
    _discard: int  # subastado widow: the card the declarer put aside (counts for him)
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
        var = find_variant(variant)
        game = game_for(var)
        opts = var.resolve(options)
        n = game.seat_count(opts)
        if seed is not None and (
            isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED
        ):
            raise TuteError(f"invalid seed {seed!r}: expected an integer 0..2**64-1")
        if hands is None and seed is None:
            seed = new_seed()
        if dealer is None:
            dealer = derive_seed(seed or 0, _DEALER_SEED_INDEX) % n
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
            raise TuteError(f"invalid dealer {dealer!r}: expected a seat 0..{n - 1}")
        deck, size = game.layout(opts)
        # seats that receive cards, in dealing order from mano
        idle = game.idle_seat(dealer, opts)
        receivers = [s for s in ((dealer + 1 + k) % n for k in range(n)) if s != idle]
        deal = cls._blank(var, game, opts, n, dealer, receivers[0], seed)
        if carry is not None:
            if not game.allows_carry(opts):
                raise TuteError(f"carry (de vueltas) does not apply to {var.id}")
            if not isinstance(carry, Sequence) or len(carry) != deal._sides or any(
                isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in carry
            ):
                raise TuteError(f"invalid carry {carry!r}: one non-negative total per side")
            deal.carry = tuple(carry)
        extras = Extras(trump_card, trump, upcard, stock, table_card, widow)
        if hands is None:
            if any(x is not None for x in extras):
                raise TuteError("trump_card, trump, upcard, stock, table_card and widow go with "
                                "explicit hands")
            assert seed is not None
            order = shuffled(seed, _pack_indices(deck))
            masks = _deal_out(order, n, receivers, opts.deal_packet, size)
            dealt = len(receivers) * size
            layout = game.lay_out(order[dealt:], order[dealt - 1])
        else:
            masks = _check_hands(hands, n, deck, size, var, idle)
            layout = game.explicit(extras, hands, masks, dealer, deck)
            game.check_extras(extras, opts)
            if seed is not None:  # both given: they must describe the same deal
                seeded = cls.new(var, seed=seed, dealer=dealer, options=opts, carry=carry)
                if seeded._initial_hands != tuple(masks) or seeded._layout != layout:
                    raise TuteError(f"invalid deal: the hands given are not the deal of seed "
                                    f"{seed}; give one or the other")
        deal._initial_hands = deal._hands = tuple(masks)
        deal._start(receivers, layout)
        return deal

    @classmethod
    def _blank(cls, var: Variant, game: Game, opts: Options, n: int, dealer: int, mano: int,
               seed: int | None) -> Deal:
        deal = object.__new__(cls)
        deal.variant = var
        deal.options = opts
        deal.order = var.order
        deal._game = game
        deal._n = n
        deal._sides = game.sides(opts)
        deal._partners = var.partnerships
        deal.dealer = dealer
        deal.mano = mano
        deal.seed = seed
        deal.carry = None
        deal.total_tricks = game.total_tricks(opts)
        deal._exempt = opts.partner_exemption and var.partnerships
        deal._undertrump = opts.must_undertrump
        deal._head_after_ruff = opts.must_head_after_ruff
        deal._higher = var.order.higher
        deal._points_table = var.order.points
        deal._claim_mode = opts.renuncio_mode == "claim"
        deal._turn_exchange = game.turn_exchange(opts)
        deal._stock_rule = opts.stock_phase_rule
        deal._trick_cantes_on = game.trump_changes
        return deal

    def _start(self, receivers: list[int], layout: Layout) -> None:
        n = self._n
        game = self._game
        self._layout = layout
        self._turn_extras = bool(self._turn_exchange) or self._claim_mode or (
            self.carry is not None and self.options.vueltas_claim == "manual")
        self.trump_card = None if layout.trump_card < 0 else ALL_CARDS[layout.trump_card]
        self.trump = None if layout.trump is None else Suit(layout.trump)
        self._stock = layout.stock
        self._upcard = layout.stock[-1] if layout.stock else -1
        self._table_card = layout.table_card
        self._widow = layout.widow
        self._set_order(receivers)
        self._trick = ()
        self._leader = self._to_move = self.mano
        self._best = self._best_seat = -1
        self._ruffed = False
        self._points = (0,) * self._sides
        self._tricks_won = (0,) * n
        self._completed = ()
        self._cantes = ()
        self._hidden = 0
        self._sung = self._forty_lost = 0
        self._window = self._window_seats = 0
        self._window_declared = False
        self._side_first = self._side_forfeit = 0
        self._phase = _PLAY
        self._result = None
        self._queue = ()
        self._draw_pending = False
        self._exchanges = ()
        self._exchange_due = 0
        self._trace = [] if TRACE_RIGHTS.get() else None
        self._played = 0
        self._auction = NEW_AUCTION if game.auction else None
        self._contract = None
        self._discard = -1
        self._revokes = ()
        self._void = ""
        known = [0] * n
        if layout.turned and self.trump_card is not None:
            known[self.dealer] = self.trump_card.mask  # turned for all to see
        self._known = tuple(known)
        self._actions = []
        self._events = []
        self._undo = []
        self._legal_cache = -1
        self._records = ((), ())
        opts = self.options
        for seat, give in game.compulsory_exchanges(self._hands, layout, receivers, opts):
            self._swap_table(seat, give)
        queue: list[Poll] = []
        if opts.weak_hand_max_points is not None:
            queue.extend(Poll(s, _THROW) for s in receivers)
        tutes = []
        if opts.tute_dealt_wins_immediately and opts.tute_enabled:
            tutes = [Poll(s, TUTE) for s in receivers
                     if any(d.is_tute for d in self._available(s))]
        face_up = layout.stock or layout.table_card >= 0  # something an exchange could take
        possible = bool(face_up) and self._exchange_public()
        queue.extend(game.opening_polls(receivers, opts, tutes, possible))
        self._keep_rights(game.opening_rights(receivers, opts, possible))
        if queue:
            self._queue = tuple(queue)
            self._phase = _POLL
            self._to_move = queue[0].seat

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

    def _swap_table(self, seat: int, give: int) -> None:
        """``seat`` gives ``give`` (the 7 or the 2 of trumps) for the face-up card: the
        upcard, or arrastrado's table card."""
        take = self._table_card if self._table_card >= 0 else self._upcard
        hands = self._hands
        self._hands = (*hands[:seat], (hands[seat] & ~(1 << give)) | (1 << take),
                       *hands[seat + 1:])
        known = self._known
        self._known = (*known[:seat], (known[seat] & ~(1 << give)) | (1 << take),
                       *known[seat + 1:])
        if self._table_card >= 0:
            self._table_card = give
        else:
            self._upcard = give
            self._stock = (*self._stock[:-1], give)
        self._exchanges = (*self._exchanges, (seat, give, take))
        self._events.append(Exchanged(seat, ALL_CARDS[give], ALL_CARDS[take]))

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
        return ALL_CARDS[self._upcard] if self._stock else None

    @property
    def stock_count(self) -> int:
        """Cards left in the stock, the upcard included."""
        return len(self._stock)

    @property
    def played(self) -> CardSet:
        """Every card played so far, the trick on the table included (public)."""
        return CardSet(self._played)

    @property
    def in_stock_phase(self) -> bool:
        """True while the trick being played (or the next one) is a stock-phase trick."""
        return bool(self._stock)

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
        return tuple((s, ALL_CARDS[g], ALL_CARDS[t]) for s, g, t in self._exchanges)

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
    #
    # What one audience (a seat, or None: a spectator) is told differs from what another is
    # in two ways only, both decided here: another seat's face-down cards (its draws, its
    # widow discard) and the suit of another seat's 20 sung hidden (Game.hides_cante:
    # guinote_hide_arrastre_suit). The event log, the cantes and the known cards of a view
    # are all filtered through these methods; records and ``events`` keep everything.

    def _hidden_from(self, seat: int | None) -> int:
        """The suits of the 20s ``seat`` is not told: the hidden ones another seat sang."""
        hidden = self._hidden
        if hidden and seat is not None:
            for s, d, _p in self._cantes:
                if s == seat and d.suit is not None and d.kind == "veinte":
                    hidden &= ~(1 << d.suit)
        return hidden

    def events_for(self, seat: int | None, start: int = 0, stop: int | None = None
                   ) -> list[Event]:
        """The event log as ``seat`` sees it (``None``: a spectator): other seats' draws of
        face-down cards are hidden (their ``card`` is ``None``), and so is the suit of
        another seat's 20 sung hidden (a :data:`~tute.rules.HIDDEN_VEINTE` showing no
        cards). ``start``/``stop``: only that slice of it, as
        ``events_for(seat)[start:stop]`` (the server sends each action's events alone)."""
        hidden = self._hidden_from(seat)
        out: list[Event] = []
        for e in self._events[start:stop]:
            if isinstance(e, Drew):
                out.append(e if e.public or e.seat == seat else e._replace(card=None))
            elif isinstance(e, Discarded):
                out.append(e if e.seat == seat else e._replace(card=None))
            elif hidden and isinstance(e, Declared) and _hides(hidden, e.declaration):
                out.append(e._replace(declaration=HIDDEN_VEINTE, cards=()))
            else:
                out.append(e)
        return out

    def cantes_for(self, seat: int | None) -> tuple[tuple[int, Declaration, int], ...]:
        """The cantes as ``seat`` (``None``: a spectator) sees them: another seat's 20 sung
        hidden is a :data:`~tute.rules.HIDDEN_VEINTE` (who sang it and its points stay)."""
        hidden = self._hidden_from(seat)
        if not hidden:
            return self._cantes
        return tuple((s, HIDDEN_VEINTE if _hides(hidden, d) else d, p)
                     for s, d, p in self._cantes)

    def known_for(self, seat: int | None) -> tuple[CardSet, ...]:
        """Per seat, the cards ``seat`` (``None``: a spectator) knows to be in that hand: those
        shown to the table (a turned trump card, a taken upcard, a cante's cards), less the
        cards of another seat's 20 sung hidden that nothing else showed."""
        known = self._known
        hidden = self._hidden_from(seat)
        if hidden:
            trump = None if self.trump is None else int(self.trump)
            secret = [0] * self._n
            shown = [0] * self._n
            for s, d, _p in self._cantes:
                if _hides(hidden, d):
                    secret[s] |= declaration_cards(d, trump, self.order)
                else:  # a later tute shows some of them again
                    shown[s] |= declaration_cards(d, trump, self.order)
            known = tuple(k & ~(x & ~y) for k, x, y in zip(known, secret, shown, strict=True))
        return tuple(CardSet(k) for k in known)

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
                self._stock_rule if self._stock else "full",
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

    def _exchange_target(self) -> int | None:
        """The trump card that may take the upcard (or arrastrado's table card) now."""
        table = self._table_card
        return self._game.exchange_target(
            table if table >= 0 else self._upcard, self.trump,
            bool(self._completed or self._trick), len(self._stock), self.options)

    def _exchange_public(self) -> bool:
        """Could anybody exchange now, judging by public information only? (Asking a seat
        only when it holds the 7 would tell the table that it does.)"""
        target = self._exchange_target()
        return (target is not None and not self._played >> target & 1
                and self._game.exchange_open(len(self._stock), self._n, self.options))

    def _exchanges_for(self, seat: int) -> list[Action]:
        """The exchange ``seat`` may make now by the rules of the moment (a poll, its own
        turn with own_turn_any or any_trick_won)."""
        target = self._exchange_target()
        if target is None or not self._hands[seat] >> target & 1:
            return []
        if not self._game.exchange_open(len(self._stock), self._n, self.options):
            return []
        return [Exchange(ALL_CARDS[target])]

    def _due_exchange(self, seat: int) -> list[Action]:
        """The exchange ``seat`` may make by a right kept for its turn: the card that may take
        the upcard now, if it is due and still in the hand."""
        due = self._exchange_due & self._hands[seat]
        if not due:
            return []
        target = self._exchange_target()
        if target is None or not due >> target & 1:
            return []
        return [Exchange(ALL_CARDS[target])]

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
            elif self._exchange_due:
                acts = self._due_exchange(seat) + acts
            return acts
        if phase == _POLL:
            return self._poll_actions()
        return []

    def _with_turn_extras(self, seat: int, acts: list[Action]) -> list[Action]:
        """A turn's actions besides cards and cantes: an exchange on one's own turn, a
        renuncio claim, stopping play de vueltas."""
        turn = self._turn_exchange
        ex: list[Action] = []
        if turn and self._stock and (turn == 1 or self._side_first >> self.side_of(seat) & 1):
            ex = self._exchanges_for(seat)
        if not ex and self._exchange_due:
            ex = self._due_exchange(seat)
        if ex:
            acts = ex + acts
        if self._claim_mode and self._can_claim(seat):
            acts.append(CLAIM)
        if (self.carry is not None and not self._trick and self._completed
                and self.options.vueltas_claim == "manual"):
            acts.append(STOP)
        return acts

    def _poll_actions(self) -> list[Action]:
        seat, kind = self._queue[0]
        if kind == EXCHANGE:
            return [*self._exchanges_for(seat), *self._decls(seat), PASS]
        if kind == CANTE:  # the partner's turn to speak: a kept exchange may come first
            return [*self._due_exchange(seat), *self._decls(seat), PASS]
        if kind == TUTE:
            return [*self._decls(seat), PASS]
        if kind == BID:
            assert self._auction is not None
            auction: AuctionRules = self._game  # type: ignore[assignment]  # the flag says so
            return [PASS, *(Bid(b) for b in auction.bids(self._auction, self.options))]
        if kind == _TAKEOVER:
            return [TAKEOVER, PASS]
        if kind == DISCARD:
            return [Discard(c) for c in cards_of(self._hands[seat])]
        if kind == TRUMP:
            return [ChooseTrump(s) for s in Suit]
        if kind == _THROW:
            weak = self.order.points_of(self._hands[seat]) <= (
                self.options.weak_hand_max_points or 0)
            return [THROW, PASS] if weak else [PASS]
        if kind == _CLAIM:
            return [CLAIM, PASS] if self._can_claim(seat) else [PASS]
        raise AssertionError(kind)

    def why_illegal(self, action: str | Action) -> str | None:
        """None if ``action`` is legal now, else the reason it is refused (English; see
        :meth:`refusal` for the reason as a value)."""
        why = self.refusal(action)
        return None if why is None else refusal_text("en", why)

    def card_refusals(self) -> dict[str, Refusal]:
        """{card: its :meth:`refusal`} for every card of the mover's hand that may not be
        played now (each as ``refusal(card)`` gives it, the duties worked out once)."""
        seat = self._to_move
        if self._phase == _OVER or seat is None:
            return {}
        legal = {a for a in self.legal_actions() if isinstance(a, Card)}
        cards = [c for c in CardSet(self._hands[seat]) if c not in legal]
        if not cards:
            return {}
        if self._phase == _POLL:
            poll = Refusal.of("poll_first", seat=seat, poll=self._queue[0].kind)
            return {str(c): poll for c in cards}
        why = self._card_duties(seat)
        return {str(c): why.get(c.index) or Refusal.of("not_legal_card") for c in cards}

    def _card_duties(self, seat: int) -> dict[int, Refusal]:
        """The refusal of each card of ``seat``'s hand the duties of the trick forbid."""
        stock_phase = bool(self._stock) and self.options.stock_phase_rule != "full"
        _, why = explain_refusals(
            self._hands[seat], self._trick, self.trump, self.order,
            phase="stock" if stock_phase else "obligated",
            stock_phase_rule=self.options.stock_phase_rule,
            partner_winning=bool(self._trick) and self._partners
            and (self._best_seat - seat) % 2 == 0,
            partner_exemption=self._exempt, must_undertrump=self._undertrump,
            must_head_after_ruff=self._head_after_ruff,
        )
        return why

    def refusal(self, action: str | Action) -> Refusal | None:
        """None if ``action`` is legal now, else the :class:`~tute.messages.Refusal` of it."""
        try:
            act = parse_action(action)
        except InvalidNotationError as exc:
            return Refusal.of("bad_notation", text=str(action), detail=str(exc))
        if self._phase == _OVER:
            return Refusal.of("deal_over")
        seat = self._to_move
        if act in self.legal_actions():
            return None
        if isinstance(act, Card):
            if self._phase == _POLL:
                return Refusal.of("poll_first", seat=seat, poll=self._queue[0].kind)
            if not act.mask & self._hands[seat]:
                return Refusal.of("not_in_hand", card=str(act), seat=seat)
            return self._card_duties(seat).get(act.index) or Refusal.of("not_legal_card")
        if isinstance(act, Declaration):
            return self._why_not_declare(seat, act)
        if isinstance(act, Exchange):
            return self._why_not_exchange(seat, act)
        if self._phase == _POLL:
            kind = self._queue[0].kind
            if isinstance(act, Bid) and kind == BID:
                assert self._auction is not None
                game: AuctionRules = self._game  # type: ignore[assignment]
                return game.why_not_bid(act.points, self._auction, self.options)
            if isinstance(act, Discard) and kind == DISCARD:
                return Refusal.of("discard_not_held", card=str(act.card), seat=seat)
            if isinstance(act, ThrowIn) and kind == _THROW:
                return Refusal.of("throw_in_too_strong",
                                  points=self.options.weak_hand_max_points or 0)
            if isinstance(act, Claim) and kind == _CLAIM:
                return Refusal.of("claim_no_play")
            return Refusal.of("poll_now", seat=seat, poll=kind)
        if isinstance(act, Stop):
            return Refusal.of("stop_not_now")
        if isinstance(act, Claim):
            if not self._claim_mode:
                return Refusal.of("claim_disabled")
            return Refusal.of("claim_no_play")
        if isinstance(act, Pass):
            return Refusal.of("nothing_to_pass")
        return Refusal.of("other_moment")

    def _why_not_declare(self, seat: int, decl: Declaration) -> Refusal:
        if not self._decls(seat) and not self._window >> seat & 1:
            if self._trick:
                return Refusal.of("declare_before_lead")
            if not self._completed:
                return Refusal.of("declare_needs_trick")
            if self._game.stock and not self._stock and not self._game.arrastre_cantes:
                return Refusal.of("declare_arrastre")
            return Refusal.of("declare_not_now", seat=seat)
        hand = self._hands[seat]
        cards = declaration_cards(decl, self.trump, self.order)
        if decl.is_tute and not self.options.tute_enabled:
            return Refusal.of("tute_disabled")
        if cards & hand != cards:
            missing = " ".join(str(c) for c in cards_of(cards & ~hand))
            return Refusal.of("declare_needs", decl=str(decl), missing=missing)
        suit = decl.marriage_suit(self.trump)
        if suit is not None and self._sung >> suit & 1:
            return Refusal.of("marriage_sung", suit=Suit(suit).letter)
        if decl.kind == "cuarenta" and self._forty_lost >> seat & 1:
            return Refusal.of("forty_lost")
        if decl.kind == "veinte" and self.options.forty_first == "enforce":
            return Refusal.of("forty_first")
        return Refusal.of("declare_unavailable", decl=str(decl))

    def _why_not_exchange(self, seat: int, act: Exchange) -> Refusal:
        if not self._game.stock:
            return self._game.why_not_exchange(act.card.index, -1, 0, self._n, self.options)
        if not self._stock:
            return Refusal.of("stock_exhausted")
        if not act.card.mask & self._hands[seat]:
            return Refusal.of("not_in_hand", card=str(act.card), seat=seat)
        return self._game.why_not_exchange(act.card.index, self._upcard, len(self._stock),
                                           self._n, self.options)

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
            self._swap_table(seat, act.card.index)
            # the seat stays polled (a 2 may follow a 7 in the same window)
        elif isinstance(act, Bid):
            self._bid(seat, act)
        elif isinstance(act, ChooseTrump):
            self._choose_trump(seat, act)
        elif isinstance(act, Discard):
            self._discard_card(seat, act)
        elif isinstance(act, TakeOver):
            self._take_over(seat)
        elif isinstance(act, ThrowIn):
            self._throw_in(seat)
        elif isinstance(act, Claim):
            self._claim(seat)
        elif isinstance(act, Stop):
            self._stop(seat)
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
                self._finish("tricks", None)
            return
        if self.carry is not None and self._vueltas_reached(side):
            return
        if self._stock:
            self._after_stock_trick(winner)
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

    # ---------------------------------------------------------------- the stock

    def _after_stock_trick(self, winner: int) -> None:
        """The exchange right (kept for the seat's next turn, or in the last round a poll),
        with cante_before_draw the declaration window and its poll; then the draw."""
        polls, window, rights = self._game.after_trick(
            winner, self._n, self.options, self._exchange_public(), len(self._stock) <= self._n)
        self._keep_rights(rights)
        if window:
            self._window = self._window_seats = window
            self._window_declared = False
        self._draw_pending = True
        if polls:
            self._queue = tuple(polls)
            self._phase = _POLL
            self._to_move = polls[0].seat
        else:
            self._draw()

    def _keep_rights(self, seats: tuple[int, ...]) -> None:
        """Keep the exchange right of ``seats`` for their next turn, over the cards they hold
        now (a 7 drawn next was not held when the right was granted). Set at every stock
        trick's end, so a right lapses once its seat has played: a seat has one turn a trick
        (and the partner's cante poll before it), and the next trick's end replaces it."""
        due = 0
        if seats and self.trump is not None:
            t = 10 * int(self.trump)
            held = 0
            for s in seats:
                held |= self._hands[s]
            due = held & (1 << (t + _SEVEN) | 1 << (t + _TWO))
            if self._trace is not None:
                self._trace.append((len(self._actions), seats))
        self._exchange_due = due

    def _draw(self) -> None:
        self._draw_pending = False
        self._window = self._window_seats = 0
        winner = self._leader
        stock = self._stock
        game: StockDraw = self._game  # type: ignore[assignment]  # only stock games draw
        self._hands, self._known, draws = game.draw(stock, self._hands, self._known, winner)
        for seat, card, public in draws:
            self._events.append(Drew(seat, ALL_CARDS[card], public))
        self._stock = stock[self._n:]
        self._to_move = winner
        self._phase = _PLAY
        o = self.options
        if self._game.window_after_draw(len(self._stock), o):
            first = o.cante_restriction != "none" and self._first_win_of(winner)
            self._open_window(winner, first)

    def _first_win_of(self, winner: int) -> bool:
        side = self.side_of(winner)
        return sum(1 for t in self._completed if self.side_of(t[2]) == side) == 1

    def _stop(self, seat: int) -> None:
        """vueltas_claim=manual: stopping play claims 101; a wrong claim loses the game."""
        self._actions.append(STOP)
        side = self.side_of(seat)
        self._finish("vueltas", side if self._running(side) >= TARGET else 1 - side)

    def _running(self, side: int) -> int:
        """De vueltas: the carried total plus this deal's card points and cantes so far."""
        assert self.carry is not None
        cantes = sum(p for s, _d, p in self._cantes if self.side_of(s) == side)
        return self.carry[side] + self._points[side] + cantes

    def _vueltas_reached(self, side: int) -> bool:
        """De vueltas with vueltas_claim=auto: a side wins as soon as its running total
        reaches 101."""
        if self.carry is None or self.options.vueltas_claim != "auto":
            return False
        if self._running(side) >= TARGET:
            self._finish("vueltas", side)
            return True
        return False

    # ---------------------------------------------------------------- declarations

    def _open_window(self, winner: int, first_win: bool) -> None:
        side = self.side_of(winner)
        self._window_declared = False
        restriction = self.options.cante_restriction
        if self._side_forfeit >> side & 1 or (restriction == "first_win_only" and not first_win):
            self._window = self._window_seats = 0
            return
        seats = self._game.entitled(winner, self._n, self._contract, self.options)
        self._window = self._window_seats = seats
        # the partner of the trick winner speaks first, and only when it has something to say
        partner = seats & ~(1 << winner)
        if partner:
            p = partner.bit_length() - 1
            if self._available(p) or self._sings_after_exchange(p):
                self._queue = (Poll(p, CANTE),)
                self._phase = _POLL
                self._to_move = p
            else:
                self._window &= ~partner

    def _sings_after_exchange(self, seat: int) -> bool:
        """Whether the exchange kept for ``seat`` would give it a declaration (the upcard a
        king, caballo or sota): then it is asked now, as it was when it exchanged first."""
        ex = self._due_exchange(seat)
        if not ex:
            return False
        give = ex[0].card.index  # type: ignore[union-attr]
        hand = self._hands[seat] & ~(1 << give) | 1 << self._upcard
        o = self.options
        return bool(available_declarations(
            hand, self.trump, self.order, sung_suits=self._sung,
            forty_forfeited=bool(self._forty_lost >> seat & 1), forty_first=o.forty_first,
            tute_enabled=o.tute_enabled))

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
            self._finish("tute", seat)
            return
        suit = decl.marriage_suit(self.trump)
        assert suit is not None
        if (
            decl.kind == "veinte" and self.options.forty_first == "forfeit"
            and any(d.kind == "cuarenta" for d in self._available(seat))
        ):
            self._forty_lost |= 1 << seat
        self._sung |= 1 << suit
        if self._game.hides_cante(decl, len(self._stock), self.options):
            self._hidden |= 1 << suit
        pts = decl.points
        self._cantes = (*self._cantes, (seat, decl, pts))
        self._events.append(Declared(seat, decl, pts, cards_of(cards)))
        self._window_declared = True
        self._window &= ~(1 << seat)
        if self.options.cante_by == "winning_side_one":
            self._window = 0
        if self._vueltas_reached(self.side_of(seat)):
            return
        if self._phase == _POLL and self._queue[0].kind != EXCHANGE:
            self._next_in_queue()

    def _pass(self, seat: int) -> None:
        self._actions.append(PASS)
        self._events.append(Passed(seat))
        kind = self._queue[0].kind
        if kind == CANTE:
            self._window &= ~(1 << seat)
        elif kind == BID:
            assert self._auction is not None
            bid, bidder, passed, spoken = self._auction
            self._auction = (bid, bidder, passed | 1 << seat, spoken | 1 << seat)
            self._auction_next(seat)
            return
        elif kind == _TAKEOVER:
            self._queue = ()
            self._after_takeover()
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
            self._finish("tricks", None)  # the end-of-deal claims window closed
        elif self._draw_pending:
            self._draw()
        else:
            self._to_move = self._leader

    # ---------------------------------------------------------------- the auction

    def _bid(self, seat: int, act: Bid) -> None:
        self._actions.append(act)
        assert self._auction is not None
        _bid, _bidder, passed, spoken = self._auction
        self._auction = (act.points, seat, passed, spoken | 1 << seat)
        self._events.append(BidMade(seat, act.points))
        self._auction_next(seat)

    def _auction_next(self, seat: int) -> None:
        assert self._auction is not None
        game: AuctionRules = self._game  # type: ignore[assignment]
        order = self._trick_seats(self.mano, self._k)
        nxt = game.next_bidder(self._auction, seat, order, self.options)
        if nxt is not None:
            self._queue = (Poll(nxt, BID),)
            self._to_move = nxt
            return
        contract = game.contract(self._auction, self.mano, self.options)
        if contract is None:
            self._void = "all_pass"
            self._finish("void", None)
            return
        self._contract = contract
        self._events.append(AuctionWon(contract[0], contract[1]))
        poll = game.takeover_poll(self._n, self.dealer, self.options)
        if poll is not None:
            self._queue = (poll,)
            self._to_move = poll.seat
        else:
            self._after_takeover()

    def _take_over(self, seat: int) -> None:
        self._actions.append(TAKEOVER)
        assert self._contract is not None
        bidder = self._contract[0]
        game: AuctionRules = self._game  # type: ignore[assignment]
        self._contract = game.take_over(self._contract, seat, self.options)
        hands = list(self._hands)
        hands[seat], hands[bidder] = hands[bidder], 0
        self._hands = tuple(hands)
        known = list(self._known)
        known[seat], known[bidder] = known[bidder], 0
        self._known = tuple(known)
        self._set_active([s for s in range(self._n) if hands[s]])
        self._events.append(TookOver(seat, bidder, self._contract[1]))
        self._queue = ()
        self._after_takeover()

    def _after_takeover(self) -> None:
        assert self._contract is not None
        declarer = self._contract[0]
        self._phase = _POLL
        self._to_move = declarer
        if self._widow >= 0:  # the declarer takes the widow
            hands = self._hands
            self._hands = (*hands[:declarer], hands[declarer] | 1 << self._widow,
                           *hands[declarer + 1:])
        game: AuctionRules = self._game  # type: ignore[assignment]
        self._queue = (game.declarer_poll(declarer, self._widow),)

    def _discard_card(self, seat: int, act: Discard) -> None:
        self._actions.append(act)
        card = act.card.index
        hands = self._hands
        self._hands = (*hands[:seat], hands[seat] & ~(1 << card), *hands[seat + 1:])
        self._discard = card
        self._widow = -1
        self._events.append(Discarded(seat, act.card))
        self._queue = (Poll(seat, TRUMP),)

    def _choose_trump(self, seat: int, act: ChooseTrump) -> None:
        self._actions.append(act)
        self.trump = act.suit
        self._events.append(TrumpNamed(seat, act.suit))
        self._queue = ()
        self._phase = _PLAY
        game: AuctionRules = self._game  # type: ignore[assignment]
        leader = game.first_leader(seat, self.dealer, self._hands, self.options)
        self._leader = self._to_move = leader

    # ---------------------------------------------------------------- table customs

    def _throw_in(self, seat: int) -> None:
        self._actions.append(THROW)
        self._events.append(ThrownIn(seat))
        self._void = "weak_hand"
        self._finish("void", seat)

    def _can_claim(self, seat: int) -> bool:
        opp = self._game.opponents(seat, self._n, self._contract)
        for lead, cards, _w, _p in self._completed:
            if any(s in opp for s in self._trick_seats(lead, len(cards))):
                return True
        return any(s in opp for s in self._trick_seats(self._leader, len(self._trick))
                   ) if self._trick else False

    def _claim(self, seat: int) -> None:
        """A renuncio claim: the engine checks the history for an opponent's illegal play."""
        self._actions.append(CLAIM)
        opp = self._game.opponents(seat, self._n, self._contract)
        offender = next((s for s, _i in self._revokes if s in opp), None)
        self._events.append(RenuncioClaimed(seat, offender is not None, offender))
        self._finish("renuncio", seat, offender=offender)

    # ---------------------------------------------------------------- scoring

    def _finish(self, reason: str, who: int | None, *, offender: int | None = None) -> None:
        """End the deal. ``reason``: "tricks"; "tute" (``who`` sang it); "vueltas" (``who`` is
        the side that reached 101 de vueltas); "void" (all passed, or ``who`` threw in a weak
        hand); "renuncio" (``who`` claimed; ``offender`` is the revoker found, if any). The
        game scores it."""
        self._phase = _OVER
        self._queue = ()
        sides = self._sides
        opts = self.options
        points = list(self._points)
        if self._discard >= 0 and self._contract is not None:  # the widow discard
            points[self._contract[0]] += self._points_table[self._discard]
        cantes: list[list[int]] = [[] for _ in range(sides)]
        seat_cantes: list[list[int]] = [[] for _ in range(self._n)]
        for s, _d, p in self._cantes:
            seat_cantes[s].append(p)
            if p:
                cantes[self.side_of(s)].append(p)
        if opts.thirty_malas:  # Guiñote house rule: cantes count only with 30 card points
            cantes = [c if points[i] >= 30 else [] for i, c in enumerate(cantes)]
        last = [False] * sides
        if reason in ("tricks", "renuncio") and len(self._completed) == self.total_tricks:
            last[self.side_of(self._completed[-1][2])] = True
        bonus = opts.last_trick_bonus  # 10 but where a game lets it be 0 (cabrero, gana-pierde)
        totals = tuple(points[i] + sum(cantes[i]) + (bonus if last[i] else 0)
                       for i in range(sides))
        tally = Tally(
            reason=reason, who=who, offender=offender, totals=totals, points=tuple(points),
            cantes=tuple(map(tuple, cantes)), seat_cantes=tuple(map(tuple, seat_cantes)),
            last_side=last.index(True) if any(last) else None, seats=self._n,
            side_of=tuple(s % 2 for s in range(self._n)) if self._partners else tuple(
                range(self._n)), mano=self.mano,
            carry=self.carry, tricks_won=self._tricks_won, contract=self._contract,
        )
        game = self._game
        score = game.void_score(tally, opts) if reason == "void" else game.score(tally, opts)
        games = score.games or (0,) * sides
        winner = score.winner
        result = DealResult(
            totals, tuple(points), tally.cantes, tuple(last), winner, games,
            reason=reason, replay=score.replay, match_won=score.match_won,
            running=score.running, vueltas=score.vueltas, losses=score.losses,
            balances=score.balances, made=score.made, void=self._void or None,
            contract=None if self._contract is None else (
                self._contract[0], self._contract[1], self.trump.letter if self.trump else None,
                self._contract[2]),
            claim=None if reason != "renuncio" or who is None else (
                who, offender is not None, offender),
        )
        self._events.append(DealEnded(reason, winner, 0 if winner is None else games[winner]))
        self._result = result

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
        seat = self._seat_arg(seat)
        tc = self.trump_card
        with_dealer = (not self._game.stock and tc is not None
                       and bool(self._known[self.dealer] & tc.mask))
        return SeatView(
            variant=self.variant.id,
            options=self.options,
            seat=seat,
            side=self.side_of(seat),
            seats=self._n,
            dealer=self.dealer,
            mano=self.mano,
            trump=self.trump,
            trump_card=tc,
            trump_card_with_dealer=with_dealer,
            hand=CardSet(self._hands[seat]),
            hand_sizes=tuple(h.bit_count() for h in self._hands),
            trick=self.trick,
            tricks=self.tricks,
            cantes=self.cantes_for(seat),
            card_points=self._points,
            played=CardSet(self._played),
            to_move=self.to_move,
            legal_actions=tuple(self.legal_actions()) if self.to_move == seat else (),
            result=self._result,
            upcard=self.upcard,
            stock_count=len(self._stock),
            exchanges=self.exchanges,
            known=self.known_for(seat),
            carry=self.carry,
            table_card=None if self._table_card < 0 else ALL_CARDS[self._table_card],
            auction=None if self._auction is None else (self._auction[0], self._auction[1]),
            contract=self._contract,
            history=tuple(self.events_for(seat)) if history else (),
            play_order=self.play_order,
            side_of=tuple(self.side_of(s) for s in range(self._n)),
            partnerships=self._partners,
            total_tricks=self.total_tricks,
            goal=self._game.goal_info(self.options),
        )

    def snapshot(self) -> Position:
        """The card-play state of the deal as plain values (what the fast kernel reads)."""
        sides = self._sides
        points = list(self._points)
        contract = self._contract
        if self._discard >= 0 and contract is not None:  # subastado's widow discard
            points[self.side_of(contract[0])] += self._points_table[self._discard]
        cante_points = [0] * sides
        for seat, _decl, p in self._cantes:
            cante_points[self.side_of(seat)] += p
        side_tricks = [0] * sides
        for _lead, _cards, winner, _pts in self._completed:
            side_tricks[self.side_of(winner)] += 1
        tlen = len(self._trick)
        return Position(
            hands=self._hands, trick=self._trick, leader=self._leader, to_move=self._to_move,
            best=self._best if tlen else -1, best_seat=self._best_seat if tlen else -1,
            ruffed=bool(self._ruffed) and bool(tlen), next_seat=self._nxt, active=self._k,
            trump=None if self.trump is None else int(self.trump), sung=self._sung,
            forty_lost=self._forty_lost, side_first=self._side_first,
            side_forfeit=self._side_forfeit, points=tuple(points),
            cante_points=tuple(cante_points), tricks_done=len(self._completed),
            side_tricks=tuple(side_tricks), window=self._window,
            window_seats=self._window_seats, window_declared=self._window_declared,
            poll=self._queue[0] if self._phase == _POLL and self._queue else None,
            draw_pending=self._draw_pending, stock_left=len(self._stock),
            sole_singer=self._game.sole_singer(contract, self.options),
            total_tricks=self.total_tricks,
        )

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
        layout: dict[str, Any] = {"hands": [h.to_list() for h in self.initial_hands]}
        layout |= self._game.layout_json(self._layout)
        record: dict[str, Any] = {
            **record_head("deal", self.variant, self.options),
            "seed": self.seed,
            "dealer": self.dealer,
            "deal": layout,
            "actions": [str(a) for a in self.actions],
        }
        if self.carry is not None:
            record["carry"] = list(self.carry)
        if self.is_over():
            record["result"] = self.result().to_json()
        return record

    @classmethod
    def from_record(cls, record: Mapping[str, Any] | str | bytes) -> Deal:
        """Rebuild a deal from its record, validating every field and action."""
        rec = check_header(record, "deal")
        if rec["version"] == 1:  # the exchange questions of version 1 are read off
            with tracing_rights():
                deal = cls._build(rec)
                replay_actions(deal.apply, rec.get("actions", []),
                               v1=V1Replay(deal.apply, lambda: deal))
        else:
            deal = cls._build(rec)
            replay_actions(deal.apply, rec.get("actions", []))
        check_result(rec, deal.result().to_json() if deal.is_over() else None)
        return deal

    @classmethod
    def _build(cls, record: Mapping[str, Any], *, where: str = "") -> Deal:
        """The deal a record describes, before its actions."""
        variant_name = field(record, "variant", str)
        try:
            variant = find_variant(variant_name)
        except TuteError as exc:
            raise RecordError(f"invalid record: field {where}'variant': {exc}",
                              field="variant") from None
        options = record_options(record)
        seed = field(record, "seed", int, required=False)
        dealer = field(record, "dealer", int, required=False)
        layout = field(record, "deal", dict, required=False)
        carry = field(record, "carry", list, required=False)
        if seed is None and layout is None:
            raise RecordError(f"invalid record: {where}needs 'seed' or 'deal' (explicit hands)",
                              field="deal")
        try:
            if layout is not None and "hands" in layout:
                return cls.new(variant, dealer=dealer, options=options, hands=layout["hands"],
                               trump_card=layout.get("trump_card"), trump=layout.get("trump"),
                               upcard=layout.get("upcard"), stock=layout.get("stock"),
                               table_card=layout.get("table_card"), widow=layout.get("widow"),
                               seed=seed, carry=carry)
            return cls.new(variant, seed=seed, dealer=dealer, options=options, carry=carry)
        except RecordError:
            raise
        except TuteError as exc:
            what = "options" if "option" in str(exc) else "deal"
            raise RecordError(f"invalid record: {where}{exc}", field=what) from None

    def __repr__(self) -> str:
        state = "over" if self.is_over() else f"trick {self.trick_number}, seat {self._to_move}"
        return f"<Deal {self.variant.id} dealer={self.dealer} trump={self.trump_card} {state}>"


_PACKS: dict[int, tuple[int, ...]] = {}  # a pack's mask -> its card indices, in index order


def _hides(hidden: int, decl: Declaration) -> bool:
    """Whether ``decl`` is the 20 of one of the ``hidden`` suits (a mask)."""
    return decl.kind == "veinte" and decl.suit is not None and bool(hidden >> decl.suit & 1)


def _pack_indices(deck: int) -> tuple[int, ...]:
    """The cards of the pack ``deck`` as indices, the order a seed shuffles (built once per
    pack: random playouts create a deal every few hundred microseconds)."""
    cards = _PACKS.get(deck)
    if cards is None:
        cards = _PACKS[deck] = tuple(c.index for c in ALL_CARDS if c.mask & deck)
    return cards


def _deal_out(order: list[int], n: int, receivers: list[int], packet: int,
              hand_size: int) -> list[int]:
    """Deal packets counter-clockwise from mano to the seats that receive cards."""
    masks = [0] * n
    k = len(receivers)
    if packet == 1:  # one card at a time: seat i of the round gets every k-th card
        for i, seat in enumerate(receivers):
            m = 0
            for c in order[i:k * hand_size:k]:
                m |= 1 << c
            masks[seat] = m
        return masks
    pos = 0
    k = 0
    total = len(receivers) * hand_size
    while pos < total:
        seat = receivers[k % len(receivers)]
        take = min(packet, hand_size - masks[seat].bit_count())
        for c in order[pos:pos + take]:
            masks[seat] |= 1 << c
        pos += take
        k += 1
    return masks


def _check_hands(hands: Sequence[Sequence[str | Card]], n: int, deck: int, size: int,
                 var: Variant, idle: int | None) -> list[int]:
    if not isinstance(hands, Sequence) or isinstance(hands, str) or len(hands) != n:
        raise TuteError(f"invalid hands: expected a list of {n} hands, one per seat")
    masks: list[int] = []
    seen = 0
    for seat, hand in enumerate(hands):
        if not isinstance(hand, Sequence) or isinstance(hand, str):
            raise TuteError(f"invalid hands: hand of seat {seat} must be a list of cards")
        mask = 0
        for text in hand:
            card = parse_card(text)
            if card.mask & seen:
                raise TuteError(f"invalid hands: card {card} is dealt twice")
            if not card.mask & deck:
                raise TuteError(f"invalid hands: card {card} is not in the {var.id} pack")
            seen |= card.mask
            mask |= card.mask
        want = 0 if seat == idle else size
        if mask.bit_count() != want:
            raise TuteError(
                f"invalid hands: seat {seat} holds {mask.bit_count()} cards, expected {want}"
            )
        masks.append(mask)
    return masks


Deal._save, Deal._restore = _state_methods()  # type: ignore[method-assign, assignment]
