"""The table logic of the terminal game, free of any widget: one human seat, bots in the
others, a :class:`~tute.match.Match`, and everything the screen shows as plain strings.

Keeping this apart from Textual lets the tests and other front ends (the ``--plain`` game)
drive it directly. Every game is described from the engine's public data — ``match.goal()``,
``deal.result()``, the seat's view — so a new game needs words, not new branches here.

Keys at the table: cards by their number (``1``–``9``, ``0`` the tenth; with more than ten
cards ``1`` waits for a second digit: ``1 2`` is the twelfth, ``1 Enter`` the first); other
actions by the letter on their button, ``p`` always passing; a long list (the subastado's
bids) comes in pages turned with ``<``/``>`` or PageUp/PageDown.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..actions import (
    Action,
    Bid,
    ChooseTrump,
    Claim,
    Discard,
    Exchange,
    Pass,
    Stop,
    TakeOver,
    ThrowIn,
)
from ..bots import Bot, make_bot
from ..cards import Card, parse_card
from ..deal import Deal, DealResult, SeatView
from ..errors import TuteError
from ..events import (
    CardPlayed,
    DealEnded,
    Drew,
    Passed,
)
from ..i18n import GOAL_PHRASES, card_name, event_text, game_name, refusal_text, suit_name, tr
from ..match import Match
from ..messages import Refusal
from ..narration import describe, describe_result
from ..rules import Declaration
from ..shuffle import derive_seed
from ..variants import Variant

__all__ = ["ACTION_KEYS", "PAGE_KEYS", "Goal", "Outcome", "Replay", "Session", "SheetRow",
           "action_label", "card_key", "deal_review", "goal_of", "hint_line", "opponent_names",
           "tally_text"]

#: Letters given, page by page, to the non-card actions (pass is always ``p``). The other
#: letters are the table's commands: a anotador, g save, h help, q quit, u previous trick
#: (and ``!`` asks for a hint).
ACTION_KEYS = "bcdefijklmnorstvwxyz"
#: Keys that turn the page of a long action list: back, forward.
PAGE_KEYS = (("<", "less_than_sign", "pageup", "comma"),
             (">", "greater_than_sign", "pagedown", "full_stop"))
_BOT_SEED_INDEX = 5_000_000
_HINT_SEED_INDEX = 6_000_000


@dataclass(frozen=True)
class Outcome:
    """What became of a key or a click: an action applied, or a message why not."""

    applied: Action | None = None
    message: str = ""


@dataclass(frozen=True)
class Goal:
    """The match's goal (``match.goal()``) read for the screen.

    ``tally`` says what the score sheet counts: ``games``, ``cotos`` (games are partidas
    inside cotos), ``losses`` or ``balance``; ``deals`` is the fixed number of deals, if any.
    """

    key: str
    params: Mapping[str, int]
    tally: str
    deals: int | None
    english: str

    def text(self, lang: str) -> str:
        return self.english if not self.key else tr(lang, self.key, **self.params)


# What the score sheet counts for each kind of goal (Match.goal_info), and the kinds played
# over a fixed number of deals.
_TALLY = {"cotos": "cotos", "losses": "losses", "balance": "balance", "balance_deals": "balance"}
_FIXED_DEALS = ("series", "balance_deals")


def goal_of(match: Match) -> Goal:
    """The goal of ``match`` as words and as what the score sheet counts (from the engine's
    data, never from its English words)."""
    info = match.goal_info()
    key, names = GOAL_PHRASES[info["kind"]]
    params = {k: int(info[v]) for k, v in names.items()}
    fixed = int(info["n"]) if info["kind"] in _FIXED_DEALS else None
    return Goal(key, params, _TALLY.get(info["kind"], "games"), fixed, match.goal())


@dataclass(frozen=True)
class SheetRow:
    """One deal on the score sheet: its number, each side's points, what it gave, and each
    side's running tally after it (games, partidas, lost games or balance)."""

    label: str
    points: tuple[str, ...]
    note: str
    tally: tuple[str, ...]


@dataclass(frozen=True)
class _Snapshot:
    index: int  # the deal's position in match.deals
    result: DealResult
    games: tuple[int, ...]
    cotos: tuple[int, ...]
    losses: tuple[int, ...]
    balances: tuple[int, ...]


def _snapshot(match: Match, index: int) -> _Snapshot:
    return _Snapshot(index, match.deals[index].result(), tuple(match.games), tuple(match.cotos),
                     tuple(match.losses), tuple(match.balances))


def _history(match: Match) -> list[_Snapshot]:
    """The tallies after every finished deal of ``match``, by playing its actions again on a
    fresh match (a loaded match knows its deals, not the score after each)."""
    fresh = Match.new(match.variant, seed=match.seed, options=match.options,
                      first_dealer=match.first_dealer)
    out: list[_Snapshot] = []
    for k, deal in enumerate(match.deals):
        for _ in range(match.misdeals_before[k]):
            fresh.misdeal()
        for action in deal.actions:
            fresh.apply(action)
        if fresh.deals[k].is_over():
            out.append(_snapshot(fresh, k))
    return out


def opponent_names(opponents: str | Sequence[str] | None, seats: int) -> list[str]:
    """One bot name per non-human seat: a list, a comma-separated string, or one name for all
    (default ``medio``). Raises :class:`TuteError` naming a bad count or bot."""
    if opponents is None:
        names = ["medio"]
    elif isinstance(opponents, str):
        names = [p.strip() for p in opponents.split(",") if p.strip()]
    else:
        names = [str(p).strip() for p in opponents]
    if len(names) == 1:
        names = names * (seats - 1)
    if len(names) != seats - 1:
        raise TuteError(f"invalid opponents {opponents!r}: expected 1 or {seats - 1} bot names "
                        "(seats after yours, in playing order)")
    for name in names:
        make_bot(name)  # raises with the list of valid bots and levels
    return names


def action_label(lang: str, action: Action, trump: Any = None) -> str:
    if isinstance(action, Pass):
        return tr(lang, "pass")
    if isinstance(action, Exchange):
        return tr(lang, "cambio", card=str(action.card))
    if isinstance(action, Declaration):
        return tr(lang, "cantar", what=declaration_name(lang, action))
    if isinstance(action, Bid):
        return tr(lang, "bid", points=action.points)
    if isinstance(action, ChooseTrump):
        return tr(lang, "trump_choice", suit=suit_name(lang, action.suit))
    if isinstance(action, Discard):
        return tr(lang, "discard", card=str(action.card))
    for kind, key in ((TakeOver, "takeover"), (ThrowIn, "throw"), (Claim, "claim"),
                      (Stop, "stop")):
        if isinstance(action, kind):
            return tr(lang, key)
    return str(action)  # a kind of action this screen does not know yet: its notation


def declaration_name(lang: str, d: Declaration) -> str:
    if d.kind == "veinte":  # no suit: another seat's 20 whose suit is not told
        if d.suit is None:
            return tr(lang, "veinte_hidden")
        return tr(lang, "veinte", suit=suit_name(lang, d.suit))
    return tr(lang, d.kind)


def card_key(i: int, n: int) -> str:
    """What to type for the ``i``-th card (1-based) of a hand of ``n``: one digit up to ten
    cards (``0`` the tenth), the card's number beyond."""
    return str(i % 10) if n <= 10 else str(i)


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n).replace("-", "−")


def tally_text(lang: str, match: Match, names: Sequence[str], goal: Goal | None = None) -> str:
    """The match score in what its game counts: games, partidas and cotos, lost games or the
    balance, each side called by ``names``."""
    kind = (goal or goal_of(match)).tally
    if kind == "losses":
        return tr(lang, "score_losses", score=" · ".join(
            f"{names[i]} {n}" for i, n in enumerate(match.losses)))
    if kind == "balance":
        return tr(lang, "score_balance", score=" · ".join(
            f"{names[i]} {_signed(b)}" for i, b in enumerate(match.balances)))
    score = " · ".join(f"{names[i]} {g}" for i, g in enumerate(match.games))
    if kind == "cotos":
        return tr(lang, "score_cotos", score=score, cotos="–".join(str(c) for c in match.cotos))
    return tr(lang, "score", score=score)


class Session:
    """A match with a human at ``human`` and bots at every other seat."""

    def __init__(self, match: Match, bots: Mapping[int, Bot], *, human: int = 0,
                 lang: str = "es", save_path: str | Path | None = None,
                 opponents: Sequence[str] = (), history: Sequence[_Snapshot] | None = None):
        self.match = match
        self.bots = dict(bots)
        self.human = human
        self.lang = lang
        self.opponents = list(opponents)
        self.save_path = Path(save_path) if save_path else Path(
            f"tute-{match.variant.id}-{match.seed}.json")
        self.log: list[str] = []
        self.summary: list[str] | None = None  # shown between deals until acknowledged
        self.finished: Deal | None = None  # the deal the summary is about
        self.show_previous = False
        self.page = 0  # the page of a long action list
        self.pending: int | None = None  # the first digit of a two-digit card number
        self.typed = ""  # the digits of a bid typed at an auction (70, then Enter)
        self.confirm: Bid | None = None  # a bid over the lowest one, asked to be confirmed
        self._letters: dict[str, str] = {}  # an action on show -> its key, kept while shown
        self.history: list[_Snapshot] = list(history) if history is not None else (
            _history(match) if any(d.is_over() for d in match.deals) else [])
        self.goal = goal_of(match)
        self._seen = 0
        self._reviews: dict[int, list[str]] = {}  # id of a finished deal -> its review
        self._review_solver: Any = None
        if match.deals and not match.is_over():
            self._collect(match.deal)  # what happened before the first action (arrastrado)

    # ---------------------------------------------------------------- construction

    @classmethod
    def new(cls, variant: str | Variant, *, options: Mapping[str, Any] | None = None,
            opponents: str | Sequence[str] | None = None, seed: int | None = None,
            lang: str = "es", save_path: str | Path | None = None) -> Session:
        match = Match.new(variant, seed=seed, options=options)
        return cls.for_match(match, opponents, lang=lang, save_path=save_path)

    @classmethod
    def for_match(cls, match: Match, opponents: str | Sequence[str] | None, *,
                  lang: str = "es", save_path: str | Path | None = None) -> Session:
        n = match.deal.seats
        names = opponent_names(opponents, n)
        bots = {s: make_bot(names[s - 1], seed=derive_seed(match.seed, _BOT_SEED_INDEX + s))
                for s in range(1, n)}
        return cls(match, bots, lang=lang, save_path=save_path, opponents=names)

    @classmethod
    def load(cls, path: str | Path, *, lang: str = "es",
             opponents: str | Sequence[str] | None = None) -> Session:
        """Resume a match saved with :meth:`save` (or any match record)."""
        from ..records import earlier_rules, load_record

        rec = load_record(path)
        match = Match.from_record(rec)
        saved = rec.get("tui", {}).get("opponents") if isinstance(rec.get("tui"), dict) else None
        session = cls.for_match(match, opponents or saved, lang=lang, save_path=path)
        if rules := earlier_rules(rec):  # told once the game shows, in its log
            session.log.append(session.t(
                "record_rules", version=rec.get("version"),
                rules=", ".join(f"{k}={v}" for k, v in rules.items())))
        return session

    # ---------------------------------------------------------------- words

    def t(self, key: str, **kw: Any) -> str:
        return tr(self.lang, key, **kw)

    def seat_name(self, seat: int) -> str:
        if seat == self.human:
            return self.t("you")
        name = self.t("seat", n=seat)
        if self.match.variant.partnerships:
            rel = "partner" if (seat - self.human) % 2 == 0 else "opponent"
            return f"{name} ({self.t(rel)})"
        return name

    def side_name(self, side: int) -> str:
        if self.match.variant.partnerships:
            name = self.t("side_a" if side == 0 else "side_b")
            return f"{name} {self.t('you_side')}" if side == self.human % 2 else name
        return self.seat_name(side)

    def short_name(self, side: int) -> str:
        """A side in a column of the score sheet: A, B, or the seat."""
        if self.match.variant.partnerships:
            return self.t("side_a_short" if side == 0 else "side_b_short")
        return self.seat_name(side)

    def goal_text(self) -> str:
        return self.goal.text(self.lang)

    def score_text(self) -> str:
        """The match score in what this game counts (games, partidas and cotos, lost games or
        the balance)."""
        names = [self.side_name(i) for i in range(len(self.match.games))]
        return tally_text(self.lang, self.match, names, self.goal)

    def deal_number(self, index: int) -> int:
        """The number of the deal at ``index`` of ``match.deals``: where the goal fixes the
        number of deals, replayed and thrown-in deals do not count."""
        if self.goal.deals is None:
            return index + 1
        return 1 + sum(1 for d in self.match.deals[:index]
                       if d.is_over() and not _uncounted(d.result()))

    def deal_label(self, index: int | None = None) -> str:
        """"Mano 3 de 6" when the goal fixes the number of deals, else "Mano 3"."""
        if index is None:
            index = next(i for i, d in enumerate(self.match.deals) if d is self.shown_deal)
        k, total = self.deal_number(index), self.goal.deals
        if total is None:
            return self.t("deal_no", k=k)
        return self.t("deal_of", k=k, n=total) if k <= total else self.t("deal_extra", k=k)

    # ---------------------------------------------------------------- state

    @property
    def deal(self) -> Deal:
        return self.match.deal

    @property
    def shown_deal(self) -> Deal:
        """The deal on the table: the finished one while its summary is up, not the next."""
        return self.finished if self.finished is not None else self.match.deal

    def view(self) -> SeatView:
        return self.shown_deal.view(self.human)

    def over(self) -> bool:
        return self.match.is_over() and self.summary is None

    def human_to_move(self) -> bool:
        return self.summary is None and not self.match.is_over() and (
            self.match.to_move == self.human)

    def hand(self) -> list[Card]:
        """The human's hand sorted by suit, strongest first in the variant's order."""
        strength = self.match.variant.order.strength
        return sorted(self.view().hand, key=lambda c: (c.suit, -strength[c.index]))

    def legal(self) -> list[Action]:
        return self.match.legal_actions() if self.human_to_move() else []

    def playable_cards(self) -> set[Card]:
        """Cards a card key or click can play now: legal cards, or the widow discards."""
        out: set[Card] = set()
        for a in self.legal():
            if isinstance(a, Card):
                out.add(a)
            elif isinstance(a, Discard):
                out.add(a.card)
        return out

    def _card_action(self, card: Card) -> Action:
        """A card chosen from the hand: a discard when discarding is what is on offer."""
        discard = Discard(card)
        return discard if discard in self.legal() and card not in self.legal() else card

    def _paged_actions(self) -> list[Action]:
        # discards are chosen from the hand, like cards; pass has its own key
        return [a for a in self.legal()
                if not isinstance(a, (Card, Pass, Discard))]

    def pages(self) -> int:
        return max(1, -(-len(self._paged_actions()) // len(ACTION_KEYS)))

    def action_keys(self) -> list[tuple[str, Action]]:
        """The non-card actions on this page, each with its key (pass first, always ``p``)."""
        out: list[tuple[str, Action]] = [("p", a) for a in self.legal() if isinstance(a, Pass)]
        size = len(ACTION_KEYS)
        page = min(self.page, self.pages() - 1)
        shown = self._paged_actions()[page * size:(page + 1) * size]
        # an action keeps its letter while it is on show (another one going away, a cante
        # sung, moves no key under the player's finger); a new one takes the first free letter
        names = [str(a) for a in shown]
        kept = {a: k for a, k in self._letters.items() if a in names}
        free = [k for k in ACTION_KEYS if k not in kept.values()]
        for a in names:
            if a not in kept:
                kept[a] = free.pop(0)
        self._letters = kept
        out.extend((kept[str(a)], a) for a in shown)
        return out

    def page_text(self) -> str:
        """"Bids 1–20 of 36 · < > more" when the list has pages, else ""."""
        n = len(self._paged_actions())
        if self.pages() == 1:
            return ""
        size = len(ACTION_KEYS)
        page = min(self.page, self.pages() - 1)
        return self.t("page", a=page * size + 1, b=min(n, (page + 1) * size), n=n,
                      p=page + 1, pages=self.pages())

    # ---------------------------------------------------------------- input

    def press(self, key: str) -> Outcome:
        """A key pressed at the table: a card number, an action letter, a page key or
        Enter."""
        if not self.human_to_move():
            self.pending = None
            return Outcome(message=self.t("wait", who=self.seat_name(self.match.to_move or 0)))
        confirm, self.confirm = self.confirm, None
        if confirm is not None:  # Enter bids it; any other key lets it go
            self.typed = ""
            return self.play(confirm) if key == "enter" else Outcome(
                message=self.t("bid_cancelled"))
        bids = [a for a in self.legal() if isinstance(a, Bid)]
        if bids and (said := self._bid_key(key, bids)) is not None:
            return said
        hand = self.hand()
        pending, self.pending = self.pending, None
        if key.isdigit() and len(key) == 1:
            d = int(key)
            if pending is not None:  # the second digit of a card number
                return self._nth_card(pending * 10 + d, hand)
            if len(hand) > 10 and d and 10 * d <= len(hand):  # the 1st or the 1x-th: wait
                self.pending = d
                return Outcome(message=self.t("card_pending", d=d, hi=min(len(hand), 10 * d + 9)))
            return self._nth_card(d or 10, hand)
        if key == "enter" and pending is not None:
            return self._nth_card(pending, hand)
        for step, keys in ((-1, PAGE_KEYS[0]), (1, PAGE_KEYS[1])):
            if key in keys:
                if self.pages() == 1:
                    return Outcome(message=self.t("no_pages"))
                self.page = (min(self.page, self.pages() - 1) + step) % self.pages()
                return Outcome()  # the page line above the buttons says where we are
        for k, action in self.action_keys():
            if k == key:
                return self._bid(action, bids) if isinstance(action, Bid) else self.play(action)
        if key == "enter":
            legal = self.legal()
            if len(legal) == 1:
                return self.play(legal[0])
            return Outcome(message=self.t("choose"))
        return Outcome(message=self.t("unknown_key", name=key))

    def _bid_key(self, key: str, bids: list[Bid]) -> Outcome | None:
        """At an auction a bid is typed as its number: digits, Backspace, then Enter (None: the
        key is not part of a number)."""
        if key.isdigit() and len(key) == 1:
            self.typed = (self.typed + key)[-3:]  # no bid has more than three digits
            return Outcome(message=self.t("bid_typed", points=int(self.typed)))
        if key == "backspace" and self.typed:
            self.typed = self.typed[:-1]
            return Outcome(message=self.t("bid_typed", points=int(self.typed))
                           if self.typed else "")
        if key == "enter" and self.typed:
            points, self.typed = int(self.typed), ""
            return self._bid(Bid(points), bids)
        self.typed = ""
        return None

    def _bid(self, bid: Bid, bids: list[Bid]) -> Outcome:
        """A bid chosen by key: the lowest one on offer is made at once; a higher one is
        asked again first (a letter or a number mistyped must not promise 160)."""
        lowest = min(b.points for b in bids)
        if bid.points == lowest or bid not in bids:  # a refused bid is told why, unchanged
            return self.play(bid)
        self.confirm = bid
        return Outcome(message=self.t("bid_confirm", points=bid.points, minimum=lowest))

    def _nth_card(self, n: int, hand: Sequence[Card]) -> Outcome:
        if not 1 <= n <= len(hand):
            return Outcome(message=self.t("no_card_n", n=n, m=len(hand)))
        return self.play(self._card_action(hand[n - 1]))

    def click_card(self, card: Card) -> Outcome:
        """A card of the hand clicked: played, or discarded when that is what is on offer."""
        self.pending = None
        return self.play(self._card_action(card) if self.human_to_move() else card)

    def play(self, action: Action | str) -> Outcome:
        """Apply the human's action, or say (in the UI language) why it is refused."""
        if not self.human_to_move():
            return Outcome(message=self.t("wait", who=self.seat_name(self.match.to_move or 0)))
        why = self.deal.refusal(action)
        if why is not None:
            return Outcome(message=self.t("illegal", why=self._reason(why)))
        try:
            applied = self._apply(action)
        except TuteError as exc:  # the engine refused after all: say why, change nothing
            refusal = getattr(exc, "refusal", None)
            text = str(exc) if refusal is None else self._reason(refusal)
            return Outcome(message=self.t("illegal", why=text))
        return Outcome(applied=applied)

    def _reason(self, why: Refusal) -> str:
        return refusal_text(self.lang, why, you=self.human, words=True)

    def bot_step(self) -> Action | None:
        """Let the bot to move act once; None when it is the human's turn or all is over."""
        if self.summary is not None or self.match.is_over():
            return None
        seat = self.match.to_move
        if seat is None or seat == self.human:
            return None
        view = self.deal.view(seat)  # the bot gets its own view only
        return self._apply(self.bots[seat].choose(view, view.legal_actions))

    def _apply(self, action: Action | str) -> Action:
        deal = self.deal
        index = len(self.match.deals) - 1
        applied = self.match.apply(action)
        self.page = 0
        self.pending = None
        self.typed, self.confirm = "", None
        self._collect(deal)
        if deal.is_over():
            self.history.append(_snapshot(self.match, index))
            self.finished = deal
            self.summary = self._summary(deal, index)
            self._seen = 0
            if not self.match.is_over():
                self.log.append(self.t("new_deal", k=self.deal_number(len(self.match.deals) - 1)))
                self._collect(self.match.deal)
        return applied

    def hint_job(self) -> str | Callable[[], str]:
        """"¿Qué jugarías?" (the key ``!``): a message when it is not the human's turn, else
        a function that computes the hint line -- the search bot's choice from the human's own
        view, with its reason (up to a few seconds: run it off the screen's thread). The view
        and the seed are taken now, so the function reads nothing that play changes."""
        if self.summary is not None or not self.human_to_move():
            return self.t("hint_turn")
        view = self.view()
        moves = sum(len(d.actions) for d in self.match.deals)
        seed = derive_seed(self.match.seed, _HINT_SEED_INDEX + moves)
        return lambda: hint_line(self.lang, view, seed)

    def review(self, deal: Deal) -> list[str]:
        """The end-of-deal review of a finished deal: the three costliest decisions of each
        side by the double-dummy measure (computed once; a second or so: off the screen's
        thread)."""
        key = id(deal)
        if key not in self._reviews:
            if self._review_solver is None:
                try:
                    from ..solver import Solver
                except ImportError:  # numba missing: the review says it is not covered
                    pass
                else:
                    self._review_solver = Solver(tt_mb=32, threads=1)
            try:
                lines = deal_review(deal, self.lang, self.side_name, self.seat_name,
                                    self._review_solver)
            except Exception as exc:  # a review must never end the game: say why instead
                lines = [self.t("review_failed", why=" ".join(str(exc).split()))]
            self._reviews[key] = lines
        return self._reviews[key]

    def reviewed(self, deal: Deal) -> list[str] | None:
        """The review of ``deal`` if it has been computed."""
        return self._reviews.get(id(deal))

    def acknowledge(self) -> None:
        """The human has read the deal summary (after the last one, :meth:`over` is true)."""
        self.summary = None
        self.finished = None

    def _collect(self, deal: Deal) -> None:
        events = deal.events_for(self.human)
        table = deal.view(self.human).table_card is not None
        for i, ev in enumerate(events[self._seen:], self._seen):
            before_play = not any(isinstance(e, CardPlayed) for e in events[:i])
            line = self._event_line(ev, before_play=before_play, table=table)
            if line:
                self.log.append(line)
        self._seen = len(events)
        del self.log[:-200]

    def _event_line(self, ev: Any, *, before_play: bool = False,
                    table: bool = False) -> str | None:
        if isinstance(ev, Drew | DealEnded):
            return None  # draws and the deal's end have lines of their own on this screen
        if isinstance(ev, Passed) and not before_play:
            return None  # in the auction a pass is news; later passes are not worth a line
        code, params = describe(ev, table=table)
        return event_text(self.lang, code, params, seat_name=self.seat_name, you=self.human)

    # ---------------------------------------------------------------- what the screen shows

    def info_lines(self) -> list[str]:
        v = self.view()
        var = self.match.variant
        dealer = self.t("dealer", who=self.seat_name(v.dealer))
        lines = [f"{game_name(self.lang, var)} · {self.deal_label()}"
                 f" · {dealer}"]
        if v.trump is None:
            trump = self.t("no_trump")
        elif v.trump_card is not None:
            trump = self.t("trump", suit=suit_name(self.lang, v.trump), card=str(v.trump_card))
        else:
            trump = self.t("trump_plain", suit=suit_name(self.lang, v.trump))
        parts = [trump]
        if v.table_card is not None:
            parts.append(self.t("table_card", card=str(v.table_card)))
        if var.stock:
            stock = self.t("stock", n=v.stock_count)
            if v.upcard is not None:
                stock += f" ({self.t('upcard', card=str(v.upcard))})"
            parts.append(stock)
        if v.contract is not None:
            who, bid, taken = v.contract
            parts.append(self.t("contract", who=self.seat_name(who), bid=bid)
                         + (self.t("contract_taken") if taken else ""))
        elif v.auction is not None and v.result is None:
            high, bidder = v.auction
            parts.append(self.t("auction_bid", who=self.seat_name(bidder), points=high)
                         if bidder >= 0 else self.t("auction_none"))
        if v.carry is not None:
            parts.append(self.t("carry", pts=" · ".join(
                f"{self.short_name(i)} {c}" for i, c in enumerate(v.carry))))
        lines.append(" · ".join(parts))
        lines.append(self.score_text() + " · " + self.t("goal", goal=self.goal_text()))
        return lines

    def table_lines(self) -> list[str]:
        v = self.view()
        lines: list[str] = []
        if v.trick:
            lines.append(self.t("trick") + ":")
            lines.extend(f"  {self.seat_name(s)}: {c}" for s, c in v.trick)
        elif v.tricks:
            last = v.tricks[-1]
            lines.append(self.t("last_trick", who=self.seat_name(last.winner), p=last.points)
                         + ":")
            lines.extend(f"  {self.seat_name(s)}: {c}" for s, c in last.plays())
        else:
            lines.append(self.t("trick_empty"))
        if v.exchanges and not v.tricks:  # the compulsory exchanges, until the first trick
            lines.append(self.t("exchanges_line", list=", ".join(
                f"{self.seat_name(s)} {g}→{tk}" for s, g, tk in v.exchanges)))
        if self.show_previous:
            lines.append(self.previous_trick())
        pts = " · ".join(f"{self.side_name(i)} {p}" for i, p in enumerate(v.card_points))
        lines.append(self.t("points", pts=pts))
        if v.cantes:
            lines.append(self.t("cantes", list=", ".join(
                f"{self.seat_name(s)} {declaration_name(self.lang, d)}" for s, d, _p in v.cantes)))
        if self.match.is_over() or self.finished is not None:
            pass
        elif self.human_to_move():
            lines.append(self.t("your_lead") if not v.trick and any(
                isinstance(a, Card) for a in self.legal()) else self.t("your_turn"))
        else:
            if v.result is None and v.hand_sizes[self.human] == 0:  # the idle dealer
                lines.append(self.t("sitting_out"))
            lines.append(self.t("turn_of", who=self.seat_name(self.match.to_move or 0)))
        return lines

    def previous_trick(self) -> str:
        tricks = self.view().tricks
        if len(tricks) < (1 if self.view().trick else 2):
            return self.t("no_previous")
        rec = tricks[-1] if self.view().trick else tricks[-2]
        plays = ", ".join(f"{self.seat_name(s)} {c}" for s, c in rec.plays())
        return self.t("previous_trick", n=rec.number, plays=plays,
                      who=self.seat_name(rec.winner), p=rec.points)

    def _summary(self, deal: Deal, index: int) -> list[str]:
        lines = [self.t("deal_over", k=self.deal_number(index))]
        lines += deal_end_lines(self.lang, deal, self.seat_name, self.side_name)
        lines.append(self.score_text())
        if self.match.is_over():
            mres = self.match.result()
            lines.append("")
            lines.append(self.t("match_over"))
            lines.append(self.t("match_winner", who=self.side_name(mres.winner))
                         if mres.winner is not None else self.t("match_none"))
        return lines

    # ---------------------------------------------------------------- the score sheet

    def sheet(self) -> tuple[list[str], list[str], list[SheetRow]]:
        """The anotador: heading lines, column names, and one row per finished deal."""
        m = self.match
        sides = len(m.games)
        head = [self.t("sheet_title", game=game_name(self.lang, m.variant)),
                self.t("goal", goal=self.goal_text())]
        if m.is_over():
            res = m.result()
            head.append(self.t("match_winner", who=self.side_name(res.winner))
                        if res.winner is not None else self.t("match_none"))
        else:
            head.append(self.t("sheet_now", deal=self.deal_label(len(m.deals) - 1)))
        names = [self.short_name(i) for i in range(sides)]
        columns = [self.t("sheet_deal"), *names, self.t("sheet_note"),
                   *(f"Σ {n}" for n in names)]
        rows = [self._sheet_row(h) for h in self.history]
        return head, columns, rows

    def _sheet_row(self, h: _Snapshot) -> SheetRow:
        deal = self.match.deals[h.index]
        res = h.result
        label = str(self.deal_number(h.index))
        sides = len(res.totals)
        if res.void is not None:
            points = ("",) * sides
            note = self.t("note_void")
        else:
            running = res.running if deal.carry is not None else None
            points = tuple(str(t) if running is None else f"{t} ({running[i]})"
                           for i, t in enumerate(res.totals))
            note = self._note(deal, res)
        kind = self.goal.tally
        if kind == "losses":
            tally = tuple(str(n) for n in h.losses)
        elif kind == "balance":
            tally = tuple(_signed(b) for b in h.balances)
        elif kind == "cotos":
            tally = tuple(self.t("tally_cotos", g=g, c=c) for g, c in zip(h.games, h.cotos,
                                                                        strict=True))
        else:
            tally = tuple(str(g) for g in h.games)
        return SheetRow(label, points, note, tally)

    def _note(self, deal: Deal, res: DealResult) -> str:
        """The sheet's short word on a deal."""
        if res.replay:
            return self.t("note_replay")
        if res.vueltas:
            return self.t("note_vueltas")
        bits: list[str] = []
        if res.contract is not None:
            who, bid, _trump, _taken = res.contract
            bits.append(self.t("note_contract", who=self.short_name(deal.side_of(who)), bid=bid,
                               verdict=self.t("made" if res.made else "failed")))
        elif res.losses is not None:
            losers = [self.short_name(i) for i, n in enumerate(res.losses) if n]
            bits.append(self.t("note_lose", who=", ".join(losers)))
        elif res.winner is not None:
            g = res.games[res.winner]
            bits.append(self.t("note_win", who=self.short_name(res.winner))
                        + (f" (+{g})" if g > 1 else ""))
        if res.reason == "tute":
            bits.append(self.t("note_tute"))
        return " · ".join(bits)

    def sheet_lines(self) -> list[str]:
        """The anotador as plain lines (the ``--plain`` game and the tests)."""
        head, columns, rows = self.sheet()
        out = list(head)
        if not rows:
            out.append(self.t("sheet_empty"))
        for r in rows:
            pts = " · ".join(f"{columns[1 + i]} {p}" for i, p in enumerate(r.points) if p)
            tally = " · ".join(f"{columns[1 + i]} {t}" for i, t in enumerate(r.tally))
            out.append(" | ".join(x for x in (f"{columns[0]} {r.label}", pts, r.note,
                                              f"Σ {tally}") if x))
        return out

    # ---------------------------------------------------------------- records

    def record(self) -> dict[str, Any]:
        rec = self.match.to_record()
        rec["tui"] = {"human": self.human, "opponents": self.opponents}
        return rec

    def save(self, path: str | Path | None = None) -> str:
        """Write the match record; returns a message for the screen."""
        target = Path(path) if path else self.save_path
        try:
            target.write_text(json.dumps(self.record(), ensure_ascii=False, indent=1),
                              encoding="utf-8")
        except OSError as exc:
            return self.t("save_failed", why=exc.strerror or str(exc))
        return self.t("saved", path=str(target))




def hint_line(lang: str, view: SeatView, seed: int) -> str:
    """The hint for the seat of ``view`` as one line: the action and why (tute.hints)."""
    from ..actions import parse_action
    from ..hints import suggest

    hint = suggest(view, seed)
    label = action_label(lang, parse_action(hint.action), view.trump)
    return tr(lang, "hint_line", action=label, why=hint.text(lang))


def deal_review(deal: Deal, lang: str, side_name: Callable[[int], str],
                seat_name: Callable[[int], str], solver: Any = None) -> list[str]:
    """The three costliest decisions of each side of a finished deal by the double-dummy
    measure (tute.analysis: the exact solver with every hand open), as lines; where the
    solver covers none of the deal's decisions, a line that says so."""
    from ..actions import parse_action
    from ..analysis import costliest, double_dummy

    covered = [d for d in double_dummy(deal, solver) if d.dd_loss is not None]
    lines = [tr(lang, "review_title")]
    if not covered:
        return [*lines, tr(lang, "review_uncovered")]

    def label(text: str | None) -> str:
        return "?" if text is None else action_label(lang, parse_action(text), deal.trump)

    pairs = deal.variant.partnerships
    for side in range(deal.variant.sides(deal.options)):
        worst = costliest([d for d in covered if d.side == side], "dd_loss")
        if not worst:
            lines.append(tr(lang, "review_clean", side=side_name(side)))
            continue
        items = [tr(lang, "review_item", trick=d.trick, played=label(d.played),
                    best=label(d.dd_best), loss=d.dd_loss,
                    who=f"{seat_name(d.seat)} " if pairs else "") for d in worst]
        lines.append(tr(lang, "review_side", side=side_name(side), list="; ".join(items)))
    return lines


def _uncounted(res: DealResult) -> bool:
    """A deal that does not count towards a fixed number of deals: replayed or thrown in."""
    return res.replay or res.void is not None


def deal_end_lines(lang: str, deal: Deal, seat_name: Callable[[int], str],
                   side_name: Callable[[int], str]) -> list[str]:
    """How a finished deal ended (tute.narration.describe_result, worded from the one
    catalogue): the end-of-deal box, the record viewer, the CLI and the page say the same."""
    sides = [deal.side_of(s) for s in range(deal.seats)]
    return [event_text(lang, code, params, seat_name=seat_name, side_name=side_name,
                       card=lambda c: card_name(lang, parse_card(c)))
            for code, params in describe_result(deal.result(), carried=deal.carry is not None,
                                                seat_sides=sides)]


class Replay:
    """A game record (a deal or a match) shown one action at a time."""

    def __init__(self, record: Mapping[str, Any], *, lang: str = "es", source: str = ""):

        self.record = dict(record)
        self.lang = lang
        self.source = source
        self.kind = self.record.get("kind", "deal")
        if self.kind == "match":
            full = Match.from_record(self.record)  # validates the whole record first
            self.sizes = [len(d.actions) for d in full.deals]
            self.variant = full.variant
        else:
            deal = Deal.from_record(self.record)
            self.sizes = [len(deal.actions)]
            self.variant = deal.variant
        self.total = sum(self.sizes)
        self.step = 0

    def deal_at(self, step: int) -> tuple[Deal, int]:
        """The deal being played after ``step`` actions, and its number (1-based)."""

        rec = {k: v for k, v in self.record.items() if k != "result"}
        if self.kind != "match":
            rec["actions"] = list(self.record.get("actions", []))[:step]
            return Deal.from_record(rec), 1
        deals: list[dict[str, Any]] = []
        left = step
        for entry, size in zip(self.record["deals"], self.sizes, strict=True):
            take = min(size, left)
            deals.append({**entry, "actions": list(entry.get("actions", []))[:take]})
            left -= take
            if take < size or not left:  # a deal's last action shows how it ended
                break
        rec["deals"] = deals
        match = Match.from_record(rec)
        return match.deals[len(deals) - 1], len(deals)

    def lines(self) -> list[str]:
        deal, k = self.deal_at(self.step)
        def t(key: str, **kw: Any) -> str:
            return tr(self.lang, key, **kw)

        out = [t("replay_title", path=self.source), t("deal_no", k=k)]
        if deal.trump is not None:
            out.append(t("trump_plain", suit=suit_name(self.lang, deal.trump))
                       + (f" ({deal.trump_card})" if deal.trump_card else ""))
        for s in range(deal.seats):
            mark = " ←" if deal.to_move == s else ""
            out.append(f"{t('seat', n=s)}: {deal.hand(s)}{mark}")
        trick = deal.trick
        if trick:
            out.append(t("trick") + ": " + ", ".join(f"{t('seat', n=s)} {c}" for s, c in trick))
        elif deal.tricks:
            last = deal.tricks[-1]
            out.append(t("last_trick", who=t("seat", n=last.winner), p=last.points) + ": "
                       + ", ".join(f"{t('seat', n=s)} {c}" for s, c in last.plays()))
        if deal.actions:
            out.append(f"→ {deal.actions[-1]}")
        if deal.is_over():  # how it ended: why, who won, the points
            def seat(n: int) -> str:
                return t("seat", n=n)

            def side(i: int) -> str:
                if not deal.variant.partnerships:
                    return seat(i)
                return t("side_a" if i == 0 else "side_b")

            out += deal_end_lines(self.lang, deal, seat, side)
        out.append(t("replay_step", k=self.step, n=self.total))
        if self.step == self.total:
            out.append(t("replay_end"))
        return out

    def forward(self) -> None:
        self.step = min(self.total, self.step + 1)

    def back(self) -> None:
        self.step = max(0, self.step - 1)
