"""The hall's refusals reach a Czech page in Czech (herna.web.refusals): the hall refuses for
real (a bot upload, a contest, a live tournament's options and times, against a real SQLite
file) and each sentence it words is one the web layer knows; unknown ones pass unchanged."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from herna.hall.contests import ContestRefused, Contests
from herna.hall.hall import Hall
from herna.hall.lobby import PERSON, LobbyError, Want, parse_seek
from herna.hall.records import RecordStore
from herna.hall.submissions import SubmissionRefused, Submissions
from herna.hall.tournament_live import LiveOptions, TournamentError
from herna.hall.tournament_timetable import TimeError, parse_duration, parse_start
from herna.servers.contest import table_seats
from herna.web.refusals import refusal_words


def _reason(act: Callable[[], object]) -> str:
    try:
        act()
    except (SubmissionRefused, ContestRefused) as exc:
        return exc.reason
    except (TournamentError, TimeError) as exc:
        return str(exc)
    raise AssertionError("the hall did not refuse")


def test_the_halls_refusals_are_said_in_czech(tmp_path: Path, czech: None) -> None:
    hall = Hall(records=RecordStore(f"sqlite:///{tmp_path / 'hall.db'}"))
    bots = Submissions(hall.records.engine, hall.identity)
    contests = Contests(hall.records.engine, bots)
    past = datetime.now(UTC) - timedelta(hours=1)
    soon = datetime.now(UTC) + timedelta(hours=1)
    kit = b"print('hi')\n"
    marias, _ = contests.create("Mariáš 3B", "marias", soon)
    bots.submit("oni", "onitama", "a.py", kit, person="eva")
    refused = {
        "empty": _reason(lambda: bots.submit("ada", "onitama", "a.py", b" ", person="ada")),
        "language": _reason(lambda: bots.submit("ada", "onitama", "a.rb", kit, person="ada")),
        "name": _reason(lambda: bots.submit("a b", "onitama", "a.py", kit, person="ada")),
        "title": _reason(lambda: contests.create("", "onitama", soon, 2, ())),
        "past": _reason(lambda: contests.create("Třída", "onitama", past, 2, ())),
        "pairing": _reason(lambda: contests.create("Třída", "onitama", soon, 99, ())),
        "house": _reason(lambda: contests.create("Třída", "onitama", soon, 2, ("wizard",))),
        "no rules": _reason(lambda: contests.create("Třída", "tiles", soon, 2, ())),
        "rules": _reason(lambda: table_seats("tiles", "nowhere")),
        "mia house": _reason(lambda: contests.create("Třída", "mia", soon, 2, ("easy",))),
        "wrong game": _reason(lambda: contests.enter(marias.id, "oni", "eva")),
        "rounds": _reason(LiveOptions("x", "onitama", "swiss", rounds=99).check),
        "arena": _reason(LiveOptions("x", "onitama", "arena", duration=1).check),
        "people": _reason(
            LiveOptions("x", "onitama", "swiss", admits="people", house=("easy",)).check
        ),
        "pause": _reason(lambda: parse_duration("soon")),
        "start": _reason(lambda: parse_start("tomorrow")),
        # a game's code in the hall's sentence: its name on the page
        "no house": _reason(
            lambda: hall.hold_tournaments().create(
                LiveOptions("x", "onitama", "swiss", house=("easy",))
            )
        ),
        "game": _reason(lambda: bots.submit("ada", "chess", "a.py", kit, person="ada")),
    }
    said = {key: refusal_words(reason) for key, reason in refused.items()}
    unknown = {key: refused[key] for key in refused if said[key] == refused[key]}
    assert unknown == {}, unknown  # every one is known, so none is left in English
    assert said["empty"] == "soubor je prázdný"
    assert said["language"].startswith("„a.rb“ není v jazyce, který herna spouští: Python 3")
    assert said["past"] == "uzávěrka je v minulosti"
    assert said["no rules"] == "soutěž her s dlaždicemi musí uvést svůj soubor pravidel"
    assert said["rules"] == "„nowhere“ není soubor pravidel této herny"
    # The game by its name, not its code: "Mariáš", not "marias".
    assert said["wrong game"] == "nemáš bota jménem „oni“ (Mariáš): nejdřív ho nahraj"
    assert said["pause"] == "„soon“ není délka času (např. 2m, 90s, 1m30s)"
    assert said["no house"] == "tahle herna nemá pro tuto hru boty herny: Onitama"
    assert said["game"].startswith("herna hraje s nahranými boty těchto her: "), said["game"]
    assert "Mariáš" in said["game"] and "marias" not in said["game"], said["game"]
    assert all("%(" not in words for words in said.values())
    hall.records.close()


def test_an_unknown_refusal_is_shown_as_the_hall_wrote_it(czech: None) -> None:
    assert refusal_words("something new went wrong") == "something new went wrong"


def test_the_lobbys_refusals_of_a_seek_are_said_in_czech(tmp_path: Path, czech: None) -> None:
    """The lobby refuses seeks for real (their words, a person's and the tournament desk's
    checks); a Czech page says every one in Czech."""
    hall = Hall(records=RecordStore(f"sqlite:///{tmp_path / 'hall.db'}"))
    lobby = hall.lobby
    mine = lobby.open("onitama", "ann", PERSON, Want(challenge="bob"), object(), 0.0)

    def refused(act: Callable[[], object]) -> str:
        try:
            act()
        except LobbyError as exc:
            return exc.reason
        raise AssertionError("the lobby did not refuse")

    def words(text: str) -> str:
        return refused(lambda: parse_seek(text, ["easy", "hard"]))

    def check(want: Want, kind: str = PERSON, who: str = "cy", verified: bool = False) -> str:
        return refused(lambda: lobby.check_open("onitama", who, kind, want, verified))

    reasons = [
        *(
            words(text)
            for text in (
                "person,opponent=aliens",
                "person,seats=9",
                "person,fill=99999",
                "person,challenge=ann,accept=s1",
                "person,opponent=bots,challenge=ann",
                "person,tournament=3,challenge=ann",
                "person,colour=red",
                "person,fill=soon",
                "person,seats=two",
                "person,level=wizard",
                "person,clock=fast",
                "person,clock=999+0",
            )
        ),
        check(Want(), kind="alien"),
        check(Want(challenge="Cy")),
        check(Want(accept="s99")),
        check(Want(accept=mine.id), who="ann"),
        check(Want(accept=mine.id)),
        check(Want(tournament="3")),
        check(Want(tournament="3"), verified=True),
        refused(lambda: lobby.cancel(mine.id, "cy")),
        refused(lambda: lobby.check_open("tiles", "bob", PERSON, Want(accept=mine.id))),
    ]
    said = [refusal_words(reason) for reason in reasons]
    unknown = [reason for reason, words in zip(reasons, said, strict=True) if reason == words]
    assert unknown == [], unknown
    # no seek ids, no game codes: the game's name in Czech
    assert said[-2] == "ta nabídka hry patří hráči ann, ne tobě", said[-2]
    assert said[-1] == "ta nabídka hry je pro jinou hru: Onitama", said[-1]
    assert said[14] == "ta nabídka hry už není otevřená", said[14]
    assert said[16] == "nabídka hry hráče ann je pro: bob", said[16]
    assert said[13] == "sebe vyzvat nemůžeš", said[13]
    assert all("%(" not in words for words in said)
    hall.records.close()
