"""Prometheus metrics of the server (``GET /metrics``), via prometheus-client.

Each process keeps its metrics in a registry of its own (a lifespan object, no module globals).
With several workers, ``caravanserai serve`` points ``PROMETHEUS_MULTIPROC_DIR`` at a fresh
directory before it starts them (``app/cli.py``): then every process also writes its values to
files there, and a scrape, whichever worker answers it, reads all of them (prometheus-client's
multiprocess mode): counters and histograms are the sums over every worker that ran
since the start, gauges follow their ``multiprocess_mode`` (``livesum``: summed over the live
workers; ``livemostrecent``: the last value any live worker set).  A gauge is therefore kept
current by each process as things happen, never set by the process that answers a scrape
(``games_running`` is the one exception: it counts the whole database, whoever asks).

Multiprocess mode drops prometheus-client's process collector, so :class:`WorkerProcesses` puts
CPU and memory back, per worker (label ``pid``) and summed, and the memory of the whole server:
``serve`` with its workers and helper processes (uvicorn's supervisor, multiprocessing's resource
tracker), which the workers' sum leaves out.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterable
from pathlib import Path

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, ProcessCollector, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead
from prometheus_client.registry import Collector
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine

MULTIPROC_DIR_ENV = "PROMETHEUS_MULTIPROC_DIR"
MOVE_BATCH_BUCKETS = (1, 2, 4, 8, 16, 32, 64, 128, 256)
HTTP_SECONDS_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class Metrics:
    """The counters, gauges and histograms of one process, exposed summed over every worker.

    ``directory``: the multiprocess directory (default: ``PROMETHEUS_MULTIPROC_DIR``, unset in a
    server of one process and in tests).
    """

    def __init__(self, directory: str | None = None) -> None:
        self.directory = directory or os.environ.get(MULTIPROC_DIR_ENV) or None
        self.registry = CollectorRegistry()
        self.moves_committed = Counter("caravanserai_moves_committed", "Moves committed",
                                       registry=self.registry)
        self.moves_refused = Counter("caravanserai_moves_refused", "Moves refused, by error code", ["code"],
                                     registry=self.registry)
        self.move_seconds = Histogram(
            "caravanserai_move_seconds", "Time from receiving a move to its commit, in seconds",
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5), registry=self.registry)
        self.move_batch_size = Histogram(
            "caravanserai_move_batch_size", "Moves committed together by one statement of the move writer (group "
            "commit on PostgreSQL, app/db/move_writer.py), per statement", buckets=MOVE_BATCH_BUCKETS,
            registry=self.registry)
        self.open_sockets = Gauge("caravanserai_open_sockets", "WebSocket subscriptions to a game (sockets that "
                                  "said hello), all workers", multiprocess_mode="livesum", registry=self.registry)
        self.games_running = Gauge("caravanserai_games_running", "Games in the running state (whole database)",
                                   multiprocess_mode="livemostrecent", registry=self.registry)
        self.bot_moves_computed = Counter("caravanserai_bot_moves_computed",
                                          "Bot moves computed, all workers (only the leader computes them)",
                                          registry=self.registry)
        self.leader = Gauge("caravanserai_leader", "Processes that are the leader (drive bots, clocks and notices): "
                            "1 when all is well", multiprocess_mode="livesum", registry=self.registry)
        self.notifications_sent = Counter("caravanserai_notifications_sent", "Turn notices handed to a push service "
                                          "or the SMTP server, by channel (push, email)", ["channel"], registry=self.registry)
        self.notifications_failed = Counter(
            "caravanserai_notifications_failed", "Turn notices not delivered, by channel and reason (gone: the push "
            "subscription expired and was dropped; refused; timeout; unreachable)", ["channel", "reason"],
            registry=self.registry)
        self.db_checkouts = Counter("caravanserai_db_checkouts", "Database connections taken from the workers' pools "
                                    "(about one per database session)", registry=self.registry)
        self.db_pool_in_use = Gauge("caravanserai_db_pool_connections_in_use",
                                    "Database connections checked out of the workers' pools",
                                    multiprocess_mode="livesum", registry=self.registry)
        self.http_requests = Counter(
            "caravanserai_http_requests", "HTTP requests answered, by method, route template (unmatched: no "
            "route) and status", ["method", "route", "status"], registry=self.registry)
        self.http_seconds = Histogram(
            "caravanserai_http_request_seconds", "Time from an HTTP request to the end of its answer, in seconds, "
            "by method and route template", ["method", "route"], buckets=HTTP_SECONDS_BUCKETS, registry=self.registry)
        self.websocket_connects = Counter("caravanserai_websocket_connects", "WebSocket connections accepted",
                                          registry=self.registry)
        self.websocket_disconnects = Counter(
            "caravanserai_websocket_disconnects", "WebSocket connections ended, by who closed them (server: the app "
            "closed it; client: the peer left or stopped answering pings)",
            ["closed_by"], registry=self.registry)
        self.websockets_open = Gauge("caravanserai_websockets_open", "WebSocket connections open, all workers",
                                     multiprocess_mode="livesum", registry=self.registry)
        self.database_errors = Counter(
            "caravanserai_database_errors", "Requests that failed on the database, by kind (busy: no connection to "
            "spare, answered 503; failed: any other database error, answered 500)", ["kind"], registry=self.registry)
        self.bot_moves = Counter("caravanserai_bot_moves", "Moves committed by server-side bots",
                                 registry=self.registry)
        self.bot_failures = Counter(
            "caravanserai_bot_failures", "Bot moves that failed, by reason (refused: the game refused the move; "
            "crashed: an error stopped the game's bot; stalled: a move owed that only the periodic sweep found)",
            ["reason"], registry=self.registry)
        self.last_backup = Gauge(
            "caravanserai_last_backup_timestamp_seconds", "When the newest good backup was written (kind=backup) or "
            "checked by a restore drill (kind=check, caravanserai backup --check), in seconds since the Unix epoch; "
            "0: never (whole database)", ["kind"], multiprocess_mode="livemostrecent", registry=self.registry)
        self.last_backup_age = Gauge(
            "caravanserai_last_backup_age_seconds", "Seconds since the newest good backup (kind=backup) or check "
            "(kind=check), at the scrape; absent when there was none (whole database)", ["kind"],
            multiprocess_mode="livemostrecent", registry=self.registry)
        if self.directory is None:
            self._exposed = self.registry
            WorkerProcesses(None, registry=self._exposed)
        else:
            self._exposed = CollectorRegistry()
            # Registered first, so a scrape marks the dead workers dead before it merges the files.
            WorkerProcesses(self.directory, registry=self._exposed)
            MultiProcessCollector(self._exposed, path=self.directory)

    def render(self) -> bytes:
        """The text exposition format, every worker's values merged."""
        return generate_latest(self._exposed)

    def process_exited(self) -> None:
        """At the end of this process's lifespan: its live gauges stop counting (multiprocess mode)."""
        if self.directory is not None:
            mark_process_dead(os.getpid(), self.directory)

    def watch_pool(self, engine: AsyncEngine) -> None:
        """Keep ``db_pool_in_use`` current, and count ``db_checkouts``, from ``engine``'s pool events."""
        def checked_out(*_: object) -> None:
            self.db_pool_in_use.inc()
            self.db_checkouts.inc()

        event.listen(engine.sync_engine, "checkout", checked_out)
        event.listen(engine.sync_engine, "checkin", lambda *_: self.db_pool_in_use.dec())


_PID_IN_FILE_NAME = re.compile(r"_(\d+)\.db$")
SERVE_PID_ENV = "CARAVANSERAI_SERVE_PID"
"""Set by ``caravanserai serve`` for its workers: the process at the top of the server's tree."""


class WorkerProcesses(Collector):
    """CPU time and memory of every live worker process, per worker and summed.

    The workers are the processes whose metric files are in ``directory`` (each one's counters
    write a file at start) and that still run; ``None``: only this process.  A worker that is gone
    is marked dead here (``mark_process_dead``), so its live gauges (open sockets...) stop counting
    even when it was killed before its lifespan could say so.

    Series: prometheus-client's ``process_*`` (CPU seconds, resident and virtual memory, open file
    descriptors, start time) with a ``pid`` label, and ``caravanserai_workers``,
    ``caravanserai_workers_cpu_seconds_total``, ``caravanserai_workers_resident_memory_bytes``
    (sums over the live workers).  Linux only (``/proc``); elsewhere only ``caravanserai_workers``.
    """

    def __init__(self, directory: str | None, registry: CollectorRegistry | None = None) -> None:
        self.directory = directory
        if registry is not None:
            registry.register(self)

    def pids(self) -> list[int]:
        """The live workers' process ids, in order (and dead ones marked dead on the way)."""
        if self.directory is None:
            return [os.getpid()]
        found = {int(match.group(1)) for path in Path(self.directory).glob("*.db")
                 if (match := _PID_IN_FILE_NAME.search(path.name))}
        live = []
        for pid in sorted(found):
            if _running(pid):
                live.append(pid)
            else:
                mark_process_dead(pid, self.directory)
        return live

    def collect(self) -> Iterable[Metric]:
        pids = self.pids()
        families: dict[str, Metric] = {}
        cpu_total, memory_total = 0.0, 0.0
        for pid in pids:
            for family in ProcessCollector(pid=functools.partial(int, pid), registry=None).collect():
                merged = families.get(family.name)
                if merged is None:
                    merged = families[family.name] = Metric(family.name, family.documentation, family.type)
                for sample in family.samples:
                    merged.add_sample(sample.name, {**sample.labels, "pid": str(pid)}, sample.value)
                    if sample.name == "process_cpu_seconds_total":
                        cpu_total += sample.value
                    elif sample.name == "process_resident_memory_bytes":
                        memory_total += sample.value
        yield from families.values()
        yield GaugeMetricFamily("caravanserai_workers", "Worker processes running", value=len(pids))
        if families:
            yield CounterMetricFamily("caravanserai_workers_cpu_seconds", "CPU time of the running workers together, "
                                      "in seconds (user and system)", value=cpu_total)
            yield GaugeMetricFamily("caravanserai_workers_resident_memory_bytes",
                                    "Resident memory of the running workers together, in bytes", value=memory_total)
        whole = tree_resident_memory(server_root_pid())
        if whole is not None:
            yield GaugeMetricFamily("caravanserai_server_resident_memory_bytes",
                                    "Resident memory of the whole server: serve, its workers and helper processes "
                                    "(uvicorn's supervisor, multiprocessing's resource tracker), in bytes", value=whole)


def server_root_pid() -> int:
    """The process at the top of the server's tree: ``serve`` (``SERVE_PID_ENV``), else this process."""
    try:
        return int(os.environ.get(SERVE_PID_ENV, ""))
    except ValueError:
        return os.getpid()


def tree_resident_memory(root: int) -> float | None:
    """Resident memory, in bytes, of process ``root`` and all its descendants together; None
    without ``/proc`` (not Linux).  Memory shared between them (the pages a fork shares) counts
    in each, as ``ps`` and ``top`` count it."""
    try:
        entries = [int(name) for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return None
    children: dict[int, list[int]] = {}
    for pid in entries:
        try:
            with open(f"/proc/{pid}/stat", "rb") as stat:
                parent = int(stat.read().rpartition(b")")[2].split()[1])  # the field after the state
        except (OSError, ValueError, IndexError):
            continue  # ended meanwhile
        children.setdefault(parent, []).append(pid)
    page = os.sysconf("SC_PAGE_SIZE")
    total, waiting = 0, [root]
    while waiting:
        pid = waiting.pop()
        try:
            with open(f"/proc/{pid}/statm", "rb") as statm:
                total += int(statm.read().split()[1]) * page
        except (OSError, ValueError, IndexError):
            continue
        waiting.extend(children.get(pid, ()))
    return float(total)


def _running(pid: int) -> bool:
    """Whether process ``pid`` runs: a killed worker its parent has not reaped yet (a zombie) does not.

    uvicorn's supervisor reaps a dead worker only when its health check next looks, up to
    ``WORKER_HEALTHCHECK_SECONDS`` (30 s) later when the worker died while being pinged."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            state = stat.read().rpartition(b")")[2].split()[0]  # the field after the parenthesized name
        return state not in (b"Z", b"X")
    except FileNotFoundError:
        return False
    except OSError:  # no /proc (not Linux): ask the kernel
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: it runs
        return True
    return True
