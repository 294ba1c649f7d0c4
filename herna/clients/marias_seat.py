"""One person's mariáš seat relayed to a screen: a CGML client that plays a group at the super
game server for a person who answers somewhere else (the web hall's browser page).

:class:`SeatRelay` logs in at the login server like ``herna play marias`` does, plays the group
over the client library's :class:`~herna.clients.cgml.CgmlClient` with the
:class:`~herna.protocols.cgml.player.PlayerTracker` (reading the server on while the person
thinks), and turns what this seat may know into a JSON-ready :meth:`SeatRelay.state`:
its own hand, the public table (auction, contract, fleks, trick, tricks taken), the choices the
rules allow it now (numbered) and, after each deal, the result table and the vyúčtování of
:mod:`herna.clients.marias_text`. It applies no rule of its own: the choices are the tracker's
``legal_actions()`` (plus ložená hra when playing, as the terminal client offers it), and the
server stays the judge of every answer.

Nothing of another seat's hidden cards is in the state: the tracker's shadow guesses other
hands, so the state takes from it only this seat's hand, this seat's talon and what was played
face up.

A stand-in: :meth:`SeatRelay.set_stand_in` lets a bot strategy answer for the person (and tells
the server with the ``<standin>`` Herna extension, so the deal's record says so) until the
person is back.

The move clock: with ``move_clock`` > 0 every question to the person has that many seconds
(shown on the page as :meth:`SeatRelay.state`'s ``clock``). When it runs out the person gets
``grace`` seconds more and may still answer; after that a stand-in answers this question and
the following ones, until the person takes the seat back (:meth:`SeatRelay.set_stand_in`
with ``False``: the page's "Back to my seat"). The clocks run on the relay's side, well
inside the super game server's own ``--cgml-human-timeout``, so a slow person never stalls or
aborts the other seats' table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import herna.clients.cgml as cgml_client
from herna.clients.cgml import TOURNAMENT_OVER, CgmlClient, CgmlClientError, login, parse_url
from herna.clients.marias_score import points_so_far
from herna.clients.marias_text import (
    CONTRACT_WORD,
    RANK_WORD,
    SUIT_CS,
    SUIT_WORD,
    action_text,
    breakdown_lines,
    card_name,
    flek_words,
    result_rows,
    trumps_words,
)
from herna.core.clock import MonotonicClock
from herna.games.marias import (
    CARD_CODES,
    Action,
    Answer,
    Bid,
    Claim,
    Discard,
    Flek,
    GameType,
    Play,
    make_bot,
)
from herna.games.marias.bots import BotRng
from herna.hall.clocks import DecisionClock
from herna.protocols.cgml.breakdown import derive
from herna.protocols.cgml.messages import (
    Abort,
    CancelGame,
    ConnectComplete,
    Error,
    FlekInfo,
    GameTypeInfo,
    LiciteInfo,
    LiciteResult,
    Message,
    NewGroupAnswer,
    PauseFinish,
    PauseStart,
    PlayCardInfo,
    PlayerRef,
    Renonc,
    Result,
    Round,
)
from herna.protocols.cgml.player import Decision, PlayerTracker, TrackerError
from herna.protocols.cgml.standin import StandIn

log = logging.getLogger("herna.cgml.seat")

LOG_LINES = 40
"""Lines of the table's story kept in the state (the current deal and a little before)."""

STRENGTH = {"0A": 0, "10": 1, "0K": 2, "0Q": 3, "0J": 4, "09": 5, "08": 6, "07": 7}
NATURAL = {"0A": 0, "0K": 1, "0Q": 2, "0J": 3, "10": 4, "09": 5, "08": 6, "07": 7}
"""Card order in a hand: trump games rank the ten above the king; betl and durch do not."""

RANK_TITLE = {
    "07": "seven",
    "08": "eight",
    "09": "nine",
    "10": "ten (desítka)",
    "0J": "Unter (spodek)",
    "0Q": "Ober (svršek)",
    "0K": "king (král)",
    "0A": "ace (eso)",
}

BID_WORD = {**CONTRACT_WORD, "YES": "mám (yes)", "NO": "nemám (no)"}
"""A bid or an answer in the licitace, in words."""

_STANDIN = object()
"""What the person's pending answer resolves to when a stand-in takes over."""


def card_json(code: str) -> dict[str, str]:
    """A card for the page: code, Czech name and an English title."""
    suit, rank = code[0], code[1:]
    return {
        "code": code,
        "name": f"{SUIT_CS[suit]} {RANK_WORD.get(rank, rank)}",
        "title": f"{RANK_TITLE.get(rank, rank)} of {SUIT_WORD[suit]}",
    }


def sort_hand(codes: Sequence[str], natural: bool = False) -> list[str]:
    order = NATURAL if natural else STRENGTH
    return sorted(codes, key=lambda c: ("RBGA".index(c[0]), order.get(c[1:], 9)))


def option_json(index: int, action: Action) -> dict[str, Any]:
    """One choice for the page: its number, Czech label, English title and cards."""
    out: dict[str, Any] = {"id": index, "label": action_text(action), "title": ""}
    if isinstance(action, Bid):
        code = action.contract.code
        out.update(kind="bid", label=CONTRACT_WORD.get(code, code), title=f"bid {code}")
    elif isinstance(action, Answer):
        out.update(
            kind="answer",
            label="mám (yes)" if action.yes else "nemám (no)",
            title="I have it: I take the game at this level"
            if action.yes
            else "I do not hold it: the bidder keeps the game",
        )
    elif isinstance(action, GameType):
        code = action.contract.code
        label = CONTRACT_WORD.get(code, code)
        title = f"announce {code}"
        out["group"] = label
        out["contract"] = code  # the page builds its steps (game, trumps, additions) from it
        out["suit"] = "" if action.trumps is None else "RBGA"[action.trumps]
        out["second"] = "" if action.second is None else "RBGA"[action.second]
        if action.trumps is not None:
            suit = "RBGA"[action.trumps]
            label += f", {SUIT_CS[suit]}"
            title += f" with {SUIT_WORD[suit]} as trumps"
            if action.second is not None:
                second = "RBGA"[action.second]
                label += f" + {SUIT_CS[second]}"
                title += f", second suit {SUIT_WORD[second]}"
        out.update(kind="gametype", label=label, title=title)
    elif isinstance(action, Flek):
        text = ":".join(str(x) for x in action.levels)
        out.update(kind="flek", label=flek_words(text), title=f"flek level {text} (doubles)")
    elif isinstance(action, Play):
        out.update(kind="play", card=CARD_CODES[action.card], title="play this card")
    elif isinstance(action, Discard):
        out.update(kind="discard", cards=[CARD_CODES[c] for c in action.cards])
    elif isinstance(action, Claim):
        out.update(
            kind="claim",
            label="ložená hra (lay down)",
            title="show all your cards and claim the rest of the tricks (a wrong claim is "
            "a renonc)",
            cards=[CARD_CODES[c] for c in action.cards],
        )
    return out


@dataclass
class Pending:
    decision: Decision
    number: int
    options: list[Action]
    future: asyncio.Future[object]


class SeatRelay:
    """One person's seat at a CGML table, driven by :meth:`act` and read by :meth:`state`."""

    def __init__(
        self,
        host: str,
        port: int,
        player: PlayerRef,
        opponents: Sequence[PlayerRef] = (),
        token: str | None = None,
        tariff: str = "csm",
        stand_in: str = "heuristic",
        on_change: Callable[[], None] | None = None,
        move_clock: float = 0.0,
        grace: float = 0.0,
        fill: int | None = None,
        tournament: str | None = None,
    ) -> None:
        self.host = host
        self.tournament = tournament
        """A live tournament's id: the seat then plays group after group as the tournament
        books them, until the login server says it is over."""
        self.port = port
        self.player = player
        self.opponents = tuple(opponents)
        self.token = token
        self.tariff = tariff
        self.on_change = on_change
        self.fill = fill
        """Seconds to wait for people before house bots take the free seats (None: the
        login server's fill wait)."""
        self.decision_clock = DecisionClock(
            MonotonicClock(), move_clock, grace, self._clock_late, self._clock_expired
        )
        """Each question's move clock, then the grace period (the hall's one mechanism for
        people's clocks)."""
        self.me = player.id or player.name or ""
        self.tracker = PlayerTracker(self.me)
        self.seq = 0
        self.status = "connecting"
        """``connecting``, ``waiting`` (for the group), ``playing``, ``over`` or ``error``."""
        self.message = ""
        self.group = ""
        self.pending: Pending | None = None
        self.decisions = 0
        self.lines: list[str] = []
        self.result: dict[str, Any] | None = None
        self.deals = 0
        self.totals: dict[str, int] = {}
        self.stand_in = False
        self.abandon = False
        """Set when nobody came back for long: a stand-in then leaves at the next deal."""
        self.stand_in_deals: list[int] = []
        """Deals (1-based) in which the stand-in answered at least once."""
        self._bot = make_bot(stand_in, served=True)
        self._rng = random.Random()
        self._client: CgmlClient | None = None
        self._joined = False
        self._failure: Exception | None = None
        self._told = False
        """What the server was last told with ``<standin>`` (it starts with no stand-in)."""
        self._task: asyncio.Task[None] | None = None
        self.present = True
        """Whether the person has a page open (the web hall says so). A group formed while
        nobody is there is declined: nobody sits down with a person who already left."""
        self.again: tuple[PlayerRef, ...] | None = None
        """The opponents to wait for when a table is called off before its first deal (a
        player of the group left); None: the same as before. A seat that accepted a waiting
        player's seek waits for people instead of for that player."""
        self._login: asyncio.Task[ConnectComplete] | None = None
        self._rewait: str | None = None

    # -- running ----------------------------------------------------------------------------
    def start(self) -> asyncio.Task[None]:
        self._task = asyncio.get_running_loop().create_task(self.run(), name=f"seat-{self.me}")
        return self._task

    async def run(self) -> None:
        try:
            # Waiting for the table: the login server answers once a group is formed (at
            # once with bots, when another person comes with "people").
            self.status = "waiting"
            if self.tournament is not None:
                self.message = f"Waiting for your table of tournament {self.tournament}."
            self._changed()
            while True:
                try:
                    complete = await self._wait_for_group()
                except CgmlClientError as e:
                    if self.tournament is None or e.code != TOURNAMENT_OVER:
                        raise
                    self.message = "The tournament is over: its page has the standings."
                    break
                if complete is None:
                    continue  # the web hall sent the seat back to waiting (rewait)
                if not self.present and self.tournament is None:
                    await cgml_client.decline(complete, self.player)
                    self.message = "You left before the table started."
                    break
                self.group = complete.group
                self.message = ""
                await self._play(complete)
                if self.tournament is None and self.status == "waiting":
                    # Called off before its first deal (a player of the group left, or
                    # declined): nobody played, nothing was recorded; wait again.
                    self._waiting_again(
                        "The table did not start: a player left before the first deal. "
                        "You are waiting for another table."
                    )
                    continue
                if self.tournament is None:
                    break
                self._next_group()
            self.status = "over"
            if not self.message:
                self.message = "The table is closed."
        except asyncio.CancelledError:
            self.status = "over"
            self.message = "You left the table."
            raise
        except (CgmlClientError, OSError, TrackerError) as e:
            log.info("seat %s: %s", self.me, e)
            self.status = "error"
            self.message = str(e)
        finally:
            self._cancel_pending()
            self._changed()

    async def _wait_for_group(self) -> ConnectComplete | None:
        """Log in and wait for a group; None when :meth:`rewait` ended the wait. A login
        refused because this id is still in the group just called off is tried again."""
        for attempt in range(20):
            self._login = asyncio.get_running_loop().create_task(
                login(
                    self.host,
                    self.port,
                    self.player,
                    "active",
                    self.opponents,
                    token=self.token,
                    fill=self.fill,
                    tournament=self.tournament,
                )
            )
            try:
                return await self._login
            except asyncio.CancelledError:
                if self._rewait is None:
                    raise
                self._waiting_again(self._rewait)
                self._rewait = None
                return None
            except CgmlClientError as e:
                if e.code != "ID_IN_USE" or not self.group or attempt == 19:
                    raise
                await asyncio.sleep(0.1)
            finally:
                self._login = None
        raise AssertionError("unreachable")

    def rewait(self, message: str) -> None:
        """Stop waiting for the group asked for (the seek this seat accepted is gone) and
        wait again for :attr:`again`, telling the person ``message``."""
        login_task = self._login
        if login_task is None or login_task.done():
            return
        self._rewait = message
        login_task.cancel()

    def _waiting_again(self, message: str) -> None:
        """Back to waiting for a group (a fresh tracker: a new table), telling ``message``."""
        if self.again is not None:
            self.opponents = self.again
            self.fill = None
        self.tracker = PlayerTracker(self.me)
        self._joined = False
        self._told = False
        self.status = "waiting"
        self.message = message
        self._say(message)
        self._changed()

    def _next_group(self) -> None:
        """A tournament's group is over: wait for the next table it books (the deals count
        on through the evening, the last vyúčtování stays on the page until the next deal)."""
        self._waiting_again("Your table is over; waiting for your next table of the tournament.")

    async def _play(self, complete: ConnectComplete) -> None:
        """Join the group and play it. Unlike :func:`~herna.clients.cgml.play_group` (whose
        deciders answer at once), the person may take minutes, so the server's messages are
        read on while a question waits for them: an ``<abort>``, a pause or a closed table
        reaches the page at once, and a question the table has moved past is withdrawn."""
        pid = complete.playerid or self.player.id or ""
        me = PlayerRef(pid, self.player.name, self.player.race)
        host, port = parse_url(complete.url)
        answering: asyncio.Task[None] | None = None
        refusals = 0
        async with await CgmlClient.connect(host, port) as client:
            self._connected(client)
            await client.send(NewGroupAnswer(True, complete.group, complete.game, me))
            try:
                while True:
                    message = await client.recv()
                    if message is None:
                        break
                    if not self._joined and isinstance(message, Error):
                        break  # refused at the door: the group was called off meanwhile
                    decision = self.tracker.feed(message)
                    refusals = refusals + 1 if isinstance(message, Error) else 0
                    if refusals > 20:
                        raise CgmlClientError(f"the server keeps refusing: {message}")
                    self._on_message(message, self.tracker)
                    if decision is not None:
                        if answering is not None:
                            answering.cancel()
                        answering = asyncio.get_running_loop().create_task(
                            self._answer(client, decision)
                        )
            finally:
                if answering is not None:
                    answering.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await answering
        if self._failure is not None:
            raise self._failure

    async def _answer(self, client: CgmlClient, decision: Decision) -> None:
        try:
            answer = await self.decide(self.tracker, decision)
            await client.send(answer)
        except asyncio.CancelledError:
            self._cancel_pending()
            raise
        except (TrackerError, CgmlClientError, OSError) as e:
            # The server's questions do not fit what this seat saw (or the line broke):
            # end the seat with the reason rather than leave it waiting for ever.
            log.warning("seat %s: cannot answer %s: %s", self.me, decision.kind, e)
            self._failure = e
            await client.close()
            return
        self.tracker.sent(decision)

    async def stop(self) -> None:
        task = self._task
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    @property
    def done(self) -> bool:
        return self._task is not None and self._task.done()

    def _connected(self, client: CgmlClient) -> None:
        self._client = client
        self._joined = False

    def _tell_stand_in(self) -> None:
        """Tell the super game server whether a stand-in plays, once this seat has joined the
        group (before, the server would not know whose seat it is)."""
        client = self._client
        if client is None or client.closed or not self._joined:
            return
        if self._told != self.stand_in:
            client.send_nowait(StandIn(self.stand_in))
            self._told = self.stand_in

    def _changed(self) -> None:
        self.seq += 1
        if self.on_change is not None:
            self.on_change()

    def _cancel_pending(self) -> None:
        pending, self.pending = self.pending, None
        if pending is not None and not pending.future.done():
            pending.future.cancel()

    # -- the Decider ------------------------------------------------------------------------
    async def decide(self, tracker: PlayerTracker, decision: Decision) -> Message:
        if decision.kind == "newgame":
            # Sitting down means playing deal after deal; leaving the table ends it.
            return tracker.newgame_answer(not (self.stand_in and self.abandon))
        legal: list[Action] = list(tracker.legal_actions())
        if decision.kind == "play":
            hand = tracker.hand()
            if len(hand) > 1:
                legal.append(Claim(tuple(hand)))
        if not self.stand_in:
            self.decisions += 1
            future: asyncio.Future[object] = asyncio.get_running_loop().create_future()
            self.pending = Pending(decision, self.decisions, legal, future)
            self.decision_clock.start()
            self._changed()
            try:
                chosen = await future
            finally:
                self.pending = None
                self.decision_clock.stop()
            if chosen is not _STANDIN:
                self._changed()
                return tracker.answer(cast(Action, chosen))
        if self.deals + 1 not in self.stand_in_deals:
            self.stand_in_deals.append(self.deals + 1)
        rng = cast(BotRng, self._rng)
        action = self._bot.choose(tracker.view(), tracker.legal_actions(), rng)
        self._changed()
        return tracker.answer(action)

    # -- the move clock ---------------------------------------------------------------------
    def _asked(self) -> bool:
        return self.pending is not None and not self.pending.future.done()

    def _clock_late(self) -> None:
        """The move clock of the question asked now ran out: the grace period starts."""
        if not self._asked():
            return
        grace = self.decision_clock.grace
        self.lines.append(
            f"Your time is up: a stand-in answers for you in {grace:g} s unless you answer now."
        )
        self._changed()

    def _clock_expired(self) -> None:
        if not self._asked():
            return
        log.info("seat %s: the move clock and the grace period ran out", self.me)
        self.lines.append("You did not answer in time.")
        self.set_stand_in(True)

    def clock(self) -> dict[str, Any] | None:
        """The running clock of the question asked now: seconds left, and whether they are
        the grace period (None: no question, or no clock)."""
        left = self.decision_clock.left()
        if left is None or not self._asked():
            return None
        return {
            "left": round(left, 2),
            "late": self.decision_clock.late,
            "move_clock": self.decision_clock.move,
            "grace": self.decision_clock.grace,
        }

    def act(self, number: object, choice: object) -> tuple[str, str] | None:
        """The person answers question ``number`` with option ``choice``; ``(code, reason)``
        when that is not possible now (nothing changes then)."""
        pending = self.pending
        if pending is None or pending.future.done():
            return "NOT_YOUR_TURN", "It is not your turn: nobody is asking you anything now."
        if number != pending.number:
            return "STALE", "That question is over; the table has moved on."
        if not isinstance(choice, int) or isinstance(choice, bool):
            return "BAD_CHOICE", "Choose one of the options offered."
        if not 0 <= choice < len(pending.options):
            return "BAD_CHOICE", "There is no such choice; choose one of the options offered."
        pending.future.set_result(pending.options[choice])
        return None

    def set_stand_in(self, on: bool) -> None:
        """A stand-in answers for the person from now (``on``) or no longer."""
        if on == self.stand_in:
            return
        self.stand_in = on
        self._tell_stand_in()
        pending = self.pending
        if on and pending is not None and not pending.future.done():
            pending.future.set_result(_STANDIN)
        self.lines.append(
            "A stand-in (house bot) plays for you." if on else "You are back at your seat."
        )
        self._changed()

    # -- what happened ----------------------------------------------------------------------
    def _who(self, pid: str | None) -> str:
        if pid == self.me:
            return "you"
        try:
            return self._name(self.tracker.seat_of(pid))
        except TrackerError:
            return pid or "?"

    def _name(self, seat: int) -> str:
        """A seat's name, unique at the table the way records write it: two bots of one bot
        server are ``house-heuristic-bot`` and ``house-heuristic-bot#2``."""
        t = self.tracker
        taken: list[str] = []
        for s in range(seat + 1):
            base = t.name_of(s)
            name, n = base, 2
            while name in taken:
                name, n = f"{base}#{n}", n + 1
            taken.append(name)
        return taken[seat]

    def _say(self, line: str) -> None:
        self.lines.append(line)
        del self.lines[:-LOG_LINES]

    def _on_message(self, message: Message, tracker: PlayerTracker) -> None:
        if not self._joined:
            self._joined = True  # the group speaks to this seat: it has joined
            self._tell_stand_in()
        who = self._who(getattr(message, "playerid", None))
        if isinstance(message, LiciteInfo):
            self._say(f"{who}: {BID_WORD.get(message.value, message.value)}")
        elif isinstance(message, LiciteResult):
            word = CONTRACT_WORD.get(message.value, message.value)
            takes = "take" if who == "you" else "takes"
            self._say(f"{who} won the licitace at {word} and {takes} the talon")
        elif isinstance(message, GameTypeInfo) and message.flek is None:
            trumf = f", trumfy {trumps_words(message.trumf)}" if message.trumf else ""
            self._say(f"{who} announces {CONTRACT_WORD.get(message.licite, message.licite)}{trumf}")
        elif isinstance(message, FlekInfo):
            self._say(f"{who}: {flek_words(message.level)}")
        elif isinstance(message, PlayCardInfo) and message.to == "desk":
            cards = " ".join(card_name(c.code) for c in message.cards if c is not None)
            self._say(f"{who} {'play' if who == 'you' else 'plays'} {cards}")
        elif isinstance(message, PlayCardInfo) and message.to == "talon":
            self._say(f"{who} {'lay' if who == 'you' else 'lays'} two cards into the talon")
        elif isinstance(message, Round):
            self._say(f"trick {message.number} goes to {self._who(message.playerid)}")
        elif isinstance(message, Result):
            self._result(message, tracker)
        elif isinstance(message, Renonc):
            self._say(f"Renonc by {message.player.name or message.player.id}: {message.message}")
        elif isinstance(message, CancelGame):
            self._say(f"Game cancelled: {message.reason}")
            if message.reason != "renonc":
                self.message = f"The game was cancelled ({message.reason})."
        elif isinstance(message, Abort):
            self.message = (
                f"The game was aborted ({message.message}) by "
                f"{message.player.name or message.player.id}."
            )
            self._say(self.message)
        elif isinstance(message, PauseStart):
            self._say(f"Pause: {message.message or ''}")
        elif isinstance(message, PauseFinish):
            self._say("The pause is over")
        elif isinstance(message, Error):
            self._say(f"Server: {message.reason}")
        if message.tag == "newgame" and self.status != "playing":
            self.status = "playing"
        self._changed()

    def _result(self, result: Result, tracker: PlayerTracker) -> None:
        self.deals += 1
        for pid, amount in result.money().items():
            self.totals[pid] = self.totals.get(pid, 0) + amount
        b = derive(tracker, result, self.tariff)
        names = [
            "you" if p.id == self.me else self._name(seat) for seat, p in enumerate(tracker.players)
        ]
        word = CONTRACT_WORD.get(result.licite, result.licite)
        trumps = f", trumfy {trumps_words(result.trumf)}" if result.trumf else ""
        rows = result_rows(b, tracker, result, self.me)
        self.result = {
            "deal": self.deals,
            "title": f"{word}{trumps}, {flek_words(result.flek)}",
            "licite": result.licite,
            "rows": [
                {
                    "name": r.name if r.name == "you" else self._name(r.seat),
                    "role": r.role,
                    "tricks": r.tricks,
                    "points": r.points,
                    "hlasky": r.hlasky,
                    "money": r.money,
                    "total": self.totals.get(tracker.players[r.seat].id or "", 0),
                }
                for r in rows
            ],
            "lines": [{"text": t, "style": s} for t, s in breakdown_lines(b, names)],
            "stand_in": self.deals in self.stand_in_deals,
        }
        mine = result.money().get(self.me, 0)
        self._say(f"Deal {self.deals} over: you {mine:+d}, {self.totals.get(self.me, 0):+d} in all")

    # -- the state for the page ---------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        """What the page shows, JSON-ready: only what this seat may know."""
        t = self.tracker
        out: dict[str, Any] = {
            "type": "state",
            "seq": self.seq,
            "status": self.status,
            "message": self.message,
            "me": self.player.name or self.me,
            "deals": self.deals,
            "stand_in": self.stand_in,
            "log": list(self.lines),
            "result": self.result,
            "players": [],
            "hand": [],
            "talon": [],
            "trick": [],
            "last_trick": None,
            "leader": None,
            "auction": [],
            "contract": None,
            "marriages": [],
            "points": None,
            "decision": None,
        }
        if t.seat < 0 or not t.players:
            return out
        view: dict[str, Any] = {}
        if t.in_game:
            try:
                view = dict(t.view())
            except TrackerError:
                view = {}
        roles = {}
        if view:
            roles = {view["forhont"]: "forhont", view["middle"]: "middle", view["zadak"]: "zadák"}
        won = [0, 0, 0]
        for trick in view.get("tricks", []):
            won[trick["winner"]] += 1
        declarer = view.get("declarer")
        out["players"] = [
            {
                "seat": s,
                "name": self._name(s),
                "you": s == t.seat,
                "role": roles.get(s, ""),
                "aktér": declarer == s,
                "tricks": won[s],
                "total": self.totals.get(t.players[s].id or "", 0),
                "to_move": view.get("current_player") == s,
            }
            for s in range(len(t.players))
        ]
        if not view:
            return out
        contract_code = view.get("licite")
        natural = contract_code in ("SMALL", "BIG")
        # This seat's own cards only: the shadow's other hands are guesses and never leave,
        # and neither does a guessed talon (between the licitace and the talon's arrival the
        # shadow hands the auction winner two guessed cards): only cards dealt or given to
        # this seat are shown.
        known = {CARD_CODES[c] for c in [*t.dealt, *t.talon]}
        hand = [c for c in view.get("hand", []) if c in known]
        out["hand"] = [card_json(c) for c in sort_hand(hand, natural)]
        if t.declarer == t.seat and t.talon:
            out["talon"] = [card_json(c) for c in view.get("talon", []) if c in known]
        trick = view.get("trick", {})
        leader = trick.get("leader")
        out["trick"] = [
            {**card_json(c), "by": self._name((leader + i) % 3) if leader is not None else ""}
            for i, c in enumerate(trick.get("cards", []))
        ]
        out["leader"] = self._name(leader) if leader is not None else None
        tricks = view.get("tricks", [])
        if tricks:
            last = tricks[-1]
            out["last_trick"] = {
                "winner": self._name(last["winner"]),
                "cards": [card_json(c) for c in last["cards"]],
            }
        out["auction"] = [
            {"name": self._name(a["player"]), "licite": BID_WORD.get(a["licite"], a["licite"])}
            for a in view.get("auction", [])
        ]
        if contract_code:
            out["contract"] = {
                "licite": contract_code,
                "words": CONTRACT_WORD.get(contract_code, contract_code),
                "trumps": trumps_words(view.get("trumf")) if view.get("trumf") else "",
                "flek": flek_words(view.get("flek")),
                "aktér": self._name(declarer) if declarer is not None else "",
            }
        out["marriages"] = self._marriages(view)
        out["points"] = points_so_far(view, out["marriages"])
        pending = self.pending
        if pending is not None and not pending.future.done():
            out["decision"] = self._decision_json(pending)
        out["clock"] = self.clock()
        return out

    def _marriages(self, view: dict[str, Any]) -> list[dict[str, Any]]:
        """Hlášky known so far. This seat's own as the engine announces them (its hand is
        real); another seat's once it has played both svršek and král of a suit, face up
        (the shadow's guess of its hand is never used)."""
        t = self.tracker
        trumps = str(view.get("trumf") or "")[:1]
        found = {(t.seat, m["suit"]) for m in view.get("marriages", []) if m["player"] == t.seat}
        if view.get("licite") not in (None, "SMALL", "BIG"):  # betl and durch have none
            played: dict[int, set[str]] = {}
            tricks = [*view.get("tricks", []), {**view.get("trick", {}), "number": 0}]
            for trick in tricks:
                leader = trick.get("leader")
                if leader is None:
                    continue
                for i, code in enumerate(trick.get("cards", [])):
                    played.setdefault((leader + i) % 3, set()).add(code)
            for seat, cards in played.items():
                if seat != t.seat:
                    found |= {(seat, s) for s in "RBGA" if {f"{s}0K", f"{s}0Q"} <= cards}
        return [
            {
                "seat": seat,
                "name": "you" if seat == t.seat else self._name(seat),
                "suit": suit,
                "words": f"{SUIT_CS[suit]} ({SUIT_WORD[suit]})",
                "points": 40 if suit == trumps else 20,
            }
            for seat, suit in sorted(found)
        ]

    def _decision_json(self, pending: Pending) -> dict[str, Any]:
        d = pending.decision
        if d.kind == "licite":
            if d.asked:
                word = CONTRACT_WORD.get(d.asked, d.asked)
                prompt = f"Do you have {word}?"
            else:
                prompt = "Your bid (licitace)"
        elif d.kind == "discard":
            prompt = "Choose two cards for the talon"
        elif d.kind == "gametype":
            prompt = f"Announce the game (you won {CONTRACT_WORD.get(d.asked or '', d.asked)})"
        elif d.kind == "flek":
            prompt = f"Flek? (now {flek_words(d.asked)})"
        else:
            prompt = "Your card"
        return {
            "number": pending.number,
            "kind": d.kind,
            "prompt": prompt,
            "options": [option_json(i, a) for i, a in enumerate(pending.options)],
        }


__all__ = ["SeatRelay", "card_json", "option_json", "sort_hand"]
