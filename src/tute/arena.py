"""Self-play between two bot line-ups, with duplicate deals.

``selfplay(["rules", "random"], deals=1000, duplicate=True)`` plays every deal twice with the
same cards, the line-ups exchanging seats, so the luck of the cards cancels out: the figure
per deal is the mean of line-up A's margin over both seatings -- in points, or in the game's
own currency where points are not the aim (:func:`deal_values`: the games lost in
arrastrado, cabrón, gana-pierde and cabrero, the balance paid in subastado). The report gives
the mean margin and A's win rate with 95% confidence intervals (Student t on the per-deal figures;
each duplicate pair counts once, since its two halves share the cards and are not independent).

Seats: in the partnership games line-up A holds one side (seats 0 and 2), B the other; in the
two-player games A is one seat and B the other. In individual games with more seats (three
players) A holds one seat and B all the others; duplicate then rotates A through every seat.

Bots only ever see ``deal.view(seat)`` and the legal actions.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .bots import Bot, make_bot
from .deal import Deal
from .match import Match
from .ratings import Rating, bradley_terry
from .shuffle import derive_seed
from .variants import Options, Variant, find_variant
from .views import DealResult

__all__ = ["BACKENDS", "ArenaResult", "DDMeter", "Interval", "TournamentResult", "deal_values",
           "merge_results", "play_deal", "play_match", "ratings_png", "ratings_svg", "selfplay",
           "t_quantile", "tournament"]

Progress = Callable[[int, int], None]
_BOT_SEED_INDEX = 7_000_000


@dataclass(frozen=True)
class Interval:
    """A mean with its 95% confidence interval."""

    mean: float
    low: float
    high: float
    n: int

    def excludes(self, value: float) -> bool:
        return not self.low <= value <= self.high

    def to_json(self) -> dict[str, Any]:
        # JSON has no infinity or NaN (Python's "Infinity" breaks strict parsers): a bound
        # that the samples cannot give (one sample, none) is null
        return {"mean": _json_number(self.mean), "low": _json_number(self.low),
                "high": _json_number(self.high), "n": self.n}

    def __str__(self) -> str:
        return f"{self.mean:+.2f} [{self.low:+.2f}, {self.high:+.2f}]"


@dataclass
class ArenaResult:
    """What a self-play run measured, from line-up A's point of view."""

    variant: str
    lineups: tuple[str, str]
    units: str  # "deals" | "matches"
    played: int  # deals (or matches) per seating
    games: int  # deals (or matches) played in all
    duplicate: bool
    seed: int
    margin: Interval  # A's points minus B's (games in match mode), per deal or pair
    win_rate: Interval  # share of deals (matches) won by A; a draw counts one half
    wins: int
    losses: int
    draws: int
    ms_per_decision: dict[str, float] = field(default_factory=dict)
    decisions: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    dd_loss: dict[str, float] = field(default_factory=dict)  # per bot, points per decision
    #: the decisions the double-dummy loss was measured on, per bot
    dd_decisions: dict[str, int] = field(default_factory=dict)
    #: the double-dummy loss over the decisions with a choice only, and how many there were
    dd_loss_choices: dict[str, float] = field(default_factory=dict)
    dd_choices: dict[str, int] = field(default_factory=dict)
    #: per deal (per duplicate pair): A's margin and score, in order (to merge runs of parts)
    samples: tuple[tuple[float, float], ...] = field(default=(), repr=False)
    first: int = 0  # the index of the first deal (match) played
    #: what the margin counts: "points", "lost games" (the games whose deals are lost:
    #: arrastrado, cabrón, gana-pierde, cabrero; B's lost games less A's), "balance" (what a
    #: subastado deal pays), or "games" (matches)
    measure: str = "points"

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant, "lineups": list(self.lineups), "units": self.units,
            "measure": self.measure,
            "played": self.played, "games": self.games, "duplicate": self.duplicate,
            "seed": self.seed, "margin": self.margin.to_json(),
            "win_rate": self.win_rate.to_json(), "wins": self.wins, "losses": self.losses,
            "draws": self.draws,
            "ms_per_decision": {k: round(v, 4) for k, v in self.ms_per_decision.items()},
            "decisions": dict(self.decisions), "seconds": round(self.seconds, 3),
            **({"dd_loss": {k: round(v, 3) for k, v in self.dd_loss.items()},
                "dd_decisions": dict(self.dd_decisions),
                "dd_loss_choices": {k: round(v, 3) for k, v in self.dd_loss_choices.items()},
                "dd_choices": dict(self.dd_choices)}
               if self.dd_loss else {}),
        }

    def rows(self) -> list[tuple[str, str]]:
        """Label/value rows for a results table."""
        a, b = self.lineups
        unit = "deal" if self.units == "deals" else "match"
        per = f"per duplicate {unit} pair" if self.duplicate else f"per {unit}"
        what = self.measure
        rows = [
            ("variant", self.variant),
            ("line-ups", f"A = {a}  vs  B = {b}"),
            (self.units, f"{self.played}" + (" × 2 seatings" if self.duplicate else "")),
            (f"margin A−B ({what}, {per})", str(self.margin)),
            ("A win rate", f"{100 * self.win_rate.mean:.1f}% [{100 * self.win_rate.low:.1f}%, "
                           f"{100 * self.win_rate.high:.1f}%]"),
            ("A won / lost / drawn", f"{self.wins} / {self.losses} / {self.draws}"),
        ]
        for name, ms in self.ms_per_decision.items():
            rows.append((f"ms per decision ({name})", f"{ms:.3f}"))
        for name, loss in self.dd_loss.items():
            rows.append((f"double-dummy loss per decision ({name})", f"{loss:.2f}"))
        for name, loss in self.dd_loss_choices.items():
            rows.append((f"  ... per decision with a choice ({name})", f"{loss:.2f}"))
        rows.append(("seconds", f"{self.seconds:.1f}"))
        return rows


def t_quantile(df: int, p: float = 0.975) -> float:
    """Student t quantile (Cornish–Fisher expansion around the normal; ample for df ≥ 3)."""
    z = statistics.NormalDist().inv_cdf(p)
    if df <= 0:
        return math.inf
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


def _json_number(x: float) -> float | None:
    return round(x, 4) if math.isfinite(x) else None


def interval(values: Sequence[float],
             bounds: tuple[float, float] = (-math.inf, math.inf)) -> Interval:
    """Mean and 95% t-interval of independent samples, cut to ``bounds``, the range the
    measure cannot leave (a win rate's [0, 1]: a t-interval of few samples reaches past it,
    and the part outside holds no possible value)."""
    n = len(values)
    if n == 0:
        return Interval(math.nan, math.nan, math.nan, 0)
    mean = statistics.fmean(values)
    if n == 1:
        return Interval(mean, bounds[0], bounds[1], 1)
    half = t_quantile(n - 1) * statistics.stdev(values) / math.sqrt(n)
    return Interval(mean, max(mean - half, bounds[0]), min(mean + half, bounds[1]), n)


class _Timed:
    """Wraps the bots to count decisions and the time spent in them, per bot name; with a
    solver, also the double-dummy loss of each decision it covers."""

    def __init__(self, dd: DDMeter | None = None) -> None:
        self.seconds: dict[str, float] = {}
        self.count: dict[str, int] = {}
        self.dd = dd

    def choose(self, bot: Bot, deal: Deal, seat: int) -> Any:
        view = deal.view(seat)  # a bot sees what its seat may know, and nothing else
        start = time.perf_counter()
        action = _decide(bot, deal, view)
        spent = time.perf_counter() - start
        self.seconds[bot.label] = self.seconds.get(bot.label, 0.0) + spent
        self.count[bot.label] = self.count.get(bot.label, 0) + 1
        if self.dd is not None:
            self.dd.measure(bot.label, deal, seat, action)
        return action


def _decide(bot: Bot, deal: Deal, view: Any) -> Any:
    attach = getattr(bot, "attach", None)
    if attach is not None:  # the all-seeing yardstick (analysis only) is shown the deal
        attach(deal)
    return bot.choose(view, view.legal_actions)


class DDMeter:
    """The double-dummy loss of decisions: the points the chosen action gives away against
    the best one with every hand known and perfect play after (the exact solver), for the
    decisions the solver covers (card play and cantes; not the stock phase, bids or polls)."""

    def __init__(self, tt_mb: int = 32) -> None:
        from .solver import Solver

        self.solver = Solver(tt_mb=tt_mb, threads=1)
        self.loss: dict[str, float] = {}
        self.count: dict[str, int] = {}
        # the same over the decisions with a choice (two legal actions or more): a forced
        # card gives nothing away, and how many there are differs between games and bots
        self.choice_loss: dict[str, float] = {}
        self.choices: dict[str, int] = {}

    def measure(self, name: str, deal: Deal, seat: int, action: Any) -> float | None:
        from .errors import TuteError

        try:
            analysis = self.solver.analyze(deal)
        except TuteError:
            return None
        sign = 1 if analysis.hero is not None or deal.side_of(seat) == 0 else -1
        values = {a: sign * v for a, v in analysis.actions}
        lost = max(values.values()) - values[str(action)]
        self.loss[name] = self.loss.get(name, 0.0) + lost
        self.count[name] = self.count.get(name, 0) + 1
        if len(values) > 1:
            self.choice_loss[name] = self.choice_loss.get(name, 0.0) + lost
            self.choices[name] = self.choices.get(name, 0) + 1
        return lost

    def per_decision(self) -> dict[str, float]:
        return {k: self.loss[k] / self.count[k] for k in self.count}

    def per_choice(self) -> dict[str, float]:
        return {k: self.choice_loss[k] / self.choices[k] for k in self.choices}


def play_deal(deal: Deal, bots: Sequence[Bot], timer: _Timed | None = None) -> Deal:
    """Play ``deal`` to its end with one bot per seat; returns the deal."""
    for bot in bots:
        bot.reset()
    while not deal.is_over():
        deal.apply(_choose(bots, deal, timer))
    return deal


def _choose(bots: Sequence[Bot], deal: Deal, timer: _Timed | None) -> Any:
    """The action of the bot whose seat is to move, given only that seat's view."""
    seat = deal.to_move
    assert seat is not None
    if timer is not None:
        return timer.choose(bots[seat], deal, seat)
    return _decide(bots[seat], deal, deal.view(seat))


def play_match(match: Match, bots: Sequence[Bot], timer: _Timed | None = None) -> Match:
    """Play ``match`` to its end with one bot per seat."""
    current = -1
    while not match.is_over():
        if len(match.deals) != current:
            current = len(match.deals)
            for bot in bots:
                bot.reset()
        match.apply(_choose(bots, match.deal, timer))
    return match


def _seatings(var: Variant, opts: Options, duplicate: bool) -> list[list[int]]:
    """For each seating, the line-up (0 = A, 1 = B) at every seat."""
    n = var.seat_count(opts)
    if var.partnerships:
        base = [s % 2 for s in range(n)]
        return [base, [1 - x for x in base]] if duplicate else [base]
    if n == 2:
        return [[0, 1], [1, 0]] if duplicate else [[0, 1]]
    rotations = [[0 if s == k else 1 for s in range(n)] for k in range(n)]
    return rotations if duplicate else rotations[:1]


def _lineup_seats(seating: Sequence[int], var: Variant, opts: Options) -> tuple[int, list[int]]:
    """Line-up A's scoring side and B's sides, for one seating."""
    sides_a = {var.side_of(s, opts) for s, who in enumerate(seating) if who == 0}
    sides_b = sorted({var.side_of(s, opts) for s, who in enumerate(seating) if who == 1})
    return min(sides_a), sides_b


def selfplay(
    lineups: Sequence[str | Sequence[str]],
    variant: str = "tute_parejas",
    *,
    deals: int = 100,
    seed: int = 0,
    duplicate: bool = True,
    options: Mapping[str, Any] | Options | None = None,
    matches: bool = False,
    progress: Progress | None = None,
    dd_loss: bool = False,
    first: int = 0,
) -> ArenaResult:
    """Play ``deals`` deals (``matches=True``: matches) of ``variant`` between two line-ups.

    A line-up is a bot name or level (``"rules"``, ``"medio"``) used at all its seats, or a
    list of names given to its seats in order. With ``duplicate`` every deal is played once
    per seating (twice in two-sided games) with the same seed. Deal (match) ``i`` is shuffled
    from ``derive_seed(seed, i)``; bots are seeded from ``seed`` and their seat.
    ``progress(done, total)`` is called after every deal (match) played. ``dd_loss`` also
    measures each bot's double-dummy loss per decision (slow: one exact analysis a decision).
    ``first`` starts at deal ``first`` instead of 0: parts of one run, played apart, give
    together (:func:`merge_results`) what the whole run gives.
    """
    if len(lineups) != 2:
        raise ValueError(f"expected two line-ups, got {len(lineups)}")
    if deals < 1:
        raise ValueError(f"deals must be at least 1, got {deals}")
    var = find_variant(variant)
    opts = var.resolve(options)
    n = var.seat_count(opts)
    names = [_lineup_names(lu) for lu in lineups]
    for lu in names:
        for name in lu:
            make_bot(name)  # fail early, with the list of valid names
    seatings = _seatings(var, opts, duplicate)
    total = deals * len(seatings)
    timer = _Timed(DDMeter() if dd_loss else None)
    margins: list[float] = []
    measure = "points"
    scores: list[float] = []
    wins = losses = draws = 0
    done = 0
    start = time.perf_counter()
    for i in range(first, first + deals):
        game_seed = derive_seed(seed, i)
        pair_margin: list[float] = []
        pair_score: list[float] = []
        for seating in seatings:
            count = [0, 0]
            bots: list[Bot] = []
            for s in range(n):
                who = seating[s]
                lu = names[who]
                bots.append(make_bot(lu[count[who] % len(lu)],
                                     seed=derive_seed(seed, _BOT_SEED_INDEX + 97 * i + s)))
                count[who] += 1
            side_a, sides_b = _lineup_seats(seating, var, opts)
            if matches:
                m = play_match(Match.new(var, seed=game_seed, options=opts), bots, timer)
                res = m.result()
                values = [float(g) for g in res.games]
                winner = res.winner
            else:
                d = play_deal(Deal.new(var, seed=game_seed, options=opts), bots, timer)
                dres = d.result()
                measure, values = deal_values(dres)
                winner = dres.winner
            b_value = statistics.fmean(values[s] for s in sides_b)
            pair_margin.append(values[side_a] - b_value)
            if winner is None:
                score = 0.5
                draws += 1
            elif winner == side_a:
                score = 1.0
                wins += 1
            else:
                score = 0.0
                losses += 1
            pair_score.append(score)
            done += 1
            if progress is not None:
                progress(done, total)
        margins.append(statistics.fmean(pair_margin))
        scores.append(statistics.fmean(pair_score))
    seconds = time.perf_counter() - start
    ms = {k: 1000 * timer.seconds[k] / timer.count[k] for k in timer.count}
    return ArenaResult(
        variant=var.id, lineups=(",".join(names[0]), ",".join(names[1])),
        units="matches" if matches else "deals", played=deals, games=total,
        measure="games" if matches else measure,
        duplicate=duplicate, seed=seed, margin=interval(margins),
        win_rate=interval(scores, (0.0, 1.0)),
        wins=wins, losses=losses, draws=draws, ms_per_decision=ms,
        decisions=dict(timer.count), seconds=seconds,
        dd_loss=timer.dd.per_decision() if timer.dd is not None else {},
        dd_decisions=dict(timer.dd.count) if timer.dd is not None else {},
        dd_loss_choices=timer.dd.per_choice() if timer.dd is not None else {},
        dd_choices=dict(timer.dd.choices) if timer.dd is not None else {},
        samples=tuple(zip(margins, scores, strict=True)), first=first,
    )


def deal_values(result: DealResult) -> tuple[str, list[float]]:
    """What a finished deal is worth to each seat, by the game's own aim (the one the pimc
    bot plays for): what it pays where a contract is paid (subastado), minus the games lost
    where deals are lost (arrastrado, cabrón, gana-pierde, cabrero -- points there decide
    only who loses), else the points taken."""
    if result.balances is not None:
        return "balance", [float(b) for b in result.balances]
    if result.losses is not None:
        return "lost games", [-float(x) for x in result.losses]
    return "points", [float(t) for t in result.totals]


def merge_results(parts: Sequence[ArenaResult]) -> ArenaResult:
    """One result from the parts of one run (the same line-ups, variant and seed, deals split
    with ``first``): the figures the whole run would have given, ``seconds`` their sum."""
    if not parts:
        raise ValueError("nothing to merge")
    parts = sorted(parts, key=lambda r: r.first)
    head = parts[0]
    samples = tuple(x for r in parts for x in r.samples)
    count: dict[str, int] = {}
    spent: dict[str, float] = {}
    dd_count: dict[str, int] = {}
    dd_sum: dict[str, float] = {}
    ch_count: dict[str, int] = {}
    ch_sum: dict[str, float] = {}
    for r in parts:
        for name, n in r.decisions.items():
            count[name] = count.get(name, 0) + n
            spent[name] = spent.get(name, 0.0) + n * r.ms_per_decision.get(name, 0.0)
        for name, n in r.dd_decisions.items():
            dd_count[name] = dd_count.get(name, 0) + n
            dd_sum[name] = dd_sum.get(name, 0.0) + n * r.dd_loss.get(name, 0.0)
        for name, n in r.dd_choices.items():
            ch_count[name] = ch_count.get(name, 0) + n
            ch_sum[name] = ch_sum.get(name, 0.0) + n * r.dd_loss_choices.get(name, 0.0)
    return ArenaResult(
        variant=head.variant, lineups=head.lineups, units=head.units, measure=head.measure,
        played=sum(r.played for r in parts), games=sum(r.games for r in parts),
        duplicate=head.duplicate, seed=head.seed,
        margin=interval([m for m, _s in samples]),
        win_rate=interval([s for _m, s in samples], (0.0, 1.0)),
        wins=sum(r.wins for r in parts), losses=sum(r.losses for r in parts),
        draws=sum(r.draws for r in parts),
        ms_per_decision={k: spent[k] / count[k] for k in count}, decisions=count,
        seconds=sum(r.seconds for r in parts),
        dd_loss={k: dd_sum[k] / dd_count[k] for k in dd_count if dd_count[k]},
        dd_decisions=dd_count,
        dd_loss_choices={k: ch_sum[k] / ch_count[k] for k in ch_count if ch_count[k]},
        dd_choices=ch_count, samples=samples, first=head.first)


def _lineup_names(lineup: str | Sequence[str]) -> list[str]:
    if isinstance(lineup, str):
        parts = [p.strip() for p in lineup.split("+") if p.strip()]
    else:
        parts = [str(p).strip() for p in lineup]
    if not parts:
        raise ValueError("empty bot line-up")
    return parts


# --------------------------------------------------------------------------- tournaments


@dataclass
class TournamentResult:
    """A round robin (every pair) or gauntlet (the first bot against each other one)."""

    variant: str
    bots: tuple[str, ...]
    mode: str
    deals: int
    seed: int
    pairs: list[ArenaResult]
    ratings: dict[str, Rating]
    dd_loss: dict[str, float] = field(default_factory=dict)
    dd_loss_choices: dict[str, float] = field(default_factory=dict)  # decisions with a choice
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant, "bots": list(self.bots), "mode": self.mode,
            "deals": self.deals, "seed": self.seed,
            "pairs": [p.to_json() for p in self.pairs],
            "ratings": {n: {"elo": round(r.elo, 1), "low": round(r.low, 1),
                            "high": round(r.high, 1), "games": r.games}
                        for n, r in self.ratings.items()},
            **({"dd_loss": {k: round(v, 3) for k, v in self.dd_loss.items()},
                "dd_loss_choices": {k: round(v, 3) for k, v in self.dd_loss_choices.items()}}
               if self.dd_loss else {}),
            "seconds": round(self.seconds, 3),
        }


def tournament(
    bots: Sequence[str],
    variant: str = "tute_parejas",
    *,
    deals: int = 100,
    seed: int = 0,
    options: Mapping[str, Any] | Options | None = None,
    mode: str = "round_robin",
    jobs: int = 1,
    dd_loss: bool = False,
    progress: Progress | None = None,
    backend: str = "processes",
    address: str | None = None,
) -> TournamentResult:
    """Every pair of ``bots`` (``mode="gauntlet"``: the first against each other one) on the
    same ``deals`` duplicate deals; Elo by Bradley–Terry over the duplicate games' results.
    ``jobs`` > 1 splits the pairs' deals into parts played in that many processes
    (``backend="processes"``) or as tasks of a Ray cluster (``backend="ray"``: the one at
    ``address``, else a local one with ``jobs`` CPUs); the figures do not depend on how the
    run was split. ``progress(done, total)`` counts deals (as parts end when split)."""
    names = [b.strip() for b in bots]
    if len(names) < 2 or len(set(names)) != len(names):
        raise ValueError(f"a tournament needs two or more different bots, got {names}")
    if mode not in ("round_robin", "gauntlet"):
        raise ValueError(f"invalid mode {mode!r}: expected round_robin or gauntlet")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= 64:
        raise ValueError(f"invalid jobs {jobs!r}: expected 1..64")
    if backend not in BACKENDS:
        raise ValueError(f"invalid backend {backend!r}: expected one of {', '.join(BACKENDS)}")
    for name in names:
        make_bot(name)  # fail early, naming what is valid
    if mode == "gauntlet":
        pairs = [(names[0], other) for other in names[1:]]
    else:
        pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    start = time.perf_counter()
    kwargs: dict[str, Any] = {"deals": deals, "seed": seed, "options": options,
                              "duplicate": True, "dd_loss": dd_loss}
    results: list[ArenaResult] = []
    if jobs == 1 and backend == "processes":
        per_pair = None
        for k, (a, b) in enumerate(pairs):
            if progress is not None:
                def per_pair(done: int, total: int, k: int = k) -> None:
                    progress(k * total + done, len(pairs) * total)
            results.append(selfplay([a, b], variant, progress=per_pair, **kwargs))
    else:
        # a few parts per job, so that the jobs end together and progress moves
        split = max(1, min(deals, math.ceil(3 * jobs / len(pairs))))
        size = math.ceil(deals / split)
        tasks = [(k, a, b, lo, min(size, deals - lo)) for k, (a, b) in enumerate(pairs)
                 for lo in range(0, deals, size)]
        calls = [((a, b), variant, {**kwargs, "deals": n, "first": lo})
                 for _k, a, b, lo, n in tasks]
        sizes = [n for *_x, n in tasks]
        run = _run_ray if backend == "ray" else _run_processes
        parts = run(calls, jobs, address, sizes, len(pairs) * deals, progress)
        for k in range(len(pairs)):
            results.append(merge_results([p for t, p in zip(tasks, parts, strict=True)
                                          if t[0] == k]))
    scores: dict[tuple[str, str], tuple[float, float]] = {}
    for (a, b), res in zip(pairs, results, strict=True):
        half = res.draws / 2
        scores[(a, b)] = (res.wins + half, res.losses + half)
    def pooled(of: Callable[[ArenaResult], tuple[dict[str, float], dict[str, int]]]
               ) -> dict[str, float]:
        """A bot's loss per decision over every pair it played (weighted by decisions)."""
        loss: dict[str, list[tuple[float, int]]] = {}
        for res in results:
            values, counts = of(res)
            for name, value in values.items():
                loss.setdefault(name, []).append((value, counts.get(name, 1)))
        return {n: sum(v * w for v, w in vals) / sum(w for _v, w in vals)
                for n, vals in loss.items() if sum(w for _v, w in vals)}

    return TournamentResult(
        variant=find_variant(variant).id, bots=tuple(names), mode=mode, deals=deals, seed=seed,
        pairs=results, ratings=bradley_terry(names, scores),
        dd_loss=pooled(lambda r: (r.dd_loss, r.dd_decisions)),
        dd_loss_choices=pooled(lambda r: (r.dd_loss_choices, r.dd_choices)),
        seconds=time.perf_counter() - start)


BACKENDS = ("processes", "ray")
_Call = tuple[tuple[str, str], str, dict[str, Any]]


def _play_part(call: _Call) -> ArenaResult:
    (a, b), variant, kwargs = call
    return selfplay([a, b], variant, **kwargs)


def _run_processes(calls: list[_Call], jobs: int, address: str | None, sizes: list[int],
                   total: int, progress: Progress | None) -> list[ArenaResult]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    if address is not None:
        raise ValueError("an address is for the ray backend")
    # spawn: the solver's OpenMP threads are not fork-safe (see tute.solver)
    ctx = multiprocessing.get_context("spawn")
    out: list[ArenaResult | None] = [None] * len(calls)
    done = 0
    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
        futures = {pool.submit(_play_part, c): i for i, c in enumerate(calls)}
        for fut in as_completed(futures):
            i = futures[fut]
            out[i] = fut.result()
            done += sizes[i]
            if progress is not None:
                progress(done, total)
    return [r for r in out if r is not None]


def _run_ray(calls: list[_Call], jobs: int, address: str | None, sizes: list[int],
             total: int, progress: Progress | None) -> list[ArenaResult]:
    """The parts as Ray tasks: on the cluster at ``address``, else on a local Ray started
    for the run (``jobs`` CPUs) and stopped after it."""
    try:
        import ray
    except ImportError:
        raise ValueError("the ray backend needs Ray: pip install 'tute[cluster]'") from None
    started = not ray.is_initialized()
    if started:
        if address is not None:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False)
    try:
        task = ray.remote(num_cpus=1)(_play_part)
        refs = {task.remote(c): i for i, c in enumerate(calls)}
        out: list[ArenaResult | None] = [None] * len(calls)
        waiting = list(refs)
        done = 0
        while waiting:
            ready, waiting = ray.wait(waiting, num_returns=1)
            for ref in ready:
                i = refs[ref]
                out[i] = ray.get(ref)
                done += sizes[i]
                if progress is not None:
                    progress(done, total)
    finally:
        if started:
            ray.shutdown()
    return [r for r in out if r is not None]


class _Chart(NamedTuple):
    """The ratings chart's layout, shared by the SVG and the PNG: rows best first, the
    Elo scale's ends and the canvas."""

    rows: list[Rating]
    lo: float
    hi: float
    width: int = 640
    left: int = 170
    top: int = 40
    step: int = 28

    @property
    def height(self) -> int:
        return self.top + self.step * len(self.rows) + 30

    @property
    def axis(self) -> int:
        return self.top + self.step * len(self.rows) + 8

    def x(self, v: float) -> float:
        v = min(max(v, self.lo), self.hi)
        return self.left + (self.width - self.left - 20) * (v - self.lo) / (self.hi - self.lo)

    def y(self, i: int) -> int:
        return self.top + self.step * i + 14


def _chart(result: TournamentResult) -> _Chart:
    rows = sorted(result.ratings.values(), key=lambda r: -r.elo)
    finite = [x for r in rows for x in (r.low, r.high) if math.isfinite(x)] or [1500.0]
    return _Chart(rows, min(finite) - 20, max(finite) + 20)


def ratings_svg(result: TournamentResult) -> str:
    """The ratings with their 95% intervals as a small SVG chart (no plotting library)."""
    c = _chart(result)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{c.width}" height="{c.height}" '
             'font-family="sans-serif" font-size="13">',
             f'<text x="10" y="22" font-size="15">Elo ({result.variant}, {result.deals} '
             'duplicate deals per pair, 95% intervals)</text>']
    for i, r in enumerate(c.rows):
        y = c.y(i)
        name = r.name.replace("&", "&amp;").replace("<", "&lt;")
        parts.append(f'<text x="10" y="{y + 4}">{name}</text>')
        parts.append(f'<line x1="{c.x(r.low):.1f}" y1="{y}" x2="{c.x(r.high):.1f}" y2="{y}" '
                     'stroke="#555" stroke-width="2"/>')
        parts.append(f'<circle cx="{c.x(r.elo):.1f}" cy="{y}" r="5" fill="#b22"/>')
        parts.append(f'<text x="{c.x(r.elo) + 8:.1f}" y="{y - 6}" font-size="11">'
                     f'{r.elo:.0f}</text>')
    parts.append(f'<line x1="{c.left}" y1="{c.axis}" x2="{c.width - 20}" y2="{c.axis}" '
                 'stroke="#999"/>')
    for v in (c.lo, (c.lo + c.hi) / 2, c.hi):
        parts.append(f'<text x="{c.x(v) - 15:.1f}" y="{c.axis + 16}" font-size="11">'
                     f'{v:.0f}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def ratings_png(result: TournamentResult) -> bytes:
    """The chart of :func:`ratings_svg` as a PNG image (drawn with Pillow: the ``plot``
    extra)."""
    import io

    try:
        from PIL import Image, ImageDraw
    except ImportError:
        raise ValueError("a PNG plot needs Pillow: pip install 'tute[plot]' "
                         "(or name the file .svg)") from None
    c = _chart(result)
    img = Image.new("RGB", (c.width, c.height), "white")
    draw = ImageDraw.Draw(img)
    draw.text((10, 10), f"Elo ({result.variant}, {result.deals} duplicate deals per pair, "
              "95% intervals)", fill="black")
    for i, r in enumerate(c.rows):
        y = c.y(i)
        draw.text((10, y - 6), r.name[:26], fill="black")
        draw.line([(c.x(r.low), y), (c.x(r.high), y)], fill="#555555", width=2)
        draw.ellipse([c.x(r.elo) - 5, y - 5, c.x(r.elo) + 5, y + 5], fill="#bb2222")
        draw.text((c.x(r.elo) + 8, y - 16), f"{r.elo:.0f}", fill="black")
    draw.line([(c.left, c.axis), (c.width - 20, c.axis)], fill="#999999")
    for v in (c.lo, (c.lo + c.hi) / 2, c.hi):
        draw.text((c.x(v) - 15, c.axis + 6), f"{v:.0f}", fill="black")
    out = io.BytesIO()
    img.save(out, format="PNG")
    return out.getvalue()
