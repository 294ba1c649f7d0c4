"""Helpers of the live tournament tests: reserved names, entrants, the new tournament page,
and waiting for the entrants and for the end."""

from __future__ import annotations

import asyncio
from typing import Any

from herna.clients import onitama as onitama_client
from herna.clients import tiles as tiles_client
from herna.clients.cgml import BotDecider, GroupSummary, run_player
from herna.games.onitama.bots import make_strategy
from herna.hall.hall import Hall
from herna.hall.identity import ReservedNames
from herna.hall.tournament_live import LiveTournaments
from herna.hall.tournament_store import Tournament, TournamentStore
from herna.protocols.cgml.messages import PlayerRef


async def entered(director: LiveTournaments, tid: int, n: int) -> list[str]:
    """Wait until ``n`` entrants are waiting for their games; returns them."""
    for _ in range(250):
        if len(director.waiting(tid)) >= n:
            return director.waiting(tid)
        await asyncio.sleep(0.02)
    raise AssertionError(f"only {director.waiting(tid)} are waiting")


async def finished(store: TournamentStore, tid: int, timeout: float = 60.0) -> Tournament:
    """Wait until the tournament is finished or aborted; returns it as stored."""
    for _ in range(int(timeout / 0.05)):
        tour = store.get(tid)
        assert tour is not None
        if tour.status in ("finished", "aborted"):
            return tour
        await asyncio.sleep(0.05)
    raise AssertionError("the tournament did not finish")


def reserve(hall: Hall, *names: str) -> dict[str, str]:
    """Reserve ``names`` in the hall's book; their tokens."""
    book = ReservedNames(hall.records.engine)
    tokens = {name: book.add(name) for name in names}
    hall.identity.reload()
    return tokens


def onitama_entrant(
    port: int, name: str, token: str, tid: int, seed: int = 1
) -> asyncio.Task[onitama_client.PlayResult]:
    """A greedy Onitama bot over TCP under a reserved name, waiting for tournament ``tid``."""
    return asyncio.create_task(
        onitama_client.run_bot(
            "127.0.0.1",
            port,
            name,
            make_strategy("greedy", seed=seed),
            token=token,
            seek=f"tournament={tid}",
            reconnect=False,
        )
    )


def tiles_entrants(
    port: int, tokens: dict[str, str], tid: int
) -> list[asyncio.Task[tiles_client.BotRun]]:
    """A random tile bot over TCP for each reserved name, waiting for tournament ``tid``."""
    return [
        asyncio.create_task(
            tiles_client.run_bot(
                "127.0.0.1",
                port,
                name,
                None,
                "random",
                seed=i,
                token=token,
                reconnect=False,
                tournament=tid,
            )
        )
        for i, (name, token) in enumerate(tokens.items())
    ]


def cgml_entrants(
    host: str, port: int, tokens: dict[str, str], tid: int
) -> list[asyncio.Task[list[GroupSummary]]]:
    """A rule bot over CGML for each reserved name, waiting for tournament ``tid``'s groups."""
    return [
        asyncio.create_task(
            run_player(
                host,
                port,
                PlayerRef(name, name, "bot"),
                BotDecider("heuristic", seed=i),
                groups=None,
                status="passive",
                token=token,
                tournament=str(tid),
            )
        )
        for i, (name, token) in enumerate(tokens.items())
    ]


async def sign_up_and_create(page: Any, url: str, fields: dict[str, str]) -> int:
    """At ``url``'s web hall: sign up as Vendula, then make a tournament on the new
    tournament page with ``fields`` (``#t-…`` ids: a select's option, or an input's text);
    returns its id, the page left at the tournament's page."""
    await page.goto(url + "/signup")
    await page.fill("#name", "Vendula")
    await page.fill("#password", "correct horse battery")
    await page.click("form.account button[type=submit]")
    await page.wait_for_url(url + "/")
    await page.goto(url + "/tournaments/new")
    for field, value in fields.items():
        if await page.locator(f"select#t-{field}").count():
            await page.select_option(f"#t-{field}", value)
        else:
            await page.fill(f"#t-{field}", value)
    await page.click("#new-tournament button[type=submit]")
    await page.click("#tournament-link")
    return int(page.url.rsplit("/", 1)[1])
