"""Public SQL runs a few at a time, so pages and search always have a read thread.

Datasette runs every statement on its `num_sql_threads` read threads (3), the pages' reads too.
Eight clients sending a query that runs into the 1.5 s time limit held all three: a unit page took
3-7.5 s instead of 5-10 ms. Every request that runs SQL a client wrote - `?sql=` on the database
(HTML, .json, .csv), a canned query, a table view with `_where` - now passes this gate first: at
most SLOTS run at once, at most QUEUE wait, none waits longer than MAX_WAIT seconds. A request the
gate cannot take (queue full, or waited too long) is answered 429 Too Many Requests with
Retry-After: the server is well, this client's kind of request is rationed (never a 5xx).

The gate applies to the laws database only (ownership.py): SQL on another database served beside
it is Datasette's business.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from dataclasses import dataclass
from urllib.parse import unquote

from laws_site import compat
from laws_site.http import ownership
from laws_site.i18n.message import Message, message

SLOTS = 1
QUEUE = 16
MAX_WAIT = 1.0  # seconds; a statement may run sql_time_limit_ms (1.5 s) after that
RETRY_AFTER = 2  # seconds
SQL_PARAMETERS = ("sql", "_where")


@dataclass
class Busy:
    status: int
    message: Message


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
            return Busy(
                429,
                message(
                    "Too many SQL queries are waiting (%(queue)s); try again in %(seconds)s s.",
                    "too many SQL queries are waiting (%(queue)s); try again in %(seconds)s s",
                    queue=self.queue,
                    seconds=RETRY_AFTER,
                ),
            )
        self.waiting += 1
        started = time.monotonic()
        try:
            await asyncio.wait_for(self.semaphore.acquire(), self.max_wait)
        except asyncio.TimeoutError:
            self.refused += 1
            return Busy(
                429,
                message(
                    "The server is busy with other SQL queries (waited %(waited)s s); try again in %(seconds)s s.",
                    "the server is busy with other SQL queries (waited %(waited)s s); try again in %(seconds)s s",
                    waited=f"{time.monotonic() - started:.1f}",
                    seconds=RETRY_AFTER,
                ),
            )
        finally:
            self.waiting -= 1
        return None

    def leave(self) -> None:
        self.semaphore.release()


_gates: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def gate_for(datasette) -> Gate:
    gate = _gates.get(datasette)
    if gate is None:
        gate = _gates[datasette] = Gate()
    return gate


async def runs_client_sql(datasette, path: str, parameter_names: set[str]) -> bool:
    """True for Datasette's own views under the laws database that run SQL the client wrote: `sql=`
    (its /-/query page too), `_where`, a canned query."""
    first, _, rest = path.lstrip("/").partition("/")
    database = first.removesuffix(".json").removesuffix(".csv")
    if first.endswith(".db") or database != ownership.laws_route(datasette):
        return False
    if parameter_names & set(SQL_PARAMETERS):
        return True
    if not rest:
        return False
    view = rest.split("/")[0]
    for suffix in (".json", ".csv"):
        view = view.removesuffix(suffix)
    return await compat.is_named_query(datasette, ownership.laws_database_name(datasette), unquote(view))
