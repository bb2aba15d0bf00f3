"""Cards of the Spanish pack, their notation, rank orders and the ``CardSet`` bitmask.

A card is one bit of a 40-bit integer: ``index = 10 * suit + position`` where the position
is the card's strength in Tute order (2 lowest, ace highest). Guiñote ranks use the same bits
with their own strength and points tables (:data:`GUINOTE`), so a hand is one ``int`` in every
variant of the family.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import Final

from .errors import InvalidNotationError

__all__ = [
    "ALL_CARDS",
    "DECK_36",
    "DECK_40",
    "GUINOTE",
    "SUIT_MASKS",
    "TUTE",
    "Card",
    "CardSet",
    "Rank",
    "RankOrder",
    "Suit",
    "parse_card",
    "parse_suit",
]


class Suit(IntEnum):
    """The four suits, in the order used for bit layout and sorting."""

    OROS = 0
    COPAS = 1
    ESPADAS = 2
    BASTOS = 3

    @property
    def letter(self) -> str:
        return "oceb"[self]

    @property
    def spanish(self) -> str:
        return ("oros", "copas", "espadas", "bastos")[self]

    @property
    def english(self) -> str:
        return ("coins", "cups", "swords", "clubs")[self]

    def __str__(self) -> str:
        return self.letter


class Rank(IntEnum):
    """Ranks; the value is the bit position within a suit, i.e. the strength in Tute order."""

    DOS = 0
    CUATRO = 1
    CINCO = 2
    SEIS = 3
    SIETE = 4
    SOTA = 5
    CABALLO = 6
    REY = 7
    TRES = 8
    AS = 9

    @property
    def letter(self) -> str:
        return "24567SCR3A"[self]

    @property
    def number(self) -> int:
        """The number printed on the Spanish card (sota 10, caballo 11, rey 12)."""
        return (2, 4, 5, 6, 7, 10, 11, 12, 3, 1)[self]

    @property
    def spanish(self) -> str:
        return ("dos", "cuatro", "cinco", "seis", "siete", "sota", "caballo", "rey", "tres",
                "as")[self]

    def __str__(self) -> str:
        return self.letter


_SUIT_BY_LETTER: Final = {s.letter: s for s in Suit}
_RANK_BY_TEXT: Final = {r.letter.lower(): r for r in Rank} | {str(r.number): r for r in Rank}


class Card:
    """One card; the 40 instances are interned, so ``is`` and ``==`` agree."""

    __slots__ = ("_str", "index", "mask", "rank", "suit")
    index: int
    suit: Suit
    rank: Rank
    mask: int
    _str: str

    def __new__(cls, suit: Suit, rank: Rank) -> Card:
        try:
            return _CARDS[10 * suit + rank]
        except NameError:  # while the table itself is being built
            self = object.__new__(cls)
            object.__setattr__(self, "index", 10 * int(suit) + int(rank))
            object.__setattr__(self, "suit", Suit(suit))
            object.__setattr__(self, "rank", Rank(rank))
            object.__setattr__(self, "mask", 1 << self.index)
            object.__setattr__(self, "_str", Rank(rank).letter + Suit(suit).letter)
            return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_index, (self.index,))

    @staticmethod
    def from_index(index: int) -> Card:
        return _CARDS[index]

    @staticmethod
    def parse(text: str) -> Card:
        return parse_card(text)

    def __str__(self) -> str:
        return self._str

    def __repr__(self) -> str:
        return f"Card({self._str!r})"

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def spanish(self) -> str:
        return f"{self.rank.spanish} de {self.suit.spanish}"


_CARDS: Final[tuple[Card, ...]] = tuple(Card(Suit(i // 10), Rank(i % 10)) for i in range(40))
ALL_CARDS: Final = _CARDS
_CARD_BY_TEXT: Final = {str(c).lower(): c for c in _CARDS}


def parse_suit(text: str | Suit) -> Suit:
    """Parse a suit letter (``o c e b``) or Spanish name; raises :class:`InvalidNotationError`."""
    if isinstance(text, Suit):
        return text
    if not isinstance(text, str):
        raise InvalidNotationError(f"invalid suit {text!r}: expected one of o, c, e, b")
    key = text.strip().lower()
    if key in _SUIT_BY_LETTER:
        return _SUIT_BY_LETTER[key]
    for s in Suit:
        if key == s.spanish:
            return s
    raise InvalidNotationError(f"invalid suit {text!r}: expected one of o, c, e, b")


def parse_card(text: str | Card) -> Card:
    """Parse card notation: ``Ao``, ``3c``, ``Re``; also numbers (``1o``, ``12c``) and any case."""
    if isinstance(text, Card):
        return text
    if not isinstance(text, str):
        raise InvalidNotationError(f"invalid card {text!r}: expected a string such as 'Ao' or '3c'")
    key = text.strip().lower()
    card = _CARD_BY_TEXT.get(key)
    if card is not None:
        return card
    if len(key) >= 2 and key[-1] in _SUIT_BY_LETTER and key[:-1] in _RANK_BY_TEXT:
        return _CARDS[10 * _SUIT_BY_LETTER[key[-1]] + _RANK_BY_TEXT[key[:-1]]]
    raise InvalidNotationError(
        f"invalid card {text!r}: expected <rank><suit>, rank one of A 3 R C S 7 6 5 4 2 "
        "(or 1-7, 10-12), suit one of o c e b"
    )


SUIT_MASKS: Final = tuple(0x3FF << (10 * s) for s in range(4))
DECK_40: Final = (1 << 40) - 1
#: The 36-card pack of subastado and three-player cabrón: the four 2s removed.
DECK_36: Final = DECK_40 & ~sum(1 << (10 * s) for s in range(4))


class RankOrder:
    """Strength and points of the ranks in one family (Tute or Guiñote), as per-card tables."""

    __slots__ = ("higher", "marriage", "name", "points", "rank_points", "strength")

    def __init__(self, name: str, ranks_high_to_low: str, rank_points: dict[str, int],
                 marriage: str = "C"):
        self.name = name
        #: position in a suit of the king's partner in a marriage (caballo, or Guiñote's sota)
        self.marriage: int = _RANK_BY_TEXT[marriage.lower()].value
        ranks = [_RANK_BY_TEXT[r.lower()] for r in ranks_high_to_low.split()]
        strength_of_rank = {r: 9 - i for i, r in enumerate(ranks)}
        self.rank_points: tuple[int, ...] = tuple(rank_points.get(r.letter, 0) for r in Rank)
        #: strength[card index], 0 (lowest) .. 9 (ace)
        self.strength: tuple[int, ...] = tuple(strength_of_rank[c.rank] for c in _CARDS)
        self.points: tuple[int, ...] = tuple(self.rank_points[c.rank] for c in _CARDS)
        #: higher[card index] = mask of the cards of the same suit that beat it
        self.higher: tuple[int, ...] = tuple(
            sum(d.mask for d in _CARDS if d.suit == c.suit
                and self.strength[d.index] > self.strength[c.index])
            for c in _CARDS
        )

    def points_of(self, mask: int) -> int:
        """Card points in a bitmask of cards."""
        total = 0
        pts = self.points
        while mask:
            low = mask & -mask
            total += pts[low.bit_length() - 1]
            mask ^= low
        return total

    def ranks_high_to_low(self) -> list[Rank]:
        return sorted(Rank, key=lambda r: -self.strength[r])

    def __repr__(self) -> str:
        return f"RankOrder({self.name!r})"


TUTE: Final = RankOrder("tute", "A 3 R C S 7 6 5 4 2", {"A": 11, "3": 10, "R": 4, "C": 3, "S": 2})
GUINOTE: Final = RankOrder("guinote", "A 3 R S C 7 6 5 4 2",
                           {"A": 11, "3": 10, "R": 4, "S": 3, "C": 2}, marriage="S")

# Display order within a suit: strongest first (Tute order), cached per 10-bit suit pattern.
_DISPLAY_POSITIONS: Final = (9, 8, 7, 6, 5, 4, 3, 2, 1, 0)


_SUIT_RUNS: dict[int, tuple[Card, ...]] = {}  # (suit << 10 | pattern) -> its cards


def _suit_run(s: int, part: int) -> tuple[Card, ...]:
    key = s << 10 | part
    run = _SUIT_RUNS.get(key)
    if run is None:
        run = _SUIT_RUNS[key] = tuple(
            _CARDS[10 * s + p] for p in _DISPLAY_POSITIONS if part >> p & 1)
    return run


def _mask_cards(mask: int) -> tuple[Card, ...]:
    # views and the wire list hands and played cards after every action: one lookup a suit
    out: tuple[Card, ...] = ()
    for s in range(4):
        part = (mask >> (10 * s)) & 0x3FF
        if part:
            out += _suit_run(s, part)
    return out


class CardSet:
    """An immutable set of cards stored as one 40-bit integer (like python-chess's SquareSet).

    >>> hand = CardSet.parse("Ao 3o Rc 12e")
    >>> len(hand), str(hand), hand.points()
    (4, 'Ao 3o Rc Re', 29)
    >>> "Rc" in hand, CardSet.parse("Ao") <= hand
    (True, True)
    >>> str(hand - CardSet.parse("Ao")), str(hand.of_suit(Suit.OROS))
    ('3o Rc Re', 'Ao 3o')
    """

    __slots__ = ("mask",)
    mask: int

    def __init__(self, cards: int | str | Iterable[Card | str] | CardSet = 0):
        if isinstance(cards, CardSet):
            mask = cards.mask
        elif isinstance(cards, int) and not isinstance(cards, bool):
            if cards < 0 or cards > DECK_40:
                raise InvalidNotationError(f"invalid card mask {cards}: must be 0..2**40-1")
            mask = cards
        elif isinstance(cards, bool):
            raise InvalidNotationError(f"invalid cards {cards!r}")
        elif isinstance(cards, str):  # notation: "Ao 3o Rc"
            mask = 0
            for text in cards.replace(",", " ").split():
                mask |= parse_card(text).mask
        else:
            mask = 0
            for c in cards:
                mask |= parse_card(c).mask
        object.__setattr__(self, "mask", mask)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    def __reduce__(self) -> tuple[type[CardSet], tuple[int]]:
        # immutable: pickle would set the slot and fail; views cross to the bot processes
        return (CardSet, (self.mask,))

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Parse whitespace- or comma-separated card notation."""
        return cls(t for t in text.replace(",", " ").split())

    @classmethod
    def full(cls, deck: int = DECK_40) -> CardSet:
        return cls(deck)

    def __iter__(self) -> Iterator[Card]:
        return iter(_mask_cards(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __contains__(self, card: object) -> bool:
        if isinstance(card, (Card, str)):
            try:
                return bool(parse_card(card).mask & self.mask)
            except InvalidNotationError:
                return False
        return False

    def _other(self, other: object) -> int:
        if isinstance(other, CardSet):
            return other.mask
        if isinstance(other, Card):
            return other.mask
        return CardSet(other).mask  # type: ignore[arg-type]

    def __or__(self, other: object) -> CardSet:
        return CardSet(self.mask | self._other(other))

    def __and__(self, other: object) -> CardSet:
        return CardSet(self.mask & self._other(other))

    def __sub__(self, other: object) -> CardSet:
        return CardSet(self.mask & ~self._other(other))

    def __xor__(self, other: object) -> CardSet:
        return CardSet(self.mask ^ self._other(other))

    def __invert__(self) -> CardSet:
        return CardSet(DECK_40 & ~self.mask)

    def __le__(self, other: object) -> bool:
        return self.mask & ~self._other(other) == 0

    def __ge__(self, other: object) -> bool:
        return self._other(other) & ~self.mask == 0

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CardSet):
            return self.mask == other.mask
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.mask)

    def of_suit(self, suit: Suit | str) -> CardSet:
        return CardSet(self.mask & SUIT_MASKS[parse_suit(suit)])

    def points(self, order: RankOrder = TUTE) -> int:
        return order.points_of(self.mask)

    def isdisjoint(self, other: object) -> bool:
        return self.mask & self._other(other) == 0

    def __str__(self) -> str:
        return " ".join(str(c) for c in self)

    def __repr__(self) -> str:
        return f"CardSet({str(self)!r})"

    def to_list(self) -> list[str]:
        return [str(c) for c in self]


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a bitmask in display order (suits o c e b, strongest first)."""
    return _mask_cards(mask)
