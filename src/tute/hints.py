"""Hints ("¿Qué jugarías?"): the search bot's choice for a seat, from that seat's view alone,
with a one-line reason computed from the position.

The choice is the pimc valuation (:func:`tute.bots.pimc.action_values`) over ``worlds``
worlds sampled from the view with ``random.Random(seed)``; without a time cap it depends on
the view and the seed alone, never on the hidden cards. The reason is a code with parameters
(for programs and other languages) and its Spanish and English text: what the chosen action
does at the table -- wins the trick, feeds the partner, keeps the ace for later, the highest
card left of its suit, a cante's points --, or, where none of these says it, how much better
it did on average in the sampled deals. Every reason is a fact about the position or about the
search, never a guess about hidden cards.

    >>> import tute
    >>> from tute.hints import suggest
    >>> deal = tute.Deal.new("tute_parejas", seed=7, dealer=3)
    >>> for card in ("Rc", "Cc", "5c"):
    ...     _ = deal.apply(card)
    >>> hint = suggest(deal.view(3), seed=1, worlds=2, move_time=None)
    >>> hint.action in {str(a) for a in deal.legal_actions()}
    True
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .actions import Action, Bid, ChooseTrump, Exchange, Pass
from .cards import Card, Suit
from .i18n import HINT_REASONS, card_name, hint_reason, suit_name
from .rules import Declaration, trick_winner
from .variants import find_variant

if TYPE_CHECKING:
    from .solver import Solver
    from .views import SeatView

__all__ = ["HINT_SECONDS", "HINT_WORLDS", "REASONS", "Hint", "reason_for", "suggest"]

#: the hint's budget: worlds sampled, and a cap on the seconds (a hint must come quickly)
HINT_WORLDS = 16
HINT_SECONDS = 3.0

#: reason code -> (Spanish, English) text with the parameters in braces (tute.i18n's words)
REASONS: dict[str, tuple[str, str]] = {
    code: (es, HINT_REASONS["en"][code]) for code, es in HINT_REASONS["es"].items()}


@dataclass(frozen=True)
class Hint:
    """A suggested action and why: ``code`` and ``params`` (see :data:`REASONS`)."""

    action: str
    code: str
    params: dict[str, Any] = field(default_factory=dict)
    worlds: int = 0
    edge: float | None = None  # the mean advantage over the next best action, in points

    def text(self, lang: str = "es") -> str:
        params = {k: _word(lang, v) for k, v in self.params.items()}
        edge = "?" if self.edge is None else f"{self.edge:.0f}"
        return hint_reason(lang, self.code).format(worlds=self.worlds, edge=edge, **params)

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action,
                "reason": {"code": self.code,
                           "params": {k: str(v) if isinstance(v, Card | Suit) else v
                                      for k, v in self.params.items()},
                           "worlds": self.worlds,
                           "edge": None if self.edge is None else round(self.edge, 1),
                           "es": self.text("es"), "en": self.text("en")}}


def _word(lang: str, value: Any) -> Any:
    if isinstance(value, Card):
        return card_name(lang, value)
    if isinstance(value, Suit):
        return suit_name(lang, value)
    return value


def analyser_ready() -> bool:
    """Whether a hint or a review starts searching at once: False until the exact solver's
    compiled code is loaded in this process (its first use compiles it, half a minute on a
    fresh install). Without numba hints use rollouts only: nothing to prepare."""
    try:
        from .solver import compiled
    except ImportError:
        return True
    return compiled()


def prepare() -> bool:
    """Load the hints' search in this process before anyone asks: the exact solver's compiled
    code (read from numba's cache, or compiled, half a minute on a fresh install) with a small
    endgame, so that a first hint starts searching at once (the server's bot pool does it when
    a table with hints starts). Returns :func:`analyser_ready`."""
    solver = _solver()
    if solver is not None and not analyser_ready():
        from .deal import Deal

        deal = Deal.new("tute_parejas", seed=0)  # no stock: the solver takes it at once
        while deal.to_move is not None and len(deal.hand(deal.to_move)) > 3:
            deal.apply(deal.legal_actions()[0])
        solver.value(deal)
    return analyser_ready()


_SOLVER: list[Solver | None] = []


def _solver() -> Solver | None:
    """One solver per process, reused by every hint (its table is worth keeping)."""
    if not _SOLVER:
        try:
            from .solver import Solver
        except ImportError:  # numba missing: rollouts only
            _SOLVER.append(None)
        else:
            _SOLVER.append(Solver(tt_mb=16, threads=1))
    return _SOLVER[0]


def suggest(view: SeatView, seed: int, *, worlds: int = HINT_WORLDS,
            move_time: float | None = HINT_SECONDS, solver: Solver | None = None) -> Hint:
    """The search bot's choice for the seat of ``view`` (its turn) and its reason.
    ``move_time`` None: no cap, the hint depends on the view and ``seed`` alone."""
    from .bots.pimc import action_values

    legal = list(view.legal_actions)
    if not legal:
        raise ValueError(f"seat {view.seat} has nothing to decide now")
    if len(legal) == 1:
        return Hint(str(legal[0]), "only")
    deadline = math.inf if move_time is None else time.perf_counter() + move_time
    found = action_values(view, legal, worlds, random.Random(seed), solver or _solver(),
                          deadline=deadline)
    best = max(found.values)
    pick = next(i for i, v in enumerate(found.values) if math.isclose(v, best))
    worse = [v for v in found.values if not math.isclose(v, best)]
    edge = best - max(worse) if worse else None  # None: every action is worth the same
    code, params = reason_for(view, legal[pick], legal)
    if code == "search" and edge is None:
        code = "equal"
    return Hint(str(legal[pick]), code, params, found.worlds, edge)


def reason_for(view: SeatView, action: Action, legal: list[Action]) -> tuple[str, dict[str, Any]]:
    """Why ``action`` (a reason code and its parameters), from the view and the rules alone."""
    if isinstance(action, Declaration):
        if action.is_tute:
            return "tute", {}
        if action.suit is None or action.suit == view.trump:
            return "forty", {}
        return "twenty", {"suit": action.suit}
    if isinstance(action, Exchange):
        take = next((c for c in (view.upcard, view.table_card, view.trump_card)
                     if c is not None), None)
        if take is not None:
            return "exchange", {"give": action.card, "take": take}
    if isinstance(action, ChooseTrump):
        return "trump", {"suit": action.suit,
                         "n": sum(c.suit == action.suit for c in view.hand)}
    if isinstance(action, Bid):
        return "bid", {"points": action.points}
    if isinstance(action, Pass) and any(isinstance(a, Bid) for a in legal):
        return "pass_bid", {}
    if isinstance(action, Card):
        return _card_reason(view, action, [a for a in legal if isinstance(a, Card)])
    return "search", {}


def _card_reason(view: SeatView, card: Card, cards: list[Card]) -> tuple[str, dict[str, Any]]:
    variant = find_variant(view.variant)
    order = variant.order
    trump = None if view.trump is None else int(view.trump)
    if not view.trick:
        return _lead_reason(view, card, order)
    on_table = [c for _s, c in view.trick]
    points = sum(order.points[c.index] for c in on_table)

    def heads(c: Card) -> bool:
        return trick_winner([x.index for x in [*on_table, c]], trump, order) == len(on_table)

    leader = view.trick[trick_winner([c.index for c in on_table], trump, order)][0]
    partner = (leader != view.seat and variant.side_of(leader, view.options)
               == variant.side_of(view.seat, view.options))
    played = {s for s, _c in view.trick}
    # the last to play: nobody else holding cards has still to play (an idle seat holds none)
    last = not any(n for s, n in enumerate(view.hand_sizes) if s != view.seat and s not in played)
    own = order.points[card.index]
    if heads(card):
        return ("wins_trick" if last else "heads_trick"), {"points": points + own}
    if partner:
        return ("feeds_partner", {"points": own}) if own else ("partner_has_it", {})
    if own > min(order.points[c.index] for c in cards):
        return "search", {}  # points given away on purpose: only the search can say why
    winners = [c for c in cards if heads(c)]
    if not winners:
        return "trick_lost", {}
    keep = max(winners, key=lambda c: (order.points[c.index], order.strength[c.index]))
    return "saves", {"card": keep}


def _lead_reason(view: SeatView, card: Card, order: Any) -> tuple[str, dict[str, Any]]:
    seen = view.hand.mask | view.played.mask
    if view.trump is not None and card.suit == view.trump:
        out = sum(1 for i in range(40) if i // 10 == card.index // 10 and not seen >> i & 1
                  and (view.upcard is None or view.upcard.index != i))
        return ("lead_trump", {"n": out}) if out else ("trumps_drawn", {})
    higher_unseen = any(i // 10 == card.index // 10 and order.strength[i]
                        > order.strength[card.index] and not seen >> i & 1 for i in range(40))
    if not higher_unseen:
        return "lead_master", {"card": card, "suit": card.suit}
    if order.points[card.index] == 0:
        return "lead_low", {}
    return "search", {}
