"""The web hall's JSON API described as OpenAPI 3.1 (served at ``/openapi.json``) and the
``/docs`` page that shows it without any external script (the hall may run offline).
"""

from __future__ import annotations

import html
import json
from typing import Any

from herna import __version__
from herna.web import params


def _ok(desc: str, ref: str | dict[str, Any]) -> dict[str, Any]:
    schema = {"$ref": f"#/components/schemas/{ref}"} if isinstance(ref, str) else ref
    return {"description": desc, "content": {"application/json": {"schema": schema}}}


_ERRORS = {
    "400": "A parameter it cannot take (not a number, out of range, a control character, "
    "longer than 200 characters, not a date); `error` says which and why.",
    "403": "Not the tournament's admin token (`Authorization: Bearer TOKEN`).",
    "404": "No such record (or an id no record can have).",
    "409": "The tournament cannot do that now (it has started, is over, or has too few "
    "entrants); `error` says which.",
    "413": "A body over 8 KiB.",
    "415": "A body that is not `application/json`.",
}

_TOURNAMENT_ID = {
    "name": "tournament_id",
    "in": "path",
    "required": True,
    "schema": {"type": "integer"},
    "description": "the live tournament's id",
}


def _admin_action(verb: str, what: str) -> dict[str, Any]:
    return {
        "post": {
            "summary": f"{verb} a live tournament",
            "description": f"{what} Needs the tournament's admin token as "
            "`Authorization: Bearer TOKEN`.",
            "parameters": [_TOURNAMENT_ID],
            "responses": {
                "200": _ok("Its new status", "TournamentStatus"),
                **_errors("403", "409"),
            },
        }
    }


def _errors(*codes: str) -> dict[str, Any]:
    """Error responses: every one is JSON ``{"error": "..."}`` (schema ``Error``)."""
    schema = {"$ref": "#/components/schemas/Error"}
    return {
        code: {"description": _ERRORS[code], "content": {"application/json": {"schema": schema}}}
        for code in codes
    }


def _params(declared: tuple[params.Param, ...] | list[params.Param]) -> list[dict[str, Any]]:
    """The parameters exactly as herna.web.params checks them."""
    return [p.openapi() for p in declared]


_NUM = {"type": ["number", "null"]}

SCHEMAS: dict[str, Any] = {
    "NewTournament": {
        "type": "object",
        "description": "A live tournament to hold in this hall (docs/tournaments.md, "
        "'Live tournaments in herna serve'). Only `game` and `format` are needed.",
        "properties": {
            "name": {"type": "string", "maxLength": 100},
            "game": {"type": "string", "enum": ["onitama", "tiles", "marias", "mia"]},
            "format": {"type": "string", "enum": ["round-robin", "swiss", "arena", "session"]},
            "admits": {"type": "string", "enum": ["anyone", "bots", "people"]},
            "rounds": {"type": "integer", "description": "Swiss: rounds"},
            "cycles": {"type": "integer", "description": "round robin: times each pair meets"},
            "minutes": {"type": "number", "description": "arena or Mia session: its length"},
            "start_timeout": {
                "type": "number",
                "description": "seconds an entrant has to come when its board is due",
            },
            "house": {
                "type": "array",
                "items": {"type": "string"},
                "description": "Onitama: levels of house bots that enter",
            },
            "rules": {"type": "string", "description": "tiles: a shipped rules file"},
            "deals": {"type": "integer", "description": "mariáš: deals a table plays"},
        },
        "required": ["game", "format"],
    },
    "TournamentCreated": {
        "type": "object",
        "properties": {
            "id": {"type": "integer"},
            "admin_token": {
                "type": "string",
                "description": "Shown only now: it starts or aborts the tournament.",
            },
            "url": {"type": "string", "example": "/tournaments/3"},
            "status": {"type": "string", "example": "entry"},
        },
        "required": ["id", "admin_token", "url", "status"],
    },
    "TournamentStatus": {
        "type": "object",
        "properties": {"id": {"type": "integer"}, "status": {"type": "string"}},
        "required": ["id", "status"],
    },
    "Error": {
        "type": "object",
        "properties": {"error": {"type": "string"}},
        "required": ["error"],
    },
    "Service": {
        "type": "object",
        "properties": {
            "game": {"type": "string", "example": "mia"},
            "protocol": {"type": "string", "example": "Mia UDP (seed 002)"},
            "endpoints": {"type": "array", "items": {"type": "string"}},
            "doc": {"type": "string", "description": "Path of the protocol doc in the repo."},
            "doc_url": {"type": ["string", "null"], "description": "Where the hall serves it."},
            "snapshot": {
                "type": "object",
                "description": "Live state as the server reports it: tables, players, bots.",
            },
        },
    },
    "LiveTable": {
        "type": "object",
        "description": "A table as the live WebSocket sends it (see docs/web.md).",
        "properties": {
            "game": {"type": "string"},
            "table": {"type": "string"},
            "status": {"type": "string", "enum": ["live", "over"]},
            "view": {"type": ["object", "null"], "description": "Spectator view."},
            "event": {"type": ["object", "null"], "description": "Newest event."},
            "events": {"type": "array", "items": {"type": "object"}},
            "skipped": {"type": "integer"},
            "updated": {"type": "number", "description": "Unix time of the newest event."},
        },
    },
    "Player": {
        "type": "object",
        "properties": {
            "seat": {"type": "integer"},
            "name": {"type": "string"},
            "score": {"type": "number"},
            "winner": {"type": "boolean"},
            "kind": {"type": "string", "example": "house-bot"},
        },
    },
    "Match": {
        "type": "object",
        "properties": {
            "id": {"type": "integer"},
            "game": {"type": "string"},
            "table": {"type": "string"},
            "seed": {"type": ["integer", "null"]},
            "status": {"type": "string", "enum": ["finished", "aborted", "canceled"]},
            "started_at": {"type": "string", "format": "date-time"},
            "finished_at": {"type": "string", "format": "date-time"},
            "result": {"type": "object"},
            "meta": {"type": "object"},
            "players": {"type": "array", "items": {"$ref": "#/components/schemas/Player"}},
            "summary": {
                "type": "string",
                "description": "The result in words (in /api/matches lists).",
            },
        },
    },
    "MatchPage": {
        "type": "object",
        "properties": {
            "total": {"type": "integer"},
            "limit": {"type": "integer"},
            "offset": {"type": "integer"},
            "matches": {"type": "array", "items": {"$ref": "#/components/schemas/Match"}},
        },
    },
    "ReplayStep": {
        "type": "object",
        "properties": {
            "label": {"type": "string", "example": "alice announced 6,2"},
            "view": {"type": "object", "description": "Spectator view after this step."},
        },
    },
    "Replay": {
        "type": "object",
        "properties": {
            "match": {"$ref": "#/components/schemas/Match"},
            "source": {
                "type": "string",
                "enum": ["replayer", "log"],
                "description": "'replayer': the game's replay_steps; 'log': the raw event "
                "log (chance outcomes redacted) for a game without one.",
            },
            "warning": {"type": ["string", "null"]},
            "steps": {"type": "array", "items": {"$ref": "#/components/schemas/ReplayStep"}},
        },
    },
    "Session": {
        "type": "object",
        "description": "Consecutive Mia rounds of the same players with no pause longer "
        "than `gap` minutes: one evening at the table. `/history?game=mia&session="
        "FIRST-LAST` lists its rounds.",
        "properties": {
            "first_id": {"type": "integer", "description": "Match id of its first round."},
            "last_id": {"type": "integer", "description": "Match id of its last round."},
            "started_at": {"type": "string", "format": "date-time"},
            "ended_at": {"type": "string", "format": "date-time"},
            "rounds": {"type": "integer"},
            "canceled": {"type": "integer", "description": "Rounds canceled (too few players)."},
            "players": {
                "type": "array",
                "description": "Best first: points = rounds played and not lost.",
                "items": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string"},
                        "rounds": {"type": "integer"},
                        "lost": {"type": "integer"},
                        "points": {"type": "integer"},
                    },
                },
            },
        },
    },
    "SessionPage": {
        "type": "object",
        "properties": {
            "limit": {"type": "integer"},
            "offset": {"type": "integer"},
            "more": {"type": "boolean", "description": "Older sessions exist."},
            "sessions": {"type": "array", "items": {"$ref": "#/components/schemas/Session"}},
        },
    },
    "MatchExport": {
        "type": "object",
        "description": "A recorded match as one document (docs/web.md, 'Match export').",
        "required": ["schema", "match", "summary", "text", "notation", "replay"],
        "properties": {
            "schema": {"type": "string", "const": "herna-match/1"},
            "match": {"$ref": "#/components/schemas/Match"},
            "summary": {"type": "string", "description": "The result in one line of words."},
            "text": {
                "type": "array",
                "items": {"type": "string"},
                "description": "The match told line by line, as `herna replay ID` tells it "
                "but without what spectators never saw (Mia's dice under the cup).",
            },
            "notation": {
                "type": ["string", "null"],
                "description": "Onitama: the game record in Herna's notation "
                "(`/api/matches/{id}/text`); null for other games.",
            },
            "replay": {"$ref": "#/components/schemas/Replay"},
        },
    },
    "Standing": {
        "type": "object",
        "properties": {
            "game": {"type": "string"},
            "name": {"type": "string"},
            "points": {"type": "number"},
            "games": {"type": "integer"},
            "wins": {"type": "integer"},
            "win_rate": _NUM,
            "mu": _NUM,
            "sigma": _NUM,
            "ordinal": {**_NUM, "description": "mu - 3 sigma (OpenSkill)."},
        },
    },
    "GameStats": {
        "type": "object",
        "properties": {
            "game": {"type": "string"},
            "points": {"type": "number"},
            "games": {"type": "integer", "description": "Rated games (standings)."},
            "wins": {"type": "integer"},
            "win_rate": _NUM,
            "mu": _NUM,
            "sigma": _NUM,
            "ordinal": _NUM,
            "matches": {"type": "integer", "description": "Recorded matches, any status."},
            "canceled": {"type": "integer"},
            "average_score": _NUM,
            "first_played": {"type": ["string", "null"], "format": "date-time"},
            "last_played": {"type": ["string", "null"], "format": "date-time"},
        },
    },
    "PlayerStats": {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "games": {"type": "array", "items": {"$ref": "#/components/schemas/GameStats"}},
            "recent": {"type": "array", "items": {"$ref": "#/components/schemas/Match"}},
        },
    },
}

PATHS: dict[str, Any] = {
    "/api/services": {
        "get": {
            "summary": "Running game servers",
            "description": "Every server `herna serve` runs: protocol, addresses, live "
            "snapshot (tables, connected players and bots) and its protocol doc.",
            "responses": {
                "200": _ok(
                    "Servers", {"type": "array", "items": {"$ref": "#/components/schemas/Service"}}
                )
            },
        }
    },
    "/api/games": {
        "get": {
            "summary": "Games known to the hall",
            "description": "Games with a running server, records, a replayer or a renderer.",
            "responses": {
                "200": _ok(
                    "Games",
                    {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {
                                "game": {"type": "string"},
                                "running": {"type": "boolean"},
                                "replayer": {"type": "boolean"},
                                "renderer": {"type": "boolean"},
                                "matches": {"type": "integer"},
                            },
                        },
                    },
                )
            },
        }
    },
    "/api/live": {
        "get": {
            "summary": "Live tables now",
            "description": "The same tables the `/ws/live` WebSocket sends in its snapshot "
            "frame. For updates as they happen connect to `/ws/live?game=&table=`.",
            "parameters": _params(params.LIVE),
            "responses": {
                "200": _ok(
                    "Tables", {"type": "array", "items": {"$ref": "#/components/schemas/LiveTable"}}
                ),
                **_errors("400"),
            },
        }
    },
    "/api/matches": {
        "get": {
            "summary": "Recorded matches, newest first",
            "parameters": _params(params.MATCHES),
            "responses": {"200": _ok("A page of matches", "MatchPage"), **_errors("400")},
        }
    },
    "/api/matches/{match_id}": {
        "get": {
            "summary": "One recorded match (without its raw event log)",
            "parameters": _params([params.MATCH_ID]),
            "responses": {"200": _ok("The match", "Match"), **_errors("404")},
        }
    },
    "/api/matches/{match_id}/replay": {
        "get": {
            "summary": "Replay steps of a recorded match",
            "description": "The spectator view after every step, from the game's "
            "`replay_steps` (see herna/hall/replays.py).",
            "parameters": _params([params.MATCH_ID]),
            "responses": {"200": _ok("Steps", "Replay"), **_errors("404")},
        }
    },
    "/api/matches/{match_id}/export": {
        "get": {
            "summary": "A recorded match as one JSON document",
            "description": "Match, result in words, the match told as text, the replay steps "
            "and (Onitama) the game record. Schema `herna-match/1`, described in docs/web.md.",
            "parameters": _params([params.MATCH_ID]),
            "responses": {"200": _ok("The export", "MatchExport"), **_errors("404")},
        }
    },
    "/api/matches/{match_id}/text": {
        "get": {
            "summary": "A recorded match as plain text",
            "description": "Onitama: the game record in Herna's notation (tags, then the "
            "numbered moves), to paste elsewhere. Other games: the match told in words.",
            "parameters": _params([params.MATCH_ID]),
            "responses": {
                "200": {
                    "description": "text/plain; charset=utf-8",
                    "content": {"text/plain": {"schema": {"type": "string"}}},
                },
                **_errors("404"),
            },
        }
    },
    "/api/tournaments": {
        "post": {
            "summary": "Hold a live tournament",
            "description": "A live tournament in this hall, taking entrants (`herna tournament "
            "create`). The answer carries its admin token, shown only now. Changes state: "
            "the one family of routes here that does, with the two below.",
            "requestBody": {
                "required": True,
                "content": {
                    "application/json": {"schema": {"$ref": "#/components/schemas/NewTournament"}}
                },
            },
            "responses": {
                "201": _ok("The tournament, with its admin token", "TournamentCreated"),
                **_errors("400", "404", "413", "415"),
            },
        }
    },
    "/api/tournaments/{tournament_id}/start": _admin_action(
        "Start", "Pairs the entrants that entered (a Mia session: starts its clock)."
    ),
    "/api/tournaments/{tournament_id}/abort": _admin_action(
        "Abort", "Ends it now; the entrants still waiting are told it is over."
    ),
    "/api/sessions": {
        "get": {
            "summary": "Mia sessions, newest first",
            "description": "Mia rounds grouped into sessions: the same players with no pause "
            "longer than `gap` minutes.",
            "parameters": _params(params.SESSIONS),
            "responses": {"200": _ok("A page of sessions", "SessionPage"), **_errors("400")},
        }
    },
    "/api/players/{name}/results.csv": {
        "get": {
            "summary": "A player's results as CSV",
            "description": "One row per match, newest first: match_id, game, table, "
            "finished_at, status, seat, player, score, winner (yes/no), opponents "
            "(;-separated), result (in words).",
            "parameters": _params(params.RESULTS_CSV),
            "responses": {
                "200": {
                    "description": "text/csv; charset=utf-8",
                    "content": {"text/csv": {"schema": {"type": "string"}}},
                },
                **_errors("400"),
            },
        }
    },
    "/api/standings/{game}": {
        "get": {
            "summary": "Standings of one game, best first",
            "parameters": _params(params.STANDINGS),
            "responses": {
                "200": _ok(
                    "Standings",
                    {"type": "array", "items": {"$ref": "#/components/schemas/Standing"}},
                ),
                **_errors("400"),
            },
        }
    },
    "/api/players": {
        "get": {
            "summary": "Player names on record",
            "parameters": _params(params.PLAYERS),
            "responses": {
                "200": _ok("Names", {"type": "array", "items": {"type": "string"}}),
                **_errors("400"),
            },
        }
    },
    "/api/players/{name}": {
        "get": {
            "summary": "Statistics of one player",
            "description": "Per game: points, rated games, wins, OpenSkill mu/sigma and "
            "ordinal, recorded matches; plus the player's newest matches.",
            "parameters": _params(params.PLAYER),
            "responses": {"200": _ok("Statistics", "PlayerStats"), **_errors("400", "404")},
        }
    },
}


def spec() -> dict[str, Any]:
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Herna web hall API",
            "version": __version__,
            "description": "JSON API of the Herna web hall: running servers, live "
            "tables, recorded matches with replays, standings and player statistics. Live "
            "updates: WebSocket `/ws/live?game=&table=` (frames described in docs/web.md). "
            "Nothing here changes state but the live tournaments' POST routes (their admin "
            "token is the credential): every other route takes GET and HEAD only (anything "
            'else is 405). Every error is JSON `{"error": "..."}` with status 400 (a bad '
            "parameter), 404 (no such record or route) or 405; 503 means the database is "
            "unavailable for a moment.",
        },
        "paths": PATHS,
        "components": {"schemas": SCHEMAS},
    }


def _schema_text(schema: dict[str, Any]) -> str:
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[-1]
    if schema.get("type") == "array":
        return f"array of {_schema_text(schema.get('items', {}))}"
    kind = schema.get("type", "object")
    return " | ".join(kind) if isinstance(kind, list) else str(kind)


def docs_html() -> str:
    """The body of ``/docs``: every endpoint with its parameters and responses, then the
    schemas; each GET without path parameters links to a live example."""
    e = html.escape
    out = [
        "<h1>Herna web hall API</h1>",
        f"<p>{e(spec()['info']['description'])}</p>",
        '<p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).</p>',
    ]
    for path, item in PATHS.items():
        for method, op in item.items():
            out.append(f'<section class="endpoint" id="{e(path)}">')
            title = e(path)
            if "{" not in path and method == "get":
                title = f'<a href="{e(path)}">{e(path)}</a>'
            out.append(
                f'<h2><span class="method">{e(method.upper())}</span> <code>{title}</code></h2>'
            )
            out.append(f"<p><b>{e(op['summary'])}</b></p>")
            if op.get("description"):
                out.append(f"<p>{e(op['description'])}</p>")
            body = op.get("requestBody")
            if body:
                schema = next(iter(body["content"].values()))["schema"]
                out.append(f"<p>Body (JSON): {e(_schema_text(schema))}</p>")
            params = op.get("parameters", [])
            if params:
                out.append("<table><tr><th>parameter</th><th>in</th><th>type</th><th></th></tr>")
                for p in params:
                    req = " (required)" if p.get("required") else ""
                    out.append(
                        f"<tr><td><code>{e(p['name'])}</code>{req}</td><td>{e(p['in'])}</td>"
                        f"<td>{e(_schema_text(p['schema']))}</td><td>{e(p['description'])}</td>"
                        "</tr>"
                    )
                out.append("</table>")
            out.append("<ul>")
            for code, resp in op["responses"].items():
                schema = next(iter(resp["content"].values()))["schema"]  # JSON, CSV, text
                out.append(
                    f"<li><code>{e(code)}</code> {e(resp['description'])}: "
                    f"{e(_schema_text(schema))}</li>"
                )
            out.append("</ul></section>")
    out.append("<h2>Schemas</h2>")
    for name, schema in SCHEMAS.items():
        out.append(f'<h3 id="schema-{e(name)}">{e(name)}</h3>')
        out.append(f"<pre>{e(json.dumps(schema, indent=2))}</pre>")
    return "\n".join(out)
