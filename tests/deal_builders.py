"""Explicit deal layouts that reach a wanted situation after a scripted sequence of legal
actions (used by ``test_rule_cases.py``).

For the stock games, :func:`stock_layout` works backwards from a script of tricks and from the
cards each seat must hold at given moments: every seat has ``hand_size`` initial slots and one
slot per draw; each needed card goes to the earliest free slot (earliest deadline first), the
upcard to the last draw, and the rest of the pack fills the gaps. :func:`auto_tricks` writes
stock-phase tricks with chosen winners that are legal whatever the hands hold.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import tute
from tute.rules import legal_mask, trick_winner

Cards = str | Sequence[str]


def cards(text: Cards) -> list[str]:
    """Canonical card names from ``"Ao 3c"`` or a list."""
    items = text.split() if isinstance(text, str) else list(text)
    return [str(tute.parse_card(c)) for c in items]


def winner_of(trick: Sequence[str], leader: int, n: int, trump: str | None,
              order: tute.RankOrder) -> int:
    suit = None if trump is None else int(tute.parse_card("A" + trump).suit)
    pos = trick_winner([tute.parse_card(c).index for c in trick], suit, order)
    return (leader + pos) % n


def stock_layout(
    variant: str,
    *,
    dealer: int,
    upcard: str,
    tricks: Sequence[Cards],
    holds: Mapping[tuple[int, int], Cards] | None = None,
    drawn: Mapping[tuple[int, int], str] | None = None,
    options: Mapping[str, Any] | None = None,
    filler: Cards = (),
) -> dict[str, Any]:
    """``Deal.new`` keyword arguments for a stock game (two-player Tute, Guiñote).

    ``tricks``: cards in playing order, leader first (trick 1 is led by mano, then by the
    winner). ``holds[(seat, k)]``: cards ``seat`` holds once trick ``k`` is over and drawn
    (``k = 0``: the deal); a negative ``k`` means after trick ``-k`` but before its draw.
    ``drawn[(seat, k)]``: the card ``seat`` draws after trick ``k``. ``filler``: cards to use
    first for the free slots.
    """
    var = tute.find_variant(variant)
    opts = var.resolve(options)
    n = var.seat_count(opts)
    size = opts.hand_size
    stock_tricks = (40 - n * size) // n
    up = cards(upcard)[0]
    trump = up[1]
    leader = (dealer + 1) % n
    plays: list[tuple[int, int, str]] = []  # trick, seat, card
    winners: list[int] = []
    for t, trick in enumerate(tricks, 1):
        cs = cards(trick)
        assert len(cs) == n, f"trick {t} needs {n} cards: {cs}"
        plays += [(t, (leader + i) % n, c) for i, c in enumerate(cs)]
        leader = winner_of(cs, leader, n, trump, var.order)
        winners.append(leader)
    k = len(tricks)
    draws = min(k, stock_tricks)
    slots: list[list[str | None]] = [[None] * (size + draws) for _ in range(n)]
    where: dict[str, tuple[int, int]] = {}

    def pin(seat: int, slot: int, card: str) -> None:
        assert slots[seat][slot] in (None, card), f"slot {seat}/{slot} taken"
        assert card not in where or where[card] == (seat, slot), f"{card} pinned twice"
        slots[seat][slot] = card
        where[card] = (seat, slot)

    for (seat, t), card in (drawn or {}).items():
        assert 1 <= t <= draws
        pin(seat, size + t - 1, cards(card)[0])
    if k >= stock_tricks:  # the last drawer of the last stock trick takes the upcard
        pin((winners[stock_tricks - 1] + n - 1) % n, size + stock_tricks - 1, up)

    def deadline(after: int) -> int:  # last slot filled once ``after`` tricks are drawn
        return size + min(max(after, 0), stock_tricks) - 1

    demands: dict[str, tuple[int, int]] = {}  # card -> (seat, deadline)

    def need(seat: int, card: str, last: int) -> None:
        if card in demands:
            s, d = demands[card]
            assert s == seat, f"{card} is needed by seats {s} and {seat}"
            last = min(last, d)
        demands[card] = (seat, last)

    for t, seat, card in plays:
        need(seat, card, deadline(t - 1))
    for (seat, t), held in (holds or {}).items():
        for card in cards(held):
            need(seat, card, deadline(t if t >= 0 else -t - 1))
    for card, (seat, last) in sorted(demands.items(), key=lambda kv: kv[1][1]):
        if card in where:
            assert where[card][0] == seat and where[card][1] <= last, f"{card} comes too late"
            continue
        free = next((i for i, c in enumerate(slots[seat]) if c is None), None)
        assert free is not None and free <= last, f"seat {seat} cannot hold {card} in time"
        pin(seat, free, card)
    rest = [c for c in cards(filler) if c not in where and c != up]
    rest += [str(c) for c in tute.ALL_CARDS
             if c.mask & var.deck and str(c) not in where and str(c) != up and str(c) not in rest]
    for pos in range(size + draws):
        for seat in range(n):
            if slots[seat][pos] is None:
                slots[seat][pos] = rest.pop(0)
    stock: list[str] = []
    for t in range(1, draws + 1):
        stock += [slots[(winners[t - 1] + i) % n][size + t - 1] for i in range(n)]  # type: ignore[misc]
    if k >= stock_tricks:
        assert stock.pop() == up
    stock += rest
    hands = [[c for c in slots[s][:size] if c] for s in range(n)]
    return {"dealer": dealer, "hands": hands, "upcard": up, "stock": stock,
            "options": dict(options or {})}


def safe_stock_trick(trick: Sequence[str], trump: str, rule: str) -> bool:
    """Legal in the stock phase whatever the hands: free play, or (follow_trump_lead) a plain
    lead, or a trump lead answered with trumps."""
    if rule == "free":
        return True
    assert rule == "follow_trump_lead", f"stock_phase_rule {rule} not supported"
    return trick[0][1] != trump or all(c[1] == trump for c in trick)


def auto_tricks(variant: str, *, dealer: int, trump: str, winners: Sequence[int | None],
                pool: Iterable[str], options: Mapping[str, Any] | None = None,
                exact: bool = False, seed: int = 0) -> list[list[str]]:
    """Stock-phase tricks from ``pool`` with the wanted winners (``None``: any), legal for any
    hands; with ``exact`` the pool is used up. Searched with backtracking."""
    var = tute.find_variant(variant)
    opts = var.resolve(options)
    n = var.seat_count(opts)
    rule = opts.stock_phase_rule
    rng = random.Random(seed)
    start = sorted(set(cards(list(pool))), key=lambda c: tute.parse_card(c).index)
    if exact:
        assert len(start) == n * len(winners), "the pool does not match the tricks"
    assert len(start) >= n * len(winners), "the pool is too small for the tricks"
    budget = [5000]  # search nodes: fail rather than search for ever

    def solve(t: int, leader: int, left: list[str]) -> list[list[str]] | None:
        if t == len(winners):
            return []
        budget[0] -= 1
        if budget[0] < 0:
            return None
        want = winners[t]
        trumps = [c for c in left if c[1] == trump]
        if n == 2:
            options_ = list(itertools.permutations(left, 2))
        else:
            options_ = [tuple(rng.sample(left, n)) for _ in range(400)]
        rng.shuffle(options_)
        # use trumps early so that the end of an exact pool is not all trumps
        options_.sort(key=lambda tr: -sum(c[1] == trump for c in tr) if trumps else 0)
        tried = 0
        for trick in options_:
            if not safe_stock_trick(trick, trump, rule):
                continue
            w = winner_of(trick, leader, n, trump, var.order)
            if want is not None and w != want:
                continue
            tried += 1
            rest = solve(t + 1, w, [c for c in left if c not in trick])
            if rest is not None:
                return [list(trick), *rest]
            if tried > 30:
                break
        return None

    out = solve(0, (dealer + 1) % n, start)
    assert out is not None, "no tricks found"
    return out


def is_poll(deal: tute.Deal) -> bool:
    """The seat to move is asked a question (pass is offered, no card can be played)."""
    legal = deal.legal_actions()
    return tute.PASS in legal and not any(isinstance(a, tute.Card) for a in legal)


def drive(deal: tute.Deal, actions: Iterable[str]) -> None:
    """Apply ``actions``; questions asked before an action's turn are answered ``pass``."""
    for action in actions:
        while action not in {str(a) for a in deal.legal_actions()} and is_poll(deal):
            deal.apply(tute.PASS)
        deal.apply(action)


def flat(tricks: Iterable[Cards]) -> list[str]:
    return [c for t in tricks for c in cards(t)]


def finish_draw(deal: tute.Deal) -> None:
    """After a stock-phase trick: pass the questions asked before the draw, until it is made."""
    drawn = max(len(deal.initial_stock) + 1 - deal.seats * len(deal.tricks), 0)
    while deal.stock_count > drawn and is_poll(deal):
        deal.apply(tute.PASS)
    assert deal.stock_count == drawn


def reach(deal: tute.Deal, seat: int) -> None:
    """Pass polls of other seats until ``seat`` is to move."""
    while deal.to_move != seat and is_poll(deal):
        deal.apply(tute.PASS)
    assert deal.to_move == seat, f"seat {deal.to_move} is to move, not seat {seat}"


def declarations(deal: tute.Deal) -> set[str]:
    return {str(a) for a in deal.legal_actions() if isinstance(a, tute.Declaration)}


def exchanges(deal: tute.Deal) -> set[str]:
    return {str(a) for a in deal.legal_actions() if str(a).startswith("cambio:")}


def pack(variant: str, options: Mapping[str, Any] | None = None) -> list[str]:
    var = tute.find_variant(variant)
    deck, _ = var.layout(var.resolve(options))
    return [str(c) for c in tute.ALL_CARDS if c.mask & deck]


def fill_hands(fixed: Mapping[int, Cards], n: int, size: int, deck: Sequence[str],
               exclude: Iterable[str] = (), sizes: Mapping[int, int] | None = None
               ) -> list[list[str]]:
    """Hands of ``size`` cards holding ``fixed``; the rest of ``deck`` (less ``exclude``) is
    dealt in pack order to the seats with room."""
    hands = [cards(fixed.get(s, ())) for s in range(n)]
    used = {c for h in hands for c in h} | set(cards(list(exclude)))
    want = [(sizes or {}).get(s, size) for s in range(n)]
    free = [c for c in deck if c not in used]
    for s in range(n):
        while len(hands[s]) < want[s]:
            hands[s].append(free.pop(0))
    assert not free, f"cards left over: {free}"
    return hands


def rules_cards(deal: tute.Deal) -> set[str]:
    """The legal cards by ``tute.rules.legal_mask`` from the public position."""
    seat = deal.to_move
    assert seat is not None
    o = deal.options
    trick = [c.index for _, c in deal.trick]
    partner_winning = False
    if trick and deal.variant.partnerships:
        best = deal.trick[trick_winner(trick, deal.trump, deal.order)][0]
        partner_winning = best != seat and (best - seat) % 2 == 0
    stock = deal.variant.stock and deal.stock_count > 0
    mask = legal_mask(deal.hand(seat).mask, trick, deal.trump, deal.order,
                      phase="stock" if stock else "obligated",
                      stock_phase_rule=o.stock_phase_rule, partner_winning=partner_winning,
                      partner_exemption=o.partner_exemption and deal.variant.partnerships,
                      must_undertrump=o.must_undertrump,
                      must_head_after_ruff=o.must_head_after_ruff)
    return set(tute.CardSet(mask).to_list())


def arrastre_twenty(variant: str, *, hide: bool = True, start: int = 0,
                    singer: int | None = None,
                    options: Mapping[str, Any] | None = None) -> tuple[tute.Deal, int]:
    """A Guiñote deal (and its seed) right after a 20 sung once the stock is gone: the first
    seed from ``start`` where a seeded random play of cards and passes (cantes left out till
    then) offers ``singer`` (any seat when None) a 20 in the arrastre, which it sings.
    ``hide``: the ``guinote_hide_arrastre_suit`` flag (the same play either way)."""
    opts = {**(options or {}), "guinote_hide_arrastre_suit": hide}
    for seed in itertools.count(start):
        deal = tute.Deal.new(variant, seed=seed, options=opts)
        rng = random.Random(seed)
        while not deal.is_over():
            legal = deal.legal_actions()
            twenties = [a for a in legal if isinstance(a, tute.Declaration)
                        and a.kind == "veinte"]
            if twenties and not deal.stock_count and singer in (None, deal.to_move):
                deal.apply(twenties[0])
                return deal, seed
            plays = [a for a in legal if isinstance(a, tute.Card)]
            deal.apply(rng.choice(plays) if plays else
                       tute.PASS if tute.PASS in legal else legal[0])
    raise AssertionError("unreachable")
