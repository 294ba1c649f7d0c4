"""The people's Mia table: a second table of the same server code, paced for people.

The bots' table keeps the seed's 250 ms answer window (a person cannot answer that fast). This
table is one more :class:`~herna.servers.mia.table.MiaTable` on a UDP port of its own
(``--mia-people-port``, default the Mia port + 1) with an answer window a person can use
(``--mia-people-timeout``, default 20 s) and a pause between rounds to read the result. It
speaks the seed's protocol exactly as the bots' table does; the browser seat
(:mod:`herna.web.play_mia`) and ``herna play mia`` are clients of it like any bot.

House bots of the strategies ``--mia-people-bots`` names sit at it. They play only while a
person (anyone not a house bot) is registered, and answer after a short think
(:func:`think_time`), well inside the window, so they never time out or stall the table.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from herna.clients.mia import run_house_bots
from herna.games.mia.bots import LEVELS, STRATEGIES
from herna.hall.hall import Hall
from herna.servers.mia.table import MiaSettings, MiaTable
from herna.servers.mia.udp import MiaUdpServer, serve_table

PEOPLE_TABLE = "people"
"""The people's table's live table id (``/live/mia/people``)."""
DEFAULT_PEOPLE_TIMEOUT = 20.0
DEFAULT_PEOPLE_BOTS = ("probability", "honest")
DEFAULT_PEOPLE_ROUND_PAUSE = 4.0
"""Seconds between rounds: time to read who lost and why."""
DEFAULT_PEOPLE_THINK = 1.8
"""The longest a house bot at the people's table thinks before it answers (seconds)."""

BOT_NAMES = {"probability": "Petra-bot", "honest": "Ota-bot", "random": "Bara-bot"}
"""House bots of the people's table by strategy: names a person can read aloud (the
bots' table has house-prob, house-honest ...)."""


def people_bot_names(strategies: Sequence[str]) -> list[tuple[str, str]]:
    """``(name, strategy)`` of the people's table's house bots (a second bot of the same
    strategy gets a number: Petra-bot2)."""
    out: list[tuple[str, str]] = []
    for strategy in strategies:
        base = BOT_NAMES[strategy]
        count = sum(1 for _, s in out if s == strategy)
        out.append((base + (str(count + 1) if count else ""), strategy))
    return out


BOTS_PER_LEVEL = 2


def level_bots(default: Sequence[str]) -> dict[str, list[tuple[str, str]]]:
    """The house bots of each level a person may choose (two of its strategy), and of
    ``""``: the operator's ``--mia-people-bots``. A bot in several sets is one bot."""
    out = {"": people_bot_names(default)}
    for level, strategy in LEVELS.items():
        out[level] = people_bot_names([strategy] * BOTS_PER_LEVEL)
    return out


def parse_strategies(text: str | Sequence[str]) -> tuple[str, ...]:
    """``"probability,honest"`` (or a list, from herna.toml) as strategies; raises
    ``ValueError`` naming the choices for anything else."""
    items = text.split(",") if isinstance(text, str) else list(text)
    out = tuple(str(s).strip() for s in items if str(s).strip())
    bad = [s for s in out if s not in STRATEGIES]
    if bad:
        raise ValueError(
            f"unknown Mia strategy {bad[0]!r} for the people's table; "
            f"choose from {', '.join(STRATEGIES)}"
        )
    return out


def think_time(
    window: float, longest: float = DEFAULT_PEOPLE_THINK, rng: random.Random | None = None
) -> Callable[[], float]:
    """Seconds a house bot waits before each answer: between 40 % of ``longest`` and all of
    it (0.7-1.8 s by default: a person can follow who did what), and never more than a sixth
    of the answer window (so it answers in time even on a loaded machine)."""
    pick = rng or random.Random()
    cap = window / 6

    def think() -> float:
        return min(cap, pick.uniform(0.4 * longest, longest))

    return think


@dataclass
class PeopleTable:
    server: MiaUdpServer
    table: MiaTable
    house: list[tuple[str, str]]
    """``(name, strategy)`` of its house bots, every level's."""
    levels: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    """The house bots of each level (``""``: the operator's default)."""
    bots: list[asyncio.Task[None]] = field(default_factory=list)

    @property
    def port(self) -> int:
        return self.server.address[1]

    @property
    def answer_window(self) -> float:
        return self.table.settings.answer_window

    async def stop(self) -> None:
        for task in self.bots:
            task.cancel()
        await asyncio.gather(*self.bots, return_exceptions=True)
        self.table.stop()
        self.server.close()


def start_people_table(
    hall: Hall,
    host: str,
    port: int,
    window: float,
    strategies: Sequence[str],
    round_pause: float = DEFAULT_PEOPLE_ROUND_PAUSE,
    seed: int | None = None,
    think: float = DEFAULT_PEOPLE_THINK,
) -> PeopleTable:
    """Bind the people's table on ``host:port`` (0: a free port), start it and its house
    bots (they register over UDP like any client)."""
    levels = level_bots(strategies) if strategies else {}
    house = list(dict.fromkeys(bot for bots in levels.values() for bot in bots))
    tokens = {name: hall.identity.reserve_house_bot(name) for name, _ in house}
    settings = MiaSettings(
        answer_window=window,
        start_early=True,
        round_pause=round_pause,
        house_names=frozenset(name for name, _ in house),
        house_round_pause=round_pause,
        house_levels={k: frozenset(n for n, _ in v) for k, v in levels.items()},
        counter="mia.people.round",
        table_prefix="people-round",
        live_table=PEOPLE_TABLE,
        wait_for_people=True,
        seed=None if seed is None else seed + 1,
    )
    server, table = serve_table(hall, host, port, settings)
    people = PeopleTable(server, table, house, levels)
    if house:
        # A silent server for three heartbeats still means lost, as for the bots' table.
        people.bots = run_house_bots(
            host, server.address[1], house, tokens, think=think_time(window, think)
        )
    return people
