"""How pages answer: the laws database, HTML from a template, JSON, and errors in one shape.

Every error, the project's and Datasette's own (through the handle_exception hook), has Datasette's
shape: JSON `{"ok": false, "error": message, "status": code, "title": title}` (plus fields such as
`suggestions`), HTML the shared template laws_error.html.
"""

from __future__ import annotations

import functools
import json
import weakref
from collections import OrderedDict
from urllib.parse import parse_qsl, urlencode

import orjson
from datasette.utils import sqlite_timelimit
from datasette.utils.asgi import Response
from markupsafe import Markup, escape

from laws_site import compat
from laws_site.http.errors import page_heading, shorten, title_for
from laws_site.i18n.message import Message
from laws_site.sql import limits

CORS = {"Access-Control-Allow-Origin": "*"}


def laws_database(datasette):
    """The laws database (ownership.py: the one `bridge-laws build` wrote, whatever its file name)."""
    from laws_site.http.ownership import laws_database_name

    name = laws_database_name(datasette)
    if name is None:
        raise LookupError("no database written by `bridge-laws build` is served")
    return datasette.get_database(name)


# The pages' own queries are fixed and bounded by the data; a whole page's reads (many statements)
# get ten times the per-statement limit of arbitrary SQL, as a backstop against a runaway bug.
# (One sql_time_limit_ms for all of them interrupted the diff overview at concurrency 64.)
PAGE_TIME_LIMIT_FACTOR = 10


async def read(datasette, fn):
    """Run ``fn(sqlite3_connection)`` in Datasette's read thread, with a backstop time limit."""
    limit_ms = PAGE_TIME_LIMIT_FACTOR * datasette.setting("sql_time_limit_ms")
    return await laws_database(datasette).execute_fn(lambda conn: bounded(conn, fn, limit_ms))


def bounded(conn, fn, limit_ms: int):
    """fn(conn) under a time limit, the connection's result guard restored afterwards."""
    try:
        with sqlite_timelimit(conn, limit_ms):
            return fn(conn)
    finally:
        limits.guard_results(conn)  # in case fn set its own row_factory on the shared connection


# Answers of reads that only depend on the served file, per immutable Database object (weak: a
# rebuilt file is served by a new object).
_fixed: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


async def read_fixed(datasette, key, fn):
    """``read(datasette, fn)``, made once per served immutable database: for what every page's chrome
    reads (the documents, their short titles), which cannot change while the file is served. A
    mutable database is read each time."""
    return await made_fixed(datasette, key, lambda: read(datasette, fn))


async def made_fixed(datasette, key, make):
    """``await make()``, once per served immutable database and ``key`` (read_fixed; a part of a page
    that is the same on every page of a language: `fragment`); each time for a mutable one."""
    database = laws_database(datasette)
    if database.is_mutable:
        return await make()
    answers = _fixed.setdefault(database, {})
    if key not in answers:
        answers[key] = await make()
    return answers[key]


# The event loop's own read-only connection per served Database object (a rebuilt file is served by
# a new object, so its connection follows; the old one closes with its object).
_here: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def read_here(datasette, fn, prepare=None):
    """Run ``fn(sqlite3_connection)`` on the event loop's thread, for short work that is mostly
    Python (search: at most ~60 ms, by its limits on query, terms and rows). Handing it to a read
    thread makes that thread and the event loop take turns at the GIL: at concurrency 8 that doubled
    the server's CPU per search (benchmarks/RESULTS.md). Same limits as Datasette's connections
    (limits.prepare) and the per-statement time limit. ``prepare(conn)`` runs first, outside that
    limit: work bounded by the data rather than by the request (what a build's first search reads)."""
    database = laws_database(datasette)
    conn = _here.get(database)
    if conn is None:
        conn = database.connect()
        limits.prepare(conn, database.name)
        _here[database] = conn
    if prepare is not None:
        prepare(conn)
    return bounded(conn, fn, datasette.setting("sql_time_limit_ms"))


# A request scope key: a function (datasette, template name) -> the Jinja template to render. The
# offline packs' crawl sets it (offline/in_process.py) to render from a synchronous copy of the
# templates (offline/responses.py); a server's requests never carry it.
PAGE_TEMPLATE = "bridge_laws.page_template"


async def html_page(datasette, request, template: str, context: dict, status: int = 200) -> Response:
    chosen = request.scope.get(PAGE_TEMPLATE) if request is not None else None
    shown = chosen(datasette, template) if chosen else template
    body = await datasette.render_template(shown, context, request=request)
    return Response.html(body, status=status)


async def fragment(datasette, request, template: str, context: dict) -> Markup:
    """A part of a page from a template of its own, with ``context`` alone (no chrome, no hooks), in the
    request's interface language and from the environment html_page renders the page with."""
    chosen = request.scope.get(PAGE_TEMPLATE) if request is not None else None
    found = chosen(datasette, template) if chosen else compat.jinja_environment(datasette).get_template(template)
    return Markup(await found.render_async(context))


# ---------------------------------------------------------------- answers made once per build

# bounded in bytes, keys included, and in entries: a memory ceiling for a server that any URL can
# fill (20,000 answers under 60 KB query strings took it to 1.29 GB when only bodies were counted)
PAGE_CACHE_BYTES = 8_000_000
PAGE_CACHE_ENTRIES = 2_000
PAGE_CACHE_MAX_BYTES = 500_000  # one answer; bigger ones are made each time
ENTRY_OVERHEAD = 600  # bytes per entry beyond key and body: the Response, its headers, the dict slot
_answers: OrderedDict[tuple, tuple[Response, int]] = OrderedDict()
_kept_bytes = 0


def made_once(view):
    """The view, answering a request it answered before from memory. The database never changes
    while served, so a page or JSON answer asked for again - same build, path and query, no cookie
    that could show a login or a message - is the answer made the first time: the heavy pages
    (contents, citations) are read and rendered once, not per visit. Only 200s are kept."""

    @functools.wraps(view)
    async def answer(datasette, request):
        key = answer_key(datasette, request)
        kept = _answers.get(key) if key else None
        if kept is not None:
            _answers.move_to_end(key)
            kept = kept[0]
            return Response(kept.body, status=200, headers=dict(kept.headers), content_type=kept.content_type)
        response = await view(datasette, request)
        if key and response.status == 200 and len(response.body or "") <= PAGE_CACHE_MAX_BYTES:
            keep(key, response)
        return response

    return answer


def entry_bytes(key: tuple, response: Response) -> int:
    return (
        sum(len(part) for part in key if isinstance(part, str))
        + len(response.body or "")
        + sum(len(k) + len(v) for k, v in response.headers.items())
        + ENTRY_OVERHEAD
    )


def keep(key: tuple, response: Response) -> None:
    global _kept_bytes
    if key in _answers:
        _kept_bytes -= _answers.pop(key)[1]
    size = entry_bytes(key, response)
    _answers[key] = (response, size)
    _kept_bytes += size
    while (_kept_bytes > PAGE_CACHE_BYTES or len(_answers) > PAGE_CACHE_ENTRIES) and _answers:
        _, (_, dropped) = _answers.popitem(last=False)
        _kept_bytes -= dropped


def cache_size() -> tuple[int, int]:
    """(entries, bytes counted) of the answer cache."""
    return len(_answers), _kept_bytes


def answer_key(datasette, request) -> tuple | None:
    if request.method != "GET" or request.headers.get("cookie"):
        return None
    build = laws_database(datasette).hash  # the file's content hash (immutable databases only)
    # the interface language (ui_lang.py) is part of the answer: /en/61B and /61B share a path here;
    # so is the server's base_url (the page's links are written under it; the memory is per process)
    lang, base = request.scope.get("ui_lang"), datasette.setting("base_url")
    return (build, base, request.path, request.query_string, lang) if build else None


def json_response(data, status: int = 200) -> Response:
    """JSON with Japanese and Chinese left readable (not \\u-escaped), compact, as UTF-8 bytes."""
    return Response(json_bytes(data), status=status, content_type="application/json; charset=utf-8", headers=dict(CORS))


def json_bytes(data) -> bytes:
    """orjson writes what `json.dumps(ensure_ascii=False, separators=(",", ":"))` writes (the search
    answers compared byte for byte: scripts/search_answers.py) in a tenth of the time: 0.015 ms for
    a 17 KB search answer where the standard library took 0.15 ms, 7 % of the server's CPU per
    search (issue 24). Keys other than strings (OPT_NON_STR_KEYS) are a second try: the option doubled
    orjson's time on a search answer, whose keys are all strings (~60 -> ~110 µs in the server), and
    changes nothing where they are. What orjson refuses (an integer over 64 bits) the standard library writes."""
    try:
        return orjson.dumps(data)
    except TypeError:
        pass
    try:
        return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:
        return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def page_url(datasette, request, offset: int | None, absolute: bool) -> str | None:
    """This request's page at another offset (None for no such page): its other parameters kept,
    absolute for JSON (`next_url`, Datasette's convention) when a public_url is configured, else (and
    for HTML links) a path."""
    if offset is None:
        return None
    params = [
        (key, value) for key, value in parse_qsl(request.query_string, keep_blank_values=True) if key != "offset"
    ]  # the query string parsed once, in its order
    if offset:
        params.append(("offset", str(offset)))
    path = datasette.urls.path(request.path) + ("?" + urlencode(params) if params else "")
    return public_url(datasette) + path if absolute else path


def public_url(datasette) -> str:
    """The site's address for absolute links (plugins: bridge-laws: public_url: in metadata.yml), or
    "" for links that are paths on this site: never the request's Host header, which a client
    chooses and which would then sit in an answer cached for everyone. Read once per Datasette:
    its metadata is fixed at start, and resolving it (~20 µs) ran for every link of every answer."""
    found = _public_urls.get(datasette)
    if found is None:
        config = datasette.plugin_config("bridge-laws") or {}
        found = _public_urls[datasette] = str(config.get("public_url") or "").rstrip("/")
    return found


_public_urls: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def wants_json(request) -> bool:
    """Datasette's rule: a path ending in .json answers in JSON, errors included."""
    return request is not None and request.path.split("?")[0].endswith(".json")


def error_data(status: int, message: str, title: str | None = None, **extra) -> dict:
    """Datasette's error shape; a message quoting 20 KB of input is cut short."""
    if not isinstance(message, Markup):
        message = shorten(str(message))
    return {"ok": False, "error": message, "status": status, "title": title or title_for(status), **extra}


def json_error(status: int, message: str, title: str | None = None, **extra) -> Response:
    return json_response(error_data(status, message, title, **extra), status=status)


async def error_response(
    datasette,
    request,
    status: int,
    message,
    *,
    title: str | None = None,
    as_json: bool | None = None,
    message_is_html: bool = False,
    extra: dict | None = None,
    template: str = "laws_error.html",
    context: dict | None = None,
) -> Response:
    """The one way to answer with an error: JSON for .json URLs (or as_json), else an HTML page from
    laws_error.html (or a template extending it). ``extra`` goes into both (e.g. suggestions),
    ``context`` only into the page."""
    extra = extra or {}
    if as_json if as_json is not None else wants_json(request):
        return json_error(status, str(message), title, **extra)
    shown = Markup(message) if message_is_html else message
    # a Message stays one on the page: the template shows it by its id, in the interface language
    page = {**(context or {}), **error_data(status, shown, title, **extra)}
    page["title"] = page_heading(page["title"])  # Not found, not HTTP's Not Found (JSON keeps that)
    if isinstance(message, Message):
        page["error"] = message
    try:
        body = await datasette.render_template(template, page, request=request)
    except Exception:  # noqa: BLE001 - the error page must not fail in turn (e.g. the database is gone)
        return plain_error_page(status, str(message), title)
    return Response.html(body, status=status)


def plain_error_page(status: int, message: str, title: str | None = None) -> Response:
    heading = escape(page_heading(title or title_for(status)))
    return Response.html(
        f"<!DOCTYPE html><title>{heading}</title><h1>{heading}</h1><p>{escape(message)}</p>"
        '<p><a href="/">All documents</a></p>',
        status=status,
    )
