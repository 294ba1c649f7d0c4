"""``herna bot onitama`` and ``herna play onitama``."""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Literal, overload

from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from herna.cli import GameCommands
from herna.cli.botout import BotOutput, add_quiet
from herna.cli.language import add_language_option, say_in
from herna.cli.tokens import add_token_option
from herna.clients.onitama import ClientError, OnitamaClient, run_bot
from herna.core.game import CHANCE
from herna.core.lang import N_
from herna.core.rng import SeededRng
from herna.games.onitama.board import SQUARE_NAMES
from herna.games.onitama.bots import LEVEL_NAMES, STRATEGIES, Strategy, make_strategy
from herna.games.onitama.cards import BLACK, CARDS, COLOR_NAMES, WHITE, card_index
from herna.games.onitama.notation import format_action, parse_action
from herna.games.onitama.state import OnitamaState, PlayerAction
from herna.games.onitama.words import (
    action_words,
    card_words,
    cards_words,
    who_words,
    win_words,
)
from herna.hall.lobby import NOT_VERIFIED
from herna.protocols import onitama as proto
from herna.servers.onitama import DEFAULT_PORT

Ask = Callable[[str], Awaitable[str | None]]

PIECE_STYLE = {
    "W": "bold white on grey23",
    "w": "white on grey23",
    "B": "bold red on grey23",
    "b": "red on grey23",
}
PIECE_GLYPH = {"W": "♔", "w": "♙", "B": "♚", "b": "♟", ".": " "}


def register(commands: GameCommands) -> None:
    bot = commands.bot.add_parser(
        "onitama",
        help="run an Onitama bot",
        description="Log a bot in on an Onitama server and play game after game (or "
        "--games N). When the server goes away the bot logs in again (with backoff) and goes "
        "on, back at its seat if the server kept its game. With --versus STRATEGY no server "
        "is used: the bot plays --games local games against that strategy and prints the "
        "score.",
    )
    bot.add_argument(
        "--strategy",
        choices=STRATEGIES,
        default="engine",
        help="random, greedy (one ply, avoids immediate losses), alphabeta (pure Python) or "
        "engine (the compiled engine, default)",
    )
    bot.add_argument(
        "--level",
        choices=LEVEL_NAMES,
        default="strongest",
        help="engine: strength (default strongest; docs/games/onitama.md measures each)",
    )
    bot.add_argument(
        "--name", help="player name (1-32 letters, digits, _ - .; default bot-<strategy>)"
    )
    add_token_option(bot, "the third LOGIN field (LOGIN|name|token)")
    bot.add_argument(
        "--no-reconnect",
        action="store_true",
        help="stop when the connection to the server is lost (default: log in again, waiting "
        "0.5 s, then twice as long after each failed attempt, at most 10 s)",
    )
    bot.add_argument("--host", default="127.0.0.1", help="server address (default 127.0.0.1)")
    bot.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"server TCP port (default {DEFAULT_PORT})"
    )
    bot.add_argument(
        "--games", type=int, help="stop after this many games (default: never; 200 with --versus)"
    )
    bot.add_argument(
        "--budget",
        type=float,
        help="seconds of thought per move (default: alphabeta 0.5, engine the level's)",
    )
    bot.add_argument(
        "--depth",
        type=int,
        help="alphabeta: fixed search depth instead of the time budget; engine: depth cap",
    )
    bot.add_argument("--seed", type=int, default=0, help="seed of the bot's random choices")
    bot.add_argument(
        "--tournament",
        type=int,
        metavar="ID",
        help="play the games of live tournament ID (LOGIN's seek 'tournament=ID'; needs a "
        "reserved name and its --token); the bot stops when the tournament is over",
    )
    bot.add_argument(
        "--versus",
        choices=STRATEGIES,
        metavar="STRATEGY",
        help="play locally against this strategy instead of on a server",
    )
    add_quiet(bot)
    bot.set_defaults(func=run_bot_command)

    p = commands.play.add_parser(
        "onitama",
        help="play Onitama yourself in the terminal",
        description="Log in on an Onitama server and play. The board shows both hands, the "
        "spare card and the last move; when it is your turn the legal moves are listed: type "
        "a number or a move like 'Tiger c1c3', 'resign', 'draw' to offer a draw, 'accept' to "
        "take one offered to you ('q' quits). You play against whoever is waiting in the "
        "lobby, or a house bot. After a game the server starts no new one until you ask: a "
        "rematch with the same opponent, or another game.",
    )
    p.add_argument(
        "--name", help="your player name (1-32 letters, digits, _ - .); needed on a server"
    )
    p.add_argument(
        "--level",
        choices=LEVEL_NAMES,
        help="play here against the engine at this level instead of on a server (no --name "
        "needed; docs/games/onitama.md measures each level)",
    )
    p.add_argument("--host", default="127.0.0.1", help="server address (default 127.0.0.1)")
    p.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"server TCP port (default {DEFAULT_PORT})"
    )
    p.add_argument("--games", type=int, help="leave after this many games (default: ask)")
    p.add_argument(
        "--clock",
        metavar="MINUTES+SECONDS",
        help="a game clock with an increment for your games, e.g. 5+3 (default: the server's "
        "clock per move)",
    )
    p.add_argument(
        "--no-flip",
        action="store_true",
        help="always draw White at the bottom (default: your side at the bottom)",
    )
    p.add_argument(
        "--tournament",
        type=int,
        metavar="ID",
        help="play your games of live tournament ID, one after the other as they are due "
        "(LOGIN's seek 'person,tournament=ID'; needs your reserved name's --token, e.g. the "
        "one on your teacher's entry list); ends when the tournament is over",
    )
    add_token_option(p, "the third LOGIN field (LOGIN|name|token)")
    add_language_option(p, "the game's words and the cards' names")
    p.set_defaults(func=run_play_command)


# -- bots ----------------------------------------------------------------------------------------
def build_strategy(args: argparse.Namespace) -> Strategy:
    budget = args.budget
    if args.strategy == "alphabeta" and budget is None and args.depth is None:
        budget = 0.5
    return make_strategy(
        args.strategy,
        seed=args.seed,
        depth=args.depth,
        budget=budget,
        now=time.monotonic,
        level=args.level,
    )


def run_bot_command(args: argparse.Namespace) -> int:
    strategy = build_strategy(args)
    if args.versus:
        return local_series(strategy, args.versus, args.games or 200, args.seed)
    name = args.name or f"bot-{args.strategy}"
    console = Console()
    out = BotOutput(name, args.games, args.quiet, console)
    opponent = ["?"]

    def on_message(msg: object) -> None:
        if isinstance(msg, proto.Start):
            mine = proto.name_key(name)
            opponent[0] = msg.black if proto.name_key(msg.white) == mine else msg.white
            colour = "white" if proto.name_key(msg.white) == mine else "black"
            out.say(f"new game against {opponent[0]}; playing {colour}")
        elif isinstance(msg, proto.Reconnect):
            out.say("back at its seat after a reconnect")
        elif isinstance(msg, proto.GameOver):
            won = proto.name_key(msg.winner) == proto.name_key(name)
            how = f" ({msg.reason.replace('_', ' ')})" if msg.reason else ""
            out.game(f"{'won against' if won else 'lost to'} {opponent[0]}{how}", won)

    out.say(f"connecting to {args.host}:{args.port}")
    try:
        with out:
            result = asyncio.run(
                run_bot(
                    args.host,
                    args.port,
                    name,
                    strategy,
                    args.games,
                    on_message,
                    token=args.token,
                    reconnect=not args.no_reconnect,
                    say=out.say,
                    seek=f"tournament={args.tournament}" if args.tournament else None,
                )
            )
    except ClientError as exc:
        console.print(f"herna bot onitama: {exc}")
        return 1
    except OSError as exc:
        console.print(f"herna bot onitama: cannot reach {args.host}:{args.port}: {exc}")
        return 1
    if args.quiet:
        return 0
    console.print(
        f"{name} played {result.games} games: {result.wins} won, "
        f"{result.losses} lost, {result.invalid} moves refused"
    )
    return 0


def local_series(
    strategy: Strategy, versus: str, games: int, seed: int, console: Console | None = None
) -> int:
    """``--versus``: ``strategy`` plays ``games`` local games, alternating colours."""
    console = console or Console()
    wins = plies = 0
    started = time.monotonic()
    for game in range(games):
        other = make_strategy(versus, seed=seed + 10_000 + game, depth=3)
        rng = SeededRng(seed + game)
        state = OnitamaState.new()
        me = WHITE if game % 2 == 0 else BLACK
        bots = (strategy, other) if me == WHITE else (other, strategy)
        while not state.is_terminal() and state.ply < 1000:
            player = state.current_player()
            if player == CHANCE:
                state = state.apply(rng.weighted(state.chance_outcomes()))
            else:
                state = state.apply(bots[player].choose(state))
        wins += state.winner == me
        plies += state.ply
    elapsed = time.monotonic() - started
    console.print(
        f"{strategy.name} vs {versus}: won {wins} of {games} games "
        f"({100 * wins / games:.1f} %), {plies / games:.1f} plies per game, "
        f"{elapsed:.1f} s"
    )
    return 0


# -- the terminal board --------------------------------------------------------------------------
def card_grid(name: str, facing_up: bool, highlight: bool = False, lang: str = "en") -> Panel:
    """A card's moves as a 5x5 grid, titled with its name in ``lang``; ``facing_up``: its
    holder sits at the bottom."""
    cells = [["·"] * 5 for _ in range(5)]
    cells[2][2] = "■"
    for dx, dy in CARDS[card_index(name)].offsets:
        row, col = (2 - dy, 2 + dx) if facing_up else (2 + dy, 2 - dx)
        cells[row][col] = "o"
    text = Text("\n".join(" ".join(r) for r in cells), justify="center")
    return Panel(
        text, title=card_words(name, lang), width=15, border_style="yellow" if highlight else "dim"
    )


def render_state(
    state: OnitamaState,
    names: tuple[str, str],
    me: int | None = None,
    flip: bool = True,
    lang: str = "en",
) -> RenderableType:
    """Board, both hands and the spare; the last move's squares highlighted."""
    _ = say_in(lang)
    colors = (_("white"), _("black"))
    bottom = me if (flip and me is not None) else WHITE
    top = 1 - bottom
    last = state.last or {}
    marked = {last.get("from"), last.get("to")} if last.get("type") == "move" else set()
    ranks = range(4, -1, -1) if bottom == WHITE else range(5)
    files = range(5) if bottom == WHITE else range(4, -1, -1)
    board = Table(show_header=True, box=None, padding=(0, 1))
    board.add_column("")
    for f in files:
        board.add_column("abcde"[f], justify="center")
    for r in ranks:
        row: list[RenderableType] = [Text(str(r + 1), style="dim")]
        for f in files:
            square = r * 5 + f
            piece = state.piece_at(square)
            style = PIECE_STYLE.get(piece, "on grey23")
            if SQUARE_NAMES[square] in marked:
                style = style.replace("grey23", "dark_goldenrod")
            if square in (2, 22) and piece == ".":
                glyph = "⌂"
            else:
                glyph = PIECE_GLYPH[piece]
            row.append(Text(f" {glyph} ", style=style))
        board.add_row(*row)
    played = last.get("card") if last.get("type") == "move" else None

    def hand(color: int) -> Columns:
        return Columns(
            [
                card_grid(c, facing_up=color == bottom, highlight=c == played, lang=lang)
                for c in state.hand(color)
            ]
        )

    spare = card_grid(state.spare, facing_up=state.to_move == bottom, highlight=True, lang=lang)
    if state.is_terminal() and state.winner is not None:
        how = _(win_words(state.reason))
        status = _("{name} won {how}").format(name=names[state.winner], how=how)
    else:
        who = names[state.to_move]
        status = _("{name} ({color}) to move").format(name=who, color=colors[state.to_move])
    return Group(
        Text(f"{names[top]} ({colors[top]})", style="bold"),
        hand(top),
        Columns([board, Group(Text(_("spare"), style="dim"), spare)]),
        hand(bottom),
        Text(f"{names[bottom]} ({colors[bottom]})", style="bold"),
        Text(status, style="italic"),
    )


def action_menu(state: OnitamaState) -> list[PlayerAction]:
    return list(state.legal_actions())  # type: ignore[arg-type]


def read_choice(text: str, actions: list[PlayerAction], lang: str = "en") -> PlayerAction | None:
    """A number from the menu or a move in notation (its card by the protocol's name, or as
    the menu in ``lang`` names it: ``Kanec c1c2``); None if it is neither."""
    text = text.strip()
    if text.isdigit():
        index = int(text) - 1
        return actions[index] if 0 <= index < len(actions) else None
    said = {cards_words(format_action(a), lang).casefold(): a for a in actions}
    if " ".join(text.split()).casefold() in said:
        return said[" ".join(text.split()).casefold()]
    try:
        action = parse_action(text)
    except ValueError:
        return None
    return action if action in actions else None


GAME_OVER_WORDS = {
    proto.WAY_OF_THE_STONE: N_("by the Way of the Stone"),
    proto.WAY_OF_THE_STREAM: N_("by the Way of the Stream"),
    proto.OPPONENT_LEFT: N_("because the opponent did not come back in time"),
    "out_of_time": N_("on time"),
    proto.RESIGNED: N_("because the opponent resigned"),
}

NEXT_PROMPT = N_("Next: [p]lay again (a new opponent), [r]ematch, [q]uit? ")

EXTENSION_WORDS = {
    "DRAW_OFFERED": N_("{name} offers a draw: type 'accept' to take it; a move declines it."),
    "DRAW_DECLINED": N_("{name} declined your draw offer."),
    "REMATCH_OFFERED": N_("{name} wants a rematch: answer 'r' to play them again."),
    "REMATCH_DECLINED": N_("{name} does not want a rematch now."),
    "CLAIMABLE": N_("{name} is gone or out of time past the grace period."),
}
"""Herna's extension lines a person reads, by their keyword."""


def describe_extension(text: str, lang: str = "en") -> str | None:
    """A Herna extension line (draw offers, rematches) in words; None for lines a person at
    the terminal need not read (the lobby's seek id, the move clock)."""
    _ = say_in(lang)
    fields = text.split("|")
    if fields[0] == "GAME_CLOCK":
        return _game_clock_words(fields, lang)
    sentence = EXTENSION_WORDS.get(fields[0])
    if sentence is None:
        return None
    name = fields[1] if len(fields) > 1 else _("your opponent")
    return _(sentence).format(name=name)


def _game_clock_words(fields: list[str], lang: str = "en") -> str | None:
    """``GAME_CLOCK|white|black|to_move`` in words."""
    if len(fields) < 4:
        return None
    try:
        white, black = (int(float(f) + 0.999) for f in fields[1:3])
    except ValueError:
        return None
    return say_in(lang)("Clock: white {white}, black {black}.").format(
        white=f"{white // 60}:{white % 60:02d}", black=f"{black // 60}:{black % 60:02d}"
    )


def describe(
    msg: proto.ServerMessage | proto.Garbage,
    me: str,
    state: OnitamaState | None = None,
    names: tuple[str, str] = ("white", "black"),
    lang: str = "en",
) -> str | None:
    """One line for the person at the terminal, in ``lang``; ``state`` is the game after
    ``msg`` (a move or a swap is told as the play page and the replays tell it, from its
    ``last``)."""
    _ = say_in(lang)
    if isinstance(msg, proto.MoveWasMade | proto.StalemateCard) and state is not None:
        last = state.last
        if last is not None and last.get("type") in ("move", "stalemate"):
            color = str(last.get("player"))
            name = names[0] if color == "white" else names[1]
            return action_words(last, who_words(name, color, lang), lang)
    if isinstance(msg, proto.Start):
        white = proto.name_key(msg.white) == proto.name_key(me)
        other = msg.black if white else msg.white
        if white:
            return _("New game against {other}: you play white (White moves first).").format(
                other=other
            )
        return _("New game against {other}: you play black (White moves first).").format(
            other=other
        )
    if isinstance(msg, proto.MoveWasMade):
        card = card_words(msg.card, lang)
        return _("Move: {card} {frm}{to}").format(card=card, frm=msg.frm, to=msg.to)
    if isinstance(msg, proto.InvalidMove):
        return _("The server refused that move; try again.")
    if isinstance(msg, proto.StalemateCard):
        return _("No move was possible: {old} swapped for {new}.").format(
            old=card_words(msg.old, lang), new=card_words(msg.new, lang)
        )
    if isinstance(msg, proto.Logout):
        return _("{name} lost the connection; the game waits for them to come back.").format(
            name=msg.name
        )
    if isinstance(msg, proto.Reconnect):
        return _("{name} is back.").format(name=msg.name)
    if isinstance(msg, proto.GameOver):
        if not msg.winner:
            return _("Game over: a draw, agreed by both players.")
        mine = proto.name_key(msg.winner) == proto.name_key(me)
        if msg.reason == proto.RESIGNED and not mine:
            return _("Game over: you resigned; {name} wins.").format(name=msg.winner)
        how = GAME_OVER_WORDS.get(msg.reason or "")
        reason = _(how) if how else (msg.reason or "").replace("_", " ")
        if not reason:
            return (
                _("Game over: you win.")
                if mine
                else _("Game over: {name} wins.").format(name=msg.winner)
            )
        if mine:
            return _("Game over: you win {how}.").format(how=reason)
        return _("Game over: {name} wins {how}.").format(name=msg.winner, how=reason)
    if isinstance(msg, proto.Error):
        # The protocol's own reason stays as the server wrote it (a keyword to look up).
        text = proto.ERROR_TEXT.get(msg.reason)
        if text:
            return _("The server says: {text}.").format(text=_(text))
        return _("Server error: {reason}").format(reason=msg.reason)
    if isinstance(msg, proto.Garbage):
        if msg.reason == proto.UNKNOWN_COMMAND:
            return describe_extension(msg.text, lang)
        return _("(unreadable line from the server: {text})").format(text=msg.text)
    return None


async def play_terminal(
    host: str,
    port: int,
    name: str,
    ask: Ask,
    console: Console,
    games: int | None = None,
    flip: bool = True,
    clock: str | None = None,
    tournament: int | None = None,
    token: str | None = None,
    lang: str = "en",
) -> int:
    """The whole ``herna play onitama`` session, in ``lang``; ``ask`` reads one line (None =
    quit); ``clock``: a time control (``5+3``) for the games this person opens;
    ``tournament``: play that live tournament's games as they come (under the name proven by
    ``token``)."""
    _ = say_in(lang)
    try:
        client = await OnitamaClient.connect(host, port)
    except OSError as exc:
        where = f"{host}:{port}"
        console.print(Text(_("cannot reach {where}: {why}").format(where=where, why=exc), "red"))
        return 1
    if tournament is not None:
        # The hall seats this person at each game of the tournament as it is due, and takes
        # them back to waiting after it: no "once", nothing to ask between games.
        seek = f"person,tournament={tournament}"
    else:
        # "once": after each game the server waits for this person to ask for the next.
        seek = "once" + (f",clock={clock}" if clock else "")
    async with client:
        try:
            await client.login(name, token, seek=seek)
        except ClientError as exc:
            console.print(Text(str(exc), "red"))
            unproven = (NOT_VERIFIED, proto.RESERVED_NAME, proto.BAD_TOKEN)
            if tournament is not None and exc.code in unproven:
                console.print(
                    _(
                        "A tournament needs your reserved name and its token (from your "
                        "teacher's entry list, or 'herna bots add NAME'): --token TOKEN, or the "
                        "environment variable HERNA_TOKEN."
                    )
                )
            return 1
        if tournament is not None:
            console.print(
                _(
                    "Logged in as {name}; you are entered in tournament {id}. Waiting for your "
                    "first game (the hall seats you when it is due)…"
                ).format(name=name, id=tournament),
                markup=False,
            )
        else:
            console.print(
                _("Logged in as {name}; waiting for an opponent…").format(name=name), markup=False
            )
        played = 0
        waiting = False
        while True:
            game = client.game
            state = game.state
            if game.my_turn() and not waiting and state is not None:
                console.print(render_state(state, _names(client), game.color, flip, lang))
                action = await ask_move(state, ask, console, online=True, lang=lang)
                if action is None:
                    return 0
                if isinstance(action, str):
                    if action == "resign":
                        sure = await ask(_("Resign this game? You lose it. [y/N] "))
                        if sure is None or not sure.strip().lower().startswith("y"):
                            continue
                    await client.send_raw(ONLINE_COMMANDS[action])
                    waiting = action != "draw"  # an offer: the move is still to be made
                    continue
                await client.send_action(action)
                waiting = True
            msg = await client.recv()
            if msg is None:
                console.print(_("The server closed the connection."))
                return 0
            if isinstance(msg, proto.Error) and msg.reason == proto.TOURNAMENT_OVER:
                console.print(
                    _(
                        "Tournament {id} is over: the final standings are on the hall's "
                        "tournament page (/tournaments/{id})."
                    ).format(id=tournament)
                )
                return 0
            line = describe(msg, name, client.game.state, _names(client), lang)
            if line:
                console.print(line, markup=False)
            if isinstance(
                msg,
                proto.InvalidMove
                | proto.Error
                | proto.MoveWasMade
                | proto.StalemateCard
                | proto.Start
                | proto.Reconnect,
            ):
                waiting = False
            if (
                isinstance(msg, proto.Start | proto.Reconnect)
                and client.game.state is not None
                and not client.game.my_turn()
            ):
                console.print(
                    render_state(client.game.state, _names(client), client.game.color, flip, lang)
                )
            if isinstance(msg, proto.GameOver):
                waiting = False
                played += 1
                if client.game.state is not None:
                    console.print(
                        render_state(
                            client.game.state, _names(client), client.game.color, flip, lang
                        )
                    )
                if games is not None and played >= games:
                    return 0
                if tournament is not None:
                    console.print(_("Waiting for your next game of the tournament…"))
                    continue
                answer = "p"
                if games is None:
                    answer = ((await ask(_(NEXT_PROMPT))) or "q").strip().lower()[:1]
                    if answer not in ("p", "r", ""):
                        console.print(_("Bye."))
                        return 0
                if answer == "r":
                    await client.send_raw(b"REMATCH\n")
                    console.print(_("Asking for a rematch…"))
                else:
                    await client.send_raw(b"PLAY_AGAIN\n")
                    console.print(_("Waiting for the next opponent…"))
            if isinstance(msg, proto.Garbage) and msg.text.startswith("REMATCH_DECLINED"):
                answer = ((await ask(_(NEXT_PROMPT))) or "q").strip().lower()[:1]
                if answer not in ("p", "r", ""):
                    console.print(_("Bye."))
                    return 0
                await client.send_raw(b"REMATCH\n" if answer == "r" else b"PLAY_AGAIN\n")


def _names(client: OnitamaClient) -> tuple[str, str]:
    return (client.game.white or "white", client.game.black or "black")


ONLINE_COMMANDS = {
    "resign": b"RESIGN\n",
    "draw": b"OFFER_DRAW\n",
    "accept": b"ACCEPT_DRAW\n",
}
"""What a person may type instead of a move in a game on a server."""


@overload
async def ask_move(
    state: OnitamaState,
    ask: Ask,
    console: Console,
    online: Literal[False] = ...,
    lang: str = ...,
) -> PlayerAction | None: ...


@overload
async def ask_move(
    state: OnitamaState, ask: Ask, console: Console, online: bool, lang: str = ...
) -> PlayerAction | str | None: ...


async def ask_move(
    state: OnitamaState, ask: Ask, console: Console, online: bool = False, lang: str = "en"
) -> PlayerAction | str | None:
    """Offer the legal moves of ``state`` and read one; ``None`` when the person quits (the
    one move prompt of online and local play). ``online``: 'resign', 'draw' and 'accept'
    are answers too (returned as they are): the commands a person types stay English in
    every language, as the moves' notation does."""
    _ = say_in(lang)
    actions = action_menu(state)
    console.print(
        "  ".join(
            f"[cyan]{i}[/cyan]) {cards_words(format_action(a), lang)}"
            for i, a in enumerate(actions, 1)
        )
    )
    while True:
        text = await ask(_("your move> "))
        if text is None or text.strip().lower() in ("q", "quit", "exit"):
            console.print(_("Bye."))
            return None
        if online and text.strip().lower() in ONLINE_COMMANDS:
            return text.strip().lower()
        action = read_choice(text, actions, lang)
        if action is not None:
            return action
        console.print(
            _("Type a number from the list or a move like '{move}'.").format(
                move=cards_words(format_action(actions[0]), lang)
            ),
            markup=False,
        )


def say_last(
    state: OnitamaState, names: tuple[str, str], console: Console, lang: str = "en"
) -> None:
    """The move just made, in the words the play page and the replays use (a swap is told
    once its new card is drawn)."""
    _ = say_in(lang)
    last = state.last
    if last is None or (last.get("type") == "stalemate" and not last.get("new")):
        return
    color = str(last.get("player"))
    who = who_words(names[COLOR_NAMES.index(color)], color, lang)
    console.print(action_words(last, who, lang), markup=False)


async def play_local(
    level: str,
    ask: Ask,
    console: Console,
    seed: int | None = None,
    flip: bool = True,
    lang: str = "en",
) -> int:
    """``herna play onitama --level``: one game here against the engine; you draw a colour
    at random. The rules engine referees; the deal comes from ``seed`` (random if None)."""
    from herna.core.rng import SeedSource

    _ = say_in(lang)
    rng = SeedSource(seed).next_rng()
    engine = make_strategy("engine", seed=rng.randint(0, 2**31 - 1), level=level)
    me = rng.choice((WHITE, BLACK))
    you, it = _("you"), _("engine ({level})").format(level=level)
    names = (you, it) if me == WHITE else (it, you)
    state = OnitamaState.new()
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            state = state.apply(rng.weighted(state.chance_outcomes()))
            if not state.dealing:
                say_last(state, names, console, lang)  # a blocked player's new card
            continue
        if player != me:
            state = state.apply(engine.choose(state))
            say_last(state, names, console, lang)
            continue
        console.print(render_state(state, names, me, flip, lang))
        action = await ask_move(state, ask, console, lang=lang)
        if action is None:
            return 0
        state = state.apply(action)
        say_last(state, names, console, lang)
    console.print(render_state(state, names, me, flip, lang))
    how = _(win_words(state.reason))
    verdict = _("You won {how}.") if state.winner == me else _("The engine won {how}.")
    console.print(verdict.format(how=how))
    return 0


def run_play_command(args: argparse.Namespace) -> int:
    console = Console()

    async def ask(prompt: str) -> str | None:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(None, input, prompt)
        except EOFError:
            return None

    if args.level:
        return asyncio.run(
            play_local(args.level, ask, console, flip=not args.no_flip, lang=args.language)
        )
    if not args.name:
        console.print("herna play onitama: --name is needed to play on a server (or --level)")
        return 2
    if args.tournament is not None and args.clock:
        console.print("herna play onitama: a tournament's games keep its own clock (no --clock)")
        return 2
    return asyncio.run(
        play_terminal(
            args.host,
            args.port,
            args.name,
            ask,
            console,
            args.games,
            not args.no_flip,
            args.clock,
            args.tournament,
            args.token,
            args.language,
        )
    )
