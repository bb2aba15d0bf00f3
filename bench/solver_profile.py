"""Where the exact solver spends its time: a `perf` sampling profile of the numba code, by
function, and optionally by instruction for one function.

numba's machine code lives in anonymous memory that `perf` cannot name. This script compiles
the solver afresh (into a temporary numba cache, so that LLVM's module and its symbol names
are at hand), writes `/tmp/perf-<pid>.map` with the address range of every compiled function,
samples itself with `perf record -e cpu-clock` while solving seeded full parejas deals with one
thread, and prints each function's share of the samples. With `--annotate NAME` it also dumps
that function's code bytes and prints the `objdump` disassembly with samples per instruction
(the hot loads show where the search waits on memory).

    .venv/bin/python bench/solver_profile.py [--deals 40] [--tt-mb 64] [--annotate _tt_find]

Needs Linux `perf` (Debian: linux-perf) and, for `--annotate`, `objdump` (binutils). The
helpers that LLVM inlined into their caller are counted in the caller.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))


def short(symbol: str) -> str:
    """`_ZN4tute6solver7_search8_tt_findB3v22B…` -> `solver._search._tt_find`."""
    m = re.match(r"_ZN((?:\d+[A-Za-z_][A-Za-z0-9_]*)+)", symbol)
    if not m:
        return symbol
    parts, rest = [], m.group(1)
    while rest and rest[0].isdigit():
        k = re.match(r"\d+", rest)
        assert k is not None
        n = int(k.group())
        rest = rest[k.end():]
        parts.append(rest[:n])
        rest = rest[n:]
    if parts and parts[0] == "cpython":
        parts = [*parts[1:], "<wrapper>"]
    return ".".join(parts[1:] if parts and parts[0] == "tute" else parts)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--tt-mb", type=int, default=64)
    ap.add_argument("--annotate", metavar="NAME", default=None,
                    help="print the disassembly of the function whose name ends with NAME")
    args = ap.parse_args()
    if shutil.which("perf") is None:
        print("perf is not installed (Debian: apt-get install linux-perf)", file=sys.stderr)
        return 2
    if os.environ.get("_TUTE_PROFILE_CHILD") != "1":
        # a fresh numba cache: code loaded from the cache carries no LLVM module to name
        with tempfile.TemporaryDirectory(prefix="tute-nbcache-") as cache:
            env = {**os.environ, "NUMBA_CACHE_DIR": cache, "_TUTE_PROFILE_CHILD": "1"}
            return subprocess.call([sys.executable, *sys.argv], env=env)

    import tute
    from tute.solver import Solver
    from tute.solver import _search as S

    solver = Solver(tt_mb=args.tt_mb, threads=1)
    t0 = time.perf_counter()
    solver.value(tute.Deal.new("tute_parejas", seed=10**6))
    print(f"compiled in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    library = next(iter(S.root_search.overloads.values())).library
    funcs = []
    for fn in library._final_module.functions:  # numba keeps no public list
        if fn.is_declaration:
            continue
        try:
            addr = library.get_pointer_to_function(fn.name)
        except Exception:  # not every LLVM function is emitted
            continue
        if addr:
            funcs.append((addr, fn.name))
    funcs.sort()
    ranges = []
    mapfile = Path(f"/tmp/perf-{os.getpid()}.map")
    with mapfile.open("w") as out:
        for i, (addr, name) in enumerate(funcs):
            size = funcs[i + 1][0] - addr if i + 1 < len(funcs) else 1 << 14
            ranges.append((addr, size, short(name)))
            out.write(f"{addr:x} {size:x} {short(name)}\n")

    with tempfile.TemporaryDirectory(prefix="tute-perf-") as tmp:
        data = Path(tmp) / "perf.data"
        rec = subprocess.Popen(["perf", "record", "-q", "-e", "cpu-clock", "-F", "4000",
                                "-o", str(data), "-p", str(os.getpid())],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1.0)  # perf attaches
        t0 = time.perf_counter()
        nodes = 0
        for seed in range(args.deals):
            solver.reset()
            solver.value(tute.Deal.new("tute_parejas", seed=seed))
            nodes += solver.nodes
        elapsed = time.perf_counter() - t0
        rec.send_signal(2)
        rec.wait(30)
        ips = subprocess.run(["perf", "script", "-i", str(data), "-F", "ip"],
                             capture_output=True, text=True).stdout.split()
    mapfile.unlink(missing_ok=True)
    counts: Counter[str] = Counter()
    per_ip: Counter[int] = Counter()
    for text in ips:
        ip = int(text, 16)
        per_ip[ip] += 1
        for addr, size, name in ranges:
            if addr <= ip < addr + size:
                counts[name] += 1
                break
        else:
            counts["(other: Python, numpy, kernel)"] += 1
    total = sum(counts.values()) or 1
    print(f"{args.deals} deals, {nodes:,} nodes, {elapsed:.2f} s, {len(ips):,} samples")
    for name, c in counts.most_common():
        print(f"{100 * c / total:6.2f}%  {name}")
    if args.annotate:
        hits = ([r for r in ranges if r[2].rsplit(".", 1)[-1] == args.annotate]
                or [r for r in ranges if r[2].endswith(args.annotate)])
        if not hits:
            print(f"no compiled function ends with {args.annotate!r}", file=sys.stderr)
            return 2
        addr, size, name = hits[0]
        with tempfile.NamedTemporaryFile(suffix=".bin") as f:
            f.write(ctypes.string_at(addr, size))
            f.flush()
            asm = subprocess.run(["objdump", "-D", "-b", "binary", "-mi386:x86-64",
                                  f"--adjust-vma={addr}", f.name],
                                 capture_output=True, text=True).stdout
        print(f"\n{name}: samples per instruction")
        for line in asm.splitlines():
            head = line.strip().split(":", 1)[0]
            try:
                ip = int(head, 16)
            except ValueError:
                continue
            print(f"{per_ip.get(ip, 0):6d} {line.strip()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
