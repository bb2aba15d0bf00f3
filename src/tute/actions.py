"""Actions and their record notation: a card (``Ao``), a declaration (``cuarenta``,
``veinte:c``, ``tute_reyes``) or a pass (``pass``)."""

from __future__ import annotations

from typing import Final

from .cards import ALL_CARDS, Card, parse_card
from .errors import InvalidNotationError
from .rules import Declaration, parse_declaration

__all__ = ["PASS", "Action", "Exchange", "Pass", "parse_action"]


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



def parse_action(text: str | Action) -> Action:
    """An action from its notation; raises :class:`InvalidNotationError` naming the input."""
    if isinstance(text, (Card, Declaration, Pass, Exchange)):
        return text
    if not isinstance(text, str):
        raise InvalidNotationError(f"invalid action {text!r}: expected a string")
    key = text.strip().lower()
    if key in ("pass", "paso"):
        return PASS
    if key.startswith(("veinte", "cuarenta", "tute_")):
        return parse_declaration(key)
    if key.startswith(("cambio:", "exchange:")):
        return Exchange(key.partition(":")[2])
    try:
        return parse_card(key)
    except InvalidNotationError:
        raise InvalidNotationError(
            f"invalid action {text!r}: expected a card such as 'Ao', a declaration "
            "(cuarenta, veinte:c, tute_reyes, tute_caballos, tute_sotas), an exchange "
            "(cambio:7o) or 'pass'"
        ) from None


class Exchange:
    """Giving the 7 (or 2) of trumps for the upcard; notation ``cambio:7o``."""

    __slots__ = ("card",)
    card: Card

    def __new__(cls, card: Card | str) -> Exchange:
        c = parse_card(card)
        return _EXCHANGES[c.index]

    @classmethod
    def _make(cls, card: Card) -> Exchange:
        self = object.__new__(cls)
        object.__setattr__(self, "card", card)
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Exchange is immutable")

    def __str__(self) -> str:
        return f"cambio:{self.card}"

    def __repr__(self) -> str:
        return f"Exchange({str(self.card)!r})"

    def __reduce__(self) -> tuple[type[Exchange], tuple[str]]:
        return (Exchange, (str(self.card),))


_EXCHANGES: Final = tuple(Exchange._make(c) for c in ALL_CARDS)


Action = Card | Declaration | Pass | Exchange
