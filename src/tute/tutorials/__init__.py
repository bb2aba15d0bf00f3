"""Guided tutorials: short scripted deals that teach a game on the real table.

A lesson is data (one JSON file per lesson in this package): the game and its options, a deal
layout the engine accepts (``Deal.new`` with explicit hands), the actions played before the
learner's first decision (``prelude``), and the steps. Each step says something in Spanish and
English, names the actions the learner may take (``expect``) and the other seats' replies
(``then``, which may include the learner's own ``pass`` in a poll that teaches nothing).

The engine is the referee: :func:`replay` applies every scripted action with ``Deal.apply``, so
a lesson whose script is not legal fails to load in the tests, and the learner's moves are
checked first against the engine (an illegal one is refused with the engine's own reason) and
then against the lesson (a legal one that is not the lesson's is refused with the step's text).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

from ..deal import Deal
from ..errors import IllegalActionError
from ..events import Event
from ..i18n import LANGS, refusal_text

__all__ = ["GAMES", "Lesson", "LessonRefusal", "Step", "lesson", "lessons", "replay"]

#: the games with lessons, in the order the lobby lists them
GAMES: Final = ("tute_parejas", "tute_2p_habanero", "guinote")

_DIR: Final = Path(__file__).parent

Text = dict[str, str]


def _text(raw: Any, where: str) -> Text:
    if not isinstance(raw, dict) or set(raw) != set(LANGS) or not all(
            isinstance(raw[k], str) and raw[k].strip() for k in LANGS):
        raise ValueError(f"{where}: a text needs {' and '.join(LANGS)}, not {raw!r}")
    return {k: raw[k] for k in LANGS}


@dataclass(frozen=True, slots=True)
class Step:
    """One decision of the learner: what the lesson says, what it expects, and the replies."""

    say: Text
    expect: tuple[str, ...]
    then: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Lesson:
    id: str
    game: str
    order: int
    seat: int  # the learner's seat
    options: Mapping[str, Any]
    deal: Mapping[str, Any]  # Deal.new keywords: dealer, hands, trump_card / upcard, stock, carry
    title: Text
    intro: Text
    done: Text
    prelude: tuple[str, ...]
    steps: tuple[Step, ...]

    def new_deal(self) -> Deal:
        """The lesson's deal as dealt, before the prelude."""
        kw = dict(self.deal)
        return Deal.new(self.game, options=dict(self.options), **kw)

    def summary(self) -> dict[str, Any]:
        """What the lobby lists: no cards."""
        return {"id": self.id, "game": self.game, "order": self.order, "title": self.title,
                "intro": self.intro, "steps": len(self.steps)}


class LessonRefusal(Exception):
    """A move the lesson does not take: ``code`` ``illegal`` (the engine's refusal, in
    ``refusal``), ``not_this_one`` (legal, but the lesson wants another), ``over`` (the lesson
    has no more steps). ``reason`` is the text in each language."""

    def __init__(self, code: str, reason: Text, refusal: dict[str, Any] | None = None):
        super().__init__(reason["en"])
        self.code = code
        self.reason = reason
        self.refusal = refusal


def _load(path: Path) -> Lesson:
    raw = json.loads(path.read_text(encoding="utf-8"))
    lid = path.stem
    steps = tuple(
        Step(_text(s["say"], f"{lid} step {i + 1}"), tuple(s["expect"]), tuple(s.get("then", ())))
        for i, s in enumerate(raw["steps"]))
    if any(not s.expect for s in steps):
        raise ValueError(f"{lid}: every step expects at least one move")
    if not 3 <= len(steps) <= 8:
        raise ValueError(f"{lid}: a lesson has 3 to 8 steps, not {len(steps)}")
    if raw["game"] not in GAMES:
        raise ValueError(f"{lid}: no lessons for {raw['game']!r}")
    return Lesson(
        id=lid, game=raw["game"], order=int(raw["order"]), seat=int(raw.get("seat", 0)),
        options=dict(raw.get("options", {})), deal=dict(raw["deal"]),
        title=_text(raw["title"], f"{lid} title"), intro=_text(raw["intro"], f"{lid} intro"),
        done=_text(raw["done"], f"{lid} done"), prelude=tuple(raw.get("prelude", ())),
        steps=steps)


@cache
def _all() -> tuple[Lesson, ...]:
    found = [_load(p) for p in sorted(_DIR.glob("*.json"))]
    return tuple(sorted(found, key=lambda x: (GAMES.index(x.game), x.order)))


def lessons() -> tuple[Lesson, ...]:
    """Every lesson, by game (:data:`GAMES`) and order."""
    return _all()


def lesson(lesson_id: str) -> Lesson:
    """The lesson ``lesson_id``; ``KeyError`` if there is none."""
    for x in _all():
        if x.id == lesson_id:
            return x
    raise KeyError(lesson_id)


def _name(move: str, lang: str) -> str:
    """A move of the lesson in words: a card by its name, a cante or an exchange spelt out."""
    from ..cards import parse_card, parse_suit
    from ..i18n import LESSON_MOVES, card_name, suit_name
    kind, _, arg = move.partition(":")
    words = LESSON_MOVES[lang]
    if kind == "veinte" and arg:
        return words["veinte"].format(suit_name(lang, parse_suit(arg)))
    if kind == "cambio" and arg:
        return words["cambio"].format(card_name(lang, parse_card(arg)))
    if kind in words:
        return words[kind]
    try:
        return card_name(lang, parse_card(move))
    except Exception:  # any other notation stays as written
        return move


def _names(actions: Sequence[str], lang: str) -> str:
    return " / ".join(_name(a, lang) for a in actions)


def replay(x: Lesson, taken: Sequence[str]) -> tuple[Deal, list[Event]]:
    """The lesson's deal after the prelude and the learner's ``taken`` moves, each followed by
    its step's replies; and the events of the last step (the prelude's if none was taken).

    Raises :class:`LessonRefusal` for the first move the lesson does not take."""
    deal = x.new_deal()
    for a in x.prelude:
        deal.apply(a)
    mark = 0
    for i, move in enumerate(taken):
        if i >= len(x.steps):
            raise LessonRefusal("over", {"es": "La lección ha terminado.",
                                         "en": "The lesson is over."})
        step = x.steps[i]
        if move not in step.expect:
            try:
                deal.apply(move)
            except IllegalActionError as exc:
                why = exc.refusal
                if why is None:
                    raise LessonRefusal("illegal", {k: str(exc) for k in LANGS}) from None
                raise LessonRefusal("illegal", {k: refusal_text(k, why, you=x.seat) for k in LANGS},
                                    why.as_json()) from None
            deal.undo()
            raise LessonRefusal("not_this_one", {
                "es": f"Se puede, pero en esta lección prueba con {_names(step.expect, 'es')}. "
                      f"{step.say['es']}",
                "en": f"That is allowed, but in this lesson try {_names(step.expect, 'en')}. "
                      f"{step.say['en']}"})
        mark = len(deal.events)
        deal.apply(move)
        for a in step.then:
            deal.apply(a)
    return deal, deal.events_for(x.seat, mark)
