"""Hypothesis properties of Tute por parejas deals and matches (ARCHITECTURE.md §5).

Deals come from a seed, or from explicit hands drawn as a permutation of the pack in which one
seat may be given four kings, four knights or a marriage (so that cantes, tutes and tutes held
from the deal are common). Actions are picked by a list of integers, each an index into
``legal_actions()``; index 0 is a declaration whenever one is legal.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tute
from tute import Card, CardSet, IllegalActionError, TuteError
from tute.events import CardPlayed, Declared, TrickTaken
from tute.match import Match
from tute.shuffle import MAX_SEED

# TUTE_PROPERTY_EXAMPLES=2000 runs a longer bug hunt; the default keeps the suite fast.
EXAMPLES = int(os.environ.get("TUTE_PROPERTY_EXAMPLES", "120"))
PROPERTY = settings(max_examples=EXAMPLES, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
FEW = settings(max_examples=max(1, EXAMPLES * 5 // 6), deadline=None,
               suppress_health_check=[HealthCheck.too_slow])
# the properties that check every seat's view, or every refusal, after each action of a whole
# deal (most of this file's time): half the examples, each still a whole deal
HALF = settings(max_examples=max(1, EXAMPLES // 2), deadline=None,
                suppress_health_check=[HealthCheck.too_slow])

CARDS = [str(c) for c in tute.ALL_CARDS]
ALL = (1 << 40) - 1
# A card token in text (JSON or repr): rank then suit, not inside a longer word.
CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])([A3RCS76542][oceb])(?![A-Za-z0-9])")
DECLARATIONS = ["cuarenta", "veinte:o", "veinte:c", "veinte:e", "veinte:b", "tute_reyes",
                "tute_caballos", "pass"]

# --------------------------------------------------------------------------------------------
# Strategies

DEAL_OPTIONS: dict[str, st.SearchStrategy[Any]] = {
    "partner_exemption": st.booleans(),
    "must_undertrump": st.booleans(),
    "must_head_after_ruff": st.booleans(),
    "cante_by": st.sampled_from(["trick_winner", "winning_side_one", "winning_side_each"]),
    "forty_first": st.sampled_from(["enforce", "forfeit", "off"]),
    "cante_restriction": st.sampled_from(["none", "forfeit_if_skipped_first", "first_win_only"]),
    "tute_award": st.sampled_from(["deal", "two_games", "match", "partida"]),
    "tie_break": st.sampled_from(["last_trick", "mano_side", "replay"]),
    "two_games_threshold": st.sampled_from([None, 101, 121]),
    "two_games_rule": st.sampled_from(["total", "rs"]),
    "tute_dealt_wins_immediately": st.booleans(),
}


@st.composite
def option_sets(draw: st.DrawFn) -> dict[str, Any]:
    options = draw(st.fixed_dictionaries({}, optional=DEAL_OPTIONS))
    if options.get("two_games_rule") == "rs" and options.get("two_games_threshold") is None:
        options["two_games_threshold"] = draw(st.sampled_from([101, 121]))  # rs needs one
    return options


GIFTS = [
    [],
    ["Ro", "Rc", "Re", "Rb"],
    ["Co", "Cc", "Ce", "Cb"],
    ["Ro", "Co", "Rc", "Cc"],
    ["Re", "Ce", "Rb", "Cb"],
]


@st.composite
def deals(draw: st.DrawFn) -> tute.Deal:
    """A fresh parejas deal with random options, from a seed or from explicit hands."""
    options = draw(option_sets())
    dealer = draw(st.integers(0, 3))
    if draw(st.booleans()):
        seed = draw(st.one_of(st.integers(0, 2**16), st.integers(0, MAX_SEED)))
        return tute.Deal.new("tute_parejas", seed=seed, dealer=dealer, options=options)
    pack = draw(st.permutations(CARDS))
    gift = draw(st.sampled_from(GIFTS))
    seat = draw(st.integers(0, 3))
    rest = [c for c in pack if c not in gift]
    hands: list[list[str]] = []
    for s in range(4):
        take = 10 - (len(gift) if s == seat else 0)
        hands.append((gift if s == seat else []) + rest[:take])
        rest = rest[take:]
    return tute.Deal.new("tute_parejas", dealer=dealer, options=options, hands=hands)


choices = st.lists(st.integers(0, 2**16), min_size=1, max_size=60)


def step(deal: tute.Deal, picks: list[int], i: int) -> Any:
    legal = deal.legal_actions()
    return deal.apply(legal[picks[i % len(picks)] % len(legal)])


def play(deal: tute.Deal, picks: list[int], limit: int | None = None) -> tute.Deal:
    i = 0
    while not deal.is_over() and (limit is None or i < limit):
        step(deal, picks, i)
        i += 1
    return deal


def same_future(deal: tute.Deal, picks: list[int]) -> None:
    """``deal`` plays on exactly like a fresh replay of its record (hidden state included)."""
    replayed = tute.Deal.from_record(deal.to_record())
    i = 0
    while not deal.is_over():
        assert deal.legal_actions() == replayed.legal_actions()
        assert step(deal, picks, i) == step(replayed, picks, i)
        i += 1
    assert replayed.is_over() and deal.result() == replayed.result()
    assert deal.events == replayed.events


def snapshot(deal: tute.Deal) -> tuple[Any, ...]:
    return (deal.to_record(), deal.legal_actions(), [deal.view(s) for s in range(4)],
            deal.events, deal.to_move)


# --------------------------------------------------------------------------------------------
# Deal properties


def check_cards_once(deal: tute.Deal) -> None:
    seen = 0
    places = [h.mask for h in deal.hands]
    places += [c.mask for _, c in deal.trick]
    places += [c.mask for t in deal.tricks for c in t.cards]
    for mask in places:
        assert not seen & mask, f"card(s) {CardSet(seen & mask)} in two places"
        seen |= mask
    assert seen == ALL, f"missing cards: {CardSet(ALL & ~seen)}"


@PROPERTY
@given(deals(), choices)
def test_every_card_exists_exactly_once(deal: tute.Deal, picks: list[int]) -> None:
    check_cards_once(deal)
    i = 0
    while not deal.is_over():
        step(deal, picks, i)
        i += 1
        check_cards_once(deal)


@PROPERTY
@given(deals(), choices)
def test_points_and_totals(deal: tute.Deal, picks: list[int]) -> None:
    play(deal, picks)
    res = deal.result()
    tricks = deal.tricks
    taken = [sum(t.points for t in tricks if t.winner % 2 == side) for side in range(2)]
    assert list(res.card_points) == taken
    for t in tricks:
        assert t.points == CardSet(t.cards).points()
    if res.reason == "tricks":
        assert len(tricks) == 10
        assert sum(res.card_points) == 120
        assert res.last_trick == tuple(tricks[-1].winner % 2 == s for s in range(2))
    else:  # a tute stops the deal: no last trick, the unplayed cards count for nobody
        assert res.reason == "tute"
        assert len(tricks) < 10 and not any(res.last_trick)
        assert res.winner == deal.cantes[-1][0] % 2
        assert deal.cantes[-1][1].is_tute
    sung = [[p for s, _d, p in deal.cantes if s % 2 == side and p] for side in range(2)]
    for side in range(2):
        assert sorted(res.cantes[side]) == sorted(sung[side])
        bonus = 10 if res.last_trick[side] else 0
        assert res.totals[side] == res.card_points[side] + bonus + sum(res.cantes[side])


@PROPERTY
@given(deals(), choices)
def test_deal_winner_and_games_follow_the_options(deal: tute.Deal, picks: list[int]) -> None:
    play(deal, picks)
    res, opts = deal.result(), deal.options
    if res.reason == "tute":
        assert res.games[res.winner] == (2 if opts.tute_award == "two_games" else 1)
        assert res.match_won == (opts.tute_award in ("match", "partida"))
        return
    a, b = res.totals
    if a != b:
        assert res.winner == (0 if a > b else 1)
    elif opts.tie_break == "replay":
        assert res.replay and res.winner is None and res.games == (0, 0)
        return
    elif opts.tie_break == "mano_side":
        assert res.winner == deal.mano % 2
    else:
        assert res.last_trick[res.winner]
    threshold = opts.two_games_threshold
    if threshold is not None and opts.two_games_rule == "rs":
        # rules.md §2.7: 101 suffices only if the side sang nothing, otherwise 121
        sang = bool(res.cantes[res.winner])
        if threshold == 121 and not sang and 101 <= res.totals[res.winner] < 121:
            return  # the engine keeps 121 here: see test_deal.py::test_two_games_rule_rs_*
        threshold = 121 if sang else 101
    two = threshold is not None and res.totals[res.winner] >= threshold
    assert res.games[res.winner] == (2 if two else 1)
    assert res.games[1 - res.winner] == 0


def check_round_trip(deal: tute.Deal) -> None:
    record = deal.to_record()
    text = json.dumps(record)
    for source in (record, json.loads(text), text):
        again = tute.Deal.from_record(source)
        assert again.to_record() == record
        assert again.initial_hands == deal.initial_hands
        assert again.hands == deal.hands
        assert again.actions == deal.actions
        assert again.events == deal.events
        assert again.legal_actions() == deal.legal_actions()
        assert again.is_over() == deal.is_over()
        if deal.is_over():
            assert again.result() == deal.result()


@PROPERTY
@given(deals(), choices, st.integers(0, 60))
def test_record_round_trip(deal: tute.Deal, picks: list[int], stop: int) -> None:
    check_round_trip(deal)  # fresh
    play(deal, picks, stop)
    check_round_trip(deal)  # unfinished (or finished, when stop is large)
    play(deal, picks)
    check_round_trip(deal)  # finished


def public_cards(deal: tute.Deal) -> set[str]:
    """Cards of a hand that everyone may know: the turned trump card (it is with the dealer)
    and the cards shown by a declaration (rules.md §1.5: a declaration is public)."""
    out = {str(deal.trump_card)} if deal.trump_card is not None else set()
    for event in deal.events:
        if isinstance(event, Declared):
            out |= {str(c) for c in event.cards}
    return out


def check_views(deal: tute.Deal) -> None:
    public = public_cards(deal)
    for seat in range(4):
        view = deal.view(seat)
        assert view.hand == deal.hand(seat)
        data = view.to_json()
        assert data["hand"] == deal.hand(seat).to_list()
        assert data["hand_sizes"] == [len(h) for h in deal.hands]
        with_dealer = deal.trump_card is not None and deal.trump_card in deal.hand(deal.dealer)
        assert view.trump_card == deal.trump_card
        assert view.trump_card_with_dealer == with_dealer
        if deal.to_move != seat:
            assert data["legal_actions"] == []
        text = json.dumps(data) + repr(view) + str(view)
        hidden = {str(c) for s in range(4) if s != seat for c in deal.hand(s)} - public
        leaked = set(CARD_TOKEN.findall(text)) & hidden
        assert not leaked, f"seat {seat} sees {sorted(leaked)}"


@HALF
@given(deals(), choices)
def test_view_never_reveals_hidden_cards(deal: tute.Deal, picks: list[int]) -> None:
    check_views(deal)
    i = 0
    while not deal.is_over():
        step(deal, picks, i)
        i += 1
        check_views(deal)


def check_refusals(deal: tute.Deal) -> None:
    legal = deal.legal_actions()
    if deal.is_over():
        assert legal == [] and deal.to_move is None
    else:
        assert legal, "a deal that is not over must offer an action"
    before = (deal.to_record(), legal, deal.events)
    quick = (deal.actions, deal.hands, deal.trick, deal.to_move, legal)
    names = {str(a) for a in legal}
    for text in CARDS + DECLARATIONS:
        if text in names:
            continue
        try:
            deal.apply(text)
        except IllegalActionError as exc:
            assert exc.reason, f"{text}: refused without a reason"
            assert deal.why_illegal(text)
        else:
            raise AssertionError(f"{text} was accepted but is not in {sorted(names)}")
        # cheap comparison after each refusal, the full one (record, events) below
        assert (deal.actions, deal.hands, deal.trick, deal.to_move, deal.legal_actions()) == quick
    assert (deal.to_record(), deal.legal_actions(), deal.events) == before
    for action in legal:  # every legal action applies
        assert deal.why_illegal(action) is None
        deal.apply(action)
        deal.undo()
    assert (deal.to_record(), deal.legal_actions(), deal.events) == before


@HALF
@given(deals(), choices)
def test_legal_actions_apply_and_the_rest_is_refused(deal: tute.Deal, picks: list[int]) -> None:
    check_refusals(deal)
    i = 0
    while not deal.is_over():
        step(deal, picks, i)
        i += 1
        check_refusals(deal)


@PROPERTY
@given(deals(), choices, st.integers(0, 50), st.integers(1, 60))
def test_undo_restores_the_exact_state(
    deal: tute.Deal, picks: list[int], start: int, k: int
) -> None:
    play(deal, picks, start)
    original = snapshot(deal)
    applied = []
    for i in range(k):
        if deal.is_over():
            break
        applied.append(step(deal, picks, start + i))
    for action in reversed(applied):
        assert deal.undo() == action
    assert snapshot(deal) == original
    same_future(deal, picks[::-1])


@PROPERTY
@given(deals(), choices, st.integers(0, 50), st.integers(1, 60))
def test_copy_is_independent_and_undo_works_on_copies(
    deal: tute.Deal, picks: list[int], start: int, k: int
) -> None:
    fresh = snapshot(deal)
    play(deal, picks, start)
    original = snapshot(deal)
    clone = deal.copy()
    assert snapshot(clone) == original
    applied = 0
    while applied < k and not clone.is_over():
        step(clone, picks, start + 7 + applied)  # a different path for the copy
        applied += 1
    assert snapshot(deal) == original  # the original did not move
    if not deal.is_over():
        other = deal.copy()
        step(deal, picks, 0)
        assert snapshot(other) == original  # and moving the original leaves copies alone
        deal.undo()
    for _ in range(applied):
        clone.undo()
    assert snapshot(clone) == original
    while clone.actions:  # the copy keeps the history from before it was made
        clone.undo()
    assert snapshot(clone) == fresh
    assert snapshot(deal) == original
    try:
        clone.undo()
    except TuteError:
        pass
    else:
        raise AssertionError("undo with no history must raise")
    same_future(clone, picks)
    same_future(deal, picks)


@PROPERTY
@given(deals(), choices)
def test_events_tell_the_story(deal: tute.Deal, picks: list[int]) -> None:
    play(deal, picks)
    trick_events = [e for e in deal.events if isinstance(e, TrickTaken)]
    assert [(e.number, e.leader, e.cards, e.winner, e.points) for e in trick_events] == [
        (t.number, t.leader, t.cards, t.winner, t.points) for t in deal.tricks
    ]
    played = [e.card for e in deal.events if isinstance(e, CardPlayed)]
    assert played == [a for a in deal.actions if isinstance(a, Card)]


# --------------------------------------------------------------------------------------------
# Match properties


@st.composite
def match_options(draw: st.DrawFn) -> dict[str, Any]:
    mode = draw(st.sampled_from(["series", "race"]))
    n = draw(st.integers(1, 4))
    options = {"match": {"mode": mode, ("deals" if mode == "series" else "games"): n}}
    options |= draw(st.fixed_dictionaries({}, optional={
        "tie_break": DEAL_OPTIONS["tie_break"],
        "tute_award": DEAL_OPTIONS["tute_award"],
        "two_games_threshold": DEAL_OPTIONS["two_games_threshold"],
        "cante_by": DEAL_OPTIONS["cante_by"],
        "first_dealer": st.sampled_from(["random", "first_king", "two_of_oros_mano"]),
    }))
    return options


def play_match(match: Match, picks: list[int], limit: int | None = None) -> Match:
    i = 0
    while not match.is_over() and (limit is None or i < limit):
        legal = match.legal_actions()
        match.apply(legal[picks[i % len(picks)] % len(legal)])
        i += 1
    return match


def check_match_end(match: Match) -> None:
    spec = match.options.match
    results = [d.result() for d in match.deals]
    games = [0, 0]
    counted = 0
    for k, res in enumerate(results):  # replay the score and find where the match must end
        games = [games[s] + res.games[s] for s in range(2)]
        counted += not res.replay
        if res.match_won:
            reason = "tute"
        elif spec.mode == "race":
            reason = "race" if max(games) >= spec.n else ""
        else:
            reason = "series" if counted >= spec.n and games[0] != games[1] else ""
        if reason:
            assert k == len(results) - 1, f"the match should have ended after deal {k + 1}"
            break
    else:
        raise AssertionError("the match ended without reason")
    result = match.result()
    assert result.reason == reason
    assert list(result.games) == games == list(match.games)
    assert result.deals == len(match.deals)
    if reason == "series":
        assert counted >= spec.n and games[result.winner] > games[1 - result.winner]
    elif reason == "race":
        assert games[result.winner] >= spec.n
    else:
        assert result.winner == results[-1].winner


def check_dealers(match: Match) -> None:
    for prev, nxt in zip(match.deals, match.deals[1:], strict=False):
        if prev.result().replay:
            assert nxt.dealer == prev.dealer, "a replayed deal keeps its dealer"
        else:
            assert nxt.dealer == prev.mano == (prev.dealer + 1) % 4, "the deal passes right"


@FEW
@given(st.integers(0, MAX_SEED), match_options(), choices)
def test_match_ends_when_expected(seed: int, options: dict[str, Any], picks: list[int]) -> None:
    match = play_match(Match.new("tute_parejas", seed=seed, options=options), picks)
    check_match_end(match)
    check_dealers(match)


@FEW
@given(st.integers(0, MAX_SEED), match_options(), choices, st.integers(0, 200))
def test_match_record_round_trip(
    seed: int, options: dict[str, Any], picks: list[int], stop: int
) -> None:
    match = play_match(Match.new("tute_parejas", seed=seed, options=options), picks, stop)
    check_dealers(match)
    record = match.to_record()
    for source in (record, json.loads(json.dumps(record))):
        again = Match.from_record(source)
        assert again.to_record() == record
        assert again.games == match.games and again.is_over() == match.is_over()
        assert [d.to_record() for d in again.deals] == [d.to_record() for d in match.deals]
