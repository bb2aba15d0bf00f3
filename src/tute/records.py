"""Game records: the documented JSON form of a deal or a match (docs/records.md) — its
header, fields and checks. Building a deal or a match from a record is theirs
(``Deal.from_record``, ``Match.from_record``): this module imports neither.

Reading a record replays and re-validates every action; a bad record raises
:class:`~tute.errors.RecordError` naming the field, or the index of the first illegal action
and the reason.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from .errors import IllegalActionError, RecordError
from .variants import OPTION_SPECS, MatchSpec, Options, Variant

__all__ = [
    "FORMAT",
    "VERSION",
    "check_header",
    "check_result",
    "field",
    "load_record",
    "options_to_json",
    "parse_record_text",
    "record_head",
    "record_options",
    "replay_actions",
]

FORMAT = "tute-record"
VERSION = 1

#: options older records may carry that no longer exist; none changed the play, so a record
#: that sets one means the same without it (guinote_hide_arrastre_suit was presentation
#: only and never read)
RETIRED_OPTIONS: frozenset[str] = frozenset({"guinote_hide_arrastre_suit"})


def record_options(record: Mapping[str, Any]) -> dict[str, Any]:
    """A record's ``options`` object, without the retired ones."""
    options = field(record, "options", dict, required=False, default={})
    return {k: v for k, v in options.items() if k not in RETIRED_OPTIONS}


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
    if version != VERSION:
        raise RecordError(
            f"unsupported record version {version!r}: this program reads version {VERSION}",
            field="version",
        )
    got = record.get("kind", "deal")
    if got != kind:
        raise RecordError(f"invalid record: field 'kind' is {got!r}, expected {kind!r}",
                          field="kind")
    return record


def replay_actions(apply: Callable[[str], Any], actions: Any, *, where: str = "") -> None:
    """Apply a record's ``actions`` one by one, naming the first illegal one and why."""
    if not isinstance(actions, list):
        raise RecordError(f"invalid record: {where}field 'actions' must be a list",
                          field="actions")
    for i, action in enumerate(actions):
        if not isinstance(action, str):
            raise RecordError(
                f"{where}action {i} ({action!r}) is not a string", index=i, field="actions"
            )
        try:
            apply(action)
        except IllegalActionError as exc:
            raise RecordError(f"{where}action {i} ({action!r}) is illegal: {exc.reason}",
                              index=i, field="actions") from None


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
