"""The two kinds of error Herna distinguishes.

A peer's bad input is never an exception that escapes a server: protocol cores turn it into
a :class:`ProtocolError` value (or raise it internally and convert it at their edge), and a
well-formed but illegal move is an :class:`IllegalAction` with a human-readable reason that the
server answers in the protocol's own terms. Anything else is a bug in Herna and may raise.
"""

from __future__ import annotations


class HernaError(Exception):
    """Base class for errors Herna expects and handles."""


class IllegalAction(HernaError):
    """A well-formed action that the rules do not allow in this state.

    ``reason`` is meant for people ("You must play red!") and ``code`` for programs
    (``"MUST_FOLLOW_SUIT"``); servers pick whichever their protocol carries.
    """

    def __init__(self, reason: str, code: str = "ILLEGAL") -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code


class ProtocolError(HernaError):
    """Bytes or a message that a protocol cannot accept (malformed, too large, wrong phase)."""

    def __init__(self, reason: str, code: str = "MALFORMED", fatal: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code
        self.fatal = fatal
