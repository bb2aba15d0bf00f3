"""Train a small policy with PyTorch on CPU and save it for the ``policy`` bot.

    pip install 'tute[rl]'        # PyTorch, PettingZoo, Gymnasium, NumPy
    .venv/bin/python examples/train_torch.py [--variant tute_parejas] [--minutes 3]
        [--eval-deals 200] [--evals 6] [--opponents random,rules] [--out policy.npz]
        [--log rl-log.json]

Two phases on one training clock (``--minutes``, evaluations not counted):

1. **Imitation warm start**: the ``rules`` bot plays ``--imitation-deals`` deals against
   itself (``tute.rl.generate``) and the network learns its choices (cross-entropy over the
   *legal* actions only; forced moves are left out).
2. **Policy gradient** (REINFORCE with a learned baseline): the policy holds one side of the
   table (both partners, seat and dealer drawn at random) against a side of ``random`` or
   ``rules`` bots (drawn per deal from ``--opponents``), through ``tute.rl.Table``, the driver
   of the PettingZoo and Gymnasium environments: observations from each seat's own view, the
   legal-action mask, the deal's point margin as the reward (hundredths of a point). Actions
   are sampled from the masked softmax; a separate value network on the same observation is
   the baseline; a small entropy bonus and a behaviour-cloning term on the rules data keep
   the policy from collapsing early. Any game runs (``--variant guinote``...); the reward is
   the deal's point margin, which in cabrón and subastado is not the real stake (docs/rl.md).

At ``--evals`` checkpoints spread over the clock (and before training) the policy is saved in
the ``policy:FILE`` format (``tute.bots.policy_bot.write_policy``: the torch weights converted
to NumPy arrays, so playing it needs no torch) and plays ``--eval-deals`` duplicate deals
(``tute.arena.selfplay``: every deal twice, the sides exchanging seats; the same deals at
every checkpoint) against ``random`` and against ``rules``. The log (JSON) holds, per
checkpoint, the training seconds and the mean margin per duplicate pair with its 95%
interval against each, and once, as a yardstick, ``rules`` itself against ``random`` on the
same deals; ``examples/plot_learning_curve.py`` draws it. Then:

    tute selfplay --bots policy:policy.npz,rules --duplicate --deals 200
    tute arena policy:policy.npz,rules,random
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

try:
    import torch
    from torch import nn
except ImportError:
    sys.exit("this example needs PyTorch: pip install 'tute[rl]' (or pip install torch)")

import tute.rl
from tute.arena import selfplay
from tute.bots import make_bot
from tute.bots.policy_bot import write_policy
from tute.shuffle import MAX_SEED

NEG = -1e9


def mlp(size: int, hidden: int, out: int) -> nn.Sequential:
    """The shape the ``policy`` bot reads: Linear, ReLU, Linear (``W0, b0, W1, b1``)."""
    return nn.Sequential(nn.Linear(size, hidden), nn.ReLU(), nn.Linear(hidden, out))


def layers_of(net: nn.Sequential) -> list[tuple[np.ndarray, np.ndarray]]:
    """The network's ``(W, b)`` pairs as NumPy, ``W`` of shape ``(inputs, outputs)``."""
    return [(m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy())
            for m in net if isinstance(m, nn.Linear)]


def masked_log_softmax(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    return torch.log_softmax(logits.masked_fill(mask == 0, NEG), dim=-1)


class Clock:
    """Training seconds: runs only between ``start()`` and ``stop()``."""

    def __init__(self) -> None:
        self.total = 0.0
        self._since: float | None = None

    def start(self) -> None:
        self._since = time.perf_counter()

    def stop(self) -> None:
        if self._since is not None:
            self.total += time.perf_counter() - self._since
            self._since = None

    def seconds(self) -> float:
        extra = 0.0 if self._since is None else time.perf_counter() - self._since
        return self.total + extra


def rollout(table: Any, policy: list[tuple[np.ndarray, np.ndarray]], opponent: str,
            rng: random.Random, np_rng: np.random.Generator) -> tuple[list[Any], float]:
    """One deal: the policy at one side's seats (sampling), ``opponent`` bots at the others.
    Returns the policy's decisions with a choice (obs, mask, action) and its reward."""
    (w0, b0), (w1, b1) = policy
    var, opts = table.variant, table.options
    side = rng.randrange(table.sides)
    mine = [s for s in range(table.n) if var.side_of(s, opts) == side]
    bots = {s: make_bot(opponent, seed=rng.randrange(2**63))
            for s in range(table.n) if s not in mine}
    table.new(rng.randrange(MAX_SEED + 1), rng.randrange(table.n))
    steps = []
    while not table.is_over():
        seat = table.to_move
        if seat in bots:
            view = table.deal.view(seat)  # a bot decides from its seat's view
            aid = table.catalogue.ids([bots[seat].choose(view, view.legal_actions)])[0]
        else:
            ids = table.legal()[1]
            if len(ids) == 1:
                aid = ids[0]
            else:
                obs = table.observe(seat)
                z = (np.maximum(obs @ w0 + b0, 0.0) @ w1 + b1)[ids]
                p = np.exp(z - z.max())
                aid = ids[int(np_rng.choice(len(ids), p=p / p.sum()))]
                steps.append((obs, table.mask(seat), aid))
        table.apply(aid, seat)
    return steps, table.returns()[mine[0]]


def evaluate(path: Path, variant: str, deals: int, seed: int) -> dict[str, Any]:
    out = {}
    for opp in ("random", "rules"):
        res = selfplay([f"policy:{path}", opp], variant, deals=deals, seed=seed,
                       duplicate=True)
        out[opp] = {**res.margin.to_json(), "win_rate": round(res.win_rate.mean, 4)}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="tute_parejas")
    ap.add_argument("--minutes", type=float, default=3.0, help="training clock (evaluations "
                    "not counted)")
    ap.add_argument("--imitation-deals", type=int, default=1000)
    ap.add_argument("--imitation-epochs", type=int, default=6)
    ap.add_argument("--opponents", default="random,rules", help="bots drawn per deal")
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3, help="imitation learning rate")
    ap.add_argument("--pg-lr", type=float, default=3e-4, help="policy-gradient learning rate")
    ap.add_argument("--batch-deals", type=int, default=32, help="deals per policy update")
    ap.add_argument("--entropy", type=float, default=0.01)
    ap.add_argument("--bc", type=float, default=0.1, help="weight of the imitation term "
                    "during policy gradient (0: none)")
    ap.add_argument("--evals", type=int, default=6, help="checkpoints over the clock")
    ap.add_argument("--eval-deals", type=int, default=200, help="duplicate deals per "
                    "opponent per checkpoint")
    ap.add_argument("--eval-seed", type=int, default=12345)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1, help="torch threads")
    ap.add_argument("--out", default="policy.npz")
    ap.add_argument("--log", default="rl-log.json")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)
    np_rng = np.random.default_rng(args.seed)
    opponents = [o.strip() for o in args.opponents.split(",") if o.strip()]
    for name in opponents:
        make_bot(name)  # fail early, naming the valid bots
    budget = 60.0 * args.minutes
    wall = time.perf_counter()
    table = tute.rl.Table(args.variant)
    size, actions = table.layout.size, table.num_actions
    net = mlp(size, args.hidden, actions)
    value = mlp(size, args.hidden, 1)
    out_path = Path(args.out)
    if out_path.suffix != ".npz":
        out_path = out_path.with_name(out_path.name + ".npz")
    clock = Clock()
    log: dict[str, Any] = {
        "variant": table.variant.id, "minutes": args.minutes,
        "imitation_deals": args.imitation_deals, "imitation_epochs": args.imitation_epochs,
        "opponents": opponents, "hidden": args.hidden, "eval_deals": args.eval_deals,
        "eval_seed": args.eval_seed, "seed": args.seed, "torch": torch.__version__,
        "network": f"{size}->{args.hidden}->{actions} ReLU", "checkpoints": []}
    state = {"phase": "init", "deals": 0, "updates": 0}

    def checkpoint() -> None:
        clock.stop()
        write_policy(out_path, layers_of(net), variant=args.variant, activation="relu")
        t = time.perf_counter()
        res = evaluate(out_path, args.variant, args.eval_deals, args.eval_seed)
        point = {"train_seconds": round(clock.seconds(), 2), **state,
                 "eval_seconds": round(time.perf_counter() - t, 1), **res}
        log["checkpoints"].append(point)
        r, u = res["random"], res["rules"]
        print(f"[{clock.seconds():6.1f} s {state['phase']:>9}] vs random {r['mean']:+6.2f} "
              f"[{r['low']:+.2f}, {r['high']:+.2f}]   vs rules {u['mean']:+6.2f} "
              f"[{u['low']:+.2f}, {u['high']:+.2f}]", flush=True)
        Path(args.log).write_text(json.dumps(log, indent=1) + "\n")
        clock.start()

    # the yardstick, on the same deals: the rules bot itself against random
    ref = selfplay(["rules", "random"], args.variant, deals=args.eval_deals,
                   seed=args.eval_seed, duplicate=True)
    log["rules_vs_random"] = ref.margin.to_json()
    print(f"rules itself vs random on these deals: {ref.margin}", flush=True)
    checkpoint()  # the untrained network
    # ---- 1. imitation of the rules bot
    data = tute.rl.generate(args.variant, args.imitation_deals, bots="rules", seed=args.seed)
    keep = data["mask"].sum(axis=1) > 1  # only real choices teach anything
    bx = torch.from_numpy(data["obs"][keep])
    bm = torch.from_numpy(data["mask"][keep].astype(np.int64))
    by = torch.from_numpy(data["action"][keep].astype(np.int64))
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    n = len(by)
    print(f"imitation: {n} decisions with a choice from {args.imitation_deals} deals "
          f"({clock.seconds():.1f} s)", flush=True)
    for epoch in range(args.imitation_epochs):
        if clock.seconds() > budget:
            break
        order = torch.randperm(n)
        total = 0.0
        for b in range(0, n, 256):
            idx = order[b:b + 256]
            logp = masked_log_softmax(net(bx[idx]), bm[idx])
            loss = -logp.gather(1, by[idx, None]).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        print(f"  epoch {epoch + 1}: cross-entropy {total / n:.3f}", flush=True)
    state["phase"] = "imitation"
    checkpoint()
    # ---- 2. policy gradient against the opponents
    state["phase"] = "reinforce"
    rl_start = clock.seconds()
    marks = [rl_start + (budget - rl_start) * k / max(1, args.evals - 1)
             for k in range(1, max(1, args.evals - 1) + 1)]
    opt = torch.optim.Adam(net.parameters(), lr=args.pg_lr)
    vopt = torch.optim.Adam(value.parameters(), lr=1e-3)
    recent: list[float] = []
    while clock.seconds() < budget:
        policy = layers_of(net)
        obs, masks, acts, rets = [], [], [], []
        for _ in range(args.batch_deals):
            steps, ret = rollout(table, policy, rng.choice(opponents), rng, np_rng)
            recent.append(ret)
            for o, m, a in steps:
                obs.append(o)
                masks.append(m)
                acts.append(a)
                rets.append(ret)
        state["deals"] += args.batch_deals
        x = torch.from_numpy(np.asarray(obs, np.float32))
        m = torch.from_numpy(np.asarray(masks, np.int64))
        a = torch.tensor(acts, dtype=torch.int64)
        r = torch.tensor(rets, dtype=torch.float32)
        v = value(x).squeeze(1)
        vloss = ((v - r) ** 2).mean()
        vopt.zero_grad()
        vloss.backward()
        vopt.step()
        adv = r - v.detach()
        logp = masked_log_softmax(net(x), m)
        probs = logp.exp()
        entropy = -(probs * logp.masked_fill(m == 0, 0.0)).sum(1).mean()
        loss = -(adv * logp.gather(1, a[:, None]).squeeze(1)).mean() - args.entropy * entropy
        if args.bc > 0:
            idx = torch.randint(0, n, (256,))
            bc = -masked_log_softmax(net(bx[idx]), bm[idx]).gather(1, by[idx, None]).mean()
            loss = loss + args.bc * bc
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(net.parameters(), 1.0)
        opt.step()
        state["updates"] += 1
        if state["updates"] % 25 == 0:
            print(f"  {state['deals']} deals: mean reward {100 * np.mean(recent):+.1f} points, "
                  f"value loss {vloss.item():.3f}, entropy {entropy.item():.2f}", flush=True)
            recent = []
        if marks and clock.seconds() >= marks[0] and clock.seconds() < budget:
            marks.pop(0)
            checkpoint()
    state["phase"] = "final"
    checkpoint()
    clock.stop()
    log["train_seconds"] = round(clock.seconds(), 1)
    log["wall_seconds"] = round(time.perf_counter() - wall, 1)
    Path(args.log).write_text(json.dumps(log, indent=1) + "\n")
    print(f"saved {out_path} and {args.log}: {clock.seconds():.0f} s of training, "
          f"{time.perf_counter() - wall:.0f} s in all")


if __name__ == "__main__":
    main()
