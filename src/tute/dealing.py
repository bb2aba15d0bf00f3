"""Setting up a deal (:meth:`tute.deal.Deal.new`): the seed's shuffle dealt in packets, or
explicit hands checked; the fixed facts of the deal; the state before the first action, with
the polls asked before the first lead."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from . import auction, stockpile
from .cards import ALL_CARDS, Card, Suit, parse_card
from .errors import TuteError
from .games import Game, game_for
from .games.base import THROW, TUTE, Extras, Layout, Poll
from .phase import PLAY, POLL
from .records import TRACE_RIGHTS
from .shuffle import MAX_SEED, derive_seed, new_seed, shuffled
from .variants import Options, Variant, find_variant

if TYPE_CHECKING:
    from .deal import Deal

_DEALER_SEED_INDEX: Final = 1_000_003
_PACKS: dict[int, tuple[int, ...]] = {}  # a pack's mask -> its card indices, in index order


def new_deal(
    cls: type[Deal],
    variant: str | Variant,
    seed: int | None,
    dealer: int | None,
    options: Mapping[str, Any] | Options | None,
    extras: Extras,
    hands: Sequence[Sequence[str | Card]] | None,
    carry: Sequence[int] | None,
) -> Deal:
    """:meth:`Deal.new`, whose arguments it takes (the explicit layout's as ``extras``)."""
    var = find_variant(variant)
    game = game_for(var)
    opts = var.resolve(options)
    n = game.seat_count(opts)
    if seed is not None and (
        isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED
    ):
        raise TuteError(f"invalid seed {seed!r}: expected an integer 0..2**64-1")
    if hands is None and seed is None:
        seed = new_seed()
    if dealer is None:
        dealer = derive_seed(seed or 0, _DEALER_SEED_INDEX) % n
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
        raise TuteError(f"invalid dealer {dealer!r}: expected a seat 0..{n - 1}")
    deck, size = game.layout(opts)
    # seats that receive cards, in dealing order from mano
    idle = game.idle_seat(dealer, opts)
    receivers = [s for s in ((dealer + 1 + k) % n for k in range(n)) if s != idle]
    deal = blank(cls, var, game, opts, n, dealer, receivers[0], seed)
    if carry is not None:
        if not game.allows_carry(opts):
            raise TuteError(f"carry (de vueltas) does not apply to {var.id}")
        if not isinstance(carry, Sequence) or len(carry) != deal._sides or any(
            isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in carry
        ):
            raise TuteError(f"invalid carry {carry!r}: one non-negative total per side")
        deal.carry = tuple(carry)
    if hands is None:
        if any(x is not None for x in extras):
            raise TuteError("trump_card, trump, upcard, stock, table_card and widow go with "
                            "explicit hands")
        assert seed is not None
        order = shuffled(seed, pack_indices(deck))
        masks = deal_out(order, n, receivers, opts.deal_packet, size)
        dealt = len(receivers) * size
        layout = game.lay_out(order[dealt:], order[dealt - 1])
    else:
        masks = check_hands(hands, n, deck, size, var, idle)
        layout = game.explicit(extras, hands, masks, dealer, deck)
        game.check_extras(extras, opts)
        if seed is not None:  # both given: they must describe the same deal
            seeded = cls.new(var, seed=seed, dealer=dealer, options=opts, carry=carry)
            if seeded._initial_hands != tuple(masks) or seeded._layout != layout:
                raise TuteError(f"invalid deal: the hands given are not the deal of seed "
                                f"{seed}; give one or the other")
    deal._initial_hands = deal._hands = tuple(masks)
    start(deal, receivers, layout)
    return deal


def blank(cls: type[Deal], var: Variant, game: Game, opts: Options, n: int, dealer: int,
          mano: int, seed: int | None) -> Deal:
    """A deal with its fixed facts set, before the cards."""
    deal = object.__new__(cls)
    deal.variant = var
    deal.options = opts
    deal.order = var.order
    deal._game = game
    deal._n = n
    deal._sides = game.sides(opts)
    deal._partners = var.partnerships
    deal.dealer = dealer
    deal.mano = mano
    deal.seed = seed
    deal.carry = None
    deal.total_tricks = game.total_tricks(opts)
    deal._exempt = opts.partner_exemption and var.partnerships
    deal._undertrump = opts.must_undertrump
    deal._head_after_ruff = opts.must_head_after_ruff
    deal._higher = var.order.higher
    deal._points_table = var.order.points
    deal._claim_mode = opts.renuncio_mode == "claim"
    deal._turn_exchange = game.turn_exchange(opts)
    deal._stock_rule = opts.stock_phase_rule
    deal._trick_cantes_on = game.trump_changes
    return deal


def start(deal: Deal, receivers: list[int], layout: Layout) -> None:
    """The state before the first action: nothing played, the opening polls queued."""
    n = deal._n
    game = deal._game
    opts = deal.options
    deal._layout = layout
    deal._turn_extras = bool(deal._turn_exchange) or deal._claim_mode or (
        deal.carry is not None and opts.vueltas_claim == "manual")
    deal.trump_card = None if layout.trump_card < 0 else ALL_CARDS[layout.trump_card]
    deal.trump = None if layout.trump is None else Suit(layout.trump)
    deal._pile = stockpile.dealt(layout)
    deal._auction = auction.opening(layout.widow) if game.auction else None
    deal._set_order(receivers)
    deal._trick = ()
    deal._leader = deal._to_move = deal.mano
    deal._best = deal._best_seat = -1
    deal._ruffed = False
    deal._points = (0,) * deal._sides
    deal._tricks_won = (0,) * n
    deal._completed = ()
    deal._cantes = ()
    deal._hidden = 0
    deal._sung = deal._forty_lost = 0
    deal._window = deal._window_seats = 0
    deal._window_declared = False
    deal._side_first = deal._side_forfeit = 0
    deal._phase = PLAY
    deal._result = None
    deal._queue = ()
    deal._trace = [] if TRACE_RIGHTS.get() else None
    deal._played = 0
    deal._revokes = ()
    deal._void = ""
    known = [0] * n
    if layout.turned and deal.trump_card is not None:
        known[deal.dealer] = deal.trump_card.mask  # turned for all to see
    deal._known = tuple(known)
    deal._actions = []
    deal._events = []
    deal._undo = []
    deal._legal_cache = -1
    deal._records = ((), ())
    for seat, give in game.compulsory_exchanges(deal._hands, layout, receivers, opts):
        stockpile.swap_table(deal, seat, give)
    queue: list[Poll] = []
    if opts.weak_hand_max_points is not None:
        queue.extend(Poll(s, THROW) for s in receivers)
    tutes = []
    if opts.tute_dealt_wins_immediately and opts.tute_enabled:
        tutes = [Poll(s, TUTE) for s in receivers
                 if any(d.is_tute for d in deal._available(s))]
    face_up = layout.stock or layout.table_card >= 0  # something an exchange could take
    possible = bool(face_up) and stockpile.exchange_public(deal)
    queue.extend(game.opening_polls(receivers, opts, tutes, possible))
    due = stockpile.kept_rights(deal, game.opening_rights(receivers, opts, possible))
    if due:
        pile = deal._pile
        deal._pile = stockpile.Stock(pile.cards, pile.upcard, pile.pending, pile.table_card,
                                     pile.exchanges, due)
    if queue:
        deal._queue = tuple(queue)
        deal._phase = POLL
        deal._to_move = queue[0].seat


def pack_indices(deck: int) -> tuple[int, ...]:
    """The cards of the pack ``deck`` as indices, the order a seed shuffles (built once per
    pack: random playouts create a deal every few hundred microseconds)."""
    cards = _PACKS.get(deck)
    if cards is None:
        cards = _PACKS[deck] = tuple(c.index for c in ALL_CARDS if c.mask & deck)
    return cards


def deal_out(order: list[int], n: int, receivers: list[int], packet: int,
             hand_size: int) -> list[int]:
    """Deal packets counter-clockwise from mano to the seats that receive cards."""
    masks = [0] * n
    k = len(receivers)
    if packet == 1:  # one card at a time: seat i of the round gets every k-th card
        for i, seat in enumerate(receivers):
            m = 0
            for c in order[i:k * hand_size:k]:
                m |= 1 << c
            masks[seat] = m
        return masks
    pos = 0
    k = 0
    total = len(receivers) * hand_size
    while pos < total:
        seat = receivers[k % len(receivers)]
        take = min(packet, hand_size - masks[seat].bit_count())
        for c in order[pos:pos + take]:
            masks[seat] |= 1 << c
        pos += take
        k += 1
    return masks


def check_hands(hands: Sequence[Sequence[str | Card]], n: int, deck: int, size: int,
                var: Variant, idle: int | None) -> list[int]:
    """The masks of explicit ``hands``, checked: one per seat, each card once, in the
    pack, as many as the game deals (none to a seat that sits out)."""
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
            if not card.mask & deck:
                raise TuteError(f"invalid hands: card {card} is not in the {var.id} pack")
            seen |= card.mask
            mask |= card.mask
        want = 0 if seat == idle else size
        if mask.bit_count() != want:
            raise TuteError(
                f"invalid hands: seat {seat} holds {mask.bit_count()} cards, expected {want}"
            )
        masks.append(mask)
    return masks
