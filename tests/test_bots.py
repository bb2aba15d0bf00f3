"""Bots: the registry and levels, legality over many deals of every playable variant, the
rules bot's inferences and habits, and the proof that no bot can reach hidden cards."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

import tute
import tute.match
from tute import Card, CardSet, Deal
from tute.bots import BOTS, LEVELS, Bot, RulesBot, make_bot
from tute.bots.rules_bot import _Knowledge, _table, estimate_contract
from tute.cards import TUTE
from tute.shuffle import derive_seed

PLAYABLE = list(tute.VARIANTS)


def test_rules_bot_is_registered_with_levels() -> None:
    assert "rules" in BOTS and "random" in BOTS
    # random-ish, the rules bot, the search bot at about a second, a stronger search
    assert LEVELS["facil"] == ("rules", {"noise": 0.5})
    assert LEVELS["medio"][0] == "rules"
    assert LEVELS["dificil"][0] == "pimc" and LEVELS["dificil"][1]["move_time"] == 1.0
    assert LEVELS["maestro"][0] == "pimc" and LEVELS["maestro"][1]["move_time"] > 1.0
    assert isinstance(make_bot("medio"), RulesBot)
    assert isinstance(make_bot("Difícil"), Bot)
    with pytest.raises(tute.TuteError, match="valid bots"):
        make_bot("nobody")


def test_a_setting_split_off_by_a_comma_is_explained() -> None:
    """``tute arena pimc:move_time=1,tt_mb=32,rules`` makes a bot of ``tt_mb=32``: the error
    says how one bot's settings are joined."""
    with pytest.raises(tute.TuteError, match=r"joined by ':'.*valid bots"):
        make_bot("tt_mb=32")
    with pytest.raises(tute.TuteError) as plain:
        make_bot("nobody")
    assert "joined" not in str(plain.value)


def _play(variant: str, seed: int, names: list[str]) -> Deal:
    deal = Deal.new(variant, seed=seed)
    bots = [make_bot(names[s % len(names)], seed=seed * 10 + s) for s in range(deal.seats)]
    while not deal.is_over():
        seat = deal.to_move
        assert seat is not None
        view = deal.view(seat)
        action = bots[seat].choose(view, view.legal_actions)
        assert action in view.legal_actions, (variant, seed, str(action))
        deal.apply(action)  # raises IllegalActionError on an illegal action
    return deal


LINEUPS = [["rules"], ["rules", "random"], ["random", "rules"]]


@pytest.mark.parametrize("variant", PLAYABLE)
def test_bots_finish_deals_legally(variant: str) -> None:
    # ~1000 deals in all over the playable variants (200 each for five variants)
    per_variant = max(1, 1000 // len(PLAYABLE))
    for i in range(per_variant):
        deal = _play(variant, derive_seed(11, i), LINEUPS[i % len(LINEUPS)])
        res = deal.result()
        assert res.reason != "tricks" or sum(res.card_points) == 120


@pytest.mark.slow
@pytest.mark.parametrize("variant", PLAYABLE)
def test_bots_finish_many_deals_legally(variant: str) -> None:
    for i in range(3000):
        _play(variant, derive_seed(12, i), LINEUPS[i % len(LINEUPS)])


@pytest.mark.parametrize("variant", PLAYABLE)
def test_rules_bot_finishes_matches(variant: str) -> None:
    match = tute.match.Match.new(variant, seed=3)
    bots = [make_bot("rules", seed=s) for s in range(match.deal.seats)]
    while not match.is_over():
        seat = match.to_move
        assert seat is not None
        view = match.deal.view(seat)
        match.apply(bots[seat].choose(view, view.legal_actions))
    res = match.result()
    # gana-pierde and cabrero: players tied for the fewest lost games share the win
    shared = res.reason == "losses" and res.losses.count(min(res.losses)) > 1
    assert (res.winner is None) == shared


# ---------------------------------------------------------------------------------------------
# No hidden information


def _objects(obj: Any, seen: set[int] | None = None) -> list[Any]:
    """Every object reachable from a view through its fields and containers."""
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return []
    seen.add(id(obj))
    out = [obj]
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            out += _objects(getattr(obj, f.name), seen)
    elif isinstance(obj, (tuple, list, set, frozenset)):
        for x in obj:
            out += _objects(x, seen)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            out += _objects(k, seen) + _objects(v, seen)
    elif hasattr(obj, "__dict__"):
        for v in vars(obj).values():
            out += _objects(v, seen)
    return out


@pytest.mark.parametrize("variant", PLAYABLE)
def test_view_holds_no_reference_to_the_deal(variant: str) -> None:
    deal = Deal.new(variant, seed=5)
    for _ in range(7):  # the last legal action: a card, or a bid rather than a pass
        deal.apply(deal.legal_actions()[-1])
    for seat in range(deal.seats):
        view = deal.view(seat)
        reachable = _objects(view)
        assert not any(isinstance(o, Deal) for o in reachable)
        # the only hand in the view is the seat's own
        others = 0
        for s in range(deal.seats):
            if s != seat:
                others |= deal.hand(s).mask & ~view.known[s].mask
        for o in reachable:
            if isinstance(o, CardSet) and o is not view.unseen:
                assert not o.mask & others or o == view.played or o == ~view.hand, o
            if isinstance(o, Card) and o.mask & others:
                pytest.fail(f"hidden card {o} reachable from seat {seat}'s view")


def _layout(deal: Deal) -> dict[str, Any]:
    return deal.to_record()["deal"]


def _rebuild(deal: Deal, swap: dict[str, str]) -> Deal | None:
    """The same deal with hidden cards renamed by ``swap`` in the initial layout, and the
    same actions replayed; None if the history is no longer legal with those hands."""
    rec = deal.to_record()
    lay = rec["deal"]

    def ren(c: Any) -> Any:
        if isinstance(c, list):
            return [ren(x) for x in c]
        return swap.get(c, c) if isinstance(c, str) else c

    hands = ren(lay["hands"])
    kw = {k: ren(v) for k, v in lay.items() if k != "hands"}
    try:
        other = Deal.new(deal.variant, dealer=deal.dealer, options=deal.options, hands=hands,
                         **kw)
        for a in deal.actions:
            other.apply(a)
    except tute.TuteError:
        return None
    return other


@pytest.mark.parametrize("variant", PLAYABLE)
def test_bot_decisions_ignore_how_hidden_cards_lie(variant: str) -> None:
    """Exchanging hidden cards between other hands and the stock, consistently with everything
    the seat saw, leaves its view and the rules bot's decision unchanged."""
    rng = random.Random(1)
    checked = 0
    for k in range(6):
        deal = Deal.new(variant, seed=100 + k)
        bot_a, bot_b = make_bot("rules", seed=1), make_bot("rules", seed=1)
        steps = rng.randrange(3, 25)
        for _ in range(steps):
            if deal.is_over():
                break
            deal.apply(deal.legal_actions()[rng.randrange(len(deal.legal_actions()))])
        if deal.is_over():
            continue
        seat = deal.to_move
        assert seat is not None
        view = deal.view(seat)
        known = 0  # seen by this seat: known cards, exchanged cards, the table card
        for kc in view.known:
            known |= kc.mask
        for _s, given, taken in view.exchanges:
            known |= given.mask | taken.mask
        table_card = getattr(view, "table_card", None)
        if table_card is not None:
            known |= table_card.mask
        hidden = [str(c) for c in view.unseen if not c.mask & known]
        for _ in range(30):
            if len(hidden) < 2:
                break
            a, b = rng.sample(hidden, 2)
            other = _rebuild(deal, {a: b, b: a})
            if other is None or other.to_move != seat:
                continue
            if [h.mask for h in other.hands] == [h.mask for h in deal.hands] and (
                    not deal.variant.stock):
                continue
            view2 = other.view(seat)
            assert view2.to_json() == view.to_json()
            assert bot_a.choose(view, view.legal_actions) == bot_b.choose(
                view2, view2.legal_actions)
            checked += 1
    assert checked >= 5


# ---------------------------------------------------------------------------------------------
# The rules bot's reasoning


def _parejas(hands: list[str], dealer: int = 3) -> Deal:
    return Deal.new("tute_parejas", dealer=dealer, hands=[h.split() for h in hands],
                    trump_card=hands[dealer].split()[-1])


HANDS = [
    "Ao 3o Ro Co So 7o 6o 5o 4o 2o",  # seat 0: all oros
    "Ac 3c Rc Cc Sc 7c 6c 5c 4c 2c",  # seat 1: all copas
    "Ae 3e Re Ce Se 7e 6e 5e 4e 2e",  # seat 2: all espadas
    "Ab 3b Rb Cb Sb 7b 6b 5b 4b 2b",  # seat 3 (dealer): all bastos, trump 2b
]


def test_inference_voids_and_no_trumps() -> None:
    deal = _parejas(HANDS)
    deal.apply("2o")  # seat 0 leads oros
    deal.apply("2c")  # seat 1 is void in oros and, not trumping, holds no bastos
    view = deal.view(2)
    k = _Knowledge(view, _table(view.variant, view.options, view.seats))
    oros = CardSet(c for c in tute.ALL_CARDS if c.suit == tute.Suit.OROS).mask
    bastos = CardSet(c for c in tute.ALL_CARDS if c.suit == tute.Suit.BASTOS).mask
    assert k.excluded[1] & oros == oros
    assert k.excluded[1] & bastos == bastos
    assert k.p_any(1, oros) == 0.0


def test_inference_holds_no_higher_card() -> None:
    hands = [
        "Ao 3o 2o Rc Cc Sc 7c 6c 5c 4c",
        "Ro 4o Ae 3e Re Ce Se 7e 6e 5e",
        "Co 5o 4e 2e Ab 3b Rb Cb Sb 7b",
        "So 7o 6o Ac 3c 2c 6b 5b 4b 2b",
    ]
    deal = _parejas(hands)
    deal.apply("3o")  # seat 0 leads the 3 of oros
    deal.apply("4o")  # seat 1 follows without heading: it holds no Ao
    view = deal.view(2)
    k = _Knowledge(view, _table(view.variant, view.options, view.seats))
    ace = Card.parse("Ao")
    # the Ao is in seat 0's hand, not seen by seat 2; seat 1 cannot hold it
    assert k.excluded[1] & ace.mask
    assert k.probs[1][ace.index] == 0.0


def test_cargar_on_a_sure_partner_trick() -> None:
    hands = [
        "Ao 2c 4c 5c 6c 7c Sc Cc Rc 3e",
        "3o 2e 4e 5e 6e 7e Se Ce Re Ae",
        "2o 4o 3c Ac 2b 4b 5b 6b 7b Sb",
        "5o 6o 7o So Co Ro Cb Rb 3b Ab",
    ]
    deal = _parejas(hands)  # trumps: bastos (Ab turned)
    deal.apply("Ao")  # seat 0 leads the ace of oros: nobody can beat it except by trumping
    deal.apply("3o")  # seat 1 must head if possible; it cannot, plays 3o
    # seat 2 must follow oros: 2o or 4o; nothing to smear here, so it plays a small oros
    view = deal.view(2)
    choice = RulesBot(seed=0).choose(view, view.legal_actions)
    assert str(choice) in ("2o", "4o")


def test_smears_points_when_partner_holds_the_trick() -> None:
    # seat 2 is void in the suit led and trumps-free, partner (seat 0) wins with the master ace
    hands = [
        "Ae 2c 4c 5c 6c 7c Sc Cc Rc 4o",
        "2e 4e 5e 6e 7e Se Ce Re 3e 5o",
        "3c Ac 3o 2o 6o 7o So Co Ro Ao",
        "Ab 3b Rb Cb Sb 7b 6b 5b 4b 2b",
    ]
    deal = _parejas(hands)  # trumps: bastos; seat 3 holds them all
    deal.apply("Ae")
    deal.apply("3e")
    view = deal.view(2)  # void in espadas, no trumps; seat 3 (to play after) has no espadas
    choice = RulesBot(seed=0).choose(view, view.legal_actions)
    # seat 3 will trump (it holds only bastos), so the trick is lost: throw nothing of value
    assert tute.TUTE.points[choice.index] == 0  # type: ignore[union-attr]


def test_declares_at_once_and_takes_the_upcard() -> None:
    bot = RulesBot(seed=0)
    deal = Deal.new("tute_2p_habanero", seed=1)
    seen_decl = seen_exchange = False
    for i in range(300):
        deal = Deal.new("tute_2p_habanero", seed=i)
        while not deal.is_over():
            seat = deal.to_move
            assert seat is not None
            view = deal.view(seat)
            acts = view.legal_actions
            choice = bot.choose(view, acts)
            decls = [a for a in acts if isinstance(a, tute.Declaration)]
            exch = [a for a in acts if str(a).startswith("cambio:")]
            if decls:
                assert choice == decls[0]
                seen_decl = True
            elif exch:
                assert choice == exch[0]
                seen_exchange = True
            deal.apply(choice)
        if seen_decl and seen_exchange:
            break
    assert seen_decl and seen_exchange


def test_other_actions_fall_back_sensibly() -> None:
    from tute.bots.rules_bot import _other_action

    view = Deal.new("tute_parejas", seed=2).view(0)
    strong = CardSet.parse("Ao 3o Ro Co So 7o Ac Rc Cc Ab")
    assert estimate_contract(strong.mask, TUTE, 0) > estimate_contract(strong.mask, TUTE, 2)

    class Fake:
        def __init__(self, text: str):
            self.text = text

        def __str__(self) -> str:
            return self.text

    acts: list[Any] = [Fake("triunfo:o"), Fake("triunfo:c"), Fake("triunfo:e"), Fake("triunfo:b")]
    picked = _other_action(view, acts)
    assert str(picked).startswith("triunfo:")
    bids: list[Any] = [Fake("pass"), Fake("bid:60"), Fake("bid:300")]
    assert str(_other_action(view, bids)) in ("pass", "bid:60")


def test_a_plugin_bot_is_loaded_when_asked_for_or_named_as_missing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Bots of an optional library (PLUGINS) are imported on first use; without the library
    the error names what to install; unknown names list them among the valid bots."""
    from tute.bots import base

    monkeypatch.setitem(base.PLUGINS, "ghost_bot", ("tute_no_such_module", "the ghost extra"))
    with pytest.raises(tute.TuteError, match=r"bot .ghost_bot. needs the ghost extra"):
        make_bot("ghost_bot")
    with pytest.raises(tute.TuteError, match="openspiel_ismcts"):
        make_bot("nobody")
