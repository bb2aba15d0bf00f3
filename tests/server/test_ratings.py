"""Ratings of rated tables (openskill): one per player and mode, partners rated one by one,
provisional until the uncertainty drops, bots as fixed anchors, the chance to win before a
game, a penalty for leaving a rated game on purpose and none for a lost connection."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tute.games import game_for
from tute.server import skill
from tute.server.accounts import MODES
from tute.variants import VARIANTS, resolve_options

from .accounts_helpers import cheap_hashing, device, play_table, secure, sign_up
from .conftest import ManualClock, hello, run_clock_until, wait_until

__all__ = ["cheap_hashing"]  # an autouse fixture of this module


@pytest.fixture
def web(make_client: Any) -> TestClient:
    return secure(make_client())


def test_every_variant_names_its_mode_through_its_game() -> None:
    modes = {v.id: game_for(v).rating_mode(resolve_options(v, {})) for v in VARIANTS.values()}
    assert set(modes.values()) <= set(MODES)
    assert modes["tute_parejas"] == "parejas" and modes["guinote"] == "guinote"
    assert modes["tute_2p_habanero"] == modes["guinote_2p"] == "two"
    assert modes["tute_arrastrado_3p"] == "three"
    arrastrado = VARIANTS["tute_arrastrado_3p"]
    if "players" in arrastrado.option_names:  # the table's size, not the id, decides
        four = resolve_options(arrastrado, {"players": 4})
        assert game_for(arrastrado).rating_mode(four) == "many"


def test_partners_are_rated_one_by_one_from_the_pairs_result() -> None:
    sure = skill.Player(30.0, 2.0, "a")
    new = skill.Player(25.0, 8.0, "b")
    bots = [skill.bot_anchor("parejas", "medio")] * 2
    after = skill.rate([sure, bots[0], new, bots[1]], [0, 1, 0, 1], [0, 1])
    gain = [after[0].mu - sure.mu, after[2].mu - new.mu]
    assert all(g > 0 for g in gain) and gain[1] > 3 * gain[0]  # the unsure one moves more
    assert after[1] == bots[0] and after[3] == bots[1]  # anchors never move
    lost = skill.rate([sure, bots[0], new, bots[1]], [0, 1, 0, 1], [1, 0])
    assert lost[0].mu < sure.mu and lost[2].mu < new.mu


def test_ranks_follow_the_result() -> None:
    assert skill.side_ranks({"winner": 1, "games": [3, 4]}, 2) == [1, 0]
    assert skill.side_ranks({"winner": 0, "games": [2, 1, 1]}, 3) == [0, 1, 1]
    assert skill.side_ranks({"winner": None, "games": [1, 2, 0], "losses": [0, 0, 1]}, 3) == [
        1, 0, 2]


def test_provisional_until_sigma_drops() -> None:
    p = skill.Player(skill.DEFAULT_MU, skill.DEFAULT_SIGMA, "a")
    anchor = skill.bot_anchor("two", "medio")
    n = 0
    while p.sigma >= skill.PROVISIONAL_SIGMA:
        p = skill.rate([p, anchor], [0, 1], [n % 2, 1 - n % 2])[0]
        n += 1
    assert 5 <= n <= 40 and p.games == n


def _play_rated(web: TestClient, variant: str = "habanero", level: str = "random",
                seed: int = 0) -> dict[str, Any]:
    made = web.post("/api/account/play", json={"variant": variant, "level": level,
                                               "rated": True})
    assert made.status_code == 200, made.text
    played = play_table(web, made.json()["id"], [made.json()["token"]], seed=seed)
    return {**made.json(), **played}


def _expected(before: skill.Player, result: dict[str, Any], mode: str, level: str,
              seats: int, side_of: list[int]) -> skill.Player:
    players = [before] + [skill.bot_anchor(mode, level)] * (seats - 1)
    return skill.rate(players, side_of, skill.side_ranks(result, max(side_of) + 1))[0]


def test_a_finished_parejas_game_rates_the_player_and_not_the_bots(web: TestClient) -> None:
    sign_up(web, "Ana")
    board = web.get("/api/ratings/leaderboard?mode=parejas").json()
    chances = web.get("/api/ratings/chances?variant=tute_parejas&level=medio").json()
    assert chances["mode"] == "parejas" and abs(sum(chances["chances"]) - 1) < 1e-9
    game = _play_rated(web, "tute_parejas", "medio", seed=4)
    result = game["state"]["result"]
    page = web.get("/api/players/Ana").json()
    [rating] = page["ratings"]
    want = _expected(skill.Player(skill.DEFAULT_MU, skill.DEFAULT_SIGMA, "a"), result,
                     "parejas", "medio", 4, [0, 1, 0, 1])
    assert rating["mode"] == "parejas" and rating["games"] == 1 and rating["provisional"]
    assert rating["mu"] == pytest.approx(want.mu, abs=1e-3)
    assert (rating["mu"] > skill.DEFAULT_MU) == (result["winner"] == 0)
    [point] = page["history"]["parejas"]
    assert point["reason"] == "game" and point["rating"] == rating["rating"]
    after = web.get("/api/ratings/leaderboard?mode=parejas").json()
    assert after["bots"] == board["bots"]  # the anchors did not move
    assert [p["name"] for p in after["players"]] == ["Ana"]
    # asked again (or after a restart): the game is rated once
    assert len(web.get("/api/players/Ana").json()["history"]["parejas"]) == 1


def test_partners_at_one_table_each_get_their_own_rating(web: TestClient) -> None:
    sign_up(web, "Ana")
    other = device(web)
    sign_up(other, "Bea")
    made = web.post("/api/account/tables", json={
        "variant": "tute_parejas", "seats": ["you", "medio", "open", "medio"],
        "rated": True}).json()
    joined = other.post(f"/api/account/tables/{made['id']}/join", json={}).json()
    assert joined["seat"] == 2
    chances = web.get(f"/api/ratings/chances/{made['id']}").json()
    assert len(chances["chances"]) == 2
    played = play_table(web, made["id"], [made["token"], joined["token"]], seed=5)
    won = played["state"]["result"]["winner"] == 0
    a = web.get("/api/players/Ana").json()["ratings"][0]
    b = web.get("/api/players/Bea").json()["ratings"][0]
    assert a["games"] == b["games"] == 1
    assert (a["mu"] > skill.DEFAULT_MU) == (b["mu"] > skill.DEFAULT_MU) == won


def test_casual_tables_and_tables_with_anonymous_people_are_not_rated(
        web: TestClient) -> None:
    sign_up(web, "Ana")
    casual = web.post("/api/account/play", json={"variant": "habanero", "level": "random"}
                      ).json()
    play_table(web, casual["id"], [casual["token"]], seed=6)
    made = web.post("/api/account/tables", json={
        "variant": "habanero", "seats": ["you", "open"], "rated": True}).json()
    anon = web.post(f"/api/tables/{made['id']}/join", json={"name": "Anon"}).json()
    play_table(web, made["id"], [made["token"], anon["token"]], seed=7)
    page = web.get("/api/players/Ana").json()
    assert page["ratings"] == [] and page["stats"]["tute_2p_habanero"]["games"] == 2
    assert web.post("/api/account/play", json={"rated": True, "variant": "habanero"}
                    ).status_code == 200
    web.cookies.clear()  # rated tables are for account holders
    assert web.post("/api/account/play", json={"rated": True}).status_code == 401


def test_leaving_on_purpose_costs_a_penalty(web: TestClient) -> None:
    sign_up(web, "Ana")
    made = web.post("/api/account/play", json={"variant": "habanero", "level": "random",
                                               "rated": True}).json()
    with web.websocket_connect(f"/ws/{made['id']}") as ws:
        p = hello(ws, made["token"])
        r = web.post(f"/api/account/tables/{made['id']}/leave")
        assert r.status_code == 200 and r.json()["left"]
        p.recv()
        while p.msgs[-1]["type"] != "error":
            p.recv()
        assert p.msgs[-1]["code"] == "left" and p.msgs[-1]["fatal"]
    # its bot plays on to the end
    result = wait_until(lambda: web.get(f"/api/tables/{made['id']}").json()["status"]
                        == "finished" and web.get(f"/api/games/{made['id']}/record").json())
    result = result["result"]
    page = web.get("/api/players/Ana").json()
    [rating] = page["ratings"]
    want = _expected(skill.Player(skill.DEFAULT_MU, skill.DEFAULT_SIGMA, "a"), result,
                     "two", "random", 2, [0, 1])
    assert rating["mu"] == pytest.approx(want.mu - skill.LEAVE_PENALTY, abs=1e-3)
    assert page["history"]["two"][0]["reason"] == "left"


def test_a_lost_connection_that_comes_back_costs_nothing(web: TestClient) -> None:
    sign_up(web, "Ana")
    made = web.post("/api/account/play", json={"variant": "habanero", "level": "random",
                                               "rated": True}).json()
    with web.websocket_connect(f"/ws/{made['id']}") as ws:
        p = hello(ws, made["token"])
        if p.state and p.state["deal"]["to_move"] == p.seat:
            p.send({"type": "act", "action": p.state["deal"]["legal_actions"][0]})
            p.until("update")
    # the connection dropped; the player comes back and finishes the game
    played = play_table(web, made["id"], [made["token"]], seed=8)
    page = web.get("/api/players/Ana").json()
    want = _expected(skill.Player(skill.DEFAULT_MU, skill.DEFAULT_SIGMA, "a"),
                     played["state"]["result"], "two", "random", 2, [0, 1])
    assert page["ratings"][0]["mu"] == pytest.approx(want.mu, abs=1e-3)
    assert page["history"]["two"][0]["reason"] == "game"


def test_an_abandoned_rated_game_costs_its_players_the_penalty(
        make_client: Any, clock: ManualClock) -> None:
    web = secure(make_client(clock=clock, bot_timeout=5.0, abandon_after=60.0))
    sign_up(web, "Ana")
    made = web.post("/api/account/tables", json={"variant": "habanero",
                                                 "seats": ["you", "open"], "rated": True}
                    ).json()
    other = device(web)
    sign_up(other, "Bea")
    other.post(f"/api/account/tables/{made['id']}/join", json={})
    run_clock_until(clock, lambda: web.get(f"/api/tables/{made['id']}").json()["status"]
                    == "abandoned", "the table abandoned", horizon=120)
    for name in ("Ana", "Bea"):
        page = web.get(f"/api/players/{name}").json()
        assert page["ratings"][0]["mu"] == pytest.approx(
            skill.DEFAULT_MU - skill.LEAVE_PENALTY)
        assert page["history"]["two"][0]["reason"] == "left"


def test_leaderboard_periods(web: TestClient) -> None:
    sign_up(web, "Ana")
    _play_rated(web, seed=9)
    for period in ("week", "month", "all"):
        board = web.get(f"/api/ratings/leaderboard?mode=two&period={period}").json()
        assert [p["name"] for p in board["players"]] == ["Ana"]
        assert board["players"][0]["provisional"]
    assert web.get("/api/ratings/leaderboard?mode=three").json()["players"] == []


def test_ratings_on_postgresql(make_client: Any, pg_url: str) -> None:
    web = secure(make_client(database_url=pg_url))
    sign_up(web, "Ana")
    _play_rated(web, seed=10)
    page = web.get("/api/players/Ana").json()
    assert page["ratings"][0]["games"] == 1 and page["stats"]["tute_2p_habanero"]["games"] == 1
    assert web.post("/api/account/delete", json={"password": "correct horse 1"}
                    ).status_code == 200
    assert web.get("/api/players/Ana").status_code == 404
