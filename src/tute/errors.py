"""Exceptions of the engine: every one is a ``ValueError`` whose message names what was wrong."""

from __future__ import annotations

from .messages import Refusal


class TuteError(ValueError):
    """Base class of every error the engine raises on bad input."""


class InvalidNotationError(TuteError):
    """A card, suit, rank or action written in a form the parser does not know."""


class UnknownVariantError(TuteError):
    """A variant id or alias that is not registered."""


class InvalidOptionError(TuteError):
    """An option that does not exist for a variant, or a value outside its domain."""


class IllegalActionError(TuteError):
    """An action that the rules do not allow now; the message gives the reason (English),
    ``refusal`` the same as a value for front ends to word (None where only text is known)."""

    def __init__(self, message: str, *, action: str | None = None, reason: str | None = None,
                 refusal: Refusal | None = None):
        super().__init__(message)
        self.action = action
        self.reason = reason or message
        self.refusal = refusal


class RecordError(TuteError):
    """A game record that cannot be read or replayed; ``index`` is the first bad action, if any."""

    def __init__(self, message: str, *, index: int | None = None, field: str | None = None):
        super().__init__(message)
        self.index = index
        self.field = field
