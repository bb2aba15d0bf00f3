"""Limits a visitor cannot walk around: seat holders always get in, spectators have caps of
their own, rate limits belong to the address (reconnecting resets nothing), slow or idle HTTP
connections are dropped, the total and per-address connection caps refuse clearly, invite
codes are long and their lookup is rate-limited, the history shows nobody else's private
games, and the WebSocket message limit counts bytes."""

from __future__ import annotations

import asyncio
import json
import math
import random
import socket
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import InvalidStatus

from tute.server.app import create_app
from tute.server.hub import _CODE_ALPHABET
from tute.server.limits import Limits

from .conftest import ROOT, hello, play_out, wait_until

pytestmark = pytest.mark.timeout(90)

PROXY = "10.0.0.1"  # the TestClient's socket peer where a test needs several client addresses


@contextmanager
def app_client(tmp_path: Path, limits: Limits | None = None, **kw: Any) -> Iterator[TestClient]:
    kw.setdefault("bot_delay", 0.0)
    kw.setdefault("trick_pause", 0.0)
    kw.setdefault("ws_rate", 1000.0)
    app = create_app(data_dir=kw.pop("data_dir", tmp_path / "data"), limits=limits, **kw)
    with TestClient(app, client=(PROXY, 50000)) as c:
        yield c


def _quick(c: TestClient, **body: Any) -> dict[str, Any]:
    r = c.post("/api/play", json={"variant": "tute_2p_corriente", "level": "facil",
                                  "name": "Ana", "options": {"games_to_win": 1}, **body})
    assert r.status_code == 200, r.text
    return dict(r.json())


def _from(address: str) -> dict[str, str]:
    return {"x-forwarded-for": address}


def _fatal(ws: Any, token: str | None = None) -> dict[str, Any]:
    ws.send_text(json.dumps({"type": "hello", **({"token": token} if token else {})}))
    m = dict(ws.receive_json())
    assert m["type"] == "error" and m.get("fatal"), m
    return m


# ------------------------------------------------------------ admission at a table

def test_seat_holder_is_let_in_when_spectators_fill_the_table(tmp_path: Path) -> None:
    with app_client(tmp_path, Limits(spectators=3, spectators_per_address=3)) as c:
        r = _quick(c)
        url = f"/ws/{r['id']}"
        with c.websocket_connect(url) as s1, c.websocket_connect(url) as s2, \
                c.websocket_connect(url) as s3:
            for ws in (s1, s2, s3):
                assert hello(ws).seat is None
            with c.websocket_connect(url) as s4:
                assert _fatal(s4)["code"] == "table_full"  # a fourth spectator: no
            with c.websocket_connect(url) as mine:
                assert hello(mine, r["token"]).seat == 0  # the player: always


def test_spectator_caps_per_table_and_per_address(tmp_path: Path) -> None:
    limits = Limits(spectators=4, spectators_per_address=2, trusted_proxies=(PROXY,))
    with app_client(tmp_path, limits) as c:
        r = _quick(c)
        url = f"/ws/{r['id']}"
        a = "203.0.113.7"
        with c.websocket_connect(url, headers=_from(a)) as a1, \
                c.websocket_connect(url, headers=_from(a)) as a2:
            hello(a1), hello(a2)
            with c.websocket_connect(url, headers=_from(a)) as a3:
                assert _fatal(a3)["code"] == "table_full"  # a third from the same address
            with c.websocket_connect(url, headers=_from("198.51.100.1")) as b1, \
                    c.websocket_connect(url, headers=_from("198.51.100.2")) as b2:
                hello(b1), hello(b2)  # other addresses: up to the table's cap
                with c.websocket_connect(url, headers=_from("198.51.100.3")) as b3:
                    assert _fatal(b3)["code"] == "table_full"
        # the per-address cap is per table: the same address watches another table
        other = _quick(c)
        with c.websocket_connect(f"/ws/{other['id']}", headers=_from(a)) as ws:
            hello(ws)


def test_forwarded_for_is_ignored_unless_the_proxy_is_trusted(tmp_path: Path) -> None:
    with app_client(tmp_path, Limits(spectators_per_address=1)) as c:
        r = _quick(c)
        url = f"/ws/{r['id']}"
        with c.websocket_connect(url, headers=_from("192.0.2.1")) as first:
            hello(first)
            with c.websocket_connect(url, headers=_from("192.0.2.2")) as forged:
                assert _fatal(forged)["code"] == "table_full"  # still the socket's address


def test_rate_limit_belongs_to_the_address_and_survives_reconnecting(tmp_path: Path) -> None:
    # per connection and per address alike: 2 messages/s, bursts of 4
    with app_client(tmp_path, Limits(ws_address_factor=1.0), ws_rate=2.0, ws_burst=4) as c:
        r = _quick(c)
        url = f"/ws/{r['id']}"
        with c.websocket_connect(url) as ws:
            p = hello(ws)  # the hello takes a token too
            for i in range(3):
                p.send({"type": "ping", "ref": str(i)})
            assert [p.until("pong")["ref"] for _ in range(3)] == ["0", "1", "2"]
        start = time.monotonic()
        with c.websocket_connect(url) as ws:  # a new connection has a new bucket; the address
            p = hello(ws)
            for i in range(4):
                p.send({"type": "ping", "ref": str(i)})
            got: list[dict[str, Any]] = []
            while len([m for m in got if m["type"] == "pong"]) < 4:
                got.append(p.recv())
        assert any(m["type"] == "error" and m["code"] == "rate_limited" for m in got)
        # hello + 4 pings from an empty bucket at 2 per second
        assert time.monotonic() - start > 1.8


def test_a_seat_keeps_a_bounded_number_of_connections(tmp_path: Path) -> None:
    with app_client(tmp_path, Limits(seat_connections=2)) as c:
        r = _quick(c)
        url = f"/ws/{r['id']}"
        with c.websocket_connect(url) as w1, c.websocket_connect(url) as w2:
            hello(w1, r["token"]), hello(w2, r["token"])
            with c.websocket_connect(url) as w3:
                hello(w3, r["token"])  # let in; the oldest connection makes room
                w1.send_text(json.dumps({"type": "ping", "ref": "old"}))
                got: list[dict[str, Any]] = []
                with pytest.raises(WebSocketDisconnect):  # closed by the server
                    while not got or got[-1]["type"] != "pong":
                        got.append(w1.receive_json())
                # told so, fatally: a page does not reconnect and push out another one
                assert got[-1]["type"] == "error" and got[-1]["code"] == "replaced"
                assert got[-1]["fatal"]


# ------------------------------------------------------------ HTTP per address

def test_http_requests_are_rate_limited_per_address(tmp_path: Path) -> None:
    # a token back every 1,000 s: however slowly a loaded machine sends the six requests, the
    # bucket has not refilled (at 1 a second it had, once, on a busy machine)
    limits = Limits(http_rate=0.001, http_burst=5, trusted_proxies=(PROXY,))
    with app_client(tmp_path, limits) as c:
        codes = [c.get("/api/health").status_code for _ in range(6)]
        assert codes == [200] * 5 + [429]
        r = c.get("/api/health")
        assert r.json()["error"] == "rate_limited" and int(r.headers["retry-after"]) >= 1
        assert c.get("/api/health", headers=_from("192.0.2.9")).status_code == 200


# ------------------------------------------------------------ invite codes

def test_invite_codes_have_40_bits_and_old_codes_still_resolve(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with app_client(tmp_path, data_dir=data) as c:
        r = c.post("/api/tables", json={"variant": "tute_2p_corriente",
                                        "seats": ["you", "open"]}).json()
        old = c.post("/api/tables", json={"variant": "tute_2p_corriente",
                                          "seats": ["you", "open"]}).json()
        code = r["code"]
        assert len(code) == 8 and set(code) <= set(_CODE_ALPHABET)
        assert len(set(_CODE_ALPHABET)) == 32 and len(code) * math.log2(32) >= 40
        spaced = f"{code[:4].lower()}-{code[4:]}"  # as people type it
        assert c.get(f"/api/code/{spaced}").json() == {"id": r["id"]}
    # a table from before: its 6-character code, written straight into the database
    with sqlite3.connect(data / "tute.sqlite3") as db:
        db.execute("UPDATE tute_tables SET code = 'ABCDEF' WHERE id = ?", (old["id"],))
    with app_client(tmp_path, data_dir=data) as c:
        assert c.get("/api/code/abcdef").json() == {"id": old["id"]}


def test_code_lookups_are_rate_limited_per_address(tmp_path: Path) -> None:
    limits = Limits(code_per_minute=6.0, code_burst=5, trusted_proxies=(PROXY,))
    with app_client(tmp_path, limits) as c:
        r = c.post("/api/tables", json={"variant": "tute_2p_corriente",
                                        "seats": ["you", "open"]}).json()
        rng = random.Random(1)
        guesses = ["".join(rng.choice(_CODE_ALPHABET) for _ in range(8)) for _ in range(5)]
        assert [c.get(f"/api/code/{g}").status_code for g in guesses] == [404] * 5
        brute = c.get(f"/api/code/{r['code']}")  # even the right code, once over the limit
        assert brute.status_code == 429 and brute.json()["error"] == "rate_limited"
        ok = c.get(f"/api/code/{r['code']}", headers=_from("192.0.2.4"))
        assert ok.json() == {"id": r["id"]}  # another address is not held back


# ------------------------------------------------------------ history

def _play_out(c: TestClient, r: dict[str, Any]) -> None:
    play_out(c, r["id"], r["token"], seed=3)


def test_history_shows_public_games_and_your_own_only(tmp_path: Path) -> None:
    with app_client(tmp_path) as c:
        mine = _quick(c)  # a quick game: private
        shown = c.post("/api/tables", json={
            "variant": "tute_2p_corriente", "seats": ["you", "facil"], "public": True,
            "options": {"games_to_win": 1}}).json()
        _play_out(c, mine)
        _play_out(c, shown)

        def listed(header: str | None) -> list[str]:
            headers = {"X-Tute-Seats": header} if header is not None else {}
            return [g["id"] for g in c.get("/api/history", headers=headers).json()["games"]]

        assert listed(None) == [shown["id"]]  # a visitor: the public game only
        assert listed(f"{mine['id']}:{'x' * 32}") == [shown["id"]]  # a guessed token: no
        assert listed(f"{mine['id']}:{mine['token']}") == [shown["id"], mine["id"]]
        assert listed(f"junk, :, {mine['id']}:{mine['token']},{'y' * 40}:z") == [
            shown["id"], mine["id"]]
        # a quick game can be made public too
        public_quick = _quick(c, public=True)
        assert c.get(f"/api/tables/{public_quick['id']}").json()["public"] is True


# ------------------------------------------------------------ message size

def test_websocket_size_limit_counts_bytes(tmp_path: Path) -> None:
    with app_client(tmp_path) as c:
        r = _quick(c)
        with c.websocket_connect(f"/ws/{r['id']}") as ws:
            p = hello(ws, r["token"])
            wide = json.dumps({"type": "ping", "ref": "€" * 10, "pad": "€" * 700},
                              ensure_ascii=False)
            assert len(wide) < 2048 < len(wide.encode())
            ws.send_text(wide)
            assert p.until("error")["code"] == "too_long"
            p.send({"type": "ping", "ref": "€" * 10})  # 30 bytes of ref: fine
            assert p.until("pong")["ref"] == "€" * 10


# ------------------------------------------------------------ the socket level

def _raw(port: int, source: str = "127.0.0.1") -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=10,
                                 source_address=(source, 0))
    return s


def _closed_within(s: socket.socket, seconds: float) -> float:
    """Read until the server closes; the time it took (fails after ``seconds``)."""
    start = time.monotonic()
    s.settimeout(seconds)
    try:
        while s.recv(65536):
            pass
    except TimeoutError:
        pytest.fail(f"the server kept the connection open for {seconds} s")
    except ConnectionResetError:
        pass
    return time.monotonic() - start


def _answer(s: socket.socket) -> tuple[int, dict[str, Any]]:
    data = b""
    s.settimeout(10)
    while b"\r\n\r\n" not in data or len(data.split(b"\r\n\r\n", 1)[1]) < int(
            data.split(b"content-length: ", 1)[1].split(b"\r\n", 1)[0]):
        chunk = s.recv(65536)
        assert chunk, data
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    return int(head.split()[1]), json.loads(body)


def test_slow_and_idle_http_connections_are_dropped(server_process: Any) -> None:
    srv = server_process(env={"TUTE_LIMITS": "header_timeout=1 idle_timeout=1 body_timeout=1"})
    # half a request line and headers, then nothing (slowloris)
    s1 = _raw(srv.port)
    s1.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-a: ")
    # connected, nothing sent
    s2 = _raw(srv.port)
    # one whole request, then half of the next one on the same keep-alive connection
    s3 = _raw(srv.port)
    s3.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
    assert _answer(s3)[0] == 200
    s3.sendall(b"GET /api/health HTTP/1.1\r\n")
    # one whole request, then an idle keep-alive
    s4 = _raw(srv.port)
    s4.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
    assert _answer(s4)[0] == 200
    # headers in time, the body never: 408 (its timeout runs with the others')
    s5 = _raw(srv.port)
    s5.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
               b"Content-Length: 50\r\n\r\n{\"variant\"")
    for s in (s1, s2, s3, s4):  # closed by the server (the bound only stops a hang)
        _closed_within(s, 30.0)
        s.close()
    status, body = _answer(s5)
    assert status == 408 and body["error"] == "timeout"
    s5.close()
    assert httpx.get(srv.base + "/api/health").status_code == 200


def _refused(srv: Any, status: int) -> httpx.Response | None:
    """The health check's answer if it is refused with ``status``, else None."""
    r = httpx.get(srv.base + "/api/health")
    return r if r.status_code == status else None


def test_total_connection_cap_refuses_clearly(server_process: Any) -> None:
    srv = server_process(env={"TUTE_LIMITS": "max_connections=3 header_timeout=30"})
    held = [_raw(srv.port) for _ in range(3)]
    r = wait_until(lambda: _refused(srv, 503), "the three connections to be taken up")
    assert r.json()["code"] == "server_full"
    async def handshake() -> None:
        # (the asyncio client: the sync one sometimes reports a refused handshake that
        # ends with the connection as a closed connection instead)
        async with ws_connect(srv.base.replace("http", "ws") + "/ws/x", open_timeout=10):
            pass

    with pytest.raises(InvalidStatus) as refused:
        asyncio.run(handshake())
    assert refused.value.response.status_code == 503
    held.pop().close()
    wait_until(lambda: not _refused(srv, 503), "a slot to be freed")
    for s in held:
        s.close()


def test_per_address_connection_cap(server_process: Any) -> None:
    srv = server_process(env={"TUTE_LIMITS": "per_address=2 header_timeout=30"})
    time.sleep(0.2)  # new connections come at bursts of per_address: the start's health check
    held = [_raw(srv.port) for _ in range(2)]
    r = wait_until(lambda: _refused(srv, 429), "the two connections to be taken up")
    assert r.json()["code"] == "too_many_connections"
    other = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2"))
    assert other.get(srv.base + "/api/health").status_code == 200  # another address: in
    other.close()
    for s in held:
        s.close()


def test_bad_limits_stop_the_server_with_one_line(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="per_adress"):
        Limits.parse("per_adress=3")
    assert Limits.parse("per_address=3 trusted_proxies=127.0.0.1,10.0.0.0/8") == Limits(
        per_address=3, trusted_proxies=("127.0.0.1", "10.0.0.0/8"))
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "tute.server", "--data-dir", str(tmp_path)],
                         env={"TUTE_LIMITS": "max_connections=lots",
                              "PYTHONPATH": str(ROOT / "src")},
                         capture_output=True, text=True, timeout=60)
    assert out.returncode != 0 and "TUTE_LIMITS" in out.stderr
    assert "Traceback" not in out.stderr


def test_new_connections_beyond_the_accept_rate_wait_their_turn() -> None:
    from tute.server.limits import Gate

    async def run() -> tuple[list[bool], list[int], float]:
        gate = Gate(Limits(accept_rate=100.0))  # bursts of 2, then one per 10 ms
        resumed: list[int] = []
        start = time.monotonic()
        waits = [gate.later(lambda i=i: resumed.append(i)) for i in range(6)]  # type: ignore[misc]
        while len(resumed) < 4:
            await asyncio.sleep(0.005)
        return waits, resumed, time.monotonic() - start

    waits, resumed, took = asyncio.run(run())
    assert waits == [False, False, True, True, True, True]
    assert resumed == [2, 3, 4, 5] and took > 0.02  # in order, paced


def test_websockets_that_waited_their_turn_outlive_the_header_timeout(
        server_process: Any) -> None:
    srv = server_process(env={"TUTE_LIMITS": "header_timeout=1 accept_rate=50"})  # bursts of 1
    r = httpx.post(srv.base + "/api/play", json={"variant": "tute_2p_corriente"}).json()
    url = srv.base.replace("http", "ws") + f"/ws/{r['id']}"

    async def watch(i: int) -> str:
        async with ws_connect(url) as ws:
            await ws.send(json.dumps({"type": "hello"}))
            assert json.loads(await ws.recv())["type"] == "welcome"
            await asyncio.sleep(2.0)  # past the header timeout
            await ws.send(json.dumps({"type": "ping", "ref": str(i)}))
            while (m := json.loads(await ws.recv()))["type"] != "pong":
                pass
            return str(m["ref"])

    async def run() -> list[str]:
        return list(await asyncio.gather(*(watch(i) for i in range(6))))

    assert asyncio.run(run()) == [str(i) for i in range(6)]
