"""The review of a recorded mariáš deal: where the money went, card by card, and whether the
contract was sound.

A pure function of the record (:func:`review_deal`: the record's ``meta``, players and event
log, replayed by the engine as :mod:`.replay` does); the hall runs it in a worker process and
stores the result (:mod:`herna.hall.reviews`), so it never runs on a game server's loop and
each deal is reviewed once.

**The value of a position** is the aktér's money (tariff units, from both defenders together,
fleks included, as the settlement pays it) when from there on everybody plays perfectly with
all cards open (double dummy): :class:`~herna.games.marias.bots.solver.EndgameSolver`, the
search bot's own solver, on the engine's state. Money, not points, because money is what the
contract's parts pay (a point more can be worth nothing, or make a sto). The aktér plays to
raise it, the defenders to lower it.

**What a card cost** its side is the value before it (the best card's) minus the value after
it, from the side of the one who played it: 0 for a card as good as the best, more for one
that gave money away. A card that cost money is marked, with the cards that would have kept
it (one card per run of touching cards that score alike: they are worth the same).

**Bounds.** Each position may take ``max_nodes`` nodes of search and the whole play
``max_seconds``; positions are solved from the last card back (the later ones fill the
solver's memo for the earlier), and one that does not fit is *cut off* (said so, never
guessed).

**The auction and the fleks**: the strongest house bot (the search bot at level
``strongest``) weighs the aktér's decisions with his cards, over ``samples`` sampled deals of
the cards he could not see, playing each out with the house bots' own play (what the bot
believes, not perfect play): its bid with the ten cards before the talon, its discard and
announcement with the twelve after it (with the contract the aktér chose weighed on the same
deals), and each defender's first flek decision.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from herna.core.lang import pick
from herna.games.marias.actions import (
    Action,
    Answer,
    Bid,
    Claim,
    Discard,
    Flek,
    GameType,
    MariasCodec,
    Play,
    Renonc,
    Resign,
)
from herna.games.marias.bots import make_bot
from herna.games.marias.bots.search_bot import SearchBot, Weighing
from herna.games.marias.bots.solver import EndgameSolver, Unsolved
from herna.games.marias.cards import CARD_CODES, card_words, cards_of
from herna.games.marias.contracts import Contract
from herna.games.marias.names import card_name
from herna.games.marias.replay import rules_from_meta
from herna.games.marias.state import MariasState, Phase, new_game
from herna.games.marias.words import (
    accusative,
    action_words,
    cards_words,
    contract_words,
    settlement_words,
    trumps_words,
)

VERSION = 2
"""Bumped when the method or the stored words change, so a stored review of an older method
can be told apart (2: the words a person reads are stored in Czech too, as ``<key>_cs``)."""

MAX_NODES = 100_000
"""Default search nodes per position (about 7 s at worst in CPython)."""
MAX_SECONDS = 20.0
"""Default seconds for solving the whole play; earlier positions are cut off past it."""
SAMPLES = 24
"""Default sampled deals of the unseen cards per auction or flek decision (the strongest
house bot's own number for a bid)."""

AKTER = "aktér (declarer)"
OBRANA = "obrana (defenders)"


@dataclass(frozen=True)
class Settings:
    max_nodes: int = MAX_NODES
    max_seconds: float = MAX_SECONDS
    samples: int = SAMPLES

    def to_json(self) -> dict[str, Any]:
        return {
            "max_nodes": self.max_nodes,
            "max_seconds": self.max_seconds,
            "samples": self.samples,
        }


def money_words(units: float) -> str:
    """``+4``, ``−12``, ``0`` (tariff units; a mean to one decimal)."""
    if isinstance(units, float) and not units.is_integer():
        text = f"{abs(units):.1f}"
    else:
        text = f"{abs(round(units))}"
    if text in ("0", "0.0"):
        return "0"
    return ("+" if units > 0 else "−") + text


# -- the record --------------------------------------------------------------------------------


@dataclass
class _Position:
    state: MariasState
    seat: int
    card: int


@dataclass
class _Deal:
    end: MariasState
    positions: list[_Position]
    decisions: list[tuple[MariasState, int, Action]]
    """(state before, seat, action) of every auction, discard, announcement and flek."""
    stopped: tuple[str, str]
    """Why the cards were not all played, in English and Czech ("" when they were)."""


def _replay(meta: Mapping[str, Any], events: Iterable[tuple[str, Mapping[str, Any]]]) -> _Deal:
    state = new_game(int(meta.get("dealer", 0)), rules_from_meta(dict(meta)))
    codec = MariasCodec()
    positions: list[_Position] = []
    decisions: list[tuple[MariasState, int, Action]] = []
    stopped = ("", "")
    for kind, data in events:
        if kind != "action":
            continue
        action = codec.decode(data["action"])
        seat = state.current
        if isinstance(action, Play) and state.phase == Phase.PLAY:
            positions.append(_Position(state.clone(), seat, action.card))
        elif isinstance(action, Bid | Answer | Discard | GameType | Flek):
            decisions.append((state.clone(), seat, action))
        elif isinstance(action, Claim):
            stopped = (
                "the rest was laid down (ložená hra) and is not judged",
                "zbytek byl položen (ložená hra) a neposuzuje se",
            )
        elif isinstance(action, Renonc | Resign):
            stopped = (
                "the deal ended early: " + action_words(action),
                "rozdání skončilo předčasně: " + action_words(action, lang="cs"),
            )
        try:
            state = state.apply(action)
        except Exception as exc:  # a damaged record: review what came before
            stopped = (f"the record stops here: {exc}", f"záznam tu končí: {exc}")
            break
        if stopped[0]:
            break
    if not stopped[0] and state.phase != Phase.DONE and positions:
        stopped = ("the deal was not played to the end", "rozdání nebylo dohráno")
    return _Deal(state, positions, decisions, stopped)


def _names(players: Sequence[Any], meta: Mapping[str, Any]) -> list[str]:
    names = ["", "", ""]
    for p in players:
        if 0 <= p.seat < 3:
            names[p.seat] = p.name
    for i, n in enumerate(meta.get("players", []) or []):
        if i < 3 and not names[i]:
            names[i] = str(n)
    return [n or f"seat {i + 1}" for i, n in enumerate(names)]


def _stand_ins(meta: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """The seats a house bot stood in for during the deal (the CGML server's ``stand_in``:
    member ids, seated in the order of ``ids``)."""
    ids = list(meta.get("ids") or [])
    out = []
    for member in meta.get("stand_in") or []:
        if member in ids and ids.index(member) < len(names):
            out.append(names[ids.index(member)])
        else:
            out.append(str(member))
    return out


# -- the play ----------------------------------------------------------------------------------


def _judge_play(deal: _Deal, names: Sequence[str], settings: Settings) -> list[dict[str, Any]]:
    """One entry per card played, in play order."""
    memo: dict[tuple[int, ...], tuple[int, int]] = {}
    started = time.perf_counter()
    entries: list[dict[str, Any]] = [{} for _ in deal.positions]
    for i in range(len(deal.positions) - 1, -1, -1):
        pos = deal.positions[i]
        state = pos.state
        is_akter = pos.seat == state.declarer
        legal = cards_of(state.legal_play_mask())
        entry: dict[str, Any] = {
            "trick": len(state.tricks) + 1,
            "seat": pos.seat,
            "name": names[pos.seat],
            "side": "aktér" if is_akter else "obrana",
            "card": CARD_CODES[pos.card],
            "card_words": card_words(CARD_CODES[pos.card]),
            "card_words_cs": card_name(CARD_CODES[pos.card], "cs"),
            "legal": len(legal),
        }
        entries[i] = entry
        if len(legal) == 1:
            entry["verdict"] = "forced"
            continue
        if time.perf_counter() - started > settings.max_seconds:
            entry["verdict"] = "cut off"
            continue
        solver = EndgameSolver(state, settings.max_nodes, memo)
        cards = solver.moves(pos.seat, state.trick)
        if pos.card not in cards:
            cards.append(pos.card)
        try:
            values = solver.values(cards)
        except Unsolved:
            entry["verdict"] = "cut off"
            continue
        best = max(values.values()) if is_akter else min(values.values())
        after = values[pos.card]
        cost = (best - after) if is_akter else (after - best)
        entry.update(value_before=best, value_after=after, cost=cost, nodes=solver.nodes)
        entry["verdict"] = "costly" if cost > 0 else "best"
        if cost > 0:
            keep = [c for c in cards if values[c] == best]
            entry["better"] = [CARD_CODES[c] for c in keep]
            entry["better_words"] = cards_words([CARD_CODES[c] for c in keep])
            entry["better_words_cs"] = cards_words([CARD_CODES[c] for c in keep], "cs")
    return entries


# -- the auction and the fleks -----------------------------------------------------------------


def _option_words(action: Action, level: object, parts: Sequence[str], lang: str = "en") -> str:
    """A choice of the licitace, the talon or the flek as the review's table says it: ``bid
    sedma, and go on up to kilo``; in Czech an infinitive, ``licitovat sedmu a jít až na
    kilo``, ``odložit do talonu červenou sedmu a zelené eso, pak hlásit betl``."""

    def acc(code: str) -> str:
        return accusative(contract_words(code))

    match action:
        case Bid(contract) if contract == Contract.PASS:
            return pick(lang, "pass (nic)", "nic (pas)")
        case Bid(contract):
            out = pick(
                lang, f"bid {contract_words(contract.code)}", f"licitovat {acc(contract.code)}"
            )
            if isinstance(level, Contract) and level > contract:
                out += pick(
                    lang,
                    f", and go on up to {contract_words(level.code)}",
                    f" a jít až na {acc(level.code)}",
                )
            return out
        case Answer(yes) if yes:
            if not isinstance(level, Contract):
                return pick(lang, "mám (hold)", "„mám“")
            return pick(
                lang,
                f"mám (hold) up to {contract_words(level.code)}",
                f"„mám“ (a držet až na {acc(level.code)})",
            )
        case Answer():
            return pick(lang, "nemám (drop out)", "„nemám“ (končit v licitaci)")
        case Discard(cards):
            codes = [CARD_CODES[c] for c in cards]
            out = pick(
                lang,
                "lay away " + cards_words(codes),
                "odložit do talonu " + " a ".join(card_name(c, "cs", "acc") for c in codes),
            )
            if isinstance(level, GameType):
                said = action_words(level, lang=lang)
                out += pick(
                    lang,
                    ", then " + said.replace("announces", "announce", 1),
                    ", pak " + said.replace("hlásí", "hlásit", 1),
                )
            return out
        case Flek(levels) if max(levels) == 1:
            return pick(lang, "no flek (bez fleku)", "bez fleku")
    return action_words(action, parts, lang)


def _weigh(
    bot: SearchBot,
    state: MariasState,
    seat: int,
    played: Action,
    rng: random.Random,
    meant: Contract | GameType | None = None,
) -> dict[str, Any]:
    """The bot's weighing of one decision, the one played weighed too on the same deals:
    ``meant`` is what it stood for (the level a bid went up to, the contract a discard was
    for)."""
    parts = tuple(p.label for p in state.contract.parts) if state.phase == Phase.FLEK else ()
    weighing: Weighing = bot.weigh(state.view(seat), state.legal_actions(), rng, [(played, meant)])
    options = []
    marked = False
    for i, (action, level) in enumerate(zip(weighing.actions, weighing.levels, strict=True)):
        mine = not marked and action == played and (meant is None or level == meant)
        marked = marked or mine
        options.append(
            {
                "words": _option_words(action, level, parts),
                "words_cs": _option_words(action, level, parts, "cs"),
                "mean": round(weighing.means[i], 2),
                "bot": i == weighing.chosen,
                "played": mine,
            }
        )
    return {
        "seat": seat,
        "played_words": _option_words(played, meant, parts),
        "played_words_cs": _option_words(played, meant, parts, "cs"),
        "bot_words": options[weighing.chosen]["words"] if options else "",
        "bot_words_cs": options[weighing.chosen]["words_cs"] if options else "",
        "samples": weighing.worlds,
        "options": options,
    }


def _auction(
    deal: _Deal, names: Sequence[str], settings: Settings, seed: int
) -> dict[str, Any] | None:
    end = deal.end
    akter = end.declarer
    if akter < 0:
        return None
    bot = make_bot("strongest", iterations=max(1, settings.samples // 2))
    assert isinstance(bot, SearchBot)
    rng = random.Random(seed)
    out: dict[str, Any] = {"seat": akter, "name": names[akter]}
    first = next(
        ((s, a) for s, seat, a in deal.decisions if seat == akter and s.phase == Phase.AUCTION),
        None,
    )
    if first is None:
        out["no_bid"] = (
            f"{names[akter]} made no bid: nobody bid, and the forhont plays "
            f"{contract_words(Contract.G.code)} without one"
        )
        out["no_bid_cs"] = (
            f"{names[akter]} nelicitoval(a): nikdo nelicitoval a forhont hraje "
            f"{accusative(contract_words(Contract.G.code))} bez licitace"
        )
    else:
        out["bid"] = _weigh(bot, first[0], akter, first[1], rng, end.won_rung)
        out["bid"]["hand"] = cards_words([CARD_CODES[c] for c in sorted(cards_of(
            first[0].hands[akter]))])  # fmt: skip
        out["bid"]["hand_cs"] = cards_words([CARD_CODES[c] for c in sorted(cards_of(
            first[0].hands[akter]))], "cs")  # fmt: skip
    discard = next(((s, a) for s, _seat, a in deal.decisions if isinstance(a, Discard)), None)
    announced = next((a for _s, _seat, a in deal.decisions if isinstance(a, GameType)), None)
    if discard is not None and announced is not None:
        state, action = discard
        out["announce"] = _weigh(bot, state, akter, action, rng, announced)
        played = [o for o in out["announce"]["options"] if o["played"]]
        best = out["announce"]["options"][
            next(i for i, o in enumerate(out["announce"]["options"]) if o["bot"])
        ]
        if played:
            mean = played[-1]["mean"]
            out["announce"]["expected"] = mean
            sound = _soundness(mean, best["mean"], played[-1] is best)
            out["announce"]["sound"], out["announce"]["sound_cs"] = sound
    defence = []
    for d in ((akter + 1) % 3, (akter + 2) % 3):
        ask = next(
            ((s, a) for s, seat, a in deal.decisions if seat == d and isinstance(a, Flek)), None
        )
        if ask is None:
            defence.append({"seat": d, "name": names[d], "asked": False})
            continue
        entry = _weigh(bot, ask[0], d, ask[1], rng)
        entry.update(name=names[d], asked=True)
        defence.append(entry)
    out["defence"] = defence
    return out


def _soundness(mean: float, best: float, is_best: bool) -> tuple[str, str]:
    """Whether the contract played was sound, in English and Czech."""
    if mean < 0:
        lose = money_words(-mean)[1:]
        return (
            f"unsound: the house bot expects it to lose {lose} on average",
            f"nevýhodná: bot herny čeká, že v průměru prohraje {lose}",
        )
    if is_best or mean >= best - 1:
        return (
            "sound: the house bot would play it too, or something as good",
            "rozumná: bot herny by ji hrál také, nebo něco stejně dobrého",
        )
    return (
        "sound, but the house bot expects more from its own choice",
        "rozumná, ale bot herny čeká víc od své vlastní volby",
    )


# -- the review --------------------------------------------------------------------------------


def review_deal(
    meta: Mapping[str, Any],
    events: Iterable[tuple[str, Mapping[str, Any]]],
    players: Sequence[Any] = (),
    seed: int | None = None,
    settings: Settings | None = None,
) -> dict[str, Any]:
    """The review as JSON-ready data: ``tricks`` (each card with its seat, side, the value
    before and after it and what it cost, the better cards where it cost money), the
    ``auction`` advice, who was a ``stand_in``, the ``settings`` and what was ``cut_off``."""
    settings = settings or Settings()
    started = time.perf_counter()
    deal = _replay(meta, list(events))
    names = _names(players, meta)
    end = deal.end
    out: dict[str, Any] = {
        "version": VERSION,
        "unit": "the aktér's money in tariff units (from both defenders together, fleks "
        "included), everybody playing perfectly with all cards open",
        "names": names,
        "stand_in": _stand_ins(meta, names),
        "settings": settings.to_json(),
        "stopped": deal.stopped[0],
        "stopped_cs": deal.stopped[1],
    }
    if end.declarer >= 0 and end.phase in (Phase.PLAY, Phase.DONE):
        out["akter"] = end.declarer
        out["contract"] = end.contract.code
        out["contract_words"] = contract_words(end.contract.code)
        out["trumps_words"] = trumps_words(end.trumps_text())
    if end.phase == Phase.DONE:
        s = end.settlement()
        out["result_words"] = settlement_words(s, names)
        out["result_words_cs"] = settlement_words(s, names, "cs")
        out["money"] = list(s.money)
    cards = _judge_play(deal, names, settings)
    tricks: list[dict[str, Any]] = []
    for entry in cards:
        number = entry["trick"]
        if not tricks or tricks[-1]["number"] != number:
            tricks.append({"number": number, "cards": []})
        tricks[-1]["cards"].append(entry)
        if number <= len(end.tricks):
            tricks[-1]["winner"] = names[end.tricks[number - 1].winner]
    out["tricks"] = tricks
    judged = [c for c in cards if "value_before" in c]
    out["start_value"] = judged[0]["value_before"] if judged and cards[0] is judged[0] else None
    out["costly"] = sum(c["verdict"] == "costly" for c in cards)
    out["cut_off"] = sum(c["verdict"] == "cut off" for c in cards)
    out["auction"] = _auction(deal, names, settings, seed if seed is not None else 0)
    out["seconds"] = round(time.perf_counter() - started, 2)
    return out


def review_match(match: Any, settings: Settings | None = None) -> dict[str, Any]:
    """:func:`review_deal` of a stored match (``meta``, ``events``, ``players``, ``seed``)."""
    return review_deal(match.meta, match.events, match.players, match.seed, settings)


# -- as text -----------------------------------------------------------------------------------


def review_lines(review: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    """The review as text for ``herna replay ID --review`` (the names are the review's own)."""
    lines = ["Deal review (where the money went):"]
    for who in review.get("stand_in", []):
        lines.append(
            f"  A house bot stood in for {who} during this deal: not every decision of that "
            "seat was theirs."
        )
    if "akter" in review:
        akter = review["names"][review["akter"]]
        contract = review["contract_words"] + (
            f", {review['trumps_words']}" if review["trumps_words"] else ""
        )
        lines.append(f"  {AKTER}: {akter}, {contract}")
    if "result_words" in review:
        lines.append(f"  result: {review['result_words']}")
    lines.append(
        f"  value = {review['unit']}; a card's cost = the value before it minus the value "
        "after it, for the side that played it."
    )
    if review.get("start_value") is not None:
        lines.append(f"  value at the first card: {money_words(review['start_value'])}")
    for trick in review["tricks"]:
        lines.append(f"  trick {trick['number']}" + (
            f" (taken by {trick['winner']})" if "winner" in trick else ""))  # fmt: skip
        for c in trick["cards"]:
            text = f"    {c['name']} ({c['side']}): {c['card_words']:<18}"
            if c["verdict"] == "forced":
                text += " the only card"
            elif c["verdict"] == "cut off":
                text += " not solved (cut off by the search budget)"
            else:
                text += f" {money_words(c['value_before'])} → {money_words(c['value_after'])}"
                if c["verdict"] == "costly":
                    text += (
                        f"  COST {c['cost']}: {c['better_words']} would have kept "
                        f"{money_words(c['value_before'])}"
                    )
            lines.append(text)
    if review.get("stopped"):
        lines.append(f"  ({review['stopped']})")
    lines.append(
        f"  {review['costly']} card(s) cost money; {review['cut_off']} position(s) cut off."
    )
    auction = review.get("auction")
    if auction:
        lines += auction_lines(auction)
    s = review["settings"]
    lines.append(
        f"(double-dummy solver, at most {s['max_nodes']} nodes per position and "
        f"{s['max_seconds']:g} s for the play; strongest house bot over {s['samples']} sampled "
        f"deals per decision; took {review['seconds']} s)"
    )
    return lines


def auction_lines(auction: Mapping[str, Any]) -> list[str]:
    lines = [
        f"Licitace (auction) advice for {auction['name']}, the {AKTER}: the strongest house "
        "bot's mean money over sampled deals of the cards not seen (its own play, not perfect "
        "play):"
    ]
    if "no_bid" in auction:
        lines.append(f"  {auction['no_bid']}.")
    for key, title in (("bid", "bidding, with the ten cards before the talon"),
                       ("announce", "talon and announcement, with the twelve cards")):  # fmt: skip
        part = auction.get(key)
        if not part:
            continue
        lines.append(f"  {title} ({part['samples']} sampled deals):")
        if "hand" in part:
            lines.append(f"    hand: {part['hand']}")
        lines += _option_lines(part)
        if "sound" in part:
            lines.append(f"    the contract played: {part['sound']}")
    for d in auction.get("defence", []):
        if not d["asked"]:
            lines.append(f"  {d['name']} ({OBRANA}) was not asked to flek.")
            continue
        lines.append(f"  flek, {d['name']} ({OBRANA}), {d['samples']} sampled deals:")
        lines += _option_lines(d)
    return lines


def _option_lines(part: Mapping[str, Any]) -> list[str]:
    out = []
    for o in part["options"]:
        marks = ", ".join(m for m, on in (("house bot", o["bot"]), ("played", o["played"])) if on)
        out.append(
            f"    {o['words']}: {money_words(o['mean'])}" + (f"   ← {marks}" if marks else "")
        )
    if not any(o["played"] for o in part["options"]):
        out.append(f"    (played: {part['played_words']})")
    return out


__all__ = [
    "MAX_NODES",
    "MAX_SECONDS",
    "SAMPLES",
    "VERSION",
    "Settings",
    "auction_lines",
    "money_words",
    "review_deal",
    "review_lines",
    "review_match",
]
