"""A deal's record (docs/records.md): written from a deal, read back into one by replaying
its actions, every field and action validated."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .errors import RecordError, TuteError
from .records import (
    V1Replay,
    check_header,
    check_result,
    field,
    record_head,
    record_options,
    replay_actions,
    tracing_rights,
)
from .variants import find_variant

if TYPE_CHECKING:
    from .deal import Deal


def to_record(deal: Deal) -> dict[str, Any]:
    """:meth:`tute.deal.Deal.to_record`."""
    layout: dict[str, Any] = {"hands": [h.to_list() for h in deal.initial_hands]}
    layout |= deal._game.layout_json(deal._layout)
    record: dict[str, Any] = {
        **record_head("deal", deal.variant, deal.options),
        "seed": deal.seed,
        "dealer": deal.dealer,
        "deal": layout,
        "actions": [str(a) for a in deal.actions],
    }
    if deal.carry is not None:
        record["carry"] = list(deal.carry)
    if deal.is_over():
        record["result"] = deal.result().to_json()
    return record


def from_record(cls: type[Deal], record: Mapping[str, Any] | str | bytes) -> Deal:
    """:meth:`tute.deal.Deal.from_record`."""
    rec = check_header(record, "deal")
    if rec["version"] == 1:  # the exchange questions of version 1 are read off
        with tracing_rights():
            deal = build(cls, rec)
            replay_actions(deal.apply, rec.get("actions", []),
                           v1=V1Replay(deal.apply, lambda: deal))
    else:
        deal = build(cls, rec)
        replay_actions(deal.apply, rec.get("actions", []))
    check_result(rec, deal.result().to_json() if deal.is_over() else None)
    return deal


def build(cls: type[Deal], record: Mapping[str, Any], *, where: str = "") -> Deal:
    """The deal a record describes, before its actions."""
    variant_name = field(record, "variant", str)
    try:
        variant = find_variant(variant_name)
    except TuteError as exc:
        raise RecordError(f"invalid record: field {where}'variant': {exc}",
                          field="variant") from None
    options = record_options(record)
    seed = field(record, "seed", int, required=False)
    dealer = field(record, "dealer", int, required=False)
    layout = field(record, "deal", dict, required=False)
    carry = field(record, "carry", list, required=False)
    if seed is None and layout is None:
        raise RecordError(f"invalid record: {where}needs 'seed' or 'deal' (explicit hands)",
                          field="deal")
    try:
        if layout is not None and "hands" in layout:
            return cls.new(variant, dealer=dealer, options=options, hands=layout["hands"],
                           trump_card=layout.get("trump_card"), trump=layout.get("trump"),
                           upcard=layout.get("upcard"), stock=layout.get("stock"),
                           table_card=layout.get("table_card"), widow=layout.get("widow"),
                           seed=seed, carry=carry)
        return cls.new(variant, seed=seed, dealer=dealer, options=options, carry=carry)
    except RecordError:
        raise
    except TuteError as exc:
        what = "options" if "option" in str(exc) else "deal"
        raise RecordError(f"invalid record: {where}{exc}", field=what) from None
