"""Shared helpers of the server tests: an app on a temporary data dir, WebSocket players that
record every message they receive, and a real server in a subprocess."""

from __future__ import annotations

import importlib.util
import json
import os
import pwd
import random
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from tute.server.app import create_app
from tute.server.clock import ManualClock
from tute.server.hub import Hub
from tute.server.limits import Limits
from tute.server.protocol import apply_delta
from tute.server.store import database_url

ROOT = Path(__file__).resolve().parents[2]


# The deals of the server tests' tables come from SEED: the same at every run, other deals
# with TUTE_TEST_SEED=n (to look for a test that holds only for some deals).
SEED = int(os.environ.get("TUTE_TEST_SEED", "0"))

# Tests poll the server far faster than a page does (wait_until): HTTP requests per address
# are not what they test (test_limits sets its own limits).
POLLING = Limits(http_rate=1000.0, http_burst=1000)


@pytest.fixture
def make_client(tmp_path: Path) -> Iterator[Any]:
    """``make_client(**app_options)`` -> a started TestClient on a fresh data dir."""
    clients: list[TestClient] = []

    def make(**kw: Any) -> TestClient:
        kw.setdefault("bot_delay", 0.0)
        kw.setdefault("trick_pause", 0.0)
        kw.setdefault("ws_rate", 1000.0)  # tests play far faster than people
        # no pool started at every table against bots (test_botpool turns it on)
        kw.setdefault("warm_hints", False)
        kw.setdefault("limits", POLLING)
        kw.setdefault("seeds", random.Random(SEED + len(clients)))  # the same deals each run
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


@pytest.fixture
def clock() -> ManualClock:
    """A clock that moves only when the test advances it (``make_client(clock=clock)``)."""
    return ManualClock()


def wait_until(cond: Callable[[], Any], what: str = "the condition",
               timeout: float = 60.0) -> Any:
    """Poll ``cond`` until it holds (its value is returned): for what the server does in its
    own thread after a request returns. ``timeout`` is only a guard against a hang, far above
    any wait a working server needs."""
    deadline = time.monotonic() + timeout
    while not (value := cond()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.01)
    return value


def run_clock_until(clock: ManualClock, cond: Callable[[], Any], what: str = "the condition",
                    horizon: float = float("inf"), timeout: float = 60.0) -> Any:
    """Move ``clock`` from one timer to the next until ``cond`` holds: the server's timers
    (bots' delays, stand-ins, expiry) fire in their order, as fast as the machine allows.
    A timer more than ``horizon`` seconds away is not jumped to (the server may be about to
    set a nearer one: a bot thinking, an intent being handled)."""
    deadline = time.monotonic() + timeout
    while not (value := cond()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        step = clock.next_due()
        if step is None or step > horizon:
            time.sleep(0.005)
        else:
            clock.advance(step)
    return value


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


def two_seats(client: TestClient, variant: str = "tute_2p_habanero",
              **settings: Any) -> tuple[str, list[str]]:
    """A two-player table with both seats ours (created with an open seat, joined by a
    second player): its id and the two seats' tokens. ``settings`` go to the creation."""
    r = client.post("/api/tables", json={"variant": variant, "seats": ["you", "open"],
                                         "name": "Ana", **settings})
    assert r.status_code == 200, r.text
    j = client.post(f"/api/tables/{r.json()['id']}/join", json={"name": "Bea"})
    assert j.status_code == 200, j.text
    return r.json()["id"], [r.json()["token"], j.json()["token"]]


def play_out(client: TestClient, table_id: str, token: str, seed: int) -> dict[str, Any]:
    """Play the seat of ``token`` at random legal actions until the game is over (the bots,
    if any, play the other seats); the seat's last state."""
    rng = random.Random(seed)
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        p = hello(ws, token)
        while not p.state["over"]:  # type: ignore[index]
            st = p.state
            assert st is not None
            if st["deal"]["to_move"] == p.seat:
                p.send({"type": "act", "action": choose(st, rng)})
            p.until("update")
    assert p.state is not None
    return p.state


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``python -m tute.server`` on a free loopback port. The environment's TUTE_DATABASE_URL
    is dropped (SQLite in ``data_dir``) unless ``env`` sets it. ``--no-warm-hints`` is added
    unless ``args`` hold ``--warm-hints``."""

    def __init__(self, data_dir: Path, *args: str, env: dict[str, str] | None = None):
        self.data_dir = data_dir
        self.port = free_port()
        # no bot pool started by every table against bots: "--warm-hints" lets the server
        # prepare the hints' search as it does by default
        self.args = tuple(a for a in args if a != "--warm-hints")
        if len(self.args) == len(args):
            self.args += ("--no-warm-hints",)
        self.env = env or {}
        self.proc: subprocess.Popen[bytes] | None = None
        self.base = f"http://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
        env.pop("TUTE_DATABASE_URL", None)
        env.update(self.env)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tute.server", "--host", "127.0.0.1", "--port",
             str(self.port), "--data-dir", str(self.data_dir), "--log-level", "warning",
             *self.args],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        # a guard against a hang only: on a loaded machine importing the server takes long
        deadline = time.monotonic() + 180
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

    def start(*args: str, data_dir: Path | None = None,
              env: dict[str, str] | None = None) -> ServerProcess:
        p = ServerProcess(data_dir or tmp_path / "srv", *args, env=env).start()
        procs.append(p)
        return p

    yield start
    for p in procs:
        p.stop()


# ------------------------------------------------------------ PostgreSQL

PG_URL_ENV = "TUTE_TEST_POSTGRES_URL"


def _postgres_bindir() -> Path | None:
    """The newest Debian-style /usr/lib/postgresql/<version>/bin, else initdb on the PATH."""
    found = [p.parent for p in Path("/usr/lib/postgresql").glob("*/bin/initdb")
             if (p.parent / "pg_ctl").exists()]
    if found:
        return max(found, key=lambda b: int(b.parent.name) if b.parent.name.isdigit() else 0)
    initdb, pg_ctl = shutil.which("initdb"), shutil.which("pg_ctl")
    return Path(initdb).parent if initdb and pg_ctl else None


class ThrowawayPostgres:
    """A private PostgreSQL server in a temporary directory, reachable only through the unix
    socket in that directory (trust login, so nothing else may enter it: the directory stays
    0700). initdb refuses to run as root: as root it runs as the ``postgres`` system user."""

    def __init__(self, bindir: Path):
        self.bindir = bindir
        self.dir = Path(tempfile.mkdtemp(prefix="tute-pg-"))
        self.data = self.dir / "data"
        self.log = self.dir / "server.log"

    def _run(self, tool: str, *args: str, check: bool = True) -> None:
        cmd = [str(self.bindir / tool), *args]
        if os.geteuid() == 0:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        out = subprocess.run(cmd, cwd=self.dir, capture_output=True, text=True, timeout=60,
                             env={**os.environ, "LC_ALL": "C"})
        if check and out.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise RuntimeError(f"{tool} failed ({out.returncode}): {out.stdout}{out.stderr}{log}")

    def start(self) -> str:
        """Start the server; returns an admin URL (user postgres, database postgres)."""
        if os.geteuid() == 0:
            try:
                pw = pwd.getpwnam("postgres")
            except KeyError:
                pytest.skip("PostgreSQL tests: running as root and there is no 'postgres' user "
                            "to run initdb as")
            os.chown(self.dir, pw.pw_uid, pw.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust",
                  "--no-locale", "-E", "UTF8", "--no-sync")
        # only the socket; no durability to the disk: a crash of this server loses nothing
        # anyone needs, and the tests kill the app server, never this one
        with (self.data / "postgresql.conf").open("a") as conf:
            conf.write(f"\nlisten_addresses = ''\nunix_socket_directories = '{self.dir}'\n"
                       "port = 5432\nfsync = off\nsynchronous_commit = off\n"
                       "full_page_writes = off\nmax_connections = 200\n")
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "30",
                  "start")
        return f"postgresql://postgres@/postgres?host={self.dir}&port=5432"

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():  # running, or a start that timed out
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop",
                      check=False)
        shutil.rmtree(self.dir, ignore_errors=True)


class PostgresServer:
    """A PostgreSQL server the tests may create databases on (``admin_url`` may)."""

    def __init__(self, admin_url: str):
        self.given = make_url(admin_url)  # the tests' URLs keep its form: postgresql://...
        self.engine = create_engine(database_url(admin_url), isolation_level="AUTOCOMMIT")

    def create_database(self) -> str:
        """A fresh, empty database; returns its URL as given (e.g. plain postgresql://)."""
        name = "tute_test_" + secrets.token_hex(6)
        with self.engine.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        return self.given.set(database=name).render_as_string(hide_password=False)

    def drop_database(self, url: str) -> None:
        name = make_url(url).database
        with self.engine.connect() as conn:  # FORCE: a killed server may have left sessions
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """``TUTE_TEST_POSTGRES_URL`` (a URL allowed to create databases), else a throwaway server
    started from the installed PostgreSQL binaries; skips when there is neither."""
    url = os.environ.get(PG_URL_ENV)
    if url:  # asked for: a bad URL or a missing driver is an error, not a skip
        server = PostgresServer(url)
        yield server
        server.engine.dispose()
        return
    bindir = _postgres_bindir()
    if bindir is None:
        pytest.skip(f"PostgreSQL tests: no PostgreSQL server (set {PG_URL_ENV}, or install "
                    "postgresql for initdb and pg_ctl)")
    if importlib.util.find_spec("psycopg") is None:
        pytest.skip("PostgreSQL tests: the driver is missing (pip install 'tute[postgres]')")
    pg = ThrowawayPostgres(bindir)
    try:
        server = PostgresServer(pg.start())
        yield server
        server.engine.dispose()
    finally:
        pg.stop()


@pytest.fixture
def pg_url(postgres_server: PostgresServer) -> Iterator[str]:
    """The URL of a fresh database (``postgresql://...``), dropped after the test."""
    url = postgres_server.create_database()
    yield url
    postgres_server.drop_database(url)


# ------------------------------------------------------------ browsers (Playwright)
# Shared by the browser test modules (the table's, the tutorials'): a Chromium for the module,
# and a started server with short bot pauses on a data directory the test may seed first.

@pytest.fixture(scope="module")
def browser() -> Any:
    from .test_browser import ARGS, CHROMIUM  # (that module imports this one's ARTIFACTS)

    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    d = tmp_path / "srv"
    d.mkdir()
    return d


@pytest.fixture
def start(server_process: Any, data_dir: Path) -> Callable[..., str]:
    def go(*extra: str) -> str:
        srv = server_process("--bot-delay", "0", "--trick-pause", "0", *extra,
                             data_dir=data_dir)
        return str(srv.base)
    return go


@pytest.fixture
def seeded_tables(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Tables dealt from the seed in the list it yields (the web API takes none): set
    ``seeded_tables[0]`` before creating a table, and the game, so what it exercises, is the
    same on every run."""
    seed = [0]
    create = Hub.create

    async def create_seeded(self: Hub, *args: Any, **kw: Any) -> Any:
        kw["seed"] = seed[0]
        return await create(self, *args, **kw)

    monkeypatch.setattr(Hub, "create", create_seeded)
    yield seed


# ------------------------------------------------------------ screenshots
# The browser tests' screenshots go to $TUTE_ARTIFACTS when it is set, else to artifacts/
# under the run's pytest temporary folder: never into the checkout. The run's summary names it.

class ArtifactsDir:
    """The screenshots' folder, known once the session has started: used as a path
    (``ARTIFACTS / "x.png"``, ``ARTIFACTS.mkdir()``)."""

    path: Path | None = None

    def resolve(self) -> Path:
        if self.path is None:
            raise RuntimeError("the screenshots' folder is set when the session starts")
        return self.path

    def mkdir(self, parents: bool = True, exist_ok: bool = True) -> None:
        self.resolve().mkdir(parents=True, exist_ok=True)

    def __truediv__(self, name: str) -> Path:
        return self.resolve() / name

    def __fspath__(self) -> str:
        return str(self.resolve())


ARTIFACTS = ArtifactsDir()


@pytest.fixture(scope="session", autouse=True)
def _artifacts_dir(tmp_path_factory: pytest.TempPathFactory) -> None:
    chosen = os.environ.get("TUTE_ARTIFACTS")
    if chosen:
        ARTIFACTS.path = Path(chosen).resolve()
        return
    base = tmp_path_factory.getbasetemp()
    # parallel workers each have a folder under the run's: they share one artifacts folder
    ARTIFACTS.path = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "artifacts"


def pytest_terminal_summary(terminalreporter: Any) -> None:
    path = ARTIFACTS.path
    if path is not None and path.is_dir() and any(path.iterdir()):
        terminalreporter.write_line(f"screenshots: {path}")
