"""Server-wide caps that keep seated players in (nobody can shut the door on everyone):
spectators make room when the server is full, are capped in all and per address, and are let
go when idle; live and waiting tables are capped per address, far below the server's cap."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.asyncio.client import connect as ws_connect

from tute.server.clock import ManualClock
from tute.server.limits import Limits

from .conftest import POLLING, hello, wait_until

pytestmark = pytest.mark.timeout(120)


def _quick(c: TestClient) -> dict[str, Any]:
    r = c.post("/api/play", json={"variant": "tute_2p_corriente", "level": "facil",
                                  "name": "Ana", "options": {"games_to_win": 1}})
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_spectators_in_all_are_capped_per_address(make_client: Any) -> None:
    limits = Limits(spectators_per_address_total=2, http_rate=1000.0, http_burst=1000)
    c: TestClient = make_client(limits=limits)
    tables = [_quick(c) for _ in range(3)]
    with c.websocket_connect(f"/ws/{tables[0]['id']}") as w0, \
            c.websocket_connect(f"/ws/{tables[1]['id']}") as w1:
        hello(w0)
        hello(w1)
        with c.websocket_connect(f"/ws/{tables[2]['id']}") as w2:  # a third table: refused
            w2.send_json({"type": "hello"})
            m = w2.receive_json()
            assert m["type"] == "error" and m["code"] == "too_many_spectators" and m["fatal"]
        with c.websocket_connect(f"/ws/{tables[2]['id']}") as seat:  # a player: always in
            assert hello(seat, tables[2]["token"]).seat == 0
    with c.websocket_connect(f"/ws/{tables[2]['id']}") as w2:  # the others left: room again
        assert hello(w2).seat is None


def test_an_idle_spectator_is_let_go(make_client: Any, clock: ManualClock) -> None:
    limits = Limits(spectator_idle=600.0, http_rate=1000.0, http_burst=1000)
    c: TestClient = make_client(limits=limits, clock=clock)
    r = _quick(c)
    with c.websocket_connect(f"/ws/{r['id']}") as ws, \
            c.websocket_connect(f"/ws/{r['id']}") as player:
        watcher = hello(ws)
        me = hello(player, r["token"])
        clock.advance(599)  # something happens: the spectator stays
        st = me.state
        assert st is not None
        if st["deal"]["to_move"] == me.seat:
            player.send_json({"type": "act", "action": st["deal"]["legal_actions"][0]})
        watcher.until("update")
        clock.advance(599)
        watcher.send({"type": "ping", "ref": "here"})  # or the spectator says something
        assert watcher.until("pong")["ref"] == "here"
        clock.advance(600)  # still there: the last check saw a message
        while True:  # then nothing at all for a whole period: let go, told why
            clock.advance(600)
            m = watcher.recv()
            if m["type"] == "error":
                break
        assert m["code"] == "idle" and m["fatal"]
        st = me.state
        assert st is not None  # the player is not let go
        me.send({"type": "ping", "ref": "me"})
        assert me.until("pong")["ref"] == "me"


def test_a_seated_player_gets_in_when_spectators_fill_the_server(server_process: Any) -> None:
    """Spectators from four addresses fill max_connections; a seated player reconnecting
    (and any visitor) is let in: the oldest spectator of the busiest address makes room."""
    srv = server_process("--bot-delay", "0", "--trick-pause", "0",
                         env={"TUTE_LIMITS": "max_connections=8 spectators_per_address=8"})
    r = httpx.post(srv.base + "/api/play", json={"variant": "tute_2p_corriente",
                                                 "level": "facil"}).json()
    url = srv.base.replace("http", "ws") + f"/ws/{r['id']}"

    async def run() -> tuple[list[dict[str, Any]], dict[str, Any]]:
        watchers: list[Any] = []
        sources = ["127.0.0.2"] * 3 + ["127.0.0.3"] * 2 + ["127.0.0.4"] * 2 + ["127.0.0.5"]
        for source in sources:  # eight spectators: the server is full
            ws = await ws_connect(url, local_addr=(source, 0))
            await ws.send(json.dumps({"type": "hello"}))
            assert json.loads(await ws.recv())["type"] == "welcome"
            watchers.append(ws)
        async with ws_connect(url, local_addr=("127.0.0.6", 0)) as me:  # the player is back
            await me.send(json.dumps({"type": "hello", "token": r["token"]}))
            welcome = json.loads(await me.recv())
            assert welcome["type"] == "welcome" and welcome["seat"] == 0
            state = welcome["state"]
            while state["deal"]["to_move"] != 0:  # the bot's turn first, maybe
                m = json.loads(await me.recv())
                if m["type"] == "update":
                    state = None  # type: ignore[assignment]
                    break
            if state is not None:
                await me.send(json.dumps({"type": "act", "ref": "x",
                                          "action": state["deal"]["legal_actions"][0]}))
            played = json.loads(await me.recv())
            while played["type"] != "update":
                played = json.loads(await me.recv())
        # the first spectator of 127.0.0.2, the address with the most, was told and let go
        told = json.loads(await watchers[0].recv())
        for ws in watchers:
            await ws.close()
        return [told], played

    told, played = asyncio.run(run())
    assert told[0]["type"] == "error" and told[0]["code"] == "server_full"
    assert played["type"] == "update"
    # and the page loads for a new visitor once room is made
    wait_until(lambda: httpx.get(srv.base + "/").status_code == 200, "the page")


def test_live_and_waiting_tables_are_capped_per_address(make_client: Any) -> None:
    limits = Limits(tables_per_address=3, waiting_per_address=2, http_rate=1000.0,
                    http_burst=1000)
    c: TestClient = make_client(limits=limits, create_per_minute=1000.0)
    waiting = {"variant": "tute_2p_habanero", "seats": ["you", "open"]}
    for _ in range(2):
        assert c.post("/api/tables", json=waiting).status_code == 200
    r = c.post("/api/tables", json=waiting)
    assert r.status_code == 429 and r.json()["error"] == "too_many_tables", r.text
    assert "waiting" in r.json()["reason"]
    assert c.post("/api/play", json={"variant": "tute_2p_corriente"}).status_code == 200
    r = c.post("/api/play", json={"variant": "tute_2p_corriente"})
    assert r.status_code == 429 and r.json()["error"] == "too_many_tables", r.text
    # another address is not concerned
    other = TestClient(c.app, client=("10.1.2.3", 5000))
    assert other.post("/api/play", json={"variant": "tute_2p_corriente"}).status_code == 200


def test_the_global_cap_says_when_to_retry(make_client: Any, clock: ManualClock) -> None:
    c: TestClient = make_client(max_tables=2, clock=clock, waiting_ttl=600.0, limits=POLLING)
    for _ in range(2):
        assert c.post("/api/tables", json={"variant": "tute_2p_habanero",
                                           "seats": ["you", "open"]}).status_code == 200
    r = c.post("/api/play", json={"variant": "tute_2p_corriente"})
    assert r.status_code == 503 and r.json()["error"] == "busy", r.text
    assert r.json()["retry_after"] == 600 and r.headers["retry-after"] == "600"
    assert "10 min" in r.json()["reason"]


def test_a_table_nobody_came_to_is_reclaimed_quickly(make_client: Any,
                                                     clock: ManualClock) -> None:
    """Tables made and never used (waiting or playing) go after unclaimed_ttl, not after a
    day or half an hour; one a player came to keeps its usual time."""
    c: TestClient = make_client(clock=clock, waiting_ttl=24 * 3600.0, abandon_after=1800.0,
                                limits=Limits(unclaimed_ttl=600.0, http_rate=1000.0,
                                              http_burst=1000))
    waiting = c.post("/api/tables", json={"variant": "tute_2p_habanero",
                                          "seats": ["you", "open"]}).json()
    playing = _quick(c)
    used = _quick(c)
    with c.websocket_connect(f"/ws/{used['id']}") as ws:
        hello(ws, used["token"])
    wait_until(lambda: not c.get(f"/api/tables/{used['id']}").json()["seats"][0]["online"],
               "the departure")
    clock.advance(600)
    wait_until(lambda: c.get(f"/api/tables/{waiting['id']}").status_code == 404, "expiry")
    wait_until(lambda: c.get(f"/api/tables/{playing['id']}").json()["status"] == "abandoned",
               "the abandonment")
    assert c.get(f"/api/tables/{used['id']}").json()["status"] == "playing"


@pytest.mark.parametrize("body", [
    {"options": {"games_to_win": "3"}},
    {"options": {"cante_before_draw": "true"}},
    {"options": {"cante_before_draw": "false"}},
    {"options": {"last_trick_bonus": "10"}},
    {"public": "true"},
    {"chat": 1},
    {"clock": "30"},
])
def test_strings_are_not_coerced_to_numbers_or_booleans(client: TestClient,
                                                        body: dict[str, Any]) -> None:
    for path, base in (("/api/tables", {"variant": "tute_2p_habanero",
                                        "seats": ["you", "open"]}),
                       ("/api/play", {"variant": "tute_2p_habanero"})):
        r = client.post(path, json=base | body)
        assert r.status_code in (400, 422), (path, body, r.text)
        assert next(iter(body)) in r.text or next(iter(body.get("options", {"": 0}))) in r.text
    ok = client.post("/api/tables", json={"variant": "tute_2p_habanero", "seats": ["you", "open"],
                                          "options": {"games_to_win": 3,
                                                      "cante_before_draw": True}})
    assert ok.status_code == 200, ok.text
