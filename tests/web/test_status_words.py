"""The Status page's words from the servers (herna.web.pages.service_words, value_words): the
servers' protocol names, endpoint notes, table phases and game codes, which the JSON API keeps
in English or as codes, are said in Czech on a Czech page; the list the web layer knows is
checked against the servers' own English, so a renamed protocol cannot fall back unnoticed."""

from __future__ import annotations

import inspect
import re

from herna.servers.cgml import CgmlService
from herna.servers.mia import MiaService
from herna.servers.onitama import OnitamaService
from herna.servers.tiles import TilesService
from herna.web.pages import service_words, status_script_words, value_words
from herna.web.plugin import WebHall
from herna.web.snapshot_words import SERVICE_WORDS


def test_the_web_layer_knows_every_servers_protocol_and_endpoint_note() -> None:
    services = (MiaService, OnitamaService, CgmlService, TilesService, WebHall)
    assert {s.protocol for s in services} <= SERVICE_WORDS
    notes = {
        note
        for s in (MiaService, CgmlService)
        for note in re.findall(r" \(([^(){}]+)\)\"", inspect.getsource(s.endpoints))
    }
    assert len(notes) == 4 and "the people's table" in notes, notes
    assert notes <= SERVICE_WORDS


def test_a_czech_status_page_says_protocols_endpoints_phases_and_games(czech: None) -> None:
    said = service_words("Onitama TCP (seed 003; line and NUL dialects)")
    assert said.startswith("Onitama přes TCP") and "dialekt" in said, said
    people = service_words("udp://127.0.0.1:18101 (the people's table)")
    assert people == "udp://127.0.0.1:18101 (stůl pro lidi)", people
    assert "login" not in service_words("tcp://127.0.0.1:9001 (login: players, bots)")
    assert service_words("tcp://127.0.0.1:18110") == "tcp://127.0.0.1:18110"  # no note: as it is
    assert value_words("between") == "mezi koly" and value_words("idle") == "čeká na hráče"
    assert value_words("onitama") == "Onitama" and value_words("marias") == "Mariáš"
    assert value_words("house-1") == "house-1"  # a name stays as written
    values = status_script_words()["values"]  # the page's script refreshes them alike
    assert values["between"] == "mezi koly" and values["tiles"] == value_words("tiles")
