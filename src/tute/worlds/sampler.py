"""Exact uniform sampling of the worlds consistent with what a seat knows (issue "The strongest
Tute AI", item 2).

A *world* is a deal as it was dealt -- every seat's cards, the stock's order, the widow --
together with the hidden choices made since (the subastado discard), such that replaying the
public record on it is legal at every step and shows the seat exactly what it saw. Worlds are
equally likely a priori (a shuffled pack), so the right distribution is uniform over them;
in the stock games a current position is weighted by the number of draw histories that lead
to it (a seat that showed it had no trumps three draws ago holds two hidden trumps in fewer
ways than none).

**Counting, not rejection.** Hidden cards with the same allowed places (and, in the stock
games, the same entry interval per seat) are interchangeable: they form a handful of classes.
A dynamic programme over the classes and places, with binomial counts in big integers, counts
the assignments that fill every place exactly; in the stock games each terminal state is
weighted by the number of ways each seat's slots can be filled (another small programme over
the draw rounds, :func:`line_count`). Sampling walks the same tables, choosing each count in
proportion to what it leaves possible, then deals the cards of each class at random, orders
the stock uniformly and draws each seat's entry history. Conditions on several cards at once
(:class:`~tute.worlds.knowledge.Forbid`) join their cards into one item whose joint placements
are listed (grouped by their effect on the counts).

What the tables do not encode (``WorldSampler.exact`` is False: see ``Knowledge.notes``) is
checked by replaying the record on the sampled world; a world the replay refuses is drawn
again. That keeps the distribution exactly uniform (a uniform draw from a superset,
conditioned on the subset) and is rare: with rules bots at every seat, every decision of every
game but Guiñote is exact, and Guiñote's exceptions (a tute condition too wide for the tables,
a partner asked in a window) refused no world in 3,800 draws of our rules-bot runs (they are
rarely binding). Conditions left out of the tables are still counted, by inclusion and
exclusion (``count_exact``).

A search bot builds one :class:`WorldSampler` per decision and calls :meth:`~WorldSampler.deal`
per world: a :class:`~tute.Deal` with every hand known, replayed to the view's point.

    >>> import random, tute
    >>> from tute.worlds import WorldSampler
    >>> deal = tute.Deal.new("tute_parejas", seed=7, dealer=3)
    >>> for card in ("Rc", "Cc", "5c"):
    ...     _ = deal.apply(card)
    >>> sampler = WorldSampler(deal.view(0))
    >>> world = sampler.deal(random.Random(1))
    >>> world.view(0) == deal.view(0), world.hand(0) == deal.hand(0)
    (True, True)
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..actions import (
    CLAIM,
    PASS,
    STOP,
    TAKEOVER,
    THROW,
    Action,
    Bid,
    ChooseTrump,
    Discard,
    Exchange,
)
from ..cards import ALL_CARDS, Card, CardSet
from ..deal import Deal, SeatView
from ..errors import IllegalActionError, TuteError
from ..events import (
    BidMade,
    CardPlayed,
    DealEnded,
    Declared,
    Discarded,
    Event,
    Exchanged,
    Passed,
    RenuncioClaimed,
    ThrownIn,
    TookOver,
    TrumpNamed,
)
from ..games import game_for
from ..rules import HIDDEN_VEINTE, Declaration, declaration_cards
from .knowledge import (
    DISCARD,
    STOCK,
    WIDOW,
    Atom,
    Forbid,
    Interval,
    Knowledge,
    Place,
    knowledge_of,
)

__all__ = ["World", "WorldSampler", "build_deal", "count_worlds", "line_count", "sample_world"]

_JOINT_LIMIT = 4096  # joint placements listed for one group of cards under pair conditions
_MAX_REJECTS = 10_000


# ---------------------------------------------------------------------------------------------
# One seat's slots: the deal (a set of cards) and one draw per round


def line_count(intervals: Sequence[Interval], rounds: Sequence[int], initial: int) -> int:
    """Ways to give each draw round of ``rounds`` one card and the deal ``initial`` cards,
    each card entering within its interval ``[lo, hi]`` (0 = the deal)."""
    return _line_count(tuple(sorted(intervals)), tuple(sorted(rounds, reverse=True)), initial)


class _Line:
    """The counting programme of one seat's slots, for one multiset of intervals.

    Rounds are taken latest first. A card with ``lo = 0`` is available from round ``hi`` down
    and may also have been dealt, so those cards are interchangeable once available and only
    their number matters; a card with ``lo >= 1`` must come in at a round of ``[lo, hi]``, so
    the state counts, per distinct ``lo``, the cards already placed."""

    __slots__ = ("free", "his", "los", "memo", "moves_memo", "zero_his")

    def __init__(self, intervals: tuple[Interval, ...], free: tuple[int, ...]):
        self.free = free
        self.los = sorted({lo for lo, _ in intervals if lo > 0})
        self.his = [sorted(hi for lo, hi in intervals if lo == ell) for ell in self.los]
        self.zero_his = sorted(hi for lo, hi in intervals if lo == 0)
        self.memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self.moves_memo: dict[tuple[int, tuple[int, ...]],
                              tuple[list[int], list[int], list[tuple[int, ...]]]] = {}

    def moves(self, t: int, state: tuple[int, ...]
              ) -> tuple[list[int], list[int], list[tuple[int, ...]]]:
        """For sampling round ``free[t]``: the classes, their cumulative weights (cards
        available times completions) and the states they lead to; kept for the next draw."""
        key = (t, state)
        got = self.moves_memo.get(key)
        if got is None:
            ks: list[int] = []
            cum: list[int] = []
            nxt: list[tuple[int, ...]] = []
            total = 0
            for k, a in self.options(t, state):
                after = state if k < 0 else (*state[:k], state[k] + 1, *state[k + 1:])
                w = a * self.count(t + 1, after)
                if w:
                    total += w
                    ks.append(k)
                    cum.append(total)
                    nxt.append(after)
            got = self.moves_memo[key] = (ks, cum, nxt)
        return got

    def options(self, t: int, state: tuple[int, ...]) -> Iterator[tuple[int, int]]:
        """(class, cards available) for round ``free[t]``: class -1 is the ``lo = 0`` cards."""
        j = self.free[t]
        taken = t - sum(state)
        a0 = len(self.zero_his) - bisect_left(self.zero_his, j) - taken
        if a0 > 0:
            yield -1, a0
        for k, ell in enumerate(self.los):
            if ell <= j:
                ak = len(self.his[k]) - bisect_left(self.his[k], j) - state[k]
                if ak > 0:
                    yield k, ak

    def count(self, t: int, state: tuple[int, ...]) -> int:
        key = (t, state)
        got = self.memo.get(key)
        if got is not None:
            return got
        if t == len(self.free):
            res = int(all(state[k] == len(h) for k, h in enumerate(self.his)))
        else:
            j = self.free[t]
            res = 0
            # a card that may not come in before round lo must be in by now
            if all(state[k] == len(h) or self.los[k] <= j for k, h in enumerate(self.his)):
                for k, a in self.options(t, state):
                    nxt = state if k < 0 else (*state[:k], state[k] + 1, *state[k + 1:])
                    res += a * self.count(t + 1, nxt)
        self.memo[key] = res
        return res


@lru_cache(maxsize=1 << 14)
def _line(intervals: tuple[Interval, ...], free: tuple[int, ...]) -> _Line:
    return _Line(intervals, free)


@lru_cache(maxsize=1 << 16)
def _line_count(intervals: tuple[Interval, ...], free: tuple[int, ...], initial: int) -> int:
    if len(intervals) != len(free) + initial:
        return 0
    line = _line(intervals, free)
    return line.count(0, (0,) * len(line.los))


def _sample_line(cards: Sequence[tuple[int, Interval]], free: tuple[int, ...],
                 rng: random.Random) -> dict[int, int]:
    """Entry round of each card (0 = dealt), uniform among the ways to fill the slots."""
    entry: dict[int, int] = {}
    if not free:
        for c, _ in cards:
            entry[c] = 0
        return entry
    if all(lo == 0 for _, (lo, _hi) in cards):
        # no card is barred from the early slots: every round's choice leaves the same number
        # of ways, so a uniform pick among the cards available at each round is exact
        by_hi = sorted(cards, key=lambda x: x[1][1])
        ready0: list[int] = []
        for j in free:
            while by_hi and by_hi[-1][1][1] >= j:
                ready0.append(by_hi.pop()[0])
            if not ready0:
                raise TuteError("no consistent history (internal error in the sampler)")
            i = rng.randrange(len(ready0))
            ready0[i], ready0[-1] = ready0[-1], ready0[i]
            entry[ready0.pop()] = j
        for c in ready0:
            entry[c] = 0
        for c, _ in by_hi:
            entry[c] = 0
        return entry
    line = _line(tuple(sorted(iv for _, iv in cards)), free)
    state = (0,) * len(line.los)
    lo_index = {ell: k + 1 for k, ell in enumerate(line.los)}
    # per class (0: lo = 0), cards by decreasing hi; a card is available once j <= hi
    waiting: list[list[tuple[int, int]]] = [[] for _ in range(len(line.los) + 1)]
    for c, (lo, hi) in cards:
        waiting[lo_index.get(lo, 0)].append((hi, c))
    for w in waiting:
        w.sort()
    ready: list[list[int]] = [[] for _ in waiting]
    for t, j in enumerate(free):
        for w, r in zip(waiting, ready, strict=True):
            while w and w[-1][0] >= j:
                r.append(w.pop()[1])
        ks, cum, nxt = line.moves(t, state)
        if not cum:
            raise TuteError("no consistent history (internal error in the sampler)")
        m = bisect_right(cum, rng.randrange(cum[-1])) if len(cum) > 1 else 0
        pool = ready[ks[m] + 1]
        i = rng.randrange(len(pool))
        pool[i], pool[-1] = pool[-1], pool[i]
        entry[pool.pop()] = j
        state = nxt[m]
    for r in (*ready, *([c for _, c in w] for w in waiting)):
        for c in r:
            entry[c] = 0
    return entry


def _choose(options: Sequence[tuple[Any, int]], rng: random.Random) -> Any:
    total = sum(w for _, w in options)
    if total <= 0:
        raise TuteError("no consistent world (internal error in the sampler)")
    r = rng.randrange(total)
    for value, w in options:
        if r < w:
            return value
        r -= w
    raise AssertionError("unreachable")


# ---------------------------------------------------------------------------------------------
# The world


@dataclass(frozen=True)
class World:
    """One full position consistent with a seat's knowledge, and the deal it came from.

    ``hands``, ``stock`` (the face-down cards left, top first), ``widow`` and ``discard`` are
    the position now; ``dealt``, ``initial_stock`` and the rest say how it was dealt, so that
    :func:`build_deal` can replay the record on it.
    """

    hands: tuple[CardSet, ...]
    stock: tuple[Card, ...]
    widow: Card | None
    discard: Card | None
    dealt: tuple[CardSet, ...]
    initial_stock: tuple[Card, ...]  # stock games: as dealt, top first, without the upcard
    initial_upcard: Card | None
    table_card: Card | None  # arrastrado for three: the table card as dealt
    dealt_widow: Card | None  # subastado with widow_card: the widow as dealt


# ---------------------------------------------------------------------------------------------
# The counting programme over hidden cards


@dataclass
class _Item:
    cards: tuple[int, ...]
    # a class: options are (place index, interval index); a group under pair conditions:
    # joint options, one (place index, interval index, takes a hidden slot) per card
    options: list[Any]
    joint: bool


class _Plan:
    """The dynamic programme of one knowledge: counts and samples assignments of hidden cards
    to places, weighted by the seats' slot counts in the stock games."""

    def __init__(self, k: Knowledge):
        self.k = k
        obs = k.seat
        self.places: list[Place] = [s for s in range(k.seats) if s != obs]
        self.places += [p for p in (STOCK, WIDOW, DISCARD) if k.capacity.get(p)]
        self.index = {p: i for i, p in enumerate(self.places)}
        self.caps = [k.capacity.get(p, 0) for p in self.places]
        self.weighted = k.stock_game
        self.notes: list[str] = []
        self.dropped: list[Forbid] = []  # conditions left to the replay (counted apart)
        # per place: interval classes (weighted seats only) and the state offsets
        self.ivs: list[list[Interval]] = [[] for _ in self.places]
        self.base: list[list[Interval]] = [[] for _ in self.places]
        items = self._items()
        self.items = items
        self.offset: list[int] = []
        size = 0
        for i in range(len(self.places)):
            self.offset.append(size)
            size += 1 + len(self.ivs[i])
        self.size = size
        self.memo: dict[tuple[int, int, int, tuple[int, ...]], int] = {}
        self.line_memo: dict[tuple[int, tuple[int, ...]], int] = {}

    # -- building

    def _iv(self, place: int, iv: Interval) -> int:
        if not self.weighted or not isinstance(self.places[place], int):
            return -1
        lst = self.ivs[place]
        if iv not in lst:
            lst.append(iv)
        return lst.index(iv)

    def _items(self) -> list[_Item]:
        k = self.k
        groups = self._groups()
        in_group: set[int] = set()
        for cards, _f in groups:
            in_group.update(cards)
        # known slot cards outside the groups are fixed parts of their seat's slot count
        if self.weighted:
            for s, line in k.lines.items():
                if s == k.seat:
                    continue
                for c, iv in line.cards.items():
                    if c not in in_group:
                        self.base[self.index[s]].append(iv)
        classes: dict[tuple[tuple[int, Interval], ...], list[int]] = {}
        for c, dom in k.domains.items():
            if c in in_group:
                continue
            key = tuple(sorted(((self.index[p], iv) for p, iv in dom.items()),
                               key=lambda t: t[0]))
            classes.setdefault(key, []).append(c)
        items: list[_Item] = []
        for key, members in sorted(classes.items(),
                                   key=lambda kv: (len(kv[0]), -len(kv[1]))):
            opts = [(p, self._iv(p, iv)) for p, iv in key]
            items.append(_Item(tuple(members), opts, False))
        for group, forbids in groups:
            items.append(self._joint(group, forbids))
        return items

    def _groups(self) -> list[tuple[tuple[int, ...], list[Forbid]]]:
        """Cards tied by pair conditions, in groups small enough to list their placements.
        A group too large loses its widest conditions (a tute: four cards) one by one; the
        replay checks those."""
        active = list(self.k.forbids)
        while True:
            out = _components(active)
            big = next((fs for cards, fs in out if self._joint_size(cards, fs) > _JOINT_LIMIT),
                       None)
            if big is None:
                return out
            widest = max(big, key=lambda f: len(f.atoms))
            active.remove(widest)
            self.dropped.append(widest)
            self.notes.append(f"sampled with a replay check: {widest.why}")

    def _joint_size(self, cards: tuple[int, ...], forbids: list[Forbid]) -> int:
        size = 1
        for c in cards:
            size *= max(len(self._card_options(c, forbids)), 1)
        return size

    def _card_options(self, c: int, forbids: list[Forbid]) -> list[tuple[Place, Interval, bool]]:
        """The placements of one card of a group: its places, each seat's interval cut where
        an atom's round falls. The bool tells whether it takes one of the place's hidden
        slots (False: a known card of that seat whose entry is unknown)."""
        k = self.k
        cuts: dict[int, set[int]] = {}
        for f in forbids:
            for a in f.atoms:
                if a.card == c:
                    cuts.setdefault(a.seat, set()).add(a.by)
        if c in k.domains:
            dom = list(k.domains[c].items())
            hidden = True
        else:
            seat = next(s for s, line in k.lines.items() if c in line.cards)
            dom = [(seat, k.lines[seat].cards[c])]
            hidden = False
        out: list[tuple[Place, Interval, bool]] = []
        for place, (lo, hi) in dom:
            if not isinstance(place, int) or place not in cuts:
                out.append((place, (lo, hi), hidden))
                continue
            bounds = sorted(b for b in cuts[place] if lo <= b < hi)
            start = lo
            for b in bounds:
                out.append((place, (start, b), hidden))
                start = b + 1
            out.append((place, (start, hi), hidden))
        return out

    def _joint(self, cards: tuple[int, ...], forbids: list[Forbid]) -> _Item:
        per = [self._card_options(c, forbids) for c in cards]
        pos = {c: i for i, c in enumerate(cards)}
        joint: list[tuple[tuple[int, int, bool], ...]] = []

        def rec(i: int, acc: list[tuple[Place, Interval, bool]]) -> None:
            if i == len(cards):
                for f in forbids:
                    if all(_true(a.seat, a.by, acc[pos[a.card]]) for a in f.atoms):
                        return
                joint.append(tuple((self.index[p], self._iv(self.index[p], iv), h)
                                   for p, iv, h in acc))
                return
            for o in per[i]:
                acc.append(o)
                rec(i + 1, acc)
                acc.pop()

        rec(0, [])
        # placements with the same effect on the counts (which places, which intervals) are
        # counted once, with their number; sampling then picks one of them uniformly
        effects: dict[tuple[tuple[int, int, bool], ...], list[Any]] = {}
        for opt in joint:
            effects.setdefault(tuple(sorted(opt)), []).append(opt)
        return _Item(cards, list(effects.items()), True)

    # -- counting

    def _add(self, state: list[int], place: int, iv: int, x: int, hidden: bool = True) -> None:
        off = self.offset[place]
        if hidden:
            state[off] += x
        if iv >= 0:
            state[off + 1 + iv] += x

    def _terminal(self, state: tuple[int, ...]) -> int:
        for i, cap in enumerate(self.caps):
            if state[self.offset[i]] != cap:
                return 0
        if not self.weighted:
            return 1
        weight = 1
        for i, place in enumerate(self.places):
            if not isinstance(place, int):
                continue
            off = self.offset[i]
            comp = state[off + 1: off + 1 + len(self.ivs[i])]
            key = (i, comp)
            got = self.line_memo.get(key)
            if got is None:
                got = self._seat_count(i, comp)
                self.line_memo[key] = got
            if not got:
                return 0
            weight *= got
        return weight

    def _seat_count(self, i: int, comp: tuple[int, ...]) -> int:
        place = self.places[i]
        assert isinstance(place, int)
        line = self.k.lines[place]
        ivs = list(self.base[i])
        for iv, x in zip(self.ivs[i], comp, strict=True):
            ivs.extend([iv] * x)
        return line_count(ivs, line.free_rounds, line.initial_free)

    def start(self, i: int, state: tuple[int, ...]) -> int:
        if i == len(self.items):
            return self._terminal(state)
        item = self.items[i]
        return self.f(i, 0, len(item.cards), state)

    def f(self, i: int, j: int, rem: int, state: tuple[int, ...]) -> int:
        key = (i, j, rem, state)
        got = self.memo.get(key)
        if got is not None:
            return got
        res = 0
        for w, _x, nxt, more in self._moves(i, j, rem, state):
            res += w * (self.f(i, j + 1, rem - _x, nxt) if more else self.start(i + 1, nxt))
        self.memo[key] = res
        return res

    def _moves(self, i: int, j: int, rem: int, state: tuple[int, ...]
               ) -> Iterator[tuple[int, int, tuple[int, ...], bool]]:
        """(ways, count, next state, same item continues) for option ``j`` of item ``i``."""
        item = self.items[i]
        if item.joint:
            for effect, members in item.options:
                nxt = self._after(effect, state)
                if nxt is not None:
                    yield len(members), 0, nxt, False
            return
        if not item.options:  # a hidden card no place may hold: no world
            return
        p, iv = item.options[j]
        room = self.caps[p] - state[self.offset[p]]
        last = j == len(item.options) - 1
        if last:
            if rem <= room:
                s = list(state)
                self._add(s, p, iv, rem)
                yield 1, rem, tuple(s), False
            return
        later = sum(self.caps[q] for q, _ in item.options[j + 1:])
        for x in range(max(0, rem - later), min(rem, room) + 1):
            s = list(state)
            self._add(s, p, iv, x)
            yield math.comb(rem, x), x, tuple(s), True

    def total(self) -> int:
        return self.start(0, (0,) * self.size)

    # -- sampling

    def sample(self, rng: random.Random) -> tuple[dict[int, tuple[Place, Interval]],
                                                 dict[int, Interval]]:
        """Hidden card -> (place, interval), and the chosen intervals of known group cards."""
        state = (0,) * self.size
        where: dict[int, tuple[Place, Interval]] = {}
        known: dict[int, Interval] = {}
        for i, item in enumerate(self.items):
            if item.joint:
                moves: list[tuple[Any, int]] = []
                for effect, members in item.options:
                    nxt = self._after(effect, state)
                    if nxt is not None:
                        w = self.start(i + 1, nxt)
                        if w:
                            moves.append(((members, nxt), len(members) * w))
                members, state = _choose(moves, rng)
                opt = members[rng.randrange(len(members))]
                for c, (p, iv, hidden) in zip(item.cards, opt, strict=True):
                    interval = self._interval(p, iv)
                    if hidden:
                        where[c] = (self.places[p], interval)
                    else:
                        known[c] = interval
                continue
            cards = list(item.cards)
            rng.shuffle(cards)
            rem = len(cards)
            pos = 0
            for j, (p, iv) in enumerate(item.options):
                moves2 = [((x, nxt), w * (self.f(i, j + 1, rem - x, nxt) if more
                                          else self.start(i + 1, nxt)))
                          for w, x, nxt, more in self._moves(i, j, rem, state)]
                x, state = _choose(moves2, rng)
                interval = self._interval(p, iv)
                for c in cards[pos:pos + x]:
                    where[c] = (self.places[p], interval)
                pos += x
                rem -= x
                if not rem:
                    break
        return where, known

    def _after(self, opt: tuple[tuple[int, int, bool], ...], state: tuple[int, ...]
               ) -> tuple[int, ...] | None:
        """The state after a joint placement, or None if it overfills a place."""
        s = list(state)
        for p, iv, hidden in opt:
            self._add(s, p, iv, 1, hidden)
            if hidden and s[self.offset[p]] > self.caps[p]:
                return None
        return tuple(s)

    def _interval(self, p: int, iv: int) -> Interval:
        return (0, 0) if iv < 0 else self.ivs[p][iv]


def _force(k: Knowledge, atoms: list[Atom], kept: list[Forbid]) -> Knowledge | None:
    """The knowledge with every atom made true (None if one cannot be)."""
    domains = dict(k.domains)
    lines = dict(k.lines)
    for a in atoms:
        if a.card in domains:
            dom = domains[a.card]
            if a.seat not in dom:
                return None
            lo, hi = dom[a.seat]
            hi = min(hi, a.by) if k.stock_game else hi
            if lo > hi:
                return None
            domains[a.card] = {a.seat: (lo, hi)}
        else:
            line = lines[a.seat]
            lo, hi = line.cards[a.card]
            if lo > a.by:
                return None
            cards = dict(line.cards)
            cards[a.card] = (lo, min(hi, a.by))
            lines[a.seat] = dataclasses.replace(line, cards=cards)
    return dataclasses.replace(k, domains=domains, lines=lines, forbids=tuple(kept))


def _components(forbids: list[Forbid]) -> list[tuple[tuple[int, ...], list[Forbid]]]:
    """The cards tied together by conditions (union-find), with their conditions."""
    parent: dict[int, int] = {}

    def find(c: int) -> int:
        while parent.setdefault(c, c) != c:
            c = parent[c]
        return c

    for f in forbids:
        first = find(f.atoms[0].card)
        for a in f.atoms[1:]:
            parent[find(a.card)] = first
    groups: dict[int, tuple[list[int], list[Forbid]]] = {}
    for f in forbids:
        cards, fs = groups.setdefault(find(f.atoms[0].card), ([], []))
        fs.append(f)
        for a in f.atoms:
            if a.card not in cards:
                cards.append(a.card)
    return [(tuple(cards), fs) for cards, fs in groups.values()]


def _true(seat: int, by: int, option: tuple[Place, Interval, bool]) -> bool:
    place, (_lo, hi), _h = option
    return place == seat and hi <= by


# ---------------------------------------------------------------------------------------------
# The sampler


class WorldSampler:
    """Counts and samples the worlds consistent with one seat's view (and, optionally, its
    event log). Build it once per decision; :meth:`sample` and :meth:`deal` are cheap."""

    def __init__(self, view: SeatView, events: Sequence[Event] | None = None):
        self.view = view
        self.knowledge = knowledge_of(view, events)
        self._plan = _Plan(self.knowledge)
        self._count: int | None = None
        self._count_exact = False
        self._script = (_script(self.knowledge) if self.knowledge.history.events is not None
                        else None)
        self.rejected = 0  # worlds refused by the replay (inexact knowledge only)

    @property
    def exact(self) -> bool:
        """Whether sampling encodes every condition of the record (else the replay checks
        some, and refuses the worlds that break them)."""
        return self.knowledge.exact and not self._plan.notes

    @property
    def count_exact(self) -> bool:
        """Whether :meth:`count` is the exact number of consistent worlds."""
        self.count()
        return self.knowledge.exact and self._count_exact

    def count(self) -> int:
        """The number of worlds consistent with the record, as far as the knowledge encodes
        it (all of it when :attr:`count_exact`). Conditions too wide for the sampler's tables
        are counted by inclusion and exclusion."""
        if self._count is None:
            k = self.knowledge
            plan = self._plan
            total = plan.total()
            self._count_exact = True
            kept = [f for f in k.forbids if f not in plan.dropped]
            for size in range(1, len(plan.dropped) + 1):
                for subset in itertools.combinations(plan.dropped, size):
                    forced = _force(k, [a for f in subset for a in f.atoms], kept)
                    if forced is None:
                        continue
                    sub = _Plan(forced)
                    if sub.dropped:
                        self._count_exact = False
                    total += (-1) ** size * sub.total()
            total *= math.factorial(k.capacity.get(STOCK, 0))
            if k.stock_game:  # the observer's own slots, when the log does not pin them
                line = k.lines[k.seat]
                total *= line_count(list(line.cards.values()), line.free_rounds,
                                    line.initial_free)
            self._count = total
        return self._count

    def _draw(self, rng: random.Random) -> World:
        if not self.count():
            raise TuteError("no world is consistent with this view")
        where, known = self._plan.sample(rng)
        return _world(self.knowledge, where, known, rng)

    def sample(self, rng: random.Random) -> World:
        """One world, uniformly among the consistent ones."""
        if self.exact:
            return self._draw(rng)
        return self._checked(rng)[0]

    def deal(self, rng: random.Random) -> Deal:
        """One world as a :class:`~tute.Deal` at the same point of play, every hand known."""
        return self._checked(rng)[1]

    def _checked(self, rng: random.Random) -> tuple[World, Deal]:
        for _ in range(_MAX_REJECTS):
            world = self._draw(rng)
            deal = _replay(self.knowledge, world, self._script)
            if deal is not None:
                return world, deal
            self.rejected += 1
        raise TuteError("the replay refused every sampled world: the view is inconsistent "
                        "or the sampler is wrong")

    def build(self, world: World) -> Deal:
        """Replay the record on ``world``; raises if it does not fit."""
        deal = _replay(self.knowledge, world, self._script)
        if deal is None:
            raise TuteError("this world does not fit the record")
        return deal


def count_worlds(view: SeatView, events: Sequence[Event] | None = None) -> int:
    """The number of worlds consistent with ``view`` (and ``events``): see
    :meth:`WorldSampler.count`."""
    return WorldSampler(view, events).count()


def sample_world(view: SeatView, rng: random.Random,
                 events: Sequence[Event] | None = None) -> World:
    """One world consistent with ``view``, uniformly (build a :class:`WorldSampler` to draw
    many: its tables are made once)."""
    return WorldSampler(view, events).sample(rng)


def build_deal(view: SeatView, world: World, events: Sequence[Event] | None = None) -> Deal:
    """The full :class:`~tute.Deal` of ``world``, replayed to the point ``view`` shows."""
    return WorldSampler(view, events).build(world)


# ---------------------------------------------------------------------------------------------
# From a sampled assignment to a world


def _world(k: Knowledge, where: dict[int, tuple[Place, Interval]], known: dict[int, Interval],
           rng: random.Random) -> World:
    n = k.seats
    view = k.view
    hands = list(k.known_in)
    stock: list[int] = []
    widow = discard = -1
    for c, (place, _iv) in where.items():
        if isinstance(place, int):
            hands[place] |= 1 << c
        elif place == STOCK:
            stock.append(c)
        elif place == WIDOW:
            widow = c
        else:
            discard = c
    if k.history.own_discard >= 0:
        discard = k.history.own_discard
    rng.shuffle(stock)
    hist = k.history
    dealt_widow = -1
    dealt = [0] * n
    initial_stock: list[int] = []
    if k.stock_game:
        by_round: list[dict[int, int]] = []
        for s in range(n):
            line = k.lines[s]
            cards = [(c, known.get(c, iv)) for c, iv in line.cards.items()]
            cards += [(c, iv) for c, (p, iv) in where.items() if p == s]
            entry = _sample_line(cards, line.free_rounds, rng)
            rounds_of = {j: c for c, j in entry.items() if j}
            rounds_of.update(line.pinned)
            by_round.append(rounds_of)
            dealt[s] = line.pinned_initial | sum(1 << c for c, j in entry.items() if not j)
        size = hist.initial_stock - 1  # face down; the upcard is the last card
        layout = [-1] * size
        for j in range(1, hist.rounds + 1):
            w = hist.winners[j - 1]
            for s in range(n):
                pos = (j - 1) * n + (s - w) % n
                if pos < size:
                    layout[pos] = by_round[s][j]
        layout[hist.rounds * n:] = stock
        initial_stock = layout
    else:
        for s in range(n):
            dealt[s] = k.given_by[s] | ((hands[s] | k.played_by[s]) & ~k.taken_by[s])
        if widow >= 0:
            dealt_widow = widow
        elif discard >= 0:
            dealt_widow = discard  # which of his cards the declarer found there is never seen
        elif k.options.widow_card and view.contract is not None:
            # taken, not yet discarded: any of the declarer's cards may be the one he found
            declarer = view.contract[0]
            dealt_widow = (dealt[declarer] & -dealt[declarer]).bit_length() - 1
            dealt[declarer] &= ~(1 << dealt_widow)
        if hist.takeover is not None:
            holder, owner = hist.takeover
            dealt[owner], dealt[holder] = dealt[holder], 0
    upcard = view.trump_card if k.stock_game else None
    table = None
    if view.table_card is not None:
        table = ALL_CARDS[hist.swaps[0].taken] if hist.swaps else view.table_card
    return World(
        hands=tuple(CardSet(h) for h in hands),
        stock=tuple(ALL_CARDS[c] for c in stock),
        widow=None if widow < 0 else ALL_CARDS[widow],
        discard=None if discard < 0 else ALL_CARDS[discard],
        dealt=tuple(CardSet(d) for d in dealt),
        initial_stock=tuple(ALL_CARDS[c] for c in initial_stock),
        initial_upcard=upcard,
        table_card=table,
        dealt_widow=None if dealt_widow < 0 else ALL_CARDS[dealt_widow],
    )


# ---------------------------------------------------------------------------------------------
# Replaying the record on a world


def _new_deal(k: Knowledge, world: World) -> Deal:
    view = k.view
    kwargs: dict[str, Any] = {}
    laid = game_for(k.variant).allowed_extras(k.options)  # what the game lays outside the hands
    if k.stock_game:
        kwargs["upcard"] = world.initial_upcard
        kwargs["stock"] = list(world.initial_stock)
    elif "widow" in laid:
        if k.options.widow_card:
            kwargs["widow"] = world.dealt_widow
    elif "table_card" in laid:
        kwargs["table_card"] = world.table_card
    elif "trump_card" in laid:
        if view.trump_card is not None:
            kwargs["trump_card"] = view.trump_card
        elif view.trump is not None:
            kwargs["trump"] = view.trump
    return Deal.new(view.variant, dealer=view.dealer, options=k.options,
                    hands=[list(h) for h in world.dealt], carry=view.carry, **kwargs)


def _replay(k: Knowledge, world: World, script: Sequence[Action | None] | None = None
            ) -> Deal | None:
    try:
        deal = _new_deal(k, world)
    except TuteError:
        return None
    events = k.history.events
    if events is not None:
        ok = _replay_events(deal, script if script is not None else _script(k), events,
                            world, k.view)
    else:
        ok = _replay_view(deal, k, world)
    return deal if ok else None


def _script(k: Knowledge) -> list[Action | None]:
    """The actions behind the seat's log, in order; None stands for the hidden discard.
    Trick ends, draws, the auction's end, cabrón's cantes, the compulsory table exchanges and
    the deal's end are the engine's own events, not actions."""
    assert k.history.events is not None
    cabron = game_for(k.variant).cantes_in_tricks
    table = k.view.table_card is not None and k.options.exchange_mandatory
    stop = k.options.vueltas_claim == "manual"
    out: list[Action | None] = []
    for e in k.history.events:
        if (isinstance(e, Declared) and cabron) or (isinstance(e, Exchanged) and table):
            continue
        if isinstance(e, DealEnded):
            if stop and e.reason == "vueltas":
                out.append(STOP)
            continue
        if isinstance(e, Discarded) and e.card is None:
            out.append(None)
            continue
        act = _action_of(e)
        if act is not None:
            out.append(act)
    return out


def _action_of(e: Event) -> Action | None:
    if isinstance(e, CardPlayed):
        return e.card
    if isinstance(e, Declared):
        return e.declaration
    if isinstance(e, Exchanged):
        return Exchange(e.given)
    if isinstance(e, Passed):
        return PASS
    if isinstance(e, BidMade):
        return Bid(e.points)
    if isinstance(e, TookOver):
        return TAKEOVER
    if isinstance(e, Discarded):
        return None if e.card is None else Discard(e.card)
    if isinstance(e, TrumpNamed):
        return ChooseTrump(e.suit)
    if isinstance(e, ThrownIn):
        return THROW
    if isinstance(e, RenuncioClaimed):
        return CLAIM
    return None  # TrickTaken, Drew, AuctionWon, DealEnded: the engine makes them


def _replay_events(deal: Deal, script: Sequence[Action | None], seen: Sequence[Event],
                   world: World, view: SeatView) -> bool:
    """Apply the record's actions on the world's deal; it fits if every one is legal, the
    seat's log comes out the same and the same seat is to act (with the same choices)."""
    seat = view.seat

    def fits() -> bool:
        if deal.events_for(seat) != list(seen) or deal.to_move != view.to_move:
            return False  # a seat asked now in one world and not in the other
        return deal.to_move != seat or tuple(deal.legal_actions()) == view.legal_actions

    return _apply_script(deal, script, 0, world, fits)


def _apply_script(deal: Deal, script: Sequence[Action | None], start: int, world: World,
                  fits: Callable[[], bool]) -> bool:
    """Apply ``script[start:]``, then ask ``fits``. A 20 whose suit the seat was not told
    (:data:`~tute.rules.HIDDEN_VEINTE`) is each 20 its singer may sing then, in turn, till
    one lets the rest of the record fit."""
    for i in range(start, len(script)):
        act = script[i]
        if act is HIDDEN_VEINTE:
            mark = len(deal.actions)
            for sung in [a for a in deal.legal_actions()
                         if isinstance(a, Declaration) and a.kind == "veinte"]:
                deal.apply(sung)
                if _apply_script(deal, script, i + 1, world, fits):
                    return True
                while len(deal.actions) > mark:
                    deal.undo()
            return False
        if act is None:
            if world.discard is None:
                return False
            act = Discard(world.discard)
        try:
            deal.apply(act)
        except IllegalActionError:
            return False
    return fits()


class _ViewReplay:
    """Replays what a view shows, searching for the moments the view does not show (cantes,
    exchanges, passes), depth first, latest moment first."""

    def __init__(self, deal: Deal, k: Knowledge, world: World):
        self.deal = deal
        self.k = k
        self.world = world
        view = k.view
        self.view = view
        plays: list[tuple[int, Card]] = []
        for p in k.history.plays:
            plays.append((p.seat, ALL_CARDS[p.card]))
        self.plays = plays
        self.cantes: list[tuple[int, Declaration, int]] = [
            (s, d, 0) for s, d, _ in view.cantes] if not deal.game.cantes_in_tricks else []
        trump = None if view.trump is None else int(view.trump)
        self.shown = [declaration_cards(d, trump, deal.order) for _, d, _ in self.cantes]
        self.swaps = list(view.exchanges)[len(deal.exchanges):]  # compulsory ones are made
        self.bid_done = False
        self.budget = 20_000

    def run(self) -> bool:
        return self._rec(0, 0, 0)

    def _done(self, pi: int, ci: int, si: int) -> bool:
        return pi == len(self.plays) and ci == len(self.cantes) and si == len(self.swaps)

    def _rec(self, pi: int, ci: int, si: int) -> bool:
        self.budget -= 1
        if self.budget < 0:
            return False
        deal = self.deal
        view = self.view
        done = self._done(pi, ci, si)
        if done and _same_view(deal.view(view.seat), view):
            return True
        if deal.is_over():
            return False
        for act, dp, dc, ds in self._candidates(pi, ci, si, done):
            try:
                deal.apply(act)
            except IllegalActionError:
                continue
            if self._rec(pi + dp, ci + dc, si + ds):
                return True
            deal.undo()
        return False

    def _candidates(self, pi: int, ci: int, si: int, done: bool
                    ) -> list[tuple[Action, int, int, int]]:
        deal = self.deal
        view = self.view
        seat = deal.to_move
        legal = deal.legal_actions()
        out: list[tuple[Action, int, int, int]] = []
        kinds = {type(a) for a in legal}
        if Bid in kinds:  # the auction: the top bidder's bid, everybody else passes
            if view.auction is not None and seat == view.auction[1] and not self._bid_made():
                return [(Bid(view.auction[0]), 0, 0, 0)]
            return [(PASS, 0, 0, 0)]
        if TAKEOVER in legal:
            taken = view.contract is not None and view.contract[2]
            return [(TAKEOVER if taken else PASS, 0, 0, 0)]
        if Discard in kinds:
            card = self.world.discard
            return [] if card is None else [(Discard(card), 0, 0, 0)]
        if ChooseTrump in kinds:
            return [] if view.trump is None else [(ChooseTrump(view.trump), 0, 0, 0)]
        # defer first: pass or play; then the pending exchange; then the pending cante
        if pi < len(self.plays) and self.plays[pi][0] == seat and self.plays[pi][1] in legal:
            card = self.plays[pi][1]
            if not any(self.shown[c] >> card.index & 1 for c in range(ci, len(self.cantes))):
                out.append((card, 1, 0, 0))
        if PASS in legal:
            out.append((PASS, 0, 0, 0))
        if si < len(self.swaps) and self.swaps[si][0] == seat:
            ex = Exchange(self.swaps[si][1])
            if ex in legal:
                out.append((ex, 0, 0, 1))
        if ci < len(self.cantes) and self.cantes[ci][0] == seat:
            sung = self.cantes[ci][1]
            if sung is HIDDEN_VEINTE:  # a 20 of a suit not told: any the seat may sing now
                out += [(a, 0, 1, 0) for a in legal
                        if isinstance(a, Declaration) and a.kind == "veinte"]
            elif sung in legal:
                out.append((sung, 0, 1, 0))
        if done and view.result is not None:
            if CLAIM in legal and view.result.claim is not None:
                out.append((CLAIM, 0, 0, 0))
            if STOP in legal and view.result.reason == "vueltas":
                out.append((STOP, 0, 0, 0))
            if THROW in legal and view.result.void == "weak_hand":
                out.append((THROW, 0, 0, 0))
        return out

    def _bid_made(self) -> bool:
        return any(isinstance(a, Bid) for a in self.deal.actions)


def _same_view(mine: SeatView, seen: SeatView) -> bool:
    """Equal views, but for the log the seen view does not carry."""
    if seen.history:
        return mine == seen
    return dataclasses.replace(mine, history=()) == seen


def _replay_view(deal: Deal, k: Knowledge, world: World) -> bool:
    return _ViewReplay(deal, k, world).run()

