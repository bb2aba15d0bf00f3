"""Puzzles (tute.puzzles): every shipped puzzle is valid by the solver and from the seat's
view; the answer check, the daily choice, the themes, the ratings and the CLI."""

from __future__ import annotations

import datetime
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import tute
from tute.bots import make_bot
from tute.errors import TuteError
from tute.puzzles import DATA_DIR, Puzzle, check_answer, daily, find_puzzle, load_puzzles
from tute.puzzles.cut import DEFAULT_AGREE, DEFAULT_MARGIN, exact_values, unique_best, view_check
from tute.puzzles.make import DEFAULT_STOCK_LIMIT, Settings, cut_deal, make_puzzles
from tute.puzzles.rating import rate
from tute.puzzles.themes import THEMES
from tute.solver import Solver

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = load_puzzles()


def _tute(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run([sys.executable, "-m", "tute", *args], capture_output=True,
                          text=True, env=env, timeout=300, check=False)


# ------------------------------------------------------------------ the shipped set

def test_at_least_a_thousand_puzzles_of_three_games_in_a_small_file() -> None:
    assert len(PUZZLES) >= 1000
    assert len({p.id for p in PUZZLES}) == len(PUZZLES)
    by_game = {v: sum(p.variant == v for p in PUZZLES)
               for v in ("tute_parejas", "tute_2p_habanero", "guinote")}
    assert all(n >= 100 for n in by_game.values()), by_game
    assert sum(f.stat().st_size for f in DATA_DIR.glob("*.jsonl")) < 2_500_000


def test_every_shipped_puzzle_is_a_unique_best_by_the_solver() -> None:
    solver = Solver(tt_mb=32, threads=1, stock_limit=DEFAULT_STOCK_LIMIT)
    for p in PUZZLES:
        deal = p.position()  # the prefix replays, every action checked
        assert deal.variant.id == p.variant and deal.to_move == p.seat, p.id
        assert p.answer in {str(a) for a in deal.legal_actions()}, p.id
        exact = exact_values(deal, solver)
        assert exact is not None, p.id
        assert exact.values == p.values, p.id
        assert unique_best(exact, DEFAULT_MARGIN) == p.answer, p.id
        assert p.margin >= DEFAULT_MARGIN
        assert p.themes and set(p.themes) <= set(THEMES), p.id
        assert 0 < p.rating < 3000


def test_a_sample_of_puzzles_passes_the_check_from_the_seats_view() -> None:
    solver = Solver(tt_mb=32, threads=1, stock_limit=DEFAULT_STOCK_LIMIT)
    rng = random.Random(5)
    for p in rng.sample(PUZZLES, 12):
        deal = p.position()
        check = view_check(deal.view(p.seat), solver, 32, random.Random(p.id))
        assert check.top() == p.answer, p.id
        # a fresh sample of worlds: a little below the threshold the puzzle was cut at
        assert check.share(p.answer) >= DEFAULT_AGREE - 0.15, (p.id, check.share(p.answer))


def test_the_answer_check() -> None:
    p = PUZZLES[0]
    right = check_answer(p, p.answer)
    assert right["correct"] and right["lost"] == 0 and right["best"] == p.answer
    assert set(right["why"]) >= {"es", "en", "code"}
    wrong = next(a for a in p.values if a != p.answer)
    res = check_answer(p, wrong)
    assert not res["correct"] and res["lost"] >= DEFAULT_MARGIN
    with pytest.raises(TuteError, match="invalid answer"):
        check_answer(p, "Zz")


def test_the_daily_puzzle_is_the_same_all_day_and_changes_with_the_date() -> None:
    day = datetime.date(2026, 12, 5)
    assert daily(day).id == daily(day).id
    days = {daily(day + datetime.timedelta(days=k)).id for k in range(30)}
    assert len(days) >= 25
    assert find_puzzle(daily(day).id) is daily(day)
    assert all(len(daily(day + datetime.timedelta(days=k)).values) >= 3 for k in range(30))


def test_a_puzzle_round_trips_its_json() -> None:
    p = PUZZLES[-1]
    again = Puzzle.from_json(json.loads(json.dumps(p.to_json())))
    assert again == p
    with pytest.raises(TuteError, match="invalid puzzle"):
        Puzzle.from_json({"id": "x"})


def test_the_rating_rises_with_the_agents_that_miss() -> None:
    easy = rate(0.0, {"random": True, "rules:1": True, "pimc:16": True})[0]
    hard = rate(0.2, {"random": False, "rules:1": False, "pimc:16": False})[0]
    assert hard > easy + 200


# ------------------------------------------------------------------ cutting

def test_cutting_finds_only_unique_best_positions_readable_from_the_view() -> None:
    settings = Settings(worlds=8, min_misses=0, per_deal=40, stock_limit=0)
    solver = Solver(tt_mb=16, threads=1)
    found = make_puzzles(["selfplay:tute_2p_habanero"], 6, settings, max_deals=40)
    assert found
    for p in found:
        deal = p.position()
        exact = exact_values(deal, solver)
        assert exact is not None and unique_best(exact, settings.margin) == p.answer
        assert p.view["agree"] >= settings.agree
    # a deal with no choice left cuts nothing
    deal = tute.Deal.new("tute_2p_habanero", seed=1)
    assert cut_deal(deal, solver, settings) == []


def test_bad_settings_are_refused() -> None:
    for bad in (Settings(margin=0), Settings(worlds=1), Settings(agree=0.2),
                Settings(min_misses=9)):
        with pytest.raises(TuteError, match="invalid"):
            make_puzzles(["selfplay:guinote"], 1, bad)
    with pytest.raises(TuteError, match="no such file"):
        make_puzzles(["/nonexistent/records"], 1)


# ------------------------------------------------------------------ the CLI

def test_cli_show_and_solve() -> None:
    p = PUZZLES[0]
    shown = _tute("puzzles", "show", p.id)
    assert shown.returncode == 0, shown.stderr
    assert p.id in shown.stdout and "hand:" in shown.stdout
    assert "answer" not in shown.stdout.lower()
    ok = _tute("puzzles", "solve", p.id, p.answer)
    assert ok.returncode == 0 and ok.stdout.startswith("right"), ok.stdout
    wrong = next(a for a in p.values if a != p.answer)
    bad = _tute("puzzles", "solve", p.id, wrong)
    assert bad.returncode == 1 and bad.stdout.startswith("wrong"), bad.stdout
    missing = _tute("puzzles", "show", "nosuchpuzzle")
    assert missing.returncode == 2 and "no puzzle" in missing.stderr
    illegal = _tute("puzzles", "solve", p.id, "Zz")
    assert illegal.returncode == 2 and "invalid answer" in illegal.stderr


def test_cli_make_from_a_record_file_and_from_selfplay(tmp_path: Path) -> None:
    deal = tute.Deal.new("guinote", seed=11)
    bots = [make_bot("rules", seed=s) for s in range(deal.seats)]
    records = tmp_path / "games.jsonl"
    lines: list[str] = []
    for seed in range(8):
        deal = tute.Deal.new("guinote", seed=seed)
        while not deal.is_over():
            v = deal.view(deal.to_move or 0)
            deal.apply(bots[deal.to_move or 0].choose(v, v.legal_actions))
        lines.append(json.dumps(deal.to_record()))
    records.write_text("\n".join(lines) + "\n")
    out = tmp_path / "p.jsonl"
    made = _tute("puzzles", "make", "--from", str(records), "--count", "2", "--out", str(out),
                 "--worlds", "8", "--min-misses", "0")
    assert made.returncode == 0, made.stderr
    got = [json.loads(x) for x in out.read_text().splitlines()]
    assert got and all(g["variant"] == "guinote" and "games.jsonl" in g["source"] for g in got)
    more = _tute("puzzles", "make", "--from", "selfplay:habanero", "--count", "1", "--out",
                 str(out), "--worlds", "8", "--min-misses", "0")
    assert more.returncode == 0, more.stderr
    listed = _tute("puzzles", "list", "--file", str(out))
    assert listed.returncode == 0 and len(listed.stdout.splitlines()) == len(got) + 1
    bad = _tute("puzzles", "make", "--from", "selfplay:guinote", "--margin", "0", "--out",
                str(tmp_path / "q.jsonl"))
    assert bad.returncode == 2 and "invalid margin" in bad.stderr
