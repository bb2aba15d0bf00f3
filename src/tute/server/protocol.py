"""The wire format: validation of client messages and JSON forms of views and events.

Client messages are checked against a small schema before anything else looks at them: a
message that is too long, not a JSON object, of an unknown type, or with a missing, extra or
badly typed field is refused with a reason. See docs/protocol.md.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from typing import Any
from weakref import WeakKeyDictionary

try:  # orjson is several times faster at both ends; the stdlib is the fallback
    import orjson
except ImportError:  # pragma: no cover - depends on the installation
    orjson = None  # type: ignore[assignment]

from ..cards import ALL_CARDS, Card
from ..deal import Deal
from ..match import Match
from ..messages import Refusal
from ..narration import describe, describe_result
from ..refusals import duty
from ..rules import Declaration

__all__ = [
    "MAX_MESSAGE",
    "PRIVATE_KEYS",
    "PROTOCOL",
    "ProtocolError",
    "action_for",
    "apply_delta",
    "deal_summary",
    "dumps",
    "event_json",
    "loads",
    "parse_client_message",
    "private_deal_json",
    "public_state",
    "score_sheet",
    "seating",
    "state_delta",
    "with_private",
]

PROTOCOL = 2  # 2: updates carry a delta of the state instead of the whole state
MAX_MESSAGE = 2048  # bytes; the longest legal message is far shorter

# field -> (type, required, max length for strings / max value for ints)
_SCHEMAS: dict[str, dict[str, tuple[type, bool, int]]] = {
    "hello": {"token": (str, False, 64), "since": (int, False, 2**31), "name": (str, False, 40),
              "protocol": (int, False, 1000)},
    "act": {"action": (str, True, 32), "v": (int, False, 2**31), "ref": (str, False, 32)},
    "sync": {"since": (int, False, 2**31)},
    "fill_bots": {"level": (str, False, 16)},
    "ping": {"ref": (str, False, 32)},
    "chat": {"text": (str, False, 400), "phrase": (str, False, 16)},
    "rematch": {},
    "hint": {"ref": (str, False, 32)},
}


class ProtocolError(ValueError):
    """A malformed client message; ``code`` is a stable identifier for programs."""

    def __init__(self, reason: str, code: str = "bad_message"):
        super().__init__(reason)
        self.reason = reason
        self.code = code


def parse_client_message(raw: str | bytes) -> dict[str, Any]:
    """Validate one client message and return it as a dict, or raise :class:`ProtocolError`."""
    if len(raw) > MAX_MESSAGE:
        raise ProtocolError(f"message too long: at most {MAX_MESSAGE} bytes", "too_long")
    try:
        msg = loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise ProtocolError("message is not valid JSON") from None
    if not isinstance(msg, dict):
        raise ProtocolError("message must be a JSON object")
    kind = msg.get("type")
    if not isinstance(kind, str) or kind not in _SCHEMAS:
        raise ProtocolError(f"unknown message type {str(kind)[:20]!r}; expected one of: "
                            + ", ".join(_SCHEMAS))
    schema = _SCHEMAS[kind]
    extra = set(msg) - set(schema) - {"type"}
    if extra:
        raise ProtocolError(f"unexpected field(s) for {kind!r}: "
                            + ", ".join(sorted(str(k)[:20] for k in extra)))
    for name, (typ, required, limit) in schema.items():
        if name not in msg:
            if required:
                raise ProtocolError(f"{kind!r} needs the field {name!r}")
            continue
        value = msg[name]
        if typ is int:
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= limit:
                raise ProtocolError(f"field {name!r} must be an integer 0..{limit}")
        elif not isinstance(value, str) or len(value) > limit:
            raise ProtocolError(f"field {name!r} must be a string of at most {limit} characters")
    return msg


# ---------------------------------------------------------------- JSON

def dumps(obj: Any) -> str:
    """Compact JSON text (orjson when installed; the stdlib otherwise or for what orjson
    refuses, e.g. integers beyond 64 bits)."""
    if orjson is not None:
        try:
            return orjson.dumps(obj).decode()
        except TypeError:
            pass
    return json.dumps(obj, separators=(",", ":"))


def loads(raw: str | bytes) -> Any:
    if orjson is not None:
        return orjson.loads(raw)
    return json.loads(raw)


# ---------------------------------------------------------------- server -> client

def _plain(value: Any) -> Any:
    if isinstance(value, (Card, Declaration)):
        return str(value)
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return {k: _plain(v) for k, v in zip(value._fields, value, strict=True)}
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)  # any future action/event type has a record notation


def event_json(ev: Any, *, table: bool = False) -> dict[str, Any]:
    """An engine event as JSON: ``{"e": "CardPlayed", "seat": 1, "card": "Ao", "say": ...}``;
    generic over event types so that new variants' events (bids, trump choice) pass through
    unchanged. ``say``: what it says, ``{"code", "params"}`` (tute.narration.describe, built
    from this same audience's copy of the event), which the page words from the catalogue
    of GET /api/messages; ``table``: the deal has a table card instead of an upcard."""
    out: dict[str, Any] = {"e": type(ev).__name__}
    out.update(_plain(ev))
    code, params = describe(ev, table=table)
    out["say"] = {"code": code, "params": params}
    return out


_CARD_NAMES = frozenset(str(c) for c in ALL_CARDS)


def _cards_named(value: Any, out: set[str]) -> set[str]:
    if isinstance(value, str):
        if value in _CARD_NAMES:
            out.add(value)
    elif isinstance(value, dict):
        for v in value.values():
            _cards_named(v, out)
    elif isinstance(value, list):
        for v in value:
            _cards_named(v, out)
    return out


def action_for(action: str | None, events: list[dict[str, Any]]) -> str | None:
    """An action's notation as one audience may read it, given the JSON events of that action
    as this audience sees them (``Deal.events_for``): a card is named only if those events show
    it to that audience, so ``discard:3o`` is ``discard`` for everyone but the declarer, and an
    action whose only part is a hidden card is None. Deny by default: what the engine hides
    from the events is hidden from the action too, whatever the action or event type. A
    declaration reads as its ``Declared`` event does for this audience: ``veinte:o`` is
    ``veinte`` for those not told the suit of that 20 (``guinote_hide_arrastre_suit``)."""
    if action is None:
        return None
    if action.startswith(("veinte", "cuarenta", "tute_")):
        told = [e["declaration"] for e in events if e.get("e") == "Declared"]
        return told[0] if told else None
    parts = action.split(":")
    if not any(p in _CARD_NAMES for p in parts):
        return action  # bids, trumps, declarations, pass...: no card in the notation
    shown = _cards_named(events, set())
    return ":".join(p for p in parts if p not in _CARD_NAMES or p in shown) or None


def spectator_deal_json(deal: Deal) -> dict[str, Any]:
    """What anyone may know of a deal: a seat view with the hand and the choices removed.

    The core has no spectator view yet; seat 0's view minus everything seat-specific, with
    the cantes and known cards as a spectator is told them (``Deal.cantes_for(None)``,
    ``known_for(None)``: seat 0 may have sung a 20 whose suit only it knows), is exactly the
    public information (``known`` lists cards publicly known to be in hands).
    """
    view = deal.view(0, history=False)  # (the JSON view carries no event log)
    if deal.hides_cantes:
        view = dataclasses.replace(view, cantes=deal.cantes_for(None),
                                   known=deal.known_for(None))
    out = view.to_json()
    out.update(seat=None, side=None, hand=[], legal_actions=[], refusals=[], duty=None)
    return out


def deal_summary(deal: Deal, number: int) -> dict[str, Any] | None:
    """The public summary of a finished deal: its result and its last trick."""
    if not deal.is_over():
        return None
    tricks = deal.tricks
    last = tricks[-1] if tricks else None
    sides = [deal.side_of(s) for s in range(deal.seats)]
    return {
        "number": number,
        "result": deal.result().to_json(),
        # how it ended, worded by the page from the catalogue as the terminal game words it
        "say": [{"code": code, "params": params} for code, params in describe_result(
            deal.result(), carried=deal.carry is not None, seat_sides=sides)],
        "last_trick": None if last is None else {
            "number": last.number, "leader": last.leader, "winner": last.winner,
            "points": last.points, "cards": [str(c) for c in last.cards],
            "seats": list(last.seats)},
        "tricks": len(tricks),
    }


def goal_info(match: Match) -> dict[str, Any]:
    """How the match is won, as data the front end can put in any language (the game's)."""
    return match.goal_info()


def score_kind(match: Match) -> str:
    """Which running score the match keeps: games (or partidas), lost games, or a balance."""
    kind = goal_info(match)["kind"]
    if kind == "losses":
        return "losses"
    if kind in ("balance", "balance_deals"):
        return "balance"
    return "games"


def score_values(match: Match) -> list[int]:
    kind = score_kind(match)
    if kind == "losses":
        return list(match.losses)
    if kind == "balance":
        return list(match.balances)
    return list(match.games)


def seating(match: Match) -> dict[str, Any]:
    """Who plays with whom, as data, so that no client guesses it from the seat count: the
    number of seats, the seats that play this deal in playing order (``play_order``, from the
    dealer's right; an idle seat is left out), the scoring side of each seat
    (``deal.side_of``), whether sides are partnerships, and the seats that sit this deal out
    (subastado with four: the dealer, or the top bidder after the dealer's takeover)."""
    deal = match.deal
    order = tuple(deal.play_order)
    key = (len(match.deals), order)
    cached = _SEATING.get(match)
    if cached is not None and cached[0] == key:
        return cached[1]  # it changes with the deal (and a takeover) only: built once each
    n = deal.seats
    out = {"seats": n, "sides": match.variant.sides(match.options),
           "partnerships": match.variant.partnerships,
           "side_of": [deal.side_of(s) for s in range(n)],
           "play_order": list(order),
           "idle": [s for s in range(n) if s not in order]}
    _SEATING[match] = (key, out)
    return out


_SEATING: WeakKeyDictionary[Match, tuple[tuple[int, tuple[int, ...]], dict[str, Any]]] = (
    WeakKeyDictionary())


# A finished deal never changes: its score-sheet row is computed once per match (the public
# state is rebuilt after every action, and a long match holds dozens of deals).
_SHEETS: WeakKeyDictionary[Match, list[dict[str, Any]]] = WeakKeyDictionary()
_SHEET_KEYS = ("totals", "games", "winner", "reason", "running", "vueltas", "losses",
               "balances", "made", "void", "contract")


def score_sheet(match: Match) -> list[dict[str, Any]]:
    """The *anotador*: one row per finished deal (its number, totals, what it scored)."""
    rows = _SHEETS.setdefault(match, [])
    for i in range(len(rows), len(match.deals)):
        deal = match.deals[i]
        if not deal.is_over():
            break
        res = deal.result().to_json()
        rows.append({"number": i + 1, **{k: res[k] for k in _SHEET_KEYS if k in res}})
    return list(rows)


def public_state(match: Match) -> dict[str, Any]:
    """The state anyone may see (a spectator's): the match score and the public deal."""
    n = len(match.deals)
    prev = None
    if match.deal.is_over():
        prev = deal_summary(match.deal, n)
    elif n > 1:
        prev = deal_summary(match.deals[-2], n - 1)
    return {
        "deal": spectator_deal_json(match.deal),
        "deal_number": n,
        "games": list(match.games),
        "cotos": list(match.cotos) if match.game.keeps_cotos else None,
        # the running score of the individual games: lost games, or payments
        "score_kind": score_kind(match),
        "score": score_values(match),
        "goal": match.goal(),
        "goal_info": goal_info(match),
        "seating": seating(match),
        "sheet": score_sheet(match),
        "over": match.is_over(),
        "result": match.result().to_json() if match.is_over() else None,
        "last_deal": prev,
    }


#: the keys of a state's ``deal`` that differ between audiences: ``private_deal_json``
#: (``cantes`` and ``known`` only after a 20 sung hidden, for its singer)
PRIVATE_KEYS = ("seat", "side", "hand", "legal_actions", "refusals", "duty", "cantes", "known")


def private_deal_json(deal: Deal, seat: int) -> dict[str, Any]:
    """What only ``seat`` may see of the deal: exactly the fields in which
    ``deal.view(seat).to_json()`` differs from the public view (tests hold it to that), plus
    ``refusals``, the engine's reasons for the cards of the hand it may not play now, and
    ``duty``, the one duty they add up to (asistir, montar, fallar...), for the seat to move.

    ``cantes`` and ``known`` are always there (the seat's own copy): they differ from the
    public ones for the singer of a 20 sung hidden (``guinote_hide_arrastre_suit``), who
    alone is told its suit; a part whose keys never change keeps deltas simple."""
    mine = deal.to_move == seat
    refused = deal.card_refusals() if mine else {}
    return {
        "seat": seat,
        "side": deal.side_of(seat),
        "hand": deal.hand(seat).to_list(),
        "legal_actions": [str(a) for a in deal.legal_actions()] if mine else [],
        "refusals": refusals_json(refused),
        "duty": duty_json(deal, refused) if mine else None,
        "cantes": [[s, str(d), p] for s, d, p in deal.cantes_for(seat)],
        "known": [k.to_list() for k in deal.known_for(seat)],
    }


def duty_json(deal: Deal, refused: Mapping[str, Refusal]) -> dict[str, Any] | None:
    """The duty the seat to move plays under now (``refusals.duty``: lead, free, follow,
    beat, trump, overtrump) as ``{code, params}``, or None when no card may be played."""
    got = duty(deal, refused)
    return None if got is None else {"code": got[0], "params": got[1]}


def refusals_json(refused: Mapping[str, Refusal]) -> list[dict[str, Any]]:
    """For the seat to move: each reason that greys cards of its hand now, once, with those
    cards (``[{code, params, cards}]`` in hand order; ``Deal.card_refusals``: follow suit,
    head the trick, trump...). Grouped, because it goes out with every turn and most of a
    hand shares one reason. Only that seat's own cards are named, only its hand is read."""
    groups: dict[tuple[str, str], dict[str, Any]] = {}
    for card, why in refused.items():
        value = why.as_json()
        key = (why.code, dumps(value["params"]))
        if key not in groups:
            groups[key] = {**value, "cards": []}
        groups[key]["cards"].append(card)
    return list(groups.values())


def with_private(public: dict[str, Any], private: dict[str, Any] | None) -> dict[str, Any]:
    """A seat's whole state: the public one with its own hand and choices put in."""
    if private is None:
        return public
    out = dict(public)
    out["deal"] = {**public["deal"], **private}
    return out


def state_delta(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The keys of ``new`` that differ from ``old`` (one level down in ``deal``), so that
    ``apply_delta(old, state_delta(old, new)) == new``; a key that went away (never, for
    states of one variant) comes as null."""
    out = {k: v for k, v in new.items() if k != "deal" and old.get(k, _MISSING) != v}
    out.update((k, None) for k in old.keys() - new.keys())
    od, nd = old.get("deal") or {}, new.get("deal") or {}
    deal = {k: v for k, v in nd.items() if od.get(k, _MISSING) != v}
    deal.update((k, None) for k in od.keys() - nd.keys())
    if deal:
        out["deal"] = deal
    return out


_MISSING = object()


def apply_delta(state: dict[str, Any], delta: dict[str, Any]) -> dict[str, Any]:
    """The reference client reducer (the page's is the same): the state after an update."""
    out = dict(state)
    for k, v in delta.items():
        out[k] = {**state.get("deal", {}), **v} if k == "deal" else v
    return out
