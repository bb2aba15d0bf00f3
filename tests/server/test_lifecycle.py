"""Table life cycle and storage: forgotten waiting tables expire; batched writes."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tute.server.clock import ManualClock
from tute.server.store import Store, TableRow

from .conftest import hello, wait_until

pytestmark = pytest.mark.timeout(60)
TTL = 600.0


def _gone(c: TestClient, r: dict[str, Any]) -> None:
    wait_until(lambda: c.get(f"/api/tables/{r['id']}").status_code == 404, "the expiry")


def _online(c: TestClient, r: dict[str, Any]) -> bool:
    return any(s["online"] and s["kind"] == "human"
               for s in c.get(f"/api/tables/{r['id']}").json()["seats"])


def test_waiting_table_expires_when_nobody_is_there(make_client: Any, tmp_path: Path,
                                                    clock: ManualClock) -> None:
    c: TestClient = make_client(waiting_ttl=TTL, data_dir=tmp_path / "d", clock=clock)
    r = c.post("/api/tables", json={"variant": "tute_2p_habanero", "seats": ["you", "open"],
                                    "public": True}).json()
    kept = c.post("/api/tables", json={"variant": "tute_2p_habanero",
                                       "seats": ["you", "bot"]}).json()  # playing: never expires
    with c.websocket_connect(f"/ws/{r['id']}") as ws:
        hello(ws, r["token"])
        clock.advance(2 * TTL)  # someone is there: it waits as long as they do
        assert c.get(f"/api/tables/{r['id']}").json()["status"] == "waiting"
    wait_until(lambda: not _online(c, r), "the departure")
    clock.advance(TTL - 1)
    assert c.get(f"/api/tables/{r['id']}").json()["status"] == "waiting"
    clock.advance(1)
    _gone(c, r)  # left alone: it expires ttl seconds later
    assert c.get(f"/api/code/{r['code']}").status_code == 404
    assert c.get("/api/tables").json()["tables"] == []
    assert c.post(f"/api/tables/{r['id']}/join", json={}).status_code == 404
    with c.websocket_connect(f"/ws/{r['id']}") as ws:
        ws.send_json({"type": "hello", "token": r["token"]})
        m = ws.receive_json()
        assert m["code"] == "not_found" and m["fatal"]
    assert c.get(f"/api/tables/{kept['id']}").status_code == 200
    # and it stays gone after a restart on the same storage
    c2: TestClient = make_client(waiting_ttl=TTL, data_dir=tmp_path / "d", clock=clock)
    assert c2.get(f"/api/tables/{r['id']}").status_code == 404
    assert c2.get(f"/api/tables/{kept['id']}").status_code == 200


def test_joining_restarts_the_clock(make_client: Any, clock: ManualClock) -> None:
    c: TestClient = make_client(waiting_ttl=TTL, clock=clock)
    r = c.post("/api/tables", json={"variant": "tute_parejas",
                                    "seats": ["you", "open", "open", "open"]}).json()
    for _ in range(3):
        clock.advance(0.6 * TTL)  # 1.8 times the ttl in all, 0.6 since the last join
        assert c.post(f"/api/tables/{r['id']}/join", json={}).status_code == 200
    assert c.get(f"/api/tables/{r['id']}").json()["status"] == "playing"
    clock.advance(2 * TTL)
    assert c.get(f"/api/tables/{r['id']}").status_code == 200  # full: playing, kept


def _row(i: int) -> TableRow:
    return TableRow(id=f"t{i}", code=f"C{i}", variant="tute_2p_habanero", options={}, seed=i,
                    first_dealer=0, seats=[], host=0, public=False, status="playing",
                    version=0, result=None, created_at=0.0, finished_at=None)


def test_store_batches_events_and_isolates_a_bad_one(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 's.sqlite3'}")
    store.start()

    async def go() -> list[Any]:
        await asyncio.gather(*(store.write(Store.op_create(_row(i))) for i in range(20)))
        ops = [Store.op_event(f"t{i}", 1, "action", 0, "Ao") for i in range(20)]
        ops.append(Store.op_event("t3", 1, "action", 0, "Ao"))  # a duplicate version
        ops.append(Store.op_event("t5", 2, "action", 1, "3o", status="finished",
                                  result={"winner": 1}))
        return await asyncio.gather(*(store.write(op) for op in ops), return_exceptions=True)

    try:
        results = asyncio.run(go())
        assert [isinstance(x, Exception) for x in results] == [False] * 20 + [True, False]
        assert [e.version for e in store.events("t3")] == [1]
        assert [(e.version, e.data) for e in store.events("t5")] == [(1, "Ao"), (2, "3o")]
        t5 = store.get("t5")
        assert t5 is not None and t5.status == "finished" and t5.version == 2
        assert t5.result == {"winner": 1} and t5.finished_at
        assert all(store.get(f"t{i}").version == 1 for i in range(20) if i != 5)  # type: ignore[union-attr]
    finally:
        store.close()
