"""A tournament in a real browser, on a desktop and on a phone's width, with no axe-core
finding: an account creates a Swiss tournament from the form, a second account opens its
invite link and joins, the creator starts it; both see the standings and the link to their
table (the second player goes to it and finds its cards), and the player page lists the
tournament."""

from __future__ import annotations

from typing import Any

import pytest

from .test_browser import ARGS, CHROMIUM, _shot  # noqa: F401  (ARGS: the shared browser's)
from .test_browser_a11y import axe_violations
from .test_browser_rated_table import _fetch

pytestmark = [
    pytest.mark.timeout(240),
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="browser tests need Debian's chromium at /usr/bin/chromium "
                       "(apt-get install -y chromium)"),
]

SERVER = ("--bot-delay", "0", "--trick-pause", "0", "--ws-rate", "1000", "--bot-timeout", "600")
# bypass_csp: axe-core is added to the page by the test
SIZES = {"desktop": {"viewport": {"width": 1100, "height": 900}, "bypass_csp": True},
         "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True,
                   "has_touch": True, "device_scale_factor": 2, "bypass_csp": True}}


def _fits(page: Any) -> bool:
    """Nothing wider than the screen (no sideways scrolling on a phone), and no table or
    form control wider than its card (cut off at the card's edge)."""
    return bool(page.evaluate("""() => {
      if (document.documentElement.scrollWidth > window.innerWidth + 1) return false;
      const card = document.querySelector('.panel-card').getBoundingClientRect();
      const all = '.panel-card table, .panel-card select, .panel-card input, .panel-card button';
      return [...document.querySelectorAll(all)].every(
        (el) => el.getBoundingClientRect().right <= card.right + 1); }"""))


@pytest.mark.parametrize("size", list(SIZES))
def test_create_join_by_link_start_and_see_the_standings(
        browser: Any, server_process: Any, size: str) -> None:
    site = str(server_process(*SERVER).base)
    host = browser.new_context(**SIZES[size])
    guest = browser.new_context(**SIZES[size])
    errors: list[str] = []
    try:
        ana = host.new_page()
        ana.on("pageerror", lambda e: errors.append(str(e)))
        ana.goto(site + "/")
        assert _fetch(ana, "POST", "/api/account/signup",
                      {"name": "Ana", "password": "una clave larga"})["status"] == 200
        ana.goto(site + "/torneos")
        ana.wait_for_selector("#tn-make")
        assert _fits(ana)
        assert axe_violations(ana) == []  # the form: labelled, readable
        ana.fill("#tn-name", "Copa del casino")
        ana.select_option("#tn-variant", "tute_2p_habanero")
        assert ana.is_hidden("#tn-pairs-row")  # no partners in a game for two
        ana.fill("#tn-rounds", "2")
        ana.click("#tn-make")
        ana.wait_for_selector("#tn-invite")
        link = ana.inner_text("#tn-invite")
        assert "/torneo/" in link and ana.url == link
        assert ana.inner_text("#tn-title") == "Copa del casino"
        _shot(ana, f"tournament-open-{size}")

        bea = guest.new_page()
        bea.on("pageerror", lambda e: errors.append(str(e)))
        bea.goto(site + "/")
        assert _fetch(bea, "POST", "/api/account/signup",
                      {"name": "Bea", "password": "otra clave larga"})["status"] == 200
        bea.goto(link)
        bea.click("#tn-join")
        bea.wait_for_selector("#tn-leave")
        # the creator's page polls: Bea appears, and the creator starts it
        ana.wait_for_selector("#tn-players li:nth-child(2)", timeout=20_000)
        assert "Bea" in ana.inner_text("#tn-players")
        ana.click("#tn-start")
        ana.wait_for_selector("#tn-standings")
        ana.wait_for_selector("#tn-table")
        bea.wait_for_selector("#tn-standings", timeout=20_000)
        rows = bea.locator("#tn-standings tbody tr")
        assert rows.count() == 2
        assert {"Ana", "Bea"} <= set(bea.inner_text("#tn-standings").split())
        assert bea.locator("#tn-games li").count() == 1
        assert _fits(ana) and _fits(bea)
        _shot(bea, f"tournament-running-{size}")
        assert axe_violations(bea) == []
        bea.click("#tn-table")
        bea.wait_for_selector(".hand-card", timeout=30_000)
        assert "/t/" in bea.url

        ana.goto(site + "/jugador/Ana")
        ana.wait_for_selector("#player-tournaments")
        assert "Copa del casino" in ana.inner_text("#player-tournaments")
        assert errors == []
    finally:
        host.close()
        guest.close()
