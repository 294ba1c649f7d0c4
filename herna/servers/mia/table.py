"""The Mia table: rounds, tokens, answer windows and scores.

Who may register under which name is :mod:`herna.servers.mia.seats`'s to say, and what a
round's record holds :mod:`herna.servers.mia.round_records`'s; the table runs the rounds.
It is the whole server without a socket: datagrams come in through :meth:`MiaTable.receive`,
replies go out through the ``send(data, addr)`` callback, and every timeout runs on the
injected :class:`~herna.core.clock.Clock` — so tests drive it with a ``FakeClock`` and the UDP
transport (:mod:`herna.servers.mia.udp`) stays a few lines.
"""

from __future__ import annotations

import logging
import secrets
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from herna.core.clock import Clock, TimerHandle
from herna.core.rng import SeedSource
from herna.games.mia.dice import Dice, InvalidDice
from herna.games.mia.round import (
    DID_NOT_ANNOUNCE,
    DID_NOT_TAKE_TURN,
    INVALID_TURN,
    Announce,
    Fault,
    MiaAction,
    MiaActionCodec,
    MiaRound,
    Roll,
    See,
)
from herna.hall.events import EventBus
from herna.hall.identity import Identity
from herna.hall.match import Match, Seat
from herna.hall.records import RecordStore, utcnow
from herna.protocols.mia import (
    Garbage,
    Register,
    TokenCommand,
    Unregister,
    fmt,
    parse_client,
)
from herna.servers.gamelog import refused
from herna.servers.mia.round_records import canceled_record, played_record
from herna.servers.mia.seats import INACTIVE_AFTER_MISSED_JOINS, Addr, Client, Rejection, Seats
from herna.servers.mia.summary import DEFAULT_SUMMARY_SECONDS, RoundSummary

log = logging.getLogger("herna.mia")

Send = Callable[[bytes, Addr], None]
SendMany = Callable[[bytes, Sequence[Addr]], None]
"""Send the same datagram to every address, in order (a broadcast)."""

PAUSED_LOOK = 1.0
"""Seconds between looks at whether rounds may start again while the hall takes no games."""

TOKEN_BYTES = 6
"""Random bytes in a token (12 hex characters)."""
TOKENS_PER_DRAW = 256


class TokenSource:
    """Tokens from :mod:`secrets`, drawn 256 at a time.

    A round asks for three or four tokens, hundreds of rounds a second; one ``getrandom``
    call per token was measured at 2-4 µs on a loaded VM, most of it the system call. The
    bytes are the same kind (the operating system's CSPRNG), only fetched in bulk.
    """

    def __init__(self) -> None:
        self._hex = ""
        self._pos = 0

    def next(self) -> str:
        width = 2 * TOKEN_BYTES
        if self._pos + width > len(self._hex):
            self._hex = secrets.token_hex(TOKEN_BYTES * TOKENS_PER_DRAW)
            self._pos = 0
        token = self._hex[self._pos : self._pos + width]
        self._pos += width
        return token


@dataclass
class MiaSettings:
    answer_window: float = 0.25
    """Seconds a client has to answer ROUND STARTING, YOUR TURN and ROLLED."""
    start_early: bool = True
    """Start a round as soon as every active registered player has joined."""
    round_pause: float = 0.0
    """Seconds between the end of a round and the next ROUND STARTING."""
    house_names: frozenset[str] = frozenset()
    """Names of the server's own house bots."""
    house_round_pause: float = 1.0
    """Seconds between rounds that only house bots played, or one player alone (at least
    ``round_pause``): alone,
    they would play hundreds of rounds a second, burn a core and write gigabytes of records a
    day. Anyone else at the table brings back full speed from the next round on."""
    heartbeat: float = 2.0
    names_per_address: int = 32
    """Names one IP address may hold registered at once (house bots aside; 0: no limit): a
    host cannot fill the table with thousands of names that never join."""
    rate_limit: float = 5000.0
    """Datagrams per second accepted from one address (a burst of the same size is allowed);
    the rest are dropped and counted, so a flood cannot starve the other players."""
    log_summary_seconds: float = DEFAULT_SUMMARY_SECONDS
    """Longest stretch one INFO summary line covers (``--mia-log-every``); a new set of
    players starts a new line at once."""
    live_table: str = "mia"
    """The table its spectator events are published under (``/live/mia/<live_table>``):
    the people's table is a second table of the same game."""
    wait_for_people: bool = False
    """Start rounds only while somebody other than the house bots is registered (the
    people's table: its house bots do not play on alone)."""
    counter: str = "mia.round"
    """The record store's counter its round numbers come from: each table numbers its own
    rounds 1, 2, 3 … (the people's table has its own), so a person never sees them jump."""
    table_prefix: str = "round"
    """Records' table ids are ``<prefix>-<round>``: unique across tables with counters of
    their own."""
    house_levels: dict[str, frozenset[str]] = field(default_factory=dict)
    """The people's table: the house bots of each level people choose (``bots=LEVEL`` in
    REGISTER), ``""`` the operator's default. A round deals in the house bots of the levels
    the registered people asked for; the others wait, registered. Empty: every bot plays."""
    seed: int | None = None
    """Fixed seed (``--mia-seed``): the same run deals the same dice. ``None``: every round's
    seed comes from :mod:`secrets`, so the seeds published with finished rounds tell nothing
    about the next ones."""


@dataclass
class _Expect:
    """The one answer the table waits for: which token, from whom, in which step."""

    step: str  # "join", "turn", "announce"
    token: str
    name: str = ""


@dataclass
class TableStats:
    rounds_played: int = 0
    rounds_canceled: int = 0
    dropped: Counter[str] = field(default_factory=Counter)
    faults: Counter[str] = field(default_factory=Counter)


def _name(client: Client) -> str:
    return client.name


class MiaTable:
    def __init__(
        self,
        send: Send,
        clock: Clock,
        settings: MiaSettings | None = None,
        bus: EventBus | None = None,
        records: RecordStore | None = None,
        identity: Identity | None = None,
        send_many: SendMany | None = None,
        closed: Callable[[], str | None] | None = None,
    ) -> None:
        self._send = send
        self.closed = closed
        """Why the hall takes no new games (the hall's lobby says), or None: rounds pause."""
        self.paused: str | None = None
        """Why no round starts now (shown in :meth:`snapshot`), or None while they do."""
        self._send_many = send_many or self._send_each
        """Broadcasts: the transport's own loop if it has one (one Python call per broadcast
        instead of two per datagram: with 500 players a round is thousands of datagrams)."""
        self.clock = clock
        self.settings = settings or MiaSettings()
        self.bus = bus
        self.records = records
        self.identity = identity or Identity()
        """Who may use which name: reserved names need their token (``REGISTER;name;token``),
        house bot names are refused to everyone but the house bots."""
        self.seeds = SeedSource(self.settings.seed)
        self._tokens = TokenSource()
        self.seats = Seats(
            self.identity,
            self._left,
            names_per_address=self.settings.names_per_address,
            rate_limit=self.settings.rate_limit,
        )
        self.clients = self.seats.clients
        """Registered clients by name (the seats' own dict: looked up on every step)."""
        self._by_addr = self.seats.by_addr
        self.scores: dict[str, int] = {}
        self.round_number = 0
        self.phase = "idle"  # idle, joining, playing, between
        self.joined: list[str] = []
        self._joined: set[str] = set()
        """``joined`` as a set: with hundreds of players, looking names up in the list made
        each round's JOINs quadratic."""
        self._awaiting: set[str] = set()
        """Active players not yet joined this round (early start fires when it empties)."""
        self._invited: dict[str, Client] = {}
        """Players sent this round's ROUND STARTING (only they can miss it), by name. The
        registration itself is kept: a name registered anew during the JOIN window (the
        one invited unregistered) was not invited, and must not be charged its missed JOIN:
        a name charged before it ever joined is not waited for, and the house bots' JOINs
        would close every window before its own arrived."""
        self._addrs: list[Addr] | None = None
        """Cached addresses of every registered client, for broadcasts."""
        self._ranked: list[Client] | None = None
        """Cached players sorted by name, for SCORE (sorting them every round cost more than
        the rest of SCORE with hundreds of players)."""
        self.match: Match[MiaAction] | None = None
        self._expect: _Expect | None = None
        self._deadline: float | None = None
        """When the step the table waits for times out (answer window, pause between
        rounds); ``None`` while nothing is due."""
        self._on_deadline: Callable[[], None] | None = None
        self._alarm: TimerHandle | None = None
        self._alarm_at = 0.0
        """One clock timer that wakes the table at or before ``_deadline`` (see :meth:`_arm`)."""
        self._heartbeat: TimerHandle | None = None
        self._round_started_at = utcnow()
        self.stats = TableStats()
        self.summary = RoundSummary(log, self.settings.log_summary_seconds)
        self._running = False

    # -- lifecycle ---------------------------------------------------------------------------
    def start(self) -> None:
        self._running = True
        if self.records is not None and self.settings.counter == "mia.round":
            # Databases from before counters: go on above the last round recorded.
            last = self.records.matches(game="mia", limit=1)
            if last:
                self.round_number = int(last[0].meta.get("round", 0))
        self._heartbeat = self.clock.call_later(self.settings.heartbeat, self._beat)
        self._maybe_begin()

    def stop(self) -> None:
        self._running = False
        self.summary.flush(self.clock.now())
        self._disarm()
        for handle in (self._alarm, self._heartbeat):
            if handle is not None:
                handle.cancel()
        self._alarm = self._heartbeat = None

    # -- input -------------------------------------------------------------------------------
    def receive(self, data: bytes, addr: Addr) -> None:
        """Handle one datagram from ``addr``. Never raises for anything a peer sends."""
        if not self.seats.within_rate(addr, self.clock.now()):
            self.stats.dropped["RATE_LIMIT"] += 1
            return
        message = parse_client(data)
        if isinstance(message, TokenCommand):
            self._on_token_command(message, addr)
        elif isinstance(message, Register):
            self._on_register(message, addr)
        elif isinstance(message, Unregister):
            self._on_unregister(addr)
        else:
            assert isinstance(message, Garbage)
            self.stats.dropped[message.reason] += 1
            client = self._by_addr.get(addr)
            refused(
                log,
                "mia",
                client.name if client else "",
                f"{addr[0]}:{addr[1]}",
                message.reason,
                f"datagram dropped: {data[:60]!r}",
            )

    def _on_register(self, msg: Register, addr: Addr) -> None:
        client = self.seats.register(msg, addr)
        if isinstance(client, Rejection):
            self._send(fmt.rejected(client.code), addr)
            refused(log, "mia", msg.name, f"{addr[0]}:{addr[1]}", client.code, client.reason)
            return
        if not msg.spectator and msg.name not in self.scores:
            self.scores[msg.name] = self._stored_points(msg.name)
        self._addrs = self._ranked = None
        self._send(fmt.registered(), addr)
        log.info(
            "mia: %s registered%s from %s:%s",
            msg.name,
            " as spectator" if msg.spectator else "",
            *addr,
        )
        self._emit("player_registered", name=msg.name, spectator=msg.spectator)
        self._send_to_spectators(fmt.score(self._score_table()))
        if not msg.spectator:
            self._maybe_begin()

    def _stored_points(self, name: str) -> int:
        if self.records is None:
            return 0
        return int(self.records.points("mia", [name]).get(name, 0))

    def _on_unregister(self, addr: Addr) -> None:
        client = self._by_addr.get(addr)
        self._send(fmt.unregistered(), addr)
        if client is not None:
            self.seats.remove(client)
            log.info("mia: %s left (UNREGISTER)", client.name)
            expect = self._expect
            if expect is not None and expect.name == client.name and self.match is not None:
                # Left while the table waited for it: it loses now, as it would when its
                # answer window ran out, and nobody waits that window for a player gone.
                self._arm(
                    0.0,
                    self._did_not_take_turn if expect.step == "turn" else self._did_not_announce,
                )

    def _left(self, client: Client) -> None:
        """``client``'s registration is gone (:meth:`Seats.remove`): out of this round."""
        self._addrs = self._ranked = None
        self._awaiting.discard(client.name)
        if client.name in self._joined and self.phase == "joining":
            self.joined.remove(client.name)
            self._joined.discard(client.name)
        self._emit("player_unregistered", name=client.name)

    def _on_token_command(self, msg: TokenCommand, addr: Addr) -> None:
        expect = self._expect
        client = self._by_addr.get(addr)
        if expect is None or msg.token != expect.token or client is None or client.spectator:
            self.stats.dropped["STALE_TOKEN"] += 1  # UDP duplicates and late answers
            return
        if expect.step == "join":
            if msg.command == "JOIN" and not msg.args:
                self._on_join(client)
            else:
                self.stats.dropped["NOT_A_JOIN"] += 1
            return
        if client.name != expect.name:
            self.stats.dropped["WRONG_PLAYER"] += 1
            return
        self._on_turn_message(msg)

    # -- rounds ------------------------------------------------------------------------------
    def _players(self) -> list[Client]:
        return [c for c in self.clients.values() if not c.spectator]

    def _maybe_begin(self) -> None:
        if self._running and self.phase == "idle" and self._players():
            self._begin_round()

    def _wants_rounds(self, players: list[Client]) -> bool:
        if not self.settings.wait_for_people:
            return bool(players)
        house = self.settings.house_names
        return any(c.name not in house for c in players)

    def _dealt_in(self, players: list[Client]) -> list[Client]:
        """The players a round invites: at the people's table, the people and the house
        bots of the levels they chose (:attr:`MiaSettings.house_levels`)."""
        levels = self.settings.house_levels
        if not levels:
            return players
        house = self.settings.house_names
        wanted: set[str] = set()
        for c in players:
            if c.name not in house:
                wanted |= levels.get(c.level, levels.get("", frozenset()))
        return [c for c in players if c.name not in house or c.name in wanted]

    def _kind(self, name: str) -> str:
        """A player's kind in the records: a house bot, a person, or a bot."""
        if name in self.settings.house_names:
            return "house-bot"
        client = self.clients.get(name)
        return "person" if client is not None and client.person else "bot"

    def _begin_round(self) -> None:
        if not self._running:
            return
        paused = self.closed() if self.closed is not None else None
        if paused is not None:
            # Each round is a game with its record: the one in progress has finished; no new
            # one starts. Heartbeats go on, so clients wait instead of giving up.
            if self.paused is None:
                log.warning("mia rounds paused: %s", paused)
            self.paused, self.phase = paused, "paused"
            self._arm(PAUSED_LOOK, self._begin_round)
            return
        self.paused = None
        players = self._players()
        if not self._wants_rounds(players):
            self.phase = "idle"
            return
        # Numbers come from the record store, which journals each one before it is used, so
        # no round number is ever announced twice, not even after kill -9 and a restart.
        players = self._dealt_in(players)
        self.round_number = (
            self.records.allocate(self.settings.counter, self.round_number)
            if self.records is not None
            else self.round_number + 1
        )
        self.phase = "joining"
        self.joined = []
        self._joined = set()
        # A name that has never joined is waited for in its first round only: registrations
        # that never join (thousands from one host) cannot hold every round up to the end of
        # its JOIN window. They may still join within the window, as the seed allows.
        self._awaiting = {
            c.name for c in players if c.active and (c.joined_once or c.missed_joins == 0)
        }
        self._invited = {c.name: c for c in players}
        self._round_started_at = utcnow()
        self._expect = _Expect("join", self._token())
        self._send_many(fmt.round_starting(self._expect.token), [c.addr for c in players])
        self._arm(self.settings.answer_window, self._close_join)

    def _on_join(self, client: Client) -> None:
        if client.name in self._joined:
            return
        self.joined.append(client.name)
        self._joined.add(client.name)
        if not client.active:
            log.info("mia: %s is back and joins rounds again", client.name)
        client.missed_joins = 0
        client.joined_once = True
        self._awaiting.discard(client.name)
        if self.settings.start_early and not self._awaiting:
            self._disarm()
            self._close_join()

    def _close_join(self) -> None:
        self._expect = None
        joined = self._joined
        for client in self._players():
            if client.name not in joined and self._invited.get(client.name) is client:
                client.missed_joins += 1
                if client.missed_joins == INACTIVE_AFTER_MISSED_JOINS:
                    log.info(
                        "mia: %s dropped: did not join %d rounds in a row (registering again "
                        "or joining brings it back)",
                        client.name,
                        INACTIVE_AFTER_MISSED_JOINS,
                    )
        n = self.round_number
        if not self.joined:
            self._broadcast(fmt.round_canceled("NO_PLAYERS"))
            self._cancel_round("NO_PLAYERS")
            return
        if len(self.joined) == 1:
            # Nothing to shuffle and no dice: no draw either, so with --mia-seed the played
            # rounds get the same seeds however many rounds started with one player.
            self._broadcast(fmt.round_started(n, self.joined))
            self._broadcast(fmt.round_canceled("ONLY_ONE_PLAYER"))
            self._cancel_round("ONLY_ONE_PLAYER")
            return
        # The order is public from ROUND STARTED on, so it comes from a draw of its own:
        # shuffled with the dice's generator it would tell something about the first roll.
        order = self.seeds.next_rng().shuffled(self.joined)
        self.phase = "playing"
        self.match = Match(
            game="mia",
            table_id=f"{self.settings.table_prefix}-{n}",
            state=MiaRound(tuple(order)),
            seats=[Seat(name, self._kind(name)) for name in order],
            seed=self.seeds.next_seed(),
            codec=MiaActionCodec(),
            meta={"round": n},
            started_at=self._round_started_at,
        )
        self._next_turn(fmt.round_started(n, order))
        self._emit("game_started", round=n, players=order)

    def _state(self) -> MiaRound:
        assert self.match is not None
        state = self.match.state
        assert isinstance(state, MiaRound)
        return state

    def _next_turn(self, before: bytes) -> None:
        """Broadcast ``before`` and send YOUR TURN to the next player, who is served first."""
        name = self._state().current_name
        self._expect = _Expect("turn", self._token(), name)
        self._broadcast_then(before, name, fmt.your_turn(self._expect.token))
        # A player that left the table during the round loses at once (on the next tick, so
        # the events keep their order) instead of holding everybody up for a whole window.
        window = self.settings.answer_window if name in self.clients else 0.0
        self._arm(window, self._did_not_take_turn)

    def _on_turn_message(self, msg: TokenCommand) -> None:
        assert self._expect is not None
        self._disarm()
        name = self._expect.name
        if self._expect.step == "turn" and msg.command == "ROLL" and not msg.args:
            self._act(Roll())
            rolled = str(self._state().actual)
            self._expect = _Expect("announce", self._token(), name)
            self._broadcast_then(
                fmt.player_rolls(name), name, fmt.rolled(rolled, self._expect.token)
            )
            self._arm(self.settings.answer_window, self._did_not_announce)
            self._emit("player_rolls", round=self.round_number, name=name)
        elif self._expect.step == "turn" and msg.command == "SEE" and not msg.args:
            self._expect = None
            self._act(See())
            # The seed's order: PLAYER WANTS TO SEE, then ACTUAL DICE (when there are dice to
            # show: a SEE before anyone rolled has none), then PLAYER LOST.
            self._broadcast(fmt.player_wants_to_see(name))
            self._emit("wants_to_see", round=self.round_number, name=name)
            self._reveal()
            self._end_round()
        elif self._expect.step == "announce" and msg.command == "ANNOUNCE" and len(msg.args) == 1:
            try:
                dice = Dice.parse(msg.args[0])
            except InvalidDice:
                self._fault(INVALID_TURN)
                return
            self._expect = None
            self._act(Announce(dice))
            announced = fmt.announced(name, str(dice))
            if self._state().is_terminal():
                self._broadcast(announced)
                self._emit("announced", round=self.round_number, name=name, dice=str(dice))
                # Mia is uncovered at once ("wird sofort aufgedeckt"): ACTUAL DICE before
                # PLAYER LOST, as for a SEE. Losing dice end the round unseen.
                self._reveal()
                self._end_round()
            else:
                self._next_turn(announced)
                self._emit("announced", round=self.round_number, name=name, dice=str(dice))
        else:
            self._fault(INVALID_TURN)

    def _reveal(self) -> None:
        """Broadcast ACTUAL DICE if the rules uncovered the dice under the cup."""
        state = self._state()
        if state.revealed and state.actual is not None:
            shown = str(state.actual)
            self._broadcast(fmt.actual_dice(shown))
            self._emit("actual_dice", round=self.round_number, dice=shown)

    def _act(self, action: MiaAction) -> None:
        assert self.match is not None
        self.match.act(self._state().turn, action)

    def _did_not_take_turn(self) -> None:
        self._fault(DID_NOT_TAKE_TURN)

    def _did_not_announce(self) -> None:
        self._fault(DID_NOT_ANNOUNCE)

    def _fault(self, reason: str) -> None:
        self._expect = None
        self.stats.faults[reason] += 1
        self._act(Fault(reason))
        self._end_round()

    def _end_round(self) -> None:
        state = self._state()
        assert self.match is not None
        n = self.round_number
        record = played_record(self.match, state, n)
        # Submitted (journaled) before anyone hears the result: a round whose SCORE was sent
        # must survive kill -9.
        if self.records is not None:
            self.records.submit(record)
        # Names sorted, as the reference server sends them (several lose to a true Mia).
        self._broadcast(fmt.player_lost(sorted(state.losers), state.reason))
        self._emit("player_lost", round=n, names=list(state.losers), reason=state.reason)
        lost = set(state.losers)  # after a true Mia, all but one player
        for name in state.players:
            if name not in lost:
                self.scores[name] = self.scores.get(name, 0) + 1
        scores = self._score_table()
        self._broadcast(fmt.score(scores))
        self._emit("score", scores=scores)
        self._emit(
            "game_over", round=n, losers=list(state.losers), reason=state.reason, scores=scores
        )
        self.stats.rounds_played += 1
        self.summary.played(self.clock.now(), n, state.players, state.losers)
        if log.isEnabledFor(logging.DEBUG):  # the joins cost even when the line is dropped
            log.debug(
                "round %d: %s; %s lost (%s)",
                n,
                ",".join(state.players),
                ",".join(state.losers),
                state.reason,
            )
        self.match = None
        self._after_round()

    def _cancel_round(self, reason: str) -> None:
        n = self.round_number
        if self.records is not None:
            table_id = f"{self.settings.table_prefix}-{n}"
            joined = [(name, self._kind(name)) for name in self.joined]
            self.records.submit(
                canceled_record(table_id, n, joined, reason, self._round_started_at)
            )
        scores = self._score_table()
        self._broadcast(fmt.score(scores))
        self._emit("round_canceled", round=n, reason=reason)
        self._emit("score", scores=scores)
        self.stats.rounds_canceled += 1
        self.summary.canceled_round(self.clock.now(), n, self.joined)
        log.debug("round %d canceled: %s", n, reason)
        self._after_round()

    def _after_round(self) -> None:
        self.phase = "between"
        self._expect = None
        pause = self.settings.round_pause
        if not self.joined and self.settings.round_pause < self.settings.answer_window:
            # Nobody joined: don't spin; wait a window before asking again.
            pause = self.settings.answer_window
        elif len(self.joined) < 2 or self.settings.house_names.issuperset(self.joined):
            # A lone player (ONLY_ONE_PLAYER) would otherwise get hundreds of canceled rounds
            # a second, each one a record: paced like a table of house bots.
            pause = max(pause, self.settings.house_round_pause)
        self._arm(pause, self._begin_round)

    # -- deadlines ---------------------------------------------------------------------------
    def _arm(self, delay: float, action: Callable[[], None]) -> None:
        """Run ``action`` ``delay`` seconds from now unless :meth:`_disarm` comes first.

        Every step of a round has a deadline, but bots answer within a millisecond, so
        almost every deadline is disarmed. Instead of a clock timer per step (made, then
        cancelled: five to ten a round at about 2 µs each), one timer stays armed at or
        before the deadline; when it rings early it sleeps again until the deadline of the
        step pending then. An action still runs exactly at its deadline, and an answer that
        arrived before it is still handled first.
        """
        at = self.clock.now() + delay
        self._deadline = at
        self._on_deadline = action
        if self._alarm is not None and self._alarm_at <= at:
            return
        if self._alarm is not None:
            self._alarm.cancel()
        self._alarm = self.clock.call_later(delay, self._ring)
        self._alarm_at = at

    def _disarm(self) -> None:
        self._deadline = None
        self._on_deadline = None

    def _ring(self) -> None:
        self._alarm = None
        deadline, action = self._deadline, self._on_deadline
        if deadline is None or action is None:
            return
        now = self.clock.now()
        if now < deadline:
            self._alarm = self.clock.call_later(deadline - now, self._ring)
            self._alarm_at = deadline
            return
        self._disarm()
        action()

    # -- output ------------------------------------------------------------------------------
    def _token(self) -> str:
        return self._tokens.next()

    def _send_to(self, name: str, data: bytes) -> None:
        client = self.clients.get(name)
        if client is not None:  # an unregistered player gets nothing (and will time out)
            self._send(data, client.addr)

    def _broadcast_then(self, data: bytes, name: str, private: bytes) -> None:
        """Broadcast ``data`` and send ``private`` to ``name``, serving ``name`` first.

        Every client still sees the seed's order (the broadcast before the private message),
        but the one player who must answer next does not wait for the whole broadcast: on
        this machine each datagram costs ~10 µs, which with 10 players adds 0.1 ms to every
        step of a round.
        """
        client = self.clients.get(name)
        if client is None:
            self._broadcast(data)
            return
        first = client.addr
        self._send(data, first)
        self._send(private, first)
        addrs = self._broadcast_addrs()
        i = addrs.index(first)  # the client's own address object, so found by identity
        self._send_many(data, addrs[:i])
        self._send_many(data, addrs[i + 1 :])

    def _broadcast(self, data: bytes) -> None:
        self._send_many(data, self._broadcast_addrs())

    def _broadcast_addrs(self) -> list[Addr]:
        if self._addrs is None:
            self._addrs = [c.addr for c in self.clients.values()]
        return self._addrs

    def _send_each(self, data: bytes, addrs: Sequence[Addr]) -> None:
        send = self._send
        for addr in addrs:
            send(data, addr)

    def _send_to_spectators(self, data: bytes) -> None:
        for client in self.clients.values():
            if client.spectator:
                self._send(data, client.addr)

    def proven_points(self) -> dict[str, int]:
        """The points of every registered player who proved its name (a live session's
        scoreboard reads them; the web hall's pages ask from a worker thread, hence the
        copies taken before iterating)."""
        scores = dict(self.scores)
        return {
            c.name: scores.get(c.name, 0)
            for c in list(self.clients.values())
            if c.verified and not c.spectator
        }

    def _score_table(self) -> dict[str, int]:
        """Every registered player's points, sorted by name as the reference server does."""
        if self._ranked is None:
            self._ranked = sorted(self._players(), key=_name)
        scores = self.scores
        return {c.name: scores.get(c.name, 0) for c in self._ranked}

    def _beat(self) -> None:
        if not self._running:
            return
        self.summary.tick(self.clock.now())
        self._broadcast(fmt.heartbeat())
        self._heartbeat = self.clock.call_later(self.settings.heartbeat, self._beat)

    def _emit(self, kind: str, **data: Any) -> None:
        if self.bus is not None:
            self.bus.emit("mia", self.settings.live_table, kind, **data)

    # -- for the hall ------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        state = self.match.state.view(None) if self.match is not None else None
        return {
            "round": self.round_number,
            "phase": self.phase,
            "paused": self.paused,
            "current": state,
            "players": [
                {
                    "name": c.name,
                    "points": self.scores.get(c.name, 0),
                    "active": c.active,
                    # No address: this snapshot is public (web hall, /api/services), and
                    # where a player connects from is nobody else's business.
                }
                for c in self._players()
            ],
            "spectators": [c.name for c in self.clients.values() if c.spectator],
            "rounds_played": self.stats.rounds_played,
            "rounds_canceled": self.stats.rounds_canceled,
            "dropped": dict(self.stats.dropped),
            "faults": dict(self.stats.faults),
        }
