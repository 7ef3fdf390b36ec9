"""How long situation search takes (issue 36 targets): the server's search against a baseline checkout,
and the offline engine in Chromium at 4x CPU throttling, over the judged situation queries.

- `server`: every query of benchmarks/situations.yml and benchmarks/qrels.yml through
  `engine.search(conn, query, limit=20)`, in one fresh process per side and round (the baseline -
  another checkout, e.g. main, with its own virtualenv and laws.db - and this tree), the sides
  alternated round by round so that the machine's drift hits both alike; each call timed; the p50
  and p95 of each round, their medians over the rounds, and the ratio this / baseline of the p50s.
  A process answers every query once before the clock starts (the search data is loaded once per
  database, as a server does). Target: p50 ratio <= 1.2.
- `offline`: the offline engine (laws_site/static/offline-search*.js) on this database's search pack,
  in headless Chromium at 390 px with CDP `Emulation.setCPUThrottlingRate` 4; every situation query
  `engine.search(q, {limit: 20})` (ranking and the 20 snippets), `--runs` rounds; p50/p95/max of each
  round and their medians. Target: p95 <= 100 ms.

    .venv/bin/python -m benchmarks.situations_speed --baseline /work/main --rounds 5 --runs 3
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
THROTTLING = 4

# one side's round, in a fresh process of that checkout's Python: warm every query once, then time each
WORKER = """
import json, sqlite3, sys, time
from laws_site.search import engine
db, queries = sys.argv[1], json.loads(sys.stdin.read())
conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
engine.prepare(conn)
def run(query):
    try:
        engine.search(conn, query, limit=20)
    except engine.QueryError:
        pass  # a 400 is an answer too
for query in queries:
    run(query)
times = []
for query in queries:
    start = time.perf_counter()
    run(query)
    times.append((time.perf_counter() - start) * 1000)
print(json.dumps(times))
"""


def judged_queries(root: Path = ROOT) -> tuple[list[str], list[str]]:
    """(the situation queries, the qrels queries) of this tree's judged sets."""
    situations = yaml.safe_load((root / "benchmarks" / "situations.yml").read_text(encoding="utf-8"))["situations"]
    situation_queries = [str(entry["query"]) for group in situations.values() for entry in group]
    qrels = yaml.safe_load((root / "benchmarks" / "qrels.yml").read_text(encoding="utf-8"))
    qrels_queries = [
        str(entry["query"])
        for group in (qrels.get("groups") or {}).values()
        for entry in group or []
        if isinstance(entry, dict) and "query" in entry
    ]
    return situation_queries, qrels_queries


def one_round(checkout: Path, db: Path, queries: list[str]) -> list[float]:
    python = checkout / ".venv" / "bin" / "python"
    done = subprocess.run(
        [str(python), "-c", WORKER, str(db)],
        input=json.dumps(queries, ensure_ascii=False),
        capture_output=True,
        text=True,
        cwd=checkout,
        check=True,
    )
    return json.loads(done.stdout)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def server(baseline: Path, rounds: int, queries: list[str]) -> None:
    sides = {"baseline": (baseline, baseline / "laws.db"), "this": (ROOT, ROOT / "laws.db")}
    found: dict[str, list[tuple[float, float]]] = {side: [] for side in sides}
    for number in range(rounds):
        for side in sides if number % 2 == 0 else reversed(list(sides)):
            times = one_round(*sides[side], queries)
            found[side].append((statistics.median(times), percentile(times, 0.95)))
            print(f"round {number + 1} {side:<8} p50 {found[side][-1][0]:6.1f} ms  p95 {found[side][-1][1]:6.1f} ms")
    p50 = {side: statistics.median(r[0] for r in rows) for side, rows in found.items()}
    p95 = {side: statistics.median(r[1] for r in rows) for side, rows in found.items()}
    print(
        f"server, {len(queries)} queries x {rounds} rounds: baseline {baseline} p50 {p50['baseline']:.1f} ms "
        f"p95 {p95['baseline']:.1f} ms; this p50 {p50['this']:.1f} ms p95 {p95['this']:.1f} ms; "
        f"ratio p50 {p50['this'] / p50['baseline']:.2f}x (target <= 1.2x)"
    )


def offline(db: Path, runs: int, queries: list[str]) -> None:
    from playwright.sync_api import sync_playwright

    from laws_site.offline import search_data
    from laws_site.offline.search_scripts import script_paths

    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    build_id = conn.execute("select value from build_info where key = 'build_id'").fetchone()[0]
    pack = json.dumps(search_data.export(conn, build_id), ensure_ascii=False)
    conn.close()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
        page.set_content("<!doctype html><html lang='ja'><body></body></html>")
        for path in script_paths():
            page.add_script_tag(content=Path(path).read_text(encoding="utf-8"))
        cdp = page.context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": THROTTLING})
        load_ms = page.evaluate(
            "(pack) => { const t = performance.now(); self.benchEngine = new BridgeLawsSearch.Engine(JSON.parse(pack));"
            " return performance.now() - t; }",
            pack,
        )
        rounds = []
        for number in range(runs):
            times = page.evaluate(
                """(queries) => queries.map((q) => {
                    const t = performance.now();
                    try { self.benchEngine.search(q, {limit: 20}); } catch (error) { /* a 400 is an answer too */ }
                    return performance.now() - t; })""",
                queries,
            )
            rounds.append((statistics.median(times), percentile(times, 0.95), max(times)))
            print(
                f"offline round {number + 1}: p50 {rounds[-1][0]:.1f} ms p95 {rounds[-1][1]:.1f} ms max {rounds[-1][2]:.1f} ms"
            )
        browser.close()
    p50, p95, top = (statistics.median(r[i] for r in rounds) for i in range(3))
    print(
        f"offline at {THROTTLING}x CPU throttling, {len(queries)} situation queries x {runs} rounds: engine load "
        f"{load_ms:.0f} ms; p50 {p50:.1f} ms p95 {p95:.1f} ms max {top:.1f} ms (target p95 <= 100 ms)"
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", type=Path, help="a checkout with .venv and laws.db (e.g. /work/main)")
    parser.add_argument("--rounds", type=int, default=5, help="server rounds per side")
    parser.add_argument("--runs", type=int, default=3, help="offline rounds")
    parser.add_argument("--db", type=Path, default=ROOT / "laws.db")
    parser.add_argument("--only", choices=("server", "offline"))
    args = parser.parse_args(argv)
    situation_queries, qrels_queries = judged_queries()
    if args.only != "offline":
        if not args.baseline:
            parser.error("--baseline is needed for the server part")
        server(args.baseline.resolve(), args.rounds, situation_queries + qrels_queries)
    if args.only != "server":
        offline(args.db, args.runs, situation_queries)
    return 0


if __name__ == "__main__":
    sys.exit(main())
