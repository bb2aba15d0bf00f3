"""Who sits where comes from the engine: the seats of each trick, the order of play, the sides
and the goal in the seat view and the wire state, and every consumer reads them (issue 16)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import tute
from tute.events import CardPlayed

FOUR = [("tute_subastado", {"seats": 4}), ("tute_cabron", {"players": 4}),
        ("tute_arrastrado_3p", {"players": 4}), ("tute_parejas", {}), ("guinote", {}),
        ("tute_subastado", {}), ("tute_2p_habanero", {})]


def played_out(variant: str, options: dict[str, Any], seed: int) -> tute.Deal:
    deal = tute.Deal.new(variant, seed=seed, options=options)
    rng = random.Random(seed)
    while not deal.is_over():
        deal.apply(rng.choice(deal.legal_actions()))
    return deal


@pytest.mark.parametrize(("variant", "options"), FOUR)
def test_trick_records_name_the_seats_that_played(variant: str, options: dict[str, Any]) -> None:
    for seed in range(6):
        deal = played_out(variant, options, seed)
        cards = [(e.seat, e.card) for e in deal.events if isinstance(e, CardPlayed)]
        plays = [p for t in deal.tricks for p in t.plays()]
        assert plays == cards
        assert [p for t in deal.tricks for p in t.plays(deal.seats)] == cards
        view = deal.view(0)
        assert [p for t in view.tricks for p in t.plays()] == cards
        assert [t["seats"] for t in view.to_json()["tricks"]] == [
            list(t.seats) for t in deal.tricks]


def test_idle_dealer_is_out_of_the_order_of_play() -> None:
    deal = tute.Deal.new("tute_subastado", seed=1, dealer=2, options={"seats": 4})
    view = deal.view(0)
    assert view.play_order == (3, 0, 1)
    assert view.side_of == (0, 1, 2, 3) and not view.partnerships
    assert view.total_tricks == 12


@pytest.mark.parametrize(("variant", "options", "sides", "partners", "tricks"), [
    ("tute_parejas", {}, (0, 1, 0, 1), True, 10),
    ("tute_cabron", {"players": 4}, (0, 1, 2, 3), False, 10),
    ("tute_arrastrado_3p", {"players": 4}, (0, 1, 2, 3), False, 10),
    ("tute_arrastrado_3p", {}, (0, 1, 2), False, 13),
])
def test_view_carries_sides_and_trick_count(variant: str, options: dict[str, Any],
                                            sides: tuple[int, ...], partners: bool,
                                            tricks: int) -> None:
    view = tute.Deal.new(variant, seed=4, dealer=0, options=options).view(1)
    assert view.side_of == sides and view.partnerships is partners
    assert view.play_order == tuple((1 + k) % len(sides) for k in range(len(sides)))
    assert view.total_tricks == tricks
    data = view.to_json()
    assert data["side_of"] == list(sides) and data["partnerships"] is partners
    assert data["total_tricks"] == tricks


def test_view_carries_the_goal_as_data() -> None:
    view = tute.Deal.new("tute_cabron", seed=4, options={"players": 4}).view(0)
    assert view.goal == {"kind": "losses", "n": view.options.loss_limit}
    assert view.to_json()["goal"] == view.goal


def idle_dealer_deal(seed: int) -> tute.Deal:
    """A subastado deal with four, played out: the dealer (seat 0) sits it out."""
    deal = tute.Deal.new("tute_subastado", seed=seed, dealer=0, options={"seats": 4})
    rng = random.Random(seed)
    while not deal.is_over():
        deal.apply(rng.choice(deal.legal_actions()))
    return deal


def test_replay_frame_shows_the_last_trick_by_its_seats() -> None:
    from tute.server.hub import _frame

    m = tute.Match.new("tute_subastado", seed=5, options={"seats": 4})
    rng = random.Random(5)
    while len(m.deals) == 1:
        seat = m.to_move
        assert seat is not None
        m.apply(rng.choice(m.deal.legal_actions()))
    done = m.deals[0]
    frame = _frame(m, seat, "x", True)
    assert frame["trick"] == [[s, str(c)] for s, c in done.tricks[-1].plays()]
    assert {s for s, _ in frame["trick"]} == set(done.play_order)


def test_cli_log_names_the_seats_that_played() -> None:
    from tute.cli import _Words
    from tute.events import TrickTaken

    deal = idle_dealer_deal(2)
    w = _Words("en", deal.variant, you=1)
    for ev in deal.events:
        if isinstance(ev, TrickTaken):
            rec = deal.tricks[ev.number - 1]
            # the trick's line names each card by the seat that played it (its seats, not
            # the leader plus one, two, three: the idle dealer sits out)
            assert w.event(ev, deal) == w("trick", n=ev.number, plays=w.plays(rec.plays()),
                                          said=w.say(ev, deal))
            assert str(w.seat(deal.dealer)) not in w.plays(rec.plays())


def test_rules_bot_infers_nothing_of_the_idle_dealer() -> None:
    from tute.bots.rules_bot import _Knowledge, _table

    for seed in range(8):
        deal = tute.Deal.new("tute_subastado", seed=seed, dealer=0, options={"seats": 4})
        rng = random.Random(seed)
        while not deal.is_over():
            seat = deal.to_move
            assert seat is not None
            view = deal.view(seat)
            if deal.trick:
                (idle,) = set(range(4)) - set(view.play_order)  # the dealer, or after a
                k = _Knowledge(view, _table(view.variant, view.options, view.seats))
                assert k.excluded[idle] == 0  # takeover the top bidder: no void to deduce
            deal.apply(rng.choice(deal.legal_actions()))
