"""Issue 38's attacks (items 1, 2, 4, 5) as a benchmark: `python -m benchmarks.server_attacks --issue 38
--db laws.db [--checkout DIR]` (see server_attacks.py). Each attack starts its own server(s), is
bounded in time and prints what the bystander (a unit page every 0.5 s) got meanwhile. The same
attacks are live tests in tests/test_server_platform.py.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx

from tests.live_server import PYTHON, ROOT, free_port, proxied, serving
from tests.server_probe import (
    ANOTHER_CLIENT,
    ATTACKER,
    CRAFTED,
    UNIT_PAGE,
    Bystander,
    ab_burst,
    hold_half_sent,
    raw_request,
    slow_reader,
    stays_on_the_site,
    wrk_flood,
)

IDLE_SECONDS = 30
FLOOD_SECONDS = 10
AFTER_KILL_SECONDS = 20


@contextlib.contextmanager
def served(db: Path, checkout: Path | None, workers: int = 1, settings: tuple[str, ...] = ()):
    """`bridge-laws serve` of this checkout or of `checkout` (its code first on the path)."""
    port = free_port()
    argv = [PYTHON, "-m", "laws_site.cli", "serve", "--db", str(db), "--port", str(port), "--workers", str(workers)]
    argv += settings
    env = dict(os.environ, PYTHONPATH=str(checkout)) if checkout else None
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "server.log"
        with serving(db, port=port, argv=argv, log=log, cwd=checkout or ROOT, env=env, timeout=180) as (base, process):
            yield base, process, log


def children(parent: int) -> set[int]:
    """The server's worker processes (not the offline packs' maker, not multiprocessing's tracker)."""
    found = set()
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{entry}/stat") as stat:
                ppid = int(stat.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                command = cmdline.read()
        except OSError:
            continue
        if ppid == parent and b"resource_tracker" not in command and b"\0pack\0" not in command:
            found.add(int(entry))
    return found


def bystander_line(bystander: Bystander) -> str:
    return f"{bystander.summary()}; 200 within 1 s: {bystander.within(1.0)}/{len(bystander.outcomes)}"


def idle_sockets(db, checkout, behind_proxy: bool) -> str:
    with served(db, checkout) as (base, _process, _log):
        with proxied(base) if behind_proxy else contextlib.nullcontext(base) as front:
            with Bystander(front, timeout=10) as bystander:
                held = hold_half_sent(front, count=1000, seconds=IDLE_SECONDS, source=ATTACKER)
    return f"{held.summary()}\n    {bystander_line(bystander)}"


def keep_alive_flood(db, checkout, behind_proxy: bool) -> str:
    with served(db, checkout) as (base, _process, log):
        with proxied(base) if behind_proxy else contextlib.nullcontext(base) as front:
            with Bystander(front, timeout=10, source=ANOTHER_CLIENT) as bystander:
                flood = wrk_flood(front + "/-/versions.json", connections=1500, seconds=FLOOD_SECONDS)
        lines = log.read_text(errors="replace").count("\n")
    return (
        f"wrk: {flood['requests']:,} requests, {flood['non_2xx_3xx']:,} not 2xx/3xx, socket errors "
        f"{flood['socket_errors']}; server log {lines:,} lines\n    {bystander_line(bystander)}"
    )


def burst(db, checkout, workers: int) -> str:
    with served(db, checkout, workers) as (base, _process, _log):
        with Bystander(base, timeout=10, source=ANOTHER_CLIENT) as bystander:
            result = ab_burst(base + UNIT_PAGE, concurrency=1000, requests=10_000)
    return f"{result.summary()}\n    {bystander_line(bystander)}"


def sigterm_with_slow_reader(db, checkout, workers: int) -> str:
    with served(db, checkout, workers) as (base, process, _log):
        with slow_reader(base, "/laws.db"):
            time.sleep(1)
            started = time.monotonic()
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(90)
                return f"gone {time.monotonic() - started:.1f} s after SIGTERM"
            except subprocess.TimeoutExpired:
                return "still running 90 s after SIGTERM (killed)"


def kill_one_worker(db, checkout) -> str:
    with served(db, checkout, workers=2) as (base, process, _log):
        before = children(process.pid)
        victim = min(before)
        with Bystander(base, timeout=2) as bystander:
            os.kill(victim, signal.SIGKILL)
            time.sleep(AFTER_KILL_SECONDS)
        alive = process.poll() is None
        after = children(process.pid) if alive else set()
    state = f"service running, {len(after)} workers" if alive else f"service ended (exit {process.returncode})"
    return f"kill -9 of 1 of {len(before)} workers: {state}\n    {bystander_line(bystander)}"


def index_on_the_wire(db, checkout) -> str:
    with served(db, checkout) as (base, _process, _log):
        path = base + "/laws-2017-ja/-/index"
        plain = httpx.get(path, headers={"Accept-Encoding": "identity"}, timeout=30)
        packed = httpx.get(path, headers={"Accept-Encoding": "gzip"}, timeout=30)
    wire = int(packed.headers.get("content-length") or len(packed.content))
    return (
        f"identity {len(plain.content):,} B; with Accept-Encoding: gzip {wire:,} B on the wire "
        f"({packed.headers.get('content-encoding') or 'not compressed'}, {len(plain.content) / wire:.1f}x smaller)"
    )


def crafted_paths(db, checkout, base_url: str) -> str:
    """The issue's crafted paths after a language prefix (tests/server_probe.CRAFTED), sent byte for
    byte under `base_url`: what they are answered, how many connections dropped, Locations off the site."""
    settings = ("--setting", "base_url", base_url) if base_url != "/" else ()
    with served(db, checkout, settings=settings) as (base, _process, _log):
        statuses, dropped, off_site = Counter(), 0, []
        for path in CRAFTED:
            status, headers = raw_request(base, base_url.rstrip("/") + path)
            statuses[status] += 1
            dropped += status is None
            location = headers.get("location")
            if location is not None and not stays_on_the_site(base + base_url.rstrip("/"), path, location):
                off_site.append(f"{path} -> {location!r}")
    answered = ", ".join(f"{count} x {status}" for status, count in sorted(statuses.items(), key=str))
    return f"{len(CRAFTED)} paths: {answered}; {dropped} dropped; {len(off_site)} off the site {off_site}"


ATTACKS = [
    ("crafted paths, at the root", lambda db, co: crafted_paths(db, co, "/")),
    ("crafted paths, base_url /site/", lambda db, co: crafted_paths(db, co, "/site/")),
    ("1,000 half-sent sockets, 30 s, alone", lambda db, co: idle_sockets(db, co, behind_proxy=False)),
    ("1,000 half-sent sockets, 30 s, behind haproxy", lambda db, co: idle_sockets(db, co, behind_proxy=True)),
    ("wrk -c1500 10 s, alone", lambda db, co: keep_alive_flood(db, co, behind_proxy=False)),
    ("wrk -c1500 10 s, behind haproxy", lambda db, co: keep_alive_flood(db, co, behind_proxy=True)),
    ("ab -c 1000 -n 10000, 1 worker", lambda db, co: burst(db, co, 1)),
    ("ab -c 1000 -n 10000, --workers 2", lambda db, co: burst(db, co, 2)),
    ("SIGTERM, slow reader, 1 worker", lambda db, co: sigterm_with_slow_reader(db, co, 1)),
    ("SIGTERM, slow reader, --workers 2", lambda db, co: sigterm_with_slow_reader(db, co, 2)),
    ("kill -9 one worker", kill_one_worker),
    ("索引 page on the wire", index_on_the_wire),
]


def measure(db: Path, checkout: Path | None, only: str | None) -> int:
    print(f"issue 38 attacks on `bridge-laws serve` of {checkout or ROOT}; load {os.getloadavg()[0]:.1f}", flush=True)
    for label, attack in ATTACKS:
        if only and only not in label:
            continue
        started = time.monotonic()
        result = attack(db.resolve(), checkout.resolve() if checkout else None)
        print(f"{label} ({time.monotonic() - started:.0f} s): {result}", flush=True)
    return 0
