"""``herna play marias`` (a terminal client for a person) and ``herna bot marias``.

Both log in at a CGML login server and play the group they are given at the super game
server. The person's client shows the hand, the table, the tricks and the bidding, offers only
legal choices (computed by the rules engine from what the player saw) and prints each result
with the money.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from herna.cli import GameCommands
from herna.cli.botout import BotOutput, add_quiet
from herna.cli.tokens import add_token_option
from herna.clients.cgml import (
    BotDecider,
    CgmlClientError,
    GroupSummary,
    login,
    play_group,
    run_player,
)
from herna.games.marias import (
    CARD_CODES,
    TARIFFS,
    Action,
    Answer,
    Bid,
    Claim,
    Discard,
    Flek,
    GameType,
    Play,
    format_trumps,
)
from herna.games.marias.bots import STRATEGY_CHOICES, canonical
from herna.protocols.cgml.breakdown import Breakdown, derive
from herna.protocols.cgml.messages import (
    Abort,
    CancelGame,
    Error,
    FlekInfo,
    GameTypeInfo,
    LiciteInfo,
    LiciteResult,
    Message,
    PauseFinish,
    PauseStart,
    PlayCardInfo,
    PlayerRef,
    Renonc,
    Result,
    Round,
    public_group,
)
from herna.protocols.cgml.player import Decision, PlayerTracker

DEFAULT_LOGIN_PORT = 7001

ReadLine = Callable[[str], Awaitable[str | None]]
"""Shows a prompt and returns the line typed (None at end of input)."""

SUIT_STYLE = {"R": "bold red", "B": "bold yellow", "G": "bold green", "A": "bold cyan"}
SUIT_WORD = {"R": "hearts", "B": "bells", "G": "leaves", "A": "acorns"}
"""German suits in English, as the rules digest names them (hearts are the "lepší" suit)."""
SUIT_CS = {"R": "červené", "B": "kule", "G": "zelené", "A": "žaludy"}
RANK_WORD = {
    "07": "7",
    "08": "8",
    "09": "9",
    "10": "10",
    "0J": "spodek",
    "0Q": "svršek",
    "0K": "král",
    "0A": "eso",
}
"""One name per card everywhere (hand, table, choices): suit letter and the Czech rank."""
CARD_POINTS = {"10": 10, "0A": 10}
FLEK_WORD = {1: "no flek", 2: "flek", 4: "re", 8: "tutti", 16: "boty", 32: "kalhoty"}
"""A flek level is the multiplier: 1 is no flek at all."""
WORDS_HELP = (
    "Cards are a suit letter and a Czech rank: R červené (hearts), B kule (bells), "
    "G zelené (leaves), A žaludy (acorns); 7, 8, 9, 10, spodek (Unter), svršek (Ober), "
    "král (king), eso (ace). Contracts: hra (game), sedma (win the last trick with the "
    "trump 7), stovka/kilo (100 points), betl (take no trick), durch (take every trick), "
    "lepší = in hearts, paid double. Flek doubles a part (flek ×2, re ×4, tutti ×8 ...)."
)


def flek_words(levels: object) -> str:
    """``"1"`` -> ``no flek``; ``"2:1"`` -> ``flek on the game, no flek on the sedma``."""
    text = str(levels or "1")
    parts = [int(x) if x.isdigit() else 0 for x in text.split(":")]

    def one(n: int) -> str:
        return FLEK_WORD.get(n, f"×{n}") + (f" (×{n})" if n > 1 else "")

    if len(parts) == 2 and parts[0] != parts[1]:
        return f"{one(parts[0])} on the game, {one(parts[1])} on the sedma"
    return one(parts[0])


def trumps_words(trumf: object) -> str:
    """``"G"`` -> ``zelené (leaves)``; ``"G:B"`` adds the second suit of dvě sedmy."""
    text = str(trumf or "")
    if not text:
        return "no trumps"
    first, _, second = text.partition(":")
    out = f"{SUIT_CS.get(first, first)} ({SUIT_WORD.get(first, first)})"
    if second:
        out += f", second suit {SUIT_CS.get(second, second)} ({SUIT_WORD.get(second, second)})"
    return out


PART_WORD = {
    "hra": "game",
    "sedma": "seven: the last trick with the trump 7",
    "sto": "kilo: 100 points",
    "betl": "no trick",
    "durch": "every trick",
    "dvě sedmy": "two sevens",
    "tichá sedma": "silent seven",
}
"""English for the parts of a settlement (evaluation's names are Czech)."""

CONTRACT_WORD = {
    "PASS": "pass",
    "G": "hra",
    "BG": "lepší hra (hearts)",
    "7": "sedma",
    "B7": "lepší sedma",
    "100": "stovka",
    "107": "stovka + sedma",
    "B100": "lepší stovka",
    "B107": "lepší stovka + sedma",
    "SMALL": "betl",
    "BIG": "durch",
    "27": "dvě sedmy",
    "127": "stovka + dvě sedmy",
    "B27": "lepší dvě sedmy",
    "B127": "lepší stovka + dvě sedmy",
}


def register(commands: GameCommands) -> None:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--host", default="127.0.0.1", help="login server (default 127.0.0.1)")
    common.add_argument(
        "--port",
        type=int,
        default=DEFAULT_LOGIN_PORT,
        help=f"login server port for players (default {DEFAULT_LOGIN_PORT})",
    )
    common.add_argument(
        "--opponent",
        action="append",
        default=[],
        metavar="WHO",
        help="wanted opponent: a player id, a bot server's id/name, or 'bot'/'human' for "
        "any bot/person (repeatable)",
    )
    add_token_option(common, 'the token attribute of <connect token="...">')
    play = commands.play.add_parser(
        "marias",
        parents=[common],
        help="play licitovaný mariáš in the terminal (CGML)",
        description="Log in at a CGML login server as an active human player and play "
        "licitovaný mariáš: your hand, the table, the tricks and the bidding are shown, "
        "only legal choices are offered, and every result is shown with the money. With "
        "`herna serve` running you get a table with two bots at once.",
        epilog=WORDS_HELP,
    )
    play.add_argument("--name", default="player", help="your name (default player)")
    play.add_argument("--id", help="your player id (default: your name)")
    play.add_argument(
        "--tariff",
        choices=sorted(TARIFFS),
        default="csm",
        help="the server's money tariff (its --cgml-tariff; default csm), used to show how "
        "each result's money comes about (vyúčtování: card points, hlášky = marriages, "
        "sedma/kilo, flek multipliers); the server's money is always what counts",
    )
    play.set_defaults(func=run_play_command)

    bot = commands.bot.add_parser(
        "marias",
        parents=[common],
        help="run a mariáš bot over CGML",
        description="Log a bot in at a CGML login server (as an active or passive player) "
        "and play group after group with one of the engine's strategies. A lost or "
        "unreachable server does not stop it: it says so and logs in again, waiting "
        "0.5 s, 1 s, 2 s ... (at most 30 s) between attempts.",
    )
    bot.add_argument(
        "--strategy",
        choices=STRATEGY_CHOICES,
        default="heuristic",
        help="random (any legal card), heuristic (rules of thumb; the default) or "
        "sampling-search (deals the unseen cards into sample worlds and searches them); "
        "the old names rule and search still work",
    )
    bot.add_argument("--name", help="bot name (default <strategy>-bot)")
    bot.add_argument("--id", help="player id (default: the name)")
    bot.add_argument(
        "--passive", action="store_true", help="wait to be picked (default: active, play now)"
    )
    bot.add_argument("--games", type=int, help="games per group before rejecting the next")
    bot.add_argument("--groups", type=int, help="stop after this many groups (default: never)")
    bot.add_argument("--delay", type=float, default=0.0, help="seconds to think per answer")
    add_quiet(bot)
    bot.set_defaults(func=run_bot_command)


def opponent_refs(items: Sequence[str]) -> tuple[PlayerRef, ...]:
    out = []
    for item in items:
        if item in ("bot", "human"):
            out.append(PlayerRef(None, None, item))
        else:
            out.append(PlayerRef(item))
    return tuple(out)


# -- the bot ----------------------------------------------------------------------------------


async def bot_main(args: argparse.Namespace) -> int:
    name = args.name or f"{canonical(args.strategy)}-bot"
    me = PlayerRef(args.id or name, name, "bot")
    decider = BotDecider(args.strategy, games=args.games, delay=args.delay)
    status = "passive" if args.passive else "active"
    total = 0
    out = BotOutput(me.id or name, None, args.quiet)

    def report(summary: GroupSummary) -> None:
        nonlocal total
        total += summary.money
        out.say(
            f"group {public_group(summary.group)} over: {summary.games} games, money "
            f"{summary.money:+d} (total {total:+d}), ended by {summary.ended or 'the server'}"
        )

    def say(text: str) -> None:
        out.say(text.removeprefix(f"{me.id}: "))

    def on_message(message: Message, tracker: PlayerTracker) -> None:
        if isinstance(message, Result):
            money = {line.playerid: line.amount for line in message.winners}
            money.update({line.playerid: -line.amount for line in message.losers})
            mine = money.get(me.id or "", 0)
            others = ", ".join(f"{p} {m:+d}" for p, m in money.items() if p != me.id)
            out.game(f"{message.licite}: {mine:+d} units ({others})", mine > 0, mine)

    out.say(f"logging in at {args.host}:{args.port} ({status})")
    await run_player(
        args.host,
        args.port,
        me,
        decider,
        groups=args.groups,
        status=status,
        opponents=opponent_refs(args.opponent),
        on_summary=report,
        token=args.token,
        reconnect=True,
        say=say,
        on_message=on_message,
    )
    return 0


def run_bot_command(args: argparse.Namespace) -> int:
    try:
        return asyncio.run(bot_main(args))
    except (CgmlClientError, OSError) as e:
        print(f"herna bot marias: {e}", file=sys.stderr)
        return 1


# -- the person's terminal client ---------------------------------------------------------------


def card_name(code: str) -> str:
    return f"{code[0]}-{RANK_WORD.get(code[1:], code[1:])}"


def card_text(code: str) -> Text:
    return Text(card_name(code), style=SUIT_STYLE.get(code[0], ""))


def cards_text(codes: Sequence[str]) -> Text:
    out = Text()
    for i, code in enumerate(codes):
        if i:
            out.append(" ")
        out.append_text(card_text(code))
    return out


def action_text(action: Action) -> str:
    if isinstance(action, Bid):
        code = action.contract.code
        return f"{code} ({CONTRACT_WORD.get(code, code)})"
    if isinstance(action, Answer):
        return "YES (mám)" if action.yes else "NO (nemám)"
    if isinstance(action, GameType):
        code = action.contract.code
        trumf = format_trumps(action.trumps, action.second)
        words = CONTRACT_WORD.get(code, code)
        if not trumf:
            return f"{code} ({words})"
        return f"{code} {trumf} ({words}, trumps {trumps_words(trumf)})"
    if isinstance(action, Flek):
        return flek_words(":".join(str(x) for x in action.levels))
    if isinstance(action, Play):
        return card_name(CARD_CODES[action.card])
    if isinstance(action, Discard):
        return " ".join(card_name(CARD_CODES[c]) for c in action.cards)
    if isinstance(action, Claim):
        return "lay down: " + " ".join(card_name(CARD_CODES[c]) for c in action.cards)
    return str(action)


class Terminal:
    """The person's side: draws the table and asks for choices (I/O injected for tests)."""

    def __init__(self, console: Console, read_line: ReadLine, me: str, tariff: str = "csm") -> None:
        self.console = console
        self.read_line = read_line
        self.me = me
        self.total = 0
        self.tariff = tariff
        """The server's tariff (``--cgml-tariff``), to derive the money of the breakdown."""

    # -- what happened -----------------------------------------------------------------------
    def who(self, tracker: PlayerTracker, pid: str | None) -> str:
        try:
            seat = tracker.seat_of(pid)
        except Exception:
            return pid or "?"
        name = tracker.name_of(seat)
        return "you" if pid == self.me else name

    def show_event(self, message: Message, tracker: PlayerTracker) -> None:
        c = self.console
        if isinstance(message, LiciteInfo):
            word = CONTRACT_WORD.get(message.value, message.value)
            c.print(f"  {self.who(tracker, message.playerid)}: {message.value} ({word})")
        elif isinstance(message, LiciteResult):
            word = CONTRACT_WORD.get(message.value, message.value)
            c.print(
                f"[bold]{self.who(tracker, message.playerid)} won the auction at "
                f"{message.value} ({word}) and takes the talon[/bold]"
            )
        elif isinstance(message, GameTypeInfo):
            trumf = f", trumps {trumps_words(message.trumf)}" if message.trumf else ""
            word = CONTRACT_WORD.get(message.licite, message.licite)
            who = self.who(tracker, message.playerid)
            if message.flek is not None:
                c.print(
                    f"[bold]Game: {message.licite} ({word}){trumf}, {flek_words(message.flek)}; "
                    f"aktér {who}[/bold]"
                )
            else:
                c.print(f"  {who} {self.verb(who, 'announces')} {message.licite} ({word}){trumf}")
        elif isinstance(message, FlekInfo):
            c.print(f"  {self.who(tracker, message.playerid)}: {flek_words(message.level)}")
        elif isinstance(message, PlayCardInfo) and message.to == "desk":
            who = self.who(tracker, message.playerid)
            line = Text(f"  {who} {self.verb(who, 'plays')} ")
            line.append_text(cards_text([x.code for x in message.cards if x is not None]))
            c.print(line)
        elif isinstance(message, PlayCardInfo) and message.to == "talon":
            who = self.who(tracker, message.playerid)
            c.print(f"  {who} {self.verb(who, 'discards')} two cards")
        elif isinstance(message, Round):
            c.print(
                f"  trick {message.number} goes to {self.who(tracker, message.playerid)}",
                style="dim",
            )
        elif isinstance(message, Result):
            self.show_result(message, tracker)
        elif isinstance(message, Renonc):
            c.print(
                f"[bold red]Renonc by {message.player.name or message.player.id}: "
                f"{message.message}[/bold red]"
            )
        elif isinstance(message, CancelGame):
            c.print(f"[bold]Game cancelled: {message.reason}[/bold]")
        elif isinstance(message, Abort):
            c.print(
                f"[bold red]Game aborted ({message.message}) by "
                f"{message.player.name or message.player.id}[/bold red]"
            )
        elif isinstance(message, PauseStart):
            c.print(f"[yellow]Pause: {message.message or ''}[/yellow]")
        elif isinstance(message, PauseFinish):
            c.print("[yellow]The pause is over[/yellow]")
        elif isinstance(message, Error):
            c.print(f"[red]Server: {message.reason}[/red]")

    @staticmethod
    def verb(who: str, third_person: str) -> str:
        """``you discard`` but ``anna discards``."""
        return third_person.removesuffix("s") if who == "you" else third_person

    def show_result(self, result: Result, tracker: PlayerTracker) -> None:
        money = result.money()
        mine = money.get(self.me, 0)
        self.total += mine
        b = derive(tracker, result, self.tariff)
        s = b.settlement
        word = CONTRACT_WORD.get(result.licite, result.licite)
        trumps = f", trumps {trumps_words(result.trumf)}" if result.trumf else ""
        table = Table(title=f"Result: {result.licite} ({word}){trumps}, {flek_words(result.flek)}")
        table.add_column("player")
        table.add_column("tricks", justify="right")
        table.add_column("card points", justify="right")
        table.add_column("hlášky", justify="right")
        table.add_column("money (units)", justify="right")
        tricks: dict[str, int] = {}
        points: dict[str, int] = {}
        for r in result.rounds:
            tricks[r.playerid] = tricks.get(r.playerid, 0) + 1
            won = sum(CARD_POINTS.get(c.code[1:], 0) for c in r.cards if c is not None)
            last = 10 if r.number == 10 else 0  # the last trick counts 10
            points[r.playerid] = points.get(r.playerid, 0) + won + last
        for seat, p in enumerate(tracker.players):
            pid = p.id or ""
            amount = money.get(pid, 0)
            style = "green" if amount > 0 else "red" if amount < 0 else ""
            role = ""
            if s is not None:
                role = " (aktér)" if seat == s.declarer else " (obrana)"
            hlasky = "?" if s is None else str(sum(v for x, _, v in b.marriages if x == seat))
            table.add_row(
                self.who(tracker, pid) + role,
                str(tricks.get(pid, 0)),
                str(points.get(pid, 0)),
                hlasky if b.points_matter or s is None else "-",
                Text(f"{amount:+d}", style=style),
            )
        self.console.print(table)
        self.show_breakdown(b, tracker)
        self.console.print(f"[bold]You {mine:+d} this game, {self.total:+d} in total.[/bold]")

    def show_breakdown(self, b: Breakdown, tracker: PlayerTracker) -> None:
        """Vyúčtování: points and hlášky per side, each part with its flek, and the money —
        derived from what this player saw and checked against the server's money."""
        c = self.console
        s = b.settlement
        if s is None:
            c.print(
                f"Breakdown unknown: {b.unknown}. The money above is the server's.", style="yellow"
            )
            return
        name = {seat: "you" if p.id == self.me else tracker.name_of(seat)
                for seat, p in enumerate(tracker.players)}  # fmt: skip
        defenders = [d for d in range(3) if d != s.declarer]
        if s.renonc is not None:
            c.print(f"Renonc by {name[s.renonc.player]}: their side loses every part.")
        elif b.points_matter:

            def side(pts: int, marriages: Sequence[int]) -> str:
                if not marriages:
                    return f"{pts} (no hlášky)"
                return f"{pts} + hlášky {' + '.join(map(str, marriages))} = {pts + sum(marriages)}"

            c.print(
                f"Body (points): aktér {side(s.declarer_points, s.declarer_marriages)}; "
                f"obrana {side(s.defender_points, s.defender_marriages)}"
            )
            for seat, suit, value in b.marriages:
                trump = ", trumps" if value == 40 else ""
                c.print(
                    f"  hláška {SUIT_CS['RBGA'[suit]]} ({SUIT_WORD['RBGA'[suit]]}{trump}) "
                    f"{value} — {name[seat]} ({'aktér' if seat == s.declarer else 'obrana'})"
                )
        else:
            c.print(f"Card points and hlášky do not count in {CONTRACT_WORD[s.contract.code]}.")
        nparts = len(s.contract.parts)
        for i, part in enumerate(s.parts):
            outcome = "won" if part.won else "lost"
            note = f" ({part.note})" if part.note and part.note != "renonc" else ""
            if i < nparts:
                levels = [b.seat_levels[d][i] for d in defenders]
                if levels[0] == levels[1]:
                    flek = flek_words(levels[0])
                else:
                    flek = ", ".join(f"{flek_words(x)} with {name[d]}"
                                     for d, x in zip(defenders, levels, strict=True))  # fmt: skip
            else:
                flek = "never flekked"
            aktér = part.money[s.declarer]
            c.print(
                f"  {part.name} ({PART_WORD.get(part.name, part.name)}): {outcome} by the aktér"
                f"{note}; {part.units} units × {flek} → aktér {aktér:+d}"
            )
        if s.capped:
            c.print("  The limit caps what one defender pays or gets.")
        if b.agrees:
            c.print(
                f"Money as the server's result says ({b.tariff} tariff; per defender × part × "
                "flek; 1 unit = 0.20 Kč in the ČSM tariff).",
                style="dim",
            )
        else:
            derived = ", ".join(f"{name[x]} {s.money[x]:+d}" for x in range(3))
            hint = (
                f"; the server seems to use --tariff {b.matching_tariff}"
                if b.matching_tariff
                else ""
            )
            c.print(
                f"[bold red]Check: this breakdown ({b.tariff} tariff) gives {derived}, but the "
                f"server's result differs; the server's money counts{hint}.[/bold red]"
            )

    def show_table(self, tracker: PlayerTracker, view: Mapping[str, Any]) -> None:
        c = self.console
        seat = tracker.seat
        roles = {view["forhont"]: "forhont", view["middle"]: "middle", view["zadak"]: "zadák"}
        players = []
        for s in range(3):
            name = "you" if s == seat else tracker.name_of(s)
            mark = " (aktér)" if view.get("declarer") == s else ""
            players.append(f"{name}: {roles.get(s, '')}{mark}")
        c.rule(" · ".join(players))
        if view.get("licite"):
            c.print(
                f"Game {view['licite']} ({CONTRACT_WORD.get(view['licite'], '')}) "
                f"trumps {trumps_words(view.get('trumf'))}, {flek_words(view.get('flek'))}"
            )
        elif view.get("auction"):
            bids = ", ".join(
                f"{'you' if a['player'] == seat else tracker.name_of(a['player'])} {a['licite']}"
                for a in view["auction"]
            )
            c.print(f"Auction: {bids}")
        trick = view.get("trick", {}).get("cards", [])
        if trick:
            line = Text("On the table: ")
            line.append_text(cards_text(trick))
            c.print(line)
        won = [0, 0, 0]
        for t in view.get("tricks", []):
            won[t["winner"]] += 1
        if view.get("tricks"):
            c.print(
                "Tricks: "
                + ", ".join(
                    f"{'you' if s == seat else tracker.name_of(s)} {won[s]}" for s in range(3)
                )
            )
        hand = Text("Your hand: ")
        hand.append_text(cards_text(view.get("hand", [])))
        c.print(hand)
        if view.get("talon"):
            talon = Text("Your talon: ")
            talon.append_text(cards_text(view["talon"]))
            c.print(talon)

    # -- choices -------------------------------------------------------------------------------
    async def choose(self, prompt: str, options: Sequence[Action]) -> Action:
        for i, action in enumerate(options, 1):
            self.console.print(f"  [bold]{i:>2}[/bold]  {action_text(action)}")
        while True:
            line = await self.read_line(f"{prompt} [1-{len(options)}]: ")
            if line is None:
                raise EOFError
            text = line.strip()
            if text.isdigit() and 1 <= int(text) <= len(options):
                return options[int(text) - 1]
            for action in options:  # also accept the text itself ("100 G", "A0A", "YES")
                if text.upper() == action_text(action).split(" (")[0].upper():
                    return action
            self.console.print("[red]Choose one of the numbers shown.[/red]")

    async def decide(self, tracker: PlayerTracker, decision: Decision) -> Message:
        if decision.kind == "newgame":
            line = await self.read_line("Play a game? [Y/n]: ")
            if line is None:
                raise EOFError
            return tracker.newgame_answer(line.strip().lower() not in ("n", "no"))
        view = tracker.view()
        self.show_table(tracker, view)
        legal = tracker.legal_actions()
        if decision.kind == "licite":
            if decision.asked:
                word = CONTRACT_WORD.get(decision.asked, decision.asked)
                prompt = f"Do you have {decision.asked} ({word})?"
            else:
                prompt = "Your bid"
            action = await self.choose(prompt, legal)
        elif decision.kind == "discard":
            action = await self.discard(legal)
        elif decision.kind == "gametype":
            action = await self.choose(f"Announce the game (won: {decision.asked})", legal)
        elif decision.kind == "flek":
            action = await self.choose(f"Flek (now {decision.asked}; same = no flek)", legal)
        else:
            hand = tracker.hand()
            options: list[Action] = list(legal)
            if len(hand) > 1:
                options.append(Claim(tuple(hand)))
            action = await self.choose("Your card", options)
        return tracker.answer(action)

    async def discard(self, legal: Sequence[Action]) -> Action:
        pairs = {a.cards: a for a in legal if isinstance(a, Discard)}
        allowed = sorted({c for pair in pairs for c in pair})
        self.console.print("Cards you may lay into the talon:")
        for i, card in enumerate(allowed, 1):
            line = Text(f"  {i:>2}  ")
            line.append_text(card_text(CARD_CODES[card]))
            self.console.print(line)
        while True:
            answer = await self.read_line("Two cards for the talon (e.g. '1 5'): ")
            if answer is None:
                raise EOFError
            picked: list[int] = []
            for word in answer.replace(",", " ").split():
                if word.isdigit() and 1 <= int(word) <= len(allowed):
                    picked.append(allowed[int(word) - 1])
                else:
                    picked.extend(c for c in allowed if CARD_CODES[c] == word.upper())
            if len(picked) == 2:
                key = (min(picked), max(picked))
                if key in pairs:
                    return pairs[key]
            self.console.print("[red]Pick two different cards from the list.[/red]")


async def stdin_line(prompt: str) -> str | None:
    loop = asyncio.get_running_loop()
    try:
        return await loop.run_in_executor(None, input, prompt)
    except EOFError:
        return None


async def play_main(
    args: argparse.Namespace,
    console: Console | None = None,
    read_line: ReadLine = stdin_line,
) -> GroupSummary:
    console = console or Console()
    pid = args.id or args.name
    me = PlayerRef(pid, args.name, "human")
    console.print(f"Logging in at {args.host}:{args.port} as {args.name} ({pid}) …")
    complete = await login(
        args.host, args.port, me, "active", opponent_refs(args.opponent), token=args.token
    )
    names = ", ".join(p.name or p.id or "?" for p in complete.players)
    console.print(f"[bold]Your table (group {public_group(complete.group)}) with {names}[/bold]")
    terminal = Terminal(
        console, read_line, complete.playerid or pid, getattr(args, "tariff", None) or "csm"
    )

    def on_message(message: Message, tracker: PlayerTracker) -> None:
        terminal.show_event(message, tracker)

    summary = await play_group(complete, me, terminal, on_message=on_message)
    console.print(
        f"[bold]The group is over: {summary.games} games, money {summary.money:+d}.[/bold]"
    )
    return summary


def run_play_command(args: argparse.Namespace) -> int:
    try:
        asyncio.run(play_main(args))
    except (CgmlClientError, OSError) as e:
        print(f"herna play marias: {e}", file=sys.stderr)
        return 1
    except EOFError:
        return 0
    return 0


__all__ = ["Terminal", "play_main", "register"]
