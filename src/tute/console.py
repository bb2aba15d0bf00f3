"""The ``tute`` console script: the engine installs alone (``pip install tute``), the command
line needs the ``cli`` extra (Typer) and the full-screen game the ``tui`` extra (Textual).
Without them the command says what to install instead of failing on an import."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from .extras import missing_extra

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> None:
    if line := missing_extra("typer", "cli", "the tute command"):
        sys.stderr.write(line + "\n")
        sys.exit(2)
    from .cli import main as run

    run(argv)
