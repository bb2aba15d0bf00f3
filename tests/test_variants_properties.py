"""Hypothesis properties of deals of every variant, under a few option sets each.

A deal comes from a seed, or from the same layout given explicitly (``hands``, ``upcard`` and
``stock``, ``table_card``, ``widow``); two-player Tute and Guiñote deals may be *de vueltas*
(``carry``). Actions are picked by a list of integers, each an index into ``legal_actions()``.
At every step: each card of the pack is in exactly one place, a deal not over has a legal
action, the views hide what they must, and ``undo`` restores the exact state; at the end the
score adds up; records round-trip at any point.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tute
from deal_builders import rules_cards
from tute.events import (
    AuctionWon,
    Declared,
    Discarded,
    Drew,
    Exchanged,
    Passed,
    TookOver,
    TrickTaken,
    TrumpNamed,
)
from tute.shuffle import MAX_SEED

PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

OPTION_SETS: dict[str, list[dict[str, Any]]] = {
    "tute_parejas": [
        {},
        {"cante_by": "winning_side_each", "tute_dealt_wins_immediately": True,
         "forty_first": "forfeit"},
        {"renuncio_mode": "claim", "renuncio_penalty": "two_games_swing"},
        {"weak_hand_max_points": 25, "partner_exemption": True, "must_undertrump": True},
    ],
    "tute_2p_habanero": [
        {},
        {"stock_phase_rule": "full", "cante_before_draw": True},
        {"exchange_timing": "own_turn_any", "hand_size": 7},
        {"exchange_timing": "start_and_after_win", "exchange_last_round_allowed": True,
         "vueltas_claim": "manual"},
    ],
    "tute_2p_corriente": [
        {},
        {"scoring_2p": "per_deal", "stock_phase_rule": "follow_suit"},
        {"exchange_two_enabled": False, "vueltas_claim": "end_of_deal",
         "renuncio_mode": "claim"},
    ],
    "tute_arrastrado_3p": [
        {},
        {"players": 4},
        {"exchange_mandatory": False, "two_exchanges_four": True},
        {"scoring_3p": "payments", "renuncio_mode": "claim"},
    ],
    "tute_subastado": [
        {},
        {"seats": 4},
        {"widow_card": True},
        {"seats": 4, "widow_card": True, "auction_rounds": "open", "all_pass": "mano_forced"},
        {"declarer_leads": True, "cantes_declarer_only": False, "tute_enabled": True,
         "settlement": "points"},
    ],
    "guinote": [
        {},
        {"partner_exemption": False, "exchange_side_requirement": "any_trick_won"},
        {"cante_by": "winning_side_one", "thirty_malas": True, "renuncio_mode": "claim"},
    ],
    "guinote_2p": [
        {},
        {"exchange_timing": "own_turn_any", "both_over": "highest", "hand_size": 7},
    ],
    "tute_cabron": [
        {},
        {"players": 4},
        {"renuncio_mode": "claim", "weak_hand_max_points": 20},
    ],
    "tute_gana_pierde": [
        {},
        {"players": 3},
        {"players": 5, "gp_tie_high": "nobody", "last_trick_bonus": 0},
        {"cantes_enabled": False, "renuncio_mode": "claim", "multi_over": "last_trick"},
    ],
    "tute_cabrero": [
        {},
        {"players": 3},
        {"players": 5, "cabrero_loser": "middle", "cabrero_no_base": "ranked"},
        {"cabrero_tute_award": "others_out", "renuncio_mode": "claim"},
        {"cabrero_tute_award": "none", "last_trick_bonus": 0},
    ],
}
VARIANT_IDS = list(OPTION_SETS)
CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])([A3RCS76542][oceb])(?![A-Za-z0-9])")


def test_every_variant_is_covered() -> None:
    assert set(VARIANT_IDS) == set(tute.VARIANTS)
    for vid, sets in OPTION_SETS.items():
        var = tute.find_variant(vid)
        for options in sets:
            var.resolve(options)  # every option set is valid for its variant


# --------------------------------------------------------------------------------------------
# Strategies


def explicit_copy(deal: tute.Deal, options: dict[str, Any]) -> tute.Deal:
    """The same deal laid out by hand (no seed)."""
    layout = deal.to_record()["deal"]
    trump_card = layout.get("trump_card")
    return tute.Deal.new(
        deal.variant, dealer=deal.dealer, options=options, hands=layout["hands"],
        trump_card=trump_card, trump=layout.get("trump") if trump_card is None else None,
        upcard=layout.get("upcard"), stock=layout.get("stock"),
        table_card=layout.get("table_card"), widow=layout.get("widow"), carry=deal.carry)


@st.composite
def deals(draw: st.DrawFn, variant: str, option_set: int | None = None) -> tute.Deal:
    """A deal of ``variant`` under one of its option sets (``option_set``: that one)."""
    options = (draw(st.sampled_from(OPTION_SETS[variant])) if option_set is None
               else OPTION_SETS[variant][option_set])
    var = tute.find_variant(variant)
    opts = var.resolve(options)
    n = var.seat_count(opts)
    seed = draw(st.one_of(st.integers(0, 2**16), st.integers(0, MAX_SEED)))
    dealer = draw(st.integers(0, n - 1))
    carry = None
    if var.stock and opts.scoring_2p == "target_101" and draw(st.booleans()):
        carry = draw(st.tuples(st.integers(0, 100), st.integers(0, 100)))
    deal = tute.Deal.new(variant, seed=seed, dealer=dealer, options=options, carry=carry)
    return explicit_copy(deal, options) if draw(st.booleans()) else deal


choices = st.lists(st.integers(0, 2**16), min_size=1, max_size=80)
variants = pytest.mark.parametrize("variant", VARIANT_IDS)
#: every variant under each of its option sets: fewer examples each than a variant gets
option_sets = pytest.mark.parametrize(("variant", "option_set"), [
    (v, i) for v, sets in OPTION_SETS.items() for i in range(len(sets))])


ENDINGS = {"renuncio", "throw", "stop"}  # actions that end a deal at once: chosen rarely


def choose(legal: list[Any], pick: int) -> Any:
    common = [a for a in legal if str(a) not in ENDINGS]
    if not common or pick % 8 == 0:
        return legal[pick % len(legal)]
    if tute.PASS in common and pick % 3 == 0:  # so that auctions are passed out too
        return tute.PASS
    return common[pick % len(common)]


def step(deal: tute.Deal, picks: list[int], i: int) -> Any:
    return deal.apply(choose(deal.legal_actions(), picks[i % len(picks)]))


def play(deal: tute.Deal, picks: list[int], limit: int | None = None) -> tute.Deal:
    i = 0
    while not deal.is_over() and (limit is None or i < limit):
        step(deal, picks, i)
        i += 1
    return deal


# --------------------------------------------------------------------------------------------
# Where every card is


def pack_mask(deal: tute.Deal) -> int:
    deck, _ = deal.variant.layout(deal.options)
    return deck


def mask(cards: Any) -> int:
    out = 0
    for c in cards:
        out |= c.mask
    return out


def stock_cards(deal: tute.Deal) -> tuple[int, int]:
    """(face-down stock, upcard) as masks, from the dealt stock and the draws made (the upcard
    is the last card of the stock; an exchange replaces it)."""
    if not deal.variant.stock or not deal.stock_count:
        return 0, 0
    drawn = sum(isinstance(e, Drew) for e in deal.events)
    down = mask(deal.initial_stock[drawn:])
    assert deal.upcard is not None
    assert down.bit_count() + 1 == deal.stock_count
    return down, deal.upcard.mask


def widow_and_discard(deal: tute.Deal) -> tuple[int, int, int | None]:
    """Subastado: the untaken widow, the declarer's discard and the declarer."""
    widow = deal.initial_widow
    asked = deal.seats == 4 and deal.options.dealer_takeover  # the idle dealer speaks first
    taken = won = False
    for e in deal.events:
        won = won or isinstance(e, AuctionWon)
        taken = taken or (won and (not asked or isinstance(e, TookOver) or (
            isinstance(e, Passed) and e.seat == deal.dealer)))
    discards = [e for e in deal.events if isinstance(e, Discarded)]
    assert len(discards) <= 1
    declarer = discards[0].seat if discards else None
    return (0 if widow is None or taken else widow.mask,
            discards[0].card.mask if discards and discards[0].card else 0, declarer)


def places(deal: tute.Deal) -> dict[str, int]:
    out = {f"hand {s}": h.mask for s, h in enumerate(deal.hands)}
    out["trick"] = mask(c for _, c in deal.trick)
    out["tricks"] = mask(c for t in deal.tricks for c in t.cards)
    out["stock"], out["upcard"] = stock_cards(deal)
    table = deal.view(0).table_card
    out["table"] = 0 if table is None else table.mask
    out["widow"], out["discard"], _ = widow_and_discard(deal)
    return out


def check_cards_once(deal: tute.Deal) -> None:
    seen = 0
    for where, m in places(deal).items():
        assert not seen & m, f"{tute.CardSet(seen & m)} also in {where}"
        seen |= m
    assert seen == pack_mask(deal), f"cards nowhere: {tute.CardSet(pack_mask(deal) & ~seen)}"


# --------------------------------------------------------------------------------------------
# What each seat may see


def public_in_hands(deal: tute.Deal) -> list[int]:
    """Per seat, the cards of its hand everyone knows, from the public events: the parejas
    trump card with the dealer, declared cards, an upcard drawn, a card taken in an
    exchange."""
    known = [0] * deal.seats
    if deal.trump_card is not None and not deal.variant.stock and deal.initial_table_card is None:
        known[deal.dealer] |= deal.trump_card.mask
    for e in deal.events:
        if isinstance(e, Declared):
            known[e.seat] |= mask(e.cards)
        elif isinstance(e, Drew) and e.public:
            assert e.card is not None
            known[e.seat] |= e.card.mask
        elif isinstance(e, Exchanged):
            known[e.seat] |= e.taken.mask
    return [k & h.mask for k, h in zip(known, deal.hands, strict=True)]


def check_views(deal: tute.Deal) -> None:
    public = public_in_hands(deal)
    down, _ = stock_cards(deal)
    widow, discard, declarer = widow_and_discard(deal)
    named = any(isinstance(e, TrumpNamed) for e in deal.events)
    for seat in range(deal.seats):
        view = deal.view(seat)
        data = view.to_json()
        assert view.hand == deal.hand(seat) and data["hand"] == deal.hand(seat).to_list()
        assert [k.mask for k in view.known] == public, "known cards differ from the events"
        if deal.to_move != seat:
            assert data["legal_actions"] == []
        if deal.variant.id == "tute_subastado":
            assert (view.trump is None) == (data["trump"] is None) == (not named)
        text = json.dumps(data) + repr(view) + repr(deal.events_for(seat))
        hidden = down | widow | (discard if seat != declarer else 0)
        for other in range(deal.seats):
            if other != seat:
                hidden |= deal.hand(other).mask & ~view.known[other].mask
        leaked = set(CARD_TOKEN.findall(text)) & set(tute.CardSet(hidden).to_list())
        assert not leaked, f"seat {seat} sees {sorted(leaked)}"


# --------------------------------------------------------------------------------------------
# Rules of play


def check_offer(deal: tute.Deal) -> None:
    """The cards offered are those ``tute.rules`` allows (every card at a table that claims
    renuncios); declarations only go to the side that won the last trick, never in tute
    cabrón (its cantes are automatic) nor in two-player Tute once the stock is empty (§3.5)."""
    legal = deal.legal_actions()
    seat = deal.to_move
    assert seat is not None
    cards = {str(a) for a in legal if isinstance(a, tute.Card)}
    if cards:
        if deal.options.renuncio_mode == "claim":
            assert cards == set(deal.hand(seat).to_list())
        else:
            assert cards == rules_cards(deal)
    decls = [a for a in legal if isinstance(a, tute.Declaration)]
    if not decls:
        return
    var = deal.variant
    assert var.id != "tute_cabron"
    if not deal.tricks:  # only a tute held from the deal, before the first lead
        assert deal.options.tute_dealt_wins_immediately and all(d.is_tute for d in decls)
        return
    assert deal.side_of(seat) == deal.side_of(deal.tricks[-1].winner)
    if var.stock and var.family == "tute":
        assert deal.stock_count > 0, "two-player Tute declares nothing in arrastre"
    contract = deal.view(seat).contract
    if var.id == "tute_subastado" and deal.options.cantes_declarer_only:
        assert contract is not None and contract[0] == seat


# --------------------------------------------------------------------------------------------
# Scores


def check_result(deal: tute.Deal) -> None:
    res = deal.result()
    sides = len(res.totals)
    if res.void is not None:
        assert not deal.tricks and sum(res.totals) == 0 and res.winner is None
        return
    by_side = [0] * sides
    for e in deal.events:
        if isinstance(e, TrickTaken):
            by_side[deal.side_of(e.winner)] += e.points
    _, discard, declarer = widow_and_discard(deal)
    if declarer is not None:
        by_side[declarer] += tute.CardSet(discard).points(deal.order)
    assert list(res.card_points) == by_side
    if res.reason == "tricks":
        assert len(deal.tricks) == deal.total_tricks
        # arrastrado: the card left on the table is out of play; only an optional exchange
        # (exchange_mandatory=false) can leave a card that counts there
        table = deal.view(0).table_card
        out = 0 if table is None else tute.CardSet([table]).points(deal.order)
        assert out == 0 or not deal.options.exchange_mandatory
        assert sum(res.card_points) == 120 - out
    full = len(deal.tricks) == deal.total_tricks and res.reason in ("tricks", "renuncio")
    last = [full and deal.side_of(deal.tricks[-1].winner) == s for s in range(sides)]
    assert list(res.last_trick) == last
    sung = [[p for s, _d, p in deal.cantes if p and deal.side_of(s) == side]
            for side in range(sides)]
    if deal.options.thirty_malas:
        sung = [c if res.card_points[i] >= 30 else [] for i, c in enumerate(sung)]
    assert [list(c) for c in res.cantes] == sung
    for i in range(sides):
        bonus = deal.options.last_trick_bonus * res.last_trick[i]  # 10, or 0 where a game lets it
        assert res.totals[i] == res.card_points[i] + sum(res.cantes[i]) + bonus
    if res.balances is not None and deal.options.settlement == "payments":
        assert sum(res.balances) == 0
    if res.running is not None:
        carry = deal.carry or (0,) * sides
        assert res.running == tuple(c + t for c, t in zip(carry, res.totals, strict=True))


# --------------------------------------------------------------------------------------------
# The state, for undo and records


def snapshot(deal: tute.Deal) -> tuple[Any, ...]:
    return (deal.to_record(), [str(a) for a in deal.legal_actions()], deal.to_move,
            deal.events, deal.hands, deal.trick, deal.tricks, deal.cantes, deal.card_points,
            deal.stock_count, deal.upcard, deal.exchanges, deal.trump,
            [deal.view(s).to_json() for s in range(deal.seats)])


def check_round_trip(deal: tute.Deal) -> None:
    record = deal.to_record()
    text = json.dumps(record)
    for source in (record, json.loads(text), text):
        again = tute.Deal.from_record(source)
        assert again.to_record() == record
        assert again.hands == deal.hands and again.actions == deal.actions
        assert again.events == deal.events
        assert again.legal_actions() == deal.legal_actions()
        assert again.carry == deal.carry
        if deal.is_over():
            assert again.result() == deal.result()


# --------------------------------------------------------------------------------------------
# Refusals

PROBES = ["cuarenta", "veinte:o", "veinte:c", "veinte:e", "veinte:b", "tute_reyes",
          "cambio:7o", "cambio:2c", "pass", "bid:60", "bid:125", "trump:c", "takeover",
          "throw", "renuncio", "stop"]


def check_refusals(deal: tute.Deal) -> None:
    """Legal actions have no refusal reason; other cards of the mover's hand and a few other
    actions are refused with a reason and leave the deal as it was."""
    legal = {str(a) for a in deal.legal_actions()}
    for a in legal:
        assert deal.why_illegal(a) is None, a
    seat = deal.to_move
    assert seat is not None
    probes = [str(c) for c in deal.hand(seat)] + PROBES
    for a in probes:
        if a in legal:
            continue
        reason = deal.why_illegal(a)
        assert reason, f"{a} refused without a reason"
        with pytest.raises(tute.IllegalActionError):
            deal.apply(a)


# --------------------------------------------------------------------------------------------
# Properties


@option_sets
@settings(PROPERTY, max_examples=6)
@given(data=st.data(), picks=choices)
def test_deal_invariants_at_every_step(variant: str, option_set: int, data: st.DataObject,
                                       picks: list[int]) -> None:
    deal = data.draw(deals(variant, option_set))
    i = 0
    while True:
        check_cards_once(deal)
        check_views(deal)
        if deal.is_over():
            assert deal.legal_actions() == [] and deal.to_move is None
            break
        legal = deal.legal_actions()
        assert legal and deal.to_move is not None, "a deal not over has a legal action"
        check_offer(deal)
        if picks[i % len(picks)] % 4 == 0:  # refusals change nothing; undo restores all
            before = snapshot(deal)
            check_refusals(deal)
            assert snapshot(deal) == before
            act = step(deal, picks, i)
            assert deal.undo() == act
            assert snapshot(deal) == before
        step(deal, picks, i)
        i += 1
    check_result(deal)


@variants
@PROPERTY
@given(data=st.data(), picks=choices, stop=st.integers(0, 80))
def test_record_round_trip(variant: str, data: st.DataObject, picks: list[int],
                           stop: int) -> None:
    deal = data.draw(deals(variant))
    check_round_trip(deal)
    play(deal, picks, stop)
    check_round_trip(deal)
    play(deal, picks)
    check_round_trip(deal)
    check_result(deal)


@variants
@PROPERTY
@given(data=st.data(), picks=choices, back=st.integers(1, 200))
def test_undo_back_to_any_point_then_replay(variant: str, data: st.DataObject,
                                            picks: list[int], back: int) -> None:
    """Taking back several actions returns the state the deal had then; playing the same
    actions again gives the same end."""
    deal = data.draw(deals(variant))
    play(deal, picks)
    end = snapshot(deal)
    record = deal.to_record()
    actions = list(deal.actions)
    back = min(back, len(actions))
    for _ in range(back):
        deal.undo()
    record.pop("result", None)
    replay = tute.Deal.from_record({**record, "actions": [str(a) for a in actions[:-back]]})
    assert snapshot(deal) == snapshot(replay)
    for a in actions[len(actions) - back:]:
        deal.apply(a)
    assert snapshot(deal) == end
