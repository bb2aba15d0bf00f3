"""The ``tute`` command line (ARCHITECTURE.md §3.4).

Data commands (``legal``, ``score``) read JSON Lines on stdin and answer one line per input
line; the others replay records, deal, list variants, let random bots play, show a demo match
and run a line-based terminal game. Bad input exits with status 2 and a one-line message that
names the bad field; no command ever prints a traceback.

Every byte read from stdin or a file goes through one bounded reader and one JSON loader: a
JSON line holds at most 1 MB (``MAX_LINE_BYTES``; a longer line is answered with an error and
skipped), a record at most 16 MB (``MAX_RECORD_BYTES``), JSON nests at most 32 levels
(``MAX_JSON_DEPTH``), and a message quotes at most 60 characters of a bad value.
"""

from __future__ import annotations

import functools
import json
import math
import os
import random
import re
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, BinaryIO, Final, NoReturn, Protocol, TypeVar

import typer

from . import __version__
from .actions import Action, parse_action
from .cards import Card, Suit, parse_card, parse_suit
from .deal import Deal, SeatView
from .errors import RecordError, TuteError
from .events import CardPlayed, DealEnded, Drew, Passed, TrickTaken
from .fields import QUOTE_MAX as _QUOTE_MAX
from .fields import InputError
from .fields import bad as _bad
from .fields import field as _field
from .fields import quote as _q
from .fields import read_seat as _seat
from .games import game_for
from .i18n import (
    CLI_TEXT,
    card_name,
    declaration_text,
    event_text,
    game_name,
    goal_text,
    refusal_text,
    suit_name,
    tr,
)
from .match import Match
from .messages import Refusal
from .narration import describe, describe_result
from .puzzles.commands import puzzles_app
from .records import earlier_rules
from .rules import Declaration, explain_plays, trick_winner
from .server.report_commands import reports_app
from .shuffle import derive_seed, new_seed, randbelow
from .variants import (
    VARIANTS,
    MatchSpec,
    Options,
    OptionSpec,
    Variant,
    find_variant,
)

__all__ = ["app", "legal_line", "main", "score_line"]

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help="Tute, the Spanish trick-taking card game: rules engine tools, bots and a table.",
)

F = TypeVar("F", bound=Callable[..., Any])


_MESSAGE_MAX: Final = 1000  # characters of a whole message (valid-value lists included)
_QUOTED = re.compile(r"'(?:[^'\\\n]|\\.)*'" r'|"(?:[^"\\\n]|\\.)*"')  # Python reprs


def _one_line(text: str) -> str:
    """An error message on one line. A long one (the engine's messages quote values whole)
    gets every quoted piece cut to a short prefix, and at most ``_MESSAGE_MAX`` characters."""
    line = " ".join(str(text).split())
    if len(line) <= _MESSAGE_MAX:
        return line
    if len(line) > 4 * _MESSAGE_MAX:  # keep the regex below on a short text
        line = line[:3 * _MESSAGE_MAX] + " … " + line[-_MESSAGE_MAX:]
    line = _QUOTED.sub(lambda m: m[0] if len(m[0]) <= _QUOTE_MAX + 2
                       else m[0][:_QUOTE_MAX + 1] + "…" + m[0][0], line)
    if len(line) > _MESSAGE_MAX:
        line = line[:_MESSAGE_MAX * 2 // 3] + " … " + line[-_MESSAGE_MAX // 3:]
    return line


def _fail(message: str, code: int = 2) -> NoReturn:
    typer.echo(f"tute: error: {_one_line(message)}", err=True)
    raise typer.Exit(code)


def _guarded(fn: F) -> F:
    """Turn engine and input errors into a one-line message and exit status 2."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except BrokenPipeError:  # click stops quietly on a closed stdout
            raise
        except RecordError as exc:
            _fail(_record_error_text(exc))
        except (TuteError, ValueError) as exc:
            _fail(str(exc))
        except OSError as exc:
            where = f" {exc.filename!r}" if exc.filename else ""
            _fail(f"cannot read{where}: {exc.strerror or exc}")
        except KeyboardInterrupt:
            raise
        except Exception as exc:  # a bug: still no traceback unless asked for
            if _is_cli_flow(exc) or os.environ.get("TUTE_DEBUG"):
                raise
            _fail(f"internal error ({type(exc).__name__}: {exc}); set TUTE_DEBUG=1 for details",
                  code=1)

    return wrapper  # type: ignore[return-value]


def _is_cli_flow(exc: BaseException) -> bool:
    """Exit, Abort and usage errors of Typer (or the Click it may be built on) pass through."""
    return type(exc).__module__.split(".")[0] in ("typer", "click")


def _command(name: str, **kwargs: Any) -> Callable[[F], F]:
    def register(fn: F) -> F:
        app.command(name, **kwargs)(_guarded(fn))
        return fn

    return register


class Lang(StrEnum):
    es = "es"
    en = "en"


def _version(value: bool) -> None:
    if value:
        typer.echo(f"tute {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Show the version and exit.")] = False,
) -> None:
    """Tute, the Spanish trick-taking card game: rules engine tools, bots and a table."""


# =============================================================================================
# Small field readers shared by the JSON Lines commands (the others: tute.fields)


def _card(value: Any, field: str) -> Card:
    try:
        return parse_card(value)
    except TuteError as exc:
        _bad(f"field {field!r}: {exc}")


def _variant_and_options(data: Mapping[str, Any]) -> tuple[Variant, Options]:
    name = data.get("variant", "tute_parejas")
    try:
        variant = find_variant(name)
    except TuteError as exc:
        _bad(f"field 'variant': {exc}")
    options = data.get("options")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        _bad(f"field 'options': expected an object of option flags, got {_q(options)}")
    if "players" in data and "players" not in options:  # S22 writes it at the top level
        options = {**options, "players": data["players"]}
    try:
        return variant, variant.resolve(options)
    except TuteError as exc:
        _bad(f"field 'options': {exc}")


# Keys of the rule cases that describe or expect rather than ask; a query may carry them.
_NOTE_KEYS = frozenset({"id", "title", "note", "why", "detail", "result", "made", "legal", "alt",
                        "auction", "event", "stake_each", "losers"})
_LEGAL_KEYS = frozenset({"variant", "trump", "phase", "trick", "to_play", "hand", "options",
                         "partners"})
_SCORE_KEYS = frozenset({"variant", "options", "players", "sides", "mano_side", "totals",
                         "last_trick", "tute", "contract", "declarer", "declarer_total",
                         "idle_dealer", "takeover", "took_trick", "no_trick", "all_took_tricks",
                         "sang"})


def _check_keys(data: Mapping[str, Any], known: frozenset[str]) -> None:
    """Refuse unknown fields (a misspelt optional field would otherwise be ignored)."""
    for key in data:
        if key in known or key in _NOTE_KEYS or (
                known is _SCORE_KEYS and isinstance(key, str) and key.startswith("seat")
                and key[4:].isdigit()):
            continue
        _bad(f"unknown field {_q(key)}; valid fields: {', '.join(sorted(known))}")


def _pack(variant: Variant, opts: Options) -> int:
    """The cards that may appear in the variant's deals under ``opts`` (its game says)."""
    return game_for(variant).pack(opts)


# =============================================================================================
# Bounded input: every byte the commands read from stdin or a file goes through these

MAX_LINE_BYTES: Final = 1 << 20  # one JSON line of tute legal / tute score
MAX_RECORD_BYTES: Final = 16 << 20  # one record of tute replay / tute solve (a file or stdin)
MAX_JSON_DEPTH: Final = 32  # arrays and objects inside each other; real input needs < 10
_SKIP_MAX: Final = 64 << 20  # how far an over-long line is skipped looking for its end
_COMMAND_MAX: Final = 64  # one command typed in the line-based game (tute play)


class _Bytes(Protocol):
    def read(self, size: int = ..., /) -> bytes: ...
    def readline(self, size: int = ..., /) -> bytes: ...


class _TextAsBytes:
    """A text stream without a binary buffer (an embedding's stdin), read as UTF-8 bytes;
    the sizes then count characters, still a bound."""

    def __init__(self, text: Any):
        self._text = text

    def read(self, size: int = -1, /) -> bytes:
        return str(self._text.read(size)).encode("utf-8", "surrogateescape")

    def readline(self, size: int = -1, /) -> bytes:
        return str(self._text.readline(size)).encode("utf-8", "surrogateescape")


def _stdin() -> _Bytes:
    binary: BinaryIO | None = getattr(sys.stdin, "buffer", None)
    return binary if binary is not None else _TextAsBytes(sys.stdin)


def _size(n: int) -> str:
    return f"{n >> 20} MB" if n >= 1 << 20 else f"{n} bytes"


def _read_bounded(stream: _Bytes, limit: int, what: str) -> bytes:
    """All of ``stream``, refused past ``limit`` bytes (one read more than the limit, so
    /dev/zero or an endless pipe costs ``limit`` bytes, not the machine)."""
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise InputError(f"{what} is larger than {_size(limit)}: not read")
    return data


def _too_deep(data: Any) -> bool:
    """Whether arrays/objects nest past MAX_JSON_DEPTH, level by level (no recursion)."""
    level = [data] if isinstance(data, (list, dict)) else []
    depth = 0
    while level:
        depth += 1
        if depth > MAX_JSON_DEPTH:
            return True
        level = [v for node in level for v in (node.values() if isinstance(node, dict) else node)
                 if isinstance(v, (list, dict))]
    return False


def _loads(text: str | bytes, error: type[TuteError] = InputError) -> Any:
    """``json.loads`` that fails with one clear ``error`` for any bad text: invalid JSON or
    UTF-8, nesting past MAX_JSON_DEPTH (the parser's own recursion limit included), numbers
    too long to convert."""
    deep = f"invalid JSON: nested more than {MAX_JSON_DEPTH} levels deep"
    try:
        data = json.loads(text)
    except RecursionError:
        raise error(deep) from None
    except json.JSONDecodeError as exc:
        raise error(f"invalid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
                    ) from None
    except UnicodeDecodeError as exc:
        raise error(f"invalid JSON: not UTF-8 text ({exc.reason} at byte {exc.start})"
                    ) from None
    except ValueError as exc:  # an integer of more than 4300 digits (Python's limit)
        raise error(f"invalid JSON: {str(exc).partition(':')[0]}") from None
    if _too_deep(data):
        raise error(deep)
    return data


def _read_record(path: str) -> dict[str, Any]:
    """The JSON object of a record file (``-``: stdin), at most MAX_RECORD_BYTES; any bad
    input raises RecordError."""
    try:
        if path == "-":
            raw = _read_bounded(_stdin(), MAX_RECORD_BYTES, "the record on stdin")
        else:
            with open(path, "rb") as fh:
                raw = _read_bounded(fh, MAX_RECORD_BYTES, f"record file {_q(path)}")
    except InputError as exc:
        raise RecordError(str(exc)) from None
    except OSError as exc:
        _fail(f"cannot read record file {_q(path)}: {exc.strerror or exc}")
    data = _loads(raw, RecordError)
    if not isinstance(data, dict):
        raise RecordError("invalid record: expected a JSON object at the top level")
    return data


@dataclass(frozen=True)
class _BadLine:
    error: str


def _skip_line(stream: _Bytes) -> bool:
    """Drop the rest of an over-long line; False if no end came within _SKIP_MAX bytes."""
    skipped = 0
    while skipped <= _SKIP_MAX:
        chunk = stream.readline(1 << 16)
        if not chunk or chunk.endswith(b"\n"):
            return True
        skipped += len(chunk)
    return False


def _input_lines(stream: _Bytes) -> Iterator[str | _BadLine]:
    """The lines of ``stream`` as text, each read with at most MAX_LINE_BYTES; an over-long
    or non-UTF-8 line comes as a _BadLine and the lines after it are still read."""
    while True:
        raw = stream.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            if not _skip_line(stream):
                yield _BadLine(f"line longer than {_size(_SKIP_MAX)} without an end: "
                               "the rest of the input is not read")
                return
            yield _BadLine(f"line longer than {_size(MAX_LINE_BYTES)}: not read")
            continue
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield _BadLine(f"line is not valid UTF-8 ({exc.reason} at byte {exc.start})")


def _json_lines(handle: Callable[[Any], dict[str, Any]]) -> None:
    """Answer every non-blank stdin line with one JSON line; exit 2 if any line was bad."""
    errors = 0
    for number, raw in enumerate(_input_lines(_stdin()), 1):
        if isinstance(raw, _BadLine):
            out: dict[str, Any] = {"error": raw.error}
        else:
            if not raw.strip():
                continue
            try:
                out = handle(_loads(raw))
            except (TuteError, ValueError) as exc:
                out = {"error": _one_line(str(exc))}
            except Exception as exc:  # unvalidated input reaching the engine: report, go on
                if os.environ.get("TUTE_DEBUG"):
                    raise
                out = {"error": f"internal error ({type(exc).__name__}: {_one_line(str(exc))})"}
        if "error" in out:
            errors += 1
            typer.echo(f"tute: line {number}: {out['error']}", err=True)
        typer.echo(json.dumps(out, ensure_ascii=False))
    if errors:
        raise typer.Exit(2)


# =============================================================================================
# tute legal


def legal_line(data: Any) -> dict[str, Any]:
    """Answer one legality query (the schema of the P cases of rule_cases.md)."""
    if not isinstance(data, dict):
        _bad("expected a JSON object with variant, trump, phase, trick, to_play and hand")
    _check_keys(data, _LEGAL_KEYS)
    variant, opts = _variant_and_options(data)
    n = variant.seat_count(opts)
    trump = _trump(variant, _field(data, "trump"))
    phase = data.get("phase")
    if phase is None:
        phase = "obligated"
    if phase not in ("obligated", "stock"):
        _bad(f"field 'phase': invalid phase {_q(phase)}: expected 'obligated' or 'stock'")
    if phase == "stock" and not variant.stock:
        _bad(f"field 'phase': {variant.id} has no stock, so no 'stock' phase; use 'obligated'")
    pack = _pack(variant, opts)
    where: dict[Card, str] = {}

    def place(card: Card, field: str, part: str) -> None:
        if not card.mask & pack:
            _bad(f"field {field!r}: card {card} is not in the {variant.id} pack")
        if card in where:
            also = where[card]
            _bad(f"field {field!r}: card {card} appears twice in {part!r}" if also == part
                 else f"field {field!r}: card {card} is both in 'trick' and in 'hand'")
        where[card] = part

    raw_trick = data.get("trick")
    if raw_trick is None:
        raw_trick = []
    if not isinstance(raw_trick, list):
        _bad(f"field 'trick': expected a list of [seat, card], got {_q(raw_trick)}")
    if len(raw_trick) >= n:
        _bad(f"field 'trick': holds {len(raw_trick)} cards but {variant.id} is played by {n}, "
             "so nobody is left to play")
    trick: list[tuple[int, Card]] = []
    for i, entry in enumerate(raw_trick):
        field = f"trick[{i}]"
        if not isinstance(entry, list) or len(entry) != 2:
            _bad(f"field {field!r}: expected [seat, card], got {_q(entry)}")
        seat, card = _seat(entry[0], field, n), _card(entry[1], field)
        if trick and seat != (trick[-1][0] + 1) % n:
            _bad(f"field {field!r}: seat {seat} cannot play after seat {trick[-1][0]}; "
                 f"seat {(trick[-1][0] + 1) % n} plays next")
        place(card, field, "trick")
        trick.append((seat, card))
    to_play: int | None = None
    if "to_play" in data:
        to_play = _seat(data["to_play"], "to_play", n)
    if trick:
        after = (trick[-1][0] + 1) % n
        if to_play is not None and to_play != after:
            _bad(f"field 'to_play': seat {to_play} is not next in the trick; seat {after} is")
        to_play = after
    raw_hand = _field(data, "hand")
    if not isinstance(raw_hand, list):
        _bad(f"field 'hand': expected a list of cards, got {_q(raw_hand)}")
    hand = []
    for i, text in enumerate(raw_hand):
        card = _card(text, f"hand[{i}]")
        place(card, f"hand[{i}]", "hand")
        hand.append(card)
    groups = _partners(variant, data, n)

    indices = [c.index for _, c in trick]
    partner_winning = False
    if trick and to_play is not None:
        winner = trick[trick_winner(indices, trump, variant.order)][0]
        partner_winning = winner != to_play and any(
            winner in g and to_play in g for g in groups)
    legal, why = explain_plays(
        sum(c.mask for c in hand), indices, trump, variant.order, phase=phase,
        stock_phase_rule=opts.stock_phase_rule, partner_winning=partner_winning,
        partner_exemption=opts.partner_exemption, must_undertrump=opts.must_undertrump,
        must_head_after_ruff=opts.must_head_after_ruff,
    )
    return {
        "legal": [str(c) for c in hand if c.mask & legal],
        "why": {str(c): why.get(c.index, "not a legal card here")
                for c in hand if not c.mask & legal},
    }


def _trump(variant: Variant, value: Any) -> int | None:
    if value is None:
        if not game_for(variant).trump_changes:
            _bad(f"field 'trump': null (no trump) only happens in tute_cabron; {variant.id} "
                 "needs a suit o, c, e or b")
        return None
    try:
        return int(parse_suit(value))
    except TuteError as exc:
        _bad(f"field 'trump': {exc}")


def _partners(variant: Variant, data: Mapping[str, Any], n: int) -> list[set[int]]:
    if "partners" not in data:
        return [{0, 2}, {1, 3}] if variant.partnerships else []
    value = data["partners"]
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(g, list) for g in value):
        _bad(f"field 'partners': expected null or a list of seat lists such as "
             f"[[0, 2], [1, 3]], got {_q(value)}")
    groups: list[set[int]] = []
    taken: set[int] = set()
    for g in value:
        group = {_seat(s, "partners", n) for s in g}
        if group & taken or len(group) != len(g):
            _bad(f"field 'partners': a seat appears twice in {_q(value)}")
        taken |= group
        groups.append(group)
    return groups


@_command("legal")
def legal_command() -> None:
    """Legal cards of situations read as JSON Lines on stdin (schema of the P cases).

    Each line: {"variant", "trump", "phase": "obligated"|"stock", "trick": [[seat, card], ...],
    "to_play", "hand", optional "options" and "partners"}. Each answer:
    {"legal": [...], "why": {"<card>": "<reason>"}} or {"error": "..."} (then exit status 2).
    A line holds at most 1 MB (a longer one is answered with an error and skipped) and JSON
    nested at most 32 levels deep.
    """
    _json_lines(legal_line)


# =============================================================================================
# tute score


def score_line(data: Any) -> dict[str, Any]:
    """Score one deal (the schema of the S cases of rule_cases.md): the game of the variant
    reads it (``Game.score_case``)."""
    if not isinstance(data, dict):
        _bad("expected a JSON object describing one deal (sides, seat0/seat1, totals, ...)")
    if "cases" in data:
        _bad("field 'cases': one deal per line; put each case on its own line")
    _check_keys(data, _SCORE_KEYS)
    variant, opts = _variant_and_options(data)
    return game_for(variant).score_case(data, opts)


@_command("score")
def score_command() -> None:
    """Score deals read as JSON Lines on stdin (schema of the S cases).

    Shapes: partnership {"sides": {"A": {card_points, cantes, last_trick}, "B": ...},
    "mano_side"}; two players {"seat0": ..., "seat1": ...}; arrastrado {"totals": {seatN: n},
    "last_trick"}; subastado {"contract": {declarer, bid, trump}, "declarer": ... or
    "declarer_total", "idle_dealer", "takeover"}; cabrón {"totals", "no_trick" / "took_trick"};
    gana-pierde and cabrero {"totals", "last_trick", "no_trick" / "took_trick", "sang"} (each
    seat's lost games, and who went out); a tute: {"tute": "<side or seat>"}. Each answer:
    {"totals": ..., "result": ...} or {"error": "..."} (then exit status 2). A line holds at
    most 1 MB (a longer one is answered with an error and skipped) and JSON nested at most 32
    levels deep.
    """
    _json_lines(score_line)


# =============================================================================================
# Words and narration: the phrases are i18n.CLI_TEXT (every word of the package lives in i18n)




class _Words:
    """Localised phrases for one language and one table (who is called what)."""

    def __init__(self, lang: str, variant: Variant, you: int | None = None):
        self.lang = lang
        self.t = CLI_TEXT[lang]
        self.variant = variant
        self.you = you

    def __call__(self, key: str, **kw: Any) -> str:
        return self.t[key].format(**kw)

    def seat(self, s: int) -> str:
        name = self("seat", n=s)
        return self("you") if s == self.you else name

    def side(self, i: int) -> str:
        if self.variant.partnerships:
            return self("side", s="AB"[i])
        return self.seat(i)

    def side_seats(self, i: int, the: bool = False) -> str:
        if not self.variant.partnerships:
            return self.seat(i)
        text = self("side_seats", s="AB"[i], a=self.seat(i), b=self.seat(i + 2))
        return self.the(text) if the else text

    def the(self, text: str) -> str:
        """With the article, for a side as the subject of a Spanish sentence."""
        return self("the_side", side=text) if self.variant.partnerships else text

    def suit(self, s: Suit) -> str:
        return suit_name(self.lang, s)

    def card_name(self, c: Card) -> str:
        return card_name(self.lang, c)

    def declaration(self, d: Declaration, trump: Suit | None) -> str:
        return declaration_text(self.lang, str(d))

    def trump_line(self, card: Card | None, trump: Suit | None) -> str:
        if card is None:
            return "" if trump is None else self("trump_suit", suit=self.suit(trump))
        return self("trump", card=str(card), name=self.card_name(card), suit=self.suit(card.suit))

    def plays(self, plays: Sequence[tuple[int, Card]]) -> str:
        return ", ".join(f"{self.seat(s)} {c}" for s, c in plays)

    def say(self, ev: Any, deal: Deal) -> str:
        """Any event in words (tute.narration.describe, worded from i18n.EVENTS)."""
        code, params = describe(ev, table=not deal.variant.stock)  # no stock: a table card
        return event_text(self.lang, code, params, seat_name=self.seat, you=self.you)

    def event(self, ev: Any, deal: Deal) -> str | None:
        """One log line for a public event, or None for the events a log leaves out: each
        card played (its trick's line names them), draws, passes and the deal's end."""
        if isinstance(ev, CardPlayed | Drew | Passed | DealEnded):
            return None
        said = self.say(ev, deal)
        if isinstance(ev, TrickTaken):
            # the deal's order of play, not leader + i: subastado's idle dealer plays no card
            order = deal.play_order
            k = order.index(ev.leader)
            plays = list(zip(order[k:] + order[:k], ev.cards, strict=False))
            return self("trick", n=ev.number, plays=self.plays(plays), said=said)
        return said

    def deal_header(self, deal: Deal, k: int) -> list[str]:
        lines = [self("deal_header", k=k, dealer=self.seat(deal.dealer), mano=self.seat(deal.mano))]
        card = deal.trump_card if deal.trump_card is not None else deal.initial_upcard
        line = self.trump_line(card, deal.trump)
        if line:
            lines.append(line)
        return lines

    def result_lines(self, deal: Deal) -> list[str]:
        """How the finished ``deal`` ended (tute.narration.describe_result), as the terminal
        game and the page say it."""
        sides = [deal.side_of(s) for s in range(deal.seats)]
        return [event_text(self.lang, code, params, seat_name=self.seat, you=self.you,
                           side_name=self.side, card=lambda c: self.card_name(parse_card(c)))
                for code, params in describe_result(deal.result(),
                                                    carried=deal.carry is not None,
                                                    seat_sides=sides)]

    def score(self, games: Sequence[int]) -> str:
        if self.variant.partnerships:
            return f"A {games[0]} – B {games[1]}"
        return " – ".join(f"{self.seat(i)} {g}" for i, g in enumerate(games))

    def goal(self, match: Match) -> str:
        return goal_text(self.lang, match.goal_info())

    def match_end(self, match: Match) -> str:
        res = match.result()
        games = list(res.games)
        if res.winner is None:
            return self("match_none", score=self.score(games))
        top = games[res.winner]
        rest = max((g for i, g in enumerate(games) if i != res.winner), default=0)
        return self("match_winner", who=self.side_seats(res.winner, the=True),
                    score=self("score_pair", a=top, b=rest))


def _bot_choice(rng: random.Random, actions: Sequence[Action], *, sings: bool = False) -> Action:
    """A random bot: uniform among the legal actions (``sings``: always declare if it can)."""
    if sings:
        decls = [a for a in actions if isinstance(a, Declaration)]
        if decls:
            return decls[0]  # the engine lists a tute first, then the 40, then 20s
    return actions[randbelow(rng, len(actions))]


# =============================================================================================
# tute replay


def _record_error_text(exc: RecordError) -> str:
    if exc.index is not None:
        return f"first illegal action at index {exc.index}: {exc}"
    return str(exc)


def _rules_note(record: Mapping[str, Any], lang: str) -> str | None:
    """The line that tells which rules of its day an older record is replayed with."""
    rules = earlier_rules(record)
    if not rules:
        return None
    named = ", ".join(f"{k}={v}" for k, v in rules.items())
    return _tr(lang, "record_rules", version=record.get("version"), rules=named)


@_command("replay")
def replay_command(
    file: Annotated[str, typer.Argument(help="Record file (JSON), or - for stdin.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v",
                                          help="Print the play trick by trick.")] = False,
    lang: Annotated[Lang, typer.Option(help="Language of the text output.")] = Lang.es,
) -> None:
    """Validate a game record (a deal or a match) and print its result.

    A bad record prints the index of the first illegal action and why, and exits with 2. A
    record holds at most 16 MB and JSON nested at most 32 levels deep.
    """
    try:
        data = _read_record(file)
        kind = data.get("kind", "deal")
        game: Deal | Match = (Match.from_record(data) if kind == "match"
                              else Deal.from_record(data))
    except RecordError as exc:
        if as_json:
            typer.echo(json.dumps({"valid": False, "index": exc.index, "field": exc.field,
                                   "error": _one_line(str(exc))}, ensure_ascii=False))
        _fail(_record_error_text(exc))
    deals = game.deals if isinstance(game, Match) else [game]
    if as_json:
        out: dict[str, Any] = {"valid": True, "kind": "match" if isinstance(game, Match)
                               else "deal", "variant": deals[0].variant.id,
                               "over": game.is_over(), "earlier_rules": earlier_rules(data)}
        out["result"] = game.result().to_json() if game.is_over() else None
        if isinstance(game, Match):
            out["deals"] = [d.result().to_json() if d.is_over() else None for d in deals]
        if verbose:
            out["tricks"] = [[{"number": t.number, "leader": t.leader, "winner": t.winner,
                               "points": t.points, "cards": [str(c) for c in t.cards]}
                              for t in d.tricks] for d in deals]
        typer.echo(json.dumps(out, ensure_ascii=False))
        return
    w = _Words(lang.value, deals[0].variant)
    if isinstance(game, Match):
        typer.echo(w("record_ok", what=w("record_match", variant=game.variant.id,
                                         deals=len(deals))))
    else:
        typer.echo(w("record_ok", what=w("record_deal", variant=game.variant.id,
                                         dealer=w.seat(game.dealer))))
        trump_line = w.trump_line(game.trump_card or game.initial_upcard, game.trump)
        if trump_line and not verbose:
            typer.echo(trump_line)
    if note := _rules_note(data, lang.value):
        typer.echo(note)
    for k, deal in enumerate(deals, 1):
        if verbose or len(deals) > 1:
            for line in w.deal_header(deal, k):
                typer.echo(line)
        if verbose:
            for ev in deal.events:
                said = w.event(ev, deal)
                if said:
                    typer.echo("  " + said)
        if deal.is_over():
            for line in w.result_lines(deal):
                typer.echo(line)
        else:
            typer.echo(w("record_unfinished", who=w.seat(deal.to_move or 0),
                         n=len(deal.actions)))
    if isinstance(game, Match):
        if game.is_over():
            typer.echo(w.match_end(game))
        else:
            typer.echo(w("score", score=w.score(game.games), goal=w.goal(game)))


# =============================================================================================
# tute deal / tute variants


def _parse_options(pairs: Sequence[str] | None) -> dict[str, Any]:
    """``--option k=v``: the value is JSON when it parses (101, true, {...}), else a string."""
    out: dict[str, Any] = {}
    for pair in pairs or []:
        name, sep, text = pair.partition("=")
        name = name.strip()
        if not sep or not name:
            _bad(f"invalid --option {_q(pair)}: expected NAME=VALUE, e.g. two_games_threshold=101")
        try:
            out[name] = _loads(text)
        except InputError:  # not JSON (or nested too deep): validation names the option
            out[name] = text
    return out


OptionList = Annotated[list[str] | None, typer.Option(
    "--option", "-o", help="Option flag NAME=VALUE (repeatable); see `tute variants --options`.")]


@_command("deal")
def deal_command(
    variant: Annotated[str, typer.Option("--variant", help="Variant id or alias.")] = (
        "tute_parejas"),
    seed: Annotated[int | None, typer.Option(help="Deal seed (default: a fresh one).")] = None,
    dealer: Annotated[int | None, typer.Option(help="Dealer seat (default: from the seed).")
                      ] = None,
    option: OptionList = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    lang: Annotated[Lang, typer.Option(help="Language of the text output.")] = Lang.es,
) -> None:
    """Show a dealt deal: every hand, the dealer, mano and the trump card (writes nothing)."""
    deal = Deal.new(find_variant(variant), seed=seed if seed is not None else new_seed(),
                    dealer=dealer, options=_parse_options(option))
    var = deal.variant
    if as_json:
        typer.echo(json.dumps({
            "variant": var.id, "seed": deal.seed, "dealer": deal.dealer, "mano": deal.mano,
            "trump": None if deal.trump is None else deal.trump.letter,
            "trump_card": None if deal.trump_card is None else str(deal.trump_card),
            "upcard": None if deal.initial_upcard is None else str(deal.initial_upcard),
            "stock_count": deal.stock_count,
            "table_card": None if deal.view(0).table_card is None
            else str(deal.view(0).table_card),
            "exchanges": [[st, str(g), str(tk)] for st, g, tk in deal.exchanges],
            "hands": [h.to_list() for h in deal.hands],
            "options": {k: v.to_json() if isinstance(v, MatchSpec) else v
                        for k, v in _changed_options(deal.options, var).items()},
        }, ensure_ascii=False))
        return
    w = _Words(lang.value, var)
    typer.echo(w("deal_title", variant=var.name, seed=deal.seed))
    typer.echo(w("deal_dealer", dealer=w.seat(deal.dealer), mano=w.seat(deal.mano)))
    trump_line = w.trump_line(deal.trump_card or deal.initial_upcard, deal.trump)
    if trump_line:
        typer.echo(trump_line)
    if var.stock:
        typer.echo(w("deal_stock", n=deal.stock_count))
    for st, given, taken in deal.exchanges:  # arrastrado's compulsory exchanges
        typer.echo(w("deal_exchange", who=w.seat(st), given=str(given), taken=str(taken)))
    table = deal.view(0).table_card
    if table is not None:
        typer.echo(w("deal_table", card=str(table)))
    for s, hand in enumerate(deal.hands):
        who = w.seat(s) + (f" ({'AB'[s % 2]})" if var.partnerships else "")
        typer.echo(w("deal_hand", who=who, cards=str(hand)))


def _changed_options(opts: Options, var: Variant) -> dict[str, Any]:
    return {name: getattr(opts, name) for name in var.option_names
            if getattr(opts, name) != getattr(var.defaults, name)}


def _json_value(value: Any) -> Any:
    return value.to_json() if isinstance(value, MatchSpec) else value


def _option_range(spec: OptionSpec) -> dict[str, Any]:
    """``range``: [lo, hi] of an integer option; {"deals": [..], "games": [..]} of a match."""
    ranges = spec.ranges()
    if spec.kind == "match":
        return {"range": {k.partition(".")[2]: list(r) for k, r in ranges.items()}}
    return {"range": list(ranges[spec.name])} if ranges else {}


@_command("variants")
def variants_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON (options included).")
                       ] = False,
    options: Annotated[bool, typer.Option("--options", help="List every option of each variant "
                                          "with its domain and default.")] = False,
) -> None:
    """List the variants: id, names, aliases, summary (and options)."""
    if as_json:
        typer.echo(json.dumps([{
            "id": v.id, "name": v.name, "english": v.english, "aliases": list(v.aliases),
            "players": v.players, "partnerships": v.partnerships,
            "summary": v.summary,
            "options": {name: {"domain": v.spec(name).describe(),
                               "default": _json_value(getattr(v.defaults, name)),
                               "doc": v.spec(name).doc,
                               **_option_range(v.spec(name))}
                        for name in v.option_names},
        } for v in VARIANTS.values()], ensure_ascii=False))
        return
    for v in VARIANTS.values():
        typer.echo(f"{v.id}  {v.name} / {v.english}")
        typer.echo(f"    {v.summary}")
        typer.echo(f"    aliases: {', '.join(v.aliases) or '-'}")
        if options:
            for name in v.option_names:
                spec = v.spec(name)
                default = json.dumps(_json_value(getattr(v.defaults, name)), ensure_ascii=False)
                typer.echo(f"      {name} = {default}   ({spec.describe()})  {spec.doc}")


# =============================================================================================
# tute selfplay


@_command("selfplay")
def selfplay_command(
    variant: Annotated[str, typer.Option("--variant", help="Variant id or alias.")] = (
        "tute_parejas"),
    deals: Annotated[int, typer.Option("--deals", min=1, max=1_000_000,
                                       help="Number of deals.")] = 100,
    seed: Annotated[int, typer.Option(min=0, help="Seed of the bots and of the deals.")] = 0,
    option: OptionList = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON object.")] = False,
    bots: Annotated[str | None, typer.Option(
        help="Two line-ups to compare, e.g. 'rules,random' (a line-up may give one bot per "
        "seat: 'rules+random').")] = None,
    duplicate: Annotated[bool, typer.Option(
        "--duplicate", help="With --bots: play every deal again with the sides swapped.")
    ] = False,
    move_time: MoveTime = None,
) -> None:
    """Bots play N deals (deal k is shuffled from derive_seed(seed, k)) and the results are
    aggregated. Without --bots, uniform random bots; with --bots A,B two line-ups are compared
    (mean point margin and win rate with 95% confidence intervals)."""
    var = find_variant(variant)
    opts = var.resolve(_parse_options(option))
    if bots is not None:
        lineups = [b.strip() for b in bots.split(",") if b.strip()]
        if len(lineups) != 2:
            _bad(f"invalid --bots {_q(bots)}: expected two line-ups such as 'rules,random'")
        lineups = ["+".join(_with_move_time(b, move_time) for b in lu.split("+"))
                   for lu in lineups]
        _selfplay_lineups(var, opts, lineups, deals, seed, duplicate, as_json)
        return
    if move_time is not None:
        _bad("--move-time needs --bots with a search bot (pimc, ismcts)")
    rng = random.Random(seed)
    sides = var.sides(opts)
    wins = [0] * sides
    games = [0] * sides
    totals = [0] * sides
    undecided = tutes = void = made = failed = 0
    losses: list[int] | None = None
    balances: list[int] | None = None
    start = time.perf_counter()
    for k in range(deals):
        deal = Deal.new(var, seed=derive_seed(seed, k), options=opts)
        while not deal.is_over():
            acts = deal.legal_actions()  # bots see only the legal actions of the seat to move
            deal.apply(acts[randbelow(rng, len(acts))])
        res = deal.result()
        for i in range(sides):
            games[i] += res.games[i]
            totals[i] += res.totals[i]
        if res.winner is None:
            undecided += 1
        else:
            wins[res.winner] += 1
        tutes += res.reason == "tute"
        void += bool(getattr(res, "void", None))
        if getattr(res, "made", None) is not None:
            made += res.made is True
            failed += res.made is False
        if res.losses is not None:
            losses = [a + b for a, b in zip(losses or [0] * sides, res.losses, strict=True)]
        if res.balances is not None:
            balances = [a + b for a, b in zip(balances or [0] * sides, res.balances,
                                              strict=True)]
    elapsed = time.perf_counter() - start
    names = ["A", "B"] if var.partnerships else [f"seat{i}" for i in range(sides)]
    out = {
        "variant": var.id, "deals": deals, "seed": seed,
        "options": {k: _json_value(v) for k, v in _changed_options(opts, var).items()},
        "wins": dict(zip(names, wins, strict=True)),
        "undecided": undecided,
        "games": dict(zip(names, games, strict=True)),
        "mean_totals": {n: round(t / deals, 2) for n, t in zip(names, totals, strict=True)},
        "tute_endings": tutes,
        "void_deals": void,
        "seconds": round(elapsed, 4),
        "deals_per_second": round(deals / elapsed, 1) if elapsed > 0 else None,
    }
    if losses is not None:
        out["losses"] = dict(zip(names, losses, strict=True))
    if balances is not None:
        out["balances"] = dict(zip(names, balances, strict=True))
    if made or failed:
        out["contracts"] = {"made": made, "failed": failed}
    if as_json:
        typer.echo(json.dumps(out, ensure_ascii=False))
        return

    def row(label: str, values: Any) -> str:
        return f"{label:<15}" + "  ".join(f"{k} {v}" for k, v in values.items())

    typer.echo(f"selfplay {var.id}: {deals} deals, seed {seed}, uniform random bots")
    typer.echo(row("deals won", out["wins"]) + f"  (no winner, replay or vueltas: {undecided})")
    typer.echo(row("games", out["games"]))
    typer.echo(row("mean totals", out["mean_totals"]))
    for key, label in (("losses", "lost games"), ("balances", "balances"),
                       ("contracts", "contracts")):
        if key in out:
            typer.echo(row(label, out[key]))
    typer.echo(f"{'ended by tute':<15}{tutes}")
    if void:
        typer.echo(f"{'void deals':<15}{void}")
    typer.echo(f"{'speed':<15}{out['deals_per_second']} deals/s ({elapsed:.3f} s)")


MoveTime = Annotated[float | None, typer.Option(
    "--move-time", min=0.001, max=60.0,
    help="Seconds per move for the search bots (pimc, ismcts) that do not set their own.")]


def _with_move_time(spec: str, move_time: float | None) -> str:
    """``pimc`` -> ``pimc:move_time=0.1`` for the search bots, unless the spec sets it."""
    from .bots import BOTS, parse_spec

    name, settings = parse_spec(spec.strip())
    info = BOTS.get(name.strip().lower())
    heavy = info is not None and getattr(info.factory, "heavy", False)
    if move_time is None or not heavy or "move_time" in settings:
        return spec.strip()
    return f"{spec.strip()}:move_time={move_time:g}"


def _progress_bar(show: bool) -> Callable[[int, int], None]:
    start = time.perf_counter()

    def progress(done: int, total: int) -> None:
        if show:
            width = 30
            filled = width * done // max(total, 1)
            spent = time.perf_counter() - start
            eta = spent * (total - done) / done if done else 0.0
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}"
                             f"  {spent:.0f} s, ~{eta:.0f} s left ")
            sys.stderr.flush()
    return progress


def _selfplay_lineups(var: Variant, opts: Options, lineups: list[str], deals: int, seed: int,
                      duplicate: bool, as_json: bool) -> None:
    from .arena import selfplay

    show = not as_json and sys.stderr.isatty()
    res = selfplay(lineups, var.id, deals=deals, seed=seed, duplicate=duplicate, options=opts,
                   progress=_progress_bar(show))
    if show:
        sys.stderr.write("\n")
    if as_json:
        typer.echo(json.dumps(res.to_json(), ensure_ascii=False))
        return
    typer.echo(f"selfplay {var.id}: {lineups[0]} vs {lineups[1]}, {deals} deals, seed {seed}"
               + (", duplicate" if duplicate else ""))
    rows = res.rows()
    width = max(len(label) for label, _ in rows)
    for label, value in rows:
        typer.echo(f"{label:<{width}}  {value}")


@_command("arena")
def arena_command(
    bots: Annotated[str, typer.Argument(
        help="Two or more bots, comma-separated, with settings after colons: "
        "'pimc:move_time=0.5,rules,random'.")],
    variant: Annotated[str, typer.Option("--variant", help="Variant id or alias.")] = (
        "tute_parejas"),
    deals: Annotated[int, typer.Option("--deals", min=1, max=100_000,
                                       help="Duplicate deals per pair.")] = 100,
    seed: Annotated[int, typer.Option(min=0, help="Seed of the deals and the bots.")] = 0,
    option: OptionList = None,
    gauntlet: Annotated[bool, typer.Option(
        "--gauntlet", help="The first bot against each other one (default: every pair).")
    ] = False,
    jobs: Annotated[int, typer.Option(
        "--jobs", min=1, max=64,
        help="Split the deals over this many processes (or Ray CPUs).")] = 1,
    backend: Annotated[str, typer.Option(
        "--backend", help="Where the jobs run: processes, or ray (a local Ray, or the "
        "cluster at --address).")] = "processes",
    address: Annotated[str | None, typer.Option(
        "--address", help="The Ray cluster to use with --backend ray (e.g. "
        "ray://host:10001).")] = None,
    dd_loss: Annotated[bool, typer.Option(
        "--dd-loss", help="Also measure each bot's double-dummy loss per decision (slow).")
    ] = False,
    move_time: MoveTime = None,
    plot: Annotated[Path | None, typer.Option(
        "--plot", help="Write the ratings with their intervals to this file (.svg or .png).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON object.")] = False,
) -> None:
    """A round robin (or gauntlet) of bots on duplicate deals: each pair's mean margin and win
    rate with 95% intervals, and Elo ratings (Bradley–Terry) with intervals for all."""
    from .arena import BACKENDS, ratings_png, ratings_svg, tournament

    var = find_variant(variant)
    opts = var.resolve(_parse_options(option))
    names = [_with_move_time(b, move_time) for b in bots.split(",") if b.strip()]
    if plot is not None and plot.suffix.lower() not in (".svg", ".png"):
        _bad(f"invalid --plot {_q(str(plot))}: the ratings are drawn as SVG or PNG (name it "
             ".svg or .png)")
    if plot is not None and plot.suffix.lower() == ".png":
        try:
            import PIL  # noqa: F401
        except ImportError:
            _bad("a PNG --plot needs Pillow: pip install 'tute[plot]' (or name it .svg)")
    if backend not in BACKENDS:
        _bad(f"invalid --backend {_q(backend)}: expected one of {', '.join(BACKENDS)}")
    if address is not None and backend != "ray":
        _bad("--address is for --backend ray")
    if backend == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            _bad("--backend ray needs Ray: pip install 'tute[cluster]'")
    if dd_loss:
        try:
            import tute.solver  # noqa: F401
        except ImportError:
            _bad("--dd-loss needs the solver: pip install 'tute[solver]'")
    if plot is not None:
        _check_writable(plot, "--plot")  # before the games: an hour's arena is not lost
    show = not as_json and sys.stderr.isatty()
    try:
        res = tournament(names, var.id, deals=deals, seed=seed, options=opts,
                         mode="gauntlet" if gauntlet else "round_robin", jobs=jobs,
                         dd_loss=dd_loss, progress=_progress_bar(show), backend=backend,
                         address=address)
    except ValueError as exc:
        _bad(str(exc))
    if show:
        sys.stderr.write("\n")
    # the results first, the plot after: a plot that cannot be written loses no figure
    if as_json:
        typer.echo(json.dumps(res.to_json(), ensure_ascii=False))
    else:
        _print_arena(res, var.id, names, deals, seed, dd_loss)
    if plot is not None:
        try:
            if plot.suffix.lower() == ".png":
                plot.write_bytes(ratings_png(res))
            else:
                plot.write_text(ratings_svg(res), encoding="utf-8")
        except OSError as exc:
            _bad(f"cannot write --plot {_q(str(plot))}: {exc.strerror}")


@_command("regress")
def regress_command(
    files: Annotated[list[Path] | None, typer.Argument(
        help="Regression sets (JSON lines: `tute reports export`); default: the set shipped "
        "with tute.")] = None,
    bot: Annotated[str, typer.Option(
        "--bot", help="The bot or level to check, with its settings: 'medio', "
        "'pimc:move_time=0.5'.")] = "medio",
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Replay reported bot blunders against a bot: each position rebuilt from its record,
    the bot asked from that seat's view alone. Exits 1 when the bot repeats an open report's
    blunder (or misses a decided report's expected action); docs/reports.md."""
    from .bots import make_bot
    from .regressions import SHIPPED, format_outcomes, load_set, run

    make_bot(bot)  # a bad name or setting: one line, exit 2, before any work
    regs = [r for f in (files or [SHIPPED]) for r in load_set(f)]
    ids = [r.id for r in regs]
    if len(set(ids)) != len(ids):
        _bad(f"the report {next(i for i in ids if ids.count(i) > 1)!r} is in two sets")
    outcomes = run(regs, bot)
    failed = sum(o.fails for o in outcomes)
    if as_json:
        typer.echo(json.dumps({"bot": bot, "reports": len(regs), "failed": failed,
                               "outcomes": [o.to_json() for o in outcomes]}))
    else:
        for line in format_outcomes(regs, outcomes, bot):
            typer.echo(line)
    if failed:
        raise typer.Exit(1)


def _check_writable(path: Path, flag: str) -> None:
    """Exit 2 naming ``flag`` unless ``path`` can be written (a file made only to check is
    removed again)."""
    existed = path.exists()
    try:
        with path.open("ab"):
            pass
    except OSError as exc:
        _bad(f"cannot write {flag} {_q(str(path))}: {exc.strerror}")
    if not existed:
        path.unlink(missing_ok=True)


def _print_arena(res: Any, variant: str, names: list[str], deals: int, seed: int,
                 dd_loss: bool) -> None:
    typer.echo(f"arena {variant}: {', '.join(names)}; {deals} duplicate deals per pair, "
               f"seed {seed}")
    width = max(len(n) for n in names)
    typer.echo(f"{'bot':<{width}}  {'Elo [95% CI]':>20}"
               + ("  dd loss/decision  (with a choice)" if dd_loss else ""))
    for r in sorted(res.ratings.values(), key=lambda r: -r.elo):
        line = f"{r.name:<{width}}  {r!s:>20}"
        if dd_loss and r.name in res.dd_loss:
            line += (f"  {res.dd_loss[r.name]:>17.2f}  "
                     f"{res.dd_loss_choices.get(r.name, math.nan):>15.2f}")
        typer.echo(line)
    typer.echo("")
    for p in res.pairs:
        a, b = p.lineups
        wr = p.win_rate
        typer.echo(f"{a} vs {b}: margin {p.margin} per duplicate pair, A wins "
                   f"{100 * wr.mean:.1f}% [{100 * wr.low:.1f}%, {100 * wr.high:.1f}%]")


# =============================================================================================
# tute serve, tute solve


@_command("serve")
def serve_command(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8000,
    data_dir: Annotated[Path, typer.Option(
        "--data-dir", help="Where the SQLite database lives (created if missing); "
        "TUTE_DATABASE_URL=postgresql://user:pw@host/db uses PostgreSQL instead.")] = Path(
        "data"),
    bot_timeout: Annotated[float, typer.Option(
        min=0.0, help="Seconds before an absent player's seat is played by a bot.")] = 60.0,
    waiting_ttl: Annotated[float, typer.Option(
        min=0.0, help="Seconds before a table still waiting for players, with nobody "
        "connected, expires (0: never).")] = 24 * 3600.0,
    abandon_after: Annotated[float, typer.Option(
        min=0.0, help="Seconds before a started table whose human players have all left is "
        "stopped and stored as abandoned: its bots stop, it is not restored at startup "
        "(0: never).")] = 30 * 60.0,
    analysis_worlds: Annotated[int, typer.Option(
        min=0, max=10_000, help="Worlds a decision for the search measure of finished games' "
        "analyses (0: the double-dummy measure only).")] = 32,
    analysis_game_seconds: Annotated[float, typer.Option(
        min=1.0, help="At most this many seconds of search a game; the decisions not reached "
        "keep the double-dummy measure alone.")] = 600.0,
    redis: Annotated[str | None, typer.Option(
        "--redis", help="Redis URL (else env TUTE_REDIS_URL): this process is one of several "
        "serving one site on the same PostgreSQL TUTE_DATABASE_URL (docs/cluster.md).")
    ] = None,
    insecure_cookies: Annotated[bool, typer.Option(
        "--insecure-cookies", help="Send the account session cookie over plain http too, for "
        "a server on a local network without https (else env TUTE_INSECURE_COOKIES=1; "
        "without either, accounts work over https or on localhost only).")] = False,
) -> None:
    """Start the game server: the lobby and tables in the browser, SQLite by default
    (TUTE_DATABASE_URL selects another database; with TUTE_REDIS_URL, several processes serve
    one site)."""
    from .server import run as run_server
    from .server.analyses import SearchBudget

    try:
        budget = SearchBudget(worlds=analysis_worlds, game_seconds=analysis_game_seconds)
    except ValueError as exc:
        _bad(str(exc))
    run_server(host, port, str(data_dir), bot_timeout=bot_timeout, waiting_ttl=waiting_ttl,
               abandon_after=abandon_after, analysis_budget=budget, redis_url=redis,
               insecure_cookies=insecure_cookies or None)


@_command("solve")
def solve_command(
    record: Annotated[Path | None, typer.Argument(
        help="A game record (it may stop mid-deal; at most 16 MB, - for stdin): solve the "
        "position after its actions.")
    ] = None,
    variant: Annotated[str | None, typer.Option(
        "--variant", help="With --seeds: the variant of the seeded deals.")] = None,
    seeds: Annotated[str | None, typer.Option(
        help="Solve seeded deals from the first lead, e.g. 1-200.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    tt_mb: Annotated[int, typer.Option("--tt-mb", min=1, max=4096,
                                       help="Transposition table size in MB.")] = 64,
    threads: Annotated[int | None, typer.Option(
        "--threads", min=1, max=8,
        help="Threads per search (default: 2 where two cores are free, else 1).")] = None,
) -> None:
    """Exact double-dummy values: the best play and its point margin for side 0."""
    try:
        from .solver import cli_support as cs
    except ImportError:
        _bad("the solver needs numba: pip install 'tute[solver]'")
    _preparing("en", screen_only=True)
    if record is not None:
        res = cs.solve_record(_read_record(str(record)), tt_mb=tt_mb, threads=threads)
        typer.echo(json.dumps(res) if as_json else cs.format_analysis(res))
        return
    if not variant or not seeds:
        _bad("give RECORD.json, or --variant V --seeds A-B")
    rows = []
    for row in cs.solve_seeds(variant, cs.parse_seeds(seeds), tt_mb=tt_mb,
                              threads=threads):
        rows.append(row)
        typer.echo(json.dumps(row))
    typer.echo(json.dumps({"summary": cs.summarize(rows)}))


@_command("analyze")
def analyze_command(
    file: Annotated[str, typer.Argument(
        help="A deal or match record (it may stop mid-deal; at most 16 MB, - for stdin).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    worlds: Annotated[int, typer.Option(
        min=0, max=10_000, help="Worlds sampled per decision by the search measure (0: the "
        "double-dummy measure only).")] = 32,
    seed: Annotated[int, typer.Option(min=0, help="Seed of the sampled worlds.")] = 0,
    move_time: Annotated[float | None, typer.Option(
        "--move-time", min=0.001, max=600.0,
        help="Cap the search to this many seconds a decision (the figures then depend on "
        "the machine; default: no cap, reproducible).")] = None,
    stock_limit: Annotated[int, typer.Option(
        "--stock-limit", min=0, max=28,
        help="The stock games: the double-dummy measure solves the stock phase's decisions "
        "with at most this many cards in the stock, its order known (each two more cards "
        "take about ten times longer; 0: from the arrastre on).")] = 4,
) -> None:
    """What every decision cost: the action taken against the best one by a search from the
    seat's own view (pimc, a fixed number of worlds and a seed) and by the exact solver with
    every hand known, with points lost, accuracy and the costliest decisions per seat.

    A bad record prints what is wrong and exits with 2 (as tute replay); the methods are in
    docs/analysis.md."""
    from .analysis import analyze_deals, deals_of_record, format_analysis

    try:
        record = _read_record(file)
        kind, deals = deals_of_record(record)
    except RecordError as exc:
        if as_json:
            typer.echo(json.dumps({"valid": False, "index": exc.index, "field": exc.field,
                                   "error": _one_line(str(exc))}, ensure_ascii=False))
        _fail(_record_error_text(exc))
    show = sys.stderr.isatty()
    bar = _progress_bar(show)
    _preparing("en", screen_only=True)
    report = analyze_deals(deals, kind=kind, worlds=worlds, seed=seed, move_time=move_time,
                           progress=bar, stock_limit=stock_limit)
    if show:
        sys.stderr.write("\r" + " " * 70 + "\r")
        sys.stderr.flush()
    if as_json:
        typer.echo(json.dumps(report.to_json() | {"earlier_rules": earlier_rules(record)},
                              ensure_ascii=False))
        return
    if note := _rules_note(record, "en"):  # the analysis is worded in English
        typer.echo(note)
    for line in format_analysis(report):
        typer.echo(line)


# =============================================================================================
# tute demo


@_command("demo")
def demo_command(
    seed: Annotated[int | None, typer.Option(min=0, help="Match seed (default: a fresh one).")
                    ] = None,
    delay: Annotated[float, typer.Option(min=0.0, help="Pause in seconds after each trick.")
                     ] = 0.0,
    lang: Annotated[Lang, typer.Option(help="Language of the log.")] = Lang.es,
) -> None:
    """A whole match of Tute por parejas between random bots, told trick by trick."""
    if seed is None:
        seed = new_seed()
    match = Match.new("tute_parejas", seed=seed)
    w = _Words(lang.value, match.variant)
    rng = random.Random(seed)
    typer.echo(w("demo_title", seed=seed))
    typer.echo(w("demo_sides", a=w.side_seats(0), b=w.side_seats(1)) + " · "
               + w("goal", goal=w.goal(match)))
    while True:
        deal = match.deal
        typer.echo("")
        for line in w.deal_header(deal, len(match.deals)):
            typer.echo(line)
        seen = 0
        while not deal.is_over():
            seat = deal.to_move
            assert seat is not None
            view = deal.view(seat)  # a bot sees what its seat may know, and nothing else
            match.apply(_bot_choice(rng, view.legal_actions, sings=True))
            events = deal.events
            for ev in events[seen:]:
                said = w.event(ev, deal)
                if said:
                    typer.echo("  " + said)
                    if delay and isinstance(ev, TrickTaken):
                        time.sleep(delay)
            seen = len(events)
        for line in w.result_lines(deal):
            typer.echo(line)
        typer.echo(w("score", score=w.score(match.games), goal=w.goal(match)))
        if match.is_over():
            break
    typer.echo("")
    typer.echo(w.match_end(match))


# =============================================================================================
# tute play


class _Quit(Exception):
    pass


def _ask(prompt: str) -> str:
    """One typed command, read with a bound (a command is a few characters; a longer line is
    cut to its first _COMMAND_MAX bytes, and endless input such as /dev/zero ends the game)."""
    typer.echo(prompt, nl=False)
    stdin = _stdin()
    try:
        raw = stdin.readline(_COMMAND_MAX + 1)
        if len(raw) > _COMMAND_MAX and not raw.endswith(b"\n") and not _skip_line(stdin):
            raise _Quit
    except KeyboardInterrupt:
        raise _Quit from None
    if not raw:
        raise _Quit  # end of input
    return raw[:_COMMAND_MAX].decode("utf-8", "replace")


@_command("play")
def play_command(
    variant: Annotated[str | None, typer.Option(
        "--variant", help="Variant id or alias (default: choose on the setup screen).")] = None,
    option: OptionList = None,
    opponents: Annotated[str | None, typer.Option(
        help="Bots or levels for the other seats, e.g. 'rules' or 'medio,facil,rules'.")
    ] = None,
    seed: Annotated[int | None, typer.Option(min=0, help="Match seed (default: a fresh one).")
                    ] = None,
    lang: Annotated[Lang, typer.Option(help="Language: es (Spanish) or en (English).")
                    ] = Lang.es,
    record: Annotated[Path | None, typer.Option(
        "--record", help="Replay this game record step by step.")] = None,
    load: Annotated[Path | None, typer.Option(help="Resume the match saved in this file.")
                    ] = None,
    save: Annotated[Path | None, typer.Option(
        help="Where 'g' saves the match (default tute-<variant>-<seed>.json).")] = None,
    plain: Annotated[bool, typer.Option(
        "--plain", help="Line-by-line game without the full-screen interface (any game; "
        "random bots unless --opponents).")] = False,
    seat: Annotated[int, typer.Option(min=0, max=3, help="--plain: your seat (0-3); your "
                                      "partner sits opposite.")] = 0,
) -> None:
    """Play Tute in the terminal against bots: a full-screen table (Textual), Spanish by
    default; or --plain for a line-by-line game."""
    if record is not None:  # the screen reads them itself: bounded and checked first
        _read_record(str(record))
    saved = None if load is None else _read_record(str(load))
    if variant is not None:
        find_variant(variant)  # a bad name: exit 2, naming the valid ones
    options = _parse_options(option) or None
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        plain = True  # no terminal to draw on (a pipe, a test): the line-by-line game
    if not plain:
        from .extras import missing_extra

        if missing := missing_extra("textual", "tui", "the full-screen game"):
            _bad(missing.removeprefix("tute: ") + " (or play line by line: tute play --plain)")
        from .tui import TuiCrash
        from .tui import run as run_tui

        try:
            run_tui(variant=variant, options=options, opponents=opponents, lang=lang.value,
                    seed=seed, record_path=save, replay=record, load=load)
        except TuiCrash as exc:  # a bug inside the app: one line and a failing status
            _fail(str(exc), code=1)
        return
    if record is not None:
        _plain_replay(str(record), lang.value)
        return
    match, seat, names = _plain_match(variant, options, seed, saved, seat, opponents)
    w = _Words(lang.value, match.variant, you=seat)
    rng = random.Random(match.seed)
    target = save or Path(f"tute-{match.variant.id}-{match.seed}.json")
    _plain_intro(match, w, seat, load, saved)
    try:
        _play_loop(match, w, rng, seat, bots=_plain_bots(match, seat, names),
                   save=lambda: _plain_save(match, seat, names, target, w.lang))
    except _Quit:
        typer.echo("")
        typer.echo(w("quit"))
        return
    typer.echo("")
    typer.echo(_plain_end(match, w))


# The line-by-line game speaks through _Words where the CLI has words (Tute por parejas) and
# through the terminal game's session helpers (tute.tui.session, words in tute.i18n) for the
# goals and scores of the other games.


def _plain_match(variant: str | None, options: Mapping[str, Any] | None, seed: int | None,
                 rec: Mapping[str, Any] | None, seat: int, opponents: str | None,
                 ) -> tuple[Match, int, list[str] | None]:
    """The match of the line-by-line game: a new one, or the saved one ``rec`` (with its
    seat and bots when a terminal game saved it)."""
    if rec is not None:
        match = Match.from_record(rec)
        tui = rec.get("tui")
        saved: dict[str, Any] = tui if isinstance(tui, dict) else {}
        human = saved.get("human", seat)
        if isinstance(human, int) and not isinstance(human, bool):
            seat = human
        bots = saved.get("opponents")
        if opponents is None and isinstance(bots, list) and bots:
            opponents = ",".join(str(b) for b in bots)
    else:
        match = Match.new(variant or "tute_parejas", seed=new_seed() if seed is None else seed,
                          options=options)
    n = match.deal.seats
    if not 0 <= seat < n:
        _bad(f"invalid --seat {seat}: {match.variant.id} is played at seats 0-{n - 1}")
    if opponents is None:
        return match, seat, None
    from .tui.session import opponent_names

    return match, seat, opponent_names(opponents, n)


def _plain_bots(match: Match, you: int, names: Sequence[str] | None) -> dict[int, Any] | None:
    """``--opponents``: one bot per other seat, in playing order after yours (None: the
    random bots of the line-by-line game)."""
    if names is None:
        return None
    from .bots import make_bot

    n = match.deal.seats
    seats = [(you + k) % n for k in range(1, n)]
    return {s: make_bot(name, seed=derive_seed(match.seed, 5_000_000 + s))
            for s, name in zip(seats, names, strict=True)}


def _plain_goal(match: Match, w: _Words) -> str:
    from .tui.session import goal_of

    own = w.goal(match)  # the CLI's own words where it has them, else the engine's translated
    return own if own != match.goal() else goal_of(match).text(w.lang)


def _plain_intro(match: Match, w: _Words, seat: int, load: Path | None,
                 saved: Mapping[str, Any] | None) -> None:
    var = match.variant
    if var.partnerships:
        typer.echo(w("play_title", game=game_name(w.lang, var),
                     seed=match.seed, you=w.seat(seat), seat=w("seat", n=seat),
                     partner=w.seat((seat + 2) % 4)))
    else:
        typer.echo(_tr(w.lang, "plain_title", game=game_name(w.lang, var),
                      seed=match.seed, you=w.seat(seat), seat=w("seat", n=seat)))
    if load is not None:
        typer.echo(_tr(w.lang, "plain_loaded", path=str(load), k=len(match.deals)))
        if saved is not None and (note := _rules_note(saved, w.lang)):
            typer.echo(note)
    typer.echo(w("goal", goal=_plain_goal(match, w)))


def _tr(lang: str, key: str, **kw: Any) -> str:

    return tr(lang, key, **kw)


def _plain_score(match: Match, w: _Words) -> str:
    """The score after a deal, in what the game counts (games, cotos, lost games, balance)."""
    from .tui.session import goal_of, tally_text

    goal = goal_of(match)
    if goal.tally == "games":
        return w("score", score=w.score(match.games), goal=_plain_goal(match, w))
    names = [w.side(i) for i in range(len(match.games))]
    return f"{tally_text(w.lang, match, names, goal)} ({_plain_goal(match, w)})"


def _plain_end(match: Match, w: _Words) -> str:
    from .tui.session import goal_of, tally_text

    goal = goal_of(match)
    if goal.tally == "games":
        return w.match_end(match)
    res = match.result()
    names = [w.side(i) for i in range(len(match.games))]
    who = (_tr(w.lang, "match_winner", who=names[res.winner]) if res.winner is not None
           else _tr(w.lang, "match_none"))
    return f"{who} · {tally_text(w.lang, match, names, goal)}"


def _plain_save(match: Match, seat: int, names: Sequence[str] | None, target: Path,
                lang: str) -> str:
    """``g``: the match record, with the seat and bots for --load (as the terminal game)."""
    rec = match.to_record()
    rec["tui"] = {"human": seat, "opponents": list(names or [])}
    try:
        target.write_text(json.dumps(rec, ensure_ascii=False, indent=1), encoding="utf-8")
    except OSError as exc:
        return _tr(lang, "save_failed", why=exc.strerror or str(exc))
    return _tr(lang, "saved", path=str(target))


def _plain_replay(path: str, lang: str) -> None:
    """``--record`` without the full screen: one step per line typed (Enter forward, ``-``
    back, ``q`` quit; the end of input stops), every hand shown as in the replay viewer."""
    from .tui.session import Replay

    replay = Replay(_read_record(path), lang=lang, source=path)
    for line in replay.lines():
        typer.echo(line)
    try:
        while replay.step < replay.total:
            key = _ask(_tr(lang, "plain_replay_prompt")).strip().lower()
            if key in ("q", "quit", "salir", "exit"):
                break
            if key == "-":
                replay.back()
            else:
                replay.forward()
            typer.echo("")
            for line in replay.lines():
                typer.echo(line)
    except _Quit:  # the end of input
        pass


def _play_loop(match: Match, w: _Words, rng: random.Random, you: int, *,
               bots: Mapping[int, Any] | None = None,
               save: Callable[[], str] | None = None) -> None:
    deal_index = -1
    seen = 0
    while not match.is_over():
        if len(match.deals) - 1 != deal_index:
            deal_index = len(match.deals) - 1
            seen = 0
            typer.echo("")
            for line in w.deal_header(match.deal, len(match.deals)):
                typer.echo(line)
        deal = match.deal
        mover = deal.to_move
        assert mover is not None
        view = deal.view(mover)
        if mover == you:
            action = _human_turn(w, view, deal, save=save)
        elif bots is not None:
            action = bots[mover].choose(view, view.legal_actions)
        else:
            action = _bot_choice(rng, view.legal_actions, sings=True)
        match.apply(action)
        events = deal.events_for(you)  # the player is told what its seat is told
        for ev in events[seen:]:
            if isinstance(ev, CardPlayed) and ev.seat != you:
                typer.echo(w.say(ev, deal))
            said = w.event(ev, deal)
            if said:
                typer.echo(said)
        seen = len(events)
        if deal.is_over():
            for line in w.result_lines(deal):
                typer.echo(line)
            typer.echo(_plain_score(match, w))
            _plain_review(deal, w)


def _preparing(lang: str, *, screen_only: bool = False) -> None:
    """Before the exact solver's first use in this process, say on stderr that it is being
    prepared: numba compiles it, half a minute on a fresh install, with nothing else shown
    (``screen_only``: for a person at a terminal; a script reading stderr gets errors only)."""
    from .hints import analyser_ready

    if screen_only and not sys.stderr.isatty():
        return
    if not analyser_ready():
        typer.echo(_tr(lang, "solver_preparing"), err=True)


def _plain_review(deal: Deal, w: _Words) -> None:
    """After a deal: the three costliest decisions of each side, all hands open."""
    from .tui.session import deal_review

    _preparing(w.lang)
    typer.echo("")
    for line in deal_review(deal, w.lang, w.side, w.seat):
        typer.echo(line)


def _human_turn(w: _Words, view: SeatView, deal: Deal, *,
                save: Callable[[], str] | None = None) -> Action:
    """Show the human's own view and read an action until it is legal (``g`` saves the match
    through ``save``; in an auction a number is a bid)."""
    hand = list(view.hand)
    legal = list(view.legal_actions)
    typer.echo("")
    if view.trick:
        typer.echo(w("table", plays=w.plays(view.trick)))
    elif any(isinstance(a, Card) for a in legal):
        typer.echo(w("you_lead"))
    pts = " · ".join(f"{w.side(i)} {p}" for i, p in enumerate(view.card_points))
    table = ("" if view.table_card is None else " · " + _tr(w.lang, "table_card",
                                                              card=str(view.table_card)))
    typer.echo(w.trump_line(view.trump_card, view.trump) + table + " · "
               + w("points", pts=pts))
    typer.echo(w("hand", cards="  ".join(f"{i}) {c}" for i, c in enumerate(hand, 1))))
    cards = [str(a) for a in legal if isinstance(a, Card)]
    decls = [str(a) for a in legal if isinstance(a, Declaration)]
    if cards:
        typer.echo(w("playable", cards=" ".join(cards)))
        if decls:
            typer.echo(w("can_declare", decls=", ".join(decls)))
    else:
        acts = [str(a) for a in legal]
        bids = [a for a in acts if a.startswith("bid:")]
        if len(bids) > 3:  # the auction: every multiple of 5 up to 230 is one range
            acts = [a for a in acts if a not in bids[1:]]
            acts[acts.index(bids[0])] = f"{bids[0]} … {bids[-1]}"
        typer.echo(w("poll", acts=", ".join(acts)))
    while True:
        text = _ask(w("prompt")).strip()
        key = text.lower()
        if not key:
            continue
        if key in ("q", "quit", "salir", "exit"):
            raise _Quit
        if key in ("?", "h", "help", "ayuda"):
            typer.echo(w("help"))
            typer.echo(_tr(w.lang, "plain_help"))
            typer.echo(_tr(w.lang, "plain_hint"))
            continue
        if key in ("!", "pista", "hint"):
            from .tui.session import hint_line

            _preparing(w.lang)
            typer.echo(hint_line(w.lang, view, (deal.seed or 0) * 1009 + len(deal.actions)))
            continue
        if key in ("g", "guardar", "save") and save is not None:
            typer.echo(save())
            continue
        if key.isdigit() and not cards and f"bid:{key}" in {str(a) for a in legal}:
            text = f"bid:{key}"
        elif key.isdigit():
            k = int(key)
            if not 1 <= k <= len(hand):
                typer.echo(w("bad_number", n=k, m=len(hand)))
                continue
            text = str(hand[k - 1])
        try:
            action = parse_action(text)
        except TuteError as exc:
            why = Refusal.of("bad_notation", text=text, detail=str(exc))
            typer.echo(w("illegal", why=refusal_text(w.lang, why, you=view.seat, words=True)))
            continue
        if action in legal:
            return action
        # the engine's reason; it only ever speaks of this seat's own hand and the table
        why = deal.refusal(action) or Refusal.of("not_legal_now")
        typer.echo(w("illegal", why=refusal_text(w.lang, why, you=view.seat, words=True)))


app.add_typer(puzzles_app, name="puzzles")
app.add_typer(reports_app, name="reports")


# =============================================================================================
# entry point


def main(argv: Sequence[str] | None = None) -> None:
    """The console script ``tute``."""
    try:
        app(args=list(argv) if argv is not None else None, prog_name="tute")
    except BrokenPipeError:  # `tute ... | head`: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(1)


if __name__ == "__main__":
    main()
