"""laws_site/http/workers.py: `bridge-laws serve --workers N` - one port, N processes, connections handed
out in turn, a worker's end ends the service, a stop signal stops every worker."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import httpx
import pytest

from tests.live_server import ROOT, free_port, serve_argv, serving

pytestmark = pytest.mark.live  # real server processes

# A dispatcher whose workers answer each connection with their pid (and, asked "die", exit 3):
# the dispatch and the supervision without Datasette.
ECHO_WORKERS = textwrap.dedent("""
    import os, socket, sys
    from laws_site.http.workers import listen, serve_forked

    def serve_one(channel):
        while True:
            message, fds, _, _ = socket.recv_fds(channel, 16, 4)
            if not message:
                return
            for fd in fds:
                with socket.socket(fileno=fd) as connection:
                    asked = connection.recv(16)
                    if asked == b"die":
                        os._exit(3)
                    connection.sendall(str(os.getpid()).encode())

    listener = listen("127.0.0.1", int(sys.argv[1]))
    print("listening", flush=True)
    sys.exit(serve_forked(listener, int(sys.argv[2]), serve_one))
""")


def start_echo(port: int, workers: int) -> subprocess.Popen:
    process = subprocess.Popen(
        [sys.executable, "-c", ECHO_WORKERS, str(port), str(workers)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout.readline().strip() == "listening"
    return process


def ask(port: int, what: bytes = b"pid") -> str:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(what)
        return connection.recv(64).decode()


def workers_of(pid: int) -> list[int]:
    """The server's children but the offline packs' process (`bridge-laws pack`, started when the
    build's packs are missing)."""
    children = [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    return [child for child in children if b"pack" not in Path(f"/proc/{child}/cmdline").read_bytes().split(b"\0")]


def stopped(process: subprocess.Popen, timeout: float = 10) -> tuple[int, str]:
    _, err = process.communicate(timeout=timeout)
    return process.returncode, err


def test_connections_go_to_each_worker_in_turn():
    port = free_port()
    process = start_echo(port, 3)
    try:
        answers = [ask(port) for _ in range(9)]
        workers = workers_of(process.pid)
    finally:
        process.send_signal(signal.SIGTERM)
        code, _ = stopped(process)
    assert sorted(set(answers)) == sorted(str(pid) for pid in workers) and len(workers) == 3
    assert answers[:3] * 3 == answers  # in turn: each worker every third connection, none twice running
    assert code == 0


def test_a_worker_that_dies_ends_the_service_with_a_message():
    port = free_port()
    process = start_echo(port, 2)
    workers = workers_of(process.pid)
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(b"die")
        assert connection.recv(16) == b""  # the worker exited without answering
    code, err = stopped(process)
    assert code == 1
    assert "ended by itself (exit status 3); stopping the others" in err
    for pid in workers:
        assert not Path(f"/proc/{pid}").exists()  # the other worker was stopped and reaped too
    with pytest.raises(OSError):
        ask(port)  # nothing listens any more


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_signal_stops_every_worker(stop):
    port = free_port()
    process = start_echo(port, 2)
    assert ask(port) != ask(port)
    workers = workers_of(process.pid)
    process.send_signal(stop)
    code, err = stopped(process)
    assert code == 0, err
    assert not any(Path(f"/proc/{pid}").exists() for pid in workers)


def test_bridge_laws_serve_with_two_workers(laws_db_path, tmp_path):
    """The whole site in two processes: each answers, connections alternate, SIGTERM ends both."""
    port = free_port()
    argv = serve_argv(laws_db_path, port) + ["--workers", "2"]
    with serving(laws_db_path, port=port, argv=argv, log=tmp_path / "serve.log") as (base, process):
        workers = workers_of(process.pid)
        assert len(workers) == 2
        clients = [httpx.Client(base_url=base) for _ in range(4)]  # four keep-alive connections
        try:
            for n, client in enumerate(clients):
                answer = client.get("/-/search.json", params={"q": "リボーク", "limit": "3", "_n": str(n)})
                assert answer.status_code == 200
                assert answer.json()["results"][0]["id"].startswith("laws-2017-ja:")
            # each worker holds two of the four connections
            assert {pid: established_on(pid, port) for pid in workers} == {pid: 2 for pid in workers}
        finally:
            for client in clients:
                client.close()
        page = httpx.get(base + "/laws-2017-ja/61B")
        assert page.status_code == 200 and "61B" in page.text
    assert not any(Path(f"/proc/{pid}").exists() for pid in workers)
    log = (tmp_path / "serve.log").read_text()
    assert "bridge-laws serve: 2 workers on http://127.0.0.1:" in log and "Traceback" not in log


def established_on(pid: int, port: int) -> int:
    """Open TCP connections to `port` that process `pid` holds (/proc/net/tcp rows by socket inode)."""
    inodes = {
        os.readlink(fd)[len("socket:[") : -1]
        for fd in Path(f"/proc/{pid}/fd").iterdir()
        if os.readlink(fd).startswith("socket:")
    }
    count = 0
    for table in ("tcp", "tcp6"):
        for row in Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]:
            fields = row.split()
            local_port, state, inode = int(fields[1].rsplit(":", 1)[1], 16), fields[3], fields[9]
            count += local_port == port and state == "01" and inode in inodes  # 01: ESTABLISHED
    return count


def test_workers_outside_the_range_are_refused(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "laws_site.cli", "serve", "--db", str(tmp_path / "x.db"), "--workers", "0"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2 and "--workers" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "x.db").exists()  # refused before anything was built


def test_the_cli_does_not_import_asyncio_for_a_build():
    """`bridge-laws build` imports the CLI, which reads MAX_WORKERS from workers.py: asyncio (~20 ms,
    2.5 % of a build) is imported only by a worker that serves."""
    code = "import sys\nimport laws_site.cli\nprint('asyncio' in sys.modules)\n"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "False", done.stderr


def test_a_port_taken_before_the_workers_listen_is_a_one_line_error():
    from ingest.build.cli import CliError
    from laws_site.cli import listen_for_workers

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        with pytest.raises(CliError, match=f"cannot serve on 127.0.0.1:{port}: Address already in use"):
            listen_for_workers("127.0.0.1", port)


def test_each_worker_picks_up_a_rebuilt_database(laws_db_path, tmp_path):
    """The reload check runs in every worker: both answer from the new file after a rebuild."""
    import shutil

    from tests.test_api_hardening import replace_with_edited_copy

    db = tmp_path / "laws.db"
    shutil.copy(laws_db_path, db)
    port = free_port()
    argv = serve_argv(db, port) + ["--workers", "2"]
    with serving(db, port=port, argv=argv, log=tmp_path / "serve.log") as (base, process):
        clients = [httpx.Client(base_url=base, timeout=30) for _ in range(2)]  # one connection to each worker
        try:

            def titles() -> list[str]:
                return [client.get("/laws-2017-ja/61A.json").json()["title"] for client in clients]

            assert titles() == ["リボークの定義"] * 2
            assert {pid: established_on(pid, port) for pid in workers_of(process.pid)} == {
                pid: 1 for pid in workers_of(process.pid)
            }
            replace_with_edited_copy(db, "REBUILT 1")
            assert titles() == ["REBUILT 1"] * 2
        finally:
            for client in clients:
                client.close()
    assert (tmp_path / "serve.log").read_text().count("picked up the rebuilt laws.db") == 2


def test_workers_leave_when_the_dispatcher_is_killed(laws_db_path, tmp_path):
    """No orphans: a dispatcher killed outright (SIGKILL, no chance to pass anything on) closes its
    ends of the channels, and each worker, reading the end of its channel, shuts down."""
    port = free_port()
    argv = serve_argv(laws_db_path, port) + ["--workers", "2"]
    with serving(laws_db_path, port=port, argv=argv, log=tmp_path / "serve.log") as (base, process):
        workers = workers_of(process.pid)
        assert httpx.get(base + "/-/versions.json").status_code == 200
        process.send_signal(signal.SIGKILL)
        process.wait(10)
        deadline = time.monotonic() + 15
        while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(alive(pid) for pid in workers)


def alive(pid: int) -> bool:
    """Running (not a zombie waiting for a parent that is gone: those init reaps)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
