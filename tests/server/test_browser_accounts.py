"""Accounts in a real browser: sign up on the account page (claiming this browser's game),
start a rated game against the bots with the chance to win shown first, play it to the end,
then find oneself on the leaderboard and the rating's history charted on the player page."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from tute.server.protocol import apply_delta

from .conftest import choose
from .test_browser import ARGS, CHROMIUM, _shot

__all__ = ["ARGS"]

pytestmark = [
    pytest.mark.timeout(240),
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="browser tests need Debian's chromium at /usr/bin/chromium "
                       "(apt-get install -y chromium)"),
]


def _finish(base: str, table_id: str, token: str) -> None:
    """Play the seat to the end from here (a whole match by clicking would take minutes)."""
    from websockets.sync.client import connect

    rng = random.Random(1)
    with connect(base.replace("http", "ws") + f"/ws/{table_id}") as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        state: dict[str, Any] | None = None
        seat = None
        while True:
            m = json.loads(ws.recv(timeout=60))
            if "state" in m:
                state, seat = m["state"], m.get("seat", seat)
            elif m["type"] == "update":
                assert state is not None
                state = apply_delta(state, m["delta"])
            elif m["type"] == "error":
                raise AssertionError(m)
            else:
                continue
            assert state is not None
            if state["over"]:
                return
            if state["deal"]["to_move"] == seat and state["deal"]["legal_actions"]:
                ws.send(json.dumps({"type": "act", "action": choose(state, rng)}))


def test_sign_up_play_rated_and_see_the_leaderboard(browser: Any, server_process: Any) -> None:
    srv = server_process("--bot-delay", "0", "--trick-pause", "0", "--ws-rate", "1000")
    site = str(srv.base)
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(site + "/")
    # a game of this browser, from before the account
    made = page.evaluate("""async () => {
      const r = await fetch('/api/play', {method: 'POST', headers: {'Content-Type':
        'application/json'}, body: JSON.stringify({variant: 'habanero', level: 'facil'})});
      const j = await r.json();
      const all = JSON.parse(localStorage.getItem('tute.seats') || '{}');
      all[j.id] = {seat: j.seat, token: j.token, variant: 'tute_2p_habanero', at: Date.now()};
      localStorage.setItem('tute.seats', JSON.stringify(all));
      return j; }""")
    page.click("#account-link")
    page.wait_for_selector("#acc-signup")
    page.fill("#acc-name", "Carmen")
    page.fill("#acc-pass", "una clave larga")
    page.click("#acc-signup")
    page.wait_for_selector("#acc-hello")
    assert "Carmen" in page.inner_text("#acc-hello")
    cookies = page.context.cookies()
    session = next(c for c in cookies if c["name"] == "tute_session")
    assert session["httpOnly"] and session["secure"] and session["sameSite"] == "Strict"
    assert page.evaluate("document.cookie") == ""  # the page's scripts never see it
    seats = page.evaluate("fetch('/api/account/seats').then(r => r.json())")["seats"]
    assert [s["id"] for s in seats] == [made["id"]]  # claimed at sign-up
    # a rated game against the bots: the chance to win first
    page.select_option("#acc-variant", "tute_2p_habanero")
    page.select_option("#acc-level", "facil")
    page.wait_for_function("document.getElementById('acc-chance').textContent.includes('%')")
    _shot(page, "account-rated")
    page.click("#acc-rated")
    page.wait_for_url("**/t/*")
    page.wait_for_selector(".hand-card", timeout=30000)
    table_id = page.url.rsplit("/", 1)[1]
    token = page.evaluate(f"JSON.parse(localStorage.getItem('tute.seats'))['{table_id}'].token")
    page.goto(site + "/clasificacion")  # leaves the table (its socket closes)
    _finish(site, table_id, token)
    page.goto(site + "/clasificacion?mode=two&period=week")
    page.wait_for_selector("#lb-table a:has-text('Carmen')", timeout=20000)
    _shot(page, "leaderboard")
    page.click("#lb-table a:has-text('Carmen')")
    page.wait_for_selector("svg.rating-chart circle")
    assert page.locator("svg.rating-chart circle").count() == 1
    assert page.locator("#player-stats").count() == 1
    _shot(page, "player-page")
    # log out: the account page offers to log in again
    page.click("#account-link")
    page.click("#acc-logout")
    page.wait_for_selector("#acc-login")
    assert errors == []
