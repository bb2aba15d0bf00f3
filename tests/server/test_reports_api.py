"""POST /api/games/{id}/reports: a bot's move of a finished game reported from its analysis.
Filed with the record, the move, the bot, the action and the analysis' figures when they are
at hand, answered once stored; refused with a clear error (and nothing stored) for a person's
move, a move or deal that does not exist, a forced move, a body of the wrong types, a comment
too long, a game still being played; one report a move; rate-limited per address. The
reports export as a regression set that replays."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tute.analysis import deals_of_record
from tute.bots.pimc import equivalent_actions
from tute.regressions import check
from tute.server.analyses import SearchBudget
from tute.server.reports_store import open_engine, read_reports

from .accounts_helpers import cheap_hashing, secure  # noqa: F401 (cheap_hashing: autouse)
from .conftest import play_out

pytestmark = pytest.mark.timeout(600)

OFF = SearchBudget(worlds=0)  # the double-dummy measure alone: quick


def _finished(client: TestClient) -> dict[str, Any]:
    """A finished quick game: the caller at seat 0, bots (facil) at the others."""
    r: dict[str, Any] = client.post("/api/play", json={
        "variant": "tute_parejas", "level": "facil",
        "options": {"match": {"mode": "series", "deals": 1}}}).json()
    play_out(client, r["id"], r["token"], seed=5)
    return r


def _moves(client: TestClient, table_id: str) -> dict[str, list[tuple[int, int]]]:
    """The game's moves by kind: "bot" and "human" decisions, "forced" moves (deal, move)."""
    record = client.get(f"/api/games/{table_id}/record").json()
    record.pop("players")
    out: dict[str, list[tuple[int, int]]] = {"bot": [], "human": [], "forced": []}
    for k, deal in enumerate(deals_of_record(record)[1]):
        pos = deal.copy()
        while pos.actions:
            pos.undo()
        for move, act in enumerate(deal.actions):
            seat = pos.to_move
            assert seat is not None
            legal = list(pos.legal_actions())
            rep = equivalent_actions(pos.order, pos.stock_count,
                                     pos.hand(seat).mask | pos.played.mask, legal)
            kind = ("forced" if sum(r == i for i, r in enumerate(rep)) < 2
                    else "human" if seat == 0 else "bot")
            out[kind].append((k, move))
            pos.apply(act)
    return out


def _stored(data_dir: Path) -> list[Any]:
    engine = open_engine(f"sqlite:///{data_dir / 'tute.sqlite3'}")
    try:
        return read_reports(engine)
    finally:
        engine.dispose()


def test_a_bot_move_is_filed(make_client: Any, tmp_path: Path) -> None:
    client = make_client(data_dir=tmp_path / "d", analysis_budget=OFF)
    r = _finished(client)
    tid = r["id"]
    analysis = client.get(f"/api/games/{tid}/analysis").json()
    assert analysis["bots"] == [None, "facil", "facil", "facil"]
    bot_dec = next(d for d in analysis["decisions"] if d["seat"] != 0)
    ans = client.post(f"/api/games/{tid}/reports", json={
        "deal": bot_dec["deal"], "move": bot_dec["move"], "comment": "  ¿Por qué  eso? "})
    assert ans.status_code == 200, ans.text
    body = ans.json()
    assert body["filed"] and body["new"] and body["played"] == bot_dec["played"]
    assert body["seat"] == bot_dec["seat"] and body["bot"] == "facil"
    # stored before the answer: read straight from the database
    [row] = _stored(tmp_path / "d")
    assert row.id == body["id"] and row.table_id == tid and row.status == "open"
    assert (row.deal, row.move, row.seat) == (bot_dec["deal"], bot_dec["move"], bot_dec["seat"])
    assert row.played == bot_dec["played"] and row.bot == "facil"
    assert row.comment == "¿Por qué eso?" and row.account_id is None
    assert row.analysis["dd_best"] == bot_dec["dd_best"]
    assert row.analysis["dd_loss"] == bot_dec["dd_loss"]
    assert "players" not in row.record and row.record["kind"] == "match" and row.record["deals"]
    # nothing of a seat's token or a session in the row
    assert r["token"] not in repr(row)
    # the report replays as a regression: the position, that seat's view, a bot's choice
    reg = row.regression()
    out = check(reg, "medio")
    assert out.id == row.id and out.played == row.played
    # a second report of the same move: already filed, still one row
    again = client.post(f"/api/games/{tid}/reports",
                        json={"deal": bot_dec["deal"], "move": bot_dec["move"]})
    assert again.status_code == 200 and again.json()["id"] == body["id"]
    assert again.json()["new"] is False
    assert len(_stored(tmp_path / "d")) == 1


def test_refusals_store_nothing(make_client: Any, tmp_path: Path) -> None:
    client = make_client(data_dir=tmp_path / "d")
    r = _finished(client)
    tid = r["id"]
    moves = _moves(client, tid)
    assert moves["bot"] and moves["human"] and moves["forced"]
    url = f"/api/games/{tid}/reports"
    human = moves["human"][0]
    cases: list[tuple[Any, int, str, str]] = [
        ({"deal": human[0], "move": human[1]}, 409, "not_bot_move", "person"),
        ({"deal": 0, "move": 999}, 404, "bad_move", "no move 1000"),
        ({"deal": 3, "move": 0}, 404, "bad_move", "no deal 4"),
        ({"deal": -1, "move": 0}, 404, "bad_move", "from 0"),
        ({"deal": moves["forced"][0][0], "move": moves["forced"][0][1]}, 409,
         "not_a_decision", "forced"),
        ({"deal": "0", "move": 1}, 422, "bad_request", "deal"),
        ({"deal": 0, "move": 1.5}, 422, "bad_request", "move"),
        ({"deal": 0}, 422, "bad_request", "move"),
        ({"deal": 0, "move": moves["bot"][0][1], "comment": 7}, 422, "bad_request",
         "comment"),
        ({"deal": 0, "move": moves["bot"][0][1], "token": "x"}, 422, "bad_request", "token"),
        ({"deal": 0, "move": moves["bot"][0][1], "comment": "x" * 301}, 400, "too_long",
         "301 characters"),
    ]
    for body, status, code, words in cases:
        ans = client.post(url, json=body)
        assert ans.status_code == status, (body, ans.text)
        assert ans.json()["error"] == code and words in ans.json()["reason"], (body, ans.text)
    assert client.post("/api/games/nope/reports",
                       json={"deal": 0, "move": 0}).status_code == 404
    assert _stored(tmp_path / "d") == []
    # at the limit of the comment: filed
    ok = client.post(url, json={"deal": 0, "move": moves["bot"][0][1], "comment": "x" * 300})
    assert ok.status_code == 200, ok.text
    assert len(_stored(tmp_path / "d")) == 1


def test_not_while_played_and_rate_limited(make_client: Any, tmp_path: Path) -> None:
    client = make_client(data_dir=tmp_path / "d")
    live = client.post("/api/play", json={"variant": "tute_parejas", "level": "facil"}).json()
    early = client.post(f"/api/games/{live['id']}/reports", json={"deal": 0, "move": 0})
    assert early.status_code == 409 and early.json()["error"] == "not_finished"
    r = _finished(client)
    moves = _moves(client, r["id"])["bot"]
    codes = [client.post(f"/api/games/{r['id']}/reports",
                         json={"deal": d, "move": m}).status_code for d, m in moves[:7]]
    # the first report of an address' burst of six took a token too (the live game's)
    assert codes[:5] == [200] * 5 and codes[5:] == [429, 429][:len(codes) - 5]
    assert len(_stored(tmp_path / "d")) == 5


def test_the_account_is_kept_never_the_session(make_client: Any, tmp_path: Path) -> None:
    client = secure(make_client(data_dir=tmp_path / "d"))
    r = _finished(client)
    signup = client.post("/api/account/signup", json={"name": "Ana", "password": "secreto123"})
    assert signup.status_code == 200, signup.text
    session = client.cookies["tute_session"]
    move = _moves(client, r["id"])["bot"][0]
    ans = client.post(f"/api/games/{r['id']}/reports", json={"deal": move[0], "move": move[1]})
    assert ans.status_code == 200, ans.text
    [row] = _stored(tmp_path / "d")
    assert row.account_id
    assert session not in repr(row) and session not in str(row.record)


def test_reports_on_postgresql(make_client: Any, pg_url: str) -> None:
    """The same on PostgreSQL: filed once a move, read back by the command line's engine."""
    client = make_client(database_url=pg_url)
    r = _finished(client)
    move = _moves(client, r["id"])["bot"][0]
    url = f"/api/games/{r['id']}/reports"
    first = client.post(url, json={"deal": move[0], "move": move[1], "comment": "hmm"})
    assert first.status_code == 200 and first.json()["new"], first.text
    again = client.post(url, json={"deal": move[0], "move": move[1]})
    assert again.json() == {**first.json(), "new": False}
    engine = open_engine(pg_url)
    try:
        [row] = read_reports(engine)
    finally:
        engine.dispose()
    assert row.id == first.json()["id"] and row.comment == "hmm"
    assert check(row.regression(), "medio").played == row.played
