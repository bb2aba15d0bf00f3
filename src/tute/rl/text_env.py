"""A seat in words, for language models (TextArena-style): :class:`TextEnv`.

The observation is the seat's view (:meth:`tute.Deal.view`) written out in Spanish or
English from the one catalogue (:mod:`tute.i18n`, the events as :func:`tute.narration.describe`
gives them), with the legal moves listed; the action is a line of text: a card in words
("as de oros", "ace of coins") or in notation ("Ao", "1o"), a cante ("las cuarenta",
"cuarenta", "veinte:c") or "paso"/"pass". A line that is not legal now, or not understood, is
refused with the engine's reason (:func:`tute.i18n.refusal_text`) and nothing changes.

    env = TextEnv("tute_parejas", lang="en")
    seat, text = env.reset(seed=1)
    while not env.done:
        seat, text, info = env.step(my_model(text))   # info["refused"]: the reason, or None
"""

from __future__ import annotations

import random
import unicodedata
from typing import Any

from .. import i18n
from ..actions import PASS, Action, parse_action
from ..cards import Card, parse_card
from ..deal import Deal
from ..errors import InvalidOptionError, TuteError
from ..narration import describe
from ..rules import Declaration
from ..shuffle import MAX_SEED
from ..variants import find_variant

__all__ = ["TextEnv"]


def _norm(text: str) -> str:
    """Lower case, no accents, no quotes or final stop, single spaces."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    text = text.strip().strip("\"'`«»“”.!").lower()
    return " ".join(text.replace("_", " ").split())


class TextEnv:
    """One deal of ``variant`` whose every seat is played by lines of text."""

    def __init__(self, variant: str = "tute_parejas", *, lang: str = "es", **options: Any):
        if lang not in i18n.LANGS:
            raise InvalidOptionError(f"invalid value {lang!r} for option 'lang': expected one "
                                     f"of {', '.join(i18n.LANGS)}")
        self.variant = find_variant(variant)
        self.options = self.variant.resolve(options)
        self.lang = lang
        self.deal: Deal | None = None
        self._seen: dict[int, int] = {}
        self._rng = random.Random()

    # ------------------------------------------------------------------ words

    def _seat(self, seat: int) -> str:
        return i18n.seat_text(self.lang, "seat", n=seat)

    def action_words(self, act: Action) -> str:
        """``act`` in words: a card's name, a cante's phrase, "paso"/"pass"."""
        if isinstance(act, Card):
            return i18n.card_name(self.lang, act)
        if isinstance(act, Declaration):
            return i18n.declaration_text(self.lang, str(act))
        if act is PASS:
            return i18n.seat_text(self.lang, "pass")
        return str(act)

    def _names(self, act: Action) -> set[str]:
        """Every line that means ``act``: its notation and its words in both languages."""
        names = {_norm(str(act))}
        for lang in i18n.LANGS:
            if isinstance(act, Card):
                names.add(_norm(i18n.card_name(lang, act)))
            elif isinstance(act, Declaration):
                names.add(_norm(i18n.declaration_text(lang, str(act))))
            elif act is PASS:
                names.add(_norm(i18n.seat_text(lang, "pass")))
        return names

    def parse(self, line: str) -> Action | None:
        """The action ``line`` names (legal now or not), or None if it names none."""
        deal = self._deal()
        text = _norm(line)
        for act in deal.legal_actions():
            if text in self._names(act):
                return act
        try:
            return parse_action(line.strip())
        except TuteError:
            pass
        from ..cards import ALL_CARDS

        for card in ALL_CARDS:  # a card in words that is not legal now
            if text in self._names(card):
                return card
        return None

    # ------------------------------------------------------------------ episode

    def _deal(self) -> Deal:
        if self.deal is None:
            raise TuteError("no deal yet: call reset() first")
        return self.deal

    @property
    def done(self) -> bool:
        return self.deal is not None and self.deal.is_over()

    @property
    def to_move(self) -> int | None:
        return self._deal().to_move

    def reset(self, seed: int | None = None, *, deal_seed: int | None = None,
              dealer: int | None = None) -> tuple[int, str]:
        """A new deal (``seed`` seeds the sequence of deals, as ``tute.rl.env``; or
        ``deal_seed`` plays that deal). Returns the seat to move and its observation."""
        if seed is not None:
            self._rng = random.Random(seed)
        if deal_seed is None:
            deal_seed = self._rng.randrange(MAX_SEED + 1)
        self.deal = Deal.new(self.variant, seed=deal_seed, dealer=dealer, options=self.options)
        self._seen = {}
        seat = self.deal.to_move
        assert seat is not None
        return seat, self.observe(seat)

    def legal(self) -> list[str]:
        """The legal moves of the seat to move, in words."""
        return [self.action_words(a) for a in self._deal().legal_actions()]

    def step(self, line: str) -> tuple[int | None, str, dict[str, Any]]:
        """Play ``line`` for the seat to move. Refused (not understood, or not legal now):
        the same seat, its observation after the reason, ``info["refused"]`` the reason, and
        the deal unchanged. Played: the next seat to move and its observation (or the
        result, ``to_move`` None, when the deal is over); ``info["rewards"]`` per seat."""
        deal = self._deal()
        seat = deal.to_move
        if seat is None:
            raise TuteError("the deal is over: call reset()")
        if not isinstance(line, str):
            raise TuteError(f"invalid action {line!r}: expected a line of text")
        act = self.parse(line)
        # a line naming no action goes to the engine as notation: its bad_notation refusal
        refusal = deal.refusal(line.strip() if act is None else act)
        if refusal is not None:
            why = i18n.refusal_text(self.lang, refusal, you=seat)
            text = i18n.seat_text(self.lang, "refused", why=why) + "\n" + self.observe(seat)
            return seat, text, {"refused": why, "rewards": self.rewards()}
        deal.apply(act if act is not None else line.strip())
        nxt = deal.to_move
        text = self._result() if nxt is None else self.observe(nxt)
        return nxt, text, {"refused": None, "rewards": self.rewards(), "played": str(act)}

    def rewards(self) -> list[int]:
        """Per seat, its side's total minus the others' (zeros while the deal goes on)."""
        deal = self._deal()
        if not deal.is_over():
            return [0] * self.variant.seat_count(self.options)
        totals = deal.result().totals
        side_of = deal.view(0).side_of
        return [totals[side_of[s]] - sum(t for k, t in enumerate(totals) if k != side_of[s])
                for s in range(len(side_of))]

    # ------------------------------------------------------------------ text

    def observe(self, seat: int) -> str:
        """``seat``'s view in words; the events since it last looked are told once."""
        deal = self._deal()
        view = deal.view(seat)
        lang, words = self.lang, i18n.seat_text
        partner = ""
        if view.partnerships:
            partner = words(lang, "partner", who=self._seat((seat + 2) % len(view.hand_sizes)))
        lines = [words(lang, "intro", game=i18n.game_name(lang, self.variant),
                       you=self._seat(seat), partner=partner, dealer=self._seat(view.dealer))]
        if view.trump is not None:
            card = "" if view.trump_card is None else words(
                lang, "trump_card", card=i18n.card_name(lang, view.trump_card))
            lines.append(words(lang, "trump", suit=i18n.suit_name(lang, view.trump), card=card))
        lines.append(words(lang, "hand", cards=", ".join(
            i18n.card_name(lang, c) for c in view.hand)))
        start = self._seen.get(seat, 0)
        events = [i18n.event_text(lang, *describe(e), seat_name=self._seat, you=seat,
                                  card=lambda n: i18n.card_name(lang, parse_card(n)))
                  for e in view.history[start:]]
        self._seen[seat] = len(view.history)
        if events:
            lines.append(words(lang, "since", events="; ".join(events)))
        if view.trick:
            lines.append(words(lang, "table", plays=", ".join(
                f"{self._seat(s)} {i18n.card_name(lang, c)}" for s, c in view.trick)))
        elif view.to_move == seat:
            lines.append(words(lang, "table_empty"))
        lines.append(words(lang, "points", parts=", ".join(
            words(lang, "side_points", who=self._side(s), n=p)
            for s, p in enumerate(view.card_points))))
        if view.to_move == seat:
            lines.append(words(lang, "legal", acts="; ".join(self.legal())))
            lines.append(words(lang, "answer"))
        return "\n".join(lines)

    def _side(self, side: int) -> str:
        deal = self._deal()
        seats = [s for s in range(len(deal.view(0).side_of)) if deal.view(0).side_of[s] == side]
        return "+".join(self._seat(s) for s in seats)

    def _result(self) -> str:
        totals = self._deal().result().totals
        return i18n.seat_text(self.lang, "over", parts=", ".join(
            i18n.seat_text(self.lang, "side_points", who=self._side(s), n=t)
            for s, t in enumerate(totals)))
