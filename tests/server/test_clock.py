"""The optional turn clock: a player who lets it run out gets that one decision played by the
table's bot; it is stored with the table, refused outside its range, and kept by a rematch."""

from __future__ import annotations

from typing import Any

from tute.server.clock import ManualClock

from .conftest import hello, two_seats


def _table(c: Any, clock: int) -> dict[str, Any]:
    tid, (t0, t1) = two_seats(c, clock=clock)
    return {"id": tid, "token": t0, "token1": t1}


def test_the_clock_plays_for_a_player_who_lets_it_run_out(make_client: Any,
                                                          clock: ManualClock) -> None:
    c = make_client(clock=clock)
    r = _table(c, 10)
    with c.websocket_connect(f"/ws/{r['id']}") as w0, \
            c.websocket_connect(f"/ws/{r['id']}") as w1:
        players = {0: hello(w0, r["token"]), 1: hello(w1, r["token1"])}
        assert players[0].msgs[0]["table"]["clock"] == 10
        st = players[0].state
        assert st is not None
        mover = st["deal"]["to_move"]
        waiter = players[mover]
        assert clock.next_due() == 10.0  # the mover's clock
        clock.advance(10.0)
        u = waiter.until("update")  # nobody acts: the clock runs out and the bot plays
        assert u["seat"] == mover and u["kind"] == "action"
        # the update says the bot made that decision, to the player and to the others
        assert u["stand_in"] == "clock"
        assert players[1 - mover].until("update")["stand_in"] == "clock"
        assert u["v"] == waiter.msgs[0]["v"] + 1  # one decision, then the next clock
        # then the other player's clock: the game goes on with nobody acting
        clock.advance(10.0)
        u2 = waiter.until("update")
        assert u2["v"] == u["v"] + 1


def test_acting_in_time_stops_the_clock(make_client: Any, clock: ManualClock) -> None:
    c = make_client(clock=clock)
    r = _table(c, 10)
    with c.websocket_connect(f"/ws/{r['id']}") as w0, \
            c.websocket_connect(f"/ws/{r['id']}") as w1:
        players = {0: hello(w0, r["token"]), 1: hello(w1, r["token1"])}
        st = players[0].state
        assert st is not None
        mover = st["deal"]["to_move"]
        p = players[mover]
        clock.advance(5.0)  # half the clock
        assert p.state is not None
        action = p.state["deal"]["legal_actions"][0]
        p.send({"type": "act", "action": action})
        u = p.until("update")
        n = len(p.msgs)
        assert u["seat"] == mover and u["action"] == action  # the player's own, not the bot's
        assert "stand_in" not in u
        # the clock starts again for the next decision: 10 s from now, not from the first turn
        assert clock.next_due() == 10.0
        clock.advance(9.0)
        assert p.v == u["v"] and len(p.msgs) == n  # nothing more was played
        clock.advance(1.0)
        assert p.until("update")["v"] == u["v"] + 1


def test_the_clock_is_refused_outside_its_range_and_off_by_default(client: Any) -> None:
    for bad in (5, 601, -1, "x", True):
        r = client.post("/api/tables", json={"variant": "tute_2p_habanero",
                                             "seats": ["you", "open"], "clock": bad})
        assert r.status_code in (400, 422), (bad, r.text)
        assert "clock" in r.text
    r = client.post("/api/play", json={"variant": "tute_parejas"}).json()
    with client.websocket_connect(f"/ws/{r['id']}") as ws:
        assert hello(ws, r["token"]).msgs[0]["table"]["clock"] == 0


def test_the_clock_is_stored_with_the_table(make_client: Any, tmp_path: Any) -> None:
    data = tmp_path / "kept"
    c = make_client(data_dir=data)
    r = _table(c, 30)
    c.__exit__(None, None, None)
    c2 = make_client(data_dir=data)
    with c2.websocket_connect(f"/ws/{r['id']}") as ws:
        assert hello(ws, r["token"]).msgs[0]["table"]["clock"] == 30


def test_the_clock_runs_again_after_a_reconnect(make_client: Any, clock: ManualClock) -> None:
    """A player whose stand-in had taken the seat comes back on their turn: the stand-in
    stops, and the turn clock runs again (it stopped once and for all before)."""
    c = make_client(clock=clock, bot_timeout=5.0, bot_delay=3.0)
    r = _table(c, 10)
    with c.websocket_connect(f"/ws/{r['id']}") as w1:
        other = hello(w1, r["token1"])
        st = other.state
        assert st is not None
        if st["deal"]["to_move"] == 1:  # make it seat 0's turn
            w1.send_json({"type": "act", "action": st["deal"]["legal_actions"][0]})
            other.until("update")
        assert other.state is not None and other.state["deal"]["to_move"] == 0
        # seat 0 never came: its stand-in takes the seat after 5 s and thinks for 3
        clock.advance(5.0)
        while not other.until("seats")["seats"][0]["away"]:
            pass
        with c.websocket_connect(f"/ws/{r['id']}") as w0:
            me = hello(w0, r["token"])  # back before the stand-in played
            assert not me.msgs[0]["table"]["seats"][0]["away"]
            v = me.v
            clock.advance(9.0)
            assert me.v == v and other.v == v  # nobody played for seat 0
            clock.advance(1.0)  # its clock ran out: the bot plays this one decision
            u = me.until("update")
            assert u["seat"] == 0 and u["v"] == v + 1
            assert u["stand_in"] == "clock"


def test_a_missed_update_says_the_stand_in_played_it(make_client: Any,
                                                      clock: ManualClock) -> None:
    """A player gone long enough for the stand-in to take the seat finds, on coming back,
    which of the missed decisions the bot made for them (``stand_in``: "away")."""
    c = make_client(clock=clock, bot_timeout=5.0, bot_delay=0.0)
    r = _table(c, 0)
    with c.websocket_connect(f"/ws/{r['id']}") as w1:
        other = hello(w1, r["token1"])
        st = other.state
        assert st is not None
        if st["deal"]["to_move"] == 1:  # make it seat 0's turn
            w1.send_json({"type": "act", "action": st["deal"]["legal_actions"][0]})
            other.until("update")
        v = other.v
        clock.advance(5.0)  # seat 0 never came: its stand-in takes the seat and plays
        u = other.until("update")
        assert u["seat"] == 0 and u["stand_in"] == "away"
    with c.websocket_connect(f"/ws/{r['id']}") as w0:
        me = hello(w0, r["token"], since=v)
        missed = me.msgs[0]["missed"]
        assert missed and missed[0]["seat"] == 0 and missed[0]["stand_in"] == "away"
