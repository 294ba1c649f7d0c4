"""The login server's brain (seed 001, chapter 2), sans-I/O: registrations, player ids,
matchmaking, bot-server choice by load, ``newgroup init``/``ack`` and ``connect complete``.

The transport calls :meth:`Lobby.connection_made`, :meth:`Lobby.received` and
:meth:`Lobby.connection_lost`; the lobby answers through the ``send`` and ``close`` callbacks
it was given and sets timers on its :class:`~herna.core.clock.Clock`.

Matchmaking (spec-notes, "Matchmaking"; which members make a group is the pure
:mod:`herna.protocols.cgml.matching`, :meth:`~herna.protocols.cgml.matching.Pool.plan`):

- ``active`` players want a game now; ``passive`` ones (bots, people who do not mind) only
  fill groups around an active player. A connection that reports ``<load>`` is a *bot server*:
  it can supply any number of bots.
- ``<opponent>`` preferences are honoured: each entry names a player (by ``id`` or ``name``)
  or a bot server (by its ``id`` or ``name``: "a bot from that server") that must be in the
  group, or only a ``race`` ("human"/"bot": a member of that kind). A player whose preferred
  opponents are not available waits for them.
- Other active players and passive players join at once; when the group is still short after
  ``fill_wait`` seconds, the least-loaded bot server (by its latest ``<load>``, then by
  requests sent since) is asked for bots.
- Super game servers of the game take groups in turn; ``newgroup init`` carries a group
  ``id`` and the members (Herna extension) and the group is announced to its members with
  ``connect status="complete"`` once the server answers ``newgroup ack``.

Identity (docs/protocols/cgml.md, "Identity and seats"):

- A player id (and a ``<name>``) that is a reserved name, a house bot's included, needs its
  token (``connect token="..."``, Herna extension); the hall's
  :class:`~herna.hall.identity.Identity` decides, injected as a :class:`NameGuard`.
- A player id belongs to one login connection while it is open, and to its group from the
  moment the group is formed until the super game server reports it closed
  (``newgroup status="closed"``): nobody else may log in under it meanwhile.
- Group ids are unguessable (:func:`~herna.hall.identity.new_public_id`); a Herna super game
  server acknowledges with a *ticket* per member, and each member is told only its own
  ticket as the ``id`` of its ``connect complete``: the proof it shows when it joins.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, cast

from herna.core.clock import Clock, TimerHandle
from herna.hall.identity import Admission, Refusal, name_key, new_public_id
from herna.hall.lobby import CLOSED
from herna.hall.lobby import Lobby as HallLobby
from herna.protocols.cgml.matching import (
    Conn,
    Entry,
    Member,
    Pool,
    bot_servers,
)
from herna.protocols.cgml.matching import (
    ConnKey as ConnKey,
)
from herna.protocols.cgml.matching import (
    Role as Role,
)
from herna.protocols.cgml.messages import (
    ConnectComplete,
    ConnectPlayer,
    ConnectServer,
    Disconnect,
    Error,
    Load,
    Message,
    NewGroupAck,
    NewGroupClosed,
    NewGroupInit,
    PlayerRef,
)
from herna.protocols.cgml.seeks import GAME as SEEK_GAME
from herna.protocols.cgml.seeks import NO_SUCH_TOURNAMENT, SEEK_CANCELLED, HallSeeks, Waiting

log = logging.getLogger("herna.cgml.login")


ID_IN_USE = "ID_IN_USE"
WRONG_PHASE = "WRONG_PHASE"
UNEXPECTED = "UNEXPECTED"
MAX_DEALS_ROUTED = 4096
BAD_REGISTRATION = "BAD_REGISTRATION"


class NameGuard(Protocol):
    """Who may use a name (the hall's :class:`~herna.hall.identity.Identity`)."""

    def admit(self, name: str, token: str | None = None) -> Admission | Refusal: ...

    def is_reserved(self, name: str) -> bool: ...


class _FreeNames:
    """No reserved names at all (a lobby without a hall, in unit tests)."""

    def admit(self, name: str, token: str | None = None) -> Admission | Refusal:
        return Admission(name, verified=False)

    def is_reserved(self, name: str) -> bool:
        return False


@dataclass(frozen=True)
class LobbySettings:
    fill_wait: float = 0.5
    """Seconds an active player waits for other people before bots are asked to fill."""
    ack_timeout: float = 10.0
    """Seconds a super game server has to answer ``newgroup init``."""
    full_load: int = 100
    """Bot servers reporting at least this load get no requests."""
    named_only: frozenset[str] = frozenset()
    """Names of bot servers that supply bots only to players who ask for them by name (an
    ``<opponent>`` naming the server), never to fill a table: the hall's extra levels."""


@dataclass
class _GameServer:
    key: ConnKey
    game: str
    numplayers: int
    url: str
    groups: int = 0


@dataclass
class _Pending:
    group: str
    server: _GameServer
    game: str
    members: list[Member]
    timer: TimerHandle | None = None


@dataclass
class _Live:
    """A group its super game server runs and will report closed: its ids stay taken."""

    server: ConnKey
    ids: tuple[str, ...]


class Lobby:
    def __init__(
        self,
        clock: Clock,
        send: Callable[[ConnKey, Message], None],
        close: Callable[[ConnKey], None],
        settings: LobbySettings | None = None,
        names: NameGuard | None = None,
        hall_lobby: HallLobby | None = None,
    ) -> None:
        """``hall_lobby``: the hall's lobby, where waiting players are shown as seeks
        (:mod:`herna.protocols.cgml.seeks`); None, or one that another login server of the
        hall shows already: not shown."""
        self.clock = clock
        self.send = send
        self.close = close
        self.settings = settings or LobbySettings()
        self.names: NameGuard = names or _FreeNames()
        self._conns: dict[ConnKey, Conn] = {}
        # Both by look-alike key: ``Alice``, ``alice`` and ``Аlice`` are one id in use.
        self._ids: dict[str, ConnKey] = {}
        self._seated: dict[str, str] = {}
        """Player id -> group, for every member of a group being formed or played (bots
        included): such an id is nobody else's until the group ends."""
        self._live: dict[str, _Live] = {}
        self._queue: list[Entry] = []
        self._servers: dict[ConnKey, _GameServer] = {}
        self._rr = 0
        self._deal_servers: dict[str, ConnKey] = {}
        """The super game server each duplicate deal (by board tag) went to: the board's
        next groups go there too, where the deal's seed is (the newest
        :data:`MAX_DEALS_ROUTED`: a board's groups follow each other)."""
        self._pending: dict[str, _Pending] = {}
        self._auto_ids = itertools.count(1)
        self._timer: TimerHandle | None = None
        self._timer_at: float | None = None
        self.groups_formed = 0
        self.bots_requested = 0
        self.plan: Callable[[], tuple[str, ...] | None] | None = None
        """Set by ``herna match``: the player ids of the next group, in seat order. The login
        server then forms exactly that group once all of them wait, and no other."""
        self.hall_lobby = hall_lobby
        """The hall's lobby: besides the seeks, it says when the hall takes no new games."""
        self.hall_seeks: HallSeeks | None = None
        if hall_lobby is not None and not hall_lobby.listening(SEEK_GAME):
            self.hall_seeks = HallSeeks(hall_lobby, self._seek_cancelled, self._start_booked)

    # -- transport interface ---------------------------------------------------------------
    def connection_made(self, key: ConnKey, role: Role) -> None:
        self._conns[key] = Conn(key, role)

    def identified(self, key: ConnKey) -> bool:
        """Whether the connection has had a ``connect`` accepted: a player, bot or bot server
        on the player port, a registered super game server on the server port."""
        conn = self._conns.get(key)
        if conn is None:
            return False
        return key in self._servers if conn.role == "server" else conn.player is not None

    def connection_lost(self, key: ConnKey) -> None:
        conn = self._conns.pop(key, None)
        if conn is None:
            return
        pid = conn.player.id if conn.player is not None else None
        if pid is not None and self._ids.get(name_key(pid)) == key:
            del self._ids[name_key(pid)]
        self._queue = [w for w in self._queue if w.key != key]
        server = self._servers.pop(key, None)
        if server is not None:
            for pending in [p for p in self._pending.values() if p.server is server]:
                log.warning("super game server %s left before acking %s", server.url, pending.group)
                self._fail_pending(pending)
            # Its groups can no longer be reported closed: free their ids now rather than
            # never (the groups' seats stay protected by their tickets).
            for group in [g for g, live in self._live.items() if live.server == key]:
                self._release(group)
        self._match()

    def received(self, key: ConnKey, message: Message) -> None:
        conn = self._conns.get(key)
        if conn is None:
            return
        if isinstance(message, Disconnect):
            log.info("connection %s disconnects: %s", key, message.reason)
            self.close(key)
            return
        if conn.role == "server":
            self._server_message(conn, message)
        else:
            self._player_message(conn, message)

    # -- super game servers ----------------------------------------------------------------
    def _server_message(self, conn: Conn, message: Message) -> None:
        if isinstance(message, ConnectServer):
            if message.numplayers < 2 or not message.url or not message.game:
                self.send(
                    conn.key,
                    Error(
                        "numplayers must be at least 2, url and game must not be empty",
                        BAD_REGISTRATION,
                    ),
                )
                return
            self._servers[conn.key] = _GameServer(
                conn.key, message.game, message.numplayers, message.url
            )
            log.info("super game server for %s registered at %s", message.game, message.url)
            self._match()
        elif isinstance(message, NewGroupAck):
            self._ack(conn, message)
        elif isinstance(message, NewGroupClosed):
            live = self._live.get(message.group)
            if live is None or live.server != conn.key:
                self.send(conn.key, Error("no such group of yours is running", WRONG_PHASE))
                return
            self._release(message.group)
            log.info("group %s closed", message.group)
        else:
            self.send(
                conn.key,
                Error(f"<{message.tag}> is not expected from a super game server", UNEXPECTED),
            )

    def _ack(self, conn: Conn, message: NewGroupAck) -> None:
        server = self._servers.get(conn.key)
        pending: _Pending | None = None
        if message.group is not None:
            pending = self._pending.get(message.group)
        elif server is not None:
            # A plain seed server sends no id: take its oldest open request.
            pending = next((p for p in self._pending.values() if p.server is server), None)
        if pending is None or pending.server is not server:
            self.send(conn.key, Error("no such group is waiting for an ack", WRONG_PHASE))
            return
        del self._pending[pending.group]
        if pending.timer is not None:
            pending.timer.cancel()
        pending.server.groups += 1
        self.groups_formed += 1
        ids = tuple(m.player.id or "" for m in pending.members)
        tickets = dict(zip((p.id for p in message.players), message.tickets, strict=False))
        if message.tickets and all(i in tickets for i in ids):
            # A Herna super game server: it reports the group closed; until then its ids
            # are taken.
            self._live[pending.group] = _Live(conn.key, ids)
        else:
            # A plain seed server never says when the group ends: free the ids now.
            self._release(pending.group, ids)
            tickets = {}
        for member in pending.members:
            others = tuple(m.player for m in pending.members if m is not member)
            complete = ConnectComplete(
                tickets.get(member.player.id, pending.group),
                pending.game,
                others,
                pending.server.url,
                member.player.id,
            )
            conn_m = self._conns.get(member.key)
            if conn_m is None:
                continue
            if not member.bot and conn_m.reserved == pending.group:
                conn_m.reserved = None
            self.send(member.key, complete)
        log.info(
            "group %s at %s: %s",
            pending.group,
            pending.server.url,
            ", ".join(f"{m.player.id}" for m in pending.members),
        )

    # -- players and bot servers -----------------------------------------------------------
    def _player_message(self, conn: Conn, message: Message) -> None:
        if isinstance(message, ConnectPlayer):
            self._connect(conn, message)
        elif isinstance(message, Load):
            if conn.player is None:
                self.send(conn.key, Error("send <connect> before <load>", WRONG_PHASE))
                return
            if conn.load is None:
                log.info(
                    "bot server %s (%s) reports load %d",
                    conn.player.id,
                    conn.player.name,
                    message.value,
                )
            conn.load = message.value
            conn.inflight = 0
            self._queue = [w for w in self._queue if w.key != conn.key]
            self._match()
        else:
            self.send(
                conn.key, Error(f"<{message.tag}> is not expected at the login server", UNEXPECTED)
            )

    def _taken(self, pid: str) -> bool:
        return name_key(pid) in self._ids or name_key(pid) in self._seated

    def _connect(self, conn: Conn, message: ConnectPlayer) -> None:
        if conn.reserved is not None:
            self.send(conn.key, Error("a group is being formed for you", WRONG_PHASE))
            return
        player = message.player
        pid = player.id
        if pid is None or not pid:
            if conn.player is not None and conn.player.id is not None:
                pid = conn.player.id
            else:
                pid = f"p{next(self._auto_ids)}"
                while self._taken(pid) or self.names.is_reserved(pid):
                    pid = f"p{next(self._auto_ids)}"
        # The id and the name each need the token when reserved: one token proves one name,
        # so a client with a reserved name uses it as both (or leaves <name> out).
        verified = True
        for label in dict.fromkeys(x for x in (pid, player.name) if x):
            verdict = self.names.admit(label, message.token)
            if isinstance(verdict, Refusal):
                # WARNING with the name: what an operator looks for when a player says "it
                # does not let me in".
                log.warning(
                    "mariáš: %s refused at the login server (connection %s): %s (%s)",
                    label,
                    conn.key,
                    verdict.code,
                    verdict.reason,
                )
                self.send(conn.key, Error(verdict.reason, verdict.code))
                return
            verified = verified and verdict.verified
        holder = self._ids.get(name_key(pid))
        if holder is not None and holder != conn.key:
            log.warning("mariáš: %s refused at the login server: %s (in use)", pid, ID_IN_USE)
            self.send(conn.key, Error(f"player id {pid} is already in use", ID_IN_USE))
            return
        if name_key(pid) in self._seated:
            self.send(
                conn.key,
                Error(
                    f"player id {pid} is playing in a group; log in again when it is over",
                    ID_IN_USE,
                ),
            )
            return
        if conn.player is not None and conn.player.id not in (None, pid):
            self._ids.pop(name_key(conn.player.id or ""), None)
        race = player.race or ("bot" if message.status == "passive" else "human")
        if message.tournament is not None and conn.load is None:
            problem = self._tournament_problem(pid, race, message.tournament, verified)
            if problem is not None:
                code, reason = problem
                log.warning("mariáš: %s refused for tournament: %s (%s)", pid, code, reason)
                self.send(conn.key, Error(reason, code))
                return
        self._ids[name_key(pid)] = conn.key
        conn.player = PlayerRef(pid, player.name or pid, race)
        if conn.load is not None:
            return  # a bot server re-introducing itself stays a bot server
        closed = self._closed()
        if closed is not None:
            # No group is formed while the hall takes no new games: said at once, in the
            # login server's own error, rather than a wait for nothing.
            log.warning("mariáš: %s refused at the login server: %s (%s)", pid, CLOSED, closed)
            self._queue = [w for w in self._queue if w.key != conn.key]
            self.send(conn.key, Error(closed, CLOSED))
            return
        old = next((w for w in self._queue if w.key == conn.key), None)
        entry = Entry(
            conn.key,
            conn.player,
            message.status,
            message.game,
            message.opponents,
            old.since if old is not None else self.clock.now(),
            message.fill,
            message.tournament,
        )
        self._queue = [w for w in self._queue if w.key != conn.key]
        self._queue.append(entry)
        self._match()

    # -- matchmaking -----------------------------------------------------------------------
    def _bot_servers(self) -> list[Conn]:
        return bot_servers(self._conns.values())

    def _closed(self) -> str | None:
        """Why the hall takes no new games (its lobby's word), or None."""
        return self.hall_lobby.closed if self.hall_lobby is not None else None

    def _match(self) -> None:
        if self._closed() is not None:
            self._show_seeks()
            return
        if self.plan is not None:
            self._planned()
            self._show_seeks()
            return
        now = self.clock.now()
        next_deadline: float | None = None
        progress = True
        while progress:
            progress = False
            # A plain entry (no preferences) that found no group means no other plain entry
            # of that game can find one with the same permission to use bots: skip them.
            stuck: set[tuple[str, bool]] = set()
            for entry in list(self._queue):
                if entry.status != "active" or entry not in self._queue or entry.tournament:
                    continue
                servers = [s for s in self._servers.values() if s.game == entry.game]
                if not servers:
                    continue
                wait = entry.fill_wait(self.settings.fill_wait)
                allow_bots = now - entry.since >= wait
                plain = not entry.opponents
                plan = None
                if not (plain and (entry.game, allow_bots) in stuck):
                    pool = Pool(
                        self._queue,
                        self._conns.values(),
                        self.settings.full_load,
                        self.settings.named_only,
                    )
                    plan = pool.plan(entry, servers[0].numplayers, allow_bots)
                if plan is None:
                    if plain:
                        stuck.add((entry.game, allow_bots))
                    if not allow_bots:
                        deadline = entry.since + wait
                        if next_deadline is None or deadline < next_deadline:
                            next_deadline = deadline
                    continue
                self._start_group(entry.game, servers, plan)
                progress = True
        self._schedule(next_deadline)
        self._show_seeks()

    def _show_seeks(self) -> None:
        """The hall's lobby lists exactly the players waiting here (see :class:`HallSeeks`)."""
        if self.hall_seeks is None:
            return
        seats = next((s.numplayers for s in self._servers.values()), 3)
        waiting = [
            Waiting(
                w.key,
                w.player,
                w.opponents,
                seats,
                w.fill_wait(self.settings.fill_wait),
                w.tournament,
            )
            for w in self._queue
            if w.key in self._conns and self._conns[w.key].load is None
        ]
        grouped = [c.key for c in self._conns.values() if c.reserved is not None]
        servers = [c.player.name or c.player.id or "" for c in self._bot_servers() if c.player]
        self.hall_seeks.sync(waiting, grouped, servers, self.clock.now())

    def _seek_cancelled(
        self,
        key: object,
        code: str = SEEK_CANCELLED,
        reason: str = "your seek was cancelled in the lobby",
    ) -> None:
        """Its owner cancelled the seek on the lobby page (or its tournament is over): that
        connection's wait ends."""
        conn = self._conns.get(cast(ConnKey, key))
        if conn is None or conn.reserved is not None:
            return
        self.send(conn.key, Error(reason, code))
        self.close(conn.key)

    # -- live tournaments ------------------------------------------------------------------
    def _tournament_problem(
        self, pid: str, race: str, tournament: str, verified: bool
    ) -> tuple[str, str] | None:
        """Why ``pid`` may not wait for ``tournament`` (the hall's lobby decides), or None."""
        if self.hall_seeks is None:
            return NO_SUCH_TOURNAMENT, "this login server holds no tournaments"
        return self.hall_seeks.tournament_problem(pid, race, tournament, verified)

    def _start_booked(
        self, keys: list[object], tag: str, games: int | None, duplicate: bool = False
    ) -> bool:
        """Form the group a tournament booked: these waiting players, in seat order."""
        entries = {w.key: w for w in self._queue}
        chosen = [entries.get(cast(ConnKey, k)) for k in keys]
        if any(w is None for w in chosen):
            return False
        waiting = [w for w in chosen if w is not None]
        game = waiting[0].game
        servers = [s for s in self._servers.values() if s.game == game]
        if not servers or servers[0].numplayers != len(waiting):
            return False
        members = [Member(w.player, w.key, False, w) for w in waiting]
        self._start_group(game, servers, members, tag, games, duplicate)
        self._show_seeks()
        return True

    def _planned(self) -> None:
        """The group :attr:`plan` names, as soon as all its players wait."""
        assert self.plan is not None
        ids = self.plan()
        if not ids:
            return
        waiting = {w.player.id: w for w in self._queue}
        if not all(pid in waiting for pid in ids):
            return
        entries = [waiting[pid] for pid in ids]
        game = entries[0].game
        servers = [s for s in self._servers.values() if s.game == game]
        if servers and servers[0].numplayers == len(entries):
            members = [Member(w.player, w.key, False, w) for w in entries]
            self._start_group(game, servers, members)

    def _load(self, server: _GameServer) -> int:
        """Groups a super game server runs or is creating: what balancing compares."""
        live = sum(1 for g in self._live.values() if g.server == server.key)
        return live + sum(1 for p in self._pending.values() if p.server is server)

    def _start_group(
        self,
        game: str,
        servers: list[_GameServer],
        members: list[Member],
        tournament: str | None = None,
        games: int | None = None,
        duplicate: bool = False,
    ) -> None:
        # The least loaded super game server gets the group; among equals, the next in turn,
        # so that servers started together fill evenly.
        order = {id(s): (i - self._rr) % len(servers) for i, s in enumerate(servers)}
        self._rr += 1
        server = min(servers, key=lambda s: (self._load(s), order[id(s)]))
        if duplicate and tournament is not None:
            # The deal's seed is on the server that dealt its first group.
            kept = next((s for s in servers if s.key == self._deal_servers.get(tournament)), None)
            server = kept or server
            self._deal_servers[tournament] = server.key
            while len(self._deal_servers) > MAX_DEALS_ROUTED:
                del self._deal_servers[next(iter(self._deal_servers))]
        group = new_public_id()
        while group in self._pending or group in self._live:
            group = new_public_id()
        final: list[Member] = []
        for m in members:
            if m.bot:
                source = self._conns[m.key]
                assert source.player is not None and source.player.id is not None
                n = next(source.bot_seq)
                pid = f"{source.player.id}.{n}"
                while self._taken(pid):
                    pid = f"{source.player.id}.{next(source.bot_seq)}"
                name = source.player.name or source.player.id
                final.append(Member(PlayerRef(pid, name, "bot"), m.key, True, None, source))
                source.inflight += 1
                self.bots_requested += 1
            else:
                assert m.entry is not None
                self._queue.remove(m.entry)
                self._conns[m.key].reserved = group
                final.append(m)
        for m in final:
            self._seated[name_key(m.player.id or "")] = group
        pending = _Pending(group, server, game, final)
        self._pending[group] = pending
        pending.timer = self.clock.call_later(
            self.settings.ack_timeout, lambda: self._ack_timeout(group)
        )
        self.send(
            server.key,
            NewGroupInit(game, group, tuple(m.player for m in final), tournament, games, duplicate),
        )

    def _ack_timeout(self, group: str) -> None:
        pending = self._pending.get(group)
        if pending is None:
            return
        log.warning("super game server %s did not ack group %s", pending.server.url, group)
        self._fail_pending(pending)
        self._match()

    def _fail_pending(self, pending: _Pending) -> None:
        """Put the people of a group that could not be created back at the queue's front."""
        self._pending.pop(pending.group, None)
        if pending.timer is not None:
            pending.timer.cancel()
        self._release(pending.group, tuple(m.player.id or "" for m in pending.members))
        back: list[Entry] = []
        for m in pending.members:
            conn = self._conns.get(m.key)
            if conn is not None and m.bot and conn.inflight > 0:
                conn.inflight -= 1
            if conn is None or m.bot or m.entry is None:
                continue
            conn.reserved = None
            back.append(m.entry)
        self._queue[:0] = back

    def _release(self, group: str, ids: tuple[str, ...] = ()) -> None:
        """The group is over (or was never formed): its members' ids are free again."""
        live = self._live.pop(group, None)
        for pid in ids or (live.ids if live is not None else ()):
            if self._seated.get(name_key(pid)) == group:
                del self._seated[name_key(pid)]

    def _schedule(self, at: float | None) -> None:
        if at is None or (self._timer_at is not None and self._timer_at <= at):
            return
        if self._timer is not None:
            self._timer.cancel()
        self._timer_at = at

        def fire() -> None:
            self._timer = None
            self._timer_at = None
            self._match()

        self._timer = self.clock.call_later(max(0.0, at - self.clock.now()), fire)

    # -- introspection ---------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        return {
            "waiting": [
                {
                    "id": w.player.id,
                    "name": w.player.name,
                    "status": w.status,
                    "game": w.game,
                    "opponents": [p.id or p.name or p.race for p in w.opponents],
                }
                for w in self._queue
            ],
            "bot_servers": [
                {"id": c.player.id, "name": c.player.name, "load": c.load, "inflight": c.inflight}
                for c in self._bot_servers()
                if c.player is not None
            ],
            "game_servers": [
                {
                    "game": s.game,
                    "url": s.url,
                    "numplayers": s.numplayers,
                    "groups": s.groups,
                    "load": self._load(s),
                }
                for s in self._servers.values()
            ],
            "pending_groups": sorted(self._pending),
            "live_groups": len(self._live),
            "seated": len(self._seated),
            "groups_formed": self.groups_formed,
            "bots_requested": self.bots_requested,
        }
