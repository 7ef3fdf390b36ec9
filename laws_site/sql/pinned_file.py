"""The database file the server started with is the one it serves.

Datasette opens a connection to a file database lazily, one per SQL thread, the first time that
thread reads it. A file renamed over laws.db while the server runs (a rebuild copied in place of a
restart, another application's file) would then be read by whichever thread opened last. At start-up
every SQL thread opens its connection to the file as it is, so the server keeps reading that file (an
open SQLite connection keeps its file, renamed over or not) until it restarts: a rebuild ships by
restart (README), and a foreign file is never served (tests/test_live_fuzz.py).
"""

from __future__ import annotations

import asyncio
import threading

WAIT_SECONDS = 10


async def open_on_every_thread(database, threads: int) -> None:
    """One read on each of the `threads` SQL threads at once (each waits for the others, so no thread
    takes two), which opens each thread's connection."""
    if threads < 1:
        return
    together = threading.Barrier(threads)

    def wait_for_the_others(conn) -> None:
        conn.execute("select 1").fetchone()
        try:
            together.wait(timeout=WAIT_SECONDS)
        except threading.BrokenBarrierError:
            pass  # a thread busy elsewhere: its connection opens on its first read, as without this

    await asyncio.gather(*(database.execute_fn(wait_for_the_others) for _ in range(threads)))
