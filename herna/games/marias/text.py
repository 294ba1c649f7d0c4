"""A recorded mariáš deal as readable text (``herna replay ID``), in the game's own Czech
words: the deal, the licitace (bidding), the talon, the game type and flek, every trick and
the settlement.

Every function takes ``lang`` (``en``: English with the Czech terms, the default; ``cs``:
Czech, cards in the case the sentence needs).

The deal is rebuilt by applying the logged actions to :class:`MariasState`: tricks, their
winners and the settlement come from the rules engine, never from a second reading of the
rules here. The deal is over, so every hand and the talon are shown.
"""

from __future__ import annotations

from collections.abc import Iterable

from herna.core.game import CHANCE
from herna.games.marias.actions import (
    Answer,
    Bid,
    Claim,
    Deal,
    Discard,
    Flek,
    GameType,
    MariasCodec,
    Play,
    Renonc,
    Resign,
)
from herna.games.marias.cards import CARD_CODES, SUIT_NAMES_CS, Card, cards_of
from herna.games.marias.contracts import Contract, parse_flek
from herna.games.marias.names import card_name, cards_names, pick
from herna.games.marias.replay import rules_from_meta
from herna.games.marias.state import MariasState, Phase, new_game
from herna.games.marias.words import (
    FLEK_CS,
    RANK_CS,
    accusative,
    action_words,
    card_words,
    contract_words,
    end_words,
    ended_words,
    event_words,
    part_words,
    trumps_words,
    verdict_words,
)
from herna.hall.records import StoredMatch


def card_cs(card: Card) -> str:
    """``žaludové eso``, ``červená sedma``: the suit agreeing with the rank."""
    return card_words(CARD_CODES[card])


def hand_cs(cards: Iterable[Card]) -> str:
    """Cards grouped by suit (the suit as a noun), best first:
    ``červené: eso, král · kule: sedma``."""
    groups: dict[int, list[Card]] = {}
    for c in sorted(cards, reverse=True):
        groups.setdefault(c >> 3, []).append(c)
    return " · ".join(
        f"{SUIT_NAMES_CS[s]}: " + ", ".join(RANK_CS[CARD_CODES[c][1:]] for c in cs)
        for s, cs in sorted(groups.items())
    )


def contract_cs(contract: Contract) -> str:
    return contract_words(contract.code)


def _flek_words(levels: tuple[int, ...], parts: tuple[str, ...]) -> str:
    return ", ".join(
        f"{part_words(part)} {FLEK_CS.get(level, f'×{level}')}"
        for part, level in zip(parts, levels, strict=False)
    )


def match_text(
    match: StoredMatch, public: bool = False, move: int | None = None, lang: str = "en"
) -> list[str]:
    names = [p.name for p in sorted(match.players, key=lambda p: p.seat)] or ["0", "1", "2"]

    def who(seat: int) -> str:
        return (
            names[seat] if 0 <= seat < len(names) else pick(lang, f"seat {seat}", f"místo {seat}")
        )

    state = new_game(int(match.meta.get("dealer", 0)), rules_from_meta(match.meta))
    roles = {state.forhont: "forhont", state.middle: "prostřední", state.zadak: "zadák"}
    seats = ", ".join(f"{roles[s]} {who(s)}" for s in (state.forhont, state.middle, state.zadak))
    lines = [
        pick(
            lang,
            f"Rozdává (dealer) {who(state.dealer)}; {seats}.",
            f"Rozdává {who(state.dealer)}; {seats}.",
        )
    ]
    codec = MariasCodec()
    tricks_shown = 0
    for kind, data in match.events:
        if kind != "action":
            if kind in ("timeout", "abort", "disconnect", "note"):
                lines.append(event_words(kind, data, names, lang))
            continue
        action = codec.decode(data["action"])
        seat = state.current_player()
        before = state
        try:
            state = state.apply(action)
        except Exception as exc:  # a damaged record: say where it stops
            lines.append(
                pick(
                    lang,
                    f"Cannot replay {data['action']!r}: {exc}",
                    f"Záznam zde končí, tah {data['action']!r} nejde přehrát: {exc}",
                )
            )
            break
        if seat == CHANCE and isinstance(action, Deal):
            if before.phase == Phase.DEAL and state.phase != Phase.DEAL:
                lines.append(pick(lang, "Rozdání (the deal):", "Rozdání:"))
                for s in (state.forhont, state.middle, state.zadak):
                    lines.append(f"  {who(s)}: {hand_cs(cards_of(state.hands[s]))}")
                lines.append(f"  talon: {hand_cs(state.dealt_talon())}")
                lines.append(pick(lang, "Licitace (bidding):", "Licitace:"))
            continue
        name = who(seat)
        if isinstance(action, Bid):
            if action.contract == Contract.PASS:
                lines.append(f"  {name}: nic" + pick(lang, " (pass)", ""))
            else:
                lines.append(f"  {name}: {contract_cs(action.contract)}?")
        elif isinstance(action, Answer):
            lines.append(f"  {name}: {'mám' if action.yes else 'nemám'}")
        elif isinstance(action, Discard):
            won = contract_cs(before.won_rung)
            talon = cards_names([CARD_CODES[c] for c in before.dealt_talon()], lang)
            laid = cards_names([CARD_CODES[c] for c in action.cards], lang, "acc")
            lines.append(
                pick(
                    lang,
                    f"{name} wins the licitace ({won}), takes the talon ({talon}) and discards "
                    f"{laid}.",
                    f"{name} vyhrává licitaci ({won}), bere talon ({talon}) a odkládá {laid}.",
                )
            )
        elif isinstance(action, GameType):
            trumps = ""
            if action.trumps is not None:
                trumps = f", trumfy {SUIT_NAMES_CS[action.trumps]}"
            if action.second is not None:
                trumps += f", strkací {SUIT_NAMES_CS[action.second]}"
            word = contract_cs(action.contract)
            lines.append(
                pick(
                    lang,
                    f"{name} (aktér) plays {word}{trumps}.",
                    f"{name} (aktér) hraje {accusative(word)}{trumps}.",
                )
            )
        elif isinstance(action, Flek):
            parts = tuple(p.label for p in state.contract.parts)
            if action.levels == before.seat_flek_levels(seat):
                lines.append(f"  {name}: dobrý" + pick(lang, " (no flek)", " (bez fleku)"))
            else:
                lines.append(f"  {name}: {_flek_words(action.levels, parts)}")
        elif isinstance(action, Play | Claim):
            if isinstance(action, Claim):
                laid = hand_cs(action.cards)
                lines.append(
                    pick(
                        lang,
                        f"{name} lays the cards down (ložená): {laid}",
                        f"{name} pokládá karty (ložená hra): {laid}",
                    )
                )
            for trick in state.tricks[tricks_shown:]:
                played = ", ".join(
                    f"{who(trick.player_of(c))} {card_name(CARD_CODES[c])}" for c in trick.cards
                )
                lines.append(f"Štych {trick.number}: {played} → {who(trick.winner)}")
            tricks_shown = len(state.tricks)
        elif isinstance(action, Renonc):
            reason = state.renonc.reason if state.renonc else ""
            lines.append(f"{name}: renonc ({action_words(action.action, lang=lang)}: {reason})")
        elif isinstance(action, Resign):
            lines.append(
                pick(
                    lang,
                    f"{name} (aktér) gives up the game (vzdává): every part is lost.",
                    f"{name} (aktér) vzdává hru: všechny části jsou prohrané.",
                )
            )
        if before.phase != Phase.PLAY and state.phase == Phase.PLAY:
            parts = tuple(p.label for p in state.contract.parts)
            lines.append(
                pick(lang, "Hraje se (play): ", "Hraje se: ")
                + f"{_flek_words(state.flek_levels, parts)}."
            )
    if state.is_terminal():
        lines += _settlement_lines(state, who, lang)
    else:
        reason = match.result.get("reason") or match.result.get("abort") or match.status
        why = end_words(reason, lang)
        lines.append(
            pick(lang, f"The deal was not finished: {why}.", f"Rozdání nebylo dohráno: {why}.")
        )
    return lines


def _settlement_lines(state: MariasState, who: object, lang: str = "en") -> list[str]:
    assert callable(who)
    s = state.settlement()
    out = [pick(lang, "Vyúčtování (settlement):", "Vyúčtování:")]
    if s.renonc is not None:
        out.append(f"  renonc{pick(lang, ' by ', ': ')}{who(s.renonc.player)}: {s.renonc.reason}")
    elif s.conceded:
        out.append(
            pick(
                lang,
                f"  the aktér {who(s.declarer)} gave up (vzdal): every part lost",
                f"  aktér {who(s.declarer)} hru vzdal: všechny části prohrává",
            )
        )
    else:
        points = f"  aktér {who(s.declarer)} {s.declarer_points} {pick(lang, 'points', 'bodů')}"
        if s.declarer_marriages:
            points += f" + hlášky {'+'.join(str(m) for m in s.declarer_marriages)}"
        points += f", obrana {s.defender_points}"
        if s.defender_marriages:
            points += f" + hlášky {'+'.join(str(m) for m in s.defender_marriages)}"
        out.append(points)
    for part in s.parts:
        verdict = (
            pick(lang, "aktér wins", "aktér vyhrává")
            if part.won
            else pick(lang, "aktér loses", "aktér prohrává")
        )
        note = f" ({part.note})" if part.note else ""
        out.append(f"  {part_words(part.name)}: {verdict}{note}")
    out.append(
        pick(lang, "  money: ", "  peníze: ")
        + ", ".join(f"{who(i)} {m:+d}" for i, m in enumerate(s.money))
        + (pick(lang, " (capped)", " (omezeno limitem)") if s.capped else "")
    )
    return out


def summary(match: StoredMatch, lang: str = "en") -> str:
    """``alice played lepší dvě sedmy: lost dvě sedmy; alice -480, bob +160, carol +320``; in
    Czech ``aktér alice, lepší dvě sedmy: aktér prohrál dvě sedmy; …`` (a past-tense verb
    after the name would need the player's gender; "aktér" is the role's word)."""
    details = match.result.get("details")
    # Servers store the engine's outcome: the settlement is its details.
    r = details if isinstance(details, dict) and "licite" in details else match.result
    names = [p.name for p in sorted(match.players, key=lambda p: p.seat)]
    if match.status != "finished" or "licite" not in r:
        return ended_words(r, match.status, lang)
    try:
        contract = contract_cs(Contract.parse(str(r["licite"])))
    except ValueError:
        contract = str(r["licite"])
    declarer = int(r.get("declarer", -1))
    who = names[declarer] if 0 <= declarer < len(names) else "?"
    parts = r.get("parts") or []
    won = [part_words(p["name"]) for p in parts if p.get("won")]
    lost = [part_words(p["name"]) for p in parts if not p.get("won")]
    verdict = verdict_words(won, lost, lang)
    if r.get("renonc"):
        culprit = names[int(r["renonc"]["player"])]
        verdict = pick(lang, f"renonc by {culprit}", f"renonc: {culprit}")
    elif r.get("conceded"):
        verdict = pick(lang, "gave up (vzdal), every part lost", "aktér hru vzdal, prohrává vše")
    money = ", ".join(f"{n} {int(m):+d}" for n, m in zip(names, r.get("money") or [], strict=False))
    if lang == "cs":
        return f"aktér {who}, {contract}: {verdict}; {money}"
    return f"{who} played {contract}: {verdict}; {money}"


def result_lines(match: StoredMatch, lang: str = "en") -> list[str]:
    """The stored result of a deal in words, a line each: the game and its aktér, trumps,
    fleks, points, every part and the money per player (the match page's "result")."""
    details = match.result.get("details")
    r = details if isinstance(details, dict) and "licite" in details else match.result
    names = [p.name for p in sorted(match.players, key=lambda p: p.seat)]
    if "licite" not in r:
        return [summary(match, lang)]
    try:
        contract = Contract.parse(str(r["licite"]))
    except ValueError:
        return [summary(match, lang)]
    declarer = int(r.get("declarer", -1))
    who = names[declarer] if 0 <= declarer < len(names) else "the aktér"
    lines = [
        pick(
            lang,
            f"Game: {who} played {contract_cs(contract)}",
            f"Hra: {contract_cs(contract)}, aktér {who}",
        )
    ]
    trumps = trumps_words(r.get("trumf"))
    if lang == "cs":
        lines.append(f"Trumfy: {trumps.removeprefix('trumfy ')}" if trumps else "Bez trumfů")
    else:
        lines.append(f"Trumps: {trumps}" if trumps else "Trumps: none (a game without trumps)")
    part_names = tuple(p.label for p in contract.parts)
    try:
        levels = parse_flek(str(r.get("flek") or "1"), len(part_names))
        lines.append(f"Flek: {_flek_words(levels, part_names)}")
    except ValueError:
        pass
    if "declarer_points" in r and "defender_points" in r:
        a = _side_points(int(r["declarer_points"]), r.get("declarer_marriages"))
        d = _side_points(int(r["defender_points"]), r.get("defender_marriages"))
        lines.append(
            pick(
                lang,
                f"Points (body: tens, aces and the last trick): {who} {a}, the defenders {d}",
                f"Body: aktér {who} {a}, obrana {d}",
            )
        )
    if r.get("renonc"):
        player = int(r["renonc"].get("player", -1))
        culprit = names[player] if 0 <= player < len(names) else "?"
        lines.append(pick(lang, f"Renonc by {culprit}", f"Renonc: {culprit}"))
    elif r.get("conceded"):
        lines.append(
            pick(
                lang,
                f"{who} gave up (vzdal): every part lost",
                f"Aktér {who} hru vzdal: všechny části prohrává",
            )
        )
    for part in r.get("parts") or []:
        money = ", ".join(
            f"{n} {int(m):+d}" for n, m in zip(names, part.get("money") or [], strict=False)
        )
        won = part.get("won")
        verdict = pick(lang, "won", "aktér vyhrál") if won else pick(lang, "lost", "aktér prohrál")
        lines.append(f"{part_words(str(part.get('name', '')))}: {verdict}; {money}".rstrip("; "))
    money = ", ".join(f"{n} {int(m):+d}" for n, m in zip(names, r.get("money") or [], strict=False))
    if money:
        lines.append(pick(lang, f"Money: {money}", f"Peníze: {money}"))
    return lines


def _side_points(points: int, marriages: Iterable[int] | None) -> str:
    """``60 + hlášky 20 = 80`` or ``40`` (the points a side took, and its hlášky)."""
    added = [int(m) for m in marriages or ()]
    if not added:
        return str(points)
    return f"{points} + hlášky {' + '.join(map(str, added))} = {points + sum(added)}"
