"""Guiñote's ``guinote_hide_arrastre_suit`` on the wire: after a 20 sung in the arrastre, what
goes to the other seat and to a spectator (updates, deltas, catchups, missed entries) says a
20 was sung, by whom and for how much, never its suit nor its cards; the singer's own messages
show them. The whole no-leak audit runs with the flag too (``test_no_leaks.py``)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tute.match import Match
from tute.server.protocol import (
    action_for,
    apply_delta,
    event_json,
    private_deal_json,
    public_state,
    state_delta,
    with_private,
)

from .conftest import Player, hello, two_seats

pytestmark = pytest.mark.timeout(120)

OPTIONS = {"guinote_hide_arrastre_suit": True, "partidas_per_coto": 1, "cotos_to_win": 1}
CARD = re.compile(r"^[A2-7SCR][oceb]$")


def _pick(legal: list[str], stock_count: int, rng: random.Random) -> str:
    """Cards at random (the seeded ``rng``) and passes, till a 20 is offered in the arrastre."""
    twenties = [a for a in legal if a.startswith("veinte:")]
    if twenties and not stock_count:
        return twenties[0]
    cards = [a for a in legal if CARD.match(a)]
    return rng.choice(cards) if cards else "pass" if "pass" in legal else legal[0]


def _match_seed(variant: str = "guinote_2p") -> tuple[int, list[str]]:
    """A seed whose match (as the server deals it) reaches a 20 in the arrastre by ``_pick``,
    and the actions up to it."""
    for seed in range(200):
        m = Match.new(variant, seed=seed, options=OPTIONS)
        rng = random.Random(seed)
        actions: list[str] = []
        while not m.is_over() and not m.deal.hides_cantes:
            actions.append(_pick([str(a) for a in m.legal_actions()], m.deal.stock_count, rng))
            m.apply(actions[-1])
        if m.deal.hides_cantes:
            return seed, actions
    raise AssertionError("no seed reaches a 20 in the arrastre")


@pytest.mark.parametrize("variant", ["guinote", "guinote_2p"])
def test_public_and_private_parts_are_each_audiences_view(variant: str) -> None:
    """Through a deal with a 20 sung hidden: the public state is the spectator's view (no suit,
    no cards of it in ``known``), each seat's state is exactly its own core view, and the
    deltas rebuild every audience's state; an action's notation hides what its events hide."""
    seed, actions = _match_seed(variant)
    m = Match.new(variant, seed=seed, options=OPTIONS)
    audiences: list[int | None] = [None, *range(m.deal.seats)]

    def states() -> dict[int | None, dict[str, Any]]:
        pub = public_state(m)
        return {a: pub if a is None else with_private(pub, private_deal_json(m.deal, a))
                for a in audiences}

    before = states()
    for act in actions:
        m.apply(act)
        now = states()
        for a in audiences:
            assert apply_delta(before[a], state_delta(before[a], now[a])) == now[a]
        before = now
    singer, decl, _p = m.deal.cantes[-1]
    letter = decl.suit.letter if decl.suit is not None else "?"
    pair = {f"R{letter}", f"S{letter}"}
    for a in audiences:
        mine = dict(before[a]["deal"])
        events = [event_json(e) for e in m.deal.events_for(a)[-1:]]
        if a is not None:
            mine.pop("refusals")
            mine.pop("duty")
            assert mine == m.deal.view(a).to_json()
        if a == singer:
            assert [singer, str(decl), 20] in mine["cantes"]
            assert pair <= set(mine["known"][singer])
            assert action_for(str(decl), events) == str(decl)
        else:
            assert [singer, "veinte", 20] in mine["cantes"]
            assert f"veinte:{letter}" not in json.dumps(mine)
            assert not pair & set(mine["known"][singer])
            assert events == [{"e": "Declared", "seat": singer, "declaration": "veinte",
                               "points": 20, "cards": [],
                               "say": {"code": "declared", "params": {
                                   "who": singer, "what": "veinte", "points": 20}}}]
            assert action_for(str(decl), events) == "veinte"


def test_the_other_seat_and_spectators_are_not_told_the_suit(client: TestClient,
                                                              seeded_tables: list[int]) -> None:
    seeded_tables[0] = _match_seed()[0]
    tid, tokens = two_seats(client, "guinote_2p", options=OPTIONS)
    rng = random.Random(seeded_tables[0])
    with client.websocket_connect(f"/ws/{tid}") as w0, \
            client.websocket_connect(f"/ws/{tid}") as w1, \
            client.websocket_connect(f"/ws/{tid}") as ws:
        players = [hello(w0, tokens[0]), hello(w1, tokens[1])]
        spectator = hello(ws)
        everyone = [*players, spectator]
        code = players[0].msgs[0]["table"]["code"]
        singer: int | None = None
        while singer is None:
            st = players[0].state
            assert st is not None and not st["over"]
            mover = players[st["deal"]["to_move"]]
            deal = mover.state["deal"]  # type: ignore[index]
            action = _pick(deal["legal_actions"], deal["stock_count"], rng)
            mover.send({"type": "act", "action": action})
            v = mover.until("update")["v"]
            for p in everyone:
                if p is not mover:
                    p.until("update", v)
            if action.startswith("veinte:") and not deal["stock_count"]:
                singer = mover.seat
        suit = action
        pair = {f"R{suit[-1]}", f"S{suit[-1]}"}
        assert singer is not None
        told = players[singer]
        update = told.msgs[-1]
        assert update["action"] == suit and update["events"][0]["declaration"] == suit
        assert set(update["events"][0]["cards"]) == pair
        assert [singer, suit, 20] in told.state["deal"]["cantes"]  # type: ignore[index]
        for p in (players[1 - singer], spectator):
            update = p.msgs[-1]
            assert update["action"] == "veinte"
            assert update["events"][0] == {
                "e": "Declared", "seat": singer, "declaration": "veinte", "points": 20,
                "cards": [], "say": {"code": "declared",
                                     "params": {"who": singer, "what": "veinte", "points": 20}}}
            assert p.state is not None
            assert [singer, "veinte", 20] in p.state["deal"]["cantes"]
            # nothing it ever got names the suit or the cards (still in the singer's hand);
            # the table's random id and code are left out (they may spell a card by chance)
            for m in p.msgs:
                text = json.dumps(m).replace(tid, " ").replace(code, " ")
                assert suit not in text
                assert not pair & set(re.findall(r"\b[A2-7SCR][oceb]\b", text))
            # a catchup (with the missed updates) says the same as the deltas did
            rebuilt = p.state
            p.send({"type": "sync", "since": p.v - 1})
            catchup = p.until("catchup")
            assert catchup["state"] == rebuilt
            assert suit not in json.dumps(catchup)
            assert catchup["missed"][-1]["action"] == "veinte"
        rebuilt = told.state
        told.send({"type": "sync"})
        assert told.until("catchup")["state"] == rebuilt


def test_a_player_reconnecting_is_told_what_it_was_told(client: TestClient,
                                                        seeded_tables: list[int]) -> None:
    """The welcome of a seat (a fresh connection) rebuilds its own view: the singer's with
    the suit, the other's without."""
    seeded_tables[0] = _match_seed()[0]
    tid, tokens = two_seats(client, "guinote_2p", options=OPTIONS)
    rng = random.Random(seeded_tables[0])
    with client.websocket_connect(f"/ws/{tid}") as w0, \
            client.websocket_connect(f"/ws/{tid}") as w1:
        players: list[Player] = [hello(w0, tokens[0]), hello(w1, tokens[1])]
        while True:
            st = players[0].state
            assert st is not None
            mover = players[st["deal"]["to_move"]]
            deal = mover.state["deal"]  # type: ignore[index]
            action = _pick(deal["legal_actions"], deal["stock_count"], rng)
            mover.send({"type": "act", "action": action})
            v = mover.until("update")["v"]
            players[1 - players.index(mover)].until("update", v)
            if action.startswith("veinte:") and not deal["stock_count"]:
                break
    singer = players.index(mover)
    for seat in (0, 1):
        with client.websocket_connect(f"/ws/{tid}") as w:
            again = hello(w, tokens[seat])
            cantes = again.msgs[0]["state"]["deal"]["cantes"]
            assert cantes[-1] == [singer, action if seat == singer else "veinte", 20]
