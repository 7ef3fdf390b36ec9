"""CPU per search answer, this checkout against a baseline checkout (issue 36: search latency within
1.2x): where search_load measures latency through real servers, this counts the CPU one process
spends, which load on a shared machine moves much less than wall time.

Each round starts one fresh process per side (the baseline - another checkout with its own
virtualenv and laws.db, e.g. a worktree of main - and this tree), the sides alternated round by
round so that drift hits both alike. A process loads the site, answers every query once unmeasured
(the search data is read once per database, as a server does), then measures, each several times:
- `route`: GET /-/search.json?q=…&limit=20&_cold=N through the ASGI app `bridge-laws serve` runs
  (laws_site/http/serve.site_app: every layer but the HTTP parser; `_cold` makes each request a
  fresh search, as search_load's are);
- `engine`: `engine.search_page(conn, q)` alone (what the route calls);
- `unseen`: the same with the database's memo of what each query means (its words, alternatives,
  citations, 索引 boosts: laws_site/search/data.py SearchData.memo) emptied before each search, as
  for a query never asked before (the load repeats its 34 queries, so a server has them in memory);
CPU ms per answer (process time: user + system) for the load's 34 queries (tests/live_server.QUERIES)
and, separately, the situation sentences of benchmarks/situations.yml (engine only); each the least of
`--repeats` passes over the queries (other processes on the machine only ever add to a pass's CPU
time: their caches and the other hyperthread). Printed: each round's figures, the medians over
rounds and the ratio this / baseline.

    .venv/bin/python -m benchmarks.search_cpu --baseline /tmp/main-checkout --rounds 5
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# one side's round, in a fresh process of that checkout's Python (cwd: the checkout)
WORKER = r"""
import asyncio, json, sqlite3, sys, time
from pathlib import Path
from urllib.parse import urlencode
import yaml
from laws_site.http import serve
from laws_site.search import engine
from tests.live_server import QUERIES

db, repeats = Path(sys.argv[1]), int(sys.argv[2])
situations = yaml.safe_load(Path("benchmarks/situations.yml").read_text(encoding="utf-8"))["situations"]
sentences = [str(entry["query"]) for group in situations.values() for entry in group]
app = serve.site_app(serve.datasette_for(db))
counter = iter(range(10**9))


async def get(target):
    path, _, query_string = target.partition("?")
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
             "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": query_string.encode(),
             "root_path": "", "headers": [(b"host", b"127.0.0.1:8000")], "client": ("127.0.0.1", 5000),
             "server": ("127.0.0.1", 8000)}
    status = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        if message["type"] == "http.response.start":
            status.append(message["status"])

    await app(scope, receive, send)
    if status[0] != 200:
        raise SystemExit(f"{target}: {status[0]}")


async def route_once():
    for query in QUERIES:
        await get("/-/search.json?" + urlencode({"q": query, "limit": "20", "_cold": next(counter)}))


conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
engine.prepare(conn)


data = engine.search_data(conn)


def engine_once(queries, unseen=False):
    for query in queries:
        if unseen:
            data._lookups.clear()  # the memo of what each query means: as if never asked before
        try:
            engine.search_page(conn, query)
        except engine.QueryError:
            pass  # a 400 is an answer too


def cpu_ms(run, answers):
    times = []
    for _ in range(repeats):
        start = time.process_time()
        run()
        times.append((time.process_time() - start) / answers * 1000)
    return min(times)


asyncio.run(route_once())
engine_once(QUERIES + sentences)
print(json.dumps({
    "route": cpu_ms(lambda: asyncio.run(route_once()), len(QUERIES)),
    "engine": cpu_ms(lambda: engine_once(QUERIES), len(QUERIES)),
    "unseen": cpu_ms(lambda: engine_once(QUERIES, unseen=True), len(QUERIES)),
    "situations": cpu_ms(lambda: engine_once(sentences), len(sentences)),
}))
"""
MEASURES = ("route", "engine", "unseen", "situations")


def one_round(checkout: Path, repeats: int) -> dict[str, float]:
    done = subprocess.run(
        [str(checkout / ".venv" / "bin" / "python"), "-c", WORKER, str(checkout / "laws.db"), str(repeats)],
        capture_output=True,
        text=True,
        cwd=checkout,
        check=True,
    )
    return json.loads(done.stdout.splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="a checkout with .venv and laws.db")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=5, help="passes over the queries per measure and round")
    args = parser.parse_args()
    sides = {"baseline": args.baseline.resolve(), "this": ROOT}
    found: dict[str, list[dict]] = {side: [] for side in sides}
    for number in range(args.rounds):
        for side in sides if number % 2 == 0 else reversed(list(sides)):
            found[side].append(one_round(sides[side], args.repeats))
            figures = "  ".join(f"{m} {found[side][-1][m]:5.2f}" for m in MEASURES)
            print(f"round {number + 1} {side:<8} CPU ms/answer: {figures}", flush=True)
    print(f"medians of {args.rounds} rounds (CPU ms per answer), baseline {sides['baseline']}:")
    for measure in MEASURES:
        median = {side: statistics.median(r[measure] for r in rows) for side, rows in found.items()}
        print(
            f"  {measure:<10} baseline {median['baseline']:5.2f}  this {median['this']:5.2f}  "
            f"ratio {median['this'] / median['baseline']:.3f}x"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
