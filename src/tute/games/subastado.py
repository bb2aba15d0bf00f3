"""Tute subastado (rules.md §5): three active players (four at the table with the dealer
sitting out), 36 cards or 40 with a widow card; an auction, the idle dealer's takeover, the
widow's discard and the declarer's choice of trumps before the first lead; the declarer plays
alone against the others and is paid, or pays, the stake."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import ALL_CARDS, DECK_36, DECK_40, parse_card, parse_suit
from ..errors import TuteError
from ..fields import bad, field, quote, read_bool, read_int, read_seat
from ..messages import Refusal
from ..scoring import settle_subastado
from ..variants import MOST_POINTS, Options
from .base import (
    BID,
    DISCARD,
    TAKEOVER,
    TRUMP,
    AuctionRules,
    Extras,
    Game,
    IndividualScore,
    Layout,
    Poll,
    Score,
    Tally,
    check_pack,
)
from .cases import party

MAX_BID = MOST_POINTS  # 120 in cards + 10 + every cante: no higher total exists
#: bid, bidder, passed seats (mask), seats that have spoken (mask)
Auction = tuple[int, int, int, int]
#: declarer, bid, taken over
Contract = tuple[int, int, bool]
NEW_AUCTION: Auction = (0, -1, 0, 0)


class Subastado(AuctionRules, IndividualScore, Game):
    __slots__ = ()
    family = "subastado"
    batch_gap = "the auction and the contract"
    extras = frozenset({"widow"})
    counts_losses = False  # a balance of payments

    def seat_count(self, options: Options) -> int:
        return options.seats  # with 4 at the table the dealer sits the deal out

    def layout(self, options: Options) -> tuple[int, int]:
        return (DECK_40, 13) if options.widow_card else (DECK_36, 12)

    def idle_seat(self, dealer: int, options: Options) -> int | None:
        return dealer if options.seats == 4 else None

    def lay_out(self, rest: Sequence[int], last_dealt: int) -> Layout:
        return Layout(widow=rest[0] if rest else -1)

    def explicit(self, extras: Extras, hands: Sequence[Sequence[Any]], masks: Sequence[int],
                 dealer: int, deck: int) -> Layout:
        rest = [] if extras.widow is None else [parse_card(extras.widow).index]
        check_pack(masks, rest, deck)
        return self.lay_out(rest, -1)

    def layout_json(self, layout: Layout) -> dict[str, Any]:
        return {} if layout.widow < 0 else {"widow": str(ALL_CARDS[layout.widow])}

    def opening_polls(self, receivers: Sequence[int], options: Options, tute_polls: list[Poll],
                      exchange_possible: bool) -> list[Poll]:
        return [Poll(receivers[0], BID)]  # mano speaks first; no dealt tute here

    # ---------------------------------------------------------------- the auction

    @staticmethod
    def bids(auction: Auction, options: Options) -> range:
        step, low = options.bid_step, options.min_bid
        current = auction[0]
        start = max(low, current + step) if current else low
        start += -start % step
        return range(start, MAX_BID + 1, step)

    @staticmethod
    def why_not_bid(points: int, auction: Auction, options: Options) -> Refusal:
        current = auction[0]
        if points < options.min_bid:
            return Refusal.of("bid_below_min", bid=points, minimum=options.min_bid)
        if points % options.bid_step:
            return Refusal.of("bid_not_multiple", bid=points, step=options.bid_step)
        if current and points <= current:
            return Refusal.of("bid_not_higher", bid=points, current=current)
        return Refusal.of("bid_above_max", bid=points, maximum=MAX_BID)

    @staticmethod
    def next_bidder(auction: Auction, seat: int, order: Sequence[int],
                    options: Options) -> int | None:
        """Next speaker after ``seat`` (None: the auction is closed). Single round: each
        active player once, dealer last; open: round and round until all but one passed."""
        _bid, bidder, passed, spoken = auction
        if options.auction_rounds == "single":
            waiting = [s for s in order if not spoken >> s & 1]
        else:
            start = list(order).index(seat) + 1
            waiting = [s for s in [*order[start:], *order[:start]]
                       if not passed >> s & 1 and s != bidder]
            if bidder < 0 and all(passed >> s & 1 for s in order):
                waiting = []
        return waiting[0] if waiting else None

    @staticmethod
    def contract(auction: Auction, mano: int, options: Options) -> Contract | None:
        """The contract of a closed auction; None when all passed and the deal is redealt."""
        bid, bidder = auction[0], auction[1]
        if bidder < 0:
            if options.all_pass == "redeal":
                return None
            bid, bidder = options.min_bid, mano
        return bidder, bid, False

    @staticmethod
    def takeover_poll(seats: int, dealer: int, options: Options) -> Poll | None:
        return Poll(dealer, TAKEOVER) if seats == 4 and options.dealer_takeover else None

    @staticmethod
    def take_over(contract: Contract, seat: int, options: Options) -> Contract:
        """The idle dealer plays the top bidder's cards, promising bid + increment."""
        return seat, contract[1] + options.takeover_increment, True

    @staticmethod
    def declarer_poll(declarer: int, widow: int) -> Poll:
        """With a widow the declarer takes it and puts a card aside, then names trumps."""
        return Poll(declarer, DISCARD if widow >= 0 else TRUMP)

    @staticmethod
    def first_leader(declarer: int, dealer: int, hands: Sequence[int], options: Options) -> int:
        if options.declarer_leads:
            return declarer
        n = len(hands)  # mano: the first active seat to the dealer's right
        return next(s for s in ((dealer + 1 + k) % n for k in range(n)) if hands[s])

    # ---------------------------------------------------------------- play

    def entitled(self, winner: int, seats: int, contract: Contract | None,
                 options: Options) -> int:
        declarer = contract[0] if contract else -1
        if options.cantes_declarer_only and winner != declarer:
            return 0
        return 1 << winner

    def sole_singer(self, contract: Contract | None, options: Options) -> int:
        if contract is not None and options.cantes_declarer_only:
            return contract[0]
        return -1

    def opponents(self, seat: int, seats: int, contract: Contract | None) -> list[int]:
        if contract is None:
            return super().opponents(seat, seats, contract)
        declarer = contract[0]
        if seat == declarer:
            return [s for s in range(seats) if s != seat]
        return [declarer]

    # ---------------------------------------------------------------- scoring and match

    def score(self, tally: Tally, options: Options) -> Score:
        assert tally.contract is not None
        declarer, bid, takeover = tally.contract
        if tally.reason == "tute":
            made = tally.who == declarer
        elif tally.reason == "renuncio":
            assert tally.who is not None
            guilty = tally.offender if tally.offender is not None else tally.who
            made = guilty != declarer
        else:
            made = tally.totals[declarer] >= bid
        people = list(range(tally.seats))
        _ok, pay = settle_subastado(declarer, bid, bid if made else -1, options,
                                    people=people, takeover=takeover)
        if options.settlement == "points":
            pay = {p: 0 for p in people}
            pay[declarer] = bid if made else -bid
        return Score(winner=declarer if made else None, games=(0,) * tally.seats,
                     balances=tuple(pay[p] for p in people), made=made)

    def score_case(self, data: Mapping[str, Any], opts: Options) -> dict[str, Any]:
        """``tute score``: the contract, the declarer's deal (or total), the idle dealer and a
        takeover; whether the contract was made and the payments."""
        if opts.settlement != "payments":
            bad("field 'options': settlement='points' has no per-deal formula in the rule book; "
                "tute score settles payments only")
        people = opts.seats
        contract = field(data, "contract")
        if not isinstance(contract, dict):
            bad(f"field 'contract': expected {{declarer, bid, trump}}, got {quote(contract)}")
        for key in ("declarer", "bid"):
            if key not in contract:
                bad(f"field 'contract.{key}': missing")
        declarer = read_seat(contract["declarer"], "contract.declarer", people)
        bid = read_int(contract["bid"], "contract.bid", opts.min_bid)
        if contract.get("trump") is not None:
            try:
                parse_suit(contract["trump"])
            except TuteError as exc:
                bad(f"field 'contract.trump': {exc}")
        takeover = read_bool(data.get("takeover", False), "takeover")
        idle: int | None = None
        if people == 4:
            idle = read_seat(data.get("idle_dealer", 3), "idle_dealer", 4)
            if takeover and declarer != idle:
                bad(f"field 'contract.declarer': with a takeover the idle dealer (seat{idle}) "
                    "is the declarer")
            if not takeover and declarer == idle:
                bad(f"field 'contract.declarer': seat{idle} is the idle dealer and sits out "
                    "unless it takes over ('takeover': true)")
        else:
            if "idle_dealer" in data:
                bad("field 'idle_dealer': only with options.seats = 4")
            if takeover:
                bad("field 'takeover': only the idle dealer of a 4-person table (seats = 4) "
                    "can take over")
        if takeover and not opts.dealer_takeover:
            bad("field 'takeover': the option dealer_takeover is off")
        if not takeover and bid % opts.bid_step:
            bad(f"field 'contract.bid': {bid} is not a multiple of bid_step {opts.bid_step}")
        total: int | None = None
        if "declarer" in data:
            p = party(f"seat{declarer}", data["declarer"], "declarer")
            if p.cantes.count(40) > 1 or p.cantes.count(20) > 3:
                bad(f"field 'declarer.cantes': {list(p.cantes)} is not possible in one deal")
            total = p.total()
        if "declarer_total" in data:
            given = read_int(data["declarer_total"], "declarer_total", 0, 230)
            if total is not None and total != given:
                bad(f"field 'declarer_total': {given} but card points + cantes + last trick "
                    f"give {total}")
            total = given
        if total is None:
            bad("missing field 'declarer' (card_points, cantes, last_trick) or 'declarer_total'")
        made, balance = settle_subastado(declarer, bid, total, opts, people=range(people),
                                         takeover=takeover)
        return {"totals": {f"seat{declarer}": total},
                "result": {"made": made,
                           "balances": {f"seat{s}": v for s, v in sorted(balance.items())}}}
