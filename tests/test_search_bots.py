"""The search bots: pimc (sampled worlds, exact solver or rollouts), ismcts and cheat."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator

import pytest

import tute
from tute.arena import play_deal
from tute.bots import make_bot
from tute.errors import TuteError
from tute.worlds import WorldSampler

pytest.importorskip("numba")

GAMES = [v.id for v in tute.VARIANTS.values()]


def _advance(deal: tute.Deal, actions: int, seed: int = 0) -> tute.Deal:
    rules = make_bot("rules", seed=seed)
    while len(deal.actions) < actions and not deal.is_over():
        seat = deal.to_move
        assert seat is not None
        view = deal.view(seat)
        deal.apply(rules.choose(view, view.legal_actions))
    return deal


@pytest.mark.parametrize("variant", GAMES)
@pytest.mark.parametrize("name", ["pimc", "ismcts"])
def test_search_bots_play_whole_deals_of_every_game(variant: str, name: str) -> None:
    """Every decision of a whole deal (bids, trumps, exchanges, cantes, cards) is legal."""
    bots = [make_bot(f"{name}:worlds=2:move_time=30", seed=s) for s in range(2)]
    var = tute.find_variant(variant)
    n = var.seat_count(var.defaults)
    seats = [bots[s % 2] if s % 2 == 0 else make_bot("rules", seed=s) for s in range(n)]
    deal = play_deal(tute.Deal.new(variant, seed=5), seats)
    assert deal.is_over()


def test_a_fixed_number_of_worlds_is_deterministic() -> None:
    deal = _advance(tute.Deal.new("tute_parejas", seed=11), 9)
    view = deal.view(deal.to_move)
    picks = {str(make_bot("pimc:worlds=6:move_time=30", seed=3).choose(view, view.legal_actions))
             for _ in range(2)}
    assert len(picks) == 1


@pytest.mark.parametrize("name", ["pimc", "ismcts"])
def test_the_choice_depends_on_the_view_alone(name: str) -> None:
    """Another deal with the same view for the seat (other hidden cards) gets the same
    decision from the same seed: the bot cannot see the hidden cards."""
    deal = _advance(tute.Deal.new("tute_parejas", seed=21), 13)
    seat = deal.to_move
    assert seat is not None
    view = deal.view(seat)
    other = WorldSampler(view).deal(random.Random(8))
    assert other.view(seat) == view
    assert any(other.hand(s) != deal.hand(s) for s in range(4) if s != seat)
    spec = f"{name}:worlds=5:move_time=30"
    a = make_bot(spec, seed=4).choose(view, view.legal_actions)
    b = make_bot(spec, seed=4).choose(other.view(seat), other.view(seat).legal_actions)
    assert a == b


def _open_arrastres(seeds: range) -> Iterator[tuple[tute.SeatView, dict[str, int]]]:
    """Two-player arrastre positions with a choice, where the stock is gone and each seat
    knows the other's hand: the view to move and the solver's value of each legal action
    (in the mover's terms)."""
    from tute.solver import Solver

    for seed in seeds:
        deal = tute.Deal.new("tute_2p_habanero", seed=seed)
        rules = make_bot("rules", seed=seed)
        while not deal.is_over() and (deal.stock_count or deal.to_move is None):
            view = deal.view(deal.to_move)
            deal.apply(rules.choose(view, view.legal_actions))
        if deal.is_over() or len(deal.legal_actions()) < 2:
            continue
        view = deal.view(deal.to_move)
        if len(view.unseen) != view.hand_sizes[1 - view.seat]:
            continue  # a card not yet accounted for (none, with the stock gone)
        analysis = Solver(tt_mb=8, threads=1).analyze(deal)
        sign = 1 if deal.side_of(view.seat) == 0 else -1
        yield view, {a: sign * v for a, v in analysis.actions}


def test_with_nothing_hidden_pimc_plays_the_solvers_best() -> None:
    """Two-player arrastre: with the stock gone each seat knows the other's hand, so every
    world is the real one and pimc's card is worth the solver's best."""
    checked = 0
    for view, values in _open_arrastres(range(40)):
        pick = make_bot("pimc:worlds=1:move_time=30:prior=none", seed=1).choose(
            view, view.legal_actions)
        assert values[str(pick)] == max(values.values())
        checked += 1
        if checked == 5:
            break
    assert checked >= 3


def test_out_of_time_still_answers_legally() -> None:
    deal = _advance(tute.Deal.new("tute_parejas", seed=2), 1)
    view = deal.view(deal.to_move)
    for name in ("pimc", "ismcts"):
        pick = make_bot(f"{name}:move_time=0.001", seed=1).choose(view, view.legal_actions)
        assert pick in view.legal_actions


@pytest.mark.parametrize("spec, message", [
    ("pimc:move_time=0", "invalid move_time"),
    ("pimc:move_time=1000", "invalid move_time"),
    ("pimc:worlds=0", "invalid worlds"),
    ("pimc:threads=9", "invalid threads"),
    ("pimc:tolerance=-1", "invalid tolerance"),
    ("pimc:prior=magic", "invalid prior"),
    ("pimc:confidence=-1", "invalid confidence"),
    ("pimc:settle=11", "invalid settle"),
    ("ismcts:exploration=-2", "invalid exploration"),
    ("pimc:depth=3", "has no setting 'depth'"),
])
def test_bad_settings_are_refused_by_name(spec: str, message: str) -> None:
    with pytest.raises(TuteError, match=message):
        make_bot(spec)


def test_cheat_needs_the_deal_and_is_never_offered() -> None:
    from tute.bots import BOTS, LEVELS

    deal = _advance(tute.Deal.new("tute_parejas", seed=2), 3)
    view = deal.view(deal.to_move)
    with pytest.raises(TuteError, match="analysis only"):
        make_bot("cheat").choose(view, view.legal_actions)
    assert not BOTS["cheat"].at_table
    assert all(bot != "cheat" for bot, _settings in LEVELS.values())


def test_solver_tolerance_keeps_values_within_it() -> None:
    """``value(tolerance=t)`` answers within t/2 of the exact value (the middle of a bracket
    at most t wide), from fewer probes."""
    from tute.solver import Solver

    exact, rough = Solver(tt_mb=8, threads=1), Solver(tt_mb=8, threads=1)
    for seed in range(12):
        deal = _advance(tute.Deal.new("tute_parejas", seed=seed), 12 + seed % 8)
        if deal.is_over() or deal.to_move is None:
            continue
        v = exact.value(deal)
        assert abs(rough.value(deal, tolerance=8) - v) <= 4


def test_an_interrupted_search_raises_and_leaves_the_table_sound() -> None:
    """``Solver.interrupt`` (from a timer thread, as the pimc bot's clock does) stops a search
    with ``SearchInterrupted``; nothing it half-searched is stored, so after ``resume`` the
    values are exact again."""
    import threading

    from tute.solver import SearchInterrupted, Solver

    solver, fresh = Solver(tt_mb=8, threads=1), Solver(tt_mb=8, threads=1)
    deal = tute.Deal.new("tute_parejas", seed=3)
    solver.interrupt()
    with pytest.raises(SearchInterrupted):
        solver.value(deal)
    solver.resume()
    for seed in range(6):
        deal = tute.Deal.new("tute_parejas", seed=seed)
        timer = threading.Timer(0.002, solver.interrupt)
        timer.start()
        with contextlib.suppress(SearchInterrupted):
            solver.value(deal)
        timer.join()
        solver.resume()
        assert solver.value(deal) == fresh.value(deal)


def test_the_clock_is_kept_even_when_one_world_takes_longer() -> None:
    """At the first lead of Tute por parejas one world can take the solver a second; at 0.05 s
    a move the bot still answers about on time, with a legal card (the rules bot's when no
    world was finished)."""
    import time

    bot = make_bot("pimc:move_time=0.05", seed=1)
    for seed in range(4):
        deal = tute.Deal.new("tute_parejas", seed=seed)
        view = deal.view(deal.to_move)
        bot.choose(view, view.legal_actions)  # the first call loads the solver
        # CPU time, not wall time: another job on the machine slows the wall clock's
        # answer, never the CPU the bot spends (a world left to finish would spend ~1 s)
        t0 = time.process_time()
        pick = bot.choose(view, view.legal_actions)
        assert time.process_time() - t0 < 0.5
        assert pick in view.legal_actions


@pytest.mark.parametrize("variant, actions", [("tute_parejas", 9), ("tute_2p_habanero", 4)])
def test_worlds_valued_in_two_threads_give_the_same_values(variant: str, actions: int) -> None:
    """``helpers`` value worlds in parallel threads; each world's rollouts draw from a seed
    taken in order, so a fixed number of worlds gives the same values as one thread."""
    from tute.bots.pimc import action_values
    from tute.solver import Solver

    deal = _advance(tute.Deal.new(variant, seed=13), actions)
    view = deal.view(deal.to_move)
    legal = list(view.legal_actions)
    one = action_values(view, legal, 6, random.Random(5), Solver(tt_mb=8, threads=1))
    two = action_values(view, legal, 6, random.Random(5), Solver(tt_mb=8, threads=1),
                        helpers=[Solver(tt_mb=8, threads=1)])
    assert one.worlds == two.worlds == 6
    assert one.values == pytest.approx(two.values)


def test_with_the_rules_prior_one_world_never_overrides_the_rules_bot() -> None:
    """``prior=rules``: one world gives no measure of how sure a difference is, so the rules
    bot's choice stands, whatever the world says."""
    rules = make_bot("rules", seed=3)
    differ = 0
    for seed in range(6):
        deal = _advance(tute.Deal.new("tute_2p_habanero", seed=seed), 3 + seed)
        view = deal.view(deal.to_move)
        legal = view.legal_actions
        want = make_bot("rules", seed=3).choose(view, legal)
        plain = make_bot("pimc:worlds=1:move_time=30:prior=none", seed=seed).choose(view, legal)
        prior = make_bot("pimc:worlds=1:move_time=30:prior=rules", seed=seed).choose(view, legal)
        assert prior == want == rules.choose(view, legal)
        differ += plain != want
    assert differ, "the plain one-world search never disagreed: the test shows nothing"


def test_with_the_rules_prior_a_sure_gain_still_wins() -> None:
    """With nothing hidden (two-player arrastre) every world is the real one: the solver's
    gain over the rules bot's card has no spread, and the search's best is played."""
    overridden = 0
    for view, values in _open_arrastres(range(60)):
        pick = make_bot("pimc:worlds=3:move_time=30:prior=rules", seed=1).choose(
            view, view.legal_actions)
        assert values[str(pick)] == max(values.values())
        overridden += str(pick) != str(make_bot("rules", seed=1).choose(view, view.legal_actions))
        if overridden >= 2:
            break
    assert overridden >= 1


def test_a_settled_decision_ends_before_its_clock() -> None:
    """With nothing hidden every world gives the same differences between actions: once the
    sixteen worlds of the rule are in, no other action can be better, and the decision ends
    there; with ``settle=0`` it takes every world it may."""
    checked = 0
    for view, _values in _open_arrastres(range(40)):
        settled = make_bot("pimc:worlds=40:move_time=30", seed=1)
        full = make_bot("pimc:worlds=40:move_time=30:settle=0", seed=1)
        assert settled.choose(view, view.legal_actions) == full.choose(view,
                                                                        view.legal_actions)
        assert (settled.last_worlds, full.last_worlds) == (16, 40)
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_settling_waits_for_a_real_difference() -> None:
    """Two actions a noisy half point apart are not settled after the minimum of worlds;
    one five points better in every world is."""
    from tute.bots.pimc import Settle, _Paired

    rng = random.Random(4)
    close, clear = _Paired(2), _Paired(2)
    for n in range(1, 41):
        base = rng.gauss(0, 20)
        close.add([base, base + 0.5 + rng.gauss(0, 10)])
        clear.add([base, base + 5 + rng.gauss(0, 1)])
        assert not close.settled(Settle())
        assert clear.settled(Settle()) == (n >= Settle().worlds)
