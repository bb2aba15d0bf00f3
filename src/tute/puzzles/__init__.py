"""Puzzles: positions of real deals with one right action (docs in :mod:`tute.puzzles.cut`).

A puzzle is a record prefix (the variant, its options, the hands and the actions up to the
decision), the seat to move, its answer, the exact value of every legal action, its themes
(:mod:`tute.puzzles.themes`) and a rating (:mod:`tute.puzzles.rating`). The puzzles shipped
with the package lie in ``data/*.jsonl``, one JSON object a line; ``tute puzzles make``
cuts more from game records or self-play (:mod:`tute.puzzles.make`).

    >>> from tute.puzzles import load_puzzles, check_answer
    >>> p = load_puzzles()[0]
    >>> check_answer(p, p.answer)["correct"]
    True
"""

from __future__ import annotations

import datetime
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import TuteError

if TYPE_CHECKING:
    from ..deal import Deal

__all__ = ["DATA_DIR", "Puzzle", "check_answer", "daily", "find_puzzle", "load_file",
           "load_puzzles", "puzzle_id"]

DATA_DIR = Path(__file__).resolve().parent / "data"


@dataclass
class Puzzle:
    """One puzzle; ``values`` are the mover's side's future margin after each legal action
    (the exact solver, every hand known), the answer's the highest by ``margin`` at least."""

    id: str
    variant: str
    record: dict[str, Any]  # the deal record, its actions stopped at the decision
    seat: int
    answer: str
    values: dict[str, int]
    themes: list[str]
    rating: int = 1500
    mu: float = 25.0
    sigma: float = 8.333
    #: from the seat's view: the worlds solved, the share in which the answer is best, and
    #: each action's mean over them
    view: dict[str, Any] = field(default_factory=dict)
    #: which solving agents (bots, sampled worlds) got it right: name -> bool
    tries: dict[str, bool] = field(default_factory=dict)
    source: str = ""

    @property
    def margin(self) -> int:
        """What the second-best action loses against the answer."""
        rest = [v for a, v in self.values.items() if a != self.answer]
        return self.values[self.answer] - max(rest)

    def position(self) -> Deal:
        """The deal at the decision (every action of the prefix replayed and checked)."""
        from ..deal import Deal

        return Deal.from_record(self.record)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "variant": self.variant, "seat": self.seat,
                "answer": self.answer, "values": self.values, "margin": self.margin,
                "themes": self.themes, "rating": self.rating, "mu": round(self.mu, 3),
                "sigma": round(self.sigma, 3), "view": self.view, "tries": self.tries,
                "source": self.source, "record": self.record}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Puzzle:
        try:
            return cls(id=str(data["id"]), variant=str(data["variant"]),
                       record=dict(data["record"]), seat=int(data["seat"]),
                       answer=str(data["answer"]),
                       values={str(a): int(v) for a, v in data["values"].items()},
                       themes=[str(t) for t in data["themes"]],
                       rating=int(data.get("rating", 1500)), mu=float(data.get("mu", 25.0)),
                       sigma=float(data.get("sigma", 8.333)), view=dict(data.get("view", {})),
                       tries=dict(data.get("tries", {})), source=str(data.get("source", "")))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise TuteError(f"invalid puzzle: {type(exc).__name__} {exc}") from exc


def puzzle_id(record: Mapping[str, Any]) -> str:
    """A short stable id from the position itself (the same position, the same id)."""
    key = json.dumps({k: record.get(k) for k in ("variant", "options", "deal", "seed",
                                                  "dealer", "actions")}, sort_keys=True)
    return hashlib.sha256(key.encode()).hexdigest()[:10]


def load_file(path: Path) -> list[Puzzle]:
    """The puzzles of one JSON-lines file (a bad line: an error naming the line)."""
    out: list[Puzzle] = []
    with path.open(encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                out.append(Puzzle.from_json(json.loads(line)))
            except (ValueError, TuteError) as exc:
                raise TuteError(f"{path}: line {n}: {exc}") from exc
    return out


@cache
def _shipped() -> tuple[Puzzle, ...]:
    found: list[Puzzle] = []
    for path in sorted(DATA_DIR.glob("*.jsonl")):
        found += load_file(path)
    return tuple(found)


def load_puzzles(paths: Sequence[Path] | None = None) -> list[Puzzle]:
    """The shipped puzzles (or those of ``paths``), in file order, each id once."""
    found = list(_shipped()) if paths is None else [p for x in paths for p in load_file(x)]
    seen: set[str] = set()
    return [p for p in found if not (p.id in seen or seen.add(p.id))]  # type: ignore[func-returns-value]


def find_puzzle(puzzle: str, puzzles: Sequence[Puzzle] | None = None) -> Puzzle | None:
    return next((p for p in (puzzles if puzzles is not None else _shipped())
                 if p.id == puzzle), None)


#: the puzzle of the day is one with at least this many moves to choose from (where any has)
DAILY_CHOICES = 3


def daily(day: datetime.date, puzzles: Sequence[Puzzle] | None = None) -> Puzzle:
    """The puzzle of ``day``: the same for everyone, drawn from the date alone (a hash, so
    consecutive days are not neighbours in the file), among those with a real choice."""
    pool = list(puzzles if puzzles is not None else _shipped())
    if not pool:
        raise TuteError("no puzzles")
    pool = [p for p in pool if len(p.values) >= DAILY_CHOICES] or pool
    k = int(hashlib.sha256(f"tute-daily:{day.isoformat()}".encode()).hexdigest(), 16)
    return pool[k % len(pool)]


def check_answer(puzzle: Puzzle, answer: str) -> dict[str, Any]:
    """Is ``answer`` right? With every action's value, what the answer lost, the themes and
    why the right one (a reason from the seat's view, both languages). An action that is not
    legal at the position: :class:`~tute.TuteError`."""
    from ..hints import Hint, reason_for

    if answer not in puzzle.values:
        raise TuteError(f"invalid answer {answer!r}: the legal actions are "
                        + " ".join(puzzle.values))
    deal = puzzle.position()
    view = deal.view(puzzle.seat)
    legal = list(deal.legal_actions())
    right = next(a for a in legal if str(a) == puzzle.answer)
    code, params = reason_for(view, right, legal)
    lost = puzzle.values[puzzle.answer] - puzzle.values[answer]
    why = Hint(puzzle.answer, code, params, puzzle.view.get("worlds", 0),
               float(puzzle.margin)).to_json()["reason"]
    return {"id": puzzle.id, "answer": answer, "correct": answer == puzzle.answer,
            "best": puzzle.answer, "lost": lost, "values": puzzle.values,
            "themes": puzzle.themes, "why": why, "rating": puzzle.rating}
