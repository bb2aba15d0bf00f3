"""One bad stored row never stops the server: a damaged table alone is unavailable (409
``unavailable`` with the reason; the reason logged), the history skips rows it cannot read, every
other table keeps working; a table whose stored version does not match its event log is never
served as a fresh deal. A database that is not tute's is refused at startup in one line."""

from __future__ import annotations

import contextlib
import json
import random
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tute.actions import parse_action
from tute.errors import InvalidNotationError
from tute.server.app import create_app
from tute.server.store import StorageError, Store

from .conftest import ROOT, hello

pytestmark = pytest.mark.timeout(120)

FAST: dict[str, Any] = {"bot_delay": 0.0, "trick_pause": 0.0, "ws_rate": 1000.0,
                        "bot_timeout": 600.0}
DB = "tute.sqlite3"


def app(data: Path) -> TestClient:
    # seeded deals: a random one could end before the template's actions are played
    return TestClient(create_app(data_dir=data, seeds=random.Random(4), **FAST))


def play(c: TestClient, table: str, tokens: list[str], actions: int | None) -> int:
    """Play ``actions`` actions (None: to the end) with every seat's token; returns v."""
    with contextlib.ExitStack() as stack:
        players = [hello(stack.enter_context(c.websocket_connect(f"/ws/{table}")), t)
                   for t in tokens]
        by_seat = {p.seat: p for p in players}
        done = 0
        while actions is None or done < actions:
            st = players[0].state
            assert st is not None
            if st["over"]:
                break
            mover = by_seat.get(st["deal"]["to_move"])
            if mover is None:  # a bot's turn
                players[0].until("update")
                continue
            assert mover.state is not None
            mover.send({"type": "act", "action": mover.state["deal"]["legal_actions"][0],
                        "ref": "r"})
            upd = mover.until("update")
            for p in players:
                while p.v < upd["v"]:
                    p.recv()
            done += 1
        return players[0].v


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A data dir with: A (the victim) and B, two started two-player tables with a few actions
    each; F and G, two finished public games."""
    data = tmp_path_factory.mktemp("template") / "data"
    ids: dict[str, Any] = {"data": data}
    with app(data) as c:
        for name, n in (("A", 7), ("B", 3)):
            r = c.post("/api/tables", json={"variant": "tute_2p_habanero",
                                            "seats": ["you", "open"], "name": name,
                                            "options": {"games_to_win": 1}}).json()
            j = c.post(f"/api/tables/{r['id']}/join", json={"name": "X"}).json()
            ids[name] = {"id": r["id"], "code": r["code"], "tokens": [r["token"], j["token"]]}
            ids[name]["v"] = play(c, r["id"], ids[name]["tokens"], n)
            assert c.get(f"/api/tables/{r['id']}").json()["status"] == "playing"
        for name in ("F", "G"):
            r = c.post("/api/tables", json={"variant": "tute_2p_habanero", "public": True,
                                            "seats": ["you", "bot:facil"], "name": name,
                                            "options": {"games_to_win": 1}}).json()
            play(c, r["id"], [r["token"]], None)
            ids[name] = {"id": r["id"]}
        games = {g["id"] for g in c.get("/api/history").json()["games"]}
        assert {ids["F"]["id"], ids["G"]["id"]} <= games
    return ids


@pytest.fixture
def data(template: dict[str, Any], tmp_path: Path) -> Iterator[Path]:
    d = tmp_path / "data"
    shutil.copytree(template["data"], d)
    yield d


def sql(data: Path, statement: str, *args: Any) -> None:
    db = sqlite3.connect(data / DB)
    try:
        db.execute(statement, args)
        db.commit()
    finally:
        db.close()


def event_data(data: Path, table: str, version: int) -> str:
    db = sqlite3.connect(data / DB)
    try:
        return str(db.execute("SELECT data FROM tute_events WHERE table_id = ? AND version = ?",
                              (table, version)).fetchone()[0])
    finally:
        db.close()


def flip_to_garbage(text: str) -> str:
    """``text`` with one bit flipped so that it is no action at all."""
    raw = text.encode()
    for i in range(len(raw)):
        for bit in (0x40, 0x20, 0x10, 0x08, 0x04, 0x02, 0x01):
            flipped = (raw[:i] + bytes([raw[i] ^ bit]) + raw[i + 1:]).decode("latin-1")
            try:
                parse_action(flipped)
            except InvalidNotationError:
                return flipped
    raise AssertionError(f"no single bit flip of {text!r} is garbage")


def _flip_utf8(data: Path, t: str) -> None:  # bit 7 of the first byte: not UTF-8 any more
    raw = bytearray(event_data(data, t, 3).encode())
    raw[0] ^= 0x80
    sql(data, "UPDATE tute_events SET data = CAST(? AS TEXT) WHERE table_id = ? AND version = 3",
        bytes(raw), t)


def _flip_char(data: Path, t: str) -> None:
    sql(data, "UPDATE tute_events SET data = ? WHERE table_id = ? AND version = 3",
        flip_to_garbage(event_data(data, t, 3)), t)


CORRUPTIONS: dict[str, Callable[[Path, str], None]] = {
    "bad seed": lambda d, t: sql(d, "UPDATE tute_tables SET seed = '12x4' WHERE id = ?", t),
    "seed beyond 64 bits": lambda d, t: sql(
        d, "UPDATE tute_tables SET seed = '99999999999999999999999' WHERE id = ?", t),
    "options not JSON": lambda d, t: sql(
        d, """UPDATE tute_tables SET options = '{"games_to_win": 1' WHERE id = ?""", t),
    "options not an object": lambda d, t: sql(
        d, "UPDATE tute_tables SET options = '[1]' WHERE id = ?", t),
    "an option out of range": lambda d, t: sql(
        d, """UPDATE tute_tables SET options = '{"games_to_win": "many"}' WHERE id = ?""", t),
    "seats not JSON": lambda d, t: sql(
        d, """UPDATE tute_tables SET seats = '[{"kind": "human"' WHERE id = ?""", t),
    "seats not seats": lambda d, t: sql(
        d, "UPDATE tute_tables SET seats = '[1, 2]' WHERE id = ?", t),
    "a seat missing": lambda d, t: sql(
        d, "UPDATE tute_tables SET seats = json_remove(seats, '$[1]') WHERE id = ?", t),
    "unknown variant": lambda d, t: sql(
        d, "UPDATE tute_tables SET variant = 'tute_lunar' WHERE id = ?", t),
    "bad status": lambda d, t: sql(
        d, "UPDATE tute_tables SET status = 'waiting' WHERE id = ?", t),
    "bad version": lambda d, t: sql(
        d, "UPDATE tute_tables SET version = 'seven' WHERE id = ?", t),
    "flipped bit: not UTF-8": _flip_utf8,
    "flipped bit: no action": _flip_char,
    "event of no kind": lambda d, t: sql(
        d, "UPDATE tute_events SET kind = 'bogus' WHERE table_id = ? AND version = 4", t),
    "truncated event log": lambda d, t: sql(
        d, "DELETE FROM tute_events WHERE table_id = ? AND version > 5", t),
    "emptied event log": lambda d, t: sql(d, "DELETE FROM tute_events WHERE table_id = ?", t),
    "a gap in the log": lambda d, t: sql(
        d, "DELETE FROM tute_events WHERE table_id = ? AND version = 3", t),
    "version ahead of the log": lambda d, t: sql(
        d, "UPDATE tute_tables SET version = version + 1 WHERE id = ?", t),
    "version behind the log": lambda d, t: sql(
        d, "UPDATE tute_tables SET version = version - 1 WHERE id = ?", t),
}


@pytest.mark.parametrize("kind", list(CORRUPTIONS))
def test_a_damaged_table_alone_is_unavailable(kind: str, template: dict[str, Any], data: Path,
                                              caplog: pytest.LogCaptureFixture) -> None:
    a, b = template["A"], template["B"]
    CORRUPTIONS[kind](data, a["id"])
    with app(data) as c:  # the server starts
        for _ in range(2):  # and stays refused (the second time from memory)
            r = c.get(f"/api/tables/{a['id']}")
            assert r.status_code == 409, r.text
            assert r.json()["error"] == "unavailable" and "damaged" in r.json()["reason"]
        assert a["id"] in caplog.text  # the reason is logged, with the table
        j = c.post(f"/api/tables/{a['id']}/join", json={})
        assert j.status_code == 409 and j.json()["error"] == "unavailable"
        code = c.get(f"/api/code/{a['code']}")  # its id (the row reads), or unavailable
        assert code.status_code in (200, 409), code.text
        with c.websocket_connect(f"/ws/{a['id']}") as ws:  # never a welcome (a fresh deal)
            ws.send_text(json.dumps({"type": "hello", "token": a["tokens"][0]}))
            m = ws.receive_json()  # the reason, then the close
            assert m["type"] == "error" and m["code"] == "unavailable", m
        # every other table keeps working, and so does the history
        info = c.get(f"/api/tables/{b['id']}").json()
        assert info["v"] == b["v"] and info["status"] == "playing"
        assert play(c, b["id"], b["tokens"], 2) == b["v"] + 2
        games = {g["id"] for g in c.get("/api/history").json()["games"]}
        assert {template["F"]["id"], template["G"]["id"]} <= games
        assert c.get("/api/health").json()["tables"] == 1  # B


HISTORY_CORRUPTIONS: dict[str, str] = {
    "seats not JSON": """UPDATE tute_tables SET seats = '[{"kind"' WHERE id = ?""",
    "result not JSON": """UPDATE tute_tables SET result = '{"winner": ' WHERE id = ?""",
    "seats not seats": "UPDATE tute_tables SET seats = '[\"x\"]' WHERE id = ?",
    "bad seed": "UPDATE tute_tables SET seed = 'x' WHERE id = ?",
    "bad finish time": "UPDATE tute_tables SET finished_at = 'today' WHERE id = ?",
}


@pytest.mark.parametrize("kind", list(HISTORY_CORRUPTIONS))
def test_history_skips_a_row_it_cannot_read(kind: str, template: dict[str, Any],
                                            data: Path) -> None:
    f, g = template["F"]["id"], template["G"]["id"]
    sql(data, HISTORY_CORRUPTIONS[kind], g)
    with app(data) as c:
        h = c.get("/api/history")
        assert h.status_code == 200, h.text
        games = [x["id"] for x in h.json()["games"]]
        assert f in games and g not in games
        assert c.get(f"/api/games/{f}/record").status_code == 200
        rec = c.get(f"/api/games/{g}/record")
        assert rec.status_code == 409 and rec.json()["error"] == "unavailable", rec.text
        assert c.get(f"/api/tables/{template['B']['id']}").status_code == 200


def test_a_finished_game_with_a_damaged_log_cannot_be_replayed(template: dict[str, Any],
                                                               data: Path) -> None:
    g = template["G"]["id"]
    sql(data, "DELETE FROM tute_events WHERE table_id = ? AND version = 2", g)
    with app(data) as c:
        assert g in [x["id"] for x in c.get("/api/history").json()["games"]]  # the row is fine
        for what in ("record", "replay"):
            r = c.get(f"/api/games/{g}/{what}")
            assert r.status_code == 409 and r.json()["error"] == "unavailable", r.text
        assert c.get(f"/api/games/{template['F']['id']}/replay").status_code == 200


# ------------------------------------------------------------ databases that are not tute's


def serve(data: Path) -> subprocess.CompletedProcess[str]:
    """``python -m tute.server`` on ``data`` that is expected to refuse to start."""
    return subprocess.run(
        [sys.executable, "-m", "tute.server", "--port", "1", "--data-dir", str(data)],
        capture_output=True, text=True, timeout=60,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT / "src")})


def _garbage(db: Path) -> None:
    db.write_bytes(b"these are not the pages you are looking for\n" * 200)


def _foreign(db: Path) -> None:
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, amount REAL)")
    con.execute("INSERT INTO invoices (amount) VALUES (12.5)")
    con.commit()
    con.close()


def _impostor(db: Path) -> None:  # a table of our name, not of our making
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE tute_tables (id TEXT PRIMARY KEY, colour TEXT)")
    con.commit()
    con.close()


@pytest.mark.parametrize("make, words", [
    (_garbage, "not a database"),
    (_foreign, "not a tute database"),
    (_impostor, "not tute's"),
])
def test_a_database_that_is_not_tutes_is_refused(make: Callable[[Path], None], words: str,
                                                 tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    make(data / DB)
    before = (data / DB).read_bytes()
    with pytest.raises(StorageError, match=words) as err:
        Store(f"sqlite:///{data / DB}")
    assert "\n" not in str(err.value)
    out = serve(data)
    assert out.returncode == 2, out
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], out.stderr
    assert (data / DB).read_bytes() == before  # left as it was


def test_an_empty_file_is_a_new_database(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / DB).touch()
    with app(data) as c:
        assert c.post("/api/play", json={"variant": "tute_2p_habanero"}).status_code == 200


def test_a_malformed_page_stops_startup_in_one_line(tmp_path: Path) -> None:
    """A database file with a damaged page ("database disk image is malformed") stops the
    server at startup with one line and status 2, as other bad storage does, not with the
    app's startup traceback."""
    data = tmp_path / "data"
    with app(data) as c:
        for _ in range(20):
            assert c.post("/api/play", json={"variant": "tute_parejas"}).status_code == 200
    with (data / DB).open("r+b") as f:  # page 2: the tables' rows
        f.seek(4096)
        f.write(b"\xa5" * 4096)
    out = serve(data)
    assert out.returncode == 2, out
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "malformed" in lines[0], out.stderr
    assert "Traceback" not in out.stderr
