"""The fixed action catalogue of a game and the observation encoding of a seat (docs/rl.md).

An observation is a function of one seat's :class:`~tute.SeatView` alone: :func:`encode_view`
computes it from scratch. :class:`SeatEncoder` keeps the same vector up to date cheaply, one
event at a time, from that seat's own copy of the event log (other seats' face-down draws and
discards carry no card there), and falls back to a full :meth:`SeatEncoder.sync` from the view
on the rare events it does not follow (auction, contract, exchanges, the deal's end). A test
checks that both paths agree at every step of random games of every variant.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..actions import (
    CLAIM,
    PASS,
    STOP,
    TAKEOVER,
    THROW,
    Action,
    Bid,
    ChooseTrump,
    Discard,
    Exchange,
)
from ..cards import ALL_CARDS, Card, Rank, Suit
from ..deal import SeatView
from ..events import (
    CardPlayed,
    DealEnded,
    Declared,
    Discarded,
    Drew,
    Event,
    Exchanged,
    Passed,
    TookOver,
    TrickTaken,
    TrumpNamed,
)
from ..games import game_for
from ..match import MatchView
from ..rules import CUARENTA, TUTE_CABALLOS, TUTE_REYES, TUTE_SOTAS, veinte
from ..variants import Options, Variant, find_variant

__all__ = ["ActionCatalogue", "ActionMask", "Layout", "Observation", "SeatEncoder",
           "TableEncoder", "encode_view", "seen_by"]

Observation = NDArray[np.float32]  # a seat's observation vector (or a block of it)
ActionMask = NDArray[np.int8]  # 1 for the legal action ids

_MAX_BID = 230  # the most points one deal can give: no bid above it exists
_SEVEN, _TWO = 4, 0  # rank positions of the cards that take the upcard / table card


# --------------------------------------------------------------------------- actions


class ActionCatalogue:
    """Every action a game (variant + options) can ever offer, with a fixed index.

    Indices 0..39 are the cards (``Card.index``), so a card's action id is its index in every
    game; then the declarations, the exchanges, ``pass`` and the game's own actions (bids,
    takeover, trump choice, widow discards, throw-in, renuncio claims, stop).
    """

    def __init__(self, variant: Variant, options: Options):
        acts: list[Action] = list(ALL_CARDS)
        game = game_for(variant)
        if not game.cantes_in_tricks:  # cabrón's cantes come from the tricks, not from a choice
            acts += [CUARENTA, *(veinte(s) for s in Suit)]
            if options.tute_enabled:
                # the second tute is of the marriage rank: sotas in Guiñote, caballos in Tute
                acts += [TUTE_REYES, TUTE_SOTAS if variant.order.marriage == Rank.SOTA
                         else TUTE_CABALLOS]
        if game.exchanges:
            acts += [Exchange(ALL_CARDS[10 * s + r]) for s in Suit for r in (_SEVEN, _TWO)]
        acts.append(PASS)
        if game.auction:  # min_bid is a multiple of bid_step (options check it)
            acts += [Bid(b) for b in range(options.min_bid, _MAX_BID + 1, options.bid_step)]
            if options.seats == 4 and options.dealer_takeover:
                acts.append(TAKEOVER)
            acts += [ChooseTrump(s) for s in Suit]
            if options.widow_card:
                acts += [Discard(c) for c in ALL_CARDS]
        if options.weak_hand_max_points is not None:
            acts.append(THROW)
        if options.renuncio_mode == "claim":
            acts.append(CLAIM)
        if variant.stock and options.vueltas_claim == "manual":
            acts.append(STOP)
        self.actions: tuple[Action, ...] = tuple(acts)
        self.index: dict[Action, int] = {a: i for i, a in enumerate(acts)}
        self.names: tuple[str, ...] = tuple(str(a) for a in acts)

    def __len__(self) -> int:
        return len(self.actions)

    def ids(self, legal: Iterable[Action]) -> list[int]:
        """Action ids of ``legal`` (every legal action of the game has one: a test checks)."""
        index = self.index
        return [a.index if a.__class__ is Card else index[a] for a in legal]

    def mask(self, legal: Iterable[Action], out: ActionMask | None = None) -> ActionMask:
        m = np.zeros(len(self.actions), np.int8) if out is None else out
        if out is not None:
            m[:] = 0
        m[self.ids(legal)] = 1
        return m


# --------------------------------------------------------------------------- layout


@dataclass(frozen=True)
class Layout:
    """Offsets of the observation's blocks for one game; ``n`` seats, ``sides`` sides.

    Seats and sides are relative to the observing seat (0 = itself, 1 = the next seat in
    seat order...), so one policy can play any seat.
    """

    variant: str
    n: int
    sides: int
    partners: bool
    blocks: tuple[tuple[str, int, int], ...]  # name, offset, size

    @classmethod
    def of(cls, variant: Variant, options: Options) -> Layout:
        n = variant.seat_count(options)
        s = variant.sides(options)
        sizes = [
            ("hand", 40), ("trick", n * 40), ("leader", n), ("played", n * 40),
            ("known", n * 40), ("void", n * 4), ("trump", 4), ("trump_card", 40),
            ("upcard", 40), ("table_card", 40), ("cantes", n * 5), ("points", s),
            ("cante_points", s), ("carry", s), ("stock", 1), ("hand_sizes", n), ("tricks", 1),
            ("phase", 4), ("to_move", 1), ("bid", 2), ("bidder", n), ("declarer", n),
            ("takeover", 1), ("match", 4 * s),
        ]
        blocks, off = [], 0
        for name, size in sizes:
            blocks.append((name, off, size))
            off += size
        return cls(variant.id, n, s, variant.partnerships, tuple(blocks))

    @property
    def size(self) -> int:
        _name, off, size = self.blocks[-1]
        return off + size

    def offset(self, name: str) -> int:
        for b, off, _size in self.blocks:
            if b == name:
                return off
        raise KeyError(name)

    def split(self, obs: Observation) -> dict[str, Observation]:
        """The observation's blocks by name (views into ``obs``), for reading it."""
        return {name: obs[off:off + size] for name, off, size in self.blocks}


_PHASES = ("auction", "contract", "play", "over")


def _phase(view: SeatView) -> int:
    if view.result is not None:
        return 3
    if view.auction is not None and view.contract is None:
        return 0
    if view.contract is not None and view.trump is None:
        return 1
    return 2


def seen_by(event: Event, seat: int) -> Event:
    """``event`` as ``seat`` sees it (what ``Deal.events_for(seat)`` shows): another seat's
    face-down draw or discard without its card. Not the suit of a 20 sung hidden
    (``guinote_hide_arrastre_suit``): that takes the deal, so a deal that ``hides_cantes`` is
    never fed event by event (``rl.table.Table.observe`` encodes each seat's own view)."""
    if event.__class__ is Drew:
        if event.seat != seat and not event.public:
            return event._replace(card=None)
    elif event.__class__ is Discarded and event.seat != seat:
        return event._replace(card=None)
    return event


# --------------------------------------------------------------------------- encoder


class SeatEncoder:
    """One seat's observation vector, kept current from that seat's view and events."""

    # events followed one by one; any other event (bids, the contract, exchanges, throw-ins,
    # claims, a tute) re-syncs from the view: they are rare, and the view is the reference
    _FOLLOWED = (CardPlayed, TrickTaken, Declared, Drew, Passed, DealEnded)

    def __init__(self, variant: Variant, options: Options, seat: int, layout: Layout):
        self.variant = variant
        self.options = options
        self.seat = seat
        self.layout = layout
        # written through the array (a Python write is ~3x cheaper than numpy's item
        # assignment), read as the numpy vector ``buf`` sharing its memory
        self._a = array("f", bytes(4 * layout.size))
        self.buf = np.frombuffer(self._a, dtype=np.float32)
        self._zeros = array("f", bytes(4 * 40 * layout.n))
        self.seen = -1  # events of the current deal taken in; -1: sync from the view first
        self.in_match = False  # the match score is encoded too (set by the match's driver)
        n, s = layout.n, layout.sides
        self._n = n
        self._rel = tuple((x - seat) % n for x in range(n))
        my_side = seat % 2 if layout.partners else seat
        self._side_of = tuple((x % 2 if layout.partners else x) for x in range(n))
        self._rel_side = tuple((x - my_side) % s for x in range(s))
        o = {name: off for name, off, _size in layout.blocks}
        self._o = o
        self._hand, self._trick, self._leader = o["hand"], o["trick"], o["leader"]
        self._played, self._known, self._void = o["played"], o["known"], o["void"]
        self._trump_o, self._cantes, self._points = o["trump"], o["cantes"], o["points"]
        self._cpoints, self._stock, self._sizes = o["cante_points"], o["stock"], o["hand_sizes"]
        self._tricks_o, self._to_move, self._upcard_o = o["tricks"], o["to_move"], o["upcard"]
        self._strength = variant.order.strength
        self._cabron = game_for(variant).cantes_in_tricks
        # obligations that make a refused suit a proof of a void (rules.md §1.4)
        self._claim = options.renuncio_mode == "claim"
        self._exempt = options.partner_exemption and variant.partnerships
        self._undertrump = options.must_undertrump
        self._stock_rule = options.stock_phase_rule if variant.stock else "full"
        self._max_tricks = 20.0 if variant.stock else 13.0
        self._reset_state()

    def _reset_state(self) -> None:
        n, s = self._n, self.layout.sides
        self.hand = 0
        self.trump = -1
        self.stock_count = 0
        self.sizes = [0] * n
        self.known = [0] * n
        self.voids = [0] * n
        self.card_pts = [0] * s
        self.cante_pts = [0] * s
        self.tricks_done = 0
        self.phase = 2
        self.to_move: int | None = None
        self.upcard = -1
        # the trick being played: (seat, card index), its best card and seat, ruffed
        self.trick: list[tuple[int, int]] = []
        self._best = -1
        self._best_seat = -1
        self._ruffed = False

    # ------------------------------------------------------------------ full sync

    def sync(self, view: SeatView, match: MatchView | None = None) -> Observation:
        """Encode ``view`` from scratch (and the match score of ``match``)."""
        if view.seat != self.seat:
            raise ValueError(f"view of seat {view.seat} given to seat {self.seat}'s encoder")
        self.buf[:] = 0.0
        buf = self._a
        self._reset_state()
        rel, o = self._rel, self._o
        # what the history shows: cards played per seat, voids, cantes per seat; the state
        # replayed here is only the trick machine (trump and stock count as they were)
        stock_at_start = view.stock_count + sum(1 for e in view.history if e.__class__ is Drew)
        self.stock_count = stock_at_start
        # cabrón finds its trumps in play, and subastado's declarer names them
        game = game_for(self.variant)
        self.trump = int(view.trump) if game.trump_fixed and view.trump is not None else -1
        for e in view.history:
            self._replay(e)
        # the state as the view gives it
        self.trump = -1 if view.trump is None else int(view.trump)
        self.hand = view.hand.mask
        self._set_cards(self._hand, self.hand)
        self.trick = [(s, c.index) for s, c in view.trick]
        for s, c in view.trick:
            buf[self._trick + 40 * rel[s] + c.index] = 1.0
        if view.trick:
            buf[self._leader + rel[view.trick[0][0]]] = 1.0
        for s in range(self._n):
            self.known[s] = view.known[s].mask if view.known else 0
            self._set_cards(self._known + 40 * rel[s], self.known[s])
            self.sizes[s] = view.hand_sizes[s]
            buf[self._sizes + rel[s]] = view.hand_sizes[s] / 14.0
            self._write_void(s)
        if self.trump >= 0:
            buf[self._trump_o + self.trump] = 1.0
        if view.trump_card is not None:
            buf[o["trump_card"] + view.trump_card.index] = 1.0
        if view.upcard is not None:
            self.upcard = view.upcard.index
            buf[self._upcard_o + self.upcard] = 1.0
        if view.table_card is not None:
            buf[o["table_card"] + view.table_card.index] = 1.0
        rs = self._rel_side
        for side, pts in enumerate(view.card_points):
            self.card_pts[side] = pts
            buf[self._points + rs[side]] = min(pts / 120.0, 1.0)
        for _seat, _decl, pts in view.cantes:
            self.cante_pts[self._side_of[_seat]] += pts
        for side, pts in enumerate(self.cante_pts):
            buf[self._cpoints + rs[side]] = min(pts / 200.0, 1.0)
        if view.carry is not None:
            for side, points in enumerate(view.carry):
                buf[o["carry"] + rs[side]] = min(points / 101.0, 1.0)
        self.stock_count = view.stock_count
        buf[self._stock] = view.stock_count / 40.0
        self.tricks_done = len(view.tricks)
        buf[self._tricks_o] = self.tricks_done / self._max_tricks
        self.phase = _phase(view)
        buf[o["phase"] + self.phase] = 1.0
        self.to_move = view.to_move
        buf[self._to_move] = float(view.to_move == self.seat)
        if view.auction is not None:
            bid, bidder = view.auction
            buf[o["bid"]] = bid / _MAX_BID
            if bidder >= 0:
                buf[o["bidder"] + rel[bidder]] = 1.0
        if view.contract is not None:
            declarer, bid, taken = view.contract
            buf[o["bid"] + 1] = min(bid / _MAX_BID, 1.0)  # a takeover adds to 230
            buf[o["declarer"] + rel[declarer]] = 1.0
            buf[o["takeover"]] = float(taken)
        if match is not None:
            self._write_match(match)
        self.seen = len(view.history)
        return self.buf

    def _write_match(self, m: MatchView) -> None:
        s, off, rs, opts = self.layout.sides, self._o["match"], self._rel_side, self.options
        target = max(opts.match_target, 1)
        for side in range(s):
            r = rs[side]
            if m.games:
                self._a[off + r] = min(m.games[side] / 10.0, 1.0)
            if m.cotos:
                self._a[off + s + r] = min(m.cotos[side] / 10.0, 1.0)
            if m.losses:
                self._a[off + 2 * s + r] = min(m.losses[side] / max(opts.loss_limit, 1), 1.0)
            if m.balances:
                b = max(-1.0, min(1.0, m.balances[side] / target))
                self._a[off + 3 * s + r] = 0.5 + 0.5 * b
            else:
                self._a[off + 3 * s + r] = 0.5

    def _set_cards(self, off: int, mask: int) -> None:
        buf = self._a
        while mask:
            low = mask & -mask
            buf[off + low.bit_length() - 1] = 1.0
            mask ^= low

    def _write_void(self, seat: int) -> None:
        v, off = self.voids[seat], self._void + 4 * self._rel[seat]
        buf = self._a
        for suit in range(4):
            buf[off + suit] = float(v >> suit & 1)

    def _replay(self, e: Event) -> None:
        """History-derived features only (the rest comes from the view)."""
        if e.__class__ is CardPlayed:
            seat, idx = e.seat, e.card.index
            self._a[self._played + 40 * self._rel[seat] + idx] = 1.0
            self._infer(seat, idx)
        elif e.__class__ is TrickTaken:
            self._trick_over()
        elif e.__class__ is Drew:
            self.stock_count -= 1
            self._drew(e.seat, e.card, e.public)
        elif e.__class__ is Declared:
            self._declared_history(e)
        elif e.__class__ is TrumpNamed:
            self.trump = int(e.suit)
        elif e.__class__ is Exchanged:
            self.voids[e.seat] &= ~(1 << e.taken.suit)
        elif e.__class__ is TookOver:  # the idle dealer takes the bidder's hand
            self.voids[e.seat] = self.voids[e.from_seat]

    def _declared_history(self, e: Declared) -> None:
        rel = self._rel[e.seat]
        d = e.declaration
        if d.is_tute:
            self._a[self._cantes + 5 * rel + 4] = 1.0
        elif e.cards:
            suit = int(e.cards[0].suit)
            self._a[self._cantes + 5 * rel + suit] = 1.0
            if d is CUARENTA and self.trump < 0:  # cabrón: the first cante names trumps
                self.trump = suit

    # ------------------------------------------------------------------ void inference

    def _infer(self, seat: int, idx: int) -> None:
        """The trick machine: a card that breaks an obligation it would have had proves a
        void (no inference where renuncios may be played and claimed)."""
        trick = self.trick
        if not trick:
            trick.append((seat, idx))
            self._best, self._best_seat, self._ruffed = idx, seat, False
            return
        lead = trick[0][1] // 10
        suit = idx // 10
        trump = self.trump
        if not self._claim and suit != lead:
            rule = self._stock_rule if self.stock_count > 0 else "full"
            before = self.voids[seat]
            if rule == "full":
                v = before | 1 << lead
                exempt = self._exempt and (self._best_seat - seat) % 2 == 0
                if trump >= 0 and suit != trump and not exempt and (
                        not self._ruffed or self._undertrump):
                    v |= 1 << trump
            elif rule == "follow_suit" or (rule == "follow_trump_lead" and lead == trump):
                v = before | 1 << lead
            else:
                v = before
            if v != before:
                self.voids[seat] = v
                self._write_void(seat)
        best = self._best
        if suit == best // 10:
            if self._strength[idx] > self._strength[best]:
                self._best, self._best_seat = idx, seat
        elif suit == trump:
            self._best, self._best_seat, self._ruffed = idx, seat, True
        trick.append((seat, idx))

    def _trick_over(self) -> None:
        self.trick = []
        self._best = self._best_seat = -1
        self._ruffed = False

    def _drew(self, seat: int, card: Card | None, public: bool) -> None:
        # what the table can tell: a face-down card (the drawer's own included) may be of any
        # suit, so that seat's voids are gone; the face-up upcard refills its own suit only
        if self.voids[seat]:
            if public and card is not None:
                self.voids[seat] &= ~(1 << card.suit)
            else:
                self.voids[seat] = 0
            self._write_void(seat)

    # ------------------------------------------------------------------ incremental

    def feed(self, events: Sequence[Event], start: int, to_move: int | None,
             hands: Sequence[Observation] | None = None) -> bool:
        """Take in ``events[start:]`` (the deal's log; each event is read as this seat sees
        it); False if one of them needs a full sync from the view.

        ``hands`` (one 40-card vector per seat) are kept up to date too, each from its own
        seat's plays and draws only: the table's shared encoder (:class:`TableEncoder`)."""
        buf, rel, seat = self._a, self._rel, self.seat
        if self.phase != 2 and start < len(events):
            return False  # auction and contract: hands and trumps change (the widow)
        followed = self._FOLLOWED
        for k in range(start, len(events)):
            e = seen_by(events[k], seat)
            if e.__class__ not in followed:
                return False
            if e.__class__ is CardPlayed:
                p, idx = e.seat, e.card.index
                r = rel[p]
                if p == seat:
                    self.hand &= ~(1 << idx)
                    buf[self._hand + idx] = 0.0
                if hands is not None:
                    hands[p][idx] = 0.0
                if self.known[p] >> idx & 1:
                    self.known[p] &= ~(1 << idx)
                    buf[self._known + 40 * r + idx] = 0.0
                if not self.trick:
                    buf[self._leader + r] = 1.0
                buf[self._trick + 40 * r + idx] = 1.0
                buf[self._played + 40 * r + idx] = 1.0
                self.sizes[p] -= 1
                buf[self._sizes + r] = self.sizes[p] / 14.0
                self._infer(p, idx)
            elif e.__class__ is TrickTaken:
                self._trick_over()
                n = self._n
                zeros = self._zeros
                buf[self._trick:self._trick + 40 * n] = zeros[:40 * n]
                buf[self._leader:self._leader + n] = zeros[:n]
                side = self._side_of[e.winner]
                self.card_pts[side] += e.points
                buf[self._points + self._rel_side[side]] = min(self.card_pts[side] / 120.0, 1.0)
                self.tricks_done += 1
                buf[self._tricks_o] = self.tricks_done / self._max_tricks
            elif e.__class__ is Drew:
                p, card = e.seat, e.card
                if hands is not None:  # the drawer sees its own card
                    own = events[k]  # the log itself: the card drawn
                    assert own.__class__ is Drew and own.card is not None
                    hands[p][own.card.index] = 1.0
                self.stock_count -= 1
                buf[self._stock] = self.stock_count / 40.0
                self.sizes[p] += 1
                buf[self._sizes + rel[p]] = self.sizes[p] / 14.0
                if card is not None and p == seat:
                    self.hand |= card.mask
                    buf[self._hand + card.index] = 1.0
                if e.public and card is not None:
                    self.known[p] |= card.mask
                    buf[self._known + 40 * rel[p] + card.index] = 1.0
                    if self.upcard >= 0:  # the upcard was the last card of the stock
                        buf[self._upcard_o + self.upcard] = 0.0
                        self.upcard = -1
                self._drew(p, card, e.public)
            elif e.__class__ is Declared:
                if e.declaration.is_tute:
                    return False  # it ends the deal
                had_trump = self.trump
                self._declared_history(e)
                if self.trump != had_trump:
                    buf[self._trump_o + self.trump] = 1.0
                p = e.seat
                side = self._side_of[p]
                self.cante_pts[side] += e.points
                buf[self._cpoints + self._rel_side[side]] = min(self.cante_pts[side] / 200.0,
                                                                1.0)
                if not self._cabron:  # the cards shown stay in the hand (not so in cabrón)
                    for c in e.cards:
                        if not self.known[p] >> c.index & 1:
                            self.known[p] |= c.mask
                            buf[self._known + 40 * rel[p] + c.index] = 1.0
            elif e.__class__ is DealEnded:  # after the last trick only the phase changes...
                if self.in_match:
                    return False  # ...and, in a match, its score
                off = self._o["phase"]
                buf[off + self.phase] = 0.0
                self.phase = 3
                buf[off + 3] = 1.0
            # Passed: nothing public changes but whose turn it is
        self.seen = len(events)
        self.set_to_move(to_move)
        return True

    def set_to_move(self, to_move: int | None) -> None:
        # only "is it my turn": who else is asked would tell too much, since the engine
        # polls a trick winner's partner only when it holds a cante (docs/rl.md)
        self.to_move = to_move
        self._a[self._to_move] = float(to_move == self.seat)


def encode_view(view: SeatView | MatchView, options: Mapping[str, Any] | Options | None = None,
                ) -> Observation:
    """The observation of ``view`` (a seat's deal view, or its match view), from scratch."""
    match = view if isinstance(view, MatchView) else None
    dv = view.deal if isinstance(view, MatchView) else view
    var = find_variant(dv.variant)
    opts = dv.options if options is None else var.resolve(options)
    enc = SeatEncoder(var, opts, dv.seat, Layout.of(var, opts))
    return enc.sync(dv, match).copy()


# blocks indexed by seat (groups of ``size // n``) and by side (groups of ``size // sides``)
_SEAT_BLOCKS = frozenset({"trick", "leader", "played", "known", "void", "cantes", "hand_sizes",
                          "bidder", "declarer"})
_SIDE_BLOCKS = frozenset({"points", "cante_points", "carry", "match"})


@lru_cache(maxsize=64)
def _rotations(layout: Layout) -> tuple[NDArray[np.intp], ...]:
    """Per seat, the index permutation that turns seat 0's frame into that seat's (made once
    per layout: tables are built often, e.g. by every OpenSpiel clone; read-only)."""
    n, sides = layout.n, layout.sides
    side_of = [(x % 2 if layout.partners else x) for x in range(n)]
    perms = []
    for seat in range(n):
        perm = np.arange(layout.size)
        for name, off, size in layout.blocks:
            if name in _SEAT_BLOCKS:
                g, shift, count = size // n, seat, n
            elif name in _SIDE_BLOCKS:  # match: four runs (games, cotos...) of sides
                g, shift, count = 1, side_of[seat], sides
            else:
                continue
            for r in range(size // g):
                # groups cycle within each run of ``count`` (match: 4 runs of sides)
                base, k = divmod(r, count)
                src = base * count + (k + shift) % count
                perm[off + r * g:off + (r + 1) * g] = np.arange(off + src * g,
                                                               off + (src + 1) * g)
        perm.flags.writeable = False
        perms.append(perm)
    return tuple(perms)


class TableEncoder:
    """Every seat's observation at the cost of about one encoder.

    All of an observation but the hand is public, and the same for every seat up to the
    rotation of seats and sides; so the public part is encoded once, in seat 0's frame
    (where relative and absolute seats agree), and seat ``s`` gets it rotated to its own frame
    plus its own hand, kept from its own plays and draws (or its own view after a rare event).
    A test checks it against :func:`encode_view` of every seat at every step.
    """

    def __init__(self, variant: Variant, options: Options, layout: Layout):
        self.layout = layout
        self.public = SeatEncoder(variant, options, 0, layout)
        n = layout.n
        self.hands = [np.zeros(40, np.float32) for _ in range(n)]
        self._hand_ok = [False] * n
        self._perm = _rotations(layout)

    def invalidate(self) -> None:
        self.public.seen = -1
        self._hand_ok = [False] * len(self.hands)

    def update(self, events: Sequence[Event], to_move: int | None) -> bool:
        """Take in the new events; False if a sync (:meth:`sync`) is needed first."""
        pub = self.public
        if pub.seen < 0:
            return False
        if len(events) > pub.seen and not pub.feed(events, pub.seen, to_move, self.hands):
            self.invalidate()
            return False
        pub.set_to_move(to_move)
        return True

    def sync(self, view0: SeatView, match: MatchView | None = None) -> None:
        """The public part from seat 0's view (seat 0's hand comes with it)."""
        self.public.sync(view0, match)
        self.set_hand(0, view0.hand.mask)

    def needs_hand(self, seat: int) -> bool:
        return not self._hand_ok[seat]

    def set_hand(self, seat: int, mask: int) -> None:
        h = self.hands[seat]
        h[:] = 0.0
        while mask:
            low = mask & -mask
            h[low.bit_length() - 1] = 1.0
            mask ^= low
        self._hand_ok[seat] = True

    def observation(self, seat: int) -> Observation:
        """A fresh array: seat ``seat``'s observation."""
        pub = self.public
        obs = pub.buf[self._perm[seat]]
        obs[:40] = self.hands[seat]  # the hand block comes first (Layout)
        obs[pub._to_move] = float(pub.to_move == seat)
        return obs
