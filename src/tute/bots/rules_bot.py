"""The ``rules`` bot: plays like a good club player from its seat's view alone.

It reads the public record in the view (completed tricks, the trick in progress, cantes,
exchanges, the cards publicly known to be in a hand) and from it derives, for every other
seat, which unseen cards that seat may still hold:

* a seat that did not follow suit is void in it;
* a seat that followed without heading when it had to head (rules.md §1.4 2a/2b) holds no
  higher card of that suit (each of these is asked of :func:`tute.rules.excluded_by_play`,
  the legality of ``rules.py`` read backwards, not worked out here);
* a seat that was void and had to trump but did not holds no trump (or, on a ruffed trick,
  no trump above the best one);
* the stock-phase duties of the two-player games give the same inferences for what they
  demand (a trump lead answered without a trump means no trump).

Inferences from a stock-phase trick die with the next draw, so only the trick in progress and
tricks played without a stock are used. The unseen cards are then spread over the seats that
may hold them (and the face-down stock) in proportion to the free places in each hand; these
marginal probabilities give, for every candidate card, the chance that the side keeps the trick.

A card is chosen by the expected point swing of the trick, ``(2·p − 1)·(points in the trick)``,
minus what the card is worth kept in hand (trumps, masters, marriage cards, the last trump),
plus the cante that winning may allow. That one formula already smears points on a partner's
sure trick (*cargar*), throws blank cards on lost tricks and wins point tricks cheaply; a few
classic rules are added on the lead (draw trumps when strong, do not lead a 3 with its ace out,
lead into the partner's void). Declarations are always made at once (the engine offers the 40
first), and the upcard is always taken with the 7 or the 2.
"""

from __future__ import annotations

import contextlib
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..actions import PASS, Action, Exchange
from ..cards import DECK_40, SUIT_MASKS, Card, RankOrder
from ..deal import SeatView
from ..errors import TuteError
from ..games import game_for
from ..rules import Declaration, excluded_by_play, trick_winner
from ..variants import find_variant
from .base import Bot, register

__all__ = ["DECISIVE", "RulesBot", "estimate_contract"]

_KING, _THREE, _ACE = 7, 8, 9  # bit positions within a suit
#: the margin, in points, of an action a rule picks (an exchange, a cante, a bid) over the rest
DECISIVE = 20.0


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@dataclass(frozen=True)
class _Table:
    """What the bot needs to know about a variant, looked up once per variant and options."""

    order: RankOrder
    deck: int
    partnerships: bool
    stock: bool
    stock_tricks: int
    stock_rule: str
    exemption: bool
    undertrump: bool
    head_after_ruff: bool
    marriage_second: int  # caballo in Tute, sota in Guiñote
    cabron: bool  # the trump may change during the deal
    arrastre_cantes: bool  # declarations go on once the stock is gone


@lru_cache(maxsize=64)
def _table(variant_id: str, options: Any, seats: int) -> _Table:
    var = find_variant(variant_id)
    deck = var.deck
    stock_tricks = 0
    if var.stock:
        stock_tricks = (deck.bit_count() - seats * options.hand_size) // seats
    return _Table(
        order=var.order, deck=deck, partnerships=var.partnerships, stock=var.stock,
        stock_tricks=stock_tricks,
        stock_rule=options.stock_phase_rule if var.stock else "full",
        exemption=bool(options.partner_exemption) and var.partnerships,
        undertrump=bool(options.must_undertrump),
        head_after_ruff=bool(options.must_head_after_ruff),
        marriage_second=var.order.marriage,
        cabron=game_for(var).trump_changes,
        arrastre_cantes=game_for(var).arrastre_cantes,
    )


class _Knowledge:
    """What one seat can deduce about the others' hands from a view."""

    def __init__(self, view: SeatView, table: _Table,
                 excluded: list[int] | None = None):
        self.view = view
        self.t = table
        n = view.seats
        self.n = n
        self.me = view.seat
        self.trump = None if view.trump is None else int(view.trump)
        self.hand = view.hand.mask
        played = view.played.mask
        up = view.upcard.mask if view.upcard is not None else 0
        self.outstanding = table.deck & ~(self.hand | played | up | _dead_card(view, table))
        known = [k.mask & ~played for k in view.known] if view.known else [0] * n
        known[self.me] = 0
        self.known = known
        if excluded is None:
            self.excluded = [0] * n
            self._infer()
        else:  # worked out before from the same public record (it reads nothing else)
            self.excluded = list(excluded)
        self.partners = _partners(view, table)
        self._probabilities()

    # ---------------------------------------------------------------- inference

    def _infer(self) -> None:
        t, view = self.t, self.view
        n = self.n
        for rec in view.tricks:
            if t.stock and rec.number <= t.stock_tricks:
                continue  # stock-phase inferences died with the draw that followed
            self._infer_trick(rec.seats, [c.index for c in rec.cards], obligated=True)
        if view.trick:
            obligated = not (t.stock and view.stock_count > 0 and t.stock_rule != "full")
            self._infer_trick([s for s, _ in view.trick], [c.index for _, c in view.trick],
                              obligated=obligated)
        for s in range(n):  # a card known to be in a hand is not excluded from it
            self.excluded[s] &= ~self.known[s]

    def _infer_trick(self, seats: Sequence[int], cards: list[int], *, obligated: bool) -> None:
        t = self.t
        order = t.order
        trump = None if t.cabron else self.trump  # cabrón: trumps changed mid-deal
        if t.cabron:  # so only what holds under any trump: not following means void
            phase, rule = "stock", "follow_suit"
        elif obligated:
            phase, rule = "obligated", "full"
        else:  # the stock-phase duties (free, follow_suit, follow_trump_lead)
            phase, rule = "stock", t.stock_rule
        for pos in range(1, len(cards)):
            seat = seats[pos]
            if seat == self.me:
                continue
            before = cards[:pos]
            winning = trick_winner(before, trump, order)
            # the cards whose presence would have made this play illegal (rules.py says)
            self.excluded[seat] |= excluded_by_play(
                cards[pos], before, DECK_40, trump, order, phase=phase, stock_phase_rule=rule,
                partner_winning=(pos - winning) % 2 == 0, partner_exemption=t.exemption,
                must_undertrump=t.undertrump, must_head_after_ruff=t.head_after_ruff,
            )

    # ---------------------------------------------------------------- probabilities

    def _probabilities(self) -> None:
        """Marginal P(seat holds card): known cards 1; every other outstanding card shared
        among the seats that may hold it (and the face-down stock) by their free places."""
        view, n = self.view, self.n
        slots = [0] * n
        for s in range(n):
            if s != self.me:
                slots[s] = max(0, view.hand_sizes[s] - self.known[s].bit_count())
        stock_slots = view.stock_count - (1 if view.upcard is not None else 0)
        stock_slots = max(0, stock_slots)
        probs = [[0.0] * 40 for _ in range(n)]
        all_known = 0
        for s in range(n):
            all_known |= self.known[s]
            for c in _bits(self.known[s]):
                probs[s][c] = 1.0
        others = [s for s in range(n) if s != self.me and slots[s]]
        for c in _bits(self.outstanding & ~all_known):
            bit = 1 << c
            cands = [s for s in others if not self.excluded[s] & bit]
            total = stock_slots + sum(slots[s] for s in cands)
            if total:
                for s in cands:
                    probs[s][c] = slots[s] / total
        self.probs = probs

    def p_any(self, seat: int, mask: int) -> float:
        """Chance that ``seat`` holds at least one card of ``mask`` (independence assumed)."""
        pr = self.probs[seat]
        miss = 1.0
        while mask:
            low = mask & -mask
            p = pr[low.bit_length() - 1]
            if p >= 1.0:
                return 1.0
            miss *= 1.0 - p
            mask ^= low
        return 1.0 - miss

    def p_beat(self, seat: int, best: int, lead: int, obligated: bool) -> float:
        """Chance that ``seat`` can beat ``best`` on a trick led in ``lead``."""
        higher = self.t.order.higher[best]
        trump = self.trump
        if trump is not None and best // 10 == trump:
            over = self.p_any(seat, higher)
            if lead == trump or not obligated:
                return over
            return (1.0 - self.p_any(seat, SUIT_MASKS[lead])) * over
        a = self.p_any(seat, higher)
        if trump is None:
            return a
        tr = self.p_any(seat, SUIT_MASKS[trump])
        if obligated:
            tr *= 1.0 - self.p_any(seat, SUIT_MASKS[lead])
        return a + (1.0 - a) * tr


def _dead_card(view: SeatView, t: _Table) -> int:
    """Three-player Tute: the card left on the table after the exchanges is out of play."""
    table_card = getattr(view, "table_card", None)
    if isinstance(table_card, Card):
        return table_card.mask
    if t.stock or t.partnerships or view.seats != 3 or view.trump_card is None:
        return 0
    card = view.exchanges[-1][1] if view.exchanges else view.trump_card
    if any(card.mask & k.mask for k in view.known) or card.mask & view.hand.mask:
        return 0
    return card.mask


def _partners(view: SeatView, t: _Table) -> int:
    """Mask of the seats on this seat's side, itself included."""
    if t.partnerships:
        side = view.side_of[view.seat]
        return sum(1 << s for s, sd in enumerate(view.side_of) if sd == side)
    contract = getattr(view, "contract", None)  # subastado: the defenders play together
    declarer = contract[0] if isinstance(contract, tuple) and contract else None
    if isinstance(declarer, int) and declarer != view.seat:
        return ((1 << view.seats) - 1) & ~(1 << declarer)
    return 1 << view.seat


@register("rules", "plays by the classic rules of thumb, remembering every card and deducing "
          "voids from the play duties")
class RulesBot(Bot):
    def __init__(self, seed: int | None = None, noise: float = 0.0, **settings: Any):
        super().__init__(seed=seed, **settings)
        if isinstance(noise, bool) or not isinstance(noise, int | float) or not 0 <= noise <= 1:
            raise TuteError(f"invalid noise {noise!r}: expected a share 0..1")
        self.noise = float(noise)  # the share of decisions played at random (the easy level)
        self._excluded: dict[Hashable, list[int]] = {}  # preferences' memo, by public record

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        if self.noise and self.rng.random() < self.noise:
            return legal[self.rng.randrange(len(legal))]
        return self.choose_rule(view, legal)

    # ---------------------------------------------------------------- card play

    def _card(self, view: SeatView, cards: list[Card]) -> Card:
        if len(cards) == 1:
            return cards[0]
        t = _table(view.variant, view.options, view.seats)
        k = _Knowledge(view, t)
        obligated = not (t.stock and view.stock_count > 0 and t.stock_rule != "full")
        # the engine's count: subastado's idle dealer or widow, cabrón's pack for four
        tricks_left = view.total_tricks - len(view.tricks)
        keep = _Keeper(view, t, k, tricks_left)
        if not view.trick:
            return self._lead(view, t, k, cards, keep, obligated)
        return self._follow(view, t, k, cards, keep, obligated)

    def _follow(self, view: SeatView, t: _Table, k: _Knowledge, cards: list[Card],
                keep: _Keeper, obligated: bool) -> Card:
        return _best(cards, _follow_values(view, t, k, cards, keep, obligated))

    def _lead(self, view: SeatView, t: _Table, k: _Knowledge, cards: list[Card],
              keep: _Keeper, obligated: bool) -> Card:
        return _best(cards, _lead_values(view, t, k, cards, keep, obligated))

    def preferences(self, view: SeatView, legal: Sequence[Action],
                    public: Hashable | None = None) -> list[float]:
        """What this bot thinks of each legal action, in points (higher is better; its choice,
        noise aside, is one of the best: ties go to the lowest card): the score of each card
        it weighs; where a rule decides instead (an exchange, a cante, a bid), ``DECISIVE``
        for its pick and 0 for the rest. For a model of how a seat plays
        (:mod:`tute.bots.policy_model`).

        ``public``, a key of the public record so far, lets views of one record at the same
        seat (the worlds of a search) share what the record rules out of each hand."""
        if len(legal) == 1:
            return [0.0]
        cards = [a for a in legal if isinstance(a, Card)]
        rule = any(isinstance(a, Exchange | Declaration) for a in legal) or not cards
        if rule or len(cards) == 1:
            pick = self.choose_rule(view, legal)
            return [DECISIVE if a == pick else 0.0 for a in legal]
        t = _table(view.variant, view.options, view.seats)
        memo = self._excluded
        key = None if public is None else (public, view.seat)
        k = _Knowledge(view, t, memo.get(key) if key is not None else None)
        if key is not None and key not in memo:
            if len(memo) > 50_000:
                memo.clear()
            memo[key] = k.excluded
        obligated = not (t.stock and view.stock_count > 0 and t.stock_rule != "full")
        keep = _Keeper(view, t, k, view.total_tricks - len(view.tricks))
        score = _follow_values if view.trick else _lead_values
        values = score(view, t, k, cards, keep, obligated)
        by_card = dict(zip(cards, values, strict=True))
        low = min(values) - DECISIVE
        return [by_card.get(a, low) if isinstance(a, Card) else low for a in legal]

    def choose_rule(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """The choice without noise (what ``choose`` plays at ``noise=0``)."""
        for a in legal:
            # a higher trump for the 7 or the 2 always pays; first, as the turn stays (and
            # the king or sota taken may make the 40)
            if isinstance(a, Exchange):
                return a
        decls = [a for a in legal if isinstance(a, Declaration)]
        if decls:  # sing at the first chance; the engine lists a tute, then the 40, first
            return decls[0]
        cards = [a for a in legal if isinstance(a, Card)]
        if cards:
            return self._card(view, cards)
        return _other_action(view, legal)


def _best(cards: list[Card], values: list[float]) -> Card:
    """The best-valued card; ties to the lowest index (the engine's order)."""
    return max(zip(values, cards, strict=True), key=lambda v: (v[0], -v[1].index))[1]


def _follow_values(view: SeatView, t: _Table, k: _Knowledge, cards: list[Card],
                   keep: _Keeper, obligated: bool) -> list[float]:
    order = t.order
    trick = [c.index for _, c in view.trick]
    lead = trick[0] // 10
    best, best_seat = trick[0], view.trick[0][0]
    for s, c in view.trick[1:]:
        if _beats(c.index, best, k.trump, order):
            best, best_seat = c.index, s
    on_table = sum(order.points[c] for c in trick)
    rest = _after(view)[:len(view.play_order) - len(trick) - 1]
    scored: list[float] = []
    for card in cards:
        x = card.index
        if _beats(x, best, k.trump, order):
            b, ours, mine = x, True, True
        else:
            b, ours, mine = best, bool(k.partners >> best_seat & 1), False
        p = _hold(k, rest, b, lead, ours, obligated)
        pts = on_table + order.points[x]
        value = (2 * p - 1) * pts - keep.value(x)
        if mine:
            value += p * keep.cante_bonus
        scored.append(value)
    return scored


def _lead_values(view: SeatView, t: _Table, k: _Knowledge, cards: list[Card],
                 keep: _Keeper, obligated: bool) -> list[float]:
    order = t.order
    rest = _after(view)
    trump = k.trump
    opponents = [s for s in rest if not k.partners >> s & 1]
    draw_trumps = False
    trump_mask = SUIT_MASKS[trump] if trump is not None else 0
    my_trumps = (k.hand & trump_mask).bit_count()
    if trump is not None and obligated:
        their = sum(sum(k.probs[s][c] for c in _bits(trump_mask & k.outstanding))
                    for s in opponents)
        # arrastrar: with more trumps than the opponents together, pull theirs
        draw_trumps = their > 0.5 and my_trumps >= 2 and my_trumps >= their + 1
    opp_trumps = max((k.p_any(s, trump_mask) for s in opponents), default=0.0)
    partner = [s for s in rest if k.partners >> s & 1]
    scored: list[float] = []
    for card in cards:
        x = card.index
        suit = x // 10
        p = _hold(k, rest, x, suit, True, obligated)
        pts = order.points[x] + 4  # what the others are likely to add
        value = (2 * p - 1) * pts - keep.value(x) + p * keep.cante_bonus
        if suit == trump:
            if draw_trumps:
                value += 6 if not order.higher[x] & k.outstanding else 2
            elif opp_trumps < 0.05 and my_trumps < len(cards):
                value -= 4  # nobody left to draw: keep them
        elif x % 10 == _THREE and (1 << (10 * suit + _ACE)) & k.outstanding:
            value -= 5  # the ace is still out: the 3 would feed it
        if partner and suit != trump and trump is not None:
            for s in partner:  # the partner is void here and may trump
                void = k.excluded[s] & SUIT_MASKS[suit] == SUIT_MASKS[suit] & k.outstanding
                if void and k.p_any(s, trump_mask) > 0.5 and order.points[x] < 4:
                    value += 3
        scored.append(value)
    return scored


def _beats(x: int, best: int, trump: int | None, order: RankOrder) -> bool:
    if x // 10 == best // 10:
        return bool(order.higher[best] >> x & 1)
    return trump is not None and x // 10 == trump


def _after(view: SeatView) -> list[int]:
    """The other seats that play, in playing order after this one (an idle seat left out)."""
    order = view.play_order
    i = order.index(view.seat)
    return [*order[i + 1:], *order[:i]]


def _hold(k: _Knowledge, rest: list[int], best: int, lead: int, ours: bool,
          obligated: bool) -> float:
    """Chance that the side to which the best card belongs now keeps the trick, walking the
    seats still to play (an opponent may beat it; a partner may rescue a lost trick)."""
    p = 1.0 if ours else 0.0
    for s in rest:
        beat = k.p_beat(s, best, lead, obligated)
        if k.partners >> s & 1:
            p += (1.0 - p) * beat
        else:
            p *= 1.0 - beat
    return p


class _Keeper:
    """What each card of the hand is worth kept for later: trumps and masters win tricks,
    marriage cards are cantes still to sing, the last trump wins the last trick."""

    def __init__(self, view: SeatView, t: _Table, k: _Knowledge, tricks_left: int):
        self.t = t
        self.k = k
        trump = k.trump
        hand = k.hand
        self.cache: dict[int, float] = {}
        self.tricks_left = tricks_left
        self.trump_count = (hand & SUIT_MASKS[trump]).bit_count() if trump is not None else 0
        # cantes are still possible later: before arrastre in the two-player Tute games
        later_cantes = not (t.stock and not t.arrastre_cantes
                            and view.stock_count <= view.seats)
        sung = 0
        for _s, d, _p in view.cantes:
            suit = d.marriage_suit(trump)
            if suit is not None:
                sung |= 1 << suit
        self.marriage: dict[int, float] = {}
        best_cante = 0.0
        for s in range(4):
            pair = (1 << (10 * s + _KING)) | (1 << (10 * s + t.marriage_second))
            if sung >> s & 1 or not later_cantes:
                continue
            worth = 40.0 if s == trump else 20.0
            if hand & pair == pair:
                for c in _bits(pair):
                    self.marriage[c] = 0.6 * worth
                best_cante = max(best_cante, worth)
            elif hand & pair and pair & k.outstanding and t.stock and view.stock_count:
                for c in _bits(hand & pair):
                    self.marriage[c] = 2.0  # the other card may still be drawn
        # winning this trick lets the winner sing (stock games: if stock remains after it)
        self.cante_bonus = 0.9 * best_cante if later_cantes else 0.0

    def value(self, x: int) -> float:
        v = self.cache.get(x)
        if v is not None:
            return v
        k, order = self.k, self.t.order
        pts = order.points[x]
        strength = order.strength[x]
        master = not order.higher[x] & k.outstanding
        if k.trump is not None and x // 10 == k.trump:
            v = 6.0 + strength + 0.5 * pts + (3.0 if master else 0.0)
            if self.trump_count == 1 and self.tricks_left > 1:
                v += 6.0  # keep a trump for the last trick
        elif master:
            v = 0.6 * pts + 4.0
        else:
            v = 0.3 * pts + 0.3 * strength
        v += self.marriage.get(x, 0.0)
        self.cache[x] = v
        return v


# ---------------------------------------------------------------------------------------------
# Actions of other kinds (subastado bids and trump choice, anything new)


def estimate_contract(hand: int, order: RankOrder, trump: int) -> float:
    """A rough count of the points a hand takes with ``trump`` as trumps (for bidding):
    its own card points, the sure cantes, and the tricks its long trumps and aces win."""
    pts = order.points_of(hand)
    est = 0.8 * pts
    second = order.marriage
    for s in range(4):
        pair = (1 << (10 * s + _KING)) | (1 << (10 * s + second))
        if hand & pair == pair:
            est += 40 if s == trump else 20
    trumps = hand & SUIT_MASKS[trump]
    est += 7 * max(0, trumps.bit_count() - 2)
    if trumps >> (10 * trump + _ACE) & 1:
        est += 8
    est += 4 * sum(1 for s in range(4) if hand >> (10 * s + _ACE) & 1)
    return est


def _other_action(view: SeatView, legal: Sequence[Action]) -> Action:
    """Actions this bot has no special rule for. Known notations from the auction games are
    handled by string (``bid:65``, ``triunfo:o``); anything else: pass if allowed, else the
    first legal action.

    Bids and the trump choice come from a rough hand estimate (``estimate_contract``); they
    are not yet calibrated against contracts made, and the idle dealer never takes over.
    """
    texts = [str(a) for a in legal]
    order = _table(view.variant, view.options, view.seats).order
    hand = view.hand.mask
    choices = [(i, t.partition(":")[2]) for i, t in enumerate(texts)
               if t.startswith(("triunfo:", "trump:"))]
    if choices:
        def worth(item: tuple[int, str]) -> float:
            suit = "oceb".find(item[1][:1].lower())
            return estimate_contract(hand, order, suit) if suit >= 0 else -1.0

        return legal[max(choices, key=worth)[0]]
    bids = []
    for i, t in enumerate(texts):
        if t.startswith("bid:"):
            with contextlib.suppress(ValueError):
                bids.append((int(t[4:]), i))
    if bids:
        best = max(estimate_contract(hand, order, s) for s in range(4))
        affordable = [b for b in bids if b[0] <= best]
        if affordable:
            # one round: say what the hand is worth; open rounds: creep up
            pick = max if view.options.auction_rounds == "single" else min
            return legal[pick(affordable)[1]]
    if PASS in legal:
        return PASS
    for i, t in enumerate(texts):
        if t in ("pass", "paso"):
            return legal[i]
    return legal[0]

