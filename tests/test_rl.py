"""tute.rl: the PettingZoo and Gymnasium environments, the encoding, self-play data."""

from __future__ import annotations

import math
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


def test_voids_are_shown() -> None:
    """In parejas (follow suit always), a seat that did not follow the suit led is shown void
    in it, to every seat, from then on: the void block is not merely empty. (It shows more:
    a seat that did not trump when it had to has none; test_voids_are_sound checks those.)"""
    rng = random.Random(8)
    table = Table("tute_parejas")
    off, n = table.layout.offset("void"), table.n
    shown = 0
    for _ in range(10):
        table.new(rng.getrandbits(40))
        expected: set[tuple[int, int]] = set()
        while not table.is_over():
            deal = table.deal
            assert deal is not None
            for seat in range(n):
                voids = table.observe(seat)[off:off + 4 * n].reshape(n, 4)
                got = {((seat + int(rel)) % n, int(suit))
                       for rel, suit in zip(*np.nonzero(voids), strict=True)}
                assert expected <= got, (seat, got, expected)
                shown += len(got)
            mover = table.to_move
            ids = table.legal()[1]
            aid = ids[rng.randrange(len(ids))]
            led = deal.trick[0][1].suit if deal.trick else None
            act = table.apply(aid, mover)
            if led is not None and isinstance(act, tute.Card) and act.suit != led:
                expected.add((mover, int(led)))
    assert shown > 100


def test_docs_describe_every_block() -> None:
    """docs/rl.md's observation table names every block of the layout, in order, with its
    size (for games of two, three, four and five seats, with and without partners)."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "rl.md").read_text()
    table = text.split("| block | size | content |", 1)[1].split("\n\n", 1)[0]
    rows = []
    for line in table.splitlines()[2:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        rows.append((re.findall(r"`([a-z_]+)`", cells[0]), cells[1]))
    for variant, options in (("tute_parejas", {}), ("tute_2p_habanero", {}),
                             ("tute_arrastrado_3p", {}), ("tute_gana_pierde", {"players": 5}),
                             ("tute_subastado", {"seats": 4})):
        layout = Table(variant, **options).layout
        assert [b for names, _size in rows for b in names] == [b for b, _o, _s in layout.blocks]
        sizes = {b: size for b, _o, size in layout.blocks}
        for names, size in rows:  # sums of products: "2+2n+1", "n×40", "3×S"
            value = sum(math.prod(int(f.replace("n", "") or 1) * (layout.n if "n" in f else 1)
                                  if f != "S" else layout.sides for f in term.split("×"))
                        for term in size.split("+"))
            assert value == sum(sizes[b] for b in names), (variant, names, size)


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
        seed_test(lambda: tute.rl.env(variant, reward="match"), num_cycles=100)
        for options in OPTION_SETS[variant][1:]:
            api_test(tute.rl.env(variant, **options), num_cycles=200)
            seed_test(lambda options=options: tute.rl.env(variant, **options), num_cycles=100)


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
    """Everything an agent can read of the environment, and the game under way."""
    raw = env.unwrapped
    return (raw.agent_selection, list(raw.agents), raw.table.deal, len(raw.table.deal.actions),
            {a: (raw.observe(a)["observation"].tobytes(), raw.observe(a)["action_mask"].tobytes())
             for a in raw.possible_agents},
            dict(raw.rewards), dict(raw._cumulative_rewards), dict(raw.terminations),
            dict(raw.truncations), repr(raw.infos), raw._rng.getstate(), raw.render())


def test_illegal_actions_are_refused_and_change_nothing() -> None:
    env = tute.rl.env("tute_parejas", render_mode="ansi")
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
    env = tute.rl.env("tute_2p_habanero", render_mode="ansi")
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
    before = _snapshot(env)
    for action in (0, None):
        with pytest.raises(IllegalActionError, match=rf"illegal action {action}: the episode"):
            env.step(action)
    assert _snapshot(env) == before
    env.reset(seed=3)  # and a reset starts again
    assert env.unwrapped.agents


def test_order_checks_before_reset() -> None:
    """tute.rl.env keeps PettingZoo's order checks (its own fast last()/step() included)."""
    env = tute.rl.env("tute_parejas")
    with pytest.raises(AssertionError, match="reset"):
        env.step(0)
    with pytest.raises(AttributeError, match="before reset"):
        env.last()
    with pytest.raises(AssertionError, match="reset"):
        env.observe("player_0")
    env.reset(seed=1)
    obs, reward, term, trunc, info = env.last()
    raw = env.unwrapped
    assert (reward, term, trunc, info) == (0.0, False, False, {})
    assert np.array_equal(obs["observation"], raw.observe(raw.agent_selection)["observation"])
    assert env.last(observe=False)[0] is None


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


BAD_RESETS = [({"deal_seed": -1}, "'deal_seed'"), ({"deal_seed": 2**64}, "'deal_seed'"),
              ({"deal_seed": "7"}, "'deal_seed'"), ({"deal_seed": 1.5}, "'deal_seed'"),
              ({"deal_seed": True}, "'deal_seed'"), ({"dealer": 4}, "'dealer'"),
              ({"dealer": -1}, "'dealer'"), ({"dealer": "0"}, "'dealer'")]


def test_bad_reset_options_are_named_and_change_nothing() -> None:
    env = tute.rl.env("tute_parejas", render_mode="ansi")
    env.reset(seed=2)
    env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    before = _snapshot(env)
    for options, name in BAD_RESETS:
        for seed in (None, 5):
            with pytest.raises(InvalidOptionError, match=rf"reset option {name}"):
                env.reset(seed=seed, options=options)
            assert _snapshot(env) == before, options
    env.reset(options={"deal_seed": np.uint64(2**64 - 1), "dealer": np.int64(3)})
    assert env.unwrapped.table.deal.dealer == 3


def _gym_snapshot(env: TuteGymEnv) -> tuple[Any, ...]:
    table = env.table
    obs = table.observe(env.seat)
    return (env.seat, env._done, table.deal, len(table.deal.actions), table.to_move,
            obs.tobytes(), env._info()["action_mask"].tobytes(), dict(env.bots),
            env.np_random.bit_generator.state, env.render())


def test_gymnasium_refusals_change_nothing() -> None:
    """An illegal action, a step after the end, a bad reset option: the error names it and
    the environment is as it was (the game, the seat, the bots, the random generator)."""
    env = TuteGymEnv("tute_parejas", seat="random", opponents="rules", render_mode="ansi")
    _obs, info = env.reset(seed=9)
    before = _gym_snapshot(env)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    name = env.actions[bad]
    with pytest.raises(IllegalActionError, match=rf"illegal action {bad} \({name}\) for seat"):
        env.step(bad)
    for junk in (10_000, -1, "Ao", 1.5, None, True):
        with pytest.raises(IllegalActionError, match="action"):
            env.step(junk)
    for options, opt in BAD_RESETS:
        for seed in (None, 5):
            with pytest.raises(InvalidOptionError, match=rf"reset option {opt}"):
                env.reset(seed=seed, options=options)
    assert _gym_snapshot(env) == before
    # a given deal that ends before the agent's first move: named, and nothing changes
    tute_at_once = TuteGymEnv("tute_parejas", seat=3, tute_dealt_wins_immediately=True)
    tute_at_once.reset(seed=1, options={"deal_seed": 26, "dealer": 3})
    before = _gym_snapshot(tute_at_once)
    with pytest.raises(InvalidOptionError,
                       match="'deal_seed': that deal ends before seat 3 moves"):
        tute_at_once.reset(options={"deal_seed": 25, "dealer": 3})
    assert _gym_snapshot(tute_at_once) == before
    # and after the end
    done = False
    while not done:
        _obs, _r, done, _t, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    before = _gym_snapshot(env)
    for action in (0, bad, None):
        with pytest.raises(IllegalActionError, match="the episode is over"):
            env.step(action)
    assert _gym_snapshot(env) == before


def test_render_and_spaces() -> None:
    env = tute.rl.env("guinote", render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert "Guiñote" in text and "trumps:" in text
    assert "seat 0 (side 0):" in text and " <" in text  # the hands, who is to move
    raw = env.unwrapped
    assert raw.action_space("player_0").n == len(raw.actions)
    assert raw.observation_space("player_0")["observation"].shape == (raw.table.layout.size,)
    assert raw.actions[:3] == ("2o", "4o", "5o") and "cuarenta" in raw.actions


def test_render_modes(capsys: pytest.CaptureFixture[str]) -> None:
    """``ansi`` returns the table as text, ``human`` prints it after every step, no mode
    renders nothing; in both environments; a match says which deal it is, the end the result."""
    quiet = tute.rl.env("tute_parejas")
    quiet.reset(seed=1)
    assert quiet.render() is None
    human = tute.rl.env("tute_2p_habanero", render_mode="human", reward="match")
    human.reset(seed=1)
    assert "Tute" in capsys.readouterr().out
    assert human.render() is None
    assert "Tute" in capsys.readouterr().out
    human.step(int(np.flatnonzero(human.last()[0]["action_mask"])[0]))
    out = capsys.readouterr().out
    assert "trumps:" in out and "deal 1" in out and "match: games" in out
    gym_env = TuteGymEnv("guinote_2p", opponents="random", render_mode="ansi")
    assert gym_env.render() is None  # nothing to show before reset
    _obs, info = gym_env.reset(seed=2)
    assert "trumps:" in gym_env.render()
    done = False
    while not done:
        _obs, _r, done, _t, info = gym_env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert "over: totals" in gym_env.render()
    gym_human = TuteGymEnv("guinote_2p", opponents="random", render_mode="human")
    _obs, info = gym_human.reset(seed=2)
    assert "trumps:" in capsys.readouterr().out
    gym_human.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert "trumps:" in capsys.readouterr().out


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


def test_gymnasium_bots_by_name_see_their_own_views() -> None:
    """The other seats are the bots named (pimc among them), each handed its own seat's view;
    with reward="match" one episode is a whole match."""
    env = TuteGymEnv("tute_parejas", seat=1, reward="match", match={"mode": "race", "games": 1},
                     opponents=["pimc:move_time=0.01:worlds=4", "random", "rules"])
    _obs, info = env.reset(seed=3)
    assert [b.name for _s, b in sorted(env.bots.items())] == ["pimc", "random", "rules"]
    assert sorted(env.bots) == [0, 2, 3]
    asked: list[tuple[int, int]] = []
    for seat, bot in env.bots.items():
        choose = bot.choose

        def spy(view: Any, legal: Any, seat: int = seat, choose: Any = choose) -> Any:
            asked.append((seat, view.seat))
            assert legal == view.legal_actions
            return choose(view, legal)

        bot.choose = spy  # type: ignore[method-assign]
    done, reward = False, 0.0
    while not done:
        _obs, reward, done, _t, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert asked and all(seat == seen for seat, seen in asked)
    assert {seat for seat, _ in asked} == {0, 2, 3}
    winner = env.table.match.result().winner
    assert reward == (1.0 if winner == 1 else -1.0)


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
