"""Load test of the public API at concurrency 64: a mix of every JSON route and page, Datasette's
table JSON and SQL, revalidations (If-None-Match) and hostile requests, against a real server.

Counts every answer by status, every transport error and every 5xx; latency p50/p95/max of all
answers; peak RSS of the server. An "error" is a 5xx, a transport error, or an answer whose status
is not the one expected for that request (hostile requests expect their 4xx).

    .venv/bin/python -m benchmarks.api_load                       # builds a database in a temp dir
    .venv/bin/python -m benchmarks.api_load --db laws.db --seconds 60 --concurrency 64
    .venv/bin/python -m benchmarks.api_load --url http://127.0.0.1:8130 --pid 12345

Target (issue 17): concurrency 64, zero errors.
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx

from benchmarks.search_load import build_db, percentile
from tests.live_server import QUERIES, serving
from tests.process_memory import memory_mib

ROWS_1001 = "with recursive c(x) as (select 1 union all select x + 1 from c limit 1001) "

# (weight, path, params, expected status)
MIX = [
    (6, "/laws-2017-ja/61B2(a).json", {}, 200),
    (4, "/laws-2017-ja/61", {}, 200),
    (3, "/laws-1997-zh/50D2(a).json", {}, 200),
    (2, "/revoke-notes-ja/L61A.json", {}, 200),
    (2, "/laws-2017-ja.json", {}, 200),
    (1, "/laws-2017-ja/-/index.json", {"row": "り"}, 200),
    (8, "/-/search.json", "QUERY", 200),
    (3, "/-/search", "QUERY", 200),
    (3, "/-/diff.json", {"ref": "61", "from": "revoke-notes-ja", "to": "laws-2017-ja"}, 200),
    (1, "/-/diff/overview.json", {"from": "laws-1997-zh", "to": "laws-2017-ja"}, 200),
    (2, "/-/citations.json", {"from": "61", "to": "44"}, 200),
    (2, "/-/glossary.json", {"q": "revoke"}, 200),
    (4, "/laws/xrefs.json", {"target_id": "laws-2017-ja:61A", "_shape": "array"}, 200),
    (2, "/laws/sections.json", {"_search": "リボーク", "_size": "20"}, 200),
    (2, "/laws.json", {"sql": "select doc, count(*) as n from sections group by doc", "_shape": "array"}, 200),
    (1, "/-/databases.json", {}, 200),
    # hostile: each must get its 4xx quickly while the rest is served
    (1, "/laws.json", {"sql": "select randomblob(1000000000)"}, 400),
    (1, "/laws.json", {"sql": "select zeroblob(1000000000)"}, 400),
    (1, "/laws.json", {"sql": ROWS_1001 + "select zeroblob(250000) from c"}, 400),
    (
        1,
        "/laws.json",
        {"sql": "with recursive c(x) as (select 1 union all select x + 1 from c) select count(*) from c"},
        400,
    ),
    (1, "/laws/sections.json", {"_sort": "nope"}, 400),
    (1, "/laws/sections.json", {"_where": "\x00"}, 400),
    (1, "/laws-2017-ja/" + "9" * 4301 + ".json", {}, 404),
    (1, "/-/citations.json", {"from": "²"}, 400),
]
REVALIDATE = "REVALIDATE"


def opened_cited_unit(path: str, response: httpx.Response) -> bool:
    """The HTML search goes straight to the unit when the query is exactly one citation (`61B`)."""
    return (
        path == "/-/search" and response.status_code == 302 and "from_search=" in response.headers.get("location", "")
    )


def rationed_sql(path: str, params, response: httpx.Response) -> bool:
    """SQL the client writes passes a gate (issue 21): when too many wait, a 429 with Retry-After."""
    return (
        response.status_code == 429
        and "retry-after" in response.headers
        and isinstance(params, dict)
        and ("sql" in params or "_where" in params)
    )


def schedule(n: int, hostile: bool = True) -> list[tuple[str, object, int]]:
    plan = [
        (path, params, status)
        for weight, path, params, status in MIX
        for _ in range(weight)
        if hostile or status == 200 and "²" not in str(params)
    ]
    return [plan[i % len(plan)] for i in range(n)]


async def run(base: str, concurrency: int, seconds: float, hostile: bool = True) -> dict:
    latencies: list[float] = []
    by_path: dict[str, list[float]] = {}
    statuses: Counter = Counter()
    errors: Counter = Counter()
    unexpected: list[str] = []
    plan = schedule(10_000, hostile)
    etags: dict[str, str] = {}
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60) as client:
        deadline = time.perf_counter() + seconds
        counter = iter(range(10**9))

        async def worker():
            while time.perf_counter() < deadline:
                i = next(counter)
                path, params, expected = plan[i % len(plan)]
                if params == "QUERY":
                    params = {"q": QUERIES[i % len(QUERIES)]}
                headers = {}
                key = path + repr(params)
                if i % 5 == 0 and key in etags:  # a fifth of the requests revalidate a cached answer
                    headers["If-None-Match"] = etags[key]
                started = time.perf_counter()
                try:
                    response = await client.get(path, params=params, headers=headers)
                    await response.aread()
                except httpx.HTTPError as error:
                    errors[type(error).__name__] += 1
                    continue
                latencies.append(time.perf_counter() - started)
                by_path.setdefault(path, []).append(latencies[-1])
                statuses[response.status_code] += 1
                if "etag" in response.headers:
                    etags[key] = response.headers["etag"]
                ok = (
                    response.status_code == expected
                    or (headers and response.status_code == 304)
                    or opened_cited_unit(path, response)
                    or rationed_sql(path, params, response)
                )
                if not ok:
                    unexpected.append(
                        f"{path} {str(params)[:60]}: {response.status_code} (expected {expected}) "
                        f"{response.text[:120]!r}"
                    )

        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        elapsed = time.perf_counter() - started
    return {
        "latencies": latencies,
        "by_path": by_path,
        "statuses": statuses,
        "errors": errors,
        "unexpected": unexpected,
        "elapsed": elapsed,
    }


def report(result: dict, concurrency: int, peak: float | None) -> str:
    lat = result["latencies"]
    fives = sum(n for s, n in result["statuses"].items() if s >= 500)
    transport = sum(result["errors"].values())
    bad = fives + transport + len(result["unexpected"])
    lines = [
        f"c={concurrency} {result['elapsed']:.0f}s: {len(lat)} answers, {len(lat) / result['elapsed']:.1f} req/s, "
        f"p50 {percentile(lat, 50) * 1000:.1f} ms, p95 {percentile(lat, 95) * 1000:.1f} ms, "
        f"max {max(lat, default=0) * 1000:.0f} ms",
        f"statuses {dict(sorted(result['statuses'].items()))}, transport errors {dict(result['errors'])}, "
        f"5xx {fives}, unexpected statuses {len(result['unexpected'])}"
        + (f", server peak RSS {peak:.0f} MiB" if peak else ""),
        "slowest routes (p50 / p95 / max ms): "
        + "; ".join(
            f"{path[:40]} {percentile(v, 50) * 1000:.0f} / {percentile(v, 95) * 1000:.0f} / {max(v) * 1000:.0f}"
            for path, v in sorted(result["by_path"].items(), key=lambda kv: -percentile(kv[1], 95))[:4]
        ),
        "zero errors" if bad == 0 else f"{bad} ERRORS, first: " + "; ".join(result["unexpected"][:5]),
    ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, help="database to serve (default: build one in a temp dir)")
    parser.add_argument("--url", help="measure an already running server")
    parser.add_argument("--pid", type=int, help="its pid, for the peak RSS")
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument(
        "--no-hostile",
        dest="hostile",
        action="store_false",
        help="only the ordinary requests (to compare with a server without the limits)",
    )
    args = parser.parse_args()
    print(f"{platform.node()} {platform.platform()} Python {platform.python_version()}")
    if args.url:
        result = asyncio.run(run(args.url, args.concurrency, args.seconds, args.hostile))
        print(report(result, args.concurrency, memory_mib(args.pid).get("VmHWM")))
        return 0 if "zero errors" in report(result, args.concurrency, None) else 1
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or build_db(Path(tmp))
        with serving(db) as (base, process):
            result = asyncio.run(run(base, args.concurrency, args.seconds, args.hostile))
            alive = process.poll() is None
            text = report(result, args.concurrency, memory_mib(process.pid).get("VmHWM"))
    print(text if alive else text + "\nTHE SERVER DIED")
    return 0 if alive and "zero errors" in text else 1


if __name__ == "__main__":
    sys.exit(main())
