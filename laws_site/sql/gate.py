"""Public SQL runs a few at a time, so pages and search always have a read thread.

Datasette runs every statement on its `num_sql_threads` read threads (3), the pages' reads too.
Eight clients sending a query that runs into the 1.5 s time limit held all three: a unit page took
3-7.5 s instead of 5-10 ms. Every request that runs SQL a client wrote - `?sql=` on the database
(HTML, .json, .csv), a canned query, a table view with `_where` - now passes this gate first: at
most SLOTS run at once, at most QUEUE wait, none waits longer than MAX_WAIT seconds. A request the
gate cannot take (queue full, or waited too long) is answered 429 Too Many Requests with
Retry-After: the server is well, this client's kind of request is rationed (never a 5xx).

The statements of a gated request run on an executor of their own (SLOTS threads at a lower CPU
priority, NICENESS), not on Datasette's read threads: on a busy machine the page being rendered
gets the CPU before a runaway query does, and Datasette's threads are all the pages'.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

SLOTS = 1
QUEUE = 16
MAX_WAIT = 1.0  # seconds; a statement may run sql_time_limit_ms (1.5 s) after that
RETRY_AFTER = 2  # seconds
SQL_PARAMETERS = ("sql", "_where")
NICENESS = 10
# SQLite steps between two time checks on the gate's thread. Datasette checks every 1,000: each
# check is a Python call that takes the GIL, ~12,500 a second during a runaway query, and the event
# loop rendering a page waits at each hand-over. A step may call a costly function (a 200 KB printf
# per row: ~0.1 ms), so the check cannot be much rarer: 5,000 steps overshoot the limit by well
# under a second even then.
TIME_CHECK_STEPS = 5_000
# set while a gated request is answered: its statements go to the gate's executor
CLIENT_SQL: contextvars.ContextVar[bool] = contextvars.ContextVar("laws_site_client_sql", default=False)


@dataclass
class Busy:
    status: int
    message: str


class Gate:
    def __init__(self, slots: int = SLOTS, queue: int = QUEUE, max_wait: float = MAX_WAIT):
        self.semaphore = asyncio.Semaphore(slots)
        self.queue, self.max_wait = queue, max_wait
        self.waiting = 0
        self.refused = 0

    async def enter(self) -> Busy | None:
        """None once a slot is held (call leave() after), else why not."""
        if self.semaphore.locked() and self.waiting >= self.queue:
            self.refused += 1
            return Busy(429, f"too many SQL queries are waiting ({self.queue}); try again in {RETRY_AFTER} s")
        self.waiting += 1
        started = time.monotonic()
        try:
            await asyncio.wait_for(self.semaphore.acquire(), self.max_wait)
        except asyncio.TimeoutError:
            self.refused += 1
            return Busy(
                429,
                f"the server is busy with other SQL queries (waited {time.monotonic() - started:.1f} s); "
                f"try again in {RETRY_AFTER} s",
            )
        finally:
            self.waiting -= 1
        return None

    def leave(self) -> None:
        self.semaphore.release()


def gate_for(datasette) -> Gate:
    gate = getattr(datasette, "_laws_sql_gate", None)
    if gate is None:
        gate = datasette._laws_sql_gate = Gate()
    return gate


def runs_client_sql(datasette, path: str, parameter_names: set[str]) -> bool:
    """True for Datasette's own views under a database that run SQL the client wrote."""
    first, _, rest = path.lstrip("/").partition("/")
    database = first.removesuffix(".json").removesuffix(".csv")
    routes = {db.route: name for name, db in datasette.databases.items() if name != "_internal"}
    if database not in routes or first.endswith(".db"):
        return False
    if parameter_names & set(SQL_PARAMETERS):
        return True
    if not rest:
        return False
    view = rest.split("/")[0]
    for suffix in (".json", ".csv"):
        view = view.removesuffix(suffix)
    from urllib.parse import unquote

    queries = datasette.metadata("queries", database=routes[database]) or {}
    return unquote(view) in queries


# ---------------------------------------------------------------- the gate's own threads


def executor_for(datasette) -> ThreadPoolExecutor:
    executor = getattr(datasette, "_laws_sql_executor", None)
    if executor is None:
        executor = ThreadPoolExecutor(max_workers=SLOTS, thread_name_prefix="client-sql", initializer=lower_priority)
        datasette._laws_sql_executor = executor
    return executor


def replace_executor(datasette) -> ThreadPoolExecutor | None:
    """A rebuilt file is served: the next gated statement starts a new thread (which opens the new
    file); the old executor is returned for the caller to shut down."""
    old = getattr(datasette, "_laws_sql_executor", None)
    datasette._laws_sql_executor = None
    return old


_gate_thread = threading.local()


def lower_priority() -> None:
    _gate_thread.is_gate = True
    with contextlib.suppress(OSError, AttributeError):  # Linux: a thread's own nice value
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICENESS)


@contextlib.contextmanager
def time_limit(conn, ms: int):
    """Datasette's sqlite_timelimit; on the gate's thread the clock is read every TIME_CHECK_STEPS."""
    deadline = time.perf_counter() + ms / 1000
    every = 1 if ms <= 20 else TIME_CHECK_STEPS if getattr(_gate_thread, "is_gate", False) else 1000

    def handler():
        return 1 if time.perf_counter() >= deadline else 0

    conn.set_progress_handler(handler, every)
    try:
        yield
    finally:
        conn.set_progress_handler(None, every)


def install_own_executor() -> None:
    """Database.execute_fn runs on the gate's executor while CLIENT_SQL is set (the same per-thread
    connection handling as Datasette's own, so limits.prepare applies to its connections)."""
    from datasette.database import Database, connections

    if getattr(Database.execute_fn, "laws_site", False):
        return
    original = Database.execute_fn

    async def execute_fn(self, fn):
        if not CLIENT_SQL.get() or self.ds.executor is None:
            return await original(self, fn)

        def in_thread():
            conn = getattr(connections, self.name, None)
            if not conn:
                conn = self.connect()
                self.ds._prepare_connection(conn, self.name)
                setattr(connections, self.name, conn)
            return fn(conn)

        return await asyncio.get_running_loop().run_in_executor(executor_for(self.ds), in_thread)

    execute_fn.laws_site = True
    Database.execute_fn = execute_fn
    import datasette.database

    datasette.database.sqlite_timelimit = time_limit
