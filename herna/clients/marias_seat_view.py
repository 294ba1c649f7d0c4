"""What one person's mariáš seat shows its page: the table's story in words and the JSON state.

The part of :class:`~herna.clients.marias_seat.SeatRelay` that turns what this seat may know
into words and JSON (a mix-in, :class:`SeatView`): each server message as a line of the
table's story (:meth:`SeatView._on_message`), each deal's result table and vyúčtování
(:mod:`herna.clients.marias_text`), and :meth:`SeatView.state`: its own hand, the public
table (auction, contract, fleks, trick, tricks taken), the choices offered now (numbered, by
:func:`option_json`) and the last result. The relay itself (logging in, playing the group,
the person's clock, stand-ins) is :mod:`herna.clients.marias_seat`.

Nothing of another seat's hidden cards is in the state: the tracker's shadow guesses other
hands, so the state takes from it only this seat's hand, this seat's talon and what was played
face up.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from herna.clients.marias_score import points_so_far
from herna.clients.marias_text import (
    RANK_WORD,
    RESIGN_WORDS,
    RESIGN_WORDS_CS,
    SUIT_CS,
    SUIT_WORD,
    action_text,
    breakdown_lines,
    cancel_words,
    card_name,
    contract_word,
    flek_words,
    result_rows,
    says,
    trumps_words,
    you,
)
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
    Resign,
)
from herna.games.marias.names import pick
from herna.games.marias.words import accusative, end_words, outbid_words, seat_roles
from herna.protocols.cgml.breakdown import derive
from herna.protocols.cgml.messages import (
    Abort,
    CancelGame,
    Error,
    FlekInfo,
    GameTypeInfo,
    LiciteInfo,
    LiciteResult,
    Message,
    PauseFinish,
    PauseStart,
    PlayCardInfo,
    PlayerRef,
    Renonc,
    Result,
    Round,
)
from herna.protocols.cgml.player import Decision, PlayerTracker, TrackerError
from herna.protocols.cgml.resign import RESIGNED

LOG_LINES = 40
"""Lines of the table's story kept in the state (the current deal and a little before)."""

STRENGTH = {"0A": 0, "10": 1, "0K": 2, "0Q": 3, "0J": 4, "09": 5, "08": 6, "07": 7}
NATURAL = {"0A": 0, "0K": 1, "0Q": 2, "0J": 3, "10": 4, "09": 5, "08": 6, "07": 7}
"""Card order in a hand: trump games rank the ten above the king; betl and durch do not."""


def bid_word(code: str, lang: str = "en") -> str:
    """A bid or an answer in the licitace, in words: ``sedma``, ``mám (yes)``, ``nic``."""
    if code in ("YES", "NO"):
        return ("mám" if code == "YES" else "nemám") + pick(
            lang, " (yes)" if code == "YES" else " (no)", ""
        )
    return contract_word(code, lang)


def card_json(code: str, lang: str = "en") -> dict[str, str]:
    """A card for the page: code, its Czech name (the suit agreeing with the rank:
    ``červený král``) and, in English, the gloss (``king of hearts``; empty in Czech)."""
    suit, rank = code[0], code[1:]
    return {
        "code": code,
        "name": card_name(code),
        "title": pick(lang, f"{RANK_WORD.get(rank, rank)} of {SUIT_WORD[suit]}", ""),
    }


def sort_hand(codes: Sequence[str], natural: bool = False) -> list[str]:
    order = NATURAL if natural else STRENGTH
    return sorted(codes, key=lambda c: ("RBGA".index(c[0]), order.get(c[1:], 9)))


def option_json(index: int, action: Action, lang: str = "en") -> dict[str, Any]:
    """One choice for the page: its number, Czech label, a title saying what it does (in
    ``lang``) and cards."""
    out: dict[str, Any] = {"id": index, "label": action_text(action, lang), "title": ""}
    if isinstance(action, Bid):
        code = action.contract.code
        title = pick(lang, f"bid {code}", f"licitovat {accusative(contract_word(code, lang))}")
        out.update(kind="bid", label=contract_word(code, lang), title=title)
    elif isinstance(action, Answer):
        out.update(
            kind="answer",
            label=bid_word("YES" if action.yes else "NO", lang),
            title=(
                pick(
                    lang, "I hold it: I take the game at this level", "Mám: beru hru na téhle výšce"
                )
                if action.yes
                else pick(
                    lang,
                    "I do not hold it: the bidder keeps the game",
                    "Nemám: hra zůstává tomu, kdo licitoval",
                )
            ),
        )
    elif isinstance(action, GameType):
        code = action.contract.code
        label = contract_word(code, lang)
        title = pick(lang, f"announce {code}", f"hlásit {accusative(label)}")
        out["group"] = label
        out["contract"] = code  # the page builds its steps (game, trumps, additions) from it
        out["suit"] = "" if action.trumps is None else "RBGA"[action.trumps]
        out["second"] = "" if action.second is None else "RBGA"[action.second]
        if action.trumps is not None:
            suit = "RBGA"[action.trumps]
            label += f", {SUIT_CS[suit]}"
            title += pick(lang, f" with {SUIT_WORD[suit]} as trumps", f", trumfy {SUIT_CS[suit]}")
            if action.second is not None:
                second = "RBGA"[action.second]
                label += f" + {SUIT_CS[second]}"
                title += pick(
                    lang, f", second suit {SUIT_WORD[second]}", f", strkací {SUIT_CS[second]}"
                )
        out.update(kind="gametype", label=label, title=title)
    elif isinstance(action, Flek):
        text = ":".join(str(x) for x in action.levels)
        title = pick(lang, f"flek level {text} (doubles)", f"flek {text} (zdvojnásobuje)")
        out.update(kind="flek", label=flek_words(text, lang), title=title)
    elif isinstance(action, Play):
        title = pick(lang, "play this card", "zahrát tuto kartu")
        out.update(kind="play", card=CARD_CODES[action.card], title=title)
    elif isinstance(action, Discard):
        out.update(kind="discard", cards=[CARD_CODES[c] for c in action.cards])
    elif isinstance(action, Claim):
        out.update(
            kind="claim",
            label=pick(lang, "ložená hra (lay down)", "ložená hra"),
            title=pick(
                lang,
                "show all your cards and claim the rest of the tricks (a wrong claim is a renonc)",
                "ukázat všechny karty a vzít zbylé štychy (chybná ložená je renonc)",
            ),
            cards=[CARD_CODES[c] for c in action.cards],
        )
    elif isinstance(action, Resign):
        out.update(
            kind="resign",
            label=pick(lang, "Give up the game", "Vzdát hru"),
            title=pick(
                lang,
                RESIGN_WORDS + "; the next deal follows",
                RESIGN_WORDS_CS + "; pak následuje další rozdání",
            ),
        )
    return out


@dataclass
class Pending:
    decision: Decision
    number: int
    options: list[Action]
    future: asyncio.Future[object]


class SeatView:
    """The story and the page's state of a :class:`~herna.clients.marias_seat.SeatRelay`
    (a mix-in: the relay holds the attributes)."""

    lang = "en"
    """The language of the story and the choices (the relay sets it: ``en`` or ``cs``)."""

    if TYPE_CHECKING:
        me: str
        player: PlayerRef
        tracker: PlayerTracker
        tariff: str
        seq: int
        status: str
        message: str
        pending: Pending | None
        lines: list[str]
        result: dict[str, Any] | None
        deals: int
        totals: dict[str, int]
        stand_in: bool
        stand_in_deals: list[int]
        _joined: bool

        def _tell_stand_in(self) -> None: ...

        def _changed(self) -> None: ...

        def clock(self) -> dict[str, Any] | None: ...

    # -- what happened ----------------------------------------------------------------------
    def _who(self, pid: str | None) -> str:
        if pid == self.me:
            return you(self.lang)
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
        lang = self.lang
        who = self._who(getattr(message, "playerid", None))
        if isinstance(message, LiciteInfo):
            self._say(f"{who}: {bid_word(message.value, lang)}")
        elif isinstance(message, LiciteResult):
            word = contract_word(message.value, lang)
            self._say(
                says(
                    lang,
                    who,
                    f"wins the licitace at {word} and takes the talon",
                    f"vyhrává licitaci na {accusative(word)} a bere talon",
                    f"vyhráváš licitaci na {accusative(word)} a bereš talon",
                    f"win the auction at {word} and take the talon",
                )
            )
        elif isinstance(message, GameTypeInfo) and message.flek is None:
            trumf = f", trumfy {trumps_words(message.trumf, lang)}" if message.trumf else ""
            game = contract_word(message.licite, lang)
            self._say(
                says(
                    lang,
                    who,
                    f"announces {game}{trumf}",
                    f"hlásí {accusative(game)}{trumf}",
                    f"hlásíš {accusative(game)}{trumf}",
                )
            )
        elif isinstance(message, FlekInfo):
            self._say(f"{who}: {flek_words(message.level, lang)}")
        elif isinstance(message, PlayCardInfo) and message.to == "desk":
            codes = [c.code for c in message.cards if c is not None]
            cards = " ".join(card_name(c) for c in codes)
            cards_acc = " a ".join(card_name(c, lang, "acc") for c in codes)
            self._say(
                says(lang, who, f"plays {cards}", f"hraje {cards_acc}", f"hraješ {cards_acc}")
            )
        elif isinstance(message, PlayCardInfo) and message.to == "talon":
            self._say(
                says(
                    lang,
                    who,
                    "lays two cards into the talon",
                    "odkládá dvě karty do talonu",
                    "odkládáš dvě karty do talonu",
                )
            )
        elif isinstance(message, Round):
            winner = self._who(message.playerid)
            self._say(
                pick(
                    lang,
                    f"trick {message.number} goes to {winner}",
                    f"{message.number}. štych bere {winner}"
                    if winner != you(lang)
                    else f"{message.number}. štych bereš ty",
                )
            )
        elif isinstance(message, Result):
            self._result(message, tracker)
        elif isinstance(message, Renonc):
            culprit = message.player.name or message.player.id
            self._say(
                pick(lang, f"Renonc by {culprit}: ", f"Renonc ({culprit}): ") + message.message
            )
        elif isinstance(message, CancelGame):
            self._say(cancel_words(message.reason, lang))
            if message.reason not in ("renonc", RESIGNED):  # the result follows these
                self.message = cancel_words(message.reason, lang)
        elif isinstance(message, Abort):
            culprit = message.player.name or message.player.id or "?"
            why = end_words(message.message, lang)
            self.message = pick(
                lang, f"The table ended: {culprit} {why}.", f"Stůl skončil: {why} ({culprit})."
            )
            self._say(self.message)
        elif isinstance(message, PauseStart):
            self._say(pick(lang, "Pause: ", "Pauza: ") + (message.message or ""))
        elif isinstance(message, PauseFinish):
            self._say(pick(lang, "The pause is over", "Pauza skončila"))
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
        lang = self.lang
        me = you(lang)
        names = [
            me if p.id == self.me else self._name(seat) for seat, p in enumerate(tracker.players)
        ]
        word = contract_word(result.licite, lang)
        trumps = f", trumfy {trumps_words(result.trumf, lang)}" if result.trumf else ""
        rows = result_rows(b, tracker, result, self.me, me)
        self.result = {
            "deal": self.deals,
            "title": f"{word}{trumps}, {flek_words(result.flek, lang)}",
            "licite": result.licite,
            "rows": [
                {
                    "name": r.name if r.name == me else self._name(r.seat),
                    "role": r.role,
                    "tricks": r.tricks,
                    "points": r.points,
                    "hlasky": r.hlasky,
                    "money": r.money,
                    "total": self.totals.get(tracker.players[r.seat].id or "", 0),
                }
                for r in rows
            ],
            "lines": [{"text": t, "style": s} for t, s in breakdown_lines(b, names, lang)],
            "stand_in": self.deals in self.stand_in_deals,
        }
        mine = result.money().get(self.me, 0)
        total = self.totals.get(self.me, 0)
        self._say(
            pick(
                lang,
                f"Deal {self.deals} over: you {mine:+d}, {total:+d} in all",
                f"Konec {self.deals}. rozdání: ty {mine:+d}, celkem {total:+d}",
            )
        )

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
        roles = seat_roles(view)
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
        lang = self.lang
        out["hand"] = [card_json(c, lang) for c in sort_hand(hand, natural)]
        if t.declarer == t.seat and t.talon:
            out["talon"] = [card_json(c, lang) for c in view.get("talon", []) if c in known]
        trick = view.get("trick", {})
        leader = trick.get("leader")
        out["trick"] = [
            {**card_json(c, lang), "by": self._name((leader + i) % 3) if leader is not None else ""}
            for i, c in enumerate(trick.get("cards", []))
        ]
        out["leader"] = self._name(leader) if leader is not None else None
        tricks = view.get("tricks", [])
        if tricks:
            last = tricks[-1]
            out["last_trick"] = {
                "winner": self._name(last["winner"]),
                "cards": [card_json(c, lang) for c in last["cards"]],
            }
        out["auction"] = [
            {"name": self._name(a["player"]), "licite": bid_word(a["licite"], lang)}
            for a in view.get("auction", [])
        ]
        if contract_code:
            out["contract"] = {
                "licite": contract_code,
                "words": contract_word(contract_code, lang),
                "trumps": trumps_words(view.get("trumf"), lang) if view.get("trumf") else "",
                "flek": flek_words(view.get("flek"), lang),
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
                "name": you(self.lang) if seat == t.seat else self._name(seat),
                "suit": suit,
                "words": pick(self.lang, f"{SUIT_CS[suit]} ({SUIT_WORD[suit]})", SUIT_CS[suit]),
                "points": 40 if suit == trumps else 20,
            }
            for seat, suit in sorted(found)
        ]

    def _decision_json(self, pending: Pending) -> dict[str, Any]:
        d = pending.decision
        lang = self.lang
        if d.kind == "licite":
            if d.asked:
                word = contract_word(d.asked, lang)
                prompt = pick(lang, f"Do you have {word}?", f"Máš {accusative(word)}?")
            else:
                prompt = pick(lang, "Your bid (licitace)", "Tvoje licitace")
        elif d.kind == "discard":
            prompt = pick(lang, "Choose two cards for the talon", "Vyber dvě karty do talonu")
        elif d.kind == "gametype":
            won = contract_word(d.asked or "", lang)
            prompt = pick(
                lang, f"Announce the game (you won {won})", f"Zvol hru (vydražená hra: {won})"
            )
        elif d.kind == "flek":
            prompt = pick(lang, "Flek? (now ", "Flek? (teď ") + f"{flek_words(d.asked, lang)})"
        else:
            prompt = pick(lang, "Your card", "Tvoje karta")
        out: dict[str, Any] = {
            "number": pending.number,
            "kind": d.kind,
            "prompt": prompt,
            "options": [option_json(i, a, lang) for i, a in enumerate(pending.options)],
        }
        if d.kind == "gametype" and d.asked:
            # Why a game must carry more than the person chose, per trump suit ("" = any):
            # after lepší hra a plain hra is in červené, another suit needs a sedma.
            # A contract the rules engine cannot parse (another server's extension) gets no
            # reason: the options still list what may be chosen.
            with contextlib.suppress(ValueError):
                out["outbid"] = {
                    s: outbid_words(d.asked, s, lang) for s in ("", "R", "B", "G", "A")
                }
                out["won"] = d.asked
        return out


__all__ = ["LOG_LINES", "Pending", "SeatView", "bid_word", "card_json", "option_json", "sort_hand"]
