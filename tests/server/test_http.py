"""HTTP API: lobby, tables, joining, history, records, and refusal of bad input."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from tute.match import Match

from .conftest import play_out


def test_variants_and_pages(client: TestClient) -> None:
    r = client.get("/api/variants").json()
    ids = {v["id"] for v in r["variants"]}
    assert {"tute_parejas", "tute_2p_habanero", "guinote"} <= ids
    assert r["levels"] == ["facil", "medio", "dificil", "maestro"]
    for path in ("/", "/t/abc", "/r/abc", "/j/ABCDEF"):
        page = client.get(path)
        assert page.status_code == 200 and "app.js" in page.text
        assert "default-src 'self'" in page.headers["content-security-policy"]
    assert client.get("/static/app.js").status_code == 200
    assert client.get("/static/cards.js").status_code == 200


def test_play_against_bots_creates_private_table(client: TestClient) -> None:
    r = client.post("/api/play", json={"variant": "habanero", "level": "facil", "name": "Ana"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["seat"] == 0 and len(body["token"]) >= 32 and len(body["code"]) == 8
    info = client.get(f"/api/tables/{body['id']}").json()
    assert info["status"] == "playing" and info["variant"] == "tute_2p_habanero"
    assert [s["kind"] for s in info["seats"]] == ["human", "bot"]
    assert "token" not in json.dumps(info) and "seed" not in info
    assert client.get("/api/tables").json()["tables"] == []  # private: not listed


def test_create_join_by_code_and_list(client: TestClient) -> None:
    r = client.post("/api/tables", json={
        "variant": "tute_parejas", "seats": ["you", "open", "bot:facil", "open"],
        "name": "Ana", "public": True}).json()
    listed = client.get("/api/tables").json()["tables"]
    assert [t["id"] for t in listed] == [r["id"]] and listed[0]["open_seats"] == 2
    assert client.get(f"/api/code/{r['code'].lower()}").json() == {"id": r["id"]}
    assert client.get("/api/code/ZZZZZZ").status_code == 404
    j1 = client.post(f"/api/tables/{r['id']}/join", json={"name": "Bea"}).json()
    assert j1["seat"] == 1
    taken = client.post(f"/api/tables/{r['id']}/join", json={"name": "X", "seat": 1})
    assert taken.status_code == 409 and taken.json()["error"] == "seat_taken"
    j3 = client.post(f"/api/tables/{r['id']}/join", json={"name": "Cris", "seat": 3}).json()
    assert j3["seat"] == 3 and len({r["token"], j1["token"], j3["token"]}) == 3
    info = client.get(f"/api/tables/{r['id']}").json()
    assert info["status"] == "playing" and [s["name"] for s in info["seats"]] == [
        "Ana", "Bea", "Manolo", "Cris"]
    assert client.get("/api/tables").json()["tables"] == []  # full: no longer open
    full = client.post(f"/api/tables/{r['id']}/join", json={"name": "Dani"})
    assert full.status_code == 409 and full.json()["error"] == "no_open_seat"


def test_bad_requests_are_refused_with_reasons(client: TestClient) -> None:
    def bad(path: str, body: Any, status: int, code: str) -> str:
        r = client.post(path, json=body)
        assert r.status_code == status, r.text
        data = r.json()
        assert data["error"] == code and data["reason"]
        assert "Traceback" not in r.text
        return str(data["reason"])

    assert "unknown variant" in bad("/api/tables", {"variant": "poker", "seats": ["you", "open"]},
                                    400, "bad_table")
    assert "needs 4 seats" in bad("/api/tables", {"seats": ["you", "open"]}, 400, "bad_table")
    bad("/api/tables", {"seats": ["open", "open", "open", "open"]}, 400, "bad_table")
    bad("/api/tables", {"seats": ["you", "x", "open", "open"]}, 400, "bad_table")
    assert "option" in bad("/api/tables", {"seats": ["you", "open", "open", "open"],
                                           "options": {"no_such_option": 1}}, 400, "bad_table")
    bad("/api/tables", {"seats": ["you"] * 50}, 422, "bad_request")
    bad("/api/tables", {"seats": ["you", "open"], "extra": 1}, 422, "bad_request")
    bad("/api/play", {"level": "godlike"}, 400, "bad_table")
    bad("/api/play", {"name": "x" * 500}, 422, "bad_request")
    r = client.post("/api/play", content=b"{" + b" " * 20000 + b"}",
                    headers={"content-type": "application/json"})
    assert r.status_code == 413
    def chunked() -> Any:  # no length declared: the body streams past the limit
        yield b"{"
        for _ in range(20):
            yield b" " * 1000
        yield b"}"

    r = client.post("/api/play", content=chunked(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"] == "too_large", r.text
    r = client.post("/api/play", content=b"not json", headers={"content-type": "application/json"})
    assert r.status_code == 422
    assert client.get("/api/tables/nope").status_code == 404
    assert client.get("/api/tables/" + "x" * 100).status_code == 404
    assert client.get("/api/games/nope/record").status_code == 404


def test_creation_is_rate_limited(make_client: Any) -> None:
    c = make_client(create_per_minute=5)
    codes = [c.post("/api/play", json={"variant": "habanero"}).status_code for _ in range(8)]
    assert codes[:5] == [200] * 5 and codes[-1] == 429


def test_history_record_and_replay(client: TestClient) -> None:

    r = client.post("/api/play", json={"variant": "tute_2p_corriente", "level": "facil",
                                       "name": "Ana", "options": {"games_to_win": 1}}).json()
    # no record while the game runs: it holds the seed, hence every hidden card
    early = client.get(f"/api/games/{r['id']}/record")
    assert early.status_code == 409 and early.json()["error"] == "not_finished"
    final = play_out(client, r["id"], r["token"], seed=3)
    # a quick game is private: listed to the holder of its seat only
    games = client.get("/api/history", headers={"X-Tute-Seats": f"{r['id']}:{r['token']}"}
                       ).json()["games"]
    assert games[0]["id"] == r["id"] and games[0]["players"] == ["Ana", "Lola"]
    rec = client.get(f"/api/games/{r['id']}/record")
    assert rec.status_code == 200 and "attachment" in rec.headers["content-disposition"]
    match = Match.from_record({k: v for k, v in rec.json().items() if k != "players"})
    assert match.is_over() and match.result().to_json() == final["result"]
    replay = client.get(f"/api/games/{r['id']}/replay").json()
    assert len(replay["frames"]) == 1 + sum(len(d["actions"]) for d in rec.json()["deals"])
    assert all(len(f["hands"]) == 2 for f in replay["frames"])


def test_new_games_are_offered_with_their_own_domains(client: TestClient) -> None:
    r = client.get("/api/variants").json()
    by_id = {v["id"]: v for v in r["variants"]}
    for vid, players in (("tute_gana_pierde", [3, 4, 5]), ("tute_cabrero", [3, 4, 5, 6])):
        specs = {o["name"]: o for o in by_id[vid]["option_specs"]}
        assert specs["players"]["choices"] == players and by_id[vid]["seats"] == 4
        body = client.post("/api/play", json={"variant": vid, "level": "facil",
                                              "name": "Ana"}).json()
        info = client.get(f"/api/tables/{body['id']}").json()
        assert info["status"] == "playing" and info["variant"] == vid
        assert [s["kind"] for s in info["seats"]] == ["human", "bot", "bot", "bot"]


def test_every_game_has_its_words_in_both_languages(client: TestClient) -> None:
    """The page words each game from what the server gives with it (tute.games.descriptions):
    a description and a summary of its rules, in Spanish and English, for every game."""
    import tute

    variants = client.get("/api/variants").json()["variants"]
    assert {v["id"] for v in variants} == set(tute.VARIANTS)
    for v in variants:
        for lang in ("es", "en"):
            words = v["words"][lang]
            assert words["desc"] and len(words["rules"]) >= 3, (v["id"], lang)
        assert v["words"]["es"]["desc"] != v["words"]["en"]["desc"]
        for spec in v["option_specs"]:  # and every option its label and line in both
            for lang in ("es", "en"):
                label, line = spec["words"][lang]
                assert label and line, (v["id"], spec["name"], lang)
