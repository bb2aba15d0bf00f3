"""The kernel/core differential check at benchmark size: 10^6 random states per variant.

    .venv/bin/python bench/kernel_differential.py [--states 1000000]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "src"))

from test_kernel import VARIANTS, check_random_states  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--states", type=int, default=1_000_000)
    args = ap.parse_args()
    for i, variant in enumerate(VARIANTS):
        t0 = time.perf_counter()
        n = check_random_states(variant, args.states, seed=10_000 + i)
        print(f"{variant}: {n:,} states agree ({time.perf_counter() - t0:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
