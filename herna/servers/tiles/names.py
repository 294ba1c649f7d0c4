"""Who may play under which name on the tile server.

One hub serves TCP and WebSocket connections, so one book of names serves both. A name is
**claimed** by the connection that is seated under it and stays that connection's until it
disconnects (or sits down under another name); meanwhile no other connection may use it,
whatever transport it comes by. Before that, :class:`~herna.hall.identity.Identity` decides
whether anyone may use the name at all: a reserved name (``herna bots add NAME``) needs its
token, a house bot's name is the server's own.

A name alone never gives anybody a seat that someone else sat down in: taking a seat back
after a lost connection needs the seat secret (see :mod:`herna.servers.tiles.returns`).
"""

from __future__ import annotations

from typing import Generic, TypeVar

from herna.hall.identity import Admission, Identity, Refusal, name_key

C = TypeVar("C")

NAME_TAKEN = "NAME_TAKEN"


class NameBook(Generic[C]):
    """Names claimed by connections (``C``: whatever stands for a connection)."""

    def __init__(self, identity: Identity) -> None:
        self.identity = identity
        self._holder: dict[str, C] = {}
        self._name: dict[C, str] = {}

    def check(self, who: C, name: str, token: str | None) -> Admission | Refusal:
        """May ``who`` sit down as ``name``, presenting ``token``?"""
        admission = self.identity.admit(name, token)
        if isinstance(admission, Refusal):
            return admission
        holder = self._holder.get(name_key(name))
        if holder is not None and holder is not who:
            # By look-alike key: ``Alice`` in use keeps out ``alice`` and ``Аlice`` too.
            taken = self._name.get(holder, name)
            return Refusal(NAME_TAKEN, f"another connection is playing as {taken!r}")
        return admission

    def claim(self, who: C, name: str) -> None:
        """``who`` is seated as ``name`` (after :meth:`check` admitted it)."""
        old = self._name.get(who)
        if old is not None and name_key(old) != name_key(name):
            del self._holder[name_key(old)]
        self._holder[name_key(name)] = who
        self._name[who] = name

    def release(self, who: C) -> None:
        """``who`` is gone: its name is free again."""
        name = self._name.pop(who, None)
        if name is not None and self._holder.get(name_key(name)) is who:
            del self._holder[name_key(name)]

    def name_of(self, who: C) -> str | None:
        return self._name.get(who)

    def holder(self, name: str) -> C | None:
        return self._holder.get(name_key(name))

    def __len__(self) -> int:
        return len(self._holder)
