"""A puzzle's rating: openskill (Plackett–Luce) of the puzzle against solving agents.

Each puzzle is a player. It starts from a difficulty estimate -- the share of the worlds
sampled from the seat's view in which the answer is not a best action (a position whose
answer holds in every world is easier to read) -- and then plays one game against each
solving agent, from the weakest to the strongest, each a fixed anchor: a random legal action,
the rules bot (two seeds), and pimc over 4 and over 16 sampled worlds. An agent that finds the
answer beats the puzzle; one that misses loses to it. The rating shown is on a chess-puzzle
scale, ``1500 + 60 * (mu - 25)``.
"""

from __future__ import annotations

from collections.abc import Mapping

from openskill.models import PlackettLuce

__all__ = ["AGENTS", "rate"]

MODEL = PlackettLuce()
#: the agents that try every puzzle, by name, with their fixed (mu, sigma)
AGENTS: dict[str, tuple[float, float]] = {
    "random": (15.0, 1.0),
    "rules:1": (21.0, 1.0),
    "rules:2": (21.0, 1.0),
    "pimc:4": (26.0, 1.0),
    "pimc:16": (29.0, 1.0),
}
#: how far the difficulty estimate moves the starting mu (no world against: 25 - 4)
SPREAD = 20.0


def rate(miss_share: float, tries: Mapping[str, bool]) -> tuple[int, float, float]:
    """(rating shown, mu, sigma) of a puzzle whose answer is not best in ``miss_share`` of
    its worlds and that the agents of ``tries`` solved (True) or missed (False)."""
    puzzle = MODEL.rating(mu=21.0 + SPREAD * miss_share, sigma=6.0)
    for name, solved in tries.items():
        mu, sigma = AGENTS[name]
        agent = MODEL.rating(mu=mu, sigma=sigma)
        ranks = [1.0, 2.0] if solved else [2.0, 1.0]  # rank 1 wins
        [[agent], [puzzle]] = MODEL.rate([[agent], [puzzle]], ranks=ranks)
    return round(1500 + 60 * (puzzle.mu - 25.0)), puzzle.mu, puzzle.sigma
