"""Actions and their record notation (docs/records.md):

- a card: ``Ao``, ``3c`` (any case; the printed numbers ``1o``, ``12c`` too);
- a declaration: ``cuarenta``, ``veinte:c``, ``tute_reyes``, ``tute_caballos``, ``tute_sotas``;
- an exchange of the upcard or table card: ``cambio:7o`` (the card given);
- subastado: a bid ``bid:65``, the idle dealer's ``takeover``, the trump choice ``trump:o``,
  the widow discard ``discard:4b``;
- ``pass`` (decline a bid, a declaration or an exchange), ``throw`` (throw in a weak hand),
  ``renuncio`` (claim that an opponent revoked), ``stop`` (claim 101 de vueltas).
"""

from __future__ import annotations

from typing import Final

from .cards import ALL_CARDS, Card, Suit, parse_card, parse_suit
from .errors import InvalidNotationError
from .rules import Declaration, parse_declaration

__all__ = [
    "CLAIM",
    "PASS",
    "STOP",
    "TAKEOVER",
    "THROW",
    "Action",
    "Bid",
    "ChooseTrump",
    "Claim",
    "Discard",
    "Exchange",
    "Pass",
    "Stop",
    "TakeOver",
    "ThrowIn",
    "parse_action",
]


class _Token:
    """An action without parameters; one interned instance per class."""

    __slots__ = ()
    notation = ""
    _instances: dict[type, _Token] = {}  # noqa: RUF012 - shared registry of singletons

    def __new__(cls) -> _Token:
        inst = _Token._instances.get(cls)
        if inst is None:
            inst = _Token._instances[cls] = object.__new__(cls)
        return inst

    def __str__(self) -> str:
        return self.notation

    def __repr__(self) -> str:
        return self.notation.upper()

    def __reduce__(self) -> tuple[type, tuple[()]]:
        return (type(self), ())


class Pass(_Token):
    """Declining a bid, a declaration window, an exchange or a claim window."""

    notation = "pass"


class TakeOver(_Token):
    """Subastado, four at the table: the idle dealer takes over the top bid (+10, doubled)."""

    notation = "takeover"


class ThrowIn(_Token):
    """Throwing in a weak hand before the first lead (``weak_hand_max_points``)."""

    notation = "throw"


class Claim(_Token):
    """Claiming a renuncio (``renuncio_mode=claim``): an opponent failed an obligation."""

    notation = "renuncio"


class Stop(_Token):
    """De vueltas with ``vueltas_claim=manual``: the trick winner stops play claiming 101."""

    notation = "stop"


PASS: Final = Pass()
STOP: Final = Stop()
TAKEOVER: Final = TakeOver()
THROW: Final = ThrowIn()
CLAIM: Final = Claim()


class _CardParam:
    """An action about one card; interned per card."""

    __slots__ = ("card",)
    card: Card
    prefix = ""

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __str__(self) -> str:
        return f"{self.prefix}:{self.card}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self.card)!r})"

    def __reduce__(self) -> tuple[type, tuple[str]]:
        return (type(self), (str(self.card),))


class Exchange(_CardParam):
    """Giving the 7 (or 2) of trumps for the upcard or table card; notation ``cambio:7o``."""

    prefix = "cambio"

    def __new__(cls, card: Card | str) -> Exchange:
        return _EXCHANGES[parse_card(card).index]  # type: ignore[return-value]


class Discard(_CardParam):
    """Subastado with a widow card: the declarer's discard; notation ``discard:4b``."""

    prefix = "discard"

    def __new__(cls, card: Card | str) -> Discard:
        return _DISCARDS[parse_card(card).index]  # type: ignore[return-value]


def _interned(cls: type[_CardParam]) -> tuple[_CardParam, ...]:
    out = []
    for c in ALL_CARDS:
        obj = object.__new__(cls)
        object.__setattr__(obj, "card", c)
        out.append(obj)
    return tuple(out)


_EXCHANGES: Final = _interned(Exchange)
_DISCARDS: Final = _interned(Discard)


class Bid:
    """A subastado bid: the points the bidder promises to reach; notation ``bid:65``."""

    __slots__ = ("points",)
    points: int
    _cache: dict[int, Bid] = {}  # noqa: RUF012 - interning table

    def __new__(cls, points: int) -> Bid:
        if isinstance(points, bool) or not isinstance(points, int) or points < 0:
            raise InvalidNotationError(f"invalid bid {points!r}: expected a positive number")
        inst = cls._cache.get(points)
        if inst is None:
            inst = object.__new__(cls)
            object.__setattr__(inst, "points", points)
            cls._cache[points] = inst
        return inst

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Bid is immutable")

    def __str__(self) -> str:
        return f"bid:{self.points}"

    def __repr__(self) -> str:
        return f"Bid({self.points})"

    def __reduce__(self) -> tuple[type[Bid], tuple[int]]:
        return (Bid, (self.points,))


class ChooseTrump:
    """The subastado declarer names trumps; notation ``trump:o``."""

    __slots__ = ("suit",)
    suit: Suit

    def __new__(cls, suit: Suit | str) -> ChooseTrump:
        return _TRUMPS[parse_suit(suit)]

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("ChooseTrump is immutable")

    def __str__(self) -> str:
        return f"trump:{self.suit.letter}"

    def __repr__(self) -> str:
        return f"ChooseTrump({self.suit.letter!r})"

    def __reduce__(self) -> tuple[type[ChooseTrump], tuple[str]]:
        return (ChooseTrump, (self.suit.letter,))


def _trumps() -> tuple[ChooseTrump, ...]:
    out = []
    for s in Suit:
        obj = object.__new__(ChooseTrump)
        object.__setattr__(obj, "suit", s)
        out.append(obj)
    return tuple(out)


_TRUMPS: Final = _trumps()

Action = (Card | Declaration | Pass | Exchange | Bid | TakeOver | ChooseTrump | Discard | ThrowIn
          | Claim | Stop)
_ACTION_TYPES: Final = (Card, Declaration, _Token, _CardParam, Bid, ChooseTrump)
_TOKENS: Final = {"pass": PASS, "paso": PASS, "takeover": TAKEOVER, "throw": THROW,
                  "renuncio": CLAIM, "claim": CLAIM, "stop": STOP}


def parse_action(text: str | Action) -> Action:
    """An action from its notation; raises :class:`InvalidNotationError` naming the input."""
    if isinstance(text, _ACTION_TYPES):
        return text
    if not isinstance(text, str):
        raise InvalidNotationError(f"invalid action {text!r}: expected a string")
    key = text.strip().lower()
    token = _TOKENS.get(key)
    if token is not None:
        return token  # type: ignore[return-value]
    if key.startswith(("veinte", "cuarenta", "tute_")):
        return parse_declaration(key)
    head, sep, arg = key.partition(":")
    try:
        if sep and head in ("cambio", "exchange"):
            return Exchange(arg)
        if sep and head in ("discard", "descarte"):
            return Discard(arg)
        if sep and head in ("trump", "triunfo"):
            return ChooseTrump(arg)
        if sep and head in ("bid", "puja"):
            if not arg.isdigit():
                raise InvalidNotationError(f"invalid bid {arg!r}")
            return Bid(int(arg))
        return parse_card(key)
    except InvalidNotationError:
        raise InvalidNotationError(
            f"invalid action {text!r}: expected a card such as 'Ao', a declaration "
            "(cuarenta, veinte:c, tute_reyes, tute_caballos, tute_sotas), an exchange "
            "(cambio:7o), bid:65, trump:o, discard:4b, takeover, throw, renuncio or pass"
        ) from None
