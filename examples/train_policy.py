"""Train a small policy with NumPy alone and save it for the ``policy`` bot.

    .venv/bin/python examples/train_policy.py [--variant tute_parejas] [--deals 1000]
        [--epochs 6] [--hidden 64] [--out policy.npz] [--eval 100]

Imitation learning: the ``rules`` bot plays ``--deals`` deals against itself
(``tute.rl.generate``), and a one-hidden-layer perceptron over the observation vector
(docs/rl.md) learns to pick its action by a softmax over the *legal* actions (cross-entropy,
Adam, minibatches). The policy is saved with ``tute.bots.policy_bot.write_policy``; then it
plays ``--eval`` duplicate deals against ``random`` (``tute.arena.selfplay``). Use it
anywhere a bot is named: ``tute arena policy:policy.npz,rules,random``. Well under two
minutes on one core with the defaults.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import tute.rl
from tute.arena import selfplay
from tute.bots.policy_bot import write_policy


def masked_log_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    z = np.where(mask > 0, logits, -1e9)
    z = z - z.max(axis=1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=1, keepdims=True))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="tute_parejas")
    ap.add_argument("--deals", type=int, default=1000, help="self-play deals of the rules bot")
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="policy.npz")
    ap.add_argument("--eval", type=int, default=100, help="duplicate deals against random")
    args = ap.parse_args()
    start = time.perf_counter()
    data = tute.rl.generate(args.variant, args.deals, bots="rules", seed=args.seed)
    x, m, y = data["obs"], data["mask"].astype(np.float32), data["action"].astype(np.int64)
    # only real choices teach anything (a forced move has one legal action)
    keep = m.sum(axis=1) > 1
    x, m, y = x[keep], m[keep], y[keep]
    n, size = x.shape
    actions = m.shape[1]
    rng = np.random.default_rng(args.seed)
    order = rng.permutation(n)
    test, train = order[: n // 10], order[n // 10:]
    print(f"{n} decisions with a choice from {args.deals} deals "
          f"({time.perf_counter() - start:.1f} s); observation {size}, {actions} actions")

    params = [rng.normal(0, np.sqrt(2 / size), (size, args.hidden)).astype(np.float32),
              np.zeros(args.hidden, np.float32),
              rng.normal(0, np.sqrt(1 / args.hidden), (args.hidden, actions)).astype(np.float32),
              np.zeros(actions, np.float32)]
    moments = [(np.zeros_like(p), np.zeros_like(p)) for p in params]
    step = 0

    def forward(xb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h = np.maximum(xb @ params[0] + params[1], 0.0)
        return h, h @ params[2] + params[3]

    def accuracy(idx: np.ndarray) -> float:
        _h, logits = forward(x[idx])
        pred = np.where(m[idx] > 0, logits, -np.inf).argmax(axis=1)
        return float((pred == y[idx]).mean())

    for epoch in range(args.epochs):
        rng.shuffle(train)
        loss_sum = 0.0
        for b in range(0, len(train), args.batch):
            idx = train[b:b + args.batch]
            xb, mb, yb = x[idx], m[idx], y[idx]
            h, logits = forward(xb)
            logp = masked_log_softmax(logits, mb)
            loss_sum += -logp[np.arange(len(idx)), yb].sum()
            # d loss / d logits = softmax - one-hot (illegal actions have probability 0)
            g = np.exp(logp)
            g[np.arange(len(idx)), yb] -= 1.0
            g /= len(idx)
            gh = (g @ params[2].T) * (h > 0)
            grads = [xb.T @ gh, gh.sum(axis=0), h.T @ g, g.sum(axis=0)]
            step += 1
            for p, gr, (mo, ve) in zip(params, grads, moments, strict=True):  # Adam
                mo *= 0.9
                mo += 0.1 * gr
                ve *= 0.999
                ve += 0.001 * gr * gr
                p -= args.lr * (mo / (1 - 0.9 ** step)) / (
                    np.sqrt(ve / (1 - 0.999 ** step)) + 1e-8)
        print(f"epoch {epoch + 1}: loss {loss_sum / len(train):.3f}, agreement with rules "
              f"on held-out decisions {100 * accuracy(test):.1f}%", flush=True)

    out = write_policy(args.out, [(params[0], params[1]), (params[2], params[3])],
                       variant=args.variant, activation="relu")
    print(f"saved {out} ({time.perf_counter() - start:.1f} s)")
    if args.eval:
        res = selfplay([f"policy:{out}", "random"], args.variant, deals=args.eval,
                       seed=args.seed + 1, duplicate=True)
        for label, value in res.rows():
            print(f"  {label}: {value}")
    print(f"done in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
