"""Tute cabrero / más y menos (rules.md §7.2): three to six each for himself (with six the
dealer sits out), every card dealt; nobody plays to win: the second-highest total among those
who took a trick loses a poroto, a capote or a tute costs the others, and at ``loss_limit``
porotos one is out."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from ..cards import DECK_40
from ..errors import InvalidOptionError
from ..variants import Options
from ..views import DealResult
from .arrastrado import Arrastrado
from .base import KernelConfig, MatchStep, MatchTally, Score, Tally, _end, individual_goal
from .cases import individual_case

# What the hooks cannot play yet, each with why (docs/rules-decisions.md, 2026-12-01)
_NOT_YET: dict[tuple[str, Any], str] = {
    ("cabrero_trump", "rotation"): "a trump named by the deal's number needs the match to "
    "tell the deal which deal it is",
    ("cabrero_three_deck", "remove_trump_two"): "it needs cabrero_trump='rotation'",
    ("cabrero_no_cargar", True): "it narrows the legal cards, and legality is the one rule "
    "of tute.rules that no game changes",
    ("cabrero_match_end", "elimination"): "retiring a player changes the seats dealt between "
    "deals of one match",
}


class Cabrero(Arrastrado):
    """Dealt like tute arrastrado among the active players (three: a table card the 7 and 2
    take; more: the dealer's last card turned)."""

    __slots__ = ()
    family = "cabrero"
    batch_gap = "its own deck layouts and scoring"

    def check_options(self, options: Options) -> Options:
        for (name, value), why in _NOT_YET.items():
            if options.get(name) == value:
                raise InvalidOptionError(
                    f"option {name!r}={value!r} of {self.variant.id} is not supported yet: {why}")
        if self.active(options) < options.players:
            raise InvalidOptionError(
                f"option 'players'={options.players!r} of {self.variant.id} with "
                f"cabrero_dealer_sits_out_from={options.cabrero_dealer_sits_out_from!r} is not "
                "supported yet: the idle dealer's turned card would lie in another hand, which "
                "the deal's layout hooks do not say; valid here: fewer players than "
                "cabrero_dealer_sits_out_from")
        if self.active(options) > 5:
            raise InvalidOptionError(
                f"option 'cabrero_dealer_sits_out_from'={options.cabrero_dealer_sits_out_from!r}"
                f" of {self.variant.id} with players={options.players}: no source deals 40 "
                "cards to 6 active players; valid values here: 5 | 6")
        if options.cabrero_tute_award == "none" and options.tute_enabled:
            # TAL's ``Nada``: there is no tute to declare
            return dataclasses.replace(options, tute_enabled=False)
        return options

    @staticmethod
    def active(options: Options) -> int:
        out = options.cabrero_dealer_sits_out_from
        return options.players - (1 if out is not None and options.players >= out else 0)

    def layout(self, options: Options) -> tuple[int, int]:
        k = self.active(options)
        return DECK_40, (13 if k == 3 else 40 // k)

    def allowed_extras(self, options: Options) -> frozenset[str]:
        return frozenset({"table_card"}) if self.active(options) == 3 else self.extras

    # ---------------------------------------------------------------- scoring and match

    def score(self, tally: Tally, options: Options) -> Score:
        n = tally.seats
        active = list(range(n))
        losers = self.losers(tally, active, options)
        return Score(games=(0,) * n, losses=tuple(losers.get(s, 0) for s in range(n)))

    def losers(self, tally: Tally, active: list[int], options: Options) -> dict[int, int]:
        """Porotos by seat for this deal (rules.md §7.2 item 9, in its order)."""
        if tally.reason == "renuncio":
            assert tally.who is not None
            return {tally.offender if tally.offender is not None else tally.who: 1}
        if tally.reason == "tute":
            award = options.cabrero_tute_award
            each = {"others_out": options.loss_limit,
                    "others_lose_n": options.cabrero_tute_porotos}.get(award, 1)
            return {s: each for s in active if s != tally.who}
        tricks = tally.tricks_won
        capote = [s for s in active if tricks[s] == sum(tricks)]
        if capote:  # he sang: he alone loses; else everyone else does
            s = capote[0]
            return {s: 1} if tally.seat_cantes[s] else {o: 1 for o in active if o != s}
        ranked = active if options.cabrero_no_base == "ranked" else [
            s for s in active if tricks[s]]
        totals = {s: tally.totals[s] if tricks[s] else 0 for s in ranked}
        return {s: 1 for s in losing(totals, options.cabrero_loser)}

    def score_case(self, data: Mapping[str, Any], opts: Options) -> dict[str, Any]:
        """``tute score``: totals, tricks taken, who sang; scored by :meth:`score`."""
        return individual_case(self, data, opts)

    def goal_info(self, options: Options) -> dict[str, Any]:
        return individual_goal(options, losses=True)

    def after_deal(self, tally: MatchTally, result: DealResult, options: Options) -> MatchStep:
        """``cabrero_match_end=first_out``: porotos add up (a tute's charge stops at the
        limit); the match ends when anyone reaches ``loss_limit``: those there lose, the rest
        win (the winner reported is the one with the fewest, if he alone has them)."""
        limit = options.loss_limit
        losses = tuple(min(limit, a + b) for a, b in
                       zip(tally.losses, result.losses or (0,) * len(tally.losses), strict=True))
        step = MatchStep(tally.games, tally.cotos, losses, tally.balances, tally.counted)
        if max(losses) >= limit:
            low = min(losses)
            return _end(step, losses.index(low) if losses.count(low) == 1 else None, "losses")
        return step

    def kernel_config(self, options: Options) -> KernelConfig:
        # the kernel's individual scoring is arrastrado's: the solver must not play this one
        return KernelConfig(guinote_ranks=False, arrastre_cantes=True, cabron=False,
                            solver_sides=False)


def losing(totals: dict[int, int], rule: str) -> list[int]:
    """The seats that lose on points among the ranked ones (``cabrero_loser``): ``second``,
    every seat at the second-highest total (all, when all share the top); ``middle``, every
    seat at a central position's total (one position for an odd count, two for an even)."""
    values = sorted(totals.values(), reverse=True)
    if rule == "second":
        distinct = sorted(set(values), reverse=True)
        lose = {distinct[1] if len(distinct) > 1 else distinct[0]}
    else:
        k = len(values)
        lose = {values[(k - 1) // 2], values[k // 2]}
    return sorted(s for s, t in totals.items() if t in lose)

