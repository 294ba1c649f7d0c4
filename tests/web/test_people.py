"""People in the web hall: guest names in a signed session, reserved names with passwords,
proofs of the name for the play pages, the home page for people and the status page.

Real ``herna serve`` (the Onitama server and the web hall, house bots included), real
sockets, real Chromium where a browser is what the promise is about.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from herna.cli import main
from herna.hall.hall import Hall
from herna.servers.onitama import OnitamaService
from herna.web.accounts import FAILS_PER_NAME
from herna.web.plugin import WebHall
from tests.serve import serving
from tests.web.conftest import Browser, screenshot_path
from tests.web.play_helpers import Frames, play_one, sit_down, wait_my_turn

ONITAMA = {
    "onitama_house_bot_strategy": "greedy",
    "onitama_house_bot_delay": 0.02,
}
IN_GAME = "() => window.HernaPlay && window.HernaPlay.state.phase === 'game'"
CSRF = re.compile(r'name="csrf" value="([^"]+)"')


def _web(hall: Hall) -> WebHall:
    web = hall.service("web")
    assert isinstance(web, WebHall)
    return web


def _onitama(hall: Hall) -> OnitamaService:
    service = hall.service("onitama")
    assert isinstance(service, OnitamaService)
    return service


async def _csrf(http: httpx.AsyncClient, path: str) -> str:
    page = await http.get(path)
    assert page.status_code == 200
    found = CSRF.search(page.text)
    assert found, page.text[:500]
    return found.group(1)


async def sign_up(http: httpx.AsyncClient, name: str, password: str) -> httpx.Response:
    csrf = await _csrf(http, "/signup")
    return await http.post(
        "/signup", data={"csrf": csrf, "name": name, "password": password, "next": "/"}
    )


async def sign_in(http: httpx.AsyncClient, name: str, password: str) -> httpx.Response:
    csrf = await _csrf(http, "/signin")
    return await http.post("/signin", data={"csrf": csrf, "name": name, "password": password})


async def tcp_login(port: int, line: str) -> str:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(line.encode() + b"\n")
        await writer.drain()
        return (await asyncio.wait_for(reader.readline(), 5)).decode().strip()
    finally:
        writer.close()


# -- guests -------------------------------------------------------------------------------------


@pytest.mark.browser
async def test_a_guest_keeps_the_name_across_reload_and_server_restart(
    tmp_path: Path, browser: Browser
) -> None:
    page = browser.page
    async with serving(tmp_path, "onitama,web", **ONITAMA) as hall:
        await page.goto(_web(hall).url + "/play/onitama")
        guest = await page.locator("#play-name").inner_text()
        assert re.fullmatch(r"guest-[a-z2-9]{8}", guest)
        await page.reload()
        assert await page.locator("#play-name").inner_text() == guest
        await page.goto("about:blank")  # no reconnecting page while the hall is down
    # The same database: the session key is kept there, so the cookie is still good.
    async with serving(tmp_path, "onitama,web", **ONITAMA) as hall:
        await page.goto(_web(hall).url + "/play/onitama")
        assert await page.locator("#play-name").inner_text() == guest
        await page.goto("about:blank")
    cookies = await page.context.cookies()
    session = next(c for c in cookies if c["name"] == "herna_session")
    assert session["httpOnly"] and session["sameSite"] == "Lax"
    assert browser.errors == []


async def test_a_forged_session_cookie_gets_a_new_guest_name(tmp_path: Path) -> None:
    async with serving(tmp_path, "onitama,web", **ONITAMA) as hall:
        url = _web(hall).url
        async with httpx.AsyncClient(base_url=url, timeout=10) as http:
            first = await http.get("/play/onitama")
            name = re.search(r'id="play-name">([^<]+)<', first.text)
            assert name
            cookie = http.cookies["herna_session"]
            # Someone edits the cookie to claim another name: the signature fails.
            forged = cookie.replace(cookie[:10], "eyJndWVzd")
            async with httpx.AsyncClient(
                base_url=url, timeout=10, cookies={"herna_session": forged}
            ) as other:
                again = await other.get("/play/onitama")
                other_name = re.search(r'id="play-name">([^<]+)<', again.text)
                assert other_name and other_name.group(1) != name.group(1)


# -- people -------------------------------------------------------------------------------------


@pytest.mark.browser
async def test_sign_up_sign_in_and_play_onitama_under_the_reserved_name(
    tmp_path: Path, browser: Browser
) -> None:
    async with serving(tmp_path, "onitama,web", **ONITAMA) as hall:
        web, onitama, page = _web(hall), _onitama(hall), browser.page
        await page.goto(web.url + "/signup")
        await page.screenshot(path=screenshot_path("people-signup-1280"), full_page=True)
        await page.set_viewport_size({"width": 390, "height": 844})
        await page.fill("#name", "house-1")
        await page.fill("#password", "correct horse battery")
        await page.click("form.account button[type=submit]")
        await page.locator("#form-error").wait_for()
        assert "is taken" in await page.locator("#form-error").inner_text()
        wide = await page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert wide[0] <= wide[1], wide
        await page.screenshot(path=screenshot_path("people-signup-refused-390"), full_page=True)
        await page.set_viewport_size({"width": 1280, "height": 900})
        await page.fill("#name", "Vendula")
        await page.fill("#password", "correct horse battery")
        await page.click("form.account button[type=submit]")
        await page.wait_for_url(web.url + "/")
        assert await page.locator("#signed-in").inner_text() == "Vendula"
        await page.screenshot(path=screenshot_path("people-home-signed-in-1280"), full_page=True)
        await page.click("header form.signout button")
        await page.wait_for_url(web.url + "/")
        assert await page.locator("#signed-in").count() == 0

        # A bot (or anyone) without the token is refused the person's name on the TCP server.
        answer = await tcp_login(onitama.port, "LOGIN|Vendula")
        assert answer.startswith("LOGIN_FAILED|RESERVED_NAME"), answer
        answer = await tcp_login(onitama.port, "LOGIN|vendula")  # not in another case either
        assert answer.startswith("LOGIN_FAILED|RESERVED_NAME"), answer

        await page.goto(web.url + "/signin")
        await page.fill("#name", "Vendula")
        await page.fill("#password", "correct horse battery")
        await page.click("form.account button[type=submit]")
        await page.wait_for_url(web.url + "/")
        frames = Frames().watch(page)
        await page.get_by_role("link", name="Play Onitama").click()
        await page.wait_for_url("**/play/onitama")
        assert await page.locator("#play-name").inner_text() == "Vendula"
        token: Any = await page.evaluate("window.Herna.page.token")
        assert isinstance(token, str) and len(token) >= 32
        await sit_down(page)
        await page.wait_for_function(IN_GAME)
        assert frames.sent[0] == f"LOGIN|Vendula|{token}|person,opponent=anyone,fill=0,once"
        assert any(f == "LOGIN_OK|Vendula" for f in frames.received)
        moves = 0
        while await wait_my_turn(page) != "over":
            await play_one(page)
            moves += 1
            assert moves < 200
        hall.records.flush()
        recorded = hall.records.matches(player="Vendula", limit=5)
        assert recorded and recorded[0].game == "onitama" and recorded[0].status == "finished"
        assert "Vendula" in [p.name for p in recorded[0].players]
        # The page's proof is no password and no bot token: it works for this person's
        # session only, and signing out retires it.
        assert hall.identity.proves("Vendula", token)
        assert not hall.identity.proves("house-1", token)
        await page.goto(web.url + "/")
        await page.click("header form.signout button")
        await page.wait_for_url(web.url + "/")
        assert not hall.identity.proves("Vendula", token)
        # The refused sign-up was answered 400 (Chromium logs that); nothing else went wrong.
        assert [x for x in browser.errors if "status of 400" not in x] == []


async def test_wrong_password_is_refused_and_sign_ins_are_throttled(tmp_path: Path) -> None:
    async with serving(tmp_path, "web") as hall:
        async with httpx.AsyncClient(base_url=_web(hall).url, timeout=20) as http:
            made = await sign_up(http, "ruzena", "a long password")
            assert made.status_code == 303 and made.headers["location"] == "/"
            await http.post("/signout", data={"csrf": await _csrf(http, "/signin")})
        async with httpx.AsyncClient(base_url=_web(hall).url, timeout=20) as http:
            for _ in range(FAILS_PER_NAME):
                wrong = await sign_in(http, "ruzena", "not the password")
                assert wrong.status_code == 400
                assert "Wrong name or password." in wrong.text
                assert "herna_session" not in wrong.headers.get("set-cookie", "") or (
                    "person" not in wrong.text
                )
            # Now even the right password waits: the name is throttled.
            limited = await sign_in(http, "ruzena", "a long password")
            assert limited.status_code == 429
            assert int(limited.headers["retry-after"]) > 0
            assert "Too many failed sign-ins" in limited.text
        # Another name from the same address is not yet throttled (the address allows more).
        async with httpx.AsyncClient(base_url=_web(hall).url, timeout=20) as http:
            other = await sign_in(http, "nobody-here", "whatever123")
            assert other.status_code == 400


async def test_forms_need_their_csrf_token_and_this_origin(tmp_path: Path) -> None:
    async with serving(tmp_path, "web") as hall:
        url = _web(hall).url
        async with httpx.AsyncClient(base_url=url, timeout=20) as http:
            csrf = await _csrf(http, "/signup")
            form = {"name": "zdenek", "password": "a long password"}
            missing = await http.post("/signup", data=form)
            assert missing.status_code == 403
            wrong = await http.post("/signup", data={**form, "csrf": "x" * 32})
            assert wrong.status_code == 403
            foreign = await http.post(
                "/signup", data={**form, "csrf": csrf}, headers={"origin": "https://evil.test"}
            )
            assert foreign.status_code == 403
            # Nothing was made by those.
            assert not hall.identity.is_reserved("zdenek")
            ok = await http.post(
                "/signup",
                data={**form, "csrf": csrf, "next": "//evil.test/"},
                headers={"origin": url.rstrip("/")},
            )
            assert ok.status_code == 303 and ok.headers["location"] == "/"  # never off-site
            hall.identity.reload()
            assert hall.identity.is_reserved("zdenek")
            # Signing out needs the token too (a foreign page cannot sign people out).
            assert (await http.post("/signout", data={"next": "/"})).status_code == 403
            # The session was renewed at sign-up: the token from before no longer works.
            stale = await http.post("/signout", data={"csrf": csrf})
            assert stale.status_code == 403


async def test_names_that_cannot_be_had(tmp_path: Path) -> None:
    async with serving(tmp_path, "onitama,web", **ONITAMA) as hall:
        house = sorted(hall.identity.house_bot_names)[0]
        from tests.records import onitama_game

        hall.records.save(onitama_game(1, "old-timer", "house-1"))
        async with httpx.AsyncClient(base_url=_web(hall).url, timeout=20) as http:
            for name, why in [
                (house, "is taken"),
                (house.upper(), "is taken"),
                ("guest-abcdefgh", "for guests"),
                ("x", "3 to 24"),
                ("bad|name", "3 to 24"),
                ("old-timer", "has played here already"),
            ]:
                answer = await sign_up(http, name, "a long password")
                assert answer.status_code == 400, name
                assert why in answer.text, (name, answer.text[-600:])
            short = await sign_up(http, "hana", "short")
            assert short.status_code == 400 and "at least 8" in short.text
            assert (await sign_up(http, "hana", "a long password")).status_code == 303
        async with httpx.AsyncClient(base_url=_web(hall).url, timeout=20) as http:
            again = await sign_up(http, "HANA", "another password")
            assert again.status_code == 400 and "is taken" in again.text


async def test_look_alike_names_cannot_be_signed_up(tmp_path: Path) -> None:
    """A name that looks like a reserved, house or signed-up one (``1`` for ``l``, ``0`` for
    ``o``, any case) is taken; the owner's own spelling is kept."""
    async with serving(tmp_path, "onitama,web", **ONITAMA) as hall:
        from herna.hall.identity import ReservedNames

        ReservedNames(hall.records.engine).add("Alice")
        hall.identity.reload()
        async with httpx.AsyncClient(base_url=_web(hall).url, timeout=20) as http:
            assert (await sign_up(http, "Hana-M", "a long password")).status_code == 303
        async with httpx.AsyncClient(base_url=_web(hall).url, timeout=20) as http:
            for name in ("A1ice", "ALICE", "H0USE-1", "hana-rn", "HANA-M"):
                answer = await sign_up(http, name, "a long password")
                assert answer.status_code == 400 and "is taken" in answer.text, name
        assert "Hana-M" in {r.name for r in ReservedNames(hall.records.engine).list()}


def test_bots_list_shows_people(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from herna.hall.db import make_engine
    from herna.hall.identity import Identity, ReservedNames
    from herna.hall.people import People

    url = f"sqlite:///{tmp_path / 'h.db'}"
    engine = make_engine(url)
    book = ReservedNames(engine)
    book.add("botty", note="a bot")
    People(engine, Identity(book)).sign_up("personne", "a long password")
    assert main(["bots", "list", "--database-url", url]) == 0
    out = capsys.readouterr().out
    cells = [[c.strip() for c in line.strip("│ ").split("│")] for line in out.splitlines()]
    kinds = {row[1]: row[0] for row in cells if len(row) == 4}
    assert kinds["personne"] == "person" and kinds["botty"] == "bot"


# -- home and status -----------------------------------------------------------------------------


@pytest.mark.browser
async def test_home_for_people_and_status_for_operators(tmp_path: Path, browser: Browser) -> None:
    async with serving(tmp_path, "onitama,web", **ONITAMA) as hall:
        web, page = _web(hall), browser.page
        await page.set_viewport_size({"width": 390, "height": 844})
        await page.goto(web.url + "/")
        for part in ("#play-now", "#watch", "#results"):
            await page.locator(part).wait_for()
        assert await page.get_by_role("link", name="Play Onitama").count() == 1
        wide = await page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert wide[0] <= wide[1], wide
        home = await page.content()
        assert "/ws/onitama" not in home and "tcp://" not in home  # internals are on /status
        await page.screenshot(path=screenshot_path("people-home-390"), full_page=True)
        # the keyboard reaches Play from the top of the page
        reached = False
        for _ in range(12):
            await page.keyboard.press("Tab")
            text = await page.evaluate("document.activeElement?.textContent")
            if text == "Play Onitama":
                reached = True
                break
        assert reached
        await page.set_viewport_size({"width": 1280, "height": 900})
        await page.goto(web.url + "/")
        await page.screenshot(path=screenshot_path("people-home-1280"), full_page=True)

        await page.goto(web.url + "/status")
        text = await page.locator("#services").inner_text()
        assert "tcp://127.0.0.1:" in text
        assert f"ws://127.0.0.1:{web.port}/ws/onitama" in text
        assert f"ws://127.0.0.1:{web.port}/ws/live" in text
        await page.screenshot(path=screenshot_path("status-1280"), full_page=True)
        await page.set_viewport_size({"width": 390, "height": 844})
        await page.goto(web.url + "/status")
        await page.screenshot(path=screenshot_path("status-390"), full_page=True)
        async with httpx.AsyncClient(base_url=web.url, timeout=10) as http:
            services = (await http.get("/api/services")).json()
        endpoints = {s["game"]: s["endpoints"] for s in services}
        assert f"ws://127.0.0.1:{web.port}/ws/onitama" in endpoints["onitama"]
        assert f"ws://127.0.0.1:{web.port}/ws/live" in endpoints["web"]
        assert browser.errors == []


# -- proofs of a name ----------------------------------------------------------------------------


def test_issued_proofs_stand_in_for_the_token_until_they_expire_or_are_revoked(
    tmp_path: Path,
) -> None:
    from herna.hall.db import make_engine
    from herna.hall.identity import PROOFS_PER_SESSION, Admission, Identity, ReservedNames
    from herna.hall.people import People

    now = [1000.0]
    identity = Identity(ReservedNames(make_engine(f"sqlite:///{tmp_path / 'p.db'}")))
    identity.clock = lambda: now[0]
    People(identity.book.engine, identity).sign_up("marta", "a long password")  # type: ignore[union-attr]
    proof = identity.issue_proof("marta", "session-1", seconds=60)
    admitted = identity.admit("marta", proof)
    assert isinstance(admitted, Admission) and admitted.verified
    assert identity.admit("marta", None).code == "RESERVED_NAME"  # type: ignore[union-attr]
    assert identity.admit("marta", "guess").code == "BAD_TOKEN"  # type: ignore[union-attr]
    assert not identity.proves("someone-else", proof)
    now[0] += 61
    assert not identity.proves("marta", proof)  # expired
    fresh = [identity.issue_proof("marta", "session-2") for _ in range(PROOFS_PER_SESSION + 2)]
    assert not identity.proves("marta", fresh[0])  # the oldest were retired
    assert identity.proves("marta", fresh[-1])
    other = identity.issue_proof("marta", "session-3")
    assert identity.revoke_proofs("session-2") == PROOFS_PER_SESSION
    assert not identity.proves("marta", fresh[-1])
    assert identity.proves("marta", other)  # another session's proof is untouched


async def test_signing_out_ends_the_session_even_for_a_copy_of_its_cookie(
    tmp_path: Path,
) -> None:
    async with serving(tmp_path, "onitama,web", **ONITAMA) as hall:
        url = _web(hall).url
        async with httpx.AsyncClient(base_url=url, timeout=20) as http:
            assert (await sign_up(http, "libuse", "a long password")).status_code == 303
            page = await http.get("/play/onitama")
            assert 'id="play-name">libuse<' in page.text and '"token":"' in page.text
            copied = http.cookies["herna_session"]
            csrf = CSRF.search((await http.get("/")).text)
            assert csrf
            assert (await http.post("/signout", data={"csrf": csrf.group(1)})).status_code == 303
        # Someone kept a copy of the signed-in cookie: it is signed in no more.
        async with httpx.AsyncClient(
            base_url=url, timeout=20, cookies={"herna_session": copied}
        ) as thief:
            page = await thief.get("/play/onitama")
            assert 'id="play-name">libuse<' not in page.text and '"token"' not in page.text
            assert 'id="signed-in"' not in (await thief.get("/")).text
