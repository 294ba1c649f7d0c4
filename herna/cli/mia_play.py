"""``herna play mia``: a person plays Mia in the terminal at the people's table.

The same seat as the browser's (:class:`~herna.clients.mia_seat.MiaSeat`, a UDP client of the
seed's protocol): it joins every round, shows what happens at the table in words, and when
it is your turn offers the choices (roll or see; after rolling, the announcements higher
than the last one, the truth marked). Type a number, ``r``/``s``, or dice like ``6-5`` or
``mia``; ``q`` leaves the table. Lines are read from standard input as they come, so a
clock that runs out while you think is told like any other loss.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import threading
from collections.abc import Awaitable, Callable
from typing import Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from herna.cli import GameCommands
from herna.cli.language import add_language_option, say_in
from herna.cli.tokens import add_token_option
from herna.clients.mia_seat import MiaSeat
from herna.games.mia.bots import LEVELS
from herna.games.mia.dice import Dice, InvalidDice
from herna.games.mia.words import STRATEGY_WORDS
from herna.servers.mia.people import DEFAULT_PEOPLE_TIMEOUT

DEFAULT_PEOPLE_PORT = 9001

ReadLine = Callable[[], Awaitable[str | None]]
"""The next line the person typed (``None``: end of input)."""

QUIT = ("q", "quit", "exit", "leave")


def add_play_parser(commands: GameCommands) -> None:
    p = commands.play.add_parser(
        "mia",
        help="play Mia yourself in the terminal, at the people's table",
        description="Sit down at the people's table of a Mia server (herna serve's "
        "--mia-people-port, a person's answer window) with its house bots and anyone else, "
        "and play round after round. What happens is told in words; when it is your turn "
        "the choices are listed: type a number, r (roll), s (see), or dice to announce like "
        "6-5, 4-4 or mia. q leaves the table.",
    )
    p.add_argument("--name", required=True, help="your name (max 20 chars, no blanks or ;:,)")
    p.add_argument("--host", default="127.0.0.1", help="server address (default 127.0.0.1)")
    p.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PEOPLE_PORT,
        help=f"the people's table's UDP port (default {DEFAULT_PEOPLE_PORT})",
    )
    p.add_argument(
        "--window",
        type=float,
        default=DEFAULT_PEOPLE_TIMEOUT,
        metavar="SECONDS",
        help="the table's answer window, for the clock shown "
        f"(default {DEFAULT_PEOPLE_TIMEOUT:g}, the server's --mia-people-timeout)",
    )
    p.add_argument(
        "--bots",
        choices=tuple(LEVELS),
        default="",
        metavar="LEVEL",
        help="the house bots you play with: "
        + "; ".join(f"{lv} ({STRATEGY_WORDS[s]})" for lv, s in LEVELS.items())
        + " (default: the hall's choice, herna serve's --mia-people-bots)",
    )
    p.add_argument("--rounds", type=int, help="leave after playing this many rounds")
    add_language_option(p, "the table's words (the dice, the story, the choices)")
    add_token_option(p, "REGISTER;name;token")
    p.set_defaults(func=run_play_command)


def parse_dice(text: str) -> Dice | None:
    """``6-5``, ``6,5``, ``65``, ``mia`` as dice (either order)."""
    word = text.strip().lower()
    if word == "mia":
        return Dice(2, 1)
    digits = [c for c in word if c.isdigit()]
    if len(digits) != 2 or any(c not in "-, " and not c.isdigit() for c in word):
        return None
    try:
        return Dice.parse(",".join(digits))
    except InvalidDice:
        return None


def read_choice(seat: MiaSeat, text: str) -> tuple[str, str | None] | None:
    """The person's line as ``(action, dice)`` among the seat's choices, or None."""
    choices = seat.choices()
    word = text.strip().lower()
    if word.isdigit() and 1 <= int(word) <= len(choices):
        chosen = choices[int(word) - 1]
        return chosen["action"], chosen.get("dice")
    for c in choices:
        if c["action"] != "announce" and word in (c["action"], c["action"][0]):
            return c["action"], None
    dice = parse_dice(word)
    if dice is not None and any(c.get("dice") == str(dice) for c in choices):
        return "announce", str(dice)
    return None


def render_turn(seat: MiaSeat) -> Panel:
    """The table when it is the person's turn: order, announcements, own dice, choices."""
    _ = say_in(seat.lang)
    st = seat.state()
    order = Text()
    for i, name in enumerate(st["players"]):
        if i:
            order.append("  →  ")
        mine = name == seat.name
        label = _("{name} (you)").format(name=name) if mine else name
        order.append(label, style="bold" if mine else "")
    lines: list[Any] = [Text(_("Round {n}: ").format(n=st["round"])) + order]
    if st["announcements"]:
        said = ", ".join(f"{a['name']}: {a['words']}" for a in st["announcements"])
        lines.append(Text(_("Announced so far: {said}").format(said=said)))
    else:
        lines.append(Text(_("Nobody has announced yet.")))
    if st["my_dice"]:
        rolled = _("You rolled {dice} (only you see it).").format(dice=st["my_dice"]["words"])
        lines.append(Text(rolled, "bold"))
    menu = Table.grid(padding=(0, 2))
    choices = st["choices"]
    per_row = 4 if st["step"] == "announce" else 2
    row: list[Text] = []
    for i, c in enumerate(choices, 1):
        words = c["words"] + (_(" ← the truth") if c.get("truth") else "")
        row.append(Text.assemble((f"{i}) ", "cyan"), words))
        if len(row) == per_row:
            menu.add_row(*row)
            row = []
    if row:
        menu.add_row(*row)
    lines.append(menu)
    ask = _("Roll or see?") if st["step"] == "turn" else _("Announce (the truth or a bluff):")
    title = _("Your turn: {ask} {s} s to answer").format(ask=ask, s=f"{st['window']:g}")
    return Panel(Group(*lines), title=title, title_align="left")


def render_scores(seat: MiaSeat) -> Text:
    _ = say_in(seat.lang)
    rows = sorted(seat.scores.items(), key=lambda kv: (-kv[1], kv[0]))
    text = Text(_("Scores: "))
    for i, (name, points) in enumerate(rows):
        if i:
            text.append(", ")
        text.append(f"{name} {points}", style="bold" if name == seat.name else "")
    return text


async def play_terminal(
    host: str,
    port: int,
    name: str,
    read_line: ReadLine,
    console: Console,
    rounds: int | None = None,
    window: float = DEFAULT_PEOPLE_TIMEOUT,
    token: str | None = None,
    level: str = "",
    lang: str = "en",
) -> int:
    """The whole ``herna play mia`` session, in ``lang`` (``cs`` or ``en``)."""
    _ = say_in(lang)
    seat = MiaSeat(host, port, name, token=token, window=window, level=level, lang=lang)
    changed = asyncio.Event()
    seat.on_change = changed.set
    task = seat.start()
    said = scored = 0
    shown_token: str | None = None
    reader: asyncio.Task[str | None] | None = None
    leaving = False
    console.print(_("Type q to leave the table."))
    try:
        while True:
            if seat.status in ("rejected", "gone") and task.done():
                for line in list(seat.story)[max(0, len(seat.story) - (seat.said - said)) :]:
                    console.print(line)
                why = seat.problem or _("the table is gone")
                where = f"{host}:{port}"
                if seat.registered.is_set():
                    said_why = _("You left the table at {where}: {why}.")
                else:
                    said_why = _("Cannot sit at {where}: {why}.")
                console.print(Text(said_why.format(where=where, why=why), "red"))
                return 1
            story = list(seat.story)
            new = seat.said - said
            result = seat.last_result["words"] + "." if seat.last_result else None
            for line in story[max(0, len(story) - new) :]:
                console.print(Text(line, "bold" if line == result else ""))
            said = seat.said
            if seat.scored != scored:
                scored = seat.scored
                result = seat.last_result or {}
                if result.get("you_played"):
                    lost = result.get("you_lost")
                    verdict = _("You lost this round.") if lost else _("You get a point.")
                    console.print(Text(verdict, "bold red" if lost else "bold green"))
                console.print(render_scores(seat))
            if rounds is not None and seat.rounds >= rounds and seat.pending is None:
                bye = _("You played {n} rounds and lost {lost}. Bye.")
                console.print(bye.format(n=seat.rounds, lost=seat.lost))
                return 0
            token_now = seat.pending[1] if seat.pending is not None else None
            if token_now is not None and token_now != shown_token:
                shown_token = token_now
                console.print(render_turn(seat))
            if reader is None:
                reader = asyncio.ensure_future(read_line())
            waiter = asyncio.ensure_future(changed.wait())
            # The seat's task too: when it ends (refused, gone) there may be nothing else to wake.
            await asyncio.wait((reader, waiter, task), return_when=asyncio.FIRST_COMPLETED)
            waiter.cancel()
            changed.clear()
            if not reader.done():
                continue
            text = reader.result()
            reader = None
            confirmed = False
            if text is not None and leaving:
                leaving = False
                if text.strip().lower() not in ("y", "yes"):
                    console.print(_("You stay at the table."))
                    continue
                confirmed = True
            elif text is not None and text.strip().lower() in QUIT:
                # Leaving asks first: a stray q must not cost a round in play.
                leaving = True
                console.print(
                    _(
                        "Leave the table? Your seat is freed at once and your points stay yours "
                        "(a round you are playing counts as lost). y leaves, anything else stays."
                    )
                )
                continue
            if text is None or confirmed:
                bye = _("You leave the table ({n} rounds played). Bye.")
                console.print(bye.format(n=seat.rounds))
                return 0
            if not text.strip():
                continue
            if seat.pending is None:
                console.print(_("It is not your turn; wait for it (q leaves)."))
                continue
            choice = read_choice(seat, text)
            if choice is None:
                console.print(
                    _(
                        "Type a number from the list, r or s, or dice like 6-5 higher than the "
                        "last announcement."
                    )
                )
                continue
            problem = seat.act(*choice)
            if problem is not None:
                console.print(problem[1])
    finally:
        if reader is not None:
            reader.cancel()
        await seat.stop()


def stdin_lines() -> ReadLine:
    """Lines from standard input as they come. A daemon thread reads them (a blocked read
    would otherwise keep the program alive after the person left the table) and hands each
    to the event loop."""
    lines: asyncio.Queue[str | None] | None = None

    def pump(loop: asyncio.AbstractEventLoop, queue: asyncio.Queue[str | None]) -> None:
        while True:
            try:
                line = sys.stdin.readline()
            except (OSError, ValueError):
                line = ""
            loop.call_soon_threadsafe(queue.put_nowait, line or None)
            if not line:
                return

    async def read_line() -> str | None:
        nonlocal lines
        if lines is None:
            lines = asyncio.Queue()
            loop = asyncio.get_running_loop()
            threading.Thread(target=pump, args=(loop, lines), daemon=True).start()
        return await lines.get()

    return read_line


def run_play_command(args: argparse.Namespace) -> int:
    console = Console()
    with contextlib.suppress(KeyboardInterrupt):
        return asyncio.run(
            play_terminal(
                args.host,
                args.port,
                args.name,
                stdin_lines(),
                console,
                args.rounds,
                args.window,
                args.token,
                args.bots,
                args.language,
            )
        )
    return 130
