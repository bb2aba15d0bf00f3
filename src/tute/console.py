"""The ``tute`` console script: the engine installs alone (``pip install tute``), the command
line needs the ``cli`` extra (Typer) and the full-screen game the ``tui`` extra (Textual).
Without them the command says what to install instead of failing on an import."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Sequence

__all__ = ["main", "missing_extra"]


def missing_extra(module: str, extra: str, what: str) -> str | None:
    """The line that tells how to get ``module`` (an extra's package), or None if present."""
    if importlib.util.find_spec(module) is not None:
        return None
    return f"tute: {what} needs {module}: pip install 'tute[{extra}]'"


def main(argv: Sequence[str] | None = None) -> None:
    if line := missing_extra("typer", "cli", "the tute command"):
        sys.stderr.write(line + "\n")
        sys.exit(2)
    from .cli import main as run

    run(argv)
