"""The terminal game (``tute play``), built on Textual. Start it with :func:`run`.

The Textual app loads on first use, so the line-by-line game (:mod:`tute.tui.session`)
works without it.
"""

from __future__ import annotations

from typing import Any

from .session import Replay, Session

__all__ = ["Replay", "Session", "TuiCrash", "TuteApp", "run"]


def __getattr__(name: str) -> Any:
    if name in ("TuteApp", "TuiCrash", "run"):
        from . import app

        return getattr(app, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
