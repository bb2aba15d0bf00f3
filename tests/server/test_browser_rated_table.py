"""Rated tables from the table page, in a real browser: a logged-in player who follows an
invite link takes the seat through the account (so the game is rated), sees that the game is
rated and can leave it, asked first with the penalty said; and a login whose cookie the browser
does not keep (a Secure cookie over plain http away from localhost) is explained, unless the
server was started with --insecure-cookies."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .test_browser import ARGS, CHROMIUM, _shot

pytestmark = [
    pytest.mark.timeout(240),
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="browser tests need Debian's chromium at /usr/bin/chromium "
                       "(apt-get install -y chromium)"),
]

SERVER = ("--bot-delay", "0", "--trick-pause", "0", "--ws-rate", "1000", "--bot-timeout", "600")


def _fetch(page: Any, method: str, path: str, body: Any = None) -> Any:
    """A call of the page's own origin (its cookies), answered as JSON."""
    return page.evaluate("""async ([method, path, body]) => {
      const r = await fetch(path, {method, headers: {'Content-Type': 'application/json'},
        body: body === null ? undefined : JSON.stringify(body)});
      return {status: r.status, body: await r.json()}; }""", [method, path, body])


def test_join_a_rated_table_by_invite_through_the_account_and_leave_it(
        browser: Any, server_process: Any) -> None:
    site = str(server_process(*SERVER).base)
    host = browser.new_context(viewport={"width": 1100, "height": 900})
    guest = browser.new_context(viewport={"width": 1100, "height": 900})
    try:
        ana = host.new_page()
        ana.goto(site + "/")
        assert _fetch(ana, "POST", "/api/account/signup",
                      {"name": "Ana", "password": "una clave larga"})["status"] == 200
        made = _fetch(ana, "POST", "/api/account/tables", {
            "variant": "tute_2p_habanero", "seats": ["you", "open"], "rated": True})
        assert made["status"] == 200, made
        table_id, code = made["body"]["id"], made["body"]["invite"].rsplit("/", 1)[1]

        bea = guest.new_page()
        errors: list[str] = []
        bea.on("pageerror", lambda e: errors.append(str(e)))
        bea.goto(site + "/")
        assert _fetch(bea, "POST", "/api/account/signup",
                      {"name": "Bea", "password": "otra clave larga"})["status"] == 200
        bea.goto(site + f"/j/{code}")
        bea.wait_for_selector("#join-btn")
        # logged in: the account's name, not a name to type
        bea.wait_for_function("document.getElementById('join-name').disabled")
        assert bea.input_value("#join-name") == "Bea"
        with bea.expect_response(lambda r: r.request.method == "POST" and "/join" in r.url
                                 ) as joined:
            bea.click("#join-btn")
        assert joined.value.url.endswith(f"/api/account/tables/{table_id}/join")
        assert joined.value.status == 200
        at = _fetch(bea, "GET", f"/api/account/tables/{table_id}")["body"]
        assert at["rated"] and at["seat"] == 1  # the seat is the account's at once

        bea.wait_for_selector(".hand-card", timeout=30000)
        bea.wait_for_selector("#rated-note")
        bea.wait_for_selector("#leave-btn")
        _shot(bea, "rated-table-leave")
        said: list[str] = []

        def dismiss(d: Any) -> None:
            said.append(d.message)
            d.dismiss()

        bea.once("dialog", dismiss)  # asked first; saying no keeps the seat
        bea.click("#leave-btn")
        assert said and "2" in said[0] and ("puntuación" in said[0] or "rating" in said[0])
        info = _fetch(bea, "GET", f"/api/tables/{table_id}")["body"]
        assert not info["seats"][1]["away"]

        def accept(d: Any) -> None:
            said.append(d.message)
            d.accept()

        bea.once("dialog", accept)
        bea.click("#leave-btn")
        bea.wait_for_function(
            f"""fetch('/api/tables/{table_id}').then(r => r.json())
                  .then(j => j.seats[1].away)""", timeout=20000, polling=200)
        assert errors == []
    finally:
        host.close()
        guest.close()


def _lan_browser(browser: Any) -> Any:
    """A Chromium to which lan.test is 127.0.0.1: an origin that is not localhost, as a
    server on a local network at http://192.168.x.x is to a phone."""
    return browser.browser_type.launch(
        executable_path=str(CHROMIUM),
        args=[*ARGS, "--host-resolver-rules=MAP lan.test 127.0.0.1"])


@pytest.mark.parametrize("insecure", [False, True])
def test_a_login_whose_cookie_is_not_kept_is_explained(
        browser: Any, server_process: Any, tmp_path: Path, insecure: bool) -> None:
    args = (*SERVER, "--insecure-cookies") if insecure else SERVER
    srv = server_process(*args, data_dir=tmp_path / f"srv{int(insecure)}")
    lan = _lan_browser(browser)
    try:
        page = lan.new_page(viewport={"width": 1000, "height": 800})
        page.goto(f"http://lan.test:{srv.port}/cuenta")
        page.wait_for_selector("#acc-signup")
        page.fill("#acc-name", "Dani")
        page.fill("#acc-pass", "una clave larga")
        page.click("#acc-signup")
        if insecure:  # the server sends the cookie without Secure: kept, logged in
            page.wait_for_selector("#acc-hello")
            return
        page.wait_for_selector("#acc-error:has-text('https')")
        text = page.inner_text("#acc-error")
        assert "--insecure-cookies" in text
        assert page.locator("#acc-signup").count() == 1  # still logged out, and it says so
        _shot(page, "account-cookie-lost")
    finally:
        lan.close()
