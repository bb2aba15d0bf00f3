"""The phase a deal is in (``Deal._phase``): cards are being played, a seat is answering a
poll (a question asked before or between tricks), or the deal is over. Shared by the deal and
its phase components (:mod:`tute.auction`, :mod:`tute.stockpile`)."""

from __future__ import annotations

from typing import Final

PLAY: Final = 0
POLL: Final = 1
OVER: Final = 2
