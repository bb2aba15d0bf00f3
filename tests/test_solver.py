"""The exact solver against plain exhaustive minimax over the core (Deal copy/apply/undo)."""

from __future__ import annotations

import json
import math
import random

import numpy as np
import pytest

import tute
from tute import kernel as K
from tute.kernel import _tables as T
from tute.rules import marriage_mask
from tute.solver import TUTE_VALUE, Solver, SolverError, UnsupportedPositionError, taken_margin
from tute.solver._search import ST_NEAR, _canon
from tute.solver.cli_support import (
    NotCardPlayPositionError,
    SolveInputError,
    format_analysis,
    parse_seeds,
    solve_record,
    solve_seeds,
    summarize,
)

pytest.importorskip("numba")


def minimax(deal: tute.Deal) -> int:
    """Side 0's best future margin by brute force over every legal action of the core."""
    if deal.is_over():
        return 0
    base = taken_margin(deal)
    values = []
    for act in deal.legal_actions():
        deal.apply(act)
        if deal.is_over() and deal.result().reason == "tute":
            values.append(taken_margin(deal))
        else:
            values.append(taken_margin(deal) - base + minimax(deal))
        deal.undo()
    return max(values) if deal.side_of(deal.to_move) == 0 else min(values)


def margin_3p(deal: tute.Deal, hero: int) -> int:
    """Arrastrado, straight from the core: ``hero``'s points minus everybody else's combined
    (card points, cantes, the 10 of the last trick once over); a tute is +-TUTE_VALUE."""
    sign = [1 if s == hero else -1 for s in range(deal.seats)]
    if deal.is_over():
        res = deal.result()
        if res.reason == "tute":
            return TUTE_VALUE * sign[res.winner]
        return sum(g * t for g, t in zip(sign, res.totals, strict=True))
    return (sum(g * p for g, p in zip(sign, deal.card_points, strict=True))
            + sum(sign[seat] * p for seat, _d, p in deal.cantes))


def minimax_3p(deal: tute.Deal, hero: int) -> int:
    """``hero``'s best future margin against the other players combined, by brute force over
    every legal action of the core (``hero`` maximises, every other seat minimises)."""
    if deal.is_over():
        return 0
    base = margin_3p(deal, hero)
    values = []
    for act in deal.legal_actions():
        deal.apply(act)
        if deal.is_over() and deal.result().reason == "tute":
            values.append(margin_3p(deal, hero))
        else:
            values.append(margin_3p(deal, hero) - base + minimax_3p(deal, hero))
        deal.undo()
    return max(values) if deal.to_move == hero else min(values)


def pruned_minimax(deal: tute.Deal, hero: int | None = None, alpha: float = -math.inf,
                   beta: float = math.inf) -> float:
    """The same recursion as :func:`minimax` (``hero`` None) or :func:`minimax_3p` with
    alpha-beta cut-offs (fail-soft; a child searched in the window shifted by its margin):
    exact with the full window, in a small fraction of the nodes. Checked against the plain
    references in test_agrees_with_exhaustive_minimax and
    test_arrastrado_agrees_with_exhaustive_minimax, and used where those are too slow."""
    if deal.is_over():
        return 0
    def margin(d: tute.Deal) -> int:
        return taken_margin(d) if hero is None else margin_3p(d, hero)
    base = margin(deal)
    top = deal.side_of(deal.to_move) == 0 if hero is None else deal.to_move == hero
    best = -math.inf if top else math.inf
    for act in deal.legal_actions():
        deal.apply(act)
        if deal.is_over() and deal.result().reason == "tute":
            value = float(margin(deal))
        else:
            step = margin(deal) - base
            value = step + pruned_minimax(deal, hero, alpha - step, beta - step)
        deal.undo()
        if top:
            best = max(best, value)
            alpha = max(alpha, value)
        else:
            best = min(best, value)
            beta = min(beta, value)
        if alpha >= beta:
            break
    return best


def minimax_wins(deal: tute.Deal, side: int) -> bool:
    """Does ``side`` win the deal (the core's own result) with perfect play?"""
    if deal.is_over():
        return deal.result().winner == side
    outcomes = []
    for act in deal.legal_actions():
        deal.apply(act)
        outcomes.append(minimax_wins(deal, side))
        deal.undo()
    mine = deal.side_of(deal.to_move) == side
    return any(outcomes) if mine else all(outcomes)


OPTION_SETS: dict[str, list[dict[str, object]]] = {
    "tute_parejas": [
        {}, {"cante_by": "winning_side_each"},
        {"cante_by": "winning_side_one", "forty_first": "forfeit"},
        {"cante_restriction": "forfeit_if_skipped_first", "forty_first": "off"},
        {"cante_restriction": "first_win_only", "must_undertrump": True,
         "must_head_after_ruff": True, "tie_break": "mano_side"},
        {"partner_exemption": True, "tie_break": "replay"},
    ],
    "guinote": [{}, {"cante_by": "winning_side_one", "forty_first": "off"}],
    "tute_2p_habanero": [{}, {"forty_first": "off"}],
    "tute_2p_corriente": [{}, {"forty_first": "forfeit"}],
    "guinote_2p": [{}, {"must_undertrump": True}],
    "tute_arrastrado_3p": [
        {}, {"forty_first": "forfeit", "must_undertrump": True},
        {"cante_restriction": "forfeit_if_skipped_first", "must_head_after_ruff": True},
        {"cante_restriction": "first_win_only", "forty_first": "off"},
        {"players": 4},
    ],
}


def endgame(variant: str, options: dict[str, object], seed: int) -> tute.Deal | None:
    """A random position with at most 3 (four seats) or 4 (two seats) tricks to go,
    sometimes mid-trick or inside a declaration window."""
    rng = random.Random(seed)
    deal = tute.Deal.new(variant, seed=seed, options=options)
    left = rng.randint(1, 3 if deal.seats >= 3 else 4)
    keep = seed % 3 != 0  # mostly keep kings and their mates for the endgame's cantes
    partner_pos = 5 if deal.order is tute.GUINOTE else 6
    while not deal.is_over() and (
        deal.total_tricks - len(deal.tricks) > left or deal.in_stock_phase
        or deal._pile.pending or (deal._phase == 1 and deal._queue[0][1] != "cante")
    ):
        acts = deal.legal_actions()
        if keep:
            quiet = [a for a in acts if isinstance(a, tute.Card)
                     and a.rank not in (7, partner_pos)] or [
                a for a in acts if not isinstance(a, tute.Declaration)] or acts
            acts = quiet
        deal.apply(acts[rng.randrange(len(acts))])
    for _ in range(rng.randint(0, 3)):
        if deal.is_over():
            break
        acts = deal.legal_actions()
        deal.apply(acts[rng.randrange(len(acts))])
    return None if deal.is_over() else deal


CASES = [(v, i, s) for v, opts in OPTION_SETS.items() if v != "tute_arrastrado_3p"
         for i in range(len(opts)) for s in range(34 if v == "tute_parejas" else 26)]


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver(tt_mb=8)


def test_agrees_with_exhaustive_minimax(solver: Solver) -> None:
    checked = with_cantes = 0
    for variant, i, seed in CASES:
        deal = endgame(variant, OPTION_SETS[variant][i], seed)
        if deal is None:
            continue
        analysis = solver.analyze(deal)
        want = minimax(deal.copy())
        assert analysis.value == want, (variant, OPTION_SETS[variant][i], seed)
        assert pruned_minimax(deal.copy()) == want, (variant, OPTION_SETS[variant][i], seed)
        pick = max if deal.side_of(deal.to_move) == 0 else min
        assert analysis.value == pick(v for _a, v in analysis.actions)
        checked += 1
        with_cantes += any(h for h in _marriages_out(deal))
    assert checked >= 300, checked
    assert with_cantes >= 50, with_cantes


def _declaration_ahead(deal: tute.Deal) -> bool:
    """Can some line of play reach a declaration?"""
    if deal.is_over():
        return False
    for act in deal.legal_actions():
        if isinstance(act, tute.Declaration):
            return True
        deal.apply(act)
        found = _declaration_ahead(deal)
        deal.undo()
        if found:
            return True
    return False


def _cante_endgame(options: dict[str, object], seed: int,
                   need_declaration: bool = True) -> tute.Deal | None:
    """An arrastrado position 3 tricks from the end reached keeping kings and their mates
    (or one action later), kept only when a declaration can still come."""
    rng = random.Random(seed)
    deal = tute.Deal.new("tute_arrastrado_3p", seed=seed, options=options)
    while not deal.is_over() and (deal.total_tricks - len(deal.tricks) > 3 or (
            deal._phase == 1 and deal._queue[0][1] != "cante")):
        acts = deal.legal_actions()
        quiet = [a for a in acts if isinstance(a, tute.Card) and a.rank not in (7, 6)] or [
            a for a in acts if not isinstance(a, tute.Declaration)] or acts
        deal.apply(quiet[rng.randrange(len(quiet))])
    if not deal.is_over() and rng.random() < 0.5:
        acts = deal.legal_actions()
        deal.apply(acts[rng.randrange(len(acts))])
    if deal.is_over() or (need_declaration and not _declaration_ahead(deal.copy())):
        return None
    return deal


def _arrastrado_positions() -> list[tuple[dict[str, object], int, tute.Deal]]:
    opts = OPTION_SETS["tute_arrastrado_3p"]
    out = []
    for i, options in enumerate(opts):
        for seed in range(40 if i < len(opts) - 1 else 16):
            deal = endgame("tute_arrastrado_3p", options, seed)
            if deal is not None:
                out.append((options, seed, deal))
        for seed in range(1000, 1120 if i < len(opts) - 1 else 1040):
            deal = _cante_endgame(options, seed)
            if deal is not None:
                out.append((options, seed, deal))
    return out


def test_arrastrado_agrees_with_exhaustive_minimax(solver: Solver) -> None:
    """Three (and four) players: the hero -- the player to move, or another seat -- against the
    others combined, up to 3 tricks from the end, cantes included."""
    checked = with_cantes = other_hero = 0
    for options, seed, deal in _arrastrado_positions():
        assert deal.to_move is not None
        hero = deal.to_move if seed % 4 else (deal.to_move + 1) % deal.seats
        analysis = solver.analyze(deal, hero=hero)
        want = minimax_3p(deal.copy(), hero)
        assert analysis.value == want, (options, seed, hero)
        assert pruned_minimax(deal.copy(), hero) == want, (options, seed, hero)
        assert analysis.hero == hero
        pick = max if deal.to_move == hero else min
        assert analysis.value == pick(v for _a, v in analysis.actions), (options, seed)
        if hero == deal.to_move:
            assert solver.value(deal) == want  # the mover is the default hero
        else:
            other_hero += 1
        checked += 1
        with_cantes += _declaration_ahead(deal.copy())
    assert checked >= 200, checked
    assert with_cantes >= 40, with_cantes
    assert other_hero >= 20, other_hero


def _kernel_final(st: np.ndarray, cfg: np.ndarray) -> int:
    """Exhaustive minimax over the kernel's own actions (the kernel is checked against the
    core by tests/test_kernel.py): the final margin, objective side 0 maximising."""
    if st[T.S_OVER]:
        return int(K.final_margin(st, cfg))
    values = []
    for a in K.legal_action_codes(st, cfg):
        child = st.copy()
        K.apply_action(child, cfg, a)
        values.append(_kernel_final(child, cfg))
    return max(values) if cfg[T.C_OBJ0 + st[T.S_TOMOVE]] == 0 else min(values)


@pytest.mark.parametrize("restriction", ["first_win_only", "forfeit_if_skipped_first"])
def test_arrastrado_first_wins_are_per_player(solver: Solver, restriction: str) -> None:
    """Cante restrictions go by each player's own first win, not the coalition's: endgames
    where a player holding a marriage is made (in the kernel state) never to have won yet."""
    checked = 0
    for seed in range(1000, 1400):
        deal = _cante_endgame({"cante_restriction": restriction}, seed, need_declaration=False)
        if deal is None or deal._trick or deal._window:
            continue
        cfg, st = K.from_deal(deal)
        for seat in range(3):
            if not any(deal.hands[seat].mask & marriage_mask(x, deal.order)
                       == marriage_mask(x, deal.order) for x in range(4)):
                continue
            s2 = st.copy()
            s2[T.S_SIDEFIRST] &= ~(1 << seat)
            s2[T.S_SIDETRICKS0 + seat] = 0
            s2[T.S_FORFEIT] &= ~(1 << seat)
            taken = sum((1 if cfg[T.C_OBJ0 + s] == 0 else -1)
                        * int(s2[T.S_PTS0 + s] + s2[T.S_CANTE0 + s]) for s in range(3))
            solver.reset()
            got = solver._run_value(cfg, s2, 0)
            assert got + taken == _kernel_final(s2, cfg), (restriction, seed, seat)
            checked += 1
    assert checked >= 10, checked


def test_arrastrado_refusals(solver: Solver) -> None:
    deal = endgame("tute_arrastrado_3p", {}, 1)
    assert deal is not None
    with pytest.raises(UnsupportedPositionError):
        solver.wins(deal, 0)
    with pytest.raises(SolverError):
        solver.value(deal, hero=3)
    for variant in ("tute_cabron", "tute_subastado"):
        other = _first_card_play(variant)
        with pytest.raises(UnsupportedPositionError, match=variant):
            solver.value(other)


def _first_card_play(variant: str) -> tute.Deal:
    """A seeded deal of ``variant`` played (first legal action) up to its first card."""
    for seed in range(50):
        deal = tute.Deal.new(variant, seed=seed)
        while not deal.is_over() and not any(isinstance(a, tute.Card)
                                             for a in deal.legal_actions()):
            acts = deal.legal_actions()  # bid rather than pass: someone must play
            deal.apply(acts[1] if str(acts[0]) == "pass" and len(acts) > 1 else acts[0])
        if not deal.is_over():
            return deal
    raise AssertionError(f"no {variant} deal reached its card play")


def _marriages_out(deal: tute.Deal) -> list[bool]:
    return [any(h.mask & marriage_mask(s, deal.order) == marriage_mask(s, deal.order)
                for h in deal.hands) for s in range(4)]


def test_wins_agrees_with_core_result(solver: Solver) -> None:
    checked = 0
    for i, options in enumerate(OPTION_SETS["tute_parejas"]):
        for seed in range(12):
            deal = endgame("tute_parejas", options, 1000 + 17 * i + seed)
            if deal is None:
                continue
            for side in (0, 1):
                assert solver.wins(deal, side) == minimax_wins(deal.copy(), side), (
                    options, seed, side)
            checked += 1
    assert checked >= 40


def test_last_two_trick_table_under_collisions(monkeypatch: pytest.MonkeyPatch) -> None:
    """The small table of last-two-trick bounds, shrunk to four rows so that positions keep
    evicting each other, and shared by value() and wins() (other scales) of one solver."""
    import tute.solver as solver_module

    monkeypatch.setattr(solver_module, "T2_MAX", 4)
    small = Solver(tt_mb=1, threads=1)
    assert small.tt.shape[0] == (1 << 15) + 4
    checked = 0
    for variant in ("tute_parejas", "tute_2p_habanero"):
        for seed in range(12):
            deal = endgame(variant, OPTION_SETS[variant][0], 500 + seed)
            if deal is None:
                continue
            assert small.value(deal) == minimax(deal.copy()), (variant, seed)
            won = [small.wins(deal, side) for side in (0, 1)]
            if variant == "tute_parejas":
                assert won == [minimax_wins(deal.copy(), side) for side in (0, 1)], seed
            else:  # the stock games' deals score to a target: the last trick breaks a tie
                assert won[0] != won[1], (variant, seed)
            checked += 1
    assert checked >= 12


@pytest.mark.parametrize("tt_mb", [1, 3, 16])
def test_table_buckets_start_on_cache_lines(tt_mb: int) -> None:
    """Each bucket of two 32-byte rows is one 64-byte line: the table starts on a line
    boundary (numpy's own arrays start 16 bytes past one), zeroed, and is the search's
    C-contiguous int64 array."""
    solver = Solver(tt_mb=tt_mb, threads=1)
    assert solver.tt.ctypes.data % 64 == 0
    assert solver.tt.flags.c_contiguous and solver.tt.dtype == np.int64
    assert solver.tt.shape[1] == 4 and not solver.tt.any()
    deal = _after(2, 16)
    assert solver.value(deal) == GOLDEN_16[2]


# golden values: side 0's optimal margin after the first 16 actions (first legal each time)
GOLDEN_16 = {1: 3, 2: -22, 3: -62, 4: 20, 5: -42}
# and from the first lead (seeds 0..39; solved by every version of the search since the
# first, one thread and two, any table size: a regression here is a wrong value)
GOLDEN_FULL = {
    0: -84, 1: 60, 2: -108, 3: -8, 4: -18, 5: -8, 6: 20, 7: 88,
    8: -2, 9: 34, 10: 40, 11: -22, 12: -48, 13: -2, 14: -42, 15: -12,
    16: -130, 17: 88, 18: -24, 19: 74, 20: 116, 21: -94, 22: -16, 23: -52,
    24: 4, 25: 16, 26: 150, 27: -4, 28: 4, 29: 10, 30: 62, 31: -114,
    32: 24, 33: -150, 34: -36, 35: 102, 36: 38, 37: 14, 38: -84, 39: 8,
}


def _after(seed: int, k: int) -> tute.Deal:
    deal = tute.Deal.new("tute_parejas", seed=seed)
    for _ in range(k):
        deal.apply(deal.legal_actions()[0])
    return deal


@pytest.mark.parametrize("seed", sorted(GOLDEN_16))
def test_golden_midgame(solver: Solver, seed: int) -> None:
    assert solver.value(_after(seed, 16)) == GOLDEN_16[seed]


def test_golden_full_deals() -> None:
    solver = Solver(tt_mb=64)
    got = {}
    for seed in sorted(GOLDEN_FULL):
        solver.reset()
        got[seed] = solver.value(_after(seed, 0))
    assert got == GOLDEN_FULL


def _tute_deal() -> tute.Deal:
    hands = [["Ro", "Rc", "Re", "Rb", "Ab"], ["2o", "4o", "5o", "6o", "7o"],
             ["2c", "4c", "5c", "6c", "7c"], ["2e", "4e", "5e", "6e", "7e"]]
    # deal the rest so that every hand has 10 cards
    rest = [c for c in (f"{r}{s}" for s in "oceb" for r in "24567SCR3A")
            if not any(c in h for h in hands)]
    full = [h + rest[5 * i:5 * i + 5] for i, h in enumerate(hands)]
    return tute.Deal.new("tute_parejas", dealer=3, hands=full, trump="b")


def test_tute_is_worth_tute_value(solver: Solver) -> None:
    deal = _tute_deal()
    # seat 0 leads the ace of trumps, wins the trick and sings the tute
    assert solver.value(deal) == TUTE_VALUE
    assert solver.wins(deal, 0) and not solver.wins(deal, 1)


def test_value_does_not_depend_on_the_guess(solver: Solver) -> None:
    for seed in (1, 2, 3):
        deal = _after(seed, 16)
        for guess in (-400, -31, 0, 7, 250):
            solver.reset()
            assert solver.value(deal, guess=guess) == GOLDEN_16[seed], (seed, guess)
    # +-1000 breaks the parity of point margins that the probes rely on
    for guess in (-1000, -3, 0, 5, 999, 1001, 4000):
        solver.reset()
        assert solver.value(_tute_deal(), guess=guess) == TUTE_VALUE, guess


@pytest.mark.parametrize("pool", [False, True])
def test_threads_agree_with_one_thread(pool: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Probes searched by two threads over one table (the helper aborted whenever the other
    finishes first) give the single-threaded values and win answers: in numba's thread pool
    (where a thread-safe layer is available) and in the Python one (the fallback)."""
    import tute.solver as solver_module

    if pool:
        monkeypatch.setattr(solver_module, "_numba_threads", lambda: False)
    one, two = Solver(tt_mb=8, threads=1), Solver(tt_mb=8, threads=2)
    rng = random.Random(11)
    for seed in range(10):
        deal = tute.Deal.new("tute_parejas", seed=seed)
        while not deal.is_over() and len(deal.hand(deal.to_move)) > 7 - seed % 2:
            acts = deal.legal_actions()
            deal.apply(acts[rng.randrange(len(acts))])
        assert two.value(deal) == one.value(deal), seed
        assert two.wins(deal, 0) == one.wins(deal, 0), seed
        assert two.wins(deal, 1) == one.wins(deal, 1), seed
    # the helper thread did search (positions of >= 24 cards go to both threads)
    assert int(two._work[1][0][0]) > 0


def test_parallel_search_values_are_good_unless_void() -> None:
    """numba's parallel window search: every search that did not see the stop flag returns a
    good fail-soft value (with a full window: the exact value), and at least one did not."""
    from tute.solver import _numba_threads
    from tute.solver import _search as S

    if not _numba_threads():
        pytest.skip("no thread-safe numba threading layer here: the Python pool is used")
    one = Solver(tt_mb=8, threads=1)
    for seed in range(6):
        deal = _after(seed, 12)
        exact = one.value(deal)
        for threads in (2, 3):
            solver = Solver(tt_mb=8, threads=threads)
            cfg, st = K.from_deal(deal)
            solver._stats[:, S.ST_ABORT] = 0
            solver._stats[:, S.ST_VOID] = 0
            S.root_search_threads(st, cfg, solver._stats, solver.tt, solver._scratch,
                                  -S.INF, S.INF, solver._out)
            good = [int(solver._out[t]) for t in range(threads)
                    if solver._stats[t, S.ST_VOID] == 0]
            assert good and all(v == exact for v in good), (seed, threads, good, exact)


def test_solvers_in_several_python_threads_at_once() -> None:
    """Solvers of two threads each, used from several Python threads at the same time (a
    server's games): numba's thread pool takes concurrent launches, values stay exact."""
    import threading

    deals = [_after(seed, 12) for seed in range(6)]
    one = Solver(tt_mb=8, threads=1)
    want = [one.value(d) for d in deals]
    got: dict[int, list[int]] = {}

    def work(k: int) -> None:
        solver = Solver(tt_mb=8, threads=2)
        got[k] = [solver.value(d) for d in deals for _ in range(2)][::2]

    workers = [threading.Thread(target=work, args=(k,)) for k in range(3)]
    for t in workers:
        t.start()
    for t in workers:
        t.join()
    assert got == {k: want for k in range(3)}


@pytest.mark.parametrize("threads", [0, 9, True, "2"])
def test_bad_thread_count(threads: object) -> None:
    with pytest.raises(SolverError, match="invalid threads"):
        Solver(tt_mb=1, threads=threads)  # type: ignore[arg-type]


def _near_pair(deal: tute.Deal) -> bool:
    """Some hand holds two cards of one suit, one of them counting, neither a king or mate
    that a cante may still need, with no card of another hand or of the trick between them
    (near-equivalent)."""
    fam = 1 if deal.order is tute.GUINOTE else 0
    mate = int(T.MARRIAGE_POS[fam])
    hands = [h.mask for h in deal.hands]
    live = 0
    for h in hands:
        live |= h
    for _seat, card in deal.trick:
        live |= card.mask
    for h in hands:
        need = 0  # kings and mates of a marriage in hand, or of a tute in hand
        for s in range(4):
            pair = 1 << (10 * s + 7) | 1 << (10 * s + mate)
            if h & pair == pair:
                need |= pair
        for rank in (7, mate):
            four = sum(1 << (10 * s + rank) for s in range(4))
            if h & four == four:
                need |= four
        cards = [c for c in range(40) if h >> c & 1 and not need >> c & 1]
        for x in cards:
            for y in cards:
                if x // 10 != y // 10 or not T.HIGHER[fam, x] >> y & 1:
                    continue  # y above x in one suit
                if T.POINTS[fam, x % 10] == T.POINTS[fam, y % 10]:
                    continue
                between = int(T.HIGHER[fam, x]) & ~int(T.HIGHER[fam, y]) & ~(1 << y)
                if not between & live & ~h:
                    return True
    return False


def _arrastre_endgame(variant: str, seed: int, left: int) -> tute.Deal:
    """Random play of a seeded deal until ``left`` tricks of card play remain."""
    rng = random.Random(seed)
    deal = tute.Deal.new(variant, seed=seed)
    while not deal.is_over() and (
        deal.total_tricks - len(deal.tricks) > left or deal.in_stock_phase
        or deal._pile.pending or (deal._phase == 1 and deal._queue[0][1] != "cante")
    ):
        acts = deal.legal_actions()
        deal.apply(acts[rng.randrange(len(acts))])
    return deal


#: the minimax references are pure Python and slow (even pruned): the default suite checks the
#: first half of each sample, ``-m slow`` the second half too
HALVES = [0, pytest.param(1, marks=pytest.mark.slow)]


@pytest.mark.parametrize("half", HALVES)
@pytest.mark.parametrize("variant", ["tute_parejas", "guinote"])
def test_near_equivalent_cards_agree_with_minimax(variant: str, half: int) -> None:
    """With four cards or more in hand the search skips a card that differs from one searched
    before only in points (same hand and suit, no live card between them) once that one's
    value shows the difference cannot reach the window. Four-trick endgames holding such
    pairs agree with exhaustive minimax, and the skip does happen (in positions where a cante
    may still come: four tricks from the end without one, a plainer search takes over)."""
    solver = Solver(tt_mb=8, threads=1)
    found = checked = skipped = 0
    for seed in range(3000):
        deal = _arrastre_endgame(variant, seed, 4)
        if deal.is_over() or not _near_pair(deal) or not any(_marriages_out(deal)):
            continue
        found += 1
        if found <= 10 * half:
            continue
        before = int(solver.stats[ST_NEAR])
        value = solver.value(deal)
        skipped += int(solver.stats[ST_NEAR]) - before
        assert value == pruned_minimax(deal.copy()), (variant, seed)
        checked += 1
        if checked == 10:
            break
    assert checked == 10
    assert skipped > 0


def test_killer_moves_cut_nodes_not_values() -> None:
    """Killer moves (the card that refuted a node after the ordering's first choice failed,
    one per hand size, trick length and leader or suit led; the same in the plain unrolled
    search of quiet endgames) are searched next in its siblings: full parejas deals keep
    their values with the killers off, and take fewer nodes with them; each query starts
    with none."""
    from tute.solver import _search as S

    on = Solver(tt_mb=16, threads=1)
    plain_off = Solver(tt_mb=16, threads=1)
    off = Solver(tt_mb=16, threads=1)
    nodes_on = nodes_plain_off = nodes_off = 0
    for seed in range(8):
        deal = tute.Deal.new("tute_parejas", seed=seed)
        off._stats[:, S.ST_KMIN] = 99  # no hand holds 99 cards: killers never used
        off._stats[:, S.ST_PKILL] = 0
        plain_off._stats[:, S.ST_PKILL] = 0
        value = on.value(deal)
        nodes_on += on.nodes
        assert np.any(on._stats[:, S.KILLERS:S.PKILLERS] != 0)  # some refutations remembered
        assert np.any(on._stats[:, S.PKILLERS:] != 0)
        assert off.value(deal) == value, seed
        assert plain_off.value(deal) == value, seed
        nodes_off += off.nodes
        nodes_plain_off += plain_off.nodes
        assert not np.any(off._stats[:, S.KILLERS:S.PKILLERS] != 0)
        for solver in (on, plain_off, off):
            solver.reset()
    assert nodes_on < 0.95 * nodes_plain_off, (nodes_on, nodes_plain_off)
    assert nodes_on < 0.8 * nodes_off, (nodes_on, nodes_off)
    deal = tute.Deal.new("tute_parejas", seed=0)
    on.reaches(deal, 0)  # a query clears the killers the last one left
    first = on.nodes
    on.reset()
    on.value(tute.Deal.new("tute_parejas", seed=1))
    on.reset()
    on.reaches(deal, 0)
    assert on.nodes == first


FOUR_SEATS = [("tute_parejas", o) for o in OPTION_SETS["tute_parejas"]] + [
    ("guinote", o) for o in OPTION_SETS["guinote"]] + [("tute_arrastrado_3p", {"players": 4})]


@pytest.mark.parametrize(("variant", "options"), FOUR_SEATS)
def test_unrolled_endgames_match_the_recursive_search(variant: str,
                                                      options: dict[str, object]) -> None:
    """The four-seat last-two and last-three-trick searches are unrolled (one loop per seat):
    on random trick starts and windows they give the recursive search's fail-soft value
    (without the killer moves, which change the order: with them the same bound or value,
    the killers left by the searches before)."""
    from tute.solver import _search as S

    solver = Solver(tt_mb=1, threads=1)
    killers = Solver(tt_mb=1, threads=1)
    solver.stats[S.ST_PKILL] = 0
    z, m1 = np.int64(0), np.int64(-1)
    checked = 0
    for seed in range(60):
        for left in (2, 3):
            deal = _arrastre_endgame_with(variant, options, seed, left)
            if deal.is_over():
                continue
            cfg, st = K.from_deal(deal)
            if st[T.S_TLEN] != 0:
                continue
            h = st[T.S_H0:T.S_H0 + 4].copy()
            leader = int(st[T.S_LEADER])
            rng = random.Random(seed * 7 + left)
            for _ in range(6):
                a = rng.randint(-60, 60)
                b = a + rng.choice((1, 2, 3, 10, 200))
                solver.reset()
                if left == 3:
                    want = S._three_tricks(h, cfg, 4, leader, solver.tt, solver.stats, z, m1,
                                           m1, m1, z, m1, z, z, a, b)
                    solver.reset()
                    got, _lead = S._plain4(h, cfg, leader, solver.tt, solver.stats, a, b,
                                           -1, 0, 3)
                    killers.reset()
                    kv, _lead = S._plain4(h, cfg, leader, killers.tt, killers.stats, a, b,
                                          -1, 0, 3)
                    assert (kv <= a if want <= a else kv >= b if want >= b else kv == want)
                else:
                    want = S._two_tricks(h, cfg, 4, leader, z, z, m1, m1, z, m1, z, a, b)
                    got = S._two4(h, cfg, leader, a, b)
                assert got == want, (variant, options, seed, left, a, b)
                assert list(h) == list(st[T.S_H0:T.S_H0 + 4])  # hands restored
                checked += 1
    assert checked >= 300, checked


@pytest.mark.parametrize(("variant", "options"), FOUR_SEATS)
def test_quiet_five_trick_endgames_match_the_full_search(variant: str,
                                                         options: dict[str, object]) -> None:
    """Four seats, five tricks to go and no marriage in any hand: the plain unrolled search
    (with its killer moves) from there gives the values of the full search (lookahead
    ordering, quick bounds, near-equivalences) that took those positions before, at the
    trick start and one or two cards into it; every action's value too."""
    from tute.solver import _search as S

    plain = Solver(tt_mb=8, threads=1)
    full = Solver(tt_mb=8, threads=1)
    assert plain.stats[S.ST_QMAX] == 5
    full._stats[:, S.ST_QMAX] = 4
    checked = 0
    for seed in range(400):
        deal = _arrastre_endgame_with(variant, options, seed, 5)
        if deal.is_over() or any(_marriages_out(deal)):
            continue
        rng = random.Random(seed)
        for _ in range(rng.choice((0, 0, 1, 2))):
            acts = deal.legal_actions()
            deal.apply(acts[rng.randrange(len(acts))])
        hero = deal.to_move if variant == "tute_arrastrado_3p" else None
        want = full.analyze(deal, hero=hero)
        got = plain.analyze(deal, hero=hero)
        assert (got.value, got.actions) == (want.value, want.actions), (variant, options, seed)
        checked += 1
        if checked == 12:
            break
    assert checked == 12


@pytest.mark.parametrize("half", HALVES)
@pytest.mark.parametrize(("variant", "options"), FOUR_SEATS)
def test_quiet_four_trick_endgames_agree_with_minimax(variant: str, options: dict[str, object],
                                                      half: int) -> None:
    """Four seats, four tricks to go and no marriage in any hand: the plain unrolled search of
    the first trick (the table's lead first) over the table and the three-trick search.
    Positions at the trick start and one or two cards into it; every action's value too."""
    solver = Solver(tt_mb=8, threads=1)
    found = checked = 0
    for seed in range(400):
        deal = _arrastre_endgame_with(variant, options, seed, 4)
        if deal.is_over() or any(_marriages_out(deal)):
            continue
        found += 1
        if found <= 6 * half:
            continue
        rng = random.Random(seed)
        for _ in range(rng.choice((0, 0, 1, 2))):
            acts = deal.legal_actions()
            deal.apply(acts[rng.randrange(len(acts))])
        if deal.seats == 4 and variant == "tute_arrastrado_3p":
            hero = deal.to_move
            assert hero is not None
            analysis = solver.analyze(deal, hero=hero)
            assert analysis.value == pruned_minimax(deal.copy(), hero), (options, seed)
        else:
            analysis = solver.analyze(deal)
            assert analysis.value == pruned_minimax(deal.copy()), (variant, options, seed)
        checked += 1
        if checked == 6:
            break
    assert checked == 6


def _arrastre_endgame_with(variant: str, options: dict[str, object], seed: int,
                           left: int) -> tute.Deal:
    rng = random.Random(seed)
    deal = tute.Deal.new(variant, seed=seed, options=options)
    while not deal.is_over() and (
        deal.total_tricks - len(deal.tricks) > left or deal.in_stock_phase
        or deal._pile.pending or deal._phase == 1
    ):
        acts = deal.legal_actions()
        deal.apply(acts[rng.randrange(len(acts))])
    return deal


DEEP_ENDGAMES = ([("tute_parejas", 5, s) for s in range(3)] + [("guinote", 5, s) for s in (0, 2)]
                 + [("tute_2p_corriente", 6, s) for s in range(3)]
                 + [("tute_2p_habanero", 5, s) for s in range(2)])


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "left", "seed"), DEEP_ENDGAMES)
def test_deep_endgames_agree_with_minimax(variant: str, left: int, seed: int) -> None:
    deal = _arrastre_endgame(variant, seed, left)
    assert not deal.is_over()
    assert Solver(tt_mb=8).value(deal) == minimax(deal.copy())


def test_stock_phase_is_refused(solver: Solver) -> None:
    deal = tute.Deal.new("tute_2p_habanero", seed=1)
    with pytest.raises(NotCardPlayPositionError, match="stock phase"):
        solver.value(deal)
    with pytest.raises(NotCardPlayPositionError):
        list(solve_seeds("guinote", range(1)))


def test_vueltas_unsupported(solver: Solver) -> None:
    deal = tute.Deal.new("tute_2p_habanero", seed=1, carry=[50, 60])
    while deal.in_stock_phase:
        deal.apply(deal.legal_actions()[-1])
    if not deal.is_over():
        with pytest.raises(UnsupportedPositionError):
            solver.value(deal)


def test_solve_record_and_table() -> None:
    deal = _after(3, 30)
    result = solve_record(deal.to_record(), tt_mb=8)
    assert result["value"] == Solver(tt_mb=8).value(deal)
    assert {row["action"] for row in result["actions"]} == {str(a) for a in deal.legal_actions()}
    json.dumps(result)
    assert "value" in format_analysis(result)
    with pytest.raises(tute.RecordError):
        solve_record({"format": "tute-record", "kind": "deal", "variant": "tute_parejas"})


def test_solve_seeds_and_summary() -> None:
    assert parse_seeds("3-5") == range(3, 6)
    with pytest.raises(SolveInputError):
        parse_seeds("5-3")
    with pytest.raises(SolveInputError):
        parse_seeds("x")
    rows = list(solve_seeds("tute_parejas", range(1, 3), tt_mb=16))
    assert [r["value"] for r in rows] == [GOLDEN_FULL[1], GOLDEN_FULL[2]]
    summary = summarize(rows)
    assert summary["deals"] == 2 and summary["ms_max"] >= summary["ms_median"]
    json.dumps(summary)


def test_probe_driver_finds_the_value_from_any_fail_soft_answers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The driver's bracketing, bisection, final wide window and jump to a far bound, against a
    fake search that knows the value and answers each window with a random valid fail-soft
    bound (sometimes the value itself, far past the threshold): it always ends on the value,
    whatever the guess, and never asks for a window that cannot hold an answer."""
    rng = random.Random(7)
    solver = Solver(tt_mb=1, threads=1)
    deal = tute.Deal.new("tute_parejas", seed=3)
    cfg, st = K.from_deal(deal)  # parity: 130 points in play, scale 1, no tie unit: even values
    for _ in range(400):
        value = 2 * rng.randrange(-120, 121)
        calls: list[tuple[int, int]] = []

        def fake(_cfg: np.ndarray, _st: np.ndarray, alpha: int, beta: int,
                 value: int = value, calls: list[tuple[int, int]] = calls) -> int:
            assert alpha < beta
            calls.append((alpha, beta))
            if alpha < value < beta:
                return value
            if value <= alpha:  # fail low: any upper bound between the value and alpha
                return rng.choice([alpha, value, rng.randint(value, alpha)])
            return rng.choice([beta, value, rng.randint(beta, value)])

        monkeypatch.setattr(solver, "_window", fake)
        guess = rng.randrange(-200, 201)
        assert solver._run_value(cfg, st, guess) == value, (value, guess, calls)
        assert len(calls) <= 24, calls


def test_canonical_hands_pack_the_worthless_cards_in_order() -> None:
    """The table-driven renumbering equals the card-by-card definition: per suit, the
    worthless cards still out (positions 0-4) take the lowest positions in strength order,
    each staying in its hand; counting cards keep theirs."""
    rng = random.Random(5)
    for _ in range(3000):
        cards = rng.sample(range(40), rng.randrange(0, 41))
        seats = rng.choice([2, 3, 4])
        hands = [0] * 4
        for c in cards:
            hands[rng.randrange(seats)] |= 1 << c
        want = [h & ~sum(0x1F << (10 * s) for s in range(4)) for h in hands]
        for s in range(4):
            k = 10 * s
            for p in range(5):
                bit = 1 << (10 * s + p)
                for i in range(4):
                    if hands[i] & bit:
                        want[i] |= 1 << k
                        k += 1
        got = _canon(np.array(hands, dtype=np.int64), seats)
        assert list(got) == want[:seats] + [0] * (4 - seats), (hands, seats)


def _rank_structure_positions() -> list[tuple[str, dict[str, object], tute.Deal]]:
    """Positions of every game and option set, 3 to 10 tricks from the end (half of them with
    the kings and their mates kept back, so that cantes are still to come), sometimes
    mid-trick."""
    out = []
    for variant, sets in OPTION_SETS.items():
        for oi, opts in enumerate(sets):
            for seed in range(4):
                rng = random.Random(seed * 7 + oi)
                deal = tute.Deal.new(variant, seed=seed, options=opts)
                left = rng.randint(3, 10)
                keep = seed % 2 == 0
                while not deal.is_over() and (
                        deal.total_tricks - len(deal.tricks) > left or deal.in_stock_phase
                        or deal._pile.pending or deal._phase == 1):
                    acts = deal.legal_actions()
                    if keep:
                        acts = [a for a in acts if not (isinstance(a, tute.Card)
                                                        and a.rank in (5, 6, 7))] or acts
                    deal.apply(acts[rng.randrange(len(acts))])
                for _ in range(rng.randint(0, 3)):
                    if not deal.is_over():
                        acts = deal.legal_actions()
                        deal.apply(acts[rng.randrange(len(acts))])
                if not deal.is_over():
                    out.append((variant, opts, deal))
    return out


def test_rank_structure_keys_keep_values_and_cut_nodes() -> None:
    """The table keyed by rank structure, with the bounds of positions of other live cards
    widened by the points they differ by, gives the values of the table keyed by card in
    every game and option set (cantes to come, tutes, arrastrado's hero, the win query),
    and searches fewer nodes on full parejas deals."""
    from tute.solver import _search as S

    on = Solver(tt_mb=16, threads=1)
    off = Solver(tt_mb=16, threads=1)
    off._stats[:, S.ST_QS] = 0
    positions = _rank_structure_positions()
    assert len(positions) > 60
    for variant, opts, deal in positions:
        if deal.variant.sides(deal.options) != 2:
            hero = deal.to_move
            assert on.value(deal, hero=hero) == off.value(deal, hero=hero), (variant, opts)
        else:
            assert on.value(deal) == off.value(deal), (variant, opts, deal.seed)
            assert on.wins(deal, 1) == off.wins(deal, 1), (variant, opts, deal.seed)
    nodes_on = nodes_off = 0
    for seed in range(6):
        deal = tute.Deal.new("tute_parejas", seed=seed)
        on.reset()
        off.reset()
        assert on.value(deal) == off.value(deal), seed
        nodes_on += on.nodes
        nodes_off += off.nodes
    assert nodes_on < 0.7 * nodes_off, (nodes_on, nodes_off)


def test_rank_structure_keys_and_point_shifts() -> None:
    """Two positions alike but for the ace or the three of a suit held by one seat share a
    key's structure and differ by one point; a suit whose marriage may still be sung keeps
    its counting cards; guinote's sota ranks above its caballo."""
    from tute.solver import _search as S

    deal = tute.Deal.new("tute_parejas", seed=0)
    cfg, _st = K.from_deal(deal)
    fam = int(cfg[T.C_FAMILY])

    def key(hands: list[int], calm: bool = True, sung: int = 0) -> tuple[int, int, int, int]:
        h = np.array(hands, dtype=np.int64)
        rem = int(h[0] | h[1] | h[2] | h[3])
        return S._qkey(h, cfg, 4, 0, rem, calm, sung, 0, 0, 0)

    def live(k: tuple[int, int, int, int]) -> int:
        return ((k[0] >> 40) & 0xFFFFFF) | (((k[1] >> 40) & 0xFFFF) << 24)

    ace, three, king, knight, seven = 9, 8, 7, 6, 4  # positions in a suit (oros: 0-9)
    a = key([1 << ace | 1 << 10, 1 << king, 1 << seven, 1 << 20])
    b = key([1 << three | 1 << 10, 1 << king, 1 << seven, 1 << 20])
    assert a[3] == b[3] and a[2] == b[2] and a[0] & S.M40 == b[0] & S.M40
    assert S._point_shift(live(a), live(b), fam, 0) == 1  # 11 against 10
    c = key([1 << three | 1 << 10, 1 << seven, 1 << king, 1 << 20])  # king and seven swap
    assert c[0] & S.M40 == a[0] & S.M40 and c[1] & S.M40 != a[1] & S.M40
    # a marriage of oros in one hand: that suit is keyed by card
    m = key([1 << king | 1 << knight, 1 << ace, 1 << seven, 1 << 20], calm=False)
    n = key([1 << king | 1 << knight, 1 << three, 1 << seven, 1 << 20], calm=False)
    assert m[2] == n[2] and m[1] & S.M40 != n[1] & S.M40
    pinned = (m[2] >> 42) & 0xF
    assert pinned == 1
    assert S._point_shift(live(m), live(n), fam, pinned) == -1
    assert S._point_shift(live(a), live(b), fam, pinned) == -1
    assert S._point_shift(live(a), live(b) | 1 << 30, fam, 0) == -1  # a suit's count differs
    # guinote: strength order swaps the sota (5) and the caballo (6)
    assert S._by_strength(1 << 5, 1) == 1 << 6 and S._by_strength(1 << 36, 1) == 1 << 35
    assert S._by_strength(S._by_strength(0x3FF0FF, 1), 1) == 0x3FF0FF
    assert S._by_strength(1 << 5, 0) == 1 << 5
    for fam_ in (0, 1):
        rem = (1 << 40) - 1 & ~(1 << 7 | 1 << 25)
        for c in range(40):
            if rem >> c & 1:
                assert S._rank_card(rem, S._card_rank(rem, c, fam_), fam_) == c


def test_reaches_leaves_a_bound_of_the_value_past_its_threshold(solver: Solver) -> None:
    """``reaches`` keeps its probe's fail-soft value in ``bound``: at least the threshold and
    at most the value when the value reaches it, below the threshold and at least the value
    when it does not (the analysis guesses a mistake's value with it)."""
    for seed in range(6):
        deal = endgame("tute_parejas", {}, 700 + seed)
        if deal is None:
            continue
        solver.reset()
        v = solver.value(deal)
        for t in (v - 9, v - 1, v, v + 1, v + 12):
            yes = solver.reaches(deal, t)
            assert yes == (v >= t)
            if yes:
                assert t <= solver.bound <= v, (seed, t)
            else:
                assert v <= solver.bound < t, (seed, t)
