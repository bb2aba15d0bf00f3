"""The duty the seat to move plays under (``tute.refusals.duty``: what the page's always-shown
line says: sales, libre, asistir, montar, fallar, sobrefallar) agrees with the legal cards."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tute.cards import parse_card
from tute.match import Match
from tute.refusals import duty
from tute.variants import VARIANTS


def _check(m: Match, seen: Counter[str]) -> None:
    deal = m.deal
    legal = [str(a) for a in deal.legal_actions() if len(str(a)) == 2]
    got = duty(deal, deal.card_refusals())
    if not legal:
        assert got is None
        return
    assert got is not None
    code, params = got
    seen[code] += 1
    hand = deal.hand(deal.to_move).to_list()
    cards = [parse_card(c) for c in legal]
    if code == "lead":
        assert not deal.trick
    elif code == "free":
        assert deal.trick and sorted(legal) == sorted(hand)
    elif code in ("follow", "beat"):
        suit = params["suit"] if code == "follow" else str(params["card"])[1]
        assert all(c.suit.letter == suit for c in cards), (code, params, legal)
    else:
        assert code in ("trump", "overtrump"), code
        assert deal.trump is not None
        assert all(c.suit == deal.trump for c in cards), (code, params, legal)
        assert len(legal) < len(hand)


@pytest.mark.parametrize("vid", sorted(VARIANTS))
def test_the_duty_agrees_with_the_legal_cards(vid: str) -> None:
    rng = random.Random(5)
    seen: Counter[str] = Counter()
    for seed in range(6):
        m = Match.new(vid, seed=seed)
        while not m.is_over() and len(m.deals) < 3:
            _check(m, seen)
            legal = m.legal_actions()
            m.apply(legal[rng.randrange(len(legal))])
    assert seen["lead"] and len(seen) >= 2, seen


def test_every_duty_is_met_in_tute() -> None:
    rng = random.Random(1)
    seen: Counter[str] = Counter()
    for seed in range(30):
        m = Match.new("tute_parejas", seed=seed)
        while not m.is_over() and len(m.deals) < 2:
            _check(m, seen)
            legal = m.legal_actions()
            m.apply(legal[rng.randrange(len(legal))])
    assert set(seen) == {"lead", "free", "follow", "beat", "trump", "overtrump"}, seen
