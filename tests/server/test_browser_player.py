"""The table as a player sees it, in Debian's chromium on a desktop (1280x800) and a phone
(390x844): a finished trick's cards can all be read (none lies over another, the winner's
banner over none), the duty that applies now is always in view on the player's turn, the
lobby's lengths are every game's own and the table keeps the one
chosen, and the icons are drawn by the page (no platform glyph a font may lack).

Screenshots go to $TUTE_ARTIFACTS, else to artifacts/ under the run's pytest temporary folder."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from tute.server.hub import variants_json

from .test_browser import ARTIFACTS, CHROMIUM
from .test_browser_table import _must_follow, _page, _ready, _wait, held, seeded

pytestmark = [
    pytest.mark.timeout(240),
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="browser tests need Debian's chromium at /usr/bin/chromium"),
]

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
VIEWPORTS = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


# the finished trick's boxes in one go: each played card's, and the winner's banner
BOXES = """() => { const box = (e) => { const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom]; };
  return {cards: [...document.querySelectorAll('.trick .played .card')].map(box),
          banner: [...document.querySelectorAll('.trick-win')].map(box)}; }"""


def _overlap(a: list[float], b: list[float]) -> float:
    """The share of a's area that b covers."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return max(w, 0) * max(h, 0) / ((a[2] - a[0]) * (a[3] - a[1]))


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("variant", ["tute_parejas", "tute_2p_habanero"])
def test_the_finished_trick_can_be_read(browser: Any, start: Callable[..., str],
                                        viewport: dict[str, int], variant: str) -> None:
    base = start()
    page = _page(browser, viewport, base, pace="1", motion="reduce")
    page.goto(base + "/")
    page.wait_for_selector("#quick-play")
    page.select_option("#q-variant", variant)
    page.click("#quick-play")
    for k in range(2):
        _ready(page)
        _wait(page, lambda: not page.evaluate("window.__tute.busy"), 10, 20)
        page.locator(".hand-card.legal").first.click()
        _wait(page, lambda: page.locator(".trick-win").count() > 0, 20, 20)
        got = page.evaluate(BOXES)
        _shot(page, f"trick-read-{variant}-{viewport['width']}-{k}")
        cards, banner = got["cards"], got["banner"]
        seats = 4 if variant == "tute_parejas" else 2
        assert len(cards) == seats and len(banner) == 1, got
        for i, a in enumerate(cards):
            assert _overlap(a, banner[0]) == 0, ("the banner lies over a card", a, banner)
            for b in cards[i + 1:]:
                # rotated cards' boxes may touch at a corner; no card hides a part of another
                assert _overlap(a, b) < 0.04, ("two cards overlap", a, b)
        _wait(page, lambda: page.locator(".trick-win").count() == 0, 20, 20)
    assert not page.errors, page.errors
    page.context.close()


def test_every_game_offers_its_lengths_and_the_table_keeps_them(
        browser: Any, start: Callable[..., str]) -> None:
    """Each game's "Duración" lists the game's own lengths (Game.lengths, served with the
    variants), worded from their goal; the shortest one started from the lobby is the table's."""
    base = start()
    page = _page(browser, DESKTOP, base)
    for v in variants_json():
        page.goto(base + "/")
        page.wait_for_selector("#quick-play")
        page.select_option("#q-variant", v["id"])
        labels = page.eval_on_selector_all("#q-length option",
                                           "os => os.map(o => o.textContent.trim())")
        assert len(labels) == len(v["lengths"]) >= 2, (v["id"], labels)
        assert len(set(labels)) == len(labels) and all(x and x != "—" for x in labels), labels
        assert not any(re.search(r"\b1 (juegos|manos|partidas|cotos)", x) for x in labels), labels
        page.select_option("#q-length", index=len(labels) - 1)
        page.click("#quick-play")
        page.wait_for_url("**/t/*")
        tid = page.url.rsplit("/", 1)[1]
        options = httpx.get(base + f"/api/tables/{tid}").json()["options"]
        for key, value in v["lengths"][-1]["options"].items():
            assert options.get(key) == value, (v["id"], key, options)
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_duty_is_in_view_on_the_players_turn(browser: Any, start: Callable[..., str],
                                                 data_dir: Path,
                                                 viewport: dict[str, int]) -> None:
    """Asistir, montar, fallar or libre: one line the server words from the engine's refusals
    (the seat's ``duty``), above the hand, in the viewport without scrolling."""
    tid, tokens, _m = seeded(data_dir, "tute_parejas", _must_follow)
    base = start()
    page = _page(browser, viewport, base, held(tid, tokens[0], 0, "tute_parejas"))
    page.goto(base + f"/t/{tid}")
    page.wait_for_selector(".hand-card.legal")
    _wait(page, lambda: page.inner_text("#duty").strip() != "", 10)
    text = page.inner_text("#duty")
    code = page.evaluate("() => window.__tute.state.deal.duty.code")
    word = {"follow": "Asistir", "beat": "montar", "trump": "Fallar", "overtrump": "Fallar"}
    assert word[code] in text, (code, text)
    assert not any(ch.isdigit() for ch in text), text  # cards in words, not codes
    box = page.evaluate("() => { const r = document.getElementById('duty')"
                        ".getBoundingClientRect(); return [r.top, r.bottom]; }")
    assert box[0] >= 0 and box[1] <= viewport["height"], box
    _shot(page, f"duty-{viewport['width']}")
    # once the card is played the line is empty: the duty is the player's own, on its turn
    page.locator(".hand-card.legal").first.click()
    _wait(page, lambda: page.inner_text("#duty").strip() == "", 10)
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_partner_is_marked_and_bots_have_names_and_levels(
        browser: Any, start: Callable[..., str], viewport: dict[str, int]) -> None:
    base = start()
    page = _page(browser, viewport, base)
    page.goto(base + "/")
    page.wait_for_selector("#quick-play")
    page.select_option("#q-variant", "tute_parejas")
    page.click("#quick-play")
    page.wait_for_selector(".hand-card")
    seats = page.evaluate("() => window.__tute.info.seats")
    me = page.evaluate("() => window.__tute.seat")
    partner = (me + 2) % 4
    badge = page.inner_text(f".seat[data-seat='{partner}'] .badge")
    assert "compañero/a" in badge, badge
    for s in seats:
        if s["kind"] != "bot":
            continue
        assert not s["name"].startswith("Bot"), s  # a person's name
        text = page.inner_text(f".seat[data-seat='{s['seat']}'] .badge")
        assert s["name"] in text and "bot " in text.lower(), text
    others = [s["seat"] for s in seats if s["seat"] not in (me, partner)]
    for s in others:
        assert "compañero" not in page.inner_text(f".seat[data-seat='{s}'] .badge")
    for s in range(4):  # every badge within the screen's width
        if s != me:
            sel = f".seat[data-seat='{s}'] .badge"
            box = page.evaluate("s => { const r = document.querySelector(s)"
                                ".getBoundingClientRect(); return [r.left, r.right]; }", sel)
            assert box[0] >= -1 and box[1] <= viewport["width"] + 1, (s, box)
    _shot(page, f"partner-bots-{viewport['width']}")
    assert not page.errors, page.errors
    page.context.close()


def test_the_phone_shows_the_score_as_a_chip(browser: Any, start: Callable[..., str]) -> None:
    """On the phone the side panel lies below the hand: the score is a chip above the felt,
    in view, and a tap on it opens the score sheet; a desktop has its side panel instead."""
    base = start()
    page = _page(browser, PHONE, base)
    page.goto(base + "/")
    page.wait_for_selector("#quick-play")
    page.select_option("#q-variant", "tute_parejas")
    page.click("#quick-play")
    page.wait_for_selector(".hand-card")
    chip = page.locator("#score-chip")
    text = chip.inner_text()
    assert "Nosotros" in text and "Ellos" in text, text
    box = chip.bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
    _shot(page, "score-chip-390")
    chip.click()
    page.wait_for_selector(".sheet-dialog")
    _shot(page, "score-chip-sheet-390")
    page.context.close()
    desk = _page(browser, DESKTOP, base)
    desk.goto(base + "/")
    desk.wait_for_selector("#quick-play")
    desk.click("#quick-play")
    desk.wait_for_selector(".hand-card")
    assert not desk.locator("#score-chip").is_visible()
    assert not page.errors and not desk.errors, (page.errors, desk.errors)
    desk.context.close()


def _must_beat(m: Any) -> bool:
    """Seat 0 to play to a trick, with a card it may not play for it does not beat."""
    d = m.deal
    if d.to_move != 0 or not d.trick or not all(len(str(a)) == 2 for a in d.legal_actions()):
        return False
    return any(r.code == "must_beat" for r in d.card_refusals().values())


def test_a_refusal_names_the_card_in_words(browser: Any, start: Callable[..., str],
                                           data_dir: Path) -> None:
    """"Hay que montar: supera el tres de copas", not "supera el 3c"; in English too."""
    tid, tokens, m = seeded(data_dir, "tute_parejas", _must_beat)
    beat = next(str(c) for c, r in m.deal.card_refusals().items() if r.code == "must_beat")
    base = start()
    page = _page(browser, PHONE, base, held(tid, tokens[0], 0, "tute_parejas"))
    notation = re.compile(r"\b[A2-7SCR][oceb]\b")
    for lang, want in (("es", "supera "), ("en", "must beat the ")):
        page.context.add_init_script(f"localStorage.setItem('tute.lang', '{lang}')")
        page.goto(base + f"/t/{tid}")
        card = page.locator(f".hand-card[data-card='{beat}']")
        card.wait_for()
        card.focus()
        page.keyboard.press("Enter")
        msg = page.locator(".msg")
        _wait(page, lambda msg=msg, want=want: want in msg.inner_text(), 10)
        text = msg.inner_text()
        assert not notation.search(text), text
        _shot(page, f"refusal-words-{lang}-390")
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize("variant", ["tute_cabrero", "tute_parejas", "tute_subastado"])
def test_the_desktop_side_panel_cuts_no_word(browser: Any, start: Callable[..., str],
                                             variant: str) -> None:
    """At 1280x800 the score's headers and names are read whole ("Perdidos", not
    "Perdid…")."""
    base = start()
    page = _page(browser, DESKTOP, base)
    page.goto(base + "/")
    page.wait_for_selector("#quick-play")
    page.select_option("#q-variant", variant)
    page.click("#quick-play")
    page.wait_for_selector("table.score th")
    cut = page.evaluate("() => [...document.querySelectorAll('table.score th, table.score td, "
                        "table.score .side-name')].filter(e => e.scrollWidth > e.clientWidth + 1)"
                        ".map(e => e.textContent)")
    assert not cut, cut
    _shot(page, f"side-panel-{variant}-1280")
    assert not page.errors, page.errors
    page.context.close()
