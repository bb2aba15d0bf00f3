"""tute.rl.VectorEnv: whole games against the per-step environment, auto-reset, refusals."""

from __future__ import annotations

import random
from typing import Any

import pytest

np = pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")
pytest.importorskip("numba", reason="the numba kernel is not installed")
pytest.importorskip("pettingzoo", reason="the rl extra (pettingzoo) is not installed")

import tute.rl  # noqa: E402
from tute.errors import IllegalActionError, InvalidOptionError  # noqa: E402
from tute.rl.vector import VectorEnv  # noqa: E402

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"partner_exemption": True, "must_undertrump": True, "cante_by": "winning_side_each"},
    {"forty_first": "forfeit", "cante_restriction": "forfeit_if_skipped_first",
     "must_head_after_ruff": True, "cante_by": "winning_side_one"},
    {"tute_enabled": False, "cante_restriction": "first_win_only"},
]


def _play_both(options: dict[str, Any], seed: int, games: int, steps: int) -> int:
    """Random legal play of ``games`` games in a VectorEnv and as many per-step
    environments seeded alike; every observation, mask, seat, end and reward must agree.
    Returns the deals finished."""
    vec = VectorEnv("tute_parejas", games, **options)
    obs, masks = vec.reset(seed=seed)
    envs = []
    for i in range(games):
        e = tute.rl.env("tute_parejas", **options)
        e.reset(seed=seed + i)
        envs.append(e)
    rng = random.Random(seed)
    finished = 0
    for step in range(steps):
        acts = []
        for i, e in enumerate(envs):
            agent = e.agent_selection
            seen = e.observe(agent)
            assert e.agent_name_mapping[agent] == vec.to_move[i], (step, i)
            assert np.array_equal(seen["action_mask"], masks[i]), (step, i)
            assert np.array_equal(seen["observation"], obs[i]), (step, i)
            legal = np.flatnonzero(masks[i])
            acts.append(int(legal[rng.randrange(len(legal))]))
        obs, rewards, done, masks = vec.step(np.array(acts))
        for i, e in enumerate(envs):
            e.step(acts[i])
            over = e.terminations[e.possible_agents[0]]
            assert over == bool(done[i]), (step, i)
            if over:
                finished += 1
                assert [e.rewards[a] for a in e.possible_agents] == list(rewards[i])
                e.reset()
            else:
                assert not rewards[i].any()
    return finished


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o) or "defaults")
def test_whole_games_match_the_per_step_environment(options: dict[str, Any]) -> None:
    # two or three deals a game in a row: the auto-reset deals the environment's next deal
    assert _play_both(options, seed=11 + len(options), games=3, steps=400) >= 6


def test_seed_lists_and_deal_seeds() -> None:
    vec = VectorEnv("tute_parejas", 2)
    vec.reset(seed=[7, 2**64 - 1])
    env = tute.rl.raw_env("tute_parejas")
    env.reset(seed=2**64 - 1)
    deal = env.table.deal
    assert deal is not None
    assert int(vec.deal_seeds[1]) == deal.seed
    assert int(vec.dealers[1]) == deal.dealer
    obs = env.observe(env.agent_selection)["observation"]
    assert np.array_equal(obs, vec.observations[1])


def test_auto_reset_and_masks() -> None:
    vec = VectorEnv("tute_parejas", 4)
    obs, masks = vec.reset(seed=3)
    first = vec.deal_seeds.copy()
    assert masks.shape == (4, vec.num_actions) and obs.shape == (4, vec.observation_size)
    ends = 0
    for _ in range(120):
        # every mask offers something, and only cards or cantes/passes of the catalogue
        assert (masks.sum(axis=1) > 0).all()
        obs, rewards, done, masks = vec.step(vec.random_actions())
        for i in np.flatnonzero(done):
            ends += 1
            assert vec.deal_seeds[i] != first[i]  # the next deal is under way
            first[i] = vec.deal_seeds[i]
            assert rewards[i, 0] == rewards[i, 2] == -rewards[i, 1] == -rewards[i, 3]
            assert obs[i, :40].sum() == 10  # a full hand again
    assert ends >= 4


def test_illegal_action_changes_nothing() -> None:
    vec = VectorEnv("tute_parejas", 3)
    vec.reset(seed=5)
    before = (vec.observations.copy(), vec.masks.copy(), vec._st.copy())
    acts = vec.random_actions().copy()
    acts[1] = int(np.flatnonzero(vec.masks[1] == 0)[0])
    with pytest.raises(IllegalActionError, match="in game 1"):
        vec.step(acts)
    with pytest.raises(IllegalActionError, match="outside the action space"):
        vec.step(np.array([*vec.random_actions()[:2], 999]))
    with pytest.raises(IllegalActionError, match="expected 3 integer"):
        vec.step([0, 1])
    assert np.array_equal(before[0], vec.observations)
    assert np.array_equal(before[1], vec.masks)
    assert np.array_equal(before[2], vec._st)


@pytest.mark.parametrize("variant", ["tute_2p_habanero", "tute_subastado", "guinote",
                                     "tute_arrastrado_3p", "tute_cabron"])
def test_refuses_what_the_kernel_does_not_play(variant: str) -> None:
    with pytest.raises(InvalidOptionError, match=f"does not play {variant}"):
        VectorEnv(variant, 2)


@pytest.mark.parametrize("options", [{"weak_hand_max_points": 20}, {"renuncio_mode": "claim"},
                                     {"tute_dealt_wins_immediately": True}])
def test_refuses_options_outside_card_play(options: dict[str, Any]) -> None:
    with pytest.raises(InvalidOptionError, match="does not support option"):
        VectorEnv("tute_parejas", 2, **options)


def test_bad_sizes_and_seeds() -> None:
    with pytest.raises(InvalidOptionError, match="number of games"):
        VectorEnv("tute_parejas", 0)
    vec = VectorEnv("tute_parejas", 2)
    with pytest.raises(IllegalActionError, match="reset"):
        vec.step([0, 0])
    with pytest.raises(InvalidOptionError, match="invalid seed"):
        vec.reset(seed=[1])
    with pytest.raises(InvalidOptionError, match="invalid seed"):
        vec.reset(seed=[1, -2])


def test_gymnasium_vector_face() -> None:
    pytest.importorskip("gymnasium")
    from tute.rl import TuteVectorEnv

    env = TuteVectorEnv("tute_parejas", 3)
    obs, infos = env.reset(seed=9)
    assert env.observation_space.contains(obs.copy())
    assert infos["action_mask"].shape == (3, env.single_action_space.n)
    ends = 0
    for _ in range(100):
        actors = infos["to_move"].copy()
        obs, rewards, term, trunc, infos = env.step(env.batched.random_actions())
        assert not trunc.any()
        for i in np.flatnonzero(term):
            ends += 1
            assert rewards[i] == infos["seat_rewards"][i, actors[i]] != 0 or (
                infos["seat_rewards"][i] == 0).all()
        assert not rewards[~term].any()
    assert ends >= 3
