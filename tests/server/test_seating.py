"""The server tells who sits where from the engine: a quick game at a table size set by the
options, the seat counts each variant offers, the order of play in the public state."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

import tute
from tute.server.protocol import public_state


@pytest.mark.parametrize(("variant", "options"), [
    ("tute_cabron", {"players": 4}), ("tute_subastado", {"seats": 4}),
    ("tute_arrastrado_3p", {"players": 4})])
def test_quick_game_takes_the_seat_count_from_the_options(client: TestClient, variant: str,
                                                          options: dict[str, int]) -> None:
    r = client.post("/api/play", json={"variant": variant, "options": options, "level": "facil"})
    assert r.status_code == 200, r.text
    info = client.get(f"/api/tables/{r.json()['id']}").json()
    assert len(info["seats"]) == 4


def test_quick_game_refuses_bad_options_by_name(client: TestClient) -> None:
    r = client.post("/api/play", json={"variant": "tute_cabron", "options": {"players": 9}})
    assert r.status_code == 400 and r.json()["error"] == "bad_table"


def test_variants_list_every_seat_count(client: TestClient) -> None:
    got = {v["id"]: v["seat_counts"] for v in client.get("/api/variants").json()["variants"]}
    assert got["tute_subastado"] == {"option": "seats", "by_value": {"3": 3, "4": 4},
                                     "counts": [3, 4]}
    assert got["tute_cabron"]["option"] == "players" and got["tute_cabron"]["counts"] == [3, 4]
    assert got["tute_parejas"] == {"option": None, "by_value": {}, "counts": [4]}


def test_public_state_carries_the_order_of_play() -> None:
    m = tute.Match.new("tute_subastado", seed=3, options={"seats": 4}, first_dealer=1)
    seating = public_state(m)["seating"]
    assert seating["play_order"] == [2, 3, 0] and seating["idle"] == [1]
    assert seating["partnerships"] is False and seating["side_of"] == [0, 1, 2, 3]
    deal = public_state(m)["deal"]
    assert deal["play_order"] == [2, 3, 0] and deal["partnerships"] is False
    pub = public_state(tute.Match.new("tute_parejas", seed=1))
    assert pub["seating"]["partnerships"] and pub["deal"]["side_of"] == [0, 1, 0, 1]
    assert pub["deal"]["goal"] == pub["goal_info"]


def test_page_reads_partnerships_and_trick_seats_from_the_server() -> None:
    from pathlib import Path

    js = (Path(tute.__file__).parent / "web" / "app.js").read_text(encoding="utf-8")
    assert "n === 4" not in js and "length === 4" not in js
    assert "leader + i" not in js


def test_last_deal_summary_names_the_seats_of_its_last_trick() -> None:
    import random

    from tute.server.protocol import deal_summary

    m = tute.Match.new("tute_subastado", seed=8, options={"seats": 4})
    rng = random.Random(8)
    while len(m.deals) == 1:
        m.apply(rng.choice(m.deal.legal_actions()))
    last = m.deals[0].tricks[-1]
    summary = deal_summary(m.deals[0], 1)
    assert summary is not None and summary["last_trick"]["seats"] == list(last.seats)
