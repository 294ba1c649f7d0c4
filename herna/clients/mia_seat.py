"""One person's seat at a Mia table, for a screen: a UDP client of the seed's protocol that
keeps what this player may know and turns the person's choices into the seed's messages.

:class:`MiaSeat` registers a name (with a reserved name's token when there is one), JOINs every
round, and folds every datagram into :meth:`MiaSeat.state`: the round's order of play, who is
acting, the announcements so far, **this player's own dice** after ``ROLLED`` (nobody else's:
the server sends them to the roller only), the dice uncovered by a ``SEE`` or a Mia, each
round's result as a sentence (:func:`herna.games.mia.words.loss_sentence`), the scores and the
scores after each round (the page's chart), and the decision the server waits for with its
clock. The person acts with :meth:`MiaSeat.act` (``roll``, ``see``, ``announce``); the choices
offered are the announcements strictly higher than the last one (the seed's rule for a good
announcement), and the server, the one place where the rules are applied, judges each
message. The web hall (:mod:`herna.web.play_mia`) and ``herna play mia`` both drive it.

A server that falls silent for :data:`~herna.clients.mia.DEFAULT_SILENCE` seconds (it sends
``HEARTBEAT`` every 2 s) is registered with again, as the bots do.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from herna.clients.mia import DEFAULT_SILENCE, MiaClient, MiaError, MiaRejected, register_again
from herna.core.lang import pick
from herna.games.mia.dice import Dice, InvalidDice
from herna.games.mia.words import announcements_above, cancel_words, dice_words, loss_sentence
from herna.hall.identity import new_secret
from herna.protocols.mia import (
    ActualDice,
    Announced,
    PlayerLost,
    PlayerRolls,
    PlayerWantsToSee,
    Rolled,
    RoundCanceled,
    RoundStarted,
    RoundStarting,
    Score,
    ServerMessage,
    YourTurn,
    name_problem,
)

log = logging.getLogger("herna.mia.seat")

LOG_LINES = 30
"""Lines of the table's story kept in the state."""
CHART_ROUNDS = 40
"""Rounds whose scores the state keeps for the chart."""

REFUSALS = {
    "NAME_ALREADY_TAKEN": (
        "somebody else plays under this name at the table now",
        "pod tímto jménem teď u stolu hraje někdo jiný",
    ),
    "INVALID_NAME": (
        "a name is 1-20 characters without blanks, ';', ':' or ','",
        "jméno má 1 až 20 znaků bez mezer, ';', ':' a ','",
    ),
    "RESERVED_NAME": (
        "this name is reserved: sign in to play under it",
        "toto jméno je rezervované: přihlas se, chceš-li pod ním hrát",
    ),
    "BAD_TOKEN": (
        "the proof of this reserved name was not accepted: sign in again",
        "doklad k rezervovanému jménu nebyl přijat: přihlas se znovu",
    ),
    "HOUSE_BOT_NAME": (
        "that is the name of one of the house bots",
        "tak se jmenuje jeden z botů herny",
    ),
}
"""The table's REJECTED reasons in words, in English and Czech."""

Words = tuple[str, str]
"""A sentence in English and in Czech (:func:`herna.core.lang.pick` says one)."""

MAX_MISSED = 3
"""Turns in a row the person let the clock run out on before the seat leaves the table (it
would make everybody wait a whole answer window on every round)."""
TIMEOUTS = ("DID_NOT_TAKE_TURN", "DID_NOT_ANNOUNCE")

SeatError = tuple[str, str]
"""``(code, message)`` of a refused action (nothing was sent)."""


def dice_json(dice: Dice, lang: str = "en") -> dict[str, str]:
    return {"dice": str(dice), "words": dice_words(dice, lang)}


def _both(dice: Dice) -> Words:
    return dice_words(dice), dice_words(dice, "cs")


def _parse(text: str) -> Dice | None:
    try:
        return Dice.parse(text)
    except InvalidDice:
        return None


class MiaSeat:
    """A registered player at a Mia table, driven by a person somewhere else."""

    def __init__(
        self,
        host: str,
        port: int,
        name: str,
        token: str | None = None,
        window: float = 20.0,
        silence: float = DEFAULT_SILENCE,
        level: str = "",
        lang: str = "en",
    ) -> None:
        # Without a reserved name's token, a fresh secret: the table then lets nobody else
        # register this name while the seat plays (the seed would let any program on this
        # host take the seat over by the name alone).
        self.client = MiaClient(host, port, name, token=token or new_secret())
        # A person plays here (the records say so), with the house bots of ``level``.
        self.client.seat = ("person", f"bots={level}") if level else ("person",)
        self.level = level
        self.lang = lang
        """The language of :attr:`story`, :attr:`problem` and the result's words (``en`` or
        ``cs``); :meth:`state` says them in the language its page asks for."""
        self.name = name
        self.window = window
        """The table's answer window (the clock the state shows)."""
        self.silence = silence
        self.on_change: Callable[[], None] | None = None
        self.seq = 0
        self.status = "connecting"
        """connecting, playing, rejected, gone."""
        self._problem: Words = ("", "")
        self.round = 0
        self.players: tuple[str, ...] = ()
        self.acting: str | None = None
        self.announcements: list[tuple[str, Dice]] = []
        self.my_dice: Dice | None = None
        self.shown: Dice | None = None
        self.in_round = False
        self.pending: tuple[str, str, float] | None = None
        """``(step, token, deadline)``: the step the server waits for from this player
        (``turn``: ROLL or SEE, ``announce``), its token and when it runs out (monotonic)."""
        self.last_result: dict[str, Any] | None = None
        self._result_words: Words = ("", "")
        self.scores: dict[str, int] = {}
        self.met: set[str] = {name}
        """Whoever played a round with this seat (and the seat itself): the scoreboard's rows.
        The people's table keeps every level's house bots registered; those of levels nobody
        here chose never play with this person and are not shown."""
        self.history: deque[tuple[int, dict[str, int]]] = deque(maxlen=CHART_ROUNDS)
        self._story: deque[Words] = deque(maxlen=LOG_LINES)
        self.said = 0
        """Lines said so far (the story keeps the last :data:`LOG_LINES`)."""
        self.scored = 0
        """Rounds whose scores came (a SCORE after a round's result)."""
        self.rounds = 0
        self.lost = 0
        self.missed = 0
        """The person's turns in a row that ran out of time."""
        self._task: asyncio.Task[None] | None = None
        self.registered = asyncio.Event()

    # -- words -------------------------------------------------------------------------------
    @property
    def story(self) -> list[str]:
        """The table's story, the last :data:`LOG_LINES` lines, in :attr:`lang`."""
        return [pick(self.lang, *line) for line in self._story]

    @property
    def problem(self) -> str:
        """Why the table refused or lost the seat, in :attr:`lang` ("" if it did not)."""
        return pick(self.lang, *self._problem)

    # -- running -------------------------------------------------------------------------------
    def start(self) -> asyncio.Task[None]:
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"mia-{self.name}")
        return self._task

    @property
    def done(self) -> bool:
        return self._task is not None and self._task.done()

    async def stop(self) -> None:
        """UNREGISTER and close (the score stays in the hall's records)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        with contextlib.suppress(MiaError):
            self.client.unregister()
        self.client.close()
        if self.status != "rejected":
            self.status = "gone"
        self._changed()

    async def _run(self) -> None:
        problem = name_problem(self.name)
        if problem is not None:  # "a;b" would register "a" (the rest reads as a token)
            self.status, self._problem = "rejected", REFUSALS[problem]
            self._changed()
            return
        try:
            await self.client.connect()
            await self.client.register()
        except MiaRejected as exc:
            self.status = "rejected"
            self._problem = REFUSALS.get(exc.reason, (exc.reason, exc.reason))
            self._changed()
            return
        except (MiaError, OSError) as exc:
            self.status, self._problem = "gone", (str(exc), str(exc))
            self._changed()
            return
        self.status = "playing"
        self.registered.set()
        self.say(
            "You sat down; the next round deals you in.",
            "Sedl(a) sis ke stolu; příští kolo už hraješ.",
        )
        self._changed()
        while True:
            try:
                async with asyncio.timeout(self.silence):
                    msg = await self.client.receive()
            except TimeoutError:
                self.say(
                    "The table fell silent; sitting down again…",
                    "Stůl zmlkl; sedáš si znovu…",
                )
                self._changed()
                await register_again(self.client, lambda text: log.info("%s", text))
                continue
            except MiaError:
                self.status = "gone"
                self._changed()
                return
            if self.fold(msg):
                self._changed()
            if self.missed >= MAX_MISSED:
                self.client.unregister()
                self.client.close()
                self.status = "gone"
                self._problem = (
                    f"you let the clock run out {MAX_MISSED} times in a row, so you left the table",
                    f"čas ti vypršel {MAX_MISSED}krát za sebou, a tak jsi od stolu odešel(a)",
                )
                self.say(
                    f"You left the table: the clock ran out {MAX_MISSED} times in a row.",
                    f"Odcházíš od stolu: čas vypršel {MAX_MISSED}krát za sebou.",
                )
                self._changed()
                return

    def _changed(self) -> None:
        self.seq += 1
        if self.on_change is not None:
            self.on_change()

    def say(self, en: str, cs: str) -> None:
        """One line of the table's story, in English and Czech."""
        self._story.append((en, cs))
        self.said += 1

    # -- the server's messages -----------------------------------------------------------------
    def fold(self, msg: ServerMessage) -> bool:
        """Take one server message into the seat; True when the state changed."""
        if isinstance(msg, RoundStarting):
            self.client.send(f"JOIN;{msg.token}")
            return False
        if isinstance(msg, RoundStarted):
            self.round, self.players = msg.number, msg.players
            self.announcements, self.my_dice, self.shown = [], None, None
            self.in_round = self.name in msg.players
            if self.in_round:
                self.met.update(msg.players)
            self.acting = msg.players[0] if len(msg.players) > 1 else None
            self.pending = None
            order = ", ".join(msg.players)
            self.say(
                f"Round {msg.number}: {order} (in this order).",
                f"Kolo {msg.number}: {order} (v tomto pořadí).",
            )
        elif isinstance(msg, YourTurn):
            self.acting = self.name
            self.pending = ("turn", msg.token, time.monotonic() + self.window)
        elif isinstance(msg, PlayerRolls):
            self.acting = msg.name
            if msg.name != self.name:
                self.my_dice = None  # the cup holds someone else's throw now
                self.say(
                    f"{msg.name} rolls the dice under the cup.",
                    f"{msg.name} hází kostkami pod kelímkem.",
                )
        elif isinstance(msg, Rolled):
            self.my_dice = _parse(msg.dice)
            self.pending = ("announce", msg.token, time.monotonic() + self.window)
            if self.my_dice is not None:
                en, cs = _both(self.my_dice)
                self.say(
                    f"You rolled {en} (only you see it).", f"Hodil(a) jsi {cs} (vidíš jen ty)."
                )
        elif isinstance(msg, Announced):
            dice = _parse(msg.dice)
            if dice is not None:
                self.announcements.append((msg.name, dice))
                en, cs = _both(dice)
                if msg.name == self.name:
                    self.say(f"You announced {en}.", f"Ohlásil(a) jsi {cs}.")
                else:
                    self.say(f"{msg.name} announced {en}.", f"{msg.name} ohlašuje {cs}.")
            self.acting = self._next_after(msg.name)
        elif isinstance(msg, PlayerWantsToSee):
            self.acting = msg.name
            self.pending = None
            if msg.name == self.name:
                self.say("You want to see the dice.", "Chceš vidět kostky.")
            else:
                self.say(f"{msg.name} wants to see the dice.", f"{msg.name} chce vidět kostky.")
        elif isinstance(msg, ActualDice):
            self.shown = _parse(msg.dice)
            if self.shown is not None:
                en, cs = _both(self.shown)
                self.say(f"Under the cup: {en}.", f"Pod kelímkem: {cs}.")
        elif isinstance(msg, PlayerLost):
            if not self.round:
                return False  # the end of a round that started before this seat sat down
            self._round_over(msg)
        elif isinstance(msg, RoundCanceled):
            self.acting, self.pending = None, None
            why, why_cs = cancel_words(msg.reason), cancel_words(msg.reason, "cs")
            self.say(
                f"Round {self.round} canceled" + (f": {why}." if why else "."),
                f"Kolo {self.round} zrušeno" + (f": {why_cs}." if why_cs else "."),
            )
        elif isinstance(msg, Score):
            self.scores = dict(msg.scores)
            if self.history and self.history[-1][0] == self.round and not self.history[-1][1]:
                self.history[-1] = (self.round, dict(msg.scores))
                self.scored += 1
        else:
            return False
        return True

    def _next_after(self, name: str) -> str | None:
        if name not in self.players:
            return None
        i = self.players.index(name)
        return self.players[(i + 1) % len(self.players)]

    def _round_over(self, msg: PlayerLost) -> None:
        last = self.announcements[-1][1] if self.announcements else None
        en, cs = (
            loss_sentence(msg.names, msg.reason, self.players, last, self.shown, self.name, lang)
            for lang in ("en", "cs")
        )
        self._result_words = (en, cs)
        self.last_result = {
            "round": self.round,
            "losers": list(msg.names),
            "reason": msg.reason,
            "words": pick(self.lang, en, cs),
            "you_lost": self.name in msg.names,
            "you_played": self.in_round,
            "shown": dice_json(self.shown) if self.shown is not None else None,
        }
        self.acting, self.pending = None, None
        if self.in_round:
            self.rounds += 1
            self.lost += self.name in msg.names
        if self.name in msg.names and msg.reason in TIMEOUTS:
            self.missed += 1
        self.say(en + ".", cs + ".")
        self.history.append((self.round, {}))  # the SCORE that follows fills it

    # -- the person's choices ------------------------------------------------------------------
    def choices(self, lang: str | None = None) -> list[dict[str, Any]]:
        """What the person may do now: roll/see on a turn, the announcements above the last
        one after rolling (each with the dice and their words, in ``lang``, else the
        seat's)."""
        lang = lang or self.lang
        if self.pending is None:
            return []
        step = self.pending[0]
        if step == "turn":
            roll = pick(lang, "Roll the dice", "Hodit kostkami")
            out: list[dict[str, Any]] = [{"action": "roll", "words": roll}]
            if self.announcements:
                name, dice = self.announcements[-1]
                see = pick(
                    lang,
                    f"See: check {name}'s {dice_words(dice)}",
                    f"Odkrýt: ověřit {dice_words(dice, 'cs')} od {name}",
                )
                out.append({"action": "see", "words": see})
            return out
        last = self.announcements[-1][1] if self.announcements else None
        return [
            {"action": "announce", **dice_json(d, lang), "truth": d == self.my_dice}
            for d in announcements_above(last)
        ]

    def act(self, action: object, dice: object = None, lang: str | None = None) -> SeatError | None:
        """Send the person's choice; ``(code, message)`` when it is not one on offer (nothing
        is sent then), the message in ``lang`` (else the seat's)."""
        lang = lang or self.lang
        pending = self.pending
        if pending is None:
            return ("NOT_YOUR_TURN", pick(lang, "It is not your turn.", "Nejsi na tahu."))
        step, token, _ = pending
        if step == "turn" and action in ("roll", "see"):
            if action == "see" and not self.announcements:
                return (
                    "NOTHING_TO_SEE",
                    pick(
                        lang,
                        "Nobody has announced anything yet: roll.",
                        "Ještě nikdo nic neohlásil: házej.",
                    ),
                )
            self.pending = None
            self.client.send(f"{'ROLL' if action == 'roll' else 'SEE'};{token}")
        elif step == "announce" and action == "announce":
            chosen = _parse(dice) if isinstance(dice, str) else None
            last = self.announcements[-1][1] if self.announcements else None
            if chosen is None or chosen not in announcements_above(last):
                return (
                    "NOT_OFFERED",
                    pick(
                        lang,
                        "Announce one of the dice offered (higher than the last).",
                        "Ohlas jeden z nabízených hodů (vyšší než poslední ohlášení).",
                    ),
                )
            self.pending = None
            self.client.send(f"ANNOUNCE;{chosen};{token}")
        elif step == "turn":
            return (
                "ROLL_OR_SEE",
                pick(
                    lang,
                    "Roll the dice or see the last announcement.",
                    "Hoď kostkami, nebo odkryj poslední ohlášení.",
                ),
            )
        else:
            return (
                "ANNOUNCE",
                pick(
                    lang,
                    "Announce your dice (the truth or a bluff).",
                    "Ohlas svůj hod (pravdu, nebo blaf).",
                ),
            )
        self.missed = 0
        self._changed()
        return None

    # -- the state -----------------------------------------------------------------------------
    def state(self, lang: str | None = None) -> dict[str, Any]:
        """Everything this player may know, JSON-ready, worded in ``lang`` (else the
        seat's): each page of the seat may speak its own language."""
        lang = lang or self.lang
        result = self.last_result
        if result is not None:
            shown = result["shown"]
            result = {
                **result,
                "words": pick(lang, *self._result_words),
                "shown": dice_json(Dice.parse(shown["dice"]), lang) if shown else None,
            }
        left = None
        if self.pending is not None:
            left = max(0.0, round(self.pending[2] - time.monotonic(), 1))
        return {
            "type": "state",
            "seq": self.seq,
            "name": self.name,
            "status": self.status,
            "problem": pick(lang, *self._problem),
            "window": self.window,
            "level": self.level,
            "round": self.round,
            "players": list(self.players),
            "in_round": self.in_round,
            "acting": self.acting,
            "announcements": [{"name": n, **dice_json(d, lang)} for n, d in self.announcements],
            "my_dice": dice_json(self.my_dice, lang) if self.my_dice is not None else None,
            "shown": dice_json(self.shown, lang) if self.shown is not None else None,
            "step": self.pending[0] if self.pending is not None else None,
            "left": left,
            "choices": self.choices(lang),
            "result": result,
            "scores": dict(self.scores),
            "at_table": sorted(self.met),
            "history": [[n, dict(s)] for n, s in self.history if s],
            "rounds": self.rounds,
            "lost": self.lost,
            "story": [pick(lang, *line) for line in self._story],
        }
