"""Environment steps per second with random legal actions, one core, every game.

Measured in the same run, for scale, and quoted beside each figure as a ratio
(``0.25x openspiel C++ hearts``; ``--json`` gives them under ``ratios``): the engine alone
(``legal_actions`` + ``apply``, no observation), OpenSpiel's Python game
``python_tic_tac_toe`` and C++ ``hearts`` (random play through pyspiel; skipped with a message
when pyspiel is not installed), our ``python_tute`` through pyspiel, the batched
``tute.rl.VectorEnv`` (every game it plays: parejas, arrastrado, the stock games;
``--vector-games`` games a call) beside the per-step env,
RLCard's ``uno`` if RLCard is installed, and batched self-play data generation
(``tute.rl.generate``) with 1 and 2 jobs.

    .venv/bin/python bench/rl_bench.py [--seconds 2] [--repeat 3] [--variants tute_parejas]

A step is one action of one agent: ``last()`` (the observation and its mask) then ``step()``,
through ``tute.rl.env`` (PettingZoo's order checks, as users get it) and ``tute.rl.raw_env``.
Figures are medians of ``--repeat`` runs (machines here are shared and noisy).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

import tute
import tute.games
import tute.rl


def _rate(run: Callable[[float], int], seconds: float, repeat: int) -> float:
    rates = []
    for _ in range(repeat):
        start = time.perf_counter()
        steps = run(seconds)
        rates.append(steps / (time.perf_counter() - start))
    return statistics.median(rates)


def pettingzoo_steps(variant: str, raw: bool = False) -> Callable[[float], int]:
    """``tute.rl.env`` (in its order-enforcing wrapper, as users get it), or ``raw_env``."""
    def run(seconds: float) -> int:
        env = tute.rl.raw_env(variant) if raw else tute.rl.env(variant)
        env.reset(seed=1)
        rng = random.Random(1)
        steps, end = 0, time.perf_counter() + seconds
        while time.perf_counter() < end:
            for _ in range(200):
                obs, _r, term, _t, _i = env.last()
                if term:
                    env.reset()
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[rng.randrange(len(legal))]))
                steps += 1
        return steps
    return run


def vector_steps(variant: str, games: int) -> Callable[[float], int]:
    """``tute.rl.VectorEnv``: ``games`` deals a call, random legal actions drawn in numba
    from the masks it returned (``random_actions``); a step is one action of one game."""
    from tute.rl.vector import VectorEnv

    env = VectorEnv(variant, games)
    env.reset(seed=1)
    env.random_actions(seed=1)
    env.step(env.random_actions())  # compiled (or loaded from numba's cache) before timing

    def run(seconds: float) -> int:
        steps, end = 0, time.perf_counter() + seconds
        while time.perf_counter() < end:
            for _ in range(20):
                env.step(env.random_actions())
            steps += 20 * games
        return steps
    return run


def engine_steps(variant: str) -> Callable[[float], int]:
    def run(seconds: float) -> int:
        rng = random.Random(1)
        steps, end = 0, time.perf_counter() + seconds
        while time.perf_counter() < end:
            deal = tute.Deal.new(variant, seed=rng.getrandbits(40))
            while not deal.is_over():
                legal = deal.legal_actions()
                deal.apply(legal[rng.randrange(len(legal))])
                steps += 1
        return steps
    return run


def openspiel_steps(name: str, params: dict[str, object] | None = None
                    ) -> Callable[[float], int]:
    import pyspiel

    game = pyspiel.load_game(name, params or {})

    def run(seconds: float) -> int:
        rng = random.Random(1)
        steps, end = 0, time.perf_counter() + seconds
        while time.perf_counter() < end:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                    continue
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                steps += 1
        return steps
    return run


def rlcard_steps(name: str) -> Callable[[float], int]:
    import rlcard

    env = rlcard.make(name, config={"seed": 1})

    def run(seconds: float) -> int:
        rng = random.Random(1)
        steps, end = 0, time.perf_counter() + seconds
        while time.perf_counter() < end:
            state, _player = env.reset()
            while not env.is_over():
                legal = list(state["legal_actions"])
                state, _player = env.step(legal[rng.randrange(len(legal))])
                steps += 1
        return steps
    return run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="seconds per measurement")
    ap.add_argument("--repeat", type=int, default=3, help="measurements per figure (median)")
    ap.add_argument("--variants", default=",".join(tute.VARIANTS))
    ap.add_argument("--episodes", type=int, default=400, help="deals for generate()")
    ap.add_argument("--vector-games", type=int, default=1024,
                    help="games per VectorEnv call (the games it plays)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    out: dict[str, object] = {}
    ratios: dict[str, float] = {}
    refs: dict[str, float] = {}

    def report(key: str, value: float, unit: str = "steps/s",
               against: tuple[str, ...] = ()) -> None:
        out[key] = round(value)
        beside = []
        for ref in against:  # a ratio to a figure measured in this same run
            if refs.get(ref):
                ratios[f"{key} / {ref}"] = r = round(value / refs[ref], 3)
                beside.append(f"{r:.3g}x {ref}")
        if not args.json:
            note = f"  ({', '.join(beside)})" if beside else ""
            print(f"{key:40s} {value:12,.0f} {unit}{note}", flush=True)

    # the references first, so that every figure can be quoted as a ratio to them: OpenSpiel's
    # C++ hearts and Python tic-tac-toe through pyspiel (a chance deal card by card, then
    # random legal play: the same loop as ../shared/tools/openspiel_bench.py)
    hearts = "openspiel C++ hearts"
    try:
        import importlib

        importlib.import_module("open_spiel.python.games")  # registers python_tic_tac_toe
        importlib.import_module("tute.rl.openspiel")  # registers python_tute
        refs[hearts] = _rate(openspiel_steps("hearts"), args.seconds, args.repeat)
        report(hearts, refs[hearts])
        ttt = "openspiel python_tic_tac_toe"
        refs[ttt] = _rate(openspiel_steps("python_tic_tac_toe"), args.seconds, args.repeat)
        report(ttt, refs[ttt], against=(hearts,))
        report("openspiel python_tute parejas", _rate(openspiel_steps(
            "python_tute", {"variant": "tute_parejas"}), args.seconds, args.repeat),
            against=(hearts, ttt))
    except ImportError as exc:
        print(f"OpenSpiel not measured (no ratios to it): {exc}", file=sys.stderr)
    for v in args.variants.split(","):
        engine = f"engine alone {v}"
        refs[engine] = _rate(engine_steps(v), args.seconds, args.repeat)
        report(engine, refs[engine], against=(hearts,))
        pz = f"pettingzoo {v}"
        refs[pz] = _rate(pettingzoo_steps(v), args.seconds, args.repeat)
        report(pz, refs[pz], against=(engine, hearts))
        report(f"pettingzoo raw_env {v}", _rate(pettingzoo_steps(v, raw=True), args.seconds,
                                                args.repeat), against=(engine, hearts))
        if not tute.games.game_for(tute.find_variant(v)).batch_gap:  # VectorEnv plays it
            report(f"VectorEnv {v} n={args.vector_games}", _rate(vector_steps(
                v, args.vector_games), args.seconds, args.repeat), against=(pz, hearts))
    try:
        report("rlcard uno", _rate(rlcard_steps("uno"), args.seconds, args.repeat),
               against=(hearts,))
    except ImportError:
        print("RLCard not installed: not measured", file=sys.stderr)  # --json stays JSON
    for jobs in (1, 2):
        start = time.perf_counter()
        data = tute.rl.generate("tute_parejas", args.episodes, jobs=jobs, seed=1)
        spent = time.perf_counter() - start
        report(f"generate parejas jobs={jobs}", len(data["action"]) / spent, "decisions/s",
               against=(hearts,))
    out["ratios"] = ratios
    if args.json:
        print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
