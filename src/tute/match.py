"""A match: a sequence of deals under the variant's match rules — Tute por parejas: a series
of N deals or a race to N games (rules.md §2.8); two-player Tute: games to 101 with deals *de
vueltas*, first to ``games_to_win`` (§3.6); Guiñote: partidas to 101, cotos, match (§6.9–10).

The match deals by itself: when a deal ends it is scored and the next one is dealt, so a
caller only ever sees ``to_move``, ``legal_actions`` and ``apply`` (pokerkit's automation).
Deal ``k`` is shuffled from ``derive_seed(match_seed, k)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .actions import Action
from .cards import ALL_CARDS, Suit
from .deal import Deal, SeatView
from .errors import TuteError
from .shuffle import MAX_SEED, derive_seed, new_seed, randbelow, shuffled
from .variants import Options, Variant, find_variant

__all__ = ["Match", "MatchResult", "MatchView"]

_FIRST_DEALER_INDEX = 1_000_003


@dataclass(frozen=True)
class MatchResult:
    winner: int | None
    games: tuple[int, ...]
    deals: int
    reason: str  # "series" | "race" | "games" | "cotos" | "losses" | "balance" | "tute"
    cotos: tuple[int, ...] = ()
    losses: tuple[int, ...] = ()
    balances: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"winner": self.winner, "games": list(self.games),
                               "deals": self.deals, "reason": self.reason}
        for name in ("cotos", "losses", "balances"):
            if any(getattr(self, name)):
                out[name] = list(getattr(self, name))
        return out


@dataclass(frozen=True)
class MatchView:
    """A seat's view of the current deal plus the public match score."""

    deal: SeatView
    deal_number: int  # 1-based
    games: tuple[int, ...]
    goal: str
    over: bool
    result: MatchResult | None
    cotos: tuple[int, ...] = ()
    losses: tuple[int, ...] = ()
    balances: tuple[int, ...] = ()


class Match:
    """A match of any playable variant.

    >>> m = Match.new("tute_parejas", seed=1, options={"match": {"mode": "race", "games": 2}})
    >>> while not m.is_over():
    ...     _ = m.apply(m.legal_actions()[0])
    >>> max(m.result().games)
    2
    """

    def __init__(self, variant: Variant, options: Options, seed: int, first_dealer: int):
        self.variant = variant
        self.options = options
        self.seed = seed
        self.first_dealer = first_dealer
        sides = variant.sides(options)
        #: games (parejas, two-player) or partidas in the current coto (Guiñote), per side
        self.games = [0] * sides
        #: Guiñote: cotos won, per side
        self.cotos = [0] * sides
        #: arrastrado (lost games) and cabrón: lost games per seat
        self.losses = [0] * sides
        #: subastado and arrastrado payments: running balance per seat
        self.balances = [0] * sides
        self._misdeals = 0  # in a row, for misdeal_passes_after
        self._misdeal_offset = 0  # misdeals so far: each one consumes a deal seed
        self.misdeals_before: list[int] = []  # per deal: misdeals declared before it
        self.deals: list[Deal] = []
        self._result: MatchResult | None = None
        self._counted = 0  # deals that count towards a series (replays do not)
        self._carry: tuple[int, ...] | None = None  # totals carried into a deal de vueltas

    @classmethod
    def new(cls, variant: str | Variant = "tute_parejas", seed: int | None = None,
            options: Mapping[str, Any] | Options | None = None,
            first_dealer: int | None = None) -> Match:
        var = find_variant(variant)
        var.require_playable()
        opts = var.resolve(options)
        if seed is None:
            seed = new_seed()
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise TuteError(f"invalid seed {seed!r}: expected an integer 0..2**64-1")
        n = var.seat_count(opts)
        if first_dealer is None:
            first_dealer = _choose_first_dealer(var, opts, seed, n)
        elif isinstance(first_dealer, bool) or not isinstance(first_dealer, int) or not (
            0 <= first_dealer < n
        ):
            raise TuteError(f"invalid first_dealer {first_dealer!r}: expected 0..{n - 1}")
        match = cls(var, opts, seed, first_dealer)
        match._deal_next(first_dealer)
        return match

    def _deal_next(self, dealer: int, *, misdeals: int = 0) -> None:
        k = len(self.deals) + self._misdeal_offset
        seed = derive_seed(self.seed, k)
        if k == 0 and self.options.first_dealer == "two_of_oros_mano":
            # First deal only: oros are trumps and whoever holds the 2 of oros is mano.
            probe = Deal.new(self.variant, seed=seed, dealer=dealer, options=self.options)
            two = ALL_CARDS[10 * Suit.OROS].mask
            holder = next(s for s in range(probe.seats) if probe.hand(s).mask & two)
            hands = [h.to_list() for h in probe.initial_hands]
            deal = Deal.new(self.variant, dealer=(holder - 1) % probe.seats,
                            options=self.options, hands=hands, trump="o")
            deal.seed = None
        else:
            deal = Deal.new(self.variant, seed=seed, dealer=dealer, options=self.options,
                            carry=self._carry)
        self.deals.append(deal)
        self.misdeals_before.append(misdeals)
        if not misdeals:
            self._misdeals = 0

    # -------------------------------------------------------------- delegation

    @property
    def deal(self) -> Deal:
        """The deal being played (the last one, once the match is over)."""
        return self.deals[-1]

    @property
    def to_move(self) -> int | None:
        return None if self.is_over() else self.deal.to_move

    def legal_actions(self) -> list[Action]:
        return [] if self.is_over() else self.deal.legal_actions()

    def apply(self, action: str | Action) -> Action:
        if self.is_over():
            raise TuteError("the match is over")
        act = self.deal.apply(action)
        if self.deal.is_over():
            self._score(self.deal)
        return act

    def is_over(self) -> bool:
        return self._result is not None

    def result(self) -> MatchResult:
        if self._result is None:
            raise TuteError("the match is not over yet: no result")
        return self._result

    def goal(self) -> str:
        o = self.options
        if self.variant.family == "guinote":
            return f"{o.partidas_per_coto} partidas per coto, first to {o.cotos_to_win} cotos"
        if self.variant.stock:
            return f"first to {o.games_to_win} games"
        if self.variant.id == "tute_arrastrado_3p" and o.scoring_3p == "winner_per_deal":
            return f"first to {o.games_to_win} games"
        if self.variant.id in ("tute_cabron",) or (
            self.variant.id == "tute_arrastrado_3p" and o.scoring_3p == "losses"
        ):
            return f"until someone loses {o.loss_limit} games; fewest losses wins"
        if self.variant.id in ("tute_subastado", "tute_arrastrado_3p"):
            if o.match_deals is not None:
                return f"{o.match_deals} deals; highest balance wins"
            return f"first balance to {o.match_target}"
        spec = o.match
        if spec.mode == "series":
            return f"series of {spec.n} deals"
        return f"first to {spec.n} games"

    def view(self, seat: int) -> MatchView:
        return MatchView(self.deal.view(seat), len(self.deals), tuple(self.games), self.goal(),
                         self.is_over(), self._result, tuple(self.cotos), tuple(self.losses),
                         tuple(self.balances))

    # -------------------------------------------------------------- scoring

    def _score(self, deal: Deal) -> None:
        res = deal.result()
        if res.void is not None:
            # a thrown-in weak hand is dealt again by the same dealer; an all-pass auction
            # passes the deal on
            self._deal_next(deal.dealer if res.void == "weak_hand" else deal.mano)
            return
        if res.losses is not None or res.balances is not None:
            self._score_individual(deal)
            return
        self._carry = res.running if res.vueltas else None
        for side, g in enumerate(res.games):
            self.games[side] += g
        if not res.replay:
            self._counted += 1
        spec = self.options.match
        o = self.options
        if res.match_won:
            self._end(res.winner, "tute")
            return
        if self.variant.family == "guinote":
            if res.winner is not None and self.games[res.winner] >= o.partidas_per_coto:
                self.cotos[res.winner] += 1
                if self.cotos[res.winner] >= o.cotos_to_win:
                    self._end(res.winner, "cotos")
                    return
                self.games = [0] * len(self.games)
        elif self.variant.stock or self.variant.id == "tute_arrastrado_3p":
            if res.winner is not None and self.games[res.winner] >= o.games_to_win:
                self._end(res.winner, "games")
                return
        elif spec.mode == "race":
            leaders = [s for s, g in enumerate(self.games) if g >= spec.n]
            if leaders:
                self._end(max(leaders, key=lambda s: self.games[s]), "race")
                return
        elif self._counted >= spec.n:
            top = max(self.games)
            if self.games.count(top) == 1:
                self._end(self.games.index(top), "series")
                return
        self._deal_next(self._next_dealer(deal, res.replay))

    def _score_individual(self, deal: Deal) -> None:
        """Arrastrado, subastado, cabrón: lost games to ``loss_limit`` (fewest wins), or a
        running balance to ``match_target`` / ``match_deals`` (highest wins)."""
        res = deal.result()
        o = self.options
        if res.losses is not None:
            self.losses = [a + b for a, b in zip(self.losses, res.losses, strict=True)]
            low = min(self.losses)
            if max(self.losses) >= o.loss_limit and self.losses.count(low) == 1:
                self._end(self.losses.index(low), "losses")  # a tie plays on
                return
        elif res.balances is not None:
            self.balances = [a + b for a, b in zip(self.balances, res.balances, strict=True)]
            played = sum(1 for d in self.deals if not d.result().void)
            if (o.match_deals is not None and played >= o.match_deals) or (
                o.match_deals is None and max(self.balances) >= o.match_target
            ):
                top = max(self.balances)
                if self.balances.count(top) == 1:  # a tie plays on
                    self._end(self.balances.index(top), "balance")
                    return
        if res.winner is not None and res.losses is None and res.balances is None:
            self.games[res.winner] += 1
        self._deal_next(self._next_dealer(deal, False))

    def misdeal(self) -> Deal:
        """Declare the current deal a misdeal before any action: the same dealer deals again
        — or, after ``misdeal_passes_after`` misdeals in a row, the next dealer."""
        deal = self.deal
        if self.is_over() or deal.actions:
            raise TuteError("a misdeal can only be declared before the first action of a deal")
        self._misdeals += 1
        limit = self.options.misdeal_passes_after
        dealer = deal.dealer
        if limit is not None and self._misdeals >= limit:
            dealer, self._misdeals = deal.mano, 0
        count = self.misdeals_before.pop() + 1
        self.deals.pop()
        self._misdeal_offset += 1
        self._deal_next(dealer, misdeals=count)
        return self.deal

    def _next_dealer(self, deal: Deal, replay: bool) -> int:
        if replay:
            return deal.dealer  # a replayed deal is dealt again by the same dealer
        if self.options.next_dealer == "last_trick_winner" and deal.tricks:
            return deal.tricks[-1].winner
        return deal.mano  # the turn to deal passes to the right

    def _end(self, winner: int | None, reason: str) -> None:
        cotos = tuple(self.cotos) if self.variant.family == "guinote" else ()
        self._result = MatchResult(winner, tuple(self.games), len(self.deals), reason, cotos,
                                   tuple(self.losses), tuple(self.balances))

    # -------------------------------------------------------------- records

    def to_record(self) -> dict[str, Any]:
        from .records import match_to_record

        return match_to_record(self)

    @classmethod
    def from_record(cls, record: Mapping[str, Any] | str) -> Match:
        from .records import match_from_record

        return match_from_record(record)

    def __repr__(self) -> str:
        return (f"<Match {self.variant.id} deal {len(self.deals)} games={self.games}"
                f"{' over' if self.is_over() else ''}>")


def _choose_first_dealer(var: Variant, opts: Options, seed: int, n: int) -> int:
    """``first_dealer``: random from the seed, or 'first_king': cards dealt face up one at a
    time from seat 0 until a king appears; that seat deals."""
    if opts.first_dealer == "first_king":
        order = shuffled(derive_seed(seed, _FIRST_DEALER_INDEX),
                         [c.index for c in ALL_CARDS if c.mask & var.deck])
        for k, c in enumerate(order):
            if c % 10 == 7:  # a king
                return k % n
    import random

    return randbelow(random.Random(derive_seed(seed, _FIRST_DEALER_INDEX)), n)
