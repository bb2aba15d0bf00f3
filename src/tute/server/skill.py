"""Ratings of rated tables with openskill's Plackett–Luce model (teams, uneven sides).

One rating per player and game mode (``Game.rating_mode``). A game's sides are openskill's
teams, ranked by the match result; each partner is updated on their own from the pair's
result (their own uncertainty sets how far they move). The bots take part as fixed anchors,
read from ``bot_ratings.json`` (made from ``tute arena`` results by
``bench/bot_ratings.py``): they set the scale that people and bots share, and no game moves
them. A rating is provisional while its uncertainty (sigma) is above
:data:`PROVISIONAL_SIGMA`; the one shown is the cautious ``mu - 3 sigma``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce, PlackettLuceRating

__all__ = ["DEFAULT_MU", "DEFAULT_SIGMA", "LEAVE_PENALTY", "PROVISIONAL_SIGMA", "Player",
           "bot_anchor", "load_bot_ratings", "predict", "rate", "shown", "side_ranks"]

log = logging.getLogger("tute.server")

MODEL = PlackettLuce()
DEFAULT_MU: float = MODEL.mu
DEFAULT_SIGMA: float = MODEL.sigma
#: below this uncertainty a rating is established: about ten games against the bots, more
#: against people as new as oneself
PROVISIONAL_SIGMA = 5.0
#: the mu taken from a player who leaves a rated game on purpose (resigning, or gone until
#: the table was abandoned), beyond what the game's result takes
LEAVE_PENALTY = 2.0
#: a bot level the arena's file does not name: the scale's middle, never moved all the same
_ANCHOR_SIGMA = 1.0
BOT_RATINGS = Path(__file__).resolve().parent / "bot_ratings.json"


@dataclass(frozen=True)
class Player:
    """One seat of a rated game: an account's rating, or a bot's fixed anchor."""

    mu: float
    sigma: float
    account: str | None = None  # None: a bot (never updated)
    games: int = 0


def shown(mu: float, sigma: float) -> float:
    """The rating shown to people: cautious, it rises as the uncertainty drops."""
    return round(mu - 3 * sigma, 2)


@cache
def load_bot_ratings(path: Path = BOT_RATINGS) -> dict[str, dict[str, tuple[float, float]]]:
    """mode -> bot level -> (mu, sigma), from the arena's file (none: an empty table)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        modes = data["modes"]
        return {str(mode): {str(level): (float(r["mu"]), float(r["sigma"]))
                            for level, r in levels.items()}
                for mode, levels in modes.items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        log.warning("bot ratings %s not read (%s): bots rate at the scale's middle", path, exc)
        return {}


def bot_anchor(mode: str, level: str) -> Player:
    mu, sigma = load_bot_ratings().get(mode, {}).get(level, (DEFAULT_MU, _ANCHOR_SIGMA))
    return Player(mu, sigma)


def side_ranks(result: Mapping[str, Any], sides: int) -> list[int]:
    """The sides' places (0 first; equal places tie) from a match result's JSON: the winner
    first, then by games won, fewer losses, larger balances."""
    winner = result.get("winner")

    def num(name: str, i: int) -> float:
        v = result.get(name)
        return float(v[i]) if isinstance(v, list) and i < len(v) and isinstance(
            v[i], (int, float)) else 0.0

    keys = [(0 if winner == i else 1, -num("games", i), num("losses", i), -num("balances", i))
            for i in range(sides)]
    order = sorted(set(keys))
    return [order.index(k) for k in keys]


def _teams(players: Sequence[Player], side_of: Sequence[int], sides: int
           ) -> list[list[PlackettLuceRating]]:
    teams: list[list[PlackettLuceRating]] = [[] for _ in range(sides)]
    for p, s in zip(players, side_of, strict=True):
        teams[s].append(MODEL.rating(mu=p.mu, sigma=p.sigma))
    return teams


def rate(players: Sequence[Player], side_of: Sequence[int], ranks: Sequence[int]
         ) -> list[Player]:
    """Every seat's rating after the game: the accounts' moved by the result (``ranks``: each
    side's place), the bots' as they were."""
    sides = len(ranks)
    new = MODEL.rate(_teams(players, side_of, sides), ranks=[float(r) for r in ranks])
    taken = [0] * sides
    out = []
    for p, s in zip(players, side_of, strict=True):
        r = new[s][taken[s]]
        taken[s] += 1
        out.append(p if p.account is None else Player(float(r.mu), float(r.sigma), p.account,
                                                       p.games + 1))
    return out


def predict(players: Sequence[Player], side_of: Sequence[int], sides: int) -> list[float]:
    """Each side's chance to win (they add up to 1)."""
    return [float(x) for x in MODEL.predict_win(_teams(players, side_of, sides))]
