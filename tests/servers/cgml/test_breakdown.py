"""The terminal client's settlement breakdown (vyúčtování), derived from what the player saw,
against the money of real servers over many deals with the house bots."""

from __future__ import annotations

import asyncio
import dataclasses
import io
import re
from collections import Counter
from pathlib import Path

from rich.console import Console

from herna.cli.marias import Terminal
from herna.clients.cgml import BotDecider, login, play_group
from herna.protocols.cgml import messages as m
from herna.protocols.cgml.breakdown import Breakdown, derive
from herna.protocols.cgml.player import PlayerTracker
from herna.servers.cgml.seats import GroupSettings
from tests.servers.cgml.helpers import HOST, make_system

DEALS = 90
"""Enough deals for hlášky, sedma, betl and fleks (about 2 s): the player is the easy level
(the old rule bot, which bids betl often; the careful medium level seldom does)."""


async def _no_input(prompt: str) -> str | None:
    raise AssertionError(f"the terminal asked for input: {prompt}")


async def test_breakdown_money_equals_the_servers_over_many_deals(tmp_path: Path) -> None:
    # Fixed deals: with deals from secrets a run now and then had no flek at all.
    system = await make_system(tmp_path, GroupSettings(max_games=DEALS), seed=20261126)
    out = io.StringIO()
    console = Console(file=out, width=160, force_terminal=False, color_system=None)
    terminal = Terminal(console, _no_input, "ann")
    breakdowns: list[Breakdown] = []
    last: list[tuple[PlayerTracker, m.Result]] = []

    def on_message(message: m.Message, tracker: PlayerTracker) -> None:
        if isinstance(message, m.Result):
            breakdowns.append(derive(tracker, message))
            last[:] = [(tracker, message)]
        terminal.show_event(message, tracker)  # what the person's terminal prints

    me = m.PlayerRef("ann", "Ann", "human")
    try:
        complete = await login(
            HOST, system.login_port, me, opponents=(m.PlayerRef(None, None, "bot"),)
        )
        summary = await asyncio.wait_for(
            play_group(complete, me, BotDecider("easy", seed=5), on_message=on_message), 240
        )
    finally:
        await system.stop()
        system.records.close()
    text = out.getvalue()
    assert summary.games == DEALS == len(breakdowns)
    # Every deal's breakdown gives exactly the server's money.
    bad = [b for b in breakdowns if not b.agrees]
    assert not bad, [(b.unknown, b.derived_money, b.server_money) for b in bad]
    assert "Check:" not in text and "Breakdown unknown" not in text
    assert text.count("Money as the server's result says") == DEALS
    seen: Counter[str] = Counter()
    for b in breakdowns:
        assert b.settlement is not None
        for p in b.settlement.parts:
            seen[p.name] += 1
        seen["hláška"] += len(b.marriages)
        seen["flek"] += any(x > 1 for levels in b.seat_levels for x in levels)
    # The parts the breakdown must show did occur, and were printed in words.
    assert seen["hláška"] and seen["sedma"] and seen["betl"] and seen["flek"], seen
    assert "hlášky" in text and "Body (points): aktér" in text
    assert re.search(r"hláška \S+ \(\w+(, trumps)?\) (20|40) — ", text), text
    assert re.search(r"sedma \(seven: the last trick with the trump 7\): (won|lost)", text)
    assert re.search(r"units × (flek|re|tutti|boty) \(×\d+\)", text), text
    assert "Card points and hlášky do not count in betl." in text

    # A result whose money disagrees with what the player saw is flagged, and the money
    # shown in the table stays the server's.
    tracker, result = last[0]
    winners = tuple(m.MoneyLine(w.playerid, w.amount + 1) for w in result.winners)
    losers = tuple(
        m.MoneyLine(x.playerid, x.amount + (len(winners) if i == 0 else 0))
        for i, x in enumerate(result.losers)
    )
    forged = dataclasses.replace(result, winners=winners, losers=losers)
    out.seek(0)
    out.truncate()
    terminal.show_result(forged, tracker)
    flagged = out.getvalue()
    assert "Check: this breakdown (the ČSM tariff) gives" in flagged, flagged
    assert "the server's money counts" in flagged
    mine = forged.money()["ann"]
    assert f"You {mine:+d} this game" in flagged
