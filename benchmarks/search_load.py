"""Search latency (p50/p95) and throughput at concurrency 1, 8 and 32, against real servers.

Compares our search `/-/search.json?q=…&limit=20` (citations, vocabulary, ranking, snippets) with
plain Datasette answering the same number of rows from the same laws.db:
- `ranked`: Datasette's SQL endpoint running a bm25-ranked FTS query (`order by bm25(...) limit
  20`, the canned-query way Datasette documents for relevance-ordered search), `_shape=array`;
- `plain`: Datasette's table search `/<db>/sections.json?_search=…&_size=20&_shape=array`
  (unranked in Datasette 0.65).
Datasette cannot split Japanese, so the client hands both the query already tokenized as our index
is (`_searchmode=raw`): the baselines do none of the tokenizing our endpoint does. With
`--plain-python` the baselines run on a second server, Datasette alone in its own virtualenv (no
plugin loaded: docs/pitfalls.md); without it they run on our server. Same queries, same client
(tests/light_http.py on asyncio, request targets made before the clock starts; `--client httpx`
for earlier sessions' client), endpoints alternated run by run so drift hits all alike; then a
soak at concurrency 32 on our search counting every non-200 answer and every transport error.
`--workers N` serves our site with `bridge-laws serve --workers N`; Datasette runs as it does.

    .venv/bin/python -m benchmarks.search_load                 # builds a database in a temp dir
    .venv/bin/python -m benchmarks.search_load --db laws.db --plain-python /tmp/plainds/bin/python
    .venv/bin/python -m benchmarks.search_load --url http://127.0.0.1:8021 --db-name bench

Targets: search p50 <= 1.2x ranked p50 (issue 14); zero errors in 60 s at concurrency 32.
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

from ingest.text import tokenize
from laws_site.http.serve import SETTINGS
from tests import light_http
from tests.live_server import PYTHON, QUERIES, ROOT, free_port, serve_argv, serving  # noqa: F401 (re-exported)

SEARCH = "search"
RANKED = "ranked"
PLAIN = "plain"
KINDS = (SEARCH, RANKED, PLAIN)
TARGET = 1.2  # search p50 / ranked p50
# issue 24: queries that take the forgiving paths (readings, romaji, corrections, loanwords by sound,
# Chinese variants, synonyms, citations without 第); `--forgiving` adds them to the load
FORGIVING_QUERIES = [
    "りぼーく",
    "じゅんばんがいのりーど",
    "ribooku",
    "junbangai no riido",
    "リボック",
    "revoek",
    "アジャスティッドスコア",
    "ミスインフォメーション",
    "夢家的權利",
    "罰金",
    "27条",
    "27条B項1(b)",
]
# The site answers a request it has answered before in this build from memory (laws_site/responses
# made_once); the load repeats 34 queries, so by default each of our requests carries a parameter the
# search ignores (`_cold=N`) and is searched afresh, as the baselines' are. --warm measures repeats.
COLD = {"on": True}
CLIENT = {"name": "light"}  # tests/light_http.py; `--client httpx` for the earlier figures
RANKED_SQL = """select s.id, s.doc, s.ref, s.kind, s.title, s.text
from sections_fts join sections s on s.rowid = sections_fts.rowid
where sections_fts match :q and s.lang = :lang
order by bm25(sections_fts, 5.0, 1.0) limit 20"""


def build_db(directory: Path) -> Path:
    db = Path(directory) / "laws.db"
    subprocess.run([PYTHON, "-m", "laws_site.cli", "build", "--db", str(db)], cwd=ROOT, check=True, capture_output=True)
    return db


def index_form(query: str) -> tuple[str, str]:
    """(FTS expression, language) of a query tokenized as the index is, for the baselines."""
    lang = tokenize.detect_lang(query)
    return tokenize.fts_match(tokenize.query_clauses(query, lang)) or '"\u2205"', lang


def endpoint_url(kind: str, query: str, db_name: str) -> tuple[str, dict]:
    if kind == SEARCH:
        return "/-/search.json", {"q": query, "limit": "20"}
    match, lang = index_form(query)
    if kind == RANKED:
        return f"/{db_name}.json", {"sql": RANKED_SQL, "q": match, "lang": lang, "_shape": "array"}
    return f"/{db_name}/sections.json", {
        "_search": match,
        "_searchmode": "raw",
        "lang": lang,
        "_size": "20",
        "_shape": "array",
    }


async def load(
    bases: dict, kind: str, db_name: str, concurrency: int, seconds: float, queries: list[str] = QUERIES
) -> dict:
    """`concurrency` workers, each sending the next query as soon as its last answer arrived. Every
    request target (for the baselines: the query tokenized into its FTS expression) is made before
    the clock starts, so the client's work per answer is the same small amount for every endpoint."""
    targets = [light_http.target(*endpoint_url(kind, query, db_name)) for query in queries]
    if CLIENT["name"] == "httpx":
        limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
        async with httpx.AsyncClient(base_url=bases[kind], limits=limits, timeout=30) as client:

            async def fetch(request_target: str) -> int:
                response = await client.get(request_target)
                await response.aread()
                return response.status_code

            return await drive([fetch] * concurrency, kind, targets, seconds, httpx.HTTPError)
    connections = [light_http.Connection(bases[kind]) for _ in range(concurrency)]
    try:
        return await drive(
            [connection.status for connection in connections], kind, targets, seconds, light_http.HTTPFailure
        )
    finally:
        for connection in connections:
            await connection.close()


async def drive(fetchers: list, kind: str, targets: list[str], seconds: float, failure: type) -> dict:
    """One worker per fetcher (a coroutine function: request target -> status) until the deadline."""
    latencies: list[float] = []
    statuses: Counter = Counter()
    errors: Counter = Counter()
    deadline = time.perf_counter() + seconds
    counter = iter(range(10**9))

    async def worker(fetch):
        while time.perf_counter() < deadline:
            n = next(counter)
            request_target = targets[n % len(targets)]
            if kind == SEARCH and COLD["on"]:
                request_target += f"&_cold={n}"
            started = time.perf_counter()
            try:
                status = await fetch(request_target)
            except failure as error:
                errors[getattr(error, "kind", type(error).__name__)] += 1
                continue
            latencies.append(time.perf_counter() - started)
            statuses[status] += 1

    started = time.perf_counter()
    await asyncio.gather(*(worker(fetch) for fetch in fetchers))
    elapsed = time.perf_counter() - started
    return {
        "latencies": latencies,
        "statuses": statuses,
        "errors": errors,
        "elapsed": elapsed,
        "rps": len(latencies) / elapsed,
    }


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def bad(result: dict) -> int:
    return sum(n for status, n in result["statuses"].items() if status != 200) + sum(result["errors"].values())


def probe(bases: dict, db_name: str) -> dict[str, int]:
    status = {}
    for kind in KINDS:
        path, params = endpoint_url(kind, "リボーク", db_name)
        status[kind] = httpx.get(bases[kind] + path, params=params, timeout=30).status_code
    return status


def rows_returned(bases: dict, db_name: str) -> dict[str, int]:
    """Rows each endpoint answers over all the queries (they should be about the same)."""
    counts = {}
    for kind in KINDS:
        total = 0
        for query in QUERIES:
            path, params = endpoint_url(kind, query, db_name)
            data = httpx.get(bases[kind] + path, params=params, timeout=30).json()
            total += len(data["results"] if kind == SEARCH else data)
        counts[kind] = total
    return counts


def cpu_seconds(pid: int | None) -> float | None:
    """User + system CPU time so far of a process and of its children that still run (the workers
    of `serve --workers N`, and the offline packs' process while it runs; Linux /proc), None if
    unknown."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        own = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except (OSError, ValueError, IndexError, TypeError):
        return None
    return own + sum(cpu_seconds(int(child)) or 0.0 for child in children)


def measured(bases: dict, kind: str, db_name: str, concurrency: int, seconds: float, pids: dict) -> dict:
    """One run, with the CPU time the serving process and this client spent per answer (on a machine
    of two cores a client busy near one core caps the answers per second, whatever the server)."""
    before, client_before = cpu_seconds(pids.get(kind)), time.process_time()
    result = asyncio.run(load(bases, kind, db_name, concurrency, seconds))
    after, client_after = cpu_seconds(pids.get(kind)), time.process_time()
    answers = len(result["latencies"]) or 1
    result["cpu_ms"] = (after - before) / answers * 1000 if before is not None and after is not None else None
    result["client_cpu_ms"] = (client_after - client_before) / answers * 1000
    result["client_share"] = (client_after - client_before) / result["elapsed"]
    return result


def compare(
    bases: dict, db_name: str, concurrencies: list[int], seconds: float, runs: int, pids: dict | None = None
) -> list[str]:
    kinds = [kind for kind, status in probe(bases, db_name).items() if status == 200]
    missing = set(KINDS) - set(kinds)
    lines = []
    if missing:
        lines.append(f"NOT MEASURED (endpoint does not answer 200 yet): {', '.join(sorted(missing))}")
    else:
        rows = rows_returned(bases, db_name)
        lines.append("rows answered over the queries: " + ", ".join(f"{kind} {n}" for kind, n in rows.items()))
    for concurrency in concurrencies:
        per_kind: dict[str, list[dict]] = {kind: [] for kind in kinds}
        for run in range(runs):
            for kind in kinds[run % len(kinds) :] + kinds[: run % len(kinds)]:
                per_kind[kind].append(measured(bases, kind, db_name, concurrency, seconds, pids or {}))
        summary = {}
        for kind, results in per_kind.items():
            p50 = statistics.median(percentile(r["latencies"], 50) for r in results) * 1000
            p95 = statistics.median(percentile(r["latencies"], 95) for r in results) * 1000
            rps = statistics.median(r["rps"] for r in results)
            errors = sum(bad(r) for r in results)
            cpu = [r["cpu_ms"] for r in results if r["cpu_ms"] is not None]
            cpu_text = f"  server CPU {statistics.median(cpu):5.2f} ms/answer" if cpu else ""
            mean = statistics.median(statistics.fmean(r["latencies"] or [0.0]) for r in results) * 1000
            client = (
                f"  client CPU {statistics.median(r['client_cpu_ms'] for r in results):5.2f} ms/answer "
                f"({statistics.median(r['client_share'] for r in results):.2f} core)"
            )
            summary[kind] = p50
            lines.append(
                f"c={concurrency:<3} {kind:<6} p50 {p50:7.1f} ms  p95 {p95:7.1f} ms  mean {mean:7.1f} ms  "
                f"{rps:7.1f} req/s  non-200/errors {errors}{cpu_text}{client}  "
                f"(median of {runs} runs x {seconds:g}s, "
                f"{sum(len(r['latencies']) for r in results)} requests)"
            )
        if SEARCH in summary and RANKED in summary:
            ratio = summary[SEARCH] / summary[RANKED]
            lines.append(
                f"c={concurrency:<3} ratio search/ranked p50 {ratio:.2f}x "
                f"(issue 14 target <= {TARGET}x: {'met' if ratio <= TARGET else 'MISSED'}; "
                f"issue 24 target <= 1.0x: {'met' if ratio <= 1.0 else 'MISSED'})"
            )
        if SEARCH in summary and PLAIN in summary:
            lines.append(f"c={concurrency:<3} ratio search/plain p50 {summary[SEARCH] / summary[PLAIN]:.2f}x")
    return lines


def soak(bases: dict, db_name: str, seconds: float, concurrency: int = 32) -> str:
    kind = SEARCH if probe(bases, db_name)[SEARCH] == 200 else PLAIN
    result = asyncio.run(load(bases, kind, db_name, concurrency, seconds))
    return (
        f"soak {kind} c={concurrency} {result['elapsed']:.0f}s: {len(result['latencies'])} answers, "
        f"{result['rps']:.1f} req/s, p50 {percentile(result['latencies'], 50) * 1000:.1f} ms, "
        f"p95 {percentile(result['latencies'], 95) * 1000:.1f} ms, max {max(result['latencies'], default=0) * 1000:.0f} ms, "
        f"statuses {dict(result['statuses'])}, transport errors {dict(result['errors'])} -> "
        f"{'zero errors' if bad(result) == 0 else f'{bad(result)} ERRORS'}"
    )


def plain_argv(python: str, db_path: Path, port: int) -> list[str]:
    """Datasette alone (its own virtualenv, no plugin), with the settings `bridge-laws serve` uses."""
    argv = [
        str(Path(python).parent / "datasette"),
        "serve",
        "--immutable",
        str(Path(db_path).resolve()),
        "--port",
        str(port),
    ]
    for name, value in SETTINGS.items():
        argv += ["--setting", name, value]
    return argv


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, help="database to serve (default: build one in a temp dir)")
    parser.add_argument("--url", help="measure an already running server instead of starting one")
    parser.add_argument("--plain-url", help="an already running plain Datasette for the baselines")
    parser.add_argument(
        "--plain-python",
        help="python of a virtualenv with Datasette and no plugin: the baselines run there (default: on our server)",
    )
    parser.add_argument("--db-name", help="Datasette database name (default: the --db file's stem, or laws)")
    parser.add_argument("--concurrency", default="1,8,32")
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--warm",
        action="store_true",
        help="let repeated searches come from the site's answer cache (default: each searched afresh)",
    )
    parser.add_argument("--soak", type=float, default=60.0, help="soak seconds at concurrency 32 (0: none)")
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="our server's processes (`bridge-laws serve --workers N`); Datasette runs as it does",
    )
    parser.add_argument(
        "--client",
        choices=("light", "httpx"),
        default="light",
        help="load client: tests/light_http.py (default) or httpx (earlier figures)",
    )
    parser.add_argument(
        "--forgiving",
        action="store_true",
        help="add the issue-24 queries (kana, romaji, typos, loanwords, variants) to the load",
    )
    args = parser.parse_args()
    COLD["on"] = not args.warm
    CLIENT["name"] = args.client
    if args.forgiving:
        QUERIES.extend(q for q in FORGIVING_QUERIES if q not in QUERIES)  # the list load() and the counts read
    concurrencies = [int(c) for c in args.concurrency.split(",")]
    tokenize.use_variants(tokenize.read_variants())  # the baselines' queries fold as the index did
    print(
        f"machine: {platform.node()} {platform.machine()} x{os.cpu_count()}, Python {platform.python_version()}, "
        f"client {args.client}; our server --workers {args.workers}; {len(QUERIES)} queries; "
        "client and servers on this machine"
    )

    def report(bases: dict, db_name: str, pids: dict | None = None) -> None:
        where = "a plain Datasette (no plugin)" if bases[RANKED] != bases[SEARCH] else "our server"
        print(f"baselines ({RANKED}, {PLAIN}) served by {where}", flush=True)
        for line in compare(bases, db_name, concurrencies, args.seconds, args.runs, pids):
            print(line, flush=True)
        if args.soak:
            print(soak(bases, db_name, args.soak), flush=True)

    def with_plain(base: str, pid: int | None, db: Path | None, db_name: str, tmp: Path) -> None:
        if args.plain_url:
            report(
                {SEARCH: base, RANKED: args.plain_url.rstrip("/"), PLAIN: args.plain_url.rstrip("/")},
                db_name,
                {SEARCH: pid},
            )
        elif args.plain_python and db:
            port = free_port()
            with serving(db, port=port, argv=plain_argv(args.plain_python, db, port), log=tmp / "plain.log") as (
                plain,
                process,
            ):
                report(
                    {SEARCH: base, RANKED: plain, PLAIN: plain},
                    db_name,
                    {SEARCH: pid, RANKED: process.pid, PLAIN: process.pid},
                )
        else:
            report({kind: base for kind in KINDS}, db_name, {kind: pid for kind in KINDS})

    with tempfile.TemporaryDirectory() as tmp:
        if args.url:
            with_plain(
                args.url.rstrip("/"), None, args.db, args.db_name or (args.db.stem if args.db else "laws"), Path(tmp)
            )
            return 0
        db = args.db or build_db(Path(tmp))
        argv = serve_argv(db, port := free_port()) + ["--workers", str(args.workers)]
        with serving(db, port=port, argv=argv, log=Path(tmp) / "server.log") as (base, process):
            with_plain(base, process.pid, db, args.db_name or db.stem, Path(tmp))
    return 0


if __name__ == "__main__":
    sys.exit(main())
