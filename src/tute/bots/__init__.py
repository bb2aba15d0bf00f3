"""Bots: programs that choose an action for one seat from that seat's view alone.

A bot is called with ``deal.view(seat)`` (a :class:`~tute.deal.SeatView`: the seat's own hand
and the public record, nothing hidden) and the list of legal actions, and returns one of
those actions. It never receives the deal itself, so it cannot read other hands.
"""

from __future__ import annotations

from .base import BOTS, LEVELS, Bot, BotInfo, make_bot, parse_spec, register
from .ismcts import IsmctsBot
from .pimc import CheatBot, PimcBot, PimcInferBot
from .policy_bot import PolicyBot
from .random_bot import RandomBot
from .rules_bot import RulesBot

__all__ = ["BOTS", "LEVELS", "Bot", "BotInfo", "CheatBot", "IsmctsBot", "PimcBot", "PimcInferBot",
           "PolicyBot", "RandomBot", "RulesBot", "make_bot", "parse_spec", "register"]
