"""One person's mariáš seat relayed to a screen: a CGML client that plays a group at the super
game server for a person who answers somewhere else (the web hall's browser page).

:class:`SeatRelay` logs in at the login server like ``herna play marias`` does, plays the group
over the client library's :class:`~herna.clients.cgml.CgmlClient` with the
:class:`~herna.protocols.cgml.player.PlayerTracker` (reading the server on while the person
thinks), and turns what this seat may know into a JSON-ready :meth:`SeatRelay.state`:
its own hand, the public table (auction, contract, fleks, trick, tricks taken), the choices the
rules allow it now (numbered) and, after each deal, the result table and the vyúčtování of
:mod:`herna.clients.marias_text` (that part is :mod:`herna.clients.marias_seat_view`). It
applies no rule of its own: the choices are the tracker's
:meth:`~herna.protocols.cgml.player.PlayerTracker.choices` (the legal actions, and for the
aktér ložená hra and giving up, as the terminal client offers them), and the server stays the
judge of every answer.

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
from typing import Any, cast

import herna.clients.cgml as cgml_client
from herna.clients.cgml import TOURNAMENT_OVER, CgmlClient, CgmlClientError, login, parse_url
from herna.clients.marias_seat_view import (
    Pending,
    SeatView,
    card_json,
    option_json,
    sort_hand,
)
from herna.core.clock import MonotonicClock
from herna.games.marias import Action, make_bot
from herna.games.marias.bots import BotRng
from herna.games.marias.names import pick
from herna.hall.clocks import DecisionClock
from herna.protocols.cgml.messages import (
    LEFT,
    ConnectComplete,
    Disconnect,
    Error,
    Message,
    NewGroupAnswer,
    PlayerRef,
)
from herna.protocols.cgml.player import Decision, PlayerTracker, TrackerError
from herna.protocols.cgml.seeks import CHALLENGE_DECLINED
from herna.protocols.cgml.standin import StandIn

log = logging.getLogger("herna.cgml.seat")


_STANDIN = object()
"""What the person's pending answer resolves to when a stand-in takes over."""


AWAY_HOLD = 240.0
"""Seconds a seat whose page is gone, at a table of bots only, waits before the next deal
for the person to come back; then it leaves the table. Inside the super game server's own
300 s for people's answers (``--cgml-human-timeout``)."""


class SeatRelay(SeatView):
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
        lang: str = "en",
        away_hold: float | None = None,
    ) -> None:
        self.host = host
        self.away_hold = AWAY_HOLD if away_hold is None else away_hold
        """Seconds a seat whose person's page is gone, with only bots at the table, holds
        its answer to the next deal before it leaves the table (:meth:`decide`)."""
        self._returned: asyncio.Future[None] | None = None
        self.lang = lang
        """The language of the table's story and choices: ``en`` (English with the Czech
        terms) or ``cs`` (Czech)."""
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
        self._ended: str | None = None
        self.rematch_people: list[str] = []
        """The people a rematch waits for (named when they decline)."""

    # -- running ----------------------------------------------------------------------------
    def _say_in(self, en: str, cs: str) -> str:
        """What the person reads, in the seat's language (:attr:`lang`)."""
        return pick(self.lang, en, cs)

    def start(self) -> asyncio.Task[None]:
        self._task = asyncio.get_running_loop().create_task(self.run(), name=f"seat-{self.me}")
        return self._task

    async def run(self) -> None:
        try:
            # Waiting for the table: the login server answers once a group is formed (at
            # once with bots, when another person comes with "people").
            self.status = "waiting"
            if self.tournament is not None:
                self.message = self._say_in(
                    f"Waiting for your table of tournament {self.tournament}.",
                    f"Čekáš na svůj stůl turnaje {self.tournament}.",
                )
            self._changed()
            while True:
                try:
                    complete = await self._wait_for_group()
                except CgmlClientError as e:
                    if e.code == CHALLENGE_DECLINED:
                        # A rematch the other person said no to (the hall's lobby ended it).
                        self.message = self._say_in(
                            f"{self._challenged()} declined the rematch.",
                            f"Odvetu odmítá: {self._challenged()}.",
                        )
                        break
                    if self.tournament is None or e.code != TOURNAMENT_OVER:
                        raise
                    self.message = self._say_in(
                        "The tournament is over: its page has the standings.",
                        "Turnaj skončil: pořadí je na jeho stránce.",
                    )
                    break
                if complete is None:
                    if self._ended is not None:
                        self.message = self._ended  # the web hall ended the wait (end_wait)
                        break
                    continue  # the web hall sent the seat back to waiting (rewait)
                if not self.present and self.tournament is None:
                    await cgml_client.decline(complete, self.player)
                    self.message = self._say_in(
                        "You left before the table started.",
                        "Odchod ještě před začátkem stolu.",
                    )
                    break
                self.group = complete.group
                self.message = ""
                await self._play(complete)
                if self.tournament is None and self.status == "waiting":
                    # Called off before its first deal (a player of the group left, or
                    # declined): nobody played, nothing was recorded; wait again.
                    self._waiting_again(
                        self._say_in(
                            "The table did not start: a player left before the first deal. "
                            "You are waiting for another table.",
                            "Stůl nezačal: jeden z hráčů odešel před prvním rozdáním. "
                            "Čekáš na jiný stůl.",
                        )
                    )
                    continue
                if self.tournament is None:
                    break
                self._next_group()
            self.status = "over"
            if not self.message:
                self.message = self._say_in("The table is closed.", "Stůl je uzavřen.")
        except asyncio.CancelledError:
            self.status = "over"
            self.message = self._say_in("You left the table.", "Odchod od stolu: stůl skončil.")
            raise
        except (CgmlClientError, OSError, TrackerError) as e:
            log.info("seat %s: %s", self.me, e)
            self.status = "error"
            self.message = str(e)
            if isinstance(e, CgmlClientError) and e.code == "ID_IN_USE":
                # The person's name is at another mariáš table or seek (another tab, window
                # or program): say so in words, not the login server's code.
                self.message = self._say_in(
                    "You already play or wait at another mariáš table under this name (in "
                    "another tab, window or program): go back to it, or leave it first.",
                    "Pod tímto jménem už hraješ nebo čekáš u jiného mariášového stolu (v jiné "
                    "kartě, okně nebo programu): vrať se k němu, nebo od něj nejdřív odejdi.",
                )
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
                if self._ended is not None:
                    return None
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

    def end_wait(self, message: str) -> None:
        """Stop waiting for the group asked for (a rematch nobody answered) and close the
        seat, telling the person ``message``."""
        login_task = self._login
        if login_task is None or login_task.done():
            return
        self._ended = message
        login_task.cancel()

    def last_table(self) -> tuple[PlayerRef, ...]:
        """Who else sat at this seat's last table, as ``<opponent>`` preferences for a
        rematch: each person (or network bot) by id, each house bot as "a bot from the bot
        server of that name" (its bots play under the server's name)."""
        t = self.tracker
        out = []
        for seat, p in enumerate(t.players):
            if seat == t.seat:
                continue
            server = _bot_server_of(p)
            if server is not None:
                out.append(PlayerRef(server))
            else:
                out.append(PlayerRef(p.id, p.name))
        return tuple(out)

    def last_people(self) -> list[str]:
        """The ids of the people (not bots) this seat's last table had besides itself."""
        t = self.tracker
        return [
            p.id
            for s, p in enumerate(t.players)
            if s != t.seat and p.race != "bot" and p.id and _bot_server_of(p) is None
        ]

    def _challenged(self) -> str:
        people = self.rematch_people
        return ", ".join(str(x) for x in people) or self._say_in("Your opponent", "Soupeř")

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
        self._waiting_again(
            self._say_in(
                "Your table is over; waiting for your next table of the tournament.",
                "Tvůj stůl skončil; čekáš na další stůl turnaje.",
            )
        )

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

    async def stop(self, leave: bool = False) -> None:
        """End the seat; ``leave``: tell the server first that the person left the table
        (the record then says so, not "lost the connection")."""
        client = self._client
        if leave and client is not None and not client.closed:
            with contextlib.suppress(CgmlClientError, OSError):
                await client.send(Disconnect(LEFT))
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
            if self._nobody_misses_me():
                # The person's page is gone and only bots sit here: no new deal in their
                # name that nobody asked for (a stand-in would play deal after deal). The
                # table waits a while for the page to come back, then the seat leaves it.
                return tracker.newgame_answer(await self._person_returns(self.away_hold))
            return tracker.newgame_answer(not (self.stand_in and self.abandon))
        # The legal actions, and for the aktér ložená hra (on lead) and giving up.
        legal = tracker.choices(decision)
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
            self._say_in(
                f"Your time is up: a stand-in answers for you in {grace:g} s unless you "
                "answer now.",
                f"Čas vypršel: když teď neodpovíš, za {grace:g} s za tebe odpoví náhradník.",
            )
        )
        self._changed()

    def _clock_expired(self) -> None:
        if not self._asked():
            return
        log.info("seat %s: the move clock and the grace period ran out", self.me)
        self.lines.append(self._say_in("You did not answer in time.", "Odpověď nepřišla včas."))
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
            return "NOT_YOUR_TURN", self._say_in(
                "It is not your turn: nobody is asking you anything now.",
                "Nejsi na řadě: teď se tě nikdo na nic neptá.",
            )
        if number != pending.number:
            return "STALE", self._say_in(
                "That question is over; the table has moved on.",
                "Ta otázka už padla; u stolu se hraje dál.",
            )
        if not isinstance(choice, int) or isinstance(choice, bool):
            return "BAD_CHOICE", self._say_in(
                "Choose one of the options offered.", "Vyber jednu z nabízených možností."
            )
        if not 0 <= choice < len(pending.options):
            return "BAD_CHOICE", self._say_in(
                "There is no such choice; choose one of the options offered.",
                "Taková možnost není; vyber jednu z nabízených.",
            )
        pending.future.set_result(pending.options[choice])
        return None

    def _nobody_misses_me(self) -> bool:
        """A stand-in plays for a person whose page is gone, at a table of bots only (a
        tournament's boards are played out by the stand-in whoever sits there)."""
        return (
            self.stand_in
            and not self.present
            and self.tournament is None
            and not self.last_people()
        )

    @property
    def holding(self) -> bool:
        """Whether the table's next deal waits for the person to come back."""
        return self._returned is not None

    async def _person_returns(self, seconds: float) -> bool:
        """Wait up to ``seconds`` for the person to take the seat back (True) or not."""
        self._returned = asyncio.get_running_loop().create_future()
        try:
            async with asyncio.timeout(seconds):
                await self._returned
            return True
        except TimeoutError:
            return False
        finally:
            self._returned = None

    def set_stand_in(self, on: bool) -> None:
        """A stand-in answers for the person from now (``on``) or no longer."""
        if not on and self._returned is not None and not self._returned.done():
            self._returned.set_result(None)  # the table held the next deal for the person
        if on == self.stand_in:
            return
        self.stand_in = on
        self._tell_stand_in()
        pending = self.pending
        if on and pending is not None and not pending.future.done():
            pending.future.set_result(_STANDIN)
        self.lines.append(
            self._say_in(
                "A stand-in (house bot) plays for you.", "Za tebe hraje náhradník (bot herny)."
            )
            if on
            else self._say_in("You are back at your seat.", "Jsi zpět na svém místě.")
        )
        self._changed()


def _bot_server_of(player: PlayerRef) -> str | None:
    """The bot server a group member came from: its bots join as ``SERVER.N`` under the
    server's name (``house-heuristic-bot.1``); None for anybody else."""
    name, pid = player.name, player.id
    if name and pid and pid.startswith(name + ".") and pid[len(name) + 1 :].isdigit():
        return name
    return None


__all__ = ["SeatRelay", "card_json", "option_json", "sort_hand"]
