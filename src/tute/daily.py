"""The deal of the day and of the week: the same seeded deals for everyone, against bots.

An *event* is a kind (``day``: one deal; ``week``: three), a period (an ISO date, or an ISO
week such as ``2026-W49``) and a game (parejas, habanero, Guiñote). Its deals, the player's
seat and the bots' seeds all come from the event's id, so everyone who plays it gets the same
cards at the same seat against the same bots (the rules bot of level ``medio``: deterministic
given its seed and what it sees). A player's play is the list of the actions it took: the
event is replayed from that list, the bots answering as they did, so nothing else needs to be
kept of a game in progress, and the deals are compared in duplicate -- the cards are the same
for everyone, only the play differs -- by the player's side's margin summed over the deals.

    >>> ev = event("day", "2026-12-05", "tute_2p_habanero")
    >>> play = replay(ev, [])
    >>> play.deal.to_move == ev.seat and not play.done
    True
"""

from __future__ import annotations

import datetime
import hashlib
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import TuteError

if TYPE_CHECKING:
    from .deal import Deal
    from .solver import Solver

__all__ = ["GAMES", "KINDS", "LEVEL", "Event", "Play", "analyse", "current_events", "event",
           "others_play",
           "parse_event", "position_key", "replay"]

GAMES = ("tute_parejas", "tute_2p_habanero", "guinote")
#: deals per event kind
KINDS = {"day": 1, "week": 3}
LEVEL = "medio"
_PERIOD = {"day": re.compile(r"\d{4}-\d{2}-\d{2}"), "week": re.compile(r"\d{4}-W\d{2}")}
#: at most this many actions in a play (a week of Guiñote takes about 3 x 45)
MAX_ACTIONS = 400


@dataclass(frozen=True)
class Event:
    kind: str
    period: str  # "2026-12-05" or "2026-W49"
    game: str

    @property
    def id(self) -> str:
        return f"{self.kind}_{self.period}_{self.game}"

    @property
    def deals(self) -> int:
        return KINDS[self.kind]

    def _seed(self, what: str) -> int:
        return int(hashlib.sha256(f"tute-daily:{self.id}:{what}".encode()).hexdigest()[:16], 16)

    def deal_seed(self, k: int) -> int:
        return self._seed(f"deal:{k}")

    @property
    def seat(self) -> int:
        """The player's seat, the same for everyone (drawn from the id)."""
        from .variants import find_variant

        var = find_variant(self.game)
        return self._seed("seat") % var.seat_count(var.resolve({}))

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "kind": self.kind, "period": self.period, "game": self.game,
                "deals": self.deals, "seat": self.seat, "level": LEVEL}


def _period(kind: str, day: datetime.date) -> str:
    if kind == "day":
        return day.isoformat()
    year, week, _ = day.isocalendar()
    return f"{year}-W{week:02d}"


def event(kind: str, period: str | datetime.date, game: str) -> Event:
    """The event of ``kind`` for a period (a date gives its day or its ISO week)."""
    if kind not in KINDS:
        raise TuteError(f"invalid event kind {kind!r}: expected day or week")
    if game not in GAMES:
        raise TuteError(f"invalid game {game!r}: expected one of " + ", ".join(GAMES))
    if isinstance(period, datetime.date):
        period = _period(kind, period)
    elif not _PERIOD[kind].fullmatch(period):
        raise TuteError(f"invalid {kind} {period[:20]!r}: expected "
                        + ("YYYY-MM-DD" if kind == "day" else "YYYY-Www"))
    return Event(kind, period, game)


def parse_event(event_id: str) -> Event:
    """An event from its id (``day_2026-12-05_guinote``); a bad id: :class:`TuteError`."""
    kind, _, rest = event_id.partition("_")
    period, _, game = rest.partition("_")
    ev = event(kind, period, game)
    try:
        datetime.date.fromisoformat(period if kind == "day" else f"{period}-1")
    except ValueError:
        raise TuteError(f"invalid event {event_id[:60]!r}") from None
    return ev


def current_events(day: datetime.date) -> list[Event]:
    """Today's events: the deal of the day and the deals of the week of every game."""
    return [event(kind, day, game) for kind in KINDS for game in GAMES]


@dataclass
class Play:
    """A player's play of an event so far: the deal in progress (or the last one), the
    margins of the deals finished, and the player's decisions."""

    event: Event
    deal: Deal
    number: int  # 0-based deal of the event
    margins: list[float] = field(default_factory=list)
    #: (deal, position key, action taken, the action's index in its deal)
    decisions: list[tuple[int, str, str, int]] = field(default_factory=list)
    finished: list[Deal] = field(default_factory=list)  # the deals played to their end

    @property
    def done(self) -> bool:
        return len(self.margins) == self.event.deals

    @property
    def score(self) -> float:
        return sum(self.margins)


def _new_deal(ev: Event, k: int) -> Deal:
    from .deal import Deal

    return Deal.new(ev.game, seed=ev.deal_seed(k))


def replay(ev: Event, taken: Sequence[str]) -> Play:
    """The event after the player's ``taken`` actions, each followed by the bots' answers; an
    action that is not legal where it comes: :class:`TuteError` naming it."""
    from .bots import make_bot
    from .bots.pimc import objective

    if len(taken) > MAX_ACTIONS:
        raise TuteError(f"too many actions: at most {MAX_ACTIONS}")
    seat = ev.seat
    k, deal = 0, _new_deal(ev, 0)
    play = Play(ev, deal, 0)
    bots = [make_bot(LEVEL, seed=ev.deal_seed(0) + s) for s in range(deal.seats)]
    queue = list(taken)
    while True:
        if deal.is_over():
            play.margins.append(objective(deal, seat))
            play.finished.append(deal)
            if k + 1 == ev.deals:
                break
            k += 1
            deal = _new_deal(ev, k)
            play.deal, play.number = deal, k
            bots = [make_bot(LEVEL, seed=ev.deal_seed(k) + s) for s in range(deal.seats)]
            continue
        mover = deal.to_move
        assert mover is not None
        if mover == seat:
            if not queue:
                break
            action = queue.pop(0)
            legal = {str(a): a for a in deal.legal_actions()}
            if action not in legal:
                raise TuteError(f"invalid action {action[:24]!r}: not legal now")
            play.decisions.append((k, position_key(deal), action, len(deal.actions)))
            deal.apply(legal[action])
        else:
            view = deal.view(mover, history=False)
            deal.apply(bots[mover].choose(view, view.legal_actions))
    if queue:
        raise TuteError("too many actions: the event is over")
    return play


def analyse(play: Play, solver: Solver | None = None) -> dict[str, Any]:
    """The double-dummy measure of the player's decisions in the finished deals
    (:func:`tute.analysis.double_dummy`): each measured decision's best action and the
    points it lost, their sum and the share within the analysis' accuracy margin."""
    from .analysis import ACCURACY_MARGIN, double_dummy

    seat = play.event.seat
    rows: list[dict[str, Any]] = []
    for k, deal in enumerate(play.finished):
        for d in double_dummy(deal, solver):
            if d.seat == seat and d.dd_loss is not None:
                rows.append({"deal": k, "move": d.move, "played": d.played,
                             "best": d.dd_best, "loss": d.dd_loss})
    lost = sum(r["loss"] for r in rows)
    good = sum(r["loss"] <= ACCURACY_MARGIN for r in rows)
    return {"decisions": rows, "measured": len(rows), "loss": lost,
            "accuracy": round(100.0 * good / len(rows), 1) if rows else None}


def position_key(deal: Deal) -> str:
    """A short name of a position of an event's deal: the actions that led to it."""
    return hashlib.sha256(" ".join(map(str, deal.actions)).encode()).hexdigest()[:16]


Decisions = Sequence[Sequence[object]]  # (deal, position key, action, move) each


def others_play(mine: Decisions, others: Sequence[Decisions]) -> list[dict[str, object]]:
    """At each of ``mine``'s decisions, what the other players took at the same position
    (the same deal and the same actions before it): every action's count, the most common."""
    at: dict[tuple[object, object], Counter[str]] = {}
    for decisions in others:
        for k, key, action, *_move in decisions:
            at.setdefault((k, key), Counter())[str(action)] += 1
    out: list[dict[str, object]] = []
    for n, (k, key, action, *move) in enumerate(mine):
        counts = at.get((k, key), Counter())
        out.append({"n": n, "deal": k, "move": move[0] if move else None, "played": action,
                    "counts": dict(counts.most_common()),
                    "most_common": counts.most_common(1)[0][0] if counts else None})
    return out
