"""The offline crawl's CPU per set-up, in one process: what the pack crawl's own ways of asking cost.

On a machine shared by several builds, two fresh processes timed one after the other see different
loads. Here four set-ups of one language's crawl take turns per batch of pages in the same process, so
each sees the same load: Datasette with 3 read threads or none (`num_sql_threads` 0, the crawl's), and
the pages rendered by Datasette's async templates through its router, or the crawl's way
(offline/responses.py: a synchronous copy of the templates; http/direct.crawl_view: straight to the
view). The baseline is the first: how main crawled before issue 35's second pass. Every set-up's pages
are compared with the baseline's (`same`).

    .venv/bin/python -m benchmarks.crawl_bench --db laws.db --pages 800 --lang ja
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time

from laws_site.http.responses import PAGE_TEMPLATE, read
from laws_site.offline import pack
from laws_site.offline.make import BUILD_TIME_LIMIT_MS, build_datasette

BATCH = 50


def as_the_server_renders(app):
    """The app, asked without the crawl's scope entry: Datasette's templates, through its router."""

    async def asked(scope, receive, send):
        await app({k: v for k, v in scope.items() if k not in (PAGE_TEMPLATE, "csrftoken")}, receive, send)

    return asked


async def set_ups(db: str) -> tuple[dict, list[str]]:
    apps = {}
    for threads in (3, 0):
        datasette = build_datasette(db, sql_time_limit_ms=BUILD_TIME_LIMIT_MS, num_sql_threads=threads)
        await datasette.invoke_startup()
        apps[f"threads {threads}, async templates, Datasette's router"] = as_the_server_renders(datasette.app())
        apps[f"threads {threads}, the crawl's templates and route"] = datasette.app()
        units = await read(datasette, pack.unit_pages)
    return apps, units


async def measure(db: str, pages: int, lang: str) -> None:
    apps, units = await set_ups(db)
    start = pack.start_paths(lang, units)[:pages]
    for app in apps.values():  # templates compiled, connections opened: not what is measured
        await pack.crawl(app, start[:20], lang, {}, follow=False)
    cpu = dict.fromkeys(apps, 0.0)
    crawled: dict[str, dict] = {name: {} for name in apps}
    for i in range(0, len(start), BATCH):
        for name, app in apps.items():
            began = time.process_time()
            crawled[name].update(await pack.crawl(app, start[i : i + BATCH], lang, {}, follow=False))
            cpu[name] += time.process_time() - began
    baseline = next(iter(apps))
    print(f"{lang}, {len(start)} pages, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for name, seconds in cpu.items():
        same = crawled[name] == crawled[baseline]
        print(f"  {name:50} {seconds:7.2f} s CPU  {seconds / cpu[baseline]:.2f}x  same pages: {same}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", default="laws.db")
    parser.add_argument("--pages", type=int, default=800)
    parser.add_argument("--lang", default="ja", choices=("ja", "zh", "en"))
    args = parser.parse_args()
    asyncio.run(measure(args.db, args.pages, args.lang))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
