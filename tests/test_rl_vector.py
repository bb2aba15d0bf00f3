"""tute.rl.VectorEnv: whole games against the per-step environment (parejas, arrastrado and
the stock games), auto-reset, refusals."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

np = pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")
pytest.importorskip("numba", reason="the numba kernel is not installed")
pytest.importorskip("pettingzoo", reason="the rl extra (pettingzoo) is not installed")

import tute.rl  # noqa: E402
from tute.deal import Deal  # noqa: E402
from tute.errors import IllegalActionError, InvalidOptionError  # noqa: E402
from tute.events import Exchanged  # noqa: E402
from tute.rl.encoding import encode_view  # noqa: E402
from tute.rl.vector import VectorEnv  # noqa: E402

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"partner_exemption": True, "must_undertrump": True, "cante_by": "winning_side_each"},
    {"forty_first": "forfeit", "cante_restriction": "forfeit_if_skipped_first",
     "must_head_after_ruff": True, "cante_by": "winning_side_one"},
    {"tute_enabled": False, "cante_restriction": "first_win_only"},
]


#: arrastrado: three players (the table card and its compulsory exchanges) or four individual
#: players (the dealer's card turned); three or four sides, rewards against the others' mean
ARRASTRADO_OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"two_exchanges_four": True, "forty_first": "forfeit", "must_head_after_ruff": True,
     "cante_restriction": "forfeit_if_skipped_first", "scoring_3p": "payments"},
    {"players": 4},
    {"players": 4, "must_undertrump": True, "tute_enabled": False,
     "cante_restriction": "first_win_only", "cante_by": "winning_side_each"},
]


#: the stock games: the upcard, the draw after each stock trick (winner first, the upcard
#: last and face up), the 7 or the 2 of trumps taking the upcard on the winner's next turn,
#: cantes after the draw while the stock lasts, the stock-phase duties, then the arrastre's
STOCK_CASES: list[tuple[str, dict[str, Any]]] = [
    ("tute_2p_habanero", {}),
    ("tute_2p_habanero", {"stock_phase_rule": "full", "cante_restriction": "first_win_only",
                          "must_undertrump": True, "two_exchanges_four": False}),
    ("tute_2p_corriente", {}),
    ("tute_2p_corriente", {"stock_phase_rule": "follow_suit", "exchange_two_enabled": False,
                           "hand_size": 8, "deal_packet": 3, "forty_first": "forfeit",
                           "must_head_after_ruff": True, "tute_enabled": False}),
    # Guiñote: four in pairs (the partner sings too, asked first; cantes in the arrastre) or
    # two; packets of three
    ("guinote", {}),
    ("guinote", {"thirty_malas": True, "cante_by": "winning_side_one",
                 "partner_exemption": False, "must_undertrump": True, "deal_packet": 1,
                 "cante_restriction": "forfeit_if_skipped_first"}),
    ("guinote_2p", {}),
    ("guinote_2p", {"stock_phase_rule": "follow_trump_lead", "two_exchanges_four": False,
                    "thirty_malas": True, "hand_size": 7}),
]


def _play_both(options: dict[str, Any], seed: int, games: int, steps: int,
               variant: str = "tute_parejas", chosen: Counter[str] | None = None) -> int:
    """Random legal play of ``games`` games in a VectorEnv and as many per-step
    environments seeded alike; every observation, mask, seat, end and reward must agree.
    Returns the deals finished; ``chosen`` counts the actions played by kind (``card``,
    ``cambio``, ``veinte``...)."""
    vec = VectorEnv(variant, games, **options)
    obs, masks = vec.reset(seed=seed)
    envs = []
    for i in range(games):
        e = tute.rl.env(variant, **options)
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
            if chosen is not None:
                chosen["card" if acts[-1] < 40 else vec.actions[acts[-1]].split(":")[0]] += 1
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


@pytest.mark.parametrize("options", ARRASTRADO_OPTION_SETS,
                         ids=lambda o: ",".join(o) or "defaults")
def test_arrastrado_whole_games_match_the_per_step_environment(options: dict[str, Any]) -> None:
    assert _play_both(options, seed=5 + len(options), games=3, steps=330,
                      variant="tute_arrastrado_3p") >= 6


@pytest.mark.parametrize(("variant", "options"), STOCK_CASES,
                         ids=lambda c: c if isinstance(c, str) else ",".join(c) or "defaults")
def test_stock_whole_games_match_the_per_step_environment(variant: str,
                                                          options: dict[str, Any]) -> None:
    # eight seeds, five or six deals each: the exchanges and the cantes are met
    chosen: Counter[str] = Counter()
    assert _play_both(options, seed=40 + len(options), games=8, steps=260, variant=variant,
                      chosen=chosen) >= 40
    assert chosen["cambio"] >= 3 and chosen["veinte"] + chosen["cuarenta"] >= 1, chosen


def _searched_deal(variant: str, options: dict[str, Any],
                   meets: Callable[[Deal, list[Any]], bool]) -> tuple[int, list[Any]]:
    """A seed whose first deal, played at random by the engine, meets ``meets`` (called with
    the deal and its legal actions at every decision, and once over with ``[]``), and the
    actions played: for cases too rare in random play to count on."""
    for seed in range(1000):
        env = tute.rl.raw_env(variant, **options)
        env.reset(seed=seed)
        deal = env.table.deal
        assert deal is not None
        rng, played, met = random.Random(seed), [], False
        while not deal.is_over():
            legal = deal.legal_actions()
            met |= meets(deal, legal)
            played.append(legal[rng.randrange(len(legal))])
            deal.apply(played[-1])
        if met or meets(deal, []):
            return seed, played
    raise AssertionError("no deal met the case")


def _replay_both(variant: str, options: dict[str, Any], seed: int, played: list[Any]) -> None:
    """The deal of ``seed`` with the actions ``played``, in a VectorEnv and the per-step
    environment: every observation, mask and the rewards agree."""
    vec = VectorEnv(variant, 1, **options)
    obs, masks = vec.reset(seed=seed)
    env = tute.rl.raw_env(variant, **options)
    env.reset(seed=seed)
    for act in played:
        seen = env.observe(env.agent_selection)
        assert np.array_equal(seen["action_mask"], masks[0])
        assert np.array_equal(seen["observation"], obs[0])
        ids = vec.catalogue.ids([act])
        obs, rewards, done, masks = vec.step(np.array(ids))
        env.step(ids[0])
    assert done[0] and [env.rewards[a] for a in env.possible_agents] == list(rewards[0])


def test_guinote_partner_is_asked_for_the_cante_its_kept_exchange_gives() -> None:
    # the trick winner's partner is asked to sing when the exchange kept for it would give it
    # a declaration: it is offered the exchange and pass alone
    seed, played = _searched_deal("guinote", {}, lambda _deal, legal: [
        str(a).split(":")[0] for a in legal] == ["cambio", "pass"])
    _replay_both("guinote", {}, seed, played)


@pytest.mark.parametrize("variant", ["guinote", "guinote_2p"])
def test_thirty_malas_cantes_need_thirty_card_points(variant: str) -> None:
    # a side that sang but took fewer than 30 card points: its cantes do not count
    def sang_short(deal: Deal, legal: list[Any]) -> bool:
        if legal or not deal.is_over():
            return False
        points = deal.result().card_points
        return any(points[deal.side_of(s)] < 30 and p for s, _d, p in deal.cantes)

    seed, played = _searched_deal(variant, {"thirty_malas": True}, sang_short)
    _replay_both(variant, {"thirty_malas": True}, seed, played)


def test_arrastrado_exchanges_are_dealt_as_the_engine_does() -> None:
    # first deals of many seeds: the table card, the exchanges (the 7, then the 2) and the
    # cards they make known, in VectorEnv's first observation as the engine's view has them
    vec = VectorEnv("tute_arrastrado_3p", 60)
    obs, _masks = vec.reset(seed=100)
    exchanged = twice = 0
    for i in range(60):
        env = tute.rl.raw_env("tute_arrastrado_3p")
        env.reset(seed=100 + i)
        deal = env.table.deal
        assert deal is not None
        seat = int(vec.to_move[i])
        view = deal.view(seat)
        swaps = [e for e in view.history if isinstance(e, Exchanged)]
        exchanged += bool(swaps)
        twice += len(swaps) == 2
        blocks = vec.layout.split(obs[i])
        assert view.table_card is not None and view.trump_card is not None
        assert np.flatnonzero(blocks["table_card"]).tolist() == [view.table_card.index]
        assert np.flatnonzero(blocks["trump_card"]).tolist() == [view.trump_card.index]
        held = [0, 0, 0]  # what each seat is known to hold: the cards it took, not given on
        for e in swaps:
            held[e.seat] = (held[e.seat] & ~e.given.mask) | e.taken.mask
        known = blocks["known"].reshape(3, 40)
        for s in range(3):
            assert sum(1 << int(c) for c in np.flatnonzero(known[(s - seat) % 3])) == held[s]
        assert np.array_equal(encode_view(view), obs[i])
    assert exchanged >= 20 and twice >= 3  # both exchanges were met


@pytest.mark.parametrize("variant", ["tute_subastado", "tute_cabron", "tute_cabrero"])
def test_refuses_what_the_kernel_does_not_play(variant: str) -> None:
    with pytest.raises(InvalidOptionError, match=f"does not play {variant}"):
        VectorEnv(variant, 2)


@pytest.mark.parametrize("options", [{"weak_hand_max_points": 20}, {"renuncio_mode": "claim"},
                                     {"tute_dealt_wins_immediately": True}])
def test_refuses_options_outside_card_play(options: dict[str, Any]) -> None:
    with pytest.raises(InvalidOptionError, match="does not support option"):
        VectorEnv("tute_parejas", 2, **options)


@pytest.mark.parametrize("option", [{"cante_before_draw": True},
                                    {"exchange_last_round_allowed": True},
                                    {"exchange_timing": "own_turn_any"},
                                    {"exchange_timing": "start_and_after_win"},
                                    {"tute_dealt_wins_immediately": True}])
def test_refuses_stock_options_outside_the_kernel(option: dict[str, Any]) -> None:
    # questions asked before the draw or the first lead, exchanges on any turn: the core's
    name = next(iter(option))
    with pytest.raises(InvalidOptionError, match=f"does not support option '{name}'"):
        VectorEnv("tute_2p_habanero", 2, **option)


@pytest.mark.parametrize("option", [{"exchange_side_requirement": "any_trick_won"},
                                    {"guinote_hide_arrastre_suit": True}])
def test_refuses_guinote_options_outside_the_kernel(option: dict[str, Any]) -> None:
    # an exchange on any turn once the side won a trick; a 20 whose suit only its singer
    # knows (the seats' observations differ in more than their hands)
    name = next(iter(option))
    with pytest.raises(InvalidOptionError, match=f"does not support option '{name}'"):
        VectorEnv("guinote", 2, **option)


def test_refuses_optional_arrastrado_exchanges() -> None:
    # optional exchanges are polls before the first lead: the core's; with four players
    # there is no table card, so the option changes nothing and is taken
    with pytest.raises(InvalidOptionError, match="exchange_mandatory"):
        VectorEnv("tute_arrastrado_3p", 2, exchange_mandatory=False)
    assert VectorEnv("tute_arrastrado_3p", 2, players=4, exchange_mandatory=False).num_seats == 4


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


@pytest.mark.parametrize("variant", ["tute_arrastrado_3p", "tute_2p_habanero", "guinote"])
def test_views_are_the_observed_seats(variant: str) -> None:
    # vec.view(i) replays game i's deal in the engine (its exchanges and draws included): its
    # encoding is the observation the batch handed that seat
    vec = VectorEnv(variant, 3)
    obs, _masks = vec.reset(seed=21)
    for _ in range(60):  # past the first deal's end in every game
        for i in range(3):
            assert np.array_equal(encode_view(vec.view(i)), obs[i])
        obs, _r, _d, _m = vec.step(vec.random_actions(seed=4 if _ == 0 else None))


def test_deal_is_the_whole_game_behind_the_view() -> None:
    # vec.deal(i): every hand of game i's deal, the seat to move's view of it is view(i); a
    # copy (changing it changes nothing in the batch); a bad game is refused by name
    vec = VectorEnv("tute_parejas", 2)
    obs, _masks = vec.reset(seed=5)
    for _ in range(50):  # into the second deal of each game
        for i in range(2):
            whole = vec.deal(i)
            seat = whole.to_move
            assert seat is not None
            assert np.array_equal(encode_view(whole.view(seat)), obs[i])
            assert sum(len(h) for h in whole.hands) == 40 - sum(
                len(t.cards) for t in whole.tricks) - len(whole.trick)
            whole.apply(whole.legal_actions()[0])
            assert np.array_equal(encode_view(vec.view(i)), obs[i])
        obs, _r, _d, _m = vec.step(vec.random_actions(seed=3 if _ == 0 else None))
    with pytest.raises(InvalidOptionError, match="invalid game 2"):
        vec.deal(2)
