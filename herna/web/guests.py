"""Who is at the browser: a guest name, or a signed-in person, in a signed session cookie.

The web hall keeps a small session in one cookie (``herna_session``), signed with
itsdangerous by Starlette's ``SessionMiddleware``. The signing key is made from
:mod:`secrets` on the hall's first start and kept in its database (table ``hall_keys``), so a
guest keeps their name, and a person stays signed in, across restarts of ``herna serve``. A
forged or edited cookie fails the signature and is treated as no cookie at all. The cookie is
HttpOnly and SameSite=Lax; nothing else is stored about guests.

Session fields: ``guest`` (``guest-`` and eight characters, made the first time a play page
is opened); after signing in also ``person`` (the reserved name), ``sid`` (the session's
random id: the proofs issued to it are revoked when it signs out) and ``csrf`` (the token
every form of the session carries).

A guest name is **not** a credential: names are free for anyone unless reserved, as the seeds
say. What keeps a guest's seat is the seat secret the game server hands to the seat's own
connection. A person's name is reserved; their play pages carry a proof of it (``token``)
issued per session by :meth:`~herna.hall.identity.Identity.issue_proof`.

Play pages call :meth:`Guests.of` for the name to play under, :meth:`Guests.token` for the
proof to send in the game protocol's login (``None`` for guests), and
:meth:`Guests.remember` on their response (kept for the callers; the session middleware now
sets the cookie).
"""

from __future__ import annotations

import secrets
from typing import Any

from starlette.requests import HTTPConnection
from starlette.responses import Response

from herna.hall.identity import Identity

COOKIE = "herna_session"
MAX_AGE = 30 * 24 * 3600
"""Seconds a session lasts after it was last changed (signing in starts it again)."""
_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"
"""Lower case without look-alikes (l/1, o/0): people read these names aloud."""


def session_of(conn: HTTPConnection) -> dict[str, Any]:
    """The request's session (empty when the session middleware is not in front)."""
    session = conn.scope.get("session")
    return session if isinstance(session, dict) else {}


class Guests:
    """Names for the people at the browsers, kept in the session."""

    def __init__(self, identity: Identity | None = None) -> None:
        self.identity = identity

    @staticmethod
    def new_name() -> str:
        return "guest-" + "".join(secrets.choice(_ALPHABET) for _ in range(8))

    @staticmethod
    def person(conn: HTTPConnection) -> str | None:
        """The signed-in person's name, or None."""
        person = session_of(conn).get("person")
        return person if isinstance(person, str) and person else None

    def of(self, conn: HTTPConnection) -> tuple[str, bool]:
        """The name to play under (the person's, else the guest's) and whether it is new."""
        person = self.person(conn)
        if person is not None:
            return person, False
        session = session_of(conn)
        guest = session.get("guest")
        if isinstance(guest, str) and guest.startswith("guest-"):
            return guest, False
        name = self.new_name()
        session["guest"] = name
        return name, True

    def token(self, conn: HTTPConnection) -> str | None:
        """A fresh proof of the signed-in person's name for a play page (``token`` in its
        data), or None for a guest."""
        person = self.person(conn)
        sid = session_of(conn).get("sid")
        if person is None or not isinstance(sid, str) or self.identity is None:
            return None
        return self.identity.issue_proof(person, sid)

    def remember(self, response: Response, name: str, secure: bool) -> None:
        """Nothing to do: the session middleware sets the cookie (kept for the play pages
        that call it)."""
