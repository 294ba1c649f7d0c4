"""Recorded Onitama games as text: the moves in the board's notation with the board drawn
(``herna replay ID [--move K]``), and a game record a player can paste elsewhere
(:func:`game_record`, served by the web hall as ``/api/matches/<id>/text``).

The record format (a Herna convention, modelled on chess's PGN) is tag lines, a blank line and
the numbered moves, each in the notation of :mod:`herna.games.onitama.notation`::

    [Game "Onitama"]
    [White "alice"]
    [Black "bob"]
    [Cards "Ox,Boar,Horse,Elephant,Crab"]
    [Result "1-0"]

    1. Ox c1c2 Horse d5d4 2. Boar c2b3 ... 1-0

``[Cards]`` is the opening deal ``w1,w2,b1,b2,spare``; ``[Start]`` (only for a game that did
not start from the usual set-up) is a position as :func:`format_position` writes it. A player
blocked under the stalemate rule writes ``stalemate Card`` followed by the drawn card in
braces (``{draws Eel}``); under the official rule ``pass Card``. Everything is rebuilt by
applying the logged actions to :class:`OnitamaState`, so the rules engine stays the one place
the rules live.
"""

from __future__ import annotations

from dataclasses import dataclass

from herna.core.lang import pick
from herna.games.onitama.cards import BLACK, COLOR_NAMES, WHITE
from herna.games.onitama.notation import format_action, format_cards, format_position
from herna.games.onitama.replay import initial_state
from herna.games.onitama.state import ACTION_CODEC, Deal, Draw, Move, OnitamaState, Pass, Stalemate
from herna.games.onitama.words import color_words, end_words, win_words
from herna.hall.records import StoredMatch


@dataclass(frozen=True)
class Ply:
    """One player action (a move, a stalemate swap or a pass) and the state after it."""

    color: int
    text: str
    """In the notation: ``Tiger c1c3``, ``stalemate Crab {draws Eel}``, ``pass Crab``."""
    capture: bool
    state: OnitamaState


@dataclass(frozen=True)
class Game:
    dealt: OnitamaState
    """The state once the cards are dealt (the start of play)."""
    plies: tuple[Ply, ...]
    final: OnitamaState
    notes: tuple[str, ...]


def rebuild(match: StoredMatch) -> Game:
    """The game's plies, applied to the rules engine one by one."""
    names = {p.seat: p.name for p in match.players}
    state = initial_state(match.meta)
    dealt: OnitamaState | None = None if state.dealing else state
    plies: list[Ply] = []
    notes: list[str] = []
    for kind, data in match.events:
        if kind == "action":
            action = ACTION_CODEC.decode(data["action"])
            mover = state.to_move
            state = state.apply(action)
            if isinstance(action, Deal):
                if not state.dealing:
                    dealt = state
            elif isinstance(action, Draw):
                if plies:
                    last = plies[-1]
                    text = f"{last.text} {{draws {action.card}}}"
                    plies[-1] = Ply(last.color, text, False, state)
            elif isinstance(action, Move | Stalemate | Pass):
                capture = isinstance(action, Move) and bool((state.last or {}).get("capture"))
                plies.append(Ply(mover, format_action(action), capture, state))
        elif kind == "forfeit":
            loser = int(data.get("player", 0))
            reason = str(data.get("reason") or "")
            state = state.forfeit(loser, reason) if reason else state.forfeit(loser)
            who = names.get(loser, COLOR_NAMES[loser])
            why = {"resigned": "resigns", "out_of_time": "runs out of time"}.get(
                reason, "did not come back and forfeits"
            )
            notes.append(f"{who} {why}")
        elif kind == "draw_agreed":
            state = state.agree_draw()
            notes.append("both players agree to a draw")
        elif kind in ("logout", "reconnect"):
            verb = "disconnected" if kind == "logout" else "reconnected"
            notes.append(f"{data.get('name', '?')} {verb} after {len(plies)} moves")
        elif kind == "aborted":
            notes.append(f"the game was stopped: {end_words(data.get('reason'))}")
    return Game(dealt or state, tuple(plies), state, tuple(notes))


def draw_board(state: OnitamaState, white: str = "White", black: str = "Black") -> list[str]:
    """The board as text, Black at the top (rank 5): ``B``/``W`` masters, ``b``/``w`` pawns."""
    board = state.board
    lines = [f"      {black} (black)" + _hand(state, BLACK), "    a b c d e"]
    for row in range(5):
        rank = 5 - row
        cells = " ".join(board[row * 5 : row * 5 + 5])
        lines.append(f"  {rank} {cells} {rank}")
    lines.append("    a b c d e")
    lines.append(f"      {white} (white)" + _hand(state, WHITE))
    if not state.dealing:
        lines.append(f"      spare card: {state.spare}")
    return lines


def _hand(state: OnitamaState, color: int) -> str:
    if state.dealing:
        return ""
    return ": " + ", ".join(state.hand(color))


def _result(state: OnitamaState) -> str:
    if state.winner is None:
        return "1/2-1/2" if state.is_terminal() else "*"
    return "1-0" if state.winner == WHITE else "0-1"


def match_text(match: StoredMatch, public: bool = False, move: int | None = None) -> list[str]:
    """The moves, numbered, and the board after the last one (or after move ``move``:
    the ``move``-th ply, 0 = the start)."""
    names = {p.seat: p.name for p in match.players}
    white, black = names.get(WHITE, "White"), names.get(BLACK, "Black")
    game = rebuild(match)
    lines = [f"White: {white}. Black: {black}.", f"Cards dealt: {_deal_words(game.dealt)}."]
    for i, ply in enumerate(game.plies, 1):
        who = white if ply.color == WHITE else black
        lines.append(
            f"{i:3d}. {who} ({COLOR_NAMES[ply.color]}): {ply.text}"
            + (" (capture)" if ply.capture else "")
        )
    lines += [f"     {note}" for note in game.notes]
    final = game.final
    if final.winner is not None:
        winner = white if final.winner == WHITE else black
        lines.append(
            f"Result: {winner} ({COLOR_NAMES[final.winner]}) wins {win_words(final.reason)}."
        )
    elif final.is_terminal():
        lines.append("Result: a draw, agreed by both players.")
    else:
        lines.append(f"Result: no winner ({match.status}).")
    if move is None:
        shown, title = final, f"Board after move {len(game.plies)}:"
    else:
        k = max(0, min(move, len(game.plies)))
        shown = game.dealt if k == 0 else game.plies[k - 1].state
        title = "Board at the start:" if k == 0 else f"Board after move {k}:"
    return [*lines, "", title, *draw_board(shown, white, black)]


def _deal_words(state: OnitamaState) -> str:
    if state.dealing:
        return "none"
    return (
        f"white {', '.join(state.hand(WHITE))}; black {', '.join(state.hand(BLACK))}; "
        f"spare {state.spare}; {COLOR_NAMES[state.to_move]} moves first"
    )


def game_record(match: StoredMatch) -> str:
    """The game in Herna's Onitama record format (see the module docstring)."""
    names = {p.seat: p.name for p in match.players}
    game = rebuild(match)
    result = _result(game.final)
    tags = [
        ("Game", "Onitama"),
        ("Site", "Herna"),
        ("Date", match.finished_at.strftime("%Y.%m.%d")),
        ("Match", str(match.id)),
        ("White", names.get(WHITE, "?")),
        ("Black", names.get(BLACK, "?")),
        ("Rule", game.dealt.rule),
    ]
    if not game.dealt.dealing:
        tags.append(("Cards", format_cards(game.dealt)))
    if match.meta.get("start"):
        tags.append(("Start", format_position(game.dealt)))
    tags.append(("Result", result))
    if game.final.reason:
        tags.append(("Termination", game.final.reason))
    head = [f'[{k} "{v.replace(chr(92), chr(92) * 2).replace(chr(34), chr(92) + chr(34))}"]'
            for k, v in tags]  # fmt: skip
    words: list[str] = []
    first = game.dealt.to_move
    for i, ply in enumerate(game.plies):
        if ply.color == first or i == 0:
            number = i // 2 + 1
            words.append(f"{number}." if ply.color == first else f"{number}...")
        words.append(ply.text)
    words.append(result)
    body: list[str] = []
    line = ""
    for w in words:  # wrap at 80 columns, as PGN does
        if line and len(line) + 1 + len(w) > 79:
            body.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    body.append(line)
    return "\n".join([*head, "", *body]) + "\n"


def summary(match: StoredMatch, lang: str = "en") -> str:
    """``dave (black) wins by the Way of the Stone (captured the master) in 54 moves``
    (``lang="cs"``: ``dave (černý) vyhrává Cestou kamene (vzal mistra) za 54 tahů``, counted as
    the board's "54 odehraných tahů": each player's move is one)."""
    result = match.result
    winners = [p for p in match.players if p.winner]
    if not winners:
        status = pick(lang, match.status, STATUS_CS.get(match.status, match.status))
        return f"{status}: {end_words(result.get('reason'), lang)}".rstrip(": ")
    w = winners[0]
    plies = (result.get("details") or {}).get("plies")
    moves = pick(lang, f" in {plies} moves", f" za {plies} {_moves_cs(plies)}") if plies else ""
    color = COLOR_NAMES[w.seat] if w.seat in (WHITE, BLACK) else str(w.seat)
    wins = pick(lang, "wins", "vyhrává")
    how = win_words(result.get("reason"), lang)
    return f"{w.name} ({color_words(color, lang)}) {wins} {how}{moves}"


STATUS_CS = {"finished": "dohráno", "aborted": "přerušeno", "canceled": "zrušeno"}
"""A record's status in Czech, for a game without a winner."""


def _moves_cs(n: object) -> str:
    """``tah`` after ``za`` and a number: 1 tah, 3 tahy, 5 tahů."""
    count = int(n) if isinstance(n, int) else 5
    return "tah" if count == 1 else "tahy" if 2 <= count <= 4 else "tahů"
