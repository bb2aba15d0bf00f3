"""A started table whose human players have all been gone for ``abandon_after`` seconds is
stopped: stored as abandoned, its bots stop, it is not restored at startup, and the history
lists it with that status. A human at the table keeps it going; a spectator does not."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from tute.cli import app as cli_app
from tute.server.app import create_app
from tute.server.clock import ManualClock

from .conftest import POLLING, SEED, hello, run_clock_until, wait_until

pytestmark = pytest.mark.timeout(90)

# Every timer runs on a ManualClock the test moves: bots take BOT_DELAY of it a move (so a
# long match is far from over while we look), a stand-in takes the seat after bot_timeout.
BOT_DELAY = 2.0
STAND_IN = 5.0
FAST = {"bot_timeout": STAND_IN, "bot_delay": BOT_DELAY, "trick_pause": 0.0, "ws_rate": 1000.0,
        "limits": POLLING}
LONG = {"match": {"mode": "race", "games": 50}}
ABANDON = 60.0


@contextmanager
def server(data_dir: Path, clock: ManualClock, **kw: Any) -> Iterator[TestClient]:
    """An app on ``data_dir``, shut down on leaving (so another may open the same storage)."""
    with TestClient(create_app(data_dir=data_dir, clock=clock, seeds=random.Random(SEED),
                               **{**FAST, **kw})) as c:
        yield c


def _create(c: TestClient) -> dict[str, Any]:
    r = c.post("/api/tables", json={"variant": "tute_parejas", "options": LONG, "name": "Ana",
                                    "seats": ["you", "bot", "bot", "bot"], "public": True})
    assert r.status_code == 200, r.text
    return dict(r.json())


def _info(c: TestClient, r: dict[str, Any]) -> dict[str, Any]:
    return dict(c.get(f"/api/tables/{r['id']}").json())


def _status(c: TestClient, r: dict[str, Any]) -> str:
    return str(_info(c, r)["status"])


def _left(c: TestClient, r: dict[str, Any]) -> None:
    """Wait until the server has seen the human leave (its timers are set from then)."""
    wait_until(lambda: not _info(c, r)["seats"][0]["online"], "the departure")


def _visit(c: TestClient, r: dict[str, Any], clock: ManualClock, stay: float = 0.0) -> None:
    """The human connects, stays ``stay`` seconds of the clock, and leaves."""
    with c.websocket_connect(f"/ws/{r['id']}") as ws:
        hello(ws, r["token"])
        clock.advance(stay)
    _left(c, r)


def test_a_table_whose_humans_left_is_abandoned(tmp_path: Path, clock: ManualClock) -> None:
    with server(tmp_path / "d", clock, abandon_after=ABANDON) as c:
        r = _create(c)
        _visit(c, r, clock, stay=2 * ABANDON)  # a human there: it plays on past abandon_after
        assert _status(c, r) == "playing"
        left = clock.time()
        # the stand-in and the bots play on until abandon_after after the departure
        run_clock_until(clock, lambda: _status(c, r) == "abandoned", "the abandonment",
                        horizon=max(BOT_DELAY, STAND_IN))
        assert clock.time() == pytest.approx(left + ABANDON)  # from the departure, not the start
        hub = c.app.state.hub  # type: ignore[attr-defined]
        row = hub.store.get(r["id"])
        assert row.status == "abandoned" and row.finished_at == pytest.approx(clock.time())
        # its bots stopped: nothing more is played or stored, however long we wait
        v, stored = _info(c, r)["v"], len(hub.store.events(r["id"]))
        assert v > 1  # bots were playing for the absent human until then
        clock.advance(ABANDON)
        assert _info(c, r)["v"] == v and len(hub.store.events(r["id"])) == stored
        clock.advance(hub.history_ttl + 1)  # past the history's cache
        games = {g["id"]: g for g in c.get("/api/history").json()["games"]}
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
    with server(tmp_path / "d", clock, abandon_after=ABANDON) as c2:  # a restart: not back
        hub = c2.app.state.hub  # type: ignore[attr-defined]
        assert r["id"] not in hub.tables
        info = _info(c2, r)  # it can still be looked at, stopped
        assert info["status"] == "abandoned" and info["v"] == v
        clock.advance(ABANDON)
        assert _info(c2, r)["v"] == v


def test_a_spectator_does_not_keep_it_a_human_does(tmp_path: Path, clock: ManualClock) -> None:
    with server(tmp_path / "d", clock, abandon_after=ABANDON) as c:
        r = _create(c)
        _visit(c, r, clock)
        with c.websocket_connect(f"/ws/{r['id']}") as ws:  # only a spectator stays
            p = hello(ws)
            assert p.seat is None
            clock.advance(ABANDON)
            while True:
                m = p.recv()
                if m["type"] == "seats" and m["status"] == "abandoned":
                    break  # told, and left connected
        assert _status(c, r) == "abandoned"
        kept = _create(c)
        with c.websocket_connect(f"/ws/{kept['id']}") as ws:  # its human stays: it goes on
            hello(ws, kept["token"])
            clock.advance(2 * ABANDON)
            assert _status(c, kept) == "playing"


def test_a_human_coming_back_restarts_the_clock(tmp_path: Path, clock: ManualClock) -> None:
    with server(tmp_path / "d", clock, abandon_after=ABANDON) as c:
        r = _create(c)
        for _ in range(3):
            _visit(c, r, clock)
            clock.advance(0.8 * ABANDON)  # 2.4 times abandon_after in all, 0.8 since the last
            assert _status(c, r) == "playing"
        clock.advance(0.2 * ABANDON)
        wait_until(lambda: _status(c, r) == "abandoned", "the abandonment")


def test_the_clock_goes_on_across_a_restart(tmp_path: Path, clock: ManualClock) -> None:
    with server(tmp_path / "d", clock, abandon_after=3600.0) as c:
        r = _create(c)
        _visit(c, r, clock)
    clock.advance(0.5 * ABANDON)  # while no server runs
    with server(tmp_path / "d", clock, abandon_after=ABANDON) as c2:
        hub = c2.app.state.hub  # type: ignore[attr-defined]
        assert r["id"] in hub.tables  # restored: it was playing
        assert _status(c2, r) == "playing"
        clock.advance(0.5 * ABANDON)  # abandon_after since the departure, across the restart
        wait_until(lambda: _status(c2, r) == "abandoned", "the abandonment")
    with server(tmp_path / "d", clock, abandon_after=ABANDON) as c3:
        assert r["id"] not in c3.app.state.hub.tables  # type: ignore[attr-defined]


def test_abandon_after_zero_never_abandons(tmp_path: Path, clock: ManualClock) -> None:
    with server(tmp_path / "d", clock, abandon_after=0.0) as c:
        r = _create(c)
        _visit(c, r, clock)
        clock.advance(7 * 24 * 3600.0)
        assert _status(c, r) == "playing"


def test_tute_serve_has_the_option() -> None:
    result = CliRunner().invoke(cli_app, ["serve", "--help"])
    assert result.exit_code == 0 and "--abandon-after" in result.stdout
