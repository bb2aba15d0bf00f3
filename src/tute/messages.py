"""Refusals as values: why the engine will not take an action, as a code and its parameters.

The engine decides *what* is wrong; :mod:`tute.i18n` alone turns that into words (English for
``Deal.why_illegal`` and error messages, Spanish or English in the front ends, and the web page
reads the same catalogue from the server), so no front end parses English text.

Parameters are plain JSON values: cards in notation (``"Ac"``), suits by their letter
(``"c"``; the catalogue names them), seats and points as ints, declarations and raw input as
text.

>>> r = Refusal.of("must_follow", suit="c")
>>> r.code, dict(r.params)
('must_follow', {'suit': 'c'})
>>> r.as_json()
{'code': 'must_follow', 'params': {'suit': 'c'}}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final

__all__ = ["CODES", "Param", "Refusal"]

Param = str | int

# Every code the engine produces, with the parameters it carries (the catalogues in tute.i18n
# have one template per code and language; a test holds the three together).
CODES: Final[Mapping[str, tuple[str, ...]]] = MappingProxyType({
    "bad_notation": ("text", "detail"),  # detail: the parser's English message (logs only)
    "deal_over": (),
    "not_legal_now": (),
    "not_legal_card": (),
    "poll_first": ("seat", "poll"),  # poll: the kind of question the seat must answer first
    "poll_now": ("seat", "poll"),
    "not_in_hand": ("card", "seat"),
    "must_follow": ("suit",),
    "must_answer_trump": ("suit",),
    "must_beat": ("card",),
    "must_trump": ("suit", "trump"),
    "must_overtrump": ("card",),
    "must_play_trump": ("trump",),
    "bid_below_min": ("bid", "minimum"),
    "bid_not_multiple": ("bid", "step"),
    "bid_not_higher": ("bid", "current"),
    "bid_above_max": ("bid", "maximum"),
    "discard_not_held": ("card", "seat"),
    "throw_in_too_strong": ("points",),
    "claim_no_play": (),
    "claim_disabled": (),
    "stop_not_now": (),
    "nothing_to_pass": (),
    "other_moment": (),
    "declare_before_lead": (),
    "declare_needs_trick": (),
    "declare_arrastre": (),
    "declare_not_now": ("seat",),
    "tute_disabled": (),
    "declare_needs": ("decl", "missing"),
    "marriage_sung": ("suit",),
    "forty_lost": (),
    "forty_first": (),
    "declare_unavailable": ("decl",),
    "no_upcard": ("variant",),
    "stock_exhausted": (),
    "upcard_untakable": ("card",),
    "two_disabled": (),
    "two_not_four": ("card",),
    "seven_takes": ("card",),
    "two_takes": ("card",),
    "only_takes": ("target", "card"),
    "last_round": (),
    "exchange_winner_only": (),
    "exchange_not_now": (),
    "not_your_turn": (),  # the server's, for an intent out of turn (the deal knows no "you")
})

# The polls a seat may be asked (Poll.kind in tute.games.base), named in the catalogues.
POLLS: Final = ("exchange", "tute", "cante", "bid", "takeover", "discard", "trump", "throw",
                "claim")


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why an action is refused: a ``code`` of :data:`CODES` and its ``params``."""

    code: str
    params: Mapping[str, Param] = field(default_factory=lambda: MappingProxyType({}))

    @classmethod
    def of(cls, code: str, **params: Param) -> Refusal:
        """The refusal ``code`` with ``params`` (both checked against :data:`CODES`)."""
        want = CODES.get(code)
        if want is None:
            raise ValueError(f"unknown refusal code {code!r}")
        if set(params) != set(want):
            raise ValueError(f"refusal {code!r} takes {want}, not {tuple(params)}")
        return cls(code, MappingProxyType(dict(params)))

    def as_json(self) -> dict[str, object]:
        """``{"code", "params"}``, as the server sends it."""
        return {"code": self.code, "params": dict(self.params)}

    def __hash__(self) -> int:
        return hash((self.code, tuple(sorted(self.params.items()))))
