"""One deal, played action by action: ``Deal.new`` → ``legal_actions``/``apply`` → ``result``.

State is a handful of ints and tuples (hands are 40-bit masks) so that ``copy``, ``undo`` and
random playouts are cheap. Every action is validated with a reason and leaves frozen events.

Playable now: Tute por parejas (§2) and the stock games — two-player Tute habanero and
corriente (§3), Guiñote for four and for two (§6, §3.7).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
from .cards import (
    ALL_CARDS,
    SUIT_MASKS,
    Card,
    CardSet,
    RankOrder,
    Suit,
    cards_of,
    parse_card,
    parse_suit,
)
from .errors import IllegalActionError, InvalidNotationError, TuteError
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
from .rules import (
    CUARENTA,
    Declaration,
    available_declarations,
    declaration_cards,
    exchange_card,
    exchange_refusal,
    explain_plays,
    marriage_mask,
    veinte,
)
from .scoring import (
    LAST_TRICK_BONUS,
    TARGET,
    cabron_losers,
    losses_3p,
    payments_3p,
    score_partnership,
    score_per_deal_2p,
    settle_subastado,
    target_winner,
    winner_3p,
)
from .shuffle import MAX_SEED, derive_seed, new_seed, shuffled
from .variants import Options, Variant, find_variant
from .views import DealResult, SeatView, TrickRecord

__all__ = ["Deal", "DealResult", "SeatView", "TrickRecord"]

# Per suit, the cards of every 10-bit pattern in display order (strongest first).
_SUIT_CARDS: Final = tuple(
    tuple(cards_of(pattern << (10 * s)) for pattern in range(1024)) for s in range(4)
)

_PLAY, _POLL, _OVER = 0, 1, 2
# What a polled seat is asked: to exchange (and, with cante_before_draw, declare) before the
# draw; to declare as the trick winner's partner; to show a tute held from the deal.
_EXCHANGE, _CANTE, _TUTE = "exchange", "cante", "tute"
# subastado's auction, the idle dealer's takeover, the widow discard and the trump choice; a
# weak hand thrown in; the end-of-deal renuncio claims (renuncio_mode=claim)
_BID, _TAKEOVER, _DISCARD, _TRUMP, _THROW, _CLAIM = (
    "bid", "takeover", "discard", "trump", "throw", "claim")
_MAX_BID: Final = 230  # 120 in cards + 10 + every cante: no higher total exists
_DEALER_SEED_INDEX: Final = 1_000_003


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
        "variant", "options", "order", "seed", "dealer", "mano", "trump", "trump_card",
        "total_tricks", "carry", "_n", "_sides", "_partners", "_exempt", "_undertrump",
        "_head_after_ruff", "_higher", "_points_table", "_stock_game", "_initial_hands",
        "_initial_stock", "_initial_upcard",
        # changing state (saved for undo)
        "_hands", "_trick", "_leader", "_to_move", "_best", "_best_seat", "_ruffed", "_points",
        "_tricks_won", "_completed", "_cantes", "_sung", "_forty_lost", "_window",
        "_window_seats", "_window_declared", "_side_first", "_side_forfeit", "_phase",
        "_result", "_queue", "_draw_pending", "_stock", "_upcard", "_known", "_exchanges",
        "_played", "_nxt", "_k", "_auction", "_contract", "_discard", "_revokes", "_void",
        # fixed for the deal (set up after the above for readability)
        "_claim_mode", "_table_card", "_widow", "_family", "_proper_cache", "_initial_table",
        "_initial_widow",
        # bookkeeping
        "_actions", "_events", "_undo", "_legal_cache",
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
    _n: int
    _sides: int
    _partners: bool
    _exempt: bool
    _undertrump: bool
    _head_after_ruff: bool
    _higher: tuple[int, ...]
    _points_table: tuple[int, ...]
    _stock_game: bool
    _initial_hands: tuple[int, ...]
    _initial_stock: tuple[int, ...]
    _initial_upcard: int
    _hands: tuple[int, ...]
    _trick: tuple[int, ...]
    _leader: int
    _to_move: int
    _best: int
    _best_seat: int
    _ruffed: bool
    _points: tuple[int, ...]
    _tricks_won: tuple[int, ...]
    _completed: tuple[tuple[int, tuple[int, ...], int, int], ...]
    _cantes: tuple[tuple[int, Declaration, int], ...]
    _sung: int
    _forty_lost: int
    _window: int
    _window_seats: int
    _window_declared: bool
    _side_first: int
    _side_forfeit: int
    _phase: int
    _result: DealResult | None
    _queue: tuple[tuple[int, str], ...]
    _draw_pending: bool
    _stock: tuple[int, ...]
    _upcard: int
    _known: tuple[int, ...]
    _exchanges: tuple[tuple[int, int, int], ...]
    _played: int
    _nxt: tuple[int, ...]  # next active seat in playing order, per seat
    _k: int  # active seats (cards per trick)
    _auction: tuple[int, int, int, int] | None  # bid, bidder, passed mask, spoken mask
    _contract: tuple[int, int, bool] | None  # declarer, bid, taken over
    _discard: int  # subastado widow: the card the declarer put aside (counts for him)
    _revokes: tuple[tuple[int, int], ...]  # (seat, action index) of illegal plays (claim mode)
    _void: str  # why the deal was thrown in ("" when it was played)
    _claim_mode: bool
    _table_card: int  # arrastrado: the card left on the table (out of play)
    _widow: int  # subastado with widow_card: the face-down 40th card (-1 after the discard)
    _family: str  # "parejas" | "stock" | "arrastrado" | "subastado" | "cabron"
    _initial_table: int
    _initial_widow: int
    _proper_cache: int
    _actions: list[Action]
    _events: list[Event]
    _undo: list[tuple[Any, ...]]
    _legal_cache: int

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
        var.require_playable()
        opts = var.resolve(options)
        n = var.seat_count(opts)
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
        deck, size = var.layout(opts)
        family = _family(var, opts)
        # seats that receive cards, in dealing order from mano
        idle = dealer if family == "subastado" and n == 4 else None
        receivers = [s for s in ((dealer + 1 + k) % n for k in range(n)) if s != idle]
        mano = receivers[0]
        deal = cls._blank(var, opts, n, dealer, mano, seed, family)
        if carry is not None:
            if not var.stock or opts.scoring_2p != "target_101":
                raise TuteError(f"carry (de vueltas) does not apply to {var.id}")
            if not isinstance(carry, Sequence) or len(carry) != deal._sides or any(
                isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in carry
            ):
                raise TuteError(f"invalid carry {carry!r}: one non-negative total per side")
            deal.carry = tuple(carry)
        dealt = len(receivers) * size
        if hands is None:
            if any(x is not None for x in (trump_card, trump, upcard, stock, table_card, widow)):
                raise TuteError("trump_card, trump, upcard, stock, table_card and widow go with "
                                "explicit hands")
            assert seed is not None
            order = shuffled(seed, [c.index for c in ALL_CARDS if c.mask & deck])
            masks = _deal_out(order, n, receivers, opts.deal_packet, size)
            rest = order[dealt:]
            if var.stock:
                deal._set_stock(rest[0], rest[1:])
            elif family == "arrastrado" and rest:
                deal._table_card = rest[0]
                deal._set_trump_card(rest[0])
            elif family == "subastado":
                deal._widow = rest[0] if rest else -1
            elif family in ("parejas", "arrastrado"):
                deal._set_trump_card(order[dealt - 1])
        else:
            masks = _check_hands(hands, n, deck, size, var, idle)
            extras = {"trump_card": trump_card, "trump": trump, "upcard": upcard,
                      "stock": stock, "table_card": table_card, "widow": widow}
            given = {k for k, v in extras.items() if v is not None}
            if var.stock:
                allowed = {"upcard", "stock"}
                if upcard is None or stock is None:
                    raise TuteError(f"explicit {var.id} deals need 'upcard' and 'stock'")
                if not isinstance(stock, Sequence) or isinstance(stock, str):
                    raise TuteError("invalid stock: expected a list of cards, top first")
                up = parse_card(upcard).index
                rest = [parse_card(c).index for c in stock]
                _check_pack(masks, [up, *rest], deck)
                deal._set_stock(up, rest)
            elif family == "arrastrado" and n == 3:
                allowed = {"table_card"}
                if table_card is None:
                    raise TuteError("explicit tute_arrastrado_3p deals need 'table_card'")
                tc = parse_card(table_card).index
                _check_pack(masks, [tc], deck)
                deal._table_card = tc
                deal._set_trump_card(tc)
            elif family == "subastado":
                allowed = {"widow"}
                rest = [] if widow is None else [parse_card(widow).index]
                _check_pack(masks, rest, deck)
                deal._widow = rest[0] if rest else -1
            elif family == "cabron":
                allowed = set()
                _check_pack(masks, [], deck)
            else:
                allowed = {"trump_card", "trump"}
                if trump is not None and trump_card is None:
                    deal.trump_card = None
                    deal.trump = parse_suit(trump)
                else:
                    tcard = parse_card(trump_card if trump_card is not None
                                       else hands[dealer][-1])
                    if not tcard.mask & masks[dealer]:
                        raise TuteError(
                            f"invalid trump_card {str(tcard)!r}: not in the dealer's hand "
                            f"(seat {dealer})"
                        )
                    if trump is not None and parse_suit(trump) != tcard.suit:
                        raise TuteError(f"invalid trump {trump!r}: the trump card {tcard} "
                                        "fixes the suit")
                    deal._set_trump_card(tcard.index)
            extra = sorted(given - allowed)
            if extra:
                raise TuteError(f"{', '.join(extra)} do(es) not apply to {var.id}")
            if seed is not None:  # both given: they must describe the same deal
                seeded = cls.new(var, seed=seed, dealer=dealer, options=opts, carry=carry)
                same = (seeded._initial_hands == tuple(masks)
                        and seeded.trump_card == deal.trump_card
                        and seeded._initial_stock == deal._initial_stock
                        and seeded._initial_table == deal._table_card
                        and seeded._initial_widow == deal._widow)
                if not same:
                    raise TuteError(f"invalid deal: the hands given are not the deal of seed "
                                    f"{seed}; give one or the other")
        deal._hands = tuple(masks)
        deal._initial_hands = deal._hands
        deal._initial_table = deal._table_card
        deal._initial_widow = deal._widow
        deal._start(receivers)
        return deal

    @classmethod
    def _blank(cls, var: Variant, opts: Options, n: int, dealer: int, mano: int,
               seed: int | None, family: str) -> Deal:
        deal = object.__new__(cls)
        deal.variant = var
        deal.options = opts
        deal.order = var.order
        deal._n = n
        deal._family = family
        deal._sides = var.sides(opts)
        deal._partners = var.partnerships
        deal.dealer = dealer
        deal.mano = mano
        deal.seed = seed
        deal.carry = None
        deck, size = var.layout(opts)
        active = n - 1 if family == "subastado" and n == 4 else n
        deal.total_tricks = size
        deal._exempt = opts.partner_exemption and var.partnerships
        deal._undertrump = opts.must_undertrump
        deal._head_after_ruff = opts.must_head_after_ruff
        deal._higher = var.order.higher
        deal._points_table = var.order.points
        deal._stock_game = var.stock
        if var.stock:
            deal.total_tricks = deck.bit_count() // active
        deal._stock = ()
        deal._upcard = -1
        deal._initial_stock = ()
        deal._initial_upcard = -1
        deal._table_card = -1
        deal._widow = -1
        deal._claim_mode = opts.renuncio_mode == "claim"
        deal.trump_card = None
        deal.trump = None
        return deal

    def _set_trump_card(self, index: int) -> None:
        self.trump_card = ALL_CARDS[index]
        self.trump = Suit(index // 10)

    def _set_stock(self, up: int, rest: Sequence[int]) -> None:
        self.trump = Suit(up // 10)
        self.trump_card = ALL_CARDS[up]
        self._upcard = self._initial_upcard = up
        self._stock = self._initial_stock = (*rest, up)  # the upcard is drawn last

    def _start(self, receivers: list[int]) -> None:
        n = self._n
        nxt = list(range(n))
        for i, s in enumerate(receivers):
            nxt[s] = receivers[(i + 1) % len(receivers)]
        self._nxt = tuple(nxt)
        self._k = len(receivers)
        self._trick = ()
        self._leader = self.mano
        self._to_move = self.mano
        self._best = -1
        self._best_seat = -1
        self._ruffed = False
        self._points = (0,) * self._sides
        self._tricks_won = (0,) * n
        self._completed = ()
        self._cantes = ()
        self._sung = 0
        self._forty_lost = 0
        self._window = 0
        self._window_seats = 0
        self._window_declared = False
        self._side_first = 0
        self._side_forfeit = 0
        self._phase = _PLAY
        self._result = None
        self._queue = ()
        self._draw_pending = False
        self._exchanges = ()
        self._played = 0
        self._auction = None
        self._contract = None
        self._discard = -1
        self._revokes = ()
        self._void = ""
        self._proper_cache = -1
        known = [0] * n
        if self._family in ("parejas", "arrastrado") and self.trump_card is not None and (
            self._table_card < 0
        ):
            known[self.dealer] = self.trump_card.mask  # turned for all to see
        self._known = tuple(known)
        self._actions = []
        self._events = []
        self._undo = []
        self._legal_cache = -1
        opts = self.options
        queue: list[tuple[int, str]] = []
        if opts.weak_hand_max_points is not None:
            queue.extend((s, _THROW) for s in receivers)
        if self._family == "subastado":
            self._auction = (0, -1, 0, 0)
            queue.append((self.mano, _BID))
        elif self._table_card >= 0:
            queue.extend(self._table_exchanges(receivers))
        if opts.tute_dealt_wins_immediately and opts.tute_enabled and (
            self._family != "subastado"
        ):
            for seat in receivers:
                if any(d.is_tute for d in self._available(seat)):
                    queue.append((seat, _TUTE))
        if self._stock_game and opts.exchange_timing == "start_and_after_win" and (
            self._exchange_public()
        ):
            queue.extend((s, _EXCHANGE) for s in receivers)
        if queue:
            self._queue = tuple(queue)
            self._phase = _POLL
            self._to_move = queue[0][0]

    def _table_exchanges(self, receivers: list[int]) -> list[tuple[int, str]]:
        """Arrastrado: the 7 and then the 2 of trumps take the table card — compulsory by
        default (done here, as public events), otherwise each seat is asked in turn."""
        if not self.options.exchange_mandatory:
            return [(s, _EXCHANGE) for s in receivers] if self._exchange_public() else []
        while True:
            target = self._exchange_target()
            if target is None:
                return []
            holder = next((s for s in receivers if self._hands[s] >> target & 1), None)
            if holder is None:
                return []
            self._swap_table(holder, target)

    def _swap_table(self, seat: int, give: int) -> None:
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
        return tuple(ALL_CARDS[c] for c in self._initial_stock[:-1])

    @property
    def initial_table_card(self) -> Card | None:
        """Arrastrado for three: the 40th card as dealt, before the compulsory exchanges."""
        return None if self._initial_table < 0 else ALL_CARDS[self._initial_table]

    @property
    def initial_widow(self) -> Card | None:
        """Subastado with ``widow_card``: the face-down 40th card as dealt."""
        return None if self._initial_widow < 0 else ALL_CARDS[self._initial_widow]

    @property
    def initial_upcard(self) -> Card | None:
        return None if self._initial_upcard < 0 else ALL_CARDS[self._initial_upcard]

    @property
    def upcard(self) -> Card | None:
        """The face-up card under the stock, while it is there (stock games)."""
        return ALL_CARDS[self._upcard] if self._stock else None

    @property
    def stock_count(self) -> int:
        """Cards left in the stock, the upcard included."""
        return len(self._stock)

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
        return tuple(
            TrickRecord(i + 1, lead, tuple(ALL_CARDS[c] for c in cards), win, pts)
            for i, (lead, cards, win, pts) in enumerate(self._completed)
        )

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

    def events_for(self, seat: int | None) -> list[Event]:
        """The event log as ``seat`` sees it (``None``: a spectator): other seats' draws of
        face-down cards are hidden (their ``card`` is ``None``)."""
        out: list[Event] = []
        for e in self._events:
            if isinstance(e, Drew):
                out.append(e if e.public or e.seat == seat else e._replace(card=None))
            elif isinstance(e, Discarded):
                out.append(e if e.seat == seat else e._replace(card=None))
            else:
                out.append(e)
        return out

    def side_of(self, seat: int) -> int:
        return seat % 2 if self._partners else seat

    def _seat_arg(self, seat: int) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self._n:
            raise TuteError(f"invalid seat {seat!r}: expected 0..{self._n - 1}")
        return seat

    # ---------------------------------------------------------------- legality

    def _legal_cards(self) -> int:
        """Mask of the cards the player to move may play (§1.4)."""
        if self._legal_cache >= 0:
            return self._legal_cache
        seat = self._to_move
        hand = self._hands[seat]
        trick = self._trick
        if not trick:
            mask = hand
        elif self._stock and self.options.stock_phase_rule != "full":
            rule = self.options.stock_phase_rule
            led = hand & SUIT_MASKS[trick[0] // 10]
            if rule == "free":
                mask = hand
            elif rule == "follow_suit":
                mask = led or hand
            else:  # follow_trump_lead
                mask = (led or hand) if trick[0] // 10 == self.trump else hand
        else:
            lead = trick[0] // 10
            led = hand & SUIT_MASKS[lead]
            best = self._best
            exempt = self._exempt and (self._best_seat - seat) % 2 == 0
            if led:
                if exempt:
                    mask = led
                elif self._ruffed:
                    if self._head_after_ruff:
                        top = max((c for c in trick if c // 10 == lead),
                                  key=self.order.strength.__getitem__)
                        mask = (led & self._higher[top]) or led
                    else:
                        mask = led
                else:
                    mask = (led & self._higher[best]) or led
            else:
                trumps = hand & SUIT_MASKS[self.trump] if self.trump is not None else 0
                if not trumps or exempt:
                    mask = hand
                elif not self._ruffed:
                    mask = trumps
                else:
                    mask = (trumps & self._higher[best]) or (
                        trumps if self._undertrump else hand)
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
        if self._phase == _POLL and self._queue and self._queue[0][1] == _TUTE:
            return [d for d in self._available(seat) if d.is_tute]
        if not self._window >> seat & 1:
            return []
        return self._available(seat)

    def _exchange_target(self) -> int | None:
        """The trump card that may take the upcard (or arrastrado's table card) now."""
        if self.trump is None:
            return None
        o = self.options
        if self._table_card >= 0:
            if self._completed or self._trick:
                return None  # only before the first trick
            return exchange_card(self._table_card, self.trump, two_enabled=True,
                                 two_takes_four=o.two_exchanges_four)
        if not self._stock:
            return None
        return exchange_card(self._upcard, self.trump, two_enabled=o.exchange_two_enabled,
                             two_takes_four=o.two_exchanges_four)

    def _exchange_public(self) -> bool:
        """Could anybody exchange now, judging by public information only? (Asking a seat
        only when it holds the 7 would tell the table that it does.)"""
        target = self._exchange_target()
        return (
            target is not None and not self._played >> target & 1
            and (self._table_card >= 0 or len(self._stock) > self._n
                 or self.options.exchange_last_round_allowed)
        )

    def _exchanges_for(self, seat: int) -> list[Action]:
        target = self._exchange_target()
        if target is None or not self._hands[seat] >> target & 1:
            return []
        if (self._table_card < 0 and len(self._stock) <= self._n
                and not self.options.exchange_last_round_allowed):
            return []
        return [Exchange(ALL_CARDS[target])]

    def _may_exchange_on_turn(self, seat: int) -> bool:
        """own_turn_any (and Guiñote's any_trick_won): exchange on one's own turn."""
        if not self._stock_game or not self._stock:
            return False
        o = self.options
        if o.exchange_timing == "own_turn_any":
            return True
        return (o.exchange_side_requirement == "any_trick_won" and self._partners
                and bool(self._side_first >> self.side_of(seat) & 1))

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
            if self._stock_game and self._may_exchange_on_turn(seat):
                acts = self._exchanges_for(seat) + acts
            if self._claim_mode and self._can_claim(seat):
                acts.append(CLAIM)
            if (self.carry is not None and not self._trick and self._completed
                    and self.options.vueltas_claim == "manual"):
                acts.append(STOP)
            return acts
        if phase == _POLL:
            return self._poll_actions()
        return []

    def _poll_actions(self) -> list[Action]:
        seat, kind = self._queue[0]
        if kind == _EXCHANGE:
            return [*self._exchanges_for(seat), *self._decls(seat), PASS]
        if kind in (_CANTE, _TUTE):
            return [*self._decls(seat), PASS]
        if kind == _BID:
            assert self._auction is not None
            step, low = self.options.bid_step, self.options.min_bid
            current = self._auction[0]
            start = max(low, current + step) if current else low
            start += -start % step
            return [PASS, *(Bid(b) for b in range(start, _MAX_BID + 1, step))]
        if kind == _TAKEOVER:
            return [TAKEOVER, PASS]
        if kind == _DISCARD:
            return [Discard(c) for c in cards_of(self._hands[seat])]
        if kind == _TRUMP:
            return [ChooseTrump(s) for s in Suit]
        if kind == _THROW:
            weak = self.order.points_of(self._hands[seat]) <= (
                self.options.weak_hand_max_points or 0)
            return [THROW, PASS] if weak else [PASS]
        if kind == _CLAIM:
            return [CLAIM, PASS] if self._can_claim(seat) else [PASS]
        raise AssertionError(kind)

    def why_illegal(self, action: str | Action) -> str | None:
        """None if ``action`` is legal now, else the reason it is refused."""
        try:
            act = parse_action(action)
        except InvalidNotationError as exc:
            return str(exc)
        if self._phase == _OVER:
            return "the deal is over"
        seat = self._to_move
        if act in self.legal_actions():
            return None
        if isinstance(act, Card):
            if self._phase == _POLL:
                return f"seat {seat} must first {self._poll_question()}"
            if not act.mask & self._hands[seat]:
                return f"{act} is not in seat {seat}'s hand"
            stock_phase = bool(self._stock) and self.options.stock_phase_rule != "full"
            _, why = explain_plays(
                self._hands[seat], self._trick, self.trump, self.order,
                phase="stock" if stock_phase else "obligated",
                stock_phase_rule=self.options.stock_phase_rule,
                partner_winning=bool(self._trick) and self._partners
                and (self._best_seat - seat) % 2 == 0,
                partner_exemption=self._exempt, must_undertrump=self._undertrump,
                must_head_after_ruff=self._head_after_ruff,
            )
            return why.get(act.index, "not a legal card now")
        if isinstance(act, Declaration):
            return self._why_not_declare(seat, act)
        if isinstance(act, Exchange):
            return self._why_not_exchange(seat, act)
        if self._phase == _POLL:
            kind = self._queue[0][1]
            if isinstance(act, Bid) and kind == _BID:
                return self._why_not_bid(act.points)
            if isinstance(act, Discard) and kind == _DISCARD:
                return f"{act.card} is not among seat {seat}'s cards"
            if isinstance(act, ThrowIn) and kind == _THROW:
                return (f"only a hand worth at most {self.options.weak_hand_max_points} card "
                        "points may be thrown in")
            if isinstance(act, Claim) and kind == _CLAIM:
                return "no opponent has played a card yet"
            return f"seat {seat} must now {self._poll_question()}"
        if isinstance(act, Stop):
            return ("only the trick winner, before leading, in a deal de vueltas with "
                    "vueltas_claim=manual may stop play")
        if isinstance(act, Claim):
            if not self._claim_mode:
                return "renuncio claims need renuncio_mode=claim (illegal plays are prevented)"
            return "no opponent has played a card yet"
        if isinstance(act, Pass):
            return "there is nothing to pass on now: play a card"
        return "that action belongs to another moment of the deal: play a card"

    def _poll_question(self) -> str:
        kind = self._queue[0][1]
        return {
            _EXCHANGE: "exchange the upcard or pass (before the draw)",
            _TUTE: "show the tute held from the deal or pass",
            _CANTE: "declare or pass",
            _BID: "bid or pass",
            _TAKEOVER: "take over the bid or pass",
            _DISCARD: "discard a card (the widow was taken)",
            _TRUMP: "name the trump suit",
            _THROW: "throw in the hand or pass",
            _CLAIM: "claim a renuncio or pass",
        }[kind]

    def _why_not_bid(self, points: int) -> str:
        o = self.options
        assert self._auction is not None
        current = self._auction[0]
        if points < o.min_bid:
            return f"bid {points} is below min_bid {o.min_bid}"
        if points % o.bid_step:
            return f"bid {points} is not a multiple of {o.bid_step}"
        if current and points <= current:
            return f"bid {points} does not beat the current bid {current}"
        return f"bid {points} is above the most a deal can give ({_MAX_BID})"

    def _why_not_declare(self, seat: int, decl: Declaration) -> str:
        if not self._decls(seat) and not self._window >> seat & 1:
            if self._trick:
                return "declarations are only possible before the next trick is led"
            if not self._completed:
                return "a declaration needs a won trick first"
            if self._stock_game and not self._stock and self.variant.family == "tute":
                return "no declarations once the stock is exhausted (arrastre)"
            return f"seat {seat} may not declare now"
        hand = self._hands[seat]
        cards = declaration_cards(decl, self.trump, self.order)
        if decl.is_tute and not self.options.tute_enabled:
            return "tute is not enabled in this game"
        if cards & hand != cards:
            missing = " ".join(str(c) for c in cards_of(cards & ~hand))
            return f"{decl} needs {missing} in hand"
        suit = decl.marriage_suit(self.trump)
        if suit is not None and self._sung >> suit & 1:
            return f"the {Suit(suit).spanish} marriage has already been declared"
        if decl.kind == "cuarenta" and self._forty_lost >> seat & 1:
            return "the right to the 40 was lost by singing a 20 first"
        if decl.kind == "veinte" and self.options.forty_first == "enforce":
            return "the 40 must be declared before any 20"
        return f"{decl} is not available now"

    def _why_not_exchange(self, seat: int, act: Exchange) -> str:
        if not self._stock_game:
            return f"there is no upcard to exchange in {self.variant.id}"
        if not self._stock:
            return "the stock is exhausted: no upcard to exchange"
        if not act.card.mask & self._hands[seat]:
            return f"{act.card} is not in seat {seat}'s hand"
        o = self.options
        why = exchange_refusal(
            act.card.index, self._upcard, len(self._stock), self._n,
            two_enabled=o.exchange_two_enabled, two_takes_four=o.two_exchanges_four,
            last_round_allowed=o.exchange_last_round_allowed,
        )
        if why:
            return why
        if o.exchange_timing == "after_winning_before_draw":
            return "only the side that has just won a trick may exchange, before the draw"
        return "an exchange is not possible at this moment"

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
                raise IllegalActionError(str(exc), action=str(action)) from None
        if act.__class__ is Card and self._phase == _PLAY:
            seat = self._to_move
            if not act.mask & self._legal_cards():
                if not (self._claim_mode and act.mask & self._hands[seat]):
                    self._refuse(act)
                self._save()  # a renuncio, allowed at a table that claims them
                self._revokes = (*self._revokes, (seat, len(self._actions)))
            else:
                self._save()
            self._play(seat, act.index)
            return act
        if self._phase == _OVER or act not in self.legal_actions():
            self._refuse(act)
        self._save()
        self._legal_cache = -1
        seat = self._to_move
        if isinstance(act, Declaration):
            self._declare(seat, act)
        elif isinstance(act, Exchange):
            self._exchange(seat, act)
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

    def _refuse(self, act: Action, reason: str | None = None) -> None:
        if reason is None:
            reason = self.why_illegal(act) or "not legal now"
        who = "" if self._phase == _OVER else f"seat {self._to_move}: "
        raise IllegalActionError(f"illegal action {str(act)!r} ({who}{reason})",
                                 action=str(act), reason=reason)

    def _save(self) -> None:
        self._undo.append((
            self._hands, self._trick, self._leader, self._to_move, self._best, self._best_seat,
            self._ruffed, self._points, self._tricks_won, self._completed, self._cantes,
            self._sung, self._forty_lost, self._window, self._window_seats,
            self._window_declared, self._side_first, self._side_forfeit, self._phase,
            self._result, self._queue, self._draw_pending, self._stock, self._upcard,
            self._known, self._exchanges, self._played, self.trump, self._nxt, self._k,
            self._auction, self._contract, self._discard, self._revokes, self._void,
            self._table_card, self._widow, len(self._events),
        ))

    def undo(self) -> Action:
        """Take back the last action and return it (for search and for 'undo' buttons)."""
        if not self._undo:
            raise TuteError("nothing to undo: no action has been applied")
        (self._hands, self._trick, self._leader, self._to_move, self._best, self._best_seat,
         self._ruffed, self._points, self._tricks_won, self._completed, self._cantes,
         self._sung, self._forty_lost, self._window, self._window_seats,
         self._window_declared, self._side_first, self._side_forfeit, self._phase,
         self._result, self._queue, self._draw_pending, self._stock, self._upcard,
         self._known, self._exchanges, self._played, self.trump, self._nxt, self._k,
         self._auction, self._contract, self._discard, self._revokes, self._void,
         self._table_card, self._widow, n_events) = self._undo.pop()
        del self._events[n_events:]
        self._legal_cache = -1
        act: Action = self._actions.pop()
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
                                       tuple(map(ALL_CARDS.__getitem__, trick)), winner, pts))
        self._trick = ()
        self._leader = winner
        self._to_move = winner
        first_win = not self._side_first >> side & 1
        self._side_first |= 1 << side
        if self._family == "cabron":
            self._cabron_cantes(trick, winner)
        if number == self.total_tricks:
            if self._claim_mode:
                self._queue = tuple((s, _CLAIM) for s in self._trick_seats(winner, self._k))
                self._phase = _POLL
                self._to_move = winner
            else:
                self._finish("tricks", None)
            return
        if self._vueltas_reached(side):
            return
        if self._stock:
            self._after_stock_trick(winner)
        elif self._family != "cabron" and not (
            self._stock_game and self.variant.family == "tute"
        ):  # two-player Tute declares nothing in arrastre (§3.5); Guiñote does (§6.8)
            self._open_window(winner, first_win)

    def _cabron_cantes(self, trick: tuple[int, ...], winner: int) -> None:
        """Tute cabrón: a king and caballo of one suit falling in the same trick are a cante
        for the trick's winner; the first one makes that suit trumps and is worth 40."""
        tmask = 0
        for c in trick:
            tmask |= 1 << c
        found = []
        for suit in range(4):
            pair = marriage_mask(suit, self.order)
            if tmask & pair == pair:  # ordered by when the second card fell
                found.append((max(trick.index(c) for c in trick if pair >> c & 1), suit))
        for _pos, suit in sorted(found):
            if self.trump is None:
                self.trump = Suit(suit)
                decl, pts = CUARENTA, 40
            else:
                decl, pts = veinte(suit), 20
            self._sung |= 1 << suit
            self._cantes = (*self._cantes, (winner, decl, pts))
            self._events.append(Declared(winner, decl, pts,
                                         cards_of(marriage_mask(suit, self.order))))

    # ---------------------------------------------------------------- stock games

    def _after_stock_trick(self, winner: int) -> None:
        """Exchange poll (and, with cante_before_draw, the declaration window), then draw."""
        o = self.options
        queue: list[tuple[int, str]] = []
        if o.exchange_timing != "own_turn_any" and self._exchange_public():
            queue.extend((s, _EXCHANGE) for s in self._seats_of_side_from(winner))
        if o.cante_before_draw and not self._partners:
            self._window = self._window_seats = 1 << winner
            self._window_declared = False
            if not queue:
                queue.append((winner, _EXCHANGE))
        self._draw_pending = True
        if queue:
            self._queue = tuple(queue)
            self._phase = _POLL
            self._to_move = queue[0][0]
        else:
            self._draw()

    def _seats_of_side_from(self, winner: int) -> list[int]:
        if self._partners:
            return [winner, (winner + 2) % self._n]
        return [winner]

    def _draw(self) -> None:
        """Winner first, then in playing order; the upcard is the last card drawn."""
        self._draw_pending = False
        self._window = self._window_seats = 0
        winner = self._leader
        n = self._n
        stock = self._stock
        hands = list(self._hands)
        known = list(self._known)
        for k in range(n):
            seat = (winner + k) % n
            card = stock[k]
            hands[seat] |= 1 << card
            public = k == len(stock) - 1
            if public:
                known[seat] |= 1 << card
            self._events.append(Drew(seat, ALL_CARDS[card], public))
        self._hands = tuple(hands)
        self._known = tuple(known)
        self._stock = stock[n:]
        self._to_move = winner
        self._phase = _PLAY
        o = self.options
        if self.variant.family == "guinote" or (self._stock and not o.cante_before_draw):
            first = o.cante_restriction != "none" and self._first_win_of(winner)
            self._open_window(winner, first)

    def _first_win_of(self, winner: int) -> bool:
        side = self.side_of(winner)
        return sum(1 for t in self._completed if self.side_of(t[2]) == side) == 1

    def _exchange(self, seat: int, act: Exchange) -> None:
        self._actions.append(act)
        self._swap_table(seat, act.card.index)
        # the seat stays polled (a 2 may follow a 7 in the same window)

    def _stop(self, seat: int) -> None:
        """vueltas_claim=manual: stopping play claims 101; a wrong claim loses the game."""
        self._actions.append(STOP)
        side = self.side_of(seat)
        assert self.carry is not None
        cantes = sum(p for s, _d, p in self._cantes if self.side_of(s) == side)
        reached = self.carry[side] + self._points[side] + cantes >= TARGET
        self._finish("vueltas", side if reached else 1 - side)

    def _vueltas_reached(self, side: int) -> bool:
        """De vueltas with vueltas_claim=auto: a side wins as soon as its running total
        (carried total + this deal's card points and cantes) reaches 101."""
        if self.carry is None or self.options.vueltas_claim != "auto":
            return False
        cantes = sum(p for s, _d, p in self._cantes if self.side_of(s) == side)
        if self.carry[side] + self._points[side] + cantes >= TARGET:
            self._finish("vueltas", side)
            return True
        return False

    # ---------------------------------------------------------------- declarations

    def _entitled(self, winner: int) -> int:
        if self._family == "subastado":
            declarer = self._contract[0] if self._contract else -1
            if self.options.cantes_declarer_only and winner != declarer:
                return 0
            return 1 << winner
        if self.options.cante_by == "trick_winner" or not self._partners:
            return 1 << winner
        return (1 << winner) | (1 << ((winner + 2) % self._n))

    def _open_window(self, winner: int, first_win: bool) -> None:
        side = self.side_of(winner)
        self._window_declared = False
        restriction = self.options.cante_restriction
        if self._side_forfeit >> side & 1 or (restriction == "first_win_only" and not first_win):
            self._window = self._window_seats = 0
            return
        seats = self._entitled(winner)
        self._window = self._window_seats = seats
        # the partner of the trick winner speaks first, and only when it has something to say
        partner = seats & ~(1 << winner)
        if partner:
            p = partner.bit_length() - 1
            if self._available(p):
                self._queue = ((p, _CANTE),)
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
        pts = decl.points
        self._cantes = (*self._cantes, (seat, decl, pts))
        self._events.append(Declared(seat, decl, pts, cards_of(cards)))
        self._window_declared = True
        self._window &= ~(1 << seat)
        if self.options.cante_by == "winning_side_one":
            self._window = 0
        if self._vueltas_reached(self.side_of(seat)):
            return
        if self._phase == _POLL and self._queue[0][1] != _EXCHANGE:
            self._next_in_queue()

    def _pass(self, seat: int) -> None:
        self._actions.append(PASS)
        self._events.append(Passed(seat))
        kind = self._queue[0][1]
        if kind == _CANTE:
            self._window &= ~(1 << seat)
        elif kind == _BID:
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
            self._to_move = queue[0][0]
            return
        self._phase = _PLAY
        if len(self._completed) == self.total_tricks:
            self._finish("tricks", None)  # the end-of-deal claims window closed
        elif self._draw_pending:
            self._draw()
        else:
            self._to_move = self._leader

    # ---------------------------------------------------------------- subastado

    def _bid(self, seat: int, act: Bid) -> None:
        self._actions.append(act)
        assert self._auction is not None
        _bid, _bidder, passed, spoken = self._auction
        self._auction = (act.points, seat, passed, spoken | 1 << seat)
        self._events.append(BidMade(seat, act.points))
        self._auction_next(seat)

    def _auction_next(self, seat: int) -> None:
        """Next speaker: single round — each active player once, dealer last; open — round
        and round until all but one have passed."""
        assert self._auction is not None
        bid, bidder, passed, spoken = self._auction
        order = self._trick_seats(self.mano, self._k)
        if self.options.auction_rounds == "single":
            waiting = [s for s in order if not spoken >> s & 1]
        else:
            start = order.index(seat) + 1
            waiting = [s for s in order[start:] + order[:start]
                       if not passed >> s & 1 and s != bidder]
            if bidder < 0 and all(passed >> s & 1 for s in order):
                waiting = []
        if waiting:
            self._queue = ((waiting[0], _BID),)
            self._to_move = waiting[0]
            return
        if bidder < 0:
            if self.options.all_pass == "redeal":
                self._void = "all_pass"
                self._finish("void", None)
                return
            bid, bidder = self.options.min_bid, self.mano
        self._contract = (bidder, bid, False)
        self._events.append(AuctionWon(bidder, bid))
        if self._n == 4 and self.options.dealer_takeover:
            self._queue = ((self.dealer, _TAKEOVER),)
            self._to_move = self.dealer
        else:
            self._after_takeover()

    def _take_over(self, seat: int) -> None:
        """The idle dealer plays the top bidder's cards, promising bid + increment."""
        self._actions.append(TAKEOVER)
        assert self._contract is not None
        bidder, bid, _ = self._contract
        bid += self.options.takeover_increment
        hands = list(self._hands)
        hands[seat], hands[bidder] = hands[bidder], 0
        self._hands = tuple(hands)
        known = list(self._known)
        known[seat], known[bidder] = known[bidder], 0
        self._known = tuple(known)
        self._set_active([s for s in range(self._n) if hands[s]])
        self._contract = (seat, bid, True)
        self._events.append(TookOver(seat, bidder, bid))
        self._queue = ()
        self._after_takeover()

    def _set_active(self, active: list[int]) -> None:
        n = self._n
        order = [s for s in ((self.dealer + 1 + k) % n for k in range(n)) if s in active]
        nxt = list(range(n))
        for i, s in enumerate(order):
            nxt[s] = order[(i + 1) % len(order)]
        self._nxt = tuple(nxt)
        self._k = len(order)

    def _after_takeover(self) -> None:
        assert self._contract is not None
        declarer = self._contract[0]
        self._phase = _POLL
        self._to_move = declarer
        if self._widow >= 0:  # the declarer takes the widow and puts a card aside
            hands = self._hands
            self._hands = (*hands[:declarer], hands[declarer] | 1 << self._widow,
                           *hands[declarer + 1:])
            self._queue = ((declarer, _DISCARD),)
        else:
            self._queue = ((declarer, _TRUMP),)

    def _discard_card(self, seat: int, act: Discard) -> None:
        self._actions.append(act)
        card = act.card.index
        hands = self._hands
        self._hands = (*hands[:seat], hands[seat] & ~(1 << card), *hands[seat + 1:])
        self._discard = card
        self._widow = -1
        self._events.append(Discarded(seat, act.card))
        self._queue = ((seat, _TRUMP),)

    def _choose_trump(self, seat: int, act: ChooseTrump) -> None:
        self._actions.append(act)
        self.trump = act.suit
        self._events.append(TrumpNamed(seat, act.suit))
        self._queue = ()
        self._phase = _PLAY
        if self.options.declarer_leads:
            leader = seat
        else:  # mano: the first active seat to the dealer's right
            n = self._n
            leader = next(s for s in ((self.dealer + 1 + k) % n for k in range(n))
                          if self._hands[s])
        self._leader = self._to_move = leader

    # ---------------------------------------------------------------- table customs

    def _throw_in(self, seat: int) -> None:
        self._actions.append(THROW)
        self._events.append(ThrownIn(seat))
        self._void = "weak_hand"
        self._finish("void", seat)

    def _opponents(self, seat: int) -> list[int]:
        if self._family == "subastado" and self._contract is not None:
            declarer = self._contract[0]
            if seat == declarer:
                return [s for s in range(self._n) if s != seat]
            return [declarer]
        side = self.side_of(seat)
        return [s for s in range(self._n) if self.side_of(s) != side]

    def _can_claim(self, seat: int) -> bool:
        opp = self._opponents(seat)
        for lead, cards, _w, _p in self._completed:
            if any(s in opp for s in self._trick_seats(lead, len(cards))):
                return True
        return any(s in opp for s in self._trick_seats(self._leader, len(self._trick))
                   ) if self._trick else False

    def _claim(self, seat: int) -> None:
        """A renuncio claim: the engine checks the history for an opponent's illegal play."""
        self._actions.append(CLAIM)
        opp = self._opponents(seat)
        offender = next((s for s, _i in self._revokes if s in opp), None)
        self._events.append(RenuncioClaimed(seat, offender is not None, offender))
        self._finish("renuncio", seat, offender=offender)

    # ---------------------------------------------------------------- scoring

    def _finish(self, reason: str, who: int | None, *, offender: int | None = None) -> None:
        """End the deal. ``reason``: "tricks"; "tute" (``who`` sang it); "vueltas" (``who`` is
        the side that reached 101 de vueltas); "void" (all passed, or ``who`` threw in a weak
        hand); "renuncio" (``who`` claimed; ``offender`` is the revoker found, if any)."""
        self._phase = _OVER
        self._queue = ()
        sides = self._sides
        opts = self.options
        family = self._family
        points = list(self._points)
        if self._discard >= 0 and self._contract is not None:  # the widow discard
            points[self._contract[0]] += self._points_table[self._discard]
        cantes: list[list[int]] = [[] for _ in range(sides)]
        for s, _d, p in self._cantes:
            if p:
                cantes[self.side_of(s)].append(p)
        if opts.thirty_malas:  # Guiñote house rule: cantes count only with 30 card points
            cantes = [c if points[i] >= 30 else [] for i, c in enumerate(cantes)]
        last = [False] * sides
        if reason in ("tricks", "renuncio") and len(self._completed) == self.total_tricks:
            last[self.side_of(self._completed[-1][2])] = True
        totals = tuple(points[i] + sum(cantes[i]) + (LAST_TRICK_BONUS if last[i] else 0)
                       for i in range(sides))
        last_side = last.index(True) if any(last) else None
        target = self._stock_game and opts.scoring_2p == "target_101"
        carry = self.carry or (0,) * sides
        running = tuple(c + t for c, t in zip(carry, totals, strict=True)) if target else None
        games = [0] * sides
        winner: int | None = None
        replay = match_won = vueltas = False
        losses: tuple[int, ...] | None = None
        balances: tuple[int, ...] | None = None
        made: bool | None = None
        claim = None
        if reason == "renuncio":
            assert who is not None
            claim = (who, offender is not None, offender)
        swing = opts.renuncio_penalty == "two_games_swing"

        if reason == "void":
            pass
        elif family in ("parejas", "stock"):
            if reason == "tute":
                assert who is not None
                winner = self.side_of(who)
                games[winner] = 2 if opts.tute_award == "two_games" else 1
                match_won = opts.tute_award == "match" or (
                    opts.tute_award == "partida" and not target)
            elif reason == "renuncio":
                assert who is not None
                claimant = self.side_of(who)
                winner = claimant if offender is not None else 1 - claimant
                games[winner] = 2 if swing else 1
            elif reason == "vueltas":
                assert who is not None
                winner = who
                games[winner] = 1
            elif target:
                assert running is not None
                winner = target_winner(running, last_side, opts.both_over)
                if winner is None:
                    vueltas = True
                else:
                    games[winner] = 1
            elif self._stock_game:  # scoring_2p == "per_deal"
                out = score_per_deal_2p(totals, last_side, [bool(c) for c in cantes])
                winner = out.winner
                assert winner is not None
                games[winner] = out.games
            else:
                out = score_partnership(totals, last_side, opts,
                                        mano_side=self.side_of(self.mano),
                                        sang=[bool(c) for c in cantes])
                winner, replay = out.winner, out.replay
                if winner is not None:
                    games[winner] = out.games
        elif family == "arrastrado":
            winner, losses, balances = self._score_individual(reason, who, offender, totals,
                                                               last_side, points, swing)
            if winner is not None:
                games[winner] = 1
        elif family == "subastado":
            assert self._contract is not None
            declarer, bid, takeover = self._contract
            total = totals[declarer]
            if reason == "tute":
                made = who == declarer
            elif reason == "renuncio":
                assert who is not None
                guilty = offender if offender is not None else who
                made = guilty != declarer
            else:
                made = total >= bid
            people = list(range(self._n))
            _ok, pay = settle_subastado(declarer, bid, bid if made else -1, opts, people=people,
                                        takeover=takeover)
            if opts.settlement == "points":
                pay = {p: 0 for p in people}
                pay[declarer] = bid if made else -bid
            balances = tuple(pay[p] for p in people)
            winner = declarer if made else None
        else:  # cabrón
            took = [self._tricks_won[s] > 0 for s in range(self._n)]
            if reason == "renuncio":
                assert who is not None
                losers = [offender if offender is not None else who]
            else:
                losers = cabron_losers(totals, took)
            losses = tuple(1 if s in losers else 0 for s in range(self._n))
        result = DealResult(
            totals, tuple(points), tuple(map(tuple, cantes)), tuple(last), winner, tuple(games),
            reason=reason, replay=replay, match_won=match_won, running=running, vueltas=vueltas,
            losses=losses, balances=balances, made=made, void=self._void or None,
            contract=None if self._contract is None else (
                self._contract[0], self._contract[1], self.trump.letter if self.trump else None,
                self._contract[2]),
            claim=claim,
        )
        self._events.append(DealEnded(reason, winner, 0 if winner is None else games[winner]))
        self._result = result

    def _score_individual(
        self, reason: str, who: int | None, offender: int | None, totals: tuple[int, ...],
        last_seat: int | None, points: list[int], swing: bool,
    ) -> tuple[int | None, tuple[int, ...] | None, tuple[int, ...] | None]:
        """Arrastrado (§4.5–4.6): lost games, the deal winner, or payments."""
        opts = self.options
        n = self._n
        mode = opts.scoring_3p
        if reason == "renuncio":
            assert who is not None
            guilty = offender if offender is not None else who
            lost = 2 if swing else 1
            losses = tuple(lost if s == guilty else 0 for s in range(n))
            return None, losses, None
        tute_seat = who if reason == "tute" else None
        winner = winner_3p(totals, last_seat, opts, tute_seat=tute_seat)
        if mode == "losses":
            added = losses_3p(totals, last_seat, opts, tute_seat=tute_seat)
            return winner, tuple(added.get(s, 0) for s in range(n)), None
        if mode == "winner_per_deal":
            return winner, None, None
        cantes: list[list[int]] = [[] for _ in range(n)]
        for s, _d, p in self._cantes:
            cantes[s].append(p)
        own = points[winner] + (LAST_TRICK_BONUS if last_seat == winner else 0)
        pay = payments_3p(cantes, winner, own, tute=tute_seat is not None)
        return winner, None, tuple(pay)

    # ---------------------------------------------------------------- results, views, copies

    def result(self) -> DealResult:
        """The score of the finished deal; raises if it is not over yet."""
        if self._result is None:
            raise TuteError("the deal is not over yet: no result")
        result: DealResult = self._result
        return result

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know: its own hand and everything public; nothing else."""
        seat = self._seat_arg(seat)
        tc = self.trump_card
        with_dealer = (not self._stock_game and tc is not None
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
            cantes=self._cantes,
            card_points=self._points,
            played=CardSet(self._played),
            to_move=self.to_move,
            legal_actions=tuple(self.legal_actions()) if self.to_move == seat else (),
            result=self._result,
            upcard=self.upcard,
            stock_count=len(self._stock),
            exchanges=self.exchanges,
            known=tuple(CardSet(k) for k in self._known),
            carry=self.carry,
            table_card=None if self._table_card < 0 else ALL_CARDS[self._table_card],
            auction=None if self._auction is None else self._auction[:2],
            contract=self._contract,
            history=tuple(self.events_for(seat)),
        )

    def copy(self) -> Deal:
        """An independent copy (shares only immutable state); cheap enough for search."""
        other = object.__new__(Deal)
        for name in Deal.__slots__:
            object.__setattr__(other, name, getattr(self, name))
        other._actions = list(self._actions)
        other._events = list(self._events)
        other._undo = list(self._undo)
        return other

    def __copy__(self) -> Deal:
        return self.copy()

    def to_record(self) -> dict[str, Any]:
        from .records import deal_to_record

        return deal_to_record(self)

    @classmethod
    def from_record(cls, record: Mapping[str, Any] | str) -> Deal:
        from .records import deal_from_record

        return deal_from_record(record)

    def __repr__(self) -> str:
        state = "over" if self.is_over() else f"trick {self.trick_number}, seat {self._to_move}"
        return f"<Deal {self.variant.id} dealer={self.dealer} trump={self.trump_card} {state}>"


def _family(var: Variant, opts: Options) -> str:
    if var.stock:
        return "stock"
    return {"tute_parejas": "parejas", "tute_arrastrado_3p": "arrastrado",
            "tute_subastado": "subastado", "tute_cabron": "cabron"}[var.id]


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


def _check_pack(masks: Sequence[int], rest: Sequence[int], deck: int) -> None:
    """Hands and the other cards laid out must hold every card of the pack exactly once."""
    seen = 0
    for m in masks:
        seen |= m
    for c in rest:
        if seen >> c & 1:
            raise TuteError(f"invalid deal: card {ALL_CARDS[c]} appears twice")
        if not deck >> c & 1:
            raise TuteError(f"invalid deal: card {ALL_CARDS[c]} is not in the pack")
        seen |= 1 << c
    if seen != deck:
        missing = " ".join(str(c) for c in cards_of(deck & ~seen))
        raise TuteError(f"invalid deal: cards missing from the layout: {missing}")
