"""How the server's log lines look: uvicorn's logging set-up with our changes, for ``serve`` and its
start-up child (``app/prepare.py``).

Every line names the process that wrote it (``pid``): with several workers two lines such as "now
the leader" a second apart must be told apart.  With ``log_format`` ``json`` each line is one JSON
object (python-json-logger) holding the message once, without uvicorn's ``color_message`` (the
same message again, with ANSI colour escapes).  A worker that died (killed, out of memory) is a
warning, not news: uvicorn's supervisor says it at INFO.  A start-up that fails says so in one line
when the logs are JSON (:func:`exit_on_failure`), not with a traceback a log collector splits into
a hundred lines.
"""

from __future__ import annotations

import copy
import json
import logging
import logging.config
import os
import re
import sys
import traceback
from collections.abc import Callable
from typing import Any

from pythonjsonlogger.json import JsonFormatter
from uvicorn.config import LOGGING_CONFIG

ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")
"""An ANSI control sequence (colours, cursor moves), as uvicorn's coloured messages hold them."""
JSON_FIELDS = "%(asctime)s %(levelname)s %(name)s %(process)d %(message)s"
UVICORN_DROPPED_FIELDS = ("color_message",)


class PlainJsonFormatter(JsonFormatter):
    """python-json-logger's formatter without uvicorn's ``color_message`` field, with no ANSI escape
    in the message, and the process id as ``pid``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("rename_fields", {"process": "pid"})
        super().__init__(*args, **kwargs)

    def add_fields(self, log_data: dict[str, Any], record: logging.LogRecord, message_dict: dict[str, Any]) -> None:
        """The fields of ``record`` (python-json-logger's), less uvicorn's coloured copy of the message."""
        super().add_fields(log_data, record, message_dict)
        for name in UVICORN_DROPPED_FIELDS:
            log_data.pop(name, None)
        message = log_data.get("message")
        if isinstance(message, str):
            log_data["message"] = ANSI_ESCAPE.sub("", message)


class WorkerDeathsAreWarnings(logging.Filter):
    """Raises uvicorn's "Child process [N] died" (a worker killed or crashed; the supervisor starts
    another) from INFO to WARNING; passes every record."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.msg if isinstance(record.msg, str) else ""
        if record.levelno < logging.WARNING and message.startswith("Child process [") and message.endswith("] died"):
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def log_config(log_format: str) -> dict:
    """uvicorn's logging set-up (a ``logging.config.dictConfig`` dict) with the pid on every line,
    worker deaths as warnings, every line a JSON object when ``log_format`` is ``json``, and our
    own ``app.*`` loggers at INFO through the same handler."""
    config = copy.deepcopy(LOGGING_CONFIG)
    for formatter in config["formatters"].values():
        if log_format == "json":
            formatter.clear()
            formatter.update({"()": f"{__name__}.PlainJsonFormatter", "fmt": JSON_FIELDS})
        else:
            formatter["fmt"] = formatter["fmt"].replace("%(levelprefix)s ", "%(levelprefix)s [%(process)d] ", 1)
    config.setdefault("filters", {})["worker_deaths"] = {"()": f"{__name__}.WorkerDeathsAreWarnings"}
    config["loggers"]["uvicorn.error"]["filters"] = ["worker_deaths"]
    config["loggers"]["app"] = {"handlers": ["default"], "level": "INFO", "propagate": False}
    return config


def configure(log_format: str) -> None:
    """Set up this process's logging as :func:`log_config` says (for processes uvicorn does not set up)."""
    logging.config.dictConfig(log_config(log_format))


def failure_line(what: str, error: BaseException) -> str:
    """One JSON object (one line) saying ``what`` failed and why: the error's type and message and
    where it was raised, with no traceback."""
    frames = traceback.extract_tb(error.__traceback__)
    where = f"{frames[-1].filename}:{frames[-1].lineno}" if frames else None
    root = error
    while (following := root.__cause__ or (None if root.__suppress_context__ else root.__context__)) is not None:
        root = following
    return json.dumps({"asctime": logging.Formatter().formatTime(logging.makeLogRecord({})), "levelname": "ERROR",
                       "name": "app.startup", "pid": os.getpid(), "message": f"{what}: {error}",
                       "error": type(error).__name__, "cause": None if root is error else f"{type(root).__name__}: {root}",
                       "where": where})


def exit_on_failure(work: Callable[[], Any], what: str, log_format: str,
                    expected: tuple[type[BaseException], ...] = ()) -> Any:
    """Run ``work`` and return what it returns.  If it raises (not ``SystemExit``): with ``log_format``
    ``json``, print one :func:`failure_line` to stderr and exit with status 1; with text logs, exit
    with one line for an ``expected`` error and let any other show its traceback (a person reads
    it at a terminal)."""
    try:
        return work()
    except (SystemExit, KeyboardInterrupt):
        raise
    except BaseException as error:
        if log_format == "json":
            print(failure_line(what, error), file=sys.stderr, flush=True)
            raise SystemExit(1) from None
        if isinstance(error, expected):
            raise SystemExit(f"caravanserai: {what}: {error}") from None
        raise
