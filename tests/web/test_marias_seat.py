"""The browser seat's relay (herna.clients.marias_seat.SeatRelay) against the real CGML servers
of `herna serve`, without a browser: over several deals, every state it would send a page
holds no card of another seat that was not played face up, checked against the records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from herna.clients.marias_seat import SeatRelay
from herna.games.marias import CARD_CODES
from herna.protocols.cgml.messages import PlayerRef
from herna.servers.cgml import CgmlService
from tests.serve import serving
from tests.web.play_helpers import eventually
from tests.web.test_play_marias import deals_of_records, hands_of

DEALS = 4


def codes(value: Any) -> set[str]:
    text = json.dumps(value)
    return {c for c in CARD_CODES if f'"{c}"' in text}


async def test_no_state_shows_another_seats_hidden_cards_over_several_deals(
    tmp_path: Path,
) -> None:
    async with serving(
        tmp_path, "marias", cgml_bot_delay=0.0, cgml_house_tables=0, cgml_fill_wait=0.05
    ) as hall:
        service = hall.service("marias")
        assert isinstance(service, CgmlService)
        snap = service.login.lobby.snapshot
        await eventually(lambda: bool(snap()["game_servers"]) and bool(snap()["bot_servers"]))
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
        seen_hands = 0
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
            seen_hands += len(during)
        assert seen_hands > DEALS * 5
