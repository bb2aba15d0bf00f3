"""Cutting puzzles from deals: game records, or deals the bots play for the purpose.

Sources (``--from`` of ``tute puzzles make``):

- a game record file (``.json``: a deal or a match record), a JSON-lines file of records
  (``.jsonl``), or a folder of them (every ``*.json`` and ``*.jsonl`` inside);
- ``selfplay:VARIANT`` (``selfplay:guinote``): deals of that variant played by the rules bot
  at every seat, shuffled from ``seed`` on (deal ``i`` from ``derive_seed(seed, i)``).

Every position of a deal where the seat to move has a real choice is tried in order of play
(the exact measure first, cheap; the sampled worlds only for a candidate), at most
``per_deal`` puzzles a deal so that the set spreads over many deals.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import TuteError
from . import Puzzle, puzzle_id
from .cut import (
    DEFAULT_AGREE,
    DEFAULT_MARGIN,
    DEFAULT_WORLDS,
    exact_values,
    unique_best,
    view_check,
)
from .rating import AGENTS, rate
from .themes import themes_of

if TYPE_CHECKING:
    from ..deal import Deal
    from ..solver import Solver

__all__ = ["DEFAULT_STOCK_LIMIT", "Settings", "cut_deal", "deals_from", "make_puzzles",
           "puzzle_solver"]

#: see :attr:`Settings.stock_limit`
DEFAULT_STOCK_LIMIT = 4
#: a full stock (the solver's own limit)
MAX_STOCK_LIMIT = 28


@dataclass(frozen=True)
class Settings:
    margin: int = DEFAULT_MARGIN
    worlds: int = DEFAULT_WORLDS
    agree: float = DEFAULT_AGREE
    per_deal: int = 3
    seed: int = 0
    #: at least this many solving agents other than the random one miss the answer (0: keep
    #: the positions every bot finds too, such as singing the forty)
    min_misses: int = 1
    #: positions with more cards than this in the hands are skipped: the first tricks of
    #: parejas are the slowest to solve in every world (seconds each), and the least often
    #: readable from one seat's view
    max_cards: int = 28
    #: from the seat's view the answer's mean over the worlds beats every other action's by
    #: at least this many points (a close race of means would flip with another sample)
    view_gap: float = 5.0
    #: stock-phase positions (two-player Tute, Guiñote) with at most this many cards in the
    #: stock are tried too, solved with the stock's order known (0: from the arrastre on);
    #: each card more multiplies the time a position takes (docs/puzzles.md has the figures)
    stock_limit: int = DEFAULT_STOCK_LIMIT
    #: only stock-phase positions (a batch of them to add to a set cut from the arrastre)
    stock_only: bool = False

    def check(self) -> None:
        if not 1 <= self.margin <= 200:
            raise TuteError(f"invalid margin {self.margin!r}: expected points 1..200")
        if not 4 <= self.worlds <= 1000:
            raise TuteError(f"invalid worlds {self.worlds!r}: expected 4..1000")
        if not 0.5 <= self.agree <= 1.0:
            raise TuteError(f"invalid agree {self.agree!r}: expected a share 0.5..1")
        if not 1 <= self.per_deal <= 40:
            raise TuteError(f"invalid per_deal {self.per_deal!r}: expected 1..40")
        if not 0 <= self.min_misses < len(AGENTS):
            raise TuteError(f"invalid min_misses {self.min_misses!r}: "
                            f"expected 0..{len(AGENTS) - 1}")
        if (isinstance(self.stock_limit, bool) or not isinstance(self.stock_limit, int)
                or not 0 <= self.stock_limit <= MAX_STOCK_LIMIT):
            raise TuteError(f"invalid stock_limit {self.stock_limit!r}: expected cards in "
                            f"the stock 0..{MAX_STOCK_LIMIT}")
        if self.stock_only and not self.stock_limit:
            raise TuteError("invalid stock_only: it needs a stock_limit of 1 or more")


def _selfplay(variant: str, seed: int) -> Iterator[tuple[Deal, str]]:
    from ..bots import make_bot
    from ..deal import Deal
    from ..shuffle import derive_seed

    i = 0
    while True:
        deal = Deal.new(variant, seed=derive_seed(seed, i))
        bots = [make_bot("rules", seed=derive_seed(seed, i) + s) for s in range(deal.seats)]
        while not deal.is_over():
            mover = deal.to_move
            assert mover is not None
            view = deal.view(mover, history=False)
            deal.apply(bots[mover].choose(view, view.legal_actions))
        yield deal, f"selfplay:{variant}:{seed}:{i}"
        i += 1


def _record_files(path: Path) -> list[Path]:
    if path.is_dir():
        return sorted(p for p in path.rglob("*") if p.suffix in (".json", ".jsonl"))
    if not path.exists():
        raise TuteError(f"no such file or folder: {str(path)!r}")
    return [path]


def _records(path: Path) -> Iterator[tuple[Deal, str]]:
    from ..analysis import deals_of_record

    for file in _record_files(path):
        text = file.read_text(encoding="utf-8")
        lines = text.splitlines() if file.suffix == ".jsonl" else [text]
        for n, line in enumerate(lines, 1):
            if not line.strip():
                continue
            _kind, deals = deals_of_record(line)
            for k, deal in enumerate(deals):
                yield deal, f"{file.name}:{n}:{k}"


def deals_from(source: str, seed: int = 0) -> Iterator[tuple[Deal, str]]:
    """The deals of a source (see the module's help) and a name for each."""
    if source.startswith("selfplay:"):
        from ..variants import find_variant

        return _selfplay(find_variant(source.split(":", 1)[1]).id, seed)
    return _records(Path(source))


def _start(deal: Deal) -> Deal:
    start = deal.copy()
    while start.actions:
        start.undo()
    return start


def _agent_tries(pos: Deal, answer: str, solver: Solver, seed: int) -> dict[str, bool]:
    """Which solving agents (:data:`tute.puzzles.rating.AGENTS`) find the answer."""
    from ..bots import make_bot
    from ..bots.pimc import action_values

    seat = pos.to_move
    assert seat is not None
    view = pos.view(seat)
    legal = list(pos.legal_actions())
    tries: dict[str, bool] = {}
    for name in AGENTS:
        kind, _, arg = name.partition(":")
        rng = random.Random(f"tute-puzzle:{seed}:{name}")
        if kind == "random":
            choice = str(rng.choice(legal))
        elif kind == "rules":
            choice = str(make_bot("rules", seed=int(arg)).choose(view, legal))
        else:
            res = action_values(view, legal, int(arg), rng, solver)
            choice = str(legal[max(range(len(legal)), key=res.values.__getitem__)])
        tries[name] = choice == answer
    return tries


def _try_position(pos: Deal, solver: Solver, s: Settings, source: str) -> Puzzle | None:
    if sum(len(pos.hand(k)) for k in range(pos.seats)) > s.max_cards:
        return None
    if s.stock_only and not (pos.stock_count and s.stock_limit):
        return None
    exact = exact_values(pos, solver)
    if exact is None:
        return None
    answer = unique_best(exact, s.margin)
    if answer is None:
        return None
    seat = pos.to_move
    assert seat is not None
    record = pos.to_record()
    pid = puzzle_id(record)
    rng = random.Random(f"tute-puzzle:{s.seed}:{pid}")
    check = view_check(pos.view(seat), solver, s.worlds, rng)
    if (not check.worlds or check.top() != answer or check.share(answer) < s.agree
            or check.gap(answer) < s.view_gap):
        return None
    tries = _agent_tries(pos, answer, solver, s.seed)
    if sum(not ok for name, ok in tries.items() if name != "random") < s.min_misses:
        return None
    rating, mu, sigma = rate(1.0 - check.share(answer), tries)
    view = {"worlds": check.worlds, "agree": round(check.share(answer), 3),
            "means": {a: round(v, 2) for a, v in check.means.items()}}
    return Puzzle(pid, pos.variant.id, record, seat, answer, exact.values,
                  themes_of(pos, answer), rating, mu, sigma, view, tries, source)


def cut_deal(deal: Deal, solver: Solver, settings: Settings, source: str = "") -> list[Puzzle]:
    """The puzzles of one deal (at most ``settings.per_deal``), in order of play."""
    out: list[Puzzle] = []
    pos = _start(deal)
    for move, act in enumerate(deal.actions):
        if len(out) >= settings.per_deal:
            break
        found = _try_position(pos, solver, settings, f"{source}:{move}")
        if found is not None:
            out.append(found)
        pos.apply(act)
    return out


def puzzle_solver(settings: Settings) -> Solver:
    """The exact solver the cut uses: one thread (a batch runs in one process), the stock
    phase up to the settings' limit."""
    from ..solver import Solver

    return Solver(tt_mb=64, threads=1, stock_limit=settings.stock_limit)


def make_puzzles(sources: Sequence[str], count: int, settings: Settings | None = None,
                 *, max_deals: int = 100_000, seen: set[str] | None = None,
                 progress: Callable[[Puzzle], None] | None = None) -> list[Puzzle]:
    """Up to ``count`` puzzles from ``sources`` (taken in turn, a deal from each), each
    position once (``seen`` ids are skipped, and grow)."""
    s = settings or Settings()
    s.check()
    if count < 1:
        raise TuteError(f"invalid count {count!r}: expected at least 1")
    solver = puzzle_solver(s)
    seen = set() if seen is None else seen
    streams = [deals_from(src, s.seed) for src in sources]
    out: list[Puzzle] = []
    deals = 0
    while streams and len(out) < count and deals < max_deals:
        for stream in list(streams):
            item = next(stream, None)
            if item is None:
                streams.remove(stream)
                continue
            deals += 1
            for p in cut_deal(item[0], solver, s, item[1]):
                if p.id not in seen and len(out) < count:
                    seen.add(p.id)
                    out.append(p)
                    if progress is not None:
                        progress(p)
    return out
