"""The analysis view (/a/<id>) in a real browser, on a desktop and a 360 px phone: opened from
the end-of-game dialog, it shows the double-dummy measure at once, the search's progress, and
then upgrades itself to the search measure (mistakes by what each player could know, the
double-dummy loss beside, a reason for each better action, a summary by both measures). The
server's search gets a tiny budget (2 worlds a decision) so the test stays quick. A cached
analysis opens again in well under a second.

Screenshots go to $TUTE_ARTIFACTS, else to artifacts/ under the run's pytest temporary folder."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .test_browser import ARTIFACTS, CHROMIUM
from .test_browser_table import (
    DESKTOP,
    PHONE,
    _contrast,
    _fits,
    _page,
    _play_until,
    held,
    seeded,
)

pytestmark = [
    pytest.mark.timeout(240),
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="browser tests need Debian's chromium at /usr/bin/chromium"),
]

# every text the progress line shows, as the page draws it (it may be gone by the time a test
# looks: with a tiny budget the search takes a second or two)
WATCH = """(() => { window.__progress = [];
  new MutationObserver(() => { const p = document.getElementById('search-progress');
    if (p && !p.hidden) window.__progress.push(p.textContent.trim()); })
  .observe(document, {childList: true, subtree: true, characterData: true}); })()"""

# the page's state in one go (it redraws while the search comes)
STATE = """() => { const q = (s) => document.querySelector(s);
  const rows = (s) => [...document.querySelectorAll(s + ' tbody tr')].map(r =>
    [...r.children].map(c => c.textContent.trim()));
  const wrap = q('#analysis-summary') && q('#analysis-summary').parentElement;
  return {measure: q('#analysis') && q('#analysis').dataset.measure,
          note: q('#measure-note') && q('#measure-note').textContent,
          progressHidden: !q('#search-progress') || q('#search-progress').hidden,
          mistakes: [...document.querySelectorAll('#mistakes li')].map(li => li.textContent),
          dots: document.querySelectorAll('#margin-chart .mistake-dot').length,
          ddDots: document.querySelectorAll('#margin-chart .dd-dot').length,
          lines: document.querySelectorAll('#margin-chart polyline').length,
          summary: rows('#analysis-summary'),
          cut: wrap ? wrap.scrollWidth - wrap.clientWidth : null,
          seen: window.__progress || [],
          data: window.__tute && window.__tute.analysis && window.__tute.analysis.data}; }"""


@pytest.mark.parametrize("viewport", [pytest.param(DESKTOP, id="desktop"),
                                      pytest.param(PHONE, id="phone")])
def test_the_search_measure_appears(browser: Any, start: Callable[..., str], data_dir: Path,
                                    viewport: dict[str, int]) -> None:
    tid, tokens, _m = seeded(data_dir, "tute_parejas",
                            lambda m: len(m.deal.tricks) == 8 and not m.deal.trick,
                            options={"match": {"mode": "series", "deals": 1}})
    base = start("--analysis-worlds", "2")
    page = _page(browser, viewport, base, held(tid, tokens[0], 0, "tute_parejas"))
    page.context.add_init_script(WATCH)
    # while the game is played: no analysis, no progress (they would tell of every hand)
    for path in ("analysis", "analysis/progress"):
        early = page.request.get(base + f"/api/games/{tid}/{path}")
        assert early.status == 409 and early.json()["error"] == "not_finished"
    page.goto(base + f"/t/{tid}")
    _play_until(page, lambda: page.locator("#analysis-btn").count() > 0, 90)
    t0 = time.monotonic()
    page.click("#analysis-btn")
    page.wait_for_url(f"**/a/{tid}")
    page.wait_for_selector("#margin-chart", timeout=60_000)
    first = time.monotonic() - t0
    page.wait_for_selector("#analysis[data-measure='search']", timeout=90_000)
    upgraded = time.monotonic() - t0
    print(f"\n[{viewport['width']}px] analysis: double dummy drawn {first:.2f} s after the "
          f"click, the search measure {upgraded:.2f} s")
    st = page.evaluate(STATE)
    data = st["data"]
    assert st["measure"] == "search" and data["search"]["state"] == "done"
    # the page said how far the search was before it came
    assert any("análisis" in s or "podía saber" in s for s in st["seen"]), st["seen"]
    assert st["progressHidden"]
    assert "podía saber" in st["note"] and "2 repartos" in st["note"]
    assert "viendo todas las cartas" in st["note"]
    # in a player's words: none of the analysts' jargon
    text = page.inner_text("#analysis").lower()
    for jargon in ("pimc", "doble muerto", "resolvedor", "semilla"):
        assert jargon not in text, jargon
    decisions = data["decisions"]
    assert decisions and all(d["loss"] is not None and d["dd_loss"] is not None
                             for d in decisions)
    worst = [d for d in decisions if d["loss"] > 2]
    assert st["dots"] == len(worst) and len(st["mistakes"]) == len(worst)
    assert st["ddDots"] == sum(d["loss"] <= 2 < d["dd_loss"] for d in decisions)
    assert st["lines"] == 1
    for d, text in zip(worst, st["mistakes"], strict=True):
        assert f"Baza {d['trick']}" in text and "mejor era" in text, text
        assert d["reason"]["es"] in text  # the one-line reason, in Spanish
        assert "viendo todas las cartas" in text  # and the double-dummy loss beside
    if not worst:
        assert "Ningún error" in page.inner_text("#analysis")
    # a row per player, by both measures
    assert len(st["summary"]) == 4 and "Ana" in st["summary"][0][0]
    assert all(len(row) == 6 for row in st["summary"])
    seat0 = data["summary"]["seats"][0]
    assert st["summary"][0][1] == str(seat0["decisions"])
    assert st["summary"][0][3] == f"{round(seat0['accuracy'])} %"
    assert st["summary"][0][5] == f"{round(seat0['dd_accuracy'])} %"
    # the chart has its axes: the points on the left, the tricks below, each named
    axes = page.evaluate("""() => [...document.querySelectorAll('#margin-chart .axis-label')]
        .map(e => e.textContent)""")
    titles = page.evaluate("""() => [...document.querySelectorAll('#margin-chart .axis-title')]
        .map(e => e.textContent)""")
    assert titles == ["Baza", "Tantos"] and "0" in axes
    tricks = sorted({d["trick"] for d in decisions if d["dd_value"] is not None})
    assert [a for a in axes if a.isdigit() and a != "0"] == [str(x) for x in tricks]
    for sel in ("#analysis", "#margin-chart", "#analysis-summary", "#measure-note"):
        _fits(page, sel)
    if worst:
        _fits(page, "#mistakes")
    assert st["cut"] is not None and st["cut"] <= 1
    # the summary's headings are whole words, each on one line (never "Aciert/o")
    split = page.evaluate("""() => [...document.querySelectorAll('#analysis-summary thead th')]
        .filter(th => th.textContent.trim() && !th.textContent.trim().includes(' '))
        .filter(th => { const r = document.createRange(); r.selectNodeContents(th);
                        return r.getClientRects().length > 1; })
        .map(th => th.textContent.trim())""")
    assert split == [], split
    # the page's own buttons read well on the green below the cards
    for button in ("#analysis-replay", "#analysis-back"):
        assert _contrast(page, button) >= 4.5, button
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"analysis-search-{viewport['width']}.png"),
                    full_page=True)
    # each mistake opens the replay at its position: the player to move, the trick so far
    if worst:
        link = page.locator("#mistakes li a.mistake-replay").first
        assert link.inner_text() == "Verlo en la repetición"
        assert link.get_attribute("href") == f"/r/{tid}?at={worst[0]['index']}"
        box = link.bounding_box()
        assert box is not None and box["height"] >= 30  # a button a finger can take
        link.click()
        page.wait_for_selector("#scrub")
        assert page.evaluate("() => Number(document.getElementById('scrub').value)") == \
            worst[0]["index"]
        page.go_back()
    # opened again, it is kept: the search measure at once
    t0 = time.monotonic()
    page.goto(base + f"/a/{tid}")
    page.wait_for_selector("#analysis[data-measure='search']", timeout=10_000)
    again = time.monotonic() - t0
    print(f"[{viewport['width']}px] cached analysis opened in {again * 1000:.0f} ms")
    assert page.evaluate("() => window.__progress.length") == 0  # nothing left to wait for
    assert not page.errors, page.errors
    page.context.close()


def test_a_deal_of_a_match_first(browser: Any, start: Callable[..., str],
                                 data_dir: Path) -> None:
    """The end of a match links the analysis of its last deal; /a/<id>?deal=2 draws that
    deal (computed first), then the search measure comes to it; the first deal is one tap
    away and gets its own."""
    tid, tokens, _m = seeded(data_dir, "tute_parejas",
                            lambda m: len(m.deals) == 2 and len(m.deal.tricks) == 8
                            and not m.deal.trick,
                            options={"match": {"mode": "series", "deals": 2}})
    base = start("--analysis-worlds", "2")
    page = _page(browser, PHONE, base, held(tid, tokens[0], 0, "tute_parejas"))
    page.goto(base + f"/t/{tid}")
    _play_until(page, lambda: page.locator("#analysis-btn").count() > 0, 90)
    # the end of the match offers the analysis of its last deal (the match had three)
    assert page.evaluate("() => window.__tute.state.result.deals") == 3
    assert page.get_attribute("#analysis-btn", "href") == f"/a/{tid}?deal=3"
    page.goto(base + f"/a/{tid}?deal=2")
    page.wait_for_selector("#margin-chart", timeout=60_000)
    st = page.evaluate("""() => ({deal: window.__tute.analysis.deal,
        pressed: [...document.querySelectorAll('.deal-pick button')].map(b => b.ariaPressed),
        deals: [...new Set(window.__tute.analysis.data.decisions.map(d => d.deal))]})""")
    assert st["deal"] == 1 and st["deals"] == [1]
    assert st["pressed"][:2] == ["false", "true"]
    page.wait_for_selector("#analysis[data-measure='search']", timeout=90_000)
    page.click(".deal-pick button[data-deal='0']")
    page.wait_for_function("() => window.__tute.analysis.deal === 0 && document.querySelector("
                           "'#analysis').dataset.measure === 'search'", timeout=90_000)
    st = page.evaluate("""() => ({url: location.search,
        deals: [...new Set(window.__tute.analysis.data.decisions.map(d => d.deal))],
        game: !!document.getElementById('game-summary'),
        rows: document.querySelectorAll('#analysis-summary tbody tr').length})""")
    assert st["url"] == "?deal=1" and st["deals"] == [0] and st["rows"] == 4
    assert st["game"]  # the whole game's summary below the deal's
    _fits(page, "#game-summary")
    assert not page.errors, page.errors
    page.context.close()
