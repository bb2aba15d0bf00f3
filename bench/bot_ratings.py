"""Make the server's bot anchors (src/tute/server/bot_ratings.json) from `tute arena` results.

The bots sit at rated tables as fixed anchors: their openskill ratings never move, and they
put people and bots on one scale. For each rating mode this runs (or reads) a round robin of
the bot levels with `tute arena --json` and turns its Elo ratings (Bradley–Terry, per deal)
into openskill's mu: a difference of d Elo is a win probability of 1 / (1 + 10^(-d/400)), and
openskill's Plackett–Luce gives two sides of k players each logistic(k * dmu / c) with
c = sqrt(2 (k sigma^2 + beta^2)); "medio" sits at openskill's default mu (25), so a new player
starts level with it.

    python bench/bot_ratings.py                       # run the arena for every mode (minutes)
    python bench/bot_ratings.py --deals 50 --levels random,facil,medio
    python bench/bot_ratings.py parejas=arena.json    # read a saved `tute arena --json`
    # the search levels with short move times, added beside the anchors already listed
    python bench/bot_ratings.py --levels medio,dificil:move_time=0.05,maestro:move_time=0.15 \
        --deals 40 --merge

A level's settings after ':' (a shorter move time) are dropped from its anchor's name: the
anchor then stands for the level at the server's own move time, which plays somewhat stronger
than the short one measured (the anchor is a floor). With --merge the levels not run keep
their anchors (every run puts "medio" at mu 25, so the scales agree).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "tute" / "server" / "bot_ratings.json"
# one variant per mode (Game.rating_mode), and the team size of its sides
MODES = {"parejas": ("tute_parejas", 2), "guinote": ("guinote", 2),
         "two": ("tute_2p_habanero", 1), "three": ("tute_arrastrado_3p", 1),
         "many": ("tute_gana_pierde", 1)}
MU, BETA, SIGMA = 25.0, 25.0 / 6, 1.0  # openskill's defaults; the anchors' small sigma
CENTRE = "medio"


def run_arena(variant: str, levels: str, deals: int, seed: int, jobs: int = 1
              ) -> dict[str, object]:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    out = subprocess.run([sys.executable, "-m", "tute", "arena", levels, "--variant", variant,
                          "--deals", str(deals), "--seed", str(seed), "--jobs", str(jobs),
                          "--json"],
                         capture_output=True, text=True, env=env, check=False)
    if out.returncode:
        raise SystemExit(f"tute arena {variant}: {out.stderr.strip() or out.stdout.strip()}")
    data: dict[str, object] = json.loads(out.stdout)
    return data


def anchors(arena: dict[str, object], team: int) -> dict[str, dict[str, float]]:
    elo = {name.split(":")[0]: float(r["elo"])
           for name, r in arena["ratings"].items()}  # type: ignore[attr-defined]
    c = math.sqrt(2 * (team * SIGMA**2 + BETA**2))
    per_elo = math.log(10) / 400 * c / team  # mu per Elo point
    centre = elo.get(CENTRE, sum(elo.values()) / len(elo))
    return {name: {"mu": round(MU + (e - centre) * per_elo, 3), "sigma": SIGMA,
                   "elo": round(e, 1)} for name, e in sorted(elo.items())}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("saved", nargs="*", help="mode=arena.json: a saved `tute arena --json`")
    ap.add_argument("--levels", default="random,facil,medio")
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1, help="processes for each arena's deals")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--merge", action="store_true",
                    help="keep the anchors of --out for the levels and modes not run")
    args = ap.parse_args()
    before = json.loads(args.out.read_text()) if args.merge and args.out.exists() else {}
    saved = dict(s.split("=", 1) for s in args.saved)
    modes: dict[str, dict[str, dict[str, float]]] = {}
    for mode, (variant, team) in MODES.items():
        if saved and mode not in saved:
            continue
        t0 = time.perf_counter()
        arena = (json.loads(Path(saved[mode]).read_text()) if mode in saved
                 else run_arena(variant, args.levels, args.deals, args.seed, args.jobs))
        modes[mode] = anchors(arena, team)
        print(f"{mode:8} {variant:20} " + "  ".join(
            f"{k} {v['mu']:.2f}" for k, v in modes[mode].items())
            + f"   ({time.perf_counter() - t0:.0f} s)")
    made_by = ("bench/bot_ratings.py from tute arena " + args.levels
               + f" --deals {args.deals} --seed {args.seed}")
    if before:
        for mode, old in before.get("modes", {}).items():
            # the centre keeps its listed entry (mu 25 either way), and the new levels' Elo
            # is put on the old run's scale (the same difference from the centre)
            new = modes.get(mode, {})
            shift = (old[CENTRE]["elo"] - new[CENTRE]["elo"]
                     if CENTRE in old and CENTRE in new else 0.0)
            modes[mode] = {**old, **{k: {**v, "elo": round(v["elo"] + shift, 1)}
                                     for k, v in new.items() if k != CENTRE or k not in old}}
        made_by = before.get("made_by", "") + "; " + made_by
    args.out.write_text(json.dumps({"made_by": made_by, "modes": modes}, indent=1) + "\n",
                        encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
