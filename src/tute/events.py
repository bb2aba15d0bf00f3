"""Frozen events: every accepted action leaves one or more of these in ``Deal.events``."""

from __future__ import annotations

from typing import NamedTuple

from .cards import Card
from .rules import Declaration


class CardPlayed(NamedTuple):
    seat: int
    card: Card


class TrickTaken(NamedTuple):
    number: int  # 1-based
    leader: int
    cards: tuple[Card, ...]  # in playing order, starting with the leader
    winner: int
    points: int


class Declared(NamedTuple):
    seat: int
    declaration: Declaration
    points: int
    cards: tuple[Card, ...]  # shown to the table


class Passed(NamedTuple):
    seat: int


class DealEnded(NamedTuple):
    reason: str  # "tricks" | "tute"
    winner: int | None
    games: int


Event = CardPlayed | TrickTaken | Declared | Passed | DealEnded
