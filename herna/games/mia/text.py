"""A recorded Mia round as readable text (``herna replay ID``): who rolled, what they
announced, who wanted to see and how the round ended.

Built on the rules engine: the logged actions are applied to :class:`MiaRound` again, so the
losers and the reason come from the rules, not from a second reading of them here. With
``public`` the dice nobody saw stay hidden, exactly as the web replay shows them.
"""

from __future__ import annotations

from herna.core.catalogs import say_in
from herna.core.game import CHANCE
from herna.core.lang import N_, pick
from herna.games.mia.round import Announce, DiceRoll, Fault, MiaActionCodec, MiaRound, Roll, See
from herna.hall.records import StoredMatch

REASONS = {
    "SEE_BEFORE_FIRST_ROLL": N_("wanted to see before anyone had rolled"),
    "LIED_ABOUT_MIA": N_("announced Mia without having it"),
    "ANNOUNCED_LOSING_DICE": N_("announced dice no higher than the previous announcement"),
    "DID_NOT_ANNOUNCE": N_("rolled but did not announce in time"),
    "DID_NOT_TAKE_TURN": N_("did not take their turn in time"),
    "INVALID_TURN": N_("sent a move that was not allowed"),
    "SEE_FAILED": N_("wanted to see, but the announcement was true"),
    "CAUGHT_BLUFFING": N_("was caught bluffing"),
    "MIA": N_("Mia beats everyone"),
    "NO_PLAYERS": N_("nobody joined"),
    "ONLY_ONE_PLAYER": N_("only one player joined"),
    "NO_SPECTATOR": N_("no spectator"),
}
"""The seed's loss and cancel reasons in words — the one formatter of Mia results, used by
the history, the replays, ``herna replay`` and the logs (the keywords stay on the wire); in
another language from the catalogs (Czech: a player's name may be anyone's, so a verb takes
both genders, "byl(a) přistižen(a) při blafování"). static/games/mia.js marks the same
messages."""


TABLES = {"round": N_("the bots' table"), "people-round": N_("the people's table")}
"""The Mia tables by their records' prefix (``round-N``, ``people-round-N``) in words (in
another language from the catalogs: "stůl botů")."""


def table_words(prefix: str, lang: str = "en") -> str:
    """``people-round`` -> ``the people's table``; an unknown prefix as it is."""
    return say_in(lang)(TABLES[prefix]) if prefix in TABLES else prefix


def reason_words(reason: object, lang: str = "en") -> str:
    """``CAUGHT_BLUFFING`` -> ``was caught bluffing``; an unknown keyword spaced out."""
    text = str(reason or "")
    if text in REASONS:
        return say_in(lang)(REASONS[text])
    return text.replace("_", " ").lower()


def match_text(match: StoredMatch, public: bool = False, move: int | None = None) -> list[str]:
    order = match.result.get("order") or [p.name for p in match.players]
    if len(order) < 2:
        return [f"Round canceled ({match.result.get('canceled', match.status)})."]
    lines = [f"Order of play: {', '.join(order)}."]
    codec = MiaActionCodec()
    state = MiaRound(tuple(order))
    rolls: list[tuple[int, str]] = []  # (line of the ROLL, the dice that came up)
    for kind, data in match.events:
        if kind != "action":
            if kind not in ("round", "note"):
                lines.append(
                    f"  ({kind.replace('_', ' ')}: {reason_words(data.get('reason', ''))})"
                )
            continue
        action = codec.decode(data["action"])
        actor = state.current_name
        before = state
        try:
            state = state.apply(action)
        except Exception as exc:  # a damaged record: say where it stops
            lines.append(f"  cannot replay {data['action']!r}: {exc}")
            break
        if data.get("player") == CHANCE and isinstance(action, DiceRoll):
            rolls.append((len(lines) - 1, str(action.dice)))
            continue
        if isinstance(action, Roll):
            lines.append(f"{actor} rolls")
        elif isinstance(action, Announce):
            mia = " (Mia!)" if action.dice.is_mia else ""
            lines.append(f"{actor} announces {action.dice}{mia}")
        elif isinstance(action, See):
            last = before.last_announcement
            target = f" {last.name}'s {last.dice}" if last else ""
            lines.append(f"{actor} wants to see{target}")
            if state.actual is not None and state.revealed:
                lines.append(f"  under the cup: {state.actual}")
        elif isinstance(action, Fault):
            lines.append(f"{actor} is faulted: {reason_words(action.reason)}")
        if state.is_terminal():
            losers = ", ".join(state.losers)
            lines.append(f"Result: {losers} lost: {reason_words(state.reason)}.")
    for i, (line, dice) in enumerate(rolls):
        # Only the last roll of a round can become public (by SEE or by announcing Mia).
        seen = not public or (i == len(rolls) - 1 and state.revealed)
        lines[line] += f" and gets {dice}" if seen else " (the dice stay under the cup)"
    if not state.is_terminal() and match.status != "finished":
        why = reason_words(match.result.get("reason"))
        lines.append(f"Round {match.status}: {why}".rstrip(": ") + ".")
    return lines


def summary(match: StoredMatch, lang: str = "en") -> str:
    """The round's result in one line (history lists): ``bob lost: was caught bluffing``
    (``lang="cs"``: ``prohrává bob: byl(a) přistižen(a) při blafování``)."""
    result = match.result
    if match.status != "finished" or result.get("canceled"):
        why = result.get("canceled") or result.get("reason") or match.status
        return f"{pick(lang, 'canceled', 'zrušeno')}: {reason_words(why, lang)}"
    losers = result.get("losers") or [p.name for p in match.players if not p.winner]
    return f"{lost_words(losers, lang)}: {reason_words(result.get('reason'), lang)}"


def lost_words(losers: list[str], lang: str = "en") -> str:
    """``bob lost`` / ``prohrává bob`` (``prohrávají ann, bob``)."""
    if lang == "cs":
        return ("prohrávají " if len(losers) > 1 else "prohrává ") + ", ".join(losers)
    return f"{', '.join(losers)} lost"
