"""Every game saved by an earlier version still loads and means the same (issue 16): the
records of each released record version (``tests/data/golden_records/`` for version 1,
``tests/data/records_v2/`` for version 2) replay to their stored results and event logs,
under the rules they were played with (``records.EARLIER_RULES``).

They are version-1 records. Version 2 no longer asks the trick winner of a stock game about
the exchange before the draw (the right is kept for its turn), so the records of the stock
games are migrated when read: the result is the same, and so is the log but for the passes
that answered those questions and the moment of the exchanges (after the draw, on the seat's
turn). Written again, a record is version 2; read again, it gives the same deal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import tute
from golden_records import DIR, event_log, jsonable, version_dir
from tute.errors import RecordError
from tute.records import RETIRED_OPTIONS, VERSION, earlier_rules

FILES = sorted(DIR.glob("*.json"))
V2 = sorted(version_dir(2).glob("*.json"))
_MOVED = ("Passed", "Exchanged")  # what the migration may drop (passes) or move (exchanges)


def test_golden_set_is_there() -> None:
    assert len(FILES) >= 60
    assert len(V2) >= 150 and VERSION == 2  # a new version brings its own set
    games = {json.loads(p.read_text(encoding="utf-8"))["record"]["variant"] for p in V2}
    assert games == set(tute.VARIANTS)  # every game


@pytest.mark.parametrize("path", V2, ids=[p.stem for p in V2])
def test_version_2_record(path: Path) -> None:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    record = data["record"]
    assert record["version"] == 2 and earlier_rules(record) == {}
    game = (tute.Match if record["kind"] == "match" else tute.Deal).from_record(record)
    assert game.result().to_json() == data["result"]
    logs = ([stored_form(d.events) for d in game.deals] if isinstance(game, tute.Match)
            else stored_form(game.events))
    assert logs == data["events"]
    assert game.to_record() == record


def test_a_record_plays_by_the_rules_of_its_day() -> None:
    """Four-player cabrón records written before ``cabron_middle`` (version 1) replay with the
    middle rule of then (``positions``) and give their stored results; read as today's,
    the same actions give other results. The user is told which rule applied."""
    paths = sorted(DIR.glob("cabron_4_positions_*.json"))
    assert len(paths) == 3
    for path in paths:
        data = json.loads(path.read_text(encoding="utf-8"))
        record = data["record"]
        assert "cabron_middle" not in record["options"]
        assert earlier_rules(record) == {"cabron_middle": "positions"}
        kind = tute.Match if record["kind"] == "match" else tute.Deal
        assert kind.from_record(record).result().to_json() == data["result"]
        with pytest.raises(RecordError, match="replaying the actions gives"):
            kind.from_record(record | {"version": 2})  # its stored result is not today's
        # and named, for good, when written again
        assert kind.from_record(record).to_record()["options"]["cabron_middle"] == "positions"


def stored_form(events: Any) -> list[list[Any]]:
    """The event log as the stored sets hold it: ``TrickTaken`` without the seats of its
    cards (added since; checked here to be the order of play from the leader)."""
    out = []
    for e in events:
        if type(e).__name__ == "TrickTaken":
            assert e.seats[0] == e.leader and len(e.seats) == len(e.cards)
            assert len(set(e.seats)) == len(e.seats) and e.winner in e.seats
            e = e[:5]
            out.append(["TrickTaken", *(jsonable(v) for v in e)])
        else:
            out.append(event_log([e])[0])
    return out


def _same_log(now: list[list[Any]], then: list[list[Any]], migrated: bool) -> None:
    if not migrated:
        assert now == then
        return
    assert [e for e in now if e[0] not in _MOVED] == [e for e in then if e[0] not in _MOVED]
    assert [e for e in now if e[0] == "Exchanged"] == [e for e in then if e[0] == "Exchanged"]
    assert sum(e[0] == "Passed" for e in now) <= sum(e[0] == "Passed" for e in then)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_record(path: Path) -> None:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    record = data["record"]
    assert record["version"] == 1
    # what the record says today: a retired option (it never changed the play) is dropped,
    # and the rules of its day that it did not name are named (records.EARLIER_RULES)
    today = record | {"version": VERSION, "options": earlier_rules(record) | {
        k: v for k, v in record["options"].items() if k not in RETIRED_OPTIONS}}
    if record["kind"] == "match":
        match = tute.Match.from_record(record)
        assert match.is_over()
        assert match.result().to_json() == data["result"]
        saved = match.to_record()
        for d, then, entry in zip(match.deals, data["events"], record["deals"], strict=True):
            _same_log(stored_form(d.events), then,
                      [str(a) for a in d.actions] != entry["actions"])
        assert {k: v for k, v in saved.items() if k != "deals"} == {
            k: v for k, v in today.items() if k != "deals"}
        again = tute.Match.from_record(saved)
        assert again.result().to_json() == data["result"]
        assert [event_log(d.events) for d in again.deals] == [
            event_log(d.events) for d in match.deals]
    else:
        deal = tute.Deal.from_record(record)
        assert deal.is_over()
        assert deal.result().to_json() == data["result"]
        saved = deal.to_record()
        _same_log(stored_form(deal.events), data["events"],
                  saved["actions"] != record["actions"])
        assert saved | {"actions": record["actions"]} == today
        again = tute.Deal.from_record(saved)
        assert event_log(again.events) == event_log(deal.events)
        # the layout alone (no seed) rebuilds the same deal
        bare = {k: v for k, v in record.items() if k != "seed"}
        assert event_log(tute.Deal.from_record(bare).events) == event_log(deal.events)
