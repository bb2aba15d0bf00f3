"""Learning in the browser (Debian's chromium through Playwright): the hint button
("¿Qué jugarías?") on the player's own turn, hidden where hints are off and its errors in the
page's language; the explain mode (the duty that applies now and why each greyed card may not
be played, from the engine's refusals), remembered across visits; and the analysis view of a
finished game (the expected margin as an SVG chart, the mistakes, a summary per player),
offered in the end-of-game dialog and the history, readable on a 360 px phone."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tute.match import Match

from .test_browser import CHROMIUM
from .test_browser_table import (  # noqa: F401  (browser, data_dir, start: fixtures)
    DESKTOP,
    PHONE,
    _click,
    _fits,
    _page,
    _play_until,
    _shot,
    browser,
    data_dir,
    held,
    seeded,
    start,
)

pytestmark = [
    pytest.mark.timeout(240),
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="browser tests need Debian's chromium at /usr/bin/chromium"),
]

CARD = re.compile(r"^[A234567SCR][oceb]$")


def _must_follow(m: Match) -> bool:
    """Seat 0 to play a card to a trick, with cards it may not play (a duty applies)."""
    d = m.deal
    if d.to_move != 0 or not d.trick or not d.tricks:
        return False
    legal = [str(a) for a in d.legal_actions()]
    if not all(CARD.match(a) for a in legal):
        return False
    return any(c not in legal for c in d.hand(0).to_list())


def test_hint_on_my_turn_and_gone_when_it_passes(browser: Any, start: Callable[..., str],
                                                 data_dir: Path) -> None:
    tid, tokens, _m = seeded(data_dir, "tute_parejas", _must_follow)
    base = start()
    page = _page(browser, PHONE, base, held(tid, tokens[0], 0, "tute_parejas"))
    page.goto(base + f"/t/{tid}")
    page.wait_for_selector(".hand-card.legal")
    assert page.inner_text("#hint-btn") == "¿Qué jugarías?"
    page.click("#hint-btn")
    page.wait_for_selector("#hint-line", timeout=40_000)
    line = page.inner_text("#hint-line")
    assert line.startswith("Yo jugaría:"), line
    hint = page.evaluate("() => window.__tute.hint")
    reason = hint["reason"]["es"]
    assert reason and reason in line  # the one-line reason, in Spanish
    assert CARD.match(hint["action"])  # every legal action here is a card
    hinted = page.locator(".hand-card.hinted")
    assert hinted.count() == 1 and hinted.get_attribute("data-card") == hint["action"]
    assert "legal" in (hinted.get_attribute("class") or "")
    _fits(page, "#hint-line")
    _fits(page, "#hint-btn")
    _shot(page, "phone-hint")
    # two at once: the second is refused, and the page says so in Spanish
    page.evaluate("() => { const T = window.__tute; for (const r of ['hint8', 'hint9']) "
                  "T.ws.send(JSON.stringify({type: 'hint', ref: r})); }")
    page.wait_for_selector(".msg:has-text('Demasiado deprisa')", timeout=20_000)
    # playing the card passes the turn: the hint goes
    hinted.click()
    page.wait_for_selector("#hint-line", state="detached", timeout=20_000)
    page.wait_for_selector("#hint-btn", state="detached", timeout=20_000)
    assert not page.errors, page.errors
    page.context.close()


def test_no_hint_button_where_people_play(browser: Any, start: Callable[..., str],
                                          data_dir: Path) -> None:
    tid, tokens, _m = seeded(data_dir, "tute_parejas", _must_follow, humans=2)
    base = start()
    page = _page(browser, DESKTOP, base, held(tid, tokens[0], 0, "tute_parejas"))
    page.goto(base + f"/t/{tid}")
    page.wait_for_selector(".hand-card.legal")
    assert page.locator("#explain-btn").count() == 1  # explaining is always there
    assert page.locator("#hint-btn").count() == 0
    # asked anyway (an old page), the server's refusal is worded in the page's language
    page.evaluate("() => window.__tute.ws.send(JSON.stringify({type: 'hint', ref: 'hint1'}))")
    page.wait_for_selector(".msg:has-text('En esta mesa no hay pistas')")
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize("viewport", [pytest.param(DESKTOP, id="desktop"),
                                      pytest.param(PHONE, id="phone")])
def test_explain_mode_says_the_duty_and_why_each_card_is_grey(
        browser: Any, start: Callable[..., str], data_dir: Path,
        viewport: dict[str, int]) -> None:
    tid, tokens, m = seeded(data_dir, "tute_parejas", _must_follow)
    base = start()
    page = _page(browser, viewport, base, held(tid, tokens[0], 0, "tute_parejas"))
    page.goto(base + f"/t/{tid}")
    page.wait_for_selector(".hand-card.legal")
    assert page.locator("#explain").count() == 0  # off until asked for
    illegal = page.locator(".hand-card.illegal")
    assert illegal.count() >= 1 and "hay que" not in (illegal.first.get_attribute("title") or "")
    page.click("#explain-btn")
    page.wait_for_selector("#explain .duty")
    duty = page.inner_text("#explain .duty")
    assert duty.startswith("Ahora:") and re.search(r"asistir|montar|fallar|triunfo", duty), duty
    # each greyed card has the engine's reason (the refusal catalogue's Spanish words)
    refusals = page.evaluate("() => window.__tute.state.deal.refusals")
    legal = page.evaluate("() => window.__tute.state.deal.legal_actions")
    assert set(refusals) == {c for c in m.deal.hand(0).to_list() if c not in legal}
    assert all(r["code"].startswith("must_") for r in refusals.values())
    why = page.inner_text("#explain .why")
    assert "hay que" in why, why
    for k in range(illegal.count()):
        assert "hay que" in (illegal.nth(k).get_attribute("title") or "")
    assert page.locator("#explain-btn").get_attribute("aria-pressed") == "true"
    _fits(page, "#explain")
    _shot(page, f"explain-{viewport['width']}")
    # remembered, and in English in an English page
    page.evaluate("() => localStorage.setItem('tute.lang', 'en')")
    page.reload()
    page.wait_for_selector("#explain .duty")
    _wait_text(page, "#explain .why", "must")
    assert page.inner_text("#explain .duty").startswith("Now:")
    assert page.inner_text("#hint-btn") == "What would you play?"
    assert not page.errors, page.errors
    page.context.close()


def _wait_text(page: Any, selector: str, text: str, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if text in page.inner_text(selector):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"{selector} never said {text!r}: {page.inner_text(selector)!r}")


def test_analysis_view_from_the_end_of_game_and_the_history(
        browser: Any, start: Callable[..., str], data_dir: Path) -> None:
    tid, tokens, _m = seeded(data_dir, "tute_parejas",
                            lambda m: len(m.deal.tricks) == 8 and not m.deal.trick,
                            options={"match": {"mode": "series", "deals": 1}})
    base = start()
    page = _page(browser, PHONE, base, held(tid, tokens[0], 0, "tute_parejas"))
    # while the game is played there is no analysis: it would show every hand
    early = page.request.get(base + f"/api/games/{tid}/analysis")
    assert early.status == 409 and early.json()["error"] == "not_finished"
    page.goto(base + f"/t/{tid}")
    _play_until(page, lambda: page.locator("#analysis-btn").count() > 0, 90)
    page.click("#analysis-btn")
    page.wait_for_url(f"**/a/{tid}")
    page.wait_for_selector("#margin-chart", timeout=60_000)
    assert "doble muerto" in page.inner_text("#measure-note")
    assert "pimc" in page.inner_text("#measure-note")  # and why the search measure is not here
    assert page.locator("#margin-chart polyline").count() == 1
    rows = page.locator("#analysis-summary tbody tr")
    assert rows.count() == 4 and "Ana" in rows.first.inner_text()
    data = page.evaluate(f"() => fetch('/api/games/{tid}/analysis').then(r => r.json())")
    worst = [d for d in data["decisions"] if d["dd_loss"] is not None and d["dd_loss"] > 2]
    if worst:
        assert page.locator("#margin-chart .mistake-dot").count() == len(worst)
        text = page.inner_text("#mistakes")
        assert "mejor era" in text and f"(+{worst[0]['dd_loss']})" in text
    else:
        assert "Ningún error" in page.inner_text("#analysis")
    for sel in ("#analysis", "#margin-chart", "#analysis-summary", "#measure-note"):
        _fits(page, sel)
    cut = page.locator("#analysis-summary").evaluate(
        "e => e.parentElement.scrollWidth - e.parentElement.clientWidth")
    assert cut <= 1
    _shot(page, "phone-analysis")
    # the cached analysis comes back fast
    ms = page.evaluate(f"async () => {{ const t0 = performance.now(); "
                       f"await fetch('/api/games/{tid}/analysis?deal=1'); "
                       f"return performance.now() - t0; }}")
    print(f"cached analysis in the browser: {ms:.0f} ms")
    assert ms < 1000
    # and it is offered in the history of finished games
    page.goto(base + "/")
    page.wait_for_selector("#history .analysis-link")
    _click(page.locator("#history .analysis-link").first)
    page.wait_for_selector("#margin-chart")
    assert not page.errors, page.errors
    page.context.close()
