"""What every forked child of the build shares: when a fork is safe, how a child starts and how
bytes cross a pipe, how a child that may still run is stopped. Imports nothing of the project, so
the CLI can fork before it imports the build (ingest/build/yaml_prefetch.py)."""

from __future__ import annotations

import gc
import os
import signal
import threading


def can_fork() -> bool:
    # forking a process that runs other threads can copy a held lock into the child
    return hasattr(os, "fork") and threading.active_count() == 1


def enter_child() -> None:
    """First thing in a forked child: the parent's signal handlers (SIGTERM unwinds the build,
    ingest/build/cli.py) are not the child's, and a short-lived child has no garbage worth collecting
    (a collection would only copy the parent's pages, copy-on-write)."""
    gc.disable()
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def read_exactly(fd: int, size: int) -> bytes:
    """`size` bytes from a pipe, fewer only if the writer closed its end first."""
    chunks, left = [], size
    while left and (chunk := os.read(fd, min(left, 1 << 20))):
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def close_child(pipe: int | None, pid: int | None) -> None:
    """Close our end of a child's pipe, then stop the child if it still runs, and reap it."""
    if pipe is not None:
        os.close(pipe)
    stop_child(pid)


def stop_child(pid: int | None) -> None:
    """Kill a forked child that may still run (the build failed meanwhile) and reap it."""
    if pid is None:
        return
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    os.waitpid(pid, 0)
