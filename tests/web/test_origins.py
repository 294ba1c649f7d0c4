"""Another site's page cannot open the WebSockets that act for a person (issue 27): a real
``herna serve`` with every game and the web hall, real handshakes with and without
``Origin``."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from herna.web.plugin import WebHall
from tests.serve import serving

PERSON_SOCKETS = ("/ws/lobby", "/ws/onitama", "/ws/tiles", "/ws/marias")


async def _handshake(url: str, origin: str | None, cookie: str = "") -> int:
    """The HTTP status of the handshake: 101 when the WebSocket opened."""
    headers = {"Cookie": cookie} if cookie else {}
    try:
        kwargs = {"origin": origin} if origin is not None else {}
        async with connect(url, additional_headers=headers, open_timeout=5, **kwargs):  # type: ignore[arg-type]
            return 101
    except InvalidStatus as exc:
        return exc.response.status_code


async def test_person_sockets_refuse_other_sites_pages(tmp_path: Path) -> None:
    async with serving(
        tmp_path,
        "onitama,tiles,marias,web",
        web_origin=["https://herna.example"],
        tiles_no_showcase=True,
    ) as hall:
        web = hall.service("web")
        assert isinstance(web, WebHall)
        async with httpx.AsyncClient(base_url=web.url) as http:
            await http.get("/lobby")  # a guest session, as a page has
            cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
        ws = "ws" + web.url[len("http") :]
        own = web.url
        for path in PERSON_SOCKETS:
            for evil in ("http://evil.example", "null", own.replace("127.0.0.1", "localhost")):
                assert await _handshake(ws + path, evil, cookie) == 403, (path, evil)
            # This hall's own pages, the reverse proxy's origin, and programs (no Origin).
            for origin in (own, "https://herna.example", None):
                assert await _handshake(ws + path, origin, cookie) == 101, (path, origin)
        # The spectators' live frames act for nobody: any page may show them.
        assert await _handshake(ws + "/ws/live", "http://evil.example") == 101


@pytest.mark.parametrize("flag", ["--web-origin"])
def test_the_option_is_in_help(flag: str, capsys: pytest.CaptureFixture[str]) -> None:
    from herna.cli import main

    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    assert flag in capsys.readouterr().out
