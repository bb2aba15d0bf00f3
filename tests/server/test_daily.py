"""The deal of the day and of the week (tute.daily, /api/daily): the same deals for everyone,
one entry a player, moves that cannot be taken back, the ranking and how the others played
opened once played, no hidden card sent; and a browser playing one on a desktop and a phone."""

from __future__ import annotations

import datetime
import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tute.daily import GAMES, current_events, event, others_play, parse_event, replay
from tute.errors import TuteError

from .accounts_helpers import device, secure, sign_up
from .conftest import wait_until
from .test_browser import CHROMIUM
from .test_browser_table import DESKTOP, PHONE, _fits, _page

CARD = re.compile(r"\b[A234567SCR][oceb]\b")
TODAY = datetime.datetime.now(datetime.UTC).date()


def _day(game: str) -> str:
    return event("day", TODAY, game).id


def _play_out(client: TestClient, event_id: str, player: str, name: str,
              seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    url = f"/api/daily/{event_id}/step"
    st = client.post(url, json={"player": player, "name": name}).json()
    while not st["done"]:
        _no_hidden_cards(st)
        legal = st["state"]["deal"]["legal_actions"]
        r = client.post(url, json={"player": player, "name": name,
                                   "action": legal[rng.randrange(len(legal))]})
        assert r.status_code == 200, r.text
        st = r.json()
    return st


def _no_hidden_cards(st: dict[str, Any]) -> None:
    """Every card in the answer is the seat's own, played, or shown to everyone."""
    d = st["state"]["deal"]
    seen = set(d["hand"]) | {c for t in d["tricks"] for c in t["cards"]}
    seen |= {c for _s, c in d["trick"]} | {c for k in d["known"] for c in k}
    seen |= {x for x in (d.get("trump_card"), d.get("upcard")) if x}
    for ex in d.get("exchanges", []):
        seen |= {str(x) for x in ex[1:]}
    assert set(CARD.findall(json.dumps(st))) <= seen


# ------------------------------------------------------------------ the events

def test_events_are_the_same_for_everyone_and_differ_by_day_and_game() -> None:
    a = event("day", datetime.date(2026, 12, 5), "guinote")
    assert a == parse_event(a.id) and a.deal_seed(0) == event("day", "2026-12-05",
                                                                  "guinote").deal_seed(0)
    assert a.deal_seed(0) != event("day", "2026-12-06", "guinote").deal_seed(0)
    assert a.deal_seed(0) != event("day", "2026-12-05", "tute_parejas").deal_seed(0)
    week = event("week", datetime.date(2026, 12, 5), "guinote")
    assert week.period == "2026-W49" and week.deals == 3
    assert len(current_events(TODAY)) == 2 * len(GAMES)
    for bad in ("day_2026-13-05_guinote", "month_2026-12_guinote", "day_2026-12-05_chess",
                "x"):
        with pytest.raises(TuteError, match="invalid"):
            parse_event(bad)


def test_a_replay_is_deterministic_and_refuses_an_illegal_action() -> None:
    ev = event("day", "2026-12-05", "tute_2p_habanero")
    start = replay(ev, [])
    first = str(start.deal.legal_actions()[0])
    assert replay(ev, [first]).deal.actions == replay(ev, [first]).deal.actions
    with pytest.raises(TuteError, match="not legal"):
        replay(ev, ["Zz"])


def test_others_play_counts_the_same_positions() -> None:
    mine = [(0, "k1", "Ao"), (0, "k2", "3o")]
    others = [[(0, "k1", "Ao"), (0, "k9", "Rc")], [(0, "k1", "5o")], [(0, "k1", "Ao")]]
    got = others_play(mine, others)
    assert got[0]["most_common"] == "Ao" and got[0]["counts"] == {"Ao": 2, "5o": 1}
    assert got[1]["most_common"] is None


# ------------------------------------------------------------------ over HTTP

def test_a_deal_of_the_day_is_played_once_and_ranked(client: TestClient) -> None:
    ev = _day("tute_2p_habanero")
    players = [("p" * 8 + str(k), f"J{k}") for k in range(3)]
    # the ranking is closed until one has played
    r = client.get(f"/api/daily/{ev}/ranking", params={"player": players[0][0]})
    assert r.status_code == 403 and r.json()["error"] == "not_played"
    scores = []
    for k, (pid, name) in enumerate(players):
        st = _play_out(client, ev, pid, name, seed=k)
        assert st["done"] and len(st["margins"]) == 1
        scores.append(st["score"])
    # once played: no second entry, no take-back
    again = client.post(f"/api/daily/{ev}/step", json={"player": players[0][0],
                                                       "action": "Ao"})
    assert again.status_code == 409 and again.json()["error"] == "already_played"
    r = client.get(f"/api/daily/{ev}/ranking", params={"player": players[0][0]})
    assert r.status_code == 200
    rank = r.json()
    assert rank["players"] == 3
    got = [(x["rank"], x["score"]) for x in rank["ranking"]]
    assert [sc for _r, sc in got] == sorted(scores, reverse=True)
    assert all(r == 1 + sum(o > sc for o in scores) for r, sc in got)
    assert rank["me"]["name"] == "J0" and rank["me"]["score"] == scores[0]
    # the first decision is the same position for everyone: all the others are counted there
    assert sum(rank["others"][0]["counts"].values()) == 2
    # each player's double-dummy analysis, made once it has finished
    def analysed() -> Any:
        got = client.get(f"/api/daily/{ev}/ranking", params={"player": players[0][0]}).json()
        return got if all(r["lost"] is not None for r in got["ranking"]) else None

    # a guard against a hang only: the first analysis may wait for the solver's compiled code
    rank = wait_until(analysed, "the analyses", timeout=900)
    mine = rank["analysis"]
    assert mine["measured"] == len(mine["decisions"]) > 0
    assert mine["loss"] == sum(d["loss"] for d in mine["decisions"]) == rank["me"]["lost"]
    played = {(o["deal"], o["move"]): o["played"] for o in rank["others"]}
    assert all(played[(d["deal"], d["move"])] == d["played"] for d in mine["decisions"])
    listed = {e["id"]: e for e in client.get("/api/daily").json()["events"]}
    assert listed[ev]["players"] == 3


def test_a_move_that_is_not_legal_is_refused_and_changes_nothing(client: TestClient) -> None:
    ev = _day("guinote")
    url = f"/api/daily/{ev}/step"
    st = client.post(url, json={"player": "abcdefgh1"}).json()
    bad = client.post(url, json={"player": "abcdefgh1", "action": "Zz"})
    assert bad.status_code == 400 and bad.json()["error"] == "illegal"
    assert client.post(url, json={"player": "abcdefgh1"}).json() == st
    _no_hidden_cards(st)
    assert client.post(url, json={"player": "short"}).status_code == 422
    assert client.post("/api/daily/day_2020-01-01_guinote/step",
                       json={"player": "abcdefgh1"}).status_code == 409
    assert client.post("/api/daily/nonsense/step", json={"player": "abcdefgh1"}
                       ).status_code == 404


def test_the_parejas_deal_of_the_day_sends_no_hidden_card(client: TestClient) -> None:
    st = _play_out(client, _day("tute_parejas"), "parejas01", "Ana", seed=3)
    assert st["done"]
    for page in ("/diario", f"/diario/{_day('guinote')}"):
        assert "text/html" in client.get(page).headers["content-type"]


# ------------------------------------------------------------------ in the browser

browser_test = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="browser tests need Debian's chromium at /usr/bin/chromium")


@browser_test
@pytest.mark.timeout(180)
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_browser_plays_the_deal_of_the_day(browser: Any, start: Callable[..., str],
                                           viewport: dict[str, int]) -> None:
    base = start()
    page = _page(browser, viewport, base)
    page.goto(f"{base}/diario")
    page.wait_for_selector("#daily-day .daily-link", timeout=15000)
    page.locator('#daily-day .daily-link[data-event*="guinote"]').click()
    page.wait_for_function("() => window.__daily && window.__daily.st", timeout=15000)
    for _ in range(80):  # a card (or a cante) a turn until the deal is over
        if page.evaluate("() => window.__daily.st.done"):
            break
        if viewport is PHONE:
            _fits(page, "#hand")
        before = page.evaluate("() => window.__daily.steps")
        target = page.locator(".actions [data-action], .hand-card.legal").first
        target.click(timeout=5000)
        page.wait_for_function("(b) => !window.__daily.pending && window.__daily.steps > b",
                               arg=before, timeout=15000)
    page.wait_for_selector("#daily-ranking #daily-rank", timeout=15000)
    assert page.locator("#daily-others li").count() >= 1
    # the analysis comes after the last move: the page asks again until it is there
    page.wait_for_function("() => window.__daily.rank && window.__daily.rank.analysis",
                           timeout=60000)
    page.wait_for_function("() => !document.querySelector('.daily-table').textContent"
                           ".includes('…')", timeout=15000)
    if viewport is PHONE:
        _fits(page, "#daily-ranking")
        assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    assert not page.errors


def test_an_account_has_one_entry_whatever_the_browser(client: TestClient) -> None:
    web = secure(client)
    sign_up(web, "Lola")
    ev = _day("tute_2p_habanero")
    url = f"/api/daily/{ev}/step"
    st = web.post(url, json={"player": "browser-one"}).json()
    first = st["state"]["deal"]["legal_actions"][0]
    assert web.post(url, json={"player": "browser-one", "action": first}).status_code == 200
    # another browser id, the same account: the same entry, one move in
    again = web.post(url, json={"player": "browser-two"}).json()
    assert again["state"]["deal"]["hand"] == replay(parse_event(ev), [first]).deal.hand(
        parse_event(ev).seat).to_list()
    # a browser with no account: its own entry, from the start
    with device(client) as other:
        fresh = other.post(url, json={"player": "browser-two"}).json()
        assert fresh == st


# ------------------------------------------------------------------ storage

def test_a_step_lands_once_when_two_are_taken_at_the_same_time(tmp_path: Any) -> None:
    """The compare-and-set on the entry's actions: of two steps made from the same entry (two
    tabs, two processes), the second writes nothing and is told so."""
    from tute.server.daily_store import DailyStore
    from tute.server.store import Store

    store = Store(f"sqlite:///{tmp_path / 'd.db'}")
    daily = DailyStore(store)
    ev = _day("guinote")

    def step(before: int, taken: list[str]) -> bool:
        op = DailyStore.op_step(ev, "b:browser-1", None, before, {
            "name": "Ana", "taken": taken, "done": False, "score": None, "margins": []}, 1.0)
        with store.engine.begin() as conn:  # what the store's writer does with an op
            return bool(op(conn))

    try:
        got = [step(0, ["a"]), step(0, ["b"]), step(1, ["a", "c"]), step(1, ["a", "d"])]
        assert got == [True, False, True, False]
        entry = daily.entry(ev, "b:browser-1")
        assert entry is not None and entry.taken == ["a", "c"]
    finally:
        store.close()


def test_two_servers_on_one_database_share_the_entries(make_client: Any, pg_url: str) -> None:
    """The entries live in the shared database: a player goes on at another process of the
    site where it left off, and the ranking there counts the players of both."""
    a, b = make_client(database_url=pg_url), make_client(database_url=pg_url)
    ev = _day("tute_2p_habanero")
    url = f"/api/daily/{ev}/step"
    st = a.post(url, json={"player": "browser-aa", "name": "Ana"}).json()
    first = st["state"]["deal"]["legal_actions"][0]
    assert a.post(url, json={"player": "browser-aa", "action": first}).status_code == 200
    there = b.post(url, json={"player": "browser-aa"}).json()
    assert there["state"]["deal"]["hand"] == replay(parse_event(ev), [first]).deal.hand(
        parse_event(ev).seat).to_list()
    _play_out(b, ev, "browser-aa", "Ana", seed=1)
    _play_out(a, ev, "browser-bb", "Bea", seed=2)
    rank = b.get(f"/api/daily/{ev}/ranking", params={"player": "browser-aa"}).json()
    assert rank["players"] == 2 and {r["name"] for r in rank["ranking"]} == {"Ana", "Bea"}
    listed = {e["id"]: e["players"] for e in b.get("/api/daily").json()["events"]}
    assert listed[ev] == 2


def test_the_player_page_lists_the_events_played_and_deleting_the_account_forgets_them(
        client: TestClient) -> None:
    web = secure(client)
    sign_up(web, "Rosa")
    ev = _day("tute_2p_habanero")
    st = _play_out(web, ev, "browser-rosa", "Rosa", seed=3)
    with device(client) as other:  # another player, without an account
        theirs = _play_out(other, ev, "browser-anon", "Anon", seed=4)
    page = web.get("/api/players/Rosa").json()
    [mine] = page["daily"]
    assert mine["id"] == ev and mine["score"] == st["score"] and mine["players"] == 2
    assert mine["rank"] == 1 + (theirs["score"] > st["score"])
    r = web.post("/api/account/delete", json={"password": "correct horse 1"})
    assert r.status_code == 200, r.text
    # the entry named the account: gone with it; the anonymous player's stays
    listed = {e["id"]: e["players"] for e in client.get("/api/daily").json()["events"]}
    assert listed[ev] == 1
