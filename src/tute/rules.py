"""The rules of play as pure functions on bitmasks: legal cards (rules.md §1.4), the trick
winner (§1.3) and the declarations a hand may make (§1.5).

This module is the one home of legality: :class:`tute.Deal` plays by :func:`legal_in_trick`
(the body of :func:`legal_mask`), :func:`explain_plays` gives the same legal set plus a reason
for every refused card, and the rules bot's inference asks :func:`excluded_by_play`. The numba
kernel keeps its own copy for speed; ``tests/test_kernel.py`` keeps the two in agreement.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from .cards import ALL_CARDS, SUIT_MASKS, TUTE, RankOrder, Suit, parse_suit
from .errors import InvalidNotationError
from .i18n import refusal_text
from .messages import Refusal

__all__ = [
    "CUARENTA",
    "HIDDEN_VEINTE",
    "TUTE_CABALLOS",
    "TUTE_REYES",
    "TUTE_SOTAS",
    "Declaration",
    "available_declarations",
    "excluded_by_play",
    "explain_plays",
    "explain_refusals",
    "legal_in_trick",
    "legal_mask",
    "parse_declaration",
    "trick_winner",
    "veinte",
]

def legal_mask(
    hand: int,
    trick: Sequence[int],
    trump: int | None,
    order: RankOrder = TUTE,
    *,
    phase: str = "obligated",
    stock_phase_rule: str = "full",
    partner_winning: bool = False,
    partner_exemption: bool = False,
    must_undertrump: bool = False,
    must_head_after_ruff: bool = False,
) -> int:
    """Bitmask of the legal cards of ``hand`` on ``trick`` (card indices in playing order).

    ``phase`` is ``"obligated"`` (all duties) or ``"stock"`` (the stock phase of the stock games,
    governed by ``stock_phase_rule``). ``partner_winning`` tells whether the player's partner
    holds the trick now; it only matters with ``partner_exemption``.
    """
    if not trick:
        return hand
    best, ruffed = _best(trick, trump, order)
    return legal_in_trick(
        hand, trick, best, ruffed, trump, order,
        stock_phase_rule if phase == "stock" else "full",
        partner_exemption and partner_winning, must_undertrump, must_head_after_ruff,
    )


def legal_in_trick(hand: int, trick: Sequence[int], best: int, ruffed: bool, trump: int | None,
                   order: RankOrder, stock_rule: str, exempt: bool, undertrump: bool,
                   head_after_ruff: bool) -> int:
    """The body of :func:`legal_mask`, for a caller that already knows the trick's winning
    card ``best`` and whether a plain-suit lead was trumped (the engine keeps both as it
    plays). ``stock_rule`` is the stock-phase rule in force ("full" once duties apply);
    ``exempt``: the partner holds the trick and partner_exemption applies."""
    if not trick:
        return hand
    lead = trick[0] // 10
    led = hand & SUIT_MASKS[lead]
    if stock_rule != "full":
        if stock_rule == "free":
            return hand
        if stock_rule == "follow_suit":
            return led or hand
        # follow_trump_lead: a trump lead must be answered with a trump when possible
        return (led or hand) if lead == trump else hand
    if led:
        if exempt:
            return led
        if ruffed:
            if head_after_ruff:
                top = _best_of_suit(trick, lead, order)
                return (led & order.higher[top]) or led
            return led
        return (led & order.higher[best]) or led
    trumps = hand & SUIT_MASKS[trump] if trump is not None else 0
    if not trumps or exempt:
        return hand
    if not ruffed:
        return trumps
    return (trumps & order.higher[best]) or (trumps if undertrump else hand)


def excluded_by_play(
    card: int,
    trick: Sequence[int],
    candidates: int,
    trump: int | None,
    order: RankOrder = TUTE,
    *,
    phase: str = "obligated",
    stock_phase_rule: str = "full",
    partner_winning: bool = False,
    partner_exemption: bool = False,
    must_undertrump: bool = False,
    must_head_after_ruff: bool = False,
) -> int:
    """The cards of ``candidates`` that a hand which legally played ``card`` on ``trick`` (the
    cards before it) cannot hold: those that would have made ``card`` illegal.

    The duties only ever narrow the legal set as cards are added to a hand (a card of the led
    suit, a higher one, a trump), so a card is excluded exactly when the two-card hand of it
    and ``card`` already refuses ``card``.
    """
    if not trick:
        return 0
    best, ruffed = _best(trick, trump, order)
    rule = stock_phase_rule if phase == "stock" else "full"
    exempt = partner_exemption and partner_winning
    bit = 1 << card
    out = 0
    for c in _indices(candidates & ~bit & (SUIT_MASKS[trick[0] // 10] | (
            SUIT_MASKS[trump] if trump is not None else 0))):
        pair = bit | 1 << c
        if not legal_in_trick(pair, trick, best, ruffed, trump, order, rule, exempt,
                              must_undertrump, must_head_after_ruff) & bit:
            out |= 1 << c
    return out


def _best(trick: Sequence[int], trump: int | None, order: RankOrder) -> tuple[int, bool]:
    """The winning card so far and whether a plain-suit lead has been trumped."""
    best = trick[0]
    strength = order.strength
    for c in trick[1:]:
        if c // 10 == best // 10:
            if strength[c] > strength[best]:
                best = c
        elif c // 10 == trump:
            best = c
    lead = trick[0] // 10
    return best, lead != trump and best // 10 == trump


def _best_of_suit(trick: Sequence[int], suit: int, order: RankOrder) -> int:
    return max((c for c in trick if c // 10 == suit), key=lambda c: order.strength[c])


def trick_winner(trick: Sequence[int], trump: int | None, order: RankOrder = TUTE) -> int:
    """Position in ``trick`` (0 = leader) of the winning card."""
    return list(trick).index(_best(trick, trump, order)[0])


def explain_plays(
    hand: int,
    trick: Sequence[int],
    trump: int | None,
    order: RankOrder = TUTE,
    *,
    phase: str = "obligated",
    stock_phase_rule: str = "full",
    partner_winning: bool = False,
    partner_exemption: bool = False,
    must_undertrump: bool = False,
    must_head_after_ruff: bool = False,
) -> tuple[int, dict[int, str]]:
    """The legal mask and, for every other card of ``hand``, why it may not be played
    (English text; :func:`explain_refusals` gives the reasons as values)."""
    legal, why = explain_refusals(
        hand, trick, trump, order, phase=phase, stock_phase_rule=stock_phase_rule,
        partner_winning=partner_winning, partner_exemption=partner_exemption,
        must_undertrump=must_undertrump, must_head_after_ruff=must_head_after_ruff,
    )
    return legal, {c: refusal_text("en", r) for c, r in why.items()}


def explain_refusals(
    hand: int,
    trick: Sequence[int],
    trump: int | None,
    order: RankOrder = TUTE,
    *,
    phase: str = "obligated",
    stock_phase_rule: str = "full",
    partner_winning: bool = False,
    partner_exemption: bool = False,
    must_undertrump: bool = False,
    must_head_after_ruff: bool = False,
) -> tuple[int, dict[int, Refusal]]:
    """The legal mask and, for every other card of ``hand``, the :class:`Refusal` of it."""
    legal = legal_mask(
        hand, trick, trump, order, phase=phase, stock_phase_rule=stock_phase_rule,
        partner_winning=partner_winning, partner_exemption=partner_exemption,
        must_undertrump=must_undertrump, must_head_after_ruff=must_head_after_ruff,
    )
    why: dict[int, Refusal] = {}
    refused = hand & ~legal
    if not refused:
        return legal, why
    lead = trick[0] // 10
    led = hand & SUIT_MASKS[lead]
    best, ruffed = _best(trick, trump, order)
    lead_s, trump_s = Suit(lead).letter, Suit(trump or 0).letter
    for c in _indices(refused):
        if phase == "stock" and stock_phase_rule != "full":
            if stock_phase_rule == "follow_suit":
                why[c] = Refusal.of("must_follow", suit=lead_s)
            else:
                why[c] = Refusal.of("must_answer_trump", suit=lead_s)
        elif led:
            if c // 10 != lead:
                why[c] = Refusal.of("must_follow", suit=lead_s)
            elif ruffed:  # only with must_head_after_ruff
                why[c] = Refusal.of("must_beat",
                                    card=str(ALL_CARDS[_best_of_suit(trick, lead, order)]))
            else:
                why[c] = Refusal.of("must_beat", card=str(ALL_CARDS[best]))
        elif not ruffed:
            why[c] = Refusal.of("must_trump", suit=lead_s, trump=trump_s)
        elif legal & order.higher[best]:
            why[c] = Refusal.of("must_overtrump", card=str(ALL_CARDS[best]))
        else:
            why[c] = Refusal.of("must_play_trump", trump=trump_s)
    return legal, why


def _indices(mask: int) -> Iterable[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


# ---------------------------------------------------------------------------------------------
# Declarations (cantes)


class Declaration:
    """A cante: ``cuarenta``, ``veinte:<suit>``, ``tute_reyes``, ``tute_caballos``, ``tute_sotas``.

    Instances are interned; ``str()`` is the record notation. ``suit`` is ``None`` for the 40
    (its suit is the trump suit of the deal) and for a tute; and for :data:`HIDDEN_VEINTE`,
    a 20 as the seats other than its singer see it under ``guinote_hide_arrastre_suit``
    (never an action: nobody can sing it).
    """

    __slots__ = ("_str", "kind", "suit")
    kind: str
    suit: Suit | None
    _str: str

    def __init__(self, kind: str, suit: Suit | None = None):
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "_str", kind if suit is None else f"{kind}:{suit.letter}")

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Declaration is immutable")

    def __reduce__(self) -> tuple[object, tuple[str, ...]]:
        if self.kind == "veinte" and self.suit is None:
            return (_hidden_veinte, ())  # the one instance (pickled views, copies)
        return (parse_declaration, (self._str,))

    def __str__(self) -> str:
        return self._str

    def __repr__(self) -> str:
        return f"Declaration({self._str!r})"

    @property
    def is_tute(self) -> bool:
        return self.kind.startswith("tute_")

    @property
    def points(self) -> int:
        """40 for the trump marriage, 20 for another; a tute ends the deal instead."""
        return {"cuarenta": 40, "veinte": 20}.get(self.kind, 0)

    def marriage_suit(self, trump: int | None) -> int | None:
        if self.kind == "cuarenta":
            return trump
        return None if self.suit is None else int(self.suit)


CUARENTA: Final = Declaration("cuarenta")
_VEINTE: Final = tuple(Declaration("veinte", s) for s in Suit)
TUTE_REYES: Final = Declaration("tute_reyes")
TUTE_CABALLOS: Final = Declaration("tute_caballos")
TUTE_SOTAS: Final = Declaration("tute_sotas")
#: a 20 of a suit the reader is not told (``Deal.events_for``, ``Deal.view``): 20 points, no
#: cards shown; its notation ``veinte`` is not an action (parse_declaration refuses it)
HIDDEN_VEINTE: Final = Declaration("veinte")
_DECL_BY_TEXT: Final = {str(d): d for d in (CUARENTA, *_VEINTE, TUTE_REYES, TUTE_CABALLOS,
                                            TUTE_SOTAS)}


def _hidden_veinte() -> Declaration:
    return HIDDEN_VEINTE


def veinte(suit: int | Suit | str) -> Declaration:
    return _VEINTE[parse_suit(suit) if isinstance(suit, str) else int(suit)]


def parse_declaration(text: str) -> Declaration:
    """Parse ``cuarenta``, ``veinte:c``, ``tute_reyes``, ``tute_caballos`` or ``tute_sotas``."""
    if isinstance(text, Declaration):
        return text
    if not isinstance(text, str):
        raise InvalidNotationError(f"invalid declaration {text!r}")
    key = text.strip().lower()
    decl = _DECL_BY_TEXT.get(key)
    if decl is None:
        kind, _, suit = key.partition(":")
        if kind == "veinte" and suit:
            try:
                return veinte(parse_suit(suit))
            except InvalidNotationError:
                pass
        raise InvalidNotationError(
            f"invalid declaration {text!r}: expected cuarenta, veinte:<o|c|e|b>, tute_reyes, "
            "tute_caballos or tute_sotas"
        )
    return decl


_KINGS: Final = sum(1 << (10 * s + 7) for s in range(4))
_KNIGHTS: Final = sum(1 << (10 * s + 6) for s in range(4))
_KNAVES: Final = sum(1 << (10 * s + 5) for s in range(4))


def marriage_mask(suit: int, order: RankOrder = TUTE) -> int:
    """The two cards of a marriage: king + caballo (Tute) or king + sota (Guiñote)."""
    return (1 << (10 * suit + 7)) | (1 << (10 * suit + order.marriage))


_MARRIAGES: Final = {m: tuple((1 << (10 * s + 7)) | (1 << (10 * s + m)) for s in range(4))
                     for m in (5, 6)}  # by the order's marriage rank: sota or caballo


def available_declarations(
    hand: int,
    trump: int | None,
    order: RankOrder = TUTE,
    *,
    sung_suits: int = 0,
    forty_forfeited: bool = False,
    forty_first: str = "enforce",
    tute_enabled: bool = True,
) -> list[Declaration]:
    """The declarations ``hand`` could make in an open window (entitlement is the caller's).

    ``sung_suits`` is a 4-bit mask of suits whose marriage was already declared this deal.
    """
    out: list[Declaration] = []
    if tute_enabled:
        if hand & _KINGS == _KINGS:
            out.append(TUTE_REYES)
        knaves = order.marriage == 5  # Guiñote's tute is of sotas, Tute's of caballos
        second = _KNAVES if knaves else _KNIGHTS
        if hand & second == second:
            out.append(TUTE_SOTAS if knaves else TUTE_CABALLOS)
    pairs = _MARRIAGES[order.marriage]
    forty = (
        trump is not None and not forty_forfeited and not sung_suits >> trump & 1
        and hand & pairs[trump] == pairs[trump]
    )
    if forty:
        out.append(CUARENTA)
        if forty_first == "enforce":
            return out
    for s in range(4):
        if s != trump and not sung_suits >> s & 1 and hand & pairs[s] == pairs[s]:
            out.append(_VEINTE[s])
    return out


def declaration_cards(decl: Declaration, trump: int | None, order: RankOrder = TUTE) -> int:
    """The cards a declaration shows."""
    if decl is TUTE_REYES:
        return _KINGS
    if decl is TUTE_CABALLOS:
        return _KNIGHTS
    if decl is TUTE_SOTAS:
        return _KNAVES
    suit = decl.marriage_suit(trump)
    return 0 if suit is None else _MARRIAGES[order.marriage][suit]


# ---------------------------------------------------------------------------------------------
# Exchanging the upcard (cambiar el siete / el dos, rules.md §3.4, §6.7)

_SEVEN, _TWO, _FOUR = 4, 0, 1  # positions within a suit


def exchange_card(
    upcard: int, trump: int, *, two_enabled: bool = True, two_takes_four: bool = True
) -> int | None:
    """Index of the trump card that may take ``upcard``: the 7 takes A 3 R C S; the 2 takes
    7 6 5 and (with ``two_takes_four``) 4. Nothing takes the 2."""
    pos = upcard % 10
    if pos > _SEVEN:
        return 10 * trump + _SEVEN
    if pos == _TWO or not two_enabled or (pos == _FOUR and not two_takes_four):
        return None
    return 10 * trump + _TWO


def exchange_refusal(
    give: int,
    upcard: int,
    stock_cards: int,
    players: int,
    *,
    two_enabled: bool = True,
    two_takes_four: bool = True,
    last_round_allowed: bool = False,
) -> Refusal | None:
    """None if ``give`` may take the upcard now, else why not (ignoring who and when)."""
    trump = upcard // 10
    target = exchange_card(upcard, trump, two_enabled=two_enabled,
                           two_takes_four=two_takes_four)
    up = str(ALL_CARDS[upcard])
    if target is None:
        if upcard % 10 == _TWO:
            return Refusal.of("upcard_untakable", card=up)
        if not two_enabled:
            return Refusal.of("two_disabled")
        return Refusal.of("two_not_four", card=up)
    if give != target:
        if give % 10 == _SEVEN and give // 10 == trump:
            return Refusal.of("seven_takes", card=up)
        if give % 10 == _TWO and give // 10 == trump:
            return Refusal.of("two_takes", card=up)
        return Refusal.of("only_takes", target=str(ALL_CARDS[target]), card=up)
    if stock_cards <= players and not last_round_allowed:
        return Refusal.of("last_round")
    return None
