"""Replays of recorded games, for the web hall's stepper and `herna replay`.

Each game provides ``replay_steps(match: StoredMatch) -> list[ReplayStep]`` that rebuilds the
game from its record (seed + action log) and returns the spectator view after every step.
Adding a game is one line in :data:`REPLAYERS`.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from typing import Any, TypedDict

from herna.core.lang import pick
from herna.hall.records import StoredMatch


class ReplayStep(TypedDict):
    label: str
    """What happened in this step, for people ("alice announced 6,2")."""
    view: dict[str, Any]
    """Spectator view after the step: the same shape the live events carry in ``view``."""


REPLAYERS: dict[str, str] = {
    "mia": "herna.games.mia.replay:replay_steps",
    "onitama": "herna.games.onitama.replay:replay_steps",
    "marias": "herna.games.marias.replay:replay_steps",
    "tiles": "herna.games.tiles.replay:replay_steps",
}


def replayer(game: str) -> Callable[[StoredMatch], list[ReplayStep]] | None:
    path = REPLAYERS.get(game)
    if path is None:
        return None
    module, _, attr = path.partition(":")
    fn: Callable[[StoredMatch], list[ReplayStep]] = getattr(importlib.import_module(module), attr)
    return fn


def replay_steps(match: StoredMatch, lang: str = "en") -> list[ReplayStep]:
    """The steps of a recorded game, labelled in ``lang`` (``en`` or ``cs``) by a replayer
    that takes it; a game with no replayer gets its raw event log."""
    fn = replayer(match.game)
    if fn is not None:
        return fn(match, **_in_language(fn, lang))
    return [{"label": kind, "view": {"event": data}} for kind, data in match.events]


TEXTS: dict[str, str] = {
    "mia": "herna.games.mia.text:match_text",
    "onitama": "herna.games.onitama.text:match_text",
    "marias": "herna.games.marias.text:match_text",
    "tiles": "herna.games.tiles.text:match_text",
}
"""Each game's readable text of a recorded match, for ``herna replay ID``:
``match_text(match, public=False, move=None) -> list[str]``. ``public`` hides what spectators
never saw (Mia's unrevealed dice); ``move`` shows the board after that move where a game
draws one (Onitama, tiles). A text module whose functions take ``lang`` (mariáš: ``en`` or
``cs``) is told the language asked for; the others speak English. The replayers and the
text modules' ``summary`` and ``result_lines`` are told it the same way."""


def _in_language(fn: Callable[..., Any], lang: str) -> dict[str, str]:
    """``{"lang": lang}`` for a function that takes it, else nothing (English)."""
    return {"lang": lang} if "lang" in inspect.signature(fn).parameters else {}


def match_text(
    match: StoredMatch, public: bool = False, move: int | None = None, lang: str = "en"
) -> list[str]:
    """The match in words; a game without a text module gets its replay labels."""
    path = TEXTS.get(match.game)
    if path is None:
        return [step["label"] for step in replay_steps(match)]
    module, _, attr = path.partition(":")
    fn: Callable[..., list[str]] = getattr(importlib.import_module(module), attr)
    return fn(match, public=public, move=move, **_in_language(fn, lang))


def match_summary(match: StoredMatch, lang: str = "en") -> str:
    """The result in one line of words, from the stored result alone (no replay: history
    pages list many matches)."""
    path = TEXTS.get(match.game)
    if path is not None:
        module = importlib.import_module(path.partition(":")[0])
        fn: Callable[..., str] | None = getattr(module, "summary", None)
        if fn is not None:
            try:
                return fn(match, **_in_language(fn, lang))
            except (KeyError, ValueError, TypeError, IndexError):  # an odd stored result
                pass
    winners = [p.name for p in match.players if p.winner]
    reason = str(match.result.get("reason", "")) if isinstance(match.result, dict) else ""
    why = f" ({reason})" if reason else ""
    if winners:
        return pick(lang, f"{', '.join(winners)} won", f"{', '.join(winners)} vyhrává") + why
    return pick(lang, match.status, _STATUS_CS.get(match.status, match.status)) + why


_STATUS_CS = {"finished": "dohráno", "aborted": "přerušeno", "canceled": "zrušeno"}
"""A record's status in Czech (:func:`match_summary` of a game without words of its own)."""


def result_lines(match: StoredMatch, lang: str = "en") -> list[str]:
    """The stored result in words, a line each, for the match page: a game's text module may
    say it in detail (``result_lines``); otherwise its one-line summary."""
    path = TEXTS.get(match.game)
    if path is not None:
        module = importlib.import_module(path.partition(":")[0])
        fn: Callable[..., list[str]] | None = getattr(module, "result_lines", None)
        if fn is not None:
            try:
                return fn(match, **_in_language(fn, lang))
            except (KeyError, ValueError, TypeError, IndexError, AttributeError):
                pass
    return [match_summary(match, lang)]
