"""The browser seat's relay (herna.clients.marias_seat.SeatRelay) against the real CGML servers
of `herna serve`, without a browser: over several deals, every state it would send a page
holds no card of another seat that was not played face up, checked against the records."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from herna.clients.marias_seat import SeatRelay
from herna.games.marias import CARD_CODES
from herna.hall.db import RatingRow
from herna.hall.hall import Hall
from herna.hall.identity import new_secret
from herna.protocols.cgml.messages import PlayerRef
from herna.servers.cgml import CgmlService
from herna.web.plugin import WebHall
from tests.serve import serving
from tests.web.play_helpers import eventually
from tests.web.test_play_marias import deals_of_records, hands_of

DEALS = 4


def codes(value: Any) -> set[str]:
    text = json.dumps(value)
    return {c for c in CARD_CODES if f'"{c}"' in text}


@asynccontextmanager
async def marias_only(tmp_path: Path) -> AsyncIterator[Hall]:
    """A hall of the mariáš servers alone, bots without delay, its servers up."""
    async with serving(
        tmp_path, "marias", cgml_bot_delay=0.0, cgml_house_tables=0, cgml_fill_wait=0.05
    ) as hall:
        service = hall.service("marias")
        assert isinstance(service, CgmlService)
        snap = service.login.lobby.snapshot
        await eventually(lambda: bool(snap()["game_servers"]) and bool(snap()["bot_servers"]))
        yield hall


async def test_no_state_shows_another_seats_hidden_cards_over_several_deals(
    tmp_path: Path,
) -> None:
    async with marias_only(tmp_path) as hall:
        service = hall.service("marias")
        assert isinstance(service, CgmlService)
        states: list[dict[str, Any]] = []
        host, port = service.login.player_address[:2]
        relay = SeatRelay(
            host,
            port,
            PlayerRef("watcher", "watcher", "human"),
            (PlayerRef("house-heuristic-bot"), PlayerRef("house-heuristic-bot")),
            on_change=lambda: states.append(relay.state()),
        )
        relay.set_stand_in(True)  # the stand-in answers every question at once
        relay.start()
        # Until this seat has won a licitace at least once: the moment between the licitace
        # and the talon's arrival is where a guessed talon could show.
        await eventually(
            lambda: (
                relay.deals >= DEALS and any(s["talon"] for s in states) and relay.pending is None
            ),
            90,
        )
        await relay.stop()
        played = relay.deals
        records = deals_of_records(hall, "watcher")[:played]
        assert len(records) == played
        assert all(r.meta["stand_in"] == ["watcher"] for r in records)
        # Deals played by a stand-in leave the person's rating alone (the bots' ratings move).
        with Session(hall.records.engine) as session:
            rated = {
                r.name for r in session.scalars(select(RatingRow).where(RatingRow.game == "marias"))
            }
        assert "watcher" not in rated and rated
        seen_hands = 0
        marriages = 0
        for deal, record in enumerate(records):
            hands, talon = hands_of(record)
            me = record.result["ids"].index("watcher")
            others = set().union(*hands) - hands[me]
            during = [s for s in states if s["deals"] == deal and s["hand"]]
            assert during, deal
            for s in during:
                own = {c["code"] for c in s["hand"]} | {c["code"] for c in s["talon"]}
                assert own <= hands[me] | talon
                rest = {k: v for k, v in s.items() if k not in ("trick", "last_trick")}
                assert not codes(rest) & others, (deal, s)
                # hlášky shown during the deal are real: that seat holds svršek and král
                seat_of = {p.name: p.seat for p in record.players} | {"you": me}
                for m in s["marriages"]:
                    pair = {m["suit"] + "0K", m["suit"] + "0Q"}
                    assert pair <= hands[seat_of[m["name"]]] | talon, (m, s)
                    marriages += 1
            seen_hands += len(during)
        assert seen_hands > DEALS * 5


async def test_bad_frames_get_clear_errors_and_change_nothing(tmp_path: Path) -> None:
    async with serving(
        tmp_path, "marias,web", cgml_bot_delay=0.0, cgml_house_tables=0, cgml_fill_wait=0.05
    ) as hall:
        web = hall.service("web")
        assert isinstance(web, WebHall)
        url = f"ws://127.0.0.1:{web.port}/ws/marias"
        async with connect(url) as ws:

            async def reply(frame: str | bytes) -> dict[str, Any]:
                await ws.send(frame)
                answer: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 5))
                return answer

            assert (await reply(b"\x00binary"))["code"] == "BAD_MESSAGE"
            assert (await reply("not json"))["code"] == "BAD_MESSAGE"
            assert (await reply("[1, 2]"))["code"] == "BAD_MESSAGE"
            assert (await reply(json.dumps({"type": "x" * 5000})))["code"] == "TOO_LARGE"
            assert (await reply(json.dumps({"type": "act", "decision": 1, "choice": 0})))[
                "code"
            ] == "NO_SEAT"
            no_cookie = {"type": "sit", "name": "guest-abcdefgh", "opponents": "people"}
            assert (await reply(json.dumps(no_cookie)))["code"] == "BAD_NAME"
            # a token does not make a name one's own unless it proves that name
            forged = {**no_cookie, "token": new_secret()}
            assert (await reply(json.dumps(forged)))["code"] == "BAD_NAME"
            unknown = {"type": "resume", "seat": new_secret(), "seq": 3}
            error = await reply(json.dumps(unknown))
            assert error == {
                "type": "error",
                "seq": -1,
                "code": "UNKNOWN_SEAT",
                "message": "There is no such seat here: the table ended, or the seat id is wrong.",
            }
            assert web.web.marias.seats == {}
            # a guest of this hall (its signed session cookie, from the play page) with
            # opponents not on the list
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{web.port}") as http:
            page = await http.get("/play/marias")
            cookie = f"herna_session={page.cookies['herna_session']}"
            guest = re.search(r'"guest": ?"(guest-[a-z0-9]+)"', page.text)
            assert guest is not None
        no_cookie["name"] = guest.group(1)
        async with connect(url, additional_headers={"Cookie": cookie}) as ws:
            await ws.send(json.dumps({**no_cookie, "opponents": "house-nobody"}))
            error = json.loads(await asyncio.wait_for(ws.recv(), 5))
            assert error["code"] == "BAD_OPPONENTS"
            # seated at a table that waits for another person: nobody asks this seat
            # anything, so an answer is out of turn
            await ws.send(json.dumps(no_cookie))
            frames = [json.loads(await asyncio.wait_for(ws.recv(), 5)) for _ in range(2)]
            assert frames[0]["type"] == "seat" and frames[1]["type"] == "state"
            seat = web.web.marias.seats[frames[0]["seat"]]
            await eventually(lambda: seat.relay.status == "waiting")
            await ws.send(json.dumps({"type": "act", "decision": 1, "choice": 0}))
            while (frame := json.loads(await asyncio.wait_for(ws.recv(), 5)))["type"] != "error":
                assert frame["type"] == "state" and frame["decision"] is None
            assert frame["code"] == "NOT_YOUR_TURN"
            assert seat.relay.pending is None and seat.relay.decisions == 0
            await ws.send(json.dumps(no_cookie))
            while (frame := json.loads(await asyncio.wait_for(ws.recv(), 5)))["type"] != "error":
                pass
            assert frame["code"] == "SEATED"
            # 50 refused frames in a row (the two above count) close the connection with
            # 1008, after their errors
            for _ in range(50):
                await ws.send("nope")
            codes = []
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    codes.append(json.loads(await asyncio.wait_for(ws.recv(), 5))["code"])
            assert codes == ["BAD_MESSAGE"] * 48
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        # the page is gone; its seat waits for the grace window, untouched
        assert list(web.web.marias.seats) == [frames[0]["seat"]]
        # a name proved by its token may sit without a cookie
        token = hall.identity.reserve_house_bot("anna")
        async with connect(url) as ws:
            await ws.send(json.dumps({**no_cookie, "name": "anna", "token": token}))
            seated = json.loads(await asyncio.wait_for(ws.recv(), 5))
            assert seated["type"] == "seat"


async def test_no_deal_nobody_asked_for_among_bots_while_the_page_is_gone(tmp_path: Path) -> None:
    """A person's page is gone and only house bots sit at the table: the stand-in finishes
    the deal and no new deal starts in the person's name; the table holds it until the page
    comes back (then it goes on), or the seat leaves the table after the hold."""
    async with marias_only(tmp_path) as hall:
        service = hall.service("marias")
        assert isinstance(service, CgmlService)
        host, port = service.login.player_address[:2]
        bots = (PlayerRef("house-heuristic-bot"), PlayerRef("house-heuristic-bot"))

        async def away(name: str, hold: float) -> SeatRelay:
            relay = SeatRelay(host, port, PlayerRef(name, name, "human"), bots, away_hold=hold)
            relay.set_stand_in(True)
            relay.start()
            await eventually(lambda: relay.status == "playing", 30)
            relay.present = False  # the page is gone once the table has started
            return relay

        back = await away("comes-back", 60.0)
        await eventually(lambda: back.deals >= 1 and back.holding, 60)
        await asyncio.sleep(1.0)
        assert back.deals == 1 and back.holding and not back.done
        back.present = True  # the page comes back and takes the seat …
        back.set_stand_in(False)
        back.set_stand_in(True)  # (and a stand-in answers for this test's person)
        await eventually(lambda: back.deals >= 2, 60)
        await back.stop()

        gone = await away("stays-away", 0.5)
        await eventually(lambda: gone.done, 60)
        assert gone.deals == 1
        await gone.stop()
        assert len(deals_of_records(hall, "stays-away")) == 1
