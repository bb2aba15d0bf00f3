"""GET /api/games/{id}/analysis: the analysis of a finished game, refused while it is played (it
would show every hand). The double-dummy measure comes first (the deal asked for before the
others); the search measure follows in the background in the bot pool, one job per game, and
GET .../analysis/progress says how far it is. Both are computed once and then served from
memory, and from the data dir after a restart. The tests give the search a tiny budget."""

from __future__ import annotations

import random
import re
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tute.analysis import analyze_record
from tute.server.analyses import SearchBudget
from tute.server.botpool import BotPool

from .conftest import play_out, wait_until

pytestmark = pytest.mark.timeout(900)

TINY = SearchBudget(worlds=2)  # a few worlds a decision: a parejas deal in a few seconds
CARD = re.compile(r"\b[A234567SCR][oceb]\b")


def _play_out(client: TestClient, deals: int = 1) -> dict[str, Any]:
    r: dict[str, Any] = client.post("/api/play", json={
        "variant": "tute_parejas", "level": "facil",
        "options": {"match": {"mode": "series", "deals": deals}}}).json()
    for path in ("analysis", "analysis?deal=1", "analysis/progress"):
        early = client.get(f"/api/games/{r['id']}/{path}")
        assert early.status_code == 409 and early.json()["error"] == "not_finished"
    play_out(client, r["id"], r["token"], seed=5)
    return r


def _until_searched(client: TestClient, table_id: str, seconds: float = 800) -> dict[str, Any]:
    # ``seconds`` only guards against a hang: a pool worker's first search compiles the
    # solver, minutes on a loaded machine
    def finished() -> dict[str, Any] | None:
        p: dict[str, Any] = client.get(f"/api/games/{table_id}/analysis/progress").json()
        return p if p["state"] in ("done", "capped", "off", "failed") else None

    return dict(wait_until(finished, "the search to finish", timeout=seconds))


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[Any]]:
    """What the analyses asked of the bot pool: the deals of each double-dummy task, the
    (deal, move) pairs of each search task."""
    seen: dict[str, list[Any]] = {"analyse": [], "search": []}
    analyse, search = BotPool.analyse, BotPool.search

    async def spy_analyse(self: BotPool, record: dict[str, Any],
                          deals: Any = None) -> dict[str, Any]:
        seen["analyse"].append(None if deals is None else list(deals))
        return await analyse(self, record, deals)

    async def spy_search(self: BotPool, record: dict[str, Any], moves: Any,
                         *args: Any) -> list[dict[str, Any]]:
        seen["search"].append([tuple(m) for m in moves])
        return await search(self, record, moves, *args)

    monkeypatch.setattr(BotPool, "analyse", spy_analyse)
    monkeypatch.setattr(BotPool, "search", spy_search)
    return seen


def test_analysis_of_a_finished_game_is_cached(make_client: Any, tmp_path: Path,
                                               calls: dict[str, list[Any]]) -> None:
    """With the search off (worlds 0): the double-dummy measure alone, as before; computed
    once, then served from memory, and from the data dir after a restart."""
    off = SearchBudget(worlds=0)
    client = make_client(data_dir=tmp_path / "d", analysis_budget=off)
    r = _play_out(client)
    t0 = time.perf_counter()
    first = client.get(f"/api/games/{r['id']}/analysis")
    cold = time.perf_counter() - t0
    assert first.status_code == 200, first.text
    a = first.json()
    assert a["measure"] == "double_dummy" and a["budget"]["search"] is None
    assert a["search"]["state"] == "off"
    assert a["id"] == r["id"] and len(a["players"]) == 4 and a["sides"] == [0, 1, 0, 1]
    assert a["decisions"] and all(d["dd_loss"] is not None and d["dd_loss"] >= 0
                                  and isinstance(d["dd_value"], int) for d in a["decisions"])
    assert {row["seat"] for row in a["summary"]["seats"]} == {0, 1, 2, 3}
    assert calls["analyse"] == [[0]]
    t0 = time.perf_counter()
    again = client.get(f"/api/games/{r['id']}/analysis")
    warm = time.perf_counter() - t0
    assert again.json() == a
    print(f"analysis: first {cold:.2f} s, cached {warm * 1000:.1f} ms")
    assert calls["analyse"] == [[0]]  # from memory: nothing asked of the pool
    one = client.get(f"/api/games/{r['id']}/analysis?deal=1").json()
    assert one["deal"] == 1 and one["decisions"] == a["decisions"]
    assert one["game_summary"] == a["summary"]
    assert client.get(f"/api/games/{r['id']}/analysis?deal=2").status_code == 404
    assert client.get("/api/games/nope/analysis").status_code == 404
    # a restarted server reads it from the data dir: no new computation
    stored = list((tmp_path / "d" / "analysis").glob("*.json"))
    assert [f.stem for f in stored] == [r["id"]]
    client2 = make_client(data_dir=tmp_path / "d", analysis_budget=off)
    assert client2.get(f"/api/games/{r['id']}/analysis").json() == a
    assert calls["analyse"] == [[0]]


def test_the_search_measure_follows_and_is_kept(make_client: Any, tmp_path: Path,
                                                calls: dict[str, list[Any]]) -> None:
    """The double-dummy analysis at once, the search's measure of every decision once its
    job is done: the figures of ``tute analyze`` with the same budget, a reason for each
    better action, a summary with both measures; then from memory, and from the data dir
    after a restart with no work in the pool."""
    client = make_client(data_dir=tmp_path / "d", analysis_budget=TINY)
    r = _play_out(client)
    tid = r["id"]
    t0 = time.perf_counter()
    first = client.get(f"/api/games/{tid}/analysis?deal=1").json()
    print(f"double dummy: {time.perf_counter() - t0:.2f} s")
    assert first["search"]["state"] in ("pending", "queued", "running", "done")
    assert first["budget"] == {"search": "pimc", "worlds": 2, "seed": 0, "move_time": 30.0,
                               "game_seconds": 600.0, "double_dummy": "exact solver"}
    assert first["decisions"] and all(d["dd_loss"] is not None for d in first["decisions"])
    t0 = time.perf_counter()
    progress = _until_searched(client, tid)
    print(f"search measure (2 worlds a decision): {time.perf_counter() - t0:.2f} s more")
    assert progress["state"] == "done"
    assert progress["done"] == progress["total"] == len(first["decisions"])
    assert progress["deals_done"] == [1]
    t0 = time.perf_counter()
    a = client.get(f"/api/games/{tid}/analysis?deal=1").json()
    print(f"cached: {(time.perf_counter() - t0) * 1000:.1f} ms")
    assert a["measure"] == "search" and a["search"]["state"] == "done"
    assert [d["index"] for d in a["decisions"]] == [d["index"] for d in first["decisions"]]
    record = client.get(f"/api/games/{tid}/record").json()
    record.pop("players")
    want = analyze_record(record, worlds=2, seed=0, move_time=30.0).to_json()
    for got, d in zip(a["decisions"], want["decisions"], strict=True):
        assert {k: got[k] for k in d} == d  # both measures as tute analyze gives them
        assert got["worlds"] == 2 and got["played"] in got["values"]
        assert (got["reason"] is None) == (got["loss"] == 0)
        if got["reason"] is not None:
            assert got["reason"]["es"] and got["reason"]["en"] and got["reason"]["code"]
    for row in a["summary"]["seats"]:
        assert row["decisions"] and row["loss_per_decision"] is not None
        assert row["accuracy"] is not None and row["dd_accuracy"] is not None
    assert a["game_summary"] == a["summary"]
    assert calls["analyse"] == [[0]]  # one double-dummy task; every decision searched once
    searched = [m for chunk in calls["search"] for m in chunk]
    assert sorted(searched) == sorted({(d["deal"], d["move"]) for d in a["decisions"]})
    # a restarted server serves it from the data dir, nothing asked of the pool
    n = len(calls["analyse"]), len(calls["search"])
    client2 = make_client(data_dir=tmp_path / "d", analysis_budget=TINY)
    t0 = time.perf_counter()
    again = client2.get(f"/api/games/{tid}/analysis?deal=1")
    print(f"after a restart: {(time.perf_counter() - t0) * 1000:.1f} ms")
    assert again.json() == a
    assert client2.get(f"/api/games/{tid}/analysis/progress").json()["state"] == "done"
    assert (len(calls["analyse"]), len(calls["search"])) == n
    # a server with another budget keeps the double-dummy part and redoes the search alone
    client3 = make_client(data_dir=tmp_path / "d",
                          analysis_budget=SearchBudget(worlds=1, move_time=None))
    other = client3.get(f"/api/games/{tid}/analysis").json()
    assert other["measure"] != "search" and other["budget"]["worlds"] == 1
    assert all(d["worlds"] in (0, 1) for d in other["decisions"])  # none of the old budget's
    assert _until_searched(client3, tid)["state"] == "done"
    assert len(calls["analyse"]) == n[0]
    assert all(d["worlds"] == 1 for d in client3.get(f"/api/games/{tid}/analysis"
                                                     ).json()["decisions"])


def test_viewers_at_once_share_one_job(make_client: Any, calls: dict[str, list[Any]]) -> None:
    """Several pages opening the same analysis at once: one job, each deal analysed once,
    each decision searched once."""
    client = make_client(analysis_budget=TINY)
    r = _play_out(client)
    tid = r["id"]
    answers: list[int] = []

    def ask(path: str) -> None:
        answers.append(client.get(f"/api/games/{tid}/{path}").status_code)

    threads = [threading.Thread(target=ask, args=(p,)) for p in
               ["analysis", "analysis?deal=1", "analysis/progress"] * 3]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert answers == [200] * len(threads)
    assert _until_searched(client, tid)["state"] == "done"
    for _ in range(3):  # asked again when done: kept, nothing more
        assert client.get(f"/api/games/{tid}/analysis").json()["measure"] == "search"
    hub = client.app.state.hub
    assert hub.analyses.started == 1
    assert calls["analyse"] == [[0]]
    searched = [m for chunk in calls["search"] for m in chunk]
    assert searched and len(searched) == len(set(searched))


def test_the_deal_asked_for_comes_first(make_client: Any, calls: dict[str, list[Any]]) -> None:
    """?deal=2 of a two-deal match: that deal's double-dummy part is computed (and served)
    before the first deal's, and its search measure too."""
    client = make_client(analysis_budget=TINY)
    r = _play_out(client, deals=2)
    tid = r["id"]
    two = client.get(f"/api/games/{tid}/analysis?deal=2").json()
    assert two["deal"] == 2 and two["decisions"]
    assert all(d["deal"] == 1 for d in two["decisions"])
    assert calls["analyse"][0] == [1]
    assert _until_searched(client, tid)["state"] == "done"
    whole = client.get(f"/api/games/{tid}/analysis").json()
    n = whole["deals"]  # two, or more when a deal ends drawn (a deal de vueltas)
    assert n >= 2 and {d["deal"] for d in whole["decisions"]} == set(range(n))
    assert sorted(calls["analyse"]) == [[k] for k in range(n)]  # each deal once
    assert calls["search"][0][0][0] == 1  # the search began with the second deal
    assert whole["measure"] == "search"
    one = client.get(f"/api/games/{tid}/analysis?deal=1").json()
    assert one["summary"] != whole["summary"] and one["game_summary"] == whole["summary"]
    assert client.get(f"/api/games/{tid}/analysis?deal={n + 1}").status_code == 404


def test_a_game_has_a_bounded_search(make_client: Any) -> None:
    """Past the game's seconds of search the job stops: the decisions not reached keep the
    double-dummy measure alone, and the analysis says so."""
    client = make_client(analysis_budget=SearchBudget(worlds=2, game_seconds=0.001))
    r = _play_out(client)
    client.get(f"/api/games/{r['id']}/analysis")
    p = _until_searched(client, r["id"])
    assert p["state"] == "capped" and 0 < p["done"] < p["total"]
    a = client.get(f"/api/games/{r['id']}/analysis").json()
    assert a["measure"] == "partial" and a["search"]["state"] == "capped"
    searched = [d for d in a["decisions"] if d["loss"] is not None]
    assert 0 < len(searched) < len(a["decisions"])
    assert all(d["dd_loss"] is not None for d in a["decisions"])


def test_a_failed_search_leaves_the_double_dummy_measure(
        make_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A search that fails (a worker died) is reported once, not started again at every
    poll, and the double-dummy analysis stays served."""
    tries: list[int] = []

    async def broken(self: BotPool, *args: Any) -> list[dict[str, Any]]:
        tries.append(1)
        raise RuntimeError("the worker died")

    monkeypatch.setattr(BotPool, "search", broken)
    client = make_client(analysis_budget=TINY)
    r = _play_out(client)
    assert client.get(f"/api/games/{r['id']}/analysis").status_code == 200
    p = _until_searched(client, r["id"])
    assert p["state"] == "failed" and p["error"] == "RuntimeError"
    for _ in range(3):
        a = client.get(f"/api/games/{r['id']}/analysis").json()
        assert client.get(f"/api/games/{r['id']}/analysis/progress").json()["state"] == "failed"
    assert tries == [1]
    assert a["measure"] == "double_dummy" and all(d["dd_loss"] is not None
                                                  for d in a["decisions"])


def test_nothing_of_a_game_in_play(make_client: Any) -> None:
    """While the game is played the analysis and its progress are refused, with nothing of
    the hands in the answer, and no job is started."""
    client = make_client(analysis_budget=TINY)
    r = client.post("/api/play", json={"variant": "tute_parejas", "level": "facil"}).json()
    for path in ("analysis", "analysis?deal=1", "analysis/progress", "analysis?deal=9"):
        res = client.get(f"/api/games/{r['id']}/{path}")
        assert res.status_code == 409 and res.json()["error"] == "not_finished"
        assert not CARD.search(res.text.replace(r["id"], "")), res.text
    hub = client.app.state.hub
    assert not hub.analyses._jobs and not hub.analyses._kept
    assert not list(hub.analyses.directory.glob("*.json"))


def test_one_deal_of_a_match() -> None:
    """?deal=N: that deal's decisions, and a summary of them alone."""
    from tute.analysis import analyze_deals
    from tute.match import Match
    from tute.server.analyses import analysis_of_deal

    m = Match.new("tute_parejas", seed=3, options={"match": {"mode": "series", "deals": 2}})
    rng = random.Random(2)
    while not m.is_over():
        legal = m.legal_actions()
        m.apply(legal[rng.randrange(len(legal))])
    full = analyze_deals(list(m.deals), worlds=0, kind="match")
    whole = full.to_json()
    second = analysis_of_deal(whole, 1)
    mine = [d for d in full.decisions if d.deal == 1]
    assert second["deal"] == 2 and second["decisions"] == [d.to_json() for d in mine]
    assert second["decisions"] and all(d["deal"] == 1 for d in second["decisions"])
    lost = [d.dd_loss for d in mine if d.seat == 0 and d.dd_loss is not None]
    row = second["summary"]["seats"][0]
    assert row["dd_decisions"] == len(lost)
    assert row["dd_loss_per_decision"] == (round(sum(lost) / len(lost), 3) if lost else None)


def test_tute_serve_takes_the_analysis_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """`make run` starts `tute serve`: its budget flags reach the server, a bad one exits 2."""
    from typer.testing import CliRunner

    import tute.server
    from tute.cli import app as cli_app

    seen: dict[str, Any] = {}
    monkeypatch.setattr(tute.server, "run", lambda *a, **kw: seen.update(kw))
    ok = CliRunner().invoke(cli_app, ["serve", "--analysis-worlds", "4",
                                      "--analysis-game-seconds", "30"])
    assert ok.exit_code == 0, ok.output
    assert seen["analysis_budget"] == SearchBudget(worlds=4, game_seconds=30.0)
    bad = CliRunner().invoke(cli_app, ["serve", "--analysis-worlds", "-1"])
    assert bad.exit_code == 2 and "analysis-worlds" in bad.output
