"""Peak memory and time of `bridge-laws serve` under the worst SQL we could find, one query at a time.

For each query: reset the server's peak RSS (`/proc/PID/clear_refs` 5), send the request, then read
VmHWM (peak resident set since the reset) from `/proc/PID/status`. Reports status, seconds,
response bytes and peak RSS per query, and the worst peak. Linux only (procfs).

    .venv/bin/python -m benchmarks.hostile_sql                    # builds a database in a temp dir
    .venv/bin/python -m benchmarks.hostile_sql --db laws.db --timeout 120
    .venv/bin/python -m benchmarks.hostile_sql --url http://127.0.0.1:8130 --pid 12345

Target (issue 17): no request above a few hundred MB or a few seconds; every answer 4xx or 200.
"""

from __future__ import annotations

import argparse
import os
import platform
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

from benchmarks.search_load import build_db
from tests.live_server import serving
from tests.process_memory import memory_mib

ROWS_1001 = "with recursive c(x) as (select 1 union all select x + 1 from c limit 1001) "
COUNTER = "with recursive c(x) as (select 1 union all select x + 1 from c) "

# (label, path, params): Datasette's arbitrary SQL as JSON, CSV and HTML, and the worst shapes
HOSTILE = [
    ("baseline: all sections", "/laws.json", {"sql": "select * from sections", "_shape": "array"}),
    ("randomblob 1e9", "/laws.json", {"sql": "select randomblob(1000000000)"}),
    ("zeroblob 1e9", "/laws.json", {"sql": "select zeroblob(1000000000)"}),
    ("zeroblob 1e9 as HTML", "/laws", {"sql": "select zeroblob(1000000000)"}),
    ("hex(zeroblob 5e8)", "/laws.json", {"sql": "select hex(zeroblob(500000000))"}),
    ("printf %.*c 1e9", "/laws.json", {"sql": "select printf('%.*c', 1000000000, 'x')"}),
    (
        "replace() blow-up 1e9",
        "/laws.json",
        {"sql": "select replace(printf('%.*c', 100000, 'x'), 'x', printf('%.*c', 10000, 'y'))"},
    ),
    (
        "group_concat sections x xrefs",
        "/laws.json",
        {"sql": "select length(group_concat(s.text || x.surface)) from sections s, xrefs x"},
    ),
    (
        "group_concat 1e7-row CTE",
        "/laws.json",
        {
            "sql": "with recursive c(x) as (select 1 union all select x + 1 from c limit 10000000) "
            "select length(group_concat(x)) from c"
        },
    ),
    (
        "json_group_array of 1 MB strings",
        "/laws.json",
        {
            "sql": ROWS_1001.replace("1001", "100000")
            + "select length(json_group_array(printf('%.*c', 1000000, 'x'))) from c"
        },
    ),
    ("1001 rows x 1 MB zeroblob", "/laws.json", {"sql": ROWS_1001 + "select zeroblob(1000000) from c"}),
    # just under the 256 KiB value limit: what the result budget is for
    ("1001 rows x 250 KB zeroblob", "/laws.json", {"sql": ROWS_1001 + "select zeroblob(250000) from c"}),
    ("1001 rows x 250 KB text", "/laws.json", {"sql": ROWS_1001 + "select printf('%.*c', 250000, 'x') from c"}),
    (
        "1001 rows x 8 cols x 250 KB",
        "/laws.json",
        {"sql": ROWS_1001 + "select " + ", ".join(f"zeroblob(250000) as c{i}" for i in range(8)) + " from c"},
    ),
    ("1001 rows x 250 KB as CSV", "/laws.csv", {"sql": ROWS_1001 + "select printf('%.*c', 250000, 'x') from c"}),
    ("1001 rows x 250 KB as HTML", "/laws", {"sql": ROWS_1001 + "select printf('%.*c', 250000, 'x') from c"}),
    # the largest result the budget lets through, in the costliest JSON escapes
    (
        "7 rows x 250 KB text (fits)",
        "/laws.json",
        {"sql": ROWS_1001.replace("1001", "7") + "select printf('%.*c', 250000, 'x') from c"},
    ),
    (
        "emoji 60k x 33 rows (fits)",
        "/laws.json",
        {
            "sql": ROWS_1001.replace("1001", "33")
            + "select replace(printf('%.*c', 60000, 'x'), 'x', char(128512)) from c"
        },
    ),
    (
        "control chars 250k x 7 rows (fits)",
        "/laws.json",
        {"sql": ROWS_1001.replace("1001", "7") + "select replace(printf('%.*c', 250000, 'x'), 'x', char(1)) from c"},
    ),
    ("sections table, 1000 rows", "/laws/sections.json", {"_size": "max"}),
    (
        "emoji 60k x 1001 rows",
        "/laws.json",
        {"sql": ROWS_1001 + "select replace(printf('%.*c', 60000, 'x'), 'x', char(128512)) from c"},
    ),
    (
        "trim 200k x 200k",
        "/laws.json",
        {"sql": "select length(ltrim(printf('%.*c', 200000, 'a'), printf('%.*c', 200000, 'b') || 'a'))"},
    ),
    (
        "instr 250k / 125k worst case",
        "/laws.json",
        {"sql": "select instr(printf('%.*c', 250000, 'a'), printf('%.*c', 125000, 'a') || 'b')"},
    ),
    (
        "glob character class worst case",
        "/laws.json",
        {"sql": "select printf('%.*c', 250000, 'a') glob '*[' || printf('%.*c', 250, 'b') || ']'"},
    ),
    ("runaway recursive CTE", "/laws.json", {"sql": COUNTER + "select count(*) from c"}),
    (
        "big join + sort",
        "/laws.json",
        {"sql": "select a.id, b.id from sections a, sections b order by a.text || b.text limit 5"},
    ),
    (
        "sort of 1e7 wide rows",
        "/laws.json",
        {
            "sql": "with recursive c(x) as (select 1 union all select x + 1 from c limit 10000000) "
            "select x, printf('%.*c', 200, 'x') from c order by random() limit 1"
        },
    ),
    ("deep expression", "/laws.json", {"sql": "select " + "(" * 900 + "1" + ")" * 900}),
    ("many columns", "/laws.json", {"sql": "select " + ", ".join(["1"] * 2000)}),
]


def vm_hwm_mib(pid: int) -> float:
    """Peak RSS since the last reset; NaN once the server is gone (killed)."""
    return memory_mib(pid).get("VmHWM", float("nan"))


def reset_peak(pid: int) -> None:
    Path(f"/proc/{pid}/clear_refs").write_text("5")


def watchdog(pid: int, kill_above_mib: float, stop: threading.Event) -> None:
    """Kill the server before it takes the machine down (an unbounded server reached 22 GB)."""
    while not stop.wait(0.05):
        rss = memory_mib(pid).get("VmRSS")
        if rss is None:
            return  # the server is gone
        if rss > kill_above_mib:
            print(f"WATCHDOG: server above {kill_above_mib:.0f} MiB, killed", flush=True)
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            return


def measure(base: str, pid: int, timeout: float, kill_above_mib: float = 4096) -> list[dict]:
    rows = []
    stop = threading.Event()
    threading.Thread(target=watchdog, args=(pid, kill_above_mib, stop), daemon=True).start()
    with httpx.Client(base_url=base, timeout=timeout) as client:
        for label, path, params in HOSTILE:
            reset_peak(pid)
            started = time.perf_counter()
            try:
                response = client.get(path, params=params)
                status, size = response.status_code, len(response.content)
            except httpx.HTTPError as error:
                status, size = type(error).__name__, 0
            rows.append(
                {
                    "label": label,
                    "status": status,
                    "seconds": time.perf_counter() - started,
                    "bytes": size,
                    "peak_mib": vm_hwm_mib(pid),
                }
            )
            print(
                f"{label:<36} {status!s:>5} {rows[-1]['seconds']:7.2f} s {size:>12,d} B "
                f"peak {rows[-1]['peak_mib']:8.0f} MiB",
                flush=True,
            )
            if rows[-1]["peak_mib"] != rows[-1]["peak_mib"]:
                print("the server is gone: stopping", flush=True)
                break
    stop.set()
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, help="database to serve (default: build one in a temp dir)")
    parser.add_argument("--url", help="measure an already running server (needs --pid)")
    parser.add_argument("--pid", type=int, help="pid of that server")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--kill-above", type=float, default=4096, help="kill the server above this RSS (MiB)")
    args = parser.parse_args()
    print(f"{platform.node()} {platform.platform()} Python {platform.python_version()}")
    if args.url:
        rows = measure(args.url, args.pid, args.timeout, args.kill_above)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            db = args.db or build_db(Path(tmp))
            with serving(db) as (base, process):
                print(f"idle peak after start-up: {vm_hwm_mib(process.pid):.0f} MiB")
                rows = measure(base, process.pid, args.timeout, args.kill_above)
    worst = max(rows, key=lambda r: (r["peak_mib"] != r["peak_mib"], r["peak_mib"]))
    slowest = max(rows, key=lambda r: r["seconds"])
    print(
        f"worst peak: {worst['peak_mib']:.0f} MiB ({worst['label']}); "
        f"slowest: {slowest['seconds']:.1f} s ({slowest['label']}); "
        f"5xx or transport errors: {sum(1 for r in rows if not isinstance(r['status'], int) or r['status'] >= 500)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
