"""Hints ("¿Qué jugarías?"): the search bot's choice for a player's own turn, from the player's
view alone, computed in the bot pool; allowed against bots, at tables with other people only
when made with ``hints``; rate-limited; never a function of the hidden cards."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import tute
from tute.hints import REASONS, Hint, suggest
from tute.server.botpool import _hint

from .conftest import Player, hello

pytest.importorskip("numba")
pytestmark = pytest.mark.timeout(900)  # a hang guard: the first hint waits for compiled code


def _my_turn(p: Player) -> dict[str, Any]:
    """Read updates until it is this player's turn; the state then."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        st = p.state
        assert st is not None
        if st["deal"]["to_move"] == p.seat:
            return st
        p.recv()
    raise AssertionError("never my turn")


def _answer(p: Player, kind: str = "hint") -> dict[str, Any]:
    while True:
        m = p.recv()
        if m["type"] in (kind, "error"):
            return m


def test_a_hint_against_bots_and_its_limits(client: TestClient) -> None:
    r = client.post("/api/play", json={"variant": "tute_2p_habanero", "level": "medio",
                                       "name": "Ana"}).json()
    assert client.get(f"/api/tables/{r['id']}").json()["hints"] is False
    with client.websocket_connect(f"/ws/{r['id']}") as ws, \
            client.websocket_connect(f"/ws/{r['id']}") as wspec:
        ana, spec = hello(ws, r["token"]), hello(wspec)
        spec.send({"type": "hint"})
        assert _answer(spec)["code"] == "not_seated"
        st = _my_turn(ana)
        ana.send({"type": "hint", "ref": "h1"})
        ana.send({"type": "hint", "ref": "h2"})  # one at a time per seat
        first = _answer(ana)
        if first["type"] == "error":  # the refusal of the second came first
            assert first["code"] == "rate_limited" and first["ref"] == "h2"
            m = _answer(ana)
        else:
            m = first
            assert _answer(ana)["code"] == "rate_limited"
        assert m["type"] == "hint" and m["ref"] == "h1" and m["v"] == ana.v
        assert m["action"] in st["deal"]["legal_actions"]
        reason = m["reason"]
        assert reason["code"] in REASONS and reason["es"] and reason["en"]
        assert set(reason) >= {"code", "params", "es", "en", "worlds"}
        # nothing moved: the hint went to the asker only, and the game is where it was
        ana.send({"type": "ping", "ref": "p"})
        assert ana.until("pong")["v"] == m["v"]
        # play on, then ask out of turn
        ana.send({"type": "act", "action": m["action"]})
        ana.until("update")
        now = ana.state
        now_v = ana.v
        assert now is not None
        if now["deal"]["to_move"] != ana.seat:
            ana.send({"type": "hint"})
            m = _answer(ana)
            # refused, unless the bot moved first and it was her turn again when it was read
            assert m.get("code") == "not_your_turn" or (m["type"] == "hint" and m["v"] > now_v)


def _pair(client: TestClient, **body: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    r = client.post("/api/tables", json={"variant": "tute_2p_corriente", "seats": ["you", "open"],
                                        "name": "Ana", **body}).json()
    j = client.post(f"/api/tables/{r['id']}/join", json={"name": "Bea"}).json()
    return r, j


def test_hints_at_tables_with_people_only_when_the_table_allows(make_client: Any,
                                                               tmp_path: Path) -> None:
    client = make_client(data_dir=tmp_path / "d")
    off, off_j = _pair(client)
    on, on_j = _pair(client, hints=True)
    for r, j, allowed in ((off, off_j, False), (on, on_j, True)):
        assert client.get(f"/api/tables/{r['id']}").json()["hints"] is allowed
        with client.websocket_connect(f"/ws/{r['id']}") as wa, \
                client.websocket_connect(f"/ws/{r['id']}") as wb:
            a, b = hello(wa, r["token"]), hello(wb, j["token"])
            assert a.msgs[0]["table"]["hints"] is allowed
            st = a.state
            assert st is not None
            mover = a if st["deal"]["to_move"] == a.seat else b
            mover.send({"type": "hint"})
            m = _answer(mover)
            if allowed:
                legal = mover.state["deal"]["legal_actions"]  # type: ignore[index]
                assert m["type"] == "hint" and m["action"] in legal
            else:
                assert m["type"] == "error" and m["code"] == "hints_off"
    client.__exit__(None, None, None)
    again = make_client(data_dir=tmp_path / "d")  # the setting is stored with the table
    assert again.get(f"/api/tables/{on['id']}").json()["hints"] is True
    assert again.get(f"/api/tables/{off['id']}").json()["hints"] is False


# ------------------------------------------------------------------ what a hint depends on


def _twins() -> tuple[tute.Deal, tute.Deal]:
    """Two parejas deals that differ only in two hidden cards swapped between seats 1 and 2."""
    a = tute.Deal.new("tute_parejas", seed=12, dealer=3)
    hands = [h.to_list() for h in a.initial_hands]
    hands[1][-1], hands[2][-1] = hands[2][-1], hands[1][-1]
    b = tute.Deal.new("tute_parejas", dealer=3, hands=hands, trump_card=str(a.trump_card),
                      trump=a.trump.letter if a.trump else None)
    return a, b


def test_hints_never_depend_on_hidden_cards() -> None:
    a, b = _twins()
    assert a.hand(1) != b.hand(1)
    compared = 0
    while not a.is_over() and compared < 3:
        seat = a.to_move
        assert seat is not None and seat == b.to_move
        if a.hand(seat) == b.hand(seat) and len(a.legal_actions()) > 1:
            va, vb = a.view(seat), b.view(seat)
            assert va == vb  # the same view ...
            ha = suggest(va, seed=9, worlds=3, move_time=None)
            hb = suggest(vb, seed=9, worlds=3, move_time=None)
            assert ha == hb  # ... the same hint, whatever the others hold
            compared += 1
        common = [x for x in a.legal_actions() if x in b.legal_actions()]
        assert common, "the twins part ways"
        a.apply(common[0])
        b.apply(common[0])
    assert compared == 3


def test_the_pool_function_and_the_reasons() -> None:
    deal = tute.Deal.new("guinote_2p", seed=4)
    view = deal.view(deal.to_move)  # type: ignore[arg-type]
    out = _hint(view, 3)
    assert out["action"] in {str(x) for x in view.legal_actions}
    assert out["reason"]["es"] != out["reason"]["en"]
    only = suggest(view, 1, worlds=1) if len(view.legal_actions) == 1 else Hint("Ao", "only")
    assert only.text("en") == "It is the only legal move."
    for code, (es, en) in REASONS.items():
        assert es and en and code


@pytest.mark.parametrize("variant", list(tute.VARIANTS))
def test_a_view_crosses_to_the_pool(variant: str) -> None:
    """The pool's workers get the view pickled (CardSet once refused it: every search bot
    and hint then failed in the worker)."""
    import pickle

    deal = tute.Deal.new(variant, seed=1)
    for _ in range(9):
        deal.apply(deal.legal_actions()[-1])
    view = deal.view(deal.to_move)  # type: ignore[arg-type]
    assert pickle.loads(pickle.dumps(view)) == view
