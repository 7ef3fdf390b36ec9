"""Page latency and serving memory, each project page against plain Datasette on the same laws.db.

Runs `bridge-laws serve` and plain `datasette serve -i` (its own virtualenv, benchmarks/.plain-venv,
made on first use: Datasette loads every plugin installed beside it, so a plain baseline needs an
environment without ours) on the same database, then for every project page (unit, contents, search,
diff, diff overview, citations, glossary, index) times --requests sequential requests per run,
interleaved with plain Datasette's row page for one section, over --runs runs. Prints p50 per page,
its ratio to the plain row page's p50, and each server's RSS (VmRSS, VmHWM, anonymous and file-backed
parts) after the load. The site makes each answer once per build (laws_site/responses.made_once), so
a page asked again is served from memory; the "cold" column asks each time with a query parameter
the page ignores (`&_cold=N`), so it measures reading the rows and rendering the template.

    .venv/bin/python -m benchmarks.pages --runs 5 --requests 40        # builds its own laws.db

Target (issue 13): every page p50 <= 1.5x the plain row page; serving RSS <= 2x plain Datasette's.
"x plain" divides by the plain row page's p50 over the whole run; "cold x beside" by the p50 of the
plain row page's requests made in the same loop as that page's (request for request, the same minutes
of a shared machine's load).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from tests.live_server import ROOT, free_port, serving
from tests.process_memory import memory_mib

PLAIN_VENV = ROOT / "benchmarks" / ".plain-venv"
BASELINE = "/laws/sections/laws-2017-ja:61B2"
PAGES = {
    "unit": "/laws-2017-ja/61B2",
    "unit.json": "/laws-2017-ja/61B2.json",
    "unit (law 61)": "/laws-2017-ja/61",
    "unit 27B1(b) ctx": "/laws-2017-ja/27B1(b)",  # context, siblings, defined terms (issue 22)
    "unit 64C (en)": "/en/laws-2017-ja/64C",  # English interface: links re-prefixed, rulings
    "contents": "/laws-2017-ja",
    "search": "/-/search?q=リボーク",
    "search.json": "/-/search.json?q=リボーク&limit=20",
    "diff (reprint)": "/-/diff?ref=61&from=revoke-notes-ja&to=laws-2017-ja",
    "diff (1997)": "/-/diff?ref=45&from=laws-1997-zh&to=laws-2017-ja",
    "diff (1997, law 16)": "/-/diff?ref=16&from=laws-1997-zh&to=laws-2017-ja",
    "diff overview": "/-/diff/overview?from=laws-1997-zh&to=laws-2017-ja",
    "history (law 16)": "/-/history/16",
    "history (law 45)": "/-/history/45",
    "history.json (law 16)": "/-/history/16.json",
    "citations": "/-/citations",
    "glossary": "/-/glossary",
    "index": "/laws-2017-ja/-/index?row=ら",
}


def plain_datasette() -> Path:
    """A virtualenv with the same Datasette version and nothing else."""
    binary = PLAIN_VENV / "bin" / "datasette"
    if not binary.exists():
        import datasette.version

        subprocess.run([sys.executable, "-m", "venv", str(PLAIN_VENV)], check=True)
        subprocess.run(
            [str(PLAIN_VENV / "bin" / "pip"), "install", "-q", f"datasette=={datasette.version.__version__}"],
            check=True,
        )
    return binary


def timed(client: httpx.Client, path: str) -> float:
    started = time.perf_counter()
    response = client.get(path)
    elapsed = time.perf_counter() - started
    if response.status_code != 200:
        raise RuntimeError(f"{path}: {response.status_code}")
    return elapsed


def measure(ours: str, plain: str, runs: int, requests: int) -> tuple[dict, dict, dict]:
    """(samples of repeated requests, samples of first requests), per page, plus the plain row page;
    and, per page, the plain row page's samples taken beside that page's (the same moments: on a
    shared machine the load changes while the pages are measured one after the other)."""
    warm: dict[str, list[float]] = {name: [] for name in ["plain row page", *PAGES]}
    cold: dict[str, list[float]] = {name: [] for name in PAGES}
    beside: dict[str, list[float]] = {name: [] for name in PAGES}
    fresh = iter(range(10**9))
    with httpx.Client(base_url=ours, timeout=30) as site, httpx.Client(base_url=plain, timeout=30) as baseline:
        timed(baseline, BASELINE)
        for path in PAGES.values():  # the first search loads the dictionary
            timed(site, path)
        for _ in range(runs):
            for name, path in PAGES.items():
                for _ in range(requests):
                    plain_sample = timed(baseline, BASELINE)
                    warm["plain row page"].append(plain_sample)
                    beside[name].append(plain_sample)
                    warm[name].append(timed(site, path))
                    cold[name].append(timed(site, path + ("&" if "?" in path else "?") + f"_cold={next(fresh)}"))
    return warm, cold, beside


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, help="an existing laws.db (default: build one in a temp dir)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--requests", type=int, default=20, help="requests per page per run")
    args = parser.parse_args()
    print(f"machine: {platform.node()} {platform.machine()} x{os.cpu_count()}, Python {platform.python_version()}")
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db
        if db is None:
            db = Path(tmp) / "laws.db"
            subprocess.run(
                [sys.executable, "-m", "laws_site.cli", "build", "--db", str(db)],
                cwd=ROOT,
                check=True,
                capture_output=True,
            )
        plain_port = free_port()
        plain_argv = [str(plain_datasette()), "serve", "-i", str(db), "--port", str(plain_port)]
        with (
            serving(db) as (ours, our_process),
            serving(db, port=plain_port, argv=plain_argv) as (plain, plain_process),
        ):
            samples, cold, beside = measure(ours, plain, args.runs, args.requests)
            memory = {
                "bridge-laws serve": memory_mib(our_process.pid),
                "plain datasette": memory_mib(plain_process.pid),
            }
    base = statistics.median(samples["plain row page"])
    print(
        f"\n{'page':<18} {'p50 ms':>8} {'p95 ms':>8} {'x plain row':>12} {'cold p50':>9} {'x plain':>8}"
        f" {'plain beside':>12} {'cold x beside':>13}   (runs {args.runs} x {args.requests} requests)"
    )
    for name, values in samples.items():
        p50, p95 = statistics.median(values), statistics.quantiles(values, n=20)[-1]
        first = (
            f"{statistics.median(cold[name]) * 1000:9.1f} {statistics.median(cold[name]) / base:7.2f}x"
            if name in cold
            else ""
        )
        if name in beside:  # the plain row page timed in the same loop, request for request
            alongside = statistics.median(beside[name])
            first += f" {alongside * 1000:12.1f} {statistics.median(cold[name]) / alongside:12.2f}x"
        print(f"{name:<18} {p50 * 1000:8.1f} {p95 * 1000:8.1f} {p50 / base:11.2f}x {first}")
    print(f"\n{'server':<18} {'VmRSS':>8} {'VmHWM':>8} {'RssAnon':>8} {'RssFile':>8}  (MiB, after the load)")
    for name, fields in memory.items():
        print(
            f"{name:<18} {fields['VmRSS']:8.1f} {fields['VmHWM']:8.1f} {fields['RssAnon']:8.1f} {fields['RssFile']:8.1f}"
        )
    ratio = memory["bridge-laws serve"]["VmRSS"] / memory["plain datasette"]["VmRSS"]
    print(f"RSS ratio: {ratio:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
