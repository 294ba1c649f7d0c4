"""The ladder: ``herna serve --ladder`` keeps playing the newest version of every submitted bot
(:mod:`herna.hall.submissions`) against the house bots, each game in the sandbox through the
runner (:mod:`herna.clients.sandboxed`), and keeps how each ended with the bot's log.

The games are ordinary games of the game's own server, so they are recorded, rated (OpenSkill,
as every game) and replayable like any other. Which bot plays next: the one whose rating is
least certain (the largest OpenSkill sigma; a bot without a rated game first), so that a new
version settles fast, of every game whose server runs (Onitama, mariáš, Mia, tile games: each
through its wire, :mod:`herna.clients.sandboxed_wires`). Its opponent: every other game, the
next least certain free submitted bot of its game where two bots can be paired by name
(:data:`PAIRED_GAMES`: each challenges the other in the lobby); else house bots of the next
level in :attr:`LadderSettings.levels`, turn about (Mia: a session at the hall's table with
whoever plays there). At most ``concurrency`` sandboxed bots run at once (a pairing is two),
so the hall stays responsive.

The same runner plays a bot against a person who challenged it from its page
(:meth:`Ladder.challenge`: the bot waits in the lobby with a challenge to them) and the games
of contests' finals (:mod:`herna.servers.contest`).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import timedelta

from herna.clients.sandboxed import RunOutcome, RunSettings, play_game
from herna.core.sandbox import Limits, unavailable
from herna.core.tasks import cancel_and_wait
from herna.games.marias.bots import level_of
from herna.hall.hall import Hall
from herna.hall.submissions import GAMES, Submission, Submissions

log = logging.getLogger("herna.ladder")

DEFAULT_CONCURRENCY = 2
DEFAULT_MOVE_SECONDS = 2.0
DEFAULT_GAME_SECONDS = 300.0
LEVELS = ("easy", "medium", "hard")
CHALLENGE_SECONDS = 1800.0
"""The game clock of a game a person asked for (waiting for them included): people think
longer than house bots; the bot's own move clock stays the ladder's."""
MAX_CHALLENGES = 4
"""Games people asked for from a bot's page that may run at once (each is a sandbox)."""
PAIR_WAIT = 30.0
"""How long each bot of a pairing of two submitted bots waits for the other to sit down."""
PAIRED_GAMES = ("onitama",)
"""The games whose ladder pairs two submitted bots with each other, by a challenge each
makes to the other; the others play house bots (Mia: whoever is at the table)."""
PROOF_SESSION = "ladder"
"""The identity session the ladder's proofs are issued to (one per bot name)."""


@dataclass(frozen=True)
class LadderSettings:
    concurrency: int = DEFAULT_CONCURRENCY
    move_seconds: float = DEFAULT_MOVE_SECONDS
    game_seconds: float = DEFAULT_GAME_SECONDS
    levels: tuple[str, ...] = LEVELS
    pause: float = 1.0
    """Seconds between looks for a bot to play when none was free."""
    limits: Limits = field(default_factory=Limits)
    challenge_wait: float = 60.0
    """How long a bot a person challenged waits for them to sit down (then it leaves, so
    nobody can hold a bot, or the challenges' places, by asking and going away)."""


class Ladder:
    """The loop that pairs and plays (see the module doc)."""

    def __init__(self, hall: Hall, host: str, settings: LadderSettings | None = None) -> None:
        self.hall = hall
        self.host = "127.0.0.1" if host in ("", "0.0.0.0", "::") else host
        self.settings = settings or LadderSettings()
        self.book = Submissions(hall.records.engine, hall.identity)
        self.playing: dict[str, asyncio.Task[None]] = {}
        self.games_started = 0
        self.challenges: set[asyncio.Task[None]] = set()
        self._task: asyncio.Task[None] | None = None
        self._stopping = threading.Event()
        """Set by :meth:`stop`: a look for a game's record in a thread gives up (else the
        process's exit waits up to its 30 s for that thread)."""

    async def start(self) -> str | None:
        """Start the loop; why it cannot run (no sandbox here), or ``None``."""
        why = await self.probe()
        if why is None:
            self.run()
        return why

    async def probe(self) -> str | None:
        """Why the ladder cannot run here (no sandbox), or ``None``. The probe runs a
        sandboxed program and waits for it, so it runs in a thread: the hall's loop (its
        game servers and web pages) keeps answering meanwhile."""
        return await asyncio.to_thread(unavailable)

    def run(self) -> None:
        """Start choosing bots and playing their games (after :meth:`probe`; after the
        contests' finals took their bots back, or the ladder would take them first)."""
        if self._task is None:
            self._task = asyncio.create_task(self._loop())

    async def stop(self) -> None:
        self._stopping.set()
        tasks = [t for t in (self._task, *self.playing.values(), *self.challenges) if t is not None]
        await cancel_and_wait(tasks, log=log)

    @property
    def stopping(self) -> bool:
        return self._stopping.is_set()

    async def _loop(self) -> None:
        while True:
            started = False
            while len(self.playing) < self.settings.concurrency and self.hall.closed is None:
                bot = await asyncio.to_thread(self.next_bot)
                if bot is None:
                    break
                if bot.name in self.playing:
                    # A contest's final or a challenge took it while the choice was made
                    # off the loop: one connection per name.
                    continue
                level = self.settings.levels[self.games_started % len(self.settings.levels)]
                # Every other game is between two submitted bots when two are free (a
                # pairing takes two places), the others against house bots, level after level.
                rival = None
                room = self.settings.concurrency - len(self.playing)
                if self.games_started % 2 == 0 and room >= 2:
                    rival = await asyncio.to_thread(self.next_rival, bot)
                    if bot.name in self.playing:
                        continue
                    if rival is not None and rival.name in self.playing:
                        rival = None
                self.games_started += 1
                if rival is None:
                    self.playing[bot.name] = asyncio.create_task(self._play(bot, level))
                else:
                    self._pair(bot, rival)
                started = True
            if not started:
                await asyncio.sleep(self.settings.pause)
            else:
                await asyncio.sleep(0)

    def games(self) -> list[str]:
        """The games whose server runs in this hall, of those the ladder plays."""
        return [g for g in GAMES if self.hall.service(g) is not None]

    def _uncertainty(self, game: str) -> Callable[[Submission], tuple[float, int]]:
        known = {s.name: s for s in self.hall.records.standings(game)}

        def uncertainty(bot: Submission) -> tuple[float, int]:
            standing = known.get(bot.name)
            if standing is None or standing.sigma is None:
                return (float("inf"), 0)
            return (standing.sigma, -standing.games)

        return uncertainty

    def next_bot(self) -> Submission | None:
        """The free bot whose rating is least certain (unrated first, then fewest games), of
        every game whose server runs here."""
        best: tuple[tuple[float, int], Submission] | None = None
        for game in self.games():
            free = [b for b in self.book.latest(game) if b.name not in self.playing]
            if not free:
                continue
            uncertainty = self._uncertainty(game)
            bot = max(free, key=uncertainty)
            if best is None or uncertainty(bot) > best[0]:
                best = (uncertainty(bot), bot)
        return None if best is None else best[1]

    def next_rival(self, bot: Submission) -> Submission | None:
        """Another free submitted bot of ``bot``'s game to play it (the least certain one
        after it), where the game pairs two bots by name (:data:`PAIRED_GAMES`); or None."""
        if bot.game not in PAIRED_GAMES:
            return None
        free = [
            b
            for b in self.book.latest(bot.game)
            if b.name not in self.playing and b.name.casefold() != bot.name.casefold()
        ]
        return max(free, key=self._uncertainty(bot.game)) if free else None

    def _pair(self, bot: Submission, rival: Submission) -> None:
        """A game between two submitted bots: each waits with a challenge to the other, so
        the lobby seats them together as any challenge (docs/protocols/onitama.md)."""
        for one, other in ((bot, rival), (rival, bot)):
            self.playing[one.name] = asyncio.create_task(
                self._play(one, "", f"once,challenge={other.name}")
            )

    async def _play(self, bot: Submission, level: str, seek: str | None = None) -> None:
        try:
            if seek is None:
                outcome = await self.play_one(bot, level)
            else:
                outcome = await self.play_seeking(
                    bot, seek, keep_no_game=False, start_seconds=PAIR_WAIT
                )
            log.info(
                "ladder: %s v%d %s against %s: %s",
                bot.name,
                bot.version,
                outcome.outcome,
                outcome.opponent or "nobody",
                outcome.reason,
            )
        except Exception:
            log.exception("ladder: the game of %s v%d failed", bot.name, bot.version)
            await asyncio.sleep(self.settings.pause)
        finally:
            # A challenge made meanwhile holds the name from now on (it waited for this game).
            if self.playing.get(bot.name) is asyncio.current_task():
                self.playing.pop(bot.name, None)

    async def play_one(self, bot: Submission, level: str) -> RunOutcome:
        """One game of ``bot`` against house bots of ``level`` (Mia: a session at the hall's
        table, whoever plays there), kept as a run."""
        return await self.play_seeking(bot, self.house_seek(bot.game, level))

    def house_seek(self, game: str, level: str) -> str:
        """The lobby words of a game against house bots of ``level``, in ``game``'s terms."""
        if game == "onitama":
            return f"once,opponent=bots,level={level}"
        if game == "tiles":
            return f"opponent=bots,level={level}"
        if game == "marias":
            servers = list(getattr(self.hall.service("marias"), "bots", []))
            chosen = next(
                (b for b in servers if level in (b.strategy, level_of(b.strategy))),
                servers[0] if servers else None,
            )
            return f"bots={chosen.name}+{chosen.name}" if chosen is not None else ""
        return ""

    def challenge(self, bot: Submission, person: str) -> str | None:
        """``person`` challenged ``bot`` from its page: the bot waits in the lobby with a
        challenge to them (``challenge=PERSON``; their play page challenges the bot), so the
        lobby seats them as any challenge. Why it cannot, or ``None``."""
        if len(self.challenges) >= MAX_CHALLENGES:
            return "the hall is playing as many challenge games as it can: try again in a minute"
        before = self.playing.get(bot.name)
        task = asyncio.create_task(self._challenged(bot, person, before))
        self.playing[bot.name] = task
        self.challenges.add(task)
        task.add_done_callback(self.challenges.discard)
        return None

    async def _challenged(
        self, bot: Submission, person: str, before: asyncio.Task[None] | None
    ) -> None:
        if before is not None:
            # One connection per name: a ladder game under way ends first.
            await asyncio.gather(before, return_exceptions=True)
            self.playing[bot.name] = asyncio.current_task()  # type: ignore[assignment]
        try:
            outcome = await self.play_seeking(
                bot,
                f"once,challenge={person}",
                CHALLENGE_SECONDS,
                keep_no_game=False,
                start_seconds=self.settings.challenge_wait,
            )
            log.info(
                "challenge: %s v%d %s against %s: %s",
                bot.name,
                bot.version,
                outcome.outcome,
                outcome.opponent or person,
                outcome.reason,
            )
        except Exception:
            log.exception("challenge: the game of %s against %s failed", bot.name, person)
        finally:
            if self.playing.get(bot.name) is asyncio.current_task():
                self.playing.pop(bot.name, None)

    async def play_seeking(
        self,
        bot: Submission,
        seek: str,
        game_seconds: float | None = None,
        keep_no_game: bool = True,
        start_seconds: float | None = None,
    ) -> RunOutcome:
        """One game of ``bot`` logged in with the lobby words ``seek`` (docs/protocols/
        onitama.md, "The lobby"), kept as a run with its log; a run without a game only with
        ``keep_no_game`` (a ladder game's: a bot that does not compile is told so there)."""
        port = game_port(self.hall.service(bot.game))
        proof = self.hall.identity.issue_proof(bot.name, f"{PROOF_SESSION}:{bot.name}")
        limits = self.settings.limits
        if game_seconds is not None:
            limits = replace(limits, wall_seconds=max(limits.wall_seconds, game_seconds + 30))
        settings = RunSettings(
            move_seconds=self.settings.move_seconds,
            game_seconds=game_seconds or self.settings.game_seconds,
            limits=limits,
            seek=seek,
            start_seconds=start_seconds,
        )
        outcome = await play_game(bot, self.host, port, proof, settings)
        if not outcome.opponent and not keep_no_game:
            return outcome
        match_id, table_id = await asyncio.to_thread(self._record_of, bot, outcome)
        await asyncio.to_thread(
            self.book.record_run,
            bot,
            table_id=table_id,
            match_id=match_id,
            opponent=outcome.opponent,
            outcome=outcome.outcome,
            reason=outcome.reason,
            log=outcome.log,
            started_at=outcome.started_at,
        )
        return outcome

    def _record_of(self, bot: Submission, outcome: RunOutcome) -> tuple[int | None, str]:
        """The game's record: the bot's newest match of its game against the run's opponent that
        ended after the run began and no earlier run claimed (a contest's games follow each
        other within a second; the server writes a record as its game ends, and the writer
        may need a moment)."""
        if not outcome.opponent or bot.game == "mia":
            return None, ""  # a Mia session is many rounds, each its own record
        records = self.hall.records
        claimed = {r.match_id for r in self.book.runs(bot.name, limit=10)}
        opponent = outcome.opponent.casefold()  # several, comma-separated, at a tile table
        for _ in range(300):  # a tile table plays on after the bot resigned: up to 30 s
            if self._stopping.is_set():
                break
            records.flush()
            for match in records.matches(game=bot.game, player=bot.name, limit=3):
                if (
                    match.id not in claimed
                    and match.finished_at >= outcome.started_at - timedelta(seconds=1)
                    and any(p.name.casefold() in opponent for p in match.players)
                ):
                    return match.id, match.table_id
            self._stopping.wait(0.1)
        return None, ""


def game_port(service: object) -> int:
    """The port a client of ``service`` connects to: Onitama's and the tile server's TCP
    port, Mia's UDP port, mariáš's login server's port for players."""
    if service is None:
        return 0
    login = getattr(service, "login", None)
    if login is not None:
        return int(login.player_address[1])
    server = getattr(service, "server", None)
    if hasattr(server, "address"):
        return int(server.address[1])  # type: ignore[union-attr]
    return int(getattr(service, "port", 0))
