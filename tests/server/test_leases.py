"""Table leases and the write fence (tute.server.lease) against a throwaway PostgreSQL: who
may take a table, when, and that a process that lost a table's lease cannot write it, while
a thief's takeover waits for the writes in flight (so it reads every committed one)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import text

from tute.server.lease import Leases
from tute.server.store import LeaseLost, Store, TableRow

from .conftest import wait_until

pytestmark = pytest.mark.timeout(120)


def _row(table_id: str) -> TableRow:
    return TableRow(id=table_id, code=table_id[:8].upper(), variant="tute_2p_habanero",
                    options={}, seed=1, first_dealer=0,
                    seats=[{"kind": "human", "name": "Ana"}, {"kind": "bot", "name": "B"}],
                    host=0, public=False, status="playing", version=0, result=None,
                    created_at=0.0, finished_at=None)


@pytest.fixture
def store(pg_url: str) -> Iterator[Store]:
    s = Store(pg_url)
    s.start()
    yield s
    s.close()


def _expire(leases: Leases, table_id: str) -> None:
    """Make the table's lease run out now (as if its owner had stopped renewing)."""
    with leases.engine.begin() as conn:
        conn.execute(text("UPDATE tute_leases SET expires_at = clock_timestamp() - "
                          "interval '1 second' WHERE table_id = :t"), {"t": table_id})


def test_a_lease_is_taken_once_renewed_and_taken_over_when_expired(store: Store) -> None:
    a, b = Leases(store.engine, "node-a"), Leases(store.engine, "node-b")
    assert a.acquire("t1") == 1
    assert b.acquire("t1") is None  # held and live
    assert a.renew() == set() and a.holds("t1")
    lease = b.lookup(["t1", "nothing"])
    assert set(lease) == {"t1"} and lease["t1"].owner == "node-a" and lease["t1"].live
    _expire(a, "t1")
    assert not b.lookup(["t1"])["t1"].live
    assert b.acquire("t1") == 2  # the epoch grows with every owner
    assert a.renew() == {"t1"} and not a.holds("t1")  # the old owner learns it lost it
    assert b.renew() == set()
    b.release(["t1"])
    assert not b.holds("t1") and not a.lookup(["t1"])["t1"].live
    assert a.acquire("t1") == 3  # released: free at once, the epoch still grows


def test_an_expired_lease_nobody_took_is_renewed(store: Store) -> None:
    a = Leases(store.engine, "node-a")
    a.acquire("t1")
    _expire(a, "t1")  # a paused owner, but nobody took its table meanwhile: still its own
    assert a.renew() == set() and a.lookup(["t1"])["t1"].live


def test_orphans_are_the_unfinished_tables_nobody_holds(store: Store) -> None:
    a = Leases(store.engine, "node-a")
    for t in ("held", "free", "expired"):
        asyncio.run(_create(store, a, t))
    a.release(["free"])
    a.forget("expired")
    _expire(a, "expired")
    assert sorted(a.orphans()) == ["expired", "free"]


async def _create(store: Store, leases: Leases, table_id: str) -> None:
    leases.acquire(table_id)
    await store.write(Store.op_create(_row(table_id)))


def test_a_write_after_the_lease_is_lost_is_refused_and_others_are_kept(
        store: Store) -> None:
    a, b = Leases(store.engine, "node-a"), Leases(store.engine, "node-b")
    store.fence = a

    async def go() -> list[Any]:
        await _create(store, a, "t1")
        await _create(store, a, "t2")
        await store.write(Store.op_event("t1", 1, "action", 0, "1O"))
        _expire(a, "t1")
        assert b.acquire("t1") == 2  # stolen while a still has it in memory
        # one batch (group commit): the fenced-out table's write alone is refused
        return await asyncio.gather(
            store.write(Store.op_event("t1", 2, "action", 1, "2O")),
            store.write(Store.op_event("t2", 1, "action", 0, "3O")),
            store.write(Store.op_note("t1", "chat", 0, "{}")),
            return_exceptions=True)

    late, other, chat = asyncio.run(go())
    assert isinstance(late, LeaseLost) and isinstance(chat, LeaseLost)
    assert other is None
    assert [e.version for e in store.events("t1")] == [1]  # the thief's state: unchanged
    assert [e.version for e in store.events("t2")] == [1]
    assert not a.holds("t1") and a.holds("t2")
    assert not asyncio.run(store.committed("t1", 2))


def test_a_takeover_waits_for_the_write_in_flight(store: Store) -> None:
    a, b = Leases(store.engine, "node-a"), Leases(store.engine, "node-b")
    asyncio.run(_create(store, a, "t1"))
    _expire(a, "t1")  # a's lease ran out while a writes (a pause, a slow disk)
    got: list[int | None] = []
    with store.engine.connect() as conn:
        tx = conn.begin()
        assert a.refused(conn, {"t1"}) == set()  # the fence: a still holds epoch 1
        Store.op_event("t1", 1, "action", 0, "1O")(conn)
        thief = threading.Thread(target=lambda: got.append(b.acquire("t1")))
        thief.start()
        wait_until(lambda: _waiting_on_a_lock(store), "the takeover to wait for the writer")
        assert not got
        tx.commit()
    thief.join(30)
    assert got == [2]
    assert [e.version for e in store.events("t1")] == [1]  # the thief sees the write


def _waiting_on_a_lock(store: Store) -> bool:
    with store.engine.connect() as conn:
        n = conn.execute(text("SELECT count(*) FROM pg_stat_activity WHERE "
                              "wait_event_type = 'Lock' AND query LIKE '%tute_leases%'")
                         ).scalar()
    return bool(n)


def test_the_lobby_reads_the_newest_public_tables_alone(store: Store) -> None:
    """The once-a-second lobby read is bounded: the newest public tables of each status,
    however many a site has (private and finished ones never come back)."""
    from dataclasses import replace

    made = [("w", "waiting", True, 6), ("p", "playing", True, 5), ("x", "waiting", False, 4),
            ("y", "playing", False, 4), ("f", "finished", True, 3)]
    for prefix, status, public, n in made:
        for i in range(n):
            row = replace(_row(f"{prefix}{i:02d}table"), status=status, public=public,
                          created_at=float(i))
            asyncio.run(store.write(Store.op_create(row)))
    rows = store.lobby_rows(3)
    assert [r.id for r in rows] == ["w05table", "w04table", "w03table",
                                    "p04table", "p03table", "p02table"]
    assert len(store.lobby_rows(100)) == 11
