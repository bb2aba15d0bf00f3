"""Every message every client receives during whole games is checked against what its
audience may know: no hidden card ever leaves the server. Updates carry deltas, so both the
messages themselves and the state each client rebuilds from them are checked; the rebuilt
deal is also compared with the core's own view of it after every action.

Each seat may see: its own hand (now and earlier in the deal) and the public cards (played,
turned up, exchanged, declared, publicly known to be in a hand). A spectator: only the public
ones. The oracle is the core replayed from the finished game's record.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tute.events import Declared
from tute.match import Match

from .conftest import Player, hello

pytestmark = pytest.mark.timeout(120)

CARD = re.compile(r"^(?:cambio:)?([A234567SCR][oceb])$")

GAMES = [
    ("tute_parejas", {"match": {"mode": "series", "deals": 2}}, 1),
    ("tute_2p_habanero", {"games_to_win": 1}, 2),
    ("tute_2p_corriente", {"games_to_win": 1}, 3),
    ("guinote", {"partidas_per_coto": 1, "cotos_to_win": 1}, 4),
    ("guinote_2p", {"partidas_per_coto": 1, "cotos_to_win": 1}, 5),
]


def cards_in(obj: Any) -> set[str]:
    """Every card named anywhere in a JSON value (hands, tricks, events, actions…)."""
    out: set[str] = set()
    if isinstance(obj, dict):
        for v in obj.values():
            out |= cards_in(v)
    elif isinstance(obj, list):
        for v in obj:
            out |= cards_in(v)
    elif isinstance(obj, str):
        m = CARD.match(obj)
        if m:
            out.add(m.group(1))
    return out


def public_now(deal: Any) -> set[str]:
    pub = {str(c) for t in deal.tricks for c in t.cards} | {str(c) for _, c in deal.trick}
    for c in (deal.trump_card, deal.upcard):
        if c is not None:
            pub.add(str(c))
    for _, given, taken in deal.exchanges:
        pub |= {str(given), str(taken)}
    for e in deal.events:
        if isinstance(e, Declared):
            pub |= {str(c) for c in e.cards}
    for k in deal.view(0).known:
        pub |= set(k.to_list())
    return pub


class Oracle:
    """Replays the record; after each action, per audience, the cards it may have seen in the
    current deal and, separately, at the end of the previous deal."""

    def __init__(self, record: dict[str, Any]):
        self.m = Match.new(record["variant"], seed=record["seed"],
                           options=record.get("options") or {},
                           first_dealer=record["first_dealer"])
        self.actions = [a for d in record["deals"] for a in d["actions"]]
        self.n = self.m.deal.seats
        self.allowed: list[dict[int | None, set[str]]] = []  # per action count
        self.prev: list[dict[int | None, set[str]]] = []
        self.views: list[dict[int | None, dict[str, Any]]] = []  # the core's view per audience
        cur = self._fresh()
        prev: dict[int | None, set[str]] = {a: set() for a in self.audiences}
        self._add(cur)
        self.allowed.append({a: set(s) for a, s in cur.items()})
        self.prev.append(prev)
        self._view()
        for a in self.actions:
            deal = self.m.deal
            self.m.apply(a)
            if self.m.deal is not deal:  # the deal ended and the next one was dealt
                self._add(cur, deal)
                prev = {k: set(v) for k, v in cur.items()}
                cur = self._fresh()
            self._add(cur)
            self.allowed.append({k: set(v) for k, v in cur.items()})
            self.prev.append(prev)
            self._view()

    def _view(self) -> None:
        views: dict[int | None, dict[str, Any]] = {
            s: self.m.deal.view(s).to_json() for s in range(self.n)}
        views[None] = {**views[0], "seat": None, "side": None, "hand": [], "legal_actions": []}
        self.views.append(views)

    @property
    def audiences(self) -> list[int | None]:
        return [None, *range(self.n)]

    def _fresh(self) -> dict[int | None, set[str]]:
        return {a: set() for a in self.audiences}

    def _add(self, acc: dict[int | None, set[str]], deal: Any = None) -> None:
        deal = deal or self.m.deal
        pub = public_now(deal)
        for a in self.audiences:
            acc[a] |= pub
            if a is not None:
                acc[a] |= set(deal.hand(a).to_list())


def _play(client: TestClient, variant: str, options: dict[str, Any], seed: int
          ) -> tuple[dict[str, Any], dict[int | None, Player], list[int]]:
    n = Match.new(variant, seed=1, options=options).deal.seats
    r = client.post("/api/tables", json={"variant": variant, "options": options,
                                         "seats": ["you"] + ["open"] * (n - 1)}).json()
    tokens = {0: r["token"]}
    for s in range(1, n):
        tokens[s] = client.post(f"/api/tables/{r['id']}/join", json={"name": f"P{s}"}).json()[
            "token"]
    rng = random.Random(seed)
    action_versions: list[int] = []
    with client.websocket_connect(f"/ws/{r['id']}") as spec_ws:
        spectator = hello(spec_ws)
        sockets = [client.websocket_connect(f"/ws/{r['id']}") for _ in range(n)]
        players: dict[int | None, Player] = {None: spectator}
        try:
            for s, cm in enumerate(sockets):
                players[s] = hello(cm.__enter__(), tokens[s])
            state = players[0].state
            assert state is not None
            while not state["over"]:
                mover = players[state["deal"]["to_move"]]
                legal = mover.state["deal"]["legal_actions"]  # type: ignore[index]
                mover.send({"type": "act", "action": legal[rng.randrange(len(legal))]})
                upd = mover.until("update")
                action_versions.append(upd["v"])
                for p in players.values():
                    if p is not mover:
                        p.until("update", upd["v"])
                state = mover.state
        finally:
            for cm in sockets:
                cm.__exit__(None, None, None)
    return r, players, action_versions


@pytest.mark.parametrize(("variant", "options", "seed"), GAMES)
def test_no_hidden_card_reaches_anyone(client: TestClient, variant: str,
                                       options: dict[str, Any], seed: int) -> None:
    r, players, action_versions = _play(client, variant, options, seed)
    record = client.get(f"/api/games/{r['id']}/record").json()
    oracle = Oracle(record)
    assert len(oracle.actions) == len(action_versions)
    index_of = {v: k + 1 for k, v in enumerate(action_versions)}
    checked = 0
    for audience, p in players.items():
        for m, state in zip(p.msgs, p.states, strict=True):
            text = json.dumps(m)
            assert "seed" not in text and "token" not in text
            k = index_of.get(m.get("v", -1), 0) if m["type"] == "update" else 0
            now, before = oracle.allowed[k][audience], oracle.prev[k][audience]
            leaked = cards_in(m) - now - before  # the message itself: events, delta, action
            assert not leaked, f"{audience} saw {leaked} in {m['type']} after {k} actions"
            if "state" in m or "delta" in m:
                assert state is not None
                deal = state["deal"]
                leaked = cards_in(deal) - now
                assert not leaked, f"{audience} saw {leaked} in {m['type']} after {k} actions"
                if audience is not None:
                    assert set(deal["hand"]) == set(oracle_hand(oracle, k, audience))
                leaked = cards_in(state.get("last_deal")) - before - now
                assert not leaked, f"{audience} saw {leaked} of the last deal"
                # the state rebuilt from deltas is the core's view, field for field
                assert deal == oracle.views[k][audience], f"{audience} after {k} actions"
            checked += 1
    assert checked >= len(players) * len(action_versions)


def oracle_hand(oracle: Oracle, k: int, seat: int) -> list[str]:
    m = Match.new(oracle.m.variant, seed=oracle.m.seed, options=oracle.m.options,
                  first_dealer=oracle.m.first_dealer)
    for a in oracle.actions[:k]:
        m.apply(a)
    return m.deal.hand(seat).to_list()


def test_the_checker_catches_a_leak(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Sanity check of the oracle: a server that lets the public part of the state (sent to
    spectators and every seat, in deltas) hold seat 0's hand fails."""
    from tute.server import protocol

    honest = protocol.spectator_deal_json

    def leaky(deal: Any) -> dict[str, Any]:
        out = honest(deal)
        out["peek"] = deal.hand(0).to_list()
        return out

    monkeypatch.setattr(protocol, "spectator_deal_json", leaky)
    with pytest.raises(AssertionError, match="None saw"):
        test_no_hidden_card_reaches_anyone(client, "tute_2p_corriente", {"games_to_win": 1}, 3)
