"""Bad input never gets a 5xx from the web hall: huge and negative ids, NUL and other control
characters, non-UTF-8 bytes, invalid percent-encoding, bad query values, bad methods and raw
garbage on the socket all get 400/404/405 (or uvicorn's 400 for what is not HTTP), with a
JSON error from ``/api/...`` and an HTML page elsewhere, and the hall serves normal requests
afterwards. Run against a real ``herna serve --only web`` on SQLite and on PostgreSQL (which,
unlike SQLite, refuses NUL in text and 64-bit ids in an INTEGER column)."""

from __future__ import annotations

import asyncio
import json
import re
import socket
from collections.abc import AsyncIterator
from datetime import UTC, timedelta, timezone
from pathlib import Path
from urllib.parse import quote, urlencode

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine

from herna.hall.hall import Hall
from herna.web import openapi
from herna.web.params import MAX_ID
from herna.web.plugin import WebHall
from tests.serve import serving
from tests.web.helpers import play_mia_round

HUGE = "99999999999999999999"


@pytest.fixture
async def hall(tmp_path: Path, database_url: str) -> AsyncIterator[Hall]:
    """``herna serve --only web`` on a free port, one Mia round on record."""
    async with serving(tmp_path, "web", database_url=database_url, web_request_timeout=2.0) as hall:
        hall.records.save(play_mia_round(1, ["alice", "bob"], seed=7))
        yield hall


def web_of(hall: Hall) -> WebHall:
    web = hall.service("web")
    assert isinstance(web, WebHall)
    return web


async def exchange(port: int, data: bytes, timeout: float = 10.0) -> bytes:
    """Send raw bytes on a fresh connection; everything the hall answers until it closes (or
    until it has said enough: uvicorn keeps good connections open)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(data)
        await writer.drain()
        got = b""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            try:
                chunk = await asyncio.wait_for(reader.read(65536), deadline - loop.time())
            except TimeoutError:
                break
            if not chunk:
                break
            got += chunk
            if _complete(got):
                break
        return got
    finally:
        writer.close()


def _complete(data: bytes) -> bool:
    head, sep, body = data.partition(b"\r\n\r\n")
    if not sep:
        return False
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return len(body) >= int(value.strip())
    return True


def status_of(response: bytes) -> int | None:
    """The status code of a raw HTTP response (None: the hall closed without one)."""
    if not response:
        return None
    line = response.split(b"\r\n", 1)[0].split()
    assert line[0].startswith(b"HTTP/1."), response[:200]
    return int(line[1])


def request(method: str, target: bytes | str, *headers: bytes) -> bytes:
    raw = target.encode("latin-1") if isinstance(target, str) else target
    lines = [method.encode() + b" " + raw + b" HTTP/1.1", b"Host: 127.0.0.1", *headers]
    return b"\r\n".join([*lines, b"Connection: close", b"", b""])


# Requests that are HTTP but carry input no route can take. Each reaches the application.
BAD_TARGETS: list[str | bytes] = [
    f"/api/matches/{HUGE}",
    f"/api/matches/{HUGE}/replay",
    f"/matches/{HUGE}",
    "/api/matches/" + "9" * 5000,  # beyond int()'s digit limit
    f"/api/matches/{MAX_ID + 1}",  # one past the INTEGER column
    "/api/matches/-1",
    "/api/matches/0",
    "/matches/-5",
    "/api/matches/1e9",
    "/api/matches/0x10",
    "/api/matches/%D9%A3",  # an Arabic-Indic three: int() would take it
    "/api/matches/%00",
    "/api/matches/1%00",
    "/api/matches/abc/replay",
    "/api/matches?limit=%00",
    "/api/matches?limit=-1",
    "/api/matches?limit=0",
    f"/api/matches?limit={HUGE}",
    "/api/matches?limit=1e3",
    "/api/matches?limit=%D9%A3",
    f"/api/matches?offset={HUGE}",
    "/api/matches?offset=-0",
    "/api/matches?game=%00",
    "/api/matches?game=" + "g" * 5000,
    "/api/matches?player=%00alice",
    "/api/matches?player=%1b[31m",
    "/api/matches?since=%00",
    "/api/matches?since=yesterday",
    "/api/matches?since=2024-13-45",
    "/api/matches?since=99999-01-01",
    "/api/matches?until=9999-12-31",  # the day after does not exist
    "/api/matches?since=0001-01-01T00:00:00%2B14:00",  # before year 1 in UTC
    "/api/matches?until=9999-12-31T23:59:59-14:00",  # after 9999 in UTC
    "/api/matches?limit=%zz",
    "/api/matches?limit=%",
    "/api/matches?since=%f",
    "/api/players?limit=%00",
    "/api/players?limit=100000",
    "/api/players?prefix=%00",
    "/api/players?game=%00&prefix=%25",
    "/api/players/%00",
    "/api/players/" + "n" * 5000,
    "/api/standings/%00",
    "/api/standings/%7f",
    "/api/live?game=%00",
    "/api/live?table=a%0ab",
    "/api/nothing-here",
    "/history?since=%00",
    f"/history?offset={HUGE}",
    "/history?game=%00",
    "/players?game=%00",
    "/players?name=%00",
    "/players/%00",
    "/live/%00",
    "/live/mia/%00",
    "/doc/%00.md",
    "/doc/%ff.md",
    "/doc/web.md?raw=%00",
    "/static/%00",
    "/static/%ff",
    "/static/../../etc/passwd",
    "/%%%",
    "/nothing-here",
]

# Odd but harmless: decoded with U+FFFD for what is not UTF-8 (non-UTF-8 bytes, a lone
# surrogate's encoding, an overlong "/"), they are names nobody has; any answer but a 5xx.
ODD_TARGETS = [
    "/api/players/%ff%fe",
    "/api/matches?player=%ff%fe",
    "/api/standings/%ed%a0%80",
    "/players/%c0%af",
    "/history?player=%ff",
    "/api/live?game=%ff",
    "/doc/web.md?raw=%ff",
    "/signin?next=%00",
    "/signin?next=%ff",
    "/signup?next=//evil.test/",
    "/signin?next=" + "a" * 5000,
]

BAD_METHODS = ["POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"]

# Bytes that are not a well-formed HTTP request at all: uvicorn answers these itself.
GARBAGE: list[bytes] = [
    b"GARBAGE\r\n\r\n",
    b"\x00\x01\x02\x03\r\n\r\n",
    b"\xff\xfe\xfd\r\n\r\n",
    b"GET\r\n\r\n",
    b"GET /\r\n\r\n",
    b"GET / HTTP/1.1 extra\r\nHost: x\r\n\r\n",
    b"GET  /  HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET / HTTP/1.1\nHost: x\n\n",
    b"GET / HTTP/9.9\r\nHost: x\r\n\r\n",
    b"GET / FTP/1.0\r\n\r\n",
    # A method HTTP has not registered: the parser (httptools) answers 400 before any route.
    b"BREW /history HTTP/1.1\r\nHost: x\r\n\r\n",
    b"G\x00T / HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /api/players/\xff\xfe HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /api/matches?game=\xff\xfe HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /api/matches?limit=\xd9\xa3 HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /\x00 HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /a b HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET / HTTP/1.1\r\nBad Header\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nBad Header: x\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nX : y\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nX: a\x00b\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nX: \xff\xfe\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\n: novalue\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\n continued\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n",
    b"GET / HTTP/1.1\r\n\r\n",  # HTTP/1.1 without Host
    b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
    b"GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n",
    b"POST /api/matches HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nX: " + b"a" * 100_000 + b"\r\n\r\n",  # one huge header
    b"GET / HTTP/1.1\r\nHost: x\r\n" + b"X-Many: y\r\n" * 5000 + b"\r\n",  # very many
    b"GET /" + b"a" * 100_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",  # a huge target
    b"GET /?" + b"a=%ff&" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
    b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",  # an HTTP/2 preface
    bytes.fromhex("16030100a5010000a10303") + b"\x00" * 64 + b"\r\n\r\n",  # a TLS hello
    b"GET /ws/live HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
    b"GET /ws/live HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: short\r\nSec-WebSocket-Version: 99\r\n\r\n",
    b"GET /ws/tiles HTTP/1.1\r\nHost: x\r\n\r\n",
    b"\r\n\r\n\r\n\r\n",
]


def parse(response: bytes) -> tuple[dict[str, str], bytes]:
    """(headers with lower-case names, body) of a raw HTTP response."""
    head, _, body = response.partition(b"\r\n\r\n")
    headers = {
        k.strip().lower().decode("latin-1"): v.strip().decode("latin-1")
        for k, _, v in (line.partition(b":") for line in head.split(b"\r\n")[1:])
    }
    return headers, body


def assert_error_body(target: str, content_type: str, body: bytes) -> None:
    """An error from the application: JSON ``{"error": ...}`` for the API, else HTML."""
    if target.startswith("/api/"):
        assert content_type.startswith("application/json"), (target, body[:300])
        error = json.loads(body)["error"]
        assert isinstance(error, str) and error, (target, body[:300])
    else:
        assert content_type.startswith("text/html"), (target, body[:300])
        assert b'<p class="error">' in body, (target, body[:300])


async def assert_serves_normally(web: WebHall) -> None:
    async with httpx.AsyncClient(base_url=web.url, timeout=10) as http:
        assert (await http.get("/")).status_code == 200
        page = (await http.get("/api/matches")).json()
        assert page["total"] == 1
        match_id = page["matches"][0]["id"]
        assert (await http.get(f"/api/matches/{match_id}/replay")).status_code == 200
        assert (await http.get(f"/matches/{match_id}")).status_code == 200
        assert (await http.get("/api/players/alice")).status_code == 200


async def test_bad_requests_get_400_404_or_405_with_an_error_body(hall: Hall) -> None:
    web = web_of(hall)
    for target in BAD_TARGETS:
        text = target if isinstance(target, str) else target.decode("latin-1")
        response = await exchange(web.port, request("GET", target))
        status = status_of(response)
        assert status in (400, 404), (text[:200], response[:400])
        headers, body = parse(response)
        assert_error_body(text, headers.get("content-type", ""), body)
    for target in ODD_TARGETS:
        response = await exchange(web.port, request("GET", target))
        status = status_of(response)
        assert status is not None and status < 500, (target, response[:400])
        if status >= 400:
            headers, body = parse(response)
            assert_error_body(target, headers.get("content-type", ""), body)
    for method in BAD_METHODS:
        for target in ("/api/matches", "/api/matches/1", "/history", "/matches/1"):
            response = await exchange(web.port, request(method, target, b"Content-Length: 0"))
            assert status_of(response) == 405, (method, target, response[:300])
            headers, body = parse(response)
            assert set(headers["allow"].split(", ")) == {"GET", "HEAD"}
            assert_error_body(target, headers.get("content-type", ""), body)
    await assert_serves_normally(web)


async def test_the_ids_of_the_issue_are_404s_not_500s(hall: Hall) -> None:
    async with httpx.AsyncClient(base_url=web_of(hall).url) as http:
        for path in (f"/api/matches/{HUGE}", f"/api/matches/{HUGE}/replay"):
            answer = await http.get(path)
            assert answer.status_code == 404
            assert answer.json() == {"error": "no such match: match ids are 1 to 2147483647"}
        page = await http.get(f"/matches/{HUGE}")
        assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
        assert "no such match" in page.text and 'href="/history"' in page.text  # the layout
        bad = await http.get("/api/matches", params={"limit": "lots"})
        assert bad.status_code == 400
        assert bad.json() == {"error": "limit: must be a whole number from 1 to 500"}
        nul = await http.get("/api/players/a%00b")
        assert nul.status_code == 400
        assert nul.json() == {"error": "name: control characters are not allowed"}
        moved = await http.post("/api/matches")
        assert moved.status_code == 405 and "read-only" in moved.json()["error"]
        missing = await http.get("/api/nothing")
        assert missing.status_code == 404 and missing.json() == {"error": "no such API route"}


async def test_raw_garbage_never_gets_a_5xx_and_the_hall_keeps_serving(hall: Hall) -> None:
    web = web_of(hall)
    for data in GARBAGE:
        status = status_of(await exchange(web.port, data))
        # uvicorn answers what is not HTTP with 400 itself (or just closes); WebSocket
        # handshakes it cannot complete are 400/404; a few odd-but-valid ones reach a page.
        assert status is None or status < 500, (data[:80], status)
    await assert_serves_normally(web)


_TEMPLATES = [
    "/api/matches/{}",
    "/api/matches/{}/replay",
    "/api/standings/{}",
    "/api/players/{}",
    "/matches/{}",
    "/players/{}",
    "/live/{}",
    "/live/mia/{}",
    "/doc/{}",
]
_QUERY_PATHS = ["/api/matches", "/api/players", "/api/live", "/history", "/players", "/"]
_KEYS = ["game", "player", "since", "until", "limit", "offset", "prefix", "table", "name", "raw"]

_ZONES = [UTC, timezone(timedelta(hours=14)), timezone(-timedelta(hours=14))]
_values = st.one_of(
    st.text(max_size=40),
    st.integers(min_value=-(10**25), max_value=10**25).map(str),
    st.dates().map(str),
    st.datetimes(timezones=st.sampled_from(_ZONES)).map(lambda d: d.isoformat()),
    st.sampled_from(["", "%", "%zz", "%ff", "%00", "0", "-0", "1e3", "9" * 30]),
)


def _segment(value: str) -> str:
    # Mostly a properly encoded value; sometimes the raw characters percent signs and all
    # (printable ASCII only: an HTTP client cannot even send a raw control character).
    raw = value.startswith("%") and value.isascii() and value.isprintable()
    return value if raw else quote(value, safe="")


@st.composite
def _targets(draw: st.DrawFn) -> str:
    if draw(st.booleans()):
        template = draw(st.sampled_from(_TEMPLATES))
        return template.format(_segment(draw(_values)) or "x")
    path = draw(st.sampled_from(_QUERY_PATHS))
    query = draw(st.dictionaries(st.sampled_from(_KEYS), _values, max_size=4))
    return path + "?" + urlencode(query)


# Each example is a real request to a real web hall (a page can take 0.2 s to render on
# a busy machine): 60 examples per database keep the suite's time in bounds.
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(target=_targets())
async def test_fuzzed_paths_and_queries_never_get_a_5xx(hall: Hall, target: str) -> None:
    web = web_of(hall)
    async with httpx.AsyncClient(base_url=web.url, timeout=10) as http:
        answer = await http.get(target)
    assert answer.status_code < 500, (target, answer.text[:300])
    if answer.status_code >= 400:
        assert_error_body(target, answer.headers.get("content-type", ""), answer.content)


async def test_openapi_documents_the_parameters_checked_and_the_errors(hall: Hall) -> None:
    web = web_of(hall)
    async with httpx.AsyncClient(base_url=web.url) as http:
        spec = (await http.get("/openapi.json")).json()
    # Generated from the routes the app serves, the same every time.
    routes = web.web.starlette.routes
    assert spec == json.loads(json.dumps(openapi.spec(openapi.api_operations(routes))))
    for route in web.web.starlette.routes:
        path = getattr(route, "path", "")
        if not path.startswith("/api/"):
            continue
        doc_path = path.replace(":path}", "}")
        item = spec["paths"][doc_path]
        if "get" not in item:
            # The live tournaments' POST routes: their path parameters documented, every
            # error in the Error schema.
            op = item["post"]
            names = [p["name"] for p in op.get("parameters", [])]
            assert names == re.findall(r"\{(\w+)", doc_path), path
            for code, response in op["responses"].items():
                if not code.startswith("2"):
                    schema = response["content"]["application/json"]["schema"]
                    assert schema == {"$ref": "#/components/schemas/Error"}, (path, code)
            continue
        op = item["get"]
        checked = getattr(route.endpoint, "params", ())  # type: ignore[attr-defined]
        assert [p["name"] for p in op.get("parameters", [])] == [p.name for p in checked], path
        codes = set(op["responses"])
        if any(p.where == "query" or p.kind == "text" for p in checked):
            assert "400" in codes, path
        if any(p.where == "path" for p in checked):
            assert "404" in codes or "400" in codes, path
        for code, response in op["responses"].items():
            if code != "200":
                schema = response["content"]["application/json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/Error"}, (path, code)
    match_id = spec["paths"]["/api/matches/{match_id}"]["get"]["parameters"][0]
    assert match_id["schema"] == {"type": "integer", "minimum": 1, "maximum": MAX_ID}


async def test_a_database_gone_away_is_a_503_not_a_500(hall: Hall) -> None:
    """What the hall cannot help (its database stopped answering) is ``503``, in the same
    JSON or HTML form; the web hall itself keeps running."""
    web = web_of(hall)
    store = hall.records
    working = store.engine
    with socket.socket() as s:  # a port nobody listens on: a PostgreSQL that is down
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    store.engine = create_engine(f"postgresql+psycopg://herna@127.0.0.1:{port}/herna")
    try:
        async with httpx.AsyncClient(base_url=web.url, timeout=10) as http:
            api = await http.get("/api/matches")
            assert api.status_code == 503
            assert api.json() == {"error": "the database is unavailable; try again shortly"}
            page = await http.get("/history")
            assert page.status_code == 503 and '<p class="error">' in page.text
            assert (await http.get("/docs")).status_code == 200  # no database needed
    finally:
        store.engine.dispose()
        store.engine = working
    await assert_serves_normally(web)


# -- the account forms (POST) and the session cookie -------------------------------------------

FORM_PATHS = ["/signin", "/signup", "/signout", "/tournaments/new", "/tournaments/1/admin"]
FORM_FIELDS = ["csrf", "name", "password", "next", "x", "token", "action", "game", "format"]
FORM_FIELDS += ["admits", "rounds", "minutes", "start_timeout"]
_bodies = st.one_of(
    st.binary(max_size=300),
    st.dictionaries(st.sampled_from(FORM_FIELDS), _values, max_size=6).map(
        lambda d: urlencode(d).encode()
    ),
)
_content_types = st.sampled_from(
    [
        "application/x-www-form-urlencoded",
        "application/x-www-form-urlencoded; charset=latin-1",
        "multipart/form-data; boundary=x",
        "application/json",
        "text/plain",
        "",
    ]
)
_cookies = st.one_of(
    st.just(""),
    st.text(alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E), max_size=200),
    st.sampled_from(["e30=", "null", "e30=.aaaa.bbbb", "eyJwZXJzb24iOiJ4In0=.x.y"]),
)


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    path=st.sampled_from(FORM_PATHS),
    body=_bodies,
    content_type=_content_types,
    cookie=_cookies,
    with_csrf=st.booleans(),
)
async def test_fuzzed_account_forms_never_get_a_5xx(
    hall: Hall, path: str, body: bytes, content_type: str, cookie: str, with_csrf: bool
) -> None:
    """Junk bodies, content types and cookies on the POST forms: 303, 400, 403, 413 or 429
    with the form's HTML error, never a 5xx; with the session's real CSRF token too. (A
    tournament form may also succeed, 200, or find the tournament in the wrong state, 409.)"""
    web = web_of(hall)
    async with httpx.AsyncClient(base_url=web.url, timeout=20) as http:
        if cookie:
            http.cookies.set("herna_session", cookie)
        if with_csrf:
            form = await http.get("/signup")
            assert form.status_code == 200
            token = form.text.split('name="csrf" value="', 1)[1].split('"', 1)[0]
            body = body + b"&csrf=" + token.encode()
        headers = {"content-type": content_type} if content_type else {}
        answer = await http.post(path, content=body, headers=headers)
    allowed = {303, 400, 403, 413, 429} | ({200, 409} if path.startswith("/tournaments") else set())
    assert answer.status_code in allowed, (path, body[:80], answer.text[:300])
    if answer.status_code >= 400:
        assert_error_body(path, answer.headers.get("content-type", ""), answer.content)


async def test_a_huge_form_is_413_and_junk_cookies_are_ignored(hall: Hall) -> None:
    web = web_of(hall)
    async with httpx.AsyncClient(base_url=web.url, timeout=20) as http:
        big = await http.post(
            "/signin",
            content=b"name=" + b"a" * 100_000,
            headers={"content-type": "application/x-www-form-urlencoded"},
        )
        assert big.status_code == 413
        for junk in ["%00", "x" * 3000, "\\u0000", "e30=.bad.sig"]:
            http.cookies.set("herna_session", junk)
            for path in ("/", "/signin", "/signup", "/players"):
                assert (await http.get(path)).status_code == 200, (junk, path)
    await assert_serves_normally(web)
