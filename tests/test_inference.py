"""World inference: the policy model, worlds weighted by the other seats' plays, every world
listed when few, and pimc with them (``pimc_infer``)."""

from __future__ import annotations

import itertools
import math
import random

import pytest

import tute
from tute.arena import play_deal
from tute.bots import make_bot
from tute.bots.inference import WorldSource, log_likelihood
from tute.bots.policy_model import PolicyModel
from tute.bots.rules_bot import RulesBot
from tute.cards import ALL_CARDS
from tute.errors import TuteError
from tute.worlds import WorldSampler
from tute.worlds.enumeration import enumerate_worlds


def _advance(deal: tute.Deal, actions: int, seed: int = 0) -> tute.Deal:
    rules = make_bot("rules", seed=seed)
    while len(deal.actions) < actions and not deal.is_over():
        seat = deal.to_move
        assert seat is not None
        view = deal.view(seat)
        deal.apply(rules.choose(view, view.legal_actions))
    return deal


def test_the_model_prefers_the_rules_bots_choice_and_sums_to_one() -> None:
    deal = tute.Deal.new("tute_parejas", seed=3)
    model = PolicyModel(temperature=2.0, floor=0.05)
    bot = RulesBot(seed=0)
    seen = 0
    while not deal.is_over():
        seat = deal.to_move
        assert seat is not None
        view = deal.view(seat)
        legal = view.legal_actions
        pick = bot.choose(view, legal)
        if len(legal) > 1:
            probs = model.probabilities(view, legal)
            assert math.isclose(sum(probs), 1.0)
            assert min(probs) >= 0.05 / len(legal) - 1e-12
            assert probs[legal.index(pick)] == max(probs)
            seen += 1
        deal.apply(pick)
    assert seen > 10


def test_the_rules_bots_preferences_pick_what_it_plays() -> None:
    """Its choice is one of its best preferences (ties go to the lowest card), in every game."""
    for vid in ("tute_parejas", "guinote", "tute_habanero", "subastado"):
        deal = tute.Deal.new(vid, seed=4)
        bot = RulesBot(seed=0)
        while not deal.is_over():
            seat = deal.to_move
            assert seat is not None
            view = deal.view(seat)
            legal = view.legal_actions
            prefs = bot.preferences(view, legal)
            pick = bot.choose(view, legal)
            assert prefs[legal.index(pick)] == max(prefs)
            deal.apply(pick)


def test_bad_model_settings_are_refused() -> None:
    with pytest.raises(TuteError, match="temperature"):
        PolicyModel(temperature=0)
    with pytest.raises(TuteError, match="floor"):
        PolicyModel(floor=2)
    for spec, word in (("pimc_infer:oversample=-1", "oversample"),
                       ("pimc:exact_below=x", "exact_below"), ("pimc:infer=3", "infer"),
                       ("pimc_infer:temperature=0", "temperature")):
        with pytest.raises(TuteError, match=word):
            make_bot(spec)


def _twin(seed: int, actions: int) -> tuple[tute.Deal, tute.Deal, int]:
    """A deal and another with other hidden cards and the same view for the seat to move."""
    deal = _advance(tute.Deal.new("tute_parejas", seed=seed), actions)
    seat = deal.to_move
    assert seat is not None
    sampler = WorldSampler(deal.view(seat))
    rng = random.Random(seed)
    other = sampler.deal(rng)
    while other.hands == deal.hands:  # a few worlds at most: the real one is one of many
        other = sampler.deal(rng)
    assert other.view(seat) == deal.view(seat)
    return deal, other, seat


def test_weighted_worlds_depend_on_the_view_alone() -> None:
    """Two deals with different hidden cards but identical views give identical worlds and
    weights from the same seed: inference reads the seat's view, never the deal."""
    deal, other, seat = _twin(21, 13)
    got = []
    for d in (deal, other):
        source = WorldSource(d.view(seat), model=PolicyModel(), oversample=3, batch=4)
        rng = random.Random(5)
        drawn = [source.next(rng) for _ in range(12)]
        got.append([(w.hands, weight) for w, weight in (x for x in drawn if x is not None)])
    assert got[0] == got[1]
    assert len(got[0]) == 12


def test_listed_worlds_and_weights_depend_on_the_view_alone() -> None:
    deal, other, seat = _twin(6, 30)
    got = []
    for d in (deal, other):
        source = WorldSource(d.view(seat), model=PolicyModel(), exact_below=500)
        assert source.finite
        rng = random.Random(1)
        listed = []
        while (item := source.next(rng)) is not None:
            listed.append((item[0].hands, item[1]))
        got.append(listed)
    assert got[0] == got[1]
    assert len(got[0]) > 1


def test_a_world_where_the_plays_were_the_models_choice_weighs_more() -> None:
    """One other-seat decision: the second card of the first trick, seen by the leader.
    Its weight is that card's probability in the world; the real deal (a rules bot played it)
    ranks above every world in which the model found that card unlikely."""
    checked = 0
    for seed in range(30):
        deal = tute.Deal.new("tute_parejas", seed=seed)
        leader = deal.to_move
        assert leader is not None
        _advance(deal, 2, seed)
        second = deal.actions[1]
        view = deal.view(leader)
        model = PolicyModel()
        mine = log_likelihood(deal, leader, model)
        sampler = WorldSampler(view)
        rng = random.Random(seed)
        unlikely = []
        for _ in range(40):
            w = sampler.deal(rng)
            lw = log_likelihood(w, leader, model)
            before = w.copy()
            before.undo()
            probs = model.probabilities(before.view(before.to_move), before.legal_actions())
            assert math.isclose(lw, math.log(probs[before.legal_actions().index(second)]))
            if max(probs) > 0.5 and math.exp(lw) < 0.1:
                unlikely.append(lw)
        if unlikely:
            assert mine > max(unlikely)
            checked += 1
    assert checked >= 3


def test_weighting_concentrates_on_the_worlds_the_plays_point_to() -> None:
    """Among resampled worlds, the other seats' observed plays are the model's first choice
    more often than among uniform worlds (they were, in the real deal: rules bots)."""
    model = PolicyModel()

    def agreement(world: tute.Deal, seat: int) -> float:
        d = world.copy()
        hit = total = 0
        while d.actions:
            act = d.undo()
            mover = d.to_move
            legal = d.legal_actions()
            if mover is None or mover == seat or len(legal) < 2:
                continue
            probs = model.probabilities(d.view(mover, history=False), legal)
            hit += probs[legal.index(act)] == max(probs)
            total += 1
        return hit / total

    uniform = weighted = 0.0
    drawn = 0.0
    for seed in (2, 9):
        deal = _advance(tute.Deal.new("tute_parejas", seed=seed), 18, seed)
        seat = deal.to_move
        assert seat is not None
        rng = random.Random(seed)
        sampler = WorldSampler(deal.view(seat))
        uniform += sum(agreement(sampler.deal(rng), seat) for _ in range(16))
        source = WorldSource(deal.view(seat), sampler, model=model, oversample=6, batch=4)
        for _ in range(5):
            source._refill(rng)
            weighted += sum(agreement(w, seat) * c for w, c in source._queue)
            drawn += sum(c for _, c in source._queue)
    assert weighted / drawn > uniform / 32


def _brute_force(deal: tute.Deal, seat: int) -> set[tuple[int, ...]]:
    """Every deal of the hidden cards into the other hands (sizes as now) on which the
    record replays legally and shows the seat what it saw: the consistent worlds, by hand."""
    view = deal.view(seat)
    played = [0] * 4
    for trick in view.tricks:
        for s, c in zip(trick.seats, trick.cards, strict=True):
            played[s] |= c.mask
    for s, c in view.trick:
        played[s] |= c.mask
    hidden = [c for c in ALL_CARDS if c.mask & ~view.hand.mask & ~view.played.mask]
    others = [s for s in range(4) if s != seat]
    out = set()
    for perm in set(itertools.permutations(
            [s for s in others for _ in range(view.hand_sizes[s])])):
        hands = [0] * 4
        hands[seat] = view.hand.mask
        for c, s in zip(hidden, perm, strict=True):
            hands[s] |= c.mask
        try:
            world = tute.Deal.new(view.variant, dealer=view.dealer, options=view.options,
                                  hands=[list(tute.CardSet(h | played[s]))
                                         for s, h in enumerate(hands)],
                                  trump_card=view.trump_card)
            for a in deal.actions:
                world.apply(a)
        except TuteError:
            continue
        if world.view(seat) == view:
            out.add(tuple(h.mask for h in world.hands))
    return out


def test_enumeration_finds_exactly_the_consistent_worlds() -> None:
    for seed in (1, 2, 5):
        deal = tute.Deal.new("tute_parejas", seed=seed)
        _advance(deal, 28, seed)  # seven tricks done: three cards a hand
        seat = deal.to_move
        assert seat is not None
        sampler = WorldSampler(deal.view(seat))
        listed = enumerate_worlds(sampler, 2000)
        assert listed is not None
        got = [tuple(h.mask for h in w.hands) for w in listed]
        assert len(got) == len(set(got)) == sampler.count()
        assert set(got) == _brute_force(deal, seat)
        assert tuple(h.mask for h in deal.hands) in set(got)
        assert all(w.view(seat) == deal.view(seat) for w in listed)
        assert enumerate_worlds(sampler, len(got) - 1) is None  # more than the cap


def test_enumeration_of_a_two_player_arrastre_is_the_one_position() -> None:
    deal = tute.Deal.new("tute_habanero", seed=3)
    rules = make_bot("rules", seed=3)
    while not deal.is_over() and (deal.stock_count or deal.to_move is None):
        view = deal.view(deal.to_move)
        deal.apply(rules.choose(view, view.legal_actions))
    assert not deal.is_over()
    seat = deal.to_move
    assert seat is not None
    listed = enumerate_worlds(WorldSampler(deal.view(seat)), 10)
    assert listed is not None and len(listed) == 1
    assert listed[0].hands == deal.hands


def test_pimc_with_inference_plays_legal_whole_deals() -> None:
    pytest.importorskip("numba")
    for vid in ("tute_parejas", "tute_habanero"):
        bots = [make_bot("pimc_infer:worlds=3:move_time=30:oversample=2", seed=s)
                if s % 2 == 0 else make_bot("rules", seed=s) for s in range(4)]
        n = tute.find_variant(vid).seat_count(tute.find_variant(vid).defaults)
        deal = play_deal(tute.Deal.new(vid, seed=5), bots[:n])
        assert deal.is_over()


def test_pimc_with_inference_decides_from_the_view_alone() -> None:
    pytest.importorskip("numba")
    deal, other, seat = _twin(21, 13)
    spec = "pimc_infer:worlds=5:move_time=30:oversample=2"
    a = make_bot(spec, seed=4).choose(deal.view(seat), deal.view(seat).legal_actions)
    b = make_bot(spec, seed=4).choose(other.view(seat), other.view(seat).legal_actions)
    assert a == b
