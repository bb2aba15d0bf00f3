"""Small readers of JSON fields, shared by the CLI's data commands and the games' readers of a
deal told as data (``Game.score_case``): each refuses a bad value with an :class:`InputError`
that names the field and quotes at most a short prefix of the value."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, NoReturn

from .errors import TuteError

__all__ = ["QUOTE_MAX", "InputError", "bad", "field", "quote", "read_bool", "read_int",
           "read_seat"]


class InputError(TuteError):
    """A query that does not fit its schema; the message names the field."""


QUOTE_MAX: Final = 60  # characters of a bad input value quoted in a message

_MISSING: Any = object()


def bad(message: str) -> NoReturn:
    raise InputError(message)


def quote(value: Any) -> str:
    """``repr(value)`` cut to a short prefix: a bad 50 MB value is not echoed back."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # an int past str()'s digit limit, a deep nesting
        text = f"<{type(value).__name__}>"
    return text if len(text) <= QUOTE_MAX else text[:QUOTE_MAX] + "…"


def field(obj: Mapping[str, Any], name: str, default: Any = _MISSING) -> Any:
    if name in obj:
        return obj[name]
    if default is _MISSING:
        bad(f"missing field {name!r}")
    return default


def read_int(value: Any, name: str, lo: int = 0, hi: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        bad(f"field {name!r}: expected an integer, got {quote(value)}")
    if value < lo or (hi is not None and value > hi):
        span = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        bad(f"field {name!r}: {quote(value)} is out of range ({span})")
    return value


def read_bool(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        bad(f"field {name!r}: expected true or false, got {quote(value)}")
    return value


def read_seat(value: Any, name: str, n: int) -> int:
    """A seat as an integer or ``seatN``."""
    if isinstance(value, str) and value.lower().startswith("seat") and value[4:].isdigit():
        value = int(value[4:])
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
        bad(f"field {name!r}: invalid seat {quote(value)}: expected 0..{n - 1} or "
            f"seat0..seat{n - 1}")
    return value
