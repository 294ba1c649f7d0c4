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
from herna.cli.language import add_language_option
from herna.cli.tokens import add_token_option
from herna.clients.cgml import (
    BotDecider,
    CgmlClientError,
    GroupSummary,
    login,
    play_group,
    run_player,
)
from herna.clients.marias_text import (
    WORDS_HELP,
    action_text,
    breakdown_lines,
    cancel_words,
    card_name,
    contract_word,
    flek_words,
    result_rows,
    says,
    trumps_words,
    verb,
    you,
)
from herna.games.marias import (
    CARD_CODES,
    TARIFFS,
    Action,
    Discard,
    Resign,
)
from herna.games.marias.bots import LEVEL_NAMES, STRATEGY_CHOICES, canonical
from herna.games.marias.names import pick
from herna.games.marias.words import accusative, end_words, seat_roles
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
    play.add_argument(
        "--level",
        choices=LEVEL_NAMES,
        help="two house bots of this level from `herna serve` (its bot server house-<level>-bot; "
        "medium is house-heuristic-bot, the one every table uses); same as two --opponent",
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
    add_language_option(play, "the mariáš words (English keeps the Czech game terms, glossed)")
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
        help="a level: easy, medium, hard, strongest (docs/games/marias.md gives their "
        "strength and think times), or a strategy: random (any legal card), heuristic (rules "
        "of thumb; the default) which plays as medium, or sampling-search (deals the unseen "
        "cards into sample worlds and searches them) which plays as strongest; the old names "
        "rule and search still work",
    )
    bot.add_argument("--name", help="bot name (default <strategy>-bot)")
    bot.add_argument("--id", help="player id (default: the name)")
    bot.add_argument(
        "--passive", action="store_true", help="wait to be picked (default: active, play now)"
    )
    bot.add_argument("--games", type=int, help="games per group before rejecting the next")
    bot.add_argument("--groups", type=int, help="stop after this many groups (default: never)")
    bot.add_argument(
        "--tournament",
        type=int,
        metavar="ID",
        help="play the groups of live tournament ID (<connect tournament>; needs a reserved "
        "id and its --token) until it is over",
    )
    bot.add_argument("--delay", type=float, default=0.0, help="seconds to think per answer")
    add_quiet(bot)
    bot.set_defaults(func=run_bot_command)


def house_bot_server(level: str) -> str:
    """The name of `herna serve`'s bot server that plays at ``level`` (by default medium is the
    main ``heuristic`` one, the others are the extra ``--cgml-bot-levels`` servers)."""
    return "house-heuristic-bot" if level == "medium" else f"house-{level}-bot"


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
        tournament=str(args.tournament) if args.tournament else None,
    )
    return 0


def run_bot_command(args: argparse.Namespace) -> int:
    try:
        return asyncio.run(bot_main(args))
    except (CgmlClientError, OSError) as e:
        print(f"herna bot marias: {e}", file=sys.stderr)
        return 1


# -- the person's terminal client ---------------------------------------------------------------


def card_text(code: str) -> Text:
    return Text(card_name(code), style=SUIT_STYLE.get(code[0], ""))


def cards_text(codes: Sequence[str]) -> Text:
    out = Text()
    for i, code in enumerate(codes):
        if i:
            out.append(" ")
        out.append_text(card_text(code))
    return out


class Terminal:
    """The person's side: draws the table and asks for choices (I/O injected for tests), in
    ``lang``: ``en`` (English with the Czech terms) or ``cs`` (Czech)."""

    def __init__(
        self,
        console: Console,
        read_line: ReadLine,
        me: str,
        tariff: str = "csm",
        lang: str = "en",
    ) -> None:
        self.console = console
        self.read_line = read_line
        self.me = me
        self.total = 0
        self.tariff = tariff
        """The server's tariff (``--cgml-tariff``), to derive the money of the breakdown."""
        self.lang = lang

    def say(self, en: str, cs: str) -> str:
        return pick(self.lang, en, cs)

    # -- what happened -----------------------------------------------------------------------
    def who(self, tracker: PlayerTracker, pid: str | None) -> str:
        try:
            seat = tracker.seat_of(pid)
        except Exception:
            return pid or "?"
        name = tracker.name_of(seat)
        return you(self.lang) if pid == self.me else name

    def show_event(self, message: Message, tracker: PlayerTracker) -> None:
        c, lang = self.console, self.lang
        if isinstance(message, LiciteInfo):
            word = contract_word(message.value, lang)
            c.print(f"  {self.who(tracker, message.playerid)}: {message.value} ({word})")
        elif isinstance(message, LiciteResult):
            contract = contract_word(message.value, lang)
            word = f"{message.value} ({contract})"
            won = f"{accusative(contract)} ({message.value})"
            who = self.who(tracker, message.playerid)
            line = says(
                lang,
                who,
                f"wins the auction at {word} and takes the talon",
                f"vyhrává licitaci na {won} a bere talon",
                f"vyhráváš licitaci na {won} a bereš talon",
                f"win the auction at {word} and take the talon",
            )
            c.print(f"[bold]{line}[/bold]")
        elif isinstance(message, GameTypeInfo):
            trumf = f", trumfy {trumps_words(message.trumf, lang)}" if message.trumf else ""
            word = contract_word(message.licite, lang)
            who = self.who(tracker, message.playerid)
            if message.flek is not None:
                c.print(
                    f"[bold]{self.say('Game', 'Hra')}: {message.licite} ({word}){trumf}, "
                    f"{flek_words(message.flek, lang)}; aktér {who}[/bold]"
                )
            else:
                line = says(
                    lang,
                    who,
                    f"announces {message.licite} ({word}){trumf}",
                    f"hlásí {message.licite} ({accusative(word)}){trumf}",
                    f"hlásíš {message.licite} ({accusative(word)}){trumf}",
                )
                c.print(f"  {line}")
        elif isinstance(message, FlekInfo):
            c.print(f"  {self.who(tracker, message.playerid)}: {flek_words(message.level, lang)}")
        elif isinstance(message, PlayCardInfo) and message.to == "desk":
            who = self.who(tracker, message.playerid)
            codes = [x.code for x in message.cards if x is not None]
            if lang == "cs":
                shown = Text(f"  {says(lang, who, 'hraje', 'hraje', 'hraješ')} ")
                for i, code in enumerate(codes):
                    if i:
                        shown.append(" a ")
                    shown.append(card_name(code, lang, "acc"), style=SUIT_STYLE.get(code[0], ""))
            else:
                shown = Text(f"  {who} {verb(who, 'plays')} ")
                shown.append_text(cards_text(codes))
            c.print(shown)
        elif isinstance(message, PlayCardInfo) and message.to == "talon":
            who = self.who(tracker, message.playerid)
            line = says(
                lang,
                who,
                "discards two cards",
                "odkládá dvě karty do talonu",
                "odkládáš dvě karty do talonu",
            )
            c.print(f"  {line}")
        elif isinstance(message, Round):
            winner = self.who(tracker, message.playerid)
            c.print(
                "  "
                + self.say(
                    f"trick {message.number} goes to {winner}",
                    f"{message.number}. štych bere {winner}"
                    if winner != you(lang)
                    else f"{message.number}. štych bereš ty",
                ),
                style="dim",
            )
        elif isinstance(message, Result):
            self.show_result(message, tracker)
        elif isinstance(message, Renonc):
            culprit = message.player.name or message.player.id or "?"
            c.print(
                f"[bold red]{self.say(f'Renonc by {culprit}', f'Renonc ({culprit})')}: "
                f"{message.message}[/bold red]"
            )
        elif isinstance(message, CancelGame):
            c.print(f"[bold]{cancel_words(message.reason, lang)}[/bold]")
        elif isinstance(message, Abort):
            culprit = message.player.name or message.player.id or "?"
            c.print(
                "[bold red]"
                + self.say(
                    f"Game aborted ({message.message}) by {culprit}",
                    f"Hra přerušena: {end_words(message.message, lang)} ({culprit})",
                )
                + "[/bold red]"
            )
        elif isinstance(message, PauseStart):
            c.print(f"[yellow]{self.say('Pause', 'Pauza')}: {message.message or ''}[/yellow]")
        elif isinstance(message, PauseFinish):
            c.print(f"[yellow]{self.say('The pause is over', 'Pauza skončila')}[/yellow]")
        elif isinstance(message, Error):
            c.print(f"[red]Server: {message.reason}[/red]")

    def show_result(self, result: Result, tracker: PlayerTracker) -> None:
        lang = self.lang
        money = result.money()
        mine = money.get(self.me, 0)
        self.total += mine
        b = derive(tracker, result, self.tariff)
        word = contract_word(result.licite, lang)
        trumps = f", trumfy {trumps_words(result.trumf, lang)}" if result.trumf else ""
        table = Table(
            title=f"{self.say('Result', 'Výsledek')}: {result.licite} ({word}){trumps}, "
            f"{flek_words(result.flek, lang)}"
        )
        table.add_column(self.say("player", "hráč"))
        table.add_column(self.say("tricks", "štychy"), justify="right")
        table.add_column(self.say("card points", "body za karty"), justify="right")
        table.add_column("hlášky", justify="right")
        table.add_column(self.say("money (units)", "peníze (jednotky)"), justify="right")
        for row in result_rows(b, tracker, result, self.me, you(lang)):
            style = "green" if row.money > 0 else "red" if row.money < 0 else ""
            table.add_row(
                row.name + (f" ({row.role})" if row.role else ""),
                str(row.tricks),
                str(row.points),
                row.hlasky,
                Text(f"{row.money:+d}", style=style),
            )
        self.console.print(table)
        self.show_breakdown(b, tracker)
        self.console.print(
            "[bold]"
            + self.say(
                f"You {mine:+d} this game, {self.total:+d} in total.",
                f"Ty {mine:+d} v této hře, celkem {self.total:+d}.",
            )
            + "[/bold]"
        )

    def show_breakdown(self, b: Breakdown, tracker: PlayerTracker) -> None:
        """Vyúčtování (see :func:`herna.clients.marias_text.breakdown_lines`)."""
        names = [
            you(self.lang) if p.id == self.me else tracker.name_of(seat)
            for seat, p in enumerate(tracker.players)
        ]
        for text, style in breakdown_lines(b, names, self.lang):
            self.console.print(Text(text, style=style))

    def show_table(self, tracker: PlayerTracker, view: Mapping[str, Any]) -> None:
        c, lang = self.console, self.lang
        seat = tracker.seat
        roles = seat_roles(view)
        me = you(lang)
        players = []
        for s in range(3):
            name = me if s == seat else tracker.name_of(s)
            mark = " (aktér)" if view.get("declarer") == s else ""
            players.append(f"{name}: {roles.get(s, '')}{mark}")
        c.rule(" · ".join(players))
        if view.get("licite"):
            c.print(
                f"{self.say('Game', 'Hra')} {view['licite']} "
                f"({contract_word(view['licite'], lang)}) "
                f"trumfy {trumps_words(view.get('trumf'), lang)}, "
                f"{flek_words(view.get('flek'), lang)}"
            )
        elif view.get("auction"):
            bids = ", ".join(
                f"{me if a['player'] == seat else tracker.name_of(a['player'])} {a['licite']}"
                for a in view["auction"]
            )
            c.print(f"{self.say('Auction', 'Licitace')}: {bids}")
        trick = view.get("trick", {}).get("cards", [])
        if trick:
            line = Text(self.say("On the table: ", "Na stole: "))
            line.append_text(cards_text(trick))
            c.print(line)
        won = [0, 0, 0]
        for t in view.get("tricks", []):
            won[t["winner"]] += 1
        if view.get("tricks"):
            c.print(
                self.say("Tricks: ", "Štychy: ")
                + ", ".join(f"{me if s == seat else tracker.name_of(s)} {won[s]}" for s in range(3))
            )
        hand = Text(self.say("Your hand: ", "Tvoje karty: "))
        hand.append_text(cards_text(view.get("hand", [])))
        c.print(hand)
        if view.get("talon"):
            talon = Text(self.say("Your talon: ", "Tvůj talon: "))
            talon.append_text(cards_text(view["talon"]))
            c.print(talon)

    # -- choices -------------------------------------------------------------------------------
    async def choose(self, prompt: str, options: Sequence[Action]) -> Action:
        for i, action in enumerate(options, 1):
            self.console.print(f"  [bold]{i:>2}[/bold]  {action_text(action, self.lang)}")
        while True:
            line = await self.read_line(f"{prompt} [1-{len(options)}]: ")
            if line is None:
                raise EOFError
            text = line.strip()
            if text.isdigit() and 1 <= int(text) <= len(options):
                return options[int(text) - 1]
            for action in options:  # also accept the text itself ("100 G", "A0A", "YES")
                if text.upper() == action_text(action, self.lang).split(" (")[0].upper():
                    return action
            self.console.print(
                f"[red]{self.say('Choose one of the numbers shown.', 'Zvol jedno z čísel.')}[/red]"
            )

    async def decide(self, tracker: PlayerTracker, decision: Decision) -> Message:
        lang = self.lang
        if decision.kind == "newgame":
            line = await self.read_line(self.say("Play a game? [Y/n]: ", "Hrát hru? [A/n]: "))
            if line is None:
                raise EOFError
            return tracker.newgame_answer(line.strip().lower() not in ("n", "no", "ne"))
        view = tracker.view()
        self.show_table(tracker, view)
        legal = tracker.legal_actions()
        if decision.kind == "licite":
            if decision.asked:
                word = contract_word(decision.asked, lang)
                prompt = self.say(
                    f"Do you have {decision.asked} ({word})?",
                    f"Máš {decision.asked} ({accusative(word)})?",
                )
            else:
                prompt = self.say("Your bid", "Tvoje licitace")
            action = await self.choose(prompt, legal)
        elif decision.kind == "discard":
            action = await self.discard(legal)
        elif decision.kind == "gametype":
            action = await self.choose(
                self.say(
                    f"Announce the game (won: {decision.asked})",
                    f"Zvol hru (vydražená hra: {decision.asked})",
                ),
                legal,
            )
        elif decision.kind == "flek":
            prompt = self.say(
                f"Flek (now {decision.asked}; same = no flek)",
                f"Flek (teď {decision.asked}; stejně = bez fleku)",
            )
            action = await self.choose_or_resign(prompt, tracker.choices(decision))
        else:
            # ložená hra and giving up: only the aktér gets them (tracker.choices)
            action = await self.choose_or_resign(
                self.say("Your card", "Tvoje karta"), tracker.choices(decision)
            )
        return tracker.answer(action)

    async def choose_or_resign(self, prompt: str, options: Sequence[Action]) -> Action:
        """A choice that may be giving up the game: that one is asked again first."""
        while True:
            action = await self.choose(prompt, options)
            if not isinstance(action, Resign):
                return action
            line = await self.read_line(
                self.say(
                    "Give up the game? You lose every part. [y/N]: ",
                    "Vzdát hru? Prohraješ všechny části. [a/N]: ",
                )
            )
            if line is None:
                raise EOFError
            if line.strip().lower() in ("y", "yes", "a", "ano"):
                return action

    async def discard(self, legal: Sequence[Action]) -> Action:
        pairs = {a.cards: a for a in legal if isinstance(a, Discard)}
        allowed = sorted({c for pair in pairs for c in pair})
        self.console.print(
            self.say("Cards you may lay into the talon:", "Karty, které smíš odložit do talonu:")
        )
        for i, card in enumerate(allowed, 1):
            line = Text(f"  {i:>2}  ")
            line.append_text(card_text(CARD_CODES[card]))
            self.console.print(line)
        while True:
            answer = await self.read_line(
                self.say(
                    "Two cards for the talon (e.g. '1 5'): ",
                    "Dvě karty do talonu (např. '1 5'): ",
                )
            )
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
            self.console.print(
                "[red]"
                + self.say(
                    "Pick two different cards from the list.",
                    "Vyber dvě různé karty ze seznamu.",
                )
                + "[/red]"
            )


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
    lang = getattr(args, "language", None) or "en"
    console.print(
        pick(
            lang,
            f"Logging in at {args.host}:{args.port} as {args.name} ({pid}) …",
            f"Přihlašování na {args.host}:{args.port} jako {args.name} ({pid}) …",
        )
    )
    wanted = list(args.opponent)
    if getattr(args, "level", None):
        wanted += [house_bot_server(args.level)] * 2
    complete = await login(
        args.host, args.port, me, "active", opponent_refs(wanted), token=args.token
    )
    names = ", ".join(p.name or p.id or "?" for p in complete.players)
    group = public_group(complete.group)
    console.print(
        "[bold]"
        + pick(lang, f"Your table (group {group}) with {names}", f"Tvůj stůl ({group}): {names}")
        + "[/bold]"
    )
    terminal = Terminal(
        console,
        read_line,
        complete.playerid or pid,
        getattr(args, "tariff", None) or "csm",
        lang,
    )

    def on_message(message: Message, tracker: PlayerTracker) -> None:
        terminal.show_event(message, tracker)

    summary = await play_group(complete, me, terminal, on_message=on_message)
    console.print(
        "[bold]"
        + pick(
            lang,
            f"The group is over: {summary.games} games, money {summary.money:+d}.",
            f"Konec stolu: odehraných her {summary.games}, peníze {summary.money:+d}.",
        )
        + "[/bold]"
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
