"""``herna rules check|show``, ``herna play tiles`` and ``herna bot tiles``."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from herna.cli import GameCommands
from herna.cli.botout import BotOutput, add_quiet
from herna.cli.language import add_language_option, say_in
from herna.cli.tokens import add_token_option
from herna.clients.tiles import (
    DEFAULT_MAX_BACKOFF,
    TilesClient,
    TilesServerError,
    check_address,
    describe_address,
    run_bot,
)
from herna.core.game import CHANCE
from herna.core.lang import N_
from herna.core.rng import SeededRng, new_seed
from herna.games.tiles.actions import TilesCodec
from herna.games.tiles.bots import LEVEL_NAMES, STRATEGIES, make_bot
from herna.games.tiles.engine import TilesState, new_game
from herna.games.tiles.narrate import TurnLog, end_words, item_names, item_word
from herna.games.tiles.render import describe_action, render_board, render_legend
from herna.games.tiles.replay import describe
from herna.games.tiles.rules import (
    Rules,
    RulesReport,
    check_rules_file,
    resolve_rules_path,
    rules_title,
    shipped_rules,
)
from herna.servers.tiles import DEFAULT_PORT

Ask = Callable[[str], str | None]

URL_HELP = (
    "server as a URL instead of --host/--port: ws://HOST:PORT/ws/tiles (WebSocket, the web "
    "hall's port, default 8080), wss://... or tcp://HOST:PORT"
)


def _server(args: argparse.Namespace) -> tuple[str, int] | None:
    """``(host or URL, port)`` from --url or --host/--port; None (after saying why) when
    --url is not an address the client can use."""
    if args.url is None:
        return args.host, args.port
    try:
        check_address(args.url)
    except ValueError as exc:
        print(f"--url: {exc}", file=sys.stderr)
        return None
    if "://" not in args.url:
        print(
            f"--url: expected ws://HOST:PORT/ws/tiles or tcp://HOST:PORT, not {args.url!r}",
            file=sys.stderr,
        )
        return None
    return args.url, args.port


def register(commands: GameCommands) -> None:
    shipped = ", ".join(sorted(shipped_rules()))
    check = commands.rules.add_parser(
        "check",
        help="check rules.json files and list every problem",
        description="Check tile-game rules files (the rules.json of seed 004). Every problem "
        "is listed at once with its JSON path and what was expected. Exit status 0 when the "
        "files are valid (warnings allowed), 1 when any has errors. A FILE may also be the "
        f"name of a rules file shipped with Herna ({shipped}).",
    )
    check.add_argument("files", nargs="+", metavar="FILE", help="rules file(s) to check")
    check.add_argument("--json", action="store_true", help="print the problems as JSON")
    check.add_argument("--strict", action="store_true", help="treat warnings as errors")
    check.set_defaults(func=run_check)

    show = commands.rules.add_parser(
        "show",
        help="draw the board a rules file sets up",
        description="Check a rules file, set a game up (a seeded random fill, goals and "
        "hands) and draw the board with the players, items and effects.",
    )
    show.add_argument("file", metavar="FILE", help=f"rules file or shipped name ({shipped})")
    show.add_argument("--seed", type=int, default=1, help="seed of the setup (default 1)")
    show.add_argument(
        "--seat", type=int, help="show what this player sees (default: everything a spectator sees)"
    )
    show.set_defaults(func=run_show)

    play = commands.play.add_parser(
        "tiles",
        help="play a tile game in the terminal",
        description="Play a tile/path game: each turn is told in one line of words, the board "
        "is drawn in the terminal when it is your turn and you pick your actions from a "
        "numbered list. By default you join a table on a Herna server "
        "(house bots take the empty seats), over TCP (--host/--port) or over WebSocket "
        "through the web hall (--url ws://HOST:PORT/ws/tiles); with --local you play here "
        "against bots.",
    )
    play.add_argument("rules", metavar="RULES.json", help=f"rules file or shipped name ({shipped})")
    play.add_argument("--name", default="me", help="your player name (default 'me')")
    play.add_argument("--host", default="127.0.0.1", help="server address (default 127.0.0.1)")
    play.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"server TCP port (default {DEFAULT_PORT})"
    )
    play.add_argument("--url", help=URL_HELP)
    add_token_option(play, 'the "token" field of join')
    play.add_argument(
        "--wait",
        action="store_true",
        help="wait for other people instead of starting at once with house bots",
    )
    play.add_argument(
        "--local",
        action="store_true",
        help="no server: play against local bots (nothing is recorded)",
    )
    play.add_argument(
        "--opponents",
        choices=STRATEGIES,
        default="goal",
        help="--local: how the bots play (default goal)",
    )
    play.add_argument(
        "--level",
        choices=LEVEL_NAMES,
        help="how strong the house bots play (easy, medium, hard, strongest; on a server: at "
        "the new table you open; --local: the same as --opponents); docs/games/tiles.md "
        "measures each level",
    )
    play.add_argument(
        "--verbose",
        action="store_true",
        help="show every step of the rules engine (tiles dealt, goals drawn, coordinates) and "
        "the board after every action, instead of one line per turn",
    )
    play.add_argument("--seat", type=int, default=0, help="--local: your seat (default 0)")
    play.add_argument("--seed", type=int, help="--local: seed of the game (default random)")
    add_language_option(play, "the game's words (a designer's own item names stay as written)")
    play.set_defaults(func=run_play)

    bot = commands.bot.add_parser(
        "tiles",
        help="run a tile-game bot against a server",
        description="Join a table on a Herna tile server and play with a bot strategy: "
        "random (any legal action), goal (goal-seeking, one turn of look-ahead) or search "
        "(the goal bot's best turns played on over the replies and its next turn). The bot "
        "connects over TCP (--host/--port) or over WebSocket through the web hall "
        "(--url ws://HOST:PORT/ws/tiles). Should it lose the server after that, it says so, "
        "knocks again with growing pauses (0.5 s doubling up to --max-backoff) and, once the "
        "server answers, joins a new table and plays on.",
    )
    bot.add_argument(
        "--strategy",
        choices=STRATEGIES,
        default="goal",
        help="random, goal or search, or a level: easy, medium (= goal), hard, strongest (= "
        "search) (default goal)",
    )
    bot.add_argument(
        "--rules",
        help=f"rules file or shipped name (default labyrinth, or a --tournament's own; "
        f"shipped: {shipped})",
    )
    bot.add_argument("--name", help="player name (default bot-<strategy>)")
    bot.add_argument("--host", default="127.0.0.1", help="server address (default 127.0.0.1)")
    bot.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"server TCP port (default {DEFAULT_PORT})"
    )
    bot.add_argument("--url", help=URL_HELP)
    add_token_option(bot, 'the "token" field of join')
    bot.add_argument(
        "--max-backoff",
        type=float,
        default=DEFAULT_MAX_BACKOFF,
        metavar="SECONDS",
        help=f"longest pause between attempts to reach a lost server (default "
        f"{DEFAULT_MAX_BACKOFF:g})",
    )
    bot.add_argument(
        "--no-reconnect",
        action="store_true",
        help="stop (exit 1) when the server is lost instead of reconnecting",
    )
    bot.add_argument("--games", type=int, default=1, help="games to play (default 1)")
    bot.add_argument(
        "--tournament",
        type=int,
        metavar="ID",
        help="play the games of live tournament ID instead (the join's seek "
        "'tournament=ID'; needs a reserved name and its --token; --rules may be left out: the "
        "tournament's own), until it is over",
    )
    bot.add_argument("--seed", type=int, default=0, help="seed of the bot's random choices")
    bot.add_argument(
        "--no-start",
        action="store_true",
        help="wait for the table to fill instead of asking for house bots",
    )
    add_quiet(bot)
    bot.set_defaults(func=run_bot_command)


# -- rules check / show ---------------------------------------------------------------------------
def _report(ref: str) -> tuple[Path, RulesReport]:
    path = resolve_rules_path(ref)
    return path, check_rules_file(path)


def run_check(args: argparse.Namespace) -> int:
    failed = False
    out: list[dict[str, Any]] = []
    for ref in args.files:
        path, report = _report(ref)
        bad = bool(report.errors) or (args.strict and bool(report.warnings))
        failed = failed or bad
        if args.json:
            out.append(
                {
                    "file": str(path),
                    "valid": not bad,
                    "problems": [p.to_json() for p in report.problems],
                }
            )
            continue
        for problem in report.problems:
            print(f"{path}: {problem}")
        verdict = "invalid" if bad else "valid"
        print(
            f"{path}: {verdict} ({len(report.errors)} error(s), {len(report.warnings)} warning(s))"
        )
    if args.json:
        print(json.dumps(out if len(out) > 1 else out[0], indent=2, ensure_ascii=False))
    return 1 if failed else 0


MOVEMENT_WORDS = {
    "free": N_("free movement"),
    "forced": N_("forced movement"),
    "dice": N_("movement by dice"),
}
PLACING_WORDS = {"anywhere": N_("anywhere"), "connected": N_("at the end of your path")}
"""The rules' keywords (``movement_type``, ``adding_mode``, ``exchanging_mode``) in words."""


def summary(rules: Rules, lang: str = "en") -> str:
    """The rules in a few lines of words (in ``lang``; a designer's own names stay as written)."""
    _ = say_in(lang)
    kind = rules.movement_type
    move = _(MOVEMENT_WORDS[kind]) if kind in MOVEMENT_WORDS else kind
    if kind == "dice":
        move += f" {rules.min_move_distance}..{rules.max_move_distance}"
    elif kind == "free":
        high = str(rules.max_steps) if rules.max_steps else _("any")
        move += _(", {low}..{high} tiles").format(low=rules.min_move_distance, high=high)
    elif rules.max_steps:
        move += _(", at most {n} tiles").format(n=rules.max_steps)
    if rules.only_forward_movement:
        move += _(", forward only")
    steps = ", ".join(_(ACTION_WORDS.get(a, a)) for a in rules.turn_structure)
    lines = [
        _(
            "{name}: {w}x{h} board, {tiles} tiles, {players} players, {n} path point(s) per side"
        ).format(
            name=rules.name,
            w=rules.width,
            h=rules.height,
            tiles=rules.tile_count,
            players=len(rules.players),
            n=rules.n,
        ),
        _("turn: {steps}; {movement}").format(steps=steps, movement=move),
    ]
    if "push" in rules.turn_structure:
        lines.append(
            _("push: the pushed-out tile comes back in")
            if rules.cycle_pushed_out_tiles
            else _("push: the pushed-out tile goes to the pile, the pile's top comes in")
        )
    if "add" in rules.turn_structure:
        where = _(PLACING_WORDS.get(rules.adding_mode, rules.adding_mode))
        from_hand = rules.adding_from == "hand"
        said = _("add: from your hand, {where}") if from_hand else _("add: from the pile, {where}")
        lines.append(said.format(where=where))
    if "exchange" in rules.turn_structure:
        where = _(PLACING_WORDS.get(rules.exchanging_mode, rules.exchanging_mode))
        if rules.exchange_with == "hand":
            said = _("exchange: with your hand, {where}")
        else:
            said = _("exchange: with the pile, {where}")
        lines.append(
            said.format(where=where)
            + (_(", face-down tiles only") if rules.exchange_only_flipped else "")
        )
    if rules.hand_size:
        lines.append(_("hands of {n} tile(s)").format(n=rules.hand_size))
    if rules.max_player_items:
        cap = _("no limit") if rules.max_player_items < 0 else str(rules.max_player_items)
        per = _("all") if rules.items_picked_up < 0 else str(rules.items_picked_up)
        lines.append(
            _("items: players hold {cap}, take {per} of a kind at a time").format(cap=cap, per=per)
        )
    if rules.end_of_game_conditions:
        lines.append(
            _("the game ends when there is no {items} left").format(
                items=_(" or no ").join(item_word(c, lang) for c in rules.end_of_game_conditions)
            )
        )
    return "\n".join(lines)


def _setup(rules: Rules, seed: int) -> TilesState:
    rng = SeededRng(seed)
    state = new_game(rules)
    while state.current_player() == CHANCE:
        state = state.apply(rng.weighted(state.chance_outcomes()))
    return state


def run_show(args: argparse.Namespace) -> int:
    path, report = _report(args.file)
    for problem in report.problems:
        print(f"{path}: {problem}", file=sys.stderr)
    if report.rules is None:
        return 1
    state = _setup(report.rules, args.seed)
    print(summary(report.rules))
    print()
    view = state.view(args.seat)
    print(render_board(view))
    print(render_legend(view))
    return 0


# -- play ---------------------------------------------------------------------------------------
def _input(prompt: str) -> str | None:
    try:
        return input(prompt)
    except EOFError:
        return None


def show(view: Mapping[str, Any], names: Sequence[str], events: str = "", lang: str = "en") -> None:
    print()
    if events:
        print(f"-- {events}")
    print(render_board(view))
    print(render_legend(view, names, lang))


def game_over_words(reason: object, winners: Sequence[str], lang: str = "en") -> str:
    _ = say_in(lang)
    said = ", ".join(winners) or _("nobody")
    return _("Game over: {reason}. Winner(s): {winners}").format(
        reason=end_words(str(reason or ""), lang), winners=said
    )


def _label(action: Mapping[str, Any], view: Mapping[str, Any] | None, lang: str = "en") -> str:
    """A menu entry: the coordinates the person picks by, plus what lies there."""
    label = describe_action(action, lang)
    if view is not None and action.get("type") == "move":
        try:
            tile = view["board"][int(action["y"])][int(action["x"])]
        except (KeyError, IndexError, TypeError, ValueError):
            tile = None
        if tile and tile.get("items"):
            label += " - " + item_names(tile["items"], lang)
    return label


ACTION_WORDS = {
    "move": N_("move"),
    "moveAll": N_("move all"),
    "push": N_("push"),
    "add": N_("add a tile"),
    "exchange": N_("exchange a tile"),
}
"""The rules' action names (``turn_structure``) as the turn's heading says them."""

RESIGN: Mapping[str, Any] = {"type": "resign"}
"""What :func:`choose` returns when the person resigns (online only, after a confirm)."""


def choose(
    actions: Sequence[Mapping[str, Any]],
    action_name: str | None,
    ask: Ask = _input,
    view: Mapping[str, Any] | None = None,
    online: bool = False,
    lang: str = "en",
) -> Mapping[str, Any] | None:
    """Let the person pick one of ``actions``; None when they quit; ``online``: 'r' resigns
    (:data:`RESIGN`, after a confirm). The letters typed (r, q, y) are the same in every
    language."""
    _ = say_in(lang)
    labels = [_label(a, view, lang) for a in actions]
    width = max(len(label) for label in labels) + 6
    per_row = max(1, 100 // width)
    what = _(ACTION_WORDS[action_name]) if action_name in ACTION_WORDS else action_name
    print(_("Your turn: {what} ({n} choices)").format(what=what or _("act"), n=len(actions)))
    for i in range(0, len(labels), per_row):
        print(
            "".join(
                f"{j + 1:>3}. {labels[j]:<{width - 5}}"
                for j in range(i, min(i + per_row, len(labels)))
            )
        )
    while True:
        answer = ask(
            _("choose a number (r resigns, q quits): ")
            if online
            else _("choose a number (q quits): ")
        )
        if answer is None or answer.strip().lower() in ("q", "quit"):
            return None
        text = answer.strip()
        if online and text.lower() in ("r", "resign"):
            sure = ask(_("Resign this game? You lose it. [y/N] "))
            if sure is not None and sure.strip().lower().startswith("y"):
                return RESIGN
            continue
        if text.isdigit() and 1 <= int(text) <= len(actions):
            return actions[int(text) - 1]
        matches = [a for a, label in zip(actions, labels, strict=True) if label.startswith(text)]
        if text and len(matches) == 1:
            return matches[0]
        print(_("type a number from 1 to {n}").format(n=len(actions)))


def run_play(args: argparse.Namespace) -> int:
    path, report = _report(args.rules)
    if report.rules is None:
        for problem in report.problems:
            print(f"{path}: {problem}", file=sys.stderr)
        return 1
    if args.local:
        return play_local(
            report.rules,
            args.seat,
            args.level or args.opponents,
            args.seed if args.seed is not None else new_seed(),
            verbose=args.verbose,
            lang=args.language,
        )
    server = _server(args)
    if server is None:
        return 2
    host, port = server
    try:
        return asyncio.run(
            play_online(
                host,
                port,
                args.name,
                dict(report.rules.data),
                args.wait,
                token=_token(args),
                verbose=args.verbose,
                level=args.level,
                lang=args.language,
            )
        )
    except (ConnectionError, OSError) as exc:
        print(
            say_in(args.language)("cannot reach the tile server at {where}: {why}").format(
                where=describe_address(host, port), why=exc
            ),
            file=sys.stderr,
        )
        return 1


def _settle(state: TilesState, rng: SeededRng) -> TilesState:
    """Play chance (dealing, drawing, rolling) until a player must decide or the game ends."""
    while not state.is_terminal() and state.current_player() == CHANCE:
        state = state.apply(rng.weighted(state.chance_outcomes()))
    return state


def play_local(
    rules: Rules,
    seat: int,
    opponents: str,
    seed: int,
    ask: Ask = _input,
    verbose: bool = False,
    lang: str = "en",
) -> int:
    _ = say_in(lang)
    if not 0 <= seat < len(rules.players):
        print(f"--seat must be 0..{len(rules.players) - 1}", file=sys.stderr)
        return 2
    codec = TilesCodec(rules.n)
    rng = SeededRng(seed)
    bots = {i: make_bot(opponents, rules, seed + i) for i in range(len(rules.players)) if i != seat}
    # "player 1 (you)": a Czech sentence says its verb in the third person ("hráč 1 (ty) posouvá").
    you = _("{name} (you)").format(name=_("player {n}").format(n=seat + 1))
    names = [(you if i == seat else f"{opponents}-{i}") for i in range(len(rules.players))]
    print(summary(rules, lang))
    log = TurnLog(names, lang)
    state = _settle(new_game(rules), rng)
    print(_("The game starts: {names}.").format(names=", ".join(names)))
    while not state.is_terminal():
        current = state.current_player()
        actions = [codec.encode(a) for a in state.legal_actions()]
        before = state.view(seat)
        if current == seat:
            show(before, names, describe(state.happened, names) if verbose else "", lang)
            picked = choose(actions, state.current_action(), ask, before, lang=lang)
            if picked is None:
                print(_("Bye."))
                return 0
            action = codec.decode(picked)
        else:
            action = codec.decode(dict(bots[current].choose(state.view(current), actions)))
        state = _settle(state.apply(action), rng)
        if verbose:
            print("-- " + describe(state.happened, names))
        else:
            line = log.add(current, codec.encode(action), before, state.view(seat))
            if line:
                print(line)
    show(state.view(seat), names, describe(state.happened, names) if verbose else "", lang)
    outcome = state.outcome()
    assert outcome is not None
    print(game_over_words(outcome.reason, [names[w] for w in outcome.winners], lang))
    return 0


def _token(args: argparse.Namespace) -> str | None:
    token: str | None = args.token
    return token


async def play_online(
    host: str,
    port: int,
    name: str,
    rules: dict[str, Any],
    wait: bool,
    ask: Ask = _input,
    token: str | None = None,
    verbose: bool = False,
    level: str | None = None,
    lang: str = "en",
) -> int:
    _ = say_in(lang)
    client = await TilesClient.connect(host, port)
    # A level goes in the hall lobby's seek (docs/protocols/tiles.md, "The lobby"): house bots
    # of that level at once, or, waiting for others, when ``start`` fills the table.
    seek = None
    if level is not None:
        seek = (
            f"opponent=anyone,fill=3600,level={level}" if wait else f"opponent=bots,level={level}"
        )
    try:
        try:
            joined = await client.join(name, rules, token=token, seek=seek)
        except TilesServerError as exc:
            print(_("the server refused: {why}").format(why=exc), file=sys.stderr)
            for problem in exc.problems:
                print(
                    f"  {problem['severity']}: {problem['path']}: {problem['message']}",
                    file=sys.stderr,
                )
            return 1
        named = str(joined.get("rules_name") or "custom")
        rules_words = _("your own rules") if named == "custom" else rules_title(named, lang)
        print(
            _("You are player {n}; the rules: {rules}.").format(
                n=int(joined["seat"]) + 1, rules=rules_words
            )
        )
        if wait:
            print(_("Waiting for other players ..."))
        elif seek is None:
            await client.start()  # (a seek for house bots starts the table by itself)
        names = [s["name"] if s else "" for s in joined["seats"]]
        pending: dict[str, Any] | None = None
        log = TurnLog(names, lang)
        view: Mapping[str, Any] | None = None
        while True:
            message = await client.recv()
            kind = message["type"]
            if kind == "table":
                names = [s["name"] if s else "" for s in message["seats"]]
                seats = ", ".join(n or _("(empty)") for n in names)
                print(_("Seats: {seats}").format(seats=seats))
            elif kind == "started":
                names = [s["name"] if s else "" for s in message["seats"]]
                log = TurnLog(names, lang)
                view = message["view"]
                if verbose:
                    show(message["view"], names, _("the game starts"), lang)
                else:
                    print(_("The game starts: {names}.").format(names=", ".join(names)))
            elif kind == "state":
                if not message.get("view"):
                    continue
                if verbose:
                    show(message["view"], names, str(message.get("events", "")), lang)
                last = message.get("last")
                if not verbose and last and view is not None:
                    line = log.add(int(last["player"]), last["action"], view, message["view"])
                    if line:
                        print(line)
                view = message["view"]
            elif kind == "your_turn":
                pending = message
                view = message.get("view") or view
                if not verbose and view is not None:
                    show(view, names, lang=lang)
                if not await _answer(client, message, ask, view, lang):
                    await client.send({"type": "leave"})
                    return 0
            elif kind == "error":
                print(f"! {message.get('code')}: {message.get('reason')}")
                if (
                    pending is not None
                    and message.get("code") not in ("TIMEOUT",)
                    and not await _answer(client, pending, ask, view, lang)
                ):
                    await client.send({"type": "leave"})
                    return 0
            elif kind == "game_over":
                line = log.flush()
                if line:
                    print(line)
                show(message["view"], names, lang=lang)
                result = message["result"]
                if result.get("reason") == "you resigned":
                    print(_("You resigned; the others play on without you."))
                    return 0
                winners = list(result.get("winner_names") or [])
                print(game_over_words(result.get("reason"), winners, lang))
                return 0
    finally:
        await client.close()


async def _answer(
    client: TilesClient,
    message: Mapping[str, Any],
    ask: Ask,
    view: Mapping[str, Any] | None = None,
    lang: str = "en",
) -> bool:
    picked = await asyncio.to_thread(
        choose, message["actions"], message.get("action"), ask, view, True, lang
    )
    if picked is None:
        return False
    if picked is RESIGN:
        await client.send(dict(RESIGN))
        return True
    await client.act(dict(picked))
    return True


# -- bot ----------------------------------------------------------------------------------------
def run_bot_command(args: argparse.Namespace) -> int:
    name = args.name or f"bot-{args.strategy}"
    if not args.max_backoff > 0:
        print("--max-backoff must be more than 0 seconds", file=sys.stderr)
        return 2
    server = _server(args)
    if server is None:
        return 2
    host, port = server
    rules_ref: str | dict[str, Any] | None = args.rules
    if args.rules is None and args.tournament is None:
        rules_ref = "labyrinth"
    if isinstance(rules_ref, str) and rules_ref not in shipped_rules():
        path = resolve_rules_path(rules_ref)
        report = check_rules_file(path)
        if report.rules is None:
            for problem in report.problems:
                print(f"{path}: {problem}", file=sys.stderr)
            return 1
        rules_ref = dict(report.rules.data)

    out = BotOutput(name, args.games, args.quiet)

    def progress(message: dict[str, Any]) -> None:
        if message["type"] == "joined":
            out.say(f"joined table {message.get('table')} as seat {message.get('seat')}")
        elif message["type"] == "game_over":
            result = message["result"]
            names = result.get("winner_names") or []
            winners = " and ".join(names) or "nobody"
            out.game(
                f"table {message['table']}: {winners} won ({result.get('reason')})",
                name in names,
            )

    out.say(f"connecting to {describe_address(host, port)}")
    try:
        with out:
            run = asyncio.run(
                run_bot(
                    host,
                    port,
                    name,
                    rules_ref,
                    args.strategy,
                    args.games,
                    args.seed,
                    not args.no_start,
                    progress,
                    token=_token(args),
                    reconnect=not args.no_reconnect,
                    max_backoff=args.max_backoff,
                    on_status=out.say,
                    tournament=args.tournament,
                )
            )
    except TilesServerError as exc:
        print(f"the server refused: {exc}", file=sys.stderr)
        return 1
    except (ConnectionError, OSError) as exc:
        print(
            f"cannot reach the tile server at {describe_address(host, port)}: {exc}",
            file=sys.stderr,
        )
        return 1
    if args.quiet:
        return 0
    won = sum(1 for g in run.games if name in (g["result"].get("winner_names") or []))
    print(
        f"{name}: {len(run.games)} game(s), {won} won, {run.actions} actions, "
        f"{len(run.errors)} error(s)"
        + (f", {run.aborted} aborted" if run.aborted else "")
        + (f", {run.reconnects} reconnect(s)" if run.reconnects else "")
    )
    return 0
