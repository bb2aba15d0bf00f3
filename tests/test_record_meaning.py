"""A match record means one thing: each deal's actions are played while that deal is, and an
action after a deal ended is refused (it used to spill into the next deal and the record was
called valid), by the engine and by every command that reads records."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tute.cli import app
from tute.errors import RecordError
from tute.match import Match


def _played(variant: str = "tute_parejas", seed: int = 11, **options: Any) -> dict[str, Any]:
    match = Match.new(variant, seed=seed,
                      options=options or {"match": {"mode": "race", "games": 2}})
    rng = random.Random(3)
    while not match.is_over():
        acts = match.legal_actions()
        match.apply(acts[rng.randrange(len(acts))])
    assert len(match.deals) >= 2
    return match.to_record()


def _spilled(record: dict[str, Any]) -> dict[str, Any]:
    """The record with deal 1's first action moved to the end of deal 0."""
    bad = copy.deepcopy(record)
    bad["deals"][0]["actions"].append(bad["deals"][1]["actions"].pop(0))
    return bad


def test_an_action_after_a_deal_ended_is_refused() -> None:
    record = _played()
    Match.from_record(record)  # as written: fine
    n = len(record["deals"][0]["actions"])
    with pytest.raises(RecordError, match=rf"deal 0 has actions after its end \(action {n}\)"
                       ) as err:
        Match.from_record(_spilled(record))
    assert err.value.index == n and err.value.field == "deals"


def test_an_action_after_the_match_ended_is_refused() -> None:
    record = _played()
    last = len(record["deals"]) - 1
    bad = copy.deepcopy(record)
    bad["deals"][last]["actions"].append(bad["deals"][last]["actions"][-1])
    n = len(record["deals"][last]["actions"])
    with pytest.raises(RecordError, match=rf"deal {last} has actions after its end "
                                          rf"\(action {n}\)"):
        Match.from_record(bad)


def test_void_deals_keep_their_own_entries() -> None:
    """A deal thrown in (a weak hand) ends with no play; its entry holds its actions alone and
    the next deal's actions follow in their own entry."""
    record = _played("tute_parejas", seed=3,
                     **{"weak_hand_max_points": 10, "match": {"mode": "series", "deals": 3}})
    again = Match.from_record(record)
    assert again.deals[0].result().void == "weak_hand"  # thrown in at its first action
    assert [len(d.actions) for d in again.deals] == [len(e["actions"])
                                                     for e in record["deals"]] == [1, 44, 44, 44]
    with pytest.raises(RecordError, match=r"deal 0 has actions after its end \(action 1\)"):
        Match.from_record(_spilled(record))


@pytest.mark.parametrize("command", [["replay"], ["analyze", "--worlds", "0"],
                                     ["play", "--load"]])
def test_the_commands_refuse_it_in_one_line(command: list[str], tmp_path: Path) -> None:
    record = _played()
    path = tmp_path / "spilled.json"
    path.write_text(json.dumps(_spilled(record)), encoding="utf-8")
    n = len(record["deals"][0]["actions"])
    out = CliRunner().invoke(app, [*command, str(path)], input="q\n")
    assert out.exit_code == 2, out.output
    err = out.stderr.strip()
    assert f"deal 0 has actions after its end (action {n})" in err
    assert len(err.splitlines()) == 1 and "Traceback" not in err


def test_the_user_is_told_which_rule_of_its_day_applied(tmp_path: Path) -> None:
    """A version-1 four-player cabrón record plays by the middle rule of then; replay,
    analyze, the line-by-line game and the terminal game say so."""
    from golden_records import DIR
    from tute.tui.session import Session

    source = DIR / "cabron_4_positions_match_21.json"
    record = json.loads(source.read_text(encoding="utf-8"))["record"]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    runner = CliRunner()
    out = runner.invoke(app, ["replay", str(path)])
    assert out.exit_code == 0, out.output
    assert "Registro de la versión 1: se juega con cabron_middle=positions" in out.stdout
    out = runner.invoke(app, ["replay", str(path), "--json"])
    assert json.loads(out.stdout)["earlier_rules"] == {"cabron_middle": "positions"}
    out = runner.invoke(app, ["analyze", str(path), "--worlds", "0", "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["earlier_rules"] == {"cabron_middle": "positions"}
    session = Session.load(path, lang="en")
    assert any("played with cabron_middle=positions" in line for line in session.log)
    # today's records name nothing of the kind
    today = tmp_path / "today.json"
    today.write_text(json.dumps(_played()), encoding="utf-8")
    out = runner.invoke(app, ["replay", str(today), "--json"])
    assert json.loads(out.stdout)["earlier_rules"] == {}
