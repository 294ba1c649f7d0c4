"""Logging for every Herna command: readable lines by default, JSON lines with
``--log-format json``.

Game lines carry their facts twice: in words in the message, for people, and as ``fields``
(``extra={"fields": {...}}``), which the JSON format puts at the top level of the object, so
a log shipper can filter on ``game`` or ``players`` without parsing English.
"""

from __future__ import annotations

import json
import logging
import sys
import time

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
LOG_FORMATS = ("text", "json")


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        extra = getattr(record, "fields", None)
        if isinstance(extra, dict):
            out.update(extra)
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


def setup_logging(level: str = "INFO", as_json: bool = False) -> None:
    handler = logging.StreamHandler(sys.stderr)
    if as_json:
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(
            logging.Formatter("%(asctime)s %(levelname)-5s %(name)s: %(message)s", "%H:%M:%S")
        )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    # Library chatter stays at WARNING unless asked for.
    for noisy in ("sqlalchemy", "alembic", "uvicorn.access", "websockets", "asyncio"):
        logging.getLogger(noisy).setLevel(max(logging.WARNING, root.level))
