"""Every page a player meets passes axe-core's WCAG 2 A/AA checks with no serious or critical
violation (contrast 4.5:1 included), in Debian's chromium on a desktop (1280x800) and a phone
(390x844): the lobby (with a wrong invite code's error showing), a table in play, the analysis
of a finished game, a lesson, and the rules pages (every game has its own, and the table's "?"
shows the game's rules).

axe-core (MPL-2.0, Deque Systems) is vendored as one file, ``vendor/axe.min.js``, so that the
check runs where there is no node; it is injected into the page by Playwright (the page's CSP
is bypassed for that context only: the site itself loads no inline script).

Screenshots go to $TUTE_ARTIFACTS, else to artifacts/ under the run's pytest temporary folder."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tute.variants import VARIANTS

from .test_browser import ARTIFACTS, CHROMIUM
from .test_browser_table import _play_until, _ready, held, seeded

AXE = Path(__file__).parent / "vendor" / "axe.min.js"

pytestmark = [
    pytest.mark.timeout(300),
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="browser tests need Debian's chromium at /usr/bin/chromium"),
]

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
VIEWPORTS = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]

# axe's own rules for WCAG 2.0/2.1 levels A and AA; serious and critical findings fail
RUN = """async () => {
  const r = await axe.run(document, {runOnly: {type: 'tag',
    values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}, resultTypes: ['violations']});
  return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => ({id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 6).map(n => [n.target.join(' '),
                                                     n.failureSummary.slice(0, 240)])}));
}"""


def _page(browser: Any, viewport: dict[str, int], seats: dict[str, Any] | None = None) -> Any:
    phone = viewport["width"] < 500
    ctx = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone,
                              reduced_motion="reduce", bypass_csp=True)
    init = {"tute.pace": "0.05", "tute.seats": json.dumps(seats or {}), "tute.lang": "es"}
    ctx.add_init_script(f"(() => {{ try {{ const kv = {json.dumps(init)}; for (const k in kv) "
                        "localStorage.setItem(k, kv[k]); } catch (e) {} })()")
    page = ctx.new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.found = {}  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """The serious and critical WCAG A/AA violations axe-core finds on the page as it is."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(RUN)
    return found


def _check(page: Any, name: str, viewport: dict[str, int]) -> None:
    """Run axe on the page as it is now; its findings are kept and told at the test's end
    (every page's, not only the first's)."""
    # the last redraw's transitions settle: a condition, not a fixed wait
    page.wait_for_function("document.getAnimations().every(a => a.playState !== 'running')",
                           timeout=10_000)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"a11y-{name}-{viewport['width']}.png"))
    found = axe_violations(page)
    if found:
        page.found[name] = found


def _none_found(page: Any) -> None:
    assert not page.found, json.dumps(page.found, indent=1, ensure_ascii=False)


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_lobby_and_rules_pages_pass_axe(browser: Any, start: Callable[..., str],
                                        viewport: dict[str, int]) -> None:
    base = start()
    page = _page(browser, viewport)
    page.goto(base + "/")
    page.wait_for_selector("#quick-play")
    _check(page, "lobby", viewport)
    # a wrong invite code: the error is read, not a pale pink whisper on cream
    page.fill("#code", "ZZZZZZZZ")
    page.locator("#code").press("Enter")
    page.wait_for_function("document.getElementById('join-error').textContent.length > 0")
    _check(page, "lobby-code-error", viewport)
    # every game has its rules page, with its description and rules
    for vid in VARIANTS:
        page.goto(base + f"/reglas/{vid}")
        page.wait_for_selector(".rules-page h1")
        assert page.locator(".rules-page ol.rules li").count() >= 3, vid
        assert page.locator(".rules-page .game-desc").inner_text().strip(), vid
        assert not page.locator(".rules-page .error").count(), vid
    _check(page, "rules-cabrero", viewport)
    page.goto(base + "/reglas/tute_gana_pierde")
    page.wait_for_selector(".rules-page ol.rules li")
    _check(page, "rules-gana-pierde", viewport)
    page.goto(base + "/reglas/no_such_game")  # the error on the rules page is readable too
    page.wait_for_selector(".rules-page .error")
    _check(page, "rules-unknown", viewport)
    _none_found(page)
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_table_and_its_help_pass_axe(browser: Any, start: Callable[..., str],
                                     viewport: dict[str, int]) -> None:
    base = start()
    page = _page(browser, viewport)
    page.goto(base + "/")
    page.wait_for_selector("#quick-play")
    page.select_option("#q-variant", "tute_cabrero")
    page.click("#quick-play")
    _ready(page)
    _check(page, "table-cabrero", viewport)
    # the table's "?" shows the game's own rules, not only the tap tip
    page.click("#help-btn")
    page.wait_for_selector(".help-dialog ol.rules li")
    assert page.locator(".help-dialog .game-desc").inner_text().strip()
    _check(page, "help-cabrero", viewport)
    _none_found(page)
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_analysis_and_lesson_pass_axe(browser: Any, start: Callable[..., str], data_dir: Path,
                                      viewport: dict[str, int]) -> None:
    tid, tokens, _m = seeded(data_dir, "tute_parejas",
                             lambda m: len(m.deal.tricks) == 9 and not m.deal.trick,
                             options={"match": {"mode": "series", "deals": 1}})
    base = start("--analysis-worlds", "2")
    page = _page(browser, viewport, held(tid, tokens[0], 0, "tute_parejas"))
    page.goto(base + f"/t/{tid}")
    _play_until(page, lambda: page.locator("#analysis-btn").count() > 0, 90)
    _check(page, "result", viewport)
    # the result as a player says it: "Ganamos nosotros" / "Ganan ellos", "(una mano)"
    said = page.inner_text(".result-dialog")
    assert not re.search(r"Gana (Ellos|Nosotros)|\b1 manos", said), said
    assert re.search(r"Ganamos nosotros|Ganan ellos|Sin ganador|sin ganador", said), said
    assert "(una mano)" in said, said
    page.click("#analysis-btn")
    page.wait_for_selector("#analysis[data-measure='search']", timeout=90_000)
    _check(page, "analysis", viewport)
    page.goto(base + "/aprende/parejas-deberes")
    page.wait_for_selector(".lesson")
    page.wait_for_selector(".hand-card")
    _check(page, "lesson", viewport)
    _none_found(page)
    assert not page.errors, page.errors
    page.context.close()
