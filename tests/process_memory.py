"""What a process holds in memory, from Linux's /proc/PID/status, in MiB: VmRSS (now), VmHWM (peak
since start or the last reset), RssAnon (its own pages), RssFile (pages of mapped files)."""

from __future__ import annotations

from pathlib import Path

FIELDS = ("VmRSS", "VmHWM", "RssAnon", "RssFile")


def memory_mib(pid: int | None) -> dict[str, float]:
    """The FIELDS of a running process; {} when there is none (no pid, or it is gone)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text() if pid else ""
    except (FileNotFoundError, ProcessLookupError):
        return {}
    fields = {}
    for line in status.splitlines():
        name, _, value = line.partition(":")
        if name in FIELDS:
            fields[name] = int(value.split()[0]) / 1024
    return fields
