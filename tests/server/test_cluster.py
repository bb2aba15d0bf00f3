"""Several server processes as one site (docs/cluster.md): two ``python -m tute.server``
processes on one throwaway PostgreSQL and one Redis, players connected to different
processes at one table; one process SIGKILLed mid-deal, Redis restarted mid-game, a lease
stolen while its owner is paused (SIGSTOP). Every acknowledged action is kept, none is applied
twice, and the players' sockets reconnect by themselves as the page does.

Redis comes from the installed ``redis-server``; PostgreSQL from conftest's fixture. Without
either the tests skip, saying which is missing.
"""

from __future__ import annotations

import json
import random
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tute.match import Match
from tute.server.protocol import apply_delta
from tute.server.store import Store, database_url

from .conftest import ServerProcess, free_port, wait_until

pytestmark = pytest.mark.timeout(180)

ARGS = ("--bot-delay", "0", "--trick-pause", "0", "--bot-timeout", "600", "--ws-rate", "1000",
        "--log-level", "warning")


class RedisServer:
    """A throwaway ``redis-server`` on a free loopback port, nothing saved to disk."""

    def __init__(self, tmp: Path):
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip("cluster tests: no redis-server (apt-get install redis-server)")
        self.binary = binary
        self.port = free_port()
        self.dir = tmp
        self.proc: subprocess.Popen[bytes] | None = None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.dir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_until(self._answers, "redis-server to answer", timeout=30)

    def _answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    r = RedisServer(tmp_path)
    r.start()
    yield r
    r.stop()


@pytest.fixture
def site(tmp_path: Path, pg_url: str, redis_server: RedisServer) -> Iterator[Any]:
    """``site(n)``: n server processes on the same database and Redis."""
    procs: list[ServerProcess] = []

    def start(n: int = 2) -> list[ServerProcess]:
        for _ in range(n):
            p = ServerProcess(tmp_path / f"srv{len(procs)}", *ARGS, "--redis",
                              redis_server.url, env={"TUTE_DATABASE_URL": pg_url})
            procs.append(p.start())
        return procs[-n:]

    yield start
    for p in procs:
        if p.proc is not None and p.proc.poll() is None:
            p.proc.send_signal(signal.SIGCONT)
        p.stop()


class SitePlayer:
    """A seat's socket, reconnecting (with ``since``) to the first of ``bases`` that
    welcomes it when the one it has closes, as the page does."""

    def __init__(self, bases: list[str], table: str, token: str):
        self.bases, self.table, self.token = bases, table, token
        self.ws: Any = None
        self.state: dict[str, Any] = {}
        self.v: int | None = None
        self.seat: int | None = None
        self.reconnects = 0
        self.connect()

    def connect(self) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            for base in self.bases:
                if self._try(base):
                    return
            time.sleep(0.05)  # polling the servers until one welcomes us
        raise AssertionError("no server welcomed the player")

    def _try(self, base: str) -> bool:
        try:
            ws = connect(base.replace("http", "ws") + f"/ws/{self.table}",
                         open_timeout=5).__enter__()
        except (OSError, TimeoutError, ConnectionClosed):
            return False
        hello: dict[str, Any] = {"type": "hello", "token": self.token}
        if self.v is not None:
            hello["since"] = self.v
        try:
            ws.send(json.dumps(hello))
            m = json.loads(ws.recv(timeout=15))
        except (ConnectionClosed, TimeoutError, OSError):
            ws.close()
            return False
        if m["type"] != "welcome":
            ws.close()
            assert not m.get("fatal"), m
            return False
        if self.ws is not None:
            self.ws.close()
            self.reconnects += 1
        self.ws, self.state, self.v, self.seat = ws, m["state"], m["v"], m["seat"]
        return True

    def recv(self) -> dict[str, Any] | None:
        """The next message; None when the socket closed (then it is connected again)."""
        try:
            m: dict[str, Any] = json.loads(self.ws.recv(timeout=30))
        except (ConnectionClosed, OSError):
            self.connect()
            return None
        if m["type"] == "update":
            assert self.v is not None and m["v"] == self.v + 1, (m["v"], self.v)
            self.state, self.v = apply_delta(self.state, m["delta"]), m["v"]
        return m

    def act(self, action: str) -> bool:
        """Send the action; True once acknowledged (its update came back to us), False if
        the socket closed first or it was refused (the state is then the server's)."""
        v = self.v
        try:
            self.ws.send(json.dumps({"type": "act", "action": action, "v": v}))
        except (ConnectionClosed, OSError):
            self.connect()
            return False
        while True:
            m = self.recv()
            if m is None:
                return False
            if m["type"] == "error":
                return False
            if m["type"] == "update" and v is not None and m["v"] == v + 1:
                return bool(m["seat"] == self.seat and m["action"] == action)

    def catch_up(self, v: int) -> None:
        while self.v is None or self.v < v:
            self.recv()


class Game:
    """Two seats at one table, each on its own process; records what was sent and what
    was acknowledged."""

    def __init__(self, creator: str, joiner: str, seed: int = 11):
        r = httpx.post(creator + "/api/tables", json={
            "variant": "tute_2p_habanero", "seats": ["you", "open"], "name": "Ana",
            "options": {"games_to_win": 1}}, timeout=30)
        assert r.status_code == 200, r.text
        self.id = r.json()["id"]
        j = httpx.post(joiner + f"/api/tables/{self.id}/join", json={"name": "Bea"},
                       timeout=30)  # at the other process: relayed to the owner
        assert j.status_code == 200, j.text
        self.players = {0: SitePlayer([creator, joiner], self.id, r.json()["token"]),
                        1: SitePlayer([joiner, creator], self.id, j.json()["token"])}
        self.rng = random.Random(seed)
        self.sent: list[tuple[int, int, str]] = []  # (version it would get, seat, action)
        self.acked: list[tuple[int, int, str]] = []

    @property
    def v(self) -> int:
        return max(p.v or 0 for p in self.players.values())

    def sync(self) -> None:
        v = self.v
        for p in self.players.values():
            p.catch_up(v)

    def step(self) -> None:
        self.sync()
        mover = self.players[self.players[0].state["deal"]["to_move"]]
        legal = mover.state["deal"]["legal_actions"]
        action = legal[self.rng.randrange(len(legal))]
        assert mover.v is not None and mover.seat is not None
        entry = (mover.v + 1, mover.seat, action)
        self.sent.append(entry)
        if mover.act(action):
            self.acked.append(entry)

    def over(self) -> bool:
        self.sync()
        return bool(self.players[0].state["over"])

    def play(self, steps: int | None = None) -> None:
        n = 0
        while not self.over() and (steps is None or n < steps):
            self.step()
            n += 1

    def check_log(self, pg_url: str) -> None:
        """The stored log: every acknowledged action where it was acknowledged, nothing
        that was not sent, nothing twice, and it replays to the end of the game."""
        store = Store(pg_url)
        try:
            log = [(e.version, e.seat, e.data) for e in store.events(self.id)
                   if e.kind == "action"]
            row = store.get(self.id)
        finally:
            store.close()
        assert set(self.acked) <= set(log)
        assert set(log) <= set(self.sent)
        assert len({v for v, _, _ in log}) == len(log)
        assert row is not None and row.status == "finished"
        m = Match.new("tute_2p_habanero", seed=row.seed, options=row.options,
                      first_dealer=row.first_dealer)
        for _, _, a in log:
            m.apply(a)
        assert m.is_over()

    def close(self) -> None:
        for p in self.players.values():
            p.ws.close()


def _lease(pg_url: str, table: str) -> tuple[str, int, bool] | None:
    engine = create_engine(database_url(pg_url))
    try:
        with engine.connect() as conn:
            r = conn.execute(text("SELECT owner, epoch, expires_at > clock_timestamp() "
                                  "FROM tute_leases WHERE table_id = :t"), {"t": table}).first()
    finally:
        engine.dispose()
    return None if r is None else (str(r[0]), int(r[1]), bool(r[2]))


def _versions(pg_url: str, table: str) -> int:
    store = Store(pg_url)
    try:
        return len(store.events(table))
    finally:
        store.close()


def test_players_on_two_processes_play_one_table_to_the_end(site: Any, pg_url: str) -> None:
    a, b = site(2)
    g = Game(a.base, b.base)
    # the lobby and the table's page are the same from either process
    for srv in (a, b):
        info = httpx.get(srv.base + f"/api/tables/{g.id}").json()
        assert info["id"] == g.id and info["status"] == "playing", info
    # chat through the owner: said at b, heard at a (and by the speaker)
    g.players[1].ws.send(json.dumps({"type": "chat", "text": "hola desde b"}))
    for p in g.players.values():
        while (m := p.recv()) is None or m["type"] != "chat":
            pass
        assert m["text"] == "hola desde b" and m["seat"] == 1
    # a spectator at the process that does not own the table sees the game to its end
    with connect(b.base.replace("http", "ws") + f"/ws/{g.id}", open_timeout=5) as watcher:
        watcher.send(json.dumps({"type": "hello"}))
        w = json.loads(watcher.recv(timeout=15))
        assert w["type"] == "welcome" and w["seat"] is None
        state = w["state"]
        g.play()
        while not state["over"]:
            m = json.loads(watcher.recv(timeout=15))
            if m["type"] == "update":
                state = apply_delta(state, m["delta"])
        assert not state["deal"].get("hand") and state["deal"]["seat"] is None  # no hand
    assert g.acked == g.sent  # nothing was lost on the way: every action acknowledged
    assert all(p.reconnects == 0 for p in g.players.values())
    g.close()
    g.check_log(pg_url)
    # the lobby is the same from every process: a public table made at a is listed at b
    r = httpx.post(a.base + "/api/tables", json={
        "variant": "tute_2p_habanero", "seats": ["you", "open"], "public": True}).json()
    wait_until(lambda: r["id"] in [t["id"] for t in
                                   httpx.get(b.base + "/api/tables").json()["tables"]],
               "the other process's lobby to list the table")
    # and follows it: joined at a, it moves to b's games being played
    httpx.post(a.base + f"/api/tables/{r['id']}/join", json={"name": "Bea"})

    def moved() -> bool:
        lobby = httpx.get(b.base + "/api/tables").json()
        return (r["id"] not in [t["id"] for t in lobby["tables"]]
                and r["id"] in [t["id"] for t in lobby["live"]])
    wait_until(moved, "the other process's lobby to list the game as being played")


def test_the_owner_killed_mid_deal_and_the_game_finishes_through_the_other(
        site: Any, pg_url: str) -> None:
    a, b = site(2)
    g = Game(a.base, b.base)
    owner = _lease(pg_url, g.id)
    assert owner is not None
    g.play(steps=9)
    assert not g.over()
    a.kill()  # SIGKILL: no lease released, no socket closed cleanly
    g.play()  # the sockets reconnect; b takes the table over from storage
    assert g.players[0].reconnects >= 1
    after = _lease(pg_url, g.id)
    assert after is not None and after[0] != owner[0] and after[1] > owner[1]
    g.close()
    g.check_log(pg_url)


def test_redis_restarted_mid_game(site: Any, pg_url: str, redis_server: RedisServer) -> None:
    a, b = site(2)
    g = Game(a.base, b.base)
    g.play(steps=9)
    redis_server.stop()
    redis_server.start()
    g.play()
    assert g.over()
    g.close()
    g.check_log(pg_url)


def test_a_lease_stolen_while_its_owner_is_paused(site: Any, pg_url: str) -> None:
    a, b = site(2)
    g = Game(a.base, b.base)
    g.play(steps=5)
    g.sync()
    owner = _lease(pg_url, g.id)
    assert owner is not None
    seat = g.players[0].state["deal"]["to_move"]
    legal = g.players[seat].state["deal"]["legal_actions"]
    # a second socket of the mover's, straight to the owner; its own socket goes through b
    late = SitePlayer([a.base], g.id, g.players[seat].token)
    mover = g.players[seat]
    mover.bases = [b.base]
    mover.ws.close()
    mover.connect()
    v = late.v
    assert v is not None
    assert a.proc is not None
    a.proc.send_signal(signal.SIGSTOP)
    late.ws.send(json.dumps({"type": "act", "action": legal[0], "v": v}))  # never handled yet
    wait_until(lambda: (lease := _lease(pg_url, g.id)) is not None and lease[0] != owner[0],
               "the other process to take the table over", timeout=60)
    a.proc.send_signal(signal.SIGCONT)
    # the paused owner wakes up: its late action is refused (the thief has written nothing
    # at that version yet: only the fence stops it), never acknowledged
    while True:
        try:
            m = json.loads(late.ws.recv(timeout=30))
        except ConnectionClosed:
            break
        assert not (m["type"] == "update" and m["v"] == v + 1), m
        if m["type"] == "error":
            break
    assert _versions(pg_url, g.id) == v
    # at the thief, through the mover's own socket (it reconnects there): another action
    other = legal[-1]
    g.sent.append((v + 1, seat, other))
    if not mover.act(other):  # its socket to the old owner had to move first: now at b
        assert mover.v == v
        assert mover.act(other)
    g.acked.append((v + 1, seat, other))
    late.ws.close()
    g.players[1 - seat].bases = [b.base, a.base]
    g.play()
    g.close()
    g.check_log(pg_url)
    store = Store(pg_url)
    try:
        at = [e for e in store.events(g.id) if e.version == v + 1]
    finally:
        store.close()
    assert [(e.seat, e.data) for e in at] == [(seat, other)]  # the thief's, not the late one


def test_a_site_needs_postgresql(tmp_path: Path) -> None:
    from tute.server.app import create_app
    from tute.server.store import StorageError

    with pytest.raises(StorageError, match="needs a PostgreSQL database"):
        create_app(data_dir=tmp_path, redis_url="redis://127.0.0.1:1/0")  # SQLite: one file


def test_leases_are_renewed_while_the_event_loop_is_busy(make_client: Any, pg_url: str,
                                                         redis_server: RedisServer) -> None:
    """The renewals run on their own thread and timer: a process whose event loop is held up
    for longer than a lease lasts (a burst of requests on a loaded machine) keeps its tables,
    and no other process may take them meanwhile."""
    from tute.server.cluster import TICK, TTL
    from tute.server.lease import Leases

    c = make_client(database_url=pg_url, redis_url=redis_server.url)
    r = c.post("/api/tables", json={"variant": "tute_parejas",
                                    "seats": ["you", "open", "open", "open"]})
    assert r.status_code == 200, r.text
    tid = r.json()["id"]
    owner, epoch, live = _lease(pg_url, tid) or ("", 0, False)
    assert live
    engine = create_engine(database_url(pg_url))
    thief = Leases(engine, "another-process", ttl=TTL)

    def held_up() -> int | None:
        # on the event loop's own thread: nothing else runs there meanwhile
        time.sleep(TTL + 2 * TICK)
        return thief.acquire(tid)

    try:
        assert c.portal.call(held_up) is None  # type: ignore[union-attr]
    finally:
        engine.dispose()
    assert _lease(pg_url, tid) == (owner, epoch, True)
    assert c.get(f"/api/tables/{tid}").status_code == 200
