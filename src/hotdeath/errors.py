"""Errors with stable codes.

Every error the engine raises derives from :class:`HotDeathError` and carries a short
machine-readable ``code`` (the server and the command line reuse it) and a message for
people.  Bad syntax (:class:`NotationError`) and a well-formed but illegal action
(:class:`IllegalActionError`) are different errors.

Every error here about what a caller gave (text, options, an action, a seat, a position)
is also a :class:`ValueError`, as python-chess's illegal move is: code that handles bad
input in general catches them too.  :class:`HotDeathError` itself is not, because the
front ends derive errors of their own from it that are not about a value (a failed
connection, a simulation's files).
"""

from __future__ import annotations


class HotDeathError(Exception):
    """Base class of every engine error; ``code`` is stable, ``message`` is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return f"{self.message} [{self.code}]"

    def __reduce__(self) -> tuple[type[HotDeathError], tuple[str, str]]:
        """Pickle with both arguments (a review computed in another process, a Ray run)."""
        return (type(self), (self.code, self.message))


class NotationError(HotDeathError, ValueError):
    """Text that is not valid action, card or position notation."""


class OptionError(HotDeathError, ValueError):
    """An unknown variant, preset or option, a bad value or an impossible combination."""


class IllegalActionError(HotDeathError, ValueError):
    """A well-formed action that the rules do not allow now (state unchanged)."""


class WrongSeatError(IllegalActionError):
    """An action submitted for a seat that may not act now."""


class GameOverError(IllegalActionError):
    """An action submitted after the game has ended."""


class PositionError(HotDeathError, ValueError):
    """A position (our JSON notation) that is malformed or inconsistent."""


class TextError(HotDeathError, ValueError):
    """Text a person gave (a name, a chat message) that the input policy refuses."""
