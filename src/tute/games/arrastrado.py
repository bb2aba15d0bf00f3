"""Tute arrastrado (rules.md §4): three players with 13 cards and a table card that the 7 and
then the 2 of trumps take before the first trick, or four individual players with the trump
turned from the dealer's hand; lost games, a winner per deal, or payments."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import ALL_CARDS, DECK_40, parse_card
from ..errors import TuteError
from ..fields import bad, read_seat
from ..scoring import LAST_TRICK_BONUS, losses_3p, payments_3p, winner_3p
from ..variants import Options
from ..views import DealResult
from .base import (
    EXCHANGE,
    Extras,
    KernelConfig,
    Layout,
    MatchStep,
    MatchTally,
    Poll,
    Score,
    Tally,
    check_pack,
    individual_after_deal,
    individual_goal,
    table_target,
)
from .cases import check_parties, check_totals, named_parties, seat_totals, tute_side
from .parejas import Turned


class Arrastrado(Turned):
    __slots__ = ()
    family = "arrastrado"
    exchanges = True
    batch_gap = ""  # compulsory exchanges (done at the deal) and card play: in VectorEnv

    def seat_count(self, options: Options) -> int:
        return options.players

    def layout(self, options: Options) -> tuple[int, int]:
        return DECK_40, (10 if options.players == 4 else 13)

    def allowed_extras(self, options: Options) -> frozenset[str]:
        return frozenset({"table_card"}) if options.players == 3 else self.extras

    def lay_out(self, rest: Sequence[int], last_dealt: int) -> Layout:
        if rest:  # three players: the 40th card lies on the table and names trumps
            return Layout(trump_card=rest[0], trump=rest[0] // 10, table_card=rest[0])
        return super().lay_out(rest, last_dealt)

    def explicit(self, extras: Extras, hands: Sequence[Sequence[Any]], masks: Sequence[int],
                 dealer: int, deck: int) -> Layout:
        if len(masks) != 3:
            return super().explicit(extras, hands, masks, dealer, deck)
        if extras.table_card is None:
            raise TuteError("explicit tute_arrastrado_3p deals need 'table_card'")
        tc = parse_card(extras.table_card).index
        check_pack(masks, [tc], deck)
        return self.lay_out([tc], -1)

    def layout_json(self, layout: Layout) -> dict[str, Any]:
        if layout.table_card >= 0:
            return {"table_card": str(ALL_CARDS[layout.table_card])}
        return super().layout_json(layout)

    # ---------------------------------------------------------------- the table card

    def compulsory_exchanges(self, hands: Sequence[int], layout: Layout,
                             receivers: Sequence[int], options: Options) -> list[tuple[int, int]]:
        """exchange_mandatory: the 7 and then the 2 of trumps take the table card, done
        before play as public events: (seat, the card it gives) in order."""
        if layout.table_card < 0 or not options.exchange_mandatory:
            return []
        out: list[tuple[int, int]] = []
        table = layout.table_card
        held = list(hands)
        while True:
            target = table_target(table, layout.trump, options, two_enabled=True)
            if target is None:
                return out
            holder = next((s for s in receivers if held[s] >> target & 1), None)
            if holder is None:
                return out
            held[holder] = (held[holder] & ~(1 << target)) | (1 << table)
            out.append((holder, target))
            table = target

    def opening_polls(self, receivers: Sequence[int], options: Options, tute_polls: list[Poll],
                      exchange_possible: bool) -> list[Poll]:
        ask = not options.exchange_mandatory and exchange_possible
        return [*(Poll(s, EXCHANGE) for s in receivers if ask), *tute_polls]

    def exchange_target(self, face_up: int, trump: int | None, started: bool, stock_left: int,
                        options: Options) -> int | None:
        if face_up < 0 or started:
            return None  # only the table card, and only before the first trick
        return table_target(face_up, trump, options, two_enabled=True)

    # ---------------------------------------------------------------- scoring and match

    def score(self, tally: Tally, options: Options) -> Score:
        """§4.5–4.6: lost games, the deal winner, or payments."""
        n = tally.seats
        if tally.reason == "renuncio":
            assert tally.who is not None
            guilty = tally.offender if tally.offender is not None else tally.who
            lost = 2 if options.renuncio_penalty == "two_games_swing" else 1
            return Score(games=(0,) * n,
                         losses=tuple(lost if s == guilty else 0 for s in range(n)))
        tute_seat = tally.who if tally.reason == "tute" else None
        winner = winner_3p(tally.totals, tally.last_side, options, tute_seat=tute_seat)
        games = tuple(int(s == winner) for s in range(n))
        mode = options.scoring_3p
        if mode == "losses":
            added = losses_3p(tally.totals, tally.last_side, options, tute_seat=tute_seat)
            return Score(winner, games, losses=tuple(added.get(s, 0) for s in range(n)))
        if mode == "winner_per_deal":
            return Score(winner, games)
        own = tally.points[winner] + (LAST_TRICK_BONUS if tally.last_side == winner else 0)
        pay = payments_3p(tally.seat_cantes, winner, own, tute=tute_seat is not None)
        return Score(winner, games, balances=tuple(pay))

    def score_case(self, data: Mapping[str, Any], opts: Options) -> dict[str, Any]:
        """``tute score``: seats as parties (card points, cantes, last trick) or their totals and
        ``last_trick``; lost games, the deal's winner or payments, by ``scoring_3p``."""
        n = self.seat_count(opts)
        names = [f"seat{i}" for i in range(n)]
        tute = tute_side(data, names, n, lambda s: s)
        parties = named_parties(data, names, required=False)
        last: int | None
        if parties is not None:
            check_parties(parties, complete=tute is None)
            totals = {p.name: p.total() for p in parties}
            check_totals(data, totals)
            last = next((i for i, p in enumerate(parties) if p.last_trick), None)
        else:
            totals = seat_totals(data, names, 230)
            lt = data.get("last_trick")
            last = None if lt is None else read_seat(lt, "last_trick", n)
        values = [totals[k] for k in names]
        if opts.scoring_3p == "losses":
            losses = losses_3p(values, last, opts, tute_seat=tute)
            return {"totals": totals,
                    "result": {"losses_added": {names[i]: v for i, v in sorted(losses.items())}}}
        win = winner_3p(values, last, opts, tute_seat=tute)
        if opts.scoring_3p == "winner_per_deal":
            return {"totals": totals, "result": {"winner": names[win]}}
        if parties is None:
            bad("field 'seat0': scoring_3p=payments needs each seat's card_points, cantes and "
                "last_trick, not only totals")
        pay = payments_3p([p.cantes for p in parties], win, parties[win].total(False),
                          tute=tute is not None)
        balance = {names[j]: pay[j] for j in range(n)}
        return {"totals": totals, "result": {"winner": names[win], "balances": balance}}

    def goal_info(self, options: Options) -> dict[str, Any]:
        if options.scoring_3p == "winner_per_deal":
            return {"kind": "games", "n": options.games_to_win}
        return individual_goal(options, losses=options.scoring_3p == "losses")

    def after_deal(self, tally: MatchTally, result: DealResult, options: Options) -> MatchStep:
        if result.losses is not None or result.balances is not None:
            return individual_after_deal(tally, result, options)
        return super().after_deal(tally, result, options)

    def kernel_config(self, options: Options) -> KernelConfig:
        return KernelConfig(guinote_ranks=False, arrastre_cantes=True, cabron=False,
                            solver_sides=True)
