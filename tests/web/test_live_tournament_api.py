"""Live tournaments from the command line: ``herna tournament create|start|abort`` against a
real ``herna serve`` (Onitama and the web hall) through its JSON API, and that API's answers
to bad requests."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import httpx
import pytest
from sqlalchemy.orm import Session

from herna.cli import main
from herna.hall.db import RatingRow
from herna.hall.identity import ReservedNames
from herna.hall.tournament_live import TournamentError
from herna.hall.tournament_store import TournamentStore
from herna.servers.onitama import OnitamaService
from tests.live_tournaments import entered, finished, onitama_entrant
from tests.serve import serving
from tests.web.test_people import _web


async def test_create_and_start_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with serving(tmp_path, "onitama,web", onitama_house_bots=0) as hall:
        web = _web(hall)
        onitama = hall.service("onitama")
        assert isinstance(onitama, OnitamaService)
        argv = ["tournament", "create", "--hall", web.url, "--name", "cli night"]
        code = await asyncio.to_thread(main, [*argv, "--house", "easy"])
        assert code == 0
        out = capsys.readouterr().out
        tid = int(re.search(r"tournament (\d+):", out).group(1))  # type: ignore[union-attr]
        admin = re.search(r"admin token \(shown only now\): (\S+)", out).group(1)  # type: ignore[union-attr]
        assert f"{web.url}/tournaments/{tid}" in out
        token = ReservedNames(hall.records.engine).add("ada")
        hall.identity.reload()
        bot = onitama_entrant(onitama.port, "ada", token, tid, 1)
        director = hall.tournaments
        assert director is not None
        await entered(director, tid, 2)
        start = ["tournament", "start", str(tid), "--hall", web.url]
        assert await asyncio.to_thread(main, [*start, "--token", "wrong"]) == 1
        assert "not the admin token" in capsys.readouterr().out
        assert await asyncio.to_thread(main, [*start, "--token", admin]) == 0
        assert f"tournament {tid}: running" in capsys.readouterr().out
        tour = await finished(TournamentStore(hall.records.engine), tid)
        await asyncio.wait_for(bot, 10)
        assert tour.status == "finished" and len(tour.games) == 1
        assert {e.kind for e in tour.entrants} == {"bot", "house-bot"}
        # Once over, it can be neither started nor aborted.
        assert await asyncio.to_thread(main, [*start, "--token", admin]) == 1
        assert "is finished" in capsys.readouterr().out


async def test_the_json_api_answers_bad_requests_in_json(tmp_path: Path) -> None:
    async with serving(tmp_path, "onitama,web", onitama_house_bots=0) as hall:
        web = _web(hall)
        async with httpx.AsyncClient(base_url=web.url) as http:
            form = await http.post("/api/tournaments", data={"game": "onitama"})
            assert form.status_code == 415 and "json" in form.json()["error"]
            bad = await http.post(
                "/api/tournaments", content=b"{", headers={"content-type": "application/json"}
            )
            assert bad.status_code == 400 and bad.json()["error"] == "the body is not JSON"
            assert (await http.post("/api/tournaments", json=[1])).status_code == 400
            game = await http.post("/api/tournaments", json={"game": "chess", "format": "swiss"})
            assert game.status_code == 400 and "live tournaments are held" in game.json()["error"]
            big = await http.post("/api/tournaments", json={"name": "x" * 40_000})
            assert big.status_code == 413
            made = await http.post(
                "/api/tournaments", json={"game": "mia", "format": "session", "minutes": 1}
            )
            assert made.status_code == 201, made.text
            tid, admin = made.json()["id"], made.json()["admin_token"]
            assert "admin_digest" not in (await http.get(f"/tournaments/{tid}/table.json")).text
            wrong = await http.post(f"/api/tournaments/{tid}/abort")
            assert wrong.status_code == 403
            auth = {"authorization": f"Bearer {admin}"}
            assert (await http.post("/api/tournaments/999/abort", headers=auth)).status_code == 403
            done = await http.post(f"/api/tournaments/{tid}/abort", headers=auth)
            assert done.json() == {"id": tid, "status": "aborted"}
            again = await http.post(f"/api/tournaments/{tid}/abort", headers=auth)
            assert again.status_code == 409
            assert (await http.get("/api/tournaments")).status_code == 405


async def test_an_entry_list_enters_reserves_and_seeds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A teacher's class list (``herna tournament create --entrants FILE``): every name is
    entered at once; names nobody had are reserved for their entrants and their tokens printed
    once; a name reserved before keeps its own token; a list with a bad name makes nothing;
    the organiser withdraws one before the start; the field is seeded by rating; the listed
    bots then play under their names with those tokens, and nobody else can."""
    async with serving(tmp_path, "onitama,web", onitama_house_bots=0) as hall:
        web = _web(hall)
        onitama = hall.service("onitama")
        director = hall.tournaments
        assert isinstance(onitama, OnitamaService) and director is not None
        robo_token = ReservedNames(hall.records.engine).add("robo")
        hall.identity.reload()
        entry_list = tmp_path / "class.csv"
        entry_list.write_text("name,group\nada,A\nbea,B\nrobo,A\n\nada,A\n", encoding="utf-8")
        argv = ["tournament", "create", "--hall", web.url, "--name", "class 4B"]
        argv += ["--entrants", str(entry_list), "--seeding", "rating"]
        assert await asyncio.to_thread(main, argv) == 0
        out = capsys.readouterr().out
        tid = int(re.search(r"tournament (\d+):", out).group(1))  # type: ignore[union-attr]
        tokens = dict(re.findall(r"^(ada|bea|robo),(\S*)$", out, re.MULTILINE))
        assert set(tokens) == {"ada", "bea", "robo"} and tokens["robo"] == ""
        assert len(tokens["ada"]) > 20 and tokens["ada"] != tokens["bea"]
        store = TournamentStore(hall.records.engine)
        tour = store.get(tid)
        assert tour is not None
        assert [(e.name, e.kind) for e in tour.entrants] == [
            ("ada", "bot"),
            ("bea", "bot"),
            ("robo", "bot"),
        ]

        async with httpx.AsyncClient(base_url=web.url) as http:
            refused = await http.post(
                "/api/tournaments",
                json={"name": "x", "entrants": ["ok", "two words"]},
            )
            assert refused.status_code == 400 and "two words" in refused.json()["error"]
        # The refused list left no tournament taking entrants behind it.
        assert [t.status for t in store.recent() if t.name == "x"] == ["aborted"]

        director.remove_entrant(tid, "bea")
        with pytest.raises(TournamentError, match="has not entered"):
            director.remove_entrant(tid, "nobody")
        # Seeding by rating: robo is rated higher than ada, so robo is first.
        with Session(hall.records.engine) as session:
            session.add_all(
                [
                    RatingRow(game="onitama", name="robo", mu=30.0, sigma=2.0, games=9),
                    RatingRow(game="onitama", name="ada", mu=20.0, sigma=2.0, games=9),
                ]
            )
            session.commit()
        stolen = await onitama_wire_login(onitama.port, "ada")
        assert stolen.startswith("LOGIN_FAILED|")  # a listed name is its entrant's alone
        bots = [
            onitama_entrant(onitama.port, "ada", tokens["ada"], tid, 1),
            onitama_entrant(onitama.port, "robo", robo_token, tid, 2),
        ]
        await entered(director, tid, 2)
        director.begin(tid)
        done = await finished(store, tid, timeout=90)
        for bot in bots:
            await asyncio.wait_for(bot, 10)
        assert done.status == "finished"
        assert done.settings["order"] == ["robo", "ada"]
        assert [e.name for e in done.entrants] == ["ada", "robo"]
        assert len([g for g in done.games if not g.board.bye]) == 1
        with pytest.raises(TournamentError, match="too late"):
            director.remove_entrant(tid, "ada")


async def onitama_wire_login(port: int, name: str) -> str:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"LOGIN|{name}\n".encode())
    await writer.drain()
    line = await asyncio.wait_for(reader.readline(), 10)
    writer.close()
    return line.decode().strip()
