"""The stock search (the stock's order known) against plain minimax over the core's Deal."""

from __future__ import annotations

import random

import pytest

import tute
from tute.solver import Solver, UnsupportedPositionError, taken_margin
from tute.solver.cli_support import NotCardPlayPositionError

pytest.importorskip("numba")


def minimax_total(deal: tute.Deal, arrastre: Solver) -> int:
    """Side 0's total (taken + future; a tute whole) by brute force over every legal action
    of the core through the stock phase; the arrastre by the numba solver, whose exactness
    tests/test_solver.py checks against the same brute force."""
    if deal.is_over():
        return taken_margin(deal)
    if not deal.stock_count:
        try:
            arrastre._state(deal)
        except tute.TuteError:  # a poll still to answer: one more level by hand
            pass
        else:
            v = arrastre.value(deal)
            return v if abs(v) >= 500 else taken_margin(deal) + v
    values = []
    for act in deal.legal_actions():
        deal.apply(act)
        values.append(minimax_total(deal, arrastre))
        deal.undo()
    assert deal.to_move is not None
    return max(values) if deal.side_of(deal.to_move) == 0 else min(values)


def minimax(deal: tute.Deal, arrastre: Solver) -> int:
    total = minimax_total(deal.copy(), arrastre)
    return total if abs(total) >= 500 else total - taken_margin(deal)


def stock_position(variant: str, options: dict[str, object], seed: int,
                   stock: int) -> tute.Deal | None:
    """A random position with at most ``stock`` cards in the stock, sometimes mid-trick or at
    a poll (an exchange, a cante before the draw)."""
    rng = random.Random(seed)
    deal = tute.Deal.new(variant, seed=seed, options=options)
    while not deal.is_over() and deal.stock_count > stock:
        acts = deal.legal_actions()
        deal.apply(acts[rng.randrange(len(acts))])
    for _ in range(rng.randint(0, 2)):
        if deal.is_over() or not deal.stock_count:
            break
        acts = deal.legal_actions()
        deal.apply(acts[rng.randrange(len(acts))])
    return None if deal.is_over() else deal


CASES = [
    ("tute_2p_habanero", {}),
    ("tute_2p_habanero", {"cante_before_draw": True, "exchange_last_round_allowed": True}),
    ("tute_2p_corriente", {"exchange_timing": "own_turn_any", "forty_first": "forfeit"}),
    ("tute_2p_habanero", {"exchange_timing": "start_and_after_win", "hand_size": 6}),
    ("guinote_2p", {}),
    ("guinote", {}),
]


@pytest.fixture(scope="module")
def arrastre() -> Solver:
    return Solver(tt_mb=8, threads=1)


@pytest.mark.parametrize("stock", [0, 2, 4])
@pytest.mark.parametrize(("variant", "options"), CASES)
def test_stock_search_agrees_with_minimax(variant: str, options: dict[str, object], stock: int,
                                          arrastre: Solver) -> None:
    solver = Solver(tt_mb=8, threads=1, stock_limit=stock)
    checked = 0
    for seed in range(3 if stock == 4 else 5):
        deal = stock_position(variant, options, seed, stock)
        if deal is None:
            continue
        want = minimax(deal, arrastre)
        analysis = solver.analyze(deal)
        assert analysis.value == want, (variant, options, stock, seed)
        pick = max if deal.side_of(deal.to_move or 0) == 0 else min
        assert analysis.value == pick(v for _a, v in analysis.actions)
        for threshold in (want, want + 1):
            assert solver.reaches(deal, threshold) == (want >= threshold)
        checked += 1
    assert checked >= 2


def test_stock_limit_refuses_larger_stocks() -> None:
    deal = tute.Deal.new("tute_2p_habanero", seed=2)
    solver = Solver(tt_mb=8, threads=1, stock_limit=4)
    assert not solver.covers(deal)
    with pytest.raises(NotCardPlayPositionError, match="stock limit 4"):
        solver.value(deal)
    with pytest.raises(tute.TuteError):
        Solver(stock_limit=-1)


def test_stock_search_refuses_what_the_solver_refuses() -> None:
    deal = tute.Deal.new("tute_2p_habanero", seed=1, options={"renuncio_mode": "claim"})
    with pytest.raises(UnsupportedPositionError):
        Solver(tt_mb=8, threads=1, stock_limit=28).value(deal)


def test_the_deal_is_left_as_it_was() -> None:
    deal = stock_position("tute_2p_habanero", {}, 3, 2)
    assert deal is not None
    before = (deal.to_record(), deal.legal_actions(), deal.stock_count)
    Solver(tt_mb=8, threads=1, stock_limit=28).analyze(deal)
    assert (deal.to_record(), deal.legal_actions(), deal.stock_count) == before
