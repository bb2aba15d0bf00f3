"""OpenSpiel's ISMCTS playing Tute (python_tute) against random play.

    .venv/bin/python examples/openspiel_ismcts.py [--variant tute_parejas] [--deals 4]
        [--simulations 100]

Seat 0 is ISMCTS (its worlds drawn by ``TuteState.resample_from_infostate``), the other seats
play uniformly at random; prints seat 0's return per deal and the mean. Then, with
``--arena N``, the same search as the bot ``openspiel_ismcts`` in our arena: ``N`` duplicate
deals against ``--against`` (default ``rules``) through ``tute.arena.selfplay``, or from the
command line against any of ours:

    .venv/bin/tute arena openspiel_ismcts:simulations=50,rules,random --deals 20
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import tute.rl.openspiel  # noqa: F401  registers python_tute


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="tute_parejas")
    ap.add_argument("--deals", type=int, default=4)
    ap.add_argument("--simulations", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--arena", type=int, default=0, metavar="N",
                    help="then N duplicate deals of the bot openspiel_ismcts in our arena")
    ap.add_argument("--against", default="rules", help="its opponent there (a bot name)")
    args = ap.parse_args()
    game = pyspiel.load_game("python_tute", {"variant": args.variant})
    rng = random.Random(args.seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=args.simulations,
                           random_state=np.random.RandomState(args.seed))
    # its own resampling passes a fresh, clock-seeded pyspiel sampler per world: draw the
    # worlds from our seed instead, so that a run repeats
    worlds = random.Random(f"worlds:{args.seed}")  # apart from the deals and the opponents
    bot.set_resampler(lambda st, player: st.resample_from_infostate(player, rng=worlds))
    returns = []
    start = time.perf_counter()
    for d in range(args.deals):
        state = game.new_initial_state()
        bot.reset()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            elif state.current_player() == 0:
                state.apply_action(bot.step(state))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
        returns.append(state.returns()[0])
        print(f"deal {d + 1}: seat 0 (ISMCTS) {100 * returns[-1]:+.0f} points", flush=True)
    print(f"mean {100 * statistics.fmean(returns):+.1f} points per deal over {args.deals} deals "
          f"({time.perf_counter() - start:.1f} s)")
    if args.arena > 0:
        from tute.arena import selfplay

        bot = f"openspiel_ismcts:simulations={args.simulations}"
        result = selfplay([bot, args.against], args.variant, deals=args.arena, seed=args.seed)
        print(f"in our arena ({args.arena} duplicate deals):")
        for label, value in result.rows():
            print(f"  {label:45s} {value}")


if __name__ == "__main__":
    main()
