"""Draw the learning curve of ``examples/train_torch.py`` from its JSON log.

    python examples/plot_learning_curve.py docs/rl-learning-curve.json docs/rl-learning-curve.png

Two lines over the training seconds: the policy's mean point margin per duplicate deal pair
against ``random`` and against ``rules``, each with its 95% interval as a band; the end of the
imitation warm start marked; a dashed line at what the ``rules`` bot itself scores against
``random`` on the same deals. Needs matplotlib (``pip install matplotlib``; used here only,
tute does not depend on it).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit("plotting needs matplotlib: pip install matplotlib")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("log", nargs="?", default="docs/rl-learning-curve.json")
    ap.add_argument("png", nargs="?", default="docs/rl-learning-curve.png")
    args = ap.parse_args()
    log = json.loads(Path(args.log).read_text())
    points = log["checkpoints"]
    xs = [p["train_seconds"] for p in points]
    fig, ax = plt.subplots(figsize=(7.5, 4.2), dpi=100)
    for opp, colour in (("random", "tab:blue"), ("rules", "tab:red")):
        ys = [p[opp]["mean"] for p in points]
        ax.fill_between(xs, [p[opp]["low"] for p in points], [p[opp]["high"] for p in points],
                        color=colour, alpha=0.18, linewidth=0)
        ax.plot(xs, ys, marker="o", color=colour, label=f"against {opp} (95% interval)")
    ref = log.get("rules_vs_random")
    if ref:
        ax.axhline(ref["mean"], color="tab:blue", linestyle="--", linewidth=0.9,
                   label=f"rules itself against random ({ref['mean']:+.1f})")
    warm = [p["train_seconds"] for p in points if p["phase"] == "imitation"]
    if warm:
        ax.axvline(warm[0], color="grey", linestyle=":", linewidth=1)
        ax.text(warm[0], ax.get_ylim()[1], " imitation done, then REINFORCE", va="top",
                fontsize=8, color="grey")
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xlabel("training seconds (one CPU core; evaluations not counted)")
    ax.set_ylabel("margin per duplicate deal pair (points)")
    ax.set_title(f"{log['variant']}: {log['network']} policy, {log['eval_deals']} duplicate "
                 "deals per point", fontsize=10)
    ax.legend(loc="lower right", fontsize=9)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(args.png)
    print(f"wrote {args.png}")


if __name__ == "__main__":
    main()
