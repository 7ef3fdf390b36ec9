"""Peak memory (max RSS) of `bridge-laws build` and `bridge-laws serve`, each against a baseline.

build: `os.wait4` rusage of the child (ru_maxrss) for `bridge-laws build`, against a child that
only reads the corpus and tokenizes every line with SudachiPy (benchmarks/build_bench.baseline).
serve: /proc/PID/status VmHWM of `bridge-laws serve` after start-up and after a load of search
requests at concurrency 8, against plain `datasette serve -i` of the same database (no plugins).
Medians of --runs runs each.

    .venv/bin/python -m benchmarks.memory --runs 3
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.search_load import KINDS, PLAIN, SEARCH, free_port, load, probe, serve_argv, serving
from tests.process_memory import memory_mib

ROOT = Path(__file__).resolve().parent.parent

PYTHON = sys.executable


def child_max_rss_mib(argv: list[str]) -> float:
    process = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _pid, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise RuntimeError(f"{argv} exited with {process.returncode}")
    return usage.ru_maxrss / 1024  # KiB on Linux


def serve_peak(db: Path, argv_for, db_name: str, requests_seconds: float) -> tuple[float, float, dict]:
    """(VmHWM after start-up, VmHWM after load, /proc status fields after load) of the serving
    process; argv_for(port) -> argv. RssFile counts the pages of mapped files the process touched
    (for us mostly the Sudachi dictionary, ~190 MB mapped read-only and shared), RssAnon its own."""
    port = free_port()
    with serving(db, port=port, argv=argv_for(port)) as (base, process):
        idle = memory_mib(process.pid)["VmHWM"]
        bases = {kind: base for kind in KINDS}  # one server answers both kinds of request
        kinds = [kind for kind, status in probe(bases, db_name).items() if status == 200]
        for kind in kinds:
            asyncio.run(load(bases, kind, db_name, 8, requests_seconds))
        after = memory_mib(process.pid)
        return idle, after["VmHWM"], after


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--load-seconds", type=float, default=5.0)
    args = parser.parse_args()
    print(f"machine: {platform.node()} {platform.machine()} x{os.cpu_count()}, Python {platform.python_version()}")
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "laws.db"
        build_argv = [PYTHON, "-m", "laws_site.cli", "build", "--db", str(db)]
        base_argv = [PYTHON, "-c", "import benchmarks.build_bench as b; b.baseline()"]
        builds, bases = [], []
        for _ in range(args.runs):
            bases.append(child_max_rss_mib(base_argv))
            builds.append(child_max_rss_mib(build_argv))
        b, base = statistics.median(builds), statistics.median(bases)
        print(
            f"build max RSS: median {b:.0f} MiB (runs {fmt(builds)}); baseline read+Sudachi {base:.0f} MiB "
            f"(runs {fmt(bases)}); ratio {b / base:.2f}x"
        )
        ours, plain = [], []
        for _ in range(args.runs):
            ours.append(serve_peak(db, lambda port: serve_argv(db, port), "laws", args.load_seconds))
            plain.append(
                serve_peak(
                    db,
                    lambda port: [PYTHON, "-m", "datasette", "serve", "-i", str(db), "--port", str(port)],
                    "laws",
                    args.load_seconds,
                )
            )
        for label, values in (("bridge-laws serve", ours), ("plain datasette -i", plain)):
            idle = statistics.median(v[0] for v in values)
            peak = statistics.median(v[1] for v in values)
            anon = statistics.median(v[2]["RssAnon"] for v in values)
            mapped = statistics.median(v[2]["RssFile"] for v in values)
            print(
                f"{label:<20} VmHWM idle {idle:.0f} MiB, after load {peak:.0f} MiB (runs {fmt([v[1] for v in values])});"
                f" then RssAnon {anon:.0f} MiB, RssFile {mapped:.0f} MiB"
            )
        ratio = statistics.median(v[1] for v in ours) / statistics.median(v[1] for v in plain)
        print(
            f"serve peak ratio ours/plain: {ratio:.2f}x  (load: {args.load_seconds:g}s of {SEARCH} and {PLAIN} "
            f"queries at c=8 where the endpoint answers)"
        )
    return 0


def fmt(values: list[float]) -> str:
    return " ".join(f"{v:.0f}" for v in values)


if __name__ == "__main__":
    sys.exit(main())
