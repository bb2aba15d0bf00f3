"""tute.rl.zoo (agents any environment can play against) and tute.rl.complexity."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")
pytest.importorskip("pettingzoo", reason="the rl extra (pettingzoo) is not installed")
pytest.importorskip("gymnasium", reason="the rl extra (gymnasium) is not installed")

import tute.rl  # noqa: E402
from tute import Deal  # noqa: E402
from tute.errors import TuteError  # noqa: E402
from tute.rl import complexity, zoo  # noqa: E402
from tute.rl.encoding import encode_view  # noqa: E402
from tute.rl.gym_env import TuteGymEnv  # noqa: E402
from tute.variants import find_variant  # noqa: E402
from tute.views import SeatView  # noqa: E402

GAMES = ["tute_parejas", "guinote_2p"]
F = math.factorial


def _agents(variant: str) -> list[zoo.Agent]:
    return [zoo.agent("random", seed=1), zoo.agent("rules", seed=2),
            zoo.agent("pimc", seed=3, worlds=2, move_time=0.05),
            zoo.agent("policy", variant=variant)]


class _Spy:
    """Wraps a bot: records what each call was given."""

    def __init__(self, bot: Any):
        self.bot, self.calls = bot, []

    def choose(self, view: Any, legal: Any) -> Any:
        self.calls.append(view)
        return self.bot.choose(view, legal)


@pytest.mark.parametrize("variant", GAMES)
def test_agents_play_legal_actions_in_pettingzoo(variant: str) -> None:
    agents = _agents(variant)
    spies = [_Spy(a.bot) for a in agents if a.bot is not None]
    for a, spy in zip([a for a in agents if a.bot is not None], spies, strict=True):
        a.bot = spy  # type: ignore[assignment]
    env = tute.rl.env(variant)
    for seed in range(2):
        env.reset(seed=seed)
        moves = 0
        for name in env.agent_iter():
            obs, _r, term, _t, _i = env.last()
            if term:
                env.step(None)
                continue
            agent = agents[moves % len(agents)]
            seen = env.view(name) if agent.needs_view else obs
            action = agent.act(seen)
            assert obs["action_mask"][action] == 1  # legal (step would raise otherwise)
            env.step(action)
            moves += 1
        assert moves >= 20
    for spy in spies:  # a bot was only ever given the view of the seat to move
        assert spy.calls and all(isinstance(v, SeatView) and v.to_move == v.seat
                                 for v in spy.calls)


@pytest.mark.parametrize("variant", GAMES)
def test_agents_play_legal_actions_in_gymnasium(variant: str) -> None:
    for agent in _agents(variant):
        env = TuteGymEnv(variant, seat=1, opponents="random")
        obs, info = env.reset(seed=4)
        done = False
        while not done:
            if agent.needs_view:
                action = agent.act(env.view())
            else:
                action = agent.act(obs, info["action_mask"])
            assert info["action_mask"][action] == 1
            obs, _r, done, _t, info = env.step(action)


def test_vector_views_are_the_observed_seats_and_agents_act_in_batch() -> None:
    pytest.importorskip("numba", reason="VectorEnv needs numba")
    vec = tute.rl.VectorEnv("tute_parejas", 4)
    obs, masks = vec.reset(seed=9)
    agents = _agents("tute_parejas")
    ends = 0
    for step in range(100):
        for i in range(4):  # the replayed deal shows the seat exactly what the kernel shows
            assert np.array_equal(encode_view(vec.view(i)), obs[i])
        acts = agents[step % 4].act_batch(obs, masks, vec.view)
        assert all(masks[i, a] == 1 for i, a in enumerate(acts))
        obs, _r, done, masks = vec.step(acts)
        ends += int(done.sum())
    assert ends >= 4  # views of later deals (after the auto-reset) were checked too


def test_refusals_name_what_is_wrong() -> None:
    rules = zoo.agent("rules")
    env = tute.rl.env("tute_parejas")
    env.reset(seed=1)
    obs = env.observe(env.agent_selection)
    with pytest.raises(TuteError, match="reads a seat's view"):
        rules.act(obs)
    with pytest.raises(TuteError, match="not to move"):
        rules.act(env.view("player_0" if env.agent_selection != "player_0" else "player_1"))
    with pytest.raises(TuteError, match="unknown agent 'cheat'"):
        zoo.agent("cheat")
    with pytest.raises(TuteError, match="no setting"):
        zoo.agent("random", worlds=3)
    with pytest.raises(TuteError, match="no trained network ships for tute_cabron"):
        zoo.agent("policy", variant="tute_cabron")
    pol = zoo.agent("policy", variant="guinote_2p")  # another game's network
    with pytest.raises(TuteError, match="reads observations of size"):
        pol.act(obs)
    with pytest.raises(TuteError, match="actions"):
        pol.act(env.view(env.agent_selection))


def test_a_duel_of_an_agent_with_itself_is_even_deal_by_deal() -> None:
    # duplicate deals: the same deterministic agent on both sides scores 0 every pair
    res = zoo.duel(zoo.agent("rules"), zoo.agent("rules"), "tute_parejas", deals=3)
    assert res.margins == [0.0, 0.0, 0.0]
    res = zoo.duel(zoo.agent("rules"), zoo.agent("random"), "guinote_2p", deals=3, seed=5)
    assert len(res.margins) == 3 and res.measure == "points"


# ------------------------------------------------------------------------- complexity


def test_deal_count_is_the_hand_count_from_every_seat() -> None:
    # parejas: four hands of ten, and which of the dealer's ten cards is turned
    deal = Deal.new(find_variant("tute_parejas"), seed=3)
    assert complexity.deal_count(deal) == [F(40) // F(10) ** 4 * 10] * 4
    # a seat beside the dealer: its hand, and the turned card out of the other thirty
    assert complexity.root_views(deal.view((deal.dealer + 1) % 4), 40) == math.comb(40, 10) * 30
    assert complexity.root_views(deal.view(deal.dealer), 40) == math.comb(40, 10) * 10


@pytest.mark.parametrize("variant", complexity.all_variants())
def test_every_seat_counts_the_same_deals(variant: str) -> None:
    c = complexity.measure(variant, samples=2)  # refuses seats that disagree
    assert c.first_size_log10 < c.deals_log10 < c.infosets_log10
    assert c.actions > 40 and c.decisions >= 30


def test_estimate_on_a_tree_counted_by_hand() -> None:
    # 6 deals; the first node of each is in an information set of 2 (3 sets), then 2
    # actions lead to nodes each alone in its set (12 sets): 15 sets
    paths = [[(2, 2), (1, 1)]] * 5
    assert complexity.infoset_estimate(paths, 6) == 15


def test_measure_gives_the_counts_a_hand_count_gives() -> None:
    c = complexity.measure("tute_parejas", samples=2)
    assert (c.seats, c.cards, c.actions) == (4, 40, 48)
    assert math.isclose(c.deals_log10, math.log10(F(40) // F(10) ** 4 * 10))
    # the mano's first decision: 29 cards it cannot place, 9 with the dealer (beside the
    # turned card) and 10 with each of the two others
    assert math.isclose(c.first_size_log10, math.log10(F(29) // (F(9) * F(10) ** 2)))
    assert 40 <= c.decisions <= 50 and c.choices < c.decisions
    assert c.first_size_log10 < c.deals_log10 < c.infosets_log10
    # arrastrado's table card changes hands in public before the first lead
    arr = complexity.measure("tute_arrastrado_3p", samples=1)
    assert math.isclose(arr.deals_log10, math.log10(F(40) // F(13) ** 3))
    assert "| `tute_parejas` | 4 | 40 | 48 |" in complexity.markdown([c])


def test_vector_training_example_runs(tmp_path: Path) -> None:
    """examples/train_vector.py for a few seconds (tiny settings); its file is a zoo agent.
    Skipped without torch (``make test`` does not install it) or numba (``VectorEnv``)."""
    pytest.importorskip("torch", reason="examples/train_vector.py needs torch (the rl extra)")
    pytest.importorskip("numba", reason="VectorEnv needs numba")
    script = Path(__file__).resolve().parents[1] / "examples" / "train_vector.py"
    out_file, log_file = tmp_path / "vector.npz", tmp_path / "log.json"
    out = subprocess.run([sys.executable, str(script), "--games", "4", "--imitation-deals",
                          "6", "--epochs", "1", "--hidden", "8", "--minutes", "0.05",
                          "--batch-deals", "2", "--eval-deals", "2", "--device", "cpu",
                          "--out", str(out_file), "--log", str(log_file)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    log = json.loads(log_file.read_text())
    assert log["device"] == "cpu" and log["imitation_decisions"] > 0
    for key in ("after_imitation", "final", "other_deals"):
        assert log[key]["pairs"] == 2 and log[key]["low"] <= log[key]["mean"]
    res = zoo.duel(zoo.agent("policy", file=str(out_file)), zoo.agent("random"), deals=1)
    assert len(res.margins) == 1


def test_values_training_example_runs(tmp_path: Path) -> None:
    """examples/train_values.py with tiny settings: the solver labels real decisions of the
    batched games, its file is a residual on rules (a huge prior weight plays as rules)."""
    pytest.importorskip("torch", reason="examples/train_values.py needs torch (the rl extra)")
    pytest.importorskip("numba", reason="VectorEnv and the solver need numba")
    script = Path(__file__).resolve().parents[1] / "examples" / "train_values.py"
    out_file, log_file, data = tmp_path / "values.npz", tmp_path / "log.json", tmp_path / "d.npz"
    out = subprocess.run([sys.executable, str(script), "--games", "4", "--deals", "3",
                          "--epochs", "1", "--hidden", "16", "--betas", "0,1000",
                          "--val-deals", "2", "--eval-deals", "2", "--device", "cpu",
                          "--save-data", str(data), "--out", str(out_file),
                          "--log", str(log_file)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    log = json.loads(log_file.read_text())
    assert log["fit"]["decisions"] > 20 and set(log["validation"]) == {"0", "1000"}
    assert log["final"]["n"] == 2 and log["final"]["low"] <= log["final"]["mean"]
    with np.load(data) as f:  # every labelled decision values its legal actions only
        assert ((f["q"] != 0) <= (f["m"] > 0)).all() and (f["m"].sum(axis=1) > 1).all()
    from tute.bots.policy_bot import load_policy
    assert load_policy(out_file).prior == "rules"
    res = zoo.duel(zoo.agent("policy", file=str(out_file)), zoo.agent("random"), deals=1)
    assert len(res.margins) == 1
