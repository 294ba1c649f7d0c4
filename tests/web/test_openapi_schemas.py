"""/openapi.json says what the JSON API really answers: every route is called over HTTP on a
hall with records, live tables and live tournaments, and every body (errors included) is
validated against the schema the document declares for its route and status.

The answers collected must also cover every status the document declares, so a declared
error that the route cannot answer, or an answer it does not declare, fails here too.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
from jsonschema import Draft202012Validator

from herna.hall.hall import Hall
from herna.hall.tournament_store import TournamentStore
from herna.web import api_operations, openapi
from herna.web.api_operations import ApiOperation
from tests.live_tournaments import finished
from tests.serve import serving
from tests.web.conftest import start_web, stop_web
from tests.web.helpers import publish_mia_round
from tests.web.test_api import _fill
from tests.web.test_people import _web


class Checker:
    """Validates answers against an OpenAPI document and remembers what it saw."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        self.seen: set[tuple[str, str, str]] = set()

    def validator(self, schema: dict[str, Any]) -> Draft202012Validator:
        # The document's components beside the schema, so "#/components/..." resolves.
        return Draft202012Validator({**schema, "components": self.document["components"]})

    def check(self, path: str, response: httpx.Response) -> None:
        """``response`` to ``path`` (the documented path, ``{...}`` in it) as declared."""
        method = response.request.method.lower()
        status = str(response.status_code)
        declared = self.document["paths"][path][method]["responses"]
        where = f"{method.upper()} {response.request.url} -> {status}: {response.text[:300]}"
        assert status in declared, f"undeclared status: {where}"
        [(media, content)] = declared[status]["content"].items()
        assert response.headers["content-type"].split(";")[0] == media, where
        if media == "application/json":
            errors = list(self.validator(content["schema"]).iter_errors(response.json()))
            assert not errors, f"{where}\n" + "\n".join(str(e) for e in errors[:3])
        else:
            assert content["schema"] == {"type": "string"}, where
        self.seen.add((path, method, status))

    def declared(self) -> set[tuple[str, str, str]]:
        return {
            (path, method, status)
            for path, item in self.document["paths"].items()
            for method, op in item.items()
            for status in op["responses"]
        }


async def _live_tables(hall: Hall, http: httpx.AsyncClient) -> None:
    """A table over (a Mia round), one live and one closed, folded by the hub."""
    bus = hall.bus
    publish_mia_round(bus, 1, ["alice", "bob"], {})
    bus.emit("tiles", "t9", "game_started", view={"board": []}, players=["a", "b"])
    bus.emit("marias", "g1", "game_over", view={"trick": []})
    bus.emit("marias", "g1", "group_closed", reason="group finished")
    async with asyncio.timeout(10):
        while len((await http.get("/api/live")).json()) < 3:
            await asyncio.sleep(0.05)


async def test_every_answer_is_what_openapi_declares(tmp_path: Path) -> None:
    async with serving(
        tmp_path, "onitama,web", onitama_house_bots=0, onitama_house_bot_delay=0.0
    ) as hall:
        web = _web(hall)
        ids = await _fill(web)
        async with httpx.AsyncClient(base_url=web.url, timeout=30) as http:
            document = (await http.get("/openapi.json")).json()
            checker = Checker(document)
            check = checker.check
            await _live_tables(hall, http)

            # Live tournaments: one played out by two house bots (so an Onitama match is
            # on record, with its notation), one aborted.
            path = "/api/tournaments"
            made = await http.post(
                path, json={"name": "night", "house": ["easy", "medium"], "rounds": None}
            )
            check(path, made)
            tid, token = made.json()["id"], made.json()["admin_token"]
            auth = {"authorization": f"Bearer {token}"}
            start = "/api/tournaments/{tournament_id}/start"
            abort = "/api/tournaments/{tournament_id}/abort"
            check(start, await http.post(f"/api/tournaments/{tid}/start", headers=auth))
            check(start, await http.post(f"/api/tournaments/{tid}/start", headers=auth))  # 409
            check(start, await http.post(f"/api/tournaments/{tid}/start"))  # 403
            check(abort, await http.post("/api/tournaments/abc/abort", headers=auth))  # 403
            session = await http.post(path, json={"game": "mia", "format": "session"})
            check(path, session)
            other = {"authorization": f"Bearer {session.json()['admin_token']}"}
            sid = session.json()["id"]
            check(abort, await http.post(f"/api/tournaments/{sid}/abort", headers=other))
            check(abort, await http.post(f"/api/tournaments/{sid}/abort", headers=other))  # 409
            check(path, await http.post(path, json={"game": "chess"}))  # 400
            check(path, await http.post(path, content=b"{", headers={"content-type": "text/x"}))
            # 413: over MAX_JSON_BYTES
            check(path, await http.post(path, json={"name": "x" * 40_000}))
            await finished(TournamentStore(hall.records.engine), tid)
            hall.records.flush()
            [onitama] = hall.records.matches(game="onitama")
            ids["onitama"] = onitama.id

            for query in ({}, {"game": "mia"}, {"table": "x" * 201}):
                check("/api/live", await http.get("/api/live", params=query))
            check("/api/services", await http.get("/api/services"))
            check("/api/games", await http.get("/api/games"))
            for query in ({}, {"player": "alice", "result": "won"}, {"limit": 0}):
                check("/api/matches", await http.get("/api/matches", params=query))
            for query in ({}, {"gap": 1, "limit": 1}, {"since": "soon"}):
                check("/api/sessions", await http.get("/api/sessions", params=query))
            for match_id in [*ids.values(), 424242, "abc"]:
                for tail in ("", "/replay", "/export", "/text"):
                    doc_path = "/api/matches/{match_id}" + tail
                    check(doc_path, await http.get(f"/api/matches/{match_id}{tail}"))
            for lang in ("cs", "xx"):  # the steps' labels in Czech; 400 for a language not kept
                replay = f"/api/matches/{ids['onitama']}/replay"
                check(
                    "/api/matches/{match_id}/replay", await http.get(replay, params={"lang": lang})
                )
            for game in ("mia", "cards", "nothing", "a%01b"):
                check("/api/standings/{game}", await http.get(f"/api/standings/{game}"))
            for query in ({}, {"game": "cards", "prefix": "a"}, {"limit": "lots"}):
                check("/api/players", await http.get("/api/players", params=query))
            house_bot = onitama.players[0].name
            for name in ("alice", house_bot, "nobody", "a%00b"):
                check("/api/players/{name}", await http.get(f"/api/players/{name}"))
                csv = f"/api/players/{name}/results.csv"
                check("/api/players/{name}/results.csv", await http.get(csv))
            csv = "/api/players/alice/results.csv"
            check("/api/players/{name}/results.csv", await http.get(csv, params={"limit": -1}))

            # The errors no route declares (no such route, a method not allowed) are Errors.
            error = checker.validator({"$ref": "#/components/schemas/Error"})
            for answer in (await http.get("/api/nothing"), await http.post("/api/matches")):
                assert answer.status_code in (404, 405)
                error.validate(answer.json())

        # A hall without live tournaments.
        lone, lone_web = await start_web(f"sqlite:///{tmp_path / 'lone.db'}")
        try:
            async with httpx.AsyncClient(base_url=lone_web.url) as http:
                check(path, await http.post(path, json={}))
        finally:
            await stop_web(lone)

    missing = checker.declared() - checker.seen
    assert not missing, f"declared but never answered here: {sorted(missing)}"


def test_the_schemas_are_json_schema_and_closed() -> None:
    """Every component is valid JSON Schema 2020-12 (OpenAPI 3.1's dialect), and every object
    with declared properties refuses others, but the parts declared free-form."""
    declared = [v for v in vars(api_operations).values() if isinstance(v, ApiOperation)]
    document = openapi.spec(declared)
    assert len(document["paths"]) == 16
    free_form = []
    for name, schema in document["components"]["schemas"].items():
        Draft202012Validator.check_schema(schema)
        assert schema["additionalProperties"] is False, name
        for field, part in schema["properties"].items():
            options = part.get("anyOf", [part])
            if any(o.get("additionalProperties") is True for o in options):
                assert part["description"].startswith("Free-form"), (name, field)
                free_form.append(f"{name}.{field}")
    assert sorted(free_form) == [
        "ListedEvent.data",
        "ListedMatch.meta",
        "ListedMatch.result",
        "LiveEvent.data",
        "LiveTable.view",
        "Match.meta",
        "Match.result",
        "ReplayStep.view",
        "Service.snapshot",
    ]
    extra = {"error": "x", "detail": "y"}
    error = Draft202012Validator(
        {"$ref": "#/components/schemas/Error", "components": document["components"]}
    )
    assert not error.is_valid(extra)
