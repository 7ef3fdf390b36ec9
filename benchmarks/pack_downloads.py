"""Issue 38: a download costs what it sends. The offline pages pack (2.2 MB stored gzipped, 24 MB of
JSON) downloaded without `Accept-Encoding: gzip` by 50 clients at once, then by 30 slow readers
(16 KB every half second for 20 s): the server's memory before, at its peak during each attack,
and the growth. Target: growth <= 100 MB.

Each run starts `bridge-laws serve` afresh over a copy of the database with its packs: of this
checkout, and, with `--checkout DIR`, of another one (the before figures: `--checkout /work/main`
on a branch without streamed packs), each in its own process, three runs each, medians printed.

    .venv/bin/python -m benchmarks.pack_downloads --db laws.db [--checkout ../main] [--runs 3]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import signal
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

from benchmarks.process_memory import memory_mib
from ingest.build.identity import read_build_id
from ingest.build.outputs import packs_root
from laws_site.offline.make import add_packs
from tests.live_server import serving

CONCURRENT = 50
SLOW = 30
SLOW_SECONDS = 20.0
SLOW_CHUNK = 16 * 1024


def group_rss(pid: int) -> float:
    """The RSS of the server and its children (uvicorn's workers), MiB."""
    pids = [pid] + [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    return sum(memory_mib(p).get("VmRSS", 0.0) for p in pids)


class PeakWatcher:
    """The highest group RSS seen, sampled every 50 ms while an attack runs."""

    def __init__(self, pid: int):
        self.pid, self.peak, self.running = pid, 0.0, True

    async def watch(self) -> None:
        while self.running:
            self.peak = max(self.peak, group_rss(self.pid))
            await asyncio.sleep(0.05)


async def concurrent_plain(base: str, path: str) -> int:
    async with httpx.AsyncClient(base_url=base, timeout=300, headers={"accept-encoding": "identity"}) as client:

        async def one() -> int:
            total = 0
            async with client.stream("GET", path) as response:
                async for chunk in response.aiter_raw():
                    total += len(chunk)
            return total

        sizes = await asyncio.gather(*(one() for _ in range(CONCURRENT)))
    return min(sizes)


async def slow_readers(base: str, path: str) -> int:
    host, port = base.removeprefix("http://").split(":")

    async def one() -> int:
        reader, writer = await asyncio.open_connection(host, int(port), limit=SLOW_CHUNK)
        writer.transport.set_write_buffer_limits(0)
        sock = writer.get_extra_info("socket")
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, SLOW_CHUNK)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept-Encoding: identity\r\n\r\n".encode())
        await writer.drain()
        got, deadline = 0, time.monotonic() + SLOW_SECONDS
        while time.monotonic() < deadline:
            chunk = await reader.read(SLOW_CHUNK)
            if not chunk:
                break
            got += len(chunk)
            await asyncio.sleep(0.5)
        writer.close()
        return got

    return min(await asyncio.gather(*(one() for _ in range(SLOW))))


async def attack(pid: int, run) -> tuple[float, float, int]:
    before = group_rss(pid)
    watcher = PeakWatcher(pid)
    watching = asyncio.create_task(watcher.watch())
    try:
        sent = await run()
    finally:
        watcher.running = False
        await watching
    return before, watcher.peak, sent


def one_run(db: Path, checkout: Path) -> dict:
    build = read_build_id(db)
    path = f"/-/offline/pages.json?build={build}&lang=ja"
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    argv = [sys.executable, "-m", "laws_site.cli", "serve", "--db", str(db), "--port", "{port}"]
    with serve_checkout(db, checkout, env, argv) as (base, process):
        httpx.get(base + path, headers={"accept-encoding": "identity"}, timeout=300)  # warm: the first read
        figures = {}
        for name, run in (
            ("50 concurrent", lambda: concurrent_plain(base, path)),
            ("30 slow", lambda: slow_readers(base, path)),
        ):
            before, peak, sent = asyncio.run(attack(process.pid, run))
            figures[name] = {"before": before, "peak": peak, "growth": peak - before, "bytes": sent}
        return figures


def serve_checkout(db: Path, checkout: Path, env: dict, argv: list[str]):
    """`bridge-laws serve` of that checkout's code (its modules first on the path), on a free port."""
    from tests.live_server import free_port

    port = free_port()
    return serving(db, port=port, argv=[a.replace("{port}", str(port)) for a in argv], cwd=checkout, env=env)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--checkout", type=Path, help="also serve this checkout's code (the before figures)")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    add_packs(args.db, log=lambda line: None)
    here = Path(__file__).resolve().parent.parent
    checkouts = [("this checkout", here)] + ([("--checkout", args.checkout.resolve())] if args.checkout else [])
    for label, checkout in checkouts:
        runs = []
        for _ in range(args.runs):
            with tempfile.TemporaryDirectory() as scratch:
                db = Path(scratch) / "laws.db"
                shutil.copy(args.db, db)
                shutil.copytree(packs_root(args.db), packs_root(db))
                runs.append(one_run(db, checkout))
        for attack_name in runs[0]:
            growth = statistics.median(r[attack_name]["growth"] for r in runs)
            before = statistics.median(r[attack_name]["before"] for r in runs)
            peak = statistics.median(r[attack_name]["peak"] for r in runs)
            print(
                f"{label:14} {attack_name:14} RSS before {before:7.1f} MiB, peak {peak:7.1f} MiB, "
                f"growth {growth:7.1f} MiB (median of {len(runs)}; runs: "
                + ", ".join(f"{r[attack_name]['growth']:.0f}" for r in runs)
                + f"; each client got >= {min(r[attack_name]['bytes'] for r in runs):,} B)"
            )
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.default_int_handler)
    sys.exit(main())
