"""Serve a rebuilt database without a restart.

`bridge-laws build` writes a new file and renames it over laws.db. A running Datasette keeps
reading the old file through connections it already opened (each SQL thread keeps one per
database name), while `/laws.db` streams the new one. Before each request the server compares
the file's identity (device, inode, size, mtime) with the one it opened; when it changed and the
new file is a readable SQLite database, the server swaps in a fresh Database object and fresh SQL
threads (so no thread keeps a connection to the old file), closes the old connections once the
requests still using them are done, and drops the database's rows from Datasette's internal
catalog so they are read again. A file that fails the check (half-copied by hand, not SQLite) is
not picked up, and is named once in the log.
"""
from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from datasette.database import Database
from datasette.inspect import inspect_hash

# per Datasette instance: {database name: file identity it serves}, and identities found unusable
_served: dict[int, dict[str, tuple]] = {}
_refused: set[tuple] = set()
_locks: dict[int, asyncio.Lock] = {}


def identity(path: str) -> tuple | None:
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns


def file_databases(datasette) -> dict[str, Database]:
    return {name: db for name, db in datasette.databases.items()
            if name != "_internal" and not db.is_memory and db.path}


def remember(datasette) -> None:
    """At start-up: the files as they are now."""
    _served[id(datasette)] = {name: identity(db.path) for name, db in file_databases(datasette).items()}


def changed(datasette) -> list[str]:
    served = _served.setdefault(id(datasette), {})
    names = []
    for name, db in file_databases(datasette).items():
        now = identity(db.path)
        if name not in served:
            served[name] = now
        elif now is not None and now != served[name] and now not in _refused:
            names.append(name)
    return names


async def pick_up_rebuilt_databases(datasette) -> None:
    """Never fails the request: a reload that goes wrong is logged and the old file stays served."""
    if not changed(datasette):  # one stat() per database per request: microseconds
        return
    lock = _locks.setdefault(id(datasette), asyncio.Lock())
    async with lock:
        for name in changed(datasette):
            try:
                await swap(datasette, name)
            except Exception as error:  # noqa: BLE001
                _refused.add(identity(datasette.databases[name].path))
                print(f"{name}: could not pick up the rebuilt file ({type(error).__name__}: {error}); "
                      "still serving the previous one", file=sys.stderr)


def usable(path: str) -> tuple[bool, str | None]:
    """The new file opens as SQLite and passes a quick check; its content hash."""
    try:
        conn = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
        try:
            ok = conn.execute("pragma quick_check").fetchone()[0] == "ok"
        finally:
            conn.close()
        return ok, inspect_hash(Path(path)) if ok else None
    except (sqlite3.Error, OSError):
        return False, None


async def swap(datasette, name: str) -> None:
    old = datasette.databases[name]
    now = identity(old.path)
    ok, content_hash = await asyncio.to_thread(usable, old.path)
    if identity(old.path) != now:  # replaced again while we looked: the next request tries again
        return
    if not ok:
        _refused.add(now)
        print(f"{name}: {os.path.basename(old.path)} changed but is not a usable SQLite database; "
              "still serving the previous file", file=sys.stderr)
        return
    new = Database(datasette, path=old.path, is_mutable=old.is_mutable, is_memory=False)
    new.name, new.route = old.name, old.route
    new.cached_hash = None if old.is_mutable else content_hash
    if datasette.inspect_data and name in datasette.inspect_data:  # counts and hash of the old file
        datasette.inspect_data = {k: v for k, v in datasette.inspect_data.items() if k != name}
    # same order, new dict (Datasette replaces its dict rather than mutating it)
    datasette.databases = {key: (new if key == name else db) for key, db in datasette.databases.items()}
    fresh_sql_threads(datasette, old)
    internal = datasette.databases.get("_internal")
    if internal is not None and getattr(datasette, "internal_db_created", False):
        await internal.execute_write("delete from databases where database_name = ?", [name])
    _served[id(datasette)][name] = now
    print(f"{name}: picked up the rebuilt {os.path.basename(old.path)} (sha256 {content_hash[:12]}…)",
          file=sys.stderr)


def fresh_sql_threads(datasette, old: Database) -> None:
    """Datasette keeps one connection per database name in each SQL thread: new threads open the
    new file. Once the old threads have finished what they run, the connections they opened are
    closed (only those: a request that began before the swap may still open one from a new thread)."""
    executor = datasette.executor
    if executor is None:  # non-threaded mode: the connection lives on the old Database object
        return
    datasette.executor = ThreadPoolExecutor(max_workers=datasette.setting("num_sql_threads"))
    opened_by_old_threads = list(old._all_file_connections)

    def retire():
        executor.shutdown(wait=True)
        for conn in opened_by_old_threads:
            conn.close()

    threading.Thread(target=retire, name=f"retire-{old.name}", daemon=True).start()
