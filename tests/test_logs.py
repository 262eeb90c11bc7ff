"""The server's log lines (app/logs.py): the pid on each, JSON lines without uvicorn's coloured
copy of the message, worker deaths as warnings, and a start-up failure as one JSON line."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys

from app.cli import log_config
from app.logs import PlainJsonFormatter, WorkerDeathsAreWarnings, failure_line
from tests.support.server import ROOT

SCRIPT = """
import logging
from app import logs
logs.configure({log_format!r})
logging.getLogger("uvicorn.error").info("Started server process [%d]", 12, extra={{"color_message": "Started server process [\\x1b[36m%d\\x1b[0m]"}})
logging.getLogger("uvicorn.error").info("Child process [4242] died")
logging.getLogger("app.services.leader.leadership").info("this process is now the leader")
"""


def _logged(log_format: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", SCRIPT.format(log_format=log_format)], cwd=ROOT, capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True, timeout=60)
    return done.stderr.splitlines()


def test_json_lines_carry_the_pid_and_no_coloured_copy_of_the_message():
    lines = _logged("json")
    records = [json.loads(line) for line in lines]
    assert len(records) == 3, lines
    assert all(isinstance(record["pid"], int) and record["pid"] > 0 for record in records)
    assert len({record["pid"] for record in records}) == 1
    assert all("\x1b" not in line and "\\u001b" not in line and "color_message" not in line for line in lines)
    assert records[0]["message"] == "Started server process [12]"
    assert records[2] == {**records[2], "name": "app.services.leader.leadership", "levelname": "INFO"}


def test_a_dead_worker_is_a_warning_in_either_format():
    json_lines = _logged("json")
    assert json.loads(json_lines[1])["levelname"] == "WARNING"
    text_lines = _logged("text")
    assert text_lines[1].startswith("WARNING:") and "Child process [4242] died" in text_lines[1]


def test_text_lines_carry_the_pid():
    lines = _logged("text")
    pids = {line.split("[", 1)[1].split("]", 1)[0] for line in lines}
    assert len(pids) == 1 and pids.pop().isdigit(), lines
    assert all(formatter["fmt"].count("%(process)d") == 1 for formatter in log_config("text")["formatters"].values())


def test_the_json_formatter_strips_escapes_from_the_message_itself():
    record = logging.makeLogRecord({"msg": "plain \x1b[1mbold\x1b[0m", "levelname": "INFO", "levelno": 20,
                                    "color_message": "\x1b[32mgreen\x1b[0m"})
    line = json.loads(PlainJsonFormatter("%(levelname)s %(process)d %(message)s").format(record))
    assert line == {"levelname": "INFO", "pid": os.getpid(), "message": "plain bold"}


def test_only_a_dead_workers_line_is_raised_to_a_warning():
    died = logging.makeLogRecord({"msg": "Child process [7] died", "levelno": 20, "levelname": "INFO"})
    other = logging.makeLogRecord({"msg": "Child process [7] failed to start", "levelno": 20, "levelname": "INFO"})
    assert WorkerDeathsAreWarnings().filter(died) and WorkerDeathsAreWarnings().filter(other)
    assert (died.levelname, other.levelname) == ("WARNING", "INFO")


def test_a_start_up_failure_with_json_logs_is_one_json_line(tmp_path):
    """With JSON logs a start-up failure printed a 136-line traceback that log collectors split into
    136 records.  Here the start-up child is given a VAPID key that is no key."""
    done = subprocess.run([sys.executable, "-m", "app.prepare", "--no-migrate"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "CARAVANSERAI_LOG_FORMAT": "json",
                               "CARAVANSERAI_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/x.db",
                               "CARAVANSERAI_VAPID_PRIVATE_KEY": "not a key"})
    assert done.returncode == 1
    lines = (done.stdout + done.stderr).splitlines()
    assert len(lines) == 1, lines
    record = json.loads(lines[0])
    assert record["levelname"] == "ERROR" and record["message"].startswith("start-up failed")
    assert record["pid"] > 0 and "Traceback" not in lines[0]


def test_a_failure_line_names_the_error_and_its_cause_without_a_traceback():
    try:
        try:
            raise ConnectionRefusedError(111, "refused")
        except OSError as cause:
            raise RuntimeError("migrations failed") from cause
    except RuntimeError as error:
        line = failure_line("start-up failed", error)
    record = json.loads(line)
    assert "\n" not in line
    assert record["message"] == "start-up failed: migrations failed" and record["error"] == "RuntimeError"
    assert record["cause"] == "ConnectionRefusedError: [Errno 111] refused"
    assert record["where"].rsplit(":", 1)[0] == __file__
