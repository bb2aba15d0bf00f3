"""Accounts where the site is not one https server on localhost: the session cookie over plain
http on a local network (``--insecure-cookies`` / ``TUTE_INSECURE_COOKIES``), what the table
page asks of a table (rated? my seat?), and joining, leaving and the chances at a rated table
that another process of a site of several owns (relayed to it, never a 500)."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from tute.cli import app as cli_app

from .accounts_helpers import cheap_hashing, secure, sign_up
from .conftest import ServerProcess, wait_until
from .test_cluster import ARGS, RedisServer

__all__ = ["cheap_hashing"]  # an autouse fixture of this module


def test_by_default_the_session_cookie_is_secure_and_lost_over_plain_http(
        make_client: Any) -> None:
    c = make_client()  # http://testserver: a browser away from localhost over plain http
    r = c.post("/api/account/signup", json={"name": "Ana", "password": "correct horse 1"})
    assert r.status_code == 200 and "Secure" in r.headers["set-cookie"]
    # the login "worked" but the cookie is not sent back: what the page detects and explains
    assert c.get("/api/account").json() == {"account": None}


@pytest.mark.parametrize("how", ["option", "env"])
def test_insecure_cookies_keep_the_session_over_plain_http(
        make_client: Any, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    if how == "env":
        monkeypatch.setenv("TUTE_INSECURE_COOKIES", "1")
        c = make_client()
    else:
        c = make_client(insecure_cookies=True)
    r = c.post("/api/account/signup", json={"name": "Ana", "password": "correct horse 1"})
    cookie = r.headers["set-cookie"]
    assert r.status_code == 200 and "Secure" not in cookie
    for flag in ("HttpOnly", "SameSite=strict", "Path=/api"):
        assert flag in cookie  # the rest of the cookie's protection stays
    assert c.get("/api/account").json()["account"]["name"] == "Ana"
    out = c.post("/api/account/logout")
    assert "Secure" not in out.headers["set-cookie"]
    assert c.get("/api/account").json() == {"account": None}


def test_tute_serve_passes_insecure_cookies_on(monkeypatch: pytest.MonkeyPatch) -> None:
    import tute.server

    seen: dict[str, Any] = {}
    monkeypatch.setattr(tute.server, "run", lambda *a, **kw: seen.update(kw))
    assert CliRunner().invoke(cli_app, ["serve", "--insecure-cookies"]).exit_code == 0
    assert seen["insecure_cookies"] is True
    seen.clear()
    assert CliRunner().invoke(cli_app, ["serve"]).exit_code == 0
    assert seen["insecure_cookies"] is None  # then the environment decides


def test_the_table_page_learns_whether_a_table_is_rated_and_its_seat(
        make_client: Any) -> None:
    c = secure(make_client())
    sign_up(c, "Ana")
    rated = c.post("/api/account/tables", json={
        "variant": "tute_2p_habanero", "seats": ["you", "open"], "rated": True}).json()
    casual = c.post("/api/account/tables", json={
        "variant": "tute_2p_habanero", "seats": ["you", "open"]}).json()
    at = c.get(f"/api/account/tables/{rated['id']}").json()
    assert at["rated"] and at["mode"] == "two" and at["seat"] == 0 and at["penalty"] > 0
    assert c.get(f"/api/account/tables/{casual['id']}").json()["rated"] is False
    c.post("/api/account/logout")
    assert c.get(f"/api/account/tables/{rated['id']}").json()["seat"] is None
    assert c.get("/api/account/tables/no%20such").status_code == 404


# ------------------------------------------------------------ a site of several processes


@pytest.fixture
def two_processes(tmp_path: Path, pg_url: str) -> Iterator[tuple[str, str]]:
    """Two processes of one site (one PostgreSQL, one Redis), accounts over plain http."""
    redis = RedisServer(tmp_path)
    redis.start()
    procs = [ServerProcess(tmp_path / f"srv{i}", *ARGS, "--insecure-cookies", "--redis",
                           redis.url, env={"TUTE_DATABASE_URL": pg_url}) for i in range(2)]
    try:
        for p in procs:
            p.start()
        yield procs[0].base, procs[1].base
    finally:
        for p in procs:
            if p.proc is not None and p.proc.poll() is None:
                p.proc.send_signal(signal.SIGCONT)
            p.stop()
        redis.stop()


def _account(base: str, name: str) -> httpx.Client:
    c = httpx.Client(base_url=base, timeout=30)
    r = c.post("/api/account/signup", json={"name": name, "password": "correct horse 1"})
    assert r.status_code == 200, r.text
    return c


@pytest.mark.timeout(180)
def test_join_chances_and_leave_at_a_table_another_process_owns(
        two_processes: tuple[str, str]) -> None:
    a_base, b_base = two_processes
    ana, bea, cai = (_account(a_base, "Ana"), _account(b_base, "Bea"),
                     _account(b_base, "Cai"))
    try:
        made = ana.post("/api/account/tables", json={
            "variant": "tute_2p_habanero", "seats": ["you", "open"], "rated": True,
            "options": {"games_to_win": 1}})
        assert made.status_code == 200, made.text
        tid = made.json()["id"]  # owned by the first process; Bea's calls go to the second
        j = bea.post(f"/api/account/tables/{tid}/join", json={})
        assert j.status_code == 200, j.text
        assert j.json()["seat"] == 1
        at = bea.get(f"/api/account/tables/{tid}").json()
        assert at["rated"] and at["seat"] == 1  # linked to Bea's account at once
        ch = bea.get(f"/api/ratings/chances/{tid}")
        assert ch.status_code == 200, ch.text
        assert abs(sum(ch.json()["chances"]) - 1) < 1e-6
        wait_until(lambda: bea.get(f"/api/tables/{tid}").json()["status"] == "playing",
                   "the game to start")
        left = bea.post(f"/api/account/tables/{tid}/leave")
        assert left.status_code == 200, left.text
        assert left.json() == {"id": tid, "seat": 1, "left": True}
        # the owner's table has Bea's stand-in bot playing for her
        wait_until(lambda: ana.get(f"/api/tables/{tid}").json()["seats"][1]["away"],
                   "the owner to hand Bea's seat to its bot")
        r = cai.post(f"/api/account/tables/{tid}/leave")
        assert 400 <= r.status_code < 500 and r.json()["error"] == "not_seated", r.text
    finally:
        for c in (ana, bea, cai):
            c.close()
