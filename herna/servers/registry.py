"""The servers `herna serve` can start. Each game server module exposes a ``PLUGIN``; adding a
server to Herna is one line in :data:`PLUGIN_PATHS`.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from herna.hall.hall import Hall, Service

T = TypeVar("T")

PLUGIN_PATHS: list[str] = [
    "herna.servers.mia:PLUGIN",
    "herna.servers.onitama:PLUGIN",
    "herna.servers.cgml:PLUGIN",
    "herna.servers.tiles:PLUGIN",
    "herna.web.plugin:PLUGIN",
]
"""``module:attribute`` of every server plugin, in start order (the web hall last)."""


@dataclass(frozen=True)
class ServerPlugin:
    name: str
    """Name used by ``--only`` and as the config section in ``herna.toml``."""

    help: str
    add_arguments: Callable[[argparse._ArgumentGroup], None]
    """Adds this server's options (``--<name>-port`` ...); defaults must be ``None`` so that
    values from ``herna.toml`` can fill them (see :func:`option`)."""

    start: Callable[[Hall, argparse.Namespace, dict[str, Any]], Awaitable[Service]]
    """Start the server; receives the parsed options and this plugin's config section."""


def load_plugins() -> list[ServerPlugin]:
    plugins = []
    for path in PLUGIN_PATHS:
        module_name, _, attr = path.partition(":")
        plugins.append(getattr(importlib.import_module(module_name), attr))
    return plugins


def option(args: argparse.Namespace, config: dict[str, Any], name: str, default: T) -> T:
    """Command line beats ``herna.toml`` beats the built-in default."""
    value = getattr(args, name, None)
    if value is not None:
        return value  # type: ignore[no-any-return]
    key = name.split("_", 1)[1] if "_" in name else name
    if key in config:
        return config[key]  # type: ignore[no-any-return]
    if name in config:
        return config[name]  # type: ignore[no-any-return]
    return default
