"""A recorded match as the web hall hands it out: its replay steps (never failing), its text
as anyone may read it (hidden information kept hidden) and its JSON export."""

from __future__ import annotations

import logging
from typing import Any

from herna.core.game import CHANCE
from herna.hall.records import StoredMatch
from herna.hall.replays import REPLAYERS, ReplayStep, match_summary, match_text, replay_steps

log = logging.getLogger("herna.web.app")


def redact_log_steps(steps: list[ReplayStep]) -> list[ReplayStep]:
    """Raw-log steps with chance outcomes (deals, dice) hidden: a game without a replayer
    cannot tell us which of them ever became public."""
    out: list[ReplayStep] = []
    for step in steps:
        event = step["view"].get("event")
        if step["label"] == "action" and isinstance(event, dict) and event.get("player") == CHANCE:
            out.append({"label": "chance", "view": {"event": {"player": CHANCE, "hidden": True}}})
        else:
            out.append(step)
    return out


def replay_of(match: StoredMatch, lang: str = "en") -> dict[str, Any]:
    """The replay steps of a recorded match, labelled in ``lang``, never failing: the game's
    replayer if it has a working one, else the raw log with chance outcomes redacted."""
    warning = None
    if match.game in REPLAYERS:
        try:
            steps = replay_steps(match, lang)
            return {"source": "replayer", "warning": None, "steps": steps}
        except Exception as exc:  # a broken record or replayer must not break the page
            log.exception("replay of match %s (%s) failed", match.id, match.game)
            warning = (
                f"the {match.game} replayer failed ({type(exc).__name__}: {exc}); "
                "showing the raw log"
            )
    raw: list[ReplayStep] = [
        {"label": kind, "view": {"event": data}} for kind, data in match.events
    ]
    return {"source": "log", "warning": warning, "steps": redact_log_steps(raw)}


EXPORT_SCHEMA = "herna-match/1"
"""``schema`` of ``/api/matches/<id>/export`` (docs/web.md describes it; a change that breaks
readers gets a new number)."""


def public_text(match: StoredMatch) -> str:
    """The match in words as anyone may read it: Onitama as its game record (notation), the
    others as ``herna replay`` prints them with hidden information kept hidden."""
    if match.game == "onitama":
        from herna.games.onitama.text import game_record

        try:
            return game_record(match)
        except Exception:  # a damaged record still gets the plain text below
            log.exception("onitama record of match %s failed", match.id)
    head = f"{match.game} #{match.id}, {match.finished_at:%Y-%m-%d %H:%M:%S} UTC, {match.status}"
    return "\n".join([head, *readable_lines(match)]) + "\n"


def readable_lines(match: StoredMatch) -> list[str]:
    """``herna replay ID``'s text with hidden information kept hidden (Mia's dice)."""
    if match.game not in REPLAYERS:
        # No text module knows what is hidden in this game: the redacted log labels.
        return [step["label"] for step in replay_of(match)["steps"]]
    try:
        return match_text(match, public=True)
    except Exception as exc:  # a broken record must not break the route
        log.exception("text of match %s (%s) failed", match.id, match.game)
        return [f"cannot describe this match ({type(exc).__name__}: {exc})"]


def match_export(match: StoredMatch) -> dict[str, Any]:
    """A match as one JSON document (schema :data:`EXPORT_SCHEMA`, see docs/web.md)."""
    replay = replay_of(match)
    return {
        "schema": EXPORT_SCHEMA,
        "match": match.to_json(with_events=False),
        "summary": match_summary(match),
        "text": readable_lines(match),
        "notation": public_text(match) if match.game == "onitama" else None,
        "replay": replay,
    }
