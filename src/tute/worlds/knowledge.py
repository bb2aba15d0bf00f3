"""What one seat knows about the cards it cannot see (issue "The strongest Tute AI", item 1).

:func:`knowledge_of` reads a seat's view: its own hand and the public record, that is the
view's fields and its ``history`` (the seat's event log, ``deal.events_for(seat)``: the
moments of cantes and exchanges, the seat's own draws and discard, the passes of polled
seats). It returns, for every hidden card, the *places* that may hold it -- each other seat,
the face-down stock, the subastado widow or discard -- and how many hidden cards each place
holds now. (The table card of arrastrado and the upcard are face up, so never hidden.) A view
without a log is read alone; see :func:`knowledge_of`.

**Play constraints, one mechanism.** Every duty of the family reads "if you hold a card of
class K you must play one of K" (follow suit, beat, trump, overtrump, answer a trump lead), so
whether a hand may play ``x`` is decided card by card: ``x`` is legal in a hand ``H`` iff it is
legal in ``{x, c}`` for every ``c`` of ``H`` (the tests check this on random positions). When
seat ``s`` played ``x``, every card ``c`` for which :func:`tute.rules.legal_mask` refuses ``x``
in the hand ``{x, c}`` cannot have been in ``s``'s hand then. That one test, run with the
engine's own legality function and the trick as it stood, gives the voids, the "nothing of
that suit above X", the "no trump", the "no trump above X" and the stock-phase "no trump on a
trump lead" of every game, with no rule written here.

**Time, in the stock games.** A seat's cards came in through *slots*: the deal (``hand_size``
cards, entry 0) and one draw per completed round (entry ``j`` = the draw after trick ``j``).
A card ruled out of ``s``'s hand at a play made after ``d`` rounds may still be there if it
entered later, so the constraint is an *entry interval*: ``s`` may hold it only with an entry
in ``[lo, hi]``. The cards ``s`` played, gave in an exchange or showed in a cante took slots
too, with intervals of their own (a card played at trick ``i`` entered by round ``i - 1``), so
the sampler counts, per seat, the ways to fill the slots (:mod:`tute.worlds.sampler`). In the
other games every interval is ``[0, 0]``: a card ruled out is simply not in that hand.

**Pair conditions.** Under ``forty_first=enforce`` a 20 tells the table the singer did not
hold the trump marriage then. Where the winner's partner may declare too (Guiñote), the engine
asks the partner only when it has a declaration available (or its kept exchange would give it
one: not encoded), so every window it was not asked in says it held no unsung marriage (nor a
tute) then. Those are conditions on several cards at
once (:class:`Forbid`), encoded exactly. What is not encoded -- a partner asked and passing,
the options ``cante_restriction``, ``tute_dealt_wins_immediately`` and the like, the moments a
log-less view does not show -- is left to the replay of the record, which refuses a world that
contradicts it (``Knowledge.exact`` is then False and ``notes`` says why).

**A 20 of a suit not told** (``guinote_hide_arrastre_suit``: another seat's 20 sung in the
arrastre shows the seat no cards, :data:`~tute.rules.HIDDEN_VEINTE`) says only that its singer
held then *some* marriage of a suit not sung before. Nothing is assumed of its suit: no card
is placed by it, and the condition is left to the replay, which sings, in the sampled world,
each 20 the singer may sing then till the record fits.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final

from ..cards import ALL_CARDS, RankOrder, cards_of
from ..deal import SeatView
from ..errors import TuteError
from ..events import (
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
from ..games import game_for
from ..rules import (
    HIDDEN_VEINTE,
    Declaration,
    declaration_cards,
    legal_mask,
    marriage_mask,
    trick_winner,
)
from ..variants import Options, Variant, find_variant

__all__ = [
    "DISCARD",
    "STOCK",
    "WIDOW",
    "Atom",
    "Forbid",
    "History",
    "Interval",
    "Knowledge",
    "Place",
    "Play",
    "SeatLine",
    "excluded_by_play",
    "knowledge_of",
]

STOCK: Final = "stock"  # the face-down stock (its positions are interchangeable)
WIDOW: Final = "widow"  # subastado with widow_card: the face-down 40th card, before the auction
DISCARD: Final = "discard"  # subastado: the declarer's face-down discard
Place = int | str  # a seat, or one of the three names above
Interval = tuple[int, int]  # entry rounds [lo, hi]; 0 is the deal
NOWHERE: Final = 1 << 40  # an index past any time: "never left", "not before anything"


@dataclass(frozen=True)
class Play:
    """One card played, with everything its legality depended on."""

    seat: int
    card: int
    trick: int  # 1-based
    before: tuple[int, ...]  # the cards already in the trick, in playing order
    trump: int | None
    stock_phase: bool  # played while the stock lasted
    partner_winning: bool  # the seat's partner held the trick (partnership games)
    rounds: int  # draw rounds completed when it was played
    index: int  # position in the history (event index, or a synthetic order)


@dataclass(frozen=True)
class Shown:
    """Cards shown in a cante: in ``seat``'s hand at ``index``, after ``rounds`` draws."""

    seat: int
    cards: int
    declaration: Declaration
    rounds: int
    index: int


@dataclass(frozen=True)
class Swap:
    """The 7 (or 2) of trumps ``given`` for the upcard or table card ``taken``."""

    seat: int
    given: int
    taken: int
    rounds: int
    index: int


@dataclass(frozen=True)
class History:
    """The public record as a timeline, from the event log or rebuilt from the view."""

    events: tuple[Event, ...] | None  # the seat's log, when it was given
    plays: tuple[Play, ...]
    winners: tuple[int, ...]  # winner of each completed trick (the first drawer of its round)
    rounds: int  # draw rounds completed (stock games)
    total_rounds: int  # draw rounds of a whole deal (stock games)
    initial_stock: int  # cards in the stock as dealt, the upcard included
    shows: tuple[Shown, ...]
    swaps: tuple[Swap, ...]
    public_draws: tuple[tuple[int, int, int], ...]  # (seat, round, card): the upcard drawn
    own_draws: Mapping[int, int]  # round -> card the seat drew (event log only)
    own_discard: int  # the seat's own subastado discard (event log only), else -1
    takeover: tuple[int, int] | None  # (new holder, seat that sat out) in subastado
    passes: tuple[tuple[int, int], ...]  # (seat, index) of polled seats that passed
    exactly_timed: bool  # cantes and exchanges at their true moment (event log given)


@dataclass(frozen=True)
class Atom:
    """"``card`` is in ``seat``'s hand, having come in by draw round ``by``" (any round when
    ``by`` is at least the rounds so far; in the games without a stock, just "in the hand")."""

    card: int
    seat: int
    by: int


@dataclass(frozen=True)
class Forbid:
    """A condition on several cards at once: the atoms are not all true."""

    atoms: tuple[Atom, ...]
    why: str


@dataclass(frozen=True)
class SeatLine:
    """Stock games: how one seat's cards came in.

    ``cards`` are the cards the table knows the seat held (played, given in an exchange, shown,
    seen drawn) whose slot is unknown, with their entry interval; ``pinned`` the slots whose
    card is known (the upcard drawn face up; the seat's own draws when it is the observer and
    the log was given); the seat's hidden cards add theirs (see :attr:`Knowledge.domains`).
    """

    seat: int
    hand_size: int
    rounds: int
    cards: Mapping[int, Interval]
    pinned: Mapping[int, int]  # round (0 = the deal, several cards) -> card; see pinned_initial
    pinned_initial: int  # mask of cards known to have been dealt to the seat

    @property
    def free_rounds(self) -> tuple[int, ...]:
        """Draw rounds whose card is not known, latest first."""
        return tuple(j for j in range(self.rounds, 0, -1) if j not in self.pinned)

    @property
    def initial_free(self) -> int:
        return self.hand_size - self.pinned_initial.bit_count()


@dataclass(frozen=True)
class Knowledge:
    """What ``seat`` knows: where each hidden card may be, and how many each place holds."""

    view: SeatView
    variant: Variant
    options: Options
    seat: int
    seats: int
    stock_game: bool
    order: RankOrder
    deck: int
    hidden: int  # mask of the cards this seat cannot locate
    capacity: Mapping[Place, int]  # hidden cards each place holds now
    domains: Mapping[int, Mapping[Place, Interval]]  # hidden card -> place -> entry interval
    lines: Mapping[int, SeatLine]  # stock games: every seat (the observer's too)
    forbids: tuple[Forbid, ...]
    history: History
    played_by: tuple[int, ...]  # masks of the cards each seat played
    given_by: tuple[int, ...]  # the 7s and 2s each seat gave in exchanges
    taken_by: tuple[int, ...]  # the upcards / table cards each seat took
    known_in: tuple[int, ...]  # cards publicly known in each hand now
    exact: bool  # every condition the record implies is encoded (no replay check needed)
    notes: tuple[str, ...] = field(default=())

    def places(self, card: int | str) -> tuple[Place, ...]:
        """The places that may hold ``card`` (an index or notation); ``()`` if it is known."""
        idx = card if isinstance(card, int) else _index(card)
        return tuple(self.domains.get(idx, {}))

    @property
    def hidden_cards(self) -> tuple[int, ...]:
        return tuple(c.index for c in cards_of(self.hidden))

    def describe(self) -> str:
        """A readable summary: per place, its capacity and the hidden cards it may hold."""
        lines = [f"seat {self.seat} of {self.view.variant}: {self.hidden.bit_count()} hidden "
                 "cards" + ("" if self.exact else " (replay-checked: " + "; ".join(self.notes)
                            + ")")]
        for place, cap in self.capacity.items():
            may = [ALL_CARDS[c] for c, d in self.domains.items() if place in d]
            name = f"seat {place}" if isinstance(place, int) else place
            lines.append(f"  {name}: holds {cap}; may hold {' '.join(map(str, sorted(may)))}")
        return "\n".join(lines)


def _index(text: str) -> int:
    from ..cards import parse_card

    return parse_card(text).index


# ---------------------------------------------------------------------------------------------
# The play constraint


@lru_cache(maxsize=1 << 15)
def excluded_by_play(
    card: int, before: tuple[int, ...], trump: int | None, order: RankOrder, stock_phase: bool,
    stock_phase_rule: str, partner_winning: bool, partner_exemption: bool,
    must_undertrump: bool, must_head_after_ruff: bool,
) -> int:
    """Mask of the cards ``c`` whose presence in the hand would have made ``card`` illegal on
    ``before``: the engine's :func:`~tute.rules.legal_mask` refuses ``card`` in ``{card, c}``."""
    if not before:
        return 0
    phase = "stock" if stock_phase and stock_phase_rule != "full" else "obligated"
    bit = 1 << card
    out = 0
    for c in range(40):
        if c == card:
            continue
        legal = legal_mask(
            bit | 1 << c, before, trump, order, phase=phase, stock_phase_rule=stock_phase_rule,
            partner_winning=partner_winning, partner_exemption=partner_exemption,
            must_undertrump=must_undertrump, must_head_after_ruff=must_head_after_ruff,
        )
        if not legal & bit:
            out |= 1 << c
    return out


def _exclusions(play: Play, opts: Options, var: Variant) -> int:
    if opts.renuncio_mode == "claim":  # any card in hand may be played (and claimed later)
        return 0
    return excluded_by_play(
        play.card, play.before, play.trump, var.order, play.stock_phase, opts.stock_phase_rule,
        play.partner_winning, opts.partner_exemption and var.partnerships,
        opts.must_undertrump, opts.must_head_after_ruff,
    )


# ---------------------------------------------------------------------------------------------
# The timeline


def _trick_cantes(var: Variant) -> bool:
    """Cantes fall in tricks by themselves and name trumps (cabrón): none is shown from a
    hand. The game says so (``Game.cantes_in_tricks``); no variant id is read here."""
    return game_for(var).cantes_in_tricks


def _trump_from_deal(var: Variant) -> bool:
    """The trump suit is known from the deal on (not named by an auction or a trick)."""
    return game_for(var).trump_fixed


def _kept_rights(var: Variant, opts: Options) -> bool:
    """Whether every stock exchange after a draw is made by a right kept from before it (the
    rule book's timing; not own_turn_any, nor Guiñote's any_trick_won, which also let a card
    just drawn be given on one's turn)."""
    return (var.stock and opts.exchange_timing != "own_turn_any"
            and game_for(var).turn_exchange(opts) == 0)


def _stock_sizes(var: Variant, opts: Options, n: int) -> tuple[int, int]:
    if not var.stock:
        return 0, 0
    deck, size = var.layout(opts)
    initial = deck.bit_count() - n * size
    return initial, initial // n


def _history_from_events(view: SeatView, events: Sequence[Event], var: Variant,
                         opts: Options) -> History:
    n = view.seats
    cabron = _trick_cantes(var)
    initial, total_rounds = _stock_sizes(var, opts, n)
    trump: int | None = None
    if _trump_from_deal(var) and view.trump is not None:
        trump = int(view.trump)
    trick: list[tuple[int, int]] = []
    plays: list[Play] = []
    winners: list[int] = []
    shows: list[Shown] = []
    swaps: list[Swap] = []
    public: list[tuple[int, int, int]] = []
    own: dict[int, int] = {}
    kept = _kept_rights(var, opts)
    drawn_since_trick = False
    passes: list[tuple[int, int]] = []
    drew = 0
    own_discard = -1
    takeover: tuple[int, int] | None = None
    for idx, e in enumerate(events):
        if isinstance(e, CardPlayed):
            before = tuple(c for _, c in trick)
            pw = False
            if var.partnerships and trick:
                lead_seat = trick[trick_winner(before, trump, var.order)][0]
                pw = (lead_seat - e.seat) % 2 == 0
            plays.append(Play(e.seat, e.card.index, len(winners) + 1, before, trump,
                              var.stock and initial - drew > 0, pw, drew // n, idx))
            trick.append((e.seat, e.card.index))
        elif isinstance(e, TrickTaken):
            winners.append(e.winner)
            trick = []
            drawn_since_trick = False
        elif isinstance(e, Drew):
            drew += 1
            drawn_since_trick = True
            rnd = (drew - 1) // n + 1
            if e.card is not None and e.public:
                public.append((e.seat, rnd, e.card.index))
            elif e.card is not None and e.seat == view.seat:
                own[rnd] = e.card.index
        elif isinstance(e, Declared):
            if cabron:  # the pair fell in the trick: nothing is shown from a hand
                if trump is None:
                    trump = int(e.cards[0].suit)
                continue
            mask = 0
            for c in e.cards:
                mask |= c.mask
            shows.append(Shown(e.seat, mask, e.declaration, drew // n, idx))
        elif isinstance(e, Exchanged):
            # a right kept over a draw gives only a card held before it (see _kept_rights)
            held_by = drew // n - (kept and drawn_since_trick)
            swaps.append(Swap(e.seat, e.given.index, e.taken.index, held_by, idx))
        elif isinstance(e, Passed):
            passes.append((e.seat, idx))
        elif isinstance(e, TookOver):
            takeover = (e.seat, e.from_seat)
        elif isinstance(e, Discarded):
            if e.card is not None and e.seat == view.seat:
                own_discard = e.card.index
        elif isinstance(e, TrumpNamed):
            trump = int(e.suit)
    return History(tuple(events), tuple(plays), tuple(winners), drew // n, total_rounds,
                   initial, tuple(shows), tuple(swaps), tuple(public), own, own_discard,
                   takeover, tuple(passes), True)


def _active_next(view: SeatView) -> tuple[int, ...]:
    """The next active seat after each seat, in playing order.

    Worked out here from the view: ``TrickRecord.plays`` assumes every seat plays, which is
    wrong for subastado with an idle dealer (a known engine bug, fixed elsewhere)."""
    n = view.seats
    idle = -1
    dealer_out = game_for(find_variant(view.variant)).idle_seat(view.dealer, view.options)
    if dealer_out is not None:
        idle = dealer_out
        if view.contract is not None and view.contract[2] and view.auction is not None:
            idle = view.auction[1]  # the top bidder sits out after the dealer's takeover
    nxt = []
    for s in range(n):
        t = (s + 1) % n
        if t == idle:
            t = (t + 1) % n
        nxt.append(t)
    return tuple(nxt)


def _history_from_view(view: SeatView, var: Variant, opts: Options) -> History:
    """Rebuild the timeline from the view alone: plays and draws are exact; the moment of each
    cante and exchange is not shown, so their bounds are the loosest the view allows (the
    replay then searches for a moment that works)."""
    n = view.seats
    cabron = _trick_cantes(var)
    order = var.order
    initial, total_rounds = _stock_sizes(var, opts, n)
    rounds = (initial - view.stock_count) // n if var.stock else 0
    nxt = _active_next(view)
    tricks: list[tuple[int, tuple[int, ...], int | None]] = [
        (t.leader, tuple(c.index for c in t.cards), t.winner) for t in view.tricks]
    if view.trick:
        tricks.append((view.trick[0][0], tuple(c.index for _, c in view.trick), None))
    first_pair = len(tricks) + 1  # cabrón: trumps start after the first trick with a marriage
    if cabron and view.trump is not None:
        for k, (_, cards, w) in enumerate(tricks):
            mask = sum(1 << c for c in cards)
            if w is not None and any(mask & marriage_mask(s, order) == marriage_mask(s, order)
                                     for s in range(4)):
                first_pair = k + 1
                break
    plays: list[Play] = []
    winners: list[int] = []
    idx = 0
    play_trick: dict[int, int] = {}
    for k, (leader, cards, w) in enumerate(tricks):
        number = k + 1
        if cabron:
            trump = int(view.trump) if view.trump is not None and number > first_pair else None
        else:
            trump = None if view.trump is None else int(view.trump)
        seat = leader
        seats: list[int] = []
        for pos, c in enumerate(cards):
            before = cards[:pos]
            pw = False
            if var.partnerships and before:
                pw = (seats[trick_winner(before, trump, order)] - seat) % 2 == 0
            plays.append(Play(seat, c, number, before, trump,
                              var.stock and number <= total_rounds, pw,
                              min(number - 1, total_rounds), idx))
            play_trick[c] = number
            seats.append(seat)
            seat = nxt[seat]
            idx += 1
        if w is not None:
            winners.append(w)
    shows: list[Shown] = []
    if not cabron:
        for s, decl, _pts in view.cantes:
            trump_now = None if view.trump is None else int(view.trump)
            mask = declaration_cards(decl, trump_now, order)
            first = min((play_trick[c.index] for c in cards_of(mask) if c.index in play_trick),
                        default=None)
            bound = rounds if first is None else min(first - 1, total_rounds, rounds)
            shows.append(Shown(s, mask, decl, bound, -1))
    swaps: list[Swap] = []
    # a right kept over a draw gives only a card held before it (not so sure of the last
    # round's question with exchange_last_round_allowed: the loose bound then)
    early = int(_kept_rights(var, opts) and not opts.exchange_last_round_allowed)
    for s, given, taken in view.exchanges:
        first = play_trick.get(taken.index)
        bound = rounds if first is None else min(first - 1, total_rounds, rounds)
        swaps.append(Swap(s, given.index, taken.index, max(0, bound - early), -1))
    public: list[tuple[int, int, int]] = []
    if var.stock and rounds == total_rounds and winners:
        # the last drawer of the last round takes the upcard face up: the last 7/2 given,
        # else the card turned at the deal
        last = view.exchanges[-1][1] if view.exchanges else view.trump_card
        assert last is not None
        w = winners[total_rounds - 1]
        public.append(((w + n - 1) % n, total_rounds, last.index))
    takeover = None
    if view.contract is not None and view.contract[2] and view.auction is not None:
        takeover = (view.contract[0], view.auction[1])
    return History(None, tuple(plays), tuple(winners), rounds, total_rounds, initial,
                   tuple(shows), tuple(swaps), tuple(public), {}, -1, takeover, (), False)


# ---------------------------------------------------------------------------------------------
# Knowledge


def knowledge_of(view: SeatView, events: Sequence[Event] | None = None) -> Knowledge:
    """What ``view.seat`` knows of the hidden cards.

    The record is the seat's event log: ``events`` when given, else the view's own
    ``history``. A view without a log (built by hand, or with its history stripped) is read
    alone: plays and draws are rebuilt exactly, but the moments of cantes and exchanges, the
    passes and the seat's own draws are not known, so the stock games' bounds are the
    loosest the view allows and the replay searches for moments that fit (exactly uniform,
    through the replay check)."""
    if events is None and view.history:
        events = view.history  # (an empty log reads the same either way)
    var = find_variant(view.variant)
    opts = view.options
    n = view.seats
    deck, size = var.layout(opts)
    hist = (_history_from_events(view, events, var, opts) if events is not None
            else _history_from_view(view, var, opts))
    notes: list[str] = []
    stock = var.stock
    rounds = hist.rounds if stock else 0
    moves = _Moves.of(view, hist)
    hidden = _hidden(view, hist, deck, moves.known_in)
    capacity = _capacity(view, hist, deck, stock, moves.known_in, hidden)
    # exclusions: per seat, (history index, rounds, mask) of each constraining play
    excl: list[list[tuple[int, int, int]]] = [[] for _ in range(n)]
    for p in hist.plays:
        m = _exclusions(p, opts, var)
        if m:
            excl[p.seat].append((p.index, p.rounds, m))
    domains = _domains(view, hidden, capacity, excl, rounds)
    lines: dict[int, SeatLine] = {}
    if stock:
        lines = _seat_lines(view, hist, moves, excl, size, rounds)
        _stock_notes(view, var, opts, hist, notes)

    held_by = [moves.played_by[s] | moves.given_by[s] | moves.known_in[s] for s in range(n)]
    forbids = _forbids(view, var, opts, hist, hidden, domains, lines, held_by, moves.taken_by,
                       moves.taken_at, moves.leave, notes)

    def held(c: int, s: int, at: int, by: int) -> Atom | bool:
        return _held(c, s, at, by, hidden, domains, lines, held_by, moves.taken_by,
                     moves.taken_at, moves.leave)

    forbids += _poll_forbids(view, var, opts, hist, held, notes)
    _other_notes(view, var, opts, hist, notes)
    return Knowledge(
        view=view, variant=var, options=opts, seat=view.seat, seats=n, stock_game=stock,
        order=var.order, deck=deck, hidden=hidden, capacity=capacity, domains=domains,
        lines=lines, forbids=tuple(forbids), history=hist, played_by=tuple(moves.played_by),
        given_by=tuple(moves.given_by), taken_by=tuple(moves.taken_by),
        known_in=tuple(moves.known_in), exact=not notes, notes=tuple(notes),
    )


@dataclass(frozen=True)
class _Moves:
    """Where the record puts cards: per seat the cards played, given and taken in exchanges
    and known in its hand now; when each exchanged card moved, and when each card left the
    hand that held it (played, or given)."""

    played_by: list[int]
    given_by: list[int]
    taken_by: list[int]
    known_in: list[int]
    taken_at: dict[int, int]
    given_at: dict[int, int]
    leave: dict[int, int]

    @staticmethod
    def of(view: SeatView, hist: History) -> _Moves:
        n = view.seats
        played_by = [0] * n
        for p in hist.plays:
            played_by[p.seat] |= 1 << p.card
        given_by = [0] * n
        taken_by = [0] * n
        taken_at: dict[int, int] = {}
        given_at: dict[int, int] = {}
        for sw in hist.swaps:
            given_by[sw.seat] |= 1 << sw.given
            taken_by[sw.seat] |= 1 << sw.taken
            taken_at[sw.taken] = sw.index
            given_at[sw.given] = sw.index
        # the 7 given for the upcard may come back to the same seat (its 2 takes it): a card
        # can be both given and taken, so hands are worked out as "given | (held & ~taken)"
        known_in = [k.mask for k in view.known] if view.known else [0] * n
        known_in[view.seat] = view.hand.mask
        leave: dict[int, int] = {}
        for p in hist.plays:
            leave[p.card] = p.index
        for c, i in given_at.items():
            leave.setdefault(c, i)
        return _Moves(played_by, given_by, taken_by, known_in, taken_at, given_at, leave)


def _hidden(view: SeatView, hist: History, deck: int, known_in: list[int]) -> int:
    """The mask of the cards the seat cannot locate."""
    located = view.played.mask | view.hand.mask
    for k in known_in:
        located |= k
    if view.upcard is not None:
        located |= view.upcard.mask
    if view.table_card is not None:
        located |= view.table_card.mask
    if hist.own_discard >= 0:
        located |= 1 << hist.own_discard
    return deck & ~located


def _capacity(view: SeatView, hist: History, deck: int, stock: bool, known_in: list[int],
              hidden: int) -> dict[Place, int]:
    """The hidden cards each place holds now; a view whose counts do not add up is refused."""
    capacity: dict[Place, int] = {}
    for s in range(view.seats):
        if s != view.seat:
            capacity[s] = view.hand_sizes[s] - known_in[s].bit_count()
    if stock:
        capacity[STOCK] = max(view.stock_count - 1, 0)
    rest = (deck.bit_count() - sum(view.hand_sizes) - view.played.mask.bit_count()
            - view.stock_count - (1 if view.table_card is not None else 0))
    if rest:
        aside = rest - (1 if hist.own_discard >= 0 else 0)
        if aside:
            capacity[WIDOW if view.contract is None else DISCARD] = aside
    if sum(capacity.values()) != hidden.bit_count():
        raise TuteError(f"inconsistent view: {hidden.bit_count()} hidden cards for "
                        f"{sum(capacity.values())} places")
    return capacity


def _lo_for(excl: list[tuple[int, int, int]], card: int, until: int) -> int:
    """Lowest entry round of ``card`` in a seat's hand given its plays (``excl``, the seat's
    exclusions) before ``until``."""
    lo = 0
    bit = 1 << card
    for index, rnds, m in excl:
        if index < until and m & bit:
            lo = max(lo, rnds + 1)
    return lo


def _domains(view: SeatView, hidden: int, capacity: dict[Place, int],
             excl: list[list[tuple[int, int, int]]],
             rounds: int) -> dict[int, dict[Place, Interval]]:
    """Hidden cards: the places each may be in, with its entry interval there."""
    domains: dict[int, dict[Place, Interval]] = {}
    for c in (c.index for c in cards_of(hidden)):
        dom: dict[Place, Interval] = {}
        for s in range(view.seats):
            if s == view.seat or not capacity.get(s):
                continue
            lo = _lo_for(excl[s], c, NOWHERE)
            if lo <= rounds:
                dom[s] = (lo, rounds)
        for place in (STOCK, WIDOW, DISCARD):
            if capacity.get(place):
                dom[place] = (0, 0)
        domains[c] = dom
    return domains


def _seat_lines(view: SeatView, hist: History, moves: _Moves,
                excl: list[list[tuple[int, int, int]]], size: int,
                rounds: int) -> dict[int, SeatLine]:
    """Stock games: every seat's slot cards with unknown entry."""
    lines: dict[int, SeatLine] = {}
    pub = {(s, j): c for s, j, c in hist.public_draws}
    for s in range(view.seats):
        pinned: dict[int, int] = {j: c for (t, j), c in pub.items() if t == s}
        pinned_initial = 0
        given = moves.given_by[s]
        slot = given | ((moves.played_by[s] | moves.known_in[s]) & ~moves.taken_by[s])
        # a 7 given to the upcard may come back drawn face up: two stays in one hand
        for c in pinned.values():
            if not given >> c & 1:
                slot &= ~(1 << c)
        cards: dict[int, Interval] = {}
        if s == view.seat and hist.exactly_timed:
            own = 0
            for c in hist.own_draws.values():
                own |= 1 << c
            pinned.update(hist.own_draws)
            pinned_initial = slot & ~own
            slot = 0
        for c in (c.index for c in cards_of(slot)):
            if given >> c & 1:
                hi = next(sw.rounds for sw in hist.swaps if sw.given == c)
                # the moment it left is unknown in the view: no play may rule it out
                until = moves.given_at[c] if hist.exactly_timed else -1
            else:
                until = moves.leave.get(c, NOWHERE)
                hi = next((p.rounds for p in hist.plays if p.card == c), rounds)
            cards[c] = (_lo_for(excl[s], c, until), hi)
        for sh in hist.shows:
            if sh.seat != s:
                continue
            for c in (c.index for c in cards_of(sh.cards)):
                if c in cards:
                    lo, hi = cards[c]
                    cards[c] = (lo, min(hi, sh.rounds))
        lines[s] = SeatLine(s, size, rounds, cards, pinned, pinned_initial)
    return lines


def _stock_notes(view: SeatView, var: Variant, opts: Options, hist: History,
                 notes: list[str]) -> None:
    """Stock games: the moments a view without its log cannot tell (the replay checks them)."""
    if not hist.exactly_timed and (hist.shows or hist.swaps):
        notes.append("the moment of a cante or an exchange is not in the view")
    if (not hist.exactly_timed and view.to_move == view.seat and view.trump is not None
            and _kept_rights(var, opts)
            and view.hand.mask & (0b10001 << 10 * int(view.trump))):
        # a kept right gives a card held before the last draw: the offer of the
        # exchange (or its absence) says when the seat's own 7 or 2 came
        notes.append("whether the seat's 7 or 2 was held before the last draw")


def _forbids(view: SeatView, var: Variant, opts: Options, hist: History, hidden: int,
             domains: dict[int, dict[Place, Interval]], lines: dict[int, SeatLine],
             held_by: list[int], taken_by: list[int], taken_at: dict[int, int],
             leave: dict[int, int], notes: list[str]) -> list[Forbid]:
    """Forty before twenty: a 20 sung while the trump marriage was still unsung says the singer
    did not hold both its cards (``enforce``); under ``forfeit`` a later 40 says the same."""
    if opts.forty_first == "off" or _trick_cantes(var) or not hist.shows:
        return []
    obs = view.seat
    order = var.order
    trump = None if view.trump is None else int(view.trump)
    if trump is None:
        return []
    pair = marriage_mask(trump, order)
    sung_at = next((sh.index for sh in hist.shows if sh.declaration.kind == "cuarenta"),
                   NOWHERE)
    out: list[Forbid] = []
    for sh in hist.shows:
        if sh.declaration.kind != "veinte":
            continue
        if opts.forty_first == "forfeit" and not any(
                o.seat == sh.seat and o.declaration.kind == "cuarenta" for o in hist.shows):
            continue
        if not hist.exactly_timed:
            if any(_may_hold(c, sh.seat, obs, hidden, domains, held_by)
                   for c in (c.index for c in cards_of(pair))):
                notes.append("a 20 sung when the 40 might have been held (moment not in the "
                             "view)")
            continue
        if sung_at < sh.index:
            continue
        atoms: list[Atom] = []
        possible = True
        for c in (c.index for c in cards_of(pair)):
            held = _held(c, sh.seat, sh.index, sh.rounds, hidden, domains, lines,
                         held_by, taken_by, taken_at, leave)
            if held is False:
                possible = False
                break
            if held is not True:
                atoms.append(held)
        if not possible:
            continue
        if not atoms:
            raise TuteError("inconsistent record: a 20 was sung while holding the 40")
        out.append(Forbid(tuple(atoms), f"seat {sh.seat} sang a 20 without the 40"))
    return out


def _poll_forbids(view: SeatView, var: Variant, opts: Options, hist: History,
                  held: Callable[[int, int, int, int], Atom | bool],
                  notes: list[str]) -> list[Forbid]:
    """Partnership games where the winner's partner may declare too: the engine asks the
    partner only when it has a declaration available, so every window the partner was not
    asked in says it held no unsung marriage (and no tute) then."""
    if hist.events is None or not var.partnerships or opts.cante_by == "trick_winner":
        return []
    if opts.cante_restriction != "none" or opts.forty_first == "forfeit":
        notes.append("what cante polls told, under cante_restriction or forty_first=forfeit")
        return []
    events = hist.events
    n = view.seats
    order = var.order
    deck, size = var.layout(opts)
    total = deck.bit_count() // n if var.stock else size
    initial, _rounds = _stock_sizes(var, opts, n)
    second = order.marriage  # the sota (Guiñote) or the caballo
    trump = None if view.trump is None else int(view.trump)
    up = view.trump_card
    if (var.stock and up is not None and trump is not None and _kept_rights(var, opts)
            and marriage_mask(trump, order) >> up.index & 1):
        # a partner is also asked when its kept 7 would take the upcard into its 40
        notes.append("a partner not asked to sing held no kept 7 for the 40 either")
    out: list[Forbid] = []
    drew = 0
    for ti, e in enumerate(events):
        if isinstance(e, Drew):
            drew += 1
        if not isinstance(e, TrickTaken) or e.number >= total:
            continue
        partner = (e.winner + 2) % n
        # the window opens after the trick, or after its draw while the stock lasts
        start = ti
        if var.stock and initial - drew > 0:
            left = n
            start = -1
            for x in range(ti + 1, len(events)):
                if isinstance(events[x], Drew):
                    left -= 1
                    if not left:
                        start = x
                        break
            if start < 0:
                continue  # the record stops before the draw: no window yet
        acted = passed = ended = False
        x = start + 1
        while x < len(events) and not isinstance(events[x], CardPlayed):
            ex = events[x]
            if isinstance(ex, DealEnded):
                ended = True
            if isinstance(ex, (Declared, Passed)) and ex.seat == partner:
                acted = True
                passed = passed or isinstance(ex, Passed)
            x += 1
        asked_now = x == len(events) and view.to_move == partner and not ended
        if ended or partner == view.seat:
            continue
        if passed or asked_now:
            notes.append("a partner was asked in a cante window (so it could declare)")
            continue
        if acted:
            continue
        sung = 0
        untold = False  # the partner sang a 20 whose suit this seat was not told
        for y in range(start + 1):
            ey = events[y]
            if isinstance(ey, Declared):
                suit = ey.declaration.marriage_suit(trump)
                if suit is not None:
                    sung |= 1 << suit
                untold = untold or (ey.declaration is HIDDEN_VEINTE and ey.seat == partner)
        if untold:  # it may still hold that marriage (sung): which one is not known
            notes.append("a partner not asked to sing after singing a 20 of a suit not told")
            continue
        out += _nothing_to_declare(partner, start + 1, drew // n if not var.stock else
                                   _rounds_by(events, start, n), sung, order, second,
                                   opts.tute_enabled, held, e.number)
    return out


def _rounds_by(events: Sequence[Event], upto: int, n: int) -> int:
    """Draw rounds completed by event index ``upto`` (included)."""
    return sum(1 for e in events[:upto + 1] if isinstance(e, Drew)) // n


def _nothing_to_declare(seat: int, at: int, by: int, sung: int, order: RankOrder,
                        second: int, tute: bool,
                        held: Callable[[int, int, int, int], Atom | bool],
                        number: int) -> list[Forbid]:
    groups = [marriage_mask(s, order) for s in range(4) if not sung >> s & 1]
    if tute:
        groups.append(sum(1 << (10 * s + 7) for s in range(4)))
        groups.append(sum(1 << (10 * s + second) for s in range(4)))
    out = []
    for mask in groups:
        atoms: list[Atom] = []
        for c in (c.index for c in cards_of(mask)):
            h = held(c, seat, at, by)
            if h is False:
                break
            if h is not True:
                atoms.append(h)
        else:
            if not atoms:
                raise TuteError(f"inconsistent record: seat {seat} was not asked to declare")
            out.append(Forbid(tuple(atoms), f"seat {seat} had nothing to declare after trick "
                              f"{number}"))
    return out


def _may_hold(c: int, s: int, obs: int, hidden: int, domains: dict[int, dict[Place, Interval]],
              held_by: list[int]) -> bool:
    if hidden >> c & 1:
        return s in domains.get(c, {})
    return s != obs and bool(held_by[s] >> c & 1)  # the observer knows what it held


def _held(c: int, s: int, at: int, by: int, hidden: int,
          domains: dict[int, dict[Place, Interval]], lines: dict[int, SeatLine],
          held_by: list[int], taken_by: list[int], taken_at: dict[int, int],
          leave: dict[int, int]) -> Atom | bool:
    """Was ``c`` in ``s``'s hand at history index ``at`` (after ``by`` draw rounds)? True,
    False, or the atom that decides it."""
    if hidden >> c & 1:
        dom = domains.get(c, {})
        if s not in dom or dom[s][0] > by:
            return False
        return Atom(c, s, by)
    if leave.get(c, NOWHERE) < at:
        return False
    if taken_by[s] >> c & 1:
        return taken_at[c] < at
    line = lines.get(s)
    if line is None:  # no stock: a card s played or gave later, or still holds, was dealt to it
        return bool(held_by[s] >> c & 1)
    if c in line.cards:
        lo, hi = line.cards[c]
        if hi <= by:
            return True
        if lo > by:
            return False
        return Atom(c, s, by)
    for j, card in line.pinned.items():
        if card == c:
            return j <= by
    return bool(line.pinned_initial >> c & 1)


def _other_notes(view: SeatView, var: Variant, opts: Options, hist: History,
                 notes: list[str]) -> None:
    """Conditions the sampler does not encode; the replay of the record checks them."""
    if hist.events is not None:
        if any(isinstance(e, ThrownIn) for e in hist.events):
            notes.append("a weak hand thrown in")
        if any(isinstance(e, RenuncioClaimed) for e in hist.events):
            notes.append("a renuncio claim")
    elif view.result is not None and (view.result.void or view.result.claim):
        notes.append("a deal thrown in or claimed")
    if hist.events is not None and opts.tute_dealt_wins_immediately:
        notes.append("what the poll for a tute held from the deal told")
    if opts.cante_restriction != "none":
        notes.append(f"cante_restriction={opts.cante_restriction}")
    if any(sh.declaration is HIDDEN_VEINTE for sh in hist.shows):
        notes.append("a 20 of a suit not told: its singer held some unsung marriage then")
    if hist.events is None and var.stock and opts.stock_phase_rule == "full" and (
            hist.swaps):
        notes.append("an exchange's moment under full stock-phase duties")
