"""The puzzles over HTTP and in the browser: the page gets the seat's view only (never a card
the seat cannot see), answers come back right or wrong with the values; a browser solves one
on a desktop and on a phone."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tute.cards import parse_card
from tute.errors import TuteError
from tute.puzzles import Puzzle, load_puzzles

from .test_browser import CHROMIUM
from .test_browser_table import DESKTOP, PHONE, PHONE_390, _fits, _page

PUZZLES = load_puzzles()
CARD = re.compile(r"\b[A234567SCR][oceb]\b")


def _sample() -> list[Puzzle]:
    """Every game's puzzles, a spread of them (each at a different point of its deal)."""
    out: list[Puzzle] = []
    for v in sorted({p.variant for p in PUZZLES}):
        of = [p for p in PUZZLES if p.variant == v]
        out += of[:: max(1, len(of) // 25)]
    return out


def _visible(p: Puzzle) -> set[str]:
    """The cards the seat may know of: its hand, every card played, the cards known to be in
    a hand (sung, exchanged, the turned trump) and the upcard."""
    deal = p.position()
    seen = {str(c) for c in deal.hand(p.seat)} | {str(c) for c in deal.played}
    for known in deal.known_for(p.seat):
        seen |= {str(c) for c in known}
    for extra in (deal.upcard, deal.view(p.seat).trump_card):
        if extra is not None:
            seen.add(str(extra))
    return seen


def _cards(data: Any) -> set[str]:
    """The card notations in an answer; prose is left out ("Se pone..." is Spanish, not the
    sota de espadas), the cards its words name come in ``params``."""
    if isinstance(data, dict):
        data = {k: v for k, v in data.items() if k not in ("es", "en")}
    if isinstance(data, dict) and isinstance(data.get("why"), dict):
        data = {**data, "why": {k: v for k, v in data["why"].items() if k not in ("es", "en")}}
    return set(CARD.findall(json.dumps(data)))


def test_the_api_never_sends_a_card_the_seat_cannot_see(client: TestClient) -> None:
    sample = _sample()
    assert len(sample) >= 60
    for p in sample:
        got = client.get(f"/api/puzzles/{p.id}")
        assert got.status_code == 200
        data = got.json()
        assert "answer" not in data and "values" not in data and "record" not in data
        visible = _visible(p)
        assert _cards(data) <= visible, (p.id, _cards(data) - visible)
        for action in p.values:  # every answer's reply too
            res = client.post(f"/api/puzzles/{p.id}/answer", json={"answer": action})
            assert res.status_code == 200
            assert _cards(res.json()) <= visible, (p.id, _cards(res.json()) - visible)
        hidden = {str(c) for s in range(p.position().seats) if s != p.seat
                  for c in p.position().hand(s)} - visible
        # two players: the cantes and the exchanges may have shown the whole other hand
        assert hidden or p.position().seats == 2 or len(p.values) < 2


def test_answers_right_and_wrong(client: TestClient) -> None:
    p = PUZZLES[0]
    right = client.post(f"/api/puzzles/{p.id}/answer", json={"answer": p.answer}).json()
    assert right["correct"] and right["values"] == p.values and right["themes"] == p.themes
    wrong = next(a for a in p.values if a != p.answer)
    res = client.post(f"/api/puzzles/{p.id}/answer", json={"answer": wrong}).json()
    assert not res["correct"] and res["best"] == p.answer and res["lost"] >= 10
    bad = client.post(f"/api/puzzles/{p.id}/answer", json={"answer": "Zz"})
    assert bad.status_code == 400 and bad.json()["error"] == "bad_request"
    assert client.get("/api/puzzles/nosuch").status_code == 404
    assert client.post("/api/puzzles/nosuch/answer", json={"answer": "Ao"}).status_code == 404
    assert client.post(f"/api/puzzles/{p.id}/answer", json={"x": 1}).status_code == 422


def test_the_list_the_daily_puzzle_and_the_pages(client: TestClient) -> None:
    first = client.get("/api/puzzles?limit=10").json()
    assert first["total"] == len(PUZZLES) and len(first["puzzles"]) == 10
    guinote = client.get("/api/puzzles?variant=guinote&limit=200").json()
    assert guinote["puzzles"] and all(x["variant"] == "guinote" for x in guinote["puzzles"])
    from tute.puzzles.themes import THEMES

    assert first["themes"] == list(THEMES)  # the page's theme filter offers these
    upcard = client.get("/api/puzzles?theme=upcard&limit=200").json()
    assert upcard["total"] and all("upcard" in x["themes"] for x in upcard["puzzles"])
    assert client.get("/api/puzzles?limit=5000").status_code == 422
    today = client.get("/api/puzzles/today").json()
    assert today["day"] and today["id"] == client.get("/api/puzzles/today").json()["id"]
    for path in ("/problemas", "/problemas/hoy", f"/problemas/{PUZZLES[0].id}"):
        page = client.get(path)
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]


def test_the_page_words_are_in_both_languages(client: TestClient) -> None:
    from tute.puzzles.themes import THEMES

    for lang in ("es", "en"):
        words = client.get(f"/api/messages/{lang}").json()["page"]
        for key in ("puzzlesTitle", "puzzleRight", "puzzleWrong", "puzzleToday",
                    *(f"puzzleTheme_{x}" for x in THEMES)):
            assert words.get(key), (lang, key)


# ------------------------------------------------------------------ in the browser

browser_test = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="browser tests need Debian's chromium at /usr/bin/chromium")


def _card_puzzle() -> Puzzle:
    """A puzzle whose answer and a wrong move are both cards (clicked in the hand)."""
    return next(p for p in PUZZLES if len(p.answer) == 2 and parse_card(p.answer) is not None
                and sum(len(a) == 2 for a in p.values) >= 2)


@browser_test
@pytest.mark.timeout(120)
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_browser_solves_a_puzzle(browser: Any, start: Callable[..., str],
                                 viewport: dict[str, int]) -> None:
    base = start()
    p = _card_puzzle()
    wrong = next(a for a in p.values if a != p.answer and len(a) == 2)
    page = _page(browser, viewport, base)
    page.goto(f"{base}/problemas/{p.id}")
    page.wait_for_function("() => window.__puzzle && window.__puzzle.info", timeout=15000)
    page.locator(f'.hand-card[data-card="{wrong}"]').click(timeout=5000)
    page.wait_for_selector("#puzzle-verdict.wrong", timeout=15000)
    assert page.locator("#puzzle-values li").count() == len(p.values)
    assert page.locator("#puzzle-why").inner_text().strip()
    if viewport is PHONE:
        for sel in ("#puzzle-panel", "#hand", "#felt"):
            _fits(page, sel)
        assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    page.locator("#puzzle-retry").click()
    page.locator(f'.hand-card[data-card="{p.answer}"]').click(timeout=5000)
    page.wait_for_selector("#puzzle-verdict.right", timeout=15000)
    assert page.locator("#puzzle-next").count() == 1
    # the page holds the seat's view only
    shown = set(CARD.findall(page.evaluate("() => JSON.stringify(window.__puzzle.info)")))
    assert shown <= _visible(p)
    assert not page.errors


@browser_test
@pytest.mark.timeout(120)
def test_browser_list_and_daily_puzzle(browser: Any, start: Callable[..., str]) -> None:
    base = start()
    page = _page(browser, PHONE, base)
    page.goto(f"{base}/problemas")
    page.wait_for_selector("#puzzle-list li", timeout=15000)
    _fits(page, "#puzzles")
    page.locator("#puzzle-today").click()
    page.wait_for_function("() => window.__puzzle && window.__puzzle.info", timeout=15000)
    assert page.locator("#puzzle-title").inner_text().startswith("Problema del día")
    assert page.locator(".hand-card.legal").count() >= 2
    assert not page.errors


def _is_card(action: str) -> bool:
    try:
        return parse_card(action) is not None
    except TuteError:
        return False


def _stock_puzzle() -> Puzzle:
    """A stock-phase puzzle (the upcard and the stock on the felt), one whose answer or a
    wrong move is a button (an exchange, a cante) where the set has one."""
    stock = [p for p in PUZZLES if p.position().stock_count]
    assert stock, "no stock-phase puzzle shipped"
    return next((p for p in stock if any(not _is_card(a) for a in p.values)), stock[0])


def _click(page: Any, action: str) -> None:
    """A card of the hand, or the button of any other move."""
    if _is_card(action):
        page.locator(f'.hand-card[data-card="{action}"]').click(timeout=5000)
    else:
        page.locator(f'.actions [data-action="{action}"]').click(timeout=5000)


@browser_test
@pytest.mark.timeout(120)
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE_390], ids=["desktop", "phone390"])
def test_browser_solves_a_stock_phase_puzzle(browser: Any, start: Callable[..., str],
                                             viewport: dict[str, int]) -> None:
    base = start()
    p = _stock_puzzle()
    deal = p.position()
    wrong = next(a for a in p.values if a != p.answer)
    page = _page(browser, viewport, base)
    page.goto(f"{base}/problemas/{p.id}")
    page.wait_for_function("() => window.__puzzle && window.__puzzle.info", timeout=15000)
    # the upcard and the cards left in the stock are on the felt
    assert deal.upcard is not None
    assert page.locator(f'.trumpbox .upcard [data-card="{deal.upcard}"]').count() == 1
    assert str(deal.stock_count) in page.locator(".trumpbox .stock-count").inner_text()
    for action in p.values:  # every move can be given: a legal card or a button
        if _is_card(action):
            assert page.locator(f'.hand-card.legal[data-card="{action}"]').count() == 1, action
        else:
            assert page.locator(f'.actions [data-action="{action}"]').count() == 1, action
    _click(page, wrong)
    page.wait_for_selector("#puzzle-verdict.wrong", timeout=15000)
    assert page.locator("#puzzle-values li").count() == len(p.values)
    if viewport is PHONE_390:
        for sel in ("#puzzle-panel", "#hand", "#felt"):
            _fits(page, sel)
        assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    page.locator("#puzzle-retry").click()
    _click(page, p.answer)
    page.wait_for_selector("#puzzle-verdict.right", timeout=15000)
    assert page.locator("#puzzle-themes").inner_text().strip()
    shown = set(CARD.findall(page.evaluate("() => JSON.stringify(window.__puzzle.info)")))
    assert shown <= _visible(p)
    assert not page.errors


@browser_test
@pytest.mark.timeout(120)
def test_browser_answers_with_a_button(browser: Any, start: Callable[..., str]) -> None:
    """A move other than a card (a cante, an exchange) is given by its button (no stock
    puzzle of the set has one: every bot sings and exchanges, so such a move is seldom a
    puzzle; the page's path is the same)."""
    p = next((p for p in PUZZLES if not _is_card(p.answer)), None)
    if p is None:
        pytest.skip("no puzzle of the set is answered by a button")
    base = start()
    page = _page(browser, PHONE_390, base)
    page.goto(f"{base}/problemas/{p.id}")
    page.wait_for_function("() => window.__puzzle && window.__puzzle.info", timeout=15000)
    wrong = next(a for a in p.values if a != p.answer)
    _click(page, wrong)
    page.wait_for_selector("#puzzle-verdict.wrong", timeout=15000)
    page.locator("#puzzle-retry").click()
    _click(page, p.answer)
    page.wait_for_selector("#puzzle-verdict.right", timeout=15000)
    assert page.locator(f'#puzzle-values li.best[data-value="{p.answer}"]').count() == 1
    assert not page.errors
