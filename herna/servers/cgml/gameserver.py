"""The CGML super game server (Superhrací server): registers with the login server, creates
groups on ``newgroup init``, admits exactly the announced players (``newgroup accept``) and
runs each group (:class:`~herna.servers.cgml.group.Group`).

A connection to the player port identifies itself by joining its group (an admitted
``newgroup status="accept"`` or ``"reject"``); one that has not done so within
``login_timeout`` seconds gets ``<error code="LOGIN_TIMEOUT">`` and is closed (Herna
extension, see :mod:`herna.servers.deadlines`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import Any

from herna.clients.cgml import Backoff
from herna.core.clock import Clock
from herna.core.rng import SeedSource
from herna.hall.events import EventBus
from herna.hall.identity import new_public_id
from herna.hall.records import RecordStore
from herna.protocols.cgml.messages import (
    GAME_MARIAS,
    ConnectServer,
    Disconnect,
    Error,
    Message,
    NewGroupAck,
    NewGroupAnswer,
    NewGroupClosed,
    NewGroupInit,
    public_group,
)
from herna.servers.cgml.conn import STALL_TIMEOUT, CgmlConnection, close_for_login_timeout
from herna.servers.cgml.group import Group, GroupHooks
from herna.servers.cgml.group_core import GroupCore
from herna.servers.cgml.seats import GroupSettings, Member
from herna.servers.conncap import ConnectionCap
from herna.servers.deadlines import DEFAULT_LOGIN_TIMEOUT, LoginDeadlines
from herna.servers.gamelog import refused

log = logging.getLogger("herna.cgml.game")

_JOIN = '<newgroup status="accept">'
"""How the login timeout's error names what a player connection should have sent."""
DEALS_KEPT = 4096
"""Duplicate deals a super game server remembers (a board's groups follow each other)."""


class SuperGameServer:
    def __init__(
        self,
        clock: Clock,
        settings: GroupSettings | None = None,
        bus: EventBus | None = None,
        records: RecordStore | None = None,
        stall_timeout: float = STALL_TIMEOUT,
        house_names: frozenset[str] = frozenset(),
        name: str = "sgs",
        login_timeout: float = DEFAULT_LOGIN_TIMEOUT,
        seeds: SeedSource | None = None,
        closed: Callable[[], str | None] | None = None,
    ) -> None:
        self.clock = clock
        self.closed = closed
        """Why the hall takes no new games (its lobby says), or None: no new deal then."""
        self.settings = settings or GroupSettings()
        self.bus = bus
        self.records = records
        self.stall_timeout = stall_timeout
        self.house_names = house_names
        self.name = name
        self.groups: dict[str, Group] = {}
        self.conns: set[CgmlConnection] = set()
        self.deadlines: LoginDeadlines[CgmlConnection] = LoginDeadlines(
            clock,
            login_timeout,
            lambda conn: close_for_login_timeout(conn, _JOIN, login_timeout),
        )
        """Player connections that have not joined their group yet."""
        self.server: asyncio.Server | None = None
        self.cap: ConnectionCap | None = None
        self.address: tuple[str, int] = ("", 0)
        self.url = ""
        self.login: CgmlConnection | None = None
        self._login_task: asyncio.Task[None] | None = None
        self._stopping = False
        self.registered = asyncio.Event()
        self.reactions: deque[float] = deque(maxlen=100_000)
        self.seeds = seeds or SeedSource()
        """Every game's seed and each group's first dealer: from :mod:`secrets`, or from a
        fixed seed (``--cgml-seed``) for reproducible runs."""
        self.deals: OrderedDict[str, int] = OrderedDict()
        """Duplicate deals' seeds by the board's tournament tag (the newest :data:`DEALS_KEPT`):
        every group of one board is dealt the same cards."""
        self.reported: set[str] = set()
        """Groups the login server announced with an id and members: reported closed."""
        self.groups_created = 0
        self.games_finished = 0

    # -- start / stop ------------------------------------------------------------------------
    async def start(
        self,
        host: str,
        port: int,
        login_host: str,
        login_port: int,
        public_host: str | None = None,
    ) -> None:
        """Listen for players on ``host:port`` and register at the login server; the url
        players are sent to is ``public_host`` (default: the bound address) and the port."""
        loop = asyncio.get_running_loop()
        self.server = await loop.create_server(self._player_protocol, host, port)
        self.address = self.server.sockets[0].getsockname()[:2]
        self.cap = ConnectionCap(f"{self.name} (port {self.address[1]})")
        self.url = f"{public_host or self.address[0]}:{self.address[1]}"
        self._login_task = asyncio.create_task(self._login_loop(login_host, login_port))

    async def stop(self) -> None:
        self._stopping = True
        self.deadlines.cancel_all()
        if self._login_task is not None:
            self._login_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._login_task
        if self.login is not None:
            self.login.close()
        for group in list(self.groups.values()):
            group.shutdown()
        for conn in list(self.conns):
            conn.close()
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()

    # -- the link to the login server ------------------------------------------------------
    async def _login_loop(self, host: str, port: int) -> None:
        loop = asyncio.get_running_loop()
        waits = Backoff()
        while not self._stopping:
            lost = loop.create_future()

            def closed(conn: CgmlConnection, lost: asyncio.Future[None] = lost) -> None:
                if not lost.done():
                    lost.set_result(None)

            try:
                _, conn = await loop.create_connection(
                    lambda closed=closed: CgmlConnection(  # type: ignore[misc]
                        self._login_message,
                        closed,
                        self.clock,
                        self.stall_timeout,
                        name=f"{self.name}-login",
                    ),
                    host,
                    port,
                )
            except OSError as e:
                delay = waits.next()
                log.info(
                    "%s: login server %s:%s not reachable (%s); again in %.1f s",
                    self.name,
                    host,
                    port,
                    e,
                    delay,
                )
                await asyncio.sleep(delay)
                continue
            waits.reset()
            self.login = conn
            conn.send(ConnectServer(GAME_MARIAS, 3, self.url))
            self.registered.set()
            log.info(
                "%s: registered at the login server %s:%s as %s", self.name, host, port, self.url
            )
            await lost
            self.registered.clear()
            self.login = None
            if not self._stopping:
                delay = waits.next()
                log.warning(
                    "%s: lost the login server; registering again in %.1f s", self.name, delay
                )
                await asyncio.sleep(delay)

    def _login_message(self, conn: CgmlConnection, message: Message) -> None:
        if isinstance(message, NewGroupInit):
            self._new_group(conn, message)
        elif isinstance(message, Error):
            log.warning(
                "%s: the login server says: %s (%s)", self.name, message.reason, message.code
            )
        elif isinstance(message, Disconnect):
            log.warning("%s: the login server disconnects: %s", self.name, message.reason)
            conn.close()
        else:
            conn.send(Error(f"<{message.tag}> is not expected from the login server", "UNEXPECTED"))

    def _new_group(self, conn: CgmlConnection, message: NewGroupInit) -> None:
        if message.game != GAME_MARIAS:
            conn.send(Error(f"this server plays {GAME_MARIAS}, not {message.game}", "UNKNOWN_GAME"))
            return
        group_id = message.group or new_public_id()
        if group_id in self.groups:
            conn.send(Error(f"group {group_id} exists already", "GROUP_EXISTS"))
            return
        if len(message.players) not in (0, 3) or len({p.id for p in message.players}) != len(
            message.players
        ):
            conn.send(Error("a mariáš group has three players with distinct ids", "BAD_GROUP"))
            return
        hooks = GroupHooks(
            bus=self.bus,
            records=self.records,
            on_closed=self._group_closed,
            on_reaction=self.reactions.append,
            on_game_over=self._game_over,
            house_names=self.house_names,
            closed=self.closed,
        )
        group = Group(
            group_id,
            message.players,
            self.clock,
            self.settings,
            hooks,
            self.url,
            self.seeds,
            message.tournament,
            message.games,
            self._deal_seed(message.tournament) if message.duplicate else None,
        )
        self.groups[group_id] = group
        self.groups_created += 1
        if message.group is not None and message.players:
            self.reported.add(group_id)
        conn.send(NewGroupAck(message.game, group_id, message.players, group.tickets()))

    def _deal_seed(self, tag: str | None) -> int:
        """The seed of the duplicate deal ``tag`` names: drawn for its first group, the same
        for the others (the seeds stay the server's: no client names one)."""
        key = tag or ""
        seed = self.deals.get(key)
        if seed is None:
            seed = self.deals[key] = self.seeds.next_seed()
            while len(self.deals) > DEALS_KEPT:
                self.deals.popitem(last=False)
        return seed

    def _group_closed(self, group: GroupCore) -> None:
        self.groups.pop(group.id, None)
        if group.id in self.reported:
            self.reported.discard(group.id)
            login = self.login
            if login is not None and not login.closed:
                # Written at once, ahead of the members' connections closing (see Group).
                login.send(NewGroupClosed(GAME_MARIAS, group.id))
                login.flush()

    def _game_over(self) -> None:
        self.games_finished += 1

    # -- players -------------------------------------------------------------------------------
    def _player_protocol(self) -> CgmlConnection:
        conn = CgmlConnection(
            self._player_message,
            self._player_lost,
            self.clock,
            self.stall_timeout,
            name=f"{self.name}-player",
        )
        conn.cap = self.cap
        self.conns.add(conn)
        self.deadlines.start(conn)
        return conn

    def _player_message(self, conn: CgmlConnection, message: Message) -> None:
        ctx = conn.context
        if isinstance(ctx, tuple):
            group, member = ctx
            group.received(member, message)
            return
        if isinstance(message, Disconnect):
            conn.close()
            return
        if not isinstance(message, NewGroupAnswer):
            conn.send(
                Error('join your group first: <newgroup status="accept" id=...>', "NOT_JOINED")
            )
            return
        group, secret = self._group_of(message.group)
        if group is None:
            shown = public_group(message.group)
            conn.send(Error(f"there is no group {shown} here", "UNKNOWN_GROUP"))
            return
        result = group.join(conn, message, secret)
        if isinstance(result, str):
            reasons = {
                "NOT_INVITED": f"that is not an invitation to group {group.id}: join with the "
                "id of the connect complete the login server sent you",
                "NOT_IN_GROUP": f"player {message.player.id} is not a member of group {group.id}",
                "ID_IN_USE": f"that seat of group {group.id} is taken already",
                "GROUP_STARTED": f"group {group.id} has started",
            }
            conn.send(Error(reasons.get(result, result), result))
            refused(
                log,
                "mariáš",
                message.player.id or "",
                str(conn.peer),
                result,
                reasons.get(result, result),
            )
            return
        conn.context = (group, result)
        self.deadlines.done(conn)

    def _group_of(self, ticket: str) -> tuple[Group | None, str | None]:
        """The group a ``newgroup accept`` id names, and the ticket's secret: a ticket is the
        group id, a dot and the secret; a group that admits by id is named by its id."""
        group = self.groups.get(ticket)
        if group is not None:
            return group, None
        head, dot, secret = ticket.rpartition(".")
        if not dot:
            return None, None
        return self.groups.get(head), secret

    def _player_lost(self, conn: CgmlConnection) -> None:
        self.deadlines.done(conn)
        self.conns.discard(conn)
        ctx = conn.context
        if isinstance(ctx, tuple):
            group, member = ctx
            assert isinstance(member, Member)
            if member.peer is conn:
                group.member_lost(member)

    # -- introspection -------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        return {
            "url": self.url,
            "registered": self.registered.is_set(),
            "connections": len(self.conns),
            "awaiting_login": len(self.deadlines),
            "login_timeouts": self.deadlines.expired,
            "groups": [g.snapshot() for g in self.groups.values()],
            "groups_created": self.groups_created,
            "games_finished": self.games_finished,
        }
