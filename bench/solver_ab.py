"""The exact solver of this tree against another tree's, timed in one process on the same
seeded full parejas deals, the order alternated deal by deal: the machine's drift hits both
alike, which separate runs (noise of 5-10% here) cannot promise. Prints each side's median,
the per-deal median of the other's time over this one's and the ratio of the totals (which
the slowest deals weigh on). Run the same code as the other side too (``--other src``) and
compare against that control: the copy reads 1.04-1.05 here, not 1.00.

    git worktree add /tmp/before <commit>
    .venv/bin/python bench/solver_ab.py --other /tmp/before/src [--deals 200] [--threads 1]

The other tree's ``tute`` package is copied to a temporary folder as ``tute_other`` (its
imports are relative), so both compile and keep their own numba caches.
"""

from __future__ import annotations

import argparse
import importlib
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--other", required=True, help="the src folder of the other tree")
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--tt-mb", type=int, default=64)
    args = ap.parse_args()
    src = Path(args.other) / "tute"
    if not (src / "solver").is_dir():
        ap.error(f"--other: no tute/solver under {args.other}")
    tmp = Path(tempfile.mkdtemp(prefix="solver_ab_"))
    try:
        shutil.copytree(src, tmp / "tute_other", ignore=shutil.ignore_patterns("__pycache__"))
        sys.path.insert(0, str(tmp))
        return compare(args, [importlib.import_module("tute"),
                              importlib.import_module("tute_other")])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def compare(args: argparse.Namespace, mods: list[Any]) -> int:
    solvers = [importlib.import_module(m.__name__ + ".solver").Solver(
        tt_mb=args.tt_mb, threads=args.threads) for m in mods]
    for m, s in zip(mods, solvers, strict=True):  # compile or load the caches
        s.value(m.Deal.new("tute_parejas", seed=10**6))
    ms: list[list[float]] = [[], []]
    values: list[list[int]] = [[], []]
    for seed in range(args.deals):
        for k in ((0, 1) if seed % 2 == 0 else (1, 0)):
            deal = mods[k].Deal.new("tute_parejas", seed=seed)
            solvers[k].reset()
            t0 = time.perf_counter()
            values[k].append(solvers[k].value(deal))
            ms[k].append((time.perf_counter() - t0) * 1e3)
    if values[0] != values[1]:
        print("the two solvers disagree on a value", file=sys.stderr)
        return 1
    ratio = statistics.median(b / a for a, b in zip(ms[0], ms[1], strict=True))
    print(f"this tree: median {statistics.median(ms[0]):.2f} ms; other: median "
          f"{statistics.median(ms[1]):.2f} ms; other / this, per-deal median {ratio:.3f}, "
          f"total {sum(ms[1]) / sum(ms[0]):.3f} ({args.deals} deals, {args.threads} thread(s))")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
