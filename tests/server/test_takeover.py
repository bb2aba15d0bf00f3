"""A seat whose player is gone is played by a bot after a timeout and handed back when the
player returns."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tute.server.clock import ManualClock

from .conftest import hello, wait_until

pytestmark = pytest.mark.timeout(60)
TIMEOUT = 60.0  # bot_timeout, on the test's clock


def test_bot_takes_over_and_hands_back(make_client: Any, clock: ManualClock) -> None:
    c: TestClient = make_client(bot_timeout=TIMEOUT, clock=clock)
    r = c.post("/api/tables", json={"variant": "tute_2p_habanero", "seats": ["you", "open"],
                                    "options": {"games_to_win": 3}}).json()
    j = c.post(f"/api/tables/{r['id']}/join", json={"name": "Bea"}).json()
    info = lambda: c.get(f"/api/tables/{r['id']}").json()  # noqa: E731
    with c.websocket_connect(f"/ws/{r['id']}") as wb:
        bea = hello(wb, j["token"])
        # Ana never connected: after the timeout a bot plays her seat, Bea sees it announced
        assert not bea.msgs[0]["table"]["seats"][0]["away"]
        clock.advance(TIMEOUT)
        seats = bea.until("seats")
        while not seats["seats"][0]["away"]:
            seats = bea.until("seats")
        assert seats["seats"][0]["kind"] == "human"
        # Bea plays; Ana's bot answers each time
        for _ in range(4):
            st = bea.state
            assert st is not None
            if st["deal"]["to_move"] == bea.seat:
                bea.send({"type": "act", "action": st["deal"]["legal_actions"][0]})
            upd = bea.until("update")
            if upd["seat"] == 0:
                break
        else:
            pytest.fail("the stand-in bot never played for seat 0")
        # Ana comes back: the seat is hers again and the bot stops
        with c.websocket_connect(f"/ws/{r['id']}") as wa:
            ana = hello(wa, r["token"])
            assert not ana.msgs[0]["table"]["seats"][0]["away"]
            back = bea.until("seats")
            while back["seats"][0]["away"] or not back["seats"][0]["online"]:
                back = bea.until("seats")
            # make it Ana's turn, then check that nobody plays for her any more
            while True:
                st = bea.state
                assert st is not None
                if st["deal"]["to_move"] == 0:
                    break
                bea.send({"type": "act", "action": st["deal"]["legal_actions"][0]})
                bea.until("update")
            v = info()["v"]
            assert clock.pending() == 0  # no stand-in is due
            clock.advance(2 * TIMEOUT)
            assert info()["v"] == v, "a bot played although Ana is connected"
            ana.send({"type": "act", "action": _mine(ana, v)})
            assert ana.until("update")["seat"] == 0
        # Ana leaves again: the bot comes back after the timeout
        wait_until(lambda: not info()["seats"][0]["online"], "Ana's departure")
        clock.advance(TIMEOUT - 1)
        assert not info()["seats"][0]["away"]
        clock.advance(1)
        wait_until(lambda: info()["seats"][0]["away"], "the stand-in")


def _mine(p: Any, v: int) -> str:
    while p.v < v:
        p.recv()
    return str(p.state["deal"]["legal_actions"][0])


def test_bots_wait_for_open_seats(make_client: Any, clock: ManualClock) -> None:
    c: TestClient = make_client(bot_timeout=TIMEOUT, clock=clock)
    r = c.post("/api/tables", json={"variant": "tute_parejas",
                                    "seats": ["you", "medio", "open", "medio"]}).json()
    clock.advance(4 * TIMEOUT)
    info = c.get(f"/api/tables/{r['id']}").json()
    assert info["status"] == "waiting" and info["v"] == 0  # nothing played, nobody away
    assert not any(s["away"] for s in info["seats"])
