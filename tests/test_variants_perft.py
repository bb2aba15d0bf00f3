"""Perft-style golden counts for every variant, checked by a second counting method.

``perft(deal, k)`` is the number of legal action sequences of length ``k`` from a position (a
sequence that ends the deal early counts once), counted depth-first with ``apply``/``undo``.
Positions are seeded deals of each variant, at the start and after a few fixed actions; the
golden numbers were computed with the engine when this file was written.

The cross-check counts a sample of each position's subtrees ("divide": one count per first
action) another way: breadth-first, every node rebuilt from scratch by replaying its action
sequence through ``Deal.from_record`` on the deal's explicit layout (no ``undo``, no
``copy``, no seed), and at every node the cards offered are compared with ``tute.rules``'
legality function, which the engine's fast path does not use.
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

import pytest

import tute
from deal_builders import rules_cards


class Position(NamedTuple):
    variant: str
    options: dict[str, Any]
    seed: int
    dealer: int
    prefix: int  # actions played before counting: legal_actions()[(5 * i) % len] at step i
    depth: int


POSITIONS: dict[str, Position] = {
    "parejas-start": Position("tute_parejas", {}, 1, 0, 0, 5),
    "parejas-window": Position("tute_parejas", {"cante_by": "winning_side_each"}, 7, 3, 4, 5),
    "parejas-mid": Position("tute_parejas", {}, 2, 1, 8, 5),
    "habanero-start": Position("tute_2p_habanero", {}, 1, 0, 0, 5),
    "habanero-mid": Position("tute_2p_habanero", {"cante_before_draw": True}, 2, 1, 10, 5),
    "habanero-last-draws": Position("tute_2p_habanero", {}, 3, 0, 22, 5),
    "corriente-start": Position("tute_2p_corriente", {}, 1, 0, 0, 6),
    "corriente-mid": Position("tute_2p_corriente", {"exchange_timing": "own_turn_any"},
                              4, 1, 12, 5),
    "corriente-last-draws": Position("tute_2p_corriente", {}, 4, 1, 34, 5),
    "arrastrado-start": Position("tute_arrastrado_3p", {}, 1, 0, 0, 5),
    "arrastrado-mid": Position("tute_arrastrado_3p", {}, 2, 2, 6, 4),
    "arrastrado-4p": Position("tute_arrastrado_3p", {"players": 4}, 3, 1, 0, 5),
    "subastado-start": Position("tute_subastado", {}, 1, 0, 0, 3),
    "subastado-after-auction": Position("tute_subastado", {}, 2, 2, 4, 4),
    "subastado-4-widow": Position("tute_subastado", {"seats": 4, "widow_card": True},
                                  1, 3, 5, 3),
    "guinote-start": Position("guinote", {}, 1, 0, 0, 5),
    "guinote-mid": Position("guinote", {}, 2, 3, 9, 5),
    "guinote-last-draw": Position("guinote", {}, 2, 3, 14, 6),
    "guinote-2p-start": Position("guinote_2p", {}, 1, 0, 0, 6),
    "guinote-2p-mid": Position("guinote_2p", {}, 2, 1, 10, 5),
    "guinote-2p-late": Position("guinote_2p", {"exchange_timing": "own_turn_any"}, 5, 1, 26, 5),
    "cabron-start": Position("tute_cabron", {}, 1, 0, 0, 5),
    "cabron-mid": Position("tute_cabron", {}, 2, 1, 6, 4),
    "cabron-4p": Position("tute_cabron", {"players": 4}, 1, 2, 4, 5),
    "gana-pierde-start": Position("tute_gana_pierde", {}, 1, 0, 0, 5),
    "gana-pierde-3p": Position("tute_gana_pierde", {"players": 3}, 2, 1, 3, 4),
    "gana-pierde-5p": Position("tute_gana_pierde", {"players": 5}, 3, 2, 10, 5),
    "cabrero-start": Position("tute_cabrero", {}, 1, 0, 0, 5),
    "cabrero-3p": Position("tute_cabrero", {"players": 3}, 2, 1, 3, 4),
    "cabrero-5p": Position("tute_cabrero", {"players": 5}, 3, 2, 10, 5),
}

# Computed with the engine. The stock games' counts changed when the exchange stopped being
# a question after every stock-phase trick (a right kept for the seat's turn instead): the
# "pass" answers no longer take a ply, and the prefixes of the positions (the 5i-th legal
# action) now pick other actions.
GOLDEN: dict[str, int] = {
    "parejas-start": 524,
    "parejas-window": 496,
    "parejas-mid": 434,
    "habanero-start": 26832,
    "habanero-mid": 428,
    "habanero-last-draws": 4648,
    "corriente-start": 55386,
    "corriente-mid": 7776,
    "corriente-last-draws": 24,
    "arrastrado-start": 1761,
    "arrastrado-mid": 344,
    "arrastrado-4p": 1527,
    "subastado-start": 8436,
    "subastado-after-auction": 506,
    "subastado-4-widow": 120,
    "guinote-start": 6472,
    "guinote-mid": 7776,
    "guinote-last-draw": 1535,
    "guinote-2p-start": 52878,
    "guinote-2p-mid": 10502,
    "guinote-2p-late": 1812,
    "cabron-start": 948,
    "cabron-mid": 333,
    "cabron-4p": 880,
    # the same play as parejas-start / each other: these games differ in scoring, not in play
    "gana-pierde-start": 524,
    "gana-pierde-3p": 651,
    "gana-pierde-5p": 68,
    "cabrero-start": 524,
    "cabrero-3p": 651,
    "cabrero-5p": 68,
}

VARIANTS_COVERED = {p.variant for p in POSITIONS.values()}


def position(name: str) -> tute.Deal:
    p = POSITIONS[name]
    deal = tute.Deal.new(p.variant, seed=p.seed, dealer=p.dealer, options=p.options)
    for i in range(p.prefix):
        legal = deal.legal_actions()
        deal.apply(legal[(5 * i) % len(legal)])
    assert not deal.is_over()
    return deal


def perft(deal: tute.Deal, depth: int) -> int:
    if depth == 0 or deal.is_over():
        return 1
    total = 0
    for act in deal.legal_actions():
        deal.apply(act)
        total += perft(deal, depth - 1)
        deal.undo()
    return total


def divide(deal: tute.Deal, depth: int) -> dict[str, int]:
    out: dict[str, int] = {}
    for act in deal.legal_actions():
        deal.apply(act)
        out[str(act)] = perft(deal, depth - 1)
        deal.undo()
    return out


# --------------------------------------------------------------------------------------------
# The second method


def explicit_record(deal: tute.Deal) -> dict[str, Any]:
    """The deal's record without its seed (so it is rebuilt from the layout) or actions."""
    record = deal.to_record()
    record.pop("result", None)
    return {**record, "seed": None, "actions": []}


def replay_count(record: dict[str, Any], actions: list[str], depth: int,
                 compared: list[int] | None = None) -> int:
    """Sequences of ``depth`` actions after ``actions``, breadth-first, each node replayed from
    the record; ``compared`` counts the nodes whose cards were checked against the rules."""
    frontier = [actions]
    leaves = 0
    for level in range(depth + 1):
        nxt: list[list[str]] = []
        for seq in frontier:
            deal = tute.Deal.from_record({**record, "actions": seq})
            legal = [str(a) for a in deal.legal_actions()]
            cards = {a for a in legal if _is_card(a)}
            if cards:  # a card may be played (otherwise a question is being asked)
                assert cards == rules_cards(deal), f"cards differ after {seq}"
                if compared is not None:
                    compared[0] += 1
            if level == depth or deal.is_over():
                leaves += 1
            else:
                nxt += [[*seq, a] for a in legal]
        frontier = nxt
    return leaves


def _is_card(text: str) -> bool:
    try:
        tute.parse_card(text)
    except tute.InvalidNotationError:
        return False
    return True


# --------------------------------------------------------------------------------------------
# Tests


def test_every_variant_has_positions() -> None:
    assert set(tute.VARIANTS) == VARIANTS_COVERED
    assert set(GOLDEN) == set(POSITIONS)


@functools.cache
def counted(name: str) -> dict[str, int]:
    """The position's divide, depth-first with apply/undo: counted once for the two tests
    below, whichever runs first."""
    deal = position(name)
    before = deal.to_record()
    split = divide(deal, POSITIONS[name].depth)
    assert deal.to_record() == before, "perft left the deal changed"
    return split


@pytest.mark.parametrize("name", list(POSITIONS))
def test_perft_golden(name: str) -> None:
    assert sum(counted(name).values()) == GOLDEN[name]


SMALLEST_MAX = 2000  # leaves of the smallest subtree replayed


@pytest.mark.parametrize("name", list(POSITIONS))
def test_perft_divide_by_replaying(name: str) -> None:
    """A sample of the first actions' subtrees (the first, the middle and the last) counted
    by replaying from the explicit layout; the full divide adds up to the golden count."""
    deal = position(name)
    depth = POSITIONS[name].depth
    split = counted(name)
    assert sum(split.values()) == GOLDEN[name]
    record = explicit_record(deal)
    prefix = [str(a) for a in deal.actions]
    firsts = list(split)
    sample = sorted({0, len(firsts) // 2, len(firsts) - 1})
    budget = 2000  # leaves replayed per position, to keep the test fast
    compared = [0]
    for k in sample:
        act = firsts[k]
        if split[act] > budget:
            continue
        assert replay_count(record, [*prefix, act], depth - 1, compared) == split[act], act
        budget -= split[act]
    # the smallest first action's subtree too; one over the budget (the two-player starts
    # at depth 6: 3,000 to 9,000 leaves) is replaced by its own smallest branch, and so on
    line = [min(split, key=split.__getitem__)]
    count, below = split[line[0]], depth - 1
    deal.apply(line[0])
    while count > SMALLEST_MAX:
        branches = divide(deal, below)
        line.append(min(branches, key=branches.__getitem__))
        count, below = branches[line[-1]], below - 1
        deal.apply(line[-1])
    assert replay_count(record, [*prefix, *line], below, compared) == count, line
    for _ in line:
        deal.undo()
    auction = deal.variant.id == "tute_subastado" and deal.view(0).contract is None
    assert compared[0] > 0 or auction, "no node with cards to play was compared with the rules"
