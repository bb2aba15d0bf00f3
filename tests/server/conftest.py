"""Shared helpers of the server tests: an app on a temporary data dir, WebSocket players that
record every message they receive, and a real server in a subprocess."""

from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from tute.server.app import create_app
from tute.server.protocol import apply_delta

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def make_client(tmp_path: Path) -> Iterator[Any]:
    """``make_client(**app_options)`` -> a started TestClient on a fresh data dir."""
    clients: list[TestClient] = []

    def make(**kw: Any) -> TestClient:
        kw.setdefault("bot_delay", 0.0)
        kw.setdefault("trick_pause", 0.0)
        kw.setdefault("ws_rate", 1000.0)  # tests play far faster than people
        kw.setdefault("data_dir", tmp_path / f"data{len(clients)}")
        c = TestClient(create_app(**kw))
        c.__enter__()
        clients.append(c)
        return c

    yield make
    for c in clients:
        c.__exit__(None, None, None)


@pytest.fixture
def client(make_client: Any) -> TestClient:
    return make_client()


class Player:
    """One WebSocket connection; keeps every message it receives and its state: the last whole
    one (welcome, catchup) with every update's delta applied since."""

    def __init__(self, ws: Any, seat: int | None):
        self.ws = ws
        self.seat = seat
        self.msgs: list[dict[str, Any]] = []
        self.states: list[dict[str, Any] | None] = []  # the state after each message
        self.state: dict[str, Any] | None = None
        self.v = 0

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send_text(json.dumps(msg))

    def recv(self) -> dict[str, Any]:
        m = self.ws.receive_json()
        self.msgs.append(m)
        if "state" in m:
            self.state = m["state"]
        elif m["type"] == "update":
            assert self.state is not None and m["v"] > self.v, m
            self.state = apply_delta(self.state, m["delta"])
        self.states.append(self.state)
        if isinstance(m.get("v"), int):
            self.v = max(self.v, m["v"])
        return m

    def until(self, kind: str, v: int | None = None) -> dict[str, Any]:
        while True:
            m = self.recv()
            if m["type"] == kind and (v is None or m.get("v") == v):
                return m
            if m["type"] == "error":
                raise AssertionError(f"unexpected error while waiting for {kind}: {m}")


def hello(ws: Any, token: str | None = None, **extra: Any) -> Player:
    msg: dict[str, Any] = {"type": "hello", **extra}
    if token:
        msg["token"] = token
    ws.send_text(json.dumps(msg))
    p = Player(ws, None)
    m = p.recv()
    assert m["type"] == "welcome", m
    p.seat = m["seat"]
    return p


def choose(state: dict[str, Any], rng: random.Random) -> str:
    legal = state["deal"]["legal_actions"]
    return legal[rng.randrange(len(legal))]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``python -m tute.server`` on a free loopback port."""

    def __init__(self, data_dir: Path, *args: str):
        self.data_dir = data_dir
        self.port = free_port()
        self.args = args
        self.proc: subprocess.Popen[bytes] | None = None
        self.base = f"http://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
        env.pop("TUTE_DATABASE_URL", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tute.server", "--host", "127.0.0.1", "--port",
             str(self.port), "--data-dir", str(self.data_dir), "--log-level", "warning",
             *self.args],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                raise RuntimeError(f"server exited: {err}")
            try:
                if httpx.get(self.base + "/api/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("server did not start")

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()  # SIGKILL: no shutdown handlers run
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


@pytest.fixture
def server_process(tmp_path: Path) -> Iterator[Any]:
    procs: list[ServerProcess] = []

    def start(*args: str, data_dir: Path | None = None) -> ServerProcess:
        p = ServerProcess(data_dir or tmp_path / "srv", *args).start()
        procs.append(p)
        return p

    yield start
    for p in procs:
        p.stop()
