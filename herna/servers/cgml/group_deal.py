"""A group's games (seed 001 chapter 3 on the rules engine :mod:`herna.games.marias`):
``newgame`` before every game, then one deal from ``dial`` to ``result`` with one
:class:`~herna.hall.match.Match` per game: the auction, the talon, the game type, flek,
play, a ``renonc`` and the recorded, logged settlement.
"""

from __future__ import annotations

from collections.abc import Sequence

from herna.core.errors import IllegalAction
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
    Resign,
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
from herna.games.marias.evaluation import Settlement
from herna.games.marias.state import DEAL_TO
from herna.games.marias.words import contract_words, flek_words
from herna.hall.match import Match, Seat
from herna.hall.records import utcnow
from herna.protocols.cgml.cards import Card as CgmlCard
from herna.protocols.cgml.messages import (
    GAME_MARIAS,
    CancelGame,
    Dial,
    DialPart,
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
    MoneyLine,
    NewGameAnswer,
    NewGameAsk,
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
from herna.protocols.cgml.resign import NOT_AKTER, RESIGNED
from herna.servers.cgml.group_control import GroupControl
from herna.servers.cgml.group_core import WRONG_PHASE, log
from herna.servers.cgml.seats import GroupPhase, Member
from herna.servers.gamelog import duration, game_finished, refused

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

_BETTER: dict[Contract, Contract] = {
    Contract.G: Contract.BG,
    Contract.C7: Contract.B7,
    Contract.C100: Contract.B100,
    Contract.C107: Contract.B107,
    Contract.C27: Contract.B27,
    Contract.C127: Contract.B127,
}


def _cgml_card(card: int) -> CgmlCard:
    code = CARD_CODES[card]
    return CgmlCard(code[0], code[1:])


def _flek_of(levels: Sequence[int]) -> Flek:
    """CGML flek level of engine levels: ``(2,)`` is ``2``, ``(2, 1)`` is ``2:1``."""
    return Flek(levels[0], levels[1] if len(levels) > 1 else None)


class DealFlow(GroupControl):
    """``newgame`` and the flow of each deal."""

    # -- between games ---------------------------------------------------------------------
    def _ask_newgame(self) -> None:
        limit = self.max_games if self.max_games is not None else self.settings.max_games
        closed = self.hooks.closed() if self.hooks.closed is not None else None
        if closed is not None:
            # Every deal is a game with its record: the hall takes no new ones, so the group
            # ends as if its number of games were played (the seed's own words for it).
            log.warning("group %s: no next deal: %s", self.id, closed)
            self._end_group(CancelGame("group finished"), "group finished", None)
            return
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
        seed = self.seeds.next_seed() if self.deal_seed is None else self.deal_seed
        self.games += 1
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

    def _resign(self, member: Member) -> None:
        """``<resign>`` (Herna extension): the aktér gives up the deal on his turn; the
        sequence is a renonc's without the ``<renonc>``: ``<cancelgame>resigned</cancelgame>``,
        the ``<result>``, the next ``newgame``."""
        state = self.state
        assert self.match is not None
        if member.seat != state.declarer or state.phase not in (Phase.FLEK, Phase.PLAY):
            reason = (
                "only the aktér may give up the game, once it is announced; a defender "
                "cannot give up alone (leave the table instead)"
            )
            self._refuse(member, reason, NOT_AKTER)
            return
        try:
            self.match.act(member.seat, Resign())
        except IllegalAction as e:
            self._refuse(member, e.reason, e.code)
            return
        log.info("group %s: %s (aktér) gives up the deal", self.id, member.id)
        self.match.note("resigned", player=member.seat, name=member.id)
        self._broadcast(CancelGame(RESIGNED))
        self._emit("resigned", player=member.seat)
        self._finish_game(ended=RESIGNED)

    def _finish_game(self, ended: str | None = None) -> None:
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
        extra: dict[str, object] = {
            "ids": [m.id for m in self.members],
            "log": GameLog.from_state(state, match.seed).to_json(),
        }
        if ended is not None:
            extra["ended"] = ended  # how the deal ended besides its tricks (``resigned``)
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
        elif settlement.conceded:
            what = contract_words(settlement.contract.code)
            words = f"{declarer} ({what}) gave up and paid {-won} units to {', '.join(defenders)}"
        else:
            what = contract_words(settlement.contract.code)
            if settlement.trumps is not None:
                what += f", {SUIT_NAMES_CS[settlement.trumps]}"
            if any(level > 1 for level in settlement.levels):  # level 1 is "no flek"
                parts = [p.label for p in settlement.contract.parts]
                what += f", {flek_words(settlement.levels, parts)}"
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
