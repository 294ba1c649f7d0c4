"""Who plays whom: round robin (the circle method, Berger colours), Swiss and arena pairings
(maximum-weight matchings from networkx), and tables of more than two seats with their seats
rotated fairly.

Swiss and arena pairings are weighted matchings, not hand-rolled searches: every pair of
entrants that may meet is an edge whose weight says how good the pairing is, and
:func:`networkx.max_weight_matching` (Edmonds' blossom algorithm, exact) finds the pairing of
everybody with the best total. The weights are built in tiers so that a more important rule
always outweighs every less important one together (see :func:`_tiers`). Why not a FIDE Dutch
package: the one on PyPI (``caissify-pairings``, a 0.x release of 2026) has no track record
yet; networkx is maintained, exact and already used for this by Lichess-like arenas. The
rules are documented in ``docs/tournaments.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from types import ModuleType
from typing import Any

from .model import Board, History


def _networkx() -> ModuleType:
    """networkx, imported when a matching is needed (a round robin needs none), so that the
    rest of Herna runs where it is not installed yet."""
    try:
        import networkx
    except ImportError:  # pragma: no cover - depends on the environment
        raise RuntimeError(
            "Swiss, arena and uneven table pairings need networkx: pip install 'networkx>=3.2'"
        ) from None
    module: ModuleType = networkx
    return module


def _matching(graph: Any) -> set[tuple[Any, Any]]:
    matching: set[tuple[Any, Any]] = _networkx().max_weight_matching(graph, maxcardinality=True)
    return matching


BYE = "\x00bye"
"""The node standing for "no opponent" in an odd Swiss field (never a valid name)."""


# -- round robin --------------------------------------------------------------------------------
def round_robin(entrants: Sequence[str], cycles: int = 1) -> list[list[Board]]:
    """Every round of a round robin between two-player ``entrants``, ``cycles`` times.

    The circle method: the last entrant stays put, the others turn one place each round, so
    each pair meets exactly once per cycle. Colours follow Berger's tables (the fixed entrant
    alternates; in the other pairs the one coming from the left of the circle takes White),
    which leaves everyone with whites and blacks differing by at most one per cycle; the
    second cycle swaps every colour. With an odd number of entrants each one sits out one
    round per cycle (a board with a single seat: a bye).
    """
    players: list[str | None] = list(entrants)
    if len(set(entrants)) != len(entrants):
        raise ValueError("entrants must have different names")
    if len(players) < 2:
        raise ValueError("a round robin needs at least two entrants")
    if len(players) % 2:
        players.append(None)
    m = len(players)
    fixed, rest = players[-1], players[:-1]
    rounds: list[list[Board]] = []
    for cycle in range(cycles):
        for r in range(m - 1):
            number = cycle * (m - 1) + r + 1
            # Berger: round r starts the circle at position r * (m/2) (mod m-1).
            start = (r * (m // 2)) % (m - 1)
            circle = rest[start:] + rest[:start]
            pairs: list[tuple[str | None, str | None]] = []
            first = (circle[0], fixed) if r % 2 == 0 else (fixed, circle[0])
            pairs.append(first)
            for i in range(1, m // 2):
                pairs.append((circle[i], circle[m - 1 - i]))
            boards: list[Board] = []
            byes: list[Board] = []
            for white, black in pairs:
                if cycle % 2:
                    white, black = black, white
                if white is None or black is None:
                    alone = white if black is None else black
                    assert alone is not None
                    byes.append(Board(number, 0, (alone,)))
                else:
                    boards.append(Board(number, 0, (white, black)))
            rounds.append(_numbered(boards + byes))
    return rounds


def round_robin_tables(
    entrants: Sequence[str], size: int, rounds: int | None = None
) -> list[list[Board]]:
    """Rounds of tables of ``size`` seats for a multi-player game (tiles: 4, mariáš: 3).

    When the field fills whole tables, every entrant takes every seat exactly once in each
    ``size`` rounds (the default number of rounds) and the company at each table changes
    from round to round (:func:`_latin_tables`). Otherwise each round every entrant who fits
    sits at a table, the circle turns one place a round so that tables mix, those who do not
    fill a whole table sit out (a bye) in turn, and seats go by :func:`assign_seats` (each to
    the seat it has used least).
    """
    if size < 2:
        raise ValueError("a table has at least two seats")
    if len(entrants) < size:
        raise ValueError(f"a table of {size} needs at least {size} entrants")
    if len(set(entrants)) != len(entrants):
        raise ValueError("entrants must have different names")
    total = size if rounds is None else rounds
    if len(entrants) % size == 0:
        return _latin_tables(entrants, size, total)
    history = History()
    out: list[list[Board]] = []
    first, rest = entrants[0], list(entrants[1:])
    for r in range(total):
        turned = rest[r % len(rest) :] + rest[: r % len(rest)] if rest else []
        order = [first, *turned]
        out.append(tables_round(r + 1, order, size, history))
        for board in out[-1]:
            history.add(board)
    return out


def _latin_tables(entrants: Sequence[str], size: int, total: int) -> list[list[Board]]:
    """A field that fills whole tables: entrant ``p`` belongs to class ``p mod size`` and in
    round ``r`` sits in seat ``(class + r) mod size``, so every seat comes round once per
    ``size`` rounds; each table takes one member of every class, class ``c`` moving ``c``
    tables on each round, so the company changes from round to round."""
    m = len(entrants) // size
    classes = [list(entrants[c::size]) for c in range(size)]
    out: list[list[Board]] = []
    for r in range(total):
        boards = []
        for t in range(m):
            seats = [""] * size
            for c in range(size):
                seats[(c + r) % size] = classes[c][(t + c * r) % m]
            boards.append(Board(r + 1, 0, tuple(seats)))
        out.append(_numbered(boards))
    return out


def tables_round(number: int, ranking: Sequence[str], size: int, history: History) -> list[Board]:
    """One round of tables for ``ranking`` (best first): the entrants who must sit out (those
    with the fewest byes so far, from the bottom of the ranking) get byes, the others fill
    tables in ranking order; seats by :func:`assign_seats`."""
    out = len(ranking) % size
    sitting_out: list[str] = []
    if out:
        bottom_first = list(reversed(ranking))
        bottom_first.sort(key=lambda n: history.byes.get(n, 0))  # stable: lowest first
        sitting_out = bottom_first[:out]
    playing = [n for n in ranking if n not in sitting_out]
    boards = [
        Board(number, 0, assign_seats(playing[i : i + size], history))
        for i in range(0, len(playing), size)
    ]
    boards += [Board(number, 0, (name,)) for name in sitting_out]
    return _numbered(boards)


def assign_seats(names: Sequence[str], history: History) -> tuple[str, ...]:
    """``names`` in seat order, each in the seat it has used least (a minimum-cost perfect
    matching of names to seats): at a table of a fixed company this rotates everyone through
    every seat before anyone takes a seat twice."""
    size = len(names)
    graph = _networkx().Graph()
    worst = max((max(history.seats.get(n, [0]), default=0) for n in names), default=0) + 1
    for i, name in enumerate(names):
        used = history.seats.get(name, [])
        for seat in range(size):
            count = used[seat] if seat < len(used) else 0
            # Prefer the least used seat; among equals keep the given order (stable).
            weight = (worst - count) * size * size + (size - abs(seat - i))
            graph.add_edge(("n", i), ("s", seat), weight=weight)
    matching = _matching(graph)
    seats: list[str] = [""] * size
    for u, v in matching:
        person, seat = (u, v) if u[0] == "n" else (v, u)
        seats[seat[1]] = names[person[1]]
    return tuple(seats)


# -- Swiss -------------------------------------------------------------------------------------
def swiss_round(
    number: int,
    ranking: Sequence[str],
    scores: Mapping[str, Fraction],
    history: History,
) -> list[Board]:
    """The pairings of Swiss round ``number``.

    ``ranking`` is the current order (best first; before round 1 the entry order). Rules, most
    important first: nobody meets the same opponent twice (unless no other pairing is left);
    nobody gets a second bye while another can take it; two entrants who both had one colour
    twice more than the other do not meet (one would have it a third time); opponents have
    scores as close as possible (the squared differences of the pairs add up to the least);
    the bye goes to the lowest ranked of the lowest score; two entrants due the same colour
    meet only when nothing better exists. White goes to whoever is due it (fewer whites so
    far, else the colour they did not have last), the stronger claim and then the higher
    rank deciding.
    """
    names = list(ranking)
    if len(names) < 2:
        return [Board(number, 1, (names[0],))] if names else []
    rank = {name: i for i, name in enumerate(names)}
    doubled = {name: int(scores.get(name, Fraction(0)) * 2) for name in names}
    low = min(doubled.values())
    spread = max(doubled.values()) - low
    n = len(names)
    colour_w, place_w, score_w, absolute_w, bye_w, rematch_w = _tiers(n, spread)
    graph = _networkx().Graph()
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            penalty = score_w * (doubled[a] - doubled[b]) ** 2
            clash = _clash(a, b, history)
            penalty += absolute_w if clash == 2 else colour_w * clash
            penalty += rematch_w * min(history.met.get(frozenset((a, b)), 0), n)
            graph.add_edge(a, b, weight=_ceiling(rematch_w, n) - penalty)
    if n % 2:
        for a in names:
            penalty = bye_w * min(history.byes.get(a, 0), n)
            penalty += score_w * (doubled[a] - low) ** 2
            penalty += place_w * (n - 1 - rank[a])  # the lowest ranked: no penalty
            graph.add_edge(a, BYE, weight=_ceiling(rematch_w, n) - penalty)
    matching = _matching(graph)
    boards: list[Board] = []
    byes: list[Board] = []
    for u, v in matching:
        if BYE in (u, v):
            byes.append(Board(number, 0, (u if v == BYE else v,)))
            continue
        boards.append(Board(number, 0, colours(u, v, rank, history)))
    # Board 1 is the top pairing: by the better score, then the better rank, in it.
    boards.sort(key=lambda b: min((-doubled[s], rank[s]) for s in b.seats))
    return _numbered(boards + byes)


def _tiers(n: int, spread: int) -> tuple[int, int, int, int, int, int]:
    """Penalty units such that each rule outweighs all the rules below it together: a mild
    colour clash (two entrants due the same colour), the place of the bye (0 for the lowest
    ranked … ``n``-1), score differences (at most ``spread``² per pair), an absolute colour
    clash (two entrants who both had one colour twice more than the other: one of them would
    reach three), a second bye, a rematch (counted per earlier meeting, at most ``n`` deep)."""
    pairs = n // 2 + 1
    colour_w = 1
    below = colour_w * pairs
    place_w = below + 1
    below += place_w * n
    score_w = below + 1
    below += score_w * (spread + 1) ** 2 * pairs
    absolute_w = below + 1
    below += absolute_w * pairs
    bye_w = below + 1
    below += bye_w * (n + 1)
    rematch_w = below + 1
    return colour_w, place_w, score_w, absolute_w, bye_w, rematch_w


def _ceiling(rematch_w: int, n: int) -> int:
    # Above any one edge's penalty, so every weight is positive.
    return rematch_w * (n + 2)


def _preference(name: str, history: History) -> tuple[int, int]:
    """(colour due: 0 White, 1 Black, -1 none; strength 0..2)."""
    balance = history.colour_balance(name)
    if balance:
        return (1 if balance > 0 else 0), min(abs(balance), 2)
    last = history.last_colour.get(name)
    return (-1, 0) if last is None else (1 - last, 1)


def _clash(a: str, b: str, history: History) -> int:
    (ca, sa), (cb, sb) = _preference(a, history), _preference(b, history)
    if ca < 0 or cb < 0 or ca != cb:
        return 0
    return 2 if min(sa, sb) >= 2 else 1


def colours(a: str, b: str, rank: Mapping[str, int], history: History) -> tuple[str, str]:
    """(White, Black) for ``a`` and ``b``: the stronger preference wins, then the higher rank;
    with no preferences at all the higher ranked takes White."""
    (ca, sa), (cb, sb) = _preference(a, history), _preference(b, history)
    first, second = (a, b) if rank.get(a, 0) <= rank.get(b, 0) else (b, a)
    (c1, s1), (c2, s2) = ((ca, sa), (cb, sb)) if first == a else ((cb, sb), (ca, sa))
    if s2 > s1:
        c1 = -1 if c2 < 0 else 1 - c2
    if c1 < 0:
        c1 = 0 if c2 < 0 else 1 - c2
    return (first, second) if c1 == 0 else (second, first)


# -- arena -------------------------------------------------------------------------------------
def arena_pairings(waiting: Sequence[str], history: History) -> list[tuple[str, str]]:
    """Pairs among the entrants ``waiting`` (best ranked first), as an arena pairs them the
    moment they are free: as many pairs as possible, opponents as close in the ranking as
    possible (the sum of squared rank distances is least), and never the opponent of one's own
    previous game (an entrant with no one else to meet waits). Colours as in Swiss."""
    names = list(waiting)
    rank = {name: i for i, name in enumerate(names)}
    graph = _networkx().Graph()
    n = len(names)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            if b in history.last_opponents.get(a, ()) or a in history.last_opponents.get(b, ()):
                continue
            graph.add_edge(a, b, weight=n * n + 1 - (rank[b] - rank[a]) ** 2)
    matching = _matching(graph)
    pairs = [colours(u, v, rank, history) for u, v in matching]
    pairs.sort(key=lambda p: min(rank[p[0]], rank[p[1]]))
    return pairs


def arena_tables(waiting: Sequence[str], size: int, history: History) -> list[tuple[str, ...]]:
    """Tables of ``size`` among the entrants ``waiting`` (best first), by rank; the rest wait."""
    full = len(waiting) - len(waiting) % size
    return [assign_seats(waiting[i : i + size], history) for i in range(0, full, size)]


def _numbered(boards: list[Board]) -> list[Board]:
    return [Board(b.round, i + 1, b.seats) for i, b in enumerate(boards)]
