"""Tournaments: Bradley–Terry ratings, bot specs with settings, round robins and gauntlets."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from tute.arena import ratings_svg, tournament
from tute.bots import make_bot, parse_spec
from tute.errors import TuteError
from tute.ratings import bradley_terry


def test_bradley_terry_recovers_known_strengths() -> None:
    """Scores drawn exactly from Elo differences of 100 and 200 give those differences back,
    with intervals that shrink as 1/sqrt(n)."""
    def expected(d: float) -> float:
        return 1 / (1 + 10 ** (-d / 400))

    n = 400.0
    res = {("a", "b"): (n * expected(100), n * (1 - expected(100))),
           ("b", "c"): (n * expected(100), n * (1 - expected(100))),
           ("a", "c"): (n * expected(200), n * (1 - expected(200)))}
    r = bradley_terry(["a", "b", "c"], res)
    assert r["a"].elo - r["b"].elo == pytest.approx(100, abs=0.01)
    assert r["b"].elo - r["c"].elo == pytest.approx(100, abs=0.01)
    assert sum(x.elo for x in r.values()) / 3 == pytest.approx(1500)
    wide = bradley_terry(["a", "b", "c"], {k: (x / 4, y / 4) for k, (x, y) in res.items()})
    half = (r["a"].high - r["a"].low) / 2
    assert (wide["a"].high - wide["a"].low) / 2 == pytest.approx(2 * half, rel=0.01)


def test_bradley_terry_interval_matches_the_binomial() -> None:
    """Two players, 100 games at 75%: the difference's standard error is 1/sqrt(n p q) in
    log-odds; each rating carries half of it."""
    r = bradley_terry(["a", "b"], {("a", "b"): (75.0, 25.0)})
    se = 1 / math.sqrt(100 * 0.75 * 0.25) * 400 / math.log(10) / 2
    assert (r["a"].high - r["a"].elo) == pytest.approx(1.96 * se, rel=1e-3)


def test_an_unbeaten_bot_keeps_a_finite_rating() -> None:
    r = bradley_terry(["a", "b"], {("a", "b"): (10.0, 0.0)})
    assert math.isfinite(r["a"].elo) and r["a"].elo > r["b"].elo


def test_bot_specs_carry_settings_and_refuse_unknown_ones() -> None:
    assert parse_spec("pimc:move_time=0.5:worlds=50") == ("pimc", {"move_time": 0.5,
                                                                   "worlds": 50})
    assert parse_spec("rules") == ("rules", {})
    with pytest.raises(TuteError, match="invalid bot setting"):
        parse_spec("pimc:move_time")
    with pytest.raises(TuteError, match="has no setting 'depth'"):
        make_bot("rules:depth=3")
    assert make_bot("medio").label == "medio"


def test_round_robin_and_gauntlet() -> None:
    rr = tournament(["random", "rules", "medio"], "tute_2p_corriente", deals=20, seed=1)
    assert [(p.lineups) for p in rr.pairs] == [("random", "rules"), ("random", "medio"),
                                               ("rules", "medio")]
    assert rr.ratings["rules"].elo > rr.ratings["random"].elo
    # rules and medio are the same bot with the same seeds: their duplicate games are even
    assert rr.pairs[2].margin.mean == 0
    assert rr.ratings["rules"].elo == pytest.approx(rr.ratings["medio"].elo)
    g = tournament(["rules", "random", "facil"], "tute_2p_corriente", deals=5, seed=1,
                   mode="gauntlet")
    assert [p.lineups[0] for p in g.pairs] == ["rules", "rules"]
    svg = ratings_svg(rr)
    assert svg.startswith("<svg") and "rules" in svg and svg.count("<circle") == 3
    with pytest.raises(ValueError, match="two or more different bots"):
        tournament(["rules"], deals=1)
    with pytest.raises(TuteError, match="unknown bot"):
        tournament(["rules", "nobody"], deals=1)


def test_double_dummy_loss_is_zero_for_the_all_seeing_solver_bot() -> None:
    pytest.importorskip("numba")
    res = tournament(["cheat:move_time=5", "rules"], "tute_parejas", deals=2, seed=4,
                     dd_loss=True)
    assert res.dd_loss["cheat:move_time=5"] == 0
    assert res.dd_loss["rules"] > 0
    # over the decisions with a choice only: the same points over fewer decisions
    assert res.dd_loss_choices["cheat:move_time=5"] == 0
    assert res.dd_loss_choices["rules"] > res.dd_loss["rules"]
    pair = res.pairs[0]
    assert pair.dd_choices["rules"] < pair.dd_decisions["rules"]
    assert pair.dd_loss_choices["rules"] * pair.dd_choices["rules"] == pytest.approx(
        pair.dd_loss["rules"] * pair.dd_decisions["rules"])


def test_arena_command(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from tute.cli import app

    runner = CliRunner()
    plot = tmp_path / "elo.svg"
    out = runner.invoke(app, ["arena", "random,rules", "--variant", "tute_2p_corriente",
                              "--deals", "6", "--json", "--plot", str(plot)])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert set(data["ratings"]) == {"random", "rules"} and len(data["pairs"]) == 1
    assert plot.read_text().startswith("<svg")
    for bad, message in ((["random"], "two or more different bots"),
                         (["rules,rules:depth=2"], "no setting 'depth'"),
                         (["rules,nobody"], "unknown bot"),
                         (["rules,random", "--plot", str(tmp_path / "x.jpg")], "SVG or PNG"),
                         (["rules,random", "--backend", "mpi"], "expected one of processes, ray"),
                         (["rules,random", "--address", "ray://h:1"], "for --backend ray")):
        out = runner.invoke(app, ["arena", *bad, "--deals", "1"])
        assert out.exit_code == 2 and message in out.output, out.output
    out = runner.invoke(app, ["selfplay", "--move-time", "0.1", "--deals", "1"])
    assert out.exit_code == 2 and "--move-time needs --bots" in out.output


def test_arena_draws_the_ratings_as_png(tmp_path: Path) -> None:
    pytest.importorskip("PIL")
    from typer.testing import CliRunner

    from tute.cli import app

    plot = tmp_path / "elo.png"
    out = CliRunner().invoke(app, ["arena", "random,rules", "--variant", "tute_2p_corriente",
                                   "--deals", "3", "--plot", str(plot)])
    assert out.exit_code == 0, out.output
    assert plot.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_parts_of_a_run_merge_into_the_whole_run() -> None:
    """Deals split with ``first`` and merged give the figures of the run in one piece."""
    from tute.arena import merge_results, selfplay

    whole = selfplay(["rules", "random"], "tute_2p_habanero", deals=7, seed=4)
    parts = [selfplay(["rules", "random"], "tute_2p_habanero", deals=n, seed=4, first=lo)
             for lo, n in ((3, 4), (0, 3))]
    merged = merge_results(parts)
    assert merged.margin == whole.margin and merged.win_rate == whole.win_rate
    assert (merged.wins, merged.losses, merged.draws) == (whole.wins, whole.losses, whole.draws)
    assert merged.decisions == whole.decisions and merged.played == whole.played


@pytest.mark.parametrize("backend", ["processes", "ray"])
def test_a_split_tournament_gives_the_figures_of_one_process(backend: str) -> None:
    """``jobs`` splits every pair's deals over processes or a local Ray; the ratings and the
    pairs' figures are those of the run in one process (seeded bots: the same games)."""
    if backend == "ray":
        pytest.importorskip("ray")
    bots = ["rules", "random", "rules:noise=0.5"]
    one = tournament(bots, "tute_2p_corriente", deals=5, seed=2)
    split = tournament(bots, "tute_2p_corriente", deals=5, seed=2, jobs=2, backend=backend)
    assert [p.margin for p in split.pairs] == [p.margin for p in one.pairs]
    assert split.ratings == one.ratings


def test_a_bad_backend_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="invalid backend 'mpi'"):
        tournament(["rules", "random"], deals=1, backend="mpi")


def test_arena_checks_its_plot_path_before_playing(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A --plot that cannot be written is refused before the first deal (a typo must not lose
    an hour's arena); the results are printed before the plot is written."""
    from typer.testing import CliRunner

    import tute.arena
    from tute.cli import app

    played: list[int] = []
    real = tute.arena.tournament

    def counting(*args: object, **kw: object) -> object:
        played.append(1)
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(tute.arena, "tournament", counting)
    runner = CliRunner()
    missing = tmp_path / "no-such-folder" / "elo.svg"
    out = runner.invoke(app, ["arena", "random,rules", "--variant", "tute_2p_corriente",
                              "--deals", "2", "--plot", str(missing)])
    assert out.exit_code == 2 and "cannot write --plot" in out.output
    assert "No such file or directory" in out.output
    assert played == [] and not missing.parent.exists()
    # writable when asked, not when the games end: the figures come out all the same
    late = tmp_path / "late"
    late.mkdir()
    plot = late / "elo.svg"

    def then_unwritable(*args: object, **kw: object) -> object:
        res = real(*args, **kw)  # type: ignore[arg-type]
        late.rmdir()
        return res

    monkeypatch.setattr(tute.arena, "tournament", then_unwritable)
    out = runner.invoke(app, ["arena", "random,rules", "--variant", "tute_2p_corriente",
                              "--deals", "2", "--plot", str(plot)])
    assert out.exit_code == 2 and "cannot write --plot" in out.stderr
    assert "Elo [95% CI]" in out.stdout and "random vs rules" in out.stdout
    assert not plot.parent.exists()  # nothing was left behind by the check either
