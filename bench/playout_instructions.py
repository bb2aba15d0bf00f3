"""Instructions per random deal, counted by valgrind's callgrind: a figure that does not move
with the load of a shared machine, for before/after comparisons of the engine's hot path.

For each variant it runs the same seeded random playouts (``Deal.new`` → ``legal_actions`` /
``apply`` → ``result``) twice under callgrind, with 1 and with ``1 + --deals`` deals, and prints
the difference divided by ``--deals``: the interpreter's start-up cancels out. ``--src`` points
at another checkout's ``src`` to measure that code with the same interpreter.

    .venv/bin/python bench/playout_instructions.py
    .venv/bin/python bench/playout_instructions.py --src /tmp/old/src --variants tute_parejas

Needs ``valgrind`` (Debian package); about a minute per variant.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLAYOUTS = """
import random, sys, tute
variant, n = sys.argv[1], int(sys.argv[2])
rng = random.Random(1)
for s in range(n):
    d = tute.Deal.new(variant, seed=s)
    while not d.is_over():
        a = d.legal_actions()
        d.apply(a[rng.randrange(len(a))])
    d.result()
"""


def instructions(src: Path, variant: str, deals: int) -> int:
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
         "-c", PLAYOUTS, variant, str(deals)], env=env, capture_output=True, text=True,
        check=True)
    m = re.search(r"Collected : (\d+)", out.stderr)
    if m is None:
        raise SystemExit(f"callgrind printed no count:\n{out.stderr[-2000:]}")
    return int(m.group(1))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src", type=Path, default=ROOT / "src", help="the code to measure")
    ap.add_argument("--variants", nargs="+",
                    default=["tute_parejas", "tute_2p_habanero", "guinote"])
    ap.add_argument("--deals", type=int, default=200)
    a = ap.parse_args()
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2
    if not 1 <= a.deals <= 5000:
        ap.error("--deals must be 1..5000")
    print(f"code: {a.src}")
    for v in a.variants:
        base = instructions(a.src, v, 1)
        total = instructions(a.src, v, 1 + a.deals)
        print(f"{v:20s} {(total - base) / a.deals:14,.0f} instructions per deal")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
