"""Accounts, optional: sign up, sessions in a Secure HttpOnly cookie, login without telling
whether a name exists, seats and games and settings across devices, claiming this browser's
games, deleting the account; and the account calls against bad input, floods and leaks."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from tute.server import accounts

from .accounts_helpers import cheap_hashing, device, play_table, secure, sign_up
from .conftest import ManualClock, hello, play_out

__all__ = ["cheap_hashing"]  # an autouse fixture of this module


@pytest.fixture
def web(make_client: Any) -> TestClient:
    return secure(make_client())


def test_anyone_still_plays_without_an_account(web: TestClient) -> None:
    r = web.post("/api/play", json={"variant": "habanero"})
    assert r.status_code == 200
    assert web.get("/api/account").json() == {"account": None}
    assert web.get("/api/account/seats").status_code == 401


def test_sign_up_sets_a_secure_httponly_session_stored_hashed(web: TestClient,
                                                            tmp_path: Any) -> None:
    r = web.post("/api/account/signup", json={"name": "Ana", "password": "correct horse 1"})
    assert r.status_code == 200, r.text
    cookie = r.headers["set-cookie"]
    for flag in ("HttpOnly", "Secure", "SameSite=strict", "Path=/api"):
        assert flag in cookie
    token = web.cookies["tute_session"]
    assert web.get("/api/account").json()["account"]["name"] == "Ana"
    engine = create_engine(f"sqlite:///{tmp_path / 'data0' / 'tute.sqlite3'}")
    with engine.connect() as conn:
        dump = json.dumps([list(map(str, row)) for t in ("tute_accounts", "tute_sessions")
                           for row in conn.execute(text(f"select * from {t}"))])
    engine.dispose()
    assert token not in dump and "correct horse 1" not in dump
    assert "$argon2" in dump  # the password's argon2 hash alone
    # a taken name (any case), a bad name, a short password
    assert web.post("/api/account/signup", json={"name": "ana", "password": "x" * 10}
                    ).status_code == 409
    assert web.post("/api/account/signup", json={"name": "a<b>", "password": "x" * 10}
                    ).json()["error"] == "bad_name"
    assert web.post("/api/account/signup", json={"name": "Bea", "password": "short"}
                    ).json()["error"] == "bad_password"


def test_logout_ends_the_session_and_login_starts_one(web: TestClient) -> None:
    sign_up(web, "Ana")
    token = web.cookies["tute_session"]
    assert web.post("/api/account/logout").status_code == 200
    assert web.get("/api/account").json()["account"] is None
    web.cookies.set("tute_session", token, domain="testserver.local", path="/api")
    assert web.get("/api/account").json()["account"] is None  # the old token is gone
    web.cookies.clear()
    r = web.post("/api/account/login", json={"name": "ANA", "password": "correct horse 1"})
    assert r.status_code == 200 and web.get("/api/account").json()["account"]["name"] == "Ana"


def test_login_does_not_tell_unknown_names_from_wrong_passwords(
        web: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    sign_up(web, "Ana")
    web.cookies.clear()
    checked: list[str] = []
    real = accounts.Accounts._verify

    async def spy(self: Any, pw_hash: str, password: str) -> bool:
        checked.append(pw_hash)
        return await real(self, pw_hash, password)

    monkeypatch.setattr(accounts.Accounts, "_verify", spy)
    wrong = web.post("/api/account/login", json={"name": "Ana", "password": "wrong one!"})
    unknown = web.post("/api/account/login", json={"name": "Nadie", "password": "wrong one!"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() == {"error": "bad_login",
                                              "reason": "wrong name or password"}
    # the same work: one argon2 check each (a dummy hash for the unknown name)
    assert len(checked) == 2 and all(h.startswith("$argon2") for h in checked)
    assert "tute_session" not in web.cookies


def test_login_is_rate_limited_per_address_and_name(web: TestClient) -> None:
    sign_up(web, "Ana")
    codes = [web.post("/api/account/login", json={"name": "Ana", "password": "wrong one!"}
                      ).status_code for _ in range(12)]
    assert codes[:10] == [401] * 10 and codes[-1] == 429
    # now even the right password waits: guessing cannot go faster than the limit
    r = web.post("/api/account/login", json={"name": "Ana", "password": "correct horse 1"})
    assert r.status_code == 429


def test_sessions_expire(make_client: Any, clock: ManualClock) -> None:
    web = secure(make_client(clock=clock))
    sign_up(web, "Ana")
    assert web.get("/api/account").json()["account"] is not None
    clock.advance(accounts.SESSION_TTL + 1)
    assert web.get("/api/account").json()["account"] is None


def test_sign_up_claims_this_browsers_games_and_they_follow_to_another_device(
        web: TestClient) -> None:
    made = web.post("/api/play", json={"variant": "habanero"}).json()
    forged = {"id": made["id"], "token": "not-the-token"}
    sign_up(web, "Ana", seats=[{"id": made["id"], "token": made["token"]}, forged,
                               {"id": "nope", "token": "x"}])
    other = device(web)
    with other:
        assert other.get("/api/account/seats").status_code == 401
        r = other.post("/api/account/login", json={"name": "Ana",
                                                   "password": "correct horse 1"})
        assert r.status_code == 200
        seats = other.get("/api/account/seats").json()["seats"]
        assert [(s["id"], s["seat"]) for s in seats] == [(made["id"], 0)]
        # the seat itself: the other device sits down with the token it was given
        with web.websocket_connect(f"/ws/{made['id']}") as ws:
            assert hello(ws, seats[0]["token"]).seat == 0


def test_a_claim_needs_the_seats_token(web: TestClient) -> None:
    made = web.post("/api/play", json={"variant": "habanero"}).json()
    sign_up(web, "Ana")
    r = web.post("/api/account/claim", json={"seats": [{"id": made["id"], "token": "guess"}]})
    assert r.json() == {"claimed": 0}
    r = web.post("/api/account/claim", json={"seats": [{"id": made["id"],
                                                        "token": made["token"]}]})
    assert r.json() == {"claimed": 1}
    other = device(web)
    with other:  # a seat already someone's stays theirs
        sign_up(other, "Bea")
        r = other.post("/api/account/claim", json={"seats": [{"id": made["id"],
                                                              "token": made["token"]}]})
        assert r.json() == {"claimed": 0}


def test_settings_follow_the_account(web: TestClient) -> None:
    sign_up(web, "Ana")
    r = web.post("/api/account/settings", json={"lang": "en", "sound": True})
    assert r.status_code == 200 and r.json()["settings"] == {"lang": "en", "sound": True}
    other = device(web)
    with other:
        other.post("/api/account/login", json={"name": "Ana", "password": "correct horse 1"})
        assert other.get("/api/account").json()["account"]["settings"] == {
            "lang": "en", "sound": True}
    assert web.post("/api/account/settings", json={"lang": "fr"}).json()["error"] == \
        "bad_settings"
    assert web.post("/api/account/settings", json={"sound": "yes"}).status_code == 422
    assert web.post("/api/account/settings", json={"theme": "dark"}).status_code == 422


def test_statistics_per_game(web: TestClient) -> None:
    sign_up(web, "Ana")
    made = web.post("/api/account/play", json={"variant": "habanero", "level": "random"}
                    ).json()
    last = play_out(web, made["id"], made["token"], seed=1)
    page = web.get("/api/players/Ana").json()
    stats = page["stats"]["tute_2p_habanero"]
    assert stats["games"] == 1 and stats["deals"] == last["deal_number"]
    assert stats["wins"] in (0, 1) and stats["cantes"] >= 0 and stats["tutes"] >= 0
    assert [g["id"] for g in web.get("/api/account/games").json()["games"]] == [made["id"]]


def test_deleting_the_account_keeps_its_games_anonymised(web: TestClient) -> None:
    sign_up(web, "Ana")
    made = web.post("/api/account/play", json={"variant": "habanero", "level": "random"}
                    ).json()
    play_out(web, made["id"], made["token"], seed=2)
    assert web.get(f"/api/games/{made['id']}/record").json()["players"][0] == "Ana"
    assert web.post("/api/account/delete", json={"password": "wrong one!"}).status_code == 401
    r = web.post("/api/account/delete", json={"password": "correct horse 1"})
    assert r.status_code == 200
    assert web.get("/api/account").json()["account"] is None
    rec = web.get(f"/api/games/{made['id']}/record").json()
    assert rec["players"][0] == "Anónimo" and "Ana" not in json.dumps(rec)
    assert web.get("/api/players/Ana").status_code == 404
    assert web.post("/api/account/login", json={"name": "Ana", "password": "correct horse 1"}
                    ).status_code == 401
    sign_up(web, "Ana")  # the name is free again


ENDPOINTS = ["/api/account/signup", "/api/account/login", "/api/account/settings",
             "/api/account/delete", "/api/account/claim", "/api/account/tables",
             "/api/account/play"]


def test_account_calls_refuse_bad_input_with_reasons(web: TestClient) -> None:
    sign_up(web, "Ana")
    for path in ENDPOINTS:
        for body in (b"not json", b"[1, 2]", b'{"name": 5, "password": true}',
                     b'{"password": "x", "extra": 1}'):
            r = web.post(path, content=body, headers={"content-type": "application/json"})
            assert r.status_code == 422, (path, body, r.text)
            assert r.json()["error"] == "bad_request" and "Traceback" not in r.text
        r = web.post(path, content=b'{"name": "' + b"x" * 20000 + b'"}',
                     headers={"content-type": "application/json"})
        assert r.status_code == 413 and r.json()["error"] == "too_large", path
    r = web.post("/api/account/signup", json={"name": "Bea", "password": "p" * 300})
    assert r.status_code == 422
    r = web.post("/api/account/signup", json={"name": "Bea", "password": "p" * 10,
                                              "seats": [{"id": "x", "token": "y"}] * 500})
    assert r.status_code == 422
    r = web.post("/api/account/play", json={"variant": "poker", "rated": True})
    assert r.status_code == 400 and r.json()["error"] == "bad_table"
    assert web.get("/api/players/" + "x" * 300).status_code == 404
    assert web.get("/api/ratings/leaderboard?mode=chess").status_code == 400
    assert web.get("/api/ratings/leaderboard?period=year").status_code == 400
    assert web.post("/api/account/tables/nope/join", json={}).status_code == 404
    assert web.post("/api/account/tables/nope/leave").status_code == 404


def test_a_flood_of_sign_ups_and_logins_is_cut_off(web: TestClient) -> None:
    codes = [web.post("/api/account/signup", json={"name": f"Flood{i}",
                                                   "password": "p" * 10}).status_code
             for i in range(8)]
    assert codes[:5] == [200] * 5 and set(codes[5:]) == {429}
    web.cookies.clear()
    codes = [web.post("/api/account/login", json={"name": f"Nobody{i}",
                                                  "password": "p" * 10}).status_code
             for i in range(15)]
    assert codes.count(429) >= 4  # per address, whatever the names tried


MARK = "Marker-Pa55word!"


def test_no_password_or_session_token_leaks(make_client: Any,
                                            caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    web = secure(make_client())
    other = device(web)
    with other:
        sign_up(web, "Ana", MARK + "1")
        sign_up(other, "Bea", MARK + "2")
        web.post("/api/account/logout")
        web.post("/api/account/login", json={"name": "Ana", "password": MARK + "1"})
        web.post("/api/account/login", json={"name": "Ana", "password": MARK + "x"})  # wrong
        secrets = [MARK, web.cookies["tute_session"], other.cookies["tute_session"]]
        made = web.post("/api/account/tables", json={
            "variant": "habanero", "seats": ["you", "open"], "rated": True, "public": True}
                        ).json()
        joined = other.post(f"/api/account/tables/{made['id']}/join", json={}).json()
        with web.websocket_connect(f"/ws/{made['id']}") as ws:
            watcher = hello(ws)  # a spectator sees all that is public
            played = play_table(web, made["id"], [made["token"], joined["token"]], seed=3)
            watcher.until("update")
        seen = [json.dumps(played["msgs"]), json.dumps(watcher.msgs)]
        seen.append(web.get(f"/api/games/{made['id']}/record").text)
        seen.append(web.get(f"/api/games/{made['id']}/replay").text)
        seen.append(web.get("/api/history").text)
        seen.append(other.get("/api/players/Ana").text)
        seen.append(other.get("/api/ratings/leaderboard?mode=two").text)
        seen.append(other.get("/api/account").text)
        seen.append(caplog.text)
        for s in secrets:
            for where in seen:
                assert s not in where


def test_account_words_in_both_languages(web: TestClient) -> None:
    from tute.i18n import ACCOUNT_TEXT

    assert set(ACCOUNT_TEXT["es"]) == set(ACCOUNT_TEXT["en"])
    assert web.get("/api/messages/en").json()["account"]["signup"] == "Sign up"
    assert web.get("/api/messages/es").json()["account"]["signup"] == "Crear cuenta"
    for path in ("/cuenta", "/clasificacion", "/jugador/Ana"):
        assert web.get(path).status_code == 200


def test_accounts_on_postgresql(make_client: Any, pg_url: str, clock: ManualClock) -> None:
    web = secure(make_client(database_url=pg_url, clock=clock))
    made = web.post("/api/play", json={"variant": "habanero"}).json()
    sign_up(web, "Ana", seats=[{"id": made["id"], "token": made["token"]}])
    assert web.post("/api/account/signup", json={"name": "ANA", "password": "x" * 10}
                    ).status_code == 409
    web.post("/api/account/settings", json={"lang": "en"})
    other = device(web)
    assert other.post("/api/account/login", json={"name": "ana", "password": "correct horse 1"}
                      ).status_code == 200
    assert [s["id"] for s in other.get("/api/account/seats").json()["seats"]] == [made["id"]]
    assert other.get("/api/account").json()["account"]["settings"] == {"lang": "en"}
    clock.advance(accounts.SESSION_TTL + 1)
    assert other.get("/api/account").json()["account"] is None
    other.post("/api/account/login", json={"name": "ana", "password": "correct horse 1"})
    assert other.post("/api/account/delete", json={"password": "correct horse 1"}
                      ).status_code == 200
    assert web.get(f"/api/tables/{made['id']}").json()["seats"][0]["name"] == "Anónimo"


def test_account_calls_count_against_the_addresss_request_rate(tmp_path: Any) -> None:
    """The server's limit of HTTP requests per address holds for the account calls too
    (before any password is hashed), and the login limit per name holds across addresses."""
    from tute.server.app import create_app
    from tute.server.limits import Limits

    from .test_limits import PROXY, _from

    # a token back every 1,000 s: slow logins on a loaded machine never refill the bucket
    limits = Limits(http_rate=0.001, http_burst=5, trusted_proxies=(PROXY,))
    app = create_app(data_dir=tmp_path / "data", limits=limits)
    with TestClient(app, client=(PROXY, 50000), base_url="https://testserver") as c:
        codes = [c.post("/api/account/login", json={"name": "Ana", "password": "p" * 10},
                        headers=_from("192.0.2.1")).status_code for _ in range(7)]
        assert codes[:5] == [401] * 5 and codes[-1] == 429
        # the same name from ten other addresses: its own limit (10 tries a minute) stops it
        codes = [c.post("/api/account/login", json={"name": "Ana", "password": "p" * 10},
                        headers=_from(f"192.0.2.{10 + i}")).status_code for i in range(10)]
        assert codes[:5] == [401] * 5 and codes[-1] == 429
