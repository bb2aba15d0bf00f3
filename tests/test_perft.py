"""Perft-style golden counts for Tute por parejas, checked twice.

``perft(deal, k)`` is the number of legal action sequences of length ``k`` (a sequence that
ends the deal early counts once). The golden numbers were computed with the engine; every one
is also recomputed by :class:`RefDeal`, a small from-scratch model of the parejas rules written
from rules.md (§1.3 trick winner, §1.4 play obligations, §1.5 cantes, §1.6 totals) that works on
card strings and shares no code with the engine. A differential test then plays random deals
through both, and the engine's fast legality path is compared with ``tute.rules``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

import pytest

import tute
from tute import rules
from tute.cards import TUTE

# --------------------------------------------------------------------------------------------
# The reference model (rules.md, written without the engine)

RANKS = "A3RCS76542"  # §1.1 Tute rank, strongest first
SUITS = "oceb"
POINTS = {"A": 11, "3": 10, "R": 4, "C": 3, "S": 2}
DECK = [r + s for s in SUITS for r in RANKS]


def _strength(card: str) -> int:
    return -RANKS.index(card[0])


def _higher(card: str, than: str) -> bool:
    """Same suit and stronger."""
    return card[1] == than[1] and _strength(card) > _strength(than)


def winner_index(cards: Sequence[str], trump: str) -> int:
    """§1.3: the highest trump wins; with no trump, the highest card of the suit led."""
    trumps = [i for i, c in enumerate(cards) if c[1] == trump]
    pool = trumps or [i for i, c in enumerate(cards) if c[1] == cards[0][1]]
    return max(pool, key=lambda i: _strength(cards[i]))


def ref_legal(
    hand: Iterable[str],
    trick: Sequence[str],
    trump: str,
    *,
    partner_winning: bool = False,
    partner_exemption: bool = False,
    must_undertrump: bool = False,
    must_head_after_ruff: bool = False,
) -> set[str]:
    """The legal cards of §1.4 (obligated play), step by step as the rule book words it."""
    hand = set(hand)
    if not trick:  # 1. the leader plays anything
        return hand
    led = trick[0][1]
    best = trick[winner_index(trick, trump)]
    ruffed = led != trump and any(c[1] == trump for c in trick)
    exempt = partner_exemption and partner_winning
    follow = {c for c in hand if c[1] == led}
    if follow:  # 2. must follow suit, never trump instead
        if exempt:
            return follow
        if led == trump or not ruffed:  # 2a / 2b: beat the best card if possible
            return {c for c in follow if _higher(c, best)} or follow
        if must_head_after_ruff:  # 2c with the house rule: beat the highest led card
            top = max((c for c in trick if c[1] == led), key=_strength)
            return {c for c in follow if _higher(c, top)} or follow
        return follow  # 2c
    trumps = {c for c in hand if c[1] == trump}
    if not trumps or exempt:  # 4 (and the exemption's "any card")
        return hand
    if not ruffed:  # 3a
        return trumps
    over = {c for c in trumps if _higher(c, best)}  # 3b
    return over or (trumps if must_undertrump else hand)


class RefDeal:
    """Tute por parejas from the rule book: seats 0..3, sides seat % 2, mano = dealer + 1."""

    def __init__(self, hands: Sequence[Iterable[str]], trump: str, dealer: int,
                 **options: Any) -> None:
        self.hands = [set(h) for h in hands]
        self.trump = trump
        self.opts = {"partner_exemption": False, "must_undertrump": False,
                     "must_head_after_ruff": False, "cante_by": "trick_winner",
                     "forty_first": "enforce", "cante_restriction": "none"} | options
        self.leader = self.to_move = (dealer + 1) % 4
        self.trick: list[tuple[int, str]] = []
        self.points = [0, 0]
        self.cantes: list[list[int]] = [[], []]
        self.sung: set[str] = set()
        self.forty_lost: set[int] = set()
        self.window: set[int] = set()  # seats that may still declare in the open window
        self.poll = False  # the partner of the trick winner is being asked first
        # cante_restriction (§1.5): sides that have won a trick, sides that lost their cantes,
        # and the open window's side, entitled seats, first-win flag and whether it was used
        self.won: set[int] = set()
        self.forfeited: set[int] = set()
        self.window_info: tuple[int, frozenset[int], bool] | None = None
        self.window_used = False
        self.tricks = 0
        self.over = False
        self.last_side: int | None = None
        self.tute_side: int | None = None

    def copy(self) -> RefDeal:
        other = object.__new__(RefDeal)
        other.__dict__ = dict(self.__dict__)
        other.hands = [set(h) for h in self.hands]
        other.trick = list(self.trick)
        other.points = list(self.points)
        other.cantes = [list(c) for c in self.cantes]
        other.sung = set(self.sung)
        other.forty_lost = set(self.forty_lost)
        other.window = set(self.window)
        other.won = set(self.won)
        other.forfeited = set(self.forfeited)
        return other

    def declarations(self, seat: int) -> list[str]:
        """§1.5: tutes, then the 40 (alone under forty_first=enforce), then the 20s."""
        hand, t = self.hands[seat], self.trump
        out = [name for name, rank in (("tute_reyes", "R"), ("tute_caballos", "C"))
               if all(rank + s in hand for s in SUITS)]
        if t not in self.sung and seat not in self.forty_lost and {"R" + t, "C" + t} <= hand:
            out.append("cuarenta")
            if self.opts["forty_first"] == "enforce":
                return out
        out += [f"veinte:{s}" for s in SUITS
                if s != t and s not in self.sung and {"R" + s, "C" + s} <= hand]
        return out

    def legal(self) -> list[str]:
        if self.over:
            return []
        seat = self.to_move
        if self.poll:
            return [*self.declarations(seat), "pass"]
        cards = [c for _, c in self.trick]
        winning = self.trick[winner_index(cards, self.trump)][0] if cards else -1
        legal = ref_legal(
            self.hands[seat], cards, self.trump,
            partner_winning=winning >= 0 and (winning - seat) % 2 == 0,
            partner_exemption=self.opts["partner_exemption"],
            must_undertrump=self.opts["must_undertrump"],
            must_head_after_ruff=self.opts["must_head_after_ruff"],
        )
        decls = self.declarations(seat) if seat in self.window else []
        return decls + sorted(legal)

    def apply(self, action: str) -> None:
        assert action in self.legal(), action
        seat = self.to_move
        if action == "pass":
            self._spoke(seat, declared=False)
        elif action.startswith("tute_"):
            self.over, self.tute_side = True, seat % 2
        elif action.startswith(("cuarenta", "veinte")):
            if (action != "cuarenta" and self.opts["forty_first"] == "forfeit"
                    and "cuarenta" in self.declarations(seat)):
                self.forty_lost.add(seat)
            self.sung.add(self.trump if action == "cuarenta" else action[-1])
            self.cantes[seat % 2].append(40 if action == "cuarenta" else 20)
            self.window_used = True
            self._spoke(seat, declared=True)
        else:
            self._play(seat, action)

    def _spoke(self, seat: int, *, declared: bool) -> None:
        self.window.discard(seat)
        if declared and self.opts["cante_by"] == "winning_side_one":
            self.window.clear()
        if self.poll:
            self.poll, self.to_move = False, self.leader

    def _play(self, seat: int, card: str) -> None:
        if not self.trick:  # leading closes the declaration window
            self.window.clear()
            if self.window_info is not None:
                side, entitled, first = self.window_info
                if (self.opts["cante_restriction"] == "forfeit_if_skipped_first" and first
                        and not self.window_used
                        and any(self.declarations(s) for s in entitled)):
                    self.forfeited.add(side)  # skipped its first chance: no more cantes
                self.window_info = None
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        if len(self.trick) < 4:
            self.to_move = (seat + 1) % 4
            return
        cards = [c for _, c in self.trick]
        winner = self.trick[winner_index(cards, self.trump)][0]
        self.points[winner % 2] += sum(POINTS.get(c[0], 0) for c in cards)
        self.trick, self.leader, self.to_move = [], winner, winner
        self.tricks += 1
        if self.tricks == 10:
            self.over, self.last_side = True, winner % 2
            return
        side = winner % 2
        first = side not in self.won
        self.won.add(side)
        if side in self.forfeited or (
                self.opts["cante_restriction"] == "first_win_only" and not first):
            return  # no window at all
        entitled = {winner} if self.opts["cante_by"] == "trick_winner" else {winner,
                                                                            (winner + 2) % 4}
        self.window_info, self.window_used = (side, frozenset(entitled), first), False
        self.window = {winner}
        if self.opts["cante_by"] != "trick_winner":
            partner = (winner + 2) % 4
            if self.declarations(partner):
                self.window.add(partner)
                self.poll, self.to_move = True, partner

    def totals(self) -> list[int]:
        """§1.6: card points + 10 for the last trick + cantes."""
        return [self.points[s] + sum(self.cantes[s]) + (10 if self.last_side == s else 0)
                for s in range(2)]

    def winner(self) -> int:
        if self.tute_side is not None:
            return self.tute_side
        a, b = self.totals()
        assert self.last_side is not None
        return self.last_side if a == b else int(b > a)  # §2.7: a tie goes to the last trick


def ref_from_deal(deal: tute.Deal, **options: Any) -> RefDeal:
    """The reference position at the start of ``deal`` (same hands, trump and dealer)."""
    assert deal.trump_card is not None
    return RefDeal([h.to_list() for h in deal.initial_hands], str(deal.trump_card)[1],
                   deal.dealer, **options)


# --------------------------------------------------------------------------------------------
# Counting


def perft(deal: tute.Deal, depth: int) -> int:
    if depth == 0 or deal.is_over():
        return 1
    total = 0
    for action in deal.legal_actions():
        deal.apply(action)
        total += perft(deal, depth - 1)
        deal.undo()
    return total


def ref_perft(state: RefDeal, depth: int) -> int:
    if depth == 0 or state.over:
        return 1
    total = 0
    for action in state.legal():
        child = state.copy()
        child.apply(action)
        total += ref_perft(child, depth - 1)
    return total


# Golden counts for depths 1..8 (two full tricks, with the declaration window after trick 1).
# must_undertrump uses seed 16 (it first matters at depth 8: 4873 against 6385 without it);
# with seeds 1-3 it changes nothing in the first two tricks.
GOLDEN: dict[str, tuple[int, dict[str, Any], list[int]]] = {
    "seed1": (1, {}, [10, 19, 38, 56, 524, 1195, 2189, 3881]),
    "seed2": (2, {}, [10, 16, 28, 38, 342, 656, 1204, 2164]),
    "seed3": (3, {}, [10, 26, 65, 169, 1527, 2638, 4337, 12729]),
    "seed1_partner_exemption": (1, {"partner_exemption": True},
                                [10, 19, 42, 62, 578, 1273, 2493, 5257]),
    "seed16_must_undertrump": (16, {"must_undertrump": True},
                               [10, 27, 67, 86, 781, 1434, 3145, 4873]),
    "seed2_must_head_after_ruff": (2, {"must_head_after_ruff": True},
                                   [10, 16, 28, 38, 342, 656, 1204, 2128]),
}

# Seed 188, dealer 0, after two tricks: seat 3 won trick 2 holding the four knights, the
# marriages of oros and bastos, and no 40, so tute_caballos, veinte:o and veinte:b are legal.
MID_SEED = 188
MID_ACTIONS = ["4c", "5c", "Rc", "3c", "7o", "4o", "3o", "Ao"]
MID_GOLDEN: dict[str, tuple[dict[str, Any], list[int]]] = {
    "default": ({}, [11, 30, 42, 51, 184, 511, 755, 1098]),
    "winning_side_each": ({"cante_by": "winning_side_each"},
                          [11, 30, 42, 51, 148, 507, 859, 1110]),
    "forfeit_if_skipped_first": ({"cante_restriction": "forfeit_if_skipped_first"},
                                 [11, 30, 42, 51, 181, 496, 722, 1061]),
    "first_win_only": ({"cante_restriction": "first_win_only"},
                       [11, 30, 42, 51, 181, 492, 706, 1027]),
}


@pytest.mark.parametrize("name", GOLDEN)
def test_perft_first_position(name: str) -> None:
    seed, options, expected = GOLDEN[name]
    deal = tute.Deal.new("tute_parejas", seed=seed, dealer=0, options=options)
    before = deal.to_record()
    assert [perft(deal, k) for k in range(1, len(expected) + 1)] == expected
    assert deal.to_record() == before  # apply/undo left the deal as it was


@pytest.mark.parametrize("name", GOLDEN)
def test_perft_golden_matches_reference_model(name: str) -> None:
    seed, options, expected = GOLDEN[name]
    deal = tute.Deal.new("tute_parejas", seed=seed, dealer=0, options=options)
    ref = ref_from_deal(deal, **options)
    assert [ref_perft(ref, k) for k in range(1, len(expected) + 1)] == expected


def _mid_position(options: dict[str, Any]) -> tuple[tute.Deal, RefDeal]:
    deal = tute.Deal.new("tute_parejas", seed=MID_SEED, dealer=0, options=options)
    ref = ref_from_deal(deal, **options)
    for action in MID_ACTIONS:
        deal.apply(action)
        ref.apply(action)
    return deal, ref


@pytest.mark.parametrize("name", MID_GOLDEN)
def test_perft_mid_deal_with_declarations(name: str) -> None:
    options, expected = MID_GOLDEN[name]
    deal, ref = _mid_position(options)
    assert deal.to_move == 3
    assert {str(a) for a in deal.legal_actions()} >= {"tute_caballos", "veinte:o", "veinte:b"}
    assert [perft(deal, k) for k in range(1, len(expected) + 1)] == expected
    assert [ref_perft(ref, k) for k in range(1, len(expected) + 1)] == expected


def test_mid_position_hands_are_what_the_comment_says() -> None:
    deal, _ = _mid_position({})
    assert [str(h) for h in deal.hands] == [
        "So 7c 6c 2c 3e Re 5e 6b", "6o Sc 7e Ab 3b Sb 7b 5b",
        "2o Ac Ae Se 6e 2e 4b 2b", "Ro Co 5o Cc Ce 4e Rb Cb",
    ]
    assert str(deal.trump_card) == "7c"


# --------------------------------------------------------------------------------------------
# Differential play: engine against the reference model


RULE_OPTIONS: dict[str, list[Any]] = {
    "partner_exemption": [False, True],
    "must_undertrump": [False, True],
    "must_head_after_ruff": [False, True],
    "cante_by": ["trick_winner", "winning_side_one", "winning_side_each"],
    "forty_first": ["enforce", "forfeit", "off"],
    "cante_restriction": ["none", "forfeit_if_skipped_first", "first_win_only"],
}


def _random_options(rng: random.Random) -> dict[str, Any]:
    return {name: rng.choice(values) for name, values in RULE_OPTIONS.items()}


def _pick(rng: random.Random, actions: list[Any]) -> Any:
    """Random, but declarations are preferred so that cantes and tutes are exercised."""
    decls = [a for a in actions if str(a) != "pass" and not isinstance(a, tute.Card)]
    return rng.choice(decls) if decls and rng.random() < 0.6 else rng.choice(actions)


def _planted_hands(rng: random.Random) -> list[list[str]]:
    """A shuffled pack in which one seat holds the four kings or the four knights."""
    rank = rng.choice("RC")
    tute_cards = [rank + s for s in SUITS]
    rest = [c for c in DECK if c not in tute_cards]
    rng.shuffle(rest)
    seat = rng.randrange(4)
    hands = []
    for s in range(4):
        take = 6 if s == seat else 10
        hands.append((tute_cards if s == seat else []) + rest[:take])
        rest = rest[take:]
    return hands


def test_engine_agrees_with_reference_model_on_random_deals() -> None:
    rng = random.Random(20240601)
    seen: dict[str, int] = {"cuarenta": 0, "veinte": 0, "tute": 0, "pass": 0}
    for seed in range(600):
        options = _random_options(rng)
        if seed % 3:
            deal = tute.Deal.new("tute_parejas", seed=seed, dealer=seed % 4, options=options)
        else:  # explicit hands with a tute planted in one seat
            deal = tute.Deal.new("tute_parejas", dealer=seed % 4, options=options,
                                 hands=_planted_hands(rng))
        ref = ref_from_deal(deal, **options)
        while not deal.is_over():
            engine_legal = sorted(str(a) for a in deal.legal_actions())
            assert engine_legal == sorted(ref.legal()), (seed, options, deal.actions)
            action = _pick(rng, deal.legal_actions())
            deal.apply(action)
            ref.apply(str(action))
            for kind in seen:
                seen[kind] += str(action).startswith(kind)
        assert ref.over
        result = deal.result()
        assert list(result.card_points) == ref.points
        assert list(result.totals) == ref.totals()
        assert result.winner == ref.winner()
    assert min(seen.values()) >= 10, seen  # the cantes were really exercised


def test_rules_legal_mask_agrees_with_reference_on_random_tricks() -> None:
    """Synthetic states (any hand, any trick) across every option of §1.4."""
    rng = random.Random(7)
    engine_index = {c: tute.parse_card(c).index for c in DECK}
    assert len(engine_index) == 40
    for _ in range(5000):
        size = rng.randint(1, 3)
        cards = rng.sample(DECK, size + rng.randint(1, 10))
        trick, hand = cards[:size], cards[size:]
        trump = rng.choice(SUITS)
        flags = {name: rng.random() < 0.5 for name in
                 ("partner_exemption", "must_undertrump", "must_head_after_ruff")}
        # the player's partner played len(trick) - 2 positions earlier
        partner_winning = len(trick) >= 2 and winner_index(trick, trump) == len(trick) - 2
        expected = ref_legal(hand, trick, trump, partner_winning=partner_winning, **flags)
        mask = rules.legal_mask(
            sum(1 << engine_index[c] for c in hand), [engine_index[c] for c in trick],
            SUITS.index(trump), TUTE, partner_winning=partner_winning, **flags,
        )
        got = {str(c) for c in tute.CardSet(mask)}
        assert got == expected, (hand, trick, trump, flags, partner_winning)
        assert winner_index(trick, trump) == rules.trick_winner(
            [engine_index[c] for c in trick], SUITS.index(trump), TUTE)


# --------------------------------------------------------------------------------------------
# The engine's fast path against tute.rules


def test_fast_legal_path_agrees_with_rules_module() -> None:
    """``Deal._legal_cards`` (used by ``legal_actions``) against ``rules.legal_mask`` and
    ``rules.explain_plays`` on thousands of mid-trick states reached by random play."""
    rng = random.Random(99)
    checked = 0
    seed = 0
    while checked < 4000:
        seed += 1
        options = {k: rng.choice(v) for k, v in RULE_OPTIONS.items()
                   if k in ("partner_exemption", "must_undertrump", "must_head_after_ruff")}
        deal = tute.Deal.new("tute_parejas", seed=seed, dealer=rng.randrange(4), options=options)
        while not deal.is_over():
            trick = deal.trick
            cards_now = [a for a in deal.legal_actions() if isinstance(a, tute.Card)]
            if trick and cards_now:
                seat = deal.to_move
                assert seat is not None
                indices = [c.index for _, c in trick]
                leader_pos = rules.trick_winner(indices, deal.trump, TUTE)
                winning_seat = trick[leader_pos][0]
                kwargs = dict(
                    partner_winning=(winning_seat - seat) % 2 == 0,
                    partner_exemption=options["partner_exemption"],
                    must_undertrump=options["must_undertrump"],
                    must_head_after_ruff=options["must_head_after_ruff"],
                )
                hand = deal.hand(seat).mask
                expected = rules.legal_mask(hand, indices, deal.trump, TUTE, **kwargs)
                legal, why = rules.explain_plays(hand, indices, deal.trump, TUTE, **kwargs)
                assert deal._legal_cards() == expected == legal
                assert tute.CardSet(cards_now).mask == expected
                assert set(why) == {c.index for c in tute.CardSet(hand & ~legal)}
                assert all(why.values())
                for idx, reason in why.items():
                    assert deal.why_illegal(tute.Card.from_index(idx)) == reason
                checked += 1
            deal.apply(rng.choice(deal.legal_actions()))
