"""Game records: the documented JSON form of a deal or a match (docs/records.md) — its
header, fields and checks. Building a deal or a match from a record is theirs
(``Deal.from_record``, ``Match.from_record``): this module imports neither.

Reading a record replays and re-validates every action; a bad record raises
:class:`~tute.errors.RecordError` naming the field, or the index of the first illegal action
and the reason.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from .errors import IllegalActionError, RecordError, TuteError
from .variants import OPTION_SPECS, MatchSpec, Options, Variant, find_variant

__all__ = [
    "FORMAT",
    "VERSION",
    "V1Replay",
    "check_header",
    "check_result",
    "earlier_rules",
    "field",
    "load_record",
    "options_to_json",
    "parse_record_text",
    "record_head",
    "record_options",
    "replay_actions",
]

FORMAT = "tute-record"
VERSION = 2
#: the versions read: 1 is migrated (:class:`V1Replay`)
READ_VERSIONS = (1, 2)

#: set while version-1 actions are read: deals then note where an exchange question of
#: version 1 became a right kept for the seat's turn (``Deal._trace``)
TRACE_RIGHTS: ContextVar[bool] = ContextVar("tute_trace_rights", default=False)

#: options older records may carry that no longer exist; none may have changed the play, so a
#: record that sets one means the same without it (none now: guinote_hide_arrastre_suit,
#: retired for a while, is an option again and is read as one)
RETIRED_OPTIONS: frozenset[str] = frozenset()


#: What a record of an earlier version meant by leaving an option out. A record names only
#: the options that differ from the defaults of its day, so when an option is added or its
#: default changes, records written before keep their rule through this table: (the last
#: record version written before the change, option, the value that engine played). The
#: record version is raised whenever a row is added here.
EARLIER_RULES: tuple[tuple[int, str, Any], ...] = (
    # rules-decisions.md, cabrón: the middle by levels since 2026-12-01 (version 2)
    (1, "cabron_middle", "positions"),
)


def earlier_rules(record: Mapping[str, Any]) -> dict[str, Any]:
    """The options that ``record`` plays by without naming them: the rules of the engine that
    wrote it, where they differ from today's defaults (empty for a record of today)."""
    version = record.get("version")
    options = record.get("options")
    named = options if isinstance(options, Mapping) else {}
    try:
        accepted = find_variant(str(record.get("variant"))).option_names
    except TuteError:
        return {}  # the variant is refused where it is read
    if isinstance(version, bool) or not isinstance(version, int):
        return {}
    return {name: value for last, name, value in EARLIER_RULES
            if version <= last and name in accepted and name not in named}


def record_options(record: Mapping[str, Any]) -> dict[str, Any]:
    """A record's ``options`` object, without the retired ones, with the rules of its day
    that it does not name (:func:`earlier_rules`)."""
    options = field(record, "options", dict, required=False, default={})
    kept = {k: v for k, v in options.items() if k not in RETIRED_OPTIONS}
    return {**earlier_rules(record), **kept}


def options_to_json(options: Options, defaults: Options) -> dict[str, Any]:
    """Only the options that differ from the variant's defaults, in JSON form."""
    out: dict[str, Any] = {}
    for name in OPTION_SPECS:
        value = getattr(options, name)
        if value != getattr(defaults, name):
            out[name] = value.to_json() if isinstance(value, MatchSpec) else value
    return out


def record_head(kind: str, variant: Variant, options: Options) -> dict[str, Any]:
    """The fields every record starts with."""
    return {"format": FORMAT, "version": VERSION, "kind": kind, "variant": variant.id,
            "options": options_to_json(options, variant.defaults)}


def parse_record_text(text: str | bytes) -> dict[str, Any]:
    """Decode JSON text into a record object, with a clear error for invalid JSON."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RecordError(f"invalid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise RecordError("invalid record: expected a JSON object at the top level")
    return data


def load_record(path: str | Path) -> dict[str, Any]:
    """Read a record file (JSON)."""
    try:
        text = Path(path).read_bytes()
    except OSError as exc:
        raise RecordError(f"cannot read record file {str(path)!r}: {exc.strerror}") from None
    return parse_record_text(text)


def field(record: Mapping[str, Any], name: str, kinds: type | tuple[type, ...],
           *, required: bool = True, default: Any = None) -> Any:
    if name not in record:
        if required:
            raise RecordError(f"invalid record: missing field {name!r}", field=name)
        return default
    value = record[name]
    if value is None and not required:
        return default
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in (
        kinds if isinstance(kinds, tuple) else (kinds,)
    )):
        raise RecordError(f"invalid record: field {name!r} has the wrong type ({value!r})",
                          field=name)
    return value


def check_header(record: Mapping[str, Any] | str | bytes, kind: str) -> Mapping[str, Any]:
    if isinstance(record, (str, bytes)):
        record = parse_record_text(record)
    if not isinstance(record, Mapping):
        raise RecordError("invalid record: expected an object")
    fmt = record.get("format")
    if fmt != FORMAT:
        raise RecordError(f"invalid record: field 'format' must be {FORMAT!r}, got {fmt!r}",
                          field="format")
    version = record.get("version")
    if isinstance(version, bool) or version not in READ_VERSIONS:
        raise RecordError(
            f"unsupported record version {version!r}: this program reads versions "
            f"{', '.join(map(str, READ_VERSIONS))}",
            field="version",
        )
    got = record.get("kind", "deal")
    if got != kind:
        raise RecordError(f"invalid record: field 'kind' is {got!r}, expected {kind!r}",
                          field="kind")
    return record


def replay_actions(apply: Callable[[str], Any], actions: Any, *, where: str = "",
                   v1: V1Replay | None = None) -> None:
    """Apply a record's ``actions`` one by one, naming the first illegal one and why;
    through ``v1`` when they are a version-1 record's."""
    if not isinstance(actions, list):
        raise RecordError(f"invalid record: {where}field 'actions' must be a list",
                          field="actions")
    feed = apply if v1 is None else v1.feed
    for i, action in enumerate(actions):
        if not isinstance(action, str):
            raise RecordError(
                f"{where}action {i} ({action!r}) is not a string", index=i, field="actions"
            )
        try:
            feed(action)
        except IllegalActionError as exc:
            raise RecordError(f"{where}action {i} ({action!r}) is illegal: {exc.reason}",
                              index=i, field="actions") from None
    if v1 is not None:
        v1.close()


@contextmanager
def tracing_rights() -> Iterator[None]:
    """Deals made inside note their kept exchange rights for :class:`V1Replay`."""
    token = TRACE_RIGHTS.set(True)
    try:
        yield
    finally:
        TRACE_RIGHTS.reset(token)


class V1Replay:
    """Replays the actions of version 1 of the engine on today's (the deals made under
    :func:`tracing_rights`).

    Version 1 asked the trick winner of a stock-phase trick (in Guiñote with four also the
    partner; with ``start_and_after_win`` every seat before the first trick) whether it
    exchanged, before the draw: ``cambio:…`` answers then ``pass``. Today that right is kept
    for the seat's next turn (rules-decisions.md, "Asking nobody"), so where the deal notes a
    kept right, the answers of those seats, in asking order, are read off: a ``pass`` is
    dropped, a ``cambio`` is held and applied first thing when its seat is next to act. A
    Guiñote partner asked to sing today only because a kept exchange would give it a
    marriage, which version 1 did not ask, answers ``pass``. Any other action where an answer
    was due means the actions go on in today's form (a server table that was played on after
    the upgrade): from there they are replayed as they are. The exchanges made are the same,
    before the same cards, so every result is too."""

    def __init__(self, apply: Callable[[str], Any], current: Callable[[], Any]):
        self._apply = apply
        self._current = current  # the deal being played (a match moves on to the next)
        self._deal: Any = None
        self._seen = 0
        self._asks: list[tuple[int, bool]] = []  # (seat, before the first trick)
        self._held: list[tuple[int, str]] = []
        self._today = False

    def _sync(self) -> Any:
        deal = self._current()
        if deal is not self._deal:
            self._deal, self._seen, self._asks, self._held = deal, 0, [], []
        trace = deal._trace or ()
        if len(trace) > self._seen:
            if not self._today:
                for at, seats in trace[self._seen:]:
                    self._asks.extend((s, at == 0) for s in seats)
            self._seen = len(trace)
        return deal

    def feed(self, action: str) -> None:
        """Apply one version-1 action (or read it off); IllegalActionError as ``apply``."""
        deal = self._sync()
        if self._asks:
            seat, opening = self._asks[0]
            # the opening question came after the deal's other opening polls
            if not opening or deal.snapshot().poll is None:
                if action == "pass":
                    self._asks.pop(0)
                    return
                if action.startswith("cambio"):
                    self._held.append((seat, action))
                    return
                self._today, self._asks = True, []
        self._flush()
        try:
            self._apply(action)
        except IllegalActionError:
            deal = self._sync()
            poll = None if deal.is_over() else deal.snapshot().poll
            if poll is None or poll.kind != "cante" or "pass" not in map(
                    str, deal.legal_actions()):
                raise
            self._apply("pass")  # the cante question version 1 did not ask
            self._flush()
            self._apply(action)

    def close(self) -> None:
        """After the last action: apply the exchanges still held whose seat is to act."""
        self._flush()

    def _flush(self) -> None:
        while self._held:
            deal = self._sync()
            if deal.is_over():  # a tute ended it first: the exchange changed nothing
                self._held = []
                return
            seat = deal.to_move
            mine = [i for i, (s, _a) in enumerate(self._held) if s == seat]
            if not mine or self._held[mine[0]][1] not in map(str, deal.legal_actions()):
                return
            self._apply(self._held.pop(mine[0])[1])


def check_result(rec: Mapping[str, Any], actual: dict[str, Any] | None, where: str = "") -> None:
    claimed = rec.get("result")
    if claimed is None:
        return
    if actual is None:
        raise RecordError(f"invalid record: {where}has a 'result' but its actions do not finish",
                          field="result")
    if not isinstance(claimed, Mapping):
        raise RecordError(f"invalid record: {where}field 'result' must be an object",
                          field="result")
    for key, value in claimed.items():
        if key in actual and actual[key] != value:
            raise RecordError(
                f"invalid record: {where}result {key!r} is {value!r} but replaying the actions "
                f"gives {actual[key]!r}",
                field="result",
            )
