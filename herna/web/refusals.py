"""The hall's refusals in the page's language.

:mod:`herna.hall` words its refusals in English (they go to logs, the JSON API and the
terminal too): a bot upload (:class:`~herna.hall.submissions.SubmissionRefused`), a contest
(:class:`~herna.hall.contests.ContestRefused`), a live tournament
(:class:`~herna.hall.tournament_live.TournamentError`) and its times
(:class:`~herna.hall.tournament_timetable.TimeError`), and a seek the lobby refuses
(:class:`~herna.hall.lobby.LobbyError`, on the lobby page and the mariáš play page). A page
shows them through :func:`refusal_words`: each known sentence is matched, and its parts (a
name, a number) are put into the catalog's message for it. A sentence not known here is
shown as the hall wrote it. tests/web/test_refusal_words.py makes the hall refuse and checks
each is known.
"""

from __future__ import annotations

import re

from herna.hall.lobby import ANYONE, BOTS, PEOPLE
from herna.web.i18n import N_
from herna.web.i18n import gettext as _
from herna.web.pages import GAME_TITLES, game_title

_Q = r"'(?P<name>[^']*)'"
"""A name as the hall quotes it (``repr``)."""

REFUSALS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), message)
    for pattern, message in (
        # bot uploads
        (
            r"the hall plays submitted bots of (?P<games>.+?)(?: so far)?, not (?P<game>.*)",
            N_("the hall plays submitted bots of these games: %(games)s (not %(game)s)"),
        ),
        (
            rf"{_Q} is not a language the hall runs: (?P<known>.+)",
            N_("'%(name)s' is not a language the hall runs: %(known)s"),
        ),
        (r"the file is empty", N_("the file is empty")),
        (
            r"the file has (?P<n>\d+) bytes; the most the hall takes is (?P<most>\d+)",
            N_("the file has %(n)s bytes; the most the hall takes is %(most)s"),
        ),
        (
            rf"{_Q} is not a bot name: 1-32 letters, digits, _, - or \., no spaces",
            N_("'%(name)s' is not a bot name: 1-32 letters, digits, _, - or ., no spaces"),
        ),
        (rf"that is not the token of {_Q}", N_("that is not the token of '%(name)s'")),
        (
            rf"{_Q} is taken \(or looks like a name that is\): choose another bot name",
            N_("'%(name)s' is taken (or looks like a name that is): choose another bot name"),
        ),
        (
            rf"{_Q} is taken: choose another bot name",
            N_("'%(name)s' is taken: choose another bot name"),
        ),
        # contests
        (
            r"give the contest a title of 1 to 100 characters",
            N_("give the contest a title of 1 to 100 characters"),
        ),
        (r"the submission deadline is in the past", N_("the submission deadline is in the past")),
        (
            r"each pairing plays 1 to (?P<n>\d+) games \(2: once with each colour\)",
            N_("each pairing plays 1 to %(n)s games (2: once with each colour)"),
        ),
        (
            rf"house bots are (?P<levels>.+), not {_Q}",
            N_("house bots are %(levels)s, not '%(name)s'"),
        ),
        (
            r"the deadline has passed: the contest takes no more entries",
            N_("the deadline has passed: the contest takes no more entries"),
        ),
        (
            rf"you have no (?P<game>\w+) bot named {_Q}: upload it first",
            N_("you have no bot named '%(name)s' (%(game)s): upload it first"),
        ),
        (
            r"the final starts after the deadline: versions are not locked yet",
            N_("the final starts after the deadline: versions are not locked yet"),
        ),
        (r"a tile contest names its rules file", N_("a tile contest names its rules file")),
        (
            r"a final takes at least (?P<n>\d+) players; (?P<bots>\d+) bot\(s\) had a version "
            r"before the deadline",
            N_(
                "a final takes at least %(n)s players; %(bots)s bot(s) had a version before "
                "the deadline"
            ),
        ),
        (
            r"a Mia final is a session at the hall's Mia table, whose house bots play anyway: "
            r"give no house bots",
            N_(
                "a Mia final is a session at the hall's Mia table, whose house bots play "
                "anyway: give no house bots"
            ),
        ),
        (
            rf"{_Q} is not a rules file of this hall",
            N_("'%(name)s' is not a rules file of this hall"),
        ),
        # live tournaments
        (
            r"(?P<n>\d+) tournaments are taking entrants already; start or abort one first",
            N_("%(n)s tournaments are taking entrants already; start or abort one first"),
        ),
        (r"rounds is a whole number", N_("rounds is a whole number")),
        (r"deals is a whole number", N_("deals is a whole number")),
        (
            r"a tournament's name is 1 to 100 characters",
            N_("a tournament's name is 1 to 100 characters"),
        ),
        (r"rounds are 1 to 50", N_("rounds are 1 to 50")),
        (r"an arena lasts 10 seconds to a day", N_("an arena lasts 10 seconds to a day")),
        (
            r"the start timeout is 1 second to an hour",
            N_("the start timeout is 1 second to an hour"),
        ),
        (r"at most 16 house bots", N_("at most 16 house bots")),
        (
            r"a tournament for people only takes no house bots",
            N_("a tournament for people only takes no house bots"),
        ),
        (
            r"the pause between rounds is at most an hour",
            N_("the pause between rounds is at most an hour"),
        ),
        (r"a mariáš table plays 1 to 20 deals", N_("a mariáš table plays 1 to 20 deals")),
        (
            r"Mia is played as a session, and a session is a Mia evening",
            N_("Mia is played as a session, and a session is a Mia evening"),
        ),
        (
            r"a Mia session has no entry list: the table is the field",
            N_("a Mia session has no entry list: the table is the field"),
        ),
        (
            r"a tournament takes at most (?P<n>\d+) entrants",
            N_("a tournament takes at most %(n)s entrants"),
        ),
        (rf"{_Q} is a house bot's name", N_("'%(name)s' is a house bot's name")),
        (r"Onitama is played by two", N_("Onitama is played by two")),
        (r"mariáš is played by three", N_("mariáš is played by three")),
        (r"a tile tournament names its rules file", N_("a tile tournament names its rules file")),
        (r"a table has 2 to 8 seats", N_("a table has 2 to 8 seats")),
        (r"cycles are 1 to 10", N_("cycles are 1 to 10")),
        (r"the start time is a date and time", N_("the start time is a date and time")),
        (
            r"this hall keeps no book of names: entry lists need one",
            N_("this hall keeps no book of names: entry lists need one"),
        ),
        (
            r"tournament (?P<tid>\d+) is not taking entrants",
            N_("tournament %(tid)s is not taking entrants"),
        ),
        (
            r"tournament (?P<tid>\d+) is not taking entrants or running",
            N_("tournament %(tid)s is not taking entrants or running"),
        ),
        (r"no live tournament (?P<tid>\d+) in this hall", N_("no tournament #%(tid)s here")),
        (r"tournament (?P<tid>\d+) is running", N_("tournament %(tid)s has started already")),
        (r"tournament (?P<tid>\d+) is finished", N_("tournament %(tid)s is over")),
        (r"tournament (?P<tid>\d+) is aborted", N_("tournament %(tid)s was aborted")),
        (
            r"this hall seats no house bots for (?P<game>\S+)",
            N_("this hall seats no house bots at this game: %(game)s"),
        ),
        (
            r"no (?P<game>\S+) table runs in this hall",
            N_("no table of this game runs in this hall: %(game)s"),
        ),
        (
            r"tournament (?P<tid>\d+) is not taking entrants: too late to withdraw",
            N_("tournament %(tid)s is not taking entrants: too late to withdraw"),
        ),
        (
            rf"{_Q} has not entered tournament (?P<tid>\d+)",
            N_("'%(name)s' has not entered tournament %(tid)s"),
        ),
        (
            r"it takes at least (?P<size>\d+) entrants; (?P<came>\d+) came",
            N_("it takes at least %(size)s entrants; %(came)s came"),
        ),
        (r"the start time is in the coming year", N_("the start time is in the coming year")),
        (
            r"the action is start, abort or withdraw",
            N_("the action is start, abort or withdraw"),
        ),
        (
            rf"{_Q} is not a length of time \(e\.g\. 2m, 90s, 1m30s\)",
            N_("'%(name)s' is not a length of time (e.g. 2m, 90s, 1m30s)"),
        ),
        (
            rf"{_Q} is not a date and time \(e\.g\. 2026-12-01T14:00\)",
            N_("'%(name)s' is not a date and time (e.g. 2026-12-01T14:00)"),
        ),
        # the lobby's seeks (herna.hall.lobby) and a tournament's desk (tournament_live)
        (r"opponents are one of (?P<list>.+)", N_("opponents are one of %(list)s")),
        (r"a game has 2 to 8 seats", N_("a game has 2 to 8 seats")),
        (
            r"the fill wait is 0 to (?P<n>\S+) seconds",
            N_("the fill wait is 0 to %(n)s seconds"),
        ),
        (
            r"a seek either challenges a player or accepts a seek",
            N_("a seek either challenges a player or accepts a seek"),
        ),
        (
            r"a seek for house bots names no opponent",
            N_("a seek for house bots names no opponent"),
        ),
        (
            r"a tournament seek names no opponents: the pairings do",
            N_("a tournament seek names no opponents: the pairings do"),
        ),
        (r"a player is one of (?P<list>.+)", N_("a player is one of %(list)s")),
        (
            r"tournament games are played under a name proven with its token \(herna bots add\)"
            r" or by signing in, so nobody else can take the seat",
            N_(
                "tournament games are played under a name proven with its token (herna bots "
                "add) or by signing in, so nobody else can take the seat"
            ),
        ),
        (rf"no tournament {_Q} here", N_("no tournament '%(name)s' here")),
        (r"you cannot challenge yourself", N_("you cannot challenge yourself")),
        (
            r"a name is 1-32 letters, digits, _, - or \.",
            N_("a name is 1-32 letters, digits, _, - or ."),
        ),
        # (a seek's id is the protocol's: a person reads "that seek")
        (rf"no open seek {_Q}", N_("that seek is no longer open")),
        (
            r"seek (?P<id>\S+) of (?P<owner>\S+) is for (?P<whom>\S+)",
            N_("%(owner)s's seek is for %(whom)s"),
        ),
        (
            r"seek (?P<id>\S+) is for (?P<game>\S+)",
            N_("that seek is for another game: %(game)s"),
        ),
        (r"that is your own seek", N_("that is your own seek")),
        (
            r"seek (?P<id>\S+) is (?P<owner>\S+)'s, not yours",
            N_("that seek is %(owner)s's, not yours"),
        ),
        (
            r"seek (?P<id>\S+) is not a challenge to you",
            N_("that seek is not a challenge to you"),
        ),
        (
            r"(?P<word>.*): not a seek word \((?P<list>.+)\)",
            N_("%(word)s: not a seek word (%(list)s)"),
        ),
        (
            r"fill=(?P<value>.*): the fill wait is a number of seconds",
            N_("fill=%(value)s: the fill wait is a number of seconds"),
        ),
        (r"seats is a whole number", N_("seats is a whole number")),
        (r"level is one of (?P<list>.+)", N_("level is one of %(list)s")),
        (
            r"clock=(?P<value>.*): a clock is MINUTES\+SECONDS, e\.g\. 5\+3",
            N_("clock=%(value)s: a clock is MINUTES+SECONDS, e.g. 5+3"),
        ),
        (
            r"clock=(?P<value>.*): 0 to (?P<m>\S+) minutes, plus 0 to (?P<s>\S+) seconds a move",
            N_("clock=%(value)s: 0 to %(m)s minutes, plus 0 to %(s)s seconds a move"),
        ),
        (
            r"tournament (?P<tid>\d+) is played at (?P<game>\S+)",
            N_("tournament %(tid)s is played at another game: %(game)s"),
        ),
        (r"tournament (?P<tid>\d+) is over", N_("tournament %(tid)s is over")),
        (
            r"tournament (?P<tid>\d+) has started; only its entrants play in it",
            N_("tournament %(tid)s has started; only its entrants play in it"),
        ),
        (
            r"tournament (?P<tid>\d+) admits bots only",
            N_("tournament %(tid)s admits bots only"),
        ),
        (
            r"tournament (?P<tid>\d+) admits people only",
            N_("tournament %(tid)s admits people only"),
        ),
        (r"tournament (?P<tid>\d+) is full", N_("tournament %(tid)s is full")),
        (
            r"Herna takes no new games: its database file was (?P<gone>.+); games in progress "
            r"finish and are kept, and new games start again after the operator restarts Herna",
            N_(
                "Herna takes no new games: its database file was %(gone)s; games in progress "
                "finish and are kept, and new games start again after the operator restarts "
                "Herna"
            ),
        ),
    )
)


OPPONENT_WORDS = {ANYONE: N_("anyone"), PEOPLE: N_("people only"), BOTS: N_("house bots")}
"""Whom a seek waits for (the lobby's words on the wire), as a person reads it."""


def _game(code: str) -> str:
    """A game's code (``marias``) as its name in the page's language; other text as it is."""
    return game_title(code) if code in GAME_TITLES else code


def refusal_words(reason: str) -> str:
    """``reason`` (a sentence of the hall's) in the page's language, with the games' names
    for their codes (``marias`` reads "Mariáš")."""
    for pattern, message in REFUSALS:
        found = pattern.fullmatch(reason)
        if found is not None:
            parts = found.groupdict()
            if "game" in parts:
                parts["game"] = _game(parts["game"])  # the game's name, not its id
            if "games" in parts:
                parts["games"] = ", ".join(_game(g) for g in parts["games"].split(", "))
            if parts.get("whom") in OPPONENT_WORDS:
                parts["whom"] = _(OPPONENT_WORDS[parts["whom"]])
            return _(message) % parts
    return reason
