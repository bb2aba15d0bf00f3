"""The analysis of records (tute.analysis, ``tute analyze``): both measures, their losses, the
summary, records stopped mid-deal, bad records and the cheat bot as a yardstick."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import tute
from tute.analysis import (
    ACCURACY_MARGIN,
    Decision,
    analyze_deals,
    analyze_record,
    costliest,
    double_dummy,
)
from tute.bots import make_bot
from tute.cli import app

pytest.importorskip("numba")
pytestmark = pytest.mark.timeout(300)

PLAYABLE = list(tute.VARIANTS)


def _played(variant: str, seed: int, actions: int | None = None, bots: str = "rules",
            options: dict[str, Any] | None = None) -> tute.Deal:
    deal = tute.Deal.new(variant, seed=seed, options=options)
    players = [make_bot(bots, seed=seed * 10 + s) for s in range(deal.seats)]
    while not deal.is_over() and (actions is None or len(deal.actions) < actions):
        seat = deal.to_move
        assert seat is not None
        view = deal.view(seat)
        deal.apply(players[seat].choose(view, view.legal_actions))
    return deal


def run(args: list[str]) -> tuple[int, str, str]:
    """The CLI in-process: (exit code, stdout, stderr)."""
    try:
        runner = CliRunner(mix_stderr=False)  # type: ignore[call-arg]  # click < 8.2
    except TypeError:
        runner = CliRunner()
    result = runner.invoke(app, args)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert "Traceback" not in result.stdout + result.stderr
    return result.exit_code, result.stdout, result.stderr


def _write(tmp_path: Path, name: str, data: Any) -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


def _check_losses(d: dict[str, Any]) -> None:
    if d["loss"] is not None:
        assert d["loss"] >= 0
        values = d["values"]
        top = max(values.values())
        assert d["loss"] == pytest.approx(top - values[d["played"]], abs=0.011)
        assert values[d["best"]] == pytest.approx(top, abs=0.011)
        assert (d["loss"] == 0) == (d["best"] == d["played"])
    if d["dd_loss"] is not None:
        assert d["dd_loss"] >= 0
        assert (d["dd_loss"] == 0) == (d["dd_best"] == d["played"])


# ------------------------------------------------------------------------------ the command


def test_json_shape_and_losses(tmp_path: Path) -> None:
    deal = _played("tute_parejas", 5)
    code, out, err = run(["analyze", _write(tmp_path, "d.json", deal.to_record()), "--json",
                          "--worlds", "3"])
    assert code == 0, err
    rep = json.loads(out)
    assert set(rep) >= {"decisions", "summary", "budget", "variant", "complete"}
    assert rep["budget"] == {"search": "pimc", "worlds": 3, "seed": 0, "move_time": None,
                             "double_dummy": "exact solver"}
    assert rep["complete"] is True
    decisions = rep["decisions"]
    assert decisions, "a whole deal has decisions"
    for d in decisions:
        assert set(d) >= {"index", "seat", "played", "best", "loss", "dd_best", "dd_loss",
                          "deal", "trick", "kind", "values"}
        assert str(deal.actions[d["index"]]) == d["played"]
        assert d["played"] in d["values"] and d["worlds"] == 3
        assert d["dd_loss"] is not None  # parejas: the solver covers every card
        _check_losses(d)
    # forced moves are not decisions; indexes grow
    assert [d["index"] for d in decisions] == sorted({d["index"] for d in decisions})
    assert len(decisions) < len(deal.actions)
    seats = rep["summary"]["seats"]
    assert [s["seat"] for s in seats] == [0, 1, 2, 3]
    assert sum(s["decisions"] for s in seats) == len(decisions)
    for s in seats:
        mine = [d for d in decisions if d["seat"] == s["seat"]]
        losses = [d["dd_loss"] for d in mine]
        assert s["dd_loss_per_decision"] == pytest.approx(sum(losses) / len(losses), abs=1e-3)
        assert s["dd_accuracy"] == pytest.approx(
            100 * sum(x <= ACCURACY_MARGIN for x in losses) / len(losses), abs=0.05)
        assert len(s["costliest"]) <= 3 and len(s["dd_costliest"]) <= 3
        worst = sorted((d["dd_loss"] for d in mine if d["dd_loss"]), reverse=True)[:3]
        assert [c["dd_loss"] for c in s["dd_costliest"]] == worst
    assert [s["seats"] for s in rep["summary"]["sides"]] == [[0, 2], [1, 3]]


def test_text_output_and_progress_free_pipe(tmp_path: Path) -> None:
    deal = _played("tute_parejas", 6, actions=24)
    code, out, err = run(["analyze", _write(tmp_path, "d.json", deal.to_record()),
                          "--worlds", "0"])
    assert code == 0, err
    assert "stopped mid-deal" in out and "search: off" in out and "accuracy" in out
    assert err == ""  # no progress bar without a terminal


@pytest.mark.parametrize(("content", "needle"), [
    ('{"format": "tute-record", "version": 1, "variant": "tute_parejas", "se', "invalid JSON"),
    ("", "invalid JSON"),
    ({"format": "tute-record", "version": 1, "variant": "tute_parejas", "seed": 1,
      "actions": ["Zz"]}, "index 0"),
    ({"format": "tute-record", "version": 3}, "version"),
    ({"format": "tute-record", "version": 1, "seed": 1}, "'variant'"),
    ([1, 2], "JSON object"),
])
def test_bad_and_truncated_records_exit_2(tmp_path: Path, content: Any, needle: str) -> None:
    code, out, err = run(["analyze", _write(tmp_path, "r.json", content)])
    assert code == 2 and needle in err and out == ""
    code, out, err = run(["analyze", _write(tmp_path, "r.json", content), "--json"])
    assert code == 2 and json.loads(out)["valid"] is False


def test_a_truncated_action_list_and_a_missing_file(tmp_path: Path) -> None:
    rec = _played("tute_parejas", 2).to_record()
    rec["actions"][7] = rec["actions"][3]  # a card already played
    code, _out, err = run(["analyze", _write(tmp_path, "r.json", rec)])
    assert code == 2 and "first illegal action at index 7" in err
    code, _out, err = run(["analyze", str(tmp_path / "none.json")])
    assert code == 2 and "cannot read" in err


# ------------------------------------------------------------------------------ the measures


def test_a_record_stopped_mid_deal_covers_what_was_played() -> None:
    whole = _played("tute_parejas", 11)
    rec = whole.to_record()
    del rec["result"]
    rec["actions"] = rec["actions"][:17]
    part = analyze_record(rec, worlds=2)
    assert not part.complete
    assert part.decisions and all(d.index < 17 for d in part.decisions)
    full = analyze_deals([whole], worlds=2)
    # the same decisions, the same figures: each decision's worlds come from its own seed
    head = [d for d in full.decisions if d.index < 17]
    assert [d.to_json() for d in part.decisions] == [d.to_json() for d in head]


def test_reproducible_and_seeded() -> None:
    deal = _played("tute_2p_habanero", 3, actions=14)
    a = analyze_deals([deal], worlds=3, seed=4)
    b = analyze_deals([deal], worlds=3, seed=4)
    c = analyze_deals([deal], worlds=3, seed=5)
    assert [d.to_json() for d in a.decisions] == [d.to_json() for d in b.decisions]
    assert [d.values for d in a.decisions] != [d.values for d in c.decisions]


@pytest.mark.parametrize(("variant", "seed"), [
    ("tute_parejas", 1), ("tute_parejas", 4), ("tute_arrastrado_3p", 1), ("guinote", 1),
    ("guinote", 4)])
def test_double_dummy_losses_match_the_solver(variant: str, seed: int) -> None:
    from tute.analysis import DEFAULT_STOCK_LIMIT
    from tute.solver import Solver

    deal = _played(variant, seed, bots="random")
    decisions = double_dummy(deal)
    # the analysis solves the stock phase's last few cards too (the stock's order known)
    solver = Solver(tt_mb=16, threads=1, stock_limit=DEFAULT_STOCK_LIMIT)
    checked = 0
    pos = deal.copy()
    while pos.actions:
        pos.undo()
    by_move = {d.move: d for d in decisions}
    for move, act in enumerate(deal.actions):
        d = by_move.get(move)
        if d is not None and d.dd_loss is not None:
            an = solver.analyze(pos)
            sign = 1 if an.hero is not None or pos.side_of(d.seat) == 0 else -1
            values = {a: sign * v for a, v in an.actions}
            assert d.dd_loss == max(values.values()) - values[str(act)]
            assert values[str(d.dd_best)] == max(values.values())
            checked += 1
        pos.apply(act)
    assert checked >= 5


@pytest.mark.parametrize("variant", ["tute_parejas", "guinote_2p", "tute_arrastrado_3p"])
def test_the_cheat_bot_loses_nothing_double_dummy(variant: str) -> None:
    deal = tute.Deal.new(variant, seed=8)
    cheat = make_bot("cheat", seed=1)
    others = [make_bot("rules", seed=s) for s in range(deal.seats)]
    while not deal.is_over():
        seat = deal.to_move
        assert seat is not None
        view = deal.view(seat)
        if seat == 0 and deal.trick_number > 3:  # (the first tricks are slow to solve)
            cheat.attach(deal)  # type: ignore[attr-defined]
            deal.apply(cheat.choose(view, view.legal_actions))
        else:
            deal.apply(others[seat].choose(view, view.legal_actions))
    mine = [d for d in double_dummy(deal) if d.seat == 0 and d.dd_loss is not None
            and d.trick > 3]
    assert mine, "the solver covers some of the cheat's decisions"
    assert all(d.dd_loss == 0 for d in mine), [(d.played, d.dd_best, d.dd_loss) for d in mine]


@pytest.mark.parametrize("variant", PLAYABLE)
def test_every_game_deal_and_match_records(variant: str) -> None:
    deal = _played(variant, 7, actions=30)
    rep = analyze_record(deal.to_record(), worlds=1)
    assert rep.decisions and rep.variant == variant
    for d in rep.decisions:
        _check_losses(d.to_json())
    match = tute.Match.new(variant, seed=2)
    bots = [make_bot("rules", seed=s) for s in range(match.deal.seats)]
    while len(match.deals) < 2 and not match.is_over():
        seat = match.to_move
        assert seat is not None
        view = match.deal.view(seat)
        match.apply(bots[seat].choose(view, view.legal_actions))
    for _ in range(6):  # a few actions into its second deal
        if match.is_over():
            break
        view = match.deal.view(match.to_move)  # type: ignore[arg-type]
        match.apply(view.legal_actions[0])
    rep = analyze_record(match.to_record(), worlds=0)
    assert rep.kind == "match" and rep.deals == len(match.deals)
    first = len(match.deals[0].actions)
    later = [d for d in rep.decisions if d.deal == 1]
    assert all(d.index == first + d.move for d in later)
    assert all(d.loss is None and d.best is None for d in rep.decisions)


def test_subastado_decisions_of_every_kind() -> None:
    deal = _played("tute_subastado", 3)
    kinds = {d.kind for d in analyze_deals([deal], worlds=1).decisions}
    assert {"bid", "card"} <= kinds


def test_costliest_and_bad_budgets() -> None:
    def dec(i: int, loss: float) -> Decision:
        return Decision(i, 0, i, 1, 0, 0, "card", "Ao", ("Ao", "3o"), "3o", loss)

    rows = [dec(0, 3.0), dec(1, 0.0), dec(2, 9.0), dec(3, 3.0), dec(4, 1.0)]
    assert [d.index for d in costliest(rows)] == [2, 0, 3]
    deal = tute.Deal.new("tute_parejas", seed=1)
    for bad in ({"worlds": -1}, {"worlds": True}, {"seed": -3}, {"move_time": 0}):
        with pytest.raises(tute.TuteError, match="invalid"):
            analyze_deals([deal], **bad)


def test_a_tute_on_the_way_is_valued_whole() -> None:
    """Arrastrado seed 2 (rules bots): a tute is forced early. The solver values it
    +-TUTE_VALUE whatever was taken before, so no card's points are added to it: every
    action that cannot stop it loses nothing against another that cannot either."""
    from tute.solver import TUTE_VALUE, Solver

    deal = _played("tute_arrastrado_3p", 2)
    assert deal.result().reason == "tute"
    decisions = double_dummy(deal)
    assert decisions and all(d.dd_loss is not None for d in decisions)
    solver = Solver(tt_mb=16, threads=1)
    pos = deal.copy()
    while pos.actions:
        pos.undo()
    by_move = {d.move: d for d in decisions}
    for move, act in enumerate(deal.actions):
        d = by_move.get(move)
        if d is not None and abs(solver.value(pos)) >= TUTE_VALUE // 2:
            assert d.dd_loss == 0 or d.dd_loss >= TUTE_VALUE // 2
        pos.apply(act)


def test_parts_give_the_figures_of_the_whole() -> None:
    """A server spreads an analysis over time: the double-dummy measure deal by deal
    (``only``), the search's a few decisions at a time (``moves``, ``exact=False``), with
    solvers kept from one part to the next. Each part's figures are the whole analysis'."""
    from tute.match import Match
    from tute.solver import Solver

    m = Match.new("tute_2p_habanero", seed=3, options={"games_to_win": 1})  # two deals
    players = [make_bot("rules", seed=s) for s in range(2)]
    while not m.is_over():
        seat = m.to_move
        assert seat is not None
        view = m.deal.view(seat)
        m.apply(players[seat].choose(view, view.legal_actions))
    deals = list(m.deals)
    assert len(deals) == 2
    whole = analyze_deals(deals, worlds=2, kind="match").to_json()
    dd_solver, search_solver = Solver(tt_mb=16, threads=1), Solver(tt_mb=16, threads=1)
    parts: list[dict[str, Any]] = []
    for k in reversed(range(len(deals))):  # the last deal first: nothing depends on order
        parts += analyze_deals(deals, worlds=0, kind="match", only=[k],
                               dd_solver=dd_solver).to_json()["decisions"]
    parts.sort(key=lambda d: d["index"])
    assert [d["index"] for d in parts] == [d["index"] for d in whole["decisions"]]
    pairs = [(d["deal"], d["move"]) for d in parts]
    searched: dict[int, dict[str, Any]] = {}
    for i in range(0, len(pairs), 5):
        rep = analyze_deals(deals, worlds=2, kind="match", moves=pairs[i:i + 5],
                            exact=False, search_solver=search_solver)
        assert rep.budget["double_dummy"] is None
        assert [(d.deal, d.move) for d in rep.decisions] == pairs[i:i + 5]
        assert all(d.dd_loss is None for d in rep.decisions)
        searched.update({d.index: d.to_json() for d in rep.decisions})
    search = ("best", "loss", "values", "worlds", "reason")
    for d, w in zip(parts, whole["decisions"], strict=True):
        assert {**d, **{k: searched[d["index"]][k] for k in search}} == w
    # and back from its JSON, with the same summary
    from tute.analysis import RecordAnalysis

    assert RecordAnalysis.from_json(whole).to_json() == {**whole, "seconds": whole["seconds"]}


def test_a_better_action_comes_with_its_reason() -> None:
    """Where the search's best is not the action taken, a reason from the seat's view (the
    hints' reasons, in Spanish and English); none where the action taken was the best."""
    from tute.hints import REASONS

    deal = _played("tute_parejas", 4, bots="random")
    report = analyze_deals([deal], worlds=3)
    worse = [d for d in report.decisions if d.loss]
    assert worse, "random play loses points somewhere"
    for d in report.decisions:
        assert (d.reason is None) == (not d.loss)
    for d in worse:
        assert d.reason is not None and d.reason["code"] in REASONS
        assert d.reason["es"] and d.reason["en"] and d.reason["edge"] == round(d.loss or 0, 1)
        assert d.to_json()["reason"] == d.reason


def test_stock_limit_option_measures_more_of_the_stock_phase(tmp_path: Path) -> None:
    deal = _played("tute_2p_habanero", 11)
    path = _write(tmp_path, "d.json", deal.to_record())
    covered = {}
    for limit in ("0", "4"):
        code, out, err = run(["analyze", path, "--json", "--worlds", "0",
                              "--stock-limit", limit])
        assert code == 0, err
        rep = json.loads(out)
        assert rep["budget"]["stock_limit"] == int(limit)
        covered[limit] = {d["move"] for d in rep["decisions"] if d["dd_loss"] is not None}
    assert covered["0"] < covered["4"]
    code, _out, err = run(["analyze", path, "--stock-limit", "29"])
    assert code == 2 and "stock-limit" in err
