"""The ``policy:FILE`` bot: the file format, its checks, play in every game, the CLI."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy", reason="the policy bot needs numpy (the rl extra)")

import tute  # noqa: E402
from tute.bots import make_bot, parse_spec  # noqa: E402
from tute.bots.policy_bot import load_policy, write_policy  # noqa: E402
from tute.deal import Deal  # noqa: E402
from tute.errors import TuteError  # noqa: E402
from tute.rl.encoding import ActionCatalogue, Layout  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

GAMES: list[tuple[str, dict[str, Any]]] = [(v, {}) for v in tute.VARIANTS] + [
    ("tute_subastado", {"seats": 4, "widow_card": True, "dealer_takeover": True}),
    ("tute_2p_habanero", {"vueltas_claim": "manual"}),
    ("tute_parejas", {"renuncio_mode": "claim", "weak_hand_max_points": 20}),
]


def _random_policy(path: Path, variant: str, options: dict[str, Any], hidden: int = 16,
                   seed: int = 0, activation: str = "tanh") -> Path:
    var = tute.find_variant(variant)
    opts = var.resolve(options)
    size, count = Layout.of(var, opts).size, len(ActionCatalogue(var, opts))
    rng = np.random.default_rng(seed)
    layers = [(rng.normal(size=(size, hidden)), rng.normal(size=hidden)),
              (rng.normal(size=(hidden, count)), np.zeros(count))]
    return write_policy(path, layers, variant=variant, options=options, activation=activation)


@pytest.mark.parametrize(("variant", "options"), GAMES,
                         ids=[v + (":" + json.dumps(o) if o else "") for v, o in GAMES])
def test_a_saved_policy_plays_whole_deals_legally(tmp_path: Path, variant: str,
                                                  options: dict[str, Any]) -> None:
    path = _random_policy(tmp_path / "p", variant, options)
    assert path.name == "p.npz"
    for k in range(3):
        deal = Deal.new(variant, seed=k, options=options)
        bots = [make_bot(f"policy:{path}" + (":temperature=1" if s % 2 else ""), seed=s)
                for s in range(deal.seats)]
        steps = 0
        while not deal.is_over():
            seat = deal.to_move
            assert seat is not None
            view = deal.view(seat)  # the bot sees its seat's view, nothing else
            act = bots[seat].choose(view, view.legal_actions)
            assert act in view.legal_actions
            deal.apply(act)
            steps += 1
        assert steps > 0


def test_the_policy_is_the_files_network(tmp_path: Path) -> None:
    """Greedy play is the legal action of highest logit of the saved layers."""
    from tute.rl.encoding import encode_view

    path = _random_policy(tmp_path / "p.npz", "guinote", {}, activation="relu")
    policy = load_policy(path)
    bot = make_bot(f"policy:{path}")
    deal = Deal.new("guinote", seed=5)
    for _ in range(12):
        view = deal.view(deal.to_move)  # type: ignore[arg-type]
        x = encode_view(view)
        (w0, b0), (w1, b1) = policy.layers
        logits = np.maximum(x @ w0 + b0, 0) @ w1 + b1
        ids = ActionCatalogue(tute.find_variant("guinote"), view.options).ids(view.legal_actions)
        expect = view.legal_actions[int(np.argmax(logits[ids]))]
        assert bot.choose(view, view.legal_actions) == expect
        deal.apply(expect)


def _rebuild(deal: Deal, swap: dict[str, str]) -> Deal | None:
    rec = deal.to_record()["deal"]

    def ren(c: Any) -> Any:
        if isinstance(c, list):
            return [ren(x) for x in c]
        return swap.get(c, c) if isinstance(c, str) else c

    try:
        other = Deal.new(deal.variant, dealer=deal.dealer, options=deal.options,
                         hands=ren(rec["hands"]),
                         **{k: ren(v) for k, v in rec.items() if k != "hands"})
        for a in deal.actions:
            other.apply(a)
    except TuteError:
        return None
    return other


def test_decisions_ignore_how_hidden_cards_lie(tmp_path: Path) -> None:
    path = _random_policy(tmp_path / "p.npz", "tute_parejas", {})
    rng = random.Random(3)
    checked = 0
    for k in range(8):
        deal = Deal.new("tute_parejas", seed=k)
        for _ in range(rng.randrange(2, 20)):
            deal.apply(rng.choice(deal.legal_actions()))
        seat = deal.to_move
        assert seat is not None
        view = deal.view(seat)
        others = [(s, str(c)) for s in range(4) if s != seat for c in deal.hand(s)
                  if not any(c in kc for kc in view.known)]
        for _ in range(10):
            (s1, a), (s2, b) = rng.sample(others, 2)
            if s1 == s2:
                continue
            other = _rebuild(deal, {a: b, b: a})
            if other is None or other.to_move != seat or other.view(seat) != view:
                continue
            assert make_bot(f"policy:{path}").choose(view, view.legal_actions) == make_bot(
                f"policy:{path}").choose(other.view(seat), view.legal_actions)
            checked += 1
    assert checked >= 5


def test_bad_files_are_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(TuteError, match="does not exist"):
        make_bot(f"policy:{tmp_path / 'nope.npz'}")
    with pytest.raises(TuteError, match="needs a file"):
        make_bot("policy")
    text = tmp_path / "text.npz"
    text.write_text("hello")
    with pytest.raises(TuteError, match="not a zip archive"):
        make_bot(f"policy:{text}")
    empty = tmp_path / "empty.npz"
    np.savez(empty, x=np.zeros(3))
    with pytest.raises(TuteError, match="no 'format' entry"):
        make_bot(f"policy:{empty}")
    good = _random_policy(tmp_path / "good.npz", "tute_parejas", {})
    with np.load(good) as data:
        arrays = {k: data[k] for k in data.files}

    def variant_of(name: str, **changes: Any) -> Path:
        path = tmp_path / f"{name}.npz"
        np.savez(path, **{**arrays, **changes})
        return path

    meta = json.loads(str(arrays["meta"]))
    for name, changes, message in [
        ("v3", {"version": np.array(3)}, "format version 3"),
        ("v2", {"version": np.array(2)}, "version 2 but no 'prior'"),
        ("meta", {"meta": np.array("{not json")}, "'meta' is not JSON"),
        ("act", {"meta": np.array(json.dumps({**meta, "activation": "gelu"}))}, "gelu"),
        ("shape", {"W1": np.zeros((15, 48), np.float32)}, "layer 1 takes 15 inputs"),
        ("nan", {"b0": np.full(16, np.nan, np.float32)}, "NaN"),
        ("size", {"meta": np.array(json.dumps({**meta, "obs_size": 10}))},
         r"layer 0 takes 720 inputs, the previous layer gives 10 \(the observation size"),
    ]:
        with pytest.raises(TuteError, match=message):
            make_bot(f"policy:{variant_of(name, **changes)}")
    # a policy of one game asked to play another: another observation size
    bot = make_bot(f"policy:{good}")
    view = Deal.new("tute_2p_habanero", seed=1).view(0)
    with pytest.raises(TuteError, match=r"is for observations of size 720 \(tute_parejas\); "
                                        r"tute_2p_habanero"):
        bot.choose(view, view.legal_actions)
    with pytest.raises(TuteError, match="do not fit 720 inputs"):
        write_policy(tmp_path / "w", [(np.zeros((3, 48)), np.zeros(48))], variant="tute_parejas")


def _prior_policy(path: Path, variant: str, weight: float, prior: str = "rules") -> Path:
    var = tute.find_variant(variant)
    opts = var.resolve({})
    size, count = Layout.of(var, opts).size, len(ActionCatalogue(var, opts))
    rng = np.random.default_rng(1)
    layers = [(rng.normal(size=(size, 16)), rng.normal(size=16)),
              (rng.normal(size=(16, count)), np.zeros(count))]
    return write_policy(path, layers, variant=variant, prior=prior, prior_weight=weight)


@pytest.mark.parametrize("variant", ["tute_parejas", "guinote_2p", "tute_arrastrado_3p"])
def test_a_rules_prior_of_great_weight_plays_exactly_as_rules(tmp_path: Path,
                                                              variant: str) -> None:
    """A random network under a rules prior of weight 1e6: every choice is rules' (the bot
    and the zoo agent), and a duplicate duel against rules is level on every pair."""
    from tute.rl import zoo
    from tute.rl.encoding import encode_view

    path = _prior_policy(tmp_path / "p.npz", variant, 1e6)
    policy = load_policy(path)
    assert (policy.prior, policy.prior_weight) == ("rules", 1e6)
    plain = load_policy(_random_policy(tmp_path / "plain.npz", variant, {}))
    agent = zoo.agent("policy", file=str(path))
    assert agent.needs_view
    differ = 0
    for k in range(2):
        deal = Deal.new(variant, seed=k)
        bots = [make_bot(f"policy:{path}", seed=s) for s in range(deal.seats)]
        rules = [make_bot("rules", seed=s) for s in range(deal.seats)]
        while not deal.is_over():
            seat = deal.to_move
            assert seat is not None
            view = deal.view(seat)
            want = rules[seat].choose(view, view.legal_actions)
            assert bots[seat].choose(view, view.legal_actions) == want
            cat = agent.catalogue(view)
            assert agent.act(view) == cat.ids([want])[0]
            ids = cat.ids(view.legal_actions)
            net = view.legal_actions[int(np.argmax(plain.logits(encode_view(view))[ids]))]
            differ += net != want  # the network alone would often play otherwise
            deal.apply(want)
    assert differ > 0
    res = zoo.duel(agent, zoo.agent("rules"), variant, deals=3, seed=4)
    assert res.margins == [0.0, 0.0, 0.0]
    with pytest.raises(TuteError, match="rules prior, which reads the seat's view"):
        agent._batch(np.zeros((1, policy.obs_size), np.float32),
                     np.ones((1, len(policy.actions))))


def test_a_small_prior_weight_leaves_the_network_its_say(tmp_path: Path) -> None:
    """Logits plus the weight on rules' choice: a weight of 0 is the network alone."""
    from tute.rl.encoding import encode_view

    path = _prior_policy(tmp_path / "p.npz", "tute_parejas", 0.0)
    policy = load_policy(path)
    bot = make_bot(f"policy:{path}")
    deal = Deal.new("tute_parejas", seed=2)
    for _ in range(10):
        view = deal.view(deal.to_move)  # type: ignore[arg-type]
        ids = ActionCatalogue(tute.find_variant("tute_parejas"), view.options).ids(
            view.legal_actions)
        expect = view.legal_actions[int(np.argmax(policy.logits(encode_view(view))[ids]))]
        assert bot.choose(view, view.legal_actions) == expect
        deal.apply(expect)


def test_a_bad_prior_is_refused_by_name(tmp_path: Path) -> None:
    good = _prior_policy(tmp_path / "good.npz", "tute_parejas", 2.0)
    with np.load(good) as data:
        arrays = {k: data[k] for k in data.files}
    assert int(arrays["version"]) == 2  # an older tute refuses it rather than drop the prior
    meta = json.loads(str(arrays["meta"]))
    for name, changes, message in [
        ("pimc", {"meta": np.array(json.dumps({**meta, "prior": "pimc"}))},
         "unknown prior 'pimc'; valid: rules"),
        ("weight", {"meta": np.array(json.dumps({**meta, "prior_weight": "big"}))},
         "prior_weight 'big' is not a finite number"),
        ("noweight", {"meta": np.array(json.dumps({k: v for k, v in meta.items()
                                                   if k != "prior_weight"}))},
         "a prior needs a 'prior_weight'"),
        ("v1", {"version": np.array(1)}, "a prior needs version 2, not 1"),
        ("orphan", {"meta": np.array(json.dumps({k: v for k, v in meta.items()
                                                 if k != "prior"})), "version": np.array(1)},
         "'prior_weight' without a 'prior'"),
    ]:
        path = tmp_path / f"{name}.npz"
        np.savez(path, **{**arrays, **changes})
        with pytest.raises(TuteError, match=message):
            make_bot(f"policy:{path}")
    with pytest.raises(TuteError, match="invalid prior 'pimc': expected one of rules"):
        _prior_policy(tmp_path / "w", "tute_parejas", 1.0, prior="pimc")
    with pytest.raises(TuteError, match="invalid prior_weight inf"):
        write_policy(tmp_path / "w", [(np.zeros((720, 48)), np.zeros(48))],
                     variant="tute_parejas", prior="rules", prior_weight=float("inf"))


def test_spec_takes_a_bare_path() -> None:
    assert parse_spec("policy:runs/a=b/p.npz:temperature=0.5") == (
        "policy", {"file": "runs/a=b/p.npz", "temperature": 0.5})
    assert parse_spec("policy:file=p.npz") == ("policy", {"file": "p.npz"})
    with pytest.raises(TuteError, match="invalid bot setting"):
        parse_spec("rules:oops")  # other bots keep the strict form


def test_arena_and_selfplay_take_a_policy_file(tmp_path: Path) -> None:
    from tute.arena import selfplay

    path = _random_policy(tmp_path / "p.npz", "tute_parejas", {})
    res = selfplay([f"policy:{path}", "random"], "tute_parejas", deals=2, seed=1)
    assert any(str(path) in label or str(path) in str(value) for label, value in res.rows())
    out = subprocess.run([sys.executable, "-m", "tute", "arena", f"policy:{path},random",
                          "--deals", "2"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "policy:" in out.stdout
    cli = subprocess.run([sys.executable, "-m", "tute", "selfplay", "--bots",
                          f"policy:{path},rules", "--duplicate", "--deals", "1", "--json"],
                         capture_output=True, text=True, timeout=300)
    assert cli.returncode == 0, cli.stderr
    assert f"policy:{path}" in cli.stdout
    # a file of another game is refused by name, exit 2, one line
    bad = subprocess.run([sys.executable, "-m", "tute", "selfplay", "--variant", "guinote",
                          "--bots", f"policy:{path},rules", "--deals", "1"],
                         capture_output=True, text=True, timeout=300)
    assert bad.returncode == 2 and "another action catalogue" in bad.stderr, bad.stderr


def test_a_policy_plays_the_gymnasium_opponents(tmp_path: Path) -> None:
    pytest.importorskip("gymnasium", reason="the rl extra (gymnasium) is not installed")
    from tute.rl.gym_env import TuteGymEnv

    path = _random_policy(tmp_path / "p.npz", "tute_2p_habanero", {})
    env = TuteGymEnv("tute_2p_habanero", opponents=f"policy:{path}")
    _obs, info = env.reset(seed=4)
    assert env.bots[1].name == "policy"
    done = False
    while not done:
        _obs, _r, done, _t, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))


def test_training_example_runs(tmp_path: Path) -> None:
    script = ROOT / "examples" / "train_policy.py"
    out_file = tmp_path / "trained.npz"
    out = subprocess.run([sys.executable, str(script), "--deals", "20", "--epochs", "1",
                          "--eval", "2", "--out", str(out_file)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "saved" in out.stdout and out_file.is_file()
    bot = make_bot(f"policy:{out_file}")
    deal = Deal.new("tute_parejas", seed=9)
    view = deal.view(deal.to_move)  # type: ignore[arg-type]
    assert bot.choose(view, view.legal_actions) in view.legal_actions


def test_torch_training_example_runs(tmp_path: Path) -> None:
    """examples/train_torch.py for a few seconds (tiny settings), then its file plays a deal
    as a bot and in the arena; skipped without torch (``make test`` does not install it)."""
    pytest.importorskip("torch", reason="examples/train_torch.py needs torch (the rl extra)")
    script = ROOT / "examples" / "train_torch.py"
    out_file, log_file = tmp_path / "torch.npz", tmp_path / "log.json"
    out = subprocess.run([sys.executable, str(script), "--minutes", "0.05",
                          "--imitation-deals", "10", "--imitation-epochs", "1",
                          "--hidden", "8", "--batch-deals", "4", "--evals", "2",
                          "--eval-deals", "2", "--out", str(out_file), "--log", str(log_file)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "saved" in out.stdout and out_file.is_file()
    log = json.loads(log_file.read_text())
    phases = [p["phase"] for p in log["checkpoints"]]
    assert phases[0] == "init" and phases[-1] == "final" and "imitation" in phases
    for point in log["checkpoints"]:
        for opp in ("random", "rules"):
            assert point[opp]["n"] == 2 and point[opp]["low"] <= point[opp]["mean"]
    policy = load_policy(out_file)
    assert [w.shape for w, _b in policy.layers] == [(policy.obs_size, 8),
                                                    (8, len(policy.actions))]
    cli = subprocess.run([sys.executable, "-m", "tute", "selfplay", "--bots",
                          f"policy:{out_file},rules", "--duplicate", "--deals", "1"],
                         capture_output=True, text=True, timeout=300)
    assert cli.returncode == 0, cli.stderr
    assert "policy:" in cli.stdout
    bot = make_bot(f"policy:{out_file}")
    deal = Deal.new("tute_parejas", seed=9)
    view = deal.view(deal.to_move)  # type: ignore[arg-type]
    assert bot.choose(view, view.legal_actions) in view.legal_actions
