"""Storage faults: a commit that fails (a full disk) is never acknowledged. The sender gets a
``storage`` error, nobody sees a broadcast, the table stays at its stored version, play resumes
when storage does, and a restart on the same data finds every acknowledged action.

The faults are injected by :class:`CommitFaults` (the COMMIT raises, as SQLite's does on a full
disk, after every statement of the transaction ran) and, where mounting is permitted, by a real
full disk: a tiny tmpfs."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import random
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError

from tute.server.app import create_app
from tute.server.clock import ManualClock
from tute.server.store import Store

from .conftest import Player, hello, wait_until

pytestmark = pytest.mark.timeout(120)

FAST: dict[str, Any] = {"bot_delay": 0.0, "trick_pause": 0.0, "ws_rate": 1000.0,
                        "bot_timeout": 600.0}


class CommitFaults:
    """While :attr:`failing`, every COMMIT of ``store`` raises ``database or disk is full``
    (SQLite's error), after the transaction's statements ran: the test hook for a full disk.
    It wraps the dialect's ``do_commit``, the one call that commits, for this store only."""

    def __init__(self, store: Store):
        self.failing = False
        self.failed = 0
        dialect = store.engine.dialect
        real = dialect.do_commit

        def do_commit(dbapi_conn: Any) -> None:
            if self.failing:
                self.failed += 1
                raise sqlite3.OperationalError("database or disk is full")
            real(dbapi_conn)

        dialect.do_commit = do_commit  # type: ignore[method-assign,assignment]


@contextlib.contextmanager
def app(data: Path, **kw: Any) -> Iterator[TestClient]:
    with TestClient(create_app(data_dir=data, **{**FAST, **kw})) as c:
        yield c


def faults(c: TestClient) -> CommitFaults:
    return CommitFaults(c.app.state.hub.store)  # type: ignore[attr-defined]


def two_players(c: TestClient) -> tuple[dict[str, Any], dict[int, str]]:
    r = c.post("/api/tables", json={"variant": "tute_2p_habanero", "seats": ["you", "open"],
                                    "name": "Ana", "options": {"games_to_win": 1}})
    assert r.status_code == 200, r.text
    j = c.post(f"/api/tables/{r.json()['id']}/join", json={"name": "Bea"})
    assert j.status_code == 200, j.text
    return r.json(), {0: r.json()["token"], 1: j.json()["token"]}


def act(p: Player, action: str, ref: str) -> dict[str, Any]:
    """Send ``action``; the answer to it: the echoed update, or the error."""
    p.send({"type": "act", "action": action, "ref": ref})
    while True:
        m = p.recv()
        if m.get("ref") == ref and m["type"] in ("update", "error"):
            return m


def nothing_broadcast(p: Player) -> None:
    """``p`` received nothing since: its next message is the answer to a ping."""
    p.send({"type": "ping", "ref": "quiet"})
    m = p.recv()
    assert m["type"] == "pong" and m["ref"] == "quiet", m


def settle(players: dict[int, Player]) -> dict[int, Player]:
    """Read what the players' arrival sent them (seats messages), up to a pong."""
    for p in players.values():
        p.send({"type": "ping", "ref": "settle"})
        while p.recv().get("ref") != "settle":
            pass
    return players


def catch_up(p: Player, v: int) -> None:
    while p.v < v:
        p.recv()


def mover(players: dict[int, Player]) -> Player:
    st = players[0].state
    assert st is not None
    return players[st["deal"]["to_move"]]


def test_failed_commit_is_refused_not_broadcast_and_play_resumes(tmp_path: Path) -> None:
    data = tmp_path / "data"
    rng = random.Random(5)
    acked: list[str] = []
    with app(data) as c:
        r, tokens = two_players(c)
        f = faults(c)
        with c.websocket_connect(f"/ws/{r['id']}") as w0, \
                c.websocket_connect(f"/ws/{r['id']}") as w1:
            players = settle({0: hello(w0, tokens[0]), 1: hello(w1, tokens[1])})
            for i in range(40):
                p = mover(players)
                other = players[1 - p.seat]  # type: ignore[operator]
                legal = p.state["deal"]["legal_actions"]  # type: ignore[index]
                action = legal[rng.randrange(len(legal))]
                v = p.v
                if i % 4 == 1:  # every fourth action's commit fails, twice in a row
                    f.failing = True
                    for attempt in range(2):
                        m = act(p, action, f"x{i}.{attempt}")
                        assert m["type"] == "error" and m["code"] == "storage", m
                    f.failing = False
                    nothing_broadcast(other)
                    nothing_broadcast(p)
                    info = c.get(f"/api/tables/{r['id']}").json()
                    assert info["v"] == v, "the table left its stored version"
                    assert p.state["deal"]["legal_actions"] == legal  # type: ignore[index]
                m = act(p, action, f"a{i}")  # storage is back: the same action goes through
                assert m["type"] == "update" and m["v"] == v + 1, m
                acked.append(action)
                catch_up(other, m["v"])
                if p.state["over"]:  # type: ignore[index]
                    break
            assert f.failed >= 20
        v_acked = c.get(f"/api/tables/{r['id']}").json()["v"]

    # a restart on the same data: every acknowledged action is stored, and the game goes on
    with app(data) as c:
        info = c.get(f"/api/tables/{r['id']}")
        assert info.status_code == 200 and info.json()["v"] == v_acked
        with c.websocket_connect(f"/ws/{r['id']}") as w0, \
                c.websocket_connect(f"/ws/{r['id']}") as w1:
            players = settle({0: hello(w0, tokens[0]), 1: hello(w1, tokens[1])})
            while not players[0].state["over"]:  # type: ignore[index]
                p = mover(players)
                legal = p.state["deal"]["legal_actions"]  # type: ignore[index]
                m = act(p, legal[rng.randrange(len(legal))], "b")
                assert m["type"] == "update", m
                acked.append(m["action"])
                catch_up(players[1 - p.seat], m["v"])  # type: ignore[operator]
        rec = c.get(f"/api/games/{r['id']}/record").json()
        assert [a for d in rec["deals"] for a in d["actions"]] == acked


def test_failed_create_and_join_answer_503_and_store_nothing(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with app(data) as c:
        f = faults(c)
        waiting = c.post("/api/tables", json={"variant": "tute_2p_habanero", "public": True,
                                              "seats": ["you", "open"]}).json()
        f.failing = True
        for path, body in [
            ("/api/tables", {"variant": "tute_2p_habanero", "seats": ["you", "open"],
                             "public": True}),
            ("/api/play", {"variant": "tute_2p_habanero"}),
            (f"/api/tables/{waiting['id']}/join", {"name": "Bea"}),
        ]:
            resp = c.post(path, json=body)
            assert resp.status_code == 503, (path, resp.text)
            assert resp.json()["error"] == "storage" and "token" not in resp.json()
        assert c.get("/api/health").json()["tables"] == 1  # no table was created
        assert [t["id"] for t in c.get("/api/tables").json()["tables"]] == [waiting["id"]]
        info = c.get(f"/api/tables/{waiting['id']}").json()
        assert info["open_seats"] == 1 and info["v"] == 0 and info["status"] == "waiting"
        # the host's fill_bots over the WebSocket: a storage error, nothing changes
        with c.websocket_connect(f"/ws/{waiting['id']}") as ws:
            host = hello(ws, waiting["token"])
            host.send({"type": "fill_bots"})
            m = host.recv()
            while m["type"] == "seats":  # past the seats message of our own arrival
                m = host.recv()
            assert m["type"] == "error" and m["code"] == "storage", m
            nothing_broadcast(host)
            f.failing = False
            j = c.post(f"/api/tables/{waiting['id']}/join", json={"name": "Bea"})
            assert j.status_code == 200 and j.json()["seat"] == 1
            assert host.until("seats")["status"] == "playing"
        made = c.post("/api/play", json={"variant": "tute_2p_habanero"})
        assert made.status_code == 200
    with app(data) as c:  # what was acknowledged is there after a restart; nothing else
        assert c.get(f"/api/tables/{waiting['id']}").json()["v"] == 1
        assert c.get(f"/api/tables/{made.json()['id']}").status_code == 200
        assert c.get("/api/health").json()["tables"] == 2


def test_a_bot_move_that_was_not_stored_is_tried_again(tmp_path: Path) -> None:
    clock = ManualClock()
    with app(tmp_path / "data", bot_delay=0.3, clock=clock) as c:
        f = faults(c)
        r = c.post("/api/tables", json={"variant": "tute_2p_habanero",
                                        "seats": ["you", "bot:facil"]}).json()
        with c.websocket_connect(f"/ws/{r['id']}") as ws:
            me = hello(ws, r["token"])
            while True:  # play until my move leaves the bot to move
                if me.state["deal"]["to_move"] != me.seat:  # type: ignore[index]
                    _next_timer(clock)  # the bot's delay
                    me.until("update")  # the bot's
                    continue
                m = act(me, me.state["deal"]["legal_actions"][0], "mine")  # type: ignore[index]
                assert m["type"] == "update"
                if me.state["deal"]["to_move"] == 1:  # type: ignore[index]
                    break
            f.failing = True  # before the bot's move (it waits 0.3 s of the clock)
            _next_timer(clock)
            wait_until(lambda: f.failed, "the bot's try to move")
            f.failing = False
            nothing_broadcast(me)
            _next_timer(clock)  # tried again a moment later
            _next_timer(clock)  # after its delay
            bot = me.until("update")
            assert bot["seat"] == 1 and bot["v"] == m["v"] + 1


def _next_timer(clock: ManualClock) -> None:
    """Move the clock to the server's next timer (waiting until it is set) and fire it."""
    wait_until(clock.pending, "a timer")
    clock.advance(clock.next_due() or 0.0)


def test_a_failed_read_answers_503_without_details(tmp_path: Path) -> None:
    with app(tmp_path / "data") as c:
        store = c.app.state.hub.store  # type: ignore[attr-defined]

        def unreadable(*_: Any) -> Any:
            raise OperationalError("SELECT ...", {}, sqlite3.OperationalError("disk I/O error"))

        store.get = store.finished = unreadable
        for path in ("/api/tables/someid", "/api/games/someid/record"):
            r = c.get(path)
            assert r.status_code == 503 and r.json()["error"] == "storage", r.text
            assert "disk" not in r.text and "SELECT" not in r.text
        # a WebSocket to it is told why before it is closed, never closed in silence
        with c.websocket_connect("/ws/someid") as ws:
            ws.send_json({"type": "hello"})
            m = ws.receive_json()
            assert m["type"] == "error" and m["code"] == "storage" and m["fatal"], m
            assert "disk" not in json.dumps(m) and "SELECT" not in json.dumps(m)


# ------------------------------------------------------------ a real full disk


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A 2 MiB tmpfs (root and mount permission needed, else skipped)."""
    mnt = tmp_path / "disk"
    mnt.mkdir()
    if os.geteuid() != 0:
        pytest.skip("a real full disk needs root to mount a small tmpfs")
    out = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mnt)],
                         capture_output=True, text=True)
    if out.returncode != 0:
        pytest.skip(f"a real full disk: mounting a tmpfs is not permitted here "
                    f"({out.stderr.strip() or out.returncode})")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)


def fill(disk: Path) -> Path:
    ballast = disk / "ballast"
    with ballast.open("wb", buffering=0) as f:
        try:
            while True:
                f.write(b"\0" * 4096)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC, exc
    return ballast


def test_a_real_full_disk(tiny_disk: Path) -> None:
    data = tiny_disk / "data"
    rng = random.Random(8)
    acked: list[str] = []
    refused = 0
    with app(data) as c:
        r, tokens = two_players(c)
        with c.websocket_connect(f"/ws/{r['id']}") as w0, \
                c.websocket_connect(f"/ws/{r['id']}") as w1:
            players = settle({0: hello(w0, tokens[0]), 1: hello(w1, tokens[1])})
            ballast = fill(tiny_disk)
            created = c.post("/api/play", json={"variant": "tute_2p_habanero"})
            assert created.status_code in (200, 503), created.text
            while refused < 3 and not players[0].state["over"]:  # type: ignore[index]
                p = mover(players)
                legal = p.state["deal"]["legal_actions"]  # type: ignore[index]
                m = act(p, legal[rng.randrange(len(legal))], f"f{len(acked)}")
                if m["type"] == "error":
                    assert m["code"] == "storage", m
                    refused += 1
                    nothing_broadcast(players[1 - p.seat])  # type: ignore[operator]
                else:
                    acked.append(m["action"])
                    catch_up(players[1 - p.seat], m["v"])  # type: ignore[operator]
            assert refused, "the full disk refused nothing"
            ballast.unlink()  # space is back: play resumes
            for _ in range(4):
                if players[0].state["over"]:  # type: ignore[index]
                    break
                p = mover(players)
                legal = p.state["deal"]["legal_actions"]  # type: ignore[index]
                m = act(p, legal[rng.randrange(len(legal))], f"g{len(acked)}")
                assert m["type"] == "update", m
                acked.append(m["action"])
                catch_up(players[1 - p.seat], m["v"])  # type: ignore[operator]
        v_acked = c.get(f"/api/tables/{r['id']}").json()["v"]
    with app(data) as c:
        info = c.get(f"/api/tables/{r['id']}")
        assert info.status_code == 200 and info.json()["v"] == v_acked
        if created.status_code == 200:  # acknowledged: then stored
            assert c.get(f"/api/tables/{created.json()['id']}").status_code == 200
    # the stored log is exactly what was acknowledged
    db = sqlite3.connect(data / "tute.sqlite3")
    try:
        stored = [row[0] for row in db.execute(
            "SELECT data FROM tute_events WHERE table_id = ? AND kind = 'action' "
            "ORDER BY version", (r["id"],))]
    finally:
        db.close()
    assert stored == acked
    assert json.dumps(stored)  # plain strings
