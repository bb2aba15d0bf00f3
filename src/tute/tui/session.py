"""The table logic of the terminal game, free of any widget: one human seat, bots in the
others, a :class:`~tute.match.Match`, and everything the screen shows as plain strings.

Keeping this apart from Textual lets the tests and other front ends drive it directly.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
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
from ..cards import Card
from ..deal import Deal, DealResult, SeatView
from ..errors import TuteError
from ..events import CardPlayed, Declared, Exchanged, TrickTaken
from ..i18n import reason, suit_name, tr
from ..match import Match
from ..rules import Declaration
from ..shuffle import derive_seed
from ..variants import Variant

__all__ = ["ACTION_KEYS", "Outcome", "Replay", "Session", "action_label", "opponent_names"]

#: Keys given, in order, to the non-card actions on offer (pass is always ``p``).
ACTION_KEYS = "abcdefijklmnorstvwxyz"
_BOT_SEED_INDEX = 5_000_000


@dataclass(frozen=True)
class Outcome:
    """What became of a key or a click: an action applied, or a message why not."""

    applied: Action | None = None
    message: str = ""


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
    if d.kind == "veinte" and d.suit is not None:
        return tr(lang, "veinte", suit=suit_name(lang, d.suit))
    return tr(lang, d.kind)


class Session:
    """A match with a human at ``human`` and bots at every other seat."""

    def __init__(self, match: Match, bots: Mapping[int, Bot], *, human: int = 0,
                 lang: str = "es", save_path: str | Path | None = None,
                 opponents: Sequence[str] = ()):
        self.match = match
        self.bots = dict(bots)
        self.human = human
        self.lang = lang
        self.opponents = list(opponents)
        self.save_path = Path(save_path) if save_path else Path(
            f"tute-{match.variant.id}-{match.seed}.json")
        self.log: list[str] = []
        self.summary: list[str] | None = None  # shown between deals until acknowledged
        self.show_previous = False
        self._seen = len(match.deal.events)

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
        from ..records import load_record

        rec = load_record(path)
        match = Match.from_record(rec)
        saved = rec.get("tui", {}).get("opponents") if isinstance(rec.get("tui"), dict) else None
        return cls.for_match(match, opponents or saved, lang=lang, save_path=path)

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

    def goal_text(self) -> str:
        info = self.match.goal_info()
        kind, n = info["kind"], info.get("n")
        es = self.lang == "es"
        if kind == "cotos":
            p, c = info["partidas"], info["cotos"]
            return (f"{p} partidas el coto, {c} cotos la partida" if es
                    else f"{p} partidas a coto, {c} cotos win the match")
        if kind == "series":
            return f"serie de {n} manos" if es else f"series of {n} deals"
        if kind == "losses":
            return (f"hasta perder {n} juegos" if es
                    else f"until someone loses {n} games")
        if kind == "balance":
            return f"saldo a {n}" if es else f"first balance to {n}"
        if kind == "balance_deals":
            return f"{n} manos, gana el mejor saldo" if es else f"{n} deals, best balance wins"
        return f"a {n} juegos" if es else f"first to {n} games"

    def score_text(self) -> str:
        m = self.match
        parts = [f"{self.side_name(i)} {g}" for i, g in enumerate(m.games)]
        text = " · ".join(parts)
        if m.game.keeps_cotos and any(m.cotos):
            text += " · cotos " + "–".join(str(c) for c in m.cotos)
        return text

    # ---------------------------------------------------------------- state

    @property
    def deal(self) -> Deal:
        return self.match.deal

    def view(self) -> SeatView:
        return self.deal.view(self.human)

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

    def action_keys(self) -> list[tuple[str, Action]]:
        """The non-card actions on offer, each with its key."""
        out: list[tuple[str, Action]] = []
        letters = iter(ACTION_KEYS)
        for a in self.legal():
            if isinstance(a, Card):
                continue
            out.append(("p" if isinstance(a, Pass) else next(letters), a))
        return out

    # ---------------------------------------------------------------- input

    def press(self, key: str) -> Outcome:
        """A key pressed at the table: a card number, an action letter or Enter."""
        if not self.human_to_move():
            return Outcome(message=self.t("wait", who=self.seat_name(self.match.to_move or 0)))
        if key.isdigit() and len(key) == 1:
            n = int(key) or 10
            hand = self.hand()
            if n > len(hand):
                return Outcome(message=self.t("no_card_n", n=n, m=len(hand)))
            return self.play(hand[n - 1])
        for k, action in self.action_keys():
            if k == key:
                return self.play(action)
        if key == "enter":
            legal = self.legal()
            if len(legal) == 1:
                return self.play(legal[0])
            return Outcome(message=self.t("choose"))
        return Outcome(message=self.t("unknown_key", name=key))

    def play(self, action: Action | str) -> Outcome:
        """Apply the human's action, or say (in the UI language) why it is refused."""
        if not self.human_to_move():
            return Outcome(message=self.t("wait", who=self.seat_name(self.match.to_move or 0)))
        why = self.deal.why_illegal(action)
        if why is not None:
            return Outcome(message=self.t("illegal", why=self._reason(why)))
        try:
            applied = self._apply(action)
        except TuteError as exc:  # the engine refused after all: say why, change nothing
            return Outcome(message=self.t("illegal", why=self._reason(str(exc))))
        return Outcome(applied=applied)

    def _reason(self, text: str) -> str:
        text = reason(self.lang, text)
        return text.replace(f"en la mano del asiento {self.human}", "en tu mano").replace(
            f"not in seat {self.human}'s hand", "not in your hand")

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
        k = len(self.match.deals)
        applied = self.match.apply(action)
        self._collect(deal)
        if deal.is_over():
            self.summary = self._summary(deal, k)
            self._seen = 0
            if not self.match.is_over():
                self.log.append(self.t("new_deal", k=len(self.match.deals)))
        return applied

    def acknowledge(self) -> None:
        """The human has read the deal summary (after the last one, :meth:`over` is true)."""
        self.summary = None

    def _collect(self, deal: Deal) -> None:
        events = deal.events_for(self.human)
        for ev in events[self._seen:]:
            line = self._event_line(ev)
            if line:
                self.log.append(line)
        self._seen = len(events)
        del self.log[:-200]

    def _event_line(self, ev: Any) -> str | None:
        def say(key: str, seat: int, **kw: Any) -> str:
            if seat == self.human:  # "you" takes its own verb forms
                return self.t(key + "_you", **kw)
            return self.t(key, who=self.seat_name(seat), **kw)

        if isinstance(ev, CardPlayed):
            return say("plays", ev.seat, card=str(ev.card))
        if isinstance(ev, TrickTaken):
            return say("wins_trick", ev.winner, p=ev.points)
        if isinstance(ev, Declared):
            return say("declares", ev.seat, what=declaration_name(self.lang, ev.declaration))
        if isinstance(ev, Exchanged):
            return say("exchanges", ev.seat, given=str(ev.given), taken=str(ev.taken))
        return None  # passes and face-down draws are not worth a line

    # ---------------------------------------------------------------- what the screen shows

    def info_lines(self) -> list[str]:
        v = self.view()
        lines = [f"{self.match.variant.name if self.lang == 'es' else self.match.variant.english}"
                 f" · {self.t('deal_no', k=len(self.match.deals))}"]
        if v.trump is None:
            trump = self.t("no_trump")
        elif v.trump_card is not None:
            trump = self.t("trump", suit=suit_name(self.lang, v.trump), card=str(v.trump_card))
        else:
            trump = self.t("trump_plain", suit=suit_name(self.lang, v.trump))
        parts = [trump]
        if self.match.variant.stock:
            stock = self.t("stock", n=v.stock_count)
            if v.upcard is not None:
                stock += f" ({self.t('upcard', card=str(v.upcard))})"
            parts.append(stock)
        lines.append(" · ".join(parts))
        lines.append(self.t("score", score=self.score_text()) + " · "
                     + self.t("goal", goal=self.goal_text()))
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
            lines.extend(f"  {self.seat_name(s)}: {c}" for s, c in last.plays(v.seats))
        else:
            lines.append(self.t("trick_empty"))
        if self.show_previous:
            lines.append(self.previous_trick())
        pts = " · ".join(f"{self.side_name(i)} {p}" for i, p in enumerate(v.card_points))
        lines.append(self.t("points", pts=pts))
        if v.cantes:
            lines.append(self.t("cantes", list=", ".join(
                f"{self.seat_name(s)} {declaration_name(self.lang, d)}" for s, d, _p in v.cantes)))
        if self.match.is_over():
            pass
        elif self.human_to_move():
            lines.append(self.t("your_lead") if not v.trick and any(
                isinstance(a, Card) for a in self.legal()) else self.t("your_turn"))
        else:
            lines.append(self.t("turn_of", who=self.seat_name(self.match.to_move or 0)))
        return lines

    def previous_trick(self) -> str:
        tricks = self.view().tricks
        if len(tricks) < (1 if self.view().trick else 2):
            return self.t("no_previous")
        rec = tricks[-1] if self.view().trick else tricks[-2]
        plays = ", ".join(f"{self.seat_name(s)} {c}" for s, c in rec.plays(self.view().seats))
        return self.t("previous_trick", n=rec.number, plays=plays,
                      who=self.seat_name(rec.winner), p=rec.points)

    def _summary(self, deal: Deal, k: int) -> list[str]:
        res: DealResult = deal.result()
        lines = [self.t("deal_over", k=k)]
        for i, total in enumerate(res.totals):
            cantes = sum(res.cantes[i])
            lines.append(self.t(
                "totals_line", side=self.side_name(i), total=total, cards=res.card_points[i],
                cantes=self.t("plus_cantes", n=cantes) if cantes else "",
                last=self.t("plus_last") if res.last_trick[i] else ""))
        if res.running is not None and deal.carry is not None:
            lines.append(" · ".join(f"{self.side_name(i)} Σ {r}" for i, r in
                                    enumerate(res.running)))
        if res.reason == "tute" and res.winner is not None:
            lines.append(self.t("deal_tute", who=self.side_name(res.winner)))
        elif res.vueltas:
            lines.append(self.t("deal_vueltas"))
        elif res.winner is None:
            lines.append(self.t("deal_replay"))
        else:
            lines.append(self.t("deal_winner", who=self.side_name(res.winner)))
        lines.append(self.t("score", score=self.score_text()))
        if self.match.is_over():
            mres = self.match.result()
            lines.append("")
            lines.append(self.t("match_over"))
            lines.append(self.t("match_winner", who=self.side_name(mres.winner))
                         if mres.winner is not None else self.t("match_none"))
        return lines

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
            if take < size:
                break
        rec["deals"] = deals
        match = Match.from_record(rec)
        return match.deal, len(match.deals)

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
                       + ", ".join(f"{t('seat', n=s)} {c}" for s, c in last.plays(deal.seats)))
        if deal.actions:
            out.append(f"→ {deal.actions[-1]}")
        if deal.is_over():
            res = deal.result()
            out.append(" · ".join(str(x) for x in res.totals))
        out.append(t("replay_step", k=self.step, n=self.total))
        if self.step == self.total:
            out.append(t("replay_end"))
        return out

    def forward(self) -> None:
        self.step = min(self.total, self.step + 1)

    def back(self) -> None:
        self.step = max(0, self.step - 1)
