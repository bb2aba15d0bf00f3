"""A match: a sequence of deals under the variant's match rules — Tute por parejas: a series
of N deals or a race to N games (rules.md §2.8); two-player Tute: games to 101 with deals *de
vueltas*, first to ``games_to_win`` (§3.6); Guiñote: partidas to 101, cotos, match (§6.9–10).

The match deals by itself: when a deal ends it is scored and the next one is dealt, so a
caller only ever sees ``to_move``, ``legal_actions`` and ``apply`` (pokerkit's automation).
Deal ``k`` is shuffled from ``derive_seed(match_seed, k)``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .actions import Action
from .cards import ALL_CARDS, Suit
from .deal import Deal, SeatView
from .errors import IllegalActionError, RecordError, TuteError
from .games import Game, game_for
from .games.base import MatchTally
from .records import (
    V1Replay,
    check_header,
    check_result,
    field,
    record_head,
    record_options,
    tracing_rights,
)
from .shuffle import MAX_SEED, derive_seed, new_seed, randbelow, shuffled
from .variants import Options, Variant, find_variant

__all__ = ["Match", "MatchResult", "MatchView", "replay_stored"]

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
    """A match of any variant.

    >>> m = Match.new("tute_parejas", seed=1, options={"match": {"mode": "race", "games": 2}})
    >>> while not m.is_over():
    ...     _ = m.apply(m.legal_actions()[0])
    >>> max(m.result().games)
    2
    """

    def __init__(self, variant: Variant, options: Options, seed: int, first_dealer: int):
        self.variant = variant
        #: the match's game (:mod:`tute.games`): its goal and what follows a deal
        self.game: Game = game_for(variant)
        self.options = options
        self.seed = seed
        self.first_dealer = first_dealer
        sides = self.game.sides(options)
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
        opts = var.resolve(options)
        if seed is None:
            seed = new_seed()
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise TuteError(f"invalid seed {seed!r}: expected an integer 0..2**64-1")
        n = game_for(var).seat_count(opts)
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
        """How the match is won, in words (:meth:`goal_info` gives it as data)."""
        return self.game.goal(self.options)

    def goal_info(self) -> dict[str, Any]:
        """How the match is won, as data: ``kind`` ("series", "race", "games", "cotos",
        "losses", "balance", "balance_deals") and its numbers."""
        return self.game.goal_info(self.options)

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
        self._carry = res.running if res.vueltas else None
        played = sum(1 for d in self.deals if not d.result().void)
        step = self.game.after_deal(
            MatchTally(tuple(self.games), tuple(self.cotos), tuple(self.losses),
                       tuple(self.balances), self._counted, played), res, self.options)
        self.games, self.cotos = list(step.games), list(step.cotos)
        self.losses, self.balances = list(step.losses), list(step.balances)
        self._counted = step.counted
        if step.end is not None:
            self._end(*step.end)
            return
        self._deal_next(self._next_dealer(deal, res.replay))

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
        cotos = tuple(self.cotos) if self.game.keeps_cotos else ()
        self._result = MatchResult(winner, tuple(self.games), len(self.deals), reason, cotos,
                                   tuple(self.losses), tuple(self.balances))

    # -------------------------------------------------------------- records

    def to_record(self) -> dict[str, Any]:
        """The JSON-able record of the match; its last deal may be unfinished (a saved
        game)."""
        record: dict[str, Any] = {
            **record_head("match", self.variant, self.options),
            "seed": self.seed,
            "first_dealer": self.first_dealer,
            "deals": [
                {"seed": d.seed, "dealer": d.dealer, "actions": [str(a) for a in d.actions]}
                | ({"misdeals_before": m} if m else {})
                for d, m in zip(self.deals, self.misdeals_before, strict=True)
            ],
        }
        if self.is_over():
            record["result"] = self.result().to_json()
        return record

    @classmethod
    def from_record(cls, record: Mapping[str, Any] | str | bytes) -> Match:
        """Rebuild a match from its record, replaying and validating every deal."""
        rec = check_header(record, "match")
        variant = field(rec, "variant", str)
        options = record_options(rec)
        seed = field(rec, "seed", int)
        first = field(rec, "first_dealer", int, required=False)
        deals = field(rec, "deals", list)
        if rec["version"] == 1:  # the exchange questions of version 1 are read off
            with tracing_rights():
                return cls._from_record(rec, variant, options, seed, first, deals, v1=True)
        return cls._from_record(rec, variant, options, seed, first, deals, v1=False)

    @classmethod
    def _from_record(cls, rec: Mapping[str, Any], variant: str, options: dict[str, Any],
                     seed: int, first: int | None, deals: list[Any], *, v1: bool) -> Match:
        try:
            match = cls.new(variant, seed=seed, options=options, first_dealer=first)
        except TuteError as exc:
            raise RecordError(f"invalid record: {exc}", field="variant") from None
        feed = V1Replay(match.apply, lambda: match.deal) if v1 else None
        offset = 0
        for k, entry in enumerate(deals):
            if not isinstance(entry, Mapping):
                raise RecordError(f"invalid record: deal {k} must be an object", field="deals")
            if match.is_over():
                raise RecordError(f"invalid record: deal {k} comes after the end of the match",
                                  field="deals")
            misdeals = entry.get("misdeals_before", 0)
            if isinstance(misdeals, bool) or not isinstance(misdeals, int) or not (
                0 <= misdeals < 100
            ):
                raise RecordError(f"invalid record: deal {k} 'misdeals_before' must be 0..99",
                                  field="deals")
            for _ in range(misdeals):
                match.misdeal()
            current = match.deal
            for name in ("seed", "dealer"):
                if name in entry and entry[name] != getattr(current, name):
                    raise RecordError(
                        f"invalid record: deal {k} {name} is {entry[name]!r}, the match gives "
                        f"{getattr(current, name)!r}",
                        field="deals",
                    )
            actions = entry.get("actions", [])
            if not isinstance(actions, list):
                raise RecordError(f"invalid record: deal {k} 'actions' must be a list",
                                  field="deals")
            for i, action in enumerate(actions):
                if len(match.deals) != k + 1 or match.deals[k].is_over():
                    # the surplus would spill into the next deal: a record means one thing
                    raise RecordError(f"invalid record: deal {k} has actions after its end "
                                      f"(action {i})", index=offset + i, field="deals")
                try:
                    if feed is None:
                        match.apply(action)
                    else:
                        feed.feed(action)
                        if i == len(actions) - 1:
                            feed.close()
                except IllegalActionError as exc:
                    raise RecordError(
                        f"deal {k} action {i} ({action!r}) is illegal: {exc.reason}",
                        index=offset + i, field="deals",
                    ) from None
            offset += len(actions)
            if k < len(deals) - 1 and match.deals[k].is_over() is False:
                raise RecordError(f"invalid record: deal {k} is unfinished but more deals "
                                  "follow", field="deals")
        check_result(rec, match.result().to_json() if match.is_over() else None)
        return match

    def __repr__(self) -> str:
        return (f"<Match {self.variant.id} deal {len(self.deals)} games={self.games}"
                f"{' over' if self.is_over() else ''}>")


def replay_stored(make: Callable[[], Match], actions: Sequence[str]) -> Match:
    """The match ``make`` starts, after ``actions`` stored by this version or by version 1
    (a server's table saved before the exchange right was kept for the seat's turn; it may
    have been played on since): replayed as they are when they all fit, else read as version
    1's (:class:`~tute.records.V1Replay`, which goes on in today's form after the first
    action of it). Raises :class:`~tute.errors.RecordError` with the index of the action that
    fits neither reading (the further one)."""
    m = make()
    first = len(actions)
    for i, action in enumerate(actions):
        try:
            m.apply(action)
        except IllegalActionError:
            first = i
            break
    else:
        return m
    with tracing_rights():
        m = make()
        v1 = V1Replay(m.apply, lambda: m.deal)
        for i, action in enumerate(actions):
            try:
                v1.feed(action)
            except IllegalActionError as exc:
                at = max(i, first)
                raise RecordError(f"action {at} ({actions[at]!r}) is illegal: {exc.reason}",
                                  index=at, field="actions") from None
        v1.close()
    return m


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
