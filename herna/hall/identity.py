"""Who a client is, decided once for every server.

Every game server asks this module the same two questions:

* **May this client use this name?** (:meth:`Identity.admit`) Names are free for anyone, as
  the seeds describe, except

  - *house bot names*, reserved in-process by the server that runs the house bot
    (:meth:`Identity.reserve_house_bot` hands that bot its token), and
  - *reserved names*: a bot author runs ``herna bots add NAME`` once, gets a token, and from
    then on only a client presenting that token may use the name (the token travels in an
    optional, documented field of each protocol's login). People reserve their names the same
    way by signing up in the web hall (:mod:`herna.hall.people`); the web hall then hands a
    signed-in person's play pages a *proof* (:meth:`Identity.issue_proof`) that stands in for
    the token on every server of this hall until the session ends.

* **May this connection take that seat back?** (:class:`SeatKey`) A seat is handed to one
  client together with a fresh secret. Whoever comes back for it must show that secret or,
  for a reserved name, its token; the name alone never suffices.

Tokens and secrets come from :mod:`secrets`. Only a SHA-256 digest of a bot token is stored:
a token holds 192 random bits, so a slow password hash would add no safety (people's
passwords, which are guessable, are a different matter and get a password hash).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import lru_cache

import icu
from sqlalchemy import delete, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from herna.hall.db import PersonRow, PersonSessionRow, ReservedNameRow

TOKEN_BYTES = 24
"""Random bytes in a token or seat secret (32 URL-safe characters)."""

PROOF_SECONDS = 24 * 3600.0
"""How long a proof the web hall issues to a signed-in person stays good (a play page issues
a fresh one each time it is opened)."""

PROOFS_PER_SESSION = 16
"""Proofs one web session may hold at once; issuing more retires the oldest."""

REFRESH_SECONDS = 2.0
"""How stale the in-memory copy of the reserved names may get: ``herna bots add`` run while
the hall is up takes effect within this time, and a flood of logins reads the database at
most once per this interval."""


def new_secret() -> str:
    """A fresh token or seat secret: URL-safe, no separator of any Herna protocol in it
    (``;``, ``|``, ``<``, ``"``, whitespace), and never starting with ``-``: tokens are given
    on command lines (``--token TOKEN``), where one starting with a dash reads as an option."""
    while True:
        secret = secrets.token_urlsafe(TOKEN_BYTES)
        if not secret.startswith("-"):
            return secret


def new_public_id() -> str:
    """An id a client needs to know but nobody may guess (CGML group and game ids)."""
    return secrets.token_hex(8)


_SPOOF = threading.local()


def _skeleton(text: str) -> str:
    # ICU's checker is not thread-safe; one per thread (the records writer and Argon2 run
    # names through here off the event loop).
    checker = getattr(_SPOOF, "checker", None)
    if checker is None:
        checker = _SPOOF.checker = icu.SpoofChecker()
    return str(checker.getSkeleton(0, text))


def _fold(char: str) -> str:
    # Case-fold, except that a non-Latin capital first becomes the letter it looks like:
    # Cyrillic "В" reads as "B", but its lower case "в" does not read as "b".
    if char.isascii() or not char.isupper():
        return char.casefold()
    return _skeleton(char).casefold()


@lru_cache(maxsize=65_536)
def name_key(name: str) -> str:
    """What ``name`` looks like, for telling names apart: names with one key look the same
    to a reader and are one name to the hall (``Alice``, ``alice``, ``ALICE`` and ``Аlice``
    with a Cyrillic ``А``; ``Bob`` and ``Воb``).

    The Unicode TR39 confusable skeleton (ICU's) of the case-folded name. Names are kept and
    shown as their owners spelled them; only comparisons use the key.
    """
    text = unicodedata.normalize("NFKC", name)
    return _skeleton("".join(_fold(c) for c in text)).casefold()


@lru_cache(maxsize=65_536)
def look_alike_keys(name: str) -> frozenset[str]:
    """Every key ``name`` is compared by against reserved and house names: :func:`name_key`
    and, for shapes that only capitals share (``I`` and ``l``), the folded skeleton of the
    name as written. A protected name is kept out in both."""
    text = unicodedata.normalize("NFKC", name)
    return frozenset({name_key(name), _skeleton(text).casefold()})


class LookAlikes:
    """Names indexed by every key they look like (:func:`look_alike_keys`)."""

    def __init__(self, names: Iterable[str] = ()) -> None:
        self._by_key: dict[str, str] = {}
        for name in names:
            self.add(name)

    def add(self, name: str) -> None:
        for key in look_alike_keys(name):
            self._by_key.setdefault(key, name)

    def find(self, name: str) -> str | None:
        """The indexed name that looks like ``name`` (``name`` itself when indexed)."""
        for key in sorted(look_alike_keys(name)):
            known = self._by_key.get(key)
            if known is not None:
                return known
        return None


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogateescape")).hexdigest()


def same_secret(given: str | None, expected: str) -> bool:
    """Constant-time comparison; a missing proof never matches."""
    if given is None:
        return False
    return hmac.compare_digest(given.encode("utf-8", "surrogateescape"), expected.encode())


@dataclass(frozen=True)
class Refusal:
    """Why a client may not use a name. Servers answer it in their protocol's own terms."""

    code: str
    """``RESERVED_NAME`` (needs its token), ``BAD_TOKEN`` (a token that is not this name's),
    or ``HOUSE_BOT_NAME`` (a name the hall's own bots use)."""

    reason: str
    """One English sentence for people and logs."""


@dataclass(frozen=True)
class Admission:
    """A client that may use ``name``."""

    name: str
    verified: bool
    """True when the client proved the name with its token: it may then take back any seat
    held under that name without the seat's secret."""

    house: bool = False


@dataclass(frozen=True)
class ReservedName:
    name: str
    created_at: datetime
    note: str
    person: bool = False
    """True for a person's name (signed up in the web hall with a password)."""


@dataclass(frozen=True)
class IssuedProof:
    """A proof of ``name`` the web hall handed to one signed-in session (only its digest is
    kept, like a bot token's)."""

    name: str
    session: str
    expires: float


class NameTaken(Exception):
    """``ReservedNames.add`` for a name that is already reserved."""


class ReservedNames:
    """The persistent book of reserved names (table ``reserved_names``)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def add(self, name: str, note: str = "", replace: bool = False) -> str:
        """Reserve ``name`` and return its token: the only time the token is seen."""
        token = new_secret()
        with Session(self.engine) as session, session.begin():
            row = session.get(ReservedNameRow, name)
            if row is not None and not replace:
                raise NameTaken(name)
            if row is None:
                row = ReservedNameRow(name=name)
                session.add(row)
            row.token_sha256 = token_digest(token)
            row.created_at = datetime.now(UTC)
            row.note = note
        return token

    def remove(self, name: str) -> bool:
        """Free ``name``; a person's name loses its account too (the password with it)."""
        with Session(self.engine) as session, session.begin():
            result = session.execute(delete(ReservedNameRow).where(ReservedNameRow.name == name))
            session.execute(delete(PersonRow).where(PersonRow.name == name))
            session.execute(delete(PersonSessionRow).where(PersonSessionRow.name == name))
        return bool(getattr(result, "rowcount", 0))

    def list(self) -> list[ReservedName]:
        with Session(self.engine) as session:
            people = set(session.scalars(select(PersonRow.name)))
            rows = session.scalars(select(ReservedNameRow).order_by(ReservedNameRow.name))
            return [ReservedName(r.name, r.created_at, r.note, r.name in people) for r in rows]

    def digests(self) -> dict[str, str]:
        with Session(self.engine) as session:
            rows = session.execute(select(ReservedNameRow.name, ReservedNameRow.token_sha256))
            return {name: digest for name, digest in rows}


@dataclass
class Identity:
    """The hall's one answer to "who is this client?" (see the module docstring)."""

    book: ReservedNames | None = None
    """Reserved names from the database; ``None``: only house bot names are reserved."""

    clock: Callable[[], float] = time.monotonic
    refresh_seconds: float = REFRESH_SECONDS
    _house: dict[str, str] = field(default_factory=dict)
    _reserved: dict[str, str] = field(default_factory=dict)
    _loaded_at: float | None = None
    _look_alikes: LookAlikes | None = None
    """House and reserved names by look-alike key, rebuilt when either changes."""
    _issued: dict[str, IssuedProof] = field(default_factory=dict)
    """Proofs issued to signed-in people, by token digest (in memory: they live as long as
    this process, and a play page opened after a restart gets a new one)."""

    # -- house bots -------------------------------------------------------------------------
    def reserve_house_bot(self, name: str) -> str:
        """Reserve ``name`` for one of the hall's own bots and return the token that bot
        presents. Calling it again for the same name returns the same token (a house bot that
        restarts keeps its name)."""
        if name not in self._house:
            self._house[name] = new_secret()
            self._look_alikes = None
        return self._house[name]

    def is_house_bot(self, name: str) -> bool:
        return name in self._house

    @property
    def house_bot_names(self) -> frozenset[str]:
        return frozenset(self._house)

    # -- reserved names ---------------------------------------------------------------------
    def _reserved_digests(self) -> dict[str, str]:
        if self.book is None:
            return self._reserved
        now = self.clock()
        if self._loaded_at is None or now - self._loaded_at >= self.refresh_seconds:
            reserved = self.book.digests()
            if reserved != self._reserved:
                self._look_alikes = None
            self._reserved = reserved
            self._loaded_at = now
        return self._reserved

    def _protected(self) -> LookAlikes:
        reserved = self._reserved_digests()
        if self._look_alikes is None:
            self._look_alikes = LookAlikes((*self._house, *reserved))
        return self._look_alikes

    def reload(self) -> None:
        """Read the reserved names again at the next question (a name was just reserved here,
        so there is no need to wait :data:`REFRESH_SECONDS`)."""
        self._loaded_at = None

    # -- proofs for people --------------------------------------------------------------------
    def issue_proof(self, name: str, session: str, seconds: float = PROOF_SECONDS) -> str:
        """A fresh proof of the reserved ``name`` for one signed-in web session: any server of
        this hall accepts it where the name's token is asked for (:meth:`proves`,
        :meth:`admit`), until it expires or :meth:`revoke_proofs` ends the session. Never the
        password, never the name's own token."""
        now = self.clock()
        for digest in [d for d, p in self._issued.items() if p.expires <= now]:
            del self._issued[digest]
        mine = [d for d, p in self._issued.items() if p.session == session]
        for digest in mine[: max(0, len(mine) - PROOFS_PER_SESSION + 1)]:
            del self._issued[digest]  # dicts keep insertion order: the oldest go first
        token = new_secret()
        self._issued[token_digest(token)] = IssuedProof(name, session, now + seconds)
        return token

    def revoke_proofs(self, session: str) -> int:
        """Retire every proof issued to ``session`` (sign-out); how many there were."""
        gone = [d for d, p in self._issued.items() if p.session == session]
        for digest in gone:
            del self._issued[digest]
        return len(gone)

    def _issued_proves(self, name: str, token: str) -> bool:
        proof = self._issued.get(token_digest(token))
        return (
            proof is not None
            and hmac.compare_digest(proof.name.encode(), name.encode())
            and self.clock() < proof.expires
        )

    def is_reserved(self, name: str) -> bool:
        """True when only a token holder may use ``name`` (house bots included)."""
        return name in self._house or name in self._reserved_digests()

    def reserved_spelling(self, name: str) -> str | None:
        """The reserved or house-bot name that ``name`` is or looks like (case and look-alike
        letters aside: :func:`look_alike_keys`), if there is one. Servers whose names are
        unique regardless of case ask this first, so that ``EVA`` is admitted as ``eva``
        with the token of ``eva``."""
        reserved = self._reserved_digests()
        if name in self._house or name in reserved:
            return name
        return self._protected().find(name)

    def proves(self, name: str, token: str | None) -> bool:
        """True when ``token`` is the token of the reserved or house-bot ``name``."""
        if token is None:
            return False
        if name in self._house:
            return same_secret(token, self._house[name])
        digest = self._reserved_digests().get(name)
        if digest is None:
            return False
        return same_secret(token_digest(token), digest) or self._issued_proves(name, token)

    def admit(self, name: str, token: str | None = None) -> Admission | Refusal:
        """May a client use ``name``, presenting ``token`` (``None``: no token given)?

        A token given for a name that is not reserved is ignored: the reference servers
        ignore extra fields, and a bot that always sends its token must still play where its
        name was never reserved.
        """
        original = self.reserved_spelling(name)
        if original is not None and original != name:
            # A look-alike of a protected name is that name to anyone reading a page, so it
            # is refused even with the token: the owner logs in under its own spelling.
            code = "HOUSE_BOT_NAME" if original in self._house else "RESERVED_NAME"
            return Refusal(code, f"{name!r} looks like the protected name {original!r}")
        if name in self._house:
            if self.proves(name, token):
                return Admission(name, verified=True, house=True)
            return Refusal("HOUSE_BOT_NAME", f"{name!r} is the name of one of Herna's house bots")
        if name in self._reserved_digests():
            if token is None:
                return Refusal(
                    "RESERVED_NAME", f"{name!r} is reserved: log in with its token to use it"
                )
            if not self.proves(name, token):
                return Refusal("BAD_TOKEN", f"that is not the token of {name!r}")
            return Admission(name, verified=True)
        return Admission(name, verified=False)


@dataclass
class SeatKey:
    """The proof that a connection is the client a seat was given to.

    A server makes one when it seats a client and hands ``secret`` to that client alone
    (Onitama's ``START`` extra field, for example). A client that comes back for the seat
    passes :meth:`opens` with the seat secret, or with the name's token when the name is
    reserved.
    """

    holder: str
    secret: str = field(default_factory=new_secret)

    def opens(self, name: str, proof: str | None, identity: Identity) -> bool:
        if name != self.holder or proof is None:
            return False
        return same_secret(proof, self.secret) or identity.proves(name, proof)


def valid_name(name: str) -> bool:
    """A name every protocol can carry: 1-64 printable characters, none that a protocol uses
    as a separator or markup (what ``herna bots add`` and a tournament's entry list take)."""
    return 0 < len(name) <= 64 and name.isprintable() and not any(c in name for c in " ;|<>&\"'")
