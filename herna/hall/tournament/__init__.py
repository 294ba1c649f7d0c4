"""Tournaments without I/O: formats and pairings (round robin, Swiss, arena; tables of more
than two seats with their seats rotated), standings with tie-breaks and the crosstable.

The runner (:mod:`herna.hall.tournament_runner`) has the boards these functions hand out
played — by ``herna tournament run`` or by a live tournament in ``herna serve`` — and feeds
the results back; the web hall shows what
:mod:`herna.hall.tournament_store` stored. See ``docs/tournaments.md``.
"""

from .model import FORMATS, NO_SHOW, Board, Game, History, no_show
from .pairing import (
    arena_pairings,
    arena_tables,
    assign_seats,
    round_robin,
    round_robin_tables,
    swiss_round,
    tables_round,
)
from .standings import (
    BYE_POINTS,
    FORMAT_TIE_BREAKS,
    TIE_BREAK_NAMES,
    Cell,
    Crosstable,
    Row,
    bye_points,
    crosstable,
    fmt_points,
    scores,
    standings,
)

__all__ = [
    "BYE_POINTS",
    "FORMATS",
    "FORMAT_TIE_BREAKS",
    "NO_SHOW",
    "TIE_BREAK_NAMES",
    "Board",
    "Cell",
    "Crosstable",
    "Game",
    "History",
    "Row",
    "arena_pairings",
    "arena_tables",
    "assign_seats",
    "bye_points",
    "crosstable",
    "fmt_points",
    "no_show",
    "round_robin",
    "round_robin_tables",
    "scores",
    "standings",
    "swiss_round",
    "tables_round",
]
