"""Who sits where on the Onitama server: settings, connections, players and tables.

Plain data that :class:`~herna.servers.onitama.hub.OnitamaHub` (the lobby and the games) and
:class:`~herna.servers.onitama.clocks.TableClocks` (the clocks and stand-ins) share.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from herna.core.clock import Clock, TimerHandle
from herna.games.onitama.state import Action, OnitamaState
from herna.hall.clocks import DecisionClock
from herna.hall.identity import SeatKey
from herna.hall.lobby import Seek, SeekSpec
from herna.hall.match import Match
from herna.protocols import onitama as proto
from herna.protocols.onitama import Dialect
from herna.servers.deadlines import DEFAULT_LOGIN_TIMEOUT
from herna.servers.tcp import Peer

DEFAULT_RECONNECT_WINDOW = 60.0
DEFAULT_MOVE_CLOCK = 60.0
DEFAULT_HOUSE_BOT_STRATEGY = "engine"
DEFAULT_HOUSE_BOT_LEVEL = "hard"
DEFAULT_HOUSE_BOT_DELAY = 1.0
DEFAULT_START_PAUSE = 0.25
DEFAULT_TIME_CONTROLS = ("1+1", "3+2", "5+3", "10+5")


def host_of(address: str) -> str:
    """The host part of a peer's ``host:port`` (``[v6]:port`` too)."""
    return address.rsplit(":", 1)[0].strip("[]")


def hang_up(peer: Peer, code: str) -> None:
    """Close a connection for a protocol reason (already sent to it as ``ERROR|code``). A
    transport that can say why (a WebSocket's close code and reason) is told the reason; a
    TCP peer just closes."""
    close_with = getattr(peer, "close_with", None)
    if callable(close_with):
        close_with(code, proto.ERROR_TEXT.get(code, code))
    else:
        peer.close()


@dataclass
class OnitamaSettings:
    reconnect_window: float = DEFAULT_RECONNECT_WINDOW
    """Seconds a dropped player has to log in again before the opponent wins."""
    login_timeout: float = DEFAULT_LOGIN_TIMEOUT
    """Seconds a new connection has to log in before it is closed (``ERROR|LOGIN_TIMEOUT``);
    0 or less: no limit. Without it, silent connections would hold descriptors forever."""
    requeue: bool = True
    """After ``GAME_OVER`` put both players back in the lobby; otherwise close their
    connections (one game per connection)."""
    house_bot_strategy: str = DEFAULT_HOUSE_BOT_STRATEGY
    house_bot_delay: float = DEFAULT_HOUSE_BOT_DELAY
    """Seconds a house bot waits before each move (so people can follow its games)."""
    house_bot_depth: int | None = None
    """Search depth cap of house bots (None: alphabeta's 3, the engine level's own)."""
    house_bot_level: str = DEFAULT_HOUSE_BOT_LEVEL
    """Level of engine house bots: easy, medium, hard or strongest."""
    seed: int | None = None
    """Fixed seed from which every game's seed (deal and colours) is derived; None: each
    game's seed comes from :mod:`secrets` (see :class:`~herna.core.rng.SeedSource`)."""
    start_pause: float = DEFAULT_START_PAUSE
    """Seconds nothing else is sent to a NUL-dialect connection after its ``START`` or
    ``RECONNECT``: the published client hands whatever else arrived in the same read to
    nobody."""
    illegal_move_forfeits: bool = False
    """An illegal move loses the game (``GAME_OVER|winner|illegal_move``) instead of being
    answered with ``INVALID_MOVE`` and asked again: engine matches (``herna match``) count a
    bot that plays one as forfeiting."""
    move_clock: float = DEFAULT_MOVE_CLOCK
    """Seconds a person (a client whose seek says ``person``: the play page) has for each
    decision; when it runs out the person gets :attr:`reconnect_window` seconds of grace, then
    the opponent wins (a bot at once, a person who sends ``CLAIM_WIN``). 0: no move clock."""
    game_clock: float = 0.0
    """Seconds of thinking time each side has for a whole game (the time between being told of
    the opponent's move and sending its own); a side that uses it up loses with
    ``out_of_time``. 0: no clock."""
    time_controls: tuple[str, ...] = DEFAULT_TIME_CONTROLS
    """The game clocks the play page offers when a person opens a table (``MINUTES+SECONDS``;
    any valid one may be asked for with the seek word ``clock=``)."""


GamePlan = tuple[str, OnitamaState | None]
"""What a planner (:attr:`OnitamaHub.plan`) or a tournament booking wants the next game to
be: the name of the player who takes White and the position (cards dealt) the game starts
from (None: dealt from the game's seed)."""


@dataclass(frozen=True)
class LastGame:
    """What a player remembers of its finished game, for a rematch."""

    opponent: str
    opponent_kind: str
    seat: int
    """The seat it had (0: White)."""
    level: str | None
    """The house bots' level this player's seek asked for (None: the server's default)."""
    clock: str | None = None
    """Its time control (a rematch keeps it)."""


class Client:
    """A connection: its peer, its protocol state and the player it logged in as."""

    __slots__ = ("_flush", "_held", "conn", "peer", "player")

    def __init__(self, peer: Peer) -> None:
        self.peer = peer
        self.conn = proto.ServerConnection()
        self.player: Player | None = None
        self._held: list[bytes] | None = None
        self._flush: TimerHandle | None = None

    def send(self, data: bytes) -> None:
        if self._held is not None:
            self._held.append(data)
        else:
            self.peer.send(data)

    def pause(self, clock: Clock, seconds: float) -> None:
        """Hold back what is sent for ``seconds`` (then send it in one piece)."""
        if seconds <= 0:
            return
        if self._held is None:
            self._held = []
        if self._flush is not None:
            self._flush.cancel()
        self._flush = clock.call_later(seconds, self.resume)

    def hold(self) -> bool:
        """Hold back what is sent until :meth:`resume` (True: it was not held already)."""
        if self._held is not None:
            return False
        self._held = []
        return True

    def resume(self) -> None:
        if self._flush is not None:
            self._flush.cancel()
            self._flush = None
        held, self._held = self._held, None
        if held:
            self.peer.send(b"".join(held))


class Player:
    __slots__ = (
        "client",
        "key",
        "kind",
        "last_game",
        "left_from",
        "name",
        "one_game",
        "rematch",
        "seat",
        "seat_key",
        "seek",
        "spec",
        "table",
        "timer",
        "verified",
    )

    def __init__(self, name: str, kind: str, client: Client) -> None:
        self.name = name
        self.key = proto.name_key(name)
        self.kind = kind
        self.client: Client | None = client
        self.table: Table | None = None
        self.seat = -1
        self.seat_key: SeatKey | None = None
        self.timer: TimerHandle | None = None
        self.spec: SeekSpec | None = None
        """What it asked the lobby for (LOGIN's fourth field); None: a seed client."""
        self.seek: Seek | None = None
        """Its open seek in the hall's lobby while it waits for a game."""
        self.one_game = False
        """A house bot seated for one person's seek: it leaves after its game."""
        self.last_game: LastGame | None = None
        """Its finished game's opponent, for a rematch."""
        self.rematch: tuple[str, int] | None = None
        """It asked for a rematch: (the opponent's name key, the seat it takes then)."""
        self.left_from = ""
        """The host (IP address) of the connection it last dropped (see
        :meth:`~herna.servers.onitama.returns.SeatReturns._seat_opens`)."""
        self.verified = False
        """It proved its name (a reserved name's token or a proof the hall issued): only
        such a player may wait for tournament games."""

    @property
    def aware(self) -> bool:
        """It sent LOGIN's fourth field, so it reads the lobby and clock extension lines."""
        return self.spec is not None and self.client is not None

    @property
    def person(self) -> bool:
        return self.spec is not None and self.spec.person

    def tell_ext(self, line: bytes) -> None:
        """An extension line (line dialect) for a client that asked for the lobby's ones."""
        if self.aware and self.client is not None and self.client.conn.out.name == "line":
            self.client.send(line)

    def tell(self, message: Callable[[Dialect], bytes]) -> None:
        """Send ``message`` as this player's connection speaks it (nothing when away)."""
        client = self.client
        if client is not None:
            client.send(message(client.conn.out))


@dataclass(eq=False)
class Table:
    id: str
    match: Match[Action]
    players: tuple[Player, Player]
    moves: int = 0
    over: bool = False
    started: float = 0.0
    clock_left: list[float] | None = None
    """Thinking time left per seat (with :attr:`OnitamaSettings.game_clock`, or the time
    control chosen when the table was opened)."""
    time_control: str | None = None
    """The game clock a player chose for this table (``5+3``); then no move clock runs."""
    increment: float = 0.0
    """Seconds added to a side's game clock after each of its moves."""
    turn_started: float = 0.0
    clock_timer: TimerHandle | None = None
    decision: DecisionClock | None = None
    """A person to move: the hall's decision clock (the move clock, then the grace period)."""
    late: int | None = None
    """The seat that is past its move clock (in grace or claimable)."""
    claimable: tuple[int, str] | None = None
    """(seat, reason): that seat's opponent may send ``CLAIM_WIN`` now."""
    elsewhere: int | None = None
    """The game worker that runs this table's game (the front keeps the table for the
    lobby, reconnects and the hall's lists); None: it runs in this process."""
    draw_offer: int | None = None
    """The seat whose draw offer is open (its opponent may accept it)."""
    offered_at: list[int] = field(default_factory=lambda: [-1, -1])
    """The ply at which each seat last offered a draw (once per position)."""
    shown: dict[str, Any] | None = None
    """The last spectator view of a table that runs elsewhere (from its worker's events)."""

    @property
    def state(self) -> OnitamaState:
        state = self.match.state
        assert isinstance(state, OnitamaState)
        return state

    def tell_both(self, message: Callable[[Dialect], bytes]) -> None:
        """``message`` to both players, formatted once per dialect (nothing to one away)."""
        said: Dialect | None = None
        data = b""
        for p in self.players:
            client = p.client
            if client is not None:
                out = client.conn.out
                if out is not said:
                    data = message(out)
                    said = out
                client.send(data)


@dataclass
class HubStats:
    connections: int = 0
    logins: int = 0
    games_started: int = 0
    games_finished: int = 0
    games_aborted: int = 0
    moves: int = 0
    invalid_moves: int = 0
    errors: int = 0
    reconnects: int = 0
    refused_logins: int = 0


class Elsewhere(Protocol):
    """Where games may run besides this hub: the game workers
    (:class:`~herna.servers.onitama.workers.OnitamaFront`)."""

    def take(self, table: Table) -> bool:
        """Run ``table``'s game (just formed, before ``START``) elsewhere; False: it stays."""
        ...

    def reconnect(self, client: Client, player: Player, table: Table) -> None:
        """``player`` proved the seat of ``table``, which runs elsewhere, on ``client``."""
        ...

    def snapshot(self) -> dict[str, Any]:
        """What the hall's status page shows of them."""
        ...

    async def stop(self) -> None:
        """End them (their games are ended and recorded there)."""
        ...
