"""The one-line turn descriptions of herna.games.tiles.narrate, on views the engine makes."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

from herna.core.game import CHANCE
from herna.core.rng import SeededRng
from herna.games.tiles.actions import TilesCodec
from herna.games.tiles.engine import TilesState, new_game
from herna.games.tiles.narrate import TurnLog, action_words, consequences, goal_words, item_names
from herna.games.tiles.replay import replay_steps
from herna.games.tiles.rules import load_rules_file, shipped_rules
from herna.hall.records import RecordStore
from tests.records import at, tiles_game


def _settle(state: TilesState, rng: SeededRng) -> TilesState:
    while not state.is_terminal() and state.current_player() == CHANCE:
        state = state.apply(rng.weighted(state.chance_outcomes()))
    return state


def test_item_names() -> None:
    assert item_names({"ghost": 1}) == "the ghost"
    assert item_names({"gem": 2, "coins": 3, "map": 1}) == "2 gems, 3 coins and the map"


def test_a_whole_game_gives_one_line_per_turn() -> None:
    rules = load_rules_file(shipped_rules()["gold_rush"])
    codec = TilesCodec(rules.n)
    rng = SeededRng(5)
    names = ["a", "b", "c", "d"]
    log = TurnLog(names)
    state = _settle(new_game(rules, 6), rng)
    lines: list[str] = []
    turns = 0
    while not state.is_terminal():
        seat = state.current_player()
        before = state.view(0)
        turn = state.turn
        action = state.legal_actions()[-1]
        state = _settle(state.apply(action), rng)
        turns += state.turn != turn or state.is_terminal()
        line = log.add(seat, codec.encode(action), before, state.view(0))
        if line:
            lines += line.splitlines()
    assert len(lines) == turns == 24
    assert all(line.split()[1] == "pushed" for line in lines), lines
    assert all("(" not in line for line in lines)


def test_goals_read_in_words_the_same_as_on_the_players_panel() -> None:
    """Columns and rows as people count them, from 1 (the rules file counts from 0)."""
    assert goal_words("reach 3 0") == "reach the tile in column 4, row 1"
    assert goal_words("reach 0 6") == "reach the tile in column 1, row 7"
    assert goal_words("collect 2 gold") == "collect 2 gold"
    assert goal_words("find ghost") == "find the ghost"
    assert goal_words(None) == "a secret goal"


def test_a_completed_goal_is_said_in_words() -> None:
    """What the play page's "What happened" list shows: the goal as the Players panel says it,
    never the rules file's ``'reach 3 0'``."""

    def view(done: bool) -> dict[str, object]:
        goal = {"goal": "reach 3 0", "hidden": False, "done": done}
        player = {"seat": 0, "x": 3, "y": 0, "side": "U", "index": 0, "eliminated": False}
        return {"players": [{**player, "items": {}, "goals": [goal], "skip": 0}]}

    action = {"type": "move", "x": 3, "y": 0, "side": "U", "index": 0}
    said = consequences(action, view(False), view(True), 0, ["ann"])
    assert said == ["completed the goal to reach the tile in column 4, row 1"]


def test_a_push_says_the_row_as_people_count_it() -> None:
    """The wire's ``row 0`` is the top row: people read "row 1"."""
    assert action_words({"type": "push", "row": 0, "direction": "right"}, {}, 0) == (
        "pushed row 1 from the left"
    )
    assert action_words({"type": "push", "column": 6, "direction": "up"}, {}, 0) == (
        "pushed column 7 from the bottom"
    )


def test_replay_steps_say_turns_in_words(tmp_path: Path) -> None:
    """The replay's step labels are the live table's words: no ``(3, 3) U0`` points, no
    ``'reach 3 0'`` goals, and no "game over" line repeating the outcome beside the board."""
    store = RecordStore(f"sqlite:///{tmp_path / 'r.db'}")
    match = store.get(store.save(at(tiles_game(7, "dungeon"), datetime.now(UTC))))
    store.close()
    assert match is not None
    labels = [step["label"] for step in replay_steps(match)]
    assert len(labels) > 10
    for label in labels:
        assert not re.search(r"\b[URDL]\d\b|\(\d+, \d+\)|'reach|game over", label), label
    assert any(" pushed " in label for label in labels)


def test_the_story_in_czech() -> None:
    """A Czech page's "What happened" (the join's ``lang``): present tense, so that no verb
    guesses a player's gender; the shipped rules' items in Czech (ITEM_WORDS)."""
    assert item_names({"gem": 2, "coins": 3, "map": 1}, "cs") == "2× drahokam, 3× mince a mapa"
    assert goal_words("reach 3 0", "cs") == "dojít na dlaždici ve sloupci 4, řádku 1"
    assert goal_words(None, "cs") == "tajný cíl"
    push = {"type": "push", "row": 0, "direction": "right"}
    assert action_words(push, {}, 0, "cs") == "posouvá řádek 1 zleva"
    column = {"type": "push", "column": 2, "direction": "up"}
    assert action_words(column, {}, 0, "cs") == "posouvá sloupec 3 zdola"

    def view(done: bool, gold: int) -> dict[str, object]:
        goal = {"goal": "reach 3 0", "hidden": False, "done": done}
        player = {"seat": 0, "x": 3, "y": 0, "side": "U", "index": 0, "eliminated": False}
        return {"players": [{**player, "items": {"gold": gold}, "goals": [goal], "skip": 0}]}

    action = {"type": "move", "x": 3, "y": 0, "side": "U", "index": 0}
    said = consequences(action, view(False, 0), view(True, 2), 0, ["ann"], "cs")
    assert said == ["bere: 2× zlato, plní cíl: dojít na dlaždici ve sloupci 4, řádku 1"]
    rules = load_rules_file(shipped_rules()["gold_rush"])
    codec = TilesCodec(rules.n)
    rng = SeededRng(5)
    state = _settle(new_game(rules, 6), rng)
    from herna.games.tiles.narrate import turn_words

    for _ in range(12):
        seat, before = state.current_player(), state.view(0)
        action_ = state.legal_actions()[-1]
        state = _settle(state.apply(action_), rng)
        line = turn_words(codec.encode(action_), before, state.view(0), seat, list("abcd"), "cs")
        assert re.fullmatch(r"[abcd] (posouvá|jde|táhne|zůstává|hází) .+", line), line
        assert not re.search(r"\b(pushed|moved|picked|the|and|gold|gem)\b", line), line


def test_the_shipped_rules_names_in_czech_and_a_designers_own_as_written() -> None:
    """Everything Herna ships (rules/*.json) reads in the reader's language: the items, the
    goals and ends that name them, the rule sets' titles; a designer's own names stay."""
    import json

    from herna.games.tiles.narrate import ITEM_WORDS, end_words
    from herna.games.tiles.rules import RULES_TITLES, rules_title

    shipped: set[str] = set()
    for path in shipped_rules().values():
        text = path.read_text(encoding="utf-8")
        for item in re.findall(r'"items": \[([^\]]*)\]', text):
            shipped |= {json.loads(i).split()[0] for i in re.findall(r'"[^"]+"', item)}
        data = json.loads(text)
        shipped |= {g.split()[-1] for g in data.get("random_goal_pool", []) if "find" in g}
        shipped |= {c.removeprefix("no ") for c in data.get("end_of_game_conditions") or ()}
    assert shipped == set(ITEM_WORDS)
    assert set(RULES_TITLES) == set(shipped_rules())
    assert goal_words("collect 2 gold", "cs") == "sesbírat 2× zlato"
    assert goal_words("find dragon", "cs") == "najít: drak"  # (no case for the noun to take)
    assert goal_words("find dragon") == "find the dragon"
    assert item_names({"sorceress": 1, "keys": 2}, "cs") == "čarodějka a 2× klíče"
    assert end_words("no gold left", "cs") == "už nezbývá zlato"
    titles = [rules_title(n, "cs") for n in ("gold_rush", "labyrinth", "dungeon", "tsuro")]
    assert titles == ["Zlatá horečka", "Labyrint", "Kobka", "Tsuro"]
    assert rules_title("gold_rush") == "Gold rush"
    # a designer's own: as written, in every language
    assert goal_words("collect 2 doubloon", "cs") == "sesbírat 2× doubloon"
    assert goal_words("find Grail", "cs") == "najít: Grail"
    assert item_names({"doubloon": 1}, "cs") == "doubloon"
    assert end_words("no doubloon left", "cs") == "už nezbývá doubloon"
    assert rules_title("my_maze", "cs") == "My maze"
