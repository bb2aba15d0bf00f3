"""The ``tute`` command line: every command, the rule book's P and S cases through
``tute legal`` / ``tute score``, and the error paths (exit 2, one line, never a traceback)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import tute
from casefile import load_cases
from tute.cards import parse_card
from tute.cli import MAX_JSON_DEPTH, MAX_LINE_BYTES, MAX_RECORD_BYTES, _bot_choice, app
from tute.i18n import card_name, refusal_text
from tute.match import Match

ROOT = Path(__file__).resolve().parents[1]


CASES = load_cases()
PLAYABLE = list(tute.VARIANTS)


def run(args: list[str], stdin: str | None = None) -> tuple[int, str, str]:
    """Invoke the CLI in-process; returns (exit code, stdout, stderr)."""
    try:
        runner = CliRunner(mix_stderr=False)  # type: ignore[call-arg]  # click < 8.2
    except TypeError:
        runner = CliRunner()
    result = runner.invoke(app, args, input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    out, err = result.stdout, result.stderr
    assert "Traceback" not in out + err
    return result.exit_code, out, err


def lines(*objs: Any) -> str:
    return "\n".join(o if isinstance(o, str) else json.dumps(o) for o in objs) + "\n"


def answers(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines()]


# ------------------------------------------------------------------------------------ help


@pytest.mark.parametrize("command", ["legal", "score", "replay", "deal", "variants",
                                     "selfplay", "demo", "play"])
def test_every_command_has_help(command: str) -> None:
    code, out, _ = run([command, "--help"])
    assert code == 0
    assert "Usage" in out


def test_version_and_unknown_command() -> None:
    code, out, _ = run(["--version"])
    assert code == 0 and tute.__version__ in out
    code, _, _ = run(["nosuchcommand"])
    assert code == 2


def test_python_dash_m_runs_without_traceback() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.run([sys.executable, "-m", "tute", "legal"], input='{"hand": ["Xx"]}\n',
                          capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert "error" in json.loads(proc.stdout)
    proc = subprocess.run([sys.executable, "-m", "tute", "--help"], capture_output=True,
                          text=True, env=env, timeout=60)
    assert proc.returncode == 0 and "legal" in proc.stdout


# ------------------------------------------------------------------------------------ legal

P_KEYS = ("variant", "trump", "phase", "trick", "to_play", "hand", "partners")


def _p_entries() -> list[tuple[str, dict[str, Any], list[str]]]:
    out = []
    for case in CASES:
        if not str(case["id"]).startswith("P"):
            continue
        query = {k: case[k] for k in P_KEYS if k in case}
        if case.get("options"):
            query["options"] = case["options"]
        out.append((case["id"], query, case["legal"]))
        for i, alt in enumerate(case.get("alt") or [], 1):
            q = dict(query)
            q["options"] = {**(case.get("options") or {}), **(alt.get("options") or {})}
            out.append((f"{case['id']}-alt{i}", q, alt["legal"]))
    return out


P_ENTRIES = _p_entries()


def test_p_cases_are_present() -> None:
    assert len({e[0].split("-")[0] for e in P_ENTRIES}) >= 40


def test_every_p_case_through_tute_legal() -> None:
    """All P cases and alts in one JSON Lines batch: one answer per line, in order."""
    code, out, err = run(["legal"], lines(*(q for _, q, _ in P_ENTRIES)))
    assert code == 0, err
    got = answers(out)
    assert len(got) == len(P_ENTRIES)
    for (case_id, query, legal), answer in zip(P_ENTRIES, got, strict=True):
        assert set(answer["legal"]) == set(legal), case_id
        refused = [c for c in query["hand"] if c not in legal]
        assert sorted(answer["why"]) == sorted(refused), case_id
        assert all(isinstance(r, str) and r for r in answer["why"].values()), case_id


def test_legal_keeps_hand_order_and_canonical_notation() -> None:
    q = {"variant": "tute_parejas", "trump": "o", "trick": [[0, "5c"]], "to_play": 1,
         "hand": ["4c", "1c", "3b", "2o"]}
    code, out, _ = run(["legal"], lines(q))
    assert code == 0
    assert answers(out) == [{"legal": ["Ac"], "why": {
        "4c": "must beat 5c", "3b": "must follow suit: copas", "2o": "must follow suit: copas"}}]


def test_legal_judges_partial_and_oversized_hands() -> None:
    one = {"variant": "tute_parejas", "trump": "o", "trick": [[2, "Ac"]], "hand": ["2o"]}
    big = {"variant": "tute_parejas", "trump": "o", "trick": [], "to_play": 0,
           "hand": ["Ao", "3o", "Ro", "Co", "So", "7o", "6o", "5o", "4o", "2o", "Ac", "3c"]}
    code, out, _ = run(["legal"], lines(one, big))
    assert code == 0
    first, second = answers(out)
    assert first["legal"] == ["2o"]  # to_play inferred: seat 3 follows seat 2
    assert len(second["legal"]) == 12


def test_legal_partners_override() -> None:
    base = {"variant": "guinote", "trump": "e", "trick": [[0, "4b"], [1, "Ab"], [2, "5b"]],
            "to_play": 3, "hand": ["2e", "Rc"]}
    code, out, _ = run(["legal"], lines(base, {**base, "partners": None}))
    assert code == 0
    exempt, alone = answers(out)
    assert exempt["legal"] == ["2e", "Rc"]
    assert alone["legal"] == ["2e"] and "Rc" in alone["why"]


GOOD = {"variant": "tute_parejas", "trump": "o", "trick": [[0, "5c"]], "to_play": 1,
        "hand": ["Ac", "4c"]}


@pytest.mark.parametrize(("change", "needle"), [
    ({"hand": ["Ac", "Zq"]}, "hand[1]"),
    ({"variant": "bridge"}, "bridge"),
    ({"options": {"no_such_flag": True}}, "no_such_flag"),
    ({"options": {"must_undertrump": "sometimes"}}, "must_undertrump"),
    ({"hand": ["Ac", "Ac"]}, "twice"),
    ({"hand": ["5c", "Ac"]}, "both in 'trick' and in 'hand'"),
    ({"phase": "middle"}, "phase"),
    ({"phase": "stock"}, "no stock"),
    ({"trick": [[0, "5c"], [2, "Ac"]], "to_play": 3}, "trick[1]"),
    ({"to_play": 2}, "to_play"),
    ({"trick": [[4, "5c"]]}, "trick[0]"),
    ({"trick": [[0, "5c"], [1, "6c"], [2, "7c"], [3, "Sc"]]}, "nobody is left"),
    ({"trump": "x"}, "trump"),
    ({"trump": None}, "trump"),
    ({"hand": "Ac 4c"}, "hand"),
    ({"partners": [[0, 2], [2, 3]]}, "partners"),
    ({"hnad": ["Ac"]}, "hnad"),
])
def test_legal_bad_lines_get_an_error_and_exit_2(change: dict[str, Any], needle: str) -> None:
    bad = {**GOOD, **change}
    code, out, err = run(["legal"], lines(GOOD, bad, GOOD))
    assert code == 2
    first, wrong, last = answers(out)
    assert first == last == {"legal": ["Ac"], "why": {"4c": "must beat 5c"}}
    assert set(wrong) == {"error"} and needle in wrong["error"]
    assert err.strip().splitlines() == [f"tute: line 2: {wrong['error']}"]


def test_legal_subastado_pack_has_no_twos() -> None:
    q = {"variant": "tute_subastado", "trump": "b", "trick": [[1, "3e"]], "hand": ["2b"]}
    code, out, _ = run(["legal"], lines(q))
    assert code == 2 and "not in the tute_subastado pack" in answers(out)[0]["error"]


def test_legal_invalid_json_mixed_with_valid_lines_and_blank_lines() -> None:
    stdin = lines(GOOD, "{not json", "", "   ", "[1, 2]", GOOD)
    code, out, err = run(["legal"], stdin)
    assert code == 2
    got = answers(out)
    assert len(got) == 4  # blank lines are skipped, every other line is answered
    assert got[0]["legal"] == got[3]["legal"] == ["Ac"]
    assert "invalid JSON" in got[1]["error"]
    assert "JSON object" in got[2]["error"]
    assert [e.split(":")[1].strip() for e in err.strip().splitlines()] == ["line 2", "line 5"]


def test_legal_empty_input_is_fine() -> None:
    assert run(["legal"], "") == (0, "", "")


# ------------------------------------------------------------------------------------ score

# Cases whose deal is told in prose: the single-deal input written out (from the case text).
S_SUPPLEMENT: dict[str, dict[str, Any]] = {
    "S05": {"tute": "seat3"},  # "seat 3 declares tute_reyes after winning trick 4"
    # "idle dealer seat3 takes over seat1's hand at 80"
    "S17": {"contract": {"declarer": "seat3", "bid": 80}, "takeover": True},
}
DEAL_KEYS = ("sides", "seat0", "totals", "contract", "declarer_total", "tute")
EXPECTED_ONLY = ("id", "title", "note", "alt", "cases", "result", "made", "why", "detail",
                 "losers")


def _s_entries() -> list[tuple[str, dict[str, Any], Any, dict[str, Any], bool | None]]:
    """(test id, input, expected totals, expected result, expected 'made')."""
    out = []
    for case in CASES:
        cid = str(case["id"])
        if not cid.startswith("S"):
            continue
        top = {k: v for k, v in case.items() if k not in EXPECTED_ONLY}
        top.update(S_SUPPLEMENT.get(cid, {}))
        subs = case.get("cases") or [case]
        for n, sub in enumerate(subs):
            data = {**top, **{k: v for k, v in sub.items() if k not in EXPECTED_ONLY}}
            if not any(k in data for k in DEAL_KEYS):
                continue  # a multi-deal or prose-only case (S06, S13, S18, S20, S21)
            if "totals" in data and any(k in data for k in ("sides", "seat0")):
                del data["totals"]  # expected, not given: the CLI must compute it
            base_id = cid if len(subs) == 1 else f"{cid}.{n + 1}"
            variants = [(base_id, data.get("options") or {}, sub["result"] if "result" in sub
                         else {"losers": sub["losers"]})]
            for i, alt in enumerate(case.get("alt") or [], 1):
                opts = {**(data.get("options") or {}), **(alt.get("options") or {})}
                variants.append((f"{base_id}-alt{i}", opts, alt["result"]))
            for tid, opts, result in variants:
                query = {**data, "options": opts}
                made = sub.get("made", case.get("made"))
                out.append((tid, query, sub.get("totals", case.get("totals")), result, made))
    return out


S_ENTRIES = _s_entries()


def test_s_cases_are_covered() -> None:
    ids = {e[0].split("-")[0].split(".")[0] for e in S_ENTRIES}
    assert {"S01", "S02", "S03", "S04", "S05", "S07", "S08", "S09", "S10", "S11", "S12", "S14",
            "S15", "S16", "S17", "S19", "S22"} <= ids


def _subastado_runs(query: dict[str, Any], result: dict[str, Any]) -> list[tuple[dict, dict]]:
    runs = []
    if "seats3" in result:
        runs.append(({**query, "options": {**query["options"], "seats": 3}}, result["seats3"]))
    if "seats4_idle_dealer_seat3" in result:
        runs.append(({**query, "options": {**query["options"], "seats": 4},
                      "idle_dealer": "seat3"}, result["seats4_idle_dealer_seat3"]))
    if not runs:
        runs.append((query, result))
    return runs


@pytest.mark.parametrize(("test_id", "query", "totals", "result", "made"), S_ENTRIES,
                         ids=[e[0] for e in S_ENTRIES])
def test_s_case_through_tute_score(test_id: str, query: dict[str, Any], totals: Any,
                                   result: dict[str, Any], made: bool | None) -> None:
    if query["variant"] == "tute_subastado":
        for q, balances in _subastado_runs(query, result):
            code, out, err = run(["score"], lines(q))
            assert code == 0, err
            (answer,) = answers(out)
            assert answer["result"]["balances"] == balances
            if made is not None:
                assert answer["result"]["made"] is made
            declarer = q["contract"]["declarer"]
            assert answer["totals"] == {declarer: q["declarer_total"]}
            if "stake_each" in result:
                assert max(-v for v in balances.values()) == result["stake_each"]
        return
    code, out, err = run(["score"], lines(query))
    assert code == 0, err
    (answer,) = answers(out)
    if totals is not None:
        assert answer["totals"] == totals
    expected = dict(result)
    assert answer["result"] == expected


def test_score_all_cases_in_one_batch() -> None:
    plain = [q for _, q, _, _, _ in S_ENTRIES if q["variant"] != "tute_subastado"]
    code, out, _ = run(["score"], lines(*plain))
    assert code == 0 and len(answers(out)) == len(plain)


def _pairs(a: int, b: int, *, last: str = "B", ca: list[int] | None = None,
           cb: list[int] | None = None, variant: str = "tute_parejas") -> dict[str, Any]:
    return {"variant": variant, "sides": {
        "A": {"card_points": a, "cantes": ca or [], "last_trick": last == "A"},
        "B": {"card_points": b, "cantes": cb or [], "last_trick": last == "B"}}}


def test_score_nobody_reaches_101_means_vueltas() -> None:
    two = {"variant": "tute_2p_habanero",
           "seat0": {"card_points": 82, "cantes": [], "last_trick": True},
           "seat1": {"card_points": 38, "cantes": [20], "last_trick": False}}
    code, out, _ = run(["score"], lines(two, _pairs(86, 34, last="A", cb=[20],
                                                     variant="guinote")))
    assert code == 0
    first, second = answers(out)
    assert first == {"totals": {"seat0": 92, "seat1": 58},
                     "result": {"winner": None, "vueltas": True}}
    assert second["result"] == {"partida_winner": None, "vueltas": True}


def test_score_subastado_needs_the_idle_dealer_rules() -> None:
    base = {"variant": "tute_subastado", "contract": {"declarer": "seat3", "bid": 80},
            "declarer_total": 85, "options": {"seats": 4}}
    three = {**base, "contract": {"declarer": "seat1", "bid": 80}, "options": {},
             "takeover": True}
    code, out, _ = run(["score"], lines(base, three))
    assert code == 2
    a, b = answers(out)
    assert "idle dealer" in a["error"] and "takeover" in b["error"]


def test_score_subastado_declarer_total_must_match_detail() -> None:
    q = {"variant": "tute_subastado", "contract": {"declarer": 1, "bid": 80},
         "declarer": {"card_points": 62, "cantes": [20], "last_trick": True},
         "declarer_total": 93}
    code, out, _ = run(["score"], lines(q))
    assert code == 2 and "declarer_total" in answers(out)[0]["error"]


@pytest.mark.parametrize(("query", "needle"), [
    (_pairs(60, 59), "120"),
    ({**_pairs(60, 60), "sides": {"A": {"card_points": 60, "last_trick": True},
                                  "B": {"card_points": 60, "last_trick": True}}}, "last_trick"),
    (_pairs(60, 60, ca=[40], cb=[40]), "forties"),
    (_pairs(60, 60, ca=[30]), "cantes"),
    (_pairs(130, -10), "card_points"),
    ({**_pairs(60, 60), "variant": "tute_quatro"}, "tute_quatro"),
    ({**_pairs(60, 60), "options": {"two_games_threshold": 99}}, "two_games_threshold"),
    ({"variant": "tute_parejas"}, "sides"),
    ({**_pairs(65, 55), "options": {"tie_break": "mano_side"}}, "mano_side"),
    ({"variant": "tute_parejas", "cases": []}, "cases"),
    ({**_pairs(60, 60), "mano_sid": "A"}, "mano_sid"),
    ({**_pairs(70, 50, last="A"), "totals": {"A": 81, "B": 50}}, "totals"),
    ({"variant": "tute_arrastrado_3p", "totals": {"seat0": 60, "seat1": 45}}, "seat2"),
    ({"variant": "tute_cabron", "totals": {"seat0": 80, "seat1": 50, "seat2": 0}}, "seat2"),
    ({"variant": "tute_cabron", "totals": {"seat0": 80, "seat1": 50, "seat2": 0},
      "no_trick": ["seat1"]}, "seat1"),
    ({"variant": "tute_subastado", "contract": {"declarer": "seat1", "bid": 55},
      "declarer_total": 70}, "contract.bid"),
    ({"variant": "tute_subastado", "contract": {"declarer": "seat1", "bid": 80}}, "declarer"),
    ("[]", "JSON object"),
])
def test_score_bad_lines(query: Any, needle: str) -> None:
    code, out, err = run(["score"], lines(query, _pairs(70, 50, last="A")))
    assert code == 2
    bad, good = answers(out)
    assert needle in bad["error"]
    assert good["result"] == {"winner": "A", "games": 1}
    assert len(err.strip().splitlines()) == 1


def _score_query(deal: tute.Deal) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The ``tute score`` line of a finished deal and what the engine says, or None."""
    res = deal.result()
    var = deal.variant
    if res.reason != "tricks" or getattr(res, "void", None):
        return None
    detail = [{"card_points": res.card_points[i], "cantes": list(res.cantes[i]),
               "last_trick": res.last_trick[i]} for i in range(len(res.totals))]
    names = ["A", "B"] if var.partnerships else [f"seat{i}" for i in range(len(res.totals))]
    query: dict[str, Any] = {"variant": var.id}
    if var.id == "tute_subastado":
        declarer, bid, _trump, takeover = res.contract
        query.update(contract={"declarer": declarer, "bid": bid}, takeover=takeover,
                     declarer=detail[declarer])
        return query, {"balances": dict(zip(names, res.balances, strict=True)),
                       "made": res.made}
    if var.id == "tute_cabron":
        took = {t.winner for t in deal.tricks}
        query.update(totals=dict(zip(names, res.totals, strict=True)),
                     took_trick=sorted(took))
        return query, {"losers": [n for n, k in zip(names, res.losses, strict=True) if k]}
    if var.id in ("tute_gana_pierde", "tute_cabrero"):  # totals, tricks taken, who sang
        took = {t.winner for t in deal.tricks}
        last = next(i for i, x in enumerate(res.last_trick) if x)
        query.update(totals=dict(zip(names, res.totals, strict=True)),
                     took_trick=sorted(took), last_trick=last,
                     sang=sorted({s for s, _d, _p in deal.cantes}))
        want: dict[str, Any] = {"losses_added": {
            n: k for n, k in zip(names, res.losses, strict=True) if k}}
        if res.winner is not None:
            want["out"] = names[res.winner]
        return query, want
    if var.partnerships:
        query["sides"] = dict(zip(names, detail, strict=True))
    else:
        query.update(zip(names, detail, strict=True))
    if var.id == "tute_arrastrado_3p":
        return query, {"losses_added": {n: k for n, k in zip(names, res.losses, strict=True)
                                        if k}}
    key = "partida_winner" if var.family == "guinote" else "winner"
    if res.winner is None:
        return query, {key: None, "vueltas": True}
    won = {key: names[res.winner]}
    if var.id in ("tute_parejas",) or deal.options.scoring_2p == "per_deal":
        won["games"] = res.games[res.winner]
    return query, won


@pytest.mark.parametrize("variant", PLAYABLE)
def test_score_agrees_with_the_engine_on_random_deals(variant: str) -> None:
    pairs = [q for q in (_score_query(_random_deal(seed, variant)) for seed in range(40)) if q]
    assert pairs
    code, out, err = run(["score"], lines(*(q for q, _ in pairs)))
    assert code == 0, err
    for (query, expected), answer in zip(pairs, answers(out), strict=True):
        got = answer["result"]
        assert {k: got[k] for k in expected} == expected, query


# ------------------------------------------------------------------------------------ replay


def _random_deal(seed: int, variant: str = "tute_parejas") -> tute.Deal:
    deal = tute.Deal.new(variant, seed=seed)
    rng = random.Random(seed)
    while not deal.is_over():
        acts = deal.legal_actions()
        deal.apply(acts[rng.randrange(len(acts))])
    return deal


def _write(tmp_path: Path, name: str, record: Any) -> str:
    path = tmp_path / name
    path.write_text(record if isinstance(record, str) else json.dumps(record), "utf-8")
    return str(path)


def test_replay_a_deal_record(tmp_path: Path) -> None:
    deal = _random_deal(4)
    path = _write(tmp_path, "deal.json", deal.to_record())
    code, out, _ = run(["replay", path, "--json"])
    assert code == 0
    data = json.loads(out)
    assert data["valid"] and data["kind"] == "deal"
    assert data["result"]["totals"] == list(deal.result().totals)
    code, out, _ = run(["replay", path])
    assert code == 0 and "Registro válido" in out
    code, out, _ = run(["replay", path, "--verbose", "--lang", "en"])
    assert code == 0 and out.count("Trick ") == 10


def test_replay_from_stdin_and_stock_variant() -> None:
    deal = _random_deal(8, "guinote")
    code, out, _ = run(["replay", "-", "--json"], json.dumps(deal.to_record()))
    assert code == 0 and json.loads(out)["variant"] == "guinote"


def test_replay_a_match_record(tmp_path: Path) -> None:
    match = Match.new("tute_parejas", seed=11, options={"match": {"mode": "race", "games": 2}})
    rng = random.Random(3)
    while not match.is_over():
        acts = match.legal_actions()
        match.apply(acts[rng.randrange(len(acts))])
    path = _write(tmp_path, "match.json", match.to_record())
    code, out, _ = run(["replay", path, "--json"])
    assert code == 0
    data = json.loads(out)
    assert data["kind"] == "match" and data["result"]["games"] == list(match.result().games)
    assert len(data["deals"]) == len(match.deals)
    code, out, _ = run(["replay", path, "-v"])
    assert code == 0 and "Gana la partida" in out


def test_replay_corrupted_record_names_the_first_illegal_action(tmp_path: Path) -> None:
    record = _random_deal(4).to_record()
    probe = tute.Deal.new("tute_parejas", seed=4, dealer=record["dealer"])
    index = None
    for i, action in enumerate(record["actions"]):
        refused = [c for c in probe.hand(probe.to_move) if c not in probe.legal_actions()]
        if refused and i >= 3:
            record["actions"][i] = str(refused[0])
            index = i
            break
        probe.apply(action)
    assert index is not None
    del record["result"]
    path = _write(tmp_path, "bad.json", record)
    code, out, err = run(["replay", path])
    assert code == 2 and out == ""
    assert f"index {index}" in err and len(err.strip().splitlines()) == 1
    code, out, err = run(["replay", path, "--json"])
    data = json.loads(out)
    assert code == 2 and data["valid"] is False and data["index"] == index
    assert data["field"] == "actions"


@pytest.mark.parametrize(("content", "needle"), [
    ("{not json", "invalid JSON"),
    ("[1, 2]", "object"),
    ({"format": "tute-record", "version": 1, "kind": "poker"}, "kind"),
    ({"format": "tute-record", "version": 1, "variant": "nope", "seed": 1}, "variant"),
])
def test_replay_bad_records(tmp_path: Path, content: Any, needle: str) -> None:
    code, _, err = run(["replay", _write(tmp_path, "r.json", content)])
    assert code == 2 and needle in err
    assert len(err.strip().splitlines()) == 1


def test_replay_missing_file() -> None:
    code, _, err = run(["replay", "/nonexistent/record.json"])
    assert code == 2
    assert "/nonexistent/record.json" in err and "No such file" in err


# ------------------------------------------------------------------------------------ deal


def test_deal_shows_hands_dealer_and_trump() -> None:
    code, out, _ = run(["deal", "--variant", "tute_parejas", "--seed", "7", "--json"])
    assert code == 0
    data = json.loads(out)
    deal = tute.Deal.new("tute_parejas", seed=7)
    assert data["hands"] == [h.to_list() for h in deal.hands]
    assert data["dealer"] == deal.dealer and data["mano"] == deal.mano
    assert data["trump_card"] == str(deal.trump_card)
    code, text, _ = run(["deal", "--seed", "7", "--dealer", "2"])
    assert code == 0 and "Reparte J2" in text and str(deal.hands[0]).split()[0] in text


def test_deal_options_parse_json_values() -> None:
    code, out, _ = run(["deal", "--seed", "1", "--json", "--option", "two_games_threshold=101",
                        "--option", 'match={"mode": "race", "games": 3}',
                        "-o", "tie_break=replay"])
    assert code == 0
    assert json.loads(out)["options"] == {"two_games_threshold": 101, "tie_break": "replay",
                                          "match": {"mode": "race", "games": 3}}


def test_deal_stock_variant() -> None:
    code, out, _ = run(["deal", "--variant", "habanero", "--seed", "3", "--json"])
    assert code == 0
    data = json.loads(out)
    assert data["variant"] == "tute_2p_habanero" and len(data["hands"][0]) == 8
    assert data["upcard"] is not None


@pytest.mark.parametrize(("args", "needle"), [
    (["--variant", "bridge"], "bridge"),
    (["--option", "colour=red"], "colour"),
    (["--option", "two_games_threshold=99"], "two_games_threshold"),
    (["--option", "novalue"], "--option"),
    (["--dealer", "7"], "dealer"),
])
def test_deal_errors(args: list[str], needle: str) -> None:
    code, _, err = run(["deal", "--seed", "1", *args])
    assert code == 2 and needle in err
    assert len(err.strip().splitlines()) == 1


def test_deal_usage_error_exits_2() -> None:
    code, _, _ = run(["deal", "--seed", "abc"])
    assert code == 2


# ------------------------------------------------------------------------------------ variants


def test_variants_text_and_json() -> None:
    code, out, _ = run(["variants"])
    assert code == 0
    for v in tute.VARIANTS.values():
        assert v.id in out and v.name in out
    code, out, _ = run(["variants", "--options"])
    assert code == 0 and "two_games_threshold" in out
    code, out, _ = run(["variants", "--json"])
    data = {v["id"]: v for v in json.loads(out)}
    assert set(data) == set(tute.VARIANTS)
    parejas = data["tute_parejas"]
    assert "parejas" in parejas["aliases"]
    assert parejas["options"]["match"]["default"] == {"mode": "series", "deals": 6}
    assert parejas["options"]["partner_exemption"]["domain"] == "true | false"
    assert data["guinote"]["options"]["partner_exemption"]["default"] is True


# ------------------------------------------------------------------------------------ selfplay


def test_selfplay_json_is_reproducible() -> None:
    args = ["selfplay", "--variant", "tute_parejas", "--deals", "30", "--seed", "9", "--json"]
    code, out, _ = run(args)
    assert code == 0
    data = json.loads(out)
    assert data["deals"] == 30
    assert sum(data["wins"].values()) + data["undecided"] == 30
    assert set(data["mean_totals"]) == {"A", "B"}
    assert data["deals_per_second"] > 0
    again = json.loads(run(args)[1])
    for key in ("wins", "games", "mean_totals", "tute_endings"):
        assert again[key] == data[key]


def test_selfplay_text_and_options() -> None:
    code, out, _ = run(["selfplay", "--deals", "5", "--seed", "1",
                        "--option", "two_games_threshold=101"])
    assert code == 0 and "deals won" in out and "deals/s" in out


@pytest.mark.parametrize("variant", PLAYABLE)
def test_selfplay_every_playable_variant(variant: str) -> None:
    code, out, _ = run(["selfplay", "--variant", variant, "--deals", "6", "--seed", "4",
                        "--json"])
    assert code == 0
    data = json.loads(out)
    assert sum(data["wins"].values()) + data["undecided"] == 6
    code, out, _ = run(["selfplay", "--variant", variant, "--deals", "3"])
    assert code == 0 and "deals/s" in out


@pytest.mark.parametrize("variant", PLAYABLE)
def test_deal_and_replay_every_playable_variant(variant: str, tmp_path: Path) -> None:
    code, out, _ = run(["deal", "--variant", variant, "--seed", "2", "--json"])
    assert code == 0 and json.loads(out)["variant"] == variant
    deal = _random_deal(6, variant)
    path = _write(tmp_path, "d.json", deal.to_record())
    code, out, _ = run(["replay", path, "--verbose"])
    assert code == 0 and "Registro válido" in out
    code, out, _ = run(["replay", path, "--json"])
    assert code == 0 and json.loads(out)["result"] == deal.result().to_json()


def test_selfplay_errors() -> None:
    code, _, err = run(["selfplay", "--variant", "tute_cuatro", "--deals", "2"])
    assert code == 2 and "tute_cuatro" in err
    code, _, err = run(["selfplay", "--option", "two_games_threshold=99"])
    assert code == 2 and "two_games_threshold" in err
    code, _, _ = run(["selfplay", "--deals", "0"])
    assert code == 2


# ------------------------------------------------------------------------------------ demo


def test_demo_plays_a_whole_match_in_spanish() -> None:
    code, out, _ = run(["demo", "--seed", "3"])
    assert code == 0
    assert "Baza 1:" in out and "Pinta:" in out and "Marcador:" in out
    assert out.strip().splitlines()[-1].startswith("¡Gana la partida")
    assert run(["demo", "--seed", "3"])[1] == out  # reproducible
    code, out, _ = run(["demo", "--seed", "3", "--lang", "en", "--delay", "0"])
    assert code == 0 and "wins the match" in out


# ------------------------------------------------------------------------------------ play


def test_play_quits_cleanly_on_eof_and_q() -> None:
    code, out, _ = run(["play", "--seed", "5"], "")
    assert code == 0 and "Hasta otra" in out
    code, out, _ = run(["play", "--seed", "5", "--lang", "en"], "?\nq\n")
    assert code == 0 and "Type a card" in out and "Bye" in out


def test_play_shows_only_the_humans_hand_and_explains_refusals() -> None:
    seed, seat = 5, 1
    match = Match.new("tute_parejas", seed=seed)
    own = str(match.deal.hand(seat))
    code, out, _ = run(["play", "--seed", str(seed), "--seat", str(seat)], "Zz\n99\nq\n")
    assert code == 0
    hand_lines = [ln for ln in out.splitlines() if ln.startswith("Tu mano:")]
    assert hand_lines, out
    shown = " ".join(tok for tok in hand_lines[0].split()[2:] if not tok.endswith(")"))
    assert shown == own
    for other in range(4):  # no other hand is ever listed
        if other != seat:
            assert str(match.deal.hand(other)) not in out
    assert "No se puede: no se entiende «Zz»" in out and "No hay carta 99" in out


def test_play_illegal_card_gives_the_engine_reason() -> None:
    """Sit right after mano, replay the first bot card as the CLI does, refuse a card."""
    for seed in range(200):
        match = Match.new("tute_parejas", seed=seed)
        deal = match.deal
        lead, human = deal.mano, (deal.mano + 1) % 4
        rng = random.Random(seed)
        deal.apply(_bot_choice(rng, deal.view(lead).legal_actions, sings=True))
        refused = [c for c in deal.hand(human) if c not in deal.legal_actions()]
        if refused:
            break
    else:
        pytest.fail("no seed with a refused card")
    why = deal.refusal(refused[0])
    assert why is not None
    code, out, _ = run(["play", "--seed", str(seed), "--seat", str(human)], f"{refused[0]}\nq\n")
    assert code == 0
    spanish = refusal_text("es", why, you=human, words=True)
    assert spanish.startswith("hay que") and f"No se puede: {spanish}" in out


def test_play_refusal_names_the_card_in_words() -> None:
    """"hay que montar: supera el tres de oros", never the notation "supera el 3o"."""
    for seed in range(400):
        match = Match.new("tute_parejas", seed=seed)
        deal = match.deal
        lead, human = deal.mano, (deal.mano + 1) % 4
        deal.apply(_bot_choice(random.Random(seed), deal.view(lead).legal_actions, sings=True))
        whys = [(c, deal.refusal(c)) for c in deal.hand(human) if c not in deal.legal_actions()]
        named = [(c, w) for c, w in whys if w is not None and "card" in w.params]
        if named:
            break
    else:
        pytest.fail("no seed with a refusal that names a card")
    card, why = named[0]
    code, out, _ = run(["play", "--seed", str(seed), "--seat", str(human)], f"{card}\nq\n")
    assert code == 0
    shown = str(why.params["card"])
    line = next(x for x in out.splitlines() if "No se puede" in x)
    assert card_name("es", parse_card(shown)) in line and f" {shown}" not in line, line


def test_play_a_whole_match() -> None:
    moves = "\n".join(str(k) for _ in range(300) for k in range(1, 11)) + "\n"
    code, out, _ = run(["play", "--seed", "12", "--seat", "2"], moves)
    assert code == 0
    assert "¡Gana la partida" in out or "termina sin ganador" in out


# ------------------------------------------------------------------------------------ bounded input

GOOD_P = {"variant": "tute_parejas", "trump": "o", "trick": [[0, "5c"]], "to_play": 1,
          "hand": ["Ac", "4c", "3b", "2o"]}
GOOD_S = {"variant": "tute_parejas", "sides": {
    "A": {"card_points": 68, "cantes": [20], "last_trick": False},
    "B": {"card_points": 52, "cantes": [40], "last_trick": True}}}
DEEP = "[" * 100_000 + "]" * 100_000


def run_raw(args: list[str], data: bytes) -> tuple[int, str, str]:
    return run(args, data)  # type: ignore[arg-type]  # CliRunner takes bytes as well


def tute_process(args: list[str], **kw: Any) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run([sys.executable, "-m", "tute", *args], capture_output=True, env=env,
                          timeout=60, **kw)


def _short_error(text: str) -> None:
    """One line that quotes a short prefix of the bad input at most."""
    assert len(text.strip().splitlines()) == 1, text[:300]
    assert len(text) < 1100, text[:300]
    assert "x" * 61 not in text


@pytest.mark.parametrize(("command", "good"), [("legal", GOOD_P), ("score", GOOD_S)])
@pytest.mark.parametrize("bad", [
    pytest.param(DEEP.encode(), id="deep-100000"),
    pytest.param(("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1)).encode(),
                 id="deep-33"),
    pytest.param(b'{"hand": "' + b"x" * (50 << 20) + b'"}', id="line-50MB"),
    pytest.param(bytes(range(256)) * 40, id="binary"),
    pytest.param(b'{"variant": "tute_\xff\xfe"}', id="not-utf8"),
    pytest.param(b'{"hand": ["' + b"x" * 900_000 + b'"]}', id="value-900KB"),
    pytest.param(b'{"to_play": ' + b"9" * 5000 + b"}", id="number-5000-digits"),
])
def test_json_lines_bad_input_gets_an_error_and_the_rest_is_answered(
        command: str, good: dict[str, Any], bad: bytes) -> None:
    data = json.dumps(good).encode() + b"\n" + bad + b"\n" + json.dumps(good).encode() + b"\n"
    code, out, err = run_raw([command], data)
    assert code == 2
    got = answers(out)
    assert "error" not in got[0] and got[-1] == got[0]  # the lines around it are answered
    errors = [a for a in got if "error" in a]
    assert errors and all(len(e["error"]) < 1100 for e in errors)
    for line in err.splitlines():
        _short_error(line)
    if bad is DEEP:
        assert errors == [{"error": "invalid JSON: nested more than 32 levels deep"}]


def test_json_lines_size_bound_is_exact() -> None:
    line = json.dumps(GOOD_P).encode()
    fits = line + b" " * (MAX_LINE_BYTES - len(line)) + b"\n"  # MAX_LINE_BYTES before the \n
    over = line + b" " * (MAX_LINE_BYTES + 1 - len(line)) + b"\n"
    code, out, _ = run_raw(["legal"], fits + over + fits)
    got = answers(out)
    assert code == 2 and len(got) == 3
    assert got[0] == got[2] and "legal" in got[0]
    assert got[1] == {"error": "line longer than 1 MB: not read"}
    code, out, _ = run_raw(["legal"], fits[:-1])  # the last line needs no newline
    assert code == 0 and "legal" in answers(out)[0]


def test_json_lines_from_dev_zero_end_quickly() -> None:
    with open("/dev/zero", "rb") as zero:
        proc = tute_process(["legal"], stdin=zero)
    assert proc.returncode == 2
    assert json.loads(proc.stdout) == {
        "error": "line longer than 64 MB without an end: the rest of the input is not read"}
    _short_error(proc.stderr.decode())


@pytest.mark.parametrize("command", ["replay", "solve"])
def test_record_from_dev_zero_ends_quickly_with_exit_2(command: str) -> None:
    if command == "solve":
        pytest.importorskip("numba")
    proc = tute_process([command, "/dev/zero"])
    err = proc.stderr.decode()
    assert proc.returncode == 2 and "Traceback" not in err
    assert "larger than 16 MB" in err
    _short_error(err)


@pytest.mark.parametrize("command", ["replay", "solve"])
@pytest.mark.parametrize(("content", "needle"), [
    pytest.param(DEEP.encode(), "nested more than 32 levels deep", id="deep"),
    pytest.param(bytes(range(256)) * 100, "invalid JSON", id="binary"),
    pytest.param(b'{"kind": "\xff"}', "not UTF-8", id="not-utf8"),
    pytest.param(b" " * MAX_RECORD_BYTES + b"{}", "larger than 16 MB", id="over-16MB"),
    pytest.param(b'{"format": "' + b"x" * 5_000_000 + b'"}', "format", id="value-5MB"),
])
def test_bad_record_files_exit_2_with_one_short_line(
        tmp_path: Path, command: str, content: bytes, needle: str) -> None:
    if command == "solve":
        pytest.importorskip("numba")
    path = tmp_path / "r.json"
    path.write_bytes(content)
    code, out, err = run([command, str(path)])
    assert code == 2 and out == ""
    assert needle in err
    _short_error(err)
    if command == "replay":  # and from stdin, with --json
        code, out, err = run_raw([command, "-", "--json"], content)
        assert code == 2 and needle in err and json.loads(out)["valid"] is False
        _short_error(out)


def test_deep_option_value_on_the_command_line() -> None:
    code, _, err = run(["deal", "-o", "match=" + "[" * 100_000])
    assert code == 2 and "'match'" in err
    _short_error(err)


def test_play_reads_a_bounded_command() -> None:
    code, out, _ = run(["play", "--seed", "5"], "x" * 10_000_000 + "\nq\n")
    assert code == 0 and "Hasta otra" in out
    assert "x" * 65 not in out
    with open("/dev/zero", "rb") as zero:  # endless input without a newline: the game ends
        proc = tute_process(["play", "--seed", "5"], stdin=zero)
    assert proc.returncode == 0 and b"Traceback" not in proc.stderr


@pytest.mark.parametrize("flag", ["--record", "--load"])
def test_play_checks_its_record_files_with_the_same_bounds(tmp_path: Path, flag: str) -> None:
    path = tmp_path / "deep.json"
    path.write_text(DEEP)
    code, _, err = run(["play", flag, str(path)], "q\n")
    assert code == 2 and "nested more than 32 levels deep" in err
    proc = tute_process(["play", flag, "/dev/zero"])
    assert proc.returncode == 2 and b"larger than 16 MB" in proc.stderr


def test_the_command_says_which_extra_it_needs(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """``pip install tute`` is the engine alone: without Typer the tute command says how to
    get it, and without Textual so does the full-screen game (never an import traceback)."""
    import importlib.util

    from tute import console

    real = importlib.util.find_spec
    gone: set[str] = {"typer"}
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name in gone else real(name, *a))
    with pytest.raises(SystemExit) as out:
        console.main(["variants"])
    assert out.value.code == 2
    assert "pip install 'tute[cli]'" in capsys.readouterr().err
    gone = {"textual"}
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    with pytest.raises(SystemExit) as out:
        console.main(["play"])
    assert out.value.code == 2
    err = capsys.readouterr().err
    assert "pip install 'tute[tui]'" in err and "--plain" in err


def test_solve_takes_the_match_records_the_game_saves(tmp_path: Path) -> None:
    """``tute solve`` reads a match record (as ``tute play`` saves it): the position of its
    current deal after its actions, named by its deal number."""
    pytest.importorskip("numba")
    match = Match.new("tute_parejas", seed=3, options={"match": {"mode": "race", "games": 2}})
    rng = random.Random(1)
    while len(match.deals) < 2 or len(match.deal.actions) < 30:  # late in the second deal
        acts = match.legal_actions()
        match.apply(acts[rng.randrange(len(acts))])
    path = _write(tmp_path, "saved.json", match.to_record())
    code, out, err = run(["solve", path, "--json"])
    assert code == 0, err
    data = json.loads(out)
    assert data["deal"] == len(match.deals) and data["trick"] == match.deal.trick_number
    want = tute.Deal.from_record(match.deal.to_record())
    code, alone, _ = run(["solve", _write(tmp_path, "deal.json", want.to_record()), "--json"])
    assert code == 0 and json.loads(alone)["value"] == data["value"]
    code, out, _ = run(["solve", path])
    assert code == 0 and f"deal {len(match.deals)}, trick" in out


# ---------------------------------------------------------------------------------------------
# tute regress, tute reports (docs/reports.md)

REPEATS = ROOT / "tests" / "data" / "regressions" / "medio_repeats.jsonl"


def _server_with_reports(data_dir: Path) -> list[str]:
    """A server's database holding two reports of real blunders of medio (as the page files
    them): their ids."""
    from tute.regressions import load_set
    from tute.server.reports_store import ReportRow, ReportStore, open_engine

    data_dir.mkdir()
    engine = open_engine(f"sqlite:///{data_dir / 'tute.sqlite3'}")
    ids = []
    try:
        with engine.begin() as conn:
            for k, reg in enumerate(load_set(REPEATS)[:2]):
                row = ReportRow(id=f"abc{k}", table_id=f"t{k}", deal=reg.deal, move=reg.move,
                                seat=reg.seat, variant=reg.variant, bot=reg.bot,
                                played=reg.played, analysis=reg.analysis, record=reg.record,
                                comment="¿en serio?", account_id=None, status="open",
                                at=1_700_000_000.0 + k)
                ReportStore.op_file(row)(conn)
                ids.append(row.id)
    finally:
        engine.dispose()
    return ids


def test_regress_the_shipped_set_passes_the_default_bot() -> None:
    code, out, _ = run(["regress"])
    assert code == 0, out
    assert out.strip().splitlines()[-1].startswith("medio: 0 of ")
    code, out, _ = run(["regress", "--bot", "medio", "--json"])
    data = json.loads(out)
    assert code == 0 and data["failed"] == 0 and data["reports"] == len(data["outcomes"])


def test_regress_a_repeated_blunder_exits_1_until_decided(tmp_path: Path) -> None:
    ids = _server_with_reports(tmp_path / "srv")
    code, listed, _ = run(["reports", "list", "--data-dir", str(tmp_path / "srv")])
    assert code == 0 and [line.split()[0] for line in listed.splitlines()] == ids
    assert "¿en serio?" in listed and "open" in listed
    code, exported, _ = run(["reports", "export", "--data-dir", str(tmp_path / "srv")])
    assert code == 0 and len(exported.splitlines()) == 2
    first = json.loads(exported.splitlines()[0])
    assert first["expected"] == {"not": first["played"]} and first["source"] == "table:t0"
    assert "token" not in exported
    path = tmp_path / "reports.jsonl"
    path.write_text(exported, encoding="utf-8")
    code, out, _ = run(["regress", str(path), "--bot", "medio"])
    assert code == 1, out
    assert out.count("FAIL") == 2 and "medio: 2 of 2 reports failed" in out
    # decided in the server's database: exported again, that one passes
    code, out, err = run(["reports", "decide", ids[0], "--note", "accepted for now",
                          "--data-dir", str(tmp_path / "srv")])
    assert code == 0, err
    code, exported, _ = run(["reports", "export", "--data-dir", str(tmp_path / "srv")])
    path.write_text(exported, encoding="utf-8")
    code, out, _ = run(["regress", str(path), "--bot", "medio"])
    assert code == 1 and "medio: 1 of 2 reports failed (1 open, 1 decided)" in out
    # decided in the file itself: nothing fails
    code, out, err = run(["reports", "decide", ids[1], "--note", "known weakness",
                          "--file", str(path)])
    assert code == 0, err
    code, out, _ = run(["regress", str(path), "--bot", "medio"])
    assert code == 0 and "medio: 0 of 2 reports failed" in out, out
    code, out, _ = run(["reports", "list", "--status", "open", "--data-dir",
                        str(tmp_path / "srv")])
    assert code == 0 and out.split()[0] == ids[1]


def test_reports_bad_input(tmp_path: Path) -> None:
    ids = _server_with_reports(tmp_path / "srv")
    srv = ["--data-dir", str(tmp_path / "srv")]
    for args, words in (
        (["reports", "decide", "nope", "--note", "x", *srv], "no report 'nope'"),
        (["reports", "decide", ids[0], "--note", " ", *srv], "needs a note"),
        (["reports", "decide", ids[0], "--note", "x", "--expect", "Zz", *srv],
         "legal actions there are"),
        (["reports", "list", "--status", "maybe", *srv], "invalid --status"),
        (["reports", "export", "--data-dir", str(tmp_path / "none")], "no database"),
        (["reports", "decide", "x", "--note", "y", "--file", str(tmp_path / "no.jsonl")],
         "cannot read"),
        (["regress", "--bot", "nope"], "unknown bot"),
        (["regress", str(tmp_path / "no.jsonl")], "cannot read"),
        (["regress", str(REPEATS), str(REPEATS)], "in two sets"),
    ):
        code, out, err = run(args)
        assert code == 2 and words in err, (args, err)
        _short_error(err)
    # nothing was decided by the refusals
    code, out, _ = run(["reports", "list", "--status", "open", *srv])
    assert len(out.splitlines()) == 2
