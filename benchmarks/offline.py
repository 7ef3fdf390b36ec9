"""The pocket app's figures (issue 26): time to make the packs, pack size on the wire and stored per
interface language, time to save, offline search latency and first paint of offline unit pages in
Chromium at phone size with 4x CPU throttling, and how often offline search's top result equals the
server's over benchmarks/qrels.yml.

    .venv/bin/python -m benchmarks.offline                 # builds a database in a temp dir
    .venv/bin/python -m benchmarks.offline --db laws.db --runs 3

Steps: `bridge-laws pack` on a copy of the database (timed: every page rendered once per interface
language, in parallel processes); a real `bridge-laws serve` on it; the packs fetched with
a browser's `Accept-Encoding` (brotli) and `gzip` alone (bytes on the wire); a phone-size Chromium context visits `/`
and waits until the page says the copy is ready, then `/zh/` and `/en/` pages until their languages
are saved too; `navigator.storage.estimate()` is what the browser stores (after ja, after all three).
Then CPU throttling 4x (CDP `Emulation.setCPUThrottlingRate`, on the page's target) and the network
off:
- search: the engine loaded once in the offline page (load time reported apart), then every qrels
  query `engine.search(q, {limit: 20})` (ranking and the 20 snippets), `--runs` rounds; p50/p95/max
  per round and the median of the rounds; also `--navigations` whole offline search-page visits
  (navigation start to the results on screen: the worker answers the page whole, its engine kept
  loaded between searches; the first search after the worker starts loads it);
- first paint: `first-contentful-paint` of `--units` unit pages spread over every document, in each
  interface language, offline, and the same pages online under the same throttling (what the
  browser's own rendering costs).
Targets: top-1 equal >= 95 % (citations 100 %); pack <= 3 MB compressed, <= 25 MB stored; search
p95 <= 100 ms; first paint <= 200 ms.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

import httpx
import yaml

from ingest.build.database import build
from ingest.sources.corpus import DEFAULT_CORPUS
from laws_site.offline import make as offline_make
from laws_site.read.units import permalink
from laws_site.search import engine as searching
from tests.live_server import serving
from tests.test_browser import CHROMIUM, CHROMIUM_ARGS, VIEWPORTS

ROOT = Path(__file__).resolve().parent.parent
QRELS = ROOT / "benchmarks" / "qrels.yml"
THROTTLE = 4
LANGUAGES = ("ja", "zh", "en")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def summary(values: list[float]) -> dict:
    return {
        "n": len(values),
        "p50": round(statistics.median(values), 1),
        "p95": round(percentile(values, 0.95), 1),
        "max": round(max(values), 1),
    }


def qrels_queries() -> list[tuple]:
    groups = yaml.safe_load(QRELS.read_text(encoding="utf-8"))["groups"]
    return [(group, j["query"], j.get("lang"), j.get("doc")) for group, js in groups.items() for j in js]


# what a browser sends over HTTPS, and what a client that takes only gzip sends (a static host's
# case: it sends the stored .gz file whatever is asked)
ENCODINGS = {"browser": "gzip, deflate, br, zstd", "gzip": "gzip"}


def pack_sizes(base: str, build_id: str) -> dict:
    """Bytes on the wire of each pack, per Accept-Encoding of ENCODINGS, and per reader of one
    interface language (its pages pack and the search pack)."""
    sizes = {}
    for name, path in (
        ("search", "search.json?"),
        *((f"pages-{lang}", f"pages.json?lang={lang}&") for lang in LANGUAGES),
    ):
        sizes[name] = {}
        for client, accept in ENCODINGS.items():
            started = time.perf_counter()
            url = f"{base}/-/offline/{path}build={build_id}"
            with httpx.stream("GET", url, headers={"accept-encoding": accept}, timeout=900) as response:
                raw = b"".join(response.iter_raw())
                coding = response.headers.get("content-encoding")
            sizes[name][client] = {
                "coding": coding,
                "wire": len(raw),
                "seconds": round(time.perf_counter() - started, 1),
            }
    for client in ENCODINGS:
        for lang in LANGUAGES:
            sizes[f"wire_{lang}_{client}"] = sizes[f"pages-{lang}"][client]["wire"] + sizes["search"][client]["wire"]
        sizes[f"wire_all_{client}"] = sum(sizes[name][client]["wire"] for name in offline_make.NAMES)
    return sizes


def saved_languages(page) -> list[str]:
    return sorted(page.evaluate("fetch('/-/offline/saved/state').then((r) => r.json())")["languages"])


def wait_saved(page, url: str, lang: str) -> float:
    started = time.perf_counter()
    page.goto(url)
    page.wait_for_function(
        "(lang) => document.querySelector('#offline-status[data-state=ready]') && "
        "fetch('/-/offline/saved/state').then((r) => r.json())"
        ".then((s) => !!(s.languages && s.languages[lang]))",
        arg=lang,
        timeout=900_000,
        polling=500,
    )
    return round(time.perf_counter() - started, 1)


def agreement(page, db_path: Path, queries: list[tuple]) -> dict:
    offline = page.evaluate(
        """async (queries) => {
        const engine = await BridgeLawsSearch.loadEngine();
        return queries.map(([group, q, lang, doc]) => {
            try { return engine.search(q, {lang, doc, limit: 1}).results.map((r) => r.id)[0] || null; }
            catch (error) { return "error: " + error.message; }
        });
    }""",
        queries,
    )
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    equal, citations, differing, per_group = 0, [0, 0], [], {}
    for (group, query, lang, doc), mine in zip(queries, offline):
        try:
            results = searching.search_page(conn, query, doc=doc, lang=lang, limit=1)["results"]
            server = results[0]["id"] if results else None
        except searching.QueryError as error:
            server = "error: " + str(error)
        equal += server == mine
        counts = per_group.setdefault(group, [0, 0])
        counts[0] += server == mine
        counts[1] += 1
        if group.startswith("citations"):
            citations = [citations[0] + (server == mine), citations[1] + 1]
        if server != mine:
            differing.append([query, server, mine])
    return {
        "queries": len(queries),
        "top1_equal": equal,
        "rate": round(equal / len(queries), 4),
        "citations_equal": citations[0],
        "citations": citations[1],
        "per_group": per_group,
        "differing": differing,
    }


def search_latency(page, queries: list[tuple], runs: int) -> dict:
    load = page.evaluate("""async () => {
        const started = performance.now();
        const engine = await BridgeLawsSearch.loadEngine();
        return {fetch_parse_build_ms: performance.now() - started, build_ms: engine.loadMs};
    }""")
    rounds = []
    for _ in range(runs):
        times = page.evaluate(
            """async (queries) => {
            const engine = await BridgeLawsSearch.loadEngine();
            return queries.map(([group, q, lang, doc]) => {
                const started = performance.now();
                try { engine.search(q, {lang, doc, limit: 20}); } catch (error) { /* a 400 is an answer too */ }
                return performance.now() - started;
            });
        }""",
            queries,
        )
        rounds.append(summary(times))
    return {
        "engine_load_ms": {k: round(v, 1) for k, v in load.items()},
        "rounds": rounds,
        "median_p50": statistics.median(r["p50"] for r in rounds),
        "median_p95": statistics.median(r["p95"] for r in rounds),
    }


def search_navigations(page, base: str, queries: list[tuple], count: int) -> dict:
    times = []
    for group, query, lang, doc in queries[:: max(1, len(queries) // count)][:count]:
        if group.startswith("citations"):
            continue  # a citation opens its unit page (measured as first paint)
        params = httpx.QueryParams({"q": query, **({"lang": lang} if lang else {}), **({"doc": doc} if doc else {})})
        page.goto(f"{base}/-/search?{params}")
        page.wait_for_function(
            "document.documentElement.hasAttribute('data-offline-rendered-at') "
            "|| document.querySelector('article.law-text')",
            timeout=60_000,
        )
        rendered = page.get_attribute("html", "data-offline-rendered-at")
        if rendered is not None:  # else the query was a citation that opened its unit
            times.append(float(rendered))
    return summary(times)


def first_paints(page, base: str, units: list[str], cdp=None) -> dict:
    """first-contentful-paint of each unit page, and when its HTML had arrived (responseEnd: from
    the service worker offline, from the server online). With `cdp`, the service worker is stopped
    before each page (as the browser stops an idle one after ~30 s: a reader opening a page now
    and then at the table), so each page includes starting the worker and loading what it keeps."""
    paints, responses = [], []
    for url in units:
        if cdp is not None:
            cdp.send("ServiceWorker.stopAllWorkers")
        response = page.goto(base + url)
        assert response.status == 200, (url, response.status)
        paint, arrived = page.evaluate("""() => new Promise((resolve) => {
            const found = () => performance.getEntriesByName('first-contentful-paint')[0];
            const done = () => resolve([found().startTime, performance.getEntriesByType('navigation')[0].responseEnd]);
            if (found()) return done();
            new PerformanceObserver(() => found() && done()).observe({type: 'paint', buffered: true});
        })""")
        paints.append(paint)
        responses.append(arrived)
    return {"first_contentful_paint": summary(paints), "html_arrived": summary(responses)}


def sample_units(db_path: Path, count: int, lang: str = "ja") -> list[str]:
    with sqlite3.connect(db_path) as conn:
        rows = conn.execute(
            "select doc, ref from sections where kind not in ('toc', 'toc_entry') order by rowid"
        ).fetchall()
    step = max(1, len(rows) // count)
    prefix = "" if lang == "ja" else "/" + lang
    return [prefix + permalink(doc, ref) for doc, ref in rows[::step][:count]]


def run(db_path: Path, runs: int, units: int, navigations: int) -> dict:
    from playwright.sync_api import sync_playwright

    with sqlite3.connect(db_path) as conn:
        build_id = conn.execute("select value from build_info where key = 'build_id'").fetchone()[0]
    queries = qrels_queries()
    result: dict = {"throttle": THROTTLE, "build": build_id}
    started = time.perf_counter()
    made = offline_make.add_packs(db_path, log=lambda line: None)  # `bridge-laws pack`: what `build` makes too
    result["pack_made"] = {"seconds": round(time.perf_counter() - started, 1), "files": made["packs"]}
    with serving(db_path) as (base, _process), sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(**VIEWPORTS["phone"])
        page = context.new_page()
        started = time.perf_counter()
        page.goto(base + "/")
        page.wait_for_selector("#offline-status[data-state=ready]", timeout=900_000)
        result["first_visit_to_ready_s"] = round(time.perf_counter() - started, 1)
        result["saved_after_first_visit"] = saved_languages(page)
        result["pack"] = pack_sizes(base, build_id)
        estimate = page.evaluate("navigator.storage.estimate()")
        result["stored_ja"] = {"usage": estimate["usage"], "caches": estimate.get("usageDetails", {}).get("caches")}
        result["zh_visit_to_saved_s"] = wait_saved(page, base + "/zh/laws-2017-ja/61", "zh")
        result["en_visit_to_saved_s"] = wait_saved(page, base + "/en/laws-2017-ja/61", "en")
        result["saved_after_three_visits"] = saved_languages(page)
        estimate = page.evaluate("navigator.storage.estimate()")
        result["stored_all"] = {"usage": estimate["usage"], "caches": estimate.get("usageDetails", {}).get("caches")}
        page.goto(base + "/ja/")  # the Japanese interface again (the switcher's link: remembered)
        page.goto(base + "/-/offline/page")
        result["agreement"] = agreement(page, db_path, queries)
        samples = {lang: sample_units(db_path, units, lang) for lang in LANGUAGES}
        for sample in samples.values():  # every page seen once before, online or offline alike
            for url in sample:
                page.goto(base + url)
        cdp = context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": THROTTLE})
        context.set_offline(True)
        page.goto(base + "/-/offline/page")
        result["search_ms"] = search_latency(page, queries, runs)
        result["search_page_ms"] = search_navigations(page, base, queries, navigations)
        for lang, sample in samples.items():
            result[f"first_paint_{lang}_ms"] = first_paints(page, base, sample)
        cold = samples["ja"][: max(1, units // 2)]
        cdp.send("ServiceWorker.enable")
        result["first_paint_cold_worker_ja_ms"] = first_paints(page, base, cold, cdp)
        # the same pages online, same throttling: the server's answer through the same worker
        context.set_offline(False)
        for lang, sample in samples.items():
            result[f"first_paint_online_{lang}_ms"] = first_paints(page, base, sample)
        result["first_paint_online_cold_worker_ja_ms"] = first_paints(page, base, cold, cdp)
        browser.close()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", type=Path, help="a built laws.db (copied; default: build one in a temp dir)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--units", type=int, default=40, help="unit pages per interface language")
    parser.add_argument("--navigations", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db_path = Path(tmp) / "laws.db"
        if args.db:
            shutil.copy(args.db, db_path)
        else:
            build(db_path, DEFAULT_CORPUS)
        result = run(db_path, args.runs, args.units, args.navigations)
    print(json.dumps(result, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
