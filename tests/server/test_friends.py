"""Playing with friends: table chat and quick phrases (text only, cleaned, rate-limited, stored
beside the game without touching its version, off when the table says so), rematches that
keep the players, bots and rules, the list of live tables to watch, the visitor's own history
with its result, and the house rules the lobby offers."""

from __future__ import annotations

import random
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tute.server.clock import ManualClock

from .conftest import choose, hello

pytestmark = pytest.mark.timeout(90)


def _pair(client: TestClient, **body: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    r = client.post("/api/tables", json={"variant": "tute_2p_habanero", "seats": ["you", "open"],
                                        "name": "Ana", "public": True, **body}).json()
    j = client.post(f"/api/tables/{r['id']}/join", json={"name": "Bea"}).json()
    return r, j


def _until_chat(p: Any) -> dict[str, Any]:
    while True:
        m = p.recv()
        if m["type"] in ("chat", "error"):
            return m


def test_chat_is_text_stored_apart_and_rate_limited(make_client: Any, tmp_path: Path) -> None:
    client = make_client(data_dir=tmp_path / "d")
    r, j = _pair(client)
    with client.websocket_connect(f"/ws/{r['id']}") as wa, \
            client.websocket_connect(f"/ws/{r['id']}") as wb, \
            client.websocket_connect(f"/ws/{r['id']}") as ws:
        a, b, spec = hello(wa, r["token"]), hello(wb, j["token"]), hello(ws)
        v = a.msgs[0]["v"]
        a.send({"type": "chat", "text": "  hola\n\u202e<b>equipo</b>\x00  "})
        m = _until_chat(b)
        assert m["type"] == "chat" and m["seat"] == 0 and m["name"] == "Ana"
        assert m["text"] == "hola <b>equipo</b>"  # plain text: the page escapes it
        assert _until_chat(spec)["text"] == m["text"]  # spectators read the table's chat
        assert _until_chat(a)["text"] == m["text"]  # and the sender sees its line
        b.send({"type": "chat", "phrase": "suerte"})
        assert _until_chat(a)["phrase"] == "suerte"
        assert _until_chat(b)["phrase"] == "suerte"
        b.send({"type": "chat", "phrase": "no-such"})
        assert _until_chat(b)["code"] == "bad_message"
        assert _until_chat(spec)["phrase"] == "suerte"
        spec.send({"type": "chat", "text": "hi"})
        assert _until_chat(spec)["code"] == "not_seated"
        a.send({"type": "chat", "text": "x" * 300})
        assert len(_until_chat(a)["text"]) == 200
        codes = []
        for _ in range(5):  # a burst of 4 lines, then the seat must wait
            a.send({"type": "chat", "text": "spam"})
            codes.append(_until_chat(a).get("code"))
        assert "rate_limited" in codes
        a.send({"type": "ping"})
        assert a.until("pong")["v"] == v  # chat never moves the game's version
    client.__exit__(None, None, None)
    again = make_client(data_dir=tmp_path / "d")  # after a restart the chat is still there
    with again.websocket_connect(f"/ws/{r['id']}") as wa:
        w = hello(wa, r["token"]).msgs[0]
        assert [c.get("text") or c.get("phrase") for c in w["chat"]][:2] == [
            "hola <b>equipo</b>", "suerte"]
        assert w["v"] == v


def test_chat_can_be_turned_off(client: TestClient) -> None:
    r, _ = _pair(client, chat=False)
    with client.websocket_connect(f"/ws/{r['id']}") as wa:
        a = hello(wa, r["token"])
        assert a.msgs[0]["table"]["chat"] is False
        a.send({"type": "chat", "text": "hola"})
        assert _until_chat(a)["code"] == "chat_off"


def _finish(client: TestClient, r: dict[str, Any], j: dict[str, Any],
            stack: ExitStack, clock: ManualClock | None = None) -> tuple[Any, Any]:
    """Both players play at random to the end of the match; on a ``clock``, a tenth of a
    second passes before each message (the connections' rate limits refill with it)."""
    rng = random.Random(2)
    wa = stack.enter_context(client.websocket_connect(f"/ws/{r['id']}"))
    wb = stack.enter_context(client.websocket_connect(f"/ws/{r['id']}"))
    a, b = hello(wa, r["token"]), hello(wb, j["token"])
    players = [a, b]
    while not a.state["over"]:
        for p in players:
            while p.state["deal"]["to_move"] == p.seat and not p.state["over"] and \
                    p.state["deal"]["legal_actions"]:
                if clock is not None:
                    clock.advance(0.1)
                p.send({"type": "act", "action": choose(p.state, rng)})
                p.until("update")
            for q in players:  # everyone catches up
                if clock is not None:
                    clock.advance(0.1)
                q.send({"type": "ping"})
                q.until("pong")
    return a, b


def test_rematch_keeps_players_and_history_shows_my_result(client: TestClient) -> None:
    r, j = _pair(client, options={"games_to_win": 1})
    with ExitStack() as stack:
        _rematch(client, r, j, stack)


def _rematch(client: TestClient, r: dict[str, Any], j: dict[str, Any],
             stack: ExitStack) -> None:
    a, b = _finish(client, r, j, stack)
    spec = hello(stack.enter_context(client.websocket_connect(f"/ws/{r['id']}")))
    a.send({"type": "rematch"})
    ra = a.until("rematch")
    rb = b.until("rematch")  # both players get their own seat at the new table
    rs = spec.until("rematch")  # a spectator gets the table to watch, and no token
    assert rs["id"] == ra["id"] and "token" not in rs and "seat" not in rs
    assert ra["id"] == rb["id"] and ra["seat"] == 0 and rb["seat"] == 1
    assert ra["token"] != rb["token"]
    b.send({"type": "rematch"})  # asking again gives the same table
    assert b.until("rematch")["token"] == rb["token"]
    info = client.get(f"/api/tables/{ra['id']}").json()
    assert [s["name"] for s in info["seats"]] == ["Ana", "Bea"]
    assert info["options"]["games_to_win"] == 1 and info["status"] == "playing"
    with client.websocket_connect(f"/ws/{ra['id']}") as ws:
        assert hello(ws, rb["token"]).seat == 1
    hist = client.get("/api/history", headers={"X-Tute-Seats": f"{r['id']}:{j['token']}"})
    game = next(g for g in hist.json()["games"] if g["id"] == r["id"])
    assert game["mine"] and game["seat"] == 1
    assert game["won"] == (game["result"]["winner"] == 1)
    other = client.get("/api/history").json()["games"]
    assert all(not g["mine"] for g in other)


def test_live_tables_and_option_specs(client: TestClient) -> None:
    r = client.post("/api/play", json={"variant": "guinote", "public": True}).json()
    live = client.get("/api/tables").json()["live"]
    assert r["id"] in [t["id"] for t in live]
    private = client.post("/api/play", json={"variant": "guinote"}).json()
    assert private["id"] not in [t["id"] for t in client.get("/api/tables").json()["live"]]
    variants = {v["id"]: v for v in client.get("/api/variants").json()["variants"]}
    specs = {o["name"]: o for o in variants["guinote"]["option_specs"]}
    assert specs["cotos_to_win"]["kind"] == "int" and specs["cotos_to_win"]["default"] == 2
    assert specs["cotos_to_win"]["min"] == 1 and specs["cotos_to_win"]["doc"]
    assert "choices" in specs["vueltas_claim"]


def test_one_rematch_table_even_after_the_first_was_forgotten(make_client: Any,
                                                             tmp_path: Any) -> None:
    """The old table forgets its rematch when it leaves memory (a restart here); asked
    again, it finds the same rematch table and gives the asker a new key to their seat
    there, never a second table."""
    data = tmp_path / "kept"
    c = make_client(data_dir=data)
    r, j = _pair(c, options={"games_to_win": 1})
    with ExitStack() as stack:
        a, b = _finish(c, r, j, stack)
        a.send({"type": "rematch"})
        first = a.until("rematch")
        b.until("rematch")
    c.__exit__(None, None, None)
    c2 = make_client(data_dir=data)
    with c2.websocket_connect(f"/ws/{r['id']}") as ws:
        bea = hello(ws, j["token"])
        bea.send({"type": "rematch"})
        again = bea.until("rematch")
    assert again["id"] == first["id"] and again["seat"] == 1 and again["token"]
    with c2.websocket_connect(f"/ws/{first['id']}") as ws:  # the new key holds the seat
        assert hello(ws, again["token"]).seat == 1
    with c2.websocket_connect(f"/ws/{first['id']}") as ws:  # Ana's first key still holds hers
        assert hello(ws, first["token"]).seat == 0
    hub = c2.app.state.hub  # no second rematch table: the old one and its rematch alone
    assert set(hub.tables) <= {r["id"], first["id"]}


def _rematch_asked(c: TestClient, clock: ManualClock,
                   stack: ExitStack) -> tuple[dict[str, Any], dict[str, Any]]:
    """A one-game match of two players on a turn clock, played to the end, and the rematch
    asked by the first: what each of them is sent of it."""
    r, j = _pair(c, options={"games_to_win": 1}, clock=10)
    a, b = _finish(c, r, j, stack, clock)
    a.send({"type": "rematch"})
    return a.until("rematch"), b.until("rematch")


def test_a_rematch_runs_nobodys_countdown_before_they_accept(make_client: Any,
                                                             clock: ManualClock) -> None:
    """The first player to ask makes the rematch; the others have not accepted yet (they
    may be reading the result): no stand-in countdown and no turn clock runs for them until
    they come to the new table, and then both run as at any table."""
    c = make_client(clock=clock, bot_timeout=20.0)
    with ExitStack() as stack:
        ra, rb = _rematch_asked(c, clock, stack)
        table = c.app.state.hub.tables[ra["id"]]
        seats = c.get(f"/api/tables/{ra['id']}").json()["seats"]
        assert [s["pending"] for s in seats] == [True, True]
        assert [s["bot_in"] for s in seats] == [None, None]
        assert table._turn is None  # not even the first player's clock
        ana = hello(stack.enter_context(c.websocket_connect(f"/ws/{ra['id']}")), ra["token"])
        seats = ana.msgs[0]["table"]["seats"]
        assert [s["pending"] for s in seats] == [False, True] and seats[1]["bot_in"] is None
        rng = random.Random(3)
        while ana.state["deal"]["to_move"] == 0:  # Ana plays until it is Bea's turn
            clock.advance(0.1)
            ana.send({"type": "act", "action": choose(ana.state, rng)})
            ana.until("update")
        assert table._turn is None  # Bea's clock waits for her
        v = ana.v
        clock.advance(600.0)  # long past any clock and any stand-in's countdown
        ana.send({"type": "ping"})
        assert ana.until("pong")["v"] == v  # nobody played for Bea
        bea = hello(stack.enter_context(c.websocket_connect(f"/ws/{ra['id']}")), rb["token"])
        assert not bea.msgs[0]["table"]["seats"][1]["pending"]
        assert table._turn is not None and table._turn[0] == 1  # her clock runs now
        clock.advance(10.0)
        u = bea.until("update")
        assert u["seat"] == 1 and u["stand_in"] == "clock"



def test_a_rematch_not_accepted_stays_without_countdowns_after_a_restart(
        make_client: Any, clock: ManualClock, tmp_path: Path) -> None:
    """Who has not accepted the rematch yet is still waited for after a restart (the server
    keeps it with the table); who accepted has their countdowns back, as at any table."""
    data = tmp_path / "kept"
    c = make_client(clock=clock, bot_timeout=20.0, data_dir=data)
    with ExitStack() as stack:
        ra, rb = _rematch_asked(c, clock, stack)
    c.__exit__(None, None, None)
    c2 = make_client(clock=clock, bot_timeout=20.0, data_dir=data)  # the restart
    seats = c2.get(f"/api/tables/{ra['id']}").json()["seats"]
    assert [s["pending"] for s in seats] == [True, True]
    assert [s["bot_in"] for s in seats] == [None, None]
    table = c2.app.state.hub.tables[ra["id"]]
    assert table._turn is None
    with c2.websocket_connect(f"/ws/{ra['id']}") as ws:  # Ana accepts, then goes away
        ana = hello(ws, ra["token"])
        assert [s["pending"] for s in ana.msgs[0]["table"]["seats"]] == [False, True]
        ana.send({"type": "ping"})
        ana.until("pong")
    c2.__exit__(None, None, None)
    c3 = make_client(clock=clock, bot_timeout=20.0, data_dir=data)  # and a second restart
    seats = c3.get(f"/api/tables/{ra['id']}").json()["seats"]
    assert [s["pending"] for s in seats] == [False, True]
    assert seats[0]["bot_in"] is not None and seats[1]["bot_in"] is None
    with c3.websocket_connect(f"/ws/{ra['id']}") as ws:
        bea = hello(ws, rb["token"])
        assert [s["pending"] for s in bea.msgs[0]["table"]["seats"]] == [False, False]
