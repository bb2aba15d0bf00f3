"""Tournaments of people: the rules as pure functions over a :class:`Tournament` value.

Two kinds. *Swiss*: a fixed number of rounds; each round groups the competitors by their
points, never twice against the same opponent where another grouping avoids it; when the
count does not divide into tables, the lowest placed who has not had one yet plays with bots
in the empty seats. *Arena*: for ``minutes`` from the start, a competitor whose game ends
waits for the next free ones and plays again (bots take the empty seats after
:data:`ARENA_WAIT` seconds alone); a win is worth 2, and 4 on a streak (after two wins in a
row); games started before the end count when they end.

A *unit* is what is ranked: a player, or in a partnership game played in fixed pairs, a pair
(formed at the start: two players who named each other, then the rest in the order they
joined; one left over plays with a bot partner). In a partnership game with rotating partners
each player is a unit and the table's sides are made to avoid repeating partners.

Everything here is data in, data out (the clock's time is an argument), so the pairing, the
standings and the state machine (``open`` -> ``running`` -> ``finished``) are tested without
a server; :mod:`tute.server.tournament_director` stores the values and makes the tables.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import TuteError
from ..variants import check_json_types, find_variant, resolve_options
from .skill import side_ranks

__all__ = ["ARENA_WAIT", "KINDS", "PAIRS", "Game", "Layout", "Standing", "Tournament",
           "Unit", "arena_groups", "arena_points", "group_size", "layout_of", "make_units",
           "next_games", "record_result", "seat_group", "standings", "swiss_groups",
           "unit_points"]

KINDS = ("swiss", "arena")
#: how the players of a partnership game are ranked: "fixed" pairs, or each player alone
#: with "rotating" partners; "single" for the other games (one player a side)
PAIRS = ("fixed", "rotating", "single")
#: seconds a competitor waits alone in an arena before bots take the other seats
ARENA_WAIT = 20.0
ROUNDS = (1, 15)
MINUTES = (5, 180)
MAX_PLAYERS = 64
#: the pairing's search for a grouping with no repeated opponents stops after this many steps
#: and takes the grouping with the fewest repeats
_SEARCH_STEPS = 20_000


@dataclass(frozen=True)
class Layout:
    """A game's table: the side of each seat."""

    side_of: tuple[int, ...]

    @property
    def seats(self) -> int:
        return len(self.side_of)

    @property
    def sides(self) -> int:
        return max(self.side_of) + 1

    @property
    def per_side(self) -> int:
        return self.seats // self.sides


def layout_of(variant: str, options: Mapping[str, Any]) -> Layout:
    """The table of ``variant`` under ``options``; a bad variant or option raises
    :class:`TuteError` with the reason."""
    var = find_variant(variant)
    check_json_types(var, dict(options))
    opts = resolve_options(var, dict(options))
    n = var.seat_count(opts)
    return Layout(tuple(var.side_of(i, opts) for i in range(n)))


def group_size(layout: Layout, pairs: str) -> int:
    """Competitors per table: a unit a side, or each seat its own player (rotating)."""
    return layout.seats if pairs == "rotating" else layout.sides


@dataclass(frozen=True)
class Unit:
    id: str
    members: tuple[str, ...]  # account ids
    names: tuple[str, ...]

    @property
    def name(self) -> str:
        return " & ".join(self.names)


@dataclass
class Entry:
    account: str
    name: str
    at: float
    partner: str | None = None  # the name of the partner asked for (fixed pairs)


@dataclass
class Game:
    """One table of the tournament: who sits where (account ids, None: a bot), and for whom
    (the unit of each seat). A game is stored before its table is made (``made``: the table
    exists), so a stop between the two leaves it to be made, never paired again."""

    table: str
    round: int  # the Swiss round (1-based); 0 in an arena
    seats: list[str | None]
    units: list[str | None]
    started: float
    status: str = "playing"  # playing | finished | abandoned
    ranks: list[int] | None = None  # each side's place, once finished
    ended: float | None = None
    made: bool = True  # its table exists (a stored game without: made at the next tick)


@dataclass
class Tournament:
    id: str
    name: str
    creator: str  # account id
    creator_name: str
    variant: str
    options: dict[str, Any]
    kind: str
    pairs: str
    rounds: int  # Swiss
    minutes: int  # arena
    level: str  # the bots' level
    rated: bool
    starts_at: float | None  # None: the creator starts it
    created_at: float
    status: str = "open"
    round: int = 0
    started_at: float | None = None
    ends_at: float | None = None  # arena
    finished_at: float | None = None
    cancelled: bool = False
    entries: list[Entry] = field(default_factory=list)
    units: list[Unit] = field(default_factory=list)
    games: list[Game] = field(default_factory=list)
    waiting: dict[str, float] = field(default_factory=dict)  # arena: unit -> since
    seed: int = 0

    def layout(self) -> Layout:
        return layout_of(self.variant, self.options)

    def entry(self, account: str) -> Entry | None:
        return next((e for e in self.entries if e.account == account), None)

    def unit_of(self, account: str) -> Unit | None:
        return next((u for u in self.units if account in u.members), None)

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Tournament:
        d = dict(data)
        d["entries"] = [Entry(**e) for e in d.get("entries", [])]
        d["units"] = [Unit(u["id"], tuple(u["members"]), tuple(u["names"]))
                      for u in d.get("units", [])]
        d["games"] = [Game(**g) for g in d.get("games", [])]
        return cls(**d)


# ------------------------------------------------------------------ units


def make_units(entries: Sequence[Entry], pairs: str) -> list[Unit]:
    """The competitors: each entry, or in fixed pairs the pairs -- those who named each
    other first, then the others two by two in the order they joined."""
    if pairs != "fixed":
        return [Unit(e.account, (e.account,), (e.name,)) for e in entries]
    by_name = {e.name.casefold(): e for e in entries}
    done: set[str] = set()
    teams: list[tuple[Entry, ...]] = []
    for e in entries:
        if e.account in done or not e.partner:
            continue
        p = by_name.get(e.partner.casefold())
        if (p is not None and p.account != e.account and p.account not in done
                and (p.partner or "").casefold() == e.name.casefold()):
            teams.append((e, p))
            done |= {e.account, p.account}
    rest = [e for e in entries if e.account not in done]
    teams += [tuple(rest[i:i + 2]) for i in range(0, len(rest), 2)]
    return [Unit("+".join(x.account for x in team), tuple(x.account for x in team),
                 tuple(x.name for x in team)) for team in teams]


# ------------------------------------------------------------------ results and standings


def unit_points(layout: Layout, ranks: Sequence[int]) -> list[float]:
    """Each side's Swiss points from its place: 1 for the first, 0 for the last, evenly
    between (a tie shares its place)."""
    k = layout.sides
    return [(k - 1 - r) / (k - 1) for r in ranks]


def _sides_of(game: Game, layout: Layout) -> dict[str, int]:
    return {u: layout.side_of[i] for i, u in enumerate(game.units) if u is not None}


def _opponents(game: Game, layout: Layout, unit: str) -> list[str | None]:
    """The units across the table from ``unit`` (None: a bot), one per opposing seat's unit
    (a fixed pair counts once)."""
    mine = _sides_of(game, layout)[unit]
    seen: dict[int, list[str | None]] = {}
    for i, u in enumerate(game.units):
        s = layout.side_of[i]
        if s != mine and u not in seen.get(s, []):
            seen.setdefault(s, []).append(u)
    return [u for us in seen.values() for u in us]


def arena_points(layout: Layout, games: Sequence[Game], unit: str) -> tuple[float, int, bool]:
    """An arena unit's points (2 a win, 1 a middle place, 4 and 2 on a streak: after two wins
    in a row), its wins, and whether it is on a streak."""
    points, wins, streak = 0.0, 0, 0
    done = sorted((g for g in games if g.status != "playing" and unit in g.units),
                  key=lambda g: (g.ended or 0.0, g.table))
    for g in done:
        if g.status == "abandoned" or g.ranks is None:
            streak = 0
            continue
        rank = g.ranks[_sides_of(g, layout)[unit]]
        base = 2.0 if rank == 0 else 1.0 if rank < layout.sides - 1 else 0.0
        points += base * (2 if streak >= 2 else 1)
        if rank == 0:
            wins += 1
            streak += 1
        else:
            streak = 0
    return points, wins, streak >= 2


@dataclass
class Standing:
    unit: str
    name: str
    points: float
    tiebreak: float  # Buchholz (Swiss) or wins (arena)
    games: int
    wins: int
    place: int = 0
    playing: bool = False
    fire: bool = False  # arena: on a streak

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def standings(t: Tournament) -> list[Standing]:
    """The units by points, then their tie-break (Buchholz in Swiss: the points of the
    opponents met, a bot counting as the unit itself; wins in an arena), then fewer games;
    equal keys share a place."""
    layout = t.layout()
    rows: dict[str, Standing] = {}
    for u in t.units:
        mine = [g for g in t.games if u.id in g.units]
        over = [g for g in mine if g.status != "playing"]
        wins = sum(1 for g in over if g.ranks and g.ranks[_sides_of(g, layout)[u.id]] == 0)
        if t.kind == "arena":
            pts, _, fire = arena_points(layout, t.games, u.id)
        else:
            pts, fire = sum(_swiss_points(g, layout, u.id) for g in over), False
        rows[u.id] = Standing(u.id, u.name, pts, 0.0, len(over), wins,
                              playing=len(over) < len(mine), fire=fire)
    for u in t.units:
        row = rows[u.id]
        if t.kind == "arena":
            row.tiebreak = row.wins
            continue
        for g in t.games:
            if u.id in g.units and g.status != "playing":
                row.tiebreak += sum(row.points if o is None or o not in rows else rows[o].points
                                    for o in _opponents(g, layout, u.id))
    ordered = sorted(rows.values(), key=lambda r: (-r.points, -r.tiebreak, r.games, r.name))
    for i, r in enumerate(ordered):
        same = i and (r.points, r.tiebreak, r.games) == (
            ordered[i - 1].points, ordered[i - 1].tiebreak, ordered[i - 1].games)
        r.place = ordered[i - 1].place if same else i + 1
    return ordered


def _swiss_points(game: Game, layout: Layout, unit: str) -> float:
    if game.status != "finished" or game.ranks is None:
        return 0.0  # an abandoned game: nobody scores
    return unit_points(layout, game.ranks)[_sides_of(game, layout)[unit]]


# ------------------------------------------------------------------ pairing


def _met(games: Iterable[Game], layout: Layout) -> dict[frozenset[str], int]:
    """How often each two units sat on opposite sides."""
    out: dict[frozenset[str], int] = {}
    for g in games:
        for a, b in itertools.combinations({u for u in g.units if u is not None}, 2):
            sa, sb = _sides_of(g, layout)[a], _sides_of(g, layout)[b]
            if sa != sb:
                key = frozenset((a, b))
                out[key] = out.get(key, 0) + 1
    return out


def _repeats(group: Sequence[str], met: Mapping[frozenset[str], int]) -> int:
    return sum(met.get(frozenset(p), 0) for p in itertools.combinations(group, 2))


def _search(ranked: list[str], g: int, met: Mapping[frozenset[str], int],
            steps: list[int]) -> list[tuple[str, ...]] | None:
    """Groups of ``g`` from the top down, each the best-placed that never met; None when
    there is none (or the search ran out of steps)."""
    if not ranked:
        return []
    first, rest = ranked[0], ranked[1:]
    for combo in itertools.combinations(range(len(rest)), g - 1):
        group = (first, *(rest[i] for i in combo))
        if _repeats(group, met):
            continue
        steps[0] -= 1
        if steps[0] < 0:
            return None
        found = _search([x for i, x in enumerate(rest) if i not in combo], g, met, steps)
        if found is not None:
            return [group, *found]
    return None


def _greedy(ranked: list[str], g: int, met: Mapping[frozenset[str], int]
            ) -> list[tuple[str, ...]]:
    """Groups from the top down, each with the fewest repeats among the next few."""
    left = list(ranked)
    out: list[tuple[str, ...]] = []
    while left:
        first, window = left[0], left[1:1 + 3 * g]
        best = min(itertools.combinations(range(len(window)), g - 1),
                   key=lambda c: (_repeats((first, *(window[i] for i in c)), met), c))
        group = (first, *(window[i] for i in best))
        out.append(group)
        left = [x for x in left if x not in group]
    return out


def swiss_groups(ranked: Sequence[str], g: int, met: Mapping[frozenset[str], int],
                 had_bots: Iterable[str] = ()) -> list[tuple[str, ...]]:
    """One Swiss round's tables: ``ranked`` (best first) in groups of ``g`` by points, no
    two who met before together where avoidable; when they do not divide, the last group is
    short (bots take its empty seats): the lowest placed who have not played with bots yet."""
    ranked = list(ranked)
    short: list[str] = []
    r = len(ranked) % g
    if r:
        had = set(had_bots)
        fresh = [u for u in reversed(ranked) if u not in had]
        short = (fresh + [u for u in reversed(ranked) if u in had])[:r]
        ranked = [u for u in ranked if u not in short]
    groups = _search(ranked, g, met, [_SEARCH_STEPS]) if ranked else []
    if groups is None:
        groups = _greedy(ranked, g, met)
    if short:
        groups.append(tuple(reversed(short)))
    return groups


def arena_groups(waiting: Mapping[str, float], points: Mapping[str, float], g: int,
                 now: float, last: Mapping[str, frozenset[str]],
                 wait: float = ARENA_WAIT) -> list[tuple[str, ...]]:
    """The arena's new tables: the waiting units by points in groups of ``g`` (a unit is not
    put with its last game's opponents when another grouping avoids it); those left over
    play with bots once the first of them has waited ``wait`` seconds."""
    ranked = sorted(waiting, key=lambda u: (-points.get(u, 0.0), waiting[u], u))
    met = {frozenset((u, o)): 1 for u, os in last.items() for o in os}
    n = len(ranked) - len(ranked) % g
    groups = (_search(ranked[:n], g, met, [_SEARCH_STEPS]) or _greedy(ranked[:n], g, met)
              if n else [])
    rest = ranked[n:]
    if rest and now - min(waiting[u] for u in rest) >= wait:
        groups.append(tuple(rest))
    return groups


def seat_group(group: Sequence[str], layout: Layout, pairs: str, units: Mapping[str, Unit],
               points: Mapping[str, float], partnered: Mapping[frozenset[str], int],
               turn: int) -> tuple[list[str | None], list[str | None]]:
    """The seats of one table (account ids, None: a bot) and each seat's unit. Units take
    sides in an order that turns with ``turn`` (so nobody always deals first); with rotating
    partners the sides are split to repeat the fewest partners, then to even the points."""
    n, k = layout.seats, layout.sides
    seats: list[str | None] = [None] * n
    of: list[str | None] = [None] * n
    side_seats = [[i for i in range(n) if layout.side_of[i] == s] for s in range(k)]
    if pairs == "rotating" and layout.per_side > 1:
        members: list[str | None] = [*group, *[None] * (n - len(group))]
        best = min(_splits(members, k), key=lambda split: (
            sum(partnered.get(frozenset((a, b)), 0) for side in split
                for a, b in itertools.combinations([x for x in side if x], 2)),
            max(sum(points.get(x or "", 0.0) for x in side) for side in split)
            - min(sum(points.get(x or "", 0.0) for x in side) for side in split)))
        for s, side in enumerate(best):
            for seat, u in zip(side_seats[s], side, strict=True):
                seats[seat] = of[seat] = u
        return seats, of
    order = [*group, *[None] * (k - len(group))]
    shift = turn % k
    order = order[shift:] + order[:shift]
    for s, u in enumerate(order):
        members_of = units[u].members if u is not None else ()
        for j, seat in enumerate(side_seats[s]):
            seats[seat] = members_of[j] if j < len(members_of) else None
            of[seat] = u
    return seats, of


def _splits(members: Sequence[str | None], k: int) -> list[list[tuple[str | None, ...]]]:
    """Every way of parting ``members`` into ``k`` equal sides (the first side holds the
    first member: no split is listed twice)."""
    if k == 1:
        return [[tuple(members)]]
    size = len(members) // k
    first, rest = members[0], list(members[1:])
    out = []
    for combo in itertools.combinations(range(len(rest)), size - 1):
        side = (first, *(rest[i] for i in combo))
        left = [x for i, x in enumerate(rest) if i not in combo]
        out += [[side, *more] for more in _splits(left, k - 1)]
    return out


def _partnered(games: Iterable[Game], layout: Layout) -> dict[frozenset[str], int]:
    out: dict[frozenset[str], int] = {}
    for g in games:
        for i, j in itertools.combinations(range(layout.seats), 2):
            a, b = g.units[i], g.units[j]
            if a and b and a != b and layout.side_of[i] == layout.side_of[j]:
                key = frozenset((a, b))
                out[key] = out.get(key, 0) + 1
    return out


# ------------------------------------------------------------------ the state machine


def check_settings(variant: str, options: Mapping[str, Any], kind: str, pairs: str,
                   rounds: int, minutes: int) -> str:
    """Refuse a tournament that cannot be played (a ``ValueError`` naming why); the pairing
    mode it is played in ("single" for a game without partners)."""
    if kind not in KINDS:
        raise ValueError("kind is one of: " + ", ".join(KINDS))
    try:
        layout = layout_of(variant, options)
    except TuteError as exc:
        raise ValueError(str(exc)) from None
    if len(set(layout.side_of.count(s) for s in range(layout.sides))) > 1:
        raise ValueError(f"{variant} has sides of different sizes: not for tournaments")
    if layout.per_side == 1:
        pairs = "single"
    elif pairs not in ("fixed", "rotating"):
        raise ValueError("pairs is fixed or rotating for a game played in partnerships")
    if kind == "swiss" and not ROUNDS[0] <= rounds <= ROUNDS[1]:
        raise ValueError(f"rounds is {ROUNDS[0]} to {ROUNDS[1]}")
    if kind == "arena" and not MINUTES[0] <= minutes <= MINUTES[1]:
        raise ValueError(f"minutes is {MINUTES[0]} to {MINUTES[1]}")
    return pairs


def start(t: Tournament, now: float) -> None:
    """``open`` -> ``running``: the units are made (fewer than two players: cancelled, and
    finished at once)."""
    if t.status != "open":
        raise ValueError("the tournament has started already")
    t.started_at = now
    if len(t.entries) < 2:
        t.status, t.cancelled, t.finished_at = "finished", True, now
        return
    t.status = "running"
    t.units = make_units(t.entries, t.pairs)
    if t.kind == "arena":
        t.ends_at = now + 60.0 * t.minutes
        t.waiting = {u.id: now for u in t.units}


def record_result(t: Tournament, table: str, status: str, result: Mapping[str, Any] | None,
                  now: float) -> bool:
    """A table of the tournament ended (``finished`` with its result, or ``abandoned``);
    whether that changed anything. In an arena its units wait for their next game."""
    game = next((g for g in t.games if g.table == table), None)
    if game is None or game.status != "playing" or status not in ("finished", "abandoned"):
        return False
    game.status, game.ended = status, now
    if status == "finished" and result:
        game.ranks = side_ranks(result, t.layout().sides)
    else:
        game.status = "abandoned"
    if t.kind == "arena" and t.ends_at is not None and now < t.ends_at:
        for u in dict.fromkeys(x for x in game.units if x is not None):
            t.waiting[u] = now
    return True


def next_games(t: Tournament, now: float) -> list[tuple[list[str | None], list[str | None]]]:
    """What the tournament does at ``now``: the tables to make (seats and units of each; the
    caller makes them and adds them with :func:`add_game`), moving on to the next Swiss round
    or finishing when its games are over."""
    if t.status == "open" and t.starts_at is not None and now >= t.starts_at:
        start(t, now)
    if t.status != "running":
        return []
    layout = t.layout()
    playing = [g for g in t.games if g.status == "playing"]
    if t.kind == "swiss":
        if playing:
            return []
        if t.round >= t.rounds:
            _finish(t, now)
            return []
        t.round += 1
        ranked = [s.unit for s in standings(t)]
        groups = swiss_groups(ranked, group_size(layout, t.pairs), _met(t.games, layout),
                              had_bots=_had_bots(t, layout))
        return _seated(t, groups, layout, turn=t.round - 1)
    if t.ends_at is not None and now >= t.ends_at:
        t.waiting.clear()
        if not playing:
            _finish(t, now)
        return []
    points = {s.unit: s.points for s in standings(t)}
    last = _last_opponents(t, layout)
    groups = arena_groups(t.waiting, points, group_size(layout, t.pairs), now, last)
    for group in groups:
        for u in group:
            t.waiting.pop(u, None)
    return _seated(t, groups, layout, turn=len(t.games))


def add_game(t: Tournament, table: str, seats: list[str | None], units: list[str | None],
             now: float, made: bool = True) -> Game:
    game = Game(table, t.round if t.kind == "swiss" else 0, seats, units, now, made=made)
    t.games.append(game)
    return game


def _seated(t: Tournament, groups: Sequence[Sequence[str]], layout: Layout, turn: int
            ) -> list[tuple[list[str | None], list[str | None]]]:
    units = {u.id: u for u in t.units}
    points = {s.unit: s.points for s in standings(t)}
    partnered = _partnered(t.games, layout)
    rng = random.Random(f"{t.seed}:{turn}")
    return [seat_group(group, layout, t.pairs, units, points, partnered, turn + rng.randrange(
        layout.sides)) for group in groups]


def _had_bots(t: Tournament, layout: Layout) -> set[str]:
    """The units that played a Swiss table with bots at it (a bot partner of their own, in
    fixed pairs of an odd count, aside)."""
    out: set[str] = set()
    for g in t.games:
        if any(u is None for u in g.units):
            out |= {u for u in g.units if u is not None}
    return out


def _last_opponents(t: Tournament, layout: Layout) -> dict[str, frozenset[str]]:
    out: dict[str, frozenset[str]] = {}
    for g in sorted(t.games, key=lambda g: g.started):
        for u in {x for x in g.units if x is not None}:
            out[u] = frozenset(o for o in _opponents(g, layout, u) if o is not None)
    return out


def _finish(t: Tournament, now: float) -> None:
    t.status, t.finished_at = "finished", now


def places(t: Tournament) -> dict[str, tuple[int, float]]:
    """Each account's place and points (its unit's)."""
    out: dict[str, tuple[int, float]] = {}
    units = {u.id: u for u in t.units}
    for s in standings(t):
        for a in units[s.unit].members:
            out[a] = (s.place, s.points)
    return out
