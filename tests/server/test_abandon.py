"""A started table whose human players have all been gone for ``abandon_after`` seconds is
stopped: stored as abandoned, its bots stop, it is not restored at startup, and the history
lists it with that status. A human at the table keeps it going; a spectator does not."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from tute.cli import app as cli_app
from tute.server.app import create_app

from .conftest import hello

pytestmark = pytest.mark.timeout(90)

# bots fast enough to play, slow enough that a long match is far from over while we look
FAST = {"bot_timeout": 0.1, "bot_delay": 0.03, "trick_pause": 0.0, "ws_rate": 1000.0}
LONG = {"match": {"mode": "race", "games": 50}}


@contextmanager
def server(data_dir: Path, **kw: Any) -> Iterator[TestClient]:
    """An app on ``data_dir``, shut down on leaving (so another may open the same storage)."""
    with TestClient(create_app(data_dir=data_dir, **{**FAST, **kw})) as c:
        yield c


def _create(c: TestClient) -> dict[str, Any]:
    r = c.post("/api/tables", json={"variant": "tute_parejas", "options": LONG, "name": "Ana",
                                    "seats": ["you", "bot", "bot", "bot"], "public": True})
    assert r.status_code == 200, r.text
    return dict(r.json())


def _info(c: TestClient, r: dict[str, Any]) -> dict[str, Any]:
    return dict(c.get(f"/api/tables/{r['id']}").json())


def _wait_status(c: TestClient, r: dict[str, Any], status: str, timeout: float = 15.0) -> float:
    start = time.monotonic()
    while _info(c, r)["status"] != status:
        assert time.monotonic() - start < timeout, f"not {status}: {_info(c, r)['status']}"
        time.sleep(0.05)
    return time.monotonic() - start


def _visit(c: TestClient, r: dict[str, Any], stay: float = 0.0) -> None:
    with c.websocket_connect(f"/ws/{r['id']}") as ws:
        hello(ws, r["token"])
        time.sleep(stay)


def test_a_table_whose_humans_left_is_abandoned(tmp_path: Path) -> None:
    with server(tmp_path / "d", abandon_after=0.6) as c:
        r = _create(c)
        _visit(c, r, stay=1.2)  # a human there: it plays on past abandon_after
        assert _info(c, r)["status"] == "playing"
        took = _wait_status(c, r, "abandoned")
        assert took > 0.3  # counted from the departure, not from the start
        hub = c.app.state.hub  # type: ignore[attr-defined]
        row = hub.store.get(r["id"])
        assert row.status == "abandoned" and row.finished_at is not None
        # its bots stopped: nothing more is played or stored
        v, stored = _info(c, r)["v"], len(hub.store.events(r["id"]))
        assert v > 0  # bots were playing for the absent human until then
        time.sleep(0.6)
        assert _info(c, r)["v"] == v and len(hub.store.events(r["id"])) == stored
        for _ in range(100):  # the history may be cached for a moment
            games = {g["id"]: g for g in c.get("/api/history").json()["games"]}
            if r["id"] in games:
                break
            time.sleep(0.1)
        assert games[r["id"]]["status"] == "abandoned"
        assert games[r["id"]]["finished_at"] == row.finished_at
        assert c.get(f"/api/games/{r['id']}/record").status_code == 200  # it never goes on
        with c.websocket_connect(f"/ws/{r['id']}") as ws:  # a player back finds it stopped
            p = hello(ws, r["token"])
            assert p.msgs[0]["table"]["status"] == "abandoned"
            legal = p.state["deal"]["legal_actions"] if p.state else []
            if legal:
                ws.send_json({"type": "act", "action": legal[0], "ref": "x"})
                assert p.until("error")["code"] in ("over", "not_your_turn")
    with server(tmp_path / "d", abandon_after=0.6) as c2:  # a restart does not bring it back
        hub = c2.app.state.hub  # type: ignore[attr-defined]
        assert r["id"] not in hub.tables
        info = _info(c2, r)  # it can still be looked at, stopped
        assert info["status"] == "abandoned" and info["v"] == v
        time.sleep(0.5)
        assert _info(c2, r)["v"] == v


def test_a_spectator_does_not_keep_it_a_human_does(tmp_path: Path) -> None:
    with server(tmp_path / "d", abandon_after=0.5) as c:
        r = _create(c)
        _visit(c, r)
        with c.websocket_connect(f"/ws/{r['id']}") as ws:  # only a spectator stays
            p = hello(ws)
            assert p.seat is None
            while True:
                m = p.recv()
                if m["type"] == "seats" and m["status"] == "abandoned":
                    break  # told, and left connected
        assert _info(c, r)["status"] == "abandoned"
        kept = _create(c)
        with c.websocket_connect(f"/ws/{kept['id']}") as ws:  # its human stays: it goes on
            hello(ws, kept["token"])
            time.sleep(1.2)
            assert _info(c, kept)["status"] == "playing"


def test_a_human_coming_back_restarts_the_clock(tmp_path: Path) -> None:
    with server(tmp_path / "d", abandon_after=2.0) as c:
        r = _create(c)
        for _ in range(3):
            _visit(c, r)
            time.sleep(0.8)
            assert _info(c, r)["status"] == "playing"  # 2.4 s in all, 0.8 since the last visit
        _wait_status(c, r, "abandoned")


def test_the_clock_goes_on_across_a_restart(tmp_path: Path) -> None:
    with server(tmp_path / "d", abandon_after=3600.0) as c:
        r = _create(c)
        _visit(c, r)
        time.sleep(0.3)
    with server(tmp_path / "d", abandon_after=0.5) as c2:
        hub = c2.app.state.hub  # type: ignore[attr-defined]
        assert r["id"] in hub.tables  # restored: it was playing
        _wait_status(c2, r, "abandoned")
    with server(tmp_path / "d", abandon_after=0.5) as c3:
        assert r["id"] not in c3.app.state.hub.tables  # type: ignore[attr-defined]


def test_abandon_after_zero_never_abandons(tmp_path: Path) -> None:
    with server(tmp_path / "d", abandon_after=0.0) as c:
        r = _create(c)
        _visit(c, r)
        time.sleep(1.0)
        assert _info(c, r)["status"] == "playing"


def test_tute_serve_has_the_option() -> None:
    result = CliRunner().invoke(cli_app, ["serve", "--help"])
    assert result.exit_code == 0 and "--abandon-after" in result.stdout
