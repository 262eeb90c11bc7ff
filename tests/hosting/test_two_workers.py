"""One server with two worker processes on PostgreSQL, as `caravanserai
serve` runs it with ``CARAVANSERAI_WORKERS=2``.

* Every scrape of ``/metrics``, whichever worker answers it, gives the sums over both workers:
  N requests spread over the two give exactly N; CPU and memory come per worker and summed.
* A rate limit holds over both: 30 sign-ins an hour from one address, 80 tried at once across the
  two workers, exactly 30 pass.
* Open sockets are counted over both workers, and those of a worker that was killed stop counting.

Which worker answered what is read from the workers' own metric files (``PROMETHEUS_MULTIPROC_DIR``,
one file per worker), so each test also checks that both workers took part.
"""

from __future__ import annotations

import concurrent.futures
import os
import re
import signal
import time
from collections import Counter
from pathlib import Path

import httpx
import pytest
from prometheus_client.multiprocess import MultiProcessCollector

from tests.conftest import TOY_RULESETS
from tests.reliability.support import LEGACY, RemoteGuest, start_remote_table
from tests.support.databases import scratch_postgres
from tests.support.server import ServerProcess

pytestmark = pytest.mark.postgres
DATABASE = f"caravanserai_two_workers_{os.getpid()}"
SIGN_INS_PER_HOUR = 30


@pytest.fixture(scope="module")
def two_workers(tmp_path_factory):
    """``(server, metrics directory)``: two workers on a Postgres database of their own."""
    with scratch_postgres(DATABASE) as url:
        folder = tmp_path_factory.mktemp("two-workers")
        # TMPDIR: `serve` makes its metrics directory there, where the test can read each worker's file.
        server = ServerProcess(url, extra_rulesets=TOY_RULESETS, log_path=folder / "server.log",
                               env={"CARAVANSERAI_WORKERS": "2", "TMPDIR": str(folder),
                                    "CARAVANSERAI_RATE_LIMIT_AUTH": f"{SIGN_INS_PER_HOUR}/hour"})
        try:
            server.start(timeout=120)  # two workers importing at once on a busy machine
            directories = list(folder.glob("caravanserai-metrics-*"))
            assert len(directories) == 1, f"no metrics directory of its own: {directories}"
            yield server, directories[0]
        finally:
            server.stop(grace=120)  # the directory goes after both workers stopped: a busy machine is slow
        assert not directories[0].exists(), "the metrics directory outlived the server"


def per_worker(directory: Path, sample_name: str, **labels: str) -> dict[int, float]:
    """The value of ``sample_name`` (with ``labels``) in each worker's own files, by process id."""
    values: dict[int, float] = Counter()
    for path in directory.glob("*.db"):
        pid = int(re.search(r"_(\d+)\.db$", path.name).group(1))
        for family in MultiProcessCollector.merge([str(path)]):
            for sample in family.samples:
                if sample.name == sample_name and labels.items() <= sample.labels.items():
                    values[pid] += sample.value
    return dict(values)


def scrape(server: ServerProcess) -> str:
    return httpx.get(f"{server.base_url}/metrics", timeout=10).text  # a new connection: either worker


def sample(text: str, name: str, **labels: str) -> float:
    """The sum of the samples of ``name`` with ``labels`` in a scrape (0 when there is none)."""
    total = 0.0
    for line in text.splitlines():
        match = re.fullmatch(rf"{re.escape(name)}(?:\{{(.*)\}})? (\S+)", line)
        if match and all(f'{key}="{value}"' in (match.group(1) or "") for key, value in labels.items()):
            total += float(match.group(2))
    return total


def at_once(calls: int, call) -> list:
    """``call(i)`` for each i, from 8 threads, each on a connection of its own."""
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        return list(pool.map(call, range(calls)))


def test_every_scrape_is_the_sum_of_both_workers(two_workers):
    server, directory = two_workers
    route = {"route": "/api/rulesets"}
    sent = 0
    while len(per_worker(directory, "caravanserai_http_requests_total", **route)) < 2:
        assert sent < 800, f"the {sent} requests all went to one worker: {per_worker(directory, 'caravanserai_http_requests_total', **route)}"
        assert set(at_once(40, lambda _: httpx.get(f"{server.base_url}/api/rulesets", timeout=10).status_code)) == {200}
        sent += 40
    answered_by: dict[int, float] = {}
    for _ in range(200):  # until each worker has answered scrapes: each answer must hold the sum
        assert sample(scrape(server), "caravanserai_http_requests_total", **route) == sent
        answered_by = per_worker(directory, "caravanserai_http_requests_total", route="/metrics")
        if len(answered_by) == 2:
            break
    assert len(answered_by) == 2, f"one worker answered every scrape: {answered_by}"
    assert sum(per_worker(directory, "caravanserai_http_requests_total", **route).values()) == sent


def test_cpu_and_memory_come_per_worker_and_summed(two_workers):
    server, directory = two_workers
    text = scrape(server)
    workers = {int(pid) for pid in re.findall(r'^process_resident_memory_bytes\{pid="(\d+)"\}', text, re.MULTILINE)}
    assert len(workers) == 2 and sample(text, "caravanserai_workers") == 2
    assert workers == {int(re.search(r"_(\d+)\.db$", path.name).group(1)) for path in directory.glob("counter_*.db")}
    assert server.process.pid not in workers  # the workers, not the process that started them
    memory = [sample(text, "process_resident_memory_bytes", pid=str(pid)) for pid in workers]
    assert all(value > 10_000_000 for value in memory)
    assert sample(text, "caravanserai_workers_resident_memory_bytes") == sum(memory)
    cpu = [sample(text, "process_cpu_seconds_total", pid=str(pid)) for pid in workers]
    assert all(value > 0 for value in cpu)
    assert sample(text, "caravanserai_workers_cpu_seconds_total") == pytest.approx(sum(cpu))
    # The whole server: the supervisor (the process the test started) and its helpers too, read a
    # moment later than the workers' own numbers, so only clearly above their sum.
    supervisor = int(Path(f"/proc/{server.process.pid}/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    assert sample(text, "caravanserai_server_resident_memory_bytes") >= 0.9 * sum(memory) + 0.5 * supervisor


def test_a_sign_in_limit_holds_over_both_workers(two_workers):
    server, directory = two_workers
    address = {"X-Forwarded-For": "203.0.113.7"}  # uvicorn trusts it from 127.0.0.1: an address of this test's own

    def sign_in(index: int) -> int:
        return httpx.post(f"{server.base_url}/api/auth/guest", json={"name": f"Guest {index}"}, headers=address,
                          timeout=10).status_code

    statuses = Counter(at_once(80, sign_in))
    assert statuses == {200: SIGN_INS_PER_HOUR, 429: 80 - SIGN_INS_PER_HOUR}
    refusing = per_worker(directory, "caravanserai_http_requests_total", route="/api/auth/guest", status="429")
    assert len(refusing) == 2, f"one worker refused every sign-in over the limit: {refusing}"


def test_open_sockets_are_counted_over_both_workers_and_a_killed_one_stops_counting(two_workers):
    server, directory = two_workers
    from websockets.sync.client import connect

    ana, bo = RemoteGuest(server, "Ana"), RemoteGuest(server, "Bo")
    game_id = start_remote_table([ana, bo], "toy-race")
    sockets = []
    try:
        while len(per_worker(directory, "caravanserai_websockets_open")) < 2 or \
                min(per_worker(directory, "caravanserai_websockets_open").values()) < 1:
            assert len(sockets) < 60, "every socket went to one worker"
            for _ in range(4):
                socket = connect(f"{server.ws_url}/ws/games/{game_id}", open_timeout=10, close_timeout=2, **LEGACY)
                socket.send('{"type": "hello", "since": 0}')
                sockets.append(socket)
            deadline = time.monotonic() + 20
            while sample(scrape(server), "caravanserai_open_sockets") != len(sockets) and time.monotonic() < deadline:
                time.sleep(0.05)
        text = scrape(server)
        assert sample(text, "caravanserai_websockets_open") == len(sockets)
        assert sample(text, "caravanserai_open_sockets") == len(sockets)
        assert sample(text, "caravanserai_websocket_connects_total") == len(sockets)

        victim = max(per_worker(directory, "caravanserai_websockets_open").items(), key=lambda item: item[1])[0]
        os.kill(victim, signal.SIGKILL)  # a worker started by this test's server
    finally:
        for socket in sockets:
            socket.close()
    deadline = time.monotonic() + 30
    while (text := scrape(server)) and time.monotonic() < deadline and (
            sample(text, "caravanserai_websockets_open") or sample(text, "caravanserai_open_sockets")):
        time.sleep(0.1)
    assert sample(text, "caravanserai_websockets_open") == 0, "the killed worker's sockets still count"
    assert sample(text, "caravanserai_open_sockets") == 0
    assert f'pid="{victim}"' not in text
