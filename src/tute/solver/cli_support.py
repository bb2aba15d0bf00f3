"""What ``tute solve`` calls: solve a record, or a range of seeded deals, into JSON-able dicts.

    tute solve RECORD.json [--json]      -> solve_record_file(path) / format_analysis(...)
    tute solve --variant V --seeds A-B   -> solve_seeds(V, parse_seeds("A-B")) + summarize

Every error is a :class:`tute.TuteError` subclass with a message naming what is wrong:
:class:`tute.RecordError` for an invalid record, :class:`NotCardPlayPositionError` for a
position in the stock phase (or another non card-play moment), :class:`SolveInputError` for
bad command-line values.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from ..errors import TuteError
from ..kernel import NotCardPlayPositionError
from . import Solver, SolverError, UnsupportedPositionError

__all__ = [
    "NotCardPlayPositionError",
    "SolveInputError",
    "UnsupportedPositionError",
    "format_analysis",
    "parse_seeds",
    "solve_record",
    "solve_record_file",
    "solve_seeds",
    "summarize",
]

MAX_SEEDS = 100_000


class SolveInputError(SolverError):
    """A bad ``tute solve`` argument (seed range, variant, table size)."""


def solve_record(record: Mapping[str, Any] | str | bytes, *, tt_mb: int = 64,
                 threads: int | None = None) -> dict[str, Any]:
    """Solve the position a deal record reaches (it may stop mid-deal): the value (side 0's
    optimal future margin) and a table of every legal action with its value. A match record
    (as the terminal game saves it) gives the position of its current deal."""
    from ..deal import Deal
    from ..match import Match
    from ..records import parse_record_text

    if isinstance(record, str | bytes):
        record = parse_record_text(record)
    number = None
    if record.get("kind") == "match":
        match = Match.from_record(record)  # RecordError on anything invalid
        deal, number = match.deal, len(match.deals)
    else:
        deal = Deal.from_record(record)
    solver = Solver(tt_mb=tt_mb, threads=threads)
    analysis = solver.analyze(deal)
    out = analysis.to_json()
    side = None if deal.to_move is None else deal.side_of(deal.to_move)
    if analysis.hero is not None and side is not None:
        side = 0  # arrastrado: the mover is the hero, objective side 0
    best = None
    if analysis.actions and side is not None:
        pick = max if side == 0 else min
        target = pick(v for _a, v in analysis.actions)
        best = [a for a, v in analysis.actions if v == target]
    out.update({
        "variant": deal.variant.id,
        "trick": deal.trick_number,
        "side_to_move": side,
        "best": best,
        "over": deal.is_over(),
        "deal": number,  # of a match record: its current deal, 1-based (None: a deal record)
    })
    return out


def solve_record_file(path: str | Path, *, tt_mb: int = 64,
                      threads: int | None = None) -> dict[str, Any]:
    from ..records import load_record

    return solve_record(load_record(path), tt_mb=tt_mb, threads=threads)


def format_analysis(result: Mapping[str, Any]) -> str:
    """A plain-text table of :func:`solve_record`'s result."""
    hero = result.get("hero")
    whose = ("side 0's future points minus side 1's" if hero is None
             else f"seat {hero}'s future points minus the other players' combined")
    where = f"deal {result['deal']}, " if result.get("deal") else ""
    lines = [f"{result['variant']}, {where}trick {result['trick']}: value "
             f"{result['value']:+d} ({whose}, perfect play)"]
    if result["over"]:
        lines.append("the deal is over")
        return "\n".join(lines)
    lines.append(f"seat {result['to_move']} (side {result['side_to_move']}) to move")
    best = set(result["best"] or ())
    for row in result["actions"]:
        mark = "*" if row["action"] in best else " "
        lines.append(f" {mark} {row['action']:<14} {row['value']:+5d}")
    lines.append(f"{result['nodes']} nodes, {result['ms']:.1f} ms")
    return "\n".join(lines)


def parse_seeds(text: str) -> range:
    """``"A-B"`` (inclusive) or a single ``"A"``."""
    first, sep, last = str(text).strip().partition("-")
    try:
        a = int(first)
        b = int(last) if sep else a
    except ValueError:
        raise SolveInputError(f"invalid seeds {text!r}: expected A-B, e.g. 0-199") from None
    if a < 0 or b < a:
        raise SolveInputError(f"invalid seeds {text!r}: need 0 <= A <= B")
    if b - a + 1 > MAX_SEEDS:
        raise SolveInputError(f"invalid seeds {text!r}: at most {MAX_SEEDS} deals at once")
    return range(a, b + 1)


def solve_seeds(variant: str, seeds: Iterable[int], *, options: Mapping[str, Any] | None = None,
                tt_mb: int = 64, threads: int | None = None) -> Iterator[dict[str, Any]]:
    """Solve each seeded deal from its first lead: one dict per deal (seed, value, nodes, ms).

    Only games whose first lead is a card-play position with every card known (Tute por
    parejas) can be solved from the start; the stock games raise
    :class:`NotCardPlayPositionError`.
    """
    from ..deal import Deal
    from ..variants import find_variant

    try:
        var = find_variant(variant)
    except TuteError as exc:
        raise SolveInputError(str(exc)) from None
    if var.stock:
        raise NotCardPlayPositionError(
            f"{var.id} starts in its stock phase (hidden stock): a deal can only be solved "
            "once the stock is empty; give a record that reaches the arrastre"
        )
    solver = Solver(tt_mb=tt_mb, threads=threads)
    # load (or compile) the numba code before the clock runs: a small endgame of seed 0
    warm = Deal.new(var, seed=0, options=options)
    while warm.to_move is not None and len(warm.hand(warm.to_move)) > 7:
        warm.apply(warm.legal_actions()[0])
    solver.value(warm)
    for seed in seeds:
        deal = Deal.new(var, seed=seed, options=options)
        solver.reset()
        t0 = time.perf_counter()
        value = solver.value(deal)
        ms = (time.perf_counter() - t0) * 1e3
        yield {"variant": var.id, "seed": seed, "dealer": deal.dealer,
               "trump": None if deal.trump_card is None else str(deal.trump_card),
               "value": value, "nodes": solver.nodes, "ms": round(ms, 3)}


def summarize(rows: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Count, value mean, time distribution (median, p90, p99, max) and nodes/s."""
    rows = list(rows)
    if not rows:
        return {"deals": 0}
    ms = sorted(float(r["ms"]) for r in rows)
    nodes = sum(int(r["nodes"]) for r in rows)

    def pct(p: float) -> float:
        return ms[min(len(ms) - 1, int(p * len(ms)))]

    return {
        "deals": len(rows),
        "value_mean": round(statistics.fmean(int(r["value"]) for r in rows), 3),
        "side0_ahead": sum(1 for r in rows if int(r["value"]) > 0),
        "ms_median": round(statistics.median(ms), 3),
        "ms_p90": round(pct(0.90), 3),
        "ms_p99": round(pct(0.99), 3),
        "ms_max": round(ms[-1], 3),
        "nodes": nodes,
        "nodes_per_s": round(nodes / (sum(ms) / 1e3)) if sum(ms) > 0 else None,
    }
