"""Issue 21 against a real `bridge-laws serve`: what only a running server shows - a kept-alive
connection and public SQL that must not take the pages' threads (a rebuilt database ships by a
restart: issue 35). (Connections that never finish a
request, bursts and restarts: tests/test_server_platform.py.)
"""

from __future__ import annotations

import hashlib
import shutil
import statistics
import threading
import time
from pathlib import Path

import httpx
import pytest

from laws_site.sql import gate as sql_gate
from tests.live_server import serving

pytestmark = pytest.mark.slow

RUNAWAY = "with recursive c(x) as (select 1 union all select x + 1 from c) select count(*) from c"


@pytest.fixture
def served_copy(laws_db_path, tmp_path):
    db = tmp_path / "laws.db"
    shutil.copy(laws_db_path, db)
    log = tmp_path / "server.log"
    with serving(db, log=log) as (base, process), httpx.Client(base_url=base, timeout=30) as client:
        yield db, client, process, log


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ---------------------------------------------------------------- keep-alive
# (request-head bounds and time-outs, idle sockets, bursts: tests/test_server_platform.py)


def test_a_kept_alive_connection_still_serves_requests(served_copy):
    _db, client, _process, _log = served_copy
    for _ in range(3):
        assert client.get("/laws-2017-ja/61.json").status_code == 200
        time.sleep(1)


# ---------------------------------------------------------------- public SQL cannot starve the pages


def test_slow_sql_clients_get_429_and_pages_keep_answering(served_copy):
    _db, client, _process, _log = served_copy
    stop = threading.Event()
    statuses: list[int] = []
    retry_after: set[str] = set()

    def attacker():
        with httpx.Client(base_url=client.base_url, timeout=30) as own:
            while not stop.is_set():
                response = own.get("/laws.json", params={"sql": RUNAWAY})
                statuses.append(response.status_code)
                if response.status_code == 429:
                    retry_after.add(response.headers.get("retry-after"))

    threads = [threading.Thread(target=attacker) for _ in range(8)]
    for thread in threads:
        thread.start()
    time.sleep(1)
    latencies = []
    try:
        for _ in range(20):
            started = time.perf_counter()
            assert client.get("/laws-2017-ja/61B2(a)").status_code == 200
            latencies.append(time.perf_counter() - started)
            time.sleep(0.1)
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    assert set(statuses) <= {400, 429}, statuses
    assert 429 in statuses and 400 in statuses  # one at a time ran into the time limit, the rest waited
    assert retry_after == {str(sql_gate.RETRY_AFTER)}
    # before: 3-7.5 s, every read thread running the CTE; the benchmark measures the 2x target
    assert statistics.median(latencies) < 1.0, latencies
