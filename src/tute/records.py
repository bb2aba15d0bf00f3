"""Game records: a documented JSON form of a deal or a match (docs/records.md).

Reading a record replays and re-validates every action; a bad record raises
:class:`~tute.errors.RecordError` naming the field, or the index of the first illegal action
and the reason.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import IllegalActionError, RecordError, TuteError
from .variants import OPTION_SPECS, MatchSpec, Options, Variant, find_variant

if TYPE_CHECKING:
    from .deal import Deal
    from .match import Match

__all__ = [
    "FORMAT",
    "VERSION",
    "deal_from_record",
    "deal_to_record",
    "load_record",
    "options_to_json",
    "parse_record_text",
]

FORMAT = "tute-record"
VERSION = 1


def options_to_json(options: Options, defaults: Options) -> dict[str, Any]:
    """Only the options that differ from the variant's defaults, in JSON form."""
    out: dict[str, Any] = {}
    for name in OPTION_SPECS:
        value = getattr(options, name)
        if value != getattr(defaults, name):
            out[name] = value.to_json() if isinstance(value, MatchSpec) else value
    return out


def _head(kind: str, variant: Variant, options: Options) -> dict[str, Any]:
    return {"format": FORMAT, "version": VERSION, "kind": kind, "variant": variant.id,
            "options": options_to_json(options, variant.defaults)}


def deal_to_record(deal: Deal) -> dict[str, Any]:
    """The JSON-able record of a deal, finished or not."""
    record: dict[str, Any] = {
        **_head("deal", deal.variant, deal.options),
        "seed": deal.seed,
        "dealer": deal.dealer,
        "deal": _layout(deal),
        "actions": [str(a) for a in deal.actions],
    }
    if deal.carry is not None:
        record["carry"] = list(deal.carry)
    if deal.is_over():
        record["result"] = deal.result().to_json()
    return record


def _layout(deal: Deal) -> dict[str, Any]:
    layout: dict[str, Any] = {"hands": [h.to_list() for h in deal.initial_hands]}
    if deal.variant.stock:
        up = deal.initial_upcard
        layout["upcard"] = None if up is None else str(up)
        layout["stock"] = [str(c) for c in deal.initial_stock]
    elif deal.initial_table_card is not None:
        layout["table_card"] = str(deal.initial_table_card)
    elif deal.variant.id in ("tute_subastado", "tute_cabron"):
        if deal.initial_widow is not None:
            layout["widow"] = str(deal.initial_widow)
    else:
        layout["trump_card"] = None if deal.trump_card is None else str(deal.trump_card)
        layout["trump"] = None if deal.trump is None else deal.trump.letter
    return layout


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


def _field(record: Mapping[str, Any], name: str, kinds: type | tuple[type, ...],
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


def _header(record: Mapping[str, Any] | str | bytes, kind: str) -> Mapping[str, Any]:
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


def _build_deal(record: Mapping[str, Any], *, where: str = "") -> Deal:
    from .deal import Deal

    variant_name = _field(record, "variant", str)
    try:
        variant = find_variant(variant_name)
    except TuteError as exc:
        raise RecordError(f"invalid record: field {where}'variant': {exc}",
                          field="variant") from None
    options = _field(record, "options", dict, required=False, default={})
    seed = _field(record, "seed", int, required=False)
    dealer = _field(record, "dealer", int, required=False)
    layout = _field(record, "deal", dict, required=False)
    carry = _field(record, "carry", list, required=False)
    if seed is None and layout is None:
        raise RecordError(f"invalid record: {where}needs 'seed' or 'deal' (explicit hands)",
                          field="deal")
    try:
        if layout is not None and "hands" in layout:
            deal = Deal.new(variant, dealer=dealer, options=options, hands=layout["hands"],
                            trump_card=layout.get("trump_card"), trump=layout.get("trump"),
                            upcard=layout.get("upcard"), stock=layout.get("stock"),
                            table_card=layout.get("table_card"), widow=layout.get("widow"),
                            seed=seed, carry=carry)
        else:
            deal = Deal.new(variant, seed=seed, dealer=dealer, options=options, carry=carry)
    except RecordError:
        raise
    except TuteError as exc:
        field = "options" if "option" in str(exc) else "deal"
        raise RecordError(f"invalid record: {where}{exc}", field=field) from None
    return deal


def _replay(deal: Deal, actions: Any, *, where: str = "") -> None:
    if not isinstance(actions, list):
        raise RecordError(f"invalid record: {where}field 'actions' must be a list",
                          field="actions")
    for i, action in enumerate(actions):
        if not isinstance(action, str):
            raise RecordError(
                f"{where}action {i} ({action!r}) is not a string", index=i, field="actions"
            )
        try:
            deal.apply(action)
        except IllegalActionError as exc:
            raise RecordError(f"{where}action {i} ({action!r}) is illegal: {exc.reason}",
                              index=i, field="actions") from None


def deal_from_record(record: Mapping[str, Any] | str | bytes) -> Deal:
    """Rebuild a deal from its record, validating every field and action."""
    rec = _header(record, "deal")
    deal = _build_deal(rec)
    _replay(deal, rec.get("actions", []))
    _check_result(rec, deal.result().to_json() if deal.is_over() else None)
    return deal


def _check_result(rec: Mapping[str, Any], actual: dict[str, Any] | None, where: str = "") -> None:
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


def match_to_record(match: Match) -> dict[str, Any]:
    """The JSON-able record of a match; its last deal may be unfinished (a saved game)."""
    record: dict[str, Any] = {
        **_head("match", match.variant, match.options),
        "seed": match.seed,
        "first_dealer": match.first_dealer,
        "deals": [
            {"seed": d.seed, "dealer": d.dealer, "actions": [str(a) for a in d.actions]}
            | ({"misdeals_before": m} if m else {})
            for d, m in zip(match.deals, match.misdeals_before, strict=True)
        ],
    }
    if match.is_over():
        record["result"] = match.result().to_json()
    return record


def match_from_record(record: Mapping[str, Any] | str | bytes) -> Match:
    from .match import Match

    rec = _header(record, "match")
    variant = _field(rec, "variant", str)
    options = _field(rec, "options", dict, required=False, default={})
    seed = _field(rec, "seed", int)
    first = _field(rec, "first_dealer", int, required=False)
    deals = _field(rec, "deals", list)
    try:
        match = Match.new(variant, seed=seed, options=options, first_dealer=first)
    except TuteError as exc:
        raise RecordError(f"invalid record: {exc}", field="variant") from None
    offset = 0
    for k, entry in enumerate(deals):
        if not isinstance(entry, Mapping):
            raise RecordError(f"invalid record: deal {k} must be an object", field="deals")
        if match.is_over():
            raise RecordError(f"invalid record: deal {k} comes after the end of the match",
                              field="deals")
        misdeals = entry.get("misdeals_before", 0)
        if isinstance(misdeals, bool) or not isinstance(misdeals, int) or not 0 <= misdeals < 100:
            raise RecordError(f"invalid record: deal {k} 'misdeals_before' must be 0..99",
                              field="deals")
        for _ in range(misdeals):
            match.misdeal()
        current = match.deal
        for name in ("seed", "dealer"):
            if name in entry and entry[name] != getattr(current, name):
                raise RecordError(
                    f"invalid record: deal {k} {name} is {entry[name]!r}, the match gives "
                    f"{getattr(current, name)!r}",
                    field="deals",
                )
        actions = entry.get("actions", [])
        if not isinstance(actions, list):
            raise RecordError(f"invalid record: deal {k} 'actions' must be a list",
                              field="deals")
        for i, action in enumerate(actions):
            try:
                match.apply(action)
            except IllegalActionError as exc:
                raise RecordError(
                    f"deal {k} action {i} ({action!r}) is illegal: {exc.reason}",
                    index=offset + i, field="deals",
                ) from None
        offset += len(actions)
        if k < len(deals) - 1 and match.deals[k].is_over() is False:
            raise RecordError(f"invalid record: deal {k} is unfinished but more deals follow",
                              field="deals")
    _check_result(rec, match.result().to_json() if match.is_over() else None)
    return match
