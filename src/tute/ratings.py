"""Elo ratings from pairwise results: a Bradley–Terry fit with 95% intervals.

Each bot ``i`` has a strength ``r_i`` (Elo points) and ``P(i beats j) = 1 / (1 + 10^((r_j - r_i)
/ 400))``; draws count half a win each way. The fit maximises the likelihood by Newton steps on
the log-strengths with the mean rating pinned at 1500 (only differences are identified); the
intervals come from the inverse of the observed information matrix, so they narrow as 1/sqrt(n).

>>> r = bradley_terry(["a", "b"], {("a", "b"): (75.0, 25.0)})
>>> round(r["a"].elo - r["b"].elo)  # 3:1 is log10(3) * 400 Elo apart
191
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["Rating", "bradley_terry"]

_SCALE = 400.0 / math.log(10.0)  # Elo points per natural-log unit of strength
_MEAN = 1500.0
_PRIOR = 1e-3  # a tiny ridge on the log-strengths: an unbeaten bot stays finite


@dataclass(frozen=True)
class Rating:
    name: str
    elo: float
    low: float
    high: float
    games: float

    def __str__(self) -> str:
        return f"{self.elo:.0f} [{self.low:.0f}, {self.high:.0f}]"


def bradley_terry(names: Sequence[str],
                  results: Mapping[tuple[str, str], tuple[float, float]]) -> dict[str, Rating]:
    """Ratings of ``names`` from ``results[(a, b)] = (a's score, b's score)`` over their games
    (a win 1, a draw 1/2 each)."""
    idx = {n: i for i, n in enumerate(names)}
    k = len(names)
    wins = [[0.0] * k for _ in range(k)]
    for (a, b), (sa, sb) in results.items():
        wins[idx[a]][idx[b]] += sa
        wins[idx[b]][idx[a]] += sb
    theta = [0.0] * k
    for _ in range(100):
        grad, hess = _derivatives(theta, wins)
        step = _solve(hess, grad)
        theta = [t - s for t, s in zip(theta, step, strict=True)]
        mean = sum(theta) / k
        theta = [t - mean for t in theta]
        if max(abs(s) for s in step) < 1e-10:
            break
    _grad, hess = _derivatives(theta, wins, prior=0.0)
    # the information is singular along "every strength up by the same amount" (only
    # differences are identified): its pseudo-inverse on the sum-zero plane is the covariance
    inv = _inverse([[-h + 1.0 / k for h in row] for row in hess])
    cov = [[x - 1.0 / k for x in row] for row in inv]
    out: dict[str, Rating] = {}
    for n, i in idx.items():
        se = math.sqrt(max(cov[i][i], 0.0)) * _SCALE
        elo = _MEAN + theta[i] * _SCALE
        games = sum(wins[i]) + sum(wins[j][i] for j in range(k))
        out[n] = Rating(n, elo, elo - 1.96 * se, elo + 1.96 * se, games)
    return out


def _derivatives(theta: Sequence[float], wins: Sequence[Sequence[float]],
                 prior: float = _PRIOR) -> tuple[list[float], list[list[float]]]:
    """Gradient and Hessian of the log-likelihood (with the ridge) in the log-strengths."""
    k = len(theta)
    grad = [-prior * t for t in theta]
    hess = [[-prior if i == j else 0.0 for j in range(k)] for i in range(k)]
    for i in range(k):
        for j in range(i + 1, k):
            n = wins[i][j] + wins[j][i]
            if n == 0:
                continue
            p = 1.0 / (1.0 + math.exp(theta[j] - theta[i]))
            g = wins[i][j] - n * p
            grad[i] += g
            grad[j] -= g
            h = n * p * (1 - p)
            hess[i][i] -= h
            hess[j][j] -= h
            hess[i][j] += h
            hess[j][i] += h
    return grad, hess


def _solve(a: Sequence[Sequence[float]], b: Sequence[float]) -> list[float]:
    """``a^-1 b`` by Gaussian elimination with partial pivoting (k is small)."""
    inv = _inverse(a)
    return [sum(r * x for r, x in zip(row, b, strict=True)) for row in inv]


def _inverse(a: Sequence[Sequence[float]]) -> list[list[float]]:
    k = len(a)
    m = [list(row) + [1.0 if i == j else 0.0 for j in range(k)] for i, row in enumerate(a)]
    for col in range(k):
        piv = max(range(col, k), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        d = m[col][col]
        if abs(d) < 1e-300:
            raise ArithmeticError("singular information matrix")
        m[col] = [x / d for x in m[col]]
        for r in range(k):
            if r != col and m[r][col]:
                f = m[r][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col], strict=True)]
    return [row[k:] for row in m]
