"""tute: the Tute family of Spanish trick-taking card games — rules engine, bots and tools.

>>> import tute
>>> deal = tute.Deal.new("tute_parejas", seed=7, dealer=3)
>>> deal.to_move
0
"""

from __future__ import annotations

from .actions import PASS, Action, Pass, parse_action
from .cards import ALL_CARDS, GUINOTE, TUTE, Card, CardSet, Rank, RankOrder, Suit, parse_card
from .deal import Deal, DealResult, SeatView, TrickRecord
from .errors import (
    IllegalActionError,
    InvalidNotationError,
    InvalidOptionError,
    RecordError,
    TuteError,
    UnknownVariantError,
)
from .match import Match, MatchResult, MatchView
from .rules import Declaration, parse_declaration
from .variants import OPTION_SPECS, VARIANTS, Options, Variant, find_variant

__version__ = "0.1.0"

__all__ = [
    "ALL_CARDS",
    "GUINOTE",
    "OPTION_SPECS",
    "PASS",
    "TUTE",
    "VARIANTS",
    "Action",
    "Card",
    "CardSet",
    "Deal",
    "DealResult",
    "Declaration",
    "IllegalActionError",
    "InvalidNotationError",
    "InvalidOptionError",
    "Match",
    "MatchResult",
    "MatchView",
    "Options",
    "Pass",
    "Rank",
    "RankOrder",
    "RecordError",
    "SeatView",
    "Suit",
    "TrickRecord",
    "TuteError",
    "UnknownVariantError",
    "Variant",
    "find_variant",
    "parse_action",
    "parse_card",
    "parse_declaration",
]
