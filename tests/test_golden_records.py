"""Every game saved by an earlier version still loads and means the same (issue 16): the
records in ``tests/data/golden_records/`` replay to their stored results and event logs.

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
from golden_records import DIR, event_log
from tute.records import RETIRED_OPTIONS, VERSION

FILES = sorted(DIR.glob("*.json"))
_MOVED = ("Passed", "Exchanged")  # what the migration may drop (passes) or move (exchanges)


def test_golden_set_is_there() -> None:
    assert len(FILES) >= 60


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
    # what the record says today: a retired option (it never changed the play) is dropped
    today = record | {"version": VERSION, "options": {
        k: v for k, v in record["options"].items() if k not in RETIRED_OPTIONS}}
    if record["kind"] == "match":
        match = tute.Match.from_record(record)
        assert match.is_over()
        assert match.result().to_json() == data["result"]
        saved = match.to_record()
        for d, then, entry in zip(match.deals, data["events"], record["deals"], strict=True):
            _same_log(event_log(d.events), then,
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
        _same_log(event_log(deal.events), data["events"], saved["actions"] != record["actions"])
        assert saved | {"actions": record["actions"]} == today
        again = tute.Deal.from_record(saved)
        assert event_log(again.events) == event_log(deal.events)
        # the layout alone (no seed) rebuilds the same deal
        bare = {k: v for k, v in record.items() if k != "seed"}
        assert event_log(tute.Deal.from_record(bare).events) == event_log(deal.events)
