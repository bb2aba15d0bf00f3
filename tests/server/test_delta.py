"""Updates carry deltas: the state a client rebuilds from them is the state a full view gives.

Two levels: the protocol functions against the core's own views for every playable variant, and
the live server, where every connection's rebuilt state is compared with a fresh ``catchup``
after every action.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tute.match import Match
from tute.server.protocol import (
    PRIVATE_KEYS,
    apply_delta,
    dumps,
    loads,
    private_deal_json,
    public_state,
    state_delta,
    with_private,
)
from tute.variants import VARIANTS

from .conftest import Player, hello, two_seats

pytestmark = pytest.mark.timeout(120)

PLAYABLE = list(VARIANTS)


@pytest.mark.parametrize("variant", PLAYABLE)
def test_public_plus_private_is_the_core_view(variant: str) -> None:
    """The public state plus a seat's private part is exactly ``deal.view(seat).to_json()``,
    the public state holds nothing of any hand, and deltas between successive states rebuild
    them, for every audience, through whole deals of every playable variant."""
    rng = random.Random(variant)
    m = Match.new(variant, seed=rng.randrange(2**32))
    n = m.deal.seats
    audiences: list[int | None] = [None, *range(n)]

    def states() -> dict[int | None, dict[str, Any]]:
        pub = public_state(m)
        return {a: pub if a is None else with_private(pub, private_deal_json(m.deal, a))
                for a in audiences}

    before = states()
    steps = 0
    while not m.is_over() and steps < 250:
        legal = m.legal_actions()
        m.apply(legal[rng.randrange(len(legal))])
        steps += 1
        now = states()
        pub_deal = now[None]["deal"]
        assert pub_deal["hand"] == [] and pub_deal["legal_actions"] == []
        assert pub_deal["seat"] is None and pub_deal["side"] is None
        for s in range(n):
            mine = dict(now[s]["deal"])
            refusals = mine.pop("refusals")
            duty = mine.pop("duty")
            assert mine == m.deal.view(s).to_json(), (variant, steps, s)
            # the duty: the mover's only, when a card may be played
            cards = m.deal.to_move == s and any(len(a) == 2 for a in mine["legal_actions"])
            assert (duty is not None) == bool(cards), (variant, steps, duty)
            # the refusals: the mover's own unplayable cards, each with the engine's reason
            if m.deal.to_move == s:
                legal = set(mine["legal_actions"])
                named = [c for group in refusals for c in group["cards"]]
                assert sorted(named) == sorted(c for c in mine["hand"] if c not in legal)
                assert len(set(named)) == len(named)
                for group in refusals:
                    for card in group["cards"]:
                        ref = m.deal.refusal(card)
                        assert ref is not None
                        assert {k: group[k] for k in ("code", "params")} == ref.as_json()
            else:
                assert refusals == []
            assert {k for k in now[s]["deal"] if now[s]["deal"][k] != pub_deal[k]} <= set(
                PRIVATE_KEYS)
        for a in audiences:
            delta = state_delta(before[a], now[a])
            assert apply_delta(before[a], delta) == now[a]
            # what goes on the wire comes back the same
            assert apply_delta(before[a], loads(dumps(delta))) == loads(dumps(now[a]))
        before = now
    assert steps > 10


def _sync(p: Player) -> dict[str, Any]:
    p.send({"type": "sync"})
    while True:
        m = p.ws.receive_json()  # not recorded: a catchup would reset the rebuilt state
        if m["type"] == "catchup":
            return dict(m["state"])
        assert m["type"] == "seats", m


@pytest.mark.parametrize(("variant", "options"), [
    ("tute_2p_habanero", {"games_to_win": 1}),
    ("tute_parejas", {"match": {"mode": "series", "deals": 2}}),
])
def test_rebuilt_state_equals_a_fresh_full_view(client: TestClient, variant: str,
                                                options: dict[str, Any]) -> None:
    n = Match.new(variant, seed=1, options=options).deal.seats
    r = client.post("/api/tables", json={"variant": variant, "options": options,
                                         "seats": ["you"] + ["open"] * (n - 1)}).json()
    tokens = [r["token"]] + [client.post(f"/api/tables/{r['id']}/join", json={}).json()["token"]
                             for _ in range(n - 1)]
    rng = random.Random(7)
    with client.websocket_connect(f"/ws/{r['id']}") as spec_ws:
        sockets = [client.websocket_connect(f"/ws/{r['id']}") for _ in range(n)]
        try:
            players = [hello(cm.__enter__(), tokens[s]) for s, cm in enumerate(sockets)]
            audience = [*players, hello(spec_ws)]
            actions = 0
            while not players[0].state["over"]:  # type: ignore[index]
                st = players[0].state
                assert st is not None
                mover = players[st["deal"]["to_move"]]
                legal = mover.state["deal"]["legal_actions"]  # type: ignore[index]
                mover.send({"type": "act", "action": legal[rng.randrange(len(legal))]})
                v = mover.until("update")["v"]
                for p in audience:
                    if p is not mover:
                        p.until("update", v)
                    assert _sync(p) == p.state, f"seat {p.seat} after {actions} actions"
                actions += 1
        finally:
            for cm in sockets:
                cm.__exit__(None, None, None)
    assert actions > 20


def test_a_card_play_sends_a_small_delta(client: TestClient) -> None:
    """The point of deltas: a card play sends a few keys, not the whole view."""
    tid, (t0, t1) = two_seats(client, "tute_2p_habanero")
    with client.websocket_connect(f"/ws/{tid}") as w0, \
            client.websocket_connect(f"/ws/{tid}") as w1:
        players = {0: hello(w0, t0), 1: hello(w1, t1)}
        st = players[0].state
        assert st is not None
        mover = players[st["deal"]["to_move"]]
        other = players[1 - st["deal"]["to_move"]]
        card = next(a for a in mover.state["deal"]["legal_actions"]  # type: ignore[index]
                    if len(a) == 2)
        mover.send({"type": "act", "action": card})
        mine, theirs = mover.until("update"), other.until("update")
        assert set(mine["delta"]) == {"deal"} and set(theirs["delta"]) == {"deal"}
        assert set(mine["delta"]["deal"]) <= {"trick", "hand", "hand_sizes", "to_move",
                                              "legal_actions", "duty", "known"}
        assert "hand" in mine["delta"]["deal"] and "hand" not in theirs["delta"]["deal"]
        assert theirs["delta"]["deal"]["legal_actions"]  # now it is their turn
        assert len(dumps(theirs)) < len(dumps(other.msgs[0]["state"])) / 2
