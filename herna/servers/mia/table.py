"""The Mia table: registrations, rounds, tokens, answer windows, scores and records.

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
from herna.hall.identity import Identity, Refusal, name_key
from herna.hall.match import Match, Seat
from herna.hall.records import MatchRecord, PlayerResult, RecordStore, utcnow
from herna.protocols.mia import (
    NAME_ALREADY_TAKEN,
    TOO_MANY_NAMES,
    Garbage,
    Register,
    TokenCommand,
    Unregister,
    fmt,
    parse_client,
)
from herna.servers.gamelog import refused
from herna.servers.mia.summary import DEFAULT_SUMMARY_SECONDS, RoundSummary

log = logging.getLogger("herna.mia")

Addr = tuple[str, int]
Send = Callable[[bytes, Addr], None]
SendMany = Callable[[bytes, Sequence[Addr]], None]
"""Send the same datagram to every address, in order (a broadcast)."""

INACTIVE_AFTER_MISSED_JOINS = 5
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
    seed: int | None = None
    """Fixed seed (``--mia-seed``): the same run deals the same dice. ``None``: every round's
    seed comes from :mod:`secrets`, so the seeds published with finished rounds tell nothing
    about the next ones."""


@dataclass
class Client:
    name: str
    addr: Addr
    spectator: bool
    missed_joins: int = 0
    joined_once: bool = False
    """It joined a round since it registered: a name that never did is waited for in one
    round only (see ``_begin_round``)."""
    allowance: float = 0.0
    last_seen: float = 0.0
    verified: bool = False
    """It proved its name with the reserved name's token (a live session counts only such
    players: nobody else can play under their name)."""

    @property
    def active(self) -> bool:
        return self.missed_joins < INACTIVE_AFTER_MISSED_JOINS


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
        self.clients: dict[str, Client] = {}
        self._spelled: dict[str, str] = {}
        """Registered names by look-alike key: ``alice`` or ``Аlice`` is ``Alice`` in use."""
        self._by_addr: dict[Addr, Client] = {}
        self._per_ip: Counter[str] = Counter()
        """Registrations (``_by_addr`` entries) per IP address."""
        self._rate: dict[Addr, tuple[float, float]] = {}  # (ip, port) -> (allowance, last time)
        self.scores: dict[str, int] = {}
        self.round_number = 0
        self.phase = "idle"  # idle, joining, playing, between
        self.joined: list[str] = []
        self._joined: set[str] = set()
        """``joined`` as a set: with hundreds of players, looking names up in the list made
        each round's JOINs quadratic."""
        self._awaiting: set[str] = set()
        self._invited: set[str] = set()
        """Players sent this round's ROUND STARTING (only they can miss it)."""
        """Active players not yet joined this round (early start fires when it empties)."""
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
        if self.records is not None:
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
        if not self._within_rate(addr):
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

    def _within_rate(self, addr: Addr) -> bool:
        now = self.clock.now()
        limit = self.settings.rate_limit
        allowance, last = self._rate.get(addr, (limit, now))
        allowance = min(limit, allowance + (now - last) * limit)
        if allowance < 1.0:
            self._rate[addr] = (allowance, now)
            return False
        self._rate[addr] = (allowance - 1.0, now)
        if len(self._rate) > 10_000:  # forget idle addresses so spoofed floods cannot grow it
            self._rate = {k: v for k, v in self._rate.items() if now - v[1] < 10}
        return True

    def _on_register(self, msg: Register, addr: Addr) -> None:
        if msg.problem:
            self._reject(msg.name, addr, msg.problem, "REGISTER")
            return
        admission = self.identity.admit(msg.name, msg.token)
        if isinstance(admission, Refusal):
            self._reject(msg.name, addr, admission.code, admission.reason)
            return
        existing = self.clients.get(self._spelled.get(name_key(msg.name), msg.name))
        if existing is not None and existing.name != msg.name:
            reason = f"the name looks like {existing.name!r}, which is registered"
            self._reject(msg.name, addr, NAME_ALREADY_TAKEN, reason)
            return
        if existing is not None:
            # The seed lets the same IP take a name over (the player moved to a new port).
            # From another IP only the reserved name's token does: an owner may move hosts,
            # nobody else may take a name that is in use.
            if existing.addr[0] != addr[0] and not admission.verified:
                reason = f"the name is in use from {existing.addr[0]}"
                self._reject(msg.name, addr, NAME_ALREADY_TAKEN, reason)
                return
            # The player moved (new port or, with the token, new host); keep the score.
            self._forget_addr(existing.addr)
            occupant = self._by_addr.get(addr)
            if occupant is not None and occupant is not existing:
                self._remove(occupant)
            existing.addr = addr
            existing.spectator = msg.spectator
            existing.verified = admission.verified
            self._place(addr, existing)
        else:
            limit = self.settings.names_per_address
            full = limit > 0 and self._per_ip[addr[0]] >= limit and addr not in self._by_addr
            if full and not admission.house:
                reason = f"{addr[0]} has {limit} names registered (--mia-names-per-address)"
                self._reject(msg.name, addr, TOO_MANY_NAMES, reason)
                return
            occupant = self._by_addr.get(addr)
            if occupant is not None:
                # A new registration from the same address and port replaces the player there.
                self._remove(occupant)
            client = Client(msg.name, addr, msg.spectator, verified=admission.verified)
            self.clients[msg.name] = client
            self._spelled[name_key(msg.name)] = msg.name
            self._place(addr, client)
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

    def _reject(self, name: str, addr: Addr, code: str, reason: str) -> None:
        self._send(fmt.rejected(code), addr)
        refused(log, "mia", name, f"{addr[0]}:{addr[1]}", code, reason)

    def _stored_points(self, name: str) -> int:
        if self.records is None:
            return 0
        return int(self.records.points("mia", [name]).get(name, 0))

    def _on_unregister(self, addr: Addr) -> None:
        client = self._by_addr.get(addr)
        self._send(fmt.unregistered(), addr)
        if client is not None:
            self._remove(client)
            log.info("mia: %s left (UNREGISTER)", client.name)

    def _remove(self, client: Client) -> None:
        self.clients.pop(client.name, None)
        self._spelled.pop(name_key(client.name), None)
        self._forget_addr(client.addr)
        self._addrs = self._ranked = None
        self._awaiting.discard(client.name)
        if client.name in self._joined and self.phase == "joining":
            self.joined.remove(client.name)
            self._joined.discard(client.name)
        self._emit("player_unregistered", name=client.name)

    def _place(self, addr: Addr, client: Client) -> None:
        self._by_addr[addr] = client
        self._per_ip[addr[0]] += 1

    def _forget_addr(self, addr: Addr) -> None:
        if self._by_addr.pop(addr, None) is not None:
            self._per_ip[addr[0]] -= 1
            if not self._per_ip[addr[0]]:
                del self._per_ip[addr[0]]
        self._addrs = None

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
        self.round_number = (
            self.records.allocate("mia.round", self.round_number)
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
        self._invited = {c.name for c in players}
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
            if client.name not in joined and client.name in self._invited:
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
            table_id=f"round-{n}",
            state=MiaRound(tuple(order)),
            seats=[Seat(name, "bot") for name in order],
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
        self._arm(self.settings.answer_window, self._did_not_take_turn)

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
        record = self.match.record()
        # Only the players who acted are rated: the others scored a point by sitting still,
        # and rating dozens of bystanders every round cost the writer most of its time.
        acted = {a.name for a in state.announcements} | {state.current_name} | set(state.losers)
        for p in record.players:  # fresh objects of this record: set in place, not copied
            p.rated = p.name in acted
        # Compact: hundreds of rounds a second are stored. The actions go into the match row
        # (no event rows); "details" repeated the losers, "returns" and "winners" the
        # players' rows (score, winner).
        record.packed = True
        for repeated in ("details", "returns", "winners"):
            record.result.pop(repeated, None)
        record.result["round"] = n
        record.result["order"] = list(state.players)
        record.result["losers"] = list(state.losers)
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
            self.records.submit(
                MatchRecord(
                    game="mia",
                    table_id=f"round-{n}",
                    players=[
                        PlayerResult(i, name, 0.0, False, "bot")
                        for i, name in enumerate(self.joined)
                    ],
                    result={"round": n, "canceled": reason},
                    status="canceled",
                    started_at=self._round_started_at,
                    meta={"round": n},
                    rated=False,
                )
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
