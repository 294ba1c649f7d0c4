"""The engine review of a recorded Onitama game: the compiled engine's evaluation after every
ply, each move's cost to its player, the engine's best move where the played one cost a lot,
and per player counts of inaccuracies, mistakes and blunders.

A pure function of the record (:func:`review_game`: the record's ``meta`` and event log, as
:mod:`.replay` reads them); the hall runs it in a worker process and stores the result
(:mod:`herna.hall.reviews`), so it never runs on a game server's loop and each game is
reviewed once.

**Unit.** The engine scores a position in hundredths of a pawn from the mover's side (a pawn
is worth 100, plus smaller terms for position and threats) and a forced win as
``WIN - plies``. A person reads it from White's side: in pawns (``+1.3``), a forced result
as "White wins in 3", and as White's *win chance*, ``1 / (1 + exp(-score / SCALE))`` (one
pawn ahead is about 60 %, two about 69 %, a forced win 100 %). The chart draws the win
chance.

**How bad a move was** is what it cost its player in win chance: the chance before the move
(the engine's value of the position, i.e. of its best move) minus the chance after it (the
engine's value of the position the move left). A move the engine would have played itself
costs nothing, so the search's noise between two depths is never called a mistake. The
thresholds (``THRESHOLDS``) are lichess's: 10, 20 and 30 points of win chance make an
inaccuracy, a mistake and a blunder. A ply without a choice (a pass, a stalemate swap, or
the only legal move) is ``forced``.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from herna.games.onitama.cards import BLACK, COLOR_NAMES, WHITE
from herna.games.onitama.notation import format_action, format_move
from herna.games.onitama.replay import initial_state
from herna.games.onitama.state import ACTION_CODEC, Move, OnitamaState, Pass, Stalemate
from herna.games.onitama.words import move_words

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

VERSION = 1
"""Bumped when the method changes, so a stored review of an older method can be told apart."""

SCALE = 250.0
"""Engine points per unit of the logistic that turns a score into a win chance."""

THRESHOLDS: tuple[tuple[str, float], ...] = (
    ("blunder", 30.0),
    ("mistake", 20.0),
    ("inaccuracy", 10.0),
)
"""Win-chance points (0-100) a move must cost its player to be called each, worst first."""

CLASSES = ("best", "good", "inaccuracy", "mistake", "blunder", "forced")
"""Every ply gets exactly one: the counts of a player add up to the plies they played."""

BUDGET = 0.25
"""Default seconds of search per position at most (the bound on a review's time per ply)."""
MAX_DEPTH = 7
"""Default search depth per position: deep enough to see a blunder's punishment two moves
on, shallow enough that a 40-ply game takes a few seconds."""


@dataclass(frozen=True)
class Settings:
    budget: float = BUDGET
    max_depth: int = MAX_DEPTH

    def to_json(self) -> dict[str, Any]:
        return {"budget": self.budget, "max_depth": self.max_depth}


def win_chance(white_score: int) -> float:
    """White's win chance in per cent for a score from White's side."""
    if white_score >= WIN_FLOOR:
        return 100.0
    if white_score <= -WIN_FLOOR:
        return 0.0
    return 100.0 / (1.0 + math.exp(-white_score / SCALE))


WIN = 1_000_000
"""The engine's score of a won position (:data:`engine_core.WIN`; repeated here so that
reading a stored review needs no numba)."""
WIN_FLOOR = WIN - 1000
"""Scores beyond this are forced results."""


def score_words(white_score: int) -> str:
    """``+1.3`` pawns for White, or ``Black wins in 2 moves`` (the winner's moves, from
    ``WIN - plies``) for a forced result."""
    if abs(white_score) >= WIN_FLOOR:
        winner = "White" if white_score > 0 else "Black"
        plies = WIN - abs(white_score)
        if plies == 0:
            return f"{winner} has won"
        moves = (plies + 1) // 2
        return f"{winner} wins in {moves} move{'s' if moves > 1 else ''}"
    pawns = round(white_score / 100, 1)
    return f"{pawns:+.1f}" if pawns else "0.0"  # never "-0.0"


def _forced(mover_score: int) -> int:
    """The search's forced-win score (``WIN`` = the mover wins with its next move, one less
    per ply further) as the review keeps it: ``WIN`` minus the plies to the win, so that a
    finished game is ``WIN`` itself."""
    if abs(mover_score) < WIN_FLOOR:
        return mover_score
    plies = WIN - abs(mover_score) + 1
    return (WIN - plies) if mover_score > 0 else -(WIN - plies)


def classify(loss: float) -> str:
    """The class of a move that cost its player ``loss`` win-chance points."""
    for name, threshold in THRESHOLDS:
        if loss >= threshold:
            return name
    return "good"


def positions(
    meta: Mapping[str, Any], events: Iterable[tuple[str, Mapping[str, Any]]]
) -> list[tuple[OnitamaState, Any, OnitamaState]]:
    """Each player action of the game: (position before, action, position after). A
    stalemate swap's drawn card is applied with it; server notes (forfeits, resignations)
    end nothing here: the review is of the moves played."""
    state = initial_state(dict(meta))
    out: list[tuple[OnitamaState, Any, OnitamaState]] = []
    for kind, data in events:
        if kind != "action":
            continue
        action = ACTION_CODEC.decode(data["action"])
        before = state
        state = state.apply(action)
        if isinstance(action, Move | Stalemate | Pass):
            out.append((before, action, state))
        elif out and out[-1][2] is before and not isinstance(action, Move):
            # a draw after a stalemate swap: part of the same ply
            out[-1] = (out[-1][0], out[-1][1], state)
    return out


class _Evaluator:
    """The engine's value of positions from White's side, one search each, with the search
    memory kept from position to position (the game's positions share most of it)."""

    def __init__(self, settings: Settings) -> None:
        from herna.games.onitama.engine import Searcher, decode, warm_up

        warm_up()
        self.settings = settings
        self.searcher = Searcher(tt_bits=18)
        self.decode = decode

    def value(self, state: OnitamaState) -> tuple[int, Move | None]:
        """(White's score, the engine's best move or None)."""
        if state.is_terminal():
            if state.winner is None:
                return 0, None
            return (WIN if state.winner == WHITE else -WIN), None
        if not state.legal_moves():
            return 0, None  # a pass or a swap follows: valued as level, never judged
        code = self.searcher.think(
            state, budget=self.settings.budget, max_depth=self.settings.max_depth
        )
        score = _forced(self.searcher.score)
        sign = 1 if state.to_move == WHITE else -1
        return sign * score, (self.decode(code) if code >= 0 else None)


def review_game(
    meta: Mapping[str, Any],
    events: Iterable[tuple[str, Mapping[str, Any]]],
    settings: Settings | None = None,
) -> dict[str, Any]:
    """The review as JSON-ready data: ``plies`` (one entry per move, swap or pass: who,
    the move, White's score and win chance after it, its cost and class, and the best move
    where it was at least an inaccuracy), ``start`` (White's score before the first), the
    per-colour ``counts``, the ``thresholds`` and the ``settings``."""
    settings = settings or Settings()
    started = time.perf_counter()
    game = positions(meta, events)
    evaluator = _Evaluator(settings)
    plies: list[dict[str, Any]] = []
    counts = {COLOR_NAMES[c]: dict.fromkeys(CLASSES, 0) for c in (WHITE, BLACK)}
    if game:
        value, best = evaluator.value(game[0][0])
    else:
        value, best = 0, None
    start_value = value
    for i, (before, action, after) in enumerate(game):
        mover = before.to_move
        after_value, next_best = evaluator.value(after)
        entry: dict[str, Any] = {
            "ply": i + 1,
            "color": COLOR_NAMES[mover],
            "move": format_action(action),
            "score": after_value,
            "score_words": score_words(after_value),
            "win_chance": round(win_chance(after_value), 1),
        }
        sign = 1 if mover == WHITE else -1
        chance_before = win_chance(sign * value)
        chance_after = win_chance(sign * after_value)
        forced = not isinstance(action, Move) or len(before.legal_moves()) == 1
        if forced:
            kind, loss = "forced", 0.0
        elif best is not None and action == best:
            kind, loss = "best", 0.0
        else:
            loss = max(0.0, chance_before - chance_after)
            kind = classify(loss)
        entry["loss"] = round(loss, 1)
        entry["class"] = kind
        if kind in ("inaccuracy", "mistake", "blunder") and best is not None:
            entry["best"] = format_move(best)
            entry["best_words"] = move_words(before, best)
            entry["best_score_words"] = score_words(value)
        counts[COLOR_NAMES[mover]][kind] += 1
        plies.append(entry)
        value, best = after_value, next_best
    return {
        "version": VERSION,
        "unit": "pawns from White's side; win chance = 1 / (1 + exp(-score / 250))",
        "start": {
            "score": start_value,
            "score_words": score_words(start_value),
            "win_chance": round(win_chance(start_value), 1),
        },
        "plies": plies,
        "counts": counts,
        "thresholds": {name: threshold for name, threshold in THRESHOLDS},
        "settings": settings.to_json(),
        "seconds": round(time.perf_counter() - started, 2),
    }


def review_match(match: Any, settings: Settings | None = None) -> dict[str, Any]:
    """:func:`review_game` of a stored match (anything with ``meta`` and ``events``)."""
    return review_game(match.meta, match.events, settings)


def review_lines(review: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    """The review as text for ``herna replay ID --review``; ``names`` by colour."""
    thresholds = review["thresholds"]
    lines = [
        "Engine review (evaluation after each move, in pawns from White's side, and White's"
        " win chance):",
        f"  start: {review['start']['score_words']} ({review['start']['win_chance']:.0f} %)",
    ]
    for p in review["plies"]:
        who = names.get(p["color"], p["color"])
        mark = "" if p["class"] in ("best", "good", "forced") else f"  {p['class'].upper()}"
        lines.append(
            f"{p['ply']:4d}. {who} ({p['color']}): {p['move']:<14} "
            f"{p['score_words']:>14} {p['win_chance']:5.0f} %{mark}"
        )
        if "best" in p:
            lines.append(
                f"        cost {p['loss']:.0f} points of win chance; best was "
                f"{p['best_words']} ({p['best_score_words']})"
            )
    lines.append(
        "Thresholds (win chance the move cost its player): "
        + ", ".join(f"{name} ≥ {value:.0f}" for name, value in thresholds.items())
        + "; a move the engine would have played itself is 'best'."
    )
    for color in ("white", "black"):
        c = review["counts"][color]
        lines.append(
            f"{names.get(color, color)} ({color}): "
            + ", ".join(f"{c[k]} {k}" for k in CLASSES if c[k] or k in THRESHOLDS_NAMES)
        )
    s = review["settings"]
    lines.append(
        f"(compiled engine, depth {s['max_depth']}, at most {s['budget']} s per position;"
        f" took {review['seconds']} s)"
    )
    return lines


THRESHOLDS_NAMES = frozenset(name for name, _t in THRESHOLDS)

__all__ = [
    "BUDGET",
    "CLASSES",
    "MAX_DEPTH",
    "SCALE",
    "THRESHOLDS",
    "VERSION",
    "Settings",
    "classify",
    "positions",
    "review_game",
    "review_lines",
    "review_match",
    "score_words",
    "win_chance",
]
