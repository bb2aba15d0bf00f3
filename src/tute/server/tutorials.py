"""The guided tutorials over HTTP (docs/protocol.md, "Tutorials").

Stateless: the page sends the learner's moves so far and gets back the learner's view of the
lesson's deal after them (:func:`tute.tutorials.replay`), so it never holds another hand than
its own; the other seats' cards are only what the table shows anyone (played cards, cantes,
the upcard)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..deal import Deal
from ..tutorials import Lesson, lesson, lessons, replay
from .protocol import event_json, private_deal_json, spectator_deal_json


def catalogue_json() -> dict[str, Any]:
    """Every lesson's summary, by game."""
    return {"tutorials": [x.summary() for x in lessons()]}


def find(lesson_id: str) -> Lesson | None:
    try:
        return lesson(lesson_id)
    except KeyError:
        return None


def lesson_json(x: Lesson) -> dict[str, Any]:
    """A lesson's words, without its cards: the steps' texts come one by one with the state."""
    return {**x.summary(), "done": x.done, "seat": x.seat, "options": dict(x.options)}


def seating_json(deal: Deal) -> dict[str, Any]:
    """Who sits where, as in the table state: the seats, the sides, the order of play."""
    n = deal.seats
    order = list(deal.play_order)
    return {"seats": n, "sides": max(deal.side_of(s) for s in range(n)) + 1,
            "partnerships": deal.variant.partnerships,
            "side_of": [deal.side_of(s) for s in range(n)], "play_order": order,
            "idle": [s for s in range(n) if s not in order]}


def step_json(x: Lesson, taken: Sequence[str]) -> dict[str, Any]:
    """The learner's view after ``taken`` (raises ``LessonRefusal`` for a move not taken)."""
    deal, events = replay(x, taken)
    k = len(taken)
    done = k >= len(x.steps)
    view = {**spectator_deal_json(deal), **private_deal_json(deal, x.seat)}
    if done:  # the lesson's script is over: nothing more to choose
        view.update(legal_actions=[], refusals={}, duty=None)
    return {
        "id": x.id, "game": x.game, "seat": x.seat, "step": k, "steps": len(x.steps),
        "done": done, "say": x.done if done else x.steps[k].say,
        "expect": [] if done else list(x.steps[k].expect),
        "state": {"deal": view, "seating": seating_json(deal)},
        "events": [event_json(e, table=not deal.variant.stock) for e in events],
    }
