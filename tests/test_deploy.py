"""docs/deploy: the container recipe's parts, run here as the container runs them (docker cannot
build on this machine): haproxy accepts the shipped configuration, and the container's command
serves the site through the proxy and stops, both processes, on SIGTERM."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.live_server import PROXY_CONFIG, ROOT, free_port, wait_until_up

pytestmark = [pytest.mark.live, pytest.mark.slow]

DEPLOY = ROOT / "docs" / "deploy"


def test_every_file_the_dockerfile_copies_is_in_the_repository():
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    sources = re.findall(r"^COPY (\S+) ", dockerfile, re.M)
    assert sources and all((ROOT / source).exists() for source in sources), sources
    assert re.search(r'^CMD \["bridge-laws-site"\]', dockerfile, re.M)
    assert "COPY docs/deploy/entrypoint.sh /usr/local/bin/bridge-laws-site" in dockerfile


def test_haproxy_accepts_the_configuration():
    haproxy = shutil.which("haproxy")
    assert haproxy, "haproxy not found: install Debian's haproxy (.ci/run does)"
    env = dict(os.environ, LISTEN="127.0.0.1:8080", SITE="127.0.0.1:8001")
    checked = subprocess.run([haproxy, "-c", "-f", str(PROXY_CONFIG)], env=env, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_container_command_serves_through_the_proxy_and_stops_on_sigterm(laws_db_path, tmp_path):
    public, site = free_port(), free_port()
    env = dict(
        os.environ,
        PATH=f"{Path(sys.executable).parent}:{os.environ['PATH']}",
        LISTEN=f"127.0.0.1:{public}",
        SITE_PORT=str(site),
        BRIDGE_LAWS_DB=str(laws_db_path),
        WORKERS="2",
        HAPROXY_CONFIG=str(PROXY_CONFIG),
    )
    log = open(tmp_path / "container.log", "wb")
    process = subprocess.Popen(
        [str(DEPLOY / "entrypoint.sh")], env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    try:
        wait_until_up(f"http://127.0.0.1:{public}", process, 120)
        page = httpx.get(f"http://127.0.0.1:{public}/laws-2017-ja/61B2", headers={"Accept-Encoding": "gzip"})
        assert page.status_code == 200 and page.headers["content-encoding"] == "gzip"
        started = time.monotonic()
        process.send_signal(signal.SIGTERM)
        process.wait(20)
        assert time.monotonic() - started <= 15
        assert_nothing_left(process.pid, until=started + 15)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()


def assert_nothing_left(session: int, until: float) -> None:
    """No process of the container's session still runs (the site, its workers, haproxy) at `until`
    (multiprocessing's resource tracker ends a moment after the server it served)."""
    while session_processes(session) and time.monotonic() < until:
        time.sleep(0.2)
    left = session_processes(session)
    assert not left, f"still running after the container's command ended: {left}"


def session_processes(session: int) -> list[str]:
    left = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == session and fields[0] != "Z":
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                command = cmdline.read().replace(b"\0", b" ").decode(errors="replace")
            left.append(f"{entry} {command[:80]}")
    return left
