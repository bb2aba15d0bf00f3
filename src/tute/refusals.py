"""Why an action is refused (:meth:`tute.deal.Deal.refusal`): the reason as a
:class:`~tute.messages.Refusal`, worked out only once an action is found illegal, so that
the legal path never pays for it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from . import auction
from .actions import Action, Claim, Exchange, Pass, Stop, ThrowIn, parse_action
from .cards import Card, CardSet, Suit, cards_of
from .errors import InvalidNotationError
from .games.base import CLAIM, THROW
from .messages import Param, Refusal
from .phase import OVER, POLL
from .rules import Declaration, declaration_cards, explain_refusals

if TYPE_CHECKING:
    from .deal import Deal


def refusal(deal: Deal, action: str | Action) -> Refusal | None:
    """None if ``action`` is legal now, else the :class:`~tute.messages.Refusal` of it."""
    try:
        act = parse_action(action)
    except InvalidNotationError as exc:
        return Refusal.of("bad_notation", text=str(action), detail=str(exc))
    if deal._phase == OVER:
        return Refusal.of("deal_over")
    seat = deal._to_move
    if act in deal.legal_actions():
        return None
    if isinstance(act, Card):
        if deal._phase == POLL:
            return Refusal.of("poll_first", seat=seat, poll=deal._queue[0].kind)
        if not act.mask & deal._hands[seat]:
            return Refusal.of("not_in_hand", card=str(act), seat=seat)
        return card_duties(deal, seat).get(act.index) or Refusal.of("not_legal_card")
    if isinstance(act, Declaration):
        return _why_not_declare(deal, seat, act)
    if isinstance(act, Exchange):
        return _why_not_exchange(deal, seat, act)
    if deal._phase == POLL:
        kind = deal._queue[0].kind
        why = auction.refusal(deal, seat, act, kind)
        if why is not None:
            return why
        if isinstance(act, ThrowIn) and kind == THROW:
            return Refusal.of("throw_in_too_strong", points=deal.options.weak_hand_max_points or 0)
        if isinstance(act, Claim) and kind == CLAIM:
            return Refusal.of("claim_no_play")
        return Refusal.of("poll_now", seat=seat, poll=kind)
    if isinstance(act, Stop):
        return Refusal.of("stop_not_now")
    if isinstance(act, Claim):
        if not deal._claim_mode:
            return Refusal.of("claim_disabled")
        return Refusal.of("claim_no_play")
    if isinstance(act, Pass):
        return Refusal.of("nothing_to_pass")
    return Refusal.of("other_moment")


def card_refusals(deal: Deal) -> dict[str, Refusal]:
    """{card: its refusal} for every card of the mover's hand that may not be played now."""
    seat = deal._to_move
    if deal._phase == OVER or seat is None:
        return {}
    legal = {a for a in deal.legal_actions() if isinstance(a, Card)}
    cards = [c for c in CardSet(deal._hands[seat]) if c not in legal]
    if not cards:
        return {}
    if deal._phase == POLL:
        poll = Refusal.of("poll_first", seat=seat, poll=deal._queue[0].kind)
        return {str(c): poll for c in cards}
    why = card_duties(deal, seat)
    return {str(c): why.get(c.index) or Refusal.of("not_legal_card") for c in cards}


def card_duties(deal: Deal, seat: int) -> dict[int, Refusal]:
    """The refusal of each card of ``seat``'s hand the duties of the trick forbid."""
    stock_phase = bool(deal._pile.cards) and deal.options.stock_phase_rule != "full"
    _, why = explain_refusals(
        deal._hands[seat], deal._trick, deal.trump, deal.order,
        phase="stock" if stock_phase else "obligated",
        stock_phase_rule=deal.options.stock_phase_rule,
        partner_winning=bool(deal._trick) and deal._partners
        and (deal._best_seat - seat) % 2 == 0,
        partner_exemption=deal._exempt, must_undertrump=deal._undertrump,
        must_head_after_ruff=deal._head_after_ruff,
    )
    return why


def _why_not_declare(deal: Deal, seat: int, decl: Declaration) -> Refusal:
    if not deal._decls(seat) and not deal._window >> seat & 1:
        if deal._trick:
            return Refusal.of("declare_before_lead")
        if not deal._completed:
            return Refusal.of("declare_needs_trick")
        if deal._game.stock and not deal._pile.cards and not deal._game.arrastre_cantes:
            return Refusal.of("declare_arrastre")
        return Refusal.of("declare_not_now", seat=seat)
    hand = deal._hands[seat]
    cards = declaration_cards(decl, deal.trump, deal.order)
    if decl.is_tute and not deal.options.tute_enabled:
        return Refusal.of("tute_disabled")
    if cards & hand != cards:
        missing = " ".join(str(c) for c in cards_of(cards & ~hand))
        return Refusal.of("declare_needs", decl=str(decl), missing=missing)
    suit = decl.marriage_suit(deal.trump)
    if suit is not None and deal._sung >> suit & 1:
        return Refusal.of("marriage_sung", suit=Suit(suit).letter)
    if decl.kind == "cuarenta" and deal._forty_lost >> seat & 1:
        return Refusal.of("forty_lost")
    if decl.kind == "veinte" and deal.options.forty_first == "enforce":
        return Refusal.of("forty_first")
    return Refusal.of("declare_unavailable", decl=str(decl))


def _why_not_exchange(deal: Deal, seat: int, act: Exchange) -> Refusal:
    game = deal._game
    pile = deal._pile
    if not game.stock:
        return game.why_not_exchange(act.card.index, -1, 0, deal._n, deal.options)
    if not pile.cards:
        return Refusal.of("stock_exhausted")
    if not act.card.mask & deal._hands[seat]:
        return Refusal.of("not_in_hand", card=str(act.card), seat=seat)
    return game.why_not_exchange(act.card.index, pile.upcard, len(pile.cards), deal._n,
                                 deal.options)


# The duties a trick lays on the seat to move, as its refusals tell them, strongest first.
_DUTIES = (("must_beat", "beat"), ("must_follow", "follow"), ("must_answer_trump", "follow"),
           ("must_overtrump", "overtrump"), ("must_trump", "trump"), ("must_play_trump", "trump"))


def duty(deal: Deal, refused: Mapping[str, Refusal]) -> tuple[str, dict[str, Param]] | None:
    """The one duty the seat to move plays under now, from its ``refused`` cards
    (:func:`card_refusals`, which know it already): ``lead`` (it leads: any card), ``free``
    (any card: no duty binds it), ``follow`` (``suit``: asistir), ``beat`` (the led suit above
    ``card``: montar), ``trump`` (``suit`` led, none held: fallar with ``trump``), ``overtrump``
    (a trump above ``card``); None when no card may be played now."""
    if deal._phase == OVER or deal._phase == POLL or deal._to_move is None:
        return None
    if not any(isinstance(a, Card) for a in deal.legal_actions()):
        return None
    if not deal._trick:
        return "lead", {}
    why = {r.code: r.params for r in refused.values()}
    for code, name in _DUTIES:
        if code not in why:
            continue
        params = why[code]
        if name == "follow":
            return name, {"suit": params["suit"]}
        if name == "trump":
            return name, {"suit": Suit(deal._trick[0] // 10).letter,
                          "trump": Suit(deal.trump or 0).letter}
        return name, {"card": params["card"]}
    return "free", {}
