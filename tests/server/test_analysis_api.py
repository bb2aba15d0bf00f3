"""GET /api/games/{id}/analysis: the double-dummy analysis of a finished game, refused while it
is played (it would show every hand), computed once in the bot pool and then served from
memory, and from the data dir after a restart."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from .conftest import play_out

pytestmark = pytest.mark.timeout(300)


def _play_out(client: TestClient) -> dict[str, Any]:
    r: dict[str, Any] = client.post("/api/play", json={"variant": "tute_parejas", "level": "facil",
                                       "options": {"match": {"mode": "series", "deals": 1}}}
                    ).json()
    early = client.get(f"/api/games/{r['id']}/analysis")
    assert early.status_code == 409 and early.json()["error"] == "not_finished"
    play_out(client, r["id"], r["token"], seed=5)
    return r


def test_analysis_of_a_finished_game_is_cached(make_client: Any, tmp_path: Path) -> None:
    client = make_client(data_dir=tmp_path / "d")
    r = _play_out(client)
    t0 = time.perf_counter()
    first = client.get(f"/api/games/{r['id']}/analysis")
    cold = time.perf_counter() - t0
    assert first.status_code == 200, first.text
    a = first.json()
    assert a["measure"] == "double_dummy" and a["budget"]["search"] is None
    assert a["id"] == r["id"] and len(a["players"]) == 4 and a["sides"] == [0, 1, 0, 1]
    assert a["decisions"] and all(d["dd_loss"] is not None and d["dd_loss"] >= 0
                                  and isinstance(d["dd_value"], int) for d in a["decisions"])
    assert {row["seat"] for row in a["summary"]["seats"]} == {0, 1, 2, 3}
    t0 = time.perf_counter()
    again = client.get(f"/api/games/{r['id']}/analysis")
    warm = time.perf_counter() - t0
    assert again.json() == a
    print(f"analysis: first {cold:.2f} s, cached {warm * 1000:.1f} ms")
    assert warm < 1.0 and warm < cold
    one = client.get(f"/api/games/{r['id']}/analysis?deal=1").json()
    assert one["deal"] == 1 and one["decisions"] == a["decisions"]
    assert client.get(f"/api/games/{r['id']}/analysis?deal=2").status_code == 404
    assert client.get("/api/games/nope/analysis").status_code == 404
    # a restarted server reads it from the data dir: no new computation
    stored = list((tmp_path / "d" / "analysis").glob("*.json"))
    assert [f.stem for f in stored] == [r["id"]]
    client2 = make_client(data_dir=tmp_path / "d")
    t0 = time.perf_counter()
    assert client2.get(f"/api/games/{r['id']}/analysis").json() == a
    assert time.perf_counter() - t0 < 1.0


def test_one_deal_of_a_match() -> None:
    """?deal=N: that deal's decisions, and a summary of them alone."""
    from tute.analysis import analyze_deals
    from tute.match import Match
    from tute.server.hub import analysis_of_deal

    m = Match.new("tute_parejas", seed=3, options={"match": {"mode": "series", "deals": 2}})
    rng = random.Random(2)
    while not m.is_over():
        legal = m.legal_actions()
        m.apply(legal[rng.randrange(len(legal))])
    full = analyze_deals(list(m.deals), worlds=0, kind="match")
    whole = full.to_json()
    second = analysis_of_deal(whole, 1)
    mine = [d for d in full.decisions if d.deal == 1]
    assert second["deal"] == 2 and second["decisions"] == [d.to_json() for d in mine]
    assert second["decisions"] and all(d["deal"] == 1 for d in second["decisions"])
    lost = [d.dd_loss for d in mine if d.seat == 0 and d.dd_loss is not None]
    row = second["summary"]["seats"][0]
    assert row["dd_decisions"] == len(lost)
    assert row["dd_loss_per_decision"] == (round(sum(lost) / len(lost), 3) if lost else None)
