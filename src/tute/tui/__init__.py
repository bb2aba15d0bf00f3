"""The terminal game (``tute play``), built on Textual. Start it with :func:`run`."""

from __future__ import annotations

from .app import TuteApp, run
from .session import Replay, Session

__all__ = ["Replay", "Session", "TuteApp", "run"]
