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

import re
import sqlite3
import sys
import traceback
from dataclasses import dataclass, field
from http import HTTPStatus

from datasette.database import QueryInterrupted
from datasette.utils.asgi import Base400
from datasette.views.base import DatasetteError

from laws_site.i18n.catalog import N_
from laws_site.i18n.message import Message, message

MAX_MESSAGE = 500  # an error message may quote the input; never echo 100 KB of it


@dataclass
class Problem:
    status: int
    message: Message | str  # a Message by id; Datasette's or SQLite's own text otherwise
    title: str | None = None
    info: dict = field(default_factory=dict)
    message_is_html: bool = False
    logged: bool = False  # an unexpected exception: its traceback belongs in the server log


def title_for(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"


# An error page's heading: HTTP's phrase as the site writes English (sentence case, as the page's <title>
# "Not found: Laws 2017 99Z" says it); a catalogue msgid (i18n.STATUS_TITLES). JSON keeps HTTP's own phrase
# in `title` (Datasette's error shape, docs/api.md).
PAGE_HEADINGS = {
    "Bad Request": N_("Bad request"),
    "Not Found": N_("Not found"),
    "Method Not Allowed": N_("Method not allowed"),
    "Request-URI Too Long": N_("Address too long"),
    "Internal Server Error": N_("Internal server error"),
}


def page_heading(title: str) -> str:
    return PAGE_HEADINGS.get(title, title)


def shorten(message: str) -> str:
    return message if len(message) <= MAX_MESSAGE else message[:MAX_MESSAGE] + "…"


# Datasette's own messages have no ids: its wording (datasette/views/*.py) for the few a reader of
# this site meets, each once to the site's catalogue entry; any other is shown as Datasette wrote it.
DATASETTE_MESSAGES = [
    (re.compile(r"Database not found", re.S), N_("There is no page at this address.")),
    (re.compile(r"Table not found(?:: .+)?", re.S), N_("There is no such table.")),
    (re.compile(r"(?:Record|Row) not found(?:: .+)?", re.S), N_("There is no such row.")),  # 0.65, 1.0
    (re.compile(r"Database not found(?:: .+)?", re.S), N_("There is no such database.")),
    (re.compile(r"Cannot sort table by (?P<column>.+)", re.S), N_("The table cannot be sorted by %(column)s.")),
]


def datasette_message(text: str) -> Message | str:
    """One of Datasette's messages as the site's catalogue entry; JSON keeps Datasette's text."""
    for pattern, msgid in DATASETTE_MESSAGES:
        found = pattern.fullmatch(text)
        if found:
            return Message(msgid, "%(text)s", {"text": text, **found.groupdict()})
    return text


def classify(exception: BaseException, plugin_route: bool = True) -> Problem:
    """What to answer; `plugin_route` is False for Datasette's own views."""
    if isinstance(exception, Base400):
        text = str(exception.args[0]) if exception.args else title_for(exception.status)
        return Problem(exception.status, datasette_message(shorten(text)))
    if isinstance(exception, DatasetteError) and exception.title == "SQL Interrupted":
        exception = QueryInterrupted(exception, "", "")  # its message is HTML, with the SQL quoted in full
    if isinstance(exception, DatasetteError):
        # Datasette raises these for input it cannot use; its default status is 500
        status = exception.status if 400 <= exception.status < 500 else 400
        return Problem(
            status,
            exception.message if exception.message_is_html else datasette_message(shorten(str(exception.message))),
            exception.title,
            dict(exception.error_dict),
            exception.message_is_html,
        )
    if isinstance(exception, QueryInterrupted) or (
        isinstance(exception, sqlite3.OperationalError) and exception.args == ("interrupted",)
    ):
        return Problem(
            400,
            message(
                "The SQL query took too long: the time limit is there to keep the site responsive.",
                "SQL query took too long: the time limit is there to keep the site responsive",
            ),
            "Query took too long",
        )
    if isinstance(exception, sqlite3.Error):
        return Problem(400, shorten(str(exception) or type(exception).__name__), "Invalid query")
    if isinstance(exception, MemoryError):
        # SQLite's heap ceiling (limits.HARD_HEAP_LIMIT) refused the allocation
        return Problem(
            400,
            message(
                "The query needs more memory than this server allows.",
                "the query needs more memory than this server allows",
            ),
            "Query too large",
        )
    if isinstance(exception, (ValueError, OverflowError, RecursionError)):
        # conversions of request values: int('²'), a 5,000-digit number, undecodable text
        return Problem(400, shorten(str(exception) or type(exception).__name__))
    if not plugin_route:
        return Problem(
            400,
            message(
                "Datasette could not answer this request (%(kind)s): check the parameters.",
                "Datasette could not answer this request (%(kind)s): check the parameters",
                kind=type(exception).__name__,
            ),
            "Bad request",
            logged=True,
        )
    return Problem(
        500,
        message(
            "Internal error: the server failed to answer this request (the log has the details).",
            "Internal error: the server failed to answer this request (the log has the details)",
        ),
        "Internal error",
        logged=True,
    )


def log(exception: BaseException, request) -> None:
    """A server fault: the traceback goes to the log (stderr), never into the response."""
    path = request.path if request is not None else "?"
    print(f"ERROR answering {path[:200]}:", file=sys.stderr)
    traceback.print_exception(exception, file=sys.stderr)
