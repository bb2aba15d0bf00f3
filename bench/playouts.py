"""Random-playout throughput of the tute engine, beside OpenSpiel's C++ hearts and skat.

Plays random deals through the public API only (``tute.Deal.new`` → ``legal_actions`` /
``apply`` → ``result``) for every playable variant, on one core, and reports the median of
several timed repeats. In the same run it measures OpenSpiel's C++ hearts and skat with
``../shared/tools/openspiel_bench.py`` (absolute times drift on shared machines; ratios measured
together hold), then checks the goals: >= 3,000 parejas deals/s and >= 0.45x OpenSpiel hearts.

    .venv/bin/python bench/playouts.py                 # or: make bench
    .venv/bin/python bench/playouts.py --seconds 1 --repeats 3 --json
    .venv/bin/python bench/playouts.py --openspiel-python /path/to/python-with-pyspiel
    .venv/bin/python bench/playouts.py --no-reference

This is a benchmark, not a test: it always exits 0 unless it cannot run at all.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_TOOL = ROOT / ".." / "shared" / "tools" / "openspiel_bench.py"
DEFAULT_OSVENV = ROOT / ".osvenv"
REFERENCE_GAMES = ("hearts", "skat")
GOAL_DEALS_PER_S = 3000.0
GOAL_HEARTS_RATIO = 0.45
GOAL_VARIANT = "tute_parejas"
GOAL_ALSO = ("tute_2p_habanero",)  # issue 3: the same floor for random habanero deals


def note(message: str) -> None:
    """Progress and warnings go to stderr, so that ``--json`` output stays clean."""
    print(f"# {message}", file=sys.stderr, flush=True)


def import_tute() -> ModuleType:
    """The installed ``tute`` (``.venv``), or else the one in ``src/`` of this checkout."""
    try:
        return importlib.import_module("tute")
    except ModuleNotFoundError:
        sys.path.insert(0, str(ROOT / "src"))
        return importlib.import_module("tute")


# ---------------------------------------------------------------------------- tute playouts


@dataclass
class Run:
    """One timed repeat: how many deals and actions were played in how long."""

    deals: int
    actions: int
    elapsed: float

    @property
    def deals_per_s(self) -> float:
        return self.deals / self.elapsed

    @property
    def actions_per_deal(self) -> float:
        return self.actions / self.deals


def play_for(tute: ModuleType, variant: str, seconds: float, seed: int) -> Run:
    """Play random deals of ``variant`` for about ``seconds`` (at least one deal).

    Deal ``i`` is shuffled from seed ``seed + i`` and its actions are drawn from one
    ``random.Random(seed)``, so every repeat and every run plays the same deals in the same order.
    """
    new_deal = tute.Deal.new
    rng = random.Random(seed)
    randrange = rng.randrange
    clock = time.perf_counter
    deals = actions = 0
    start = clock()
    deadline = start + seconds
    while True:
        deal = new_deal(variant, seed=seed + deals)
        while not deal.is_over():
            acts = deal.legal_actions()
            deal.apply(acts[randrange(len(acts))])
            actions += 1
        deal.result()
        deals += 1
        now = clock()
        if now >= deadline:
            return Run(deals, actions, now - start)


# ---------------------------------------------------------------------------- OpenSpiel reference


def has_pyspiel(python: Path | str) -> bool:
    try:
        probe = subprocess.run(
            [str(python), "-c", "import pyspiel"], capture_output=True, check=False, timeout=120
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return probe.returncode == 0


def ensure_osvenv(venv: Path) -> tuple[Path | None, str | None]:
    """Create or reuse ``venv`` with ``open-spiel`` in it; (python, None) or (None, why not)."""
    python = venv / "bin" / "python"
    if python.exists() and has_pyspiel(python):
        return python, None
    try:
        if not python.exists():
            note(f"creating {venv} for the OpenSpiel reference (one-time)")
            subprocess.run(
                [sys.executable, "-m", "venv", str(venv)],
                check=True,
                capture_output=True,
                text=True,
            )
        note(f"installing open-spiel into {venv} (one-time, ~1 min)")
        subprocess.run(
            [
                str(python),
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                "open-spiel",
            ],
            check=True,
            capture_output=True,
            text=True,
        )
    except subprocess.CalledProcessError as exc:
        tail = " | ".join((exc.stderr or exc.stdout or "").strip().splitlines()[-3:])
        return None, f"could not install open-spiel into {venv}: {tail or exc}"
    except OSError as exc:
        return None, f"could not create {venv}: {exc}"
    if not has_pyspiel(python):
        return None, f"open-spiel installed into {venv} but 'import pyspiel' fails"
    return python, None


def reference_round(
    python: Path | str, tool: Path, seconds: float, seed: int
) -> dict[str, dict[str, float]]:
    """One run of the OpenSpiel tool over all reference games: {game: its JSON line}."""
    cmd = [str(python), str(tool), "--seconds", str(seconds), "--seed", str(seed), *REFERENCE_GAMES]
    timeout = 120 + 4 * seconds * len(REFERENCE_GAMES)
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    if proc.returncode != 0:
        tail = " | ".join(proc.stderr.strip().splitlines()[-3:])
        raise RuntimeError(f"{tool.name} exited with {proc.returncode}: {tail}")
    out: dict[str, dict[str, float]] = {}
    for line in proc.stdout.splitlines():
        if line.strip().startswith("{"):
            row = json.loads(line)
            out[row["game"]] = {
                "games_per_s": float(row["games_per_s"]),
                "actions_per_game": float(row["actions_per_game"]),
            }
    missing = [g for g in REFERENCE_GAMES if g not in out]
    if missing:
        raise RuntimeError(f"{tool.name} printed no figure for {', '.join(missing)}")
    return out


# ---------------------------------------------------------------------------- machine info


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.lower().startswith(("model name", "hardware", "cpu model")):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def machine_info(cpu: int | None) -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "python_executable": sys.executable,
        "cpu": cpu_model(),
        "cpus": os.cpu_count(),
        "pinned_cpu": cpu,
        "platform": platform.platform(),
    }


# ---------------------------------------------------------------------------- report


@dataclass
class Report:
    info: dict[str, Any]
    settings: dict[str, Any]
    variants: dict[str, list[Run]] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)
    reference: dict[str, list[dict[str, float]]] = field(default_factory=dict)
    reference_note: str | None = None

    def median_rate(self, variant: str) -> float:
        return statistics.median(r.deals_per_s for r in self.variants[variant])

    def actions_per_deal(self, variant: str) -> float:
        runs = self.variants[variant]
        return sum(r.actions for r in runs) / sum(r.deals for r in runs)

    def ref_rate(self, game: str) -> float | None:
        rows = self.reference.get(game)
        return statistics.median(r["games_per_s"] for r in rows) if rows else None

    def ref_actions(self, game: str) -> float | None:
        rows = self.reference.get(game)
        return statistics.median(r["actions_per_game"] for r in rows) if rows else None

    def ratio(self, variant: str, game: str) -> float | None:
        ref = self.ref_rate(game)
        return self.median_rate(variant) / ref if ref else None

    def goals(self) -> list[dict[str, Any]]:
        have = GOAL_VARIANT in self.variants
        hearts = self.ratio(GOAL_VARIANT, "hearts") if have else None
        rates = [(v, self.median_rate(v) if v in self.variants else None)
                 for v in (GOAL_VARIANT, *GOAL_ALSO)]
        return [
            *({
                "goal": f"{v} deals/s >= {GOAL_DEALS_PER_S:,.0f}",
                "value": r,
                "target": GOAL_DEALS_PER_S,
                "pass": None if r is None else r >= GOAL_DEALS_PER_S,
            } for v, r in rates),
            {
                "goal": f"{GOAL_VARIANT} / OpenSpiel hearts >= {GOAL_HEARTS_RATIO}x",
                "value": hearts,
                "target": GOAL_HEARTS_RATIO,
                "pass": None if hearts is None else hearts >= GOAL_HEARTS_RATIO,
            },
        ]

    def to_json(self) -> dict[str, Any]:
        variants: dict[str, Any] = {}
        for v, runs in self.variants.items():
            variants[v] = {
                "deals_per_s": round(self.median_rate(v), 1),
                "actions_per_deal": round(self.actions_per_deal(v), 2),
                "runs_deals_per_s": [round(r.deals_per_s, 1) for r in runs],
                "vs_openspiel": {g: _round(self.ratio(v, g), 3) for g in REFERENCE_GAMES},
            }
        reference = {
            g: {
                "games_per_s": _round(self.ref_rate(g), 1),
                "actions_per_game": _round(self.ref_actions(g), 1),
                "runs_games_per_s": [r["games_per_s"] for r in rows],
            }
            for g, rows in self.reference.items()
        }
        goals = [{**g, "value": _round(g["value"], 3)} for g in self.goals()]
        return {
            **self.info,
            "settings": self.settings,
            "variants": variants,
            "skipped": self.skipped,
            "openspiel": reference or None,
            "openspiel_note": self.reference_note,
            "goals": goals,
        }

    def to_text(self) -> str:
        i, s = self.info, self.settings
        pinned = "" if i["pinned_cpu"] is None else f", pinned to cpu {i['pinned_cpu']}"
        lines = [
            f"Python {i['python']} ({i['implementation']}) · CPU {i['cpu']} "
            f"({i['cpus']} logical CPUs{pinned})",
            f"tute {s['tute_version']} from {s['tute_path']}",
            f"median of {s['repeats']} repeats x {s['seconds']:g} s per variant/game, "
            f"after {s['warmup']:g} s warm-up; deal seeds {s['seed']}, {s['seed'] + 1}, ...",
            "",
        ]
        head = (
            f"{'variant':<22} {'deals/s':>9} {'min..max':>15} {'actions/deal':>13} "
            f"{'x hearts':>9} {'x skat':>8}"
        )
        lines += [head, "-" * len(head)]
        for v, runs in self.variants.items():
            rates = [r.deals_per_s for r in runs]
            spread = f"{min(rates):,.0f}..{max(rates):,.0f}"
            lines.append(
                f"{v:<22} {self.median_rate(v):>9,.0f} {spread:>15} "
                f"{self.actions_per_deal(v):>13.1f} {_fmt_ratio(self.ratio(v, 'hearts')):>9} "
                f"{_fmt_ratio(self.ratio(v, 'skat')):>8}"
            )
        for g, rows in self.reference.items():
            rates = [r["games_per_s"] for r in rows]
            spread = f"{min(rates):,.0f}..{max(rates):,.0f}"
            lines.append(
                f"{'openspiel ' + g + ' (C++)':<22} {self.ref_rate(g) or 0:>9,.0f} "
                f"{spread:>15} {self.ref_actions(g) or 0:>13.1f} {'':>9} {'':>8}"
            )
        for v in self.skipped:
            lines.append(f"{v:<22} {'(not playable yet: skipped)':>40}")
        if self.reference_note:
            lines += ["", f"OpenSpiel reference: {self.reference_note}"]
        lines += ["", "goals:"]
        for goal in self.goals():
            verdict = {True: "PASS", False: "FAIL", None: "n/a "}[goal["pass"]]
            value = goal["value"]
            shown = (
                "no figure"
                if value is None
                else (f"{value:,.0f}" if goal["target"] >= 100 else f"{value:.2f}x")
            )
            lines.append(f"  {verdict}  {goal['goal']:<44} measured {shown}")
        return "\n".join(line.rstrip() for line in lines)


def _round(x: float | None, digits: int) -> float | None:
    return None if x is None else round(x, digits)


def _fmt_ratio(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}x"


# ---------------------------------------------------------------------------- main


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument(
        "--seconds",
        type=float,
        default=2.0,
        help="timed length of one repeat, per variant and per reference game (2)",
    )
    p.add_argument("--repeats", type=int, default=5, help="timed repeats; the median is kept (5)")
    p.add_argument(
        "--warmup",
        type=float,
        default=0.5,
        help="untimed seconds of play per variant before measuring (0.5)",
    )
    p.add_argument(
        "--seed", type=int, default=1, help="first deal seed and the action-choice seed (1)"
    )
    p.add_argument(
        "--variants",
        nargs="+",
        metavar="ID",
        help="only these variants (default: every playable one)",
    )
    p.add_argument(
        "--openspiel-python",
        metavar="PATH",
        help="interpreter that can 'import pyspiel' (default: create/reuse "
        f"{DEFAULT_OSVENV.name} in the project and pip install open-spiel)",
    )
    p.add_argument(
        "--openspiel-tool",
        metavar="PATH",
        type=Path,
        default=DEFAULT_TOOL,
        help="the reference script (default: ../shared/tools/openspiel_bench.py)",
    )
    p.add_argument("--no-reference", action="store_true", help="skip the OpenSpiel reference")
    p.add_argument(
        "--cpu",
        type=int,
        metavar="N",
        help="pin this process and the reference to logical CPU N (Linux)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    args = p.parse_args(argv)
    if args.seconds <= 0 or args.repeats < 1 or args.warmup < 0:
        p.error("--seconds must be > 0, --repeats >= 1, --warmup >= 0")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.cpu is not None:
        try:
            os.sched_setaffinity(0, {args.cpu})  # inherited by the reference subprocess
        except (AttributeError, OSError) as exc:
            note(f"cannot pin to cpu {args.cpu}: {exc}; running unpinned")
            args.cpu = None

    tute = import_tute()
    wanted = args.variants or list(tute.VARIANTS)
    unknown = [v for v in wanted if v not in tute.VARIANTS]
    if unknown:
        note(f"unknown variant(s) {', '.join(unknown)}; valid: {', '.join(tute.VARIANTS)}")
        return 2
    # (older versions marked some variants not playable yet: they are skipped)
    playable = [v for v in wanted if getattr(tute.VARIANTS[v], "playable", True)]
    report = Report(
        info=machine_info(args.cpu),
        settings={
            "seconds": args.seconds,
            "repeats": args.repeats,
            "warmup": args.warmup,
            "seed": args.seed,
            "tute_version": getattr(tute, "__version__", "?"),
            "tute_path": str(Path(tute.__file__ or "?").parent),
        },
        skipped=[v for v in wanted if v not in playable],
    )
    for v in report.skipped:
        note(f"skipping {v}: not playable yet")

    python: Path | str | None = None
    tool = args.openspiel_tool.resolve()
    if args.no_reference:
        report.reference_note = "skipped (--no-reference)"
    elif not tool.is_file():
        report.reference_note = f"not measured: {tool} not found"
    elif args.openspiel_python:
        python = args.openspiel_python
        if not has_pyspiel(python):
            report.reference_note = f"not measured: {python} cannot 'import pyspiel'"
            python = None
    else:
        python, why = ensure_osvenv(DEFAULT_OSVENV)
        if python is None:
            report.reference_note = f"not measured: {why}"
    if report.reference_note:
        note(f"OpenSpiel reference {report.reference_note}")

    for v in playable:
        note(f"warm-up {v} ({args.warmup:g} s)")
        play_for(tute, v, args.warmup, args.seed)
        report.variants[v] = []
    # Interleave the repeats (tute variants, then the reference) so that drift in the machine's
    # load hits both sides alike.
    for r in range(1, args.repeats + 1):
        for v in playable:
            run = play_for(tute, v, args.seconds, args.seed)
            report.variants[v].append(run)
            note(f"repeat {r}/{args.repeats} {v}: {run.deals_per_s:,.0f} deals/s")
        if python is not None:
            try:
                rows = reference_round(python, tool, args.seconds, args.seed)
            except (RuntimeError, subprocess.TimeoutExpired, OSError, ValueError) as exc:
                report.reference_note = f"stopped after {r - 1} repeat(s): {exc}"
                note(f"OpenSpiel reference {report.reference_note}")
                python = None
                continue
            for g, row in rows.items():
                report.reference.setdefault(g, []).append(row)
            note(
                f"repeat {r}/{args.repeats} openspiel: "
                + ", ".join(f"{g} {row['games_per_s']:,.0f} games/s" for g, row in rows.items())
            )

    if args.json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        print(report.to_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
