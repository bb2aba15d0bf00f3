"""Search-bot levels at a table: they think in a worker process, off the event loop."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from .conftest import hello

pytest.importorskip("numba")
# a guard against a hang only: the first search bot waits for the solver's compiled code,
# minutes on a loaded machine
pytestmark = pytest.mark.timeout(900)


def test_dificil_bot_plays_in_a_worker_while_the_table_answers(make_client: Any) -> None:
    c: TestClient = make_client()
    r = c.post("/api/play", json={"variant": "tute_2p_habanero", "level": "dificil",
                                  "name": "Ana"}).json()
    with c.websocket_connect(f"/ws/{r['id']}") as ws:
        ana = hello(ws, r["token"])
        bot_moves = 0
        pings: list[float] = []
        deadline = time.monotonic() + 800  # a hang guard
        while bot_moves < 2 and time.monotonic() < deadline:
            st = ana.state
            assert st is not None
            if st["deal"]["to_move"] == ana.seat:
                ana.send({"type": "act", "action": st["deal"]["legal_actions"][0]})
                ana.until("update")
                continue
            # the bot thinks (about a second): the table keeps answering at once meanwhile
            t = time.perf_counter()
            ana.send({"type": "ping", "ref": "p"})
            msg = ana.recv()
            while msg["type"] not in ("pong", "update"):
                msg = ana.recv()
            if msg["type"] == "pong":
                pings.append(time.perf_counter() - t)
                msg = ana.until("update")
            assert msg["seat"] != ana.seat
            bot_moves += 1
        assert bot_moves == 2, "the dificil bot never played"
        # a ping sent while the bot thought was answered before its move: the table's loop
        # does not wait for a bot (times printed, not compared: the machine may be busy)
        print(f"pings while the bot thought: {[round(p, 3) for p in pings]} s")
        assert pings
