"""Pairings: round robin (circle method), tables with seat rotation, Swiss and arena
(weighted matchings), checked as properties over many fields (hypothesis)."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from herna.hall.tournament import (
    Board,
    Game,
    History,
    arena_pairings,
    round_robin,
    round_robin_tables,
    swiss_round,
)
from herna.hall.tournament.standings import scores

fields = st.integers(min_value=2, max_value=14).map(lambda n: [f"p{i}" for i in range(n)])


def _played_once_per_round(rounds: list[list[Board]], names: list[str]) -> None:
    for boards in rounds:
        seen = Counter(s for b in boards for s in b.seats)
        assert set(seen) == set(names)
        assert all(v == 1 for v in seen.values())


@given(fields, st.integers(min_value=1, max_value=3))
def test_round_robin_every_pair_once_per_cycle_colours_balanced(
    names: list[str], cycles: int
) -> None:
    rounds = round_robin(names, cycles)
    n = len(names)
    per_cycle = n - 1 if n % 2 == 0 else n
    assert len(rounds) == per_cycle * cycles
    _played_once_per_round(rounds, names)
    for c in range(cycles):
        history = History.of([b for r in rounds[c * per_cycle : (c + 1) * per_cycle] for b in r])
        assert len(history.met) == n * (n - 1) // 2
        assert set(history.met.values()) == {1}
        for name in names:
            assert abs(history.colour_balance(name)) <= 1
            # odd fields: everyone sits out exactly once per cycle
            assert history.byes.get(name, 0) == (1 if n % 2 else 0)
    if cycles >= 2:  # over two cycles every pair played both colours
        history = History.of([b for r in rounds[: 2 * per_cycle] for b in r])
        assert all(history.colour_balance(name) == 0 for name in names)


@given(st.integers(min_value=2, max_value=5), st.integers(min_value=1, max_value=3))
def test_tables_rotate_every_seat_once(size: int, tables: int) -> None:
    names = [f"p{i}" for i in range(size * tables)]
    rounds = round_robin_tables(names, size)
    assert len(rounds) == size
    _played_once_per_round(rounds, names)
    history = History.of([b for r in rounds for b in r])
    for name in names:
        assert history.seats[name] == [1] * size  # every seat exactly once


@given(st.integers(min_value=3, max_value=4), st.integers(min_value=3, max_value=11))
def test_tables_with_leftovers_share_the_byes(size: int, n: int) -> None:
    names = [f"p{i}" for i in range(max(n, size))]
    rounds = round_robin_tables(names, size, rounds=len(names))
    _played_once_per_round(rounds, names)
    byes = History.of([b for r in rounds for b in r]).byes
    if len(names) % size:
        assert max(byes.values()) - min(byes.get(x, 0) for x in names) <= 1


def _play_swiss(names: list[str], rounds: int, seed: int) -> tuple[list[list[Board]], list[Game]]:
    rng = random.Random(seed)
    games: list[Game] = []
    played: list[list[Board]] = []
    for number in range(1, rounds + 1):
        total = scores(names, games, Fraction(1))
        ranking = sorted(names, key=lambda n: (-total[n], names.index(n)))
        boards = swiss_round(number, ranking, total, History.of([g.board for g in games]))
        played.append(boards)
        for b in boards:
            ranks = () if b.bye else tuple(rng.choice([0, 1]) for _ in b.seats)
            games.append(Game(b, ranks))
    return played, games


def _rematch_free_pairing_exists(names: list[str], history: History) -> bool:
    graph = nx.Graph()
    graph.add_nodes_from(names)
    if len(names) % 2:
        graph.add_edges_from((a, "bye") for a in names)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            if frozenset((a, b)) not in history.met:
                graph.add_edge(a, b)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return 2 * len(matching) == graph.number_of_nodes()


@settings(max_examples=60, deadline=None)
@given(fields, st.integers(min_value=0, max_value=2**16))
def test_swiss_rematches_only_when_unavoidable(names: list[str], seed: int) -> None:
    n = len(names)
    played, _ = _play_swiss(names, n - 1 if n % 2 == 0 else n, seed)
    _played_once_per_round(played, names)
    for r, boards in enumerate(played):
        before = History.of([b for rd in played[:r] for b in rd])
        rematch = any(frozenset(b.seats) in before.met for b in boards if not b.bye)
        if rematch:
            assert not _rematch_free_pairing_exists(names, before)


@settings(max_examples=60, deadline=None)
@given(fields, st.integers(min_value=0, max_value=2**16))
def test_swiss_short_event_no_rematch_one_bye_each_balanced_colours(
    names: list[str], seed: int
) -> None:
    # Fewer rounds than half the field: a rematch-free pairing always exists (Dirac).
    rounds = max(1, len(names) // 2 - 1)
    played, _ = _play_swiss(names, rounds, seed)
    history = History.of([b for r in played for b in r])
    assert set(history.met.values()) <= {1}
    assert all(v <= 1 for v in history.byes.values())
    assert all(abs(history.colour_balance(x)) <= 2 for x in names)


def test_swiss_round_one_pairs_top_half_and_byes_the_lowest() -> None:
    names = ["a", "b", "c", "d", "e"]
    boards = swiss_round(1, names, {}, History())
    byes = [b.seats[0] for b in boards if b.bye]
    assert byes == ["e"]
    # equal scores: any pairing is as good score-wise; everyone plays once
    assert sorted(s for b in boards for s in b.seats) == names


def test_swiss_pairs_equal_scores_together() -> None:
    names = ["a", "b", "c", "d"]
    total = {"a": Fraction(1), "b": Fraction(1), "c": Fraction(0), "d": Fraction(0)}
    history = History.of([Board(1, 1, ("a", "c")), Board(1, 2, ("d", "b"))])
    boards = swiss_round(2, names, total, history)
    assert {frozenset(b.seats) for b in boards} == {frozenset("ab"), frozenset("cd")}
    # a had White, b had Black: b is due White
    ab = next(b for b in boards if "a" in b.seats)
    assert ab.seats == ("b", "a")


def test_swiss_second_bye_goes_elsewhere() -> None:
    history = History.of([Board(1, 1, ("a", "b")), Board(1, 2, ("c",))])
    total = {"a": Fraction(1), "b": Fraction(0), "c": Fraction(1)}
    boards = swiss_round(2, ["a", "c", "b"], total, history)
    assert [b.seats[0] for b in boards if b.bye] != ["c"]


@given(
    st.lists(st.sampled_from([f"p{i}" for i in range(10)]), min_size=0, max_size=10, unique=True),
    st.integers(min_value=0, max_value=2**16),
)
def test_arena_never_pairs_last_opponents(waiting: list[str], seed: int) -> None:
    rng = random.Random(seed)
    shuffled = waiting[:]
    rng.shuffle(shuffled)
    history = History.of(
        [Board(1, i + 1, tuple(shuffled[2 * i : 2 * i + 2])) for i in range(len(shuffled) // 2)]
    )
    pairs = arena_pairings(waiting, history)
    seen = Counter(s for p in pairs for s in p)
    assert all(v == 1 for v in seen.values())
    for a, b in pairs:
        assert b not in history.last_opponents.get(a, ())
    # maximal: two waiting entrants left unpaired must be each other's last opponent
    left = [w for w in waiting if w not in seen]
    for i, a in enumerate(left):
        for b in left[i + 1 :]:
            assert b in history.last_opponents.get(a, ())


def test_arena_pairs_neighbours_in_rank() -> None:
    pairs = arena_pairings(["a", "b", "c", "d"], History())
    assert {frozenset(p) for p in pairs} == {frozenset("ab"), frozenset("cd")}
    history = History.of([Board(1, 1, ("a", "b")), Board(1, 2, ("c", "d"))])
    pairs = arena_pairings(["a", "b", "c", "d"], history)
    assert {frozenset(p) for p in pairs} == {frozenset("ac"), frozenset("bd")}


def test_swiss_round_one_folds_the_seeding_order() -> None:
    """What docs/tournaments.md says of seeding: in round 1 the first seeded meets the last,
    the second the second last, the higher seeded with White; an odd field's bye goes to the
    last seeded."""
    from herna.hall.tournament import History

    for n in (4, 6, 7, 8):
        names = [f"p{i}" for i in range(1, n + 1)]
        boards = swiss_round(1, names, {x: Fraction(0) for x in names}, History.of([]))
        field = names[:-1] if n % 2 else names
        expect = [(field[i], field[-1 - i]) for i in range(len(field) // 2)]
        assert [b.seats for b in boards if not b.bye] == expect
        assert [b.seats for b in boards if b.bye] == ([(names[-1],)] if n % 2 else [])
