"""Tournaments go on across a restart of the server: real ``python -m tute.server`` processes
stopped (SIGTERM) or killed (SIGKILL) and started again on the same database (SQLite, and
PostgreSQL where there is one). A Swiss round's tables are played on with the same seat
tokens after the restart (the bots move on), a table that ended just before the stop counts
once, the next round is paired once; an arena whose time ran out while the server was down
makes no new game and finishes; a tournament due to start while it was down starts.

Time passing while the server is down is the second start's ``TUTE_CLOCK_AHEAD`` (its clock
that many seconds ahead of the machine's): no test waits for the wall clock."""

from __future__ import annotations

import json
import random
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy.exc import OperationalError
from websockets.sync.client import connect

from tute.server.hub import Hub
from tute.server.protocol import apply_delta
from tute.server.table import TableError
from tute.server.tournaments_store import TournamentStore

from .accounts_helpers import cheap_hashing, device, play_table, secure, sign_up
from .conftest import ServerProcess, wait_until

__all__ = ["cheap_hashing"]  # an autouse fixture of this module (the in-process tests')

pytestmark = pytest.mark.timeout(180)

ARGS = ("--bot-delay", "0", "--trick-pause", "0", "--ws-rate", "1000",
        "--bot-timeout", "600",  # no stand-in plays for a player: the test plays every seat
        "--insecure-cookies")  # the session cookie over plain http to 127.0.0.1
POLLING = "http_rate=1000 http_burst=1000"  # the tests poll far faster than a page
SHORT = {"games_to_win": 1}  # habanero to one game: a table in a few deals


class Site:
    """One server process on one database, stopped and started again on the same port (the
    players' session cookies stay valid: sessions are stored)."""

    def __init__(self, data_dir: Path, pg_url: str | None = None):
        self.env = {"TUTE_LIMITS": POLLING}
        if pg_url:
            self.env["TUTE_DATABASE_URL"] = pg_url
        self.proc = ServerProcess(data_dir, *ARGS, env=dict(self.env))
        self.base = self.proc.base

    def start(self, ahead: float = 0.0) -> None:
        self.proc.env = {**self.env, "TUTE_CLOCK_AHEAD": str(ahead)}
        self.proc.start()

    def down(self, how: str) -> None:
        """SIGTERM (a clean stop) or SIGKILL (no shutdown handler runs)."""
        if how == "kill":
            self.proc.kill()
        else:
            self.proc.stop()
            # uvicorn shuts down (the app's shutdown runs), then dies of the signal it caught
            assert self.proc.proc is not None
            assert self.proc.proc.returncode in (0, -signal.SIGTERM)


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    s = Site(tmp_path / "srv")
    s.start()
    yield s
    s.proc.stop()


def account(base: str, name: str) -> httpx.Client:
    c = httpx.Client(base_url=base, timeout=30)
    r = c.post("/api/account/signup", json={"name": name, "password": "correct horse 1"})
    assert r.status_code == 200, r.text
    return c


def make(c: httpx.Client, **kw: Any) -> dict[str, Any]:
    body = {"name": "Copa", "variant": "tute_2p_habanero", "options": SHORT,
            "kind": "swiss", "rounds": 2, "level": "random", **kw}
    r = c.post("/api/tournaments", json=body)
    assert r.status_code == 200, r.text
    return dict(r.json())


def view(c: httpx.Client, tid: str) -> dict[str, Any]:
    r = c.get(f"/api/tournaments/{tid}")
    assert r.status_code == 200, r.text
    return dict(r.json())


def listed(c: httpx.Client, tid: str) -> dict[str, Any]:
    """The tournament's summary from the list (reading it moves nothing on: what it shows
    the server did by itself)."""
    r = c.get("/api/tournaments")
    assert r.status_code == 200, r.text
    return next(t for t in r.json()["tournaments"] if t["id"] == tid)


def my_table(c: httpx.Client, tid: str) -> dict[str, Any] | None:
    found = view(c, tid)["you"]["table"]
    return None if found is None else dict(found)


def play_seat(base: str, table: str, token: str, seed: int, until: int | None = None
              ) -> dict[str, Any]:
    """Play the seat of ``token`` at random legal actions until the table's version reaches
    ``until``, or until the game is over (the bots and the other players move meanwhile).
    Its last state."""
    rng = random.Random(seed)
    with connect(base.replace("http", "ws") + f"/ws/{table}", open_timeout=30) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        welcome = json.loads(ws.recv(timeout=30))
        assert welcome["type"] == "welcome" and welcome["seat"] is not None, welcome
        seat, state, v = welcome["seat"], welcome["state"], welcome["v"]
        acted = -1
        while not state["over"] and (until is None or v < until):
            if state["deal"]["to_move"] == seat and acted != v:
                legal = state["deal"]["legal_actions"]
                ws.send(json.dumps({"type": "act", "action": legal[rng.randrange(len(legal))]}))
                acted = v
            m = json.loads(ws.recv(timeout=30))
            assert m["type"] != "error", m
            if m["type"] == "update":
                state, v = apply_delta(state, m["delta"]), m["v"]
            elif "state" in m:
                state, v = m["state"], m["v"]
        return dict(state)


def play_tables(base: str, seats: list[tuple[str, str]], moves: int | None = None) -> None:
    """Play every (table, token) seat at once, each in its own thread: to the end, or for
    ``moves`` more moves of the one table (anyone's, the bots' too)."""
    until = None
    if moves is not None:
        (table,) = {t for t, _ in seats}
        until = httpx.get(f"{base}/api/tables/{table}", timeout=30).json()["v"] + moves
    errors: list[BaseException] = []

    def run(k: int, table: str, token: str) -> None:
        try:
            play_seat(base, table, token, seed=k, until=until)
        except BaseException as exc:  # reported by the test's thread
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(k, t, tok), daemon=True)
               for k, (t, tok) in enumerate(seats)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(120)
    assert not errors, errors
    assert not any(th.is_alive() for th in threads), "a seat's play did not end"


def seats_of(players: list[httpx.Client], tid: str) -> dict[str, list[tuple[str, str]]]:
    """Each table being played in the tournament: its (table, token) seats of people."""
    out: dict[str, list[tuple[str, str]]] = {}
    for p in players:
        mine = my_table(p, tid)
        if mine is not None:
            out.setdefault(mine["id"], []).append((mine["id"], mine["token"]))
    return out


def linked(p: httpx.Client) -> list[str]:
    """The tables linked to the account's seats (every table made for it, used or not)."""
    r = p.get("/api/account/seats")
    assert r.status_code == 200, r.text
    return sorted(s["id"] for s in r.json()["seats"])


def check_swiss_done(players: list[httpx.Client], done: dict[str, Any], rounds: int) -> None:
    """Every player played each round once, at a table made once; the standings count each
    finished game once."""
    games = done["games"]
    assert len({g["table"] for g in games}) == len(games)
    assert all(g["status"] == "finished" and g["ranks"] is not None for g in games), games
    for r in range(1, rounds + 1):
        seated = [n for g in games if g["round"] == r for n in g["seats"] if n]
        assert sorted(seated) == sorted(u["name"] for u in done["units"]), (r, games)
    table = done["standings"]
    assert [s["games"] for s in table] == [rounds] * len(table)
    for s in table:  # its points: 1 for each game it won, nothing else (games for two)
        won = sum(1 for g in games if s["name"] in (g["won"] or []))
        assert s["points"] == pytest.approx(won), (s, games)
    for p in players:  # no table was made for anyone but the tournament's
        name = p.get("/api/account").json()["account"]["name"]
        mine = sorted(g["table"] for g in games if name in g["seats"])
        assert linked(p) == mine


# ------------------------------------------------------------ Swiss


def swiss_across_a_restart(site: Site, how: str) -> None:
    """Round 1 under way (one table finished just before the stop, the other half played),
    the server stopped or killed and started again: the round goes on and ends, the second
    round is paired once and played, the standings count every game once."""
    ana, bea, carla = (account(site.base, n) for n in ("Ana", "Bea", "Carla"))
    players = [ana, bea, carla]
    tid = make(ana)["id"]
    for p in (bea, carla):
        assert p.post(f"/api/tournaments/{tid}/join", json={}).status_code == 200
    started = ana.post(f"/api/tournaments/{tid}/start").json()
    assert started["status"] == "running" and started["round"] == 1
    tables = seats_of(players, tid)
    assert len(tables) == 2 and sorted(len(s) for s in tables.values()) == [1, 2]
    full = next(t for t, s in tables.items() if len(s) == 2)  # two people
    botted = next(t for t, s in tables.items() if len(s) == 1)  # one person and a bot
    play_tables(site.base, tables[botted], moves=3)  # under way
    play_tables(site.base, tables[full])  # over: the last thing before the stop
    site.down(how)

    site.start()
    after = view(ana, tid)
    assert after["status"] == "running" and after["round"] == 1 and len(after["games"]) == 2
    ended = {g["table"]: g for g in after["games"]}
    assert ended[full]["status"] == "finished" and ended[full]["ranks"] is not None
    assert ended[botted]["status"] == "playing"
    assert seats_of(players, tid) == {botted: tables[botted]}  # the same seat, its token
    play_tables(site.base, tables[botted])  # the token still works; the bot moves on
    wait_until(lambda: listed(ana, tid)["round"] == 2, "the second round, by itself")
    second = view(ana, tid)
    assert len([g for g in second["games"] if g["round"] == 2]) == 2  # paired once
    play_tables(site.base, [s for ss in seats_of(players, tid).values() for s in ss])
    done = wait_until(lambda: (v := view(ana, tid))["status"] == "finished" and v, "the end")
    check_swiss_done(players, done, rounds=2)
    places = ana.get("/api/players/Ana").json()["tournaments"]
    assert places[0]["id"] == tid and places[0]["place"] in (1, 2, 3)


@pytest.mark.parametrize("how", ["stop", "kill"])
def test_a_swiss_round_goes_on_after_a_restart(site: Site, how: str) -> None:
    swiss_across_a_restart(site, how)


def test_a_swiss_round_goes_on_after_a_kill_on_postgresql(tmp_path: Path, pg_url: str) -> None:
    s = Site(tmp_path / "srv", pg_url)
    s.start()
    try:
        swiss_across_a_restart(s, "kill")
        assert not (tmp_path / "srv" / "tute.sqlite3").exists()  # it was PostgreSQL
    finally:
        s.proc.stop()


# ------------------------------------------------------------ arena and a start when due


@pytest.mark.parametrize(("how", "second"), [("stop", "under way"), ("kill", "under way"),
                                             ("kill", "over")])
def test_an_arena_whose_time_ran_out_while_down_finishes(site: Site, how: str,
                                                         second: str) -> None:
    ana, bea = account(site.base, "Ana"), account(site.base, "Bea")
    tid = make(ana, kind="arena", minutes=5)["id"]
    assert bea.post(f"/api/tournaments/{tid}/join", json={}).status_code == 200
    started = ana.post(f"/api/tournaments/{tid}/start").json()
    assert started["status"] == "running" and len(started["games"]) == 1
    first = started["games"][0]["table"]
    seats = seats_of([ana, bea], tid)[first]
    play_tables(site.base, seats)  # the first game over: they are paired again
    again = wait_until(lambda: (s := seats_of([ana, bea], tid)) and first not in s and s,
                       "their second game")
    (table2, seats2), = again.items()
    # the second game under way when the time runs out, or over just before the stop
    play_tables(site.base, seats2, moves=2 if second == "under way" else None)
    site.down(how)

    site.start(ahead=400)  # down for longer than the arena's five minutes
    now = view(ana, tid)
    assert now["now"] > now["ends_at"] and now["waiting"] == []
    made = [g["table"] for g in now["games"]]
    # (over just before a kill: a third game may have been made in time before it)
    assert made[-2:] == [table2, first] and len(made) <= 3
    if second == "under way":
        assert now["status"] == "running" and made == [table2, first]
    for seats in seats_of([ana, bea], tid).values():  # started in time: played out
        play_tables(site.base, seats)
    done = wait_until(lambda: listed(ana, tid)["status"] == "finished" and view(ana, tid),
                      "the arena's end")
    assert [g["table"] for g in done["games"]] == made  # no new game after its end
    assert all(g["status"] == "finished" for g in done["games"])
    assert done["finished_at"] >= done["ends_at"]
    points = {s["name"]: s["points"] for s in done["standings"]}
    wins = {s["name"]: s["wins"] for s in done["standings"]}
    assert sum(wins.values()) == len(made) and set(points) == {"Ana", "Bea"}
    if len(made) == 2:
        assert points == {n: 2.0 * w for n, w in wins.items()}  # 2 a win, no streak in two
    assert sorted(linked(ana)) == sorted(made) == sorted(linked(bea))


def test_a_tournament_due_while_down_starts_on_restart(site: Site) -> None:
    ana, bea = account(site.base, "Ana"), account(site.base, "Bea")
    now = time.time()  # the server's clock: the machine's (nothing ahead yet)
    tid = make(ana, starts_at=now + 60)["id"]
    lonely = make(ana, starts_at=now + 60)["id"]  # its creator alone: cancelled at the start
    assert bea.post(f"/api/tournaments/{tid}/join", json={}).status_code == 200
    assert listed(ana, tid)["status"] == "open"
    site.down("stop")

    site.start(ahead=120)  # the start passed while it was down
    wait_until(lambda: listed(ana, tid)["status"] == "running", "the start, by itself")
    seen = view(ana, tid)
    assert seen["round"] == 1 and len(seen["games"]) == 1
    assert seen["started_at"] >= now + 60
    tables = seats_of([ana, bea], tid)
    assert list(tables) == [seen["games"][0]["table"]] and len(tables[seen["games"][0][
        "table"]]) == 2
    play_tables(site.base, tables[seen["games"][0]["table"]], moves=1)  # their seats work
    wait_until(lambda: listed(ana, lonely)["status"] == "finished", "the lonely one's end")
    assert view(ana, lonely)["cancelled"] is True


# ------------------------------------------------------------ a stop while pairing
# A kill cannot be timed between the moment a round's tables are made and the moment the
# tournament that names them is stored; a failed write at that point leaves the database as
# the kill would. The server is then started again on it (in this process).


def _in_process_seats(players: list[Any], tid: str) -> dict[str, list[tuple[str, str]]]:
    out: dict[str, list[tuple[str, str]]] = {}
    for p in players:
        r = p.get(f"/api/tournaments/{tid}")
        assert r.status_code == 200, r.text
        mine = r.json()["you"]["table"]
        if mine is not None:
            out.setdefault(mine["id"], []).append((mine["id"], mine["token"]))
    return out


def _view_of(c: Any, tid: str) -> dict[str, Any]:
    r = c.get(f"/api/tournaments/{tid}")
    assert r.status_code == 200, r.text
    return dict(r.json())


@pytest.mark.parametrize("fault", ["pairing not stored", "tables not made"])
def test_a_stop_while_a_round_is_paired_pairs_it_once(
        make_client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fault: str) -> None:
    data = tmp_path / "site"
    c = secure(make_client(data_dir=data, ws_burst=100_000))
    ana, bea = device(c), device(c)
    sign_up(ana, "Ana")
    sign_up(bea, "Bea")
    players = [ana, bea]
    t = ana.post("/api/tournaments", json={
        "name": "Copa", "variant": "tute_2p_habanero", "options": SHORT, "kind": "swiss",
        "rounds": 2, "level": "random"}).json()
    tid = t["id"]
    assert bea.post(f"/api/tournaments/{tid}/join", json={}).status_code == 200
    assert ana.post(f"/api/tournaments/{tid}/start").json()["round"] == 1
    first = _in_process_seats(players, tid)
    failed: list[str] = []  # the fault lasts until the server stops
    if fault == "pairing not stored":  # the write that stores round 2 fails
        real_save = TournamentStore.op_save

        def op_save(tour: Any, version: int | None) -> Any:
            op = real_save(tour, version)
            if tour.round != 2:
                return op

            def failing(conn: Any) -> Any:
                failed.append(fault)
                raise OperationalError("UPDATE", {}, Exception("disk I/O error"))
            return failing
        monkeypatch.setattr(TournamentStore, "op_save", staticmethod(op_save))
    else:  # round 2's table cannot be made

        async def create_seated(self: Hub, *args: Any, **kw: Any) -> Any:
            failed.append(fault)
            raise TableError("storage", "the table could not be saved; try again later")
        monkeypatch.setattr(Hub, "create_seated", create_seated)
    for table, seats in first.items():
        play_table(c, table, [tok for _, tok in seats])
    wait_until(lambda: failed or (c.get(f"/api/tournaments/{tid}") and failed), "the fault")
    r = c.get(f"/api/tournaments/{tid}")
    planned = [g["table"] for g in r.json()["games"] if g["round"] == 2] if r.is_success else []
    assert len(planned) == (0 if fault == "pairing not stored" else 1)
    c.__exit__(None, None, None)  # the server stops...
    monkeypatch.undo()

    c2 = secure(make_client(data_dir=data, ws_burst=100_000))  # ... and starts again
    ana.client = bea.client = c2
    now = wait_until(lambda: (v := _view_of(c2, tid))["round"] == 2 and v, "round 2")
    second = _in_process_seats(players, tid)
    assert len(second) == 1 and len(now["games"]) == 2
    (table, seats), = second.items()
    assert [g["table"] for g in now["games"] if g["round"] == 2] == [table]
    if planned:  # stored before the stop: its table made after it, with the stored tokens
        assert planned == [table]
    for p in players:  # no other table was made for them
        mine = sorted(g["table"] for g in now["games"])
        assert sorted(s["id"] for s in p.get("/api/account/seats").json()["seats"]) == mine
    hub = c2.app.state.hub  # type: ignore[attr-defined]
    live = {i for i, x in hub.tables.items() if x.status in ("waiting", "playing")}
    assert live == {table}
    play_table(c2, table, [tok for _, tok in seats])  # the tokens given work
    done = wait_until(lambda: (v := _view_of(c2, tid))["status"] == "finished" and v, "the end")
    assert [s["games"] for s in done["standings"]] == [2, 2]


@pytest.mark.parametrize("value", ["soon", "inf", "nan"])
def test_a_bad_clock_ahead_stops_the_server_with_one_line(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, value: str) -> None:
    from tute.server import run

    monkeypatch.setenv("TUTE_CLOCK_AHEAD", value)
    with pytest.raises(SystemExit) as exc:
        run(data_dir=tmp_path)
    assert "TUTE_CLOCK_AHEAD" in str(exc.value) and "seconds" in str(exc.value)
