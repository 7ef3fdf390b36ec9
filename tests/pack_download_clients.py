"""The clients of issue 38's pack-download attack, shared by its live test (tests/test_live_downloads.py)
and its benchmark (benchmarks/pack_downloads.py): 50 plain downloads at once, 30 slow readers, and the
server's memory (itself and its workers) sampled while they run."""

from __future__ import annotations

import asyncio
import socket
import time
from pathlib import Path

import httpx

from tests.process_memory import memory_mib

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
