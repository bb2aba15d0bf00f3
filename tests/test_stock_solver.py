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


def _played(variant: str, seed: int) -> tute.Deal:
    from tute.bots import make_bot

    deal = tute.Deal.new(variant, seed=seed)
    bots = [make_bot("random", seed=seed + s) for s in range(deal.seats)]
    while not deal.is_over():
        seat = deal.to_move
        assert seat is not None
        view = deal.view(seat)
        deal.apply(bots[seat].choose(view, view.legal_actions))
    return deal


@pytest.mark.parametrize("variant", ["tute_2p_habanero", "guinote_2p"])
def test_analysis_measures_the_stock_phase(variant: str) -> None:
    from tute.analysis import analyze_deals

    deal = _played(variant, 5)
    start = deal.copy()
    while start.actions:
        start.undo()
    report = analyze_deals([deal], worlds=0, stock_limit=2)
    stock_of = {}
    pos = start.copy()
    for move, act in enumerate(deal.actions):
        stock_of[move] = pos.stock_count
        pos.apply(act)
    small = [d for d in report.decisions if 0 < stock_of[d.move] <= 2]
    large = [d for d in report.decisions if stock_of[d.move] > 2]
    assert small and large
    assert all(d.dd_loss is not None and d.dd_loss >= 0 for d in small)
    assert all(d.dd_loss is None for d in large)
    assert report.budget["stock_limit"] == 2
    # each measured stock decision's loss against the solver's own values of its actions
    solver = Solver(tt_mb=8, threads=1, stock_limit=2)
    for d in small[:4]:
        pos = start.copy()
        for act in deal.actions[:d.move]:
            pos.apply(act)
        analysis = solver.analyze(pos)
        values = dict(analysis.actions)
        sign = 1 if d.side == 0 else -1
        assert d.dd_loss == sign * (analysis.value - values[d.played])


def test_pimc_solves_worlds_with_a_small_stock() -> None:
    import math

    from tute.bots import make_bot
    from tute.bots.pimc import _Evaluator, _solver_covers

    deal = stock_position("tute_2p_habanero", {}, 4, 2)
    assert deal is not None and deal.stock_count
    seat = deal.to_move
    assert seat is not None
    solver = Solver(tt_mb=8, threads=1, stock_limit=2)
    assert _solver_covers(solver, deal)
    assert not _solver_covers(Solver(tt_mb=8, threads=1), deal)  # stock_solve=0: rollouts
    legal = deal.legal_actions()
    values = _Evaluator(random.Random(0), solver).values(deal.copy(), seat, legal, math.inf)
    analysis = Solver(tt_mb=8, threads=1, stock_limit=2).analyze(deal)
    sign = 1 if deal.side_of(seat) == 0 else -1
    for act, value, (name, future) in zip(legal, values, analysis.actions, strict=True):
        assert str(act) == name
        child = deal.copy()
        child.apply(act)
        tute_now = child.is_over() and child.result().reason == "tute"
        assert value == sign * (future if tute_now else taken_margin(deal) + future)
    bot = make_bot("pimc:stock_solve=2:move_time=0.2:worlds=3", seed=1)
    view = deal.view(seat)
    assert bot.choose(view, view.legal_actions) in view.legal_actions
    with pytest.raises(tute.TuteError, match="stock_solve"):
        make_bot("pimc:stock_solve=29")
