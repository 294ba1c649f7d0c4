"""The login server's preference matching, pure: which waiting players (and which bots
of which bot servers) make a group around an active player, honouring every member's
``<opponent>`` preferences (see :mod:`herna.protocols.cgml.lobby`, "Matchmaking").

No I/O, no clock and no state of its own: :meth:`Pool.plan` reads the queue and the
connections it is given and returns the members of a group, or None. The
:class:`~herna.protocols.cgml.lobby.Lobby` owns the queue and the connections and forms the
group a plan names.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from herna.protocols.cgml.messages import PlayerRef

ConnKey = int
Role = Literal["player", "server"]


@dataclass
class Conn:
    """A connection to the login server: a player, a bot server or a super game server."""

    key: ConnKey
    role: Role
    player: PlayerRef | None = None
    """The identity sent in ``connect`` (player port)."""
    load: int | None = None
    """Latest ``<load>``: set means this connection is a bot server."""
    inflight: int = 0
    """Bots requested from this bot server since its latest ``<load>``."""
    bot_seq: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    reserved: str | None = None
    """Group id while this player is part of a group awaiting ``ack``."""


@dataclass
class Entry:
    """A player waiting in the queue for a group (its latest ``connect``)."""

    key: ConnKey
    player: PlayerRef
    status: str
    game: str
    opponents: tuple[PlayerRef, ...]
    since: float
    fill: float | None = None
    """Its own fill wait (``<connect fill>``, Herna extension); None: the login server's."""
    tournament: str | None = None
    """The live tournament it waits for (``<connect tournament>``, Herna extension): it is
    grouped only when the tournament books it, never by preferences or with bots."""

    def fill_wait(self, default: float) -> float:
        return default if self.fill is None else self.fill


@dataclass
class Member:
    """A member of a planned group: a waiting player or a bot still to be named."""

    player: PlayerRef
    key: ConnKey
    """The player's connection, or the bot server's for a bot."""
    bot: bool
    entry: Entry | None = None
    source: Conn | None = None
    """The bot server that supplies this bot."""


def bot_servers(conns: Iterable[Conn]) -> list[Conn]:
    """The connections that report a load: bot servers."""
    return [c for c in conns if c.load is not None and c.player is not None]


def names(pref: PlayerRef, player: PlayerRef) -> bool:
    """Whether ``pref`` names ``player`` (by id, else by name)."""
    if pref.id is not None:
        return pref.id == player.id
    if pref.name is not None:
        return pref.name == player.name
    return False


def fulfils(pref: PlayerRef, member: Member) -> bool:
    """Whether ``member`` is the wanted player, a bot of the wanted bot server or of the
    wanted race."""
    if pref.id is None and pref.name is None:
        return pref.race is not None and member.player.race == pref.race
    if names(pref, member.player):
        return True
    src = member.source
    return src is not None and src.player is not None and names(pref, src.player)


def satisfied(pref: PlayerRef, members: list[Member]) -> bool:
    return any(fulfils(pref, m) for m in members)


def all_satisfied(owner: Member, members: list[Member]) -> bool:
    """Each of ``owner``'s preferences is fulfilled by a different other member (named
    players first, then "any bot"/"any human")."""
    if owner.entry is None or not owner.entry.opponents:
        return True
    prefs = sorted(owner.entry.opponents, key=lambda p: p.id is None and p.name is None)
    free = [m for m in members if m is not owner]
    for pref in prefs:
        match = next((m for m in free if fulfils(pref, m)), None)
        if match is None:
            return False
        free.remove(match)
    return True


@dataclass(frozen=True)
class Pool:
    """What a group is planned from: the waiting entries (oldest first), every connection
    (the bot servers among them) and the limits on asking bot servers for bots."""

    queue: Sequence[Entry]
    conns: Collection[Conn]
    full_load: int
    """Bot servers reporting at least this load get no requests."""
    named_only: frozenset[str]
    """Bot servers that supply bots only to players who name them."""

    def least_loaded(self, tentative: dict[ConnKey, int], only: Conn | None = None) -> Conn | None:
        """The bot server with the lowest latest load (then fewest requests since)."""
        candidates = (
            [only]
            if only is not None
            else [
                c
                for c in bot_servers(self.conns)
                if c.player is None or c.player.name not in self.named_only
            ]
        )
        usable = [c for c in candidates if c.load is not None and c.load < self.full_load]
        if not usable:
            return None
        return min(usable, key=lambda c: (c.load, c.inflight + tentative.get(c.key, 0), c.key))

    def pref_bot_server(self, pref: PlayerRef) -> Conn | None:
        if pref.id is None and pref.name is None:
            return None
        for c in bot_servers(self.conns):
            assert c.player is not None
            if names(pref, c.player):
                return c
        return None

    def plan(self, first: Entry, size: int, allow_bots: bool) -> list[Member] | None:
        """A group around ``first`` that satisfies everyone's preferences, or None."""
        members = [Member(first.player, first.key, False, first)]
        taken = {first.key}
        tentative: dict[ConnKey, int] = {}

        def add_waiting(w: Entry) -> None:
            members.append(Member(w.player, w.key, False, w))
            taken.add(w.key)

        def add_bot(server: Conn) -> None:
            assert server.player is not None
            tentative[server.key] = tentative.get(server.key, 0) + 1
            members.append(
                Member(PlayerRef(None, server.player.name, "bot"), server.key, True, None, server)
            )

        # 1. The first player's preferences must all be fulfilled, each by its own member.
        for pref in sorted(first.opponents, key=lambda p: p.id is None and p.name is None):
            candidate = next(
                (
                    w
                    for w in self.queue
                    if w.key not in taken
                    and not w.tournament
                    and w.game == first.game
                    and fulfils(pref, Member(w.player, w.key, False, w))
                ),
                None,
            )
            if candidate is not None:
                add_waiting(candidate)
                continue
            server = self.pref_bot_server(pref)
            if server is not None:
                server = self.least_loaded(tentative, server)
            elif pref.id is None and pref.name is None and pref.race == "bot":
                server = self.least_loaded(tentative)
            if server is None:
                return None  # a wanted opponent is not available (yet)
            add_bot(server)
        if len(members) > size:
            return None
        # 2. Other people: active first, then passive, oldest first.
        for status in ("active", "passive"):
            for w in self.queue:
                if len(members) >= size:
                    break
                if w.key in taken or w.status != status or w.game != first.game or w.tournament:
                    continue
                newcomer = Member(w.player, w.key, False, w)
                if all(satisfied(p, [*members, newcomer]) for p in w.opponents):
                    add_waiting(w)
        # 3. Bots from the least-loaded bot server.
        while len(members) < size:
            if not allow_bots:
                return None
            server = self.least_loaded(tentative)
            if server is None:
                return None
            add_bot(server)
        # Everyone's preferences must hold in the final group.
        if not all(all_satisfied(m, members) for m in members):
            return None
        return members
