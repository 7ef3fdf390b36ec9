"""First contentful paint of unit pages online, in Chromium at phone size with 4x CPU throttling
(issue 26: "first paint of an offline unit page <= 200 ms"; the offline figure itself comes from
benchmarks/offline.py, which goes through the service worker; this one measures the page's own
weight: the server's HTML, its stylesheets, its scripts, the browser's style and layout).

    .venv/bin/python -m benchmarks.paint --db laws.db --runs 3
    .venv/bin/python -m benchmarks.paint --db laws.db --runs 1 --breakdown   # where the time goes
    .venv/bin/python -m benchmarks.paint --db laws.db --runs 5 --against /tmp/main-checkout  # before/after

Steps: a real `bridge-laws serve` on a copy of the database; a phone context (390x844, mobile,
touch, ja-JP, service workers blocked so that the server answers every page); `--units` unit pages
spread over every document (the same sample as benchmarks/offline.py), each visited once
unthrottled (warm caches, as a reader's second page); then CPU throttling 4x (CDP
`Emulation.setCPUThrottlingRate`) and, per run, every page visited and its
`first-contentful-paint` read from the Paint Timing API. Per run p50/p95; the median over runs.
`--against DIR` serves a second checkout of the project (e.g. `git archive main | tar -x -C DIR`)
on the same database beside this one and visits each page on both, alternately, in the same
browser: before and after under the same load.
`--breakdown` also reads, per page, when the HTML had arrived (responseEnd), when the parser was
done (domInteractive) and the renderer's own counters (CDP `Performance.getMetrics`: style
recalculation, layout, script) for the navigation, and the page's HTML size.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shutil
import sqlite3
import statistics
import tempfile
from pathlib import Path

from benchmarks.offline import summary
from ingest.build.database import build
from ingest.sources.corpus import DEFAULT_CORPUS
from laws_site.read.units import permalink
from tests.live_server import serving
from tests.test_browser import CHROMIUM, CHROMIUM_ARGS, VIEWPORTS

THROTTLE = 4
PAINT = """() => new Promise((resolve) => {
    const found = () => performance.getEntriesByName('first-contentful-paint')[0];
    const nav = () => performance.getEntriesByType('navigation')[0];
    const done = () => resolve({fcp: found().startTime, arrived: nav().responseEnd,
                                interactive: nav().domInteractive, bytes: nav().decodedBodySize,
                                nodes: document.getElementsByTagName('*').length});
    if (found()) return done();
    new PerformanceObserver(() => found() && done()).observe({type: 'paint', buffered: true});
})"""
COUNTERS = ("RecalcStyleDuration", "LayoutDuration", "ScriptDuration", "TaskDuration")


def sample_units(db_path: Path, count: int) -> list[str]:
    """The same spread as benchmarks/offline.py: every n-th unit of every document, in build order."""
    with sqlite3.connect(db_path) as conn:
        rows = conn.execute(
            "select doc, ref from sections where kind not in ('toc', 'toc_entry') order by rowid"
        ).fetchall()
    step = max(1, len(rows) // count)
    return [permalink(doc, ref) for doc, ref in rows[::step][:count]]


def counters(cdp) -> dict:
    """The renderer's counters for the current document (they start again at each navigation)."""
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return {name: metrics.get(name, 0.0) * 1000 for name in COUNTERS}


def one_run(page, cdp, base: str, units: list[str], breakdown: bool) -> dict:
    paints, rows = [], []
    for index, url in enumerate(units):
        if isinstance(base, list):  # [(name, base url)]: each page on each server, first one then the other
            for name, url_base in base if index % 2 == 0 else base[::-1]:
                response = page.goto(url_base + url)
                assert response.status == 200, (url, response.status)
                paints.append((name, page.evaluate(PAINT)["fcp"]))
            continue
        response = page.goto(base + url)
        assert response.status == 200, (url, response.status)
        seen = page.evaluate(PAINT)
        paints.append(seen["fcp"])
        if breakdown:
            page.wait_for_load_state("load")
            after = counters(cdp)
            rows.append(
                {"url": url, **{k: round(v, 1) for k, v in seen.items()}, **{k: round(after[k], 1) for k in COUNTERS}}
            )
    if isinstance(base, list):
        return {name: {"first_contentful_paint": summary([p for n, p in paints if n == name])} for name, _ in base}
    result = {"first_contentful_paint": summary(paints)}
    if breakdown:
        result["pages"] = rows
        result["medians"] = {
            k: round(statistics.median(r[k] for r in rows), 1)
            for k in ("fcp", "arrived", "interactive", "bytes", "nodes", *COUNTERS)
        }
    return result


def run(db_path: Path, runs: int, units: int, breakdown: bool, against: Path | None = None) -> dict:
    sample = sample_units(db_path, units)
    result: dict = {"throttle": THROTTLE, "units": len(sample), "runs": []}
    with contextlib.ExitStack() as stack:
        base, _process = stack.enter_context(serving(db_path))
        if against:
            other, _ = stack.enter_context(serving(db_path, cwd=against))
            base = [("this", base), ("against", other)]
        return _measure(result, base, sample, runs, breakdown)


def _measure(result: dict, base, sample: list[str], runs: int, breakdown: bool) -> dict:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(service_workers="block", **VIEWPORTS["phone"])
        page = context.new_page()
        for url in sample:  # every page and its static files seen once: warm caches
            for _, url_base in base if isinstance(base, list) else [("this", base)]:
                page.goto(url_base + url)
        cdp = context.new_cdp_session(page)
        cdp.send("Performance.enable", {"timeDomain": "threadTicks"})
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": THROTTLE})
        for _ in range(runs):
            result["runs"].append(one_run(page, cdp, base, sample, breakdown))
        browser.close()
    for name in [n for n, _ in base] if isinstance(base, list) else [None]:
        runs_of = [r[name] if name else r for r in result["runs"]]
        key = f"{name}_" if name else ""
        result[key + "median_p50"] = statistics.median(r["first_contentful_paint"]["p50"] for r in runs_of)
        result[key + "median_p95"] = statistics.median(r["first_contentful_paint"]["p95"] for r in runs_of)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", type=Path, help="a built laws.db (copied; default: build one in a temp dir)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--units", type=int, default=40)
    parser.add_argument(
        "--against", type=Path, help="a second checkout to serve and measure alternately (before/after)"
    )
    parser.add_argument("--breakdown", action="store_true", help="per page: arrival, parse, style, layout, script")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db_path = Path(tmp) / "laws.db"
        if args.db:
            shutil.copy(args.db, db_path)
        else:
            build(db_path, DEFAULT_CORPUS)
        result = run(db_path, args.runs, args.units, args.breakdown, args.against)
    print(json.dumps(result, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
