"""What the tile hub keeps about connections and tables: its settings, each connection
(:class:`Client`), each table and its seats. Plain data; :mod:`herna.servers.tiles.hub` acts on
it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from herna.core.clock import TimerHandle
from herna.games.tiles.actions import TilesCodec
from herna.games.tiles.bots import TilesBot
from herna.games.tiles.engine import DEFAULT_MAX_ROUNDS, TilesState
from herna.games.tiles.rules import Rules, rules_key
from herna.hall.clocks import DecisionClock
from herna.hall.identity import SeatKey
from herna.hall.lobby import Seek, Want
from herna.hall.match import Match
from herna.protocols import tiles as proto
from herna.servers.deadlines import DEFAULT_LOGIN_TIMEOUT
from herna.servers.tcp import Peer

DEFAULT_TURN_TIMEOUT = 120.0
DEFAULT_BOT_DELAY = 0.5
DEFAULT_LOBBY_WAIT = 20.0
DEFAULT_SHOWCASE_PAUSE = 10.0
DEFAULT_HOUSE_STRATEGY = "goal"
DEFAULT_RECONNECT_WINDOW = 30.0


MAX_SAID = 500
"""Lines of a seat's story kept for its player's return."""


@dataclass
class TilesSettings:
    house_bots: bool = True
    """Fill empty seats with house bots (on ``start`` or after ``lobby_wait``) and keep a
    showcase table of house bots playing the shipped rules files in turn."""
    house_strategy: str = DEFAULT_HOUSE_STRATEGY
    bot_delay: float = DEFAULT_BOT_DELAY
    """Seconds a house bot waits before each action, so people can follow."""
    turn_timeout: float = DEFAULT_TURN_TIMEOUT
    """Seconds a connected player has to act; then the server plays a random legal action."""
    time_controls: tuple[str, ...] = ("1+1", "3+2", "5+3", "10+5")
    """The game clocks the play page offers when a person opens a table (``MINUTES+SECONDS``,
    the seek word ``clock=``); such a table has no turn clock."""
    lobby_wait: float = DEFAULT_LOBBY_WAIT
    """Seconds a table waits for more players before house bots fill it (0: only on start)."""
    max_rounds: int = DEFAULT_MAX_ROUNDS
    showcase: bool = True
    showcase_pause: float = DEFAULT_SHOWCASE_PAUSE
    seed: int | None = None
    login_timeout: float = DEFAULT_LOGIN_TIMEOUT
    """Seconds a new connection has to join a table (its login) before it is told
    ``LOGIN_TIMEOUT`` and closed; 0 or less: no limit."""
    reconnect_window: float = DEFAULT_RECONNECT_WINDOW
    """Seconds a seat whose connection dropped mid-game waits for its player to come back
    with the seat secret before a house bot plays it (0: a house bot at once). A page reload
    must not hand the person's turn to a bot."""


@runtime_checkable
class ExplainsClose(Protocol):
    """A peer that can tell its client why the server hangs up (a WebSocket close reason)."""

    def close_with(self, code: str, reason: str) -> None:
        """Close after what was sent; ``code`` is the protocol's error code."""
        ...


class Client:
    """One connection: its peer, protocol state and the seat it holds (if any)."""

    __slots__ = ("checking", "conn", "peer", "seat", "table")

    def __init__(self, peer: Peer) -> None:
        self.peer = peer
        self.conn = proto.ServerConnection()
        self.table: Table | None = None
        self.seat = -1
        self.checking = False
        """Its custom rules file is being checked (one at a time per connection)."""

    def send(self, message: dict[str, Any]) -> None:
        self.peer.send(self.conn.send(message))


@dataclass(eq=False)
class SeatSlot:
    name: str
    kind: str
    """``human`` or ``bot`` (connected), ``house-bot`` (the server's own)."""
    client: Client | None = None
    bot: TilesBot | None = None
    key: SeatKey | None = field(default=None, repr=False)
    """The seat's secret, handed to its player alone in ``started`` (none for house bots):
    with it the player takes the seat back after a lost connection."""
    away: TimerHandle | None = field(default=None, repr=False)
    """Running while the seat's connection is gone and its player may still come back;
    when it fires a house bot takes the seat."""
    person: bool = False
    """A person at a play page (the join's seek said ``person``): people-only tables take
    only these."""
    stood_in: bool = False
    """A house bot played this seat for its player at some time of the game (a dropped
    connection, or a person's turn clock and grace period ran out): the record says so and
    the game leaves that player's rating alone."""

    @property
    def standing_in(self) -> bool:
        """A house bot plays the seat of a player who is still connected."""
        return self.client is not None and self.bot is not None

    @property
    def is_away(self) -> bool:
        """Its player's connection dropped and no house bot plays it yet."""
        return self.client is None and self.bot is None and self.kind != "house-bot"


@dataclass(eq=False)
class Table:
    id: str
    rules: Rules
    seats: list[SeatSlot | None]
    showcase: bool = False
    match: Match[Any] | None = None
    status: str = "waiting"
    """``waiting`` for players, ``playing``, ``over``."""
    timer: TimerHandle | None = None
    """Lobby wait, a bot's turn timeout or a house bot's pause (only one at a time)."""
    said: dict[int, list[str]] = field(default_factory=dict, repr=False)
    """Each player's seat: the story of the game in its own words (``state``'s ``said``),
    the newest :data:`MAX_SAID` lines, for a player who comes back."""
    decision: DecisionClock | None = field(default=None, repr=False)
    """A person's turn on the hall's decision clock (turn time, then grace)."""
    turn_ends: tuple[object, float] | None = field(default=None, repr=False)
    """The state a person's turn is about and when its turn time ends (hub clock), so a
    return to the seat during the turn gets what is left, not the whole turn again."""
    key: str = ""
    want: Want | None = None
    """What the player who opened the table asked for (its join's seek); None: the seed's
    way (wait for ``start``, or the server's lobby wait)."""
    seek: Seek | None = field(default=None, repr=False)
    """The table's open seek in the hall's lobby while it waits (tables of 2-8 seats)."""
    tournament: str | None = None
    """The board's tag when a live tournament booked this table (its record carries it)."""
    elsewhere: int | None = None
    """The game worker that runs this table's game (the front keeps the table for the
    lobby's lists and for players who come back); None: it runs in this process."""
    shown: dict[str, Any] | None = field(default=None, repr=False)
    """The last spectator view of a table that runs elsewhere (from its worker's events)."""
    clock_left: list[float] | None = None
    """Each seat's game clock (seconds) when the table's opener chose a time control."""
    increment: float = 0.0
    """Seconds added to a seat's game clock after each of its actions."""
    turn_started: float = 0.0
    clock_timer: TimerHandle | None = field(default=None, repr=False)
    codec: TilesCodec = field(init=False)
    seen: dict[int, tuple[TilesState, dict[str, Any]]] = field(default_factory=dict, repr=False)
    """Each seat's last view and the state it shows: a state's view is made once per seat,
    though ``state``, ``your_turn`` and the next action's ``said`` all show it."""

    def __post_init__(self) -> None:
        self.codec = TilesCodec(self.rules.n)
        self.key = rules_key(self.rules.data)

    @property
    def state(self) -> TilesState:
        assert self.match is not None
        state = self.match.state
        assert isinstance(state, TilesState)
        return state

    def view_of(self, state: TilesState, seat: int) -> dict[str, Any]:
        """``state.view(seat)``, made once per state and seat (only read, never changed:
        it is sent as it is)."""
        last = self.seen.get(seat)
        if last is not None and last[0] is state:
            return last[1]
        view = state.view(seat)
        self.seen[seat] = (state, view)
        return view

    def names(self) -> list[str]:
        return [s.name if s else "" for s in self.seats]

    def clients(self) -> list[tuple[int, Client]]:
        return [(i, s.client) for i, s in enumerate(self.seats) if s and s.client]

    def seats_json(self) -> list[dict[str, Any] | None]:
        out: list[dict[str, Any] | None] = []
        for s in self.seats:
            if s is None:
                out.append(None)
            elif s.is_away:
                out.append({"name": s.name, "kind": s.kind, "away": True})
            elif s.standing_in:
                out.append({"name": s.name, "kind": s.kind, "stand_in": True})
            else:
                out.append({"name": s.name, "kind": s.kind})
        return out

    def remember_said(self, seat: int, line: str) -> None:
        lines = self.said.setdefault(seat, [])
        lines.append(line)
        del lines[:-MAX_SAID]

    def cancel_timer(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.decision is not None:
            self.decision.stop()
            self.decision = None


@dataclass
class HubStats:
    connections: int = 0
    games_started: int = 0
    games_finished: int = 0
    games_aborted: int = 0
    actions: int = 0
    illegal: int = 0
    errors: int = 0
    timeouts: int = 0
    reconnects: int = 0


class Elsewhere(Protocol):
    """Where games may run besides this hub: the game workers
    (:class:`~herna.servers.tiles.workers.TilesFront`)."""

    def take(self, table: Table) -> bool:
        """Run ``table``'s game (just set up, before ``started``) elsewhere; False: it stays."""
        ...

    def resume(self, client: Client, msg: proto.Join) -> bool:
        """A ``join`` taking a seat back at a table that runs elsewhere: passed on there
        (True); False: not such a table."""
        ...

    def snapshot(self) -> dict[str, Any]:
        """What the hall's status page shows of them."""
        ...

    async def stop(self) -> None:
        """End them (their games are ended and recorded there)."""
        ...
