"""The stock games (rules.md §3, §6): two-player Tute habanero and corriente, and Guiñote for
four and for two. A stock and its face-up card (the upcard, naming trumps), the draw after
every trick, the exchange of the upcard for the 7 or the 2 of trumps, games to 101 with deals
*de vueltas*; Guiñote adds its partidas and cotos and declares in its arrastre too."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import ALL_CARDS, parse_card
from ..errors import TuteError
from ..messages import Refusal
from ..rules import Declaration, exchange_card, exchange_refusal
from ..scoring import score_per_deal_2p, target_winner
from ..variants import Options
from ..views import DealResult
from .base import (
    EXCHANGE,
    Extras,
    Game,
    Layout,
    MatchStep,
    Poll,
    Score,
    StockDraw,
    Tally,
    _end,
    check_pack,
)
from .cases import pairs_case, two_case
from .parejas import tute_renuncio


class Stock(StockDraw, Game):
    """Two-player Tute (habanero, corriente): no declarations in the arrastre (§3.5)."""
    __slots__ = ()

    family = "stock"
    batch_gap = ""  # the draws and the upcard exchange: VectorEnv's (rl/_vector_stock.py)
    exchanges = True
    arrastre_cantes = False
    extras = frozenset({"upcard", "stock"})

    def layout(self, options: Options) -> tuple[int, int]:
        return self.variant.deck, options.hand_size

    def total_tricks(self, options: Options) -> int:
        return self.variant.deck.bit_count() // self.seat_count(options)

    def lay_out(self, rest: Sequence[int], last_dealt: int) -> Layout:
        up = rest[0]
        return Layout(trump_card=up, trump=up // 10, stock=(*rest[1:], up))  # upcard last

    def explicit(self, extras: Extras, hands: Sequence[Sequence[Any]], masks: Sequence[int],
                 dealer: int, deck: int) -> Layout:
        if extras.upcard is None or extras.stock is None:
            raise TuteError(f"explicit {self.variant.id} deals need 'upcard' and 'stock'")
        if not isinstance(extras.stock, Sequence) or isinstance(extras.stock, str):
            raise TuteError("invalid stock: expected a list of cards, top first")
        up = parse_card(extras.upcard).index
        rest = [parse_card(c).index for c in extras.stock]
        check_pack(masks, [up, *rest], deck)
        return self.lay_out([up, *rest], -1)

    def layout_json(self, layout: Layout) -> dict[str, Any]:
        up = layout.trump_card
        return {"upcard": None if up < 0 else str(ALL_CARDS[up]),
                "stock": [str(ALL_CARDS[c]) for c in layout.stock[:-1]]}

    def allows_carry(self, options: Options) -> bool:
        return options.scoring_2p == "target_101"

    # ---------------------------------------------------------------- the upcard

    def opening_polls(self, receivers: Sequence[int], options: Options, tute_polls: list[Poll],
                      exchange_possible: bool) -> list[Poll]:
        return list(tute_polls)  # start_and_after_win: a right kept for the first turn instead

    def opening_rights(self, receivers: Sequence[int], options: Options,
                       exchange_possible: bool) -> tuple[int, ...]:
        if options.exchange_timing == "start_and_after_win" and exchange_possible:
            return tuple(receivers)
        return ()

    def exchange_target(self, face_up: int, trump: int | None, started: bool, stock_left: int,
                        options: Options) -> int | None:
        if trump is None or not stock_left:
            return None
        return exchange_card(face_up, trump, two_enabled=options.exchange_two_enabled,
                             two_takes_four=options.two_exchanges_four)

    def exchange_open(self, stock_left: int, seats: int, options: Options) -> bool:
        return stock_left > seats or options.exchange_last_round_allowed

    def turn_exchange(self, options: Options) -> int:
        """own_turn_any: exchange on one's own turn (1); Guiñote's any_trick_won: once one's
        side has won a trick (2); otherwise never (0)."""
        if options.exchange_timing == "own_turn_any":
            return 1
        if options.exchange_side_requirement == "any_trick_won" and self.variant.partnerships:
            return 2
        return 0

    def why_not_exchange(self, give: int, upcard: int, stock_left: int, seats: int,
                         options: Options) -> Refusal:
        why = exchange_refusal(
            give, upcard, stock_left, seats, two_enabled=options.exchange_two_enabled,
            two_takes_four=options.two_exchanges_four,
            last_round_allowed=options.exchange_last_round_allowed,
        )
        if why:
            return why
        if options.exchange_timing == "after_winning_before_draw":
            return Refusal.of("exchange_winner_only")
        return Refusal.of("exchange_not_now")

    # ---------------------------------------------------------------- after a trick

    def after_trick(self, winner: int, seats: int, options: Options, exchange_possible: bool,
                    last_round: bool) -> tuple[list[Poll], int, tuple[int, ...]]:
        """What the rule book grants before the draw: the polls asked then, the seats whose
        declaration window opens then (cante_before_draw), and the seats whose exchange right
        is kept for their next turn instead of being asked (rules-decisions.md, "Asking
        nobody"). The right is asked before the draw only where the draw would change it: in
        the last round (exchange_last_round_allowed: the upcard is drawn) and where the
        winner is asked anyway (cante_before_draw)."""
        polls: list[Poll] = []
        rights: tuple[int, ...] = ()
        window = 0
        if options.cante_before_draw and not self.variant.partnerships:
            window = 1 << winner
        if options.exchange_timing != "own_turn_any" and exchange_possible:
            rights = (winner, (winner + 2) % seats) if self.variant.partnerships else (winner,)
            if last_round or window:
                polls = [Poll(s, EXCHANGE) for s in rights]
                rights = ()
        if window and not polls:
            polls.append(Poll(winner, EXCHANGE))
        return polls, window, rights

    @staticmethod
    def draw(stock: tuple[int, ...], hands: tuple[int, ...], known: tuple[int, ...],
             winner: int) -> tuple[tuple[int, ...], tuple[int, ...], list[tuple[int, int, bool]]]:
        """Winner first, then in playing order; the upcard is the last card drawn, face up.
        The new hands, the new public knowledge and the draws (seat, card, face up)."""
        n = len(hands)
        new = list(hands)
        public = list(known)
        draws: list[tuple[int, int, bool]] = []
        for k in range(n):
            seat = (winner + k) % n
            card = stock[k]
            new[seat] |= 1 << card
            face_up = k == len(stock) - 1
            if face_up:
                public[seat] |= 1 << card
            draws.append((seat, card, face_up))
        return tuple(new), tuple(public), draws

    def window_after_draw(self, stock_left: int, options: Options) -> bool:
        return self.arrastre_cantes or (bool(stock_left) and not options.cante_before_draw)

    # ---------------------------------------------------------------- scoring and match

    def _running(self, tally: Tally, options: Options) -> tuple[int, ...] | None:
        if options.scoring_2p != "target_101":
            return None
        carry = tally.carry or (0,) * len(tally.totals)
        return tuple(c + t for c, t in zip(carry, tally.totals, strict=True))

    def void_score(self, tally: Tally, options: Options) -> Score:
        return Score(games=(0, 0), running=self._running(tally, options))

    def score_case(self, data: Mapping[str, Any], opts: Options) -> dict[str, Any]:
        """``tute score``: ``seat0`` and ``seat1`` (card points, cantes, last trick)."""
        return two_case(data, opts, guinote=False)

    def score(self, tally: Tally, options: Options) -> Score:
        target = options.scoring_2p == "target_101"
        carry = tally.carry or (0,) * len(tally.totals)
        running = (tuple(c + t for c, t in zip(carry, tally.totals, strict=True))
                   if target else None)
        special = tute_renuncio(tally, options, target=target)
        if special is not None:
            return Score(special.winner, special.games, match_won=special.match_won,
                         running=running)
        games = [0, 0]
        if running is not None:
            winner = target_winner(running, tally.last_side, options.both_over)
            if winner is None:
                return Score(games=(0, 0), running=running, vueltas=True)
            games[winner] = 1
            return Score(winner=winner, games=tuple(games), running=running)
        out = score_per_deal_2p(tally.totals, tally.last_side, [bool(c) for c in tally.cantes])
        assert out.winner is not None
        games[out.winner] = out.games
        return Score(winner=out.winner, games=tuple(games))


class Guinote(Stock):
    """Guiñote for four and for two (§6, §3.7): cantes in the arrastre too; partidas to
    101 make a coto, cotos the match."""
    __slots__ = ()

    family = "guinote"
    arrastre_cantes = True
    keeps_cotos = True
    stock_over_notice = "stockOverGuinote"  # follow suit and head: no duty to trump

    def rating_mode(self, options: Options) -> str:
        # Guiñote in pairs is rated apart from Tute's pairs; for two, with the two-player games
        return "guinote" if self.variant.partnerships else super().rating_mode(options)

    def score_case(self, data: Mapping[str, Any], opts: Options) -> dict[str, Any]:
        """``tute score``: as the other games for as many players; a deal wins a partida."""
        if self.variant.partnerships:
            return pairs_case(data, opts, guinote=True)
        return two_case(data, opts, guinote=True)

    def hides_cante(self, declaration: Declaration, stock_left: int, options: Options) -> bool:
        """``guinote_hide_arrastre_suit`` (rules.md §1.5, PR): a 20 sung once the stock is
        gone goes unshown, so only its singer is told the suit."""
        return (options.guinote_hide_arrastre_suit and declaration.kind == "veinte"
                and not stock_left)

    def goal_info(self, options: Options) -> dict[str, Any]:
        return {"kind": "cotos", "partidas": options.partidas_per_coto,
                "cotos": options.cotos_to_win}

    def games_end(self, step: MatchStep, result: DealResult, options: Options) -> MatchStep:
        w = result.winner
        if w is not None and step.games[w] >= options.partidas_per_coto:
            cotos = tuple(c + (s == w) for s, c in enumerate(step.cotos))
            if cotos[w] >= options.cotos_to_win:
                return _end(MatchStep(step.games, cotos, step.losses, step.balances,
                                      step.counted), w, "cotos")
            return MatchStep((0,) * len(step.games), cotos, step.losses, step.balances,
                             step.counted)
        return step
