"""Train a policy with PyTorch on the batched environment (``tute.rl.VectorEnv``) against the
``rules`` agent of the zoo, and measure it against ``rules`` on duplicate deals.

    pip install 'tute[rl]'        # PyTorch, PettingZoo, Gymnasium, NumPy, numba
    .venv/bin/python examples/train_vector.py [--games 64] [--imitation-deals 2000]
        [--minutes 4] [--eval-deals 200] [--out policy.npz] [--device auto|cpu|cuda]

The device is CUDA when there is one (``--device auto``), else the CPU; the environment and
the ``rules`` agent run on the CPU either way (the network is small: the GPU helps little).

1. **Imitation**: ``--games`` games of Tute por parejas in one ``VectorEnv``, every seat
   played by the zoo's ``rules`` agent, which reads each game's seat view
   (``vec.view(i)``: the deal replayed from its seed and actions); the network (720 -> 256
   -> 256 -> 48, ReLU) learns its choices (cross-entropy over the legal actions; forced moves
   left out).
2. **PPO against rules**: in every game the network holds one side (drawn per deal), the
   ``rules`` agent the other; the network's rows are one batched forward pass a step, the
   rules agent's rows its seat views. A deal's reward is its point margin for the network's
   side (/100); the advantage is that less a value network's estimate; clipped PPO updates,
   two epochs a batch of ``--batch-deals`` deals, an entropy bonus and a cloning term on the
   imitation data that keep the policy near rules while it learns where rules loses.
3. **Evaluation**: the network saved as a ``policy`` file (``write_policy``: NumPy weights,
   no torch to play it) plays ``--eval-deals`` duplicate deals against ``rules``
   (``tute.rl.zoo.duel``: every deal twice, sides swapped), printed with its 95% interval,
   before and after the PPO phase.

    tute selfplay --bots policy:policy.npz,rules --duplicate --deals 200
"""

from __future__ import annotations

import argparse
import json
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

from tute.bots.policy_bot import write_policy
from tute.rl import VectorEnv, zoo

VARIANT = "tute_parejas"


def mlp(sizes: list[int]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for i in range(len(sizes) - 1):
        layers.append(nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2:
            layers.append(nn.ReLU())
    return nn.Sequential(*layers)


def save(net: nn.Sequential, path: Path) -> Path:
    layers = [(m.weight.detach().cpu().numpy().T, m.bias.detach().cpu().numpy())
              for m in net if isinstance(m, nn.Linear)]
    return write_policy(path, layers, variant=VARIANT, activation="relu")


def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    return logits.masked_fill(mask <= 0, -1e9)


def imitation_data(vec: VectorEnv, rules: zoo.Agent, deals: int,
                   seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rules agent at every seat of every game till ``deals`` deals end."""
    obs, masks = vec.reset(seed=seed)
    xs, ms, ys = [], [], []
    ended = 0
    while ended < deals:
        acts = rules.act_batch(obs, masks, vec.view)
        choice = masks.sum(axis=1) > 1
        xs.append(obs[choice].copy())
        ms.append(masks[choice].copy())
        ys.append(acts[choice].copy())
        obs, _r, done, masks = vec.step(acts)
        ended += int(done.sum())
    return np.concatenate(xs), np.concatenate(ms), np.concatenate(ys)


def imitate(net: nn.Sequential, data: tuple[np.ndarray, ...], epochs: int, device: str,
            seed: int) -> float:
    x, m, y = (torch.as_tensor(a).to(device) for a in data)
    m = m.float()
    gen = torch.Generator().manual_seed(seed)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    n = len(x)
    test = torch.arange(n) % 10 == 0
    train_idx = torch.nonzero(~test).flatten()
    for _ in range(epochs):
        for batch in train_idx[torch.randperm(len(train_idx), generator=gen)].split(256):
            loss = nn.functional.cross_entropy(masked_logits(net(x[batch]), m[batch]), y[batch])
            opt.zero_grad()
            loss.backward()
            opt.step()
    with torch.no_grad():
        pick = masked_logits(net(x[test]), m[test]).argmax(dim=1)
        return float((pick == y[test]).float().mean())


class Rollouts:
    """The network's decisions of the deals under way, per game, till each deal ends."""

    def __init__(self, games: int):
        self.open: list[list[tuple[np.ndarray, np.ndarray, int, float]]] = [[] for _ in
                                                                            range(games)]
        self.done: list[tuple[np.ndarray, np.ndarray, int, float, float]] = []
        self.deals = 0

    def add(self, i: int, obs: np.ndarray, mask: np.ndarray, act: int, logp: float) -> None:
        self.open[i].append((obs.copy(), mask.copy(), act, logp))

    def end(self, i: int, ret: float) -> None:
        self.done += [(o, m, a, lp, ret) for o, m, a, lp in self.open[i]]
        self.open[i] = []
        self.deals += 1


def ppo(net: nn.Sequential, value: nn.Sequential, vec: VectorEnv, rules: zoo.Agent,
        bc: tuple[np.ndarray, ...], args: argparse.Namespace, device: str) -> dict[str, Any]:
    rng = np.random.default_rng(args.seed + 1)
    opt = torch.optim.Adam([*net.parameters(), *value.parameters()], lr=args.lr)
    bx, bm, by = (torch.as_tensor(a).to(device) for a in bc)
    bm = bm.float()
    obs, masks = vec.reset(seed=args.seed + 10_000)
    side = rng.integers(2, size=vec.num_envs)  # the network's side in each game
    roll = Rollouts(vec.num_envs)
    start = time.perf_counter()
    updates = deals = 0
    returns: list[float] = []
    while time.perf_counter() - start < 60 * args.minutes:
        seats = vec.to_move
        mine = (seats % 2) == side
        acts = np.zeros(vec.num_envs, np.int64)
        rows = np.flatnonzero(mine)
        if len(rows):
            with torch.no_grad():
                x = torch.as_tensor(obs[rows]).to(device)
                mk = torch.as_tensor(masks[rows]).to(device).float()
                logp = torch.log_softmax(masked_logits(net(x), mk), dim=1)
                pick = torch.distributions.Categorical(logits=logp).sample()
                lp = logp.gather(1, pick[:, None])[:, 0]
            for k, i in enumerate(rows):
                acts[i] = int(pick[k])
                if masks[i].sum() > 1:  # forced moves teach nothing
                    roll.add(int(i), obs[i], masks[i], int(pick[k]), float(lp[k]))
        for i in np.flatnonzero(~mine):
            acts[i] = rules.act(vec.view(int(i)))
        obs, rewards, done, masks = vec.step(acts)
        for i in np.flatnonzero(done):
            ret = float(rewards[i, side[i]])  # seat side[i] is on the network's side
            roll.end(int(i), ret)
            returns.append(ret)
            side[i] = rng.integers(2)
        if roll.deals >= args.batch_deals:
            update(net, value, opt, roll.done, (bx, bm, by), args, device)
            deals += roll.deals
            updates += 1
            roll.done, roll.deals = [], 0
    return {"ppo_seconds": round(time.perf_counter() - start, 1), "ppo_deals": deals,
            "updates": updates, "mean_training_return": float(np.mean(returns) * 100)
            if returns else None}


def update(net: nn.Sequential, value: nn.Sequential, opt: torch.optim.Optimizer,
           batch: list[tuple[np.ndarray, np.ndarray, int, float, float]],
           bc: tuple[torch.Tensor, ...], args: argparse.Namespace, device: str) -> None:
    x = torch.as_tensor(np.stack([b[0] for b in batch])).to(device)
    m = torch.as_tensor(np.stack([b[1] for b in batch])).to(device).float()
    a = torch.as_tensor([b[2] for b in batch]).to(device)
    old = torch.as_tensor([b[3] for b in batch], dtype=torch.float32).to(device)
    ret = torch.as_tensor([b[4] for b in batch], dtype=torch.float32).to(device)
    bx, bm, by = bc
    for _ in range(2):
        for idx in torch.randperm(len(x)).split(512):
            logp_all = torch.log_softmax(masked_logits(net(x[idx]), m[idx]), dim=1)
            logp = logp_all.gather(1, a[idx][:, None])[:, 0]
            v = value(x[idx])[:, 0]
            adv = (ret[idx] - v).detach()
            ratio = torch.exp(logp - old[idx])
            pg = -torch.min(ratio * adv, ratio.clamp(0.8, 1.2) * adv).mean()
            probs = logp_all.exp()
            entropy = -(probs * logp_all.clamp(min=-50)).sum(dim=1).mean()
            pick = torch.randint(len(bx), (256,), device=device)
            clone = nn.functional.cross_entropy(masked_logits(net(bx[pick]), bm[pick]),
                                                by[pick])
            loss = (pg + 0.5 * ((v - ret[idx]) ** 2).mean() - args.entropy * entropy
                    + args.clone * clone)
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_([*net.parameters(), *value.parameters()], 1.0)
            opt.step()


def evaluate(path: Path, deals: int, seed: int) -> dict[str, Any]:
    res = zoo.duel(zoo.agent("policy", file=str(path)), zoo.agent("rules"), VARIANT,
                   deals=deals, seed=seed)
    iv = res.margin
    return {"mean": round(iv.mean, 2), "low": round(iv.low, 2), "high": round(iv.high, 2),
            "pairs": iv.n, "seconds": round(res.seconds, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=64, help="games in the VectorEnv")
    ap.add_argument("--imitation-deals", type=int, default=2000)
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--minutes", type=float, default=4.0, help="the PPO phase's clock")
    ap.add_argument("--batch-deals", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--entropy", type=float, default=0.003)
    ap.add_argument("--clone", type=float, default=0.05)
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--eval-deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--device", default="auto", choices=["auto", "cpu", "cuda"])
    ap.add_argument("--out", default="policy.npz")
    ap.add_argument("--log", default=None, help="write the figures as JSON here")
    args = ap.parse_args()
    device = ("cuda" if torch.cuda.is_available() else "cpu") if args.device == "auto" \
        else args.device
    torch.manual_seed(args.seed)
    if device == "cpu":
        torch.set_num_threads(1)  # small matrices: threads cost more than they give
    vec = VectorEnv(VARIANT, args.games)
    rules = zoo.agent("rules", seed=args.seed)
    log: dict[str, Any] = {"device": device, "torch": torch.__version__, "args": vars(args)}
    t0 = time.perf_counter()
    data = imitation_data(vec, rules, args.imitation_deals, args.seed)
    log["imitation_decisions"] = len(data[0])
    log["imitation_data_seconds"] = round(time.perf_counter() - t0, 1)
    print(f"{len(data[0])} rules decisions with a choice from {args.imitation_deals} deals "
          f"on {args.games} batched games ({log['imitation_data_seconds']} s), device {device}")
    h = args.hidden
    net = mlp([vec.observation_size, h, h, vec.num_actions]).to(device)
    value = mlp([vec.observation_size, 128, 1]).to(device)
    t1 = time.perf_counter()
    log["agreement"] = round(imitate(net, data, args.epochs, device, args.seed), 4)
    log["imitation_seconds"] = round(time.perf_counter() - t1, 1)
    out = Path(args.out)
    save(net, out)
    log["after_imitation"] = evaluate(out, args.eval_deals, seed=12345)
    print(f"imitation: held-out agreement with rules {100 * log['agreement']:.1f}%; against "
          f"rules {log['after_imitation']}")
    log.update(ppo(net, value, vec, rules, data, args, device))
    save(net, out)
    log["final"] = evaluate(out, args.eval_deals, seed=12345)
    log["other_deals"] = evaluate(out, args.eval_deals, seed=777)
    print(f"PPO: {log['ppo_deals']} deals, {log['updates']} updates in {log['ppo_seconds']} s; "
          f"against rules {log['final']}, on other deals {log['other_deals']}")
    print(f"saved {out}: tute selfplay --bots policy:{out},rules --duplicate --deals 200")
    if args.log:
        Path(args.log).write_text(json.dumps(log, indent=1) + "\n")


if __name__ == "__main__":
    main()
