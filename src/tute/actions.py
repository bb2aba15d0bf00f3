"""Actions and their record notation: a card (``Ao``), a declaration (``cuarenta``,
``veinte:c``, ``tute_reyes``) or a pass (``pass``)."""

from __future__ import annotations

from typing import Final

from .cards import Card, parse_card
from .errors import InvalidNotationError
from .rules import Declaration, parse_declaration

__all__ = ["PASS", "Action", "Pass", "parse_action"]


class Pass:
    """Declining an optional declaration window (the only pass in the card-play games)."""

    __slots__ = ()
    _instance: Pass | None = None

    def __new__(cls) -> Pass:
        if cls._instance is None:
            cls._instance = object.__new__(cls)
        return cls._instance

    def __str__(self) -> str:
        return "pass"

    def __repr__(self) -> str:
        return "PASS"

    def __reduce__(self) -> tuple[type[Pass], tuple[()]]:
        return (Pass, ())


PASS: Final = Pass()

Action = Card | Declaration | Pass


def parse_action(text: str | Action) -> Action:
    """An action from its notation; raises :class:`InvalidNotationError` naming the input."""
    if isinstance(text, (Card, Declaration, Pass)):
        return text
    if not isinstance(text, str):
        raise InvalidNotationError(f"invalid action {text!r}: expected a string")
    key = text.strip().lower()
    if key in ("pass", "paso"):
        return PASS
    if key.startswith(("veinte", "cuarenta", "tute_")):
        return parse_declaration(key)
    try:
        return parse_card(key)
    except InvalidNotationError:
        raise InvalidNotationError(
            f"invalid action {text!r}: expected a card such as 'Ao', a declaration "
            "(cuarenta, veinte:c, tute_reyes, tute_caballos, tute_sotas) or 'pass'"
        ) from None
