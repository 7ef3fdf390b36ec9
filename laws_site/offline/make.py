"""`bridge-laws pack`: the offline packs of a build, made off the request path, into files.

The service worker saves the site from four files per build (laws_site/offline/pack.py): the pages
in each interface language (`pages-ja`, `pages-zh`, `pages-en`) and what offline search reads
(`search`, laws_site/offline/search_data.py), each gzip-compressed JSON. Making them renders every
page of the site once per language (~4,500 pages each), so it is never done inside a request:

- they are written next to the database, in `<db>.offline/<build id>/<name>.json.gz`, each file
  atomically (a temporary name, then a rename) and only if the database still holds the same build
  when its crawl ends; the server serves a file of the build it serves and nothing else, so a stale
  pack is never served (another build's directory is removed once the new one is complete);
- `bridge-laws serve` starts `bridge-laws pack --background` in a child process at start-up when
  the files of its build are missing, and the server starts one again when a rebuild it picked up
  has none (pages/offline.py); until the files are there, asking for them is a 503 with
  Retry-After, which the service worker waits out;
- the languages and the search data are made in parallel processes (`--jobs`, default: the CPUs,
  at most 4), each with its own in-process Datasette configured as `bridge-laws serve` runs it;
  a lock file per build lets one maker work at a time (a second one waits, then finds the files).
"""

from __future__ import annotations

import contextlib
import fcntl
import gzip
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import click

from laws_site.i18n import catalog as i18n

# laws_site.cli imports this module for its command: what the packs need (Datasette, the pages) is
# imported when they are made, not on every `bridge-laws` command

NAMES = ("search",) + tuple(f"pages-{lang}" for lang in i18n.LANGUAGES)  # the order they are made in
GZIP_LEVEL = 9
MAX_JOBS = 4


def pack_root(db_path: Path) -> Path:
    db_path = Path(db_path)
    return db_path.with_name(db_path.name + ".offline")


def pack_file(db_path: Path, build: str, name: str) -> Path:
    return pack_root(db_path) / build / f"{name}.json.gz"


def read_build_id(db_path: Path) -> str:
    """The build id of the database file ('' if it has none or cannot be read)."""
    from laws_site.offline.pack import current_build_id

    try:
        conn = sqlite3.connect(f"file:{Path(db_path).resolve()}?mode=ro", uri=True)
    except sqlite3.Error:
        return ""
    try:
        return current_build_id(conn)
    finally:
        conn.close()


def missing(db_path: Path, build: str) -> list[str]:
    return [name for name in NAMES if not pack_file(db_path, build, name).is_file()]


# ---------------------------------------------------------------- one pack, in a child process


def _datasette(db_path: Path):
    """Datasette configured exactly as `bridge-laws serve` runs it (the pages are the server's)."""
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
        settings={name: typed(name, value) for name, value in SETTINGS.items()},
    )


def _json(data) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def make_one(db_path: str, build: str, name: str) -> dict:
    """Make one pack file of `build` (a pages pack by crawling the site in its language, or the search
    pack); written only if the database still holds `build` afterwards. Returns its figures."""
    import asyncio  # here, not at the top: every `bridge-laws` command (build too) imports this module

    from laws_site.http.responses import laws_database, read
    from laws_site.offline import search_data as offline_search_data
    from laws_site.offline.pack import PackError, crawl, pack_pages, result_labels, start_paths, unit_pages

    started = time.perf_counter()
    datasette = _datasette(Path(db_path))

    async def made() -> tuple[bytes, dict]:
        await datasette.invoke_startup()
        if name == "search":
            data = await laws_database(datasette).execute_fn(lambda conn: offline_search_data.export(conn, build))
            return _json(data), {}
        lang = name.split("-", 1)[1]
        skipped: dict = {}
        pages = await crawl(datasette, start_paths(lang, await read(datasette, unit_pages)), lang, skipped)
        labels = await read(datasette, lambda conn: result_labels(conn, lang))
        return _json(pack_pages(pages, build, skipped, lang, labels)), {"pages": len(pages), "skipped": len(skipped)}

    body, figures = asyncio.run(made())
    if read_build_id(Path(db_path)) != build:
        raise PackError(f"{db_path} was rebuilt while the offline pack {name} was made; it was not written")
    compressed = gzip.compress(body, GZIP_LEVEL, mtime=0)
    target = pack_file(Path(db_path), build, name)
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    temporary.write_bytes(compressed)
    os.replace(temporary, target)  # atomic: the server sees the whole file or none
    return {
        "name": name,
        "json_bytes": len(body),
        "gzip_bytes": len(compressed),
        "seconds": round(time.perf_counter() - started, 1),
        **figures,
    }


# ---------------------------------------------------------------- every pack of a build


@contextlib.contextmanager
def build_lock(db_path: Path, build: str):
    """One maker per build at a time (a second one waits here, then finds the files made)."""
    root = pack_root(db_path)
    root.mkdir(parents=True, exist_ok=True)
    with open(root / f".{build}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _alive(pid: int | None) -> bool:
    """No pid (run by hand): nobody to outlive."""
    from ingest.build.database import process_exists

    return pid is None or process_exists(pid)


def _stop_group_or_raise(reason: str) -> None:
    """Stop this pack and its crawls. Started by a server we lead our own process group (the crawls
    are in it): kill the group outright - Pool.terminate() was seen to hang for good with exited
    workers, holding the build's lock. Run by hand (a shell's group), raise and let the pool stop."""
    if os.getpgrp() == os.getpid():
        print(f"Error: {reason}", file=sys.stderr, flush=True)
        os.killpg(os.getpgrp(), signal.SIGKILL)
    from laws_site.offline.pack import PackError

    raise PackError(reason)


def make(db_path: Path, jobs: int | None = None, log=lambda line: None, parent_pid: int | None = None) -> dict:
    """Every missing pack file of the database's current build; other builds' files removed after.
    {"build", "made": [figures per file], "seconds"}. PackError if it cannot be made."""
    from multiprocessing import get_context

    from laws_site.offline.pack import PackError

    db_path = Path(db_path)
    build = read_build_id(db_path)
    if not build:
        raise PackError(f"{db_path} has no build id (table build_info): rebuild it with `bridge-laws build`")
    started = time.perf_counter()
    made = []
    with build_lock(db_path, build):
        todo = missing(db_path, build)
        jobs = max(1, min(jobs or os.cpu_count() or 1, MAX_JOBS, len(todo) or 1))
        if todo and jobs == 1 and parent_pid is None:
            for name in todo:
                made.append(make_one(str(db_path), build, name))
                log(_line(made[-1]))
        elif todo:
            pool = get_context("spawn").Pool(jobs)
            try:
                waiting = [pool.apply_async(make_one, (str(db_path), build, name)) for name in todo]
                for result in waiting:
                    # polled, not one blocking get(): a server that started us and stopped (even
                    # killed) stops the crawls within a second instead of leaving them running
                    while not result.ready():
                        if not _alive(parent_pid):
                            _stop_group_or_raise(f"process {parent_pid} that asked for the packs has stopped")
                        result.wait(1)
                    made.append(result.get())
                    log(_line(made[-1]))
                pool.close()
            finally:
                pool.terminate()  # a failure or a stop (SIGTERM) stops the other crawls too
                pool.join()
        if not missing(db_path, build):
            remove_other_builds(db_path, build)
    return {"build": build, "made": made, "seconds": round(time.perf_counter() - started, 1)}


def _line(figures: dict) -> str:
    pages = f"{figures['pages']} pages, " if "pages" in figures else ""
    return (
        f"{figures['name']}: {pages}{figures['json_bytes']:,} B of JSON, {figures['gzip_bytes']:,} B gzip, "
        f"{figures['seconds']} s"
    )


def remove_other_builds(db_path: Path, build: str) -> None:
    root = pack_root(db_path)
    for entry in root.iterdir():
        if entry.name == build or entry.name == f".{build}.lock":
            continue
        if entry.is_dir():
            shutil.rmtree(entry, ignore_errors=True)
        elif entry.name.endswith(".lock"):
            with contextlib.suppress(OSError):
                entry.unlink()


# ---------------------------------------------------------------- started by the server


def start_in_background(db_path: Path) -> subprocess.Popen | None:
    """`bridge-laws pack --background` in a child process if this build's files are missing (None
    if they are all there). The server never waits for it."""
    build = read_build_id(db_path)
    if not build or not missing(db_path, build):
        return None
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "laws_site.cli",
            "pack",
            "--db",
            str(db_path),
            "--background",
            "--parent-pid",
            str(os.getpid()),
        ],
        start_new_session=True,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
    )


@click.command()
@click.option(
    "--db",
    "db_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("laws.db"),
    show_default=True,
    help="SQLite database file",
)
@click.option(
    "--jobs",
    type=click.IntRange(1, MAX_JOBS),
    default=None,
    help="Packs made at once, one process each (default: the CPUs, at most 4)",
)
@click.option("--background", is_flag=True, help="Run at low priority and quietly (as `serve` starts it)")
@click.option(
    "--parent-pid",
    type=click.IntRange(1),
    default=None,
    hidden=True,
    help="Stop (and stop the crawls) when this process, the server that started us, has ended",
)
def pack(db_path: Path, jobs: int | None, background: bool, parent_pid: int | None):
    """Make the offline packs of the database's build (the pages in each interface language, the
    search data) into <db>.offline/<build id>/; files already made are kept. `serve` runs this in
    the background when they are missing."""
    from ingest.build.cli import CliError, check_database
    from laws_site.offline.pack import PackError

    check_database(db_path)
    if background:
        os.nice(10)
    # stopped (the server that started it stops): the crawls in the pool are stopped with it
    signal.signal(
        signal.SIGTERM,
        lambda *_: _stop_group_or_raise("stopped (SIGTERM)") if os.getpgrp() == os.getpid() else sys.exit(143),
    )
    try:
        result = make(db_path, jobs, log=(lambda line: None) if background else click.echo, parent_pid=parent_pid)
    except PackError as error:
        raise CliError(str(error)) from error
    if not background:
        made = ", ".join(figures["name"] for figures in result["made"]) or "nothing (all made already)"
        click.echo(
            f"offline packs of build {result['build'][:8]} in {pack_root(db_path) / result['build']}: "
            f"made {made} in {result['seconds']} s"
        )
