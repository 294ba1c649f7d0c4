"""A person who took a waiting mariáš seek is not left waiting for ever when the seek's person
leaves first (over ``/ws/marias`` with WebSocket clients, each with its own guest cookie)."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from herna.servers.cgml import CgmlService
from herna.web.plugin import WebHall
from tests.serve import serving
from tests.web.play_helpers import eventually


async def person(web: WebHall) -> tuple[str, str]:
    """A new guest: (name, cookie header)."""
    async with httpx.AsyncClient(base_url=web.url) as http:
        page = await http.get("/play/marias")
        found = re.search(r'id="play-name">([^<]+)<', page.text)
        assert found is not None
        return found.group(1), "; ".join(f"{k}={v}" for k, v in http.cookies.items())


async def sit(web: WebHall, cookie: str, name: str, seek: str) -> ClientConnection:
    ws = await connect(
        f"ws://127.0.0.1:{web.port}/ws/marias", additional_headers={"Cookie": cookie}
    )
    await ws.send(json.dumps({"type": "sit", "name": name, "seek": seek}))
    return ws


async def until(ws: ClientConnection, check: Any, timeout: float = 15) -> dict[str, Any]:
    """The first state frame that passes ``check``."""
    async with asyncio.timeout(timeout):
        while True:
            frame = json.loads(await ws.recv())
            if frame["type"] == "state" and check(frame):
                return dict(frame)


async def test_the_person_whose_seek_was_taken_leaves_before_the_table_forms(
    tmp_path: Path,
) -> None:
    """bea takes ann's seek; the table waits for a third person (the fill wait is long); ann
    leaves. bea is told so in words and waits for people, not for ever for ann."""
    options = {
        "cgml_bot_delay": 0.0,
        "cgml_house_tables": 0,
        "cgml_fill_wait": 60.0,
        "web_seek_grace": 0.5,
    }
    async with serving(tmp_path, "marias,web", **options) as hall:  # type: ignore[arg-type]
        web = hall.service("web")
        service = hall.service("marias")
        assert isinstance(web, WebHall) and isinstance(service, CgmlService)
        await eventually(lambda: bool(service.login.lobby.snapshot()["game_servers"]), 10)
        (ann, a_cookie), (bea, b_cookie) = [await person(web) for _ in "ab"]
        a = await sit(web, a_cookie, ann, "person,opponent=people")
        # (house players' seeks may come and go meanwhile: ann's is the one looked for)
        anns = lambda: [s for s in hall.lobby.snapshot("marias") if s["owner"] == ann]  # noqa: E731
        await eventually(lambda: bool(anns()), 10)
        [seek] = anns()
        b = await sit(web, b_cookie, bea, f"person,accept={seek['id']}")
        owners = lambda: sorted(s["owner"] for s in hall.lobby.snapshot("marias"))  # noqa: E731
        await eventually(lambda: owners() == sorted([ann, bea]), 10)  # both wait for a third
        await a.close()  # ann leaves; after the seek grace her seat leaves the login server
        frame = await until(b, lambda f: "no longer waiting" in f["message"])
        assert frame["status"] == "waiting"
        assert frame["message"] == (
            f"{ann} is no longer waiting: they left, or somebody else took the seat. "
            "You are waiting for another person."
        )
        await eventually(
            lambda: (
                [(s["owner"], s["opponent"]) for s in hall.lobby.snapshot("marias")]
                == [(bea, "people")]
            ),
            10,
        )
        await b.close()
        hall.records.flush()
        assert hall.records.matches(game="marias") == []
