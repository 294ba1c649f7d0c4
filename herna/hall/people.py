"""People's reserved names: sign up with a name and a password, sign in again later.

A person's name goes into the same book of reserved names as a bot author's
(``reserved_names``, :class:`~herna.hall.identity.ReservedNames`): from then on no bot, guest
or other person may play under it on any server of the hall. The name's own token is drawn
and thrown away (a person never needs it); in its place the web hall gives each signed-in
session proofs of the name (:meth:`~herna.hall.identity.Identity.issue_proof`). A name
reserved with a token before (a teacher's entry list, ``herna bots add``) can be **claimed**
by whoever holds the token (:meth:`People.claim`): it gets a password and keeps its token.

Passwords are guessable, unlike tokens, so only an Argon2id hash is stored, with a random
salt per hash and OWASP's recommended parameters (:func:`password_hasher`: 19 MiB, 2 passes,
one lane). Those cost about 70 ms of one core per check on the 2-core development machine
under load (argon2-cffi's defaults, 64 MiB, 3 passes and 4 lanes, took 680 ms of all cores
there, time the game servers sharing the machine would lose on every sign-in). Callers run it
off the event loop, one at a time, and limit how often one client may try
(:mod:`herna.web.accounts`). Hashes made with other parameters still verify and are
re-hashed with these at the next sign-in.
"""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Callable
from datetime import UTC, datetime

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from herna.hall.db import HallKeyRow, PersonRow, PersonSessionRow, ReservedNameRow, StandingRow
from herna.hall.identity import (
    Identity,
    LookAlikes,
    new_secret,
    same_secret,
    token_digest,
    valid_name,
)

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{2,23}")
"""A person's name: 3-24 letters, digits, ``_`` and ``-``, starting with a letter or digit;
every protocol of the hall carries it unchanged (Mia's ``;``, Onitama's ``|`` and CGML's
markup never occur)."""

GUEST_PREFIX = "guest-"
"""Guest names (``guest-`` and eight characters) are handed out by the web hall: nobody may
reserve one."""

MIN_PASSWORD = 8
MAX_PASSWORD = 1024
"""Characters; a longer password only costs hashing time."""

PERSON_NOTE = "person (signed up in the web hall)"

SESSION_CACHE = 10_000
"""Session ids whose answer (open, closed) is kept in memory."""
SESSION_RECHECK = 60.0
"""Seconds a remembered answer holds before the database is asked again (``herna bots
remove`` run in another process ends a person's sessions within this time)."""


class Refused(Exception):
    """Why a sign-up cannot go ahead (``reason`` is one English sentence for the form)."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


def name_problem(name: str) -> str | None:
    """What is wrong with ``name`` as a person's name, or None."""
    if not NAME.fullmatch(name):
        return "A name is 3 to 24 letters, digits, _ or -, starting with a letter or digit."
    if name.casefold().startswith(GUEST_PREFIX):
        return "Names starting with guest- are for guests."
    return None


def password_problem(password: str) -> str | None:
    if len(password) < MIN_PASSWORD:
        return f"A password has at least {MIN_PASSWORD} characters."
    if len(password) > MAX_PASSWORD:
        return f"A password has at most {MAX_PASSWORD} characters."
    return None


def password_hasher() -> PasswordHasher:
    """Argon2id with OWASP's recommended minimum (m = 19 MiB, t = 2, p = 1)."""
    return PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)


class People:
    """Sign-up and password checks over the hall's database and identity."""

    def __init__(self, engine: Engine, identity: Identity, hasher: PasswordHasher | None = None):
        self.engine = engine
        self.identity = identity
        self.hasher = hasher or password_hasher()
        # Checked against for unknown names, so that "no such person" takes as long as
        # "wrong password" and the timing tells nobody which names have accounts.
        self._dummy = self.hasher.hash(secrets.token_urlsafe(16))
        self.clock: Callable[[], float] = time.monotonic
        self._sessions: dict[str, tuple[str | None, float]] = {}
        """Session digests looked up already: (person or None when closed or unknown, when
        looked up), oldest first."""

    def sign_up(self, name: str, password: str) -> str:
        """Reserve ``name`` for a new person with ``password``; the name. Raises
        :class:`Refused` with the reason when it cannot be had."""
        problem = name_problem(name) or password_problem(password)
        if problem is not None:
            raise Refused("INVALID", problem)
        spelling = self.identity.reserved_spelling(name)
        if spelling is not None:
            if not self.identity.is_house_bot(spelling) and not self.is_person(spelling):
                raise Refused(
                    "TAKEN",
                    f"The name {spelling} is taken (reserved with a token): if your teacher "
                    "gave you its token, give it too to make the name yours; otherwise choose "
                    "another name.",
                )
            raise Refused("TAKEN", f"The name {name} is taken; choose another.")
        digest = self.hasher.hash(password)
        try:
            with Session(self.engine) as session, session.begin():
                # Look-alikes too (case, Cyrillic "а" for Latin "a", ...): a page shows both
                # names the same way, so only one of them may be reserved.
                reserved = LookAlikes(session.scalars(select(ReservedNameRow.name)))
                if reserved.find(name) is not None:
                    raise Refused("TAKEN", f"The name {name} is taken; choose another.")
                played = session.scalars(
                    select(StandingRow.name).where(func.lower(StandingRow.name) == name.lower())
                ).first()
                if played is not None:
                    # The history under a name belongs to whoever played it: nobody may claim
                    # it (and its rating) later by signing up.
                    raise Refused(
                        "PLAYED", f"The name {name} has played here already; choose another."
                    )
                now = datetime.now(UTC)
                session.add(
                    ReservedNameRow(
                        name=name,
                        token_sha256=token_digest(new_secret()),
                        created_at=now,
                        note=PERSON_NOTE,
                    )
                )
                session.add(PersonRow(name=name, password_hash=digest, created_at=now))
        except IntegrityError as exc:  # two sign-ups for one name at once
            raise Refused("TAKEN", f"The name {name} is taken; choose another.") from exc
        self.identity.reload()
        return name

    def claim(self, name: str, token: str, password: str) -> str:
        """Make the reserved ``name`` a person's account with ``password``, for whoever holds
        its ``token`` (a pupil whose teacher's entry list reserved the name); the name as
        reserved. Raises :class:`Refused` with the reason.

        The name keeps its token: the pupil's bot still logs in with it over the wire, and
        the pupil now signs in with the password too. One name, one owner, two keys."""
        problem = password_problem(password)
        if problem is not None:
            raise Refused("INVALID", problem)
        reserved = self.identity.reserved_spelling(name) if valid_name(name) else None
        if reserved is None or self.identity.is_house_bot(reserved):
            raise Refused(
                "NOT_RESERVED",
                f"Nobody reserved the name {name}, so it has no token: leave the token "
                "empty to sign up with it.",
            )
        with Session(self.engine) as session:
            row = session.get(ReservedNameRow, reserved)
            # Digests compared in constant time, as every token check of the hall is.
            if row is None or not same_secret(token_digest(token), row.token_sha256):
                raise Refused(
                    "BAD_TOKEN",
                    f"That is not the token of {reserved}: check it against the one you were "
                    "given (letters, digits, - and _, about 32 of them).",
                )
            if session.get(PersonRow, reserved) is not None:
                raise Refused(
                    "TAKEN", f"{reserved} has signed up already: sign in with its password."
                )
        digest = self.hasher.hash(password)
        try:
            with Session(self.engine) as session, session.begin():
                session.add(
                    PersonRow(name=reserved, password_hash=digest, created_at=datetime.now(UTC))
                )
        except IntegrityError as exc:  # claimed twice at once
            raise Refused(
                "TAKEN", f"{reserved} has signed up already: sign in with its password."
            ) from exc
        return reserved

    def check(self, name: str, password: str) -> str | None:
        """The person's name (as signed up) if ``password`` is theirs, else None."""
        if len(password) > MAX_PASSWORD or not valid_name(name):
            # Nobody can have such a name (nor such a password); the dummy check keeps the
            # answer as slow as a real one.
            self._verify(self._dummy, password[:MAX_PASSWORD])
            return None
        with Session(self.engine) as session:
            row = session.get(PersonRow, name)
            if row is None:
                folded = name.lower()
                row = session.scalars(
                    select(PersonRow).where(func.lower(PersonRow.name) == folded)
                ).first()
            stored = row.password_hash if row is not None else self._dummy
            found = row.name if row is not None else None
        if not self._verify(stored, password) or found is None:
            return None
        if self.hasher.check_needs_rehash(stored):
            with Session(self.engine) as session, session.begin():
                person = session.get(PersonRow, found)
                if person is not None:
                    person.password_hash = self.hasher.hash(password)
        return found

    def _verify(self, stored: str, password: str) -> bool:
        try:
            return bool(self.hasher.verify(stored, password))
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    # -- sessions -------------------------------------------------------------------------------
    def open_session(self, name: str) -> str:
        """A new signed-in session of ``name``: its random id (only a digest is stored)."""
        sid = new_secret()
        with Session(self.engine) as session, session.begin():
            session.add(
                PersonSessionRow(
                    sid_sha256=token_digest(sid), name=name, created_at=datetime.now(UTC)
                )
            )
        self._remember(token_digest(sid), name)
        return sid

    def close_session(self, sid: str) -> None:
        digest = token_digest(sid)
        with Session(self.engine) as session, session.begin():
            row = session.get(PersonSessionRow, digest)
            if row is not None:
                session.delete(row)
        self._remember(digest, None)

    def cached_session(self, sid: str) -> tuple[bool, str | None]:
        """(known, person) from memory: ``known`` False means ask :meth:`session_person`."""
        entry = self._sessions.get(token_digest(sid))
        if entry is not None and self.clock() - entry[1] < SESSION_RECHECK:
            return True, entry[0]
        return False, None

    def session_person(self, sid: str) -> str | None:
        """Whose signed-in session ``sid`` is, or None when it was closed (or never was)."""
        known, name = self.cached_session(sid)
        if known:
            return name
        digest = token_digest(sid)
        with Session(self.engine) as session:
            row = session.get(PersonSessionRow, digest)
            name = row.name if row is not None else None
        self._remember(digest, name)
        return name

    def _remember(self, digest: str, name: str | None) -> None:
        self._sessions.pop(digest, None)
        self._sessions[digest] = (name, self.clock())
        while len(self._sessions) > SESSION_CACHE:
            self._sessions.pop(next(iter(self._sessions)))

    def is_person(self, name: str) -> bool:
        with Session(self.engine) as session:
            return session.get(PersonRow, name) is not None


def hall_key(engine: Engine, name: str, size: int = 32) -> str:
    """The hall's secret key ``name``, made from :mod:`secrets` the first time and kept in the
    database (table ``hall_keys``) from then on."""
    for _ in range(3):
        with Session(engine) as session:
            row = session.get(HallKeyRow, name)
            if row is not None:
                return row.value
        try:
            with Session(engine) as session, session.begin():
                value = secrets.token_urlsafe(size)
                session.add(HallKeyRow(name=name, value=value, created_at=datetime.now(UTC)))
            return value
        except IntegrityError:
            continue  # another process made it first: read theirs
    raise RuntimeError(f"cannot make the hall key {name!r}")
