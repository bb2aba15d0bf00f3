"""The WebSocket protocol: greeting, intents, refusals, spectators, reconnection."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from .conftest import Player, choose, hello, two_seats

pytestmark = pytest.mark.timeout(60)


def _quick(client: TestClient, variant: str = "tute_parejas", **options: Any) -> dict[str, Any]:
    r = client.post("/api/play", json={"variant": variant, "level": "facil", "name": "Ana",
                                       "options": options})
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_welcome_is_my_own_view(client: TestClient) -> None:
    r = _quick(client)
    with client.websocket_connect(f"/ws/{r['id']}") as ws:
        p = hello(ws, r["token"])
        welcome = p.msgs[0]
        assert welcome["protocol"] == 2 and welcome["seat"] == 0
        deal = welcome["state"]["deal"]
        assert len(deal["hand"]) in (9, 10) and deal["seat"] == 0
        assert welcome["table"]["code"] == r["code"]
        assert "seed" not in json.dumps(welcome)


def test_bad_greetings_are_fatal(client: TestClient) -> None:
    r = _quick(client)
    cases = [
        ({"type": "act", "action": "Ao"}, "hello_expected"),
        ({"type": "hello", "token": "forged-token"}, "bad_token"),
        ({"type": "hello", "token": 5}, "bad_message"),
        ({"type": "hello", "evil": 1}, "bad_message"),
        ({"type": "nope"}, "bad_message"),
        ({"type": "hello", "protocol": 1}, "protocol"),  # updates were whole states in 1
    ]
    for msg, code in cases:
        with client.websocket_connect(f"/ws/{r['id']}") as ws:
            ws.send_text(json.dumps(msg))
            m = ws.receive_json()
            assert m["type"] == "error" and m["code"] == code and m["fatal"], m
    with client.websocket_connect("/ws/doesnotexist") as ws:
        ws.send_text(json.dumps({"type": "hello"}))
        assert ws.receive_json()["code"] == "not_found"
    with client.websocket_connect(f"/ws/{r['id']}") as ws:
        ws.send_text("x" * 5000)
        assert ws.receive_json()["code"] == "too_long"


def test_illegal_and_malformed_intents_change_nothing(client: TestClient) -> None:
    tid, (t0, t1) = two_seats(client, "tute_2p_habanero")
    with client.websocket_connect(f"/ws/{tid}") as w0, \
            client.websocket_connect(f"/ws/{tid}") as w1:
        players = {0: hello(w0, t0), 1: hello(w1, t1)}
        st = players[0].state
        assert st is not None
        mover = players[st["deal"]["to_move"]]
        other = players[1 - mover.seat]  # type: ignore[operator]
        v = mover.v
        hand = mover.state["deal"]["hand"]  # type: ignore[index]
        other_hand = other.state["deal"]["hand"]  # type: ignore[index]

        def refused(p: Player, msg: Any, code: str) -> str:
            p.ws.send_text(msg if isinstance(msg, str) else json.dumps(msg))
            m = p.until("error")
            assert m["code"] == code, m
            return str(m["reason"])

        assert refused(other, {"type": "act", "action": other_hand[0]}, "not_your_turn")
        assert "not in" in refused(mover, {"type": "act", "action": other_hand[0]}, "illegal")
        assert "invalid action" in refused(mover, {"type": "act", "action": "Zz"}, "bad_action")
        refused(mover, {"type": "act", "action": "pass"}, "illegal")
        refused(mover, {"type": "act"}, "bad_message")
        refused(mover, {"type": "act", "action": ["Ao"]}, "bad_message")
        refused(mover, {"type": "act", "action": "x" * 100}, "bad_message")
        refused(mover, "{not json", "bad_message")
        refused(mover, "[1, 2]", "bad_message")
        refused(mover, {"type": "hello"}, "already_greeted")
        refused(mover, {"type": "act", "action": hand[0], "v": v + 7}, "stale")
        refused(mover, {"type": "fill_bots"}, "not_waiting" if mover.seat == 0 else "not_host")
        # nothing moved: the same version and the same hand
        mover.send({"type": "ping", "ref": "p1"})
        pong = mover.until("pong")
        assert pong["v"] == v and pong["ref"] == "p1"
        mover.send({"type": "sync", "since": v})
        cu = mover.until("catchup")
        assert cu["missed"] == [] and cu["state"]["deal"]["hand"] == hand
        # a legal action is accepted, echoed with its ref, and broadcast to both
        card = mover.state["deal"]["legal_actions"][-1]  # type: ignore[index]
        mover.send({"type": "act", "action": card, "v": v, "ref": "a1"})
        mine = mover.until("update")
        theirs = other.until("update")
        assert mine["ref"] == "a1" and "ref" not in theirs
        assert mine["v"] == theirs["v"] == v + 1 and mine["action"] == theirs["action"] == card
        assert card not in mover.state["deal"]["hand"]  # type: ignore[index]
        assert mine["delta"]["deal"]["hand"] == mover.state["deal"]["hand"]  # type: ignore[index]
        assert "hand" not in theirs["delta"]["deal"]  # the other hand did not change


def test_spectator_sees_public_view_only_and_cannot_act(client: TestClient) -> None:
    r = _quick(client, "guinote")
    with client.websocket_connect(f"/ws/{r['id']}") as ws:
        spec = hello(ws)
        assert spec.seat is None
        deal = spec.state["deal"]  # type: ignore[index]
        assert deal["hand"] == [] and deal["legal_actions"] == [] and deal["seat"] is None
        spec.send({"type": "act", "action": "Ao"})
        assert spec.until("error")["code"] == "not_seated"


def test_rate_limit_per_connection(make_client: Any) -> None:
    c = make_client(ws_rate=0.001, ws_burst=3)  # no token comes back during the test
    r = _quick(c)
    with c.websocket_connect(f"/ws/{r['id']}") as ws:
        p = hello(ws, r["token"])
        for i in range(6):
            p.send({"type": "ping", "ref": str(i)})
        got: list[dict[str, Any]] = []
        while len(got) < 6:  # bots' updates may come in between
            m = p.recv()
            if m["type"] in ("pong", "error"):
                got.append(m)
        assert [m["type"] for m in got].count("pong") == 3
        assert sum(m.get("code") == "rate_limited" for m in got) == 3


def test_reconnect_with_version_gets_what_was_missed(client: TestClient) -> None:
    tid, (t0, t1) = two_seats(client, "tute_2p_corriente")
    rng = random.Random(5)
    with client.websocket_connect(f"/ws/{tid}") as wb:
        bea = hello(wb, t1)
        with client.websocket_connect(f"/ws/{tid}") as wa:
            ana = hello(wa, t0)
            seen = ana.v
        # Ana is gone; Bea and (for Ana's seat) nobody... so Ana comes back to act when needed.
        # Bea plays while she can; whenever Ana must act, Ana reconnects from her last version.
        for _ in range(6):
            st = bea.state
            assert st is not None
            if st["deal"]["to_move"] == bea.seat:
                bea.send({"type": "act", "action": choose(st, rng)})
                bea.until("update")
                continue
            with client.websocket_connect(f"/ws/{tid}") as wa:
                ana = hello(wa, t0, since=seen)
                welcome = ana.msgs[0]
                missed = welcome["missed"]
                assert [u["v"] for u in missed] == list(range(seen + 1, welcome["v"] + 1))
                assert all(u["seat"] == bea.seat for u in missed if u["kind"] == "action")
                ana.send({"type": "act", "action": choose(welcome["state"], rng)})
                upd = ana.until("update")
                seen = upd["v"]
            bea.until("update", seen)
        # a version from the future, or too old to be kept, gets a fresh state only
        with client.websocket_connect(f"/ws/{tid}") as wa:
            ana = hello(wa, t0, since=10_000)
            assert ana.msgs[0]["missed"] is None and ana.msgs[0]["state"]["deal"]["hand"]


def test_fill_bots_by_host_starts_the_game(client: TestClient) -> None:
    r = client.post("/api/tables", json={"variant": "tute_parejas",
                                         "seats": ["you", "open", "open", "open"]}).json()
    with client.websocket_connect(f"/ws/{r['id']}") as ws:
        p = hello(ws, r["token"])
        assert p.msgs[0]["table"]["status"] == "waiting"
        p.send({"type": "act", "action": "Ao"})
        assert p.until("error")["code"] == "not_started"
        p.send({"type": "fill_bots", "level": "facil"})
        seats = p.until("seats")
        assert seats["status"] == "playing"
        assert [s["kind"] for s in seats["seats"]] == ["human", "bot", "bot", "bot"]
        # the bots play until it is seat 0's turn (or it already was)
        while p.state is not None and p.state["deal"]["to_move"] != 0:
            p.until("update")


def test_refusals_carry_their_code_and_the_page_its_words(client: TestClient) -> None:
    """An illegal intent's error has ``refusal: {code, params}``; /api/messages/{lang} serves
    tute.i18n's templates, so the page words it as the CLI does."""
    from tute.i18n import REFUSALS, refusal_text
    from tute.messages import Refusal

    tid, (t0, t1) = two_seats(client, "tute_2p_habanero")
    with client.websocket_connect(f"/ws/{tid}") as w0, \
            client.websocket_connect(f"/ws/{tid}") as w1:
        players = {0: hello(w0, t0), 1: hello(w1, t1)}
        st = players[0].state
        assert st is not None
        mover = players[st["deal"]["to_move"]]
        other = players[1 - mover.seat]  # type: ignore[operator]
        card = other.state["deal"]["hand"][0]  # type: ignore[index]
        mover.send({"type": "act", "action": card})
        m = mover.until("error")
        assert m["code"] == "illegal"
        assert m["refusal"] == {"code": "not_in_hand", "params": {"card": card, "seat": mover.seat}}
        why = Refusal.of("not_in_hand", card=card, seat=mover.seat)
        assert m["reason"] == refusal_text("en", why)
        other.send({"type": "act", "action": card})
        assert other.until("error")["refusal"] == {"code": "not_your_turn", "params": {}}
        mover.send({"type": "act", "action": "Zz"})
        assert mover.until("error")["refusal"]["code"] == "bad_notation"
    for lang in ("es", "en"):
        cat = client.get(f"/api/messages/{lang}").json()
        assert cat["refusals"] == REFUSALS[lang] and cat["suits"]["c"] == "copas"
    assert client.get("/api/messages/fr").status_code == 404
