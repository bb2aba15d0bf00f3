"""Which optional extra a front end lacks: ``pip install tute`` is the engine alone."""

from __future__ import annotations

import importlib.util

__all__ = ["missing_extra"]


def missing_extra(module: str, extra: str, what: str) -> str | None:
    """The line that tells how to get ``module`` (an extra's package), or None if present."""
    if importlib.util.find_spec(module) is not None:
        return None
    return f"tute: {what} needs {module}: pip install 'tute[{extra}]'"
