"""The offline packs, made at build: `bridge-laws build` writes them with the database.

The service worker saves the site from four files per build (laws_site/offline/pack.py): the pages
in each interface language (`pages-ja`, `pages-zh`, `pages-en`) and what offline search reads
(`search`, laws_site/offline/search_data.py), each JSON stored compressed twice: gzip, which every
client and static host can take, and brotli with a 16 MB window, which sees a whole pack's repeats
(a pages pack: 1.1 MB where gzip's 32 KB window gives 2.3 MB) and which the server sends a browser
that accepts it (laws_site/http/stored.py). Making them renders every
page of the site once per language (~4,500 pages each), so it is done once, at build, never by the
server:

- `build_outputs` writes the database and its packs into a staging directory, then renames both into
  place (ingest/build/outputs.py): `<db>.offline/<build id>/<name>.json.gz` and `.json.br`; a failed or stopped
  build leaves the previous outputs served;
- the languages and the search data are made in parallel processes (`--jobs`, default: all four
  at once), each with its own in-process Datasette configured as `bridge-laws serve` runs it;
- the same corpus and code give the same bytes: the build id is derived from them
  (ingest/build/identity.py), the packs' JSON is written in a fixed order, gzip with mtime 0.

`bridge-laws pack` makes the packs of a database built without them (`build --no-offline`).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import time
from importlib import resources
from pathlib import Path

from ingest.build.database import write_database
from ingest.build.identity import read_build_id
from ingest.build.outputs import staged
from laws_site.offline.pack_files import NAMES, file_name, missing

# laws_site.cli imports this module for its commands: what the packs need (Datasette, the pages) is
# imported when they are made, not on every `bridge-laws` command

GZIP_LEVEL = 9
# brotli: quality 9 with the largest window makes a pages pack in ~1 s; quality 11 saves 10 % more in 30 s
BROTLI_QUALITY = 9
BROTLI_WINDOW_BITS = 24
MAX_JOBS = 4
BUILD_TIME_LIMIT_MS = 600_000
# How the crawl's Datasette differs from a server: no time limit per request (that bounds what a
# client may cost a public server; a build on a busy machine takes the time it takes), and its reads
# on the event loop's own thread (Datasette's non-threaded mode): the crawl asks for its pages a few
# at a time and has nothing else to serve, and handing each read to a thread and back cost ~15 % of
# its CPU (benchmarks/RESULTS.md)
CRAWL_SETTINGS = {"sql_time_limit_ms": BUILD_TIME_LIMIT_MS, "num_sql_threads": 0}


class PackError(RuntimeError):
    """The packs could not be made (the database has no build id)."""


# ---------------------------------------------------------------- the build's outputs


def build_outputs(db_path: Path, corpus_dir: Path, offline: bool = True, jobs: int | None = None, log=print) -> dict:
    """The database of the corpus and (``offline``) its packs, published together. Returns the
    database's counts, with "packs" (figures per file) and "seconds" (the whole)."""
    started = time.perf_counter()
    with staged(Path(db_path)) as stage:
        counts = write_database(stage.database, corpus_dir, log, site_digest())
        made = make_packs(stage.database, stage.offline, counts["build_id"], jobs, log) if offline else []
        stage.publish(counts["build_id"])
    return {**counts, "packs": made, "seconds": time.perf_counter() - started}


def add_packs(db_path: Path, jobs: int | None = None, log=print) -> dict:
    """The packs of an existing database's build (`bridge-laws pack`), those missing only."""
    build = read_build_id(db_path)
    if not build:
        raise PackError(f"{db_path} has no build id (table build_info): rebuild it with `bridge-laws build`")
    made = []
    if missing(db_path, build):
        with staged(Path(db_path)) as stage:
            made = make_packs(Path(db_path), stage.offline, build, jobs, log)
            stage.publish(build)
    return {"build": build, "packs": made}


def site_digest() -> str:
    """What the packs depend on beside the database: the site's code, templates, static files and
    message catalogues, the text core it shares with the build, and Datasette's version (it renders
    the pages). Part of the build id (ingest/build/identity.py)."""
    from datasette.version import __version__ as datasette_version

    digest = hashlib.sha256(datasette_version.encode())
    for package in ("laws_site", "ingest.text"):
        root = resources.files(package)
        for path in sorted(site_files(Path(str(root)))):
            digest.update(path.relative_to(Path(str(root))).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


SITE_SUFFIXES = {".py", ".html", ".js", ".css", ".png", ".po", ".yml", ".md", ".json"}


def site_files(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.suffix in SITE_SUFFIXES and "__pycache__" not in p.parts and p.is_file()]


# ---------------------------------------------------------------- the packs


def make_packs(db_path: Path, directory: Path, build: str, jobs: int | None = None, log=print) -> list[dict]:
    """Every pack of the database's build into ``directory``, in parallel processes; figures per file."""
    from multiprocessing import get_context

    directory.mkdir(parents=True, exist_ok=True)
    # every pack at once by default, whatever the CPUs: on 2 cores the three languages then share them
    # and end together (~1.5 languages' time), where two at a time left the third alone on one core
    jobs = max(1, min(jobs or len(NAMES), MAX_JOBS, len(NAMES)))
    if jobs == 1:
        made = [make_one(str(db_path), build, name, str(directory)) for name in NAMES]
        for figures in made:
            log(figures_line(figures))
        return made
    pool = get_context("spawn").Pool(jobs)
    try:
        made = []
        # the largest first, so that the search pack fills a process's gap at the end
        names = ordered(NAMES)
        results = pool.imap(make_one_of, [(str(db_path), build, name, str(directory)) for name in names])
        for name in names:
            try:
                figures = next(results)
            except Exception as error:  # noqa: BLE001 - said in one line; the previous outputs stay served
                raise PackError(
                    f"the offline pack {name} could not be made: {type(error).__name__}: {error}"
                ) from error
            made.append(figures)
            log(figures_line(figures))
        pool.close()
    finally:
        pool.terminate()  # a failure or a stop (SIGTERM) stops the other crawls too
        pool.join()
    return sorted(made, key=lambda figures: NAMES.index(figures["name"]))


def ordered(names: tuple[str, ...]) -> list[str]:
    return [name for name in names if name != "search"] + ["search"]


def make_one_of(arguments: tuple) -> dict:
    return make_one(*arguments)


def make_one(db_path: str, build: str, name: str, directory: str) -> dict:
    """One pack file: a pages pack by crawling the site in its language, or the search pack. Returns its figures."""
    import asyncio  # here, not at the top: every `bridge-laws` command imports this module

    import brotli

    from laws_site.http.responses import laws_database, read
    from laws_site.offline import search_data as offline_search_data
    from laws_site.offline.pack import crawl, pack_pages, result_labels, start_paths, unit_pages

    started = time.perf_counter()
    datasette = build_datasette(Path(db_path), **CRAWL_SETTINGS)  # the pages as the server renders them

    async def made() -> tuple[bytes, dict]:
        await datasette.invoke_startup()
        if name == "search":
            data = await laws_database(datasette).execute_fn(lambda conn: offline_search_data.export(conn, build))
            return as_json(data), {}
        lang = name.split("-", 1)[1]
        skipped: dict = {}
        pages = await crawl(datasette.app(), start_paths(lang, await read(datasette, unit_pages)), lang, skipped)
        labels = await read(datasette, lambda conn: result_labels(conn, lang))
        return as_json(pack_pages(pages, build, skipped, lang, labels)), {"pages": len(pages), "skipped": len(skipped)}

    body, figures = asyncio.run(made())
    compressed = gzip.compress(body, GZIP_LEVEL, mtime=0)  # mtime 0: the same pages give the same bytes
    (Path(directory) / file_name(name, "gzip")).write_bytes(compressed)
    smaller = brotli.compress(body, quality=BROTLI_QUALITY, lgwin=BROTLI_WINDOW_BITS)
    (Path(directory) / file_name(name, "br")).write_bytes(smaller)
    return {
        "name": name,
        "json_bytes": len(body),
        "gzip_bytes": len(compressed),
        "brotli_bytes": len(smaller),
        "seconds": round(time.perf_counter() - started, 1),
        **figures,
    }


def build_datasette(db_path: Path, base_url: str = "/", **settings):
    """Datasette configured exactly as `bridge-laws serve` runs it (the pages are the server's), at
    ``base_url``; ``settings`` override (the build's time limit)."""
    import yaml
    from datasette.app import DEFAULT_SETTINGS, Datasette

    from laws_site.http.serve import METADATA, SETTINGS

    def typed(name: str, value: str):
        default = DEFAULT_SETTINGS[name]
        if isinstance(default, bool):
            return value.lower() in ("on", "1", "true")
        return int(value) if isinstance(default, int) else value

    return Datasette(
        immutables=[str(db_path)],
        metadata=yaml.safe_load(METADATA.read_text(encoding="utf-8")),
        settings={
            **{name: typed(name, value) for name, value in SETTINGS.items()},
            "base_url": base_url,
            **settings,
        },
    )


def as_json(data) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def figures_line(figures: dict) -> str:
    pages = f"{figures['pages']} pages, " if "pages" in figures else ""
    return (
        f"offline pack {figures['name']}: {pages}{figures['json_bytes']:,} B of JSON, "
        f"{figures['gzip_bytes']:,} B gzip, {figures['brotli_bytes']:,} B brotli, {figures['seconds']} s"
    )
