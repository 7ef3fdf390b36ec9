"""A real `bridge-laws serve` in a subprocess, for tests (and benchmarks) that need one over HTTP."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable

# What people type: Japanese terms and phrases (inflected, katakana variants), Chinese terms
# (simplified and traditional), English words and law numbers as typed into a search box.
QUERIES = [
    "リボーク",
    "順番外のリード",
    "ダミー",
    "取り消した",
    "ディクレアラー",
    "不当な情報",
    "ペナルティ・カード",
    "クレーム",
    "プレイヤー",
    "オープニング・リード",
    "未確定のコール",
    "誤った説明",
    "ボードの移動",
    "スコアの訂正",
    "主張",
    "ディレクター",
    "競技会",
    "調整スコア",
    "藏牌",
    "罚张",
    "明手",
    "庄家",
    "首攻",
    "叫牌",
    "不合规定的叫品",
    "裁判",
    "藏牌的确定",
    "罰張",
    "revoke",
    "claim",
    "dummy",
    "IMP",
    "Law 61",
    "61B",
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def serve_argv(db_path: Path, port: int) -> list[str]:
    """`bridge-laws serve`, exactly as a user runs it."""
    return [PYTHON, "-m", "laws_site.cli", "serve", "--db", str(db_path), "--port", str(port)]


@contextlib.contextmanager
def serving(
    db_path: Path,
    port: int | None = None,
    argv: list[str] | None = None,
    timeout: float = 60.0,
    log: Path | None = None,
    cwd: Path = ROOT,
    env: dict | None = None,
):
    """Run the server in a subprocess (own process group), yield (base_url, Popen); stop it after."""
    port = port or free_port()
    argv = argv or serve_argv(Path(db_path), port)
    log_file = open(log, "wb") if log else subprocess.DEVNULL
    process = subprocess.Popen(
        argv, cwd=cwd, env=env, stdout=log_file, stderr=subprocess.STDOUT, start_new_session=True
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base, process, timeout)
        yield base, process
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        if log:
            log_file.close()


def wait_until_up(base: str, process: subprocess.Popen, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode} before answering: {process.args}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(base + "/-/versions.json", timeout=2).status_code == 200:
                return
        time.sleep(0.2)
    raise RuntimeError(f"server did not answer within {timeout}s")


PROXY_CONFIG = ROOT / "docs" / "deploy" / "haproxy.cfg"


@contextlib.contextmanager
def proxied(site_base: str, config: Path = PROXY_CONFIG, timeout: float = 20.0, wait: bool = True):
    """Debian's haproxy with the shipped configuration in front of the server at `site_base`;
    yields the proxy's base URL (once the site answers through it, unless `wait` is false)."""
    haproxy = shutil.which("haproxy")
    assert haproxy, "haproxy not found: install Debian's haproxy (.ci/run does)"
    port = free_port()
    site = site_base.removeprefix("http://")
    env = dict(os.environ, LISTEN=f"127.0.0.1:{port}", SITE=site)
    process = subprocess.Popen(
        [haproxy, "-db", "-f", str(config)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        if wait:
            wait_until_up(base, process, timeout)
        else:
            wait_until_listening(port, process, timeout)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def wait_until_listening(port: int, process: subprocess.Popen, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"exited with {process.returncode} before listening: {process.args}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            return
        time.sleep(0.1)
    raise RuntimeError(f"nothing listening on {port} within {timeout}s")
