"""The web hall's JSON API and pages over a real socket, with a real database."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from herna.core.game import CHANCE
from herna.hall.records import MatchRecord, PlayerResult
from herna.web import openapi
from herna.web.plugin import WebHall
from tests.web.conftest import start_web, stop_web
from tests.web.helpers import play_mia_round

DAY1 = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
DAY2 = datetime(2024, 5, 2, 12, 0, tzinfo=UTC)


def _other_game(i: int, when: datetime) -> MatchRecord:
    """A game without a replayer whose log holds a chance action (a hidden deal)."""
    return MatchRecord(
        game="cards",
        table_id=f"t{i}",
        players=[
            PlayerResult(0, "alice", 2.0, True, "human"),
            PlayerResult(1, "carol", -2.0, False, "bot"),
        ],
        result={"reason": "won"},
        events=[
            ("action", {"player": CHANCE, "action": "deal AS KS QS"}),
            ("action", {"player": 0, "action": "play AS"}),
            ("timeout", {"player": 1}),
        ],
        seed=11,
        started_at=when - timedelta(minutes=5),
        finished_at=when,
    )


async def _fill(web: WebHall) -> dict[str, int]:
    """Three Mia rounds on day 1, one on day 2, two 'cards' games; returns some ids."""
    store = web.hall.records
    ids = {}
    for i in range(4):
        rec = play_mia_round(i + 1, ["alice", "bob", "house-random"], seed=100 + i)
        rec.started_at = rec.finished_at = DAY1 if i < 3 else DAY2
        ids[f"mia{i}"] = store.save(rec)
    ids["cards0"] = store.save(_other_game(0, DAY1))
    ids["cards1"] = store.save(_other_game(1, DAY2))
    return ids


async def test_api_reads_matches_standings_and_players(database_url: str) -> None:
    hall, web = await start_web(database_url)
    try:
        ids = await _fill(web)
        async with httpx.AsyncClient(base_url=web.url) as http:
            page = (await http.get("/api/matches")).json()
            assert page["total"] == 6
            assert [m["id"] for m in page["matches"]] == sorted(ids.values(), reverse=True)
            assert "events" not in page["matches"][0]  # raw logs are not published

            page = (await http.get("/api/matches", params={"game": "mia", "limit": 2})).json()
            assert page["total"] == 4 and len(page["matches"]) == 2
            page2 = (
                await http.get("/api/matches", params={"game": "mia", "limit": 2, "offset": 2})
            ).json()
            assert {m["id"] for m in page["matches"]}.isdisjoint(m["id"] for m in page2["matches"])

            page = (await http.get("/api/matches", params={"player": "carol"})).json()
            assert page["total"] == 2
            assert {m["game"] for m in page["matches"]} == {"cards"}

            day = {"since": "2024-05-01", "until": "2024-05-01"}
            page = (await http.get("/api/matches", params=day)).json()
            assert page["total"] == 4  # three Mia rounds and one cards game on May 1st
            page = (await http.get("/api/matches", params={"since": "2024-05-02"})).json()
            assert page["total"] == 2
            page = (
                await http.get(
                    "/api/matches", params={"game": "mia", "until": "2024-05-01T23:59:59Z"}
                )
            ).json()
            assert page["total"] == 3

            bad = await http.get("/api/matches", params={"since": "yesterday"})
            assert bad.status_code == 400 and "error" in bad.json()
            assert (await http.get("/api/matches", params={"limit": 0})).status_code == 400

            one = (await http.get(f"/api/matches/{ids['cards0']}")).json()
            assert one["game"] == "cards" and "events" not in one
            assert [p["name"] for p in one["players"]] == ["alice", "carol"]
            assert (await http.get("/api/matches/999999")).status_code == 404

            standings = (await http.get("/api/standings/cards")).json()
            assert [s["name"] for s in standings] == ["alice", "carol"]
            assert standings[0]["points"] == 4.0 and standings[0]["wins"] == 2
            assert standings[0]["mu"] > standings[1]["mu"]

            names = (await http.get("/api/players")).json()
            assert names == ["alice", "bob", "carol", "house-random"]
            assert (await http.get("/api/players", params={"game": "cards"})).json() == [
                "alice",
                "carol",
            ]
            assert (await http.get("/api/players", params={"prefix": "ho"})).json() == [
                "house-random"
            ]

            alice = (await http.get("/api/players/alice")).json()
            games = {g["game"]: g for g in alice["games"]}
            assert set(games) == {"cards", "mia"}
            assert games["cards"]["matches"] == 2 and games["cards"]["wins"] == 2
            assert games["cards"]["win_rate"] == 1.0
            assert games["cards"]["average_score"] == 2.0
            assert games["mia"]["games"] == 4 and games["mia"]["mu"] is not None
            assert games["mia"]["last_played"].startswith("2024-05-02")
            assert len(alice["recent"]) == 6
            assert (await http.get("/api/players/nobody")).status_code == 404

            listed = {g["game"]: g for g in (await http.get("/api/games")).json()}
            assert listed["mia"]["matches"] == 4 and listed["mia"]["replayer"] is True
            assert listed["mia"]["renderer"] is True
            assert listed["cards"]["replayer"] is False
    finally:
        await stop_web(hall)


async def test_replay_api_uses_the_games_replayer_and_redacts_raw_logs(web: WebHall) -> None:
    ids = await _fill(web)
    async with httpx.AsyncClient(base_url=web.url) as http:
        mia_id = ids["mia0"]
        replay = (await http.get(f"/api/matches/{mia_id}/replay")).json()
        assert replay["source"] == "replayer" and replay["warning"] is None
        record = web.hall.records.get(mia_id)
        assert record is not None
        actions = [d for k, d in record.events if k == "action"]
        assert len(replay["steps"]) == len(actions) + 1  # the start, then one per action
        assert replay["steps"][-1]["view"]["losers"] == [
            p.name for p in record.players if not p.winner
        ]

        replay = (await http.get(f"/api/matches/{ids['cards0']}/replay")).json()
        assert replay["source"] == "log"
        steps = replay["steps"]
        assert [s["label"] for s in steps] == ["chance", "action", "timeout"]
        assert "AS KS QS" not in str(steps)  # the deal stays hidden
        assert steps[1]["view"]["event"] == {"player": 0, "action": "play AS"}
        assert (await http.get("/api/matches/424242/replay")).status_code == 404


async def test_openapi_documents_every_api_route(web: WebHall) -> None:
    async with httpx.AsyncClient(base_url=web.url) as http:
        spec = (await http.get("/openapi.json")).json()
        assert spec["openapi"].startswith("3.")
        documented = set(spec["paths"])
        routes = {
            re.sub(r"\{(\w+)(:\w+)?\}", r"{\1}", r.path)  # type: ignore[attr-defined]
            for r in web.web.starlette.routes
            if getattr(r, "path", "").startswith("/api/")
        }
        assert routes == documented
        for item in spec["paths"].values():
            for op in item.values():
                for resp in op["responses"].values():
                    ref = next(iter(resp["content"].values()))["schema"]  # JSON, CSV, text
                    text = str(ref)
                    for name in re.findall(r"#/components/schemas/(\w+)", text):
                        assert name in spec["components"]["schemas"]
        docs = await http.get("/docs")
        assert docs.status_code == 200
        for path in spec["paths"]:
            assert f'id="{path}"' in docs.text
        for name in spec["components"]["schemas"]:
            assert f'id="schema-{name}"' in docs.text


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE"])
async def test_nothing_changes_state(web: WebHall, method: str) -> None:
    """The hall is read-only: every route refuses anything but GET/HEAD (but the live
    tournaments' POST routes, tested in tests/web/test_live_tournament_api.py)."""
    spec = openapi.spec(openapi.api_operations(web.web.starlette.routes))
    paths = [
        "/",
        "/live",
        "/history",
        "/players",
        "/matches/1",
        "/docs",
        "/openapi.json",
        *[
            p.replace("{match_id}", "1").replace("{game}", "mia").replace("{name}", "x")
            for p, item in spec["paths"].items()
            if "post" not in item  # the live tournaments' admin routes (admin token)
        ],
    ]
    async with httpx.AsyncClient(base_url=web.url) as http:
        for path in paths:
            response = await http.request(method, path)
            assert response.status_code == 405, (method, path)


async def test_pages_and_security_headers(web: WebHall) -> None:
    ids = await _fill(web)
    async with httpx.AsyncClient(base_url=web.url) as http:
        home = await http.get("/")
        assert home.status_code == 200
        assert "script-src 'self'" in home.headers["content-security-policy"]
        assert home.headers["x-content-type-options"] == "nosniff"
        assert '<script src="/static/games/mia.js"' in home.text  # renderers are discovered

        history = await http.get("/history", params={"game": "cards", "player": "alice"})
        assert history.status_code == 200
        assert f'href="/matches/{ids["cards0"]}"' in history.text
        assert f'href="/matches/{ids["mia0"]}"' not in history.text
        bad = await http.get("/history", params={"since": "not a date"})
        assert bad.status_code == 400 and "since: must be a date" in bad.text
        assert '<a href="/history">start again</a>' in bad.text

        match = await http.get(f"/matches/{ids['mia1']}")
        assert match.status_code == 200 and 'id="replay"' in match.text
        assert (await http.get("/matches/987654")).status_code == 404

        players = await http.get("/players", params={"game": "cards"})
        assert 'href="/players/alice"' in players.text
        moved = await http.get("/players", params={"name": "a b/c"})
        assert moved.status_code == 303 and moved.headers["location"] == "/players/a%20b%2Fc"
        alice = await http.get("/players/alice")
        assert alice.status_code == 200 and "cards" in alice.text

        escaped = await http.get("/history", params={"player": "<script>x</script>"})
        assert "<script>x</script>" not in escaped.text

        assert (await http.get("/static/hall.js")).status_code == 200
        assert (await http.get("/static/games/mia.js")).status_code == 200


async def test_protocol_docs_are_served_and_confined(web: WebHall) -> None:
    root = web.web.settings.docs_root
    assert root is not None
    async with httpx.AsyncClient(base_url=web.url) as http:
        page = await http.get("/doc/design.md")
        assert page.status_code == 200 and "<h1>Herna architecture</h1>" in page.text
        raw = await http.get("/doc/design.md", params={"raw": "1"})
        assert raw.headers["content-type"].startswith("text/plain")
        assert raw.text == (root / "design.md").read_text(encoding="utf-8")
        for bad in (
            "/doc/../pyproject.toml",
            "/doc/%2e%2e/README.md",
            "/doc/nope.md",
            "/doc/design.txt",
            "/doc//etc/passwd.md",
        ):
            assert (await http.get(bad)).status_code == 404, bad


async def test_docs_index_lists_the_repository_docs(web: WebHall) -> None:
    async with httpx.AsyncClient(base_url=web.url) as http:
        index = await http.get("/doc")
        assert index.status_code == 200
        assert 'href="/doc/web.md"' in index.text
        assert 'href="/doc/design.md"' in index.text
