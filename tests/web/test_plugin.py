"""The web hall as a `herna serve` plugin: options, registry position, clean errors."""

from __future__ import annotations

import argparse
import socket
from pathlib import Path

import httpx
import pytest

from herna.cli import build_parser
from herna.hall.hall import Hall
from herna.hall.records import RecordStore
from herna.servers.registry import PLUGIN_PATHS
from herna.web.plugin import PLUGIN, WebHall


def test_the_web_hall_is_the_last_plugin_and_documents_its_options(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert PLUGIN_PATHS[-1] == "herna.web.plugin:PLUGIN"
    assert PLUGIN.name == "web"
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--help"])
    out = capsys.readouterr().out
    for option in (
        "--web-port",
        "--web-host",
        "--web-interval",
        "--web-send-budget",
        "--web-max-spectators",
    ):
        assert option in out


async def test_options_come_from_the_command_line_or_the_config(tmp_path: Path) -> None:
    hall = Hall(records=RecordStore(f"sqlite:///{tmp_path / 'w.db'}"))
    args = argparse.Namespace(
        host="127.0.0.1",
        web_port=None,
        web_host=None,
        web_interval=None,
        web_max_spectators=None,
        web_send_budget=123.0,
    )
    config = {"port": 0, "interval": 0.25, "max-spectators": 7, "send-budget": 9}
    web = await PLUGIN.start(hall, args, config)
    try:
        assert isinstance(web, WebHall)
        assert web.port != 0 and web.hub.settings.interval == 0.25
        assert web.hub.settings.max_clients == 7
        assert web.hub.settings.send_budget == 123.0  # the command line beats the config
        assert web.hub.settings.interval_for(246) == 2.0
        assert web.endpoints() == [
            f"http://127.0.0.1:{web.port}/",
            f"ws://127.0.0.1:{web.port}/ws/live",
        ]
        async with httpx.AsyncClient(base_url=web.url) as http:
            assert (await http.get("/")).status_code == 200
        assert web.snapshot()["clients"] == 0
    finally:
        await web.stop()
        hall.records.close()


async def test_a_web_hall_alone_in_its_process_sends_more_frames(tmp_path: Path) -> None:
    """With game servers on its event loop the web hall keeps to 500 frames/s; alone in its
    process (the live tier of docs/scaling.md) it may send 10,000 and takes more
    spectators."""
    from tests.serve import serving

    async with serving(tmp_path, "web") as alone, serving(tmp_path / "b", "mia,web") as shared:
        web_alone, web_shared = alone.service("web"), shared.service("web")
        assert isinstance(web_alone, WebHall) and isinstance(web_shared, WebHall)
        assert (web_alone.hub.settings.send_budget, web_alone.hub.settings.max_clients) == (
            10_000.0,
            10_000,
        )
        assert (web_shared.hub.settings.send_budget, web_shared.hub.settings.max_clients) == (
            500.0,
            2000,
        )
        # 5,000 spectators: a frame every 0.5 s from a live tier, every 10 s beside games
        assert web_alone.hub.settings.interval_for(5000) == 0.5
        assert web_shared.hub.settings.interval_for(5000) == 10.0


async def test_a_busy_port_is_a_clean_error(tmp_path: Path) -> None:
    hall = Hall(records=RecordStore(f"sqlite:///{tmp_path / 'w.db'}"))
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        args = argparse.Namespace(host="127.0.0.1", web_port=port)
        with pytest.raises(SystemExit, match="cannot listen"):
            await PLUGIN.start(hall, args, {})
    hall.records.close()
