"""The wire format: validation of client messages and JSON forms of views and events.

Client messages are checked against a small schema before anything else looks at them: a
message that is too long, not a JSON object, of an unknown type, or with a missing, extra or
badly typed field is refused with a reason. See docs/protocol.md.
"""

from __future__ import annotations

import json
from typing import Any

from ..cards import Card
from ..deal import Deal, SeatView
from ..match import Match
from ..rules import Declaration

__all__ = [
    "MAX_MESSAGE",
    "PROTOCOL",
    "ProtocolError",
    "deal_summary",
    "event_json",
    "parse_client_message",
    "seat_state",
]

PROTOCOL = 1
MAX_MESSAGE = 2048  # bytes; the longest legal message is far shorter

# field -> (type, required, max length for strings / max value for ints)
_SCHEMAS: dict[str, dict[str, tuple[type, bool, int]]] = {
    "hello": {"token": (str, False, 64), "since": (int, False, 2**31), "name": (str, False, 40),
              "protocol": (int, False, 1000)},
    "act": {"action": (str, True, 32), "v": (int, False, 2**31), "ref": (str, False, 32)},
    "sync": {"since": (int, False, 2**31)},
    "fill_bots": {"level": (str, False, 16)},
    "ping": {"ref": (str, False, 32)},
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
        msg = json.loads(raw)
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


def event_json(ev: Any) -> dict[str, Any]:
    """An engine event as JSON: ``{"e": "CardPlayed", "seat": 1, "card": "Ao"}``; generic over
    event types so that new variants' events (bids, trump choice) pass through unchanged."""
    out: dict[str, Any] = {"e": type(ev).__name__}
    out.update(_plain(ev))
    return out


def spectator_deal_json(deal: Deal) -> dict[str, Any]:
    """What anyone may know of a deal: a seat view with the hand and the choices removed.

    The core has no spectator view yet; seat 0's view minus everything seat-specific is
    exactly the public information (``known`` lists cards publicly known to be in hands).
    """
    out = deal.view(0).to_json()
    out.update(seat=None, side=None, hand=[], legal_actions=[])
    return out


def deal_summary(deal: Deal, number: int) -> dict[str, Any] | None:
    """The public summary of a finished deal: its result and its last trick."""
    if not deal.is_over():
        return None
    tricks = deal.tricks
    last = tricks[-1] if tricks else None
    return {
        "number": number,
        "result": deal.result().to_json(),
        "last_trick": None if last is None else {
            "number": last.number, "leader": last.leader, "winner": last.winner,
            "points": last.points, "cards": [str(c) for c in last.cards]},
        "tricks": len(tricks),
    }


def goal_info(match: Match) -> dict[str, Any]:
    """How the match is won, as data the front end can put in any language."""
    o = match.options
    try:
        if match.variant.family == "guinote":
            return {"kind": "cotos", "partidas": o.partidas_per_coto, "cotos": o.cotos_to_win}
        if match.variant.stock:
            return {"kind": "games", "n": o.games_to_win}
        return {"kind": o.match.mode, "n": o.match.n}
    except AttributeError:  # a variant with other match rules: the core's own words
        return {"kind": "other", "text": match.goal()}


def seat_state(match: Match, seat: int | None) -> dict[str, Any]:
    """The state one audience may see: a seat's own view, or (``None``) the public view."""
    deal_json: dict[str, Any]
    if seat is None:
        deal_json = spectator_deal_json(match.deal)
    else:
        view: SeatView = match.deal.view(seat)
        deal_json = view.to_json()
    n = len(match.deals)
    prev = None
    if match.deal.is_over():
        prev = deal_summary(match.deal, n)
    elif n > 1:
        prev = deal_summary(match.deals[-2], n - 1)
    return {
        "deal": deal_json,
        "deal_number": n,
        "games": list(match.games),
        "cotos": list(match.cotos) if match.variant.family == "guinote" else None,
        "goal": match.goal(),
        "goal_info": goal_info(match),
        "over": match.is_over(),
        "result": match.result().to_json() if match.is_over() else None,
        "last_deal": prev,
    }
