"""The final of a contest of submitted bots (:mod:`herna.hall.contests`), played in the
sandbox.

The organiser starts it after the deadline: the entries' versions are locked, and the final
is a live tournament of the contest's game (:mod:`herna.hall.tournament_live`: its pairings,
seats, standings, crosstable and replays are the tournament's, on the tournament pages) in
the format :func:`herna.hall.contests.final_options` chooses for the game's table. What this
module adds is the table's size (a tile contest's rules file says it: :func:`table_seats`)
and the entrants' presence: each locked version is kept waiting in the lobby for its next
board (the seek word ``tournament=ID``; Mia: at the table during the session) by the
ladder's runner (:meth:`herna.servers.ladder.Ladder.play_seeking`), one sandboxed game (a
mariáš table: its group of deals) after another, until the tournament is over. While the
final runs, the ladder does not play its bots (one connection per name).

The games are ordinary games of the game's own server, seated by the tournament's bookings
in the hall's one lobby; nothing here applies a rule.
"""

from __future__ import annotations

import asyncio
import logging
import time

from herna.core.tasks import cancel_and_wait
from herna.games.tiles.rules import load_rules_file, shipped_rules
from herna.hall.contests import ContestRefused, Contests, final_options
from herna.hall.submissions import Submission
from herna.hall.tournament_live import ENTRY, RUNNING, SESSION, TournamentError
from herna.servers.ladder import Ladder

log = logging.getLogger("herna.contest")

ARRIVAL_SECONDS = 30.0
"""How long the final waits for every locked version to be waiting before it begins (the
first sandbox starts take a moment; a bot still missing then is a no-show on its board)."""
AGAIN_PAUSE = 0.5
"""Seconds before a bot whose wait ended without a game waits again."""
SEATS = {"onitama": 2, "marias": 3, "mia": 2}
"""Seats at a board of each game (tiles: the rules file's players; Mia: a session)."""


def table_seats(game: str, rules: str | None) -> int:
    """The seats at a board of ``game``'s final; a tile contest's ``rules`` must be a rules
    file this hall ships (:class:`ContestRefused` says so)."""
    if game != "tiles":
        return SEATS.get(game, 2)
    path = shipped_rules().get(rules or "")
    if path is None:
        if not rules:
            raise ContestRefused("a tile contest names its rules file")
        raise ContestRefused(f"{rules!r} is not a rules file of this hall")
    return len(load_rules_file(path).players)


class SandboxedBots:
    """What the web hall asks of the submitted bots' runner (:class:`herna.hall.hall.
    SubmittedBots`): a person's challenge (the ladder's) and contests' finals, whose bots it
    keeps waiting for their boards."""

    def __init__(self, ladder: Ladder) -> None:
        self.ladder = ladder
        self.contests = Contests(ladder.hall.records.engine, ladder.book)
        self.tasks: set[asyncio.Task[None]] = set()

    def challenge(self, bot: Submission, person: str) -> str | None:
        return self.ladder.challenge(bot, person)

    async def start_final(self, contest_id: int) -> int:
        """Lock the versions and start the final; the tournament's id. Raises
        :class:`ContestRefused` with the reason when it cannot start."""
        director = self.ladder.hall.tournaments
        if director is None:
            raise ContestRefused("this hall holds no live tournaments")
        contest = await asyncio.to_thread(self.contests.get, contest_id)
        if contest is None:
            raise ContestRefused(f"there is no contest {contest_id}")
        if contest.tournament_id is not None:
            raise ContestRefused("the final has started already")
        seats = table_seats(contest.game, contest.rules)
        versions = await asyncio.to_thread(self.contests.lock, contest_id)
        players = len(versions) + len(contest.house)
        if players < max(2, seats):
            raise ContestRefused(
                f"a final takes at least {max(2, seats)} players; {len(versions)} bot(s) had a "
                "version before the deadline"
            )
        options = final_options(contest, players, seats)
        try:
            tid, _ = director.create(options)
            if options.format != SESSION:  # a session's field is whoever is at the table
                director.pre_enter(tid, [v.name for v in versions])
        except TournamentError as exc:
            raise ContestRefused(str(exc)) from None
        await asyncio.to_thread(self.contests.set_final, contest_id, tid)
        for version in versions:
            self._keep(version, tid)
        task = asyncio.create_task(self._begin(tid, [v.name for v in versions], players))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        log.info(
            "contest %d: the final (tournament %d) with %d bots", contest_id, tid, len(versions)
        )
        return tid

    async def resume(self) -> list[int]:
        """After a restart of ``herna serve``: keep the locked versions of every final the
        hall still holds waiting for their boards again (the tournament itself goes on as
        every live tournament does), and begin a final that had not begun; the contests'
        ids."""
        director = self.ladder.hall.tournaments
        if director is None:
            return []
        resumed = []
        for contest in await asyncio.to_thread(self.contests.all):
            tid = contest.tournament_id
            if tid is None or self._over(tid):
                continue
            entries = await asyncio.to_thread(self.contests.entries, contest.id)
            versions = [e.version for e in entries if e.version is not None]
            for version in versions:
                self._keep(version, tid)
            if director.held[tid].status == ENTRY:
                players = len(versions) + len(contest.house)
                task = asyncio.create_task(self._begin(tid, [v.name for v in versions], players))
                self.tasks.add(task)
                task.add_done_callback(self.tasks.discard)
            resumed.append(contest.id)
            log.info(
                "contest %d: the final (tournament %d) goes on with %d bots after a restart",
                contest.id,
                tid,
                len(versions),
            )
        return resumed

    def _keep(self, version: Submission, tid: int) -> None:
        ladder = self.ladder
        before = ladder.playing.get(version.name)
        task = asyncio.create_task(self._waiting(version, tid, before))
        ladder.playing[version.name] = task
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _begin(self, tid: int, names: list[str], players: int) -> None:
        """Begin the final once every locked bot and house bot waits (a Mia session: once
        the bots sit at the table, whoever else plays there)."""
        director = self.ladder.hall.tournaments
        assert director is not None
        deadline = time.monotonic() + ARRIVAL_SECONDS

        def arrived() -> bool:
            here = {n.casefold() for n in director.waiting(tid)}
            return len(here) >= players and all(n.casefold() in here for n in names)

        while not arrived() and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        try:
            director.begin(tid)
        except TournamentError as exc:
            log.warning("contest final %d did not begin: %s", tid, exc)
            director.abort(tid)

    def _over(self, tid: int) -> bool:
        director = self.ladder.hall.tournaments
        held = director.held.get(tid) if director is not None else None
        return held is None or held.status not in (ENTRY, RUNNING)

    async def _waiting(
        self, version: Submission, tid: int, before: asyncio.Task[None] | None
    ) -> None:
        ladder = self.ladder
        if before is not None:
            await asyncio.gather(before, return_exceptions=True)  # a ladder game ends first
            ladder.playing[version.name] = asyncio.current_task()  # type: ignore[assignment]
        # Waiting for a board counts on the runner's game clock: twice a ladder game's.
        seconds = 2 * ladder.settings.game_seconds
        try:
            while not self._over(tid) and not ladder.stopping:
                try:
                    outcome = await ladder.play_seeking(
                        version, f"once,tournament={tid}", seconds, keep_no_game=False
                    )
                except Exception:
                    log.exception("contest final %d: the game of %s failed", tid, version.label)
                    outcome = None
                if outcome is None or not outcome.opponent:
                    await asyncio.sleep(AGAIN_PAUSE)
        finally:
            if ladder.playing.get(version.name) is asyncio.current_task():
                ladder.playing.pop(version.name, None)

    async def stop(self) -> None:
        await cancel_and_wait(list(self.tasks), log=log)
