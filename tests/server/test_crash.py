"""Kill -9 the server in the middle of a deal, start it again on the same data dir, and finish
the game: nothing accepted is lost, and the table continues where it was."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tute.match import Match
from tute.server.protocol import apply_delta

pytestmark = pytest.mark.timeout(90)

ARGS = ("--bot-delay", "0", "--trick-pause", "0", "--bot-timeout", "600", "--ws-rate", "1000")


class WsPlayer:
    def __init__(self, base: str, table: str, token: str, since: int | None = None):
        self._cm = connect(base.replace("http", "ws") + f"/ws/{table}", open_timeout=10)
        self.ws = self._cm.__enter__()
        hello: dict[str, Any] = {"type": "hello", "token": token}
        if since is not None:
            hello["since"] = since
        self.ws.send(json.dumps(hello))
        self.welcome = json.loads(self.ws.recv(timeout=10))
        assert self.welcome["type"] == "welcome", self.welcome
        self.state = self.welcome["state"]
        self.v = self.welcome["v"]

    def act(self, action: str) -> dict[str, Any]:
        self.ws.send(json.dumps({"type": "act", "action": action, "v": self.v}))
        while True:
            m = json.loads(self.ws.recv(timeout=10))
            assert m["type"] != "error", m
            if m["type"] == "update":
                self.take(m)
                if m["seat"] == self.welcome["seat"]:
                    return dict(m)

    def take(self, update: dict[str, Any]) -> None:
        self.state, self.v = apply_delta(self.state, update["delta"]), update["v"]

    def close(self) -> None:
        self._cm.__exit__(None, None, None)


def test_kill_9_mid_deal_and_finish(server_process: Any, tmp_path: Any) -> None:
    kill_9_mid_deal_and_finish(lambda: server_process(*ARGS, data_dir=tmp_path / "data"))


def kill_9_mid_deal_and_finish(start: Callable[[], Any]) -> str:
    """Play into a deal on ``start()``'s server, kill -9 it, finish the game on a second
    ``start()`` (same storage); returns the table's id."""
    srv = start()
    r = httpx.post(srv.base + "/api/tables", json={
        "variant": "tute_2p_habanero", "seats": ["you", "open"], "name": "Ana",
        "options": {"games_to_win": 1}}).json()
    j = httpx.post(srv.base + f"/api/tables/{r['id']}/join", json={"name": "Bea"}).json()
    tokens = {0: r["token"], 1: j["token"]}
    rng = random.Random(11)
    players = {s: WsPlayer(srv.base, r["id"], tokens[s]) for s in (0, 1)}
    played: list[str] = []
    for _ in range(9):  # into the middle of the first deal
        st = players[0].state
        mover = st["deal"]["to_move"]
        legal = players[mover].state["deal"]["legal_actions"]
        action = legal[rng.randrange(len(legal))]
        players[mover].act(action)
        played.append(action)
        for p in players.values():  # keep both views current
            while p.v < players[mover].v:
                m = json.loads(p.ws.recv(timeout=10))
                if m["type"] == "update":
                    p.take(m)
    hand_before = players[0].state["deal"]["hand"]
    v_before = players[0].v
    srv.kill()  # SIGKILL mid-deal
    for p in players.values():
        p.close()

    srv2 = start()
    info = httpx.get(srv2.base + f"/api/tables/{r['id']}").json()
    assert info["status"] == "playing" and info["v"] == v_before
    players = {s: WsPlayer(srv2.base, r["id"], tokens[s], since=v_before) for s in (0, 1)}
    assert players[0].welcome["v"] == v_before and players[0].welcome["missed"] in ([], None)
    assert players[0].state["deal"]["hand"] == hand_before
    while not players[0].state["over"]:
        mover = players[0].state["deal"]["to_move"]
        legal = players[mover].state["deal"]["legal_actions"]
        action = legal[rng.randrange(len(legal))]
        upd = players[mover].act(action)
        played.append(action)
        other = players[1 - mover]
        while other.v < upd["v"]:
            m = json.loads(other.ws.recv(timeout=10))
            if m["type"] == "update":
                other.take(m)
    for p in players.values():
        p.close()
    record = httpx.get(srv2.base + f"/api/games/{r['id']}/record").json()
    assert [a for d in record["deals"] for a in d["actions"]] == played  # nothing lost
    assert Match.from_record({k: v for k, v in record.items() if k != "players"}).is_over()
    return str(r["id"])
