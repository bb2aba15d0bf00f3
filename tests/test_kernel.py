"""The numba kernel against the pure-Python core (the reference).

Two differential tests: (1) random card-play states, 100,000 per kernel configuration (20,000
for a variant with the configuration of another), compare legal cards
(every §1.4 flag), trick winners, card points and declarations with ``tute.rules``;
(2) whole random deals through ``tute.Deal`` with the kernel's state machine replaying them,
compare legal actions (declarations and passes included), states and final margins.
``bench/kernel_differential.py`` runs (1) with 10^6 states per variant.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import tute
from tute import kernel as K
from tute.cards import GUINOTE, TUTE
from tute.kernel import _tables as T
from tute.rules import available_declarations, legal_mask, trick_winner

pytest.importorskip("numba")

VARIANTS = tuple(tute.VARIANTS)  # every game of the registry: a new one is checked here too
STOCK_RULES = ("free", "follow_trump_lead", "follow_suit", "full")
FORTY = ("enforce", "forfeit", "off")
DECL_NAMES = {0: "cuarenta", 1: "veinte:o", 2: "veinte:c", 3: "veinte:e", 4: "veinte:b",
              5: "tute_reyes", 6: None}


def random_states(variant: str, count: int, seed: int) -> dict[str, np.ndarray]:
    """Random situations for the player to move: a hand of 1..10 cards, a partial trick of
    other cards, a trump suit, option flags and sung suits."""
    n = tute.find_variant(variant).seat_count()
    rng = np.random.default_rng(seed)
    perm = np.argsort(rng.random((count, 40)), axis=1)
    size = rng.integers(1, 11, count)
    tlen = rng.integers(0, n, count)
    hand = np.zeros(count, dtype=np.int64)
    trick = np.full((count, 4), -1, dtype=np.int64)
    for j in range(10):
        sel = j < size
        hand[sel] |= np.int64(1) << perm[sel, j]
    for j in range(n - 1):  # trick cards: the other end of the permutation
        sel = j < tlen
        trick[sel, j] = perm[sel, 39 - j]
    return {
        "hand": hand,
        "trick": trick,
        "tlen": tlen,
        # Tute cabrón plays without trumps (-1) until its first cante
        "trump": rng.integers(-1 if variant == "tute_cabron" else 0, 4, count),
        "flags": rng.integers(0, 1 << 10, count),
        "sung": rng.integers(0, 16, count),
    }


def check_random_states(variant: str, count: int, seed: int) -> int:
    var = tute.find_variant(variant)
    order = var.order
    fam = 1 if order is GUINOTE else 0
    data = random_states(variant, count, seed)
    out = K.batch_check(data["hand"], data["trick"], data["tlen"], data["trump"],
                        data["flags"], data["sung"], fam, int(var.partnerships),
                        int(var.stock))
    checked = 0
    for i in range(count):
        hand = int(data["hand"][i])
        tl = int(data["tlen"][i])
        trick = [int(c) for c in data["trick"][i, :tl]]
        trump: int | None = int(data["trump"][i])
        if trump is not None and trump < 0:
            trump = None
        f = int(data["flags"][i])
        stock = bool(f & 1) and var.stock
        seat_pos = tl  # the mover is the tl-th player of the trick
        partner_winning = False
        if trick and var.partnerships:
            win = trick_winner(trick, trump, order)
            partner_winning = (seat_pos - win) % 2 == 0
        want = legal_mask(
            hand, trick, trump, order,
            phase="stock" if stock else "obligated",
            stock_phase_rule=STOCK_RULES[(f >> 1) & 3],
            partner_winning=partner_winning,
            partner_exemption=bool(f >> 3 & 1) and var.partnerships,
            must_undertrump=bool(f >> 4 & 1), must_head_after_ruff=bool(f >> 5 & 1),
        )
        assert out[i, 0] == want, (variant, i, hand, trick, trump, f)
        if trick:
            assert out[i, 1] == trick_winner(trick, trump, order), (variant, i, trick)
        assert out[i, 2] == order.points_of(hand | sum(1 << c for c in trick))
        forty = FORTY[((f >> 6) & 3) % 3]
        decls = available_declarations(
            hand, trump, order, sung_suits=int(data["sung"][i]),
            forty_forfeited=bool(f >> 8 & 1), forty_first=forty, tute_enabled=bool(f >> 9 & 1))
        got = {K.action_str(40 + d, np.array([0, 0, fam])) for d in range(7)
               if out[i, 3] >> d & 1}
        assert got == {str(d) for d in decls}, (variant, i, hand, got, decls)
        checked += 1
    return checked


def _kernel_config(variant: str) -> tuple[object, ...]:
    """What the random states of a variant depend on: its seats (the trick's length), its
    card order, partnerships and stock (what the kernel's check is given), and tute cabrón's
    missing trump."""
    var = tute.find_variant(variant)
    return (var.seat_count(), var.order is GUINOTE, var.partnerships, var.stock,
            variant == "tute_cabron")


#: 100,000 states for the first variant of each configuration, 20,000 for a variant whose
#: configuration an earlier one has (habanero and corriente, arrastrado and subastado, ...)
STATES = {v: 20_000 if any(_kernel_config(w) == _kernel_config(v) for w in VARIANTS[:i])
          else 100_000 for i, v in enumerate(VARIANTS)}


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_states_agree_with_core(variant: str) -> None:
    count = STATES[variant]
    assert check_random_states(variant, count, seed=VARIANTS.index(variant)) == count


OPTION_SETS = {
    "tute_parejas": [
        {}, {"cante_by": "winning_side_each"},
        {"cante_by": "winning_side_one", "forty_first": "forfeit"},
        {"cante_restriction": "forfeit_if_skipped_first", "forty_first": "off"},
        {"cante_restriction": "first_win_only", "must_undertrump": True,
         "must_head_after_ruff": True, "partner_exemption": True},
    ],
    "guinote": [{}, {"cante_by": "winning_side_one", "forty_first": "forfeit"},
                {"cante_restriction": "forfeit_if_skipped_first"}],
    "tute_2p_habanero": [{}, {"forty_first": "off", "must_undertrump": True}],
    "tute_2p_corriente": [{}, {"cante_restriction": "first_win_only"}],
    "guinote_2p": [{}, {"forty_first": "forfeit", "must_head_after_ruff": True}],
    "tute_arrastrado_3p": [{}, {"forty_first": "forfeit", "must_undertrump": True},
                           {"cante_restriction": "forfeit_if_skipped_first"},
                           {"cante_restriction": "first_win_only", "players": 4}],
    "tute_cabron": [{}, {"players": 4}, {"players": 4, "must_undertrump": True}],
    "tute_gana_pierde": [{}, {"players": 3}],  # five seats: beyond the kernel (4 at most)
    "tute_cabrero": [{}, {"players": 3}],
    # a contract every deal (nobody may pass it out), the idle dealer, the widow, every cante
    "tute_subastado": [{"all_pass": "mano_forced"},
                       {"all_pass": "mano_forced", "seats": 4, "auction_rounds": "open"},
                       {"all_pass": "mano_forced", "widow_card": True, "forty_first": "forfeit"},
                       {"all_pass": "mano_forced", "cantes_declarer_only": False,
                        "tute_enabled": True, "declarer_leads": True}],
}


def _card_play(deal: tute.Deal) -> bool:
    return not (deal._pile.cards or deal._pile.pending
                or (deal._phase == 1 and deal._queue[0][1] != "cante"))


@pytest.mark.parametrize("variant", VARIANTS)
def test_whole_deals_agree_with_core(variant: str) -> None:
    deals = 0
    for options in OPTION_SETS[variant]:
        for seed in range(40):
            deal = tute.Deal.new(variant, seed=seed, options=options)
            rng = random.Random(seed)
            kst: np.ndarray | None = None
            cfg = None
            while not deal.is_over():
                acts = deal.legal_actions()
                act = acts[rng.randrange(len(acts))]
                if _card_play(deal):
                    cfg, st = K.from_deal(deal)
                    if kst is not None:
                        np.testing.assert_array_equal(kst, st)
                    got = sorted(K.action_str(a, cfg) for a in K.legal_action_codes(st, cfg))
                    assert got == sorted(str(a) for a in acts), (variant, options, seed)
                    kst = st.copy()
                    K.apply_action(kst, cfg, K.action_code(act))
                else:
                    kst = None
                deal.apply(act)
            assert kst is not None and cfg is not None
            _, final = K.from_deal(deal)
            for slot in (T.S_OVER, *range(T.S_PTS0, T.S_PTS0 + 4),
                         *range(T.S_CANTE0, T.S_CANTE0 + 4), T.S_LASTSIDE, T.S_TUTESEAT):
                assert kst[slot] == final[slot], (variant, options, seed, slot)
            res = deal.result()
            if res.reason == "tricks":
                # objective sides: side 0 vs 1, or (arrastrado) the hero vs everybody else
                sign = [1 if cfg[T.C_OBJ0 + s] == 0 else -1 for s in range(len(res.totals))]
                want = sum(g * t for g, t in zip(sign, res.totals, strict=True))
                assert K.final_margin(kst, cfg) == want, (variant, options, seed)
            deals += 1
    assert deals >= 40


@pytest.mark.parametrize(("variant", "window"), [
    ("tute_parejas", 1), ("guinote", 1), ("guinote_2p", 1),
    ("tute_2p_habanero", 0), ("tute_2p_corriente", 0), ("tute_arrastrado_3p", 1),
])
def test_arrastre_declaration_windows(variant: str, window: int) -> None:
    """Two-player Tute declares nothing once the stock is empty (rules.md §3.5); Guiñote and
    the four-seat games open a window after every trick (§6.8, §2)."""
    var = tute.find_variant(variant)
    assert K.make_config(var, var.defaults, 0)[T.C_ARRCANTE] == window


def test_playouts_finish_every_deal() -> None:
    starts, cfgs = [], []
    for seed in range(20):
        cfg, st = K.from_deal(tute.Deal.new("tute_parejas", seed=seed))
        starts.append(st)
        cfgs.append(cfg)
    out = K.playout_batch(np.array(starts), np.array(cfgs), 5, 1)
    assert out[0] == 100
    assert out[1] >= 100 * 40  # 40 cards, plus any declarations and passes


def test_objective_sides() -> None:
    var = tute.find_variant("tute_arrastrado_3p")
    cfg = K.make_config(var, var.defaults, 0, hero=1)
    assert list(cfg[T.C_SIDE0:T.C_SIDE0 + 3]) == [0, 1, 2]
    assert list(cfg[T.C_OBJ0:T.C_OBJ0 + 3]) == [1, 0, 1]
    par = tute.find_variant("tute_parejas")
    cfg = K.make_config(par, par.defaults, 0, hero=1)  # two sides: hero plays no part
    assert list(cfg[T.C_OBJ0:T.C_OBJ0 + 4]) == [0, 1, 0, 1]


def test_tables_come_from_the_core() -> None:
    assert list(T.POINTS[0]) == list(TUTE.points)
    assert list(T.STRENGTH[1]) == list(GUINOTE.strength)


def test_stock_poll_is_not_a_card_play_position() -> None:
    deal = tute.Deal.new("tute_2p_habanero", seed=3)
    while not (deal._phase == 1 and deal._queue and deal._queue[0][1] == "exchange"):
        if deal.is_over():
            pytest.skip("no exchange poll in this deal")
        deal.apply(deal.legal_actions()[-1])
    with pytest.raises(K.NotCardPlayPositionError):
        K.from_deal(deal)


def test_cabron_two_cantes_in_one_trick_follow_the_order_they_fell() -> None:
    """Tute cabrón: when two kings and their caballos fall in one trick, the pair completed
    first is the 40 that fixes trumps, the other a 20 (as the core rules)."""
    hands = [["Ro", "2o", "4o", "5o", "6o", "7o", "So", "3o", "Ao", "2c"],
             ["Cc", "7e", "Se", "Ce", "Re", "3e", "Ae", "2b", "4b", "5b"],
             ["Rc", "6b", "7b", "Sb", "Cb", "Rb", "3b", "Ab", "Sc", "3c"],
             ["Co", "Ac", "4c", "5c", "6c", "7c", "2e", "4e", "5e", "6e"]]
    deal = tute.Deal.new("tute_cabron", dealer=3, hands=hands, options={"players": 4})
    assert deal.to_move == 0 and deal.trump is None
    cfg, st = K.from_deal(deal)
    for card in ("Ro", "Cc", "Rc", "Co"):
        K.apply_action(st, cfg, K.action_code(card))
        deal.apply(card)
    assert deal.trump is not None and int(deal.trump) == 1  # copas: its pair fell first
    _, want = K.from_deal(deal)
    np.testing.assert_array_equal(st, want)
    assert st[T.S_TRUMP] == 1 and st[T.S_CANTE0 + 0] == 60  # both to the winner, seat 0


def test_configs_are_kept_read_only_and_handed_out_as_copies() -> None:
    """from_deal keeps each rule set's config (an analysis asks for it hundreds of times a
    deal) and hands out a copy: changing one changes neither the kept one nor the next."""
    deal = tute.Deal.new("tute_parejas", seed=3)
    cfg, _st = K.from_deal(deal)
    want = cfg.copy()
    cfg[T.C_TRUMP] = 99
    again, _st = K.from_deal(deal)
    assert np.array_equal(again, want)
    kept = K._config(deal.variant, deal.options, int(want[T.C_TRUMP]), deal.mano, 0)
    assert not kept.flags.writeable
    with pytest.raises(ValueError):
        kept[T.C_TRUMP] = 1
