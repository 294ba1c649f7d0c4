"""Mia in a person's words: every loss reason of the seed is a sentence without its keyword,
and the dice are said as people say them."""

from __future__ import annotations

import doctest

import herna.games.mia.words as words
from herna.games.mia.dice import ALL_DICE, Dice
from herna.games.mia.round import LOSS_REASONS
from herna.games.mia.words import announcements_above, dice_words, loss_sentence


def test_the_examples_in_the_module_hold() -> None:
    assert doctest.testmod(words).failed == 0


def test_every_loss_reason_is_a_sentence_without_its_keyword() -> None:
    for reason in LOSS_REASONS:
        said = loss_sentence(["bob"], reason, ["ann", "bob"], Dice(6, 2), Dice(4, 1))
        assert reason not in said and "_" not in said and said != "bob lost", reason
    assert loss_sentence(["ann", "cy"], "MIA", ["ann", "bob", "cy"]) == (
        "bob had Mia: everyone else lost"
    )
    assert loss_sentence(["bob"], "MIA", ["ann", "bob"], you="ann").startswith("You had Mia")
    assert loss_sentence(["ann"], "SEE_FAILED", ["ann", "bob"], Dice(5, 1), Dice(6, 6)) == (
        "ann looked and lost: the dice (double 6s (pasch)) were better than announced (5-1)"
    )


def test_dice_in_words_and_the_announcements_offered() -> None:
    assert [dice_words(d) for d in ALL_DICE[:2]] == ["3-1", "3-2"]
    assert dice_words(Dice(1, 1)) == "double 1s (pasch)"
    assert len(announcements_above(None)) == 21
    assert announcements_above(Dice(2, 1)) == []  # nothing beats Mia
    assert announcements_above(Dice(6, 5))[0] == Dice(1, 1)


def test_every_loss_reason_is_a_czech_sentence_too() -> None:
    for reason in LOSS_REASONS:
        said = loss_sentence(["bob"], reason, ["ann", "bob"], Dice(6, 2), Dice(4, 1), lang="cs")
        assert reason not in said and "_" not in said and said != "bob prohrává", reason
        assert said.startswith("bob prohrává: ") or "Miu (Mäxchen)" in said, said
    assert loss_sentence(["ann", "cy"], "MIA", ["ann", "bob", "cy"], lang="cs") == (
        "bob má Miu (Mäxchen): všichni ostatní prohrávají"
    )
    assert loss_sentence(["bob"], "MIA", ["ann", "bob"], you="ann", lang="cs").startswith("Máš Miu")
    assert loss_sentence(
        ["ann"], "SEE_FAILED", ["ann", "bob"], Dice(5, 1), Dice(6, 6), "ann", "cs"
    ) == ("Prohráváš: odkrytý kelímek ukázal víc (dvě šestky (pasch)), než bylo ohlášeno (5-1)")
    both = loss_sentence(["ann", "bob"], "DID_NOT_TAKE_TURN", ["ann", "bob"], lang="cs")
    assert both == "ann a bob prohrávají: vypršel čas na hod nebo odkrytí"
    assert dice_words(Dice(2, 1), "cs") == "Mia" and dice_words(Dice(1, 1), "cs") == (
        "dvě jedničky (pasch)"
    )


def test_czech_loss_sentences_need_no_verb_to_agree_with_the_dice() -> None:
    # "bylo tam dvě pětky" was wrong Czech (dvě pětky byly): the dice stand after a colon
    lied = loss_sentence(
        ["ann"], "LIED_ABOUT_MIA", ["ann", "bob"], Dice(6, 5), Dice(5, 5), "ann", "cs"
    )
    assert (
        lied == "Prohráváš: ohlášena Mia, ale na kostkách nebyla (pod kelímkem: dvě pětky (pasch))"
    )
    caught = loss_sentence(
        ["bob"], "CAUGHT_BLUFFING", ["ann", "bob"], Dice(6, 2), Dice(3, 3), lang="cs"
    )
    assert caught == "bob prohrává: blaf odhalen (ohlášeno 6-2, pod kelímkem: dvě trojky (pasch))"
