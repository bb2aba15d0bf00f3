"""One deal, played action by action: ``Deal.new`` → ``legal_actions``/``apply`` → ``result``.

State is a handful of ints and tuples (hands are 40-bit masks) so that ``copy``, ``undo`` and
random playouts are cheap. Every action is validated with a reason and leaves frozen events.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from .actions import PASS, Action, Pass, parse_action
from .cards import ALL_CARDS, SUIT_MASKS, Card, CardSet, Suit, cards_of, parse_card
from .errors import IllegalActionError, InvalidNotationError, TuteError
from .events import CardPlayed, DealEnded, Declared, Event, Passed, TrickTaken
from .rules import (
    Declaration,
    available_declarations,
    declaration_cards,
    explain_plays,
)
from .scoring import LAST_TRICK_BONUS, score_partnership
from .shuffle import MAX_SEED, derive_seed, new_seed, shuffled
from .variants import Options, Variant, find_variant

__all__ = ["Deal", "DealResult", "SeatView", "TrickRecord"]

# Per suit, the cards of every 10-bit pattern in display order (strongest first).
_SUIT_CARDS: Final = tuple(
    tuple(cards_of(pattern << (10 * s)) for pattern in range(1024)) for s in range(4)
)

_PLAY, _POLL, _OVER = 0, 1, 2


@dataclass(frozen=True)
class TrickRecord:
    """A completed trick: who led, the cards in playing order, who won, its card points."""

    number: int
    leader: int
    cards: tuple[Card, ...]
    winner: int
    points: int

    def plays(self, seats: int) -> list[tuple[int, Card]]:
        return [((self.leader + i) % seats, c) for i, c in enumerate(self.cards)]


@dataclass(frozen=True)
class DealResult:
    """The score of a finished deal; every tuple is indexed by side."""

    totals: tuple[int, ...]
    card_points: tuple[int, ...]
    cantes: tuple[tuple[int, ...], ...]
    last_trick: tuple[bool, ...]
    winner: int | None
    games: tuple[int, ...]
    reason: str = "tricks"  # "tricks" | "tute"
    replay: bool = False
    match_won: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "totals": list(self.totals),
            "card_points": list(self.card_points),
            "cantes": [list(c) for c in self.cantes],
            "last_trick": list(self.last_trick),
            "winner": self.winner,
            "games": list(self.games),
            "reason": self.reason,
            "replay": self.replay,
            "match_won": self.match_won,
        }


@dataclass(frozen=True)
class SeatView:
    """Everything one seat may know about a deal, and nothing else."""

    variant: str
    options: Options
    seat: int
    side: int
    seats: int
    dealer: int
    mano: int
    trump: Suit | None
    trump_card: Card | None
    trump_card_with_dealer: bool  # the turned card is still in the dealer's hand
    hand: CardSet
    hand_sizes: tuple[int, ...]
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[TrickRecord, ...]
    cantes: tuple[tuple[int, Declaration, int], ...]
    card_points: tuple[int, ...]  # per side, taken so far
    played: CardSet
    to_move: int | None
    legal_actions: tuple[Action, ...]
    result: DealResult | None

    @property
    def unseen(self) -> CardSet:
        """Cards this seat has not seen: neither in its hand nor played."""
        return ~(self.hand | self.played)

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "seat": self.seat,
            "side": self.side,
            "dealer": self.dealer,
            "mano": self.mano,
            "trump": None if self.trump is None else self.trump.letter,
            "trump_card": None if self.trump_card is None else str(self.trump_card),
            "trump_card_with_dealer": self.trump_card_with_dealer,
            "hand": self.hand.to_list(),
            "hand_sizes": list(self.hand_sizes),
            "trick": [[s, str(c)] for s, c in self.trick],
            "tricks": [
                {"number": t.number, "leader": t.leader, "cards": [str(c) for c in t.cards],
                 "winner": t.winner, "points": t.points}
                for t in self.tricks
            ],
            "cantes": [[s, str(d), p] for s, d, p in self.cantes],
            "card_points": list(self.card_points),
            "to_move": self.to_move,
            "legal_actions": [str(a) for a in self.legal_actions],
            "result": None if self.result is None else self.result.to_json(),
        }


class Deal:
    """A deal of a trick-taking game of the Tute family (now: Tute por parejas).

    >>> deal = Deal.new("tute_parejas", seed=7, dealer=3)
    >>> deal.to_move, deal.trump_card
    (0, Card('Cc'))
    >>> while not deal.is_over():
    ...     _ = deal.apply(deal.legal_actions()[0])
    >>> sum(deal.result().card_points)
    120
    """

    __slots__ = (
        "_actions", "_best", "_best_seat", "_cantes", "_completed", "_events", "_hands",
        "_initial_hands", "_leader", "_legal_cache", "_n", "_phase", "_points", "_result",
        "_ruffed", "_side_first", "_side_forfeit", "_sides", "_sung", "_to_move", "_trick",
        "_tricks_won", "_undo", "_window", "_window_declared", "_window_seats", "_forty_lost",
        "dealer", "mano", "options", "order", "seed", "total_tricks", "trump", "trump_card",
        "variant", "_exempt", "_undertrump", "_head_after_ruff", "_higher", "_points_table",
        "_dealt_tute",
    )

    # ---------------------------------------------------------------- construction

    @classmethod
    def new(
        cls,
        variant: str | Variant = "tute_parejas",
        seed: int | None = None,
        dealer: int | None = None,
        options: Mapping[str, Any] | Options | None = None,
        *,
        hands: Sequence[Sequence[str | Card]] | None = None,
        trump_card: str | Card | None = None,
    ) -> Deal:
        """A new deal, shuffled from ``seed`` or laid out explicitly with ``hands``.

        ``dealer`` defaults to one drawn from the seed. Hands are listed by seat; in Tute por
        parejas ``trump_card`` must be one of the dealer's cards (default: the dealer's last).
        """
        var = find_variant(variant)
        var.require_playable()
        opts = var.resolve(options)
        n = var.seat_count(opts)
        if seed is not None and (
            isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED
        ):
            raise TuteError(f"invalid seed {seed!r}: expected an integer 0..2**64-1")
        if hands is None and seed is None:
            seed = new_seed()
        if dealer is None:
            dealer = derive_seed(seed or 0, 1_000_003) % n
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
            raise TuteError(f"invalid dealer {dealer!r}: expected a seat 0..{n - 1}")
        mano = (dealer + 1) % n
        if hands is None:
            assert seed is not None
            order = shuffled(seed, [c.index for c in ALL_CARDS if c.mask & var.deck])
            masks, last = _deal_out(order, n, mano, opts.deal_packet, var.hand_size)
            if trump_card is not None:
                raise TuteError("trump_card can only be given together with explicit hands")
            tc = last
        else:
            masks = _check_hands(hands, n, var)
            tc_card = parse_card(hands[dealer][-1])
            if trump_card is not None:
                tc_card = parse_card(trump_card)
                if not tc_card.mask & masks[dealer]:
                    raise TuteError(
                        f"invalid trump_card {str(tc_card)!r}: not in the dealer's hand "
                        f"(seat {dealer})"
                    )
            assert tc_card is not None
            tc = tc_card.index
        deal = cls._blank(var, opts, n, dealer, mano, seed)
        deal.trump_card = ALL_CARDS[tc]
        deal.trump = Suit(tc // 10)
        deal._hands = tuple(masks)
        deal._initial_hands = deal._hands
        deal._start()
        return deal

    @classmethod
    def _blank(cls, var: Variant, opts: Options, n: int, dealer: int, mano: int,
               seed: int | None) -> Deal:
        deal = object.__new__(cls)
        deal.variant = var
        deal.options = opts
        deal.order = var.order
        deal._n = n
        deal._sides = var.sides(opts)
        deal.dealer = dealer
        deal.mano = mano
        deal.seed = seed
        deal.total_tricks = var.deck.bit_count() // n
        deal._exempt = opts.partner_exemption
        deal._undertrump = opts.must_undertrump
        deal._head_after_ruff = opts.must_head_after_ruff
        deal._higher = var.order.higher
        deal._points_table = var.order.points
        return deal

    def _start(self) -> None:
        n = self._n
        self._trick = ()
        self._leader = self.mano
        self._to_move = self.mano
        self._best = -1
        self._best_seat = -1
        self._ruffed = False
        self._points = (0,) * self._sides
        self._tricks_won = (0,) * n
        self._completed = ()
        self._cantes = ()
        self._sung = 0
        self._forty_lost = 0
        self._window = 0
        self._window_seats = 0
        self._window_declared = False
        self._side_first = 0
        self._side_forfeit = 0
        self._phase = _PLAY
        self._result = None
        self._actions = []
        self._events = []
        self._undo = []
        self._legal_cache = -1
        self._dealt_tute = False
        opts = self.options
        if opts.tute_dealt_wins_immediately and opts.tute_enabled:
            for k in range(n):
                seat = (self.mano + k) % n
                if self._decls(seat):
                    self._window = self._window_seats = 1 << seat
                    self._dealt_tute = True
                    if seat != self.mano:
                        self._phase = _POLL
                        self._to_move = seat
                    break

    # ---------------------------------------------------------------- public state

    @property
    def seats(self) -> int:
        return self._n

    @property
    def to_move(self) -> int | None:
        return None if self._phase == _OVER else self._to_move

    def is_over(self) -> bool:
        return self._phase == _OVER

    def hand(self, seat: int) -> CardSet:
        return CardSet(self._hands[self._seat_arg(seat)])

    @property
    def hands(self) -> tuple[CardSet, ...]:
        return tuple(CardSet(h) for h in self._hands)

    @property
    def initial_hands(self) -> tuple[CardSet, ...]:
        return tuple(CardSet(h) for h in self._initial_hands)

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        n, lead = self._n, self._leader
        return tuple(((lead + i) % n, ALL_CARDS[c]) for i, c in enumerate(self._trick))

    @property
    def tricks(self) -> tuple[TrickRecord, ...]:
        return tuple(
            TrickRecord(i + 1, lead, tuple(ALL_CARDS[c] for c in cards), win, pts)
            for i, (lead, cards, win, pts) in enumerate(self._completed)
        )

    @property
    def trick_number(self) -> int:
        """1-based number of the trick being played (or the last one, when over)."""
        return min(len(self._completed) + 1, self.total_tricks)

    @property
    def cantes(self) -> tuple[tuple[int, Declaration, int], ...]:
        return self._cantes

    @property
    def card_points(self) -> tuple[int, ...]:
        return self._points

    @property
    def actions(self) -> tuple[Action, ...]:
        return tuple(self._actions)

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._events)

    def side_of(self, seat: int) -> int:
        return seat % 2 if self._sides == 2 and self._n == 4 else seat

    def _seat_arg(self, seat: int) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self._n:
            raise TuteError(f"invalid seat {seat!r}: expected 0..{self._n - 1}")
        return seat

    # ---------------------------------------------------------------- legality

    def _legal_cards(self) -> int:
        """Mask of the cards the player to move may play (§1.4, obligated play)."""
        if self._legal_cache >= 0:
            return self._legal_cache
        seat = self._to_move
        hand = self._hands[seat]
        trick = self._trick
        if not trick:
            mask = hand
        else:
            lead = trick[0] // 10
            led = hand & SUIT_MASKS[lead]
            best = self._best
            exempt = self._exempt and (self._best_seat - seat) % 2 == 0 and self._sides == 2
            if led:
                if exempt:
                    mask = led
                elif self._ruffed:
                    if self._head_after_ruff:
                        top = max((c for c in trick if c // 10 == lead),
                                  key=self.order.strength.__getitem__)
                        mask = (led & self._higher[top]) or led
                    else:
                        mask = led
                else:
                    mask = (led & self._higher[best]) or led
            else:
                trumps = hand & SUIT_MASKS[self.trump] if self.trump is not None else 0
                if not trumps or exempt:
                    mask = hand
                elif not self._ruffed:
                    mask = trumps
                else:
                    mask = (trumps & self._higher[best]) or (
                        trumps if self._undertrump else hand)
        self._legal_cache = mask
        return mask

    def _decls(self, seat: int) -> list[Declaration]:
        o = self.options
        decls = available_declarations(
            self._hands[seat], self.trump, self.order, sung_suits=self._sung,
            forty_forfeited=bool(self._forty_lost >> seat & 1), forty_first=o.forty_first,
            tute_enabled=o.tute_enabled,
        )
        if self._dealt_tute:
            return [d for d in decls if d.is_tute]
        return decls

    def legal_actions(self) -> list[Action]:
        """The actions the player to move may take (cards in display order); [] when over."""
        phase = self._phase
        if phase == _PLAY:
            mask = self._legal_cards()
            acts: list[Action] = []
            for s in range(4):
                part = (mask >> (10 * s)) & 0x3FF
                if part:
                    acts.extend(_SUIT_CARDS[s][part])
            if self._window >> self._to_move & 1:
                decls: list[Action] = list(self._decls(self._to_move))
                if decls:
                    return decls + acts
            return acts
        if phase == _POLL:
            return [*self._decls(self._to_move), PASS]
        return []

    def why_illegal(self, action: str | Action) -> str | None:
        """None if ``action`` is legal now, else the reason it is refused."""
        try:
            act = parse_action(action)
        except InvalidNotationError as exc:
            return str(exc)
        if self._phase == _OVER:
            return "the deal is over"
        seat = self._to_move
        if isinstance(act, Card):
            if self._phase == _POLL:
                return (f"seat {seat} may only declare or pass now"
                        + (" (a tute held from the deal)" if self._dealt_tute else ""))
            if not act.mask & self._hands[seat]:
                return f"{act} is not in seat {seat}'s hand"
            if act.mask & self._legal_cards():
                return None
            _, why = explain_plays(
                self._hands[seat], self._trick, self.trump, self.order,
                partner_winning=bool(self._trick) and self._sides == 2 and self._n == 4
                and (self._best_seat - seat) % 2 == 0,
                partner_exemption=self._exempt, must_undertrump=self._undertrump,
                must_head_after_ruff=self._head_after_ruff,
            )
            return why.get(act.index, "not a legal card now")
        if isinstance(act, Declaration):
            if not self._window >> seat & 1:
                if self._trick:
                    return "declarations are only possible before the next trick is led"
                if not self._completed:
                    return "a declaration needs a won trick first"
                return f"seat {seat} may not declare now"
            if act in self._decls(seat):
                return None
            return self._why_not_declare(seat, act)
        if isinstance(act, Pass):
            return None if self._phase == _POLL else "there is nothing to pass on now"
        return "unknown action"

    def _why_not_declare(self, seat: int, decl: Declaration) -> str:
        hand = self._hands[seat]
        cards = declaration_cards(decl, self.trump, self.order)
        if decl.is_tute and not self.options.tute_enabled:
            return "tute is not enabled in this game"
        if cards & hand != cards:
            missing = " ".join(str(c) for c in cards_of(cards & ~hand))
            return f"{decl} needs {missing} in hand"
        suit = decl.marriage_suit(self.trump)
        if suit is not None and self._sung >> suit & 1:
            return f"the {Suit(suit).spanish} marriage has already been declared"
        if decl.kind == "cuarenta" and self._forty_lost >> seat & 1:
            return "the right to the 40 was lost by singing a 20 first"
        if decl.kind == "veinte" and self.options.forty_first == "enforce":
            return "the 40 must be declared before any 20"
        return f"{decl} is not available now"

    # ---------------------------------------------------------------- applying actions

    def apply(self, action: str | Action) -> Action:
        """Apply a legal action (or its notation) and return it; refuse anything else with
        :class:`IllegalActionError` and leave the deal unchanged."""
        act: Action
        if action.__class__ is Card:
            act = action  # type: ignore[assignment]
        else:
            try:
                act = parse_action(action)
            except InvalidNotationError as exc:
                raise IllegalActionError(str(exc), action=str(action)) from None
        phase = self._phase
        if act.__class__ is Card and phase == _PLAY:
            seat = self._to_move
            if not act.mask & self._legal_cards():  # type: ignore[union-attr]
                self._refuse(act)
            self._save()
            self._play(seat, act.index)  # type: ignore[union-attr]
            return act
        reason = self.why_illegal(act)
        if reason is not None:
            self._refuse(act, reason)
        self._save()
        if isinstance(act, Declaration):
            self._declare(self._to_move, act)
        else:
            self._pass(self._to_move)
        return act

    def _refuse(self, act: Action, reason: str | None = None) -> None:
        if reason is None:
            reason = self.why_illegal(act) or "not legal now"
        who = "" if self._phase == _OVER else f"seat {self._to_move}: "
        raise IllegalActionError(f"illegal action {str(act)!r} ({who}{reason})",
                                 action=str(act), reason=reason)

    def _save(self) -> None:
        self._undo.append((
            self._hands, self._trick, self._leader, self._to_move, self._best, self._best_seat,
            self._ruffed, self._points, self._tricks_won, self._completed, self._cantes,
            self._sung, self._forty_lost, self._window, self._window_seats,
            self._window_declared, self._side_first, self._side_forfeit, self._phase,
            self._result, self._dealt_tute, len(self._events),
        ))

    def undo(self) -> Action:
        """Take back the last action and return it (for search and for 'undo' buttons)."""
        if not self._undo:
            raise TuteError("nothing to undo: no action has been applied")
        (self._hands, self._trick, self._leader, self._to_move, self._best, self._best_seat,
         self._ruffed, self._points, self._tricks_won, self._completed, self._cantes,
         self._sung, self._forty_lost, self._window, self._window_seats,
         self._window_declared, self._side_first, self._side_forfeit, self._phase,
         self._result, self._dealt_tute, n_events) = self._undo.pop()
        del self._events[n_events:]
        self._legal_cache = -1
        act: Action = self._actions.pop()
        return act

    def _play(self, seat: int, idx: int) -> None:
        self._legal_cache = -1
        self._actions.append(ALL_CARDS[idx])
        if not self._trick:
            self._close_window()
        hands = self._hands
        self._hands = (*hands[:seat], hands[seat] ^ (1 << idx), *hands[seat + 1:])
        trick = (*self._trick, idx)
        self._trick = trick
        if len(trick) == 1:
            self._best = idx
            self._best_seat = seat
            self._ruffed = False
        else:
            best = self._best
            if idx // 10 == best // 10:
                if self._higher[best] >> idx & 1:
                    self._best = idx
                    self._best_seat = seat
            elif idx // 10 == self.trump:
                self._best = idx
                self._best_seat = seat
                self._ruffed = True
        self._events.append(CardPlayed(seat, ALL_CARDS[idx]))
        n = self._n
        if len(trick) < n:
            self._to_move = (seat + 1) % n
            return
        # trick complete
        winner = self._best_seat
        pts = 0
        table = self._points_table
        for c in trick:
            pts += table[c]
        number = len(self._completed) + 1
        last = number == self.total_tricks
        side = self.side_of(winner)
        points = list(self._points)
        points[side] += pts
        self._points = tuple(points)
        won = list(self._tricks_won)
        won[winner] += 1
        self._tricks_won = tuple(won)
        self._completed = (*self._completed, (self._leader, trick, winner, pts))
        self._events.append(TrickTaken(number, self._leader, tuple(ALL_CARDS[c] for c in trick),
                                       winner, pts))
        self._trick = ()
        self._leader = winner
        self._to_move = winner
        if last:
            self._finish("tricks", None)
        else:
            self._open_window(winner)

    def _entitled(self, winner: int) -> int:
        by = self.options.cante_by
        if by == "trick_winner" or self._sides != 2 or self._n != 4:
            return 1 << winner
        return (1 << winner) | (1 << ((winner + 2) % 4))

    def _open_window(self, winner: int) -> None:
        side = self.side_of(winner)
        first = not self._side_first >> side & 1
        self._side_first |= 1 << side
        self._window_declared = False
        restriction = self.options.cante_restriction
        if self._side_forfeit >> side & 1 or (restriction == "first_win_only" and not first):
            self._window = self._window_seats = 0
            return
        seats = self._entitled(winner)
        self._window = self._window_seats = seats
        # the partner of the trick winner speaks first, and only when it has something to say
        partner = seats & ~(1 << winner)
        if partner:
            p = partner.bit_length() - 1
            if self._decls(p):
                self._phase = _POLL
                self._to_move = p
            else:
                self._window &= ~partner

    def _close_window(self) -> None:
        """The next trick is being led: apply the skipped-first-win forfeit and close."""
        if (
            self._window_seats and not self._window_declared
            and self.options.cante_restriction == "forfeit_if_skipped_first"
            and self._completed
        ):
            winner = self._completed[-1][2]
            side = self.side_of(winner)
            won_by_side = sum(1 for t in self._completed if self.side_of(t[2]) == side)
            if won_by_side == 1:
                hands = self._hands
                seats = self._window_seats
                if any(seats >> s & 1 and available_declarations(
                        hands[s], self.trump, self.order, sung_suits=self._sung,
                        forty_first=self.options.forty_first,
                        tute_enabled=self.options.tute_enabled) for s in range(self._n)):
                    self._side_forfeit |= 1 << side
        self._window = 0
        self._window_seats = 0
        self._dealt_tute = False

    def _declare(self, seat: int, decl: Declaration) -> None:
        self._legal_cache = -1
        self._actions.append(decl)
        cards = declaration_cards(decl, self.trump, self.order)
        if decl.is_tute:
            self._cantes = (*self._cantes, (seat, decl, 0))
            self._events.append(Declared(seat, decl, 0, cards_of(cards)))
            self._finish("tute", seat)
            return
        suit = decl.marriage_suit(self.trump)
        assert suit is not None
        if (
            decl.kind == "veinte" and self.options.forty_first == "forfeit"
            and any(d.kind == "cuarenta" for d in self._decls(seat))
        ):
            self._forty_lost |= 1 << seat
        self._sung |= 1 << suit
        pts = decl.points
        self._cantes = (*self._cantes, (seat, decl, pts))
        self._events.append(Declared(seat, decl, pts, cards_of(cards)))
        self._window_declared = True
        self._after_speaking(seat, declared=True)

    def _pass(self, seat: int) -> None:
        self._legal_cache = -1
        self._actions.append(PASS)
        self._events.append(Passed(seat))
        self._after_speaking(seat, declared=False)

    def _after_speaking(self, seat: int, *, declared: bool) -> None:
        self._window &= ~(1 << seat)
        if declared and self.options.cante_by == "winning_side_one":
            self._window = 0
        if self._phase == _POLL:
            self._phase = _PLAY
            if self._dealt_tute:
                self._window = self._window_seats = 0
                self._dealt_tute = False
                self._to_move = self.mano
            else:
                self._to_move = self._leader

    def _finish(self, reason: str, tute_seat: int | None) -> None:
        self._phase = _OVER
        sides = self._sides
        cantes = [[] for _ in range(sides)]  # type: list[list[int]]
        for s, _d, p in self._cantes:
            if p:
                cantes[self.side_of(s)].append(p)
        last = [False] * sides
        opts = self.options
        if reason == "tute":
            assert tute_seat is not None
            side = self.side_of(tute_seat)
            totals = tuple(self._points[i] + sum(cantes[i]) for i in range(sides))
            games = [0] * sides
            games[side] = 2 if opts.tute_award == "two_games" else 1
            result = DealResult(totals, self._points, tuple(map(tuple, cantes)), tuple(last),
                                side, tuple(games), reason="tute",
                                match_won=opts.tute_award in ("match", "partida"))
            self._events.append(DealEnded("tute", side, games[side]))
        else:
            last_side = self.side_of(self._completed[-1][2])
            last[last_side] = True
            totals = tuple(
                self._points[i] + sum(cantes[i]) + (LAST_TRICK_BONUS if last[i] else 0)
                for i in range(sides)
            )
            out = score_partnership(totals, last_side, opts, mano_side=self.side_of(self.mano),
                                    sang=[bool(c) for c in cantes])
            games = [0] * sides
            if out.winner is not None:
                games[out.winner] = out.games
            result = DealResult(totals, self._points, tuple(map(tuple, cantes)), tuple(last),
                                out.winner, tuple(games), replay=out.replay)
            self._events.append(DealEnded("tricks", out.winner, out.games))
        self._result = result
        self._to_move = None  # type: ignore[assignment]

    # ---------------------------------------------------------------- results, views, copies

    def result(self) -> DealResult:
        """The score of the finished deal; raises if it is not over yet."""
        if self._result is None:
            raise TuteError("the deal is not over yet: no result")
        result: DealResult = self._result
        return result

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know: its own hand and everything public; nothing else."""
        seat = self._seat_arg(seat)
        played = 0
        for _lead, cards, _w, _p in self._completed:
            for c in cards:
                played |= 1 << c
        for c in self._trick:
            played |= 1 << c
        tc = self.trump_card
        return SeatView(
            variant=self.variant.id,
            options=self.options,
            seat=seat,
            side=self.side_of(seat),
            seats=self._n,
            dealer=self.dealer,
            mano=self.mano,
            trump=self.trump,
            trump_card=tc,
            trump_card_with_dealer=tc is not None and not tc.mask & played,
            hand=CardSet(self._hands[seat]),
            hand_sizes=tuple(h.bit_count() for h in self._hands),
            trick=self.trick,
            tricks=self.tricks,
            cantes=self._cantes,
            card_points=self._points,
            played=CardSet(played),
            to_move=self.to_move,
            legal_actions=tuple(self.legal_actions()) if self.to_move == seat else (),
            result=self._result,
        )

    def copy(self) -> Deal:
        """An independent copy (shares only immutable state); cheap enough for search."""
        other = object.__new__(Deal)
        for name in Deal.__slots__:
            object.__setattr__(other, name, getattr(self, name))
        other._actions = list(self._actions)
        other._events = list(self._events)
        other._undo = list(self._undo)
        return other

    def __copy__(self) -> Deal:
        return self.copy()

    def to_record(self) -> dict[str, Any]:
        from .records import deal_to_record

        return deal_to_record(self)

    @classmethod
    def from_record(cls, record: Mapping[str, Any] | str) -> Deal:
        from .records import deal_from_record

        return deal_from_record(record)

    def __repr__(self) -> str:
        state = "over" if self.is_over() else f"trick {self.trick_number}, seat {self._to_move}"
        return f"<Deal {self.variant.id} dealer={self.dealer} trump={self.trump_card} {state}>"


def _deal_out(order: list[int], n: int, mano: int, packet: int,
              hand_size: int) -> tuple[list[int], int]:
    """Deal packets counter-clockwise from mano; returns the hands and the last card dealt."""
    masks = [0] * n
    pos = 0
    k = 0
    total = n * hand_size
    while pos < total:
        seat = (mano + k) % n
        take = min(packet, hand_size - masks[seat].bit_count())
        for c in order[pos:pos + take]:
            masks[seat] |= 1 << c
        pos += take
        k += 1
    return masks, order[total - 1]


def _check_hands(hands: Sequence[Sequence[str | Card]], n: int, var: Variant) -> list[int]:
    if not isinstance(hands, Sequence) or isinstance(hands, str) or len(hands) != n:
        raise TuteError(f"invalid hands: expected a list of {n} hands, one per seat")
    masks: list[int] = []
    seen = 0
    for seat, hand in enumerate(hands):
        if not isinstance(hand, Sequence) or isinstance(hand, str):
            raise TuteError(f"invalid hands: hand of seat {seat} must be a list of cards")
        mask = 0
        for text in hand:
            card = parse_card(text)
            if card.mask & seen:
                raise TuteError(f"invalid hands: card {card} is dealt twice")
            if not card.mask & var.deck:
                raise TuteError(f"invalid hands: card {card} is not in the {var.id} pack")
            seen |= card.mask
            mask |= card.mask
        if mask.bit_count() != var.hand_size:
            raise TuteError(
                f"invalid hands: seat {seat} holds {mask.bit_count()} cards, "
                f"expected {var.hand_size}"
            )
        masks.append(mask)
    return masks
