"""Serve a rebuilt database without a restart, and never serve a file that is not ours.

`bridge-laws build` writes a new file and renames it over laws.db. Before each request the server
compares the file's identity (device, inode, size, mtime) with the one it serves:

- a new file (another inode) is picked up only if it is this project's database: it opens as
  SQLite, passes `pragma quick_check`, has every table and column of the file being served and a
  `build_info` naming its build. Then the server swaps in a fresh Database object and fresh SQL
  threads (so no thread keeps a connection to the old file), closes the old connections once the
  requests still using them are done, and drops the database's rows from Datasette's internal
  catalog. Anything else (another application's SQLite file, a partial schema, a half-copied file)
  is refused, named once in the log, and the previous file keeps serving: every read thread and
  the event loop's own connection opened it when it was picked up (`open_everywhere`), and the
  server keeps a file descriptor on it, from which `/laws.db` is served - the exact bytes the pages
  read, under their ETag (the SHA-256 of those bytes).
- the same file changed in place (a `cp` over it, bytes overwritten) is picked up the same way once
  it is complete and ours; until then, and while the file is missing, every request that reads the
  database is answered 503 with a clear message: the bytes under the open connections are gone.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import sqlite3
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from datasette.database import Database

HASH_BLOCK = 1024 * 1024


@dataclass
class Served:
    """The file a database name is served from: its identity, an open descriptor, its tables."""

    identity: tuple
    fd: int
    sha256: str
    schema: dict[str, frozenset[str]]
    readers: int = 0  # downloads reading from fd now
    retired: bool = False  # another file is served: close fd when the last reader is done

    def retire(self) -> None:
        self.retired = True
        if not self.readers:
            os.close(self.fd)

    def done_reading(self) -> None:
        self.readers -= 1
        if self.retired and not self.readers:
            os.close(self.fd)


# per Datasette instance: {database name: what is served}; identities found unusable
_served: dict[int, dict[str, Served]] = {}
_refused: set[tuple] = set()
_locks: dict[int, asyncio.Lock] = {}


class NotOurs(Exception):
    """The file is not a complete bridge-laws database (the message says why)."""


def identity(path: str) -> tuple | None:
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns


def fd_identity(fd: int) -> tuple:
    stat = os.fstat(fd)
    return stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns


def file_databases(datasette) -> dict[str, Database]:
    return {
        name: db for name, db in datasette.databases.items() if name != "_internal" and not db.is_memory and db.path
    }


def served(datasette, name: str) -> Served | None:
    return _served.get(id(datasette), {}).get(name)


# ---------------------------------------------------------------- is it ours?


def schema_of(conn: sqlite3.Connection) -> dict[str, frozenset[str]]:
    tables = [row[0] for row in conn.execute("select name from sqlite_master where type = 'table'")]
    return {table: frozenset(row[1] for row in conn.execute(f"pragma table_info([{table}])")) for table in tables}


def sha256_of(fd: int) -> str:
    digest, offset = hashlib.sha256(), 0
    while chunk := os.pread(fd, HASH_BLOCK, offset):
        digest.update(chunk)
        offset += len(chunk)
    return digest.hexdigest()


def examine(path: str, expected: dict[str, frozenset[str]] | None) -> Served:
    """Open the file, check it is ours (NotOurs otherwise), hash it. The descriptor stays open."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError as error:
        raise NotOurs(f"cannot be opened ({error.strerror})") from error
    try:
        before = fd_identity(fd)
        try:
            conn = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
            try:
                verdict = conn.execute("pragma quick_check").fetchone()[0]
                if verdict != "ok":
                    raise NotOurs(f"is damaged ({verdict[:100]})")
                schema = schema_of(conn)
                if "build_info" not in schema:
                    raise NotOurs("has no build_info table: it was not written by `bridge-laws build`")
                info = dict(conn.execute("select key, value from build_info").fetchall())
                if not info.get("build_id"):
                    raise NotOurs("has no build_id in build_info")
            finally:
                conn.close()
        except sqlite3.Error as error:
            raise NotOurs(f"is not a readable SQLite database ({error})") from error
        missing = [
            f"{table}.{column}" if table in schema else table
            for table, columns in sorted((expected or {}).items())
            for column in (sorted(columns - schema[table]) if table in schema else [None])
        ]
        if missing:
            raise NotOurs(f"lacks {len(missing)} table(s) or column(s) the site reads, e.g. {missing[0]}")
        content_hash = sha256_of(fd)
        if fd_identity(fd) != before or identity(path) != before:
            raise NotOurs("changed while it was being checked")
        return Served(before, fd, content_hash, schema)
    except BaseException:
        os.close(fd)
        raise


# ---------------------------------------------------------------- start-up, every request


async def remember(datasette) -> None:
    """At start-up: the files as they are now, checked as a rebuild is (else served as they are)."""
    served_now = _served.setdefault(id(datasette), {})
    for name, db in file_databases(datasette).items():
        try:
            kept = await asyncio.to_thread(examine, db.path, None)
        except NotOurs as error:
            print(f"{name}: {os.path.basename(db.path)} {error}", file=sys.stderr)
            continue
        if not db.is_mutable:
            db.cached_hash = kept.sha256
            db.cached_size = kept.identity[2]  # of the bytes served, whatever is renamed over them later
        served_now[name] = kept
        await open_everywhere(datasette, db)


def unavailable(datasette) -> str | None:
    """Why the database cannot be read now (its file is gone, or was changed in place and is not
    a complete bridge-laws database), else None."""
    for name, kept in _served.get(id(datasette), {}).items():
        db = datasette.databases.get(name)
        if db is None:
            continue
        now = identity(db.path)
        filename = os.path.basename(db.path)
        if now is None:
            return (
                f"the database file {filename} is missing: the site answers again once it is rebuilt "
                "(`bridge-laws build`)"
            )
        if now[:2] == kept.identity[:2] and now != kept.identity:
            return (
                f"the database file {filename} was changed in place and is not a complete bridge-laws "
                "database: the site answers again once it is rebuilt (`bridge-laws build`)"
            )
    return None


def changed(datasette) -> list[str]:
    names = []
    for name, kept in _served.get(id(datasette), {}).items():
        db = datasette.databases.get(name)
        now = identity(db.path) if db is not None else None
        if now is not None and now != kept.identity and now not in _refused:
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
                print(
                    f"{name}: could not pick up the rebuilt file ({type(error).__name__}: {error}); "
                    "still serving the previous one",
                    file=sys.stderr,
                )


async def swap(datasette, name: str) -> None:
    old = datasette.databases[name]
    previous = _served[id(datasette)][name]
    now = identity(old.path)
    try:
        kept = await asyncio.to_thread(examine, old.path, previous.schema)
    except NotOurs as error:
        if identity(old.path) == now:  # else replaced again while we looked: the next request tries again
            _refused.add(now)
            in_place = now is not None and now[:2] == previous.identity[:2]
            print(
                f"{name}: {os.path.basename(old.path)} changed but {error}; "
                + ("the site answers 503 until it is rebuilt" if in_place else "still serving the previous file"),
                file=sys.stderr,
            )
        return
    new = Database(datasette, path=old.path, is_mutable=old.is_mutable, is_memory=False)
    new.name, new.route = old.name, old.route
    new.cached_hash = None if old.is_mutable else kept.sha256
    new.cached_size = kept.identity[2]
    if datasette.inspect_data and name in datasette.inspect_data:  # counts and hash of the old file
        datasette.inspect_data = {k: v for k, v in datasette.inspect_data.items() if k != name}
    # same order, new dict (Datasette replaces its dict rather than mutating it)
    datasette.databases = {key: (new if key == name else db) for key, db in datasette.databases.items()}
    fresh_sql_threads(datasette, old)
    _served[id(datasette)][name] = kept
    previous.retire()  # its descriptor closes now, or when the downloads reading it are done
    await open_everywhere(datasette, new)
    internal = datasette.databases.get("_internal")
    if internal is not None and getattr(datasette, "internal_db_created", False):
        await internal.execute_write("delete from databases where database_name = ?", [name])
    print(f"{name}: picked up the rebuilt {os.path.basename(old.path)} (sha256 {kept.sha256[:12]}…)", file=sys.stderr)


async def open_everywhere(datasette, db: Database) -> None:
    """Every read thread (and the event loop's own search connection) opens the file now, so a
    file later renamed over it and refused is never opened by a thread that had not read yet."""
    from laws_site.http.responses import read_here

    threads = datasette.setting("num_sql_threads") or 0
    if datasette.executor is not None and threads:
        barrier = threading.Barrier(threads, timeout=5)

        def wait(conn):  # noqa: ARG001 - holding each thread until all have opened theirs
            try:
                barrier.wait()
            except threading.BrokenBarrierError:
                pass

        await asyncio.gather(*(db.execute_fn(wait) for _ in range(threads)))
        from laws_site.sql import gate as sql_gate

        client_sql = sql_gate.CLIENT_SQL.set(True)  # and the gate's thread (one: sql_gate.SLOTS)
        try:
            await db.execute_fn(lambda conn: None)
        finally:
            sql_gate.CLIENT_SQL.reset(client_sql)
    else:
        await db.execute_fn(lambda conn: None)
    if db.name == "laws" or len(file_databases(datasette)) == 1:
        read_here(datasette, lambda conn: None)


def fresh_sql_threads(datasette, old: Database) -> None:
    """Datasette keeps one connection per database name in each SQL thread: new threads open the
    new file. Once the old threads have finished what they run, the connections they opened are
    closed (only those: a request that began before the swap may still open one from a new thread)."""
    from laws_site.sql import gate as sql_gate

    executor = datasette.executor
    if executor is None:  # non-threaded mode: the connection lives on the old Database object
        return
    datasette.executor = ThreadPoolExecutor(max_workers=datasette.setting("num_sql_threads"))
    client_sql = sql_gate.replace_executor(datasette)  # the gate's thread too (sql_gate.py)
    opened_by_old_threads = list(old._all_file_connections)

    def retire():
        executor.shutdown(wait=True)
        if client_sql is not None:
            client_sql.shutdown(wait=True)
        for conn in opened_by_old_threads:
            conn.close()

    threading.Thread(target=retire, name=f"retire-{old.name}", daemon=True).start()


# ---------------------------------------------------------------- /laws.db

DOWNLOAD_CHUNK = 256 * 1024


def download_name(datasette, path: str) -> str | None:
    """The database a `/<route>.db` path downloads, if it is one this module serves."""
    if not path.endswith(".db") or path.count("/") != 1:
        return None
    route = path[1:-3]
    for name, db in file_databases(datasette).items():
        if db.route == route and served(datasette, name) is not None:
            return name
    return None


async def send_download(datasette, name: str, scope, send, etag_matches) -> None:
    """The bytes the pages are read from (the kept descriptor), with their SHA-256 as the ETag."""
    kept = served(datasette, name)
    db = datasette.databases[name]
    etag = f'"{kept.sha256}"'
    headers = [
        (b"etag", etag.encode()),
        (b"access-control-allow-origin", b"*"),
        (b"access-control-expose-headers", b"ETag"),
        (b"x-content-type-options", b"nosniff"),
        (b"cache-control", b"public, max-age=60"),
    ]
    if_none_match = next(
        (v.decode("latin-1") for k, v in scope.get("headers", []) if k.lower() == b"if-none-match"), None
    )
    if etag_matches(if_none_match, etag):
        await send({"type": "http.response.start", "status": 304, "headers": headers})
        await send({"type": "http.response.body", "body": b""})
        return
    size = kept.identity[2]
    filename = os.path.basename(db.path).replace('"', "")
    headers += [
        (b"content-type", b"application/octet-stream"),
        (b"content-length", str(size).encode()),
        (b"content-disposition", f'attachment; filename="{filename}"'.encode("utf-8", "replace")),
    ]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    if scope["method"] == "HEAD":
        await send({"type": "http.response.body", "body": b""})
        return
    offset = 0
    kept.readers += 1
    try:
        while offset < size:
            chunk = await asyncio.to_thread(os.pread, kept.fd, min(DOWNLOAD_CHUNK, size - offset), offset)
            if not chunk:
                break
            offset += len(chunk)
            await send({"type": "http.response.body", "body": chunk, "more_body": offset < size})
    finally:
        kept.done_reading()
    if offset < size or size == 0:
        await send({"type": "http.response.body", "body": b""})
