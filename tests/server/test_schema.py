"""Processes of a site started together on an empty PostgreSQL database all open it: the
tables are created once, under an advisory lock, not raced for (a duplicate ``pg_type`` row
failed all but one)."""

from __future__ import annotations

import threading

from tute.server.accounts_store import AccountStore
from tute.server.lease import Leases
from tute.server.store import Store


def test_stores_opened_at_once_on_an_empty_database(pg_url: str) -> None:
    n = 6
    barrier = threading.Barrier(n)
    errors: list[BaseException] = []
    stores: list[Store] = []

    def open_it(k: int) -> None:
        barrier.wait(30)
        try:
            s = Store(pg_url)
            stores.append(s)
            AccountStore(s)
            Leases(s.engine, f"node{k}", ttl=3.0)
        except BaseException as exc:  # collected for the assertion
            errors.append(exc)

    threads = [threading.Thread(target=open_it, args=(k,)) for k in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    for s in stores:
        s.close()
    assert errors == []
    assert len(stores) == n
