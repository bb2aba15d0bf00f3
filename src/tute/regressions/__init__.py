"""Regression sets of bot moves: the blunders people reported, replayed against a bot.

A report (docs/reports.md) names one decision of a finished game that a bot played: the game
record, the deal (0-based) and the move (the action's index in its deal), the seat and the
bot, the action it played and what the analysis said of it. A regression set is a JSON-lines
file of them (the server's reports, ``tute reports export``; the shipped set in ``data/``).

:func:`check` rebuilds the reported position from the record, gives the bot that seat's view
alone (never the other hands) and tells whether its choice repeats the blunder. A report is
``open`` until someone decides it (``tute reports decide``): an open report fails when the
bot plays the reported action (or one the seat cannot tell from it: two equal cards); a
decided report fails only when its decision named the action to play (``expect``) and the
bot plays another; decided with a note alone, it never fails (the move was judged fine, or
the weakness accepted).

    >>> from tute.regressions import load_set, run, SHIPPED
    >>> outcomes = run(load_set(SHIPPED), "medio")
    >>> any(o.fails for o in outcomes)
    False
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import TuteError

if TYPE_CHECKING:
    from ..deal import Deal

__all__ = ["DATA_DIR", "SHIPPED", "STATUSES", "Outcome", "Regression", "check", "decide",
           "dump_set", "format_outcomes", "load_set", "parse_set", "position", "run"]

DATA_DIR = Path(__file__).resolve().parent / "data"
#: the regression set shipped with the package: real blunders found by the analysis
SHIPPED = DATA_DIR / "bots.jsonl"
STATUSES = ("open", "decided")
#: a note or a comment at most (characters)
NOTE_MAX = 500
#: a line of a regression set at most (a match record of many deals is well below it)
LINE_MAX = 4 * 1024 * 1024


@dataclass
class Regression:
    """One reported decision of a bot and what is expected of the bot there now."""

    id: str
    record: dict[str, Any]  # the game's record (a deal or a match), players left out
    deal: int  # 0-based deal of the record
    move: int  # the action's index in its deal
    seat: int
    played: str  # the action the bot played
    bot: str = ""  # the bot (level) that played it, e.g. "medio"
    status: str = "open"  # open | decided
    expect: str | None = None  # decided: the action the bot must play (None: any)
    note: str | None = None  # decided: why
    comment: str = ""  # the reporter's
    analysis: dict[str, Any] = field(default_factory=dict)  # dd_best, dd_loss, best, loss
    source: str = ""  # where it comes from: "table:<id>", "selfplay:..."
    at: float | None = None

    @property
    def variant(self) -> str:
        return str(self.record.get("variant", "?"))

    def expected(self) -> dict[str, str] | None:
        """What the bot must do here: not play the reported action (open), play the decided
        one, or None (decided, any action will do)."""
        if self.status == "open":
            return {"not": self.played}
        return None if self.expect is None else {"action": self.expect}

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "variant": self.variant, "deal": self.deal, "move": self.move,
                "seat": self.seat, "bot": self.bot, "played": self.played,
                "expected": self.expected(),
                "status": self.status, "expect": self.expect, "note": self.note,
                "comment": self.comment, "analysis": self.analysis, "source": self.source,
                "at": self.at, "record": self.record}

    @classmethod
    def from_json(cls, data: Any) -> Regression:
        """A report from one line's JSON; :class:`~tute.TuteError` names a bad field."""
        if not isinstance(data, Mapping):
            raise TuteError("expected a JSON object")

        def need(name: str, kind: type | tuple[type, ...], optional: bool = False) -> Any:
            value = data.get(name)
            if value is None and optional:
                return None
            if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
                raise TuteError(f"invalid {name} {str(value)[:40]!r}")
            return value

        status = data.get("status", "open")
        if status not in STATUSES:
            raise TuteError(f"invalid status {str(status)[:20]!r}: expected "
                            + " or ".join(STATUSES))
        for name in ("deal", "move", "seat"):
            if need(name, int) < 0:
                raise TuteError(f"invalid {name} {data[name]}: expected >= 0")
        note = need("note", str, optional=True)
        if note is not None and len(note) > NOTE_MAX:
            raise TuteError(f"invalid note: {len(note)} characters, at most {NOTE_MAX}")
        return cls(id=need("id", str), record=dict(need("record", dict)),
                   deal=data["deal"], move=data["move"], seat=data["seat"],
                   played=need("played", str), bot=need("bot", str, optional=True) or "",
                   status=status, expect=need("expect", str, optional=True), note=note,
                   comment=need("comment", str, optional=True) or "",
                   analysis=dict(need("analysis", dict, optional=True) or {}),
                   source=need("source", str, optional=True) or "",
                   at=need("at", (int, float), optional=True))


def regression_id(record: Mapping[str, Any], deal: int, move: int) -> str:
    """A short stable id of a reported move (the same move of the same game, the same id)."""
    key = json.dumps({"record": record, "deal": deal, "move": move}, sort_keys=True)
    return "r" + hashlib.sha256(key.encode()).hexdigest()[:10]


def parse_set(lines: Iterable[str], where: str = "<input>") -> list[Regression]:
    """The reports of a JSON-lines text (blank lines skipped); a bad line: an error naming
    the line and the field."""
    out: list[Regression] = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        if len(line) > LINE_MAX:
            raise TuteError(f"{where}: line {n}: longer than {LINE_MAX} characters")
        try:
            data = json.loads(line)
        except ValueError as exc:
            raise TuteError(f"{where}: line {n}: not JSON ({exc})") from None
        try:
            out.append(Regression.from_json(data))
        except TuteError as exc:
            raise TuteError(f"{where}: line {n}: {exc}") from None
    ids = [r.id for r in out]
    if len(set(ids)) != len(ids):
        twice = next(i for i in ids if ids.count(i) > 1)
        raise TuteError(f"{where}: the report {twice!r} is there twice")
    return out


def load_set(path: Path) -> list[Regression]:
    with path.open(encoding="utf-8") as f:
        return parse_set(f, str(path))


def dump_set(regressions: Sequence[Regression]) -> str:
    """The JSON-lines text of a regression set (one report a line)."""
    return "".join(json.dumps(r.to_json(), ensure_ascii=False, separators=(",", ":")) + "\n"
                   for r in regressions)


def position(reg: Regression) -> Deal:
    """The deal at the reported decision, rebuilt from the record (every action replayed and
    checked); :class:`~tute.TuteError` when the record does not hold that move, another seat
    was to play it or it played another action."""
    from ..analysis import deals_of_record

    _, deals = deals_of_record(reg.record)
    if reg.deal >= len(deals):
        raise TuteError(f"report {reg.id}: no deal {reg.deal} in its record "
                        f"(it has {len(deals)})")
    pos = deals[reg.deal].copy()
    if reg.move >= len(pos.actions):
        raise TuteError(f"report {reg.id}: no move {reg.move} in deal {reg.deal} "
                        f"(it has {len(pos.actions)})")
    while len(pos.actions) > reg.move + 1:
        pos.undo()
    played = pos.undo()
    if pos.to_move != reg.seat or str(played) != reg.played:
        raise TuteError(f"report {reg.id}: its record has seat {pos.to_move} playing "
                        f"{played} at that move, not seat {reg.seat} playing {reg.played}")
    return pos


def same_choice(pos: Deal, seat: int, a: str, b: str) -> bool:
    """Whether actions ``a`` and ``b`` are one choice to ``seat`` (equal, or two cards it
    cannot tell apart from what it has seen: :func:`tute.bots.pimc.equivalent_actions`)."""
    if a == b:
        return True
    from ..bots.pimc import equivalent_actions

    legal = list(pos.legal_actions())
    names = [str(x) for x in legal]
    if a not in names or b not in names:
        return False
    rep = equivalent_actions(pos.order, pos.stock_count,
                             pos.hand(seat).mask | pos.played.mask, legal)
    return rep[names.index(a)] == rep[names.index(b)]


@dataclass(frozen=True)
class Outcome:
    """What a bot chose at a reported decision."""

    id: str
    status: str
    played: str  # the reported action
    choice: str  # the bot's
    repeats: bool  # the choice is the reported action (or one the seat cannot tell from it)
    fails: bool  # the report holds it against the bot (see the module's docstring)
    expect: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "status": self.status, "played": self.played,
                "choice": self.choice, "repeats": self.repeats, "fails": self.fails,
                "expect": self.expect}


def bot_seed(reg: Regression) -> int:
    """The bot's seed at a report: from its id, so that a run is reproducible."""
    return int(hashlib.sha256(f"tute-regress:{reg.id}".encode()).hexdigest()[:15], 16)


def check(reg: Regression, bot: str) -> Outcome:
    """Ask ``bot`` (a bot or level spec, :func:`tute.bots.make_bot`) for its choice at the
    reported decision, from the seat's view alone."""
    from ..bots import make_bot

    pos = position(reg)
    view = pos.view(reg.seat)  # the bot's only input: the seat's hand and what is public
    legal = list(view.legal_actions)
    player = make_bot(bot, seed=bot_seed(reg))
    choice = str(player.choose(view, legal))
    if choice not in {str(a) for a in legal}:
        raise TuteError(f"bot {bot!r} chose {choice!r} at report {reg.id}: not legal")
    repeats = same_choice(pos, reg.seat, choice, reg.played)
    if reg.status == "open":
        fails = repeats
    elif reg.expect is not None:
        fails = not same_choice(pos, reg.seat, choice, reg.expect)
    else:
        fails = False
    return Outcome(reg.id, reg.status, reg.played, choice, repeats, fails, reg.expect)


def run(regressions: Sequence[Regression], bot: str) -> list[Outcome]:
    """:func:`check` of every report, in order."""
    return [check(r, bot) for r in regressions]


def decide(reg: Regression, note: str, expect: str | None = None) -> Regression:
    """The report decided: ``note`` says why; ``expect``, the action the bot must play there
    from now on (checked legal at the position), or None when any will do."""
    note = " ".join(note.split())
    if not note:
        raise TuteError("a decision needs a note saying why")
    if len(note) > NOTE_MAX:
        raise TuteError(f"the note has {len(note)} characters; at most {NOTE_MAX}")
    if expect is not None:
        legal = [str(a) for a in position(reg).legal_actions()]
        if expect not in legal:
            raise TuteError(f"invalid expect {expect[:24]!r}: the legal actions there are "
                            + " ".join(legal))
    return replace(reg, status="decided", note=note, expect=expect)


def format_outcomes(regs: Sequence[Regression], outcomes: Sequence[Outcome],
                    bot: str) -> list[str]:
    """The run as text lines: one a report, then the count of failures."""
    lines = []
    for r, o in zip(regs, outcomes, strict=True):
        if o.fails:
            mark = "FAIL"
        elif o.status == "decided":
            mark = "decided"
        else:
            mark = "ok"
        what = (f"expected {o.expect}" if o.status == "decided" and o.expect
                else f"reported {o.played}")
        lines.append(f"{mark:<8}{r.id}  {r.variant} deal {r.deal + 1} move {r.move + 1} "
                     f"seat {r.seat} ({r.bot or '?'}): {what}, {bot} plays {o.choice}"
                     + (" (repeats it)" if o.repeats and o.status == "decided" else ""))
    failed = sum(o.fails for o in outcomes)
    open_ = sum(r.status == "open" for r in regs)
    lines.append(f"{bot}: {failed} of {len(outcomes)} reports failed "
                 f"({open_} open, {len(regs) - open_} decided)")
    return lines
