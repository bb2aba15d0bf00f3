"""tute.rl: the PettingZoo and Gymnasium environments, the encoding, self-play data."""

from __future__ import annotations

import random
import subprocess
import sys
import warnings
from typing import Any

import pytest

np = pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")
pytest.importorskip("pettingzoo", reason="the rl extra (pettingzoo) is not installed")
pytest.importorskip("gymnasium", reason="the rl extra (gymnasium) is not installed")

import tute  # noqa: E402
import tute.rl  # noqa: E402
from tute.errors import IllegalActionError, InvalidOptionError, TuteError  # noqa: E402
from tute.rl.encoding import ActionCatalogue, encode_view  # noqa: E402
from tute.rl.gym_env import TuteGymEnv  # noqa: E402
from tute.rl.table import Table  # noqa: E402

# option sets that change what can happen: polls, claims, throw-ins, exchanges, auctions
OPTION_SETS: dict[str, list[dict[str, Any]]] = {
    "tute_parejas": [{}, {"partner_exemption": True, "must_undertrump": True},
                     {"renuncio_mode": "claim"}, {"weak_hand_max_points": 20},
                     {"tute_dealt_wins_immediately": True, "cante_by": "winning_side_each"}],
    "tute_2p_habanero": [{}, {"exchange_timing": "own_turn_any", "cante_before_draw": True},
                         {"vueltas_claim": "manual"},
                         {"exchange_timing": "start_and_after_win",
                          "exchange_last_round_allowed": True}],
    "tute_2p_corriente": [{}, {"stock_phase_rule": "follow_suit"}],
    "tute_arrastrado_3p": [{}, {"exchange_mandatory": False}, {"players": 4}],
    "tute_subastado": [{}, {"seats": 4}, {"widow_card": True},
                       {"seats": 4, "widow_card": True, "auction_rounds": "open",
                        "all_pass": "mano_forced"},
                       {"tute_enabled": True, "min_bid": 0, "bid_step": 10}],
    "guinote": [{}, {"exchange_side_requirement": "any_trick_won"},
                {"stock_phase_rule": "full"}],
    "guinote_2p": [{}],
    "tute_cabron": [{}, {"players": 4}],
    "tute_gana_pierde": [{}, {"players": 5}],
    "tute_cabrero": [{}, {"players": 3}],
}
CASES = [(v, o) for v, sets in OPTION_SETS.items() for o in sets]


def _ids(case: tuple[str, dict[str, Any]]) -> str:
    v, o = case
    return v + ("" if not o else ":" + ",".join(f"{k}={x}" for k, x in o.items()))


def _random_play(table: Table, rng: random.Random, check: Any = None) -> None:
    while not table.is_over():
        if check is not None:
            check()
        seat = table.to_move
        ids = table.legal()[1]
        table.apply(ids[rng.randrange(len(ids))], seat)
    if check is not None:
        check()


def test_import_needs_no_extra() -> None:
    code = ("import sys, tute.rl; bad = [m for m in ('pettingzoo', 'gymnasium', 'numpy', "
            "'pyspiel') if m in sys.modules]; print(bad); sys.exit(1 if bad else 0)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_catalogue_covers_every_legal_action(case: tuple[str, dict[str, Any]]) -> None:
    variant, options = case
    var = tute.find_variant(variant)
    cat = ActionCatalogue(var, var.resolve(options))
    assert len(set(cat.names)) == len(cat)  # one id per action
    assert [cat.index[c] for c in tute.ALL_CARDS] == list(range(40))
    rng = random.Random(7)
    for _ in range(30):
        deal = tute.Deal.new(variant, seed=rng.getrandbits(40), options=options)
        while not deal.is_over():
            legal = deal.legal_actions()
            ids = cat.ids(legal)  # KeyError if the catalogue missed one
            assert [cat.actions[i] for i in ids] == legal
            deal.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_incremental_observation_equals_the_views(case: tuple[str, dict[str, Any]]) -> None:
    """The fast path (one shared public encoder fed with events) gives every seat exactly
    what encoding its own view from scratch gives, at every step."""
    variant, options = case
    rng = random.Random(11)
    for reward in ("deal", "match"):
        table = Table(variant, reward=reward, **options)
        for _ in range(4 if reward == "deal" else 1):
            table.new(rng.getrandbits(40))

            def check(table: Table = table) -> None:
                for seat in range(table.n):
                    obs = table.observe(seat)
                    if table.match is not None:
                        ref = encode_view(table.match.view(seat))
                    else:
                        assert table.deal is not None
                        ref = encode_view(table.deal.view(seat))
                    assert np.array_equal(obs, ref), (seat, table.render())
                    assert obs.dtype == np.float32 and obs.min() >= 0 and obs.max() <= 1

            _random_play(table, rng, check)


@pytest.mark.parametrize("variant", list(tute.VARIANTS))
def test_voids_are_sound(variant: str) -> None:
    """A void the encoding shows is a real one: the seat holds no card of that suit."""
    rng = random.Random(5)
    for options in OPTION_SETS[variant]:
        table = Table(variant, **options)
        lay = table.layout
        off = lay.offset("void")
        for _ in range(6):
            table.new(rng.getrandbits(40))

            def check(table: Table = table, off: int = off) -> None:
                deal = table.deal
                assert deal is not None
                for seat in range(table.n):
                    voids = table.observe(seat)[off:off + 4 * table.n].reshape(table.n, 4)
                    for rel in range(table.n):
                        holder = (seat + rel) % table.n
                        for suit in np.flatnonzero(voids[rel]):
                            assert not deal.hand(holder).of_suit(tute.Suit(int(suit))), (
                                seat, holder, suit)

            _random_play(table, rng, check)


def _layout_of(deal: tute.Deal) -> dict[str, Any]:
    """The explicit layout that deals ``deal`` again (Deal.new(hands=...))."""
    out: dict[str, Any] = {"hands": [h.to_list() for h in deal.initial_hands],
                           "dealer": deal.dealer}
    var = deal.variant
    if var.stock:
        out["upcard"] = str(deal.initial_upcard)
        out["stock"] = [str(c) for c in deal.initial_stock]
    elif deal.initial_table_card is not None:
        out["table_card"] = str(deal.initial_table_card)
    elif var.id == "tute_subastado":
        if deal.initial_widow is not None:
            out["widow"] = str(deal.initial_widow)
    elif var.id != "tute_cabron":
        out["trump_card"] = str(deal.trump_card)
    return out


def _swap(layout: dict[str, Any], x: str, y: str) -> dict[str, Any]:
    def sw(c: str) -> str:
        return y if c == x else x if c == y else c

    out = dict(layout)
    out["hands"] = [[sw(c) for c in h] for h in layout["hands"]]
    if "stock" in layout:
        out["stock"] = [sw(c) for c in layout["stock"]]
    if "widow" in layout:
        out["widow"] = sw(layout["widow"])
    return out


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_observation_holds_nothing_hidden(case: tuple[str, dict[str, Any]]) -> None:
    """Swap two cards that a seat cannot see (in other hands, in the stock, the widow) and
    replay: that seat's observation is unchanged, through the fast path and from its view."""
    variant, options = case
    rng = random.Random(3)
    swaps = 0
    for _ in range(25):
        deal = tute.Deal.new(variant, seed=rng.getrandbits(40), options=options)
        stop = rng.randrange(60)
        while not deal.is_over() and len(deal.actions) < stop:
            legal = deal.legal_actions()
            deal.apply(legal[rng.randrange(len(legal))])
        layout = _layout_of(deal)
        for seat in range(deal.seats):
            view = deal.view(seat)
            ever = set(layout["hands"][seat]) | {
                str(e.card) for e in view.history if getattr(e, "card", None) is not None}
            public = {str(c) for k in view.known for c in k} | {
                str(c) for c in (view.trump_card, view.upcard, view.table_card,
                                 deal.initial_upcard, deal.initial_table_card) if c}
            public |= {str(c) for _s, g, t in view.exchanges for c in (g, t)}
            where: dict[str, Any] = {c: s for s, h in enumerate(layout["hands"]) for c in h}
            where |= {c: "stock" for c in layout.get("stock", ())}
            if "widow" in layout:
                where[layout["widow"]] = "widow"
            hidden = sorted(str(c) for c in view.unseen
                            if str(c) in where and str(c) not in ever | public)
            pairs = [(x, y) for x in hidden for y in hidden if x < y and where[x] != where[y]]
            if not pairs:
                continue
            x, y = rng.choice(pairs)
            swapped = _swap(layout, x, y)
            other = tute.Deal.new(variant, options=options, **swapped)
            try:
                for act in deal.actions:
                    other.apply(act)
            except IllegalActionError:
                continue  # the swap broke an obligation somebody obeyed: not this world
            if other.to_move != deal.to_move:
                # the engine's own tell, not the encoding's: it asks a trick winner's partner
                # to sing only when it holds a cante, so whose turn it is differs (reported)
                continue
            swaps += 1
            ref = encode_view(deal.view(seat))
            assert np.array_equal(ref, encode_view(other.view(seat))), (seat, x, y)
            for d in (deal, other):
                table = Table(variant, **options)
                table.start(d.copy())
                assert np.array_equal(table.observe(seat), ref)
    assert swaps > 5


@pytest.mark.parametrize("variant", list(tute.VARIANTS))
def test_pettingzoo_api_and_seed(variant: str) -> None:
    from pettingzoo.test import api_test, seed_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice on Dict observations with masks
        api_test(tute.rl.env(variant), num_cycles=200)
        api_test(tute.rl.env(variant, reward="match"), num_cycles=200)
        seed_test(lambda: tute.rl.env(variant), num_cycles=100)
        for options in OPTION_SETS[variant][1:]:
            api_test(tute.rl.env(variant, **options), num_cycles=200)


def test_rewards_are_the_point_margin() -> None:
    env = tute.rl.raw_env("tute_parejas", reward_scale=1.0)
    env.reset(seed=4)
    rng = random.Random(4)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, _trunc, _info = env.last()
        total[agent] += reward
        if term:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
    res = env.table.deal.result()
    margin = res.totals[0] - res.totals[1]
    assert total == {"player_0": margin, "player_1": -margin, "player_2": margin,
                     "player_3": -margin}


def test_match_reward() -> None:
    env = tute.rl.raw_env("tute_parejas", reward="match",
                          match={"mode": "race", "games": 1})
    env.reset(seed=1)
    rng = random.Random(1)
    got = {}
    for agent in env.agent_iter():
        obs, reward, term, _t, _i = env.last()
        if term:
            got[agent] = reward
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
    winner = env.table.match.result().winner
    assert got == {f"player_{s}": (1.0 if s % 2 == winner else -1.0) for s in range(4)}


def _snapshot(env: Any) -> tuple[Any, ...]:
    raw = env.unwrapped
    return (raw.agent_selection, list(raw.agents), len(raw.table.deal.actions),
            {a: raw.observe(a)["observation"].tobytes() for a in raw.agents},
            dict(raw._cumulative_rewards), dict(raw.terminations))


def test_illegal_actions_are_refused_and_change_nothing() -> None:
    env = tute.rl.env("tute_parejas")
    env.reset(seed=2)
    for _ in range(5):
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    obs, *_ = env.last()
    before = _snapshot(env)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    name = env.unwrapped.actions[bad]
    with pytest.raises(IllegalActionError, match=rf"illegal action {bad} \({name}\)"):
        env.step(bad)
    for junk in (10_000, -1, "Ao", 1.5, None):
        with pytest.raises(IllegalActionError, match="action"):
            env.step(junk)
    assert _snapshot(env) == before
    # a card that breaks the rules gets the engine's reason
    deal = env.unwrapped.table.deal
    if deal.trick:
        refused = [c for c in deal.hand(deal.to_move) if deal.why_illegal(c)]
        if refused:
            with pytest.raises(IllegalActionError, match=deal.why_illegal(refused[0])):
                env.step(refused[0].index)
    assert _snapshot(env) == before


def test_steps_after_the_end_are_refused() -> None:
    env = tute.rl.env("tute_2p_habanero")
    env.reset(seed=3)
    for _agent in env.agent_iter():
        obs, _r, term, _t, _i = env.last()
        if term:
            break
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    before = _snapshot(env)
    with pytest.raises(IllegalActionError, match="the game is over"):
        env.step(0)
    assert _snapshot(env) == before
    while env.unwrapped.agents:
        env.step(None)
    with pytest.raises(IllegalActionError, match="episode is over"):
        env.step(0)
    env.reset(seed=3)  # and a reset starts again
    assert env.unwrapped.agents


def test_bad_options_are_named() -> None:
    with pytest.raises(InvalidOptionError, match="bogus"):
        tute.rl.env("tute_parejas", bogus=1)
    with pytest.raises(InvalidOptionError, match="hand_size"):
        tute.rl.env("tute_parejas", hand_size=6)  # not an option of parejas
    with pytest.raises(InvalidOptionError, match="'reward'"):
        tute.rl.env("tute_parejas", reward="points")
    with pytest.raises(InvalidOptionError, match="render_mode"):
        tute.rl.env("tute_parejas", render_mode="rgb_array")
    with pytest.raises(TuteError, match="unknown variant 'poker'"):
        tute.rl.env("poker")
    with pytest.raises(InvalidOptionError, match="opponents"):
        TuteGymEnv("tute_parejas", opponents="grandmaster")
    with pytest.raises(InvalidOptionError, match="'seat'"):
        TuteGymEnv("tute_2p_habanero", seat=2)


def test_render_and_spaces() -> None:
    env = tute.rl.env("guinote", render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert "Guiñote" in text and "trumps:" in text
    raw = env.unwrapped
    assert raw.action_space("player_0").n == len(raw.actions)
    assert raw.observation_space("player_0")["observation"].shape == (raw.table.layout.size,)
    assert raw.actions[:3] == ("2o", "4o", "5o") and "cuarenta" in raw.actions


@pytest.mark.parametrize("variant", list(tute.VARIANTS))
def test_gymnasium_check_env(variant: str) -> None:
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "no spec": it is not registered with gym.make
        check_env(TuteGymEnv(variant, illegal="lose", opponents="random"))
    env = TuteGymEnv(variant, seat="random", opponents="rules")
    obs, info = env.reset(seed=5)
    done = False
    while not done:
        assert env.observation_space.contains(obs)
        legal = np.flatnonzero(info["action_mask"])
        obs, reward, done, trunc, info = env.step(int(legal[-1]))
        assert not trunc
    assert isinstance(reward, float)
    with pytest.raises(IllegalActionError, match="episode is over"):
        env.step(0)


def test_gymnasium_illegal_action() -> None:
    env = TuteGymEnv("tute_parejas", opponents=["rules", "random", "rules"])
    _obs, info = env.reset(seed=9)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match=f"illegal action {bad}"):
        env.step(bad)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    _obs2, *_ = env.step(legal)  # the refused action changed nothing: play goes on
    lose = TuteGymEnv("tute_parejas", illegal="lose", illegal_reward=-2.0)
    _o, info = lose.reset(seed=9)
    _o, reward, done, _t, info = lose.step(bad)
    assert (reward, done) == (-2.0, True) and "illegal action" in info["illegal"]


def test_generate_is_the_same_over_processes() -> None:
    one = tute.rl.generate("tute_2p_corriente", 6, seed=2, bots=["rules", "random"])
    two = tute.rl.generate("tute_2p_corriente", 6, seed=2, bots=["rules", "random"], jobs=2)
    for key, arr in one.items():
        assert np.array_equal(arr, two[key]), key
    n = len(one["action"])
    assert one["obs"].shape[0] == one["mask"].shape[0] == n > 0
    assert all(one["mask"][i, one["action"][i]] == 1 for i in range(n))
    with pytest.raises(InvalidOptionError, match="jobs"):
        tute.rl.generate("tute_parejas", 1, jobs=0)
