"""What an exception raised while answering a request means for the person who sent it.

Datasette answers 500 for several kinds of bad input to its own views (an unknown `_sort` column
raises DatasetteError with its default status 500, a NUL in `_where` or `_facet` raises
sqlite3.ProgrammingError, `/laws.csv` without `sql` raises KeyError, a non-ASCII `/-/auth-token`
raises TypeError, a POST to a canned query fails inside Datasette). Input the server refuses is
the client's mistake: 4xx, with Datasette's own message. On Datasette's own views every other
exception is also taken as caused by the request (400; the traceback goes to the log). On the
project's routes (routes.py) an unexpected exception is a bug of ours: 500, with a message that
names no file, the traceback in the log, and the live fuzz test fails on it.
"""

from __future__ import annotations

import sqlite3
import sys
import traceback
from dataclasses import dataclass, field
from http import HTTPStatus

from datasette.database import QueryInterrupted
from datasette.utils.asgi import Base400
from datasette.views.base import DatasetteError

MAX_MESSAGE = 500  # an error message may quote the input; never echo 100 KB of it


@dataclass
class Problem:
    status: int
    message: str
    title: str | None = None
    info: dict = field(default_factory=dict)
    message_is_html: bool = False
    logged: bool = False  # an unexpected exception: its traceback belongs in the server log


def title_for(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"


def shorten(message: str) -> str:
    return message if len(message) <= MAX_MESSAGE else message[:MAX_MESSAGE] + "…"


def classify(exception: BaseException, plugin_route: bool = True) -> Problem:
    """What to answer; `plugin_route` is False for Datasette's own views."""
    if isinstance(exception, Base400):
        message = str(exception.args[0]) if exception.args else title_for(exception.status)
        return Problem(exception.status, shorten(message))
    if isinstance(exception, DatasetteError) and exception.title == "SQL Interrupted":
        exception = QueryInterrupted(exception, "", "")  # its message is HTML, with the SQL quoted in full
    if isinstance(exception, DatasetteError):
        # Datasette raises these for input it cannot use; its default status is 500
        status = exception.status if 400 <= exception.status < 500 else 400
        return Problem(
            status,
            exception.message if exception.message_is_html else shorten(str(exception.message)),
            exception.title,
            dict(exception.error_dict),
            exception.message_is_html,
        )
    if isinstance(exception, QueryInterrupted) or (
        isinstance(exception, sqlite3.OperationalError) and exception.args == ("interrupted",)
    ):
        return Problem(
            400, "SQL query took too long: the time limit is there to keep the site responsive", "Query took too long"
        )
    if isinstance(exception, sqlite3.Error):
        return Problem(400, shorten(str(exception) or type(exception).__name__), "Invalid query")
    if isinstance(exception, MemoryError):
        # SQLite's heap ceiling (limits.HARD_HEAP_LIMIT) refused the allocation
        return Problem(400, "the query needs more memory than this server allows", "Query too large")
    if isinstance(exception, (ValueError, OverflowError, RecursionError)):
        # conversions of request values: int('²'), a 5,000-digit number, undecodable text
        return Problem(400, shorten(str(exception) or type(exception).__name__))
    if not plugin_route:
        return Problem(
            400,
            f"Datasette could not answer this request ({type(exception).__name__}): check the parameters",
            "Bad request",
            logged=True,
        )
    return Problem(
        500,
        "Internal error: the server failed to answer this request (the log has the details)",
        "Internal error",
        logged=True,
    )


def log(exception: BaseException, request) -> None:
    """A server fault: the traceback goes to the log (stderr), never into the response."""
    path = request.path if request is not None else "?"
    print(f"ERROR answering {path[:200]}:", file=sys.stderr)
    traceback.print_exception(exception, file=sys.stderr)
