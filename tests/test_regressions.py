"""Regression sets of reported bot blunders (tute.regressions, docs/reports.md): the shipped
set (real blunders of the facil level found by the analysis of seeded deals) passes the
default bot; a bot that repeats a blunder fails it; the bot sees the reporting seat's view
alone; a decided report no longer fails, or fails on another action than the decided one;
bad sets are refused naming the line and the field."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from tute.actions import Action
from tute.bots import BOTS, Bot, BotInfo
from tute.deal import SeatView
from tute.errors import TuteError
from tute.regressions import (
    SHIPPED,
    check,
    decide,
    dump_set,
    load_set,
    parse_set,
    position,
    run,
)

REPEATS = Path(__file__).parent / "data" / "regressions" / "medio_repeats.jsonl"


def test_the_shipped_set_is_real_and_the_default_bot_passes_it() -> None:
    regs = load_set(SHIPPED)
    assert len(regs) >= 5
    for r in regs:
        # a real blunder: the record replays to it, and the analysis said what it cost
        pos = position(r)
        assert pos.to_move == r.seat and r.played in {str(a) for a in pos.legal_actions()}
        assert r.status == "open" and r.expected() == {"not": r.played}
        assert r.analysis["dd_loss"] >= 20 and r.analysis["loss"] >= 10
        assert r.analysis["dd_best"] != r.played and r.source.startswith("selfplay:")
    outcomes = run(regs, "medio")
    assert [o.fails for o in outcomes] == [False] * len(regs)
    assert all(not o.repeats for o in outcomes)


def test_a_bot_that_repeats_a_blunder_fails() -> None:
    """Real blunders of medio (the rules bot) at its own positions: it repeats them."""
    regs = load_set(REPEATS)
    outcomes = run(regs, "medio")
    assert all(o.fails and o.repeats and o.choice == o.played for o in outcomes)


class _Spy(Bot):
    """Plays the first legal action; keeps what it was given."""

    seen: list[Any] = []  # noqa: RUF012

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        _Spy.seen.append((view, list(legal)))
        return legal[0]


def test_the_bot_is_given_the_seats_view_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "spy", BotInfo("spy", "test", _Spy))
    _Spy.seen = []
    reg = load_set(SHIPPED)[0]
    out = check(reg, "spy")
    [(view, legal)] = _Spy.seen
    assert isinstance(view, SeatView) and view.seat == reg.seat
    pos = position(reg)
    assert view.hand == pos.hand(reg.seat)
    assert not hasattr(view, "hands")  # no other hand: only their sizes
    assert [str(a) for a in legal] == [str(a) for a in view.legal_actions]
    assert out.choice == str(legal[0])


def test_a_decided_report(tmp_path: Path) -> None:
    reg = load_set(REPEATS)[0]
    assert check(reg, "medio").fails
    fine = decide(reg, "  the rules bot keeps its high card here; accepted  ")
    assert fine.status == "decided" and fine.note == "the rules bot keeps its high card " \
        "here; accepted" and fine.expected() is None
    out = check(fine, "medio")
    assert out.repeats and not out.fails
    # decided with the action to play: fails while the bot plays another
    best = reg.analysis["dd_best"]
    assert not check(decide(reg, "play the best", expect=reg.played), "medio").fails
    assert check(decide(reg, "play the best", expect=best), "medio").fails
    with pytest.raises(TuteError, match="needs a note"):
        decide(reg, "   ")
    with pytest.raises(TuteError, match="legal actions there are"):
        decide(reg, "x", expect="Zz")
    # it goes through a file and back
    path = tmp_path / "set.jsonl"
    path.write_text(dump_set([fine]), encoding="utf-8")
    [back] = load_set(path)
    assert back == fine
    line = json.loads(path.read_text())
    assert line["status"] == "decided" and line["expected"] is None
    assert line["record"]["variant"] == "tute_parejas"


@pytest.mark.parametrize(("change", "words"), [
    ({"deal": -1}, "invalid deal"),
    ({"move": "3"}, "invalid move"),
    ({"seat": True}, "invalid seat"),
    ({"status": "maybe"}, "invalid status"),
    ({"record": []}, "invalid record"),
    ({"played": None}, "invalid played"),
    ({"note": "x" * 501}, "invalid note"),
])
def test_bad_lines_are_named(change: dict[str, Any], words: str) -> None:
    good = json.loads(dump_set(load_set(SHIPPED)[:1]))
    lines = [json.dumps(good), json.dumps({**good, "id": "other", **change})]
    with pytest.raises(TuteError, match=f"line 2: {words}"):
        parse_set(lines)
    with pytest.raises(TuteError, match="line 1: not JSON"):
        parse_set(["{"])
    with pytest.raises(TuteError, match="twice"):
        parse_set([json.dumps(good)] * 2)


def test_a_report_that_does_not_fit_its_record() -> None:
    reg = load_set(SHIPPED)[0]
    for bad, words in (({"move": 999}, "no move 999"), ({"deal": 3}, "no deal 3"),
                       ({"seat": (reg.seat + 1) % 4}, "not seat"),
                       ({"played": "zz"}, "playing")):
        with pytest.raises(TuteError, match=words):
            position(type(reg)(**{**reg.__dict__, **bad}))
