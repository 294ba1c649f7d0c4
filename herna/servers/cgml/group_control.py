r"""A group's control side (seed 001 chapter 4 and Herna's ``<standin>``): answer
deadlines and timeouts, ``pause``, stand-ins, a member that drops or ``disconnect``\ s, and
the end of the group (``abort``, ``cancelgame``, ``disconnect``) with the record of an
unfinished game.
"""

from __future__ import annotations

from herna.games.marias.words import end_words
from herna.hall.records import utcnow
from herna.protocols.cgml.messages import (
    Abort,
    Disconnect,
    Error,
    Message,
    PauseFinish,
    PauseStart,
)
from herna.servers.cgml.group_core import PAUSED, WRONG_PHASE, GroupCore, log
from herna.servers.cgml.seats import GroupPhase, Member
from herna.servers.gamelog import duration, game_finished


class GroupControl(GroupCore):
    """Deadlines, pauses, stand-ins and the end of a group."""

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._deadline_seat = None

    def _set_deadline(self, seat: int | None, seconds: float) -> None:
        self._cancel_timer()
        self._deadline_seat = seat
        self._deadline_left = seconds
        self._deadline_at = self.clock.now() + seconds
        if self._paused_by is None:
            self._timer = self.clock.call_later(seconds, self._timeout)
            self._deadline_seat = seat

    def _answer_time(self, seat: int) -> float:
        m = self.members[seat]
        return self.settings.human_timeout if m.is_human else self.settings.bot_timeout

    def _stand_in(self, member: Member, active: bool) -> None:
        """``<standin>`` (Herna extension): the game goes on unchanged; the deal's record will
        say that a stand-in answered for this player during it."""
        log.info("group %s: stand-in for %s %s", self.id, member.id, "on" if active else "off")
        if active:
            self._stand_ins.add(member.seat)
            if self._game_open:
                self._stood_in.add(member.seat)
        else:
            self._stand_ins.discard(member.seat)

    # -- timeouts, pauses, drops -----------------------------------------------------------
    def _timeout(self) -> None:
        self._timer = None
        seat = self._deadline_seat
        if self.phase is GroupPhase.ASKING:
            missing = next(
                (m for m in self.members if m.seat not in self._newgame_answers), self.members[0]
            )
        elif seat is not None:
            missing = self.members[seat]
        else:
            return
        log.info("group %s: %s timed out", self.id, missing.id)
        self._end_group(Abort(self._ref(missing.seat), "timeout"), "timeout", missing)

    def _pause(self, member: Member, message: PauseStart) -> None:
        if self.phase is not GroupPhase.PLAYING:
            self._send(member, Error("there is no game to pause", WRONG_PHASE))
            return
        if self._paused_by is not None:
            self._send(member, Error("the game is paused already", PAUSED))
            return
        self._paused_by = member.seat
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
            self._deadline_left = max(0.0, self._deadline_at - self.clock.now())
        self._broadcast(PauseStart(message.message, member.id), exclude=member)
        self._pause_timer = self.clock.call_later(self.settings.max_pause, self._pause_too_long)
        self._emit("pause", player=member.seat, message=message.message)

    def _unpause(self, member: Member) -> None:
        if self._paused_by is None:
            self._send(member, Error("the game is not paused", WRONG_PHASE))
            return
        self._paused_by = None
        if self._pause_timer is not None:
            self._pause_timer.cancel()
            self._pause_timer = None
        self._broadcast(PauseFinish(member.id), exclude=member)
        self._emit("pause_finish", player=member.seat)
        seat = self._deadline_seat
        if self.phase is GroupPhase.PLAYING and seat is not None:
            left = self._deadline_left
            self._deadline_at = self.clock.now() + left
            self._timer = self.clock.call_later(left, self._timeout)
            self._deadline_seat = seat

    def _pause_too_long(self) -> None:
        self._pause_timer = None
        seat = self._paused_by
        if seat is None:
            return
        self._paused_by = None
        self._end_group(
            Abort(self._ref(seat), "pause too long"), "pause too long", self.members[seat]
        )

    def member_lost(self, member: Member, reason: str = "disconnected") -> None:
        """The member's connection closed (or it sent ``<disconnect>``; ``reason`` "left"
        when it said it leaves the table)."""
        if self.phase is GroupPhase.CLOSED:
            return
        member.peer = None
        self._end_group(Abort(self._ref(member.seat), reason), reason, member)

    def _end_group(self, message: Message, reason: str, culprit: Member | None) -> None:
        """End the group: tell everyone, record an unfinished game, close the connections."""
        if self.phase is GroupPhase.CLOSED:
            return
        self._cancel_timer()
        if self._pause_timer is not None:
            self._pause_timer.cancel()
            self._pause_timer = None
        playing = self._game_open and self.match is not None
        self._game_open = False
        self.phase = GroupPhase.CLOSED
        self._broadcast(message)
        if playing and self.match is not None:
            match = self.match
            culprit_id = culprit.id if culprit is not None else None
            match.note("abort", player=culprit.seat if culprit else None, reason=reason)
            status = "aborted" if isinstance(message, Abort) else "canceled"
            self._record(
                match,
                status,
                {"abort": reason, "culprit": culprit_id, "ids": [m.id for m in self.members]},
            )
            game_finished(
                log,
                "mariáš",
                f"group {self.id} deal {self.games}",
                [m.id for m in self.members],
                f"{status}: " + (f"{culprit_id} " if culprit_id else "") + end_words(reason),
                duration(match.started_at, utcnow()),
                status=status,
            )
            self._emit(
                "game_over",
                result={"reason": reason, "culprit": culprit_id, "status": status},
                money=list(self.money),
            )
        self._emit("group_closed", reason=reason)
        log.info(
            "mariáš group %s closed after %d deals: %s; money %s",
            self.id,
            self.games,
            reason,
            ", ".join(f"{m.id} {self.money[m.seat]:+d}" for m in self.members),
        )
        # The server reports the group closed before the members' connections close, so the
        # login server frees their ids before any of them can log in again.
        if self.hooks.on_closed is not None:
            self.hooks.on_closed(self)
        for m in self.members:
            if m.peer is not None:
                m.peer.close()

    def shutdown(self) -> None:
        """The server stops: tell the members and close."""
        self._end_group(Disconnect("server shutting down"), "server shutdown", None)
