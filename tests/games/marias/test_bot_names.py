"""Issue 15 item 7: the mariáš strategies are named for what they are; old names still work."""

from __future__ import annotations

import pytest

from herna.cli import build_parser, main
from herna.games.marias.bots import BOTS, make_bot


def test_names_say_what_the_strategies_are_and_old_names_are_aliases() -> None:
    assert BOTS == ("random", "heuristic", "sampling-search")
    assert make_bot("heuristic").name == make_bot("rule").name == "heuristic"
    assert make_bot("sampling-search").name == make_bot("search").name == "sampling-search"
    with pytest.raises(ValueError, match="known: random, heuristic, sampling-search"):
        make_bot("rule-bot")


@pytest.mark.parametrize("old, new", [("rule", "heuristic"), ("search", "sampling-search")])
def test_command_lines_accept_old_and_new_names(old: str, new: str) -> None:
    parser = build_parser()
    for name in (old, new):
        args = parser.parse_args(["bot", "marias", "--strategy", name])
        assert args.strategy == name
        args = parser.parse_args(["serve", "--cgml-bot-strategy", name])
        assert args.cgml_bot_strategy == name


def test_help_names_the_strategies(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["bot", "marias", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "heuristic (rules of thumb; the default)" in text and "sampling-search" in text
