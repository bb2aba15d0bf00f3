"""The table as a Spanish card player plays it, in a real browser (Debian's chromium through
Playwright), on a desktop (1280x800) and a phone (360x740): the trick as a moment, de vueltas,
cantes and the auction on the felt, the score sheet, the last trick beside the live one, the
trump after the stock, long names, dialogs and tap targets on a phone, Spanish messages,
partnerships from the server, chat, rematch, the countdown before a bot takes a seat, the
spectator's view, live tables, the visitor's history, help and house rules, the replay, and
what screen readers are told; the hint button, the explain mode and the analysis view.
Positions that chance would rarely deal (a deal de vueltas, the
last trick of a match) are set up by storing a seeded game's event log before the server starts,
exactly as the server itself stores one. First load and card-play latency are printed.

Screenshots go to $TUTE_ARTIFACTS, else to artifacts/ under the run's pytest temporary folder."""

from __future__ import annotations

import copy
import itertools
import json
import random
import re
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from tute.match import Match
from tute.records import options_to_json
from tute.server.store import Store, TableRow
from tute.server.table import hash_token

from .test_browser import ARTIFACTS, CHROMIUM

pytestmark = [
    pytest.mark.timeout(240),
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="browser tests need Debian's chromium at /usr/bin/chromium"),
]

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}
VIEWPORTS = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]
FAST = "0.05"  # the page's pauses (localStorage tute.pace): whole deals fit in a test


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def _page(browser: Any, viewport: dict[str, int], base: str, seats: dict[str, Any] | None = None,
          pace: str = FAST, motion: str = "no-preference") -> Any:
    phone = viewport["width"] < 500
    ctx = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone,
                              reduced_motion=motion)
    init = {"tute.pace": pace, "tute.seats": json.dumps(seats or {})}
    ctx.add_init_script(f"(() => {{ try {{ const kv = {json.dumps(init)}; for (const k in kv) "
                        "if (localStorage.getItem(k) === null || k === 'tute.pace') "
                        "localStorage.setItem(k, kv[k]); } catch (e) {} })()")
    page = ctx.new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def _wait(page: Any, predicate: Callable[[], bool], seconds: float = 20, step: int = 50) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return
        page.wait_for_timeout(step)
    raise AssertionError("condition never held")


def _click(locator: Any) -> bool:
    try:
        locator.click(timeout=3000)
    except Exception as exc:  # playwright's TimeoutError; imported lazily
        if type(exc).__name__ != "TimeoutError":
            raise
        return False
    return True


def _play_until(page: Any, done: Callable[[], bool], seconds: float = 90) -> int:
    """Play the first legal card or action whenever it is our turn, until done()."""
    clicks = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if done():
            return clicks
        if page.locator("#continue-btn").count():
            _click(page.locator("#continue-btn"))
            continue
        button, card = page.locator(".action-btn"), page.locator(".hand-card.legal")
        if button.count():
            clicks += _click(button.first)
        elif card.count():
            clicks += _click(card.first)
        page.wait_for_timeout(60)
    raise AssertionError("the game never got there")


def _ready(page: Any, seconds: float = 30) -> None:
    """Wait until a card may be played, passing on any other choice (a cante, an exchange)."""
    def card() -> bool:
        if page.locator(".hand-card.legal").count():
            return True
        if page.locator(".action-btn:has-text('Paso')").count():
            _click(page.locator(".action-btn:has-text('Paso')").first)
        return False
    _wait(page, card, seconds)


def _fits(page: Any, selector: str) -> None:
    """The element lies inside the viewport's width (measured in one go: the page may be
    redrawing it)."""
    width = page.viewport_size["width"]
    box = page.evaluate("s => { const r = document.querySelector(s).getBoundingClientRect(); "
                        "return [r.left, r.right]; }", selector)
    assert box[0] >= -1 and box[1] <= width + 1, (selector, box, width)


def _side(page: Any, show: bool = True) -> None:
    """A phone's side panel (the score, the log, the chat) is a sheet over the table: opened
    (or closed) from the button beside the score chip; a desktop always shows it."""
    if not page.locator("#side-btn").is_visible():
        return
    if page.locator("#side-col.open").count() != show:
        page.click("#side-close" if not show else "#side-btn")
    page.wait_for_selector("#side-col", state="visible" if show else "hidden")
    # and in place: the sheet slides in (a transition), and what is measured in it after
    # this must not be caught on the way (a loaded machine draws the slide slowly)
    page.wait_for_function("() => document.getElementById('side-col').getAnimations()"
                           ".every(a => a.playState !== 'running')")


# ------------------------------------------------------------------ seeded games

def seeded(data_dir: Path, variant: str, until: Callable[[Match], bool], *,
           options: dict[str, Any] | None = None, humans: int = 1, seed_from: int = 1,
           names: tuple[str, ...] = ("Ana", "Bea"), public: bool = False,
           tries: int = 400) -> tuple[str, list[str], Match]:
    """Store a table whose game was played at random up to the first position where
    until(match) holds, with the first ``humans`` seats human (their tokens returned) and
    bots elsewhere; the server restores it at startup as any unfinished table."""
    rng = random.Random(7)
    for seed in range(seed_from, seed_from + tries):
        m = Match.new(variant, seed=seed, options=options or {}, first_dealer=1)
        actions: list[tuple[int, str]] = []
        while not m.is_over() and not until(m):
            seat = m.to_move
            a = rng.choice(m.legal_actions())
            m.apply(a)
            actions.append((seat, str(a)))
        if until(m) and not m.is_over() and m.to_move is not None and m.to_move < humans:
            break
    else:
        raise AssertionError("no seed gives that position")
    tokens = [secrets.token_urlsafe(24) for _ in range(humans)]
    seats = [{"kind": "human", "name": names[i], "level": "medio",
              "token_hash": hash_token(tokens[i])} if i < humans else
             {"kind": "bot", "name": f"Bot {i + 1}", "level": "facil", "token_hash": None}
             for i in range(m.deal.seats)]
    tid = secrets.token_urlsafe(9)
    row = TableRow(id=tid, code="".join(secrets.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
                                        for _ in range(8)),
                   variant=variant, options=json.loads(json.dumps(options_to_json(
                       m.options, m.variant.defaults))),
                   seed=seed, first_dealer=1, seats=seats, host=0, public=public,
                   status="playing", version=len(actions), result=None,
                   created_at=time.time(), finished_at=None)
    store = Store(f"sqlite:///{data_dir / 'tute.sqlite3'}")
    try:  # the server's own write operations, run on one connection before it starts
        with store.engine.begin() as conn:
            Store.op_create(row)(conn)
            for v, (seat, a) in enumerate(actions, 1):
                Store.op_event(tid, v, "action", seat, a)(conn)
    finally:
        store.close()
    return tid, tokens, m


def held(tid: str, token: str, seat: int, variant: str) -> dict[str, Any]:
    return {tid: {"seat": seat, "token": token, "variant": variant, "at": 1}}


def _in_vueltas(m: Match) -> bool:
    """Late in the second deal, de vueltas: a few tricks left to play out to its result."""
    return len(m.deals) == 2 and m.deal.carry is not None and len(m.deal.tricks) >= 14


# ------------------------------------------------------------------ the trick as a moment

@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_trick_is_a_moment_with_its_winner(browser: Any, start: Callable[..., str],
                                           viewport: dict[str, int]) -> None:
    base = start()
    # the real pace: the finished trick stays long enough to read its winner
    page = _page(browser, viewport, base, pace="1")
    t0 = time.monotonic()
    page.goto(base + "/")
    page.wait_for_selector("#quick-play")
    lobby = page.evaluate("[performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd,"
                          " performance.now()]")
    print(f"\n[{viewport['width']}px] lobby: modules loaded {lobby[0]:.0f} ms, drawn by "
          f"{lobby[1]:.0f} ms")
    page.select_option("#q-variant", "tute_2p_habanero")
    page.click("#quick-play")
    page.wait_for_selector(".hand-card", timeout=15_000)
    load = page.evaluate("performance.now()")
    print(f"[{viewport['width']}px] first load: lobby to a dealt hand in "
          f"{(time.monotonic() - t0) * 1000:.0f} ms (page clock {load:.0f} ms)")
    animated = []
    latencies = []
    for _ in range(2):
        _ready(page)
        # measured from an idle page: a card played during the last trick's pause waits for it
        _wait(page, lambda: not page.evaluate("window.__tute.busy"), 10, 20)
        card = page.locator(".hand-card.legal").first
        name = card.get_attribute("data-card")
        card.click()
        # the card travels: an animation runs on the table right after the play
        for _ in range(40):
            n = page.evaluate("document.getAnimations().length")
            if n:
                animated.append(n)
                break
            page.wait_for_timeout(10)
        mine = f".trick .played .card[data-card='{name}']"
        _wait(page, lambda sel=mine: page.locator(sel).count() > 0
              or page.locator(".trick-win").count() > 0, 10, 5)
        latencies.append(page.evaluate("performance.now() - window.__tute.sentAt"))
        # the finished trick: winner marked and named, and it stays on the table a while
        _wait(page, lambda: page.locator(".trick-win").count() > 0, 15, 20)
        text = page.inner_text(".trick-win")
        assert "baza" in text, text
        assert page.locator(".played.winner").count() == 1
        page.wait_for_timeout(600)
        assert page.locator(".trick-win").count() == 1, "the trick vanished too soon"
        _shot(page, f"trick-winner-{viewport['width']}")
        assert "baza" in page.inner_text("#live") or "juega" in page.inner_text("#live")
    assert animated, "cards never moved"
    print(f"[{viewport['width']}px] card play: click to the card on the table "
          f"{', '.join(f'{x:.0f}' for x in latencies)} ms")
    assert all(x < 5000 for x in latencies)
    assert not page.errors, page.errors
    page.context.close()


def test_reduced_motion_moves_nothing_but_keeps_the_moment(browser: Any,
                                                          start: Callable[..., str]) -> None:
    base = start()
    page = _page(browser, DESKTOP, base, pace="0.5", motion="reduce")
    page.goto(base + "/")
    page.select_option("#q-variant", "tute_2p_habanero")
    page.click("#quick-play")
    moved = 0
    for _ in range(2):
        _ready(page)
        page.locator(".hand-card.legal").first.click()
        # nothing moves, yet the finished trick is shown with its winner
        for _ in range(1000):
            moved += page.evaluate("document.getAnimations().length")
            if page.locator(".trick-win").count():
                break
            page.wait_for_timeout(10)
        else:
            raise AssertionError("the trick's winner was never shown")
    assert moved == 0
    assert not page.errors, page.errors
    page.context.close()


# ------------------------------------------------------------------ de vueltas, sheet, trump

@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_de_vueltas_running_totals_and_sheet(browser: Any, start: Callable[..., str],
                                            data_dir: Path, viewport: dict[str, int]) -> None:
    tid, tokens, m = seeded(data_dir, "guinote_2p", _in_vueltas)
    carry = m.deal.carry
    assert carry is not None
    base = start()
    page = _page(browser, viewport, base, held(tid, tokens[0], 0, "guinote_2p"))
    page.goto(base + f"/t/{tid}")
    page.wait_for_selector(".hand-card")
    assert "de vueltas" in page.inner_text("#tt")
    _side(page)
    note = page.inner_text(".vueltas-note")
    assert str(carry[0]) in note and str(carry[1]) in note
    # the running total is the carried one plus this deal's tantos, never from zero
    running = page.locator("table.score tbody tr").first.locator("td").nth(1).inner_text()
    assert int(running) >= carry[0]
    _shot(page, f"vueltas-{viewport['width']}")
    page.locator("[data-do='sheet']").last.click()
    page.wait_for_selector(".sheet-dialog table.sheet")
    sheet = page.inner_text(".sheet-dialog")
    assert "Mano 2" in sheet and "de vueltas" in sheet
    assert str(carry[0]) in sheet and str(carry[1]) in sheet
    _fits(page, ".sheet-dialog")
    _shot(page, f"sheet-{viewport['width']}")
    page.click(".sheet-dialog [data-do='close']")
    _side(page, False)
    # play the deal out: its result counts the carried totals
    _play_until(page, lambda: page.locator(".result-dialog").count() > 0)
    dialog = page.inner_text(".result-dialog")
    assert "Llevan" in dialog or "Fin de la partida" in dialog
    _fits(page, ".result-dialog")
    _shot(page, f"vueltas-result-{viewport['width']}")
    assert not page.errors, page.errors
    page.context.close()


def _arrastre_after_exchange(m: Match) -> bool:
    d = m.deal
    return d.stock_count == 0 and bool(d.exchanges) and len(m.deals) == 1


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_trump_after_the_stock_and_series_progress(browser: Any, start: Callable[..., str],
                                                  data_dir: Path,
                                                  viewport: dict[str, int]) -> None:
    tid, tokens, _m = seeded(data_dir, "guinote_2p", _arrastre_after_exchange)
    base = start()
    page = _page(browser, viewport, base, held(tid, tokens[0], 0, "guinote_2p"))
    page.goto(base + f"/t/{tid}")
    page.wait_for_selector(".hand-card")
    # the upcard was exchanged and drawn: the box names the suit, it shows no card
    assert page.locator(".trumpbox .upcard").count() == 0
    assert "triunfo" in page.inner_text(".trumpbox").lower()
    assert page.locator(".stock-count").count() == 0
    _shot(page, f"arrastre-trump-{viewport['width']}")
    assert not page.errors, page.errors
    page.context.close()


def test_stock_count_beside_the_pack_and_end_of_stock_announced(browser: Any,
                                                               start: Callable[..., str],
                                                               data_dir: Path) -> None:
    tid, tokens, _m = seeded(data_dir, "tute_2p_habanero",
                            lambda m: m.deal.stock_count == 4 and not m.deal.trick)
    base = start()
    page = _page(browser, DESKTOP, base, held(tid, tokens[0], 0, "tute_2p_habanero"))
    page.goto(base + f"/t/{tid}")
    page.wait_for_selector(".stock-count")
    count = page.locator(".stock-count").bounding_box()
    pack = page.locator(".trumpbox .stock").bounding_box()
    assert count and pack and count["y"] >= pack["y"] + pack["height"] - 2  # not printed over it
    seen = []

    def announced() -> bool:
        seen.append(page.inner_text("#announce") + page.inner_text("#live"))
        return "montón" in seen[-1]
    _play_until(page, announced, 60)
    assert any("hay que asistir" in s for s in seen)
    assert not page.errors, page.errors
    page.context.close()


# ------------------------------------------------------------------ cantes and the auction

def test_auction_bids_and_contract_on_the_felt(browser: Any, start: Callable[..., str]) -> None:
    base = start()
    page = _page(browser, DESKTOP, base)
    page.goto(base + "/")
    page.select_option("#q-variant", "tute_subastado")
    page.click("#quick-play")
    page.wait_for_selector(".hand-card", timeout=15_000)
    # nobody named trumps yet: everyone, us included, still has to speak
    assert "sin triunfo todavía" in page.inner_text(".trumpbox").lower()
    said: list[str] = []

    def contract() -> bool:
        said.append(page.inner_text("#announce"))
        return page.locator(".contract:has-text('Contrato')").count() > 0
    _play_until(page, contract, 60)
    text = page.inner_text(".contract")
    assert any(ch.isdigit() for ch in text)
    log = page.locator("details.log")
    log.locator("summary").click()
    # the bids are in the log: a seat's bid or pass, ours included ("Pasas", "Pujas 70")
    page.wait_for_selector(".log-list li", timeout=10_000)
    words = page.inner_text(".log-list").lower()
    assert "puja" in words or "pasa" in words, words
    assert any(s.strip() for s in said)  # the bids were called out on the felt
    _shot(page, "contract")
    assert not page.errors, page.errors
    page.context.close()


def _cante_next(m: Match) -> bool:
    return any(str(a).startswith(("cuarenta", "veinte")) for a in m.legal_actions())


def test_cante_announced_on_the_felt(browser: Any, start: Callable[..., str],
                                     data_dir: Path) -> None:
    tid, tokens, _m = seeded(data_dir, "tute_2p_habanero", _cante_next)
    base = start()
    page = _page(browser, DESKTOP, base, held(tid, tokens[0], 0, "tute_2p_habanero"), pace="1")
    page.goto(base + f"/t/{tid}")
    button = page.locator(".action-btn:has-text('Cantar')")
    button.first.wait_for()
    button.first.click()
    page.wait_for_selector("#announce.show.cante", timeout=5000)
    # the reader's own cante, in its own verb form (the catalogue's "declared.you")
    assert "Cantas las veinte" in page.inner_text("#announce") or "Cantas las cuarenta" in \
        page.inner_text("#announce")
    _shot(page, "cante")
    assert not page.errors, page.errors
    page.context.close()


# ------------------------------------------------------------------ the side panel

def test_last_trick_beside_the_live_one_and_log_order(browser: Any,
                                                      start: Callable[..., str]) -> None:
    base = start()
    page = _page(browser, DESKTOP, base)
    page.goto(base + "/")
    page.select_option("#q-variant", "tute_parejas")
    page.click("#quick-play")
    page.wait_for_selector(".hand-card", timeout=15_000)
    _play_until(page, lambda: page.evaluate("window.__tute.logN") >= 12
                and page.locator(".trick .played").count() > 0, 90)
    page.click("#last-btn")
    page.wait_for_selector(".last-trick")
    assert "Última baza" in page.inner_text(".last-trick")
    # the last trick is shown beside the live one, not instead of it (measured in one go: the
    # bots play on, and the live trick may just have been taken and be empty)
    assert page.evaluate("!!document.querySelector('.last-trick') && "
                         "!!document.querySelector('.trick:not(.last-trick)')")
    page.locator("details.log summary").click()
    values = [int(v) for v in page.evaluate(
        "[...document.querySelectorAll('.log-list li')].map(e => e.value)")]
    assert values == sorted(values, reverse=True) and values[0] >= 10
    pad = page.evaluate(  # (in one go: the log is redrawn as the bots play on)
        "parseFloat(getComputedStyle(document.querySelector('.log-list')).paddingLeft)")
    assert pad >= 28  # room for two-digit numbers
    _shot(page, "last-trick-and-log")
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_long_names_keep_the_score_in_the_panel(browser: Any, start: Callable[..., str],
                                                viewport: dict[str, int]) -> None:
    base = start()
    page = _page(browser, viewport, base)
    page.goto(base + "/")
    page.fill("#name", "Maximiliano Fernández Gó")
    page.select_option("#q-variant", "tute_arrastrado_3p")
    page.click("#quick-play")
    page.wait_for_selector(".hand-card", timeout=15_000)
    cut = page.locator("table.score").evaluate("t => t.scrollWidth - t.clientWidth")
    assert cut <= 1
    _fits(page, "table.score")
    # (measured in one go: the bots play on and the panel is redrawn meanwhile)
    right = page.evaluate("Math.max(...[...document.querySelectorAll('table.score td')]"
                          ".map(c => c.getBoundingClientRect().right))")
    assert right <= viewport["width"] + 1
    _fits(page, ".topbar")
    if viewport is PHONE or viewport["width"] < 500:
        # the trick never covers the other seats' badges
        trick_top, lowest_badge = page.evaluate(
            "[document.querySelector('.trick').getBoundingClientRect().top, Math.max(...[..."
            "document.querySelectorAll('.seat .badge')].map(b => b.getBoundingClientRect()"
            ".bottom))]")
        assert lowest_badge <= trick_top + 2, (lowest_badge, trick_top)
    _shot(page, f"long-name-{viewport['width']}")
    assert not page.errors, page.errors
    page.context.close()


# ------------------------------------------------------------------ phone

@pytest.mark.parametrize("variant", ["tute_arrastrado_3p", "tute_parejas", "guinote"])
def test_phone_tap_targets_at_any_hand_size(browser: Any, start: Callable[..., str],
                                            variant: str) -> None:
    base = start()
    page = _page(browser, PHONE, base)
    page.goto(base + "/")
    page.select_option("#q-variant", variant)
    page.click("#quick-play")
    page.wait_for_selector(".hand-card", timeout=15_000)
    # measured in one go, in the page: the bots play on and the hand is redrawn meanwhile
    # (a locator's elements can be replaced between finding and measuring them)
    rows = page.evaluate(
        "[...document.querySelectorAll('.hand-row')].map(r => [...r.children]"
        ".map(c => c.getBoundingClientRect()).map(b => [b.left, b.right]))")
    assert sum(len(r) for r in rows) >= 6
    for row in rows:
        for (l0, _), (l1, _) in itertools.pairwise(row):
            assert l1 - l0 >= 40 - 0.5, rows  # each card keeps a 40 px strip to tap
        assert row[-1][1] - row[-1][0] >= 40
        assert row[0][0] >= 0 and row[-1][1] <= PHONE["width"]
    _fits(page, ".felt")
    _shot(page, f"phone-hand-{variant}")
    page.locator("#help-btn").click()
    page.wait_for_selector(".help-dialog")
    _fits(page, ".help-dialog")
    assert page.locator(".help-dialog ol.rules li").count() >= 3
    _shot(page, f"phone-help-{variant}")
    page.keyboard.press("Escape")
    page.wait_for_selector(".help-dialog", state="detached")
    assert not page.errors, page.errors
    page.context.close()


def test_phone_result_dialog_fits(browser: Any, start: Callable[..., str],
                                  data_dir: Path) -> None:
    tid, tokens, _m = seeded(data_dir, "tute_parejas",
                            lambda m: len(m.deal.tricks) == 9 and not m.deal.trick,
                            options={"match": {"mode": "series", "deals": 2}})
    base = start()
    page = _page(browser, PHONE, base, held(tid, tokens[0], 0, "tute_parejas"))
    page.goto(base + f"/t/{tid}")
    _play_until(page, lambda: page.locator(".result-dialog").count() > 0, 60)
    # measured once the dialog is drawn whole: CI once read it between two draws
    page.wait_for_selector(".result-dialog #continue-btn", state="visible", timeout=10_000)
    _fits(page, ".result-dialog")
    box = page.locator(".result-dialog").bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"] + 1
    cut = page.locator(".result-dialog .scroll-x").evaluate("e => e.scrollWidth - e.clientWidth")
    assert cut <= 1  # the sides fit as columns: nothing to scroll for
    _shot(page, "phone-deal-result")
    assert not page.errors, page.errors
    page.context.close()


# ------------------------------------------------------------------ words

_CONTRAST = """s => {
  const el = document.querySelector(s);
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  let bg = el, back = null;
  while (bg && !back) {  // the first ancestor with a painted background
    const c = getComputedStyle(bg).backgroundColor;
    if (c && !c.endsWith(", 0)") && c !== "transparent") back = rgb(c);
    bg = bg.parentElement;
  }
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const a = lum(rgb(getComputedStyle(el).color)), b = lum(back || [255, 255, 255]);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


def _contrast(page: Any, selector: str) -> float:
    """The WCAG contrast ratio of an element's text against its background."""
    return float(page.evaluate(_CONTRAST, selector))


def test_messages_in_spanish_and_bad_codes_answered(browser: Any,
                                                   start: Callable[..., str]) -> None:
    base = start()
    page = _page(browser, DESKTOP, base)
    page.goto(base + "/")
    page.fill("#code", "ABC")
    page.click("#code-form button")
    page.wait_for_selector("#join-error:has-text('8 letras')")
    page.fill("#code", "ZZZZZZZZ")
    page.click("#code-form button")
    page.wait_for_selector("#join-error:has-text('ninguna mesa')")
    # readable: WCAG AA (4.5:1) against the paper it lies on (it was pale pink on cream)
    assert _contrast(page, "#join-error") >= 4.5
    # a refusal from the server is shown by its code, in Spanish
    page.select_option("#c-variant", "tute_2p_habanero")
    page.locator("#house-rules summary").click()
    page.fill("#opt-games_to_win", "99")
    page.locator("#opt-games_to_win").dispatch_event("change")
    page.click("#create-btn")
    page.wait_for_selector("#create-error:has-text('No se puede crear esa mesa')")
    _shot(page, "spanish-errors")
    assert not page.errors, page.errors
    page.context.close()


# ------------------------------------------------------------------ partnerships and house rules

def test_house_rules_and_partnerships_from_the_server(browser: Any,
                                                      start: Callable[..., str]) -> None:
    base = start()
    page = _page(browser, DESKTOP, base)
    page.goto(base + "/")
    page.select_option("#c-variant", "tute_cabron")
    assert "rey y un caballo" in page.inner_text("#create .game-desc")
    page.locator("#house-rules summary").click()
    assert page.locator("#house-rules fieldset legend").count() >= 2
    assert "Por defecto" in page.inner_text("#house-rules")
    page.select_option("#opt-players", "4")
    page.wait_for_selector("select[data-seat='3']")
    for i in (1, 2, 3):
        page.select_option(f"select[data-seat='{i}']", "facil")
    page.click("#create-btn")
    page.wait_for_selector(".hand-card", timeout=15_000)
    # four players each for himself: four rows, no "Nosotros"/"Ellos"
    rows = page.locator("table.score tbody tr")
    assert rows.count() == 4
    assert "Nosotros" not in page.inner_text("table.score")
    _shot(page, "cabron-4")
    page.goto(base + "/reglas/guinote")
    page.wait_for_selector("ol.rules li")
    assert "coto" in page.inner_text("ol.rules")
    # every game has its rules page, with the words the server gives with the game
    for vid, word in (("tute_gana_pierde", "101"), ("tute_cabrero", "poroto")):
        page.goto(base + f"/reglas/{vid}")
        page.wait_for_selector("ol.rules li")
        assert word in page.inner_text("ol.rules") and page.inner_text(".game-desc")
        assert "no existe" not in page.inner_text("main")
    assert not page.errors, page.errors
    page.context.close()


# ------------------------------------------------------------------ friends

def _last_trick_of_the_match(m: Match) -> bool:
    """One card in each hand, nothing on the table, and the match ends with this deal."""
    d = m.deal
    if d.trick or any(len(d.hand(s)) != 1 for s in range(d.seats)):
        return False
    rest = copy.deepcopy(m)
    while not rest.is_over() and len(rest.deals) == len(m.deals):
        rest.apply(rest.legal_actions()[0])
    return rest.is_over()


def test_chat_rematch_countdown_spectator_history(browser: Any, start: Callable[..., str],
                                                  data_dir: Path) -> None:
    tid, tokens, _m = seeded(data_dir, "tute_2p_habanero", _last_trick_of_the_match,
                            options={"games_to_win": 1}, humans=2, public=True)
    base = start("--bot-timeout", "40")
    ana = _page(browser, DESKTOP, base, held(tid, tokens[0], 0, "tute_2p_habanero"))
    bea = _page(browser, PHONE, base, held(tid, tokens[1], 1, "tute_2p_habanero"))
    ana.goto(base + f"/t/{tid}")
    bea.goto(base + f"/t/{tid}")
    ana.wait_for_selector(".hand-card")
    bea.wait_for_selector(".hand-card")
    # chat: a quick phrase and a line, each in the reader's language
    ana.locator(".chat summary").click()
    ana.locator(".phrase[data-phrase='suerte']").click()
    _side(bea)
    bea.locator(".chat summary").click()
    bea.wait_for_selector("#chat-log li:has-text('¡Suerte!')")
    bea.fill("#chat-input", "<b>hola</b> equipo")
    bea.press("#chat-input", "Enter")
    ana.wait_for_selector("#chat-log li:has-text('<b>hola</b> equipo')")  # text, not markup
    _shot(bea, "chat-phone")
    # a spectator sees every seat, seat 0 included
    spec = _page(browser, DESKTOP, base)
    spec.goto(base + f"/t/{tid}")
    spec.wait_for_selector(".seat[data-seat='0']")
    assert spec.locator(".seat[data-seat='1']").count() == 1
    assert spec.locator(".hand-card").count() == 0
    # Bea leaves: the others see the countdown before a bot takes her seat
    bea.goto("about:blank")
    ana.wait_for_selector(".seat[data-seat='1'] .status:has-text('un bot juega en')")
    first = ana.inner_text(".seat[data-seat='1'] .status")
    # it counts down
    _wait(ana, lambda: ana.inner_text(".seat[data-seat='1'] .status") != first, 10)
    _shot(ana, "countdown")
    bea.goto(base + f"/t/{tid}")
    bea.wait_for_selector(".hand-card")
    # the last trick, then the match is over; a rematch keeps both players
    for p in (ana, bea):
        p.wait_for_timeout(200)
    _wait(ana, lambda: bool(ana.locator(".hand-card.legal").count()
                            or bea.locator(".hand-card.legal").count()), 20)
    for _ in range(4):
        for p in (ana, bea):
            if p.locator(".hand-card.legal").count():
                _click(p.locator(".hand-card.legal").first)
        if ana.locator("#again-btn").count() and bea.locator("#again-btn").count():
            break
        ana.wait_for_timeout(400)
    ana.wait_for_selector("#again-btn", timeout=20_000)
    bea.wait_for_selector("#again-btn", timeout=20_000)
    _fits(bea, ".result-dialog")
    ana.click("#again-btn")
    ana.wait_for_url(lambda u: f"/t/{tid}" not in u, timeout=15_000)
    ana.wait_for_selector(".hand-card")
    new = ana.url
    bea.click("#again-btn")
    bea.wait_for_url(new, timeout=15_000)
    bea.wait_for_selector(".hand-card")
    assert "Ana" in bea.inner_text(".felt") and "Bea" in ana.inner_text(".felt")
    # the finished game is in each player's history, with the result
    ana.goto(base + "/")
    ana.wait_for_selector("#history .res")
    res = ana.inner_text("#history")
    assert "Ganaste" in res or "Perdiste" in res
    # and the replay steps trick by trick
    ana.locator("#history a:has-text('Ver')").first.click()
    ana.wait_for_selector("#r-ntrick")
    ana.click("#r-ntrick")
    ana.click("#r-ntrick")
    assert "Baza" in ana.inner_text(".side")
    for p in (ana, bea, spec):
        assert not p.errors, p.errors
        p.context.close()


def test_a_rematch_runs_no_countdown_for_a_player_who_has_not_accepted(
        browser: Any, start: Callable[..., str], data_dir: Path) -> None:
    """Ana asks for the rematch first: Bea, still reading the result, is offered it, and the
    new table shows her seat waiting for her, with no countdown before a bot takes it."""
    tid, tokens, _m = seeded(data_dir, "tute_2p_habanero", _last_trick_of_the_match,
                            options={"games_to_win": 1}, humans=2)
    base = start("--bot-timeout", "40")
    ana = _page(browser, DESKTOP, base, held(tid, tokens[0], 0, "tute_2p_habanero"))
    bea = _page(browser, PHONE, base, held(tid, tokens[1], 1, "tute_2p_habanero"))
    for p in (ana, bea):
        p.goto(base + f"/t/{tid}")
        p.wait_for_selector(".hand-card")
    _wait(ana, lambda: bool(ana.locator(".hand-card.legal").count()
                            or bea.locator(".hand-card.legal").count()), 20)
    for _ in range(6):  # the last trick
        for p in (ana, bea):
            if p.locator(".hand-card.legal").count():
                _click(p.locator(".hand-card.legal").first)
        if ana.locator("#again-btn").count() and bea.locator("#again-btn").count():
            break
        ana.wait_for_timeout(300)
    ana.wait_for_selector("#again-btn", timeout=20_000)
    bea.wait_for_selector("#again-btn", timeout=20_000)
    ana.click("#again-btn")
    ana.wait_for_url(lambda u: f"/t/{tid}" not in u, timeout=15_000)
    ana.wait_for_selector(".hand-card")
    # Bea is offered it, and the new table waits for her: no "un bot juega en"
    bea.wait_for_selector("#rematch-offer", timeout=10_000)
    assert "sin reloj ni bot" in bea.inner_text("#rematch-offer")
    status = ".seat[data-seat='1'] .status"
    ana.wait_for_selector(f"{status}:has-text('aún no ha aceptado')")
    ticks = ana.evaluate("() => window.__tute.ticks || 0")  # the page ticks once a second
    ana.wait_for_function(f"() => (window.__tute.ticks || 0) >= {ticks + 2}", timeout=10_000)
    # two ticks later: still no countdown
    assert "un bot juega" not in ana.inner_text(".felt")
    assert ana.evaluate("() => window.__tute.info.seats[1].bot_in") is None
    _shot(ana, "rematch-pending")
    bea.click("#again-btn")
    bea.wait_for_url(ana.url, timeout=15_000)
    bea.wait_for_selector(".hand-card")
    ana.wait_for_function("() => window.__tute.info.seats[1].pending === false")
    _wait(ana, lambda: "aún no ha aceptado" not in ana.inner_text(".felt"), 5)
    for p in (ana, bea):
        assert not p.errors, p.errors
        p.context.close()


def finished(data_dir: Path, variant: str, options: dict[str, Any], seed: int = 3) -> str:
    """Store a match played to its end at random (seats 0 and 1 people, bots elsewhere), as
    the server stores a finished game; its id."""
    rng = random.Random(seed)
    m = Match.new(variant, seed=seed, options=options, first_dealer=1)
    actions: list[tuple[int, str]] = []
    while not m.is_over():
        seat = m.to_move
        a = rng.choice(m.legal_actions())
        m.apply(a)
        actions.append((seat, str(a)))
    seats = [{"kind": "human" if i < 2 else "bot", "name": ("Ana", "Bea", "Paco", "Lola")[i],
              "level": "medio", "token_hash": hash_token(secrets.token_urlsafe(24))}
             for i in range(m.deal.seats)]
    tid = secrets.token_urlsafe(9)
    row = TableRow(id=tid, code="".join(secrets.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
                                        for _ in range(8)),
                   variant=variant, options=json.loads(json.dumps(options_to_json(
                       m.options, m.variant.defaults))),
                   seed=seed, first_dealer=1, seats=seats, host=0, public=False,
                   status="playing", version=0, result=None, created_at=time.time(),
                   finished_at=None)
    store = Store(f"sqlite:///{data_dir / 'tute.sqlite3'}")
    try:
        with store.engine.begin() as conn:
            Store.op_create(row)(conn)
            for v, (seat, a) in enumerate(actions, 1):
                last = v == len(actions)
                Store.op_event(tid, v, "action", seat, a, status="finished" if last else None,
                               result=m.result().to_json() if last else None)(conn)
    finally:
        store.close()
    return tid


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_replay_says_whose_turn_and_builds_the_trick(
        browser: Any, start: Callable[..., str], data_dir: Path,
        viewport: dict[str, int]) -> None:
    """Step by step, the replay says what was just played and whose turn it is; the trick
    grows a card at a time, the newest marked, and the step that finishes it shows it whole
    with its winner named (it used to vanish as its last card was played)."""
    tid = finished(data_dir, "tute_parejas", {"match": {"mode": "series", "deals": 1}})
    base = start()
    replay = httpx.get(base + f"/api/games/{tid}/replay").json()
    frames = replay["frames"]
    names = ["Ana", "Bea", "Paco", "Lola"]
    page = _page(browser, viewport, base)
    page.goto(base + f"/r/{tid}")
    page.wait_for_selector("#r-next")
    assert page.inner_text("#r-turn") == f"Le toca a {names[frames[0]['to_move']]}"
    for k in range(1, 9):  # two whole tricks of four
        page.click("#r-next")
        page.wait_for_function(f"() => document.getElementById('scrub').value === '{k}'")
        f = frames[k]
        played = page.locator(".trick .played")
        assert played.count() == len(f["trick"]), k
        fresh = page.locator(".trick .played.fresh")
        assert fresh.count() == 1 and fresh.get_attribute("data-seat") == str(f["seat"])
        assert page.inner_text("#r-what").startswith(f"{names[f['seat']]} juega ")
        if k % 4 == 0:  # the trick is whole: its winner named, the trick's number kept
            assert len(f["trick"]) == 4 and f["trick_winner"] is not None
            assert page.locator(".trick .played.winner").get_attribute("data-seat") == \
                str(f["trick_winner"])
            assert page.inner_text(".trick-win").startswith(names[f["trick_winner"]])
            assert page.inner_text("#r-trickno") == f"Baza {k // 4}"
        else:
            assert page.locator(".trick-win").count() == 0
            assert page.inner_text("#r-trickno") == f"Baza {k // 4 + 1}"
        assert page.inner_text("#r-turn") == f"Le toca a {names[f['to_move']]}"
        if k == 4:
            _shot(page, f"replay-trick-{viewport['width']}")
    _fits(page, ".felt")
    assert not page.errors, page.errors
    page.context.close()


def test_on_a_phone_the_unread_chat_badge_stays_in_view(browser: Any,
                                                        start: Callable[..., str]) -> None:
    """The phone's chat lies below the hand: a line that comes while playing shows a badge
    fixed in the screen, with the count, that opens the chat where it is."""
    base = start()
    r = httpx.post(base + "/api/tables", json={"variant": "tute_2p_habanero",
                                               "seats": ["you", "open"], "name": "Ana"}).json()
    j = httpx.post(base + f"/api/tables/{r['id']}/join", json={"name": "Bea"}).json()
    ana = _page(browser, DESKTOP, base, held(r["id"], r["token"], 0, "tute_2p_habanero"))
    bea = _page(browser, PHONE, base, held(r["id"], j["token"], 1, "tute_2p_habanero"))
    for p in (ana, bea):
        p.goto(base + f"/t/{r['id']}")
        p.wait_for_selector(".hand-card")
    assert bea.locator("#chat-jump").count() == 0
    ana.locator(".chat summary").click()
    ana.locator(".phrase[data-phrase='suerte']").click()
    ana.locator(".phrase[data-phrase='hola']").click()
    bea.wait_for_selector("#chat-jump:has-text('2')")
    box = bea.locator("#chat-jump").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    # it stays in the screen wherever the page is scrolled
    bea.evaluate("window.scrollTo(0, 0)")
    box = bea.locator("#chat-jump").bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"]
    assert bea.get_attribute("#chat-jump", "aria-label") == "Charla: 2 sin leer"
    _shot(bea, "chat-badge-phone")
    bea.click("#chat-jump")
    bea.wait_for_selector("#chat-log li:has-text('¡Suerte!')")
    assert bea.locator("#chat-jump").count() == 0
    assert bea.locator("#chat-input").is_visible()
    # on a desktop the chat's own badge is in view: no second one
    bea.locator(".chat summary").click()  # closed again: new lines count
    assert ana.locator("#chat-jump").count() == 0 or not ana.locator("#chat-jump").is_visible()
    for p in (ana, bea):
        assert not p.errors, p.errors
        p.context.close()


def test_live_tables_to_watch(browser: Any, start: Callable[..., str]) -> None:
    base = start()
    host = _page(browser, DESKTOP, base)
    host.goto(base + "/")
    host.select_option("#c-variant", "tute_2p_habanero")
    host.select_option("select[data-seat='1']", "facil")
    host.click("#create-btn")
    host.wait_for_selector(".hand-card", timeout=15_000)
    watcher = _page(browser, PHONE, base)
    watcher.goto(base + "/")
    watcher.wait_for_selector("#live-list a:has-text('Mirar')", timeout=15_000)
    watcher.locator("#live-list a:has-text('Mirar')").first.click()
    watcher.wait_for_selector(".seat[data-seat='0']")
    assert "Estás mirando" in watcher.inner_text("#me")
    _shot(watcher, "watching-phone")
    for p in (host, watcher):
        assert not p.errors, p.errors
        p.context.close()


def test_screen_readers_hear_plays_and_legal_cards(browser: Any,
                                                   start: Callable[..., str]) -> None:
    base = start()
    page = _page(browser, DESKTOP, base)
    page.goto(base + "/")
    page.select_option("#q-variant", "tute_2p_habanero")
    page.click("#quick-play")
    page.wait_for_selector("#live")
    # everything the live region says, as a screen reader would hear it
    page.evaluate("window.__heard = []; new MutationObserver(() => window.__heard.push("
                  "document.getElementById('live').textContent)).observe("
                  "document.getElementById('live'), {childList: true, characterData: true, "
                  "subtree: true})")

    def heard_enough() -> bool:
        heard = page.evaluate("window.__heard")
        return any("Puedes jugar" in h for h in heard) and any("juega" in h for h in heard) \
            and any("baza" in h for h in heard)
    _play_until(page, heard_enough, 60)
    assert page.locator("#live[aria-live='polite']").count() == 1
    _wait(page, lambda: page.locator(".hand-card.legal").count() > 0, 30)
    legal = page.locator(".hand-card.legal").first
    assert legal.get_attribute("aria-disabled") is None
    if page.locator(".hand-card.illegal").count():
        assert page.locator(".hand-card.illegal").first.get_attribute("aria-disabled") == "true"
    assert not page.errors, page.errors
    page.context.close()


def test_phone_invite_dialog_fits(browser: Any, start: Callable[..., str]) -> None:
    base = start()
    page = _page(browser, PHONE, base)
    page.goto(base + "/")
    page.fill("#name", "Maximiliano Fernández Gó")
    page.click("#create-btn")  # you and three open seats: the invite dialog
    page.wait_for_selector(".invite .code")
    _fits(page, ".overlay .dialog")
    _fits(page, ".invite")
    cut = page.locator(".overlay .dialog").evaluate("e => e.scrollWidth - e.clientWidth")
    assert cut <= 1
    _shot(page, "phone-invite-360")
    assert not page.errors, page.errors
    page.context.close()


def test_hints_for_everyone_are_chosen_at_creation_and_shown_before_sitting(
        browser: Any, start: Callable[..., str]) -> None:
    """Where other people play, hints need everyone's agreement: the host ticks them when
    creating the table, and whoever opens the invite sees it before sitting down."""
    base = start()
    host = _page(browser, DESKTOP, base)
    host.goto(base + "/")
    host.select_option("#c-variant", "tute_2p_habanero")
    host.check("#c-hints")
    host.click("#create-btn")
    host.wait_for_selector(".invite .code")
    assert "Pistas para todos" in host.inner_text("#table-terms")
    tid = host.evaluate("() => window.__tute.info.id")
    assert host.evaluate("() => window.__tute.info.hints") is True
    guest = _page(browser, PHONE, base)
    guest.goto(base + f"/t/{tid}")
    guest.wait_for_selector("#join-btn")
    assert "Pistas para todos" in guest.inner_text("#table-terms")
    # and a table made without them says so
    host.goto(base + "/")
    host.wait_for_selector("#c-hints")
    assert not host.is_checked("#c-hints")
    host.click("#create-btn")
    host.wait_for_selector("#table-terms")
    assert "Sin pistas" in host.inner_text("#table-terms")
    assert host.evaluate("() => window.__tute.info.hints") is False
    for p in (host, guest):
        assert not p.errors, p.errors
        p.context.close()


def test_the_house_rules_are_shown_before_sitting_and_at_the_table(
        browser: Any, start: Callable[..., str]) -> None:
    """The options a table was made with (those that differ from its game's defaults) are
    worded from the catalogue for whoever opens its invite, before sitting, in the list of
    open tables, and at the table itself (its side panel and its help)."""
    base = start()
    r = httpx.post(base + "/api/tables", json={
        "variant": "tute_2p_habanero", "seats": ["you", "open"], "name": "Ana", "public": True,
        "options": {"tute_dealt_wins_immediately": True, "forty_first": "off"}}).json()
    guest = _page(browser, PHONE, base)
    guest.goto(base + "/")
    guest.wait_for_selector("#house-rules")
    _wait(guest, lambda: "Tute de mano: sí" in guest.inner_text("main"), 15)  # open tables
    guest.goto(base + f"/j/{r['code']}")  # the invite link
    guest.wait_for_selector("#join-btn")
    terms = guest.inner_text("#house-terms")
    assert "Reglas de esta mesa" in terms
    assert "Tute de mano: sí" in terms and "Las cuarenta primero:" in terms, terms
    assert "tute_dealt" not in terms and "forty_first" not in terms  # words, not ids
    _fits(guest, "#house-terms")
    _shot(guest, "house-rules-invite-360")
    guest.fill("#join-name", "Bea")
    guest.click("#join-btn")
    guest.wait_for_selector(".hand-card", timeout=15_000)
    _side(guest)
    assert "Tute de mano: sí" in guest.inner_text("#house-line")
    _side(guest, False)
    guest.click("#help-btn")
    assert "Tute de mano: sí" in guest.inner_text(".help-dialog #house-terms")
    # a table with the game's own rules says so
    plain = httpx.post(base + "/api/tables", json={
        "variant": "tute_2p_habanero", "seats": ["you", "open"], "name": "Ana"}).json()
    guest.goto(base + f"/t/{plain['id']}")
    guest.wait_for_selector("#join-btn")
    assert "sin reglas de la casa" in guest.inner_text("#house-terms")
    assert not guest.errors, guest.errors
    guest.context.close()


# ------------------------------------------------------------------ hints, explain, analysis

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
    # more at once than the seat's bucket holds (hint_burst 3, refilled at 0.2 a second): one
    # is refused whether or not each hint comes back before the next is read, and the page
    # says so in Spanish
    page.evaluate("() => { const T = window.__tute; for (let i = 0; i < 6; i++) "
                  "T.ws.send(JSON.stringify({type: 'hint', ref: 'burst' + i})); }")
    page.wait_for_selector(".msg:has-text('Demasiado deprisa')", timeout=20_000)
    # playing the card passes the turn: the hint goes
    hinted.click()
    page.wait_for_selector("#hint-line", state="detached", timeout=20_000)
    page.wait_for_selector("#hint-btn", state="detached", timeout=20_000)
    assert not page.errors, page.errors
    page.context.close()


def test_the_first_hint_is_prepared_while_the_game_starts(browser: Any,
                                                          start: Callable[..., str]) -> None:
    """A game against bots starts the bot pool loading the hints' search in the background
    (the server's health says when it is ready), so that the first hint, asked once it is,
    waits for no compilation."""
    pytest.importorskip("numba")
    base = start("--warm-hints")
    page = _page(browser, DESKTOP, base)
    assert page.request.get(base + "/api/health").json()["hints"] == "cold"
    page.goto(base + "/")
    page.select_option("#q-variant", "tute_2p_habanero")
    page.click("#quick-play")
    page.wait_for_selector(".hand-card", timeout=15_000)
    # no hint asked yet: the search is being prepared, or is ready
    _wait(page, lambda: page.request.get(base + "/api/health").json()["hints"] == "ready", 120,
          200)
    page.wait_for_function("() => window.__tute.state.deal.to_move === window.__tute.seat",
                           timeout=20_000)
    page.click("#hint-btn")
    page.wait_for_selector("#hint-line", timeout=40_000)
    assert page.inner_text("#hint-line").startswith("Yo jugaría:")
    assert not page.errors, page.errors
    page.context.close()


def _offers(prefixes: tuple[str, ...]) -> Callable[[Match], bool]:
    """Seat 0 to move with a non-card action of one of these kinds among its choices."""
    def until(m: Match) -> bool:
        return m.to_move == 0 and any(str(a).startswith(prefixes) for a in m.legal_actions())
    return until


@pytest.mark.parametrize(("variant", "kinds"), [
    pytest.param("tute_parejas", ("veinte:", "cuarenta:"), id="cante"),
    pytest.param("guinote", ("cambio:",), id="exchange")])
def test_a_hint_can_name_a_cante_or_an_exchange(browser: Any, start: Callable[..., str],
                                                data_dir: Path, variant: str,
                                                kinds: tuple[str, ...]) -> None:
    """Where a cante or the exchange is on offer beside the cards, the hint is one of the
    choices and the page marks that one: the action's button, or the card."""
    tid, tokens, m = seeded(data_dir, variant, _offers(kinds))
    base = start()
    page = _page(browser, PHONE, base, held(tid, tokens[0], 0, variant))
    page.goto(base + f"/t/{tid}")
    page.wait_for_selector(".action-btn")
    page.click("#hint-btn")
    page.wait_for_selector("#hint-line", timeout=60_000)
    hint = page.evaluate("() => window.__tute.hint")
    legal = [str(a) for a in m.legal_actions()]
    assert hint["action"] in legal
    marked = page.evaluate("""() => [...document.querySelectorAll('.hinted')].map(e =>
        e.dataset.action || e.dataset.card)""")
    assert marked == [hint["action"]]
    if not CARD.match(hint["action"]):  # the button's own words are in the hint's line
        label = page.inner_text(".action-btn.hinted")
        assert label and label in page.inner_text("#hint-line")
    if kinds[0] == "veinte:":  # singing now is worth its points: the search sings
        assert hint["action"].startswith(kinds)
    _fits(page, "#hint-line")
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
    # the duty is always in view, worded from the server's duty (tute.refusals.duty)
    duty = page.inner_text("#duty")
    assert re.search(r"asistir|montar|fallar", duty, re.I), duty
    assert page.evaluate("() => window.__tute.state.deal.duty.code") in (
        "follow", "beat", "trump", "overtrump")
    page.click("#explain-btn")
    page.wait_for_selector("#explain .why")
    # each greyed card has the engine's reason (the refusal catalogue's Spanish words)
    refusals = page.evaluate("() => window.__tute.state.deal.refusals")
    legal = page.evaluate("() => window.__tute.state.deal.legal_actions")
    named = {c for r in refusals for c in r["cards"]}
    assert named == {c for c in m.deal.hand(0).to_list() if c not in legal}
    assert all(r["code"].startswith("must_") for r in refusals)
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
    _wait_text(page, "#explain .why", "must")
    assert re.search(r"follow|beat|trump", page.inner_text("#duty"), re.I)
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
    base = start("--analysis-worlds", "0")  # the search measure: test_browser_analysis.py
    page = _page(browser, PHONE, base, held(tid, tokens[0], 0, "tute_parejas"))
    # while the game is played there is no analysis: it would show every hand
    early = page.request.get(base + f"/api/games/{tid}/analysis")
    assert early.status == 409 and early.json()["error"] == "not_finished"
    page.goto(base + f"/t/{tid}")
    _play_until(page, lambda: page.locator("#analysis-btn").count() > 0, 90)
    page.click("#analysis-btn")
    page.wait_for_url(f"**/a/{tid}")
    page.wait_for_selector("#margin-chart", timeout=60_000)
    assert "viendo todas las cartas" in page.inner_text("#measure-note")
    note = page.inner_text("#measure-note")  # and why the search measure is not here
    assert "no calcula lo que cada jugador" in note and "pimc" not in note
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


def test_analysis_of_a_game_without_partners_draws_a_line_per_player(
        browser: Any, start: Callable[..., str], data_dir: Path) -> None:
    tid, tokens, _m = seeded(data_dir, "tute_arrastrado_3p",
                            lambda m: len(m.deal.tricks) == 11 and not m.deal.trick,
                            options={"loss_limit": 1})
    base = start("--analysis-worlds", "0")
    page = _page(browser, DESKTOP, base, held(tid, tokens[0], 0, "tute_arrastrado_3p"))
    page.goto(base + f"/t/{tid}")
    _play_until(page, lambda: page.locator("#analysis-btn").count() > 0, 90)
    page.goto(base + f"/a/{tid}")
    page.wait_for_selector("#margin-chart", timeout=60_000)
    data = page.evaluate(f"() => fetch('/api/games/{tid}/analysis').then(r => r.json())")
    movers = {d["seat"] for d in data["decisions"] if d["deal"] == 0 and d["dd_loss"] is not None}
    assert page.locator("#margin-chart polyline").count() == len(movers) >= 2
    assert page.locator("#analysis-summary tbody tr").count() == 3
    assert "Tantos de ventaja esperados de cada jugador" in page.inner_text("#analysis")
    _shot(page, "analysis-arrastrado")
    assert not page.errors, page.errors
    page.context.close()


# ------------------------------------------------------------------ the turn clock

def test_a_table_with_a_turn_clock_counts_down_the_player_to_move(
        browser: Any, start: Callable[..., str]) -> None:
    base = start()
    page = _page(browser, PHONE, base)
    page.goto(base + "/")
    page.select_option("#c-variant", "tute_2p_habanero")
    page.select_option("select[data-seat='1']", "medio")
    page.select_option("#c-clock", "30")
    page.click("#create-btn")
    page.wait_for_selector(".hand-card", timeout=15_000)
    info = page.evaluate("() => window.__tute.info")
    assert info["clock"] == 30
    # on the player's own turn the badge shows the seconds left, counting down
    page.wait_for_function("() => window.__tute.state.deal.to_move === window.__tute.seat",
                           timeout=20_000)
    # (the stopwatch drawn by the page: a font may lack the glyph)
    clock = page.locator(".clock:has(svg.ic)").first
    clock.wait_for(timeout=5_000)
    first = int(clock.inner_text().split()[0])
    assert 20 <= first <= 30
    _wait(page, lambda: int(clock.inner_text().split()[0]) < first, 10)  # it counts down
    _fits(page, ".felt")
    assert not page.errors, page.errors
    page.context.close()


def test_when_the_clock_runs_out_the_table_says_the_bot_played_for_you(
        browser: Any, start: Callable[..., str]) -> None:
    """The server tells the update a bot made for a seat whose clock ran out (``stand_in``);
    the page says so to that player, in the catalogue's words, until they play again. The
    player has the table open on a desktop and on a phone: one clock's ten seconds serve
    both layouts."""
    base = start()
    r = httpx.post(base + "/api/play", json={"variant": "tute_2p_habanero", "level": "facil",
                                             "clock": 10}).json()  # the shortest clock
    seats = held(r["id"], r["token"], r["seat"], "tute_2p_habanero")
    pages = [_page(browser, viewport, base, seats) for viewport in (DESKTOP, PHONE)]
    for page in pages:
        page.goto(base + f"/t/{r['id']}")
        page.wait_for_selector(".hand-card", timeout=15_000)
        page.wait_for_function("() => window.__tute.state.deal.to_move === window.__tute.seat",
                               timeout=20_000)
        assert page.locator("#stand-in").count() == 0
    # the player does nothing: ten seconds later the bot plays that decision for them
    for page in pages:
        page.wait_for_selector("#stand-in", timeout=30_000)
        assert page.inner_text("#stand-in") == "El bot jugó por ti"
        _side(page)
        page.locator(".log summary").click()
        assert "El bot jugó por ti" in page.inner_text(".log-list")
        _side(page, False)
        _fits(page, "#stand-in")
        _shot(page, f"stand-in-{page.viewport_size['width']}")
    # the player's own next play (from the phone) takes the line away on both
    _ready(pages[1])
    _click(pages[1].locator(".hand-card.legal").first)
    for page in pages:
        page.wait_for_selector("#stand-in", state="detached", timeout=15_000)
        assert not page.errors, page.errors
        page.context.close()


def test_the_goal_is_worded_by_the_servers_catalogue(browser: Any,
                                                     start: Callable[..., str]) -> None:
    """One word table per language: the page words the match goal from GET /api/messages (as
    tute.i18n.goal_text does), not from words of its own."""
    from tute.i18n import goal_text
    from tute.match import Match

    base = start()
    page = _page(browser, DESKTOP, base)
    page.goto(base + "/")
    page.select_option("#q-variant", "guinote")
    page.click("#quick-play")
    page.wait_for_selector(".hand-card", timeout=15_000)
    want = goal_text("es", Match.new("guinote", seed=1).goal_info())
    page.wait_for_selector(f"p.goal:has-text('{want}')", timeout=10_000)
    assert not page.errors, page.errors
    page.context.close()


def test_a_lobby_redraw_between_press_and_release_keeps_the_click(
        browser: Any, start: Callable[..., str]) -> None:
    """The lobby redraws itself when its lists change (checked every 5 s). A redraw between a
    press and its release swapped the button under the pointer, and the click was lost: a
    "Crear mesa" that did nothing. The redraw now waits for the release."""
    base = start()
    page = _page(browser, DESKTOP, base)
    page.goto(base + "/")
    page.wait_for_selector("#create-btn")
    page.fill("#name", "Ana")
    page.locator("#create-btn").scroll_into_view_if_needed()
    box = page.locator("#create-btn").bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    # another player opens a public table: the lobby's next look at the lists finds it
    r = httpx.post(base + "/api/tables", json={
        "variant": "tute_parejas", "seats": ["you", "open", "open", "open"], "name": "Eva",
        "public": True}, timeout=10)
    assert r.status_code == 200, r.text
    # the lobby's next look at the lists found Eva's table and held its redraw back
    page.wait_for_function("() => window.__tute.lobby.owed && window.__tute.lobby.open"
                           ".some(t => t.seats.some(s => s.name === 'Eva'))", timeout=20_000)
    page.mouse.up()
    page.wait_for_selector(".invite .code", timeout=10000)
    page.goto(base + "/")  # and the held-back redraw was made: Eva's table is listed
    page.wait_for_selector("text=Eva", timeout=10000)
    assert not page.errors, page.errors
    page.context.close()


# ------------------------------------------------------------------ who played each card

def test_four_seat_subastado_shows_every_card_on_the_seat_that_played_it(
        browser: Any, start: Callable[..., str], data_dir: Path) -> None:
    """With four at the table the dealer sits out, so the seat after a player is not always
    the next number: the page shows each card of every trick on the seat the server says
    played it (it counted seats from the leader, and put 39 cards in 60 on the wrong seat)."""
    tid, tokens, start_match = seeded(data_dir, "tute_subastado", lambda m: m.to_move == 0,
                                      options={"seats": 4, "match_deals": 1})
    stored = sum(len(d.actions) for d in start_match.deals)  # the version at the restart
    base = start()
    page = _page(browser, DESKTOP, base, held(tid, tokens[0], 0, "tute_subastado"))
    page.goto(base + f"/t/{tid}")
    page.wait_for_selector(".hand-card", timeout=15_000)
    shown: set[tuple[str, str]] = set()
    first = page.inner_text(".goal b")  # the deal being played: the first of the match

    def done() -> bool:
        if page.inner_text(".goal b") != first:
            return True  # the next deal: the first one's tricks were all seen
        button = page.locator("#last-btn[aria-expanded='false']:not([disabled])")
        if button.count():
            _click(button)  # the last trick, beside the one in play
        seen = page.evaluate(
            "() => [document.querySelector('.goal b')?.textContent, [...document."
            "querySelectorAll('.last-trick figure')].map(f => [f.querySelector('[data-card]')"
            ".dataset.card, f.querySelector('figcaption').textContent])]")
        if seen[0] == first:
            shown.update(tuple(p) for p in seen[1])
        return False
    _play_until(page, done, 120)
    # who played what, from the server's own events (a spectator's, since the restart)
    from websockets.sync.client import connect

    names = ["Ana", "Bot 2", "Bot 3", "Bot 4"]
    truth: dict[str, str] = {}
    with connect(base.replace("http", "ws") + f"/ws/{tid}") as ws:
        ws.send(json.dumps({"type": "hello", "since": stored}))
        welcome = json.loads(ws.recv())
    for u in welcome["missed"] or []:
        for e in u["events"]:
            if e["e"] == "DealEnded":
                break
            if e["e"] == "CardPlayed":
                truth[e["card"]] = names[e["seat"]]
        else:
            continue
        break  # the first deal's cards only
    seen = [(c, name) for c, name in shown if c in truth]
    assert len(seen) >= 24  # most tricks were seen in the panel
    wrong = [(c, name, truth[c]) for c, name in seen if truth[c] != name]
    assert not wrong, wrong
    assert not page.errors, page.errors
    page.context.close()


def test_the_desktop_lobby_uses_its_width(browser: Any, start: Callable[..., str]) -> None:
    """At 1280x800 the lobby's cards fill its width: playing now sits beside the lessons
    (no card alone in a row of empty space), and no card is stretched to a neighbour's
    height."""
    base = start()
    page = _page(browser, DESKTOP, base)
    page.goto(base + "/")
    page.wait_for_selector("#learn")
    boxes = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        '.lobby-grid > section')].map((s, i) => { const r = s.getBoundingClientRect();
        return [s.id || 'card' + i, [r.left, r.top, r.right, r.bottom, s.scrollHeight]]; }))""")
    quick, learn = boxes["quick"], boxes["learn"]
    assert abs(quick[1] - learn[1]) < 2, (quick, learn)  # one row
    grid = page.locator(".lobby-grid").bounding_box()
    assert grid is not None and grid["width"] >= 0.9 * DESKTOP["width"]
    row_end = max(b[2] for b in boxes.values() if abs(b[1] - quick[1]) < 2)
    assert row_end >= grid["x"] + grid["width"] - 2  # the first row reaches the right edge
    # the join card is as tall as what it holds, not as the creation form beside it
    join = page.locator("#code-form").evaluate("f => f.closest('section').getBoundingClientRect()"
                                               ".height")
    create = page.locator("#create").bounding_box()
    assert create is not None and join < create["height"] / 2
    _shot(page, "lobby-1280")
    assert not page.errors, page.errors
    page.context.close()


def test_the_lobby_offers_lengths_the_match_keeps(browser: Any, start: Callable[..., str]) -> None:
    """Arrastrado's "Duración" offers its own goal (lost games), and the shortest one is the
    table's: it used to offer "a 1 juegos" and play on until someone lost 10."""
    base = start()
    page = _page(browser, DESKTOP, base)
    page.goto(base + "/")
    page.select_option("#q-variant", "tute_arrastrado_3p")
    labels = page.eval_on_selector_all("#q-length option", "os => os.map(o => o.textContent)")
    assert len(labels) >= 2 and all("perd" in x for x in labels), labels
    page.select_option("#q-length", index=len(labels) - 1)
    page.click("#quick-play")
    page.wait_for_url("**/t/*")
    tid = page.url.rsplit("/", 1)[1]
    info = httpx.get(base + f"/api/tables/{tid}").json()
    assert info["options"].get("loss_limit") == 1, info["options"]
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize("variant", ["tute_cabron", "tute_arrastrado_3p", "tute_subastado"])
def test_every_game_says_how_a_deal_ended(browser: Any, start: Callable[..., str],
                                          data_dir: Path, variant: str) -> None:
    """The end-of-deal dialog says what the deal decided in its game's terms (who lost a
    game, who paid, a contract made or failed) as the server words it: cabrón and arrastrado
    once said nothing at all."""
    tid, tokens, _m = seeded(
        data_dir, variant,
        lambda m: len(m.deal.tricks) == m.deal.total_tricks - 1 and not m.deal.trick)
    base = start()
    page = _page(browser, DESKTOP, base, held(tid, tokens[0], 0, variant))
    page.goto(base + f"/t/{tid}")
    _play_until(page, lambda: page.locator(".result-dialog").count() > 0, 60)
    page.wait_for_selector(".result-dialog #continue-btn", state="visible", timeout=10_000)
    said = page.inner_text(".result-dialog .winner").strip()
    assert said, "the deal's ending says nothing"
    assert re.search(r"Pierden? un juego|Pagos|Contrato|Gana|Empate|Nadie|sin ganador", said), said
    assert not page.errors, page.errors
    page.context.close()


# ------------------------------------------------------------------ the phone table is a table

PHONE_390 = {"width": 390, "height": 844}


def _one_screen(page: Any) -> None:
    """During play the whole table (the seats, the felt, the hand, the buttons) lies in the
    viewport: the page has nothing to scroll, and each card of the hand is a 44 px target."""
    height, inner, cards = page.evaluate(
        "[document.scrollingElement.scrollHeight, innerHeight, [...document.querySelectorAll("
        "'.hand-card')].map(c => { const r = c.getBoundingClientRect(); "
        "return [r.left, r.right, r.top, r.bottom]; })]")
    assert height <= inner + 1, (height, inner)
    assert cards
    rows: dict[int, list[float]] = {}
    for left, right, top, bottom in cards:
        assert top >= 0 and bottom <= inner + 1, (top, bottom, inner)
        rows.setdefault(round(top / 10), []).append(left)
        assert right - left >= 44, cards
    for lefts in rows.values():  # the strip of each card left uncovered by the next one
        for a, b in itertools.pairwise(sorted(lefts)):
            assert b - a >= 44 - 0.5, cards
    for sel in (".felt", "#hand", ".seat .badge", ".trick"):
        box = page.evaluate("s => { const r = document.querySelector(s).getBoundingClientRect();"
                            " return [r.top, r.bottom]; }", sel)
        assert box[0] >= 0 and box[1] <= inner + 1, (sel, box, inner)


@pytest.mark.parametrize("viewport", [pytest.param(PHONE_390, id="390"),
                                      pytest.param(PHONE, id="360")])
@pytest.mark.parametrize("variant", ["tute_parejas", "tute_2p_habanero"])
def test_the_phone_table_fits_one_screen_during_play(browser: Any, start: Callable[..., str],
                                                      data_dir: Path, viewport: dict[str, int],
                                                      variant: str) -> None:
    tid, tokens, _m = seeded(data_dir, variant, lambda m: len(m.deal.tricks) == 1)
    base = start()
    page = _page(browser, viewport, base, held(tid, tokens[0], 0, variant))
    page.goto(base + f"/t/{tid}")
    _ready(page)
    page.wait_for_selector(".score-chip")
    _shot(page, f"one-screen-{variant}-{viewport['width']}")
    _one_screen(page)
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize("viewport", [pytest.param(PHONE_390, id="phone"),
                                      pytest.param(DESKTOP, id="desktop")])
def test_the_other_hands_are_fans_of_backs_counted_by_the_server(
        browser: Any, start: Callable[..., str], data_dir: Path, viewport: dict[str, int]) -> None:
    tid, tokens, _m = seeded(data_dir, "tute_parejas", lambda m: len(m.deal.tricks) == 2)
    base = start()
    page = _page(browser, viewport, base, held(tid, tokens[0], 0, "tute_parejas"))
    page.goto(base + f"/t/{tid}")
    _ready(page)
    # measured in one go with the state drawn (the bots play on meanwhile)
    seats = page.evaluate(
        "[...document.querySelectorAll('#felt .seat')].map(s => {"
        " const f = s.querySelector('.fan'); const r = f ? f.getBoundingClientRect() : null;"
        " return [Number(s.dataset.seat),"
        " f ? f.querySelectorAll('.back').length : -1, s.querySelector('.count')?.textContent,"
        " r ? [r.width, r.height] : null, window.__tute.state.deal.hand_sizes]; })")
    assert len(seats) == 3
    for seat, backs, count, box, sizes in seats:
        assert backs == sizes[seat] and count == str(sizes[seat]), seats
        assert box and box[0] >= 12 and box[1] >= 12, seats  # drawn, on a phone too
    _shot(page, f"fans-{viewport['width']}")
    assert not page.errors, page.errors
    page.context.close()


def _second_deal_starts(m: Match) -> bool:
    return len(m.deals) == 2 and not m.deal.tricks and not m.deal.trick


_DEALT = """() => {
  const T = window.__tute, card = document.querySelector('#hand .hand-card.legal');
  if (!T || !card || !T.dealt) return null;
  const r = card.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.bottom - 12)?.closest('.hand-card');
  const moving = [...document.querySelectorAll('#hand .card-svg')]
    .reduce((k, el) => k + el.getAnimations().filter(a => a.playState === 'running').length, 0);
  return {deal: T.dealt.deal, started: T.dealt.moving, moving, card: card.dataset.card,
          hit: hit === card, events: getComputedStyle(card).pointerEvents};
}"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_deal_is_dealt_and_its_cards_play_at_once(browser: Any, start: Callable[..., str],
                                                    data_dir: Path, motion: str) -> None:
    """The deal comes in as an animation (none with reduced motion) that delays nothing: the
    first legal card, while its picture is still moving, is hit by the pointer and plays."""
    variant = "tute_2p_habanero"
    tid, tokens, m = seeded(data_dir, variant, _second_deal_starts, humans=2)
    me = m.to_move
    assert me is not None
    base = start()
    page = _page(browser, PHONE_390, base, held(tid, tokens[me], me, variant), motion=motion)
    page.goto(base + f"/t/{tid}")
    # read in the first frame where a legal card is drawn (polled every animation frame)
    seen = page.wait_for_function(_DEALT, timeout=15_000).json_value()
    assert seen["deal"] == 2, seen
    if motion == "reduce":
        assert seen["started"] == 0 and seen["moving"] == 0, seen
    else:
        assert seen["started"] > 0 and seen["moving"] > 0, seen
    assert seen["hit"] and seen["events"] != "none", seen
    # at once, while the picture moves: the card itself stands still and nothing covers it
    # (playwright's click checks both, where the card is now: the felt above may have grown)
    page.locator(f"#hand .hand-card[data-card='{seen['card']}']").click(timeout=3000)
    # played: on the felt, out of the hand
    _wait(page, lambda: page.evaluate(
        "c => !!document.querySelector(`.trick .played .card[data-card='${c}']`) && "
        "!document.querySelector(`#hand .hand-card[data-card='${c}']`)", seen["card"]), 10)
    assert not page.errors, page.errors
    page.context.close()


_SPY = "() => { window.__sounds = []; window.__tute.blip = (k) => window.__sounds.push(k); }"


def _play_one(page: Any) -> str:
    """Play the first legal card; its name once it lies on the felt."""
    _ready(page)
    card = page.evaluate("document.querySelector('#hand .hand-card.legal').dataset.card")
    page.locator(f"#hand .hand-card[data-card='{card}']").click()
    _wait(page, lambda: not page.locator(f"#hand .hand-card[data-card='{card}']").count())
    return str(card)


def test_sounds_are_off_until_turned_on_and_remembered(browser: Any, start: Callable[..., str],
                                                       data_dir: Path) -> None:
    variant = "tute_2p_habanero"
    tid, tokens, _m = seeded(data_dir, variant, lambda m: len(m.deal.tricks) == 1)
    base = start()
    page = _page(browser, PHONE_390, base, held(tid, tokens[0], 0, variant))
    page.goto(base + f"/t/{tid}")
    page.wait_for_selector("#sound-btn[aria-pressed='false']")
    assert page.get_attribute("#sound-btn", "aria-label") == "Sonido"
    assert page.evaluate("localStorage.getItem('tute.sound')") is None
    page.evaluate(_SPY)
    _play_one(page)
    # the trick played out (the bot answered and someone took it): not a sound
    _wait(page, lambda: page.evaluate("window.__tute.state.deal.tricks.length") >= 2)
    assert page.evaluate("window.__sounds") == []
    page.click("#sound-btn")
    page.wait_for_selector("#sound-btn[aria-pressed='true']")
    assert page.evaluate("localStorage.getItem('tute.sound')") == "on"
    page.reload()
    page.wait_for_selector("#sound-btn[aria-pressed='true']")
    page.evaluate(_SPY)
    _play_one(page)
    # a blip for the card, and one for the trick once it is taken
    _wait(page, lambda: {"card", "trick"} <= set(page.evaluate("window.__sounds")))
    assert not page.errors, page.errors
    page.context.close()


def test_the_phone_sheet_has_the_sound_toggle_one_setting_with_the_top_bar(
        browser: Any, start: Callable[..., str], data_dir: Path) -> None:
    """On a phone the sounds' toggle is in the side sheet (opened beside the score chip) as
    well as in the top bar: one setting, so either one turns both, and it is remembered. A
    desktop keeps its one toggle in the top bar."""
    variant = "tute_2p_habanero"
    tid, tokens, _m = seeded(data_dir, variant, lambda m: len(m.deal.tricks) == 1)
    base = start()
    page = _page(browser, PHONE_390, base, held(tid, tokens[0], 0, variant))
    page.goto(base + f"/t/{tid}")
    page.wait_for_selector("#sound-btn[aria-pressed='false']")
    _side(page)
    toggle = page.locator("#side-col #side-sound")
    toggle.wait_for(state="visible")
    box = toggle.bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= PHONE_390["height"], box
    assert box["height"] >= 40 and box["width"] >= 44, box  # a thumb's target
    assert toggle.get_attribute("aria-label") == "Sonido" and "Sonido" in toggle.inner_text()
    assert toggle.get_attribute("aria-pressed") == "false"
    toggle.click()
    page.wait_for_selector("#side-sound[aria-pressed='true']")
    assert page.get_attribute("#sound-btn", "aria-pressed") == "true"
    assert page.evaluate("localStorage.getItem('tute.sound')") == "on"
    _shot(page, "sound-in-sheet-390")
    page.reload()
    page.wait_for_selector("#sound-btn[aria-pressed='true']")
    _side(page)
    page.wait_for_selector("#side-sound[aria-pressed='true']", state="visible")
    page.click("#sound-btn")  # the top bar's turns the sheet's off
    page.wait_for_selector("#side-sound[aria-pressed='false']")
    assert page.get_attribute("#sound-btn", "aria-pressed") == "false"
    assert page.evaluate("localStorage.getItem('tute.sound')") == "off"
    assert not page.errors, page.errors
    page.context.close()
    desk = _page(browser, DESKTOP, base, held(tid, tokens[0], 0, variant))
    desk.goto(base + f"/t/{tid}")
    desk.wait_for_selector(".topbar #sound-btn", state="visible")
    desk.wait_for_selector("#side .score")
    assert not desk.locator("#side-sound").is_visible()
    assert not desk.errors, desk.errors
    desk.context.close()


# Where each deal animation of the other seats' backs started, read in the first frame where a
# legal card is drawn: each back's animation is finished to measure where it lies, and its
# first keyframe's translation (in the back's own pixels: a fan may be drawn smaller) added.
_DEALT_SEATS = """() => {
  const T = window.__tute;
  if (!T || !T.dealt || !document.querySelector('#hand .hand-card.legal')) return null;
  const any = document.getAnimations().filter(a => a.id === 'deal').length;
  const hand = [...document.querySelectorAll('#hand .card-svg')]
    .filter(el => el.getAnimations().some(a => a.id === 'deal')).length;
  const seats = {};
  for (const seat of document.querySelectorAll('#felt .seat')) {
    const backs = [...seat.querySelectorAll('.fan .back')];
    seats[seat.dataset.seat] = {backs: backs.length, starts: backs.map(el => {
      const a = el.getAnimations().find(x => x.id === 'deal');
      if (!a) return null;
      const kf = a.effect.getKeyframes()[0].transform;
      const m = /translate\\(([-\\d.]+)px,\\s*([-\\d.]+)px\\)/.exec(kf);
      a.finish();
      const r = el.getBoundingClientRect(), k = r.width / el.offsetWidth;
      return m ? [r.left + r.width / 2 + Number(m[1]) * k, r.top + r.height / 2 + Number(m[2]) * k]
        : 'not a translation';
    })};
  }
  const f = document.querySelector('#felt .felt').getBoundingClientRect();
  return {deal: T.dealt.deal, moving: T.dealt.moving, from: T.dealt.from, dealt: T.dealt.seats,
          seats, hand, any, cards: document.querySelectorAll('#hand .hand-card').length,
          felt: [f.left, f.top, f.right, f.bottom], sizes: T.state.deal.hand_sizes};
}"""


@pytest.mark.parametrize(("variant", "viewport", "motion"), [
    pytest.param("tute_parejas", PHONE_390, "no-preference", id="parejas-390"),
    pytest.param("tute_2p_habanero", DESKTOP, "no-preference", id="two-1280"),
    pytest.param("tute_parejas", DESKTOP, "reduce", id="parejas-reduced")])
def test_a_deal_flies_from_the_pack_to_every_seat(
        browser: Any, start: Callable[..., str], data_dir: Path, variant: str,
        viewport: dict[str, int], motion: str) -> None:
    """A new deal is dealt to every seat: the player's hand and each other seat's fan of
    backs, every card flying from the pack on the felt; nothing moves with reduced motion.
    (Every seat is a person's, so that no play redraws the felt while it is read.)"""
    names = ("Ana", "Bea", "Paco", "Lola")
    seats = 4 if variant == "tute_parejas" else 2
    tid, tokens, m = seeded(data_dir, variant, _second_deal_starts, humans=seats, names=names)
    me = m.to_move
    assert me is not None
    base = start()
    page = _page(browser, viewport, base, held(tid, tokens[me], me, variant), motion=motion)
    page.goto(base + f"/t/{tid}")
    seen = page.wait_for_function(_DEALT_SEATS, timeout=15_000).json_value()
    assert seen["deal"] == 2, seen
    others = {str(s) for s in range(seats) if s != me}
    assert set(seen["seats"]) == others, seen
    if motion == "reduce":
        assert seen["moving"] == 0 and seen["any"] == 0 and seen["dealt"] == {}, seen
    else:
        # every seat is dealt to, its every card: the hand's pictures and the others' backs
        assert seen["dealt"] == {str(s): seen["sizes"][s] for s in range(seats)}, seen
        assert seen["hand"] == seen["cards"] == seen["sizes"][me], seen
        x, y = seen["from"]["x"], seen["from"]["y"]
        left, top, right, bottom = seen["felt"]
        assert left <= x <= right and top <= y <= bottom, seen  # the pack lies on the felt
        for s in others:
            got = seen["seats"][s]
            assert got["backs"] == seen["sizes"][int(s)] > 0, (s, seen)
            for start_at in got["starts"]:
                assert isinstance(start_at, list), (s, seen)
                assert abs(start_at[0] - x) <= 2 and abs(start_at[1] - y) <= 2, (s, start_at, seen)
    assert not page.errors, page.errors
    page.context.close()
