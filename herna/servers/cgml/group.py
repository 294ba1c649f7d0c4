"""One playing group at the super game server: joining, ``newgame`` before every game, and
the whole licitovaný mariáš flow of seed 001 chapter 3 on the rules engine
(:mod:`herna.games.marias`), one :class:`~herna.hall.match.Match` per game.

The group talks to its members through :class:`Peer` objects (the server's connections) and
keeps time on the hall's :class:`~herna.core.clock.Clock`, so tests can drive timeouts with a
FakeClock. Every finished, cancelled or aborted game is recorded; spectators get events on the
hall's bus whose ``view`` is the engine's spectator view (no hidden cards).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from herna.core.clock import Clock, TimerHandle
from herna.core.errors import IllegalAction
from herna.core.rng import SeededRng, SeedSource
from herna.games.marias import (
    CARD_CODES,
    TARIFFS,
    Action,
    Answer,
    Bid,
    CardError,
    Claim,
    Contract,
    GameLog,
    GameType,
    MariasCodec,
    MariasState,
    Phase,
    Play,
    Renonc,
    discard_of,
    new_game,
    parse_card,
    parse_licite_answer,
    parse_trumps,
)
from herna.games.marias import (
    Flek as EngineFlek,
)
from herna.games.marias import (
    parse_flek as engine_parse_flek,
)
from herna.games.marias.cards import SUIT_NAMES_CS
from herna.games.marias.contracts import format_flek
from herna.games.marias.evaluation import Settlement
from herna.games.marias.state import DEAL_TO
from herna.hall.events import EventBus
from herna.hall.identity import new_secret, same_secret
from herna.hall.match import Match, Seat
from herna.hall.records import RecordStore, utcnow
from herna.protocols.cgml.cards import Card as CgmlCard
from herna.protocols.cgml.codec import encode
from herna.protocols.cgml.messages import (
    GAME_MARIAS,
    Abort,
    CancelGame,
    Dial,
    DialPart,
    Disconnect,
    Error,
    Flek,
    FlekAnswer,
    FlekAsk,
    FlekInfo,
    GameTypeAnswer,
    GameTypeAsk,
    GameTypeInfo,
    LiciteAnswer,
    LiciteAsk,
    LiciteInfo,
    LiciteResult,
    Message,
    MoneyLine,
    NewGameAnswer,
    NewGameAsk,
    NewGroupAnswer,
    PauseFinish,
    PauseStart,
    PlayCardAsk,
    PlayCardCards,
    PlayCardInfo,
    PlayerRef,
    Result,
    Round,
    Trumf,
    parse_flek,
    parse_trumf,
)
from herna.protocols.cgml.messages import (
    Renonc as RenoncMessage,
)
from herna.protocols.cgml.standin import StandIn
from herna.servers.cgml.seats import GroupPhase, GroupSettings, Member, Peer, seat_names
from herna.servers.gamelog import duration, game_finished, refused

log = logging.getLogger("herna.cgml.game")

WRONG_PHASE = "WRONG_PHASE"
NOT_YOUR_TURN = "NOT_YOUR_TURN"
PAUSED = "PAUSED"

# Engine problem codes that are a renonc (a move against the rules of mariáš); every other
# refusal is a malformed or mistimed request and gets an <error>.
RENONC_CODES = frozenset(
    {
        "MUST_FOLLOW_SUIT",
        "MUST_OVERTAKE",
        "MUST_TRUMP",
        "MUST_OVERTRUMP",
        "SEVEN_RESERVED",
        "CLAIM_FAILS",
        "ACE_TEN_TO_TALON",
        "SEVEN_TO_TALON",
        "ACE_TEN_IN_TALON",
        "SEVEN_IN_TALON",
    }
)

_ALWAYS_VIEW = frozenset({"game_started", "game_over"})
"""Events that carry the spectator view even when nobody is subscribed (the bus keeps a
short history for late subscribers)."""

_BETTER: dict[Contract, Contract] = {
    Contract.G: Contract.BG,
    Contract.C7: Contract.B7,
    Contract.C100: Contract.B100,
    Contract.C107: Contract.B107,
    Contract.C27: Contract.B27,
    Contract.C127: Contract.B127,
}


@dataclass
class GroupHooks:
    """Where the group reports to (the hall's bus and records, the server's statistics)."""

    bus: EventBus | None = None
    records: RecordStore | None = None
    on_closed: Callable[[Group], None] | None = None
    on_game_over: Callable[[], None] | None = None
    on_reaction: Callable[[float], None] | None = None
    """Called with the seconds between a player's message and the server's answer."""
    house_names: frozenset[str] = frozenset()


def _cgml_card(card: int) -> CgmlCard:
    code = CARD_CODES[card]
    return CgmlCard(code[0], code[1:])


def _flek_of(levels: Sequence[int]) -> Flek:
    """CGML flek level of engine levels: ``(2,)`` is ``2``, ``(2, 1)`` is ``2:1``."""
    return Flek(levels[0], levels[1] if len(levels) > 1 else None)


class Group:
    """A group of three players playing games one after another."""

    def __init__(
        self,
        group_id: str,
        members: Sequence[PlayerRef],
        clock: Clock,
        settings: GroupSettings,
        hooks: GroupHooks,
        url: str = "",
        seeds: SeedSource | None = None,
        tournament: str | None = None,
        max_games: int | None = None,
    ) -> None:
        self.id = group_id
        self.tournament = tournament
        """A live tournament's board tag (``<newgroup tournament>``): its records and
        events carry it."""
        self.max_games = max_games
        """Games this group plays before it closes (``<newgroup games>``); None: the
        server's setting."""
        # Each announced member gets a secret; its ticket (group id, dot, secret) goes to
        # that member alone, through the login server, and is what it must join with.
        self.members = [Member(ref, i, secret=new_secret()) for i, ref in enumerate(members)]
        self.open_seats = not self.members
        self.clock = clock
        self.settings = settings
        self.hooks = hooks
        self.url = url
        self.phase = GroupPhase.JOINING
        self.seeds = seeds or SeedSource()
        """Every game's seed (recorded with the game): from :mod:`secrets` unless the server
        was given a fixed seed, so published seeds never predict the next deals."""
        self.first_dealer = SeededRng(self.seeds.next_seed()).randint(0, 2)
        self.games = 0
        self.match: Match[Action] | None = None
        self.money = [0, 0, 0]
        self._timer: TimerHandle | None = None
        self._deadline_seat: int | None = None
        self._deadline_left = 0.0
        self._deadline_at = 0.0
        self._paused_by: int | None = None
        self._pause_timer: TimerHandle | None = None
        self._asked_at: float | None = None
        self._newgame_answers: set[int] = set()
        self._game_open = False
        """A game is being played (started and not yet recorded)."""
        self._view_cache: tuple[object, dict[str, Any]] | None = None
        self._talon: tuple[CgmlCard, ...] = ()
        self._stand_ins: set[int] = set()
        """Seats whose client says a stand-in answers for the player now (``<standin>``)."""
        self._stood_in: set[int] = set()
        """Seats that had a stand-in at some time during the current deal (for its record)."""
        self.table = self.id
        self.names = seat_names(self.members)
        self._timer = clock.call_later(settings.join_timeout, self._join_timeout)

    # -- helpers ---------------------------------------------------------------------------
    def member_by_id(self, pid: str) -> Member | None:
        return next((m for m in self.members if m.id == pid), None)

    def _send(self, member: Member, message: Message) -> None:
        if member.peer is not None and not member.peer.closed:
            member.peer.send(message)

    def _broadcast(self, message: Message, exclude: Member | None = None) -> None:
        data = encode(message)
        for m in self.members:
            if m is not exclude and m.peer is not None and not m.peer.closed:
                m.peer.send_bytes(data)

    def _emit(self, kind: str, **data: Any) -> None:
        bus = self.hooks.bus
        if bus is None:
            return
        match = self.match
        payload: dict[str, Any] = {
            "group": self.id,
            "game_no": self.games,
            "players": [
                {"id": m.id, "name": self.names[m.seat], "race": m.ref.race} for m in self.members
            ],
            "money": list(self.money),
            **data,
        }
        if self.tournament is not None:
            payload["tournament"] = self.tournament
        if (
            match is not None
            and "view" not in payload
            and (bus.subscriber_count or kind in _ALWAYS_VIEW)
        ):
            # The spectator view after the event. It is the same for every event of one
            # move (a card and the trick it completes), so it is computed once per state;
            # with nobody watching only the start and the end of a game carry one.
            state = match.state
            if self._view_cache is None or self._view_cache[0] is not state:
                self._view_cache = (state, dict(state.view(None)))
            payload["view"] = self._view_cache[1]
        # One live address per table: spectators follow the group from deal to deal (each
        # deal's record keeps its own table id, ``<group>.<deal>``; ``game_no`` tells deals
        # apart on the bus).
        bus.emit("marias", self.id, kind, **payload)

    def _ref(self, seat: int) -> PlayerRef:
        m = self.members[seat]
        return PlayerRef(m.id, m.ref.name)

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

    @property
    def state(self) -> MariasState:
        assert self.match is not None
        state = self.match.state
        assert isinstance(state, MariasState)
        return state

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

    # -- between games ---------------------------------------------------------------------
    def _ask_newgame(self) -> None:
        limit = self.max_games if self.max_games is not None else self.settings.max_games
        if limit is not None and self.games >= limit:
            self._end_group(CancelGame("group finished"), "group finished", None)
            return
        self.phase = GroupPhase.ASKING
        self._newgame_answers = set()
        players = tuple(PlayerRef(m.id, m.ref.name) for m in self.members)
        self._broadcast(NewGameAsk(players, self.id))
        seconds = self.settings.newgame_timeout
        self._set_deadline(None, seconds)

    def _newgame_answer(self, member: Member, message: NewGameAnswer) -> None:
        if member.seat in self._newgame_answers:
            self._send(member, Error("you answered this newgame already", WRONG_PHASE))
            return
        if not message.accept:
            log.info("group %s: %s rejects the next game", self.id, member.id)
            self._end_group(CancelGame("rejected"), "rejected", member)
            return
        self._newgame_answers.add(member.seat)
        if len(self._newgame_answers) == len(self.members):
            self._start_game()

    # -- a game ------------------------------------------------------------------------------
    def _start_game(self) -> None:
        self._cancel_timer()
        self.phase = GroupPhase.PLAYING
        dealer = (self.first_dealer + self.games) % 3
        self.games += 1
        seed = self.seeds.next_seed()
        house = self.hooks.house_names
        seats = [
            Seat(
                self.names[m.seat],
                "house-bot"
                if m.ref.name in house and m.ref.race == "bot"
                else m.ref.race or "unknown",
            )
            for m in self.members
        ]
        self.match = Match(
            game="marias",
            table_id=f"{self.id}.{self.games}",
            state=new_game(dealer, self.settings.rules),
            seats=seats,
            seed=seed,
            codec=MariasCodec(),
            meta={
                "group": self.id,
                "game_no": self.games,
                "dealer": dealer,
                "ids": [m.id for m in self.members],
                "server": self.url,
                "tariff": next(
                    (n for n, t in TARIFFS.items() if t == self.settings.rules.tariff), "custom"
                ),
                "max_flek": self.settings.rules.max_flek,
            },
        )
        if self.tournament is not None:
            self.match.meta["tournament"] = self.tournament
        self._game_open = True
        self._stood_in = set(self._stand_ins)
        self._send_deal()
        self._emit("game_started", dealer=dealer)
        self._advance()

    def _send_deal(self) -> None:
        """``dial`` to everyone in dealing order: own cards with codes, others' hidden."""
        match = self.match
        assert match is not None
        dealer = self.state.dealer
        deal = [data["action"] for kind, data in match.log if kind == "action"][:32]
        packets: list[tuple[int, list[int]]] = []  # (seat or -1 for the talon, cards)
        for pos, text in enumerate(deal):
            to = DEAL_TO[pos]
            seat = -1 if to < 0 else (dealer + to) % 3
            card = parse_card(text.split()[1])
            if packets and packets[-1][0] == seat:
                packets[-1][1].append(card)
            else:
                packets.append((seat, [card]))
        for m in self.members:
            parts: list[DialPart] = []
            for seat, cards in packets:
                if seat == m.seat:
                    parts.append(
                        DialPart("cards", "hand", "desk", tuple(_cgml_card(c) for c in cards))
                    )
                elif seat < 0:
                    parts.append(DialPart("info", "talon", "desk", (None,) * len(cards)))
                else:
                    parts.append(
                        DialPart(
                            "info", "hand", "desk", (None,) * len(cards), self.members[seat].id
                        )
                    )
            self._send(m, Dial(tuple(parts)))

    def _advance(self) -> None:
        """Ask whoever is to move, or finish the game."""
        state = self.state
        if state.is_terminal():
            self._finish_game()
            return
        seat = state.current_player()
        member = self.members[seat]
        phase = state.phase
        if phase == Phase.AUCTION:
            pending = state.pending_bid
            self._send(member, LiciteAsk(pending.code if pending is not None else None))
        elif phase == Phase.DISCARD:
            pass  # the talon (dial from="talon" to="hand") is the request to discard
        elif phase == Phase.GAMETYPE:
            self._send(member, GameTypeAsk(state.won_rung.code))
        elif phase == Phase.FLEK:
            self._send(member, FlekAsk(_flek_of(state.flek_options()[0])))
        elif phase == Phase.PLAY:
            self._send(member, PlayCardAsk())
        self._set_deadline(seat, self._answer_time(seat))

    def _reask(self, member: Member) -> None:
        """Ask the same question again (after an <error> or a training-mode renonc)."""
        state = self.state
        phase = state.phase
        if phase == Phase.AUCTION:
            pending = state.pending_bid
            self._send(member, LiciteAsk(pending.code if pending is not None else None))
        elif phase == Phase.DISCARD:
            # The talon was the request to discard: show it again.
            self._send(member, Dial((DialPart("cards", "hand", "talon", self._talon),)))
        elif phase == Phase.GAMETYPE:
            self._send(member, GameTypeAsk(state.won_rung.code))
        elif phase == Phase.FLEK:
            self._send(member, FlekAsk(_flek_of(state.flek_options()[0])))
        elif phase == Phase.PLAY:
            self._send(member, PlayCardAsk())

    # -- messages from members -------------------------------------------------------------
    def received(self, member: Member, message: Message) -> None:
        started = self.clock.now()
        if isinstance(message, Disconnect):
            log.info("group %s: %s disconnects: %s", self.id, member.id, message.reason)
            self.member_lost(member)
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

    def _refuse(self, member: Member, reason: str, code: str) -> None:
        self._send(member, Error(reason, code))
        refused(log, "mariáš", member.id, f"group {self.id}", code, reason)

    def _act(self, member: Member, action: Action) -> bool:
        """Apply ``action``; an <error> (or a renonc) and False when the rules refuse it."""
        assert self.match is not None
        try:
            self.match.act(member.seat, action)
        except IllegalAction as e:
            if e.code in RENONC_CODES:
                self._renonc(member, action, e)
            else:
                self._refuse(member, e.reason, e.code)
            return False
        return True

    def _licite(self, member: Member, message: LiciteAnswer) -> None:
        state = self.state
        try:
            action = parse_licite_answer(message.value)
        except ValueError as e:
            self._refuse(member, str(e), "BAD_LICITE")
            return
        pending = state.pending_bid
        talon = state.talon()
        if not self._act(member, action):
            return
        if isinstance(action, Answer):
            shown = pending.code if action.yes and pending is not None else "PASS"
        else:
            assert isinstance(action, Bid)
            shown = action.contract.code
        self._broadcast(LiciteInfo(member.id, shown))
        new = self.state
        self._emit("licite", player=member.seat, licite=message.value, shown=shown)
        if new.phase != Phase.AUCTION:
            winner = self.members[new.declarer]
            code = new.won_rung.code
            self._broadcast(LiciteResult(winner.id, code))
            cards = tuple(_cgml_card(c) for c in talon)
            self._talon = cards
            self._send(winner, Dial((DialPart("cards", "hand", "talon", cards),)))
            info = Dial((DialPart("info", "hand", "talon", (None, None), winner.id),))
            self._broadcast(info, exclude=winner)
            self._emit("licite_result", player=winner.seat, licite=code)
            self._emit("talon", player=winner.seat, action="take")
        self._advance()

    def _engine_cards(self, member: Member, cards: Sequence[CgmlCard]) -> list[int] | None:
        out: list[int] = []
        for c in cards:
            try:
                out.append(parse_card(c.code))
            except CardError as e:
                self._refuse(member, str(e), "NOT_A_MARIAS_CARD")
                return None
        hand = set(self.state.hand(member.seat))
        for card in out:
            if card not in hand:
                self._refuse(member, f"You do not hold {CARD_CODES[card]}!", "NOT_IN_HAND")
                return None
        return out

    def _discard(self, member: Member, message: PlayCardCards) -> None:
        if message.to != "talon":
            self._refuse(member, 'lay two cards into the talon (to="talon")', WRONG_PHASE)
            return
        cards = self._engine_cards(member, message.cards)
        if cards is None:
            return
        if len(cards) != 2 or cards[0] == cards[1]:
            self._refuse(member, "Lay exactly two different cards into the talon", "DISCARD_TWO")
            return
        if not self._act(member, discard_of(cards[0], cards[1])):
            return
        hidden = PlayCardInfo(member.id, (None, None), "hand", "talon")
        self._broadcast(hidden, exclude=member)
        self._send(member, PlayCardInfo(member.id, message.cards, "hand", "talon"))
        self._emit("talon", player=member.seat, action="discard")
        self._advance()

    def _gametype(self, member: Member, message: GameTypeAnswer) -> None:
        try:
            contract = Contract.parse(message.licite)
            trumps, second = parse_trumps(str(message.trumf) if message.trumf else None)
        except ValueError as e:
            self._refuse(member, str(e), "BAD_GAMETYPE")
            return
        # Be liberal: hearts trumps make the "better" game; a B-game implies hearts.
        if trumps == 0 and contract in _BETTER:
            contract = _BETTER[contract]
        if contract.hearts and trumps is None:
            trumps = 0
        if not contract.has_trumps:
            trumps = second = None
        action = GameType(contract, trumps, second)
        if not self._act(member, action):
            return
        state = self.state
        trumf = parse_trumf(state.trumps_text()) if state.trumps_text() else None
        self._broadcast(GameTypeInfo(member.id, contract.code, trumf))
        self._emit("gametype", player=member.seat, licite=contract.code, trumf=state.trumps_text())
        if state.phase != Phase.FLEK:
            self._summary()
        self._advance()

    def _flek(self, member: Member, message: FlekAnswer) -> None:
        state = self.state
        try:
            levels = engine_parse_flek(str(message.level), len(state.contract.parts))
        except ValueError as e:
            self._refuse(member, str(e), "BAD_FLEK")
            return
        if not self._act(member, EngineFlek(levels)):
            return
        state = self.state
        # The info carries the answer: that player's own levels (a flek binds only the
        # defenders who said it, so the two defenders' levels can differ).
        self._broadcast(FlekInfo(member.id, _flek_of(levels)))
        self._emit("flek", player=member.seat, flek=str(_flek_of(levels)))
        if state.phase != Phase.FLEK:
            self._summary()
        self._advance()

    def _trumf(self) -> Trumf | None:
        text = self.state.trumps_text()
        return parse_trumf(text) if text else None

    def _summary(self) -> None:
        """Začátek hry -- shrnutí: the game that will be played."""
        state = self.state
        declarer = self.members[state.declarer]
        self._broadcast(
            GameTypeInfo(
                declarer.id, state.contract.code, self._trumf(), parse_flek(state.flek_text())
            )
        )

    def _play(self, member: Member, message: PlayCardCards) -> None:
        if message.to != "desk":
            self._refuse(member, 'play to the desk (to="desk")', WRONG_PHASE)
            return
        cards = self._engine_cards(member, message.cards)
        if cards is None:
            return
        before = self.state
        action: Action
        if len(cards) == 1:
            action = Play(cards[0])
        else:
            if sorted(cards) != before.hand(member.seat):
                self._refuse(
                    member,
                    "A claim (ložená hra) lays down all your remaining cards",
                    "CLAIM_NOT_WHOLE_HAND",
                )
                return
            action = Claim(tuple(cards))
        if not self._act(member, action):
            return
        after = self.state
        self._announce_plays(before, after)
        if isinstance(action, Claim):
            self._emit("claim", player=member.seat, cards=[CARD_CODES[c] for c in cards])
        self._advance()

    def _announce_plays(self, before: MariasState, after: MariasState) -> None:
        """``playcard info`` for every card played between two states and ``round`` for
        every trick completed."""
        done = len(before.tricks)
        skip = len(before.trick)
        for trick in after.tricks[done:]:
            for i, card in enumerate(trick.cards):
                if skip:
                    skip -= 1
                    continue
                seat = (trick.leader + i) % 3
                self._played(seat, card)
            winner = self.members[trick.winner]
            self._broadcast(
                Round(trick.number, winner.id, tuple(_cgml_card(c) for c in trick.cards))
            )
            self._emit("round", number=trick.number, winner=trick.winner)
        leader, cards = after.current_trick()
        for i, card in enumerate(cards):
            if skip:
                skip -= 1
                continue
            self._played((leader + i) % 3, card)

    def _played(self, seat: int, card: int) -> None:
        pid = self.members[seat].id
        self._broadcast(PlayCardInfo(pid, (_cgml_card(card),), "hand", "desk"))
        self._emit("card", player=seat, card=CARD_CODES[card])

    def _renonc(self, member: Member, action: Action, error: IllegalAction) -> None:
        ref = self._ref(member.seat)
        if self.settings.training:
            log.info("group %s: training renonc by %s: %s", self.id, member.id, error.reason)
            self._send(member, RenoncMessage(ref, error.reason))
            self._reask(member)
            self._set_deadline(member.seat, self._answer_time(member.seat))
            return
        assert self.match is not None
        log.info("group %s: renonc by %s: %s", self.id, member.id, error.reason)
        self.match.act(member.seat, Renonc(action))
        self._broadcast(RenoncMessage(ref, error.reason))
        self._broadcast(CancelGame("renonc"))
        self._emit("renonc", player=member.seat, reason=error.reason, code=error.code)
        self._finish_game()

    def _finish_game(self) -> None:
        self._cancel_timer()
        match = self.match
        assert match is not None
        state = self.state
        settlement = state.settlement()
        money = settlement.money
        for i in range(3):
            self.money[i] += money[i]
        winners = tuple(MoneyLine(self.members[i].id, money[i]) for i in range(3) if money[i] > 0)
        losers = tuple(MoneyLine(self.members[i].id, -money[i]) for i in range(3) if money[i] <= 0)
        rounds = tuple(
            Round(t.number, self.members[t.winner].id, tuple(_cgml_card(c) for c in t.cards))
            for t in state.tricks
        )
        contract = settlement.contract
        trumf = self._trumf()
        levels = state.flek_text() if state.flek_levels else None
        result = Result(
            GAME_MARIAS,
            contract.code if contract != Contract.PASS else state.won_rung.code,
            trumf,
            parse_flek(levels) if levels else None,
            rounds,
            winners,
            losers,
        )
        extra = {
            "ids": [m.id for m in self.members],
            "log": GameLog.from_state(state, match.seed).to_json(),
        }
        self._game_open = False
        # Recorded before anyone is told the result: a deal a player saw settled must
        # survive kill -9 (the store journals it on submit).
        self._record(match, "finished", extra)
        self._broadcast(result)
        self._log_deal(match, settlement)
        self._emit(
            "game_over",
            result=settlement.to_json(),
            money_game=list(money),
            money=list(self.money),
        )
        if self.hooks.on_game_over is not None:
            self.hooks.on_game_over()
        self._ask_newgame()

    def _log_deal(self, match: Match[Action], settlement: Settlement) -> None:
        """``mariáš group g7 deal 3: anna (hra, červené) won 2 units from bob, cyril``."""
        ids = [m.id for m in self.members]
        declarer = ids[settlement.declarer]
        defenders = [ids[i] for i in range(3) if i != settlement.declarer]
        won = settlement.money[settlement.declarer]
        if settlement.renonc is not None:
            culprit = ids[settlement.renonc.player]
            words = f"renonc by {culprit} ({settlement.renonc.reason}); money {settlement.money}"
        else:
            what = ", ".join(dict.fromkeys(p.name for p in settlement.parts)) or "pass"
            if settlement.trumps is not None:
                what += f", {SUIT_NAMES_CS[settlement.trumps]}"
            if any(level > 1 for level in settlement.levels):  # level 1 is "no flek"
                what += f", flek levels {format_flek(settlement.levels)}"
            verb = f"won {won} units from" if won > 0 else f"paid {-won} units to"
            words = f"{declarer} ({what}) {verb} {', '.join(defenders)}"
        game_finished(
            log,
            "mariáš",
            f"group {self.id} deal {self.games}",
            ids,
            words,
            duration(match.started_at, utcnow()),
            declarer=declarer,
            money=dict(zip(ids, settlement.money, strict=True)),
            totals=dict(zip(ids, self.money, strict=True)),
            contract=settlement.contract.code,
        )

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

    def _record(self, match: Match[Action], status: str, extra: dict[str, Any]) -> None:
        if self._stood_in:
            match.meta["stand_in"] = [m.id for m in self.members if m.seat in self._stood_in]
        records = self.hooks.records
        if records is None:
            return
        try:
            record = match.record(status, extra)
            # A deal a stand-in played (in part) says nothing of that person's skill: it counts
            # in the standings and the money, but their rating does not move (issue 13).
            for player in record.players:
                if player.seat in self._stood_in:
                    player.rated = False
            records.submit(record)
        except Exception:  # the database must not stop the table
            log.exception("group %s: could not record game %s", self.id, match.table_id)

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

    def member_lost(self, member: Member) -> None:
        """The member's connection closed (or it sent ``<disconnect>``)."""
        if self.phase is GroupPhase.CLOSED:
            return
        member.peer = None
        self._end_group(Abort(self._ref(member.seat), "disconnected"), "disconnected", member)

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
                f"{status}: {reason}" + (f" ({culprit_id})" if culprit_id else ""),
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
