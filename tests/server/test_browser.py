"""The page in a real browser (Playwright driving Debian's chromium): open the lobby, start a
game against bots, play a whole deal by clicking, see the result, switch language.
Screenshots go to $TUTE_ARTIFACTS, else to artifacts/ under the run's pytest temporary folder."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from .conftest import ARTIFACTS

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

pytestmark = [
    pytest.mark.timeout(150),
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="browser tests need Debian's chromium at /usr/bin/chromium "
                       "(apt-get install -y chromium)"),
]


@pytest.fixture
def site(server_process: Any) -> str:
    srv = server_process("--bot-delay", "0.05", "--trick-pause", "0.05")
    return str(srv.base)


# the page's pauses (localStorage tute.pace, 1 by default): a whole deal fits in the test
FAST_PACE = "(() => { try { localStorage.setItem('tute.pace', '0.05'); } catch (e) {} })()"


def _fast(page: Any) -> Any:
    page.add_init_script(FAST_PACE)
    return page


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def _play_out(page: Any, until: str, deadline: float) -> int:
    """Click legal cards (or the first action button) whenever it is our turn."""
    clicks = 0
    while time.monotonic() < deadline:
        if page.locator(until).count():
            return clicks
        if page.locator(".overlay #continue-btn").count():
            page.click("#continue-btn")
            continue
        button = page.locator(".action-btn")
        card = page.locator(".hand-card.legal")
        if button.count():
            clicks += _click(button.first)
        elif card.count():
            if clicks == 2:
                _shot(page, "table-desktop")
            clicks += _click(card.first)
        page.wait_for_timeout(60)
    raise AssertionError(f"{until} never appeared")


def _click(locator: Any) -> int:
    """Click, or give up after 3 s and let the caller look again: a card re-rendered by a
    state update (or lifted by its hover transition) can stay "not stable" for the whole
    default 30 s on a loaded machine."""
    try:
        locator.click(timeout=3000)
    except Exception as exc:  # playwright's TimeoutError; the module is imported lazily
        if type(exc).__name__ != "TimeoutError":
            raise
        return 0
    return 1


def _refused_until_reason(page: Any, deadline: float) -> None:
    """Play legal cards until the hand has an illegal one, then press it until the reason
    shows. Pressed with the keyboard (aria-disabled, yet pressable): a forced click lands on
    whatever is on top at that point, a card flying to the felt included. A press while the
    page still waits for the echo of its own last card is ignored by design, so it is pressed
    again (CI met both)."""
    while time.monotonic() < deadline:
        illegal = page.locator(".hand-card.illegal")
        if illegal.count():
            try:
                illegal.first.focus(timeout=2000)
                page.keyboard.press("Enter")
                page.wait_for_selector(".msg:has-text('No puedes')", timeout=3000)
                return
            except Exception as exc:  # playwright's TimeoutError, imported lazily
                if type(exc).__name__ != "TimeoutError":
                    raise
        elif page.locator(".hand-card.legal").count():
            _click(page.locator(".hand-card.legal").first)
        page.wait_for_timeout(80)
    raise AssertionError("no illegal card was refused with its reason before the deadline")


def test_lobby_play_a_deal_and_switch_language(browser: Any, site: str) -> None:
    page = _fast(browser.new_page(viewport={"width": 1280, "height": 820}))
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(site + "/")
    page.wait_for_selector("#quick-play")
    assert "Jugar contra bots" in page.inner_text("body")  # Spanish by default
    page.fill("#name", "Ana")
    page.select_option("#q-variant", "tute_parejas")
    lengths = page.locator("#q-length option").count()
    page.select_option("#q-length", str(lengths - 1))  # the shortest: a single deal
    _shot(page, "lobby")
    page.click("#quick-play")
    page.wait_for_selector(".hand-card", timeout=15_000)
    assert page.url.startswith(site + "/t/")
    # an illegal card gives the reason, and changes nothing
    deadline = time.monotonic() + 100
    _refused_until_reason(page, deadline)
    _shot(page, "illegal-reason")
    # play the whole deal by clicking
    clicks = _play_out(page, ".overlay .result-dialog", deadline)
    assert clicks >= 5
    page.wait_for_selector("text=Fin de la partida")
    _shot(page, "result-es")
    # switch language: the page speaks English, and remembers it
    page.click("#lang-btn")
    page.wait_for_selector("text=End of the match")
    _shot(page, "result-en")
    page.reload()
    page.wait_for_selector("text=End of the match")
    # the finished game is in the history, and replays in the page
    page.click("text=Back to the lobby")
    page.wait_for_selector("text=Finished games")
    page.wait_for_selector("ul.list a:has-text('Replay')")
    page.locator("ul.list a:has-text('Replay')").first.click()
    page.wait_for_selector("#r-next")
    for _ in range(6):
        page.click("#r-next")
    _shot(page, "replay")
    page.click("#lang-btn")  # back to Spanish for the next test
    assert not errors, errors


def test_phone_layout_and_invite(browser: Any, site: str) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                              has_touch=True, device_scale_factor=2)
    page = _fast(ctx.new_page())
    page.goto(site + "/")
    page.wait_for_selector("#create-btn")
    _shot(page, "lobby-phone")
    page.fill("#name", "Bea")
    page.click("#create-btn")  # you + three open seats: an invite to share
    page.wait_for_selector(".invite .code")
    code = page.inner_text(".invite .code")
    assert len(code) == 8
    _shot(page, "invite-phone")
    # a friend opens the invite link in another browser and sits down
    friend = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    friend.goto(site + f"/j/{code}")
    friend.wait_for_selector("#join-btn")
    friend.fill("#join-name", "Carla")
    friend.click("#join-btn")
    page.wait_for_selector("text=Carla")
    page.click("#fill-btn")  # the host fills the rest with bots
    page.wait_for_selector(".hand-card", timeout=15_000)
    friend.wait_for_selector(".hand-card", timeout=15_000)
    page.wait_for_function("() => document.getAnimations().length === 0", timeout=10_000)
    _shot(page, "table-phone")
    ctx.close()
    friend.context.close()


def test_hand_is_playable_from_the_keyboard(browser: Any, site: str) -> None:
    page = _fast(browser.new_page(viewport={"width": 1280, "height": 820}))
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(site + "/")
    page.wait_for_selector("#quick-play")
    page.select_option("#q-variant", "tute_2p_habanero")
    page.click("#quick-play")
    page.wait_for_selector(".hand-card.legal", timeout=15_000)
    start = page.locator(".hand-card").count()
    focused = "document.activeElement && document.activeElement.className"
    for _ in range(60):  # Tab into the hand, as a keyboard user would
        page.keyboard.press("Tab")
        if "hand-card" in (page.evaluate(focused) or ""):
            break
    else:
        raise AssertionError("Tab never reached the hand")
    for _ in range(start):  # the arrows walk along the hand to a playable card
        if "legal" in page.evaluate(focused).split():
            break
        page.keyboard.press("ArrowRight")
    card = page.evaluate("document.activeElement.dataset.card")
    _shot(page, "keyboard-focus")
    page.keyboard.press("Enter")
    sel = f".hand-card[data-card='{card}']"
    for _ in range(100):  # (wait_for_function would need 'unsafe-eval', which the CSP refuses)
        if not page.locator(sel).count():
            break
        page.wait_for_timeout(50)
    assert not page.locator(sel).count(), f"{card} was not played"
    # the focus stays in the hand after the page redraws it
    assert "hand-card" in (page.evaluate(focused) or "")
    assert not errors, errors
