"""The game side of the sandboxed bot's relay (:mod:`herna.clients.sandboxed`): one
:class:`Wire` per protocol, which opens the connection to the game's server and logs in for
the bot, turns what the server sends into the text the bot reads on its standard input,
passes the bot's messages on, and reads from the server's messages whose turn it is and how
the game ended for the bot.

* **Onitama** (TCP lines, docs/protocols/onitama.md): ``LOGIN`` with the lobby words; the
  bot reads from ``LOGIN_OK`` on; a game is one game.
* **Tiles** (TCP JSON lines, docs/protocols/tiles.md): ``join`` with the rules and the lobby
  words; the bot reads from ``joined`` on; ``your_turn`` is its turn; giving up is ``resign``.
* **Mia** (UDP datagrams, docs/protocols/mia.md): ``REGISTER``; one datagram is one line each
  way. A "game" is a session of :data:`MIA_ROUNDS` rounds at the hall's Mia table (each round
  is recorded as the server records every round); the server's own answer window is the move
  clock, so the relay keeps none. The session is won when the bot lost fewer of its rounds
  than the other players did on average.
* **Mariáš** (CGML over TCP, docs/protocols/cgml.md): the two-step login (login server, then
  the group at the super game server) is the relay's; the bot reads and writes CGML documents
  from the login's ``connect status="complete"`` on (the group's public id instead of the
  ticket), and plays one deal: the relay says no to the next one. For a bot that stops, the
  relay plays the deal out with a house bot, announced with ``standin`` as the web hall's
  seats do, so the deal ends as dealt for the other two.

The servers, their rules and records are unchanged: a wire is an ordinary client.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import deque
from dataclasses import replace
from typing import Any

from herna.clients.cgml import BotDecider, CgmlClientError
from herna.protocols.cgml import (
    GAME_MARIAS,
    Abort,
    CancelGame,
    ConnectComplete,
    ConnectPlayer,
    Decoder,
    Disconnect,
    Error,
    Message,
    NewGameAnswer,
    NewGameAsk,
    NewGroupAnswer,
    PlayerRef,
    Result,
    encode,
    encode_text,
)
from herna.protocols.cgml.player import PlayerTracker
from herna.protocols.cgml.standin import StandIn
from herna.protocols.onitama import MAX_LINE

ONITAMA_REASONS = {
    "way_of_the_stone": "the master was captured (Way of the Stone)",
    "way_of_the_stream": "a master reached the temple arch (Way of the Stream)",
    "opponent_left": "the opponent left",
    "out_of_time": "out of time",
    "resigned": "resigned",
    "draw_agreed": "a draw was agreed",
}

MIA_ROUNDS = 20
"""Rounds a submitted Mia bot plays in one ladder session."""
TILES_RULES = "tsuro"
"""The tile game a submitted tiles bot plays on the ladder (short games, every seat moves)."""
STAND_IN_LEVEL = "easy"
"""The house bot that plays a mariáš deal out for a bot that stopped."""
CGML_SEND_LIMIT = 64 * 1024
"""The longest CGML document a bot may write (the codec's ``MAX_MESSAGE_BYTES``)."""


class Refused(Exception):
    """The server would not seat the bot: ``reason`` says why, for its author."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Wire:
    """One connection to a game's server on behalf of a sandboxed bot (see the module doc)."""

    max_message = MAX_LINE
    """The longest message the bot may write, in bytes."""
    documents = False
    """The bot's messages are CGML documents (up to ``</cgml>``), not lines."""
    game_clock_starts_at_login = True

    def __init__(self, name: str) -> None:
        self.name = name
        self.opponent = ""
        self.started = False
        """A game (or session) began: there is something to lose."""
        self.mine = False
        """It is the bot's turn: the move clock runs."""
        self.over: tuple[str, str] | None = None
        """(``won``/``lost``/``draw``, why) once the game ended."""
        self.moves = 0

    async def open(self, host: str, port: int, proof: str, seek: str) -> list[str]:
        """Connect and log in; the first text for the bot. Raises :class:`Refused`."""
        raise NotImplementedError

    async def receive(self) -> list[str] | None:
        """The next text for the bot (read as it goes by), or ``None``: the server closed."""
        raise NotImplementedError

    async def send(self, message: str) -> None:
        """Pass one of the bot's messages on (the relay's own login is never passed on)."""
        raise NotImplementedError

    async def give_up(self) -> None:
        """The relay ends the game for the bot, in the protocol's own terms."""

    async def finish(self) -> None:
        """The game is over: leave the table cleanly."""

    async def close(self) -> None:
        raise NotImplementedError


class _LineWire(Wire):
    """A wire over one TCP connection of lines."""

    read_limit = 4 * MAX_LINE

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def _connect(self, host: str, port: int) -> None:
        try:
            self.reader, self.writer = await asyncio.open_connection(
                host, port, limit=self.read_limit
            )
        except OSError as exc:
            raise Refused(f"the hall's game server could not be reached: {exc}") from None

    async def _line(self, timeout: float | None = None) -> str | None:
        assert self.reader is not None
        try:
            async with asyncio.timeout(timeout):
                raw = await self.reader.readline()
        except (ConnectionError, ValueError):
            return None
        return raw.decode(errors="replace").rstrip("\r\n") if raw else None

    async def _write(self, line: str) -> None:
        assert self.writer is not None
        self.writer.write((line + "\n").encode())
        await self.writer.drain()

    async def send(self, message: str) -> None:
        await self._write(message)

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(ConnectionError, OSError):
                await self.writer.wait_closed()


class OnitamaWire(_LineWire):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.white = ""
        self.black = ""
        self.to_move = ""

    async def open(self, host: str, port: int, proof: str, seek: str) -> list[str]:
        await self._connect(host, port)
        await self._write(f"LOGIN|{self.name}|{proof}|{seek}")
        answer = await self._line()
        if not answer or not answer.startswith("LOGIN_OK"):
            raise Refused(f"the server refused the login: {answer or 'no answer'}")
        return [answer]

    async def receive(self) -> list[str] | None:
        line = await self._line()
        if line is None:
            return None
        self._read(line)
        return [line]

    def _read(self, line: str) -> None:
        me = self.name.casefold()
        fields = line.split("|")
        kind = fields[0]
        before = self.mine
        if kind == "START" and len(fields) >= 3:
            self.white, self.black, self.to_move = fields[1], fields[2], fields[1]
            self.started = True
            self.opponent = self.black if self.white.casefold() == me else self.white
        elif kind in ("MOVE_WAS_MADE", "STALEMATE_CARD") and self.to_move:
            self.to_move = self.black if self.to_move == self.white else self.white
            self.moves += before
        elif kind == "RECONNECT" and len(fields) >= 6:
            self.to_move = self.white if fields[5] == "white" else self.black
        elif kind == "GAME_OVER":
            winner = fields[1] if len(fields) > 1 else ""
            reason = fields[2] if len(fields) > 2 else ""
            outcome = "draw" if not winner else "won" if winner.casefold() == me else "lost"
            self.over = (outcome, ONITAMA_REASONS.get(reason, reason.replace("_", " ")))
        self.mine = self.over is None and self.to_move.casefold() == me and bool(self.to_move)

    def accepts(self, message: str) -> bool:
        return message.split("|", 1)[0].strip().upper() != "LOGIN"

    async def send(self, message: str) -> None:
        if self.accepts(message):
            await self._write(message)

    async def give_up(self) -> None:
        with contextlib.suppress(ConnectionError, OSError, TimeoutError):
            await self._write("RESIGN")
            while self.over is None:
                line = await self._line(5.0)
                if line is None:
                    break
                self._read(line)


class TilesWire(_LineWire):
    max_message = 64 * 1024
    read_limit = 2 * 1024 * 1024  # a view or a rules file: up to the protocol's 1 MiB

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.seat = -1

    async def open(self, host: str, port: int, proof: str, seek: str) -> list[str]:
        await self._connect(host, port)
        join: dict[str, Any] = {"type": "join", "name": self.name, "kind": "bot", "token": proof}
        if "tournament=" not in seek:
            join["rules"] = TILES_RULES
        join["seek"] = seek
        await self._write(json.dumps(join))
        while True:
            line = await self._line()
            if line is None:
                raise Refused("the server closed the connection before the bot sat down")
            message = _json(line)
            kind = message.get("type")
            if kind == "error":
                raise Refused(f"the server refused the bot: {message.get('reason', '')}")
            if kind in ("joined", "waiting"):
                self.seat = int(message.get("seat", -1)) if kind == "joined" else -1
                return [line]

    async def receive(self) -> list[str] | None:
        line = await self._line()
        if line is None:
            return None
        self._read(_json(line))
        return [line]

    def _read(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "joined":
            self.seat = int(message.get("seat", -1))
        elif kind == "started":
            self.started = True
            self.seat = int(message.get("seat", self.seat))
            names = [s.get("name", "") for s in message.get("seats", []) if isinstance(s, dict)]
            self.opponent = ", ".join(n for n in names if n and n != self.name)
        elif kind == "your_turn":
            self.mine = True
        elif kind == "state":
            last = message.get("last") or {}
            if isinstance(last, dict) and last.get("player") == self.seat and self.mine:
                self.mine = False
                self.moves += 1
        elif kind == "game_over":
            self.mine = False
            result = message.get("result") or {}
            winners = result.get("winner_names") or []
            reason = str(result.get("reason", ""))
            if self.name in winners:
                self.over = ("won" if len(winners) == 1 else "draw", reason)
            else:
                self.over = ("lost", reason)

    async def send(self, message: str) -> None:
        if _json(message).get("type") != "join":  # the relay's join is the only one
            await self._write(message)

    async def give_up(self) -> None:
        if not self.started:
            return
        with contextlib.suppress(ConnectionError, OSError, TimeoutError):
            await self._write('{"type":"resign"}')
            while self.over is None:
                line = await self._line(5.0)
                if line is None:
                    break
                self._read(_json(line))


def _json(line: str) -> dict[str, Any]:
    try:
        message = json.loads(line)
    except ValueError:
        return {}
    return message if isinstance(message, dict) else {}


class _Datagrams(asyncio.DatagramProtocol):
    def __init__(self) -> None:
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue()

    def datagram_received(self, data: bytes, addr: Any) -> None:
        self.queue.put_nowait(data)

    def error_received(self, exc: Exception) -> None:
        pass  # an ICMP "port unreachable" from a server going down: its silence says so

    def connection_lost(self, exc: Exception | None) -> None:
        self.queue.put_nowait(None)


class MiaWire(Wire):
    max_message = 512  # the server drops longer datagrams
    silence = 10.0
    """Seconds without a datagram (the server sends a HEARTBEAT every 2 s) that mean it is gone."""

    def __init__(self, name: str, rounds: int = MIA_ROUNDS) -> None:
        super().__init__(name)
        self.rounds = rounds
        self.transport: asyncio.DatagramTransport | None = None
        self.protocol = _Datagrams()
        self.played = 0
        self.lost = 0
        self.in_round: list[str] = []
        self.losses: dict[str, int] = {}
        self.others: set[str] = set()

    async def open(self, host: str, port: int, proof: str, seek: str) -> list[str]:
        loop = asyncio.get_running_loop()
        self.transport, _ = await loop.create_datagram_endpoint(
            lambda: self.protocol, remote_addr=(host, port)
        )
        self.transport.sendto(f"REGISTER;{self.name};{proof}".encode())
        while True:
            text = await self._datagram(5.0)
            if text is None:
                raise Refused("the Mia server did not answer the registration")
            if text.startswith("REJECTED"):
                raise Refused(f"the server refused the registration: {text}")
            if text == "REGISTERED":
                return [text]

    async def _datagram(self, timeout: float) -> str | None:
        try:
            async with asyncio.timeout(timeout):
                data = await self.protocol.queue.get()
        except TimeoutError:
            return None
        return None if data is None else data.decode(errors="replace").rstrip("\r\n")

    async def receive(self) -> list[str] | None:
        text = await self._datagram(self.silence)
        if text is None:
            return None
        self._read(text)
        return [text]

    def _read(self, text: str) -> None:
        fields = text.split(";")
        kind = fields[0]
        if kind == "ROUND STARTED" and len(fields) >= 3:
            order = fields[2].split(",")
            self.in_round = order if self.name in order and len(order) > 1 else []
            if self.in_round:
                self.started = True
                self.others.update(n for n in order if n != self.name)
                self.opponent = ", ".join(sorted(self.others))[:64]
        elif kind == "PLAYER LOST" and len(fields) >= 2 and self.in_round:
            for loser in fields[1].split(","):
                self.losses[loser] = self.losses.get(loser, 0) + 1
            if self.name in fields[1].split(","):
                self.lost += 1
        elif kind == "SCORE" and self.in_round:
            self.played += 1
            for other in self.in_round:
                self.losses.setdefault(other, 0)
            self.in_round = []
            if self.played >= self.rounds:
                self._judge()

    def _judge(self) -> None:
        others = [n for n in self.losses if n != self.name]
        mean = sum(self.losses[n] for n in others) / len(others) if others else 0.0
        outcome = "won" if self.lost < mean else "draw" if self.lost == mean else "lost"
        self.over = (
            outcome,
            f"it lost {self.lost} of its {self.played} rounds (the others {mean:.1f} on average)",
        )

    async def send(self, message: str) -> None:
        if message.split(";", 1)[0].strip().upper() in ("REGISTER", "REGISTER_SPECTATOR"):
            return  # the relay's registration is the only one
        if self.transport is not None:
            self.transport.sendto(message.encode())

    async def give_up(self) -> None:
        await self.finish()
        if self.started and self.over is None:
            self.over = ("lost", "")

    async def finish(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.sendto(b"UNREGISTER")

    async def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


class CgmlWire(Wire):
    """Mariáš: the login is the relay's; the bot plays one deal of its group, or, at a live
    tournament's table (seek ``tournament=ID``), every deal of the group: the board is the
    group, and its game is over when the group closes."""

    max_message = CGML_SEND_LIMIT
    documents = True

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.decoder = Decoder()
        self.bot_decoder = Decoder()
        self.ready: deque[Message] = deque()
        self.tracker = PlayerTracker(name)
        self.deals = 0
        self.whole_group = False
        """A tournament's table: play every deal until the group closes."""
        self.money = 0
        """The bot's money over the group's deals so far."""

    async def open(self, host: str, port: int, proof: str, seek: str) -> list[str]:
        me = PlayerRef(self.name, self.name, "bot")
        words = dict(w.partition("=")[::2] for w in seek.split(",") if w)
        tournament = words.get("tournament") or None
        self.whole_group = tournament is not None
        opponents = tuple(PlayerRef(b) for b in words.get("bots", "").split("+") if b)
        try:
            reader, writer = await asyncio.open_connection(host, port)
        except OSError as exc:
            raise Refused(f"the hall's game server could not be reached: {exc}") from None
        status = "passive" if tournament else "active"
        writer.write(
            encode(ConnectPlayer(status, me, GAME_MARIAS, opponents, proof, None, tournament))
        )
        login = Decoder()
        complete: ConnectComplete | None = None
        try:
            while complete is None:
                data = await reader.read(65536)
                if not data:
                    raise Refused("the login server closed the connection")
                for item in login.feed(data):
                    if isinstance(item, ConnectComplete):
                        complete = item
                    elif isinstance(item, Error):
                        raise Refused(f"the login server refused the bot: {item.reason}")
                    elif not isinstance(item, Message):
                        raise Refused(f"the login server sent garbage: {item.reason}")
        finally:
            writer.close()
        game_host, _, game_port = complete.url.rpartition(":")
        try:
            self.reader, self.writer = await asyncio.open_connection(
                game_host or host, int(game_port)
            )
        except (OSError, ValueError) as exc:
            raise Refused(f"the super game server could not be reached: {exc}") from None
        self.tracker = PlayerTracker(complete.playerid or self.name)
        self.opponent = ", ".join(p.name or p.id or "" for p in complete.players)[:64]
        await self._send(NewGroupAnswer(True, complete.group, complete.game, me))
        # The bot reads the login's answer as a client would (its ``playerid`` is its id), but
        # with the group's public id: the ticket is the relay's (docs/protocols/cgml.md 2.6).
        public = replace(complete, group=complete.group.rpartition(".")[0] or complete.group)
        return [encode_text(public)]

    async def _send(self, message: Message) -> None:
        assert self.writer is not None
        self.writer.write(encode(message))
        await self.writer.drain()

    async def _next(self, timeout: float | None = None) -> Message | None:
        assert self.reader is not None
        while not self.ready:
            try:
                async with asyncio.timeout(timeout):
                    data = await self.reader.read(65536)
            except (ConnectionError, OSError):
                data = b""
            if not data:
                return None
            self.ready.extend(m for m in self.decoder.feed(data) if isinstance(m, Message))
        return self.ready.popleft()

    async def receive(self) -> list[str] | None:
        while True:
            message = await self._next()
            if message is None:
                return None
            if isinstance(message, NewGameAsk) and self.deals >= 1 and not self.whole_group:
                await self._say_no()
                continue
            self._read(message)
            return [encode_text(message)]

    def _read(self, message: Message) -> None:
        decision = self.tracker.feed(message)
        if decision is not None:
            self.mine = True
        self._read_ending(message)

    def _read_ending(self, message: Message) -> None:
        """Who plays, and how the deal ended, from a message the tracker has read."""
        if isinstance(message, NewGameAsk):
            self.started = True
            me = self.tracker.me
            others = [p.id or p.name or "" for p in message.players if p.id != me]
            self.opponent = ", ".join(others)[:64]  # the bots' own ids, not their server's
        if isinstance(message, Result):
            self.deals += 1
            self.mine = False
            self.money += message.money().get(self.tracker.me, 0)
            if not self.whole_group:
                self.over = self._by_money("in the deal's money")
        elif isinstance(message, (Abort, CancelGame, Disconnect)):
            if isinstance(message, CancelGame) and message.reason == "resigned":
                return  # the aktér gave up: the result follows
            if self.deals and self.whole_group:  # the group closed: the table is over
                self.mine = False
                self.over = self._by_money(f"over the table's {self.deals} deals")
                return
            if self.deals:
                return
            self.mine = False
            ended = f"the game ended: {message.tag}"
            self.over = ("lost" if self.started else "no game", ended)

    def _by_money(self, what: str) -> tuple[str, str]:
        money = self.money
        outcome = "won" if money > 0 else "lost" if money < 0 else "draw"
        return outcome, f"{'+' if money > 0 else ''}{money} {what}"

    async def _say_no(self) -> None:
        me = PlayerRef(self.tracker.me, self.name)
        with contextlib.suppress(ConnectionError, OSError):
            await self._send(NewGameAnswer(False, me))

    async def send(self, message: str) -> None:
        for item in self.bot_decoder.feed(message.encode()):
            if not isinstance(item, Message):
                raise Refused(f"it wrote something that is not a CGML message: {item.reason}")
            if item.tag in ("connect", "newgroup", "load"):
                continue  # the relay's login is the only one
            if self.tracker.pending is not None:
                self.tracker.sent(self.tracker.pending)
            self.moves += self.mine
            self.mine = False
            await self._send(item)

    async def give_up(self) -> None:
        """A stand-in (a house bot of level ``easy``, played by the relay as the web hall's
        seats do, and announced with ``<standin>`` so the deal's record says so) plays the
        deal to its end for the bot."""
        if not self.started or self.writer is None:
            return
        stand_in = BotDecider(STAND_IN_LEVEL)
        with contextlib.suppress(ConnectionError, OSError, TimeoutError, CgmlClientError):
            await self._send(StandIn(True))
            pending = self.tracker.pending if self.mine else None
            while self.over is None:
                if pending is not None:
                    await self._send(await stand_in.decide(self.tracker, pending))
                    self.tracker.sent(pending)
                message = await self._next(60.0)
                if message is None:
                    break
                pending = self.tracker.feed(message)
                self._read_ending(message)

    async def finish(self) -> None:
        """Say no to the next deal (the group's end), waiting a moment for its question."""
        with contextlib.suppress(ConnectionError, OSError, TimeoutError):
            while True:
                message = await self._next(10.0)
                if message is None or isinstance(message, (CancelGame, Abort, Disconnect)):
                    return
                if isinstance(message, NewGameAsk):
                    await self._say_no()
                    return

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(ConnectionError, OSError):
                await self.writer.wait_closed()


def wire_for(game: str, name: str) -> Wire:
    """The wire of ``game`` (``onitama``, ``tiles``, ``mia``, ``marias``) for bot ``name``."""
    wires: dict[str, type[Wire]] = {
        "onitama": OnitamaWire,
        "tiles": TilesWire,
        "mia": MiaWire,
        "marias": CgmlWire,
    }
    return wires[game](name)
