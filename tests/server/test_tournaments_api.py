"""Tournaments over HTTP: made by an account, joined and left before the start, started by
their maker; a Swiss round's tables made with bots in the odd seats, the next round paired when
the last table ends, the places on the players' pages; an arena pairing again whoever is free
until its time is up, on a ManualClock; bad input refused with a clear error and nothing
changed; and the same on PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest

from .accounts_helpers import cheap_hashing, device, play_table, secure, sign_up
from .conftest import ManualClock, run_clock_until, wait_until

__all__ = ["cheap_hashing"]  # an autouse fixture of this module

SHORT = {"games_to_win": 1}  # habanero to one game: a tournament's table in a few deals
# (ws_burst: a connection's message bucket refills on the server's clock, and a ManualClock
# standing still would hold the players to their first burst)


def _make(c: Any, **kw: Any) -> dict[str, Any]:
    body = {"name": "Copa de prueba", "variant": "tute_2p_habanero", "options": SHORT,
            "kind": "swiss", "rounds": 2, "level": "random", **kw}
    r = c.post("/api/tournaments", json=body)
    assert r.status_code == 200, r.text
    return dict(r.json())


def _view(c: Any, tid: str) -> dict[str, Any]:
    r = c.get(f"/api/tournaments/{tid}")
    assert r.status_code == 200, r.text
    return dict(r.json())


def _people(c: Any) -> list[Any]:
    """Ana on ``c``, Bea and Carla on devices of their own."""
    sign_up(c, "Ana")
    out = [c]
    for name in ("Bea", "Carla"):
        d = device(c)
        sign_up(d, name)
        out.append(d)
    return out


def _play_round(c: Any, players: list[Any], tid: str) -> None:
    """Every player's table of the round played out by its people (random legal moves)."""
    tables: dict[str, list[str]] = {}
    for p in players:
        mine = _view(p, tid)["you"]["table"]
        if mine is not None:
            tables.setdefault(mine["id"], []).append(mine["token"])
    assert tables
    for k, (table_id, tokens) in enumerate(sorted(tables.items())):
        play_table(c, table_id, tokens, seed=k)


def test_a_swiss_tournament_from_its_making_to_the_players_pages(
        make_client: Any, clock: ManualClock) -> None:
    c = secure(make_client(clock=clock, ws_burst=100_000))
    ana, bea, carla = _people(c)
    made = _make(ana)
    tid = made["id"]
    assert made["status"] == "open" and made["you"]["joined"] and made["you"]["creator"]
    assert made["url"] == f"/torneo/{tid}"
    for p in (bea, carla):
        assert p.post(f"/api/tournaments/{tid}/join", json={}).status_code == 200
    left = carla.post(f"/api/tournaments/{tid}/leave")
    assert left.status_code == 200 and left.json()["count"] == 2
    assert carla.post(f"/api/tournaments/{tid}/join", json={}).json()["count"] == 3
    assert c.get("/api/tournaments").json()["tournaments"][0]["id"] == tid

    assert bea.post(f"/api/tournaments/{tid}/start").json()["error"] == "not_creator"
    started = ana.post(f"/api/tournaments/{tid}/start").json()
    assert started["status"] == "running" and started["round"] == 1
    games = started["games"]
    assert len(games) == 2 and sum(None in g["seats"] for g in games) == 1  # a bot's seat
    assert sorted(n for g in games for n in g["seats"] if n) == ["Ana", "Bea", "Carla"]
    late = device(c)
    sign_up(late, "Dani")
    assert late.post(f"/api/tournaments/{tid}/join", json={}).json()["error"] == "started"
    assert _view(late, tid)["you"] == {"joined": False, "creator": False, "unit": None,
                                       "table": None}
    # the tables are the accounts' seats, rated or not: they follow the player
    seats = ana.get("/api/account/seats").json()["seats"]
    mine = _view(ana, tid)["you"]["table"]
    assert any(s["id"] == mine["id"] and s["token"] == mine["token"] for s in seats)

    _play_round(c, [ana, bea, carla], tid)
    after = wait_until(lambda: (v := _view(c, tid))["round"] == 2 and v, "the second round")
    assert after["status"] == "running" and len(after["games"]) == 4
    firsts = {frozenset(n for n in g["seats"]) for g in after["games"] if g["round"] == 1}
    seconds = {frozenset(n for n in g["seats"]) for g in after["games"] if g["round"] == 2}
    assert not firsts & seconds  # nobody plays the same opponent twice
    _play_round(c, [ana, bea, carla], tid)
    done = wait_until(lambda: (v := _view(c, tid))["status"] == "finished" and v, "the end")
    table = done["standings"]
    assert [r["games"] for r in table] == [2, 2, 2]
    assert table[0]["place"] == 1 and sum(r["points"] for r in table) == pytest.approx(
        4 - sum(1 for g in done["games"] if None in g["seats"] and g["ranks"][
            g["seats"].index(None)] == 0))
    for p, name in ((ana, "Ana"), (bea, "Bea"), (carla, "Carla")):
        page = p.get(f"/api/players/{name}").json()
        row = page["tournaments"][0]
        assert row["id"] == tid and row["name"] == "Copa de prueba"
        assert row["place"] == next(r["place"] for r in table if r["name"] == name)
    assert c.get("/api/players/Dani").json()["tournaments"] == []


def test_an_arena_pairs_whoever_is_free_until_its_time_is_up(
        make_client: Any, clock: ManualClock) -> None:
    c = secure(make_client(clock=clock, ws_burst=100_000))
    ana, bea, carla = _people(c)
    tid = _make(ana, kind="arena", minutes=5)["id"]
    for p in (bea, carla):
        p.post(f"/api/tournaments/{tid}/join", json={})
    started = ana.post(f"/api/tournaments/{tid}/start").json()
    assert started["status"] == "running" and started["ends_at"] == pytest.approx(
        started["started_at"] + 300)
    assert len(started["games"]) == 1 and len(started["waiting"]) == 1
    lone = next(p for p in (ana, bea, carla) if _view(p, tid)["you"]["table"] is None)
    # alone for a while: the bots take the other seat
    run_clock_until(clock, lambda: _view(lone, tid)["you"]["table"], "a table with bots",
                    horizon=5)
    assert None in _view(c, tid)["games"][0]["seats"]
    first = next(g for g in _view(c, tid)["games"] if None not in g["seats"])
    pair = [p for p in (ana, bea, carla) if _view(p, tid)["you"]["table"] is not None
            and _view(p, tid)["you"]["table"]["id"] == first["table"]]
    play_table(c, first["table"], [_view(p, tid)["you"]["table"]["token"] for p in pair])
    again = wait_until(lambda: (t := _view(pair[0], tid)["you"]["table"]) and t["id"] !=
                       first["table"] and t, "the next game of the two")
    assert _view(pair[1], tid)["you"]["table"]["id"] == again["id"]
    # time runs out: the games under way end (the bots play for the absent), no new ones
    run_clock_until(clock, lambda: _view(c, tid)["status"] == "finished", "the arena's end",
                    horizon=120)
    done = _view(c, tid)
    assert all(g["status"] != "playing" for g in done["games"])
    winner = next(g for g in done["games"] if g["table"] == first["table"])
    assert max(r["points"] for r in done["standings"]) >= 2
    assert winner["ranks"] is not None


def test_bad_input_is_refused_with_a_clear_error_and_changes_nothing(
        make_client: Any) -> None:
    c = secure(make_client())
    assert c.post("/api/tournaments", json={"name": "X"}).json()["error"] == "not_logged_in"
    sign_up(c, "Ana")
    cases = [
        ({"variant": "no_such_game"}, "bad_tournament", "no_such_game"),
        ({"kind": "knockout"}, "bad_tournament", "kind"),
        ({"rounds": 99}, "bad_tournament", "rounds"),
        ({"rounds": "3"}, "bad_request", "rounds"),
        ({"name": ""}, "bad_tournament", "name"),
        ({"level": "god"}, "bad_tournament", "level"),
        ({"options": {"games_to_win": "1"}}, "bad_tournament", "games_to_win"),
        ({"starts_at": 1.0}, "bad_tournament", "start"),
        ({"surprise": True}, "bad_request", "surprise"),
    ]
    for change, code, word in cases:
        r = c.post("/api/tournaments", json={"name": "Copa", "variant": "tute_2p_habanero",
                                              **change})
        assert r.status_code in (400, 422), (change, r.text)
        assert r.json()["error"] == code and word in r.json()["reason"], (change, r.json())
    assert c.get("/api/tournaments").json()["tournaments"] == []

    t = _make(c, variant="tute_parejas", options={}, pairs="rotating")
    tid = t["id"]
    before = _view(c, tid)
    refusals = [
        (c.post(f"/api/tournaments/{tid}/join", json={}), "already_joined"),
        (c.post(f"/api/tournaments/{tid}/start"), "too_few"),
        (c.post("/api/tournaments/nope!/join", json={}), "not_found"),
        (c.get("/api/tournaments/" + "x" * 40), "not_found"),
        (c.post(f"/api/tournaments/{tid}/join", json={"partner": 3}), "bad_request"),
    ]
    other = device(c)
    sign_up(other, "Bea")
    refusals += [
        (other.post(f"/api/tournaments/{tid}/leave"), "not_joined"),
        (other.post(f"/api/tournaments/{tid}/join", json={"partner": "Ana"}),
         "bad_tournament"),  # partners are named in fixed pairs only
        (device(c).post(f"/api/tournaments/{tid}/join", json={}), "not_logged_in"),
    ]
    for r, code in refusals:
        assert r.status_code >= 400 and r.json()["error"] == code, (code, r.text)
    after = _view(c, tid)
    assert {k: v for k, v in after.items() if k != "now"} == {
        k: v for k, v in before.items() if k != "now"}


def test_fixed_pairs_of_a_partnership_game_with_a_bot_partner_for_the_odd_one(
        make_client: Any, clock: ManualClock) -> None:
    c = secure(make_client(clock=clock, ws_burst=100_000))
    ana, bea, carla = _people(c)
    tid = _make(ana, variant="tute_parejas", options={"match": {"mode": "series",
                                                                 "deals": 1}},
                pairs="fixed", rounds=1)["id"]
    assert carla.post(f"/api/tournaments/{tid}/join", json={"partner": "Ana"}
                      ).status_code == 200
    bea.post(f"/api/tournaments/{tid}/join", json={})
    ana_view = _view(ana, tid)
    assert [p["name"] for p in ana_view["players"]] == ["Ana", "Carla", "Bea"]
    started = ana.post(f"/api/tournaments/{tid}/start").json()
    assert sorted(u["name"] for u in started["units"]) == ["Ana & Carla", "Bea"]
    game = started["games"][0]
    assert game["seats"].count(None) == 1  # Bea's partner is a bot
    side = {n: i % 2 for i, n in enumerate(game["seats"]) if n}
    assert side["Ana"] == side["Carla"] != side["Bea"]


def test_tournaments_on_postgresql(make_client: Any, pg_url: str) -> None:
    c = secure(make_client(database_url=pg_url))
    ana, bea, _carla = _people(c)
    tid = _make(ana, rounds=1, rated=True)["id"]
    bea.post(f"/api/tournaments/{tid}/join", json={})
    started = ana.post(f"/api/tournaments/{tid}/start").json()
    assert started["status"] == "running" and len(started["games"]) == 1
    at = ana.get(f"/api/account/tables/{started['games'][0]['table']}").json()
    assert at["rated"] and at["mode"] == "two" and at["seat"] is not None
    _play_round(c, [ana, bea], tid)
    done = wait_until(lambda: (v := _view(c, tid))["status"] == "finished" and v, "the end")
    assert sorted(r["place"] for r in done["standings"]) == [1, 2]
    page = ana.get("/api/players/Ana").json()
    assert page["tournaments"][0]["place"] in (1, 2)
    assert page["ratings"][0]["games"] == 1  # the rated tournament's game


def test_a_deleted_account_leaves_no_name_in_its_tournaments(make_client: Any) -> None:
    c = secure(make_client())
    ana, bea, _carla = _people(c)
    tid = _make(ana)["id"]
    bea.post(f"/api/tournaments/{tid}/join", json={})
    ana.post(f"/api/tournaments/{tid}/start")
    assert bea.post("/api/account/delete", json={"password": "correct horse 1"}
                    ).status_code == 200
    seen = _view(c, tid)
    text = str(seen["players"]) + str(seen["units"]) + str(seen["standings"])
    assert "Bea" not in text and "Anónimo" in text
    assert c.get("/api/players/Bea").status_code == 404
