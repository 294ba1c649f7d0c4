"""Claiming a reserved name at sign-up with its token (a pupil on a teacher's entry list):
what makes it the person's, what is refused and in which words, and that the name keeps its
token. Real ``herna serve`` (Onitama and the web hall), real sockets, a real SQLite file."""

from __future__ import annotations

import re
from pathlib import Path

import httpx

from herna.hall.identity import ReservedNames
from herna.web.accounts import FAILS_PER_NAME
from tests.serve import serving
from tests.web.test_people import ONITAMA, _csrf, _onitama, _web, sign_in, tcp_login

ERROR = re.compile(r'<p class="error">([^<]*)</p>')


async def claim(http: httpx.AsyncClient, name: str, token: str, password: str) -> httpx.Response:
    csrf = await _csrf(http, "/signup")
    return await http.post(
        "/signup",
        data={"csrf": csrf, "name": name, "token": token, "password": password, "next": "/"},
    )


def error(answer: httpx.Response) -> str:
    found = ERROR.search(answer.text)
    assert found, answer.text[-500:]
    return found.group(1).replace("&#x27;", "'")


async def test_a_reserved_name_is_claimed_with_its_token_and_keeps_it(tmp_path: Path) -> None:
    async with serving(tmp_path, "onitama,web", **ONITAMA) as hall:
        book = ReservedNames(hall.records.engine)
        token = book.add("jan.novak", note="entrant of tournament 1")
        other = book.add("eva")
        hall.identity.reload()
        url = _web(hall).url
        async with httpx.AsyncClient(base_url=url, timeout=20) as http:
            wrong = await claim(http, "jan.novak", other, "a long password")
            assert wrong.status_code == 400
            assert error(wrong).startswith("That is not the token of jan.novak")
            nobody = await claim(http, "zuzana", token, "a long password")
            assert nobody.status_code == 400
            assert error(nobody).startswith("Nobody reserved the name zuzana, so it has no token")
            house = sorted(hall.identity.house_bot_names)[0]
            assert "Nobody reserved" in error(await claim(http, house, token, "a long password"))
            short = await claim(http, "jan.novak", token, "short")
            assert "at least 8" in error(short)
            # Any case of the name claims it under its own spelling.
            done = await claim(http, "JAN.NOVAK", token, "a long password")
            assert done.status_code == 303, done.text[-500:]
            home = await http.get("/")
            assert 'id="signed-in"' in home.text and "jan.novak" in home.text
        async with httpx.AsyncClient(base_url=url, timeout=20) as http:
            again = await claim(http, "jan.novak", token, "another password")
            assert error(again) == "jan.novak has signed up already: sign in with its password."
            assert (await sign_in(http, "jan.novak", "a long password")).status_code == 303
        # The token still proves the name over the wire; without it the name is refused.
        port = _onitama(hall).port
        assert await tcp_login(port, f"LOGIN|jan.novak|{token}") == "LOGIN_OK|jan.novak"
        assert (await tcp_login(port, "LOGIN|jan.novak")).startswith("LOGIN_FAILED|RESERVED_NAME")
        listed = {r.name: r for r in book.list()}
        assert listed["jan.novak"].person and not listed["eva"].person


async def test_wrong_tokens_are_throttled_like_wrong_passwords(tmp_path: Path) -> None:
    async with serving(tmp_path, "web") as hall:
        token = ReservedNames(hall.records.engine).add("ada")
        hall.identity.reload()
        async with httpx.AsyncClient(base_url=_web(hall).url, timeout=20) as http:
            for _ in range(FAILS_PER_NAME):
                assert (await claim(http, "ada", "x" * 32, "a long password")).status_code == 400
            held = await claim(http, "ada", token, "a long password")
            assert held.status_code == 429 and "Too many wrong tokens" in held.text
