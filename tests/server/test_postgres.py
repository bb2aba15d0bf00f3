"""PostgreSQL as the server's storage: URLs and their errors, the Store's operations (batches,
a bad op inside one, readers beside the writer), and whole games through the app, across a
clean restart and a kill -9.

The server tests use ``TUTE_TEST_POSTGRES_URL`` or a throwaway PostgreSQL started from the
installed binaries (see conftest.py); without either they skip. The URL tests need no server.
"""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError

from tute.match import Match
from tute.server.app import create_app
from tute.server.store import StorageError, Store, TableRow, mask_url, normalize_url

from .conftest import ROOT, choose, hello
from .test_crash import ARGS, kill_9_mid_deal_and_finish

pytestmark = pytest.mark.timeout(120)

SECRET = "s3cr3t-pw"
BIG_SEED = 2**64 - 1


# ------------------------------------------------------------ URLs and errors (no server)


@pytest.mark.parametrize(("given", "expected"), [
    ("postgresql://ana:pw@db.example/tute", "postgresql+psycopg://ana:pw@db.example/tute"),
    ("postgres://ana:pw@db.example:5433/tute?sslmode=require",
     "postgresql+psycopg://ana:pw@db.example:5433/tute?sslmode=require"),
    ("postgresql+psycopg2://ana@db/tute", "postgresql+psycopg2://ana@db/tute"),
    ("postgres+psycopg2://ana@db/tute", "postgresql+psycopg2://ana@db/tute"),
    ("postgresql+psycopg://ana@/tute?host=/run/pg", "postgresql+psycopg://ana@/tute?host=/run/pg"),
    ("sqlite:////srv/tute/tute.sqlite3", "sqlite:////srv/tute/tute.sqlite3"),
])
def test_plain_postgresql_urls_pick_psycopg_3(given: str, expected: str) -> None:
    assert normalize_url(given) == make_url(expected)


@pytest.mark.parametrize("url", [
    f"postgresql://ana:{SECRET}@db.example/tute",
    f"postgresql://ana:{SECRET}@@db.example/tute",  # an unescaped "@" in the password
    f"postgresql://db.example/tute?sslmode=require&password={SECRET}",
    f"not a url ana:{SECRET}@db",
])
def test_masked_urls_hide_the_password(url: str) -> None:
    shown = mask_url(url)
    assert SECRET not in shown and "***" in shown and "db" in shown


@pytest.mark.parametrize(("url", "words"), [
    ("nonsense", ["cannot parse"]),
    ("mongodb://ana:{pw}@db/tute", ["unknown database URL scheme 'mongodb'"]),
    ("postgresql+asyncpg://ana:{pw}@db/tute", ["asyncio"]),
    ("postgresql+nosuchdriver://ana:{pw}@db/tute", ["unknown database URL scheme"]),
])
def test_bad_database_urls_are_refused_before_serving(url: str, words: list[str],
                                                      tmp_path: Path) -> None:
    with pytest.raises(StorageError) as err:
        create_app(data_dir=tmp_path, database_url=url.format(pw=SECRET))
    for w in words:
        assert w in str(err.value)
    assert SECRET not in str(err.value)


def test_a_missing_driver_names_the_scheme_and_the_install_command(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # import psycopg -> ImportError
    with pytest.raises(StorageError) as err:
        create_app(data_dir=tmp_path, database_url=f"postgresql://ana:{SECRET}@db.example/t")
    msg = str(err.value)
    assert "'postgresql'" in msg and "pip install 'tute[postgres]'" in msg
    assert SECRET not in msg and "ana:***@db.example" in msg


def _run(code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT / "src"), **env})


def test_tute_serve_without_the_driver_fails_in_one_line() -> None:
    out = _run("import sys; sys.modules['psycopg'] = None\n"
               "from tute.cli import main; main(['serve', '--port', '1'])",
               {"TUTE_DATABASE_URL": f"postgres://ana:{SECRET}@db.example/tute"})
    assert out.returncode == 2, out
    assert out.stderr.startswith("tute: error: ") and out.stderr.count("\n") == 1, out.stderr
    assert "pip install 'tute[postgres]'" in out.stderr and SECRET not in out.stderr


def test_server_fails_cleanly_when_the_database_is_unreachable(tmp_path: Path) -> None:
    url = f"postgresql://ana:{SECRET}@/tute?host={tmp_path}"  # no server on that socket
    out = _run("from tute.server.__main__ import main; main()\n",
               {"TUTE_DATABASE_URL": url})
    assert out.returncode == 2, out
    assert out.stderr.startswith("python -m tute.server: error: cannot open the database ")
    assert str(tmp_path) in out.stderr and out.stderr.count("\n") == 1, out.stderr
    assert SECRET not in out.stderr


# ------------------------------------------------------------ the Store on PostgreSQL


def _row(i: int, *, status: str = "playing", seed: int = 1,
         finished_at: float | None = None) -> TableRow:
    return TableRow(id=f"t{i}", code=f"C{i}", variant="tute_2p_habanero",
                    options={"games_to_win": 1, "nested": {"list": [1, 2.5, None], "ñ": "sí"}},
                    seed=seed, first_dealer=1,
                    seats=[{"kind": "human", "name": "Ana", "token_hash": "ab" * 16},
                           {"kind": "bot", "name": "Bot 2", "level": "facil"}],
                    host=0, public=i % 2 == 0, status=status, version=0,
                    result={"winner": 0} if status == "finished" else None,
                    created_at=1732934400.123456 + i, finished_at=finished_at)


def _in_one_batch(url: str, ops: list[Any]) -> tuple[list[Any], int]:
    """Run ``ops`` on a fresh Store whose writer starts only once all of them are queued (so
    they reach it as one batch); returns (each op's result or exception, commits made)."""
    store = Store(url)
    commits: list[int] = []
    event.listen(store.engine, "commit", lambda _conn: commits.append(1))

    async def go() -> list[Any]:
        tasks = [asyncio.ensure_future(store.write(op)) for op in ops]
        await asyncio.sleep(0)  # every task has queued its op
        store.start()
        return await asyncio.gather(*tasks, return_exceptions=True)

    try:
        return asyncio.run(go()), len(commits)
    finally:
        store.close()


def test_store_round_trip(pg_url: str) -> None:
    creates = [Store.op_create(_row(0, seed=BIG_SEED)), Store.op_create(_row(1, status="waiting")),
               Store.op_create(_row(2, status="expired"))]
    creates += [Store.op_create(_row(i, status="finished", finished_at=f))
                for i, f in ((3, 300.0), (4, 100.0), (5, 200.0))]
    creates.append(Store.op_create(_row(6)))
    results, commits = _in_one_batch(pg_url, creates)
    assert results == [None] * len(creates) and commits == 1
    seat_change = [{"kind": "human", "name": "Bea", "token_hash": "cd" * 16}]
    # one batch: one event each for t1/t2 (the executemany version update), several for t0
    # (updates in order), a seat change, and t6 finished (status, result, finished_at)
    ops = [Store.op_event("t0", v, "action", v % 2, f"a{v}") for v in range(1, 13)]
    ops += [Store.op_event("t1", 1, "seat", None, '{"1":{}}', status="playing",
                           seats=seat_change),
            Store.op_event("t2", 1, "action", 0, "Ao"),
            Store.op_event("t6", 1, "action", 1, "3o", status="finished",
                           result={"winner": 1, "games": [0, 1]})]
    results, commits = _in_one_batch(pg_url, ops)
    assert results == [None] * len(ops) and commits == 1  # not the one-by-one fallback
    # seven events of t3 written newest first, one by one: events() still returns them in order
    for v in range(7, 0, -1):
        _in_one_batch(pg_url, [Store.op_event("t3", v, "action", 0, f"b{v}")])
    # a finished table whose finished_at is unknown sorts last, as SQLite sorts it
    _in_one_batch(pg_url, [Store.op_status("t2", "finished")])

    store = Store(pg_url)
    try:
        t0 = store.get("t0")
        assert t0 is not None and t0.seed == BIG_SEED and isinstance(t0.seed, int)
        assert t0.options == _row(0).options and t0.seats == _row(0).seats
        assert (t0.version, t0.status, t0.public, t0.first_dealer) == (12, "playing", True, 1)
        assert t0.created_at == 1732934400.123456  # a double, not a 4-byte float
        assert t0.result is None and t0.finished_at is None
        assert [(e.version, e.seat, e.data) for e in store.events("t0")] == [
            (v, v % 2, f"a{v}") for v in range(1, 13)]
        assert [e.version for e in store.events("t3")] == list(range(1, 8))
        assert store.events("nope") == []
        t1 = store.by_code("C1")
        assert t1 is not None and t1.id == "t1" and t1.status == "playing"
        assert t1.seats == seat_change and t1.version == 1
        assert store.by_code("C9") is None and store.get("t9") is None
        assert sorted(r.id for r in store.live_tables()) == ["t0", "t1"]
        t6 = store.get("t6")
        assert t6 is not None and t6.status == "finished" and t6.version == 1
        assert t6.result == {"winner": 1, "games": [0, 1]} and t6.finished_at is not None
        assert t6.finished_at > 1e9  # now, as stored with the event
        assert [r.id for r in store.finished()] == ["t6", "t3", "t5", "t4", "t2"]
        assert [r.id for r in store.finished(limit=2)] == ["t6", "t3"]
        assert [r.id for r in store.finished(limit=5, before=300.0)] == ["t5", "t4"]
        assert store.finished(before=100.0) == []
    finally:
        store.close()


def test_one_bad_op_in_a_batch_sinks_nothing_else(pg_url: str) -> None:
    _in_one_batch(pg_url, [Store.op_create(_row(i)) for i in range(10)])
    ops: list[Any] = [Store.op_event(f"t{i}", 1, "action", 0, "Ao") for i in range(10)]
    ops.insert(4, Store.op_event("t3", 1, "action", 1, "Rc"))  # (t3, 1) twice: refused
    ops.insert(7, Store.op_create(_row(2)))  # an id that exists: a failing op of another kind
    ops.append(Store.op_event("t5", 2, "action", 1, "3o", status="finished",
                              result={"winner": 1}))
    results, commits = _in_one_batch(pg_url, ops)
    bad = [i for i, x in enumerate(results) if isinstance(x, BaseException)]
    assert bad == [4, 7], results
    assert all(isinstance(results[i], IntegrityError) for i in bad)
    # the batch's transaction was rolled back; each good op committed in one of its own
    assert commits == len(ops) - 2
    store = Store(pg_url)
    try:
        assert [(e.version, e.data) for e in store.events("t3")] == [(1, "Ao")]
        assert [(e.version, e.data) for e in store.events("t5")] == [(1, "Ao"), (2, "3o")]
        rows = {r.id: r for r in store.live_tables()}
        assert sorted(rows) == [f"t{i}" for i in range(10) if i != 5]
        assert all(r.version == 1 for r in rows.values())
        t5 = store.get("t5")
        assert t5 is not None and (t5.status, t5.version, t5.result) == (
            "finished", 2, {"winner": 1})
        # and the writer goes on
        store.start()
        assert asyncio.run(store.write(Store.op_event("t2", 2, "action", 1, "4b"))) is None
        assert [e.version for e in store.events("t2")] == [1, 2]
    finally:
        store.close()


def test_readers_beside_the_writer(pg_url: str) -> None:
    tables, moves = 8, 25
    _in_one_batch(pg_url, [Store.op_create(_row(i)) for i in range(tables)])
    store = Store(pg_url)
    store.start()
    done = threading.Event()
    reads = [0]
    problems: list[str] = []

    def reader(k: int) -> None:
        rng = random.Random(k)
        try:
            while not done.is_set():
                tid = f"t{rng.randrange(tables)}"
                row = store.get(tid)
                evs = store.events(tid)  # read after the row: it holds at least its version
                assert row is not None
                if [e.version for e in evs] != list(range(1, len(evs) + 1)):
                    problems.append(f"{tid}: versions {[e.version for e in evs]}")
                if len(evs) < row.version:
                    problems.append(f"{tid}: row at {row.version}, {len(evs)} events")
                if k == 0:
                    assert len(store.live_tables()) == tables
                reads[0] += 1
        except Exception as exc:  # reported below, with the thread's view
            problems.append(repr(exc))

    async def play(tid: str) -> None:
        for v in range(1, moves + 1):
            await store.write(Store.op_event(tid, v, "action", v % 2, f"m{v}"))

    threads = [threading.Thread(target=reader, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    try:
        async def all_tables() -> None:
            await asyncio.gather(*(play(f"t{i}") for i in range(tables)))
        asyncio.run(all_tables())
    finally:
        done.set()
        for t in threads:
            t.join(10)
        store.close()
    assert problems == [] and reads[0] > 20
    check = Store(pg_url)
    try:
        assert all(check.get(f"t{i}").version == moves for i in range(tables))  # type: ignore[union-attr]
    finally:
        check.close()


# ------------------------------------------------------------ the app on PostgreSQL


def _app(url: str) -> TestClient:
    return TestClient(create_app(database_url=url, bot_delay=0.0, trick_pause=0.0,
                                 ws_rate=1000.0, data_dir="/nonexistent/unused"))


def _play_until(c: TestClient, table: str, token: str, rng: random.Random,
                stop: Callable[[Any], bool], since: int | None = None,
                seen: Callable[[int], None] | None = None) -> tuple[Any, list[str]]:
    """Play our seat against the bots until ``stop(player)`` when it is our turn (or the game
    is over); returns the player and the actions of the updates after its welcome."""
    actions: list[str] = []
    with c.websocket_connect(f"/ws/{table}") as ws:
        p = hello(ws, token, **({} if since is None else {"since": since}))
        while True:
            st = p.state
            assert st is not None
            if st["over"] or (st["deal"]["to_move"] == p.seat and stop(p)):
                return p, actions
            if st["deal"]["to_move"] == p.seat:
                p.send({"type": "act", "action": choose(st, rng), "v": p.v})
            m = p.until("update")
            actions.append(m["action"])
            if seen is not None:
                seen(m["v"])


def _actions(record: dict[str, Any]) -> list[str]:
    return [a for d in record["deals"] for a in d["actions"]]


def test_a_game_against_bots_and_its_history_on_a_second_app(pg_url: str) -> None:
    reader = Store(pg_url)  # another connection: sees only what is committed
    committed: list[bool] = []

    def seen(v: int) -> None:  # an update reached us: its event must already be durable
        committed.append(bool(reader.events(table)) and reader.events(table)[-1].version >= v)

    try:
        with _app(pg_url) as c:
            r = c.post("/api/play", json={"variant": "tute_2p_corriente", "level": "facil",
                                          "name": "Ana", "options": {"games_to_win": 1}})
            assert r.status_code == 200, r.text
            table, token = r.json()["id"], r.json()["token"]
            p, actions = _play_until(c, table, token, random.Random(5),
                                     lambda _p: False, seen=seen)
            assert p.state["over"] and len(actions) > 20
            assert committed and all(committed)
    finally:
        reader.close()
    with _app(pg_url) as c2:
        # a quick game is private: listed to its player (by her token), to nobody else
        assert c2.get("/api/history").json()["games"] == []
        games = c2.get("/api/history",
                       headers={"X-Tute-Seats": f"{table}:{token}"}).json()["games"]
        assert [g["id"] for g in games] == [table] and games[0]["players"] == ["Ana", "Lola"]
        assert games[0]["result"] == p.state["result"]
        rec = c2.get(f"/api/games/{table}/record")
        assert rec.status_code == 200, rec.text
        match = Match.from_record({k: v for k, v in rec.json().items() if k != "players"})
        assert match.is_over() and match.result().to_json() == p.state["result"]
        # a bot may have led before we said hello: those actions came in the welcome
        welcome_v = p.msgs[0]["v"]
        assert _actions(rec.json())[welcome_v:] == actions
        assert len(_actions(rec.json())) == p.v == welcome_v + len(actions)
        assert match.seed == Store(pg_url).get(table).seed  # type: ignore[union-attr]


def test_a_table_survives_a_restart(pg_url: str) -> None:
    rng = random.Random(8)
    with _app(pg_url) as c:
        r = c.post("/api/play", json={"variant": "tute_2p_habanero", "level": "medio",
                                      "name": "Ana", "options": {"games_to_win": 1}}).json()
        p, before = _play_until(c, r["id"], r["token"], rng, lambda p: p.v >= 9)
        assert not p.state["over"] and p.v >= 9
        v, welcome_v, hand = p.v, p.msgs[0]["v"], p.state["deal"]["hand"]
    with _app(pg_url) as c2:
        info = c2.get(f"/api/tables/{r['id']}").json()
        assert info["status"] == "playing" and info["v"] == v
        p2, after = _play_until(c2, r["id"], r["token"], rng, lambda _p: False, since=v)
        assert p2.msgs[0]["v"] == v and p2.states[0]["deal"]["hand"] == hand  # type: ignore[index]
        assert p2.state["over"]
        rec = c2.get(f"/api/games/{r['id']}/record").json()
        assert _actions(rec)[welcome_v:] == before + after  # nothing lost, nothing twice
        assert len(_actions(rec)) == p2.v


def test_kill_9_against_postgresql(server_process: Any, pg_url: str, tmp_path: Path) -> None:
    data = tmp_path / "data"
    table = kill_9_mid_deal_and_finish(lambda: server_process(
        *ARGS, data_dir=data, env={"TUTE_DATABASE_URL": pg_url}))
    assert not (data / "tute.sqlite3").exists()  # it really was PostgreSQL
    store = Store(pg_url)
    try:
        row = store.get(table)
        assert row is not None and row.status == "finished"
        assert row.version == store.events(table)[-1].version
    finally:
        store.close()
