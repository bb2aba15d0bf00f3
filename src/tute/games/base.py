"""What a game of the family answers, and the small data types its answers are made of.

:class:`tute.Deal` and :class:`tute.Match` are generic engines: where the games differ they
ask the deal's :class:`Game` — its layout, the polls before the first lead, what follows a
trick, the score, the match goal and what follows a deal. A hook receives values and returns
values (polls, a layout, a score, a match step); it never calls back into the deal or the
match, so that a game's module imports neither.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, NamedTuple

from ..cards import ALL_CARDS, GUINOTE, RankOrder, Suit, parse_card
from ..errors import TuteError
from ..fields import bad
from ..messages import Refusal
from ..rules import Declaration, exchange_card
from ..variants import Options, Variant
from ..views import DealResult

__all__ = [
    "BID", "CANTE", "CLAIM", "DISCARD", "EXCHANGE", "TAKEOVER", "THROW", "TRUMP", "TUTE",
    "AuctionRules", "Extras", "Game", "IndividualScore", "KernelConfig", "Layout", "MatchStep",
    "MatchTally", "Poll", "Score", "StockDraw", "Tally",
]

# The hooks' data are named tuples: cheap to build on every trick and every deal.

# What a polled seat is asked: to exchange (and, with cante_before_draw, declare) before the
# draw; to declare as the trick winner's partner; to show a tute held from the deal;
# subastado's auction, the idle dealer's takeover, the widow discard and the trump choice; a
# weak hand thrown in; the end-of-deal renuncio claims (renuncio_mode=claim).
EXCHANGE, CANTE, TUTE = "exchange", "cante", "tute"
BID, TAKEOVER, DISCARD, TRUMP, THROW, CLAIM = (
    "bid", "takeover", "discard", "trump", "throw", "claim")


class Poll(NamedTuple):
    """A seat asked a question outside the card play (one of the kinds above)."""

    seat: int
    kind: str


class Layout(NamedTuple):
    """The cards outside the hands as a game lays them out (card indices, -1 for none)."""

    trump_card: int = -1  # the card that names trumps (parejas: the dealer's last; stock: upcard)
    trump: int | None = None  # the trump suit; None until the game names one
    turned: bool = False  # the trump card is one of the dealer's, shown to all
    stock: tuple[int, ...] = ()  # stock games: face down, top first, the upcard last
    table_card: int = -1  # arrastrado for three: the 40th card, out of play
    widow: int = -1  # subastado with widow_card: the face-down 40th card


class Extras(NamedTuple):
    """The explicit layout given to ``Deal.new`` besides the hands (notation or None)."""

    trump_card: Any
    trump: Any
    upcard: Any
    stock: Any
    table_card: Any
    widow: Any


class Tally(NamedTuple):
    """What the scoring of a finished deal reads (every tuple by side unless said)."""

    reason: str  # "tricks" | "tute" | "vueltas" | "void" | "renuncio"
    who: int | None  # the seat that sang a tute / claimed / threw in; the side of "vueltas"
    offender: int | None  # renuncio: the revoker found, if any
    totals: tuple[int, ...]
    points: tuple[int, ...]  # card points (the widow discard counted)
    cantes: tuple[tuple[int, ...], ...]  # the cante points that count, per side
    seat_cantes: tuple[tuple[int, ...], ...]  # every cante, per seat
    last_side: int | None
    seats: int
    side_of: tuple[int, ...]  # per seat
    mano: int
    carry: tuple[int, ...] | None
    tricks_won: tuple[int, ...]  # per seat
    contract: tuple[int, int, bool] | None  # subastado: declarer, bid, taken over


class Score(NamedTuple):
    """A game's verdict on a deal (the family-specific fields of :class:`DealResult`)."""

    winner: int | None = None
    games: tuple[int, ...] = ()
    replay: bool = False
    match_won: bool = False
    running: tuple[int, ...] | None = None
    vueltas: bool = False
    losses: tuple[int, ...] | None = None
    balances: tuple[int, ...] | None = None
    made: bool | None = None


class MatchTally(NamedTuple):
    """The running score of a match before a deal is added."""

    games: tuple[int, ...]
    cotos: tuple[int, ...]
    losses: tuple[int, ...]
    balances: tuple[int, ...]
    counted: int  # deals that count towards a series (replays do not)
    played: int  # deals scored so far, this one included (thrown-in deals excluded)


class MatchStep(NamedTuple):
    """The running score after a deal and, when the match is over, (winner, reason)."""

    games: tuple[int, ...]
    cotos: tuple[int, ...]
    losses: tuple[int, ...]
    balances: tuple[int, ...]
    counted: int
    end: tuple[int | None, str] | None = None


class KernelConfig(NamedTuple):
    """The game-specific switches of the fast kernel's config (see tute.kernel)."""

    guinote_ranks: bool  # the Guiñote rank order: tute de sotas, king + sota marriages
    arrastre_cantes: bool  # declarations after a trick once the stock is gone
    cabron: bool  # cantes by the cards of a trick (no windows), trump fixed by the first
    solver_sides: bool  # the solver plays this game's card play even with more than 2 sides


class Game:
    """A game of the family: the default answers, which each family's class overrides."""

    #: the family, as in docs and records ("parejas", "stock", "arrastrado", ...)
    family: ClassVar[str] = ""
    #: a stock and an upcard (the two-player games and Guiñote)
    stock: ClassVar[bool] = False
    #: declarations after a trick when no stock is left (two-player Tute: none, §3.5)
    arrastre_cantes: ClassVar[bool] = True
    #: Guiñote: partidas make a coto
    keeps_cotos: ClassVar[bool] = False
    #: cabrón: no trump at the start; a king and caballo in one trick name it
    trump_changes: ClassVar[bool] = False
    #: the cards of a trick sing (cabrón): a king and its caballo falling in one trick are its
    #: winner's cante, and nothing is declared from a hand
    cantes_in_tricks: ClassVar[bool] = False
    #: the 7 and the 2 of trumps may take a face-up card (the upcard, arrastrado's table card)
    exchanges: ClassVar[bool] = False
    #: an auction before the first lead (subastado)
    auction: ClassVar[bool] = False
    #: the message (a key of the page's catalogue) that tells the stock is over and which
    #: duties start: clients show it, never choose it by the game's name
    stock_over_notice: ClassVar[str] = "stockOver"
    #: the explicit layout fields ``Deal.new`` accepts besides the hands
    extras: ClassVar[frozenset[str]] = frozenset()
    #: what ``tute.rl.VectorEnv``'s numba kernel does not play in this game ("": it plays
    #: all of it), for its refusal
    batch_gap: ClassVar[str] = "phases the batched kernel does not play"

    __slots__ = ("variant",)

    def __init__(self, variant: Variant):
        self.variant = variant

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.variant.id}>"

    # ---------------------------------------------------------------- the table

    def check_options(self, options: Options) -> Options:
        """Refuse (``InvalidOptionError``) a combination of options this game does not play,
        or return them with what they imply; asked once the options are resolved."""
        return options

    @property
    def trump_fixed(self) -> bool:
        """The trump suit is known from the deal on: not named by an auction (subastado's
        declarer) nor by the cards of a trick (cabrón)."""
        return not (self.auction or self.trump_changes)

    @property
    def partnerships(self) -> bool:
        return self.variant.partnerships

    def seat_count(self, options: Options) -> int:
        if "players" in self.variant.option_names:
            return options.players
        return self.variant.players

    def sides(self, options: Options) -> int:
        return 2 if self.variant.partnerships else self.seat_count(options)

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.variant.partnerships else seat

    def rating_mode(self, options: Options) -> str:
        """The pool of players this game's rated tables rate in (the server keeps one rating
        per player and mode): "parejas" for partnerships, else by the table's size: "two",
        "three", "many" (four or more each for themselves)."""
        if self.variant.partnerships:
            return "parejas"
        n = self.seat_count(options)
        return "two" if n == 2 else "three" if n == 3 else "many"

    def layout(self, options: Options) -> tuple[int, int]:
        """The pack (a card mask) and the cards dealt to each player."""
        return self.variant.deck, self.variant.hand_size

    def pack(self, options: Options) -> int:
        """Every card that may appear in a deal of this game under ``options``."""
        return self.layout(options)[0]

    def idle_seat(self, dealer: int, options: Options) -> int | None:
        """A seat dealt no cards (subastado's dealer with four at the table)."""
        return None

    def total_tricks(self, options: Options) -> int:
        return self.layout(options)[1]

    # ---------------------------------------------------------------- the deal

    def lay_out(self, rest: Sequence[int], last_dealt: int) -> Layout:
        """The layout of a shuffled deal: ``rest`` are the undealt cards in pack order,
        ``last_dealt`` the last card dealt (the dealer's)."""
        return Layout()

    def explicit(self, extras: Extras, hands: Sequence[Sequence[Any]], masks: Sequence[int],
                 dealer: int, deck: int) -> Layout:
        """The layout of an explicit deal (the extras are checked by :meth:`check_extras`)."""
        _check_pack(masks, [], deck)
        return Layout()

    def allowed_extras(self, options: Options) -> frozenset[str]:
        return self.extras

    def check_extras(self, extras: Extras, options: Options) -> None:
        given = {k for k, v in extras._asdict().items() if v is not None}
        extra = sorted(given - self.allowed_extras(options))
        if extra:
            raise TuteError(f"{', '.join(extra)} do(es) not apply to {self.variant.id}")

    def allows_carry(self, options: Options) -> bool:
        """Deals *de vueltas* (a carry of the previous totals) exist in this game."""
        return False

    def layout_json(self, layout: Layout) -> dict[str, Any]:
        """The record's ``deal`` fields besides the hands (``Deal.new``'s keywords)."""
        return {}

    def deal_extras(self, rest: Sequence[int], last_dealt: int) -> dict[str, Any]:
        """``Deal.new``'s explicit-layout keywords besides the hands, for cards dealt in pack
        order: ``rest`` undealt, ``last_dealt`` the dealer's last."""
        return self.layout_json(self.lay_out(rest, last_dealt))

    # ---------------------------------------------------------------- before the first lead

    def compulsory_exchanges(self, hands: Sequence[int], layout: Layout,
                             receivers: Sequence[int], options: Options) -> list[tuple[int, int]]:
        """Exchanges done before play without asking: (seat, the card it gives)."""
        return []

    def opening_polls(self, receivers: Sequence[int], options: Options, tute_polls: list[Poll],
                      exchange_possible: bool) -> list[Poll]:
        """The family's polls before the first lead (after the throw-in polls), given the
        polls of the seats holding a tute from the deal."""
        return tute_polls

    def opening_rights(self, receivers: Sequence[int], options: Options,
                       exchange_possible: bool) -> tuple[int, ...]:
        """The seats whose exchange right from the deal is kept for their first turn."""
        return ()

    # ---------------------------------------------------------------- play

    def exchange_target(self, face_up: int, trump: int | None, started: bool, stock_left: int,
                        options: Options) -> int | None:
        """The trump card that may take the face-up card now (None: no exchange)."""
        return None

    def exchange_open(self, stock_left: int, seats: int, options: Options) -> bool:
        """Whether an exchange is still possible at this point of the stock."""
        return True

    def trick_cantes(self, trick: tuple[int, ...], trump: int | None, order: RankOrder,
                     ) -> tuple[int | None, list[tuple[int, Declaration, int]]]:
        """Cantes made by the cards of a trick (cabrón): (trump after them, [(suit,
        declaration, points)])."""
        return trump, []

    # stock games (see games.stock): neutral answers for the others

    def turn_exchange(self, options: Options) -> int:
        """Exchanges on one's own turn while there is a stock: 0 never, 1 always, 2 once
        one's side has won a trick."""
        return 0

    def after_trick(self, winner: int, seats: int, options: Options, exchange_possible: bool,
                    last_round: bool) -> tuple[list[Poll], int, tuple[int, ...]]:
        return [], 0, ()

    def window_after_draw(self, stock_left: int, options: Options) -> bool:
        return self.arrastre_cantes

    def why_not_exchange(self, give: int, upcard: int, stock_left: int, seats: int,
                         options: Options) -> Refusal:
        return Refusal.of("no_upcard", variant=self.variant.id)

    def entitled(self, winner: int, seats: int, contract: tuple[int, int, bool] | None,
                 options: Options) -> int:
        """Mask of the seats that may declare after ``winner`` took a trick."""
        if options.cante_by == "trick_winner" or not self.variant.partnerships:
            return 1 << winner
        return (1 << winner) | (1 << ((winner + 2) % seats))

    def hides_cante(self, declaration: Declaration, stock_left: int, options: Options) -> bool:
        """Whether a cante made now is told to its singer alone: the others learn its points
        and who sang, not its suit (``Deal.events_for``, ``Deal.view``). Presentation only:
        play, legality and scores never depend on it."""
        return False

    def sole_singer(self, contract: tuple[int, int, bool] | None, options: Options) -> int:
        """The one seat whose cantes count, or -1 when anybody's may."""
        return -1

    def opponents(self, seat: int, seats: int, contract: tuple[int, int, bool] | None) -> list[int]:
        side = self.side_of(seat)
        return [s for s in range(seats) if self.side_of(s) != side]

    # ---------------------------------------------------------------- scoring and match

    def score(self, tally: Tally, options: Options) -> Score:
        """Every game's own verdict on a finished deal."""
        raise NotImplementedError

    def score_case(self, data: Mapping[str, Any], opts: Options) -> dict[str, Any]:
        """``tute score``: one deal of this game told as data (its shape: the S cases of
        docs/rule_cases*.md; the readers the games share are in :mod:`tute.games.cases`),
        answered ``{"totals": ..., "result": ...}``; a bad field raises
        :class:`tute.fields.InputError` naming it."""
        bad(f"field 'variant': scoring of {self.variant.id} is not supported")

    def void_score(self, tally: Tally, options: Options) -> Score:
        """A deal thrown in (all passed, a weak hand): nobody scores."""
        return Score(games=(0,) * len(tally.totals))

    def goal(self, options: Options) -> str:
        """The match goal in words (English; the front ends render :meth:`goal_info`)."""
        info = self.goal_info(options)
        kind, n = info["kind"], info.get("n")
        if kind == "cotos":
            return f"{info['partidas']} partidas per coto, first to {info['cotos']} cotos"
        if kind == "series":
            return f"series of {n} deals"
        if kind == "losses":
            return f"until someone loses {n} games; fewest losses wins"
        if kind == "balance_deals":
            return f"{n} deals; highest balance wins"
        if kind == "balance":
            return f"first balance to {n}"
        return f"first to {n} games"

    def goal_info(self, options: Options) -> dict[str, Any]:
        """How the match is won, as data: ``kind`` and its numbers."""
        return {"kind": "games", "n": options.games_to_win}

    def lengths(self, options: Options) -> list[dict[str, Any]]:
        """The match lengths a player may pick, ``options`` first, then shorter ones down to
        about one deal (five minutes or so): each as the option changes that make it (JSON)
        and the goal it gives (:meth:`goal_info`). Read from the goal this game really plays
        by, so a length is never offered that the match would not keep."""
        kind = self.goal_info(options)["kind"]
        out: list[dict[str, Any]] = []
        seen: list[dict[str, Any]] = []
        for change in _LENGTHS.get(kind, [{}]):
            try:
                opts = self.variant.resolve({**change}) if change else options
            except TuteError:
                continue  # a length this game's options refuse
            goal = self.goal_info(opts)
            if _LENGTH_GROUP.get(goal["kind"]) == _LENGTH_GROUP.get(kind) and goal not in seen:
                seen.append(goal)
                out.append({"options": change, "goal": goal})
        return out

    def after_deal(self, tally: MatchTally, result: DealResult, options: Options) -> MatchStep:
        """The match score after ``result`` and whether the match is over."""
        games = tuple(a + b for a, b in zip(tally.games, result.games, strict=True))
        counted = tally.counted + (0 if result.replay else 1)
        step = MatchStep(games, tally.cotos, tally.losses, tally.balances, counted)
        if result.match_won:
            return _end(step, result.winner, "tute")
        return self.games_end(step, result, options)

    def games_end(self, step: MatchStep, result: DealResult, options: Options) -> MatchStep:
        """First to ``games_to_win`` games (the default match of game-counting games)."""
        w = result.winner
        if w is not None and step.games[w] >= options.games_to_win:
            return _end(step, w, "games")
        return step

    def kernel_config(self, options: Options) -> KernelConfig:
        return KernelConfig(guinote_ranks=self.variant.order is GUINOTE,
                            arrastre_cantes=self.arrastre_cantes, cabron=False,
                            solver_sides=False)


# ---------------------------------------------------------------- capabilities
#
# What only some games have, each a mixin a game inherits beside :class:`Game` (before it, so
# that its answers come first): the deal asks these hooks only where the game's flag
# (``auction``, ``stock``) says it has them.


class AuctionRules:
    """An auction before the first lead (subastado): the bids on offer, whose turn, the
    contract, the idle dealer's takeover, the declarer's widow and trumps, the first lead."""

    __slots__ = ()
    auction: ClassVar[bool] = True

    def bids(self, auction: Any, options: Options) -> range:
        raise NotImplementedError

    def why_not_bid(self, points: int, auction: Any, options: Options) -> Refusal:
        raise NotImplementedError

    def next_bidder(self, auction: Any, seat: int, order: Sequence[int],
                    options: Options) -> int | None:
        raise NotImplementedError

    def contract(self, auction: Any, mano: int, options: Options) -> Any:
        raise NotImplementedError

    def takeover_poll(self, seats: int, dealer: int, options: Options) -> Poll | None:
        raise NotImplementedError

    def take_over(self, contract: Any, seat: int, options: Options) -> Any:
        raise NotImplementedError

    def declarer_poll(self, declarer: int, widow: int) -> Poll:
        raise NotImplementedError

    def first_leader(self, declarer: int, dealer: int, hands: Sequence[int],
                     options: Options) -> int:
        raise NotImplementedError


class StockDraw:
    """A stock and its face-up card (the stock games): after every trick each player draws."""

    __slots__ = ()
    stock: ClassVar[bool] = True

    def draw(self, stock: tuple[int, ...], hands: tuple[int, ...], known: tuple[int, ...],
             winner: int) -> tuple[tuple[int, ...], tuple[int, ...], list[tuple[int, int, bool]]]:
        """The new hands, the new public knowledge and the draws (seat, card, face up)."""
        raise NotImplementedError


class IndividualScore:
    """Each for himself, a match of lost games (to ``loss_limit``, fewest wins) or of a
    running balance (to ``match_target``, or over ``match_deals`` deals)."""

    __slots__ = ()
    #: the match counts lost games (else a balance of payments)
    counts_losses: ClassVar[bool] = True

    def goal_info(self, options: Options) -> dict[str, Any]:
        return individual_goal(options, losses=self.counts_losses)

    def after_deal(self, tally: MatchTally, result: DealResult, options: Options) -> MatchStep:
        return individual_after_deal(tally, result, options)


def _end(step: MatchStep, winner: int | None, reason: str) -> MatchStep:
    return MatchStep(step.games, step.cotos, step.losses, step.balances, step.counted,
                     (winner, reason))


def individual_after_deal(tally: MatchTally, result: DealResult, options: Options) -> MatchStep:
    """Lost games to ``loss_limit`` (fewest wins), or a running balance to ``match_target``
    or over ``match_deals`` deals (highest wins); a tie plays on."""
    step = MatchStep(tally.games, tally.cotos, tally.losses, tally.balances, tally.counted)
    if result.losses is not None:
        losses = tuple(a + b for a, b in zip(tally.losses, result.losses, strict=True))
        step = MatchStep(step.games, step.cotos, losses, step.balances, step.counted)
        low = min(losses)
        if max(losses) >= options.loss_limit and losses.count(low) == 1:
            return _end(step, losses.index(low), "losses")
    elif result.balances is not None:
        bal = tuple(a + b for a, b in zip(tally.balances, result.balances, strict=True))
        step = MatchStep(step.games, step.cotos, step.losses, bal, step.counted)
        deals = options.match_deals
        if (deals is not None and tally.played >= deals) or (
            deals is None and max(bal) >= options.match_target
        ):
            top = max(bal)
            if bal.count(top) == 1:
                return _end(step, bal.index(top), "balance")
    return step


#: the option changes tried for shorter matches, by the goal's kind (Game.lengths)
_LENGTHS: dict[str, list[dict[str, Any]]] = {
    "series": [{}, {"match": {"mode": "race", "games": 3}},
               {"match": {"mode": "series", "deals": 1}}],
    "race": [{}, {"match": {"mode": "series", "deals": 6}},
             {"match": {"mode": "series", "deals": 1}}],
    "games": [{}, {"games_to_win": 1}],
    "cotos": [{}, {"partidas_per_coto": 1, "cotos_to_win": 1}],
    "losses": [{}, {"loss_limit": 3}, {"loss_limit": 1}],
    "balance": [{}, {"match_deals": 3}, {"match_deals": 1}],
    "balance_deals": [{}, {"match_deals": 3}, {"match_deals": 1}],
}


#: goals one length control may move between (a series or a race of games; a target or a
#: number of deals): another kind means the length option was not this game's
_LENGTH_GROUP = {"series": "deals", "race": "deals", "balance": "balance",
                 "balance_deals": "balance"}
_LENGTH_GROUP.update({k: k for k in ("games", "cotos", "losses")})


def individual_goal(options: Options, losses: bool) -> dict[str, Any]:
    if losses:
        return {"kind": "losses", "n": options.loss_limit}
    if options.match_deals is not None:
        return {"kind": "balance_deals", "n": options.match_deals}
    return {"kind": "balance", "n": options.match_target}


# ---------------------------------------------------------------- layout helpers


def check_pack(masks: Sequence[int], rest: Sequence[int], deck: int) -> None:
    """Hands and the other cards laid out must hold every card of the pack exactly once."""
    _check_pack(masks, rest, deck)


def _check_pack(masks: Sequence[int], rest: Sequence[int], deck: int) -> None:
    seen = 0
    for m in masks:
        seen |= m
    for c in rest:
        if seen >> c & 1:
            raise TuteError(f"invalid deal: card {ALL_CARDS[c]} appears twice")
        if not deck >> c & 1:
            raise TuteError(f"invalid deal: card {ALL_CARDS[c]} is not in the pack")
        seen |= 1 << c
    if seen != deck:
        from ..cards import cards_of

        missing = " ".join(str(c) for c in cards_of(deck & ~seen))
        raise TuteError(f"invalid deal: cards missing from the layout: {missing}")


def card_index(text: Any) -> int:
    return parse_card(text).index


def table_target(face_up: int, trump: int | None, options: Options, *,
                 two_enabled: bool) -> int | None:
    """The trump card that takes ``face_up`` (the 7 or the 2), by the exchange rules."""
    if trump is None:
        return None
    return exchange_card(face_up, trump, two_enabled=two_enabled,
                         two_takes_four=options.two_exchanges_four)


def suit_of(index: int) -> int:
    return int(Suit(index // 10))
