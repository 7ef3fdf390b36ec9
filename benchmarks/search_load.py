"""Search latency (p50/p95) and throughput at concurrency 1, 8 and 32, against a real server.

Compares our ranked search `/-/search.json?q=` with Datasette's plain table search
`/<db>/sections.json?_search=` on the same database, same queries, same client (asyncio + httpx),
alternating the two endpoints run by run so drift hits both alike; then a soak at concurrency 32
on the search page counting every non-200 answer and every transport error.

    .venv/bin/python -m benchmarks.search_load                 # builds a database in a temp dir
    .venv/bin/python -m benchmarks.search_load --db /tmp/bench.db --seconds 5 --runs 3 --soak 60
    .venv/bin/python -m benchmarks.search_load --url http://127.0.0.1:8021 --db-name bench

Targets: search p50 <= 2x plain p50 at each concurrency; zero errors in 60 s at concurrency 32.
The client runs on the same machine as the server: on 2 cores it takes CPU from the server, so
absolute throughput is a floor; the ratio is what to compare.

Run from the project root as a module (`python -m benchmarks.search_load`): the server helpers are
tests/live_server.py's.
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
import time
from collections import Counter
from pathlib import Path

import httpx

from tests.live_server import PYTHON, QUERIES, ROOT, free_port, serve_argv, serving  # noqa: F401 (re-exported)


SEARCH = "search"
PLAIN = "plain"


def build_db(directory: Path) -> Path:
    db = Path(directory) / "laws.db"
    subprocess.run([PYTHON, "-m", "laws_site.cli", "build", "--db", str(db)], cwd=ROOT, check=True,
                   capture_output=True)
    return db


def endpoint_url(kind: str, query: str, db_name: str) -> tuple[str, dict]:
    if kind == SEARCH:
        return "/-/search.json", {"q": query, "limit": "20"}
    return f"/{db_name}/sections.json", {"_search": query, "_size": "20", "_shape": "array"}


async def load(base: str, kind: str, db_name: str, concurrency: int, seconds: float,
               queries: list[str] = QUERIES) -> dict:
    """`concurrency` workers, each sending the next query as soon as its last answer arrived."""
    latencies: list[float] = []
    statuses: Counter = Counter()
    errors: Counter = Counter()
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=30) as client:
        deadline = time.perf_counter() + seconds
        counter = iter(range(10**9))

        async def worker():
            while time.perf_counter() < deadline:
                query = queries[next(counter) % len(queries)]
                path, params = endpoint_url(kind, query, db_name)
                started = time.perf_counter()
                try:
                    response = await client.get(path, params=params)
                    await response.aread()
                except httpx.HTTPError as error:
                    errors[type(error).__name__] += 1
                    continue
                latencies.append(time.perf_counter() - started)
                statuses[response.status_code] += 1

        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        elapsed = time.perf_counter() - started
    return {"latencies": latencies, "statuses": statuses, "errors": errors, "elapsed": elapsed,
            "rps": len(latencies) / elapsed}


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def bad(result: dict) -> int:
    return sum(n for status, n in result["statuses"].items() if status != 200) + sum(result["errors"].values())


def probe(base: str, db_name: str) -> dict[str, int]:
    status = {}
    for kind in (SEARCH, PLAIN):
        path, params = endpoint_url(kind, "リボーク", db_name)
        status[kind] = httpx.get(base + path, params=params, timeout=30).status_code
    return status


def compare(base: str, db_name: str, concurrencies: list[int], seconds: float, runs: int) -> list[str]:
    kinds = [kind for kind, status in probe(base, db_name).items() if status == 200]
    missing = {SEARCH, PLAIN} - set(kinds)
    lines = []
    if missing:
        lines.append(f"NOT MEASURED (endpoint does not answer 200 yet): {', '.join(sorted(missing))}")
    for concurrency in concurrencies:
        per_kind: dict[str, list[dict]] = {kind: [] for kind in kinds}
        for run in range(runs):
            for kind in (kinds if run % 2 == 0 else kinds[::-1]):
                per_kind[kind].append(asyncio.run(load(base, kind, db_name, concurrency, seconds)))
        summary = {}
        for kind, results in per_kind.items():
            p50 = statistics.median(percentile(r["latencies"], 50) for r in results) * 1000
            p95 = statistics.median(percentile(r["latencies"], 95) for r in results) * 1000
            rps = statistics.median(r["rps"] for r in results)
            errors = sum(bad(r) for r in results)
            summary[kind] = p50
            lines.append(f"c={concurrency:<3} {kind:<6} p50 {p50:7.1f} ms  p95 {p95:7.1f} ms  {rps:7.1f} req/s  "
                         f"non-200/errors {errors}  (median of {runs} runs x {seconds:g}s, "
                         f"{sum(len(r['latencies']) for r in results)} requests)")
        if len(summary) == 2:
            ratio = summary[SEARCH] / summary[PLAIN]
            lines.append(f"c={concurrency:<3} ratio search/plain p50 {ratio:.2f}x "
                         f"(target <= 2x: {'met' if ratio <= 2 else 'MISSED'})")
    return lines


def soak(base: str, db_name: str, seconds: float, concurrency: int = 32) -> str:
    kind = SEARCH if probe(base, db_name)[SEARCH] == 200 else PLAIN
    result = asyncio.run(load(base, kind, db_name, concurrency, seconds))
    return (f"soak {kind} c={concurrency} {result['elapsed']:.0f}s: {len(result['latencies'])} answers, "
            f"{result['rps']:.1f} req/s, p50 {percentile(result['latencies'], 50) * 1000:.1f} ms, "
            f"p95 {percentile(result['latencies'], 95) * 1000:.1f} ms, max {max(result['latencies'], default=0) * 1000:.0f} ms, "
            f"statuses {dict(result['statuses'])}, transport errors {dict(result['errors'])} -> "
            f"{'zero errors' if bad(result) == 0 else f'{bad(result)} ERRORS'}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, help="database to serve (default: build one in a temp dir)")
    parser.add_argument("--url", help="measure an already running server instead of starting one")
    parser.add_argument("--db-name", help="Datasette database name (default: the --db file's stem, or laws)")
    parser.add_argument("--concurrency", default="1,8,32")
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--soak", type=float, default=60.0, help="soak seconds at concurrency 32 (0: none)")
    args = parser.parse_args()
    concurrencies = [int(c) for c in args.concurrency.split(",")]
    print(f"machine: {platform.node()} {platform.machine()} x{os.cpu_count()}, Python {platform.python_version()}, "
          f"httpx {httpx.__version__}; {len(QUERIES)} queries; client and server on this machine")

    def report(base: str, db_name: str) -> None:
        for line in compare(base, db_name, concurrencies, args.seconds, args.runs):
            print(line, flush=True)
        if args.soak:
            print(soak(base, db_name, args.soak), flush=True)

    if args.url:
        report(args.url.rstrip("/"), args.db_name or (args.db.stem if args.db else "laws"))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or build_db(Path(tmp))
        with serving(db, log=Path(tmp) / "server.log") as (base, _process):
            report(base, args.db_name or db.stem)
    return 0


if __name__ == "__main__":
    sys.exit(main())
