"""Issue 38 items 2, 4 and 5 and issue 35 items 3 and 5 against real servers: `bridge-laws serve`
(uvicorn's own workers, one and two) alone and behind the shipped proxy (docs/deploy/haproxy.cfg,
Debian's haproxy). Each attack is bounded in time; a bystander fetches a unit page every 0.5 s.
The attacks are tests/server_probe.py's; benchmarks/server_attacks.py prints their figures.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time

import httpx
import pytest

from laws_site.http import serve
from tests.live_server import free_port, proxied, serve_argv, serving
from tests.server_probe import (
    ANOTHER_CLIENT,
    ATTACKER,
    UNIT_PAGE,
    Bystander,
    ab_burst,
    hold_half_sent,
    slow_reader,
    wrk_flood,
)

pytestmark = [pytest.mark.live, pytest.mark.slow]

ONE_ADDRESS_SHARE = 100  # docs/deploy/haproxy.cfg: sc0_conn_cur gt 100 is refused


@pytest.fixture(scope="module")
def one_worker(laws_db_path, tmp_path_factory):
    log = tmp_path_factory.mktemp("one") / "server.log"
    with serving(laws_db_path, log=log) as (base, process):
        yield base, process, log


@pytest.fixture(scope="module")
def two_workers(laws_db_path, tmp_path_factory):
    log = tmp_path_factory.mktemp("two") / "server.log"
    port = free_port()
    argv = serve_argv(laws_db_path, port) + ["--workers", "2"]
    with serving(laws_db_path, port=port, argv=argv, log=log, timeout=120) as (base, process):
        yield base, process, log


def worker_pids(parent: int) -> set[int]:
    """The uvicorn workers of a `bridge-laws serve --workers N` (its children that serve)."""
    found = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                command = cmdline.read()
        except OSError:
            continue
        if int(fields[1]) == parent and b"spawn_main" in command:
            found.add(int(entry))
    return found


# ---------------------------------------------------------------- 38.2: no client denies the site to others


def test_idle_sockets_do_not_refuse_requests_on_established_connections(one_worker):
    """1,000 half-sent requests held open: before, uvicorn's limit_concurrency answered 503 to every
    request, on old connections too (31 consecutive 503s for the bystander)."""
    base, process, _log = one_worker
    with httpx.Client(base_url=base, timeout=5) as established:
        assert established.get(UNIT_PAGE).status_code == 200
        with Bystander(base) as bystander:
            held = hold_half_sent(base, count=1000, seconds=15, source=ATTACKER)
            statuses = [established.get(UNIT_PAGE).status_code for _ in range(5)]
    assert held.open_at_end == 1000 and held.closed_at_once == held.refused == 0, held.summary()
    assert statuses == [200] * 5
    assert bystander.share >= 0.99, bystander.summary()
    assert process.poll() is None


def test_the_proxy_bounds_one_address_and_serves_the_others(one_worker):
    """Behind the shipped haproxy: one address holds at most 100 connections and the rest of its
    connections are refused; a half-sent head is closed after 10 s; others are answered."""
    base, _process, _log = one_worker
    with proxied(base) as front, Bystander(front) as bystander:
        held = hold_half_sent(front, count=1000, seconds=15, source=ATTACKER)
    attempts = held.opened + held.refused
    # how many times the attacker tries in 15 s is its machine's speed (CI: 1,177); what the proxy
    # decides is how many it lets in: one share at first, closed after 10 s, and the share replacing it
    assert attempts >= 5 * ONE_ADDRESS_SHARE, held.summary()
    assert held.open_at_end <= ONE_ADDRESS_SHARE, held.summary()
    assert held.opened - held.closed_at_once <= 2 * ONE_ADDRESS_SHARE + 10, held.summary()
    assert held.closed_by_server >= 90, held.summary()  # the ones let in: closed after 10 s
    assert bystander.share >= 0.99, (bystander.summary(), bystander.outcomes)


def test_a_keep_alive_flood_is_queued_not_refused(one_worker):
    """wrk -c1500: before, 112,499 of 113,004 answers were 503 and the bystander got 503 on 44 of 84.
    Now every request is answered; alone, one process shares its core among 1,501 clients, so the
    bystander waits its turn (the proxy below keeps it fast)."""
    base, _process, log = one_worker
    with Bystander(base, timeout=30, source=ANOTHER_CLIENT) as bystander:
        flood = wrk_flood(base + "/-/versions.json", connections=1500, seconds=10)
    drained(base, within=180)
    assert flood["requests"] > 0 and flood["non_2xx_3xx"] == 0, flood["output"]
    # refused never; answered in its turn (how long that takes is the machine's: on a 2-core machine
    # at load 26 it waited past 30 s, see benchmarks/RESULTS.md)
    refused = [status for status, _ in bystander.outcomes if isinstance(status, int) and status != 200]
    assert bystander.outcomes and not refused, bystander.summary()
    assert log.read_text().count("\n") < 100  # no line per request: the proxy in front logs access


def test_behind_the_proxy_a_keep_alive_flood_is_cut_to_one_address_share(one_worker):
    """wrk -c1500 through the shipped haproxy: the flooding address keeps 100 connections (wrk's
    others are refused), the bystander at another address gets every answer. (Its latency on this
    2-core machine, wrk beside the server, is benchmarks/server_attacks.py's to print.)"""
    base, _process, _log = one_worker
    with proxied(base) as front:
        with Bystander(front, timeout=10, source=ANOTHER_CLIENT) as bystander:
            flood = wrk_flood(front + "/-/versions.json", connections=1500, seconds=10)
        drained(front)
    assert flood["requests"] > 0 and "read" in flood["socket_errors"], flood["output"]  # refused connections
    assert bystander.outcomes and all(status == 200 for status, _ in bystander.outcomes), bystander.summary()


def drained(base: str, within: float = 60) -> None:
    """Wait until the server answers at once again (the flood's queued requests answered)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        started = time.monotonic()
        try:
            if (
                httpx.get(base + "/-/versions.json", timeout=within).status_code == 200
                and time.monotonic() - started < 2
            ):
                return
        except httpx.HTTPError:
            pass
    raise AssertionError(f"still busy {within:.0f} s after the attack")


# ---------------------------------------------------------------- 38.5: bursts answered, never reset


@pytest.mark.parametrize("server", ["one_worker", "two_workers"])
def test_a_burst_of_1000_connections_is_answered_never_reset(server, request):
    """ab -c 1000 -n 10000: before, with --workers 2, 2,474 full pages of 10,000 (resets)."""
    base, _process, _log = request.getfixturevalue(server)
    burst = ab_burst(base + UNIT_PAGE, concurrency=1000, requests=10_000)
    assert burst.complete == 10_000 and burst.resets == 0, burst.summary()
    assert burst.non_2xx == 0, burst.summary()  # the site queues them: none needed a 503


def test_behind_the_proxy_a_burst_within_one_address_share_is_answered(one_worker):
    """Through haproxy, one address may hold 100 connections and send 500 requests a 10 s (beyond,
    the proxy answers 429 or refuses its connections: the per-address bounds); a burst within that
    share (50 at once: a client reconnecting at 100 briefly holds more while the old ones close) is
    answered in full, none reset."""
    base, _process, _log = one_worker
    with proxied(base) as front:
        burst = ab_burst(front + UNIT_PAGE, concurrency=50, requests=450)
        assert burst.complete == 450 and burst.resets == 0 and burst.non_2xx == 0, burst.summary()
        after = httpx.get(front + UNIT_PAGE)
    assert after.status_code in (200, 429) and (after.status_code == 200 or after.headers["retry-after"])


def test_the_proxy_answers_503_with_retry_after_when_the_site_cannot_answer():
    with proxied(f"http://127.0.0.1:{free_port()}", wait=False) as front:  # nothing listens there
        answer = httpx.get(front + UNIT_PAGE, timeout=30)
    assert answer.status_code == 503 and answer.headers["retry-after"] == "5"


# ---------------------------------------------------------------- 38.4: bounded restarts, workers replaced


def test_a_dead_worker_is_replaced_without_ending_the_service(two_workers):
    """Before: one `kill -9` of a worker ended the service (2,378 refused connections)."""
    base, process, log = two_workers
    before = worker_pids(process.pid)
    assert len(before) == 2, before
    victim = min(before)
    with Bystander(base, timeout=5) as bystander:
        os.kill(victim, signal.SIGKILL)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            now = worker_pids(process.pid)
            if len(now) == 2 and victim not in now and httpx.get(base + "/-/versions.json").status_code == 200:
                break
            time.sleep(0.5)
        time.sleep(2)
    after = worker_pids(process.pid)
    assert len(after) == 2 and victim not in after, (before, after)
    assert process.poll() is None
    assert bystander.outcomes and all(status == 200 for status, _ in bystander.outcomes), bystander.summary()
    assert f"Child process [{victim}] died" in log.read_text()


@pytest.mark.parametrize("workers", [1, 2])
def test_sigterm_with_a_slow_reader_attached_ends_within_15_s(laws_db_path, tmp_path, workers):
    """Before: after SIGTERM the process lived 75 s, until the slow reader gave up."""
    port = free_port()
    argv = serve_argv(laws_db_path, port) + ["--workers", str(workers)]
    with serving(laws_db_path, port=port, argv=argv, log=tmp_path / "server.log", timeout=120) as (base, process):
        with slow_reader(base, "/laws.db") as first:
            assert first.startswith(b"HTTP/1.1 200")
            time.sleep(1)
            started = time.monotonic()
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                pass
            gone = time.monotonic() - started
    assert process.returncode is not None, "still running 20 s after SIGTERM"
    assert gone <= 15, f"gone after {gone:.1f} s"
    assert gone >= serve.GRACEFUL_SHUTDOWN - 1  # it did wait for the answer in progress, as long as allowed


def test_a_request_head_over_the_bound_is_refused(one_worker):
    """h11 bounds a request head (MAX_REQUEST_HEAD); httptools, used before, set no bound."""
    import socket
    from urllib.parse import urlsplit

    base, _process, _log = one_worker
    parts = urlsplit(base)
    sock = socket.create_connection((parts.hostname, parts.port))
    sock.settimeout(10)
    sock.sendall(b"GET /-/versions.json HTTP/1.1\r\nHost: x\r\n")
    answer = b""
    try:
        for _ in range(64):  # 256 KB of one header line, never ended
            sock.sendall(b"X-Filler: " + b"a" * 4096 + b"\r\n")
    except (BrokenPipeError, ConnectionResetError):
        pass  # closed by the server while we were still sending
    try:
        while chunk := sock.recv(4096):
            answer += chunk
    except ConnectionResetError:
        pass
    sock.close()
    assert answer.startswith(b"HTTP/1.1 400 "), answer[:200]
    assert httpx.get(base + "/-/versions.json").status_code == 200


# ---------------------------------------------------------------- 35.3: small on the wire


def test_the_index_page_travels_five_times_smaller(one_worker):
    base, _process, log = one_worker
    plain = httpx.get(base + "/laws-2017-ja/-/index", headers={"Accept-Encoding": "identity"})
    packed = httpx.get(base + "/laws-2017-ja/-/index", headers={"Accept-Encoding": "gzip"})
    assert plain.status_code == packed.status_code == 200, log.read_text()[-3000:]
    assert packed.headers["content-encoding"] == "gzip" and "content-encoding" not in plain.headers
    wire = int(packed.headers["content-length"])
    assert len(plain.content) >= 5 * wire, (len(plain.content), wire)
    assert packed.content == plain.content  # httpx inflates it: the same page
    assert packed.headers["etag"] == "W/" + plain.headers["etag"]
    again = httpx.get(
        base + "/laws-2017-ja/-/index", headers={"Accept-Encoding": "gzip", "If-None-Match": packed.headers["etag"]}
    )
    assert again.status_code == 304
