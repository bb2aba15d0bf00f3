"""'Report this move' in the analysis (/a/<id>) in a real browser, on a desktop and a 360 px
phone: a button beside every decision of a bot (in the list of the bots' moves, and beside
a bot's mistake), none beside a person's; the button opens a short form, and once the server
has stored the report the page says it was filed, in every place that move is shown. The
game is a finished one stored before the server starts; the analysis is the double-dummy
measure alone (quick)."""

from __future__ import annotations

import json
import random
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tute.match import Match
from tute.records import options_to_json
from tute.server.reports_store import open_engine, read_reports
from tute.server.store import Store, TableRow
from tute.server.table import hash_token

from .test_browser import ARTIFACTS, CHROMIUM
from .test_browser_table import DESKTOP, PHONE, _fits, _page, held

pytestmark = [
    pytest.mark.timeout(240),
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="browser tests need Debian's chromium at /usr/bin/chromium"),
]

OPTIONS = {"match": {"mode": "series", "deals": 1}}


def finished_game(data_dir: Path, seed: int = 3) -> tuple[str, str, Match]:
    """A finished one-deal parejas game stored as the server stores one: Ana (a person) at
    seat 0, facil bots elsewhere, every action at random."""
    rng = random.Random(seed)
    m = Match.new("tute_parejas", seed=seed, options=OPTIONS, first_dealer=1)
    actions: list[tuple[int, str]] = []
    while not m.is_over():
        seat = m.to_move
        a = rng.choice(m.legal_actions())
        m.apply(a)
        actions.append((seat, str(a)))
    token = secrets.token_urlsafe(24)
    seats = [{"kind": "human", "name": "Ana", "level": "medio",
              "token_hash": hash_token(token)}] + [
        {"kind": "bot", "name": f"Bot {i + 1}", "level": "facil", "token_hash": None}
        for i in range(1, 4)]
    tid = secrets.token_urlsafe(9)
    now = time.time()
    row = TableRow(id=tid, code="".join(secrets.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
                                        for _ in range(8)),
                   variant="tute_parejas", options=json.loads(json.dumps(options_to_json(
                       m.options, m.variant.defaults))),
                   seed=seed, first_dealer=1, seats=seats, host=0, public=False,
                   status="playing", version=0, result=None, created_at=now, finished_at=None)
    store = Store(f"sqlite:///{data_dir / 'tute.sqlite3'}")
    try:  # the server's own write operations, on one connection before it starts
        with store.engine.begin() as conn:
            Store.op_create(row)(conn)
            for v, (seat, a) in enumerate(actions, 1):
                last = v == len(actions)
                Store.op_event(tid, v, "action", seat, a,
                               status="finished" if last else None,
                               result=m.result().to_json() if last else None, at=now)(conn)
    finally:
        store.close()
    return tid, token, m


STATE = """() => { const a = window.__tute && window.__tute.analysis;
  const ds = a ? a.data.decisions : [];
  return {bots: a ? a.data.bots : null, decisions: ds.length,
          botDecisions: ds.filter(d => a.data.bots[d.seat]).length,
          listed: document.querySelectorAll('#bot-moves li').length,
          buttons: document.querySelectorAll('#bot-moves .report-btn').length,
          mistakeButtons: document.querySelectorAll('#mistakes .report-btn').length,
          botMistakes: document.querySelectorAll('#mistakes li').length}; }"""


@pytest.mark.parametrize("viewport", [pytest.param(DESKTOP, id="desktop"),
                                      pytest.param(PHONE, id="phone")])
def test_report_a_bot_move(browser: Any, start: Callable[..., str], data_dir: Path,
                           viewport: dict[str, int]) -> None:
    tid, token, _m = finished_game(data_dir)
    base = start("--analysis-worlds", "0")
    page = _page(browser, viewport, base, held(tid, token, 0, "tute_parejas"))
    page.goto(base + f"/a/{tid}")
    page.wait_for_selector("#bot-moves", timeout=60_000)
    st = page.evaluate(STATE)
    assert st["bots"] == [None, "facil", "facil", "facil"]
    # one line and one button a decision of a bot; none for Ana's
    assert st["botDecisions"] and st["listed"] == st["buttons"] == st["botDecisions"]
    assert st["botDecisions"] < st["decisions"]
    data = page.evaluate("() => window.__tute.analysis.data")
    mistakes = [d for d in data["decisions"] if d["dd_loss"] is not None and d["dd_loss"] > 2]
    assert st["mistakeButtons"] == sum(1 for d in mistakes if d["seat"] != 0)
    page.click("#bot-moves summary")
    first = page.locator("#bot-moves .report-btn").first
    assert first.inner_text() == "Informar de esta jugada"
    key = first.get_attribute("data-report")
    first.click()
    form = page.locator(f"form[data-report-form='{key}']")
    form.locator("input").fill("Se deja el as sin necesidad")
    _fits(page, "#bot-moves")
    _fits(page, f"form[data-report-form='{key}']")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"report-form-{viewport['width']}.png"),
                    full_page=True)
    form.locator("button[type=submit]").click()
    done = page.locator(f"#bot-moves [data-report-slot='{key}'] .report-done")
    done.wait_for(timeout=20_000)
    assert done.inner_text() == "Jugada informada: gracias."
    # stored before the page said so
    engine = open_engine(f"sqlite:///{data_dir / 'tute.sqlite3'}")
    try:
        [row] = read_reports(engine)
    finally:
        engine.dispose()
    deal, move = map(int, key.split(":"))
    assert (row.table_id, row.deal, row.move) == (tid, deal, move)
    assert row.comment == "Se deja el as sin necesidad" and row.bot == "facil"
    # every place the move shows says it (a bot's mistake is in both lists)
    slots = page.evaluate(f"""() => [...document.querySelectorAll("[data-report-slot='{key}']")]
        .map(s => s.textContent.trim())""")
    assert slots and all(s == "Jugada informada: gracias." for s in slots)
    # a cancelled form leaves the button; a second one files nothing new
    other = page.locator("#bot-moves .report-btn").first
    other_key = other.get_attribute("data-report")
    other.click()
    page.click(f"[data-report-cancel='{other_key}']")
    assert page.locator(f"#bot-moves .report-btn[data-report='{other_key}']").count() == 1
    _fits(page, "#analysis")
    assert not page.errors, page.errors
    page.context.close()


def test_the_page_says_why_a_report_is_refused(browser: Any, start: Callable[..., str],
                                               data_dir: Path) -> None:
    """The server refuses a comment over its limit: the form says so in the page's words and
    stays open; nothing is stored."""
    tid, token, _m = finished_game(data_dir)
    base = start("--analysis-worlds", "0")
    page = _page(browser, PHONE, base, held(tid, token, 0, "tute_parejas"))
    page.goto(base + f"/a/{tid}")
    page.wait_for_selector("#bot-moves", timeout=60_000)
    page.click("#bot-moves summary")
    first = page.locator("#bot-moves .report-btn").first
    key = first.get_attribute("data-report")
    first.click()
    form = page.locator(f"form[data-report-form='{key}']")
    # past the field's own maxlength, as a page of another version might send
    form.locator("input").evaluate("(i) => { i.removeAttribute('maxlength'); "
                                   "i.value = 'x'.repeat(400); }")
    form.locator("button[type=submit]").click()
    error = form.locator(".error")
    error.wait_for(timeout=20_000)
    assert error.inner_text() == "Mensaje demasiado largo."
    assert form.locator("button[type=submit]").is_enabled()
    engine = open_engine(f"sqlite:///{data_dir / 'tute.sqlite3'}")
    try:
        assert read_reports(engine) == []
    finally:
        engine.dispose()
    assert not page.errors, page.errors
    page.context.close()
