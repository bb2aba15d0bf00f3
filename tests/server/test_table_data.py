"""The public state the page draws the table from: partnerships and seat order (never guessed
from the seat count), the score sheet deal by deal, and the countdown before a bot takes an
absent player's seat."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tute.match import Match
from tute.server.protocol import public_state, score_sheet, seating

from .conftest import hello

pytestmark = pytest.mark.timeout(60)


@pytest.mark.parametrize(("variant", "options", "partners", "sides", "idle"), [
    ("tute_parejas", {}, True, 2, False),
    ("guinote", {}, True, 2, False),
    ("tute_cabron", {"players": 4}, False, 4, False),
    ("tute_arrastrado_3p", {"players": 4}, False, 4, False),
    ("tute_subastado", {"seats": 4}, False, 4, True),
    ("tute_2p_habanero", {}, False, 2, False),
])
def test_seating_comes_from_the_engine(variant: str, options: dict[str, Any], partners: bool,
                                       sides: int, idle: bool) -> None:
    m = Match.new(variant, seed=5, options=options)
    s = seating(m)
    assert s["partnerships"] is partners and s["sides"] == sides
    assert s["side_of"] == [m.deal.side_of(i) for i in range(m.deal.seats)]
    # subastado with four: the dealer sits the deal out
    assert s["idle"] == ([m.deal.dealer] if idle else [])
    assert public_state(m)["seating"] == s


def test_score_sheet_rows_for_finished_deals_with_running_totals() -> None:
    m = Match.new("guinote", seed=3)
    rng = random.Random(1)
    seen_vueltas = False
    while not m.is_over():
        m.apply(rng.choice(m.legal_actions()))
        rows = score_sheet(m)
        finished = sum(d.is_over() for d in m.deals)
        assert [r["number"] for r in rows] == list(range(1, finished + 1))
        for r, d in zip(rows, m.deals, strict=False):
            assert r["totals"] == list(d.result().totals)
        seen_vueltas |= any(r.get("vueltas") for r in rows)
    assert seen_vueltas  # this seed has a deal de vueltas, with its running totals
    assert all("running" in r for r in score_sheet(m))
    assert public_state(m)["sheet"] == score_sheet(m)


def test_absent_players_seat_shows_a_countdown(make_client: Any) -> None:
    client: TestClient = make_client(bot_timeout=30.0)
    r = client.post("/api/tables", json={"variant": "tute_2p_habanero", "seats": ["you", "open"],
                                        "name": "Ana"}).json()
    j = client.post(f"/api/tables/{r['id']}/join", json={"name": "Bea"}).json()
    with client.websocket_connect(f"/ws/{r['id']}") as ws_a:
        a = hello(ws_a, r["token"])
        with client.websocket_connect(f"/ws/{r['id']}") as ws_b:
            hello(ws_b, j["token"])
            m = a.until("seats")
            while not m["seats"][1]["online"]:  # Ana's own arrival comes first
                m = a.until("seats")
            assert m["seats"][1]["bot_in"] is None
        m = a.until("seats")  # Bea left: a bot takes her seat in 30 s, and Ana sees it coming
        assert not m["seats"][1]["online"]
        assert 25 <= m["seats"][1]["bot_in"] <= 30
        assert m["seats"][0]["bot_in"] is None
