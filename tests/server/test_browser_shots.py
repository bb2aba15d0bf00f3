"""The pages as a player sees them, in Spanish, on a desktop (1280x800) and a phone (390x844),
written as screenshots for people to look at: the table of a game in pairs (parejas) and of a
two-seat game during play (on the phone with its side sheet open too), the lobby, a finished
game's analysis and the puzzles. On each, no text is a glyph a font may lack (the icons are
drawn as SVG: tests/glyphs.py), and the desktop's side panel lies whole in the window with no
word cut.

Screenshots go to $TUTE_ARTIFACTS, else to artifacts/ under the run's pytest temporary folder
(the run's summary names it)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from glyphs import undrawn
from tute.puzzles import load_puzzles

from .test_browser import ARTIFACTS, CHROMIUM
from .test_browser_table import (
    DESKTOP,
    PHONE_390,
    _page,
    _ready,
    _side,
    finished,
    held,
    seeded,
)

pytestmark = [
    pytest.mark.timeout(300),
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="browser tests need Debian's chromium at /usr/bin/chromium"),
]

VIEWPORTS = [pytest.param(DESKTOP, id="1280"), pytest.param(PHONE_390, id="390")]

# Every text the page shows: its text nodes, the names and hints in attributes, and what CSS
# adds before and after elements.
TEXTS = """() => {
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) out.push(walk.currentNode.nodeValue);
  for (const el of document.body.querySelectorAll('*')) {
    for (const a of ['title', 'aria-label', 'placeholder', 'alt']) {
      if (el.hasAttribute(a)) out.push(el.getAttribute(a));
    }
    for (const p of ['::before', '::after']) {
      const c = getComputedStyle(el, p).content;
      if (c && c !== 'none' && c !== 'normal') out.push(c);
    }
  }
  return out.join('\\n');
}"""

# The desktop's side panel: its box, and the words in it cut short (wider than their box)
SIDE = """() => { const r = document.getElementById('side-col').getBoundingClientRect();
  const cut = [...document.querySelectorAll('#side-col th, #side-col td, #side-col .side-name,'
    + ' #side-col button, #side-col summary, #side-col p')]
    .filter(e => e.offsetParent && e.scrollWidth > e.clientWidth + 1).map(e => e.textContent);
  return {box: [r.left, r.top, r.right], cut, scroll: document.documentElement.scrollWidth}; }"""


def _shot(page: Any, name: str, viewport: dict[str, int]) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}-{viewport['width']}x{viewport['height']}.png"))


# the drawn icons' boxes (web/icons.js), those in view: an icon's size, never a page's rule's
ICON_BOXES = """() => [...document.querySelectorAll('svg.ic')]
  .filter(e => e.getClientRects().length)
  .map(e => { const r = e.getBoundingClientRect(); return [r.width, r.height]; })"""


# the trick's captions (who played each card) that another card covers at their centre
COVERED_CAPTIONS = """() => [...document.querySelectorAll('.played .by')]
  .filter(e => e.getClientRects().length).filter(e => {
    const r = e.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !(top && e.contains(top)); }).map(e => e.textContent)"""


def _drawn(page: Any, where: str) -> None:
    """No text a font may lack; every icon drawn at an icon's size; no trick caption under a
    card."""
    odd = undrawn(page.evaluate(TEXTS))
    assert not odd, (where, sorted(odd))
    boxes = page.evaluate(ICON_BOXES)
    assert all(4 <= w <= 32 and 4 <= h <= 32 for w, h in boxes), (where, boxes)
    assert not page.evaluate(COVERED_CAPTIONS), (where, page.evaluate(COVERED_CAPTIONS))


def _table(browser: Any, base: str, tid: str, token: str, variant: str,
           viewport: dict[str, int]) -> None:
    page = _page(browser, viewport, base, held(tid, token, 0, variant))
    page.goto(base + f"/t/{tid}")
    _ready(page)
    page.wait_for_selector("#side .score", state="attached")
    _drawn(page, variant)
    _shot(page, f"table-{variant}", viewport)
    if viewport is DESKTOP:
        side = page.evaluate(SIDE)
        left, top, right = side["box"]
        assert 0 <= left < right <= DESKTOP["width"] and top >= 0, side
        assert side["scroll"] <= DESKTOP["width"] and not side["cut"], side
    else:
        _side(page)
        page.wait_for_selector("#side-sound", state="visible")
        _drawn(page, f"{variant} sheet")
        _shot(page, f"table-{variant}-sheet", viewport)
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_screenshots_of_the_table_and_the_pages(browser: Any, start: Callable[..., str],
                                                data_dir: Path,
                                                viewport: dict[str, int]) -> None:
    tables = {v: seeded(data_dir, v, lambda m: len(m.deal.tricks) == 1)
              for v in ("tute_parejas", "tute_2p_habanero")}
    done = finished(data_dir, "tute_parejas", {"match": {"mode": "series", "deals": 1}})
    base = start("--analysis-worlds", "2")
    page = _page(browser, viewport, base)
    page.context.add_init_script("localStorage.setItem('tute.lang', 'es')")
    # the analysis first, while the server has nothing else to do: its search comes at once
    page.goto(base + f"/a/{done}")
    page.wait_for_selector("#analysis[data-measure='search'] #margin-chart", timeout=60_000)
    _drawn(page, "analysis")
    _shot(page, "analysis", viewport)
    page.goto(base + "/")
    page.wait_for_selector("#quick-play")
    _drawn(page, "lobby")
    _shot(page, "lobby", viewport)
    page.goto(base + "/problemas")
    page.wait_for_selector("#puzzle-list li")
    _drawn(page, "puzzles")
    _shot(page, "puzzles", viewport)
    page.goto(base + f"/problemas/{load_puzzles()[0].id}")
    page.wait_for_function("() => window.__puzzle && window.__puzzle.info")
    page.wait_for_selector(".hand-card")
    _drawn(page, "puzzle")
    _shot(page, "puzzle", viewport)
    assert not page.errors, page.errors
    page.context.close()
    # the tables last: their bots play on once the page is closed, and the server is busier
    for variant, (tid, tokens, _m) in tables.items():
        _table(browser, base, tid, tokens[0], variant, viewport)
