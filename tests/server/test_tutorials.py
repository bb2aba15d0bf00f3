"""The guided tutorials (tute.tutorials): every lesson plays by the engine and reaches what it
teaches; the HTTP routes; and a browser going through every lesson step by step."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest

import tute
from tute.events import Declared, Exchanged, TrickTaken
from tute.i18n import LANGS
from tute.tutorials import GAMES, Lesson, LessonRefusal, lessons, replay

from .test_browser import CHROMIUM
from .test_browser_table import DESKTOP, PHONE, _fits, _page

LESSONS = lessons()
IDS = [x.id for x in LESSONS]


def _texts(x: Lesson) -> list[dict[str, str]]:
    return [x.title, x.intro, x.done, *(s.say for s in x.steps)]


def _canonical(x: Lesson) -> list[str]:
    return [s.expect[0] for s in x.steps]


# ------------------------------------------------------------------ the lessons as data

def test_every_game_has_lessons_and_the_required_ones() -> None:
    by_game = {g: [x.id for x in LESSONS if x.game == g] for g in GAMES}
    assert len(by_game["tute_parejas"]) >= 3
    assert len(by_game["tute_2p_habanero"]) >= 3
    assert len(by_game["guinote"]) >= 3
    assert len(set(IDS)) == len(IDS)


@pytest.mark.parametrize("lid", IDS)
def test_lesson_texts_in_both_languages(lid: str) -> None:
    x = next(x for x in LESSONS if x.id == lid)
    assert 3 <= len(x.steps) <= 8
    for text in _texts(x):
        assert set(text) == set(LANGS)
        assert all(text[k].strip() for k in LANGS)
        assert text["es"] != text["en"]


@pytest.mark.parametrize("lid", IDS)
def test_every_scripted_action_is_legal(lid: str) -> None:
    """Each prelude action, each expected move (every alternative) and each reply is legal
    for the engine, and each step's move is the learner's to make."""
    x = next(x for x in LESSONS if x.id == lid)
    deal = x.new_deal()
    for a in x.prelude:
        assert a in [str(b) for b in deal.legal_actions()], (lid, "prelude", a)
        deal.apply(a)
    for i, step in enumerate(x.steps):
        assert deal.to_move == x.seat, (lid, i)
        legal = [str(b) for b in deal.legal_actions()]
        for alt in step.expect:
            assert alt in legal, (lid, i, alt, legal)
            if alt != step.expect[0]:  # the replies must suit every accepted move
                other = deal.copy()
                other.apply(alt)
                for a in step.then:
                    other.apply(a)
        deal.apply(step.expect[0])
        for a in step.then:
            assert a in [str(b) for b in deal.legal_actions()], (lid, i, a)
            deal.apply(a)


def _after(x: Lesson, k: int) -> tute.Deal:
    """The deal when the learner is to take step ``k`` (0-based)."""
    deal, _ = replay(x, _canonical(x)[:k])
    return deal


def _lesson(lid: str) -> Lesson:
    return next(x for x in LESSONS if x.id == lid)


def _refusal_codes(deal: tute.Deal) -> set[str]:
    return {r.code for r in deal.card_refusals().values()}


def test_parejas_duties_reach_each_duty() -> None:
    x = _lesson("parejas-deberes")
    codes = [_refusal_codes(_after(x, k)) for k in range(len(x.steps))]
    assert "must_beat" in codes[0]
    assert "must_follow" in codes[2]
    assert "must_trump" in codes[3]
    assert "must_overtrump" in codes[5]


def test_parejas_cantes_sing_the_forty_then_the_twenty() -> None:
    x = _lesson("parejas-cantes")
    deal, _ = replay(x, _canonical(x))
    sung = [e.declaration for e in deal.events if isinstance(e, Declared)]
    assert [str(d) for d in sung] == ["cuarenta", "veinte:e"]
    before = _after(x, 0)  # nothing may be sung before a trick is won
    assert not any(str(a).startswith(("cuarenta", "veinte")) for a in before.legal_actions())


def test_parejas_last_trick_gives_ten() -> None:
    x = _lesson("parejas-ultimas")
    deal, _ = replay(x, _canonical(x))
    assert deal.is_over()
    last = [e for e in deal.events if isinstance(e, TrickTaken)][-1]
    assert last.number == deal.total_tricks and deal.side_of(last.winner) == deal.side_of(x.seat)
    res = deal.result().to_json()
    side = deal.side_of(x.seat)
    assert res["last_trick"][side] is True
    assert res["totals"][side] - res["card_points"][side] == 10  # the ten of the last trick


def test_habanero_seven_exchange_is_legal_at_its_step() -> None:
    x = _lesson("habanero-siete")
    deal = _after(x, 1)
    assert x.steps[1].expect[0] in [str(a) for a in deal.legal_actions()]
    assert x.steps[1].expect[0].startswith("cambio:7")
    done, _ = replay(x, _canonical(x))
    assert any(isinstance(e, Exchanged) and e.seat == x.seat for e in done.events)


def test_habanero_arrastre_duties_after_the_stock() -> None:
    x = _lesson("habanero-arrastre")
    deal = _after(x, 1)
    assert deal.stock_count == 0 and "must_follow" in _refusal_codes(deal)
    # the same hand and lead with a stock would be free play: the stricter duty is the
    # arrastre's own (the habanero's stock rule only obliges to answer a trump lead)
    assert deal.options.stock_phase_rule == "follow_trump_lead"


def test_habanero_vueltas_reaches_101() -> None:
    x = _lesson("habanero-vueltas")
    deal, _ = replay(x, _canonical(x))
    assert deal.carry is not None and deal.is_over()
    res = deal.result().to_json()
    side = deal.side_of(x.seat)
    assert res["reason"] == "vueltas" and res["winner"] == side
    assert res["running"][side] >= 101 > deal.carry[side]
    before = _after(x, len(x.steps) - 1)  # the last step is the one that gets there
    assert not before.is_over()


def test_guinote_side_sings_with_the_sota() -> None:
    x = _lesson("guinote-cantes")
    k = next(i for i, s in enumerate(x.steps) if s.expect[0].startswith("veinte"))
    deal = _after(x, k)
    last = deal.tricks[-1]
    assert last.winner != x.seat and deal.side_of(last.winner) == deal.side_of(x.seat)
    assert x.steps[k].expect[0] in [str(a) for a in deal.legal_actions()]
    suit = x.steps[k].expect[0].split(":")[1]
    assert {f"R{suit}", f"S{suit}"} <= set(deal.hand(x.seat).to_list())


def test_guinote_exchange_then_arrastre() -> None:
    x = _lesson("guinote-arrastre")
    k = next(i for i, s in enumerate(x.steps) if s.expect[0].startswith("cambio"))
    assert x.steps[k].expect[0] in [str(a) for a in _after(x, k).legal_actions()]
    last = _after(x, len(x.steps) - 1)
    assert last.stock_count == 0 and "must_trump" in _refusal_codes(last)
    free = _after(x, 0)
    assert free.stock_count > 0 and not _refusal_codes(free)


def test_guinote_partner_exemption_in_the_arrastre() -> None:
    """Void in the suit led with trumps in hand: free while the partner holds the trick, a
    duty to trump once an opponent does."""
    x = _lesson("guinote-companero")
    exempt = _after(x, 1)
    assert exempt.stock_count == 0 and exempt.snapshot().best_seat == 2  # the partner
    led = exempt.trick[0][1].suit
    hand = exempt.hand(x.seat)
    assert exempt.trump is not None and led != exempt.trump
    assert not any(c.suit == led for c in hand) and any(c.suit == exempt.trump for c in hand)
    legal = [a for a in exempt.legal_actions() if isinstance(a, tute.Card)]
    assert any(c.suit != exempt.trump for c in legal) and not _refusal_codes(exempt)
    duty = _after(x, 3)
    assert duty.snapshot().best_seat in (1, 3) and "must_trump" in _refusal_codes(duty)


@pytest.mark.parametrize("lid", IDS)
def test_a_wrong_move_is_refused(lid: str) -> None:
    x = next(x for x in LESSONS if x.id == lid)
    deal = _after(x, 0)
    legal = {str(a) for a in deal.legal_actions()}
    hand = deal.hand(x.seat).to_list()
    illegal = [c for c in hand if c not in legal]
    other = [a for a in legal if a not in x.steps[0].expect]
    if illegal:
        with pytest.raises(LessonRefusal) as exc:
            replay(x, [illegal[0]])
        assert exc.value.code == "illegal" and exc.value.refusal is not None
    if other:
        with pytest.raises(LessonRefusal) as exc:
            replay(x, [other[0]])
        assert exc.value.code == "not_this_one"
        assert all(exc.value.reason[k] for k in LANGS)


# ------------------------------------------------------------------ the routes

def test_route_lists_every_lesson_in_both_languages(client: Any) -> None:
    r = client.get("/api/tutorials")
    assert r.status_code == 200
    got = r.json()["tutorials"]
    assert [t["id"] for t in got] == IDS
    for t in got:
        assert set(t["title"]) == set(LANGS) and t["game"] in GAMES and t["steps"] >= 3
        assert "deal" not in t and "steps_data" not in t


def test_route_one_lesson_and_a_bad_id(client: Any) -> None:
    r = client.get(f"/api/tutorials/{IDS[0]}")
    assert r.status_code == 200 and r.json()["id"] == IDS[0]
    assert "hands" not in r.text
    assert client.get("/api/tutorials/no-such-lesson").status_code == 404
    assert client.post("/api/tutorials/no-such-lesson/step", json={"taken": []}).status_code == 404
    assert client.get("/aprende/parejas-deberes").status_code == 200  # the page


@pytest.mark.parametrize("lid", IDS)
def test_route_steps_through_the_lesson(client: Any, lid: str) -> None:
    """Every step's state: the learner to move with the step's move among the legal actions,
    and no card of another hand named unless the table shows it to anyone."""
    x = _lesson(lid)
    taken: list[str] = []
    for k in range(len(x.steps) + 1):
        r = client.post(f"/api/tutorials/{lid}/step", json={"taken": taken})
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["step"] == k and body["steps"] == len(x.steps)
        d = body["state"]["deal"]
        deal = _after(x, k) if k < len(x.steps) else replay(x, taken)[0]
        assert d["hand"] == deal.hand(x.seat).to_list()
        for s in range(deal.seats):  # another hand's cards, less those the table shows
            if s == x.seat:
                continue
            hidden = set(deal.hand(s).to_list()) - set(d["known"][s])
            for c in hidden:
                assert f'"{c}"' not in r.text and f':{c}"' not in r.text, (lid, k, s, c)
        if k == len(x.steps):
            assert body["done"] and body["say"] == x.done and d["legal_actions"] == []
            break
        assert not body["done"] and body["say"] == x.steps[k].say
        assert x.steps[k].expect[0] in d["legal_actions"]
        taken.append(x.steps[k].expect[0])
    more = client.post(f"/api/tutorials/{lid}/step", json={"taken": [*taken, "pass"]})
    assert more.status_code == 400 and more.json()["error"] == "over"


def test_route_refuses_an_illegal_move_with_the_engines_reason(client: Any) -> None:
    x = _lesson("parejas-deberes")  # step 1: the ace of oros is the only legal card
    deal = _after(x, 0)
    bad = next(c for c in deal.hand(x.seat).to_list() if c != "Ao")
    r = client.post("/api/tutorials/parejas-deberes/step", json={"taken": [bad]})
    assert r.status_code == 400
    body = r.json()
    assert body["error"] == "illegal"
    assert body["refusal"]["code"] in ("must_beat", "must_follow")
    why = {str(c): r for c, r in deal.card_refusals().items()}[bad]
    from tute.i18n import refusal_text
    assert body["reasons"]["es"] == refusal_text("es", why, you=x.seat)


def test_route_refuses_a_legal_move_the_lesson_does_not_take(client: Any) -> None:
    x = _lesson("parejas-deberes")  # step 2: a free lead, the lesson wants the seven of oros
    first = x.steps[0].expect[0]
    deal = _after(x, 1)
    other = next(str(a) for a in deal.legal_actions() if str(a) not in x.steps[1].expect)
    r = client.post("/api/tutorials/parejas-deberes/step", json={"taken": [first, other]})
    assert r.status_code == 400
    body = r.json()
    assert body["error"] == "not_this_one" and body["refusal"] is None
    assert "siete de oros" in body["reasons"]["es"] and "seven of coins" in body["reasons"]["en"]
    bad = client.post("/api/tutorials/parejas-deberes/step", json={"taken": ["zz"]})
    assert bad.status_code == 400 and bad.json()["error"] == "illegal"


# ------------------------------------------------------------------ in the browser

browser_test = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="browser tests need Debian's chromium at /usr/bin/chromium")


def _lesson_page(browser: Any, base: str, lid: str, viewport: dict[str, int] = DESKTOP,
                 lang: str = "es") -> Any:
    page = _page(browser, viewport, base)
    page.context.add_init_script(
        f"(() => {{ try {{ localStorage.setItem('tute.lang', {json.dumps(lang)}); }} "
        "catch (e) {} })()")
    page.goto(f"{base}/aprende/{lid}")
    _wait_step(page, 0)
    return page


def _wait_step(page: Any, k: int, seconds: float = 15) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        got = page.evaluate("() => window.__lesson && window.__lesson.st && "
                            "!window.__lesson.pending ? window.__lesson.st.step : -1")
        if got == k:
            return
        page.wait_for_timeout(40)
    raise AssertionError(f"step {k} never came")


def _take(page: Any, action: str) -> None:
    sel = (f'.hand-card[data-card="{action}"]' if len(action) == 2
           else f'.action-btn[data-action="{action}"]')
    page.locator(sel).click(timeout=5000)


def _through(page: Any, x: Lesson, lang: str, phone: bool = False) -> None:
    """Every step: the step's words, its move among the legal ones, then the next step."""
    for k, step in enumerate(x.steps):
        assert page.locator("#lesson-say").inner_text() == step.say[lang]
        assert page.locator("#lesson-step").inner_text().endswith(f"{len(x.steps)}")
        if k == 0:
            assert page.locator("#lesson-intro").inner_text() == x.intro[lang]
        if phone:
            for sel in ("#lesson", "#hand", "#felt"):
                _fits(page, sel)
        _take(page, step.expect[0])
        _wait_step(page, k + 1)
    assert page.locator("#lesson-say").inner_text() == x.done[lang]
    assert page.locator("#lesson-lobby").count() == 1
    assert not page.locator(".hand-card.legal").count()


@browser_test
@pytest.mark.timeout(120)
@pytest.mark.parametrize("lid", [x.id for x in LESSONS])  # one test a lesson: they spread
def test_browser_every_lesson_in_spanish(browser: Any, start: Callable[..., str],
                                         lid: str) -> None:
    base = start()
    x = _lesson(lid)
    page = _lesson_page(browser, base, x.id)
    _through(page, x, "es")
    assert not page.errors, page.errors  # type: ignore[attr-defined]
    page.context.close()


@browser_test
@pytest.mark.timeout(120)
@pytest.mark.parametrize(("lid", "lang"), [("guinote-cantes", "en"), ("parejas-cantes", "es")])
def test_browser_lessons_on_a_phone(browser: Any, start: Callable[..., str], lid: str,
                                    lang: str) -> None:
    """At 360 px the lesson, the felt and a ten-card hand (with a cante's button) fit."""
    base = start()
    x = _lesson(lid)
    page = _lesson_page(browser, base, x.id, PHONE, lang)
    _through(page, x, lang, phone=True)
    assert not page.errors, page.errors  # type: ignore[attr-defined]
    page.context.close()


@browser_test
@pytest.mark.timeout(120)
def test_browser_lesson_in_english_and_next(browser: Any, start: Callable[..., str]) -> None:
    base = start()
    x = _lesson("habanero-siete")
    page = _lesson_page(browser, base, x.id, DESKTOP, "en")
    _through(page, x, "en")
    nxt = page.locator("#lesson-next")
    assert nxt.count() == 1
    nxt.click()
    _wait_step(page, 0)
    assert page.url.endswith("/aprende/habanero-arrastre")
    page.context.close()


@browser_test
@pytest.mark.timeout(120)
def test_browser_wrong_moves_are_explained(browser: Any, start: Callable[..., str]) -> None:
    base = start()
    x = _lesson("parejas-deberes")
    page = _lesson_page(browser, base, x.id)
    # step 1: only the ace of oros may be played; another card gets the engine's reason
    deal = _after(x, 0)
    bad = next(c for c in deal.hand(x.seat).to_list() if c != "Ao")
    page.locator(f'.hand-card[data-card="{bad}"]').click(force=True)  # aria-disabled
    msg = page.locator("#lesson-msg")
    msg.wait_for(state="visible", timeout=5000)
    assert "montar" in msg.inner_text() or "asistir" in msg.inner_text()
    assert page.locator('.hand-card.hinted[data-card="Ao"]').count() == 1  # the lesson's card
    _wait_step(page, 0)
    _take(page, "Ao")
    _wait_step(page, 1)
    # step 2: a free lead, but the lesson wants the seven of oros
    other = next(str(a) for a in _after(x, 1).legal_actions() if str(a) != "7o")
    page.locator(f'.hand-card[data-card="{other}"]').click()
    page.wait_for_function("() => document.querySelector('#lesson-msg')?.textContent"
                           ".includes('siete de oros')", timeout=5000)
    _wait_step(page, 1)
    page.locator("#lesson-restart").click()
    _wait_step(page, 0)
    assert page.locator("#lesson-say").inner_text() == x.steps[0].say["es"]
    page.context.close()


@browser_test
@pytest.mark.timeout(120)
def test_browser_lobby_lists_the_lessons(browser: Any, start: Callable[..., str]) -> None:
    base = start()
    for viewport in (DESKTOP, PHONE):
        page = _page(browser, viewport, base)
        page.goto(base + "/")
        page.locator("#learn").wait_for(timeout=10000)
        links = page.locator("#learn .lesson-link")
        assert links.count() == len(LESSONS)
        assert page.locator("#learn h2").inner_text() == "Aprende a jugar"
        if viewport is PHONE:
            _fits(page, "#learn")
        page.locator('#learn .lesson-link[data-lesson="parejas-deberes"]').click()
        _wait_step(page, 0)
        assert page.url.endswith("/aprende/parejas-deberes")
        page.context.close()


def test_try_names_a_cante_in_words() -> None:
    x = _lesson("parejas-cantes")  # step 2 sings the forty; leading a card instead is refused
    with pytest.raises(LessonRefusal) as exc:
        replay(x, [x.steps[0].expect[0], "3o"])
    assert exc.value.code == "not_this_one"
    assert "cantar las cuarenta" in exc.value.reason["es"]
    assert "singing the forty" in exc.value.reason["en"]


@browser_test
@pytest.mark.timeout(240)
def test_browser_a_lesson_keeps_the_hand_above_the_fold(browser: Any,
                                                        start: Callable[..., str]) -> None:
    """At 1280x800 a lesson's words sit beside the felt and the whole hand is in the screen
    without scrolling (each game's first lesson: the fullest hands); on a phone the words
    come first, above the felt."""
    base = start()
    firsts = {x.game: x for x in reversed(LESSONS)}  # each game's first lesson
    for x in firsts.values():
        page = _lesson_page(browser, base, x.id)
        box = page.evaluate("""() => { const r = (s) => document.querySelector(s)
              .getBoundingClientRect();
            const cards = [...document.querySelectorAll('.hand-card')]
              .map(c => c.getBoundingClientRect().bottom);
            return {hand: Math.max(...cards), felt: r('#felt'), lesson: r('#lesson')}; }""")
        assert box["hand"] <= DESKTOP["height"], (x.id, box["hand"])
        assert box["lesson"]["left"] >= box["felt"]["right"] - 1, x.id  # beside it
        assert box["lesson"]["bottom"] <= DESKTOP["height"], x.id
        assert not page.errors, page.errors  # type: ignore[attr-defined]
        page.context.close()
    page = _lesson_page(browser, base, LESSONS[0].id, PHONE)
    lesson, felt = (page.locator(s).bounding_box() for s in ("#lesson", "#felt"))
    assert lesson is not None and felt is not None and lesson["y"] < felt["y"]
    page.context.close()
