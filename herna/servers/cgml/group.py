"""One playing group at the super game server: joining, ``newgame`` before every game, and
the whole licitovaný mariáš flow of seed 001 chapter 3 on the rules engine
(:mod:`herna.games.marias`), one :class:`~herna.hall.match.Match` per game.

The group talks to its members through :class:`Peer` objects (the server's connections) and
keeps time on the hall's :class:`~herna.core.clock.Clock`, so tests can drive timeouts with a
FakeClock. Every finished, cancelled or aborted game is recorded; spectators get events on the
hall's bus whose ``view`` is the engine's spectator view (no hidden cards).

:class:`Group` is built in layers, each a module (read them in this order):

- :mod:`~herna.servers.cgml.group_core`: :class:`GroupHooks` and the group's state, sending,
  spectator events and records;
- :mod:`~herna.servers.cgml.group_control`: deadlines, pauses, stand-ins, dropped members and
  the end of the group (``abort``, ``cancelgame``, ``disconnect``);
- :mod:`~herna.servers.cgml.group_deal`: ``newgame`` and one deal's flow (auction, talon,
  game type, flek, play, ``renonc``, result);
- this module: joining, the dispatch of members' messages, the snapshot.

Who sits in a group (members, settings, phases) is :mod:`~herna.servers.cgml.seats`.
"""

from __future__ import annotations

from typing import Any

from herna.games.marias import (
    MariasState,
    Phase,
)
from herna.hall.identity import same_secret
from herna.protocols.cgml.messages import (
    LEFT,
    Abort,
    CancelGame,
    Disconnect,
    Error,
    FlekAnswer,
    GameTypeAnswer,
    LiciteAnswer,
    Message,
    NewGameAnswer,
    NewGroupAnswer,
    PauseFinish,
    PauseStart,
    PlayCardCards,
    PlayerRef,
)
from herna.protocols.cgml.resign import Resign
from herna.protocols.cgml.standin import StandIn
from herna.servers.cgml.group_core import (
    NOT_YOUR_TURN,
    PAUSED,
    WRONG_PHASE,
    GroupHooks,
    log,
)
from herna.servers.cgml.group_deal import RENONC_CODES, DealFlow
from herna.servers.cgml.seats import GroupPhase, Member, Peer, seat_names

__all__ = ["NOT_YOUR_TURN", "PAUSED", "RENONC_CODES", "WRONG_PHASE", "Group", "GroupHooks"]


class Group(DealFlow):
    """A group of three players playing games one after another."""

    # -- joining ---------------------------------------------------------------------------
    def tickets(self) -> tuple[str, ...]:
        """Each member's ticket, in seat order (empty for a group that admits by id)."""
        return tuple(f"{self.id}.{m.secret}" for m in self.members if m.secret is not None)

    def join(self, peer: Peer, message: NewGroupAnswer, secret: str | None = None) -> Member | str:
        """Attach ``peer`` as the member whose ticket secret is ``secret`` (a group announced
        with its members) or, in a group that admits by id, the member named in ``message``;
        an error code on refusal."""
        pid = message.player.id or ""
        if any(m.secret is not None for m in self.members):
            # The ticket alone decides: a player id is public, the secret went to one client.
            member = next((m for m in self.members if same_secret(secret, m.secret or "")), None)
            if member is None:
                return "NOT_INVITED"
        else:
            member = self.member_by_id(pid)
        if (
            member is None
            and self.phase is GroupPhase.JOINING
            and self.open_seats
            and pid
            and (len(self.members) < 3)
        ):
            # A group announced without its members (a plain seed login server): the first
            # three distinct ids that join are the group.
            member = Member(
                PlayerRef(pid, message.player.name or pid, message.player.race or "unknown"),
                len(self.members),
            )
            self.members.append(member)
            self.names = seat_names(self.members)
        if member is None:
            return "NOT_IN_GROUP"
        if member.peer is not None:
            return "ID_IN_USE"
        if self.phase is not GroupPhase.JOINING:
            return "GROUP_STARTED"
        member.peer = peer
        if not message.accept:
            log.info("group %s: %s rejects the group", self.id, member.id)
            self._end_group(CancelGame("rejected"), "rejected", member)
            return member
        member.accepted = True
        if len(self.members) == 3 and all(m.accepted for m in self.members):
            self._ask_newgame()
        return member

    def _join_timeout(self) -> None:
        self._timer = None
        if self.phase is not GroupPhase.JOINING:
            return
        missing = next((m for m in self.members if not m.accepted), None)
        log.info("group %s: not every member joined in time", self.id)
        ref = self._ref(missing.seat) if missing is not None else PlayerRef(None, "?")
        self._end_group(Abort(ref, "timeout"), "timeout", missing)

    # -- messages from members -------------------------------------------------------------
    def received(self, member: Member, message: Message) -> None:
        started = self.clock.now()
        if isinstance(message, Disconnect):
            log.info("group %s: %s disconnects: %s", self.id, member.id, message.reason)
            # A seat that says it leaves (the play page's "Leave the table") left; any other
            # <disconnect> ends the table as a lost connection.
            self.member_lost(member, LEFT if message.reason == LEFT else "disconnected")
            return
        if isinstance(message, PauseStart):
            self._pause(member, message)
            return
        if isinstance(message, PauseFinish):
            self._unpause(member)
            return
        if isinstance(message, StandIn):
            self._stand_in(member, message.active)
            return
        if isinstance(message, NewGroupAnswer):
            self._send(member, Error("you are in this group already", WRONG_PHASE))
            return
        if self.phase is GroupPhase.ASKING and isinstance(message, NewGameAnswer):
            self._newgame_answer(member, message)
            return
        if self.phase is not GroupPhase.PLAYING or self.match is None:
            self._send(member, Error(f"<{message.tag}> is not expected now", WRONG_PHASE))
            return
        if self._paused_by is not None:
            self._send(member, Error("the game is paused", PAUSED))
            return
        if isinstance(message, Resign):
            self._resign(member)  # says why a defender or an aktér off turn may not
            return
        state = self.state
        if state.current_player() != member.seat:
            self._send(member, Error("it is not your turn", NOT_YOUR_TURN))
            return
        if isinstance(message, LiciteAnswer) and state.phase == Phase.AUCTION:
            self._licite(member, message)
        elif isinstance(message, PlayCardCards) and state.phase == Phase.DISCARD:
            self._discard(member, message)
        elif isinstance(message, GameTypeAnswer) and state.phase == Phase.GAMETYPE:
            self._gametype(member, message)
        elif isinstance(message, FlekAnswer) and state.phase == Phase.FLEK:
            self._flek(member, message)
        elif isinstance(message, PlayCardCards) and state.phase == Phase.PLAY:
            self._play(member, message)
        else:
            self._send(
                member,
                Error(
                    f"<{message.tag}> is not expected in the {state.phase.name.lower()} phase",
                    WRONG_PHASE,
                ),
            )
            return
        if self.hooks.on_reaction is not None:
            self.hooks.on_reaction(self.clock.now() - started)

    def snapshot(self) -> dict[str, Any]:
        state = self.match.state if self.match is not None else None
        return {
            "group": self.id,
            "phase": self.phase.value,
            "games": self.games,
            "players": [
                {"id": m.id, "name": self.names[m.seat], "race": m.ref.race, "joined": m.accepted}
                for m in self.members
            ],
            "money": list(self.money),
            "game_phase": state.phase.name.lower() if isinstance(state, MariasState) else None,
            "paused": self._paused_by is not None,
        }
