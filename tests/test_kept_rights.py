"""The upcard exchange as a right kept for the seat's turn (rules-decisions.md, "Asking
nobody"): after a stock-phase trick nobody is asked anything; the winner (in Guiñote with four
also its partner) is offered ``cambio`` beside its cards on its next turn if it held the card
before the draw; nobody else can tell from the table whether it holds it; version-1 records,
which answered a question after every such trick, are migrated."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tute
from golden_records import DIR
from tute.cards import parse_card
from tute.match import Match, replay_stored
from tute.rules import exchange_card

STOCK_VARIANTS = ("tute_2p_habanero", "tute_2p_corriente", "guinote", "guinote_2p")

# option sets of the stock games; the last two keep a question before the draw
OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"exchange_timing": "start_and_after_win"},
    {"exchange_timing": "own_turn_any"},
    {"exchange_two_enabled": False},
    {"two_exchanges_four": False, "stock_phase_rule": "full"},
    {"exchange_side_requirement": "any_trick_won"},
    {"exchange_last_round_allowed": True},
    {"cante_before_draw": True},
]


def _options(variant: str, options: dict[str, Any]) -> dict[str, Any]:
    names = tute.find_variant(variant).option_names
    return {k: v for k, v in options.items() if k in names}


def _poll_kind(deal: tute.Deal) -> str | None:
    poll = deal.snapshot().poll
    return None if poll is None else poll.kind


# ------------------------------------------------------------------ (1) no question of "pass"

@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(STOCK_VARIANTS), st.sampled_from(OPTION_SETS),
       st.integers(0, 2**32), st.integers(0, 2**32))
def test_no_question_whose_only_answer_is_pass(variant: str, options: dict[str, Any],
                                               seed: int, choices: int) -> None:
    """In thousands of random actions over the stock games and their option sets, the legal
    actions are never just ``pass`` but in the questions that non-default options keep before
    the draw: ``cante_before_draw``'s, and the last round's with
    ``exchange_last_round_allowed``."""
    opts = _options(variant, options)
    deal = tute.Deal.new(variant, seed=seed, options=opts)
    rng = random.Random(choices)
    while not deal.is_over():
        legal = deal.legal_actions()
        if legal == [tute.PASS]:
            assert _poll_kind(deal) == "exchange", "a question with only pass for answer"
            last_round = deal.stock_count <= deal.seats
            assert opts.get("cante_before_draw") or (
                opts.get("exchange_last_round_allowed") and last_round)
        deal.apply(rng.choice(legal))


# ------------------------------------------------------------------ (2), (5) what is offered

def _trump_bits(deal: tute.Deal) -> int:
    letter = deal.trump.letter if deal.trump is not None else "o"
    return parse_card(f"7{letter}").mask | parse_card(f"2{letter}").mask


def _offered(deal: tute.Deal) -> set[str]:
    return {str(a) for a in deal.legal_actions() if str(a).startswith("cambio:")}


def _expected(deal: tute.Deal, due: dict[int, int]) -> set[str]:
    seat = deal.to_move
    assert seat is not None
    up = deal.upcard
    if up is None or deal.trump is None:
        return set()
    o = deal.options
    target = exchange_card(up.index, int(deal.trump), two_enabled=o.exchange_two_enabled,
                           two_takes_four=o.two_exchanges_four)
    if target is None or not (due.get(seat, 0) & deal.hand(seat).mask) >> target & 1:
        return set()
    return {f"cambio:{tute.ALL_CARDS[target]}"}


def _walk(variant: str, options: dict[str, Any], seed: int, stats: dict[str, int]) -> None:
    """A random deal checked at every turn against the rule: the seats entitled by the last
    stock-phase trick (or, with start_and_after_win, by the deal) are offered the card that
    may take the upcard if they held it when the right was granted, until they play."""
    deal = tute.Deal.new(variant, seed=seed, options=options)
    rng = random.Random(seed)
    n = deal.seats
    bits = _trump_bits(deal)
    due: dict[int, int] = {}
    if options.get("exchange_timing") == "start_and_after_win":
        due = {s: deal.hand(s).mask & bits for s in range(n)}
    while not deal.is_over():
        seat = deal.to_move
        assert seat is not None
        if deal.stock_count and _poll_kind(deal) in (None, "cante"):
            offered = _offered(deal)
            assert offered == _expected(deal, due), (seat, [str(a) for a in deal.actions])
            if offered:
                stats["offered"] += 1
                if deal.tricks and seat != deal.tricks[-1].winner:
                    stats["partner"] += 1
            elif deal.tricks and seat == deal.tricks[-1].winner and not due.get(seat, 0) and (
                    _expected(deal, {seat: bits})):
                stats["drawn_not_offered"] += 1  # holds it now, but drew it: not offered
        legal = deal.legal_actions()
        act = rng.choice(legal)
        if isinstance(act, tute.Card):
            due.pop(seat, None)  # the right lapses with the seat's card
            if len(deal.trick) == n - 1 and deal.stock_count:
                held = [deal.hand(s).mask & ~act.mask for s in range(n)]
                before = deal.stock_count
                deal.apply(act)
                due = {}
                if before > n and not deal.is_over():
                    w = deal.tricks[-1].winner
                    for s in (w, (w + 2) % n) if deal.variant.partnerships else (w,):
                        due[s] = held[s] & bits
                continue
        deal.apply(act)


def test_the_right_is_offered_on_the_seats_turn_over_the_cards_held_before_the_draw() -> None:
    """The winner holding the 7 is offered ``cambio`` beside its cards on its lead and not
    after playing; a 7 drawn in the draw just made is not offered; in Guiñote with four the
    partner is offered it on its own turn (and when asked to sing)."""
    stats = {"offered": 0, "partner": 0, "drawn_not_offered": 0}
    for variant in STOCK_VARIANTS:
        for options in ({}, {"exchange_timing": "start_and_after_win"}):
            for seed in range(40):
                _walk(variant, _options(variant, options), seed, stats)
    assert stats["offered"] > 20 and stats["partner"] > 2 and stats["drawn_not_offered"] > 2, stats


def test_offered_beside_the_cards_on_the_lead_and_gone_after_it() -> None:
    """One case spelt out: habanero, the winner of trick 1 holds the 7 of the upcard's suit."""
    for seed in range(500):
        deal = tute.Deal.new("tute_2p_habanero", seed=seed)
        up = deal.upcard
        assert up is not None and deal.trump is not None
        seven = parse_card(f"7{deal.trump.letter}")
        if str(up)[0] in "24567":  # the 2 would take it, not the 7
            continue
        # play trick 1 with the 7 kept, and look at the winner's turn
        while len(deal.tricks) < 1:
            deal.apply(next(a for a in deal.legal_actions() if a != seven))
        w = deal.tricks[0].winner
        before = deal.initial_hands[w].mask | 0
        if not before & seven.mask:
            continue
        assert deal.to_move == w and deal.stock_count == 40 - 16 - 2
        legal = [str(a) for a in deal.legal_actions()]
        assert legal[0] == f"cambio:{seven}" and len(legal) > 1  # beside its cards
        assert tute.PASS not in deal.legal_actions()
        card = next(a for a in deal.legal_actions() if isinstance(a, tute.Card) and a != seven)
        deal.apply(card)
        assert not _offered(deal)
        while deal.to_move != w and not deal.is_over():  # the other seat plays; a new trick
            deal.apply(next(a for a in deal.legal_actions() if isinstance(a, tute.Card)
                            and a != seven))
        if deal.tricks[-1].winner != w:
            assert not _offered(deal)  # lapsed: it played, and did not win again
        return
    raise AssertionError("no seed gave the case")


# ------------------------------------------------------------------ (3) nobody learns

def _swapped(variant: str, seed: int, holders: tuple[int, int]) -> tuple[tute.Deal, tute.Deal]:
    """The deal of ``seed`` and the same deal with the 7 of trumps moved from one of
    ``holders`` to the other (in exchange for one of its plain cards); None if the 7 is not
    with either."""
    deal = tute.Deal.new(variant, seed=seed, dealer=tute.find_variant(variant).players - 1)
    rec = deal.to_record()["deal"]
    hands = rec["hands"]
    trump = rec["upcard"][1]
    seven = f"7{trump}"
    a, b = holders
    if seven not in hands[a]:
        raise LookupError
    plain = next((c for c in hands[b] if c[1] != trump and c[0] in "65432"), None)
    if plain is None:  # (a king, caballo or sota would move a marriage too)
        raise LookupError
    hands[a][hands[a].index(seven)] = plain
    hands[b][hands[b].index(plain)] = seven
    other = tute.Deal.new(variant, dealer=deal.dealer, hands=hands, upcard=rec["upcard"],
                          stock=rec["stock"])
    return deal, other


def test_who_holds_the_seven_is_not_told() -> None:
    """Two Guiñote deals that differ only in which opponent of seat 0 holds the 7 of trumps
    give seat 0 the same views and the same legal actions at every step, as long as neither
    opponent exchanges or plays the two cards swapped."""
    compared = 0
    for seed in range(200):
        for holders in ((1, 3), (3, 1)):
            try:
                one, two = _swapped("guinote", seed, holders)
            except LookupError:
                continue
            up = one.upcard
            assert up is not None
            if str(up)[0] in "RS":  # a kept 7 that would sing the 40 asks the partner
                continue
            swapped = {c for c in one.hand(holders[0]).to_list()} ^ {
                c for c in two.hand(holders[0]).to_list()}
            while not one.is_over() and one.stock_count:
                assert one.view(0) == two.view(0)
                assert one.to_move == two.to_move
                assert one.legal_actions() == two.legal_actions() or one.to_move in holders
                legal = [a for a in one.legal_actions() if not str(a).startswith("cambio:")
                         and str(a) not in swapped]
                legal = [a for a in legal if a in two.legal_actions()]
                if not legal:
                    break
                act = legal[0]
                one.apply(act)
                two.apply(act)
                compared += 1
    assert compared > 500


def test_habanero_the_seven_with_the_opponent_or_in_the_stock() -> None:
    """Habanero: the 7 of trumps in the opponent's hand or face down in the stock: seat 0
    sees the same until the opponent exchanges (it never does here) or the 7 shows."""
    compared = 0
    for seed in range(100):
        deal = tute.Deal.new("tute_2p_habanero", seed=seed, dealer=1)
        rec = deal.to_record()["deal"]
        seven = f"7{rec['upcard'][1]}"
        if seven not in rec["hands"][1]:
            continue
        hands, stock = rec["hands"], rec["stock"]
        k = len(stock) - 1  # the last face-down card: drawn in the last round
        plain = stock[k]
        hands[1][hands[1].index(seven)] = plain
        stock[k] = seven
        two = tute.Deal.new("tute_2p_habanero", dealer=1, hands=hands, upcard=rec["upcard"],
                            stock=stock)
        while not deal.is_over() and deal.stock_count > 2:
            assert deal.view(0) == two.view(0)
            assert deal.to_move == two.to_move
            if deal.to_move == 0:
                assert deal.legal_actions() == two.legal_actions()
            legal = [a for a in deal.legal_actions() if a in two.legal_actions()
                     and str(a) not in (seven, plain) and not str(a).startswith("cambio:")]
            if not legal:
                break
            deal.apply(legal[-1])
            two.apply(legal[-1])
            compared += 1
    assert compared > 200


# ------------------------------------------------------------------ (4) version-1 records

def _v1(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DIR / f"{name}.json").read_text(encoding="utf-8"))
    return data


def test_a_version_1_record_with_exchange_questions_migrates() -> None:
    """corriente_deal_1 answered the exchange question after every stock-phase trick: read
    now, the passes are gone, the exchange is made after the draw on the winner's turn, and
    the result is the one stored."""
    data = _v1("corriente_deal_1")
    record = data["record"]
    assert record["version"] == 1 and "pass" in record["actions"]
    deal = tute.Deal.from_record(record)
    assert deal.result().to_json() == data["result"]
    assert tute.PASS not in deal.actions
    assert len(deal.exchanges) == 1
    kinds = [type(e).__name__ for e in deal.events]
    at = kinds.index("Exchanged")
    assert kinds[at - 1] in ("Drew", "Declared")  # after the draw: the winner's turn
    saved = deal.to_record()
    assert saved["version"] == 2 and len(saved["actions"]) == len(record["actions"]) - 10
    assert tute.Deal.from_record(saved).result().to_json() == data["result"]
    # a version-1 record is read as such: the same actions as version 2 do not replay
    assert tute.Deal.from_record(saved | {"version": 2}).events == deal.events
    try:
        tute.Deal.from_record(record | {"version": 2})
    except tute.RecordError as exc:
        assert exc.index is not None
    else:
        raise AssertionError("version-1 actions read as version 2's")


def test_a_version_1_record_of_a_held_partner_exchange() -> None:
    """guinote_deal_2: the partner's exchange, answered before the draw in version 1, is made
    on its turn."""
    data = _v1("guinote_deal_2")
    deal = tute.Deal.from_record(data["record"])
    assert deal.result().to_json() == data["result"]
    assert len(deal.exchanges) == 1


def _stored(name: str) -> tuple[dict[str, Any], list[str]]:
    record = _v1(name)["record"]
    return record, [a for d in record["deals"] for a in d["actions"]]


def test_a_server_table_stored_by_version_1_replays() -> None:
    """A server's stored action log of version 1 (the match's actions one after the other)
    restores through replay_stored to the same match; so does today's log, and a log that
    went on in today's form after the upgrade (here: from the second deal)."""
    for name in ("guinote_match", "habanero_per_deal_match", "corriente_match",
                 "guinote_2p_match"):
        record, actions = _stored(name)
        def make(record: dict[str, Any] = record) -> Match:
            return Match.new(record["variant"], seed=record["seed"],
                             options=record["options"], first_dealer=record["first_dealer"])
        m = replay_stored(make, actions)
        assert m.is_over() and m.result().to_json() == _v1(name)["result"]
        today = [str(a) for d in m.deals for a in d.actions]
        again = replay_stored(make, today)
        assert again.result().to_json() == m.result().to_json()
        first = record["deals"][0]["actions"]
        mixed = first + today[len(m.deals[0].actions):]
        assert replay_stored(make, mixed).result().to_json() == m.result().to_json()


def test_restore_match_migrates_a_stored_table() -> None:
    from tute.server.store import EventRow, TableRow
    from tute.server.table import restore_match

    record, actions = _stored("guinote_match")
    row = TableRow(id="t1", code="ABC", variant=record["variant"], options=record["options"],
                   seed=record["seed"], first_dealer=record["first_dealer"],
                   seats=[{"kind": "bot", "name": f"b{i}"} for i in range(4)], host=None,
                   public=False, status="finished", version=len(actions), result=None,
                   created_at=0.0, finished_at=None)
    events = [EventRow(i + 1, "action", None, a) for i, a in enumerate(actions)]
    m = restore_match(row, events)
    assert m.result().to_json() == _v1("guinote_match")["result"]


def test_views_do_not_carry_the_right() -> None:
    """No field of a view (what a seat is shown, and what the server sends) holds the kept
    right: it reaches the seat only as its legal actions."""
    fields = {f.name for f in dataclasses.fields(tute.SeatView)}
    assert not any("due" in f for f in fields)
