"""Helpers of the account and rating tests: a client over https (the session cookie is
Secure), cheap password hashing, accounts, and people playing a table to its end."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from tute.server import accounts

from .conftest import Player, choose, hello


@pytest.fixture(autouse=True)
def cheap_hashing(monkeypatch: pytest.MonkeyPatch) -> None:
    """argon2 at a tiny cost: the tests check what is hashed, not how slowly."""
    monkeypatch.setitem(accounts.PASSWORD_COST, "time_cost", 1)
    monkeypatch.setitem(accounts.PASSWORD_COST, "memory_cost", 1024)


def secure(c: TestClient) -> TestClient:
    """The client over https: a Secure cookie is never sent over plain http."""
    c.base_url = "https://testserver"  # type: ignore[assignment]
    return c


class Device:
    """Another browser on the same server (the same client, its own cookies): its calls
    carry its own session, never the first one's."""

    def __init__(self, c: TestClient):
        self.client = c
        self.cookies = httpx.Cookies()

    def __enter__(self) -> Device:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def _call(self, method: str, *args: Any, **kwargs: Any) -> httpx.Response:
        mine, self.client.cookies = self.client.cookies, self.cookies
        try:
            r: httpx.Response = getattr(self.client, method)(*args, **kwargs)
        finally:
            self.cookies, self.client.cookies = self.client.cookies, mine
        return r

    def get(self, *args: Any, **kwargs: Any) -> httpx.Response:
        return self._call("get", *args, **kwargs)

    def post(self, *args: Any, **kwargs: Any) -> httpx.Response:
        return self._call("post", *args, **kwargs)


def device(c: TestClient) -> Any:
    """Another browser on the same server: no cookie, no local seats."""
    return Device(c)


def sign_up(c: Any, name: str, password: str = "correct horse 1",
            seats: list[dict[str, str]] | None = None) -> dict[str, Any]:
    r = c.post("/api/account/signup", json={"name": name, "password": password,
                                            "seats": seats or []})
    assert r.status_code == 200, r.text
    return dict(r.json()["account"])


def play_all(players: list[Player], seed: int = 0) -> dict[str, Any]:
    """Play every human seat of a table (one connection each, all in this thread) at random
    legal actions until the match is over; the last state."""
    rng = random.Random(seed)

    def sync() -> None:
        top = max(p.v for p in players)
        for p in players:
            while p.v < top:
                p.until("update")

    sync()
    while True:
        st = players[0].state
        assert st is not None
        if st["over"]:
            return st
        mover = next((p for p in players if p.seat == st["deal"]["to_move"]), None)
        if mover is not None:
            assert mover.state is not None
            mover.send({"type": "act", "action": choose(mover.state, rng)})
        for p in players:
            p.until("update")
        sync()


def play_table(c: TestClient, table_id: str, tokens: list[str], seed: int = 0
               ) -> dict[str, Any]:
    """Connect a player per token and play the table out; every message each received is
    returned too (under "msgs")."""
    from contextlib import ExitStack

    with ExitStack() as stack:
        players = [hello(stack.enter_context(c.websocket_connect(f"/ws/{table_id}")), t)
                   for t in tokens]
        last = play_all(players, seed)
        return {"state": last, "msgs": [m for p in players for m in p.msgs]}
