"""Guest names for people who play in the browser: a signed cookie, nothing stored.

A person who opens a play page gets a guest name (``guest-`` and eight random characters)
in an HMAC-signed cookie, so a page reload (or a new tab) keeps the name. The signing key
comes from :mod:`secrets` when the web hall starts: cookies of an earlier run are not
accepted (their games ended with that run anyway) and a forged or edited cookie is simply
replaced by a new name.

The name is **not** a credential: Onitama names are free for anyone, as the seed says. What
keeps a seat is the seat secret the game server hands to the seat's own connection at
``START``; the play page keeps it in the browser's ``localStorage``. So the cookie only
spares people a new name after each reload; it needs no server-side store and no
dependency beyond the standard library.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from starlette.requests import Request
from starlette.responses import Response

COOKIE = "herna_guest"
MAX_AGE = 30 * 24 * 3600
"""Seconds a browser keeps the cookie (while the hall runs, the name stays the same)."""
_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"
"""Lower case without look-alikes (l/1, o/0): people read these names aloud."""


class Guests:
    """Makes and checks guest cookies with a key of this run."""

    def __init__(self, key: bytes | None = None) -> None:
        self.key = key if key is not None else secrets.token_bytes(32)

    @staticmethod
    def new_name() -> str:
        return "guest-" + "".join(secrets.choice(_ALPHABET) for _ in range(8))

    def sign(self, name: str) -> str:
        mac = hmac.new(self.key, name.encode("utf-8"), hashlib.sha256).digest()
        return name + "." + base64.urlsafe_b64encode(mac[:18]).decode("ascii")

    def name_of(self, cookie: str | None) -> str | None:
        """The guest name a cookie carries, or None when it was not signed by this run."""
        if not cookie or "." not in cookie:
            return None
        name = cookie.rsplit(".", 1)[0]
        if not name.startswith("guest-") or not hmac.compare_digest(self.sign(name), cookie):
            return None
        return name

    def of(self, request: Request) -> tuple[str, bool]:
        """The request's guest name and whether it is new (then :meth:`remember` it)."""
        name = self.name_of(request.cookies.get(COOKIE))
        if name is not None:
            return name, False
        return self.new_name(), True

    def remember(self, response: Response, name: str, secure: bool) -> None:
        response.set_cookie(
            COOKIE,
            self.sign(name),
            max_age=MAX_AGE,
            path="/",
            httponly=True,  # the page gets the name in its HTML; scripts never need the cookie
            samesite="lax",
            secure=secure,
        )
