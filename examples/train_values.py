"""Train with PyTorch on the batched environment (``tute.rl.VectorEnv``) a network that tells,
from a seat's own view, what each legal card is worth; play it as a residual on the zoo's
``rules`` agent, and measure it against ``rules`` on duplicate deals.

    pip install 'tute[rl]'        # PyTorch, NumPy, numba
    .venv/bin/python examples/train_values.py [--games 64] [--deals 3000] [--epochs 30]
        [--val-deals 300] [--eval-deals 1000] [--out values.npz] [--device auto|cpu|cuda]

The device is CUDA when there is one (``--device auto``), else the CPU; the games, the
``rules`` agent and the solver run on the CPU either way.

1. **Labels with every card seen**: ``--games`` games of Tute por parejas in one
   ``VectorEnv``, ``rules`` at every seat. At each decision with a choice, the exact solver
   values every legal action of the real deal (``vec.deal(i)``: all four hands;
   ``Solver.analyze``), as the mover's side's margin with perfect play after it. The
   network sees only the mover's observation, so what it learns is the *expected* value of
   each action over the hands the seat cannot see, weighed as they really occur behind rules
   players' plays: the quantity a search bot estimates by sampling worlds, learned once.
2. **Regression**: a 720 -> 512 -> 256 -> 48 ReLU network on each decision's values less
   their mean over the legal actions (only the differences choose a card), mean squared
   error over the legal actions; a held-out tenth measures it (correlation, and how often
   its best action is the solver's best in that deal).
3. **A residual on rules**: the network's outputs, in points, are a ``policy`` file's logits
   with the rules prior (``write_policy(..., prior="rules", prior_weight=beta)``): the bot
   plays the rules agent's choice unless the network values another action more than
   ``beta`` points above it. ``beta`` is chosen on ``--val-deals`` duplicate deals of one
   seed; the figure quoted is on ``--eval-deals`` deals of another (``tute.rl.zoo.duel``:
   every deal twice, sides swapped; 95% interval).

    tute selfplay --bots policy:values.npz,rules --duplicate --deals 1000
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

from train_vector import mlp  # the other example's network builder (this folder is on the path)

from tute.bots.pimc import action_values
from tute.bots.policy_bot import write_policy
from tute.rl import VectorEnv, zoo
from tute.solver import Solver

VARIANT = "tute_parejas"
SCALE = 10.0  # the network's outputs are tenths of the points margin: targets near 1


def collect(vec: VectorEnv, rules: zoo.Agent, deals: int, seed: int, seconds: float,
            worlds: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every decision with a choice of ``deals`` rules-vs-rules deals (or as many as end in
    ``seconds``): the mover's observation, its mask, and each legal action's value: exact in
    the real deal, or with ``worlds`` its mean over that many deals sampled from the mover's
    view (as the pimc bot values them)."""
    solver = Solver(tt_mb=64, threads=1)
    index = {name: k for k, name in enumerate(vec.actions)}
    rng = random.Random(seed)
    obs, masks = vec.reset(seed=seed)
    xs, ms, qs = [], [], []
    ended, deadline = 0, time.perf_counter() + seconds
    while ended < deals and time.perf_counter() < deadline:
        acts = rules.act_batch(obs, masks, vec.view)
        for i in np.flatnonzero(masks.sum(axis=1) > 1):
            q = np.zeros(vec.num_actions, np.float32)
            if worlds:
                view = vec.view(int(i))
                legal = view.legal_actions
                got = action_values(view, legal, worlds, rng, solver)
                for act, value in zip(legal, got.values, strict=True):
                    q[index[str(act)]] = value
            else:
                deal = vec.deal(int(i))
                mover = deal.to_move
                assert mover is not None
                sign = 1.0 if deal.side_of(mover) == 0 else -1.0  # analyze: side 0's margins
                for name, value in solver.analyze(deal).actions:
                    q[index[name]] = sign * value
            xs.append(obs[i].copy())
            ms.append(masks[i].copy())
            qs.append(q)
        obs, _r, done, masks = vec.step(acts)
        ended += int(done.sum())
    return np.array(xs), np.array(ms, np.float32), np.array(qs)


def relative(q: np.ndarray, m: np.ndarray) -> np.ndarray:
    """Each decision's values less their mean over its legal actions (0 where illegal)."""
    mean = (q * m).sum(axis=1, keepdims=True) / m.sum(axis=1, keepdims=True)
    return (q - mean) * m


def train(net: nn.Sequential, data: tuple[np.ndarray, ...], epochs: int, lr: float,
          device: str, seed: int) -> dict[str, float]:
    x, m, q = data
    y = relative(q, m) / SCALE
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(x))
    cut = len(x) // 10
    test, fit = order[:cut], order[cut:]
    tx, tm, ty = (torch.tensor(a[fit], device=device) for a in (x, m, y))
    opt = torch.optim.Adam(net.parameters(), lr=lr, weight_decay=1e-5)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, epochs)
    for _ in range(epochs):
        net.train()
        for b in torch.randperm(len(tx), device=device).split(256):
            pred = net(tx[b]) * tm[b]
            loss = ((pred - ty[b]) ** 2).sum() / tm[b].sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
        sched.step()
    net.eval()
    with torch.no_grad():
        pred = (net(torch.tensor(x[test], device=device)).cpu().numpy() * m[test])
    want = y[test]
    legal = m[test] > 0
    corr = float(np.corrcoef(pred[legal], want[legal])[0, 1])
    masked = np.where(legal, pred, -np.inf)
    best = q[test] == np.where(legal, q[test], -np.inf).max(axis=1, keepdims=True)
    hit = float(np.mean(best[np.arange(len(test)), masked.argmax(axis=1)]))
    return {"held_out_correlation": corr, "held_out_best_found": hit,
            "decisions": float(len(x)), "held_out": float(cut)}


def save(net: nn.Sequential, path: Path, beta: float) -> Path:
    layers = [(m.weight.detach().cpu().numpy().T.copy(), m.bias.detach().cpu().numpy().copy())
              for m in net if isinstance(m, nn.Linear)]
    w, b = layers[-1]
    layers[-1] = (w * SCALE, b * SCALE)  # logits in points: beta is in points too
    return write_policy(path, layers, variant=VARIANT, activation="relu", prior="rules",
                        prior_weight=beta)


def duel(path: Path, deals: int, seed: int) -> dict[str, Any]:
    res = zoo.duel(zoo.agent("policy", file=str(path)), zoo.agent("rules"), VARIANT,
                   deals=deals, seed=seed)
    return res.margin.to_json() | {"seconds": round(res.seconds, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=64)
    ap.add_argument("--deals", type=int, default=3000, help="deals labelled by the solver")
    ap.add_argument("--label-minutes", type=float, default=60.0,
                    help="stop labelling after this long (the deals so far are kept)")
    ap.add_argument("--worlds", type=int, default=0,
                    help="label with the mean over this many worlds sampled from the mover's "
                    "view (0: the real deal's exact values)")
    ap.add_argument("--save-data", default="", help="keep the labelled decisions (.npz)")
    ap.add_argument("--load-data", default="", help="train on decisions kept before")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--hidden", type=int, default=512)
    ap.add_argument("--betas", default="0,3,6,10,15",
                    help="prior weights (points) to try on the validation deals")
    ap.add_argument("--val-deals", type=int, default=300)
    ap.add_argument("--eval-deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="values.npz")
    ap.add_argument("--log", default="", help="write the figures to this JSON file")
    ap.add_argument("--device", default="auto", choices=["auto", "cpu", "cuda"])
    args = ap.parse_args()
    device = ("cuda" if torch.cuda.is_available() else "cpu") if args.device == "auto" \
        else args.device
    torch.manual_seed(args.seed)
    log: dict[str, Any] = {"args": vars(args), "device": device, "torch": torch.__version__}

    vec = VectorEnv(VARIANT, args.games)
    rules = zoo.agent("rules", seed=args.seed)
    t0 = time.perf_counter()
    if args.load_data:
        with np.load(args.load_data) as f:
            data = (f["x"], f["m"], f["q"])
    else:
        data = collect(vec, rules, args.deals, args.seed, args.label_minutes * 60,
                       args.worlds)
        if args.save_data:
            np.savez_compressed(args.save_data, x=data[0], m=data[1], q=data[2])
    log["label_seconds"] = round(time.perf_counter() - t0, 1)
    print(f"{len(data[0])} decisions with a choice labelled by the solver in "
          f"{log['label_seconds']} s", flush=True)

    net = mlp([vec.observation_size, args.hidden, args.hidden // 2, vec.num_actions]).to(device)
    t0 = time.perf_counter()
    log["fit"] = train(net, data, args.epochs, args.lr, device, args.seed)
    log["train_seconds"] = round(time.perf_counter() - t0, 1)
    print(f"trained in {log['train_seconds']} s: held-out correlation "
          f"{log['fit']['held_out_correlation']:.3f}, the solver's best action found "
          f"{100 * log['fit']['held_out_best_found']:.1f}%", flush=True)

    out = Path(args.out)
    trials: dict[str, Any] = {}
    for beta in (float(b) for b in args.betas.split(",")):
        trials[f"{beta:g}"] = duel(save(net, out, beta), args.val_deals, 777)
        print(f"beta {beta:g}: against rules on validation deals (seed 777) "
              f"{trials[f'{beta:g}']}", flush=True)
    log["validation"] = trials
    beta = max(trials, key=lambda k: float(trials[k]["mean"]))
    out = save(net, out, float(beta))
    log["beta"] = float(beta)
    log["final"] = duel(out, args.eval_deals, 12345)
    print(f"beta {beta}: against rules on {args.eval_deals} unseen duplicate deals (seed "
          f"12345): {log['final']}")
    print(f"saved {out}: tute selfplay --bots policy:{out},rules --duplicate --deals 1000")
    if args.log:
        Path(args.log).write_text(json.dumps(log, indent=1))


if __name__ == "__main__":
    main()
