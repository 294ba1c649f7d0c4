"""The shapes of the web hall's JSON API, declared once as pydantic models.

:mod:`herna.web.openapi` turns them into the ``components/schemas`` of ``/openapi.json``
(pydantic writes the JSON Schema) and :mod:`herna.web.api_operations` names the one each
route answers with. The handlers still build their bodies as plain dicts (their bytes stay
as they are); tests/web/test_openapi_schemas.py calls every route and validates each body
against the schema generated here, so a model that no longer says what a route sends fails
there.

Every model forbids fields it does not declare (``additionalProperties: false``): a new field
in an answer is a test failure until it is declared. The parts that are free-form on purpose
(a game's own view, result and meta objects, a service's snapshot) are ``dict[str, Any]`` and
say so in their description. Attribute docstrings are the field descriptions
(``use_attribute_docstrings``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from herna.hall.tournament.model import FORMATS
from herna.hall.tournament_live import ABORTED, ADMITS, ENTRY, FINISHED, LIVE_GAMES, RUNNING

TOURNAMENT_STATUSES = (ENTRY, RUNNING, FINISHED, ABORTED)
"""The states of a live tournament."""


class ApiModel(BaseModel):
    """Base of the API's shapes: undeclared fields are an error, docstrings describe."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class Error(ApiModel):
    """Every error of the API, whatever its status."""

    error: str
    """What was wrong, in English (`limit: must be a whole number from 1 to 500`)."""


# -- hall --------------------------------------------------------------------------------


class Service(ApiModel):
    """A server `herna serve` runs, the web hall (`game: "web"`) included."""

    game: str = Field(examples=["mia"])
    protocol: str = Field(examples=["Mia UDP (seed 002)"])
    endpoints: list[str]
    """Its addresses; Onitama's and tiles' also carry the web hall's WebSocket
    (`ws://HOST:PORT/ws/onitama`) after their TCP address. Empty when its snapshot failed."""
    doc: str | None
    """Path of the protocol doc in the repository."""
    doc_url: str | None
    """Where this hall serves that doc (null when it does not)."""
    snapshot: dict[str, Any]
    """Free-form: live state as the server reports it (tables, players, bots), or
    `{"error": ...}` when its snapshot failed."""


class GameInfo(ApiModel):
    """A game the hall knows: with a running server, records, a replayer or a renderer."""

    game: str
    running: bool
    """A server of this game runs in this hall."""
    replayer: bool
    """Recorded matches can be replayed step by step."""
    renderer: bool
    """The browser can draw its views (`/static/games/<game>.js`)."""
    matches: int
    """Matches on record."""


# -- live tables -------------------------------------------------------------------------


class LiveEvent(ApiModel):
    """One thing that happened at a table, as spectators may see it."""

    game: str
    table: str
    kind: str = Field(examples=["game_over"])
    data: dict[str, Any]
    """Free-form: the game's own fields of this kind of event."""
    ts: float
    """Unix time it was published."""
    seq: int
    """Counts every event of the publishing process; means nothing elsewhere."""


class ListedEvent(LiveEvent):
    """An event in a table's `events`: its version, and no `view` in `data` (the table's
    `view` is the newest)."""

    v: int
    """The event's version in the table's stream."""


class LiveTable(ApiModel):
    """A live table as `/api/live` sends it: the table of a `/ws/live` snapshot frame
    (docs/web.md, 'Live WebSocket')."""

    game: str
    table: str
    status: Literal["live", "over", "closed"]
    """`live` while a game or deal is in play; `over` between two of them (the next may
    start at the same table); `closed` when the table plays no more."""
    view: dict[str, Any] | None
    """Free-form: the game's spectator view (null before there is anything to draw)."""
    event: LiveEvent | None
    """The newest event (with `view` in its data, if the game sends one)."""
    events: list[ListedEvent]
    """The newest events, oldest first."""
    skipped: int
    """Events not listed in `events`."""
    since: float | None
    """Unix time of the oldest event of an update frame (null in a snapshot)."""
    stream: str
    """The table's numbering: its versions count within this stream."""
    version: int
    """Version of the newest event accounted for."""
    mode: Literal["snapshot"]
    """Always `snapshot` here; `/ws/live` also sends `resume` tables and, in its update
    frames, tables without `mode`."""
    updated: float
    """Unix time of the newest event."""


# -- recorded matches --------------------------------------------------------------------


class Player(ApiModel):
    """A seat of a recorded match."""

    seat: int
    name: str
    score: float
    winner: bool
    kind: str = Field(examples=["house-bot"])
    """`bot`, `human`, `house-bot` or `unknown`."""


class Match(ApiModel):
    """A recorded match, without its raw event log (it holds every deal and every die)."""

    id: int
    game: str
    table: str
    seed: int | None
    status: Literal["finished", "aborted", "canceled"]
    started_at: datetime
    finished_at: datetime
    result: dict[str, Any]
    """Free-form: the game's own result object."""
    meta: dict[str, Any]
    """Free-form: what the game's server recorded beside the result."""
    players: list[Player]


class ListedMatch(Match):
    """A match in a list of `/api/matches`: with its result in words."""

    summary: str
    """The result in words."""


class MatchPage(ApiModel):
    total: int
    """Matches under the filters, on every page."""
    limit: int
    offset: int
    matches: list[ListedMatch]


class ReplayStep(ApiModel):
    label: str = Field(examples=["alice announced 6,2"])
    """What happened in this step, for people."""
    view: dict[str, Any]
    """Free-form: the spectator view after this step (for a raw log: `{"event": ...}`)."""


class Replay(ApiModel):
    """The steps of a recorded match."""

    source: Literal["replayer", "log"]
    """`replayer`: the game's replay_steps; `log`: the raw event log (chance outcomes
    redacted) for a game without one, or whose replayer failed."""
    warning: str | None
    """Why the raw log is shown although the game has a replayer."""
    steps: list[ReplayStep]


class MatchReplay(Replay):
    """A recorded match and its steps."""

    match: Match


class MatchExport(ApiModel):
    """A recorded match as one document (docs/web.md, 'Match export')."""

    schema_: Literal["herna-match/1"] = Field(alias="schema")
    """The document's version: a change that breaks readers gets a new number."""
    match: Match
    summary: str
    """The result in one line of words."""
    text: list[str]
    """The match told line by line, as `herna replay ID` tells it but without what
    spectators never saw (Mia's dice under the cup)."""
    notation: str | None
    """Onitama: the game record in Herna's notation (`/api/matches/{id}/text`); null for
    other games."""
    replay: Replay


# -- Mia sessions ------------------------------------------------------------------------


class SessionPlayer(ApiModel):
    name: str
    rounds: int
    lost: int
    points: int
    """Rounds played and not lost."""


class Session(ApiModel):
    """Consecutive Mia rounds of the same players with no pause longer than `gap` minutes:
    one evening at the table. `/history?game=mia&session=FIRST-LAST` lists its rounds."""

    first_id: int
    """Match id of its first round."""
    last_id: int
    """Match id of its last round."""
    table: str
    """Which Mia table: `round` (the house bots' table) or `people-round` (the people's
    table). Their rounds interleave, so a session's rounds are `first_id..last_id` at it."""
    started_at: datetime
    ended_at: datetime
    rounds: int
    canceled: int
    """Rounds canceled (too few players)."""
    players: list[SessionPlayer]
    """Best first."""


class SessionPage(ApiModel):
    limit: int
    offset: int
    more: bool
    """Older sessions exist."""
    sessions: list[Session]


# -- standings and players ---------------------------------------------------------------


class GameRecord(ApiModel):
    """Someone's record in one game, as the standings keep it."""

    game: str
    points: float
    games: int
    """Rated games."""
    wins: int
    win_rate: float | None
    """Wins per rated game (null before the first)."""
    mu: float | None
    """OpenSkill mean (null before the first rated game)."""
    sigma: float | None
    """OpenSkill uncertainty."""
    ordinal: float | None
    """mu - 3 sigma (OpenSkill)."""


class Standing(GameRecord):
    """A row of a game's standings."""

    name: str


class GameStats(GameRecord):
    """A player's record in one game: the standings row plus counts from the matches."""

    matches: int
    """Recorded matches, any status."""
    rated_games: int
    """Games that moved the OpenSkill rating (what the rating chart counts)."""
    canceled: int
    average_score: float | None
    first_played: datetime | None
    last_played: datetime | None


class PlayerStats(ApiModel):
    name: str
    games: list[GameStats]
    recent: list[Match]
    """The player's newest matches (at most 20)."""


# -- live tournaments --------------------------------------------------------------------


def _choices(values: tuple[str, ...]) -> dict[str, Any]:
    """The JSON Schema of a text field that takes one of the hall's own ``values``."""
    return {"enum": list(values)}


class NewTournament(ApiModel):
    """A live tournament to hold in this hall (docs/tournaments.md, 'Live tournaments in
    herna serve'). Every field has a default; numbers may also be sent as text."""

    name: str = Field("Tournament", max_length=100)
    game: str = Field("onitama", json_schema_extra=_choices(LIVE_GAMES))
    format: str = Field("round-robin", json_schema_extra=_choices(FORMATS))
    """`session` is Mia's, and Mia is only played as a session."""
    admits: str = Field("anyone", json_schema_extra=_choices(ADMITS))
    rounds: int | str | None = None
    """Swiss: rounds, 1 to 50 (none: enough to find a winner)."""
    cycles: int | str = 1
    """Round robin: times each pair meets, 1 to 10."""
    minutes: float | str = 10
    """Arena or Mia session: its length."""
    start_timeout: float | str = 60
    """Seconds an entrant has to come when its board is due."""
    house: list[str] | str = []
    """Onitama: levels of the house bots that enter (a list, or comma-separated)."""
    rules: str | None = None
    """Tiles: a shipped rules file (required for tiles)."""
    deals: int | str = 3
    """Mariáš: deals a table plays, 1 to 20."""
    entrants: list[str] | str = []
    """An entry list: these names are entered now; a name nobody has yet is reserved for its
    entrant, its token in the answer's `entrant_tokens` (a list, or one name a line)."""
    seeding: str = Field("entry", json_schema_extra=_choices(("entry", "rating")))
    """The order of the first round: the entry list's (then as entrants came), or by rating."""
    starts_at: str | None = Field(None, examples=["2026-12-01T14:00:00+01:00"])
    """When it starts by itself (ISO 8601; without an offset, the hall's local time). Entries
    are open until then; none: when the admin starts it."""
    pause: float | str = 0
    """Seconds between the end of a round and the start of the next (or text: `2m`, `90s`)."""


class TournamentCreated(ApiModel):
    id: int
    admin_token: str
    """Shown only now: it starts or aborts the tournament."""
    url: str = Field(examples=["/tournaments/3"])
    status: str = Field(json_schema_extra=_choices((ENTRY,)))
    """Always `entry`: it takes entrants until its admin starts it."""
    entrant_tokens: dict[str, str] = {}
    """The entry list's names, each with its new token (shown only now), or "" for a name
    that keeps its own (reserved already, or a person's)."""


class TournamentStatus(ApiModel):
    id: int
    status: str = Field(json_schema_extra=_choices(TOURNAMENT_STATUSES))
