"""`herna` as a user runs it: every command has --help; `herna serve` starts, plays with house
bots, writes records, and shuts down cleanly on SIGTERM."""

from __future__ import annotations

import contextlib
import gc
import json
import os
import resource
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from herna.cli import build_parser

HERNA = [sys.executable, "-m", "herna.cli"]


def all_commands() -> list[list[str]]:
    """Every command path of the CLI (``[]``, ``["serve"]``, ``["bot", "mia"]`` …)."""
    out: list[list[str]] = [[]]

    def walk(parser: object, path: list[str]) -> None:
        for action in getattr(parser, "_actions", []):
            choices = getattr(action, "choices", None)
            if isinstance(choices, dict):
                for name, sub in choices.items():
                    out.append([*path, name])
                    walk(sub, [*path, name])

    walk(build_parser(), [])
    return out


@pytest.mark.parametrize("command", all_commands(), ids=lambda c: " ".join(c) or "herna")
def test_every_command_has_help(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    argv = [*command, "--help"]
    with pytest.raises(SystemExit) as exit_info:
        build_parser().parse_args(argv)
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: herna")
    assert len(out.splitlines()) >= 3
    # `herna` builds only the part of the parser its words name: the same help
    with pytest.raises(SystemExit):
        build_parser(argv).parse_args(argv)
    assert capsys.readouterr().out == out


def test_a_command_imports_only_what_it_runs() -> None:
    """`herna bot mia` starts without the web hall, the servers' CLI or the match runner
    (together seconds of start-up on a busy machine)."""
    probe = (
        "import sys; from herna.cli import build_parser; build_parser(['bot', 'mia']); "
        "print(sorted(m for m in ('herna.web.app', 'herna.cli.serve', 'herna.cli.match', "
        "'herna.cli.onitama', 'herna.cli.tiles') if m in sys.modules))"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True
    )
    assert out.stdout.strip() == "[]"


def free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize("stop", ["SIGTERM", "Ctrl-C to the process group"])
def test_serve_plays_records_and_stops_cleanly(tmp_path: Path, stop: str) -> None:
    port = free_udp_port()
    db = tmp_path / "herna.db"
    config = tmp_path / "herna.toml"
    config.write_text(
        f'[serve]\ndatabase-url = "sqlite:///{db}"\n'
        "[mia]\nround_pause = 0.05\nhouse_round_pause = 0.1\n"
    )
    proc = subprocess.Popen(
        [
            *HERNA,
            "serve",
            "--only",
            "mia",
            "--mia-port",
            str(port),
            "--config",
            str(config),
            "--log-json",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        probe.settimeout(0.5)
        deadline = time.monotonic() + 30
        registered = False
        while time.monotonic() < deadline and not registered:
            probe.sendto(b"REGISTER_SPECTATOR;tester", ("127.0.0.1", port))
            with contextlib.suppress(OSError):
                registered = probe.recv(512) == b"REGISTERED"
        assert registered, "herna serve did not answer on its Mia port"
        lost = 0
        while time.monotonic() < deadline and lost < 5:
            try:
                if probe.recv(512).startswith(b"PLAYER LOST;"):
                    lost += 1
            except OSError:
                pass
        assert lost >= 5, "house bots did not play"
        probe.close()
    finally:
        if stop == "SIGTERM":
            proc.send_signal(signal.SIGTERM)
        else:  # what a terminal does: every process of the group gets SIGINT
            os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    lines = [json.loads(line) for line in err.splitlines() if line.startswith("{")]
    messages = [line["msg"] for line in lines]
    assert any("listening on udp://127.0.0.1" in m for m in messages)
    # Mia is summarised (one line per stretch of rounds), not a line per round.
    summaries = [line for line in lines if line.get("event") == "mia_summary"]
    assert summaries and not any(m.startswith("round ") for m in messages)
    assert messages[-1].startswith("stopped;")
    assert "Traceback" not in err
    logged_rounds = sum(line["rounds"] + line["canceled"] for line in summaries)
    # The rounds are in the database and `herna replay` lists them.
    out = subprocess.run(
        [*HERNA, "replay", "--database-url", f"sqlite:///{db}", "--json", "--game", "mia"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rounds = json.loads(out)
    assert len(rounds) >= 5
    everything = subprocess.run(
        [*HERNA, "replay", "--database-url", f"sqlite:///{db}", "--json", "--limit", "100000"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert len(json.loads(everything)) == logged_rounds  # no round lost at shutdown
    assert {p["name"] for p in rounds[0]["players"]} <= {
        "house-honest",
        "house-prob",
        "house-random",
    }
    if stop != "SIGTERM":
        return  # one round told in words is enough (each herna command is seconds of start-up)
    one = subprocess.run(
        [*HERNA, "replay", str(rounds[0]["id"]), "--database-url", f"sqlite:///{db}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "rolls" in one and "Result:" in one  # the round told in words (herna replay ID)


def test_serve_rejects_unknown_server_name() -> None:
    result = subprocess.run(
        [*HERNA, "serve", "--only", "nosuchgame"], capture_output=True, text=True, timeout=60
    )
    assert result.returncode != 0
    assert "unknown server" in result.stderr


def test_tune_gc_freezes_start_up_objects_and_collects_less_often() -> None:
    from herna.cli.serve import GC_THRESHOLDS, tune_gc

    before = gc.get_threshold()
    try:
        tune_gc()
        assert gc.get_threshold() == GC_THRESHOLDS
        assert GC_THRESHOLDS[0] > before[0]
        assert gc.get_freeze_count() > 1000  # modules, classes and functions loaded so far
        survivors = [[i] for i in range(GC_THRESHOLDS[0] // 2)]
        counts = gc.get_count()
        assert counts[0] >= len(survivors)  # no young collection has run yet
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_raise_file_limit_lifts_the_soft_limit_towards_the_hard_one() -> None:
    from herna.cli.serve import FILE_LIMIT, raise_file_limit

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))
        got = raise_file_limit()
        expected = FILE_LIMIT if hard == resource.RLIM_INFINITY else min(hard, FILE_LIMIT)
        assert got == expected
        assert resource.getrlimit(resource.RLIMIT_NOFILE) == (expected, hard)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


EXAMPLE = Path(__file__).resolve().parent.parent / "herna.example.toml"


def test_every_key_of_the_example_config_is_an_option_of_its_server() -> None:
    import argparse as ap

    from herna.cli.serve import load_config
    from herna.servers.registry import load_plugins

    config = load_config(EXAMPLE)
    plugins = {p.name: p for p in load_plugins()}
    assert set(config) - {"serve"} <= set(plugins)
    for name, section in config.items():
        if name == "serve":
            continue
        group = ap.ArgumentParser().add_argument_group(name)
        plugins[name].add_arguments(group)
        dests = {action.dest for action in group._group_actions}
        prefix = {dest.split("_", 1)[0] for dest in dests}
        assert len(prefix) == 1, dests
        (prefix_name,) = prefix
        unknown = [key for key in section if f"{prefix_name}_{key}" not in dests]
        assert not unknown, f"[{name}] keys that are no option of {name}: {unknown}"


async def test_the_example_config_starts_every_server(tmp_path: Path) -> None:
    from herna.cli.serve import load_config
    from tests.serve import serving

    config = load_config(EXAMPLE)
    async with serving(tmp_path, "mia,onitama,marias,tiles,web", config=config) as hall:
        onitama = hall.service("onitama")
        assert onitama is not None
        assert onitama.hub.settings.login_timeout == config["onitama"]["login_timeout"]
        mia = hall.service("mia")
        assert mia is not None
        assert mia.table.settings.house_round_pause == config["mia"]["house_round_pause"]
        assert len(hall.services) == 5


def test_python_dash_m_herna_is_the_herna_command() -> None:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    done = subprocess.run(
        [sys.executable, "-m", "herna", "--version"], capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("herna ")
