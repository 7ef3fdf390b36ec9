"""The public site's HTTP rules: one ASGI middleware around the whole server, `public_site(app, datasette)`.

`bridge-laws serve` puts it around Datasette's app (or the plugin setting `public_site: true` does,
through the `asgi_wrapper` hook: metadata.yml turns it on for this site). A plain `datasette` with the
plugin installed beside other databases never gets it: these rules are for a public, read-only site.

Applied to every request, before any view parses it:
- only GET, HEAD and OPTIONS (the site is read-only); OPTIONS answers a CORS preflight;
- request targets over MAX_TARGET are refused (414); a Host header that is no host name is a 400;
  a path holding a control character is a 400, one that starts `//` or with a backslash a 404
  (locations.path_problem);
- the query string's size, parameter count, facets and `_search` length are checked once
  (request_bounds.py);
- with a configured `public_url` (plugin setting), Datasette's absolute links (`next_url`, `Link:`)
  name that host, never the one a client put in its Host header.

And to every response:
- `Access-Control-Allow-Origin: *` on every JSON answer and on every answer to a .json URL
  (redirects included), `X-Content-Type-Options: nosniff` on all;
- an ETag that is the SHA-256 of the answer's bytes (per URL, per content: `select random()` never
  revalidates), `Cache-Control`, and 304 for a matching `If-None-Match`, on every 200 answer that
  is the same for everyone;
- Location headers that stay on this site (locations.safe_location), whatever layer made them;
- no response header over MAX_HEADER (Datasette's `Link:` repeats the whole query string).
"""

from __future__ import annotations

import hashlib
import json
import re
from urllib.parse import urlsplit

from datasette.utils.asgi import Request, Response

from laws_site.http import locations, request_bounds
from laws_site.http.held_body import with_length
from laws_site.http.responses import CORS, error_response, public_url
from laws_site.i18n import catalog as i18n
from laws_site.i18n.message import message
from laws_site.sql import limits

ALLOWED_METHODS = ("GET", "HEAD", "OPTIONS")
# path + query string, bytes: a 5,000-character Japanese query is 45 KB encoded (the HTTP server
# answers 400 to a whole request head over serve.MAX_REQUEST_HEAD, before it reaches us)
MAX_TARGET = 64 * 1024
MAX_HEADER = 8 * 1024  # any one response header value, bytes
MAX_HASHED_BODY = 4 * 1024 * 1024  # bigger 200 answers stream on without an ETag
DEFAULT_MAX_AGE = 60
# answers that differ from request to request (or per user): never cached, no ETag
UNCACHEABLE = re.compile(r"^/-/(threads|actor|messages|permissions|allow-debug|logout|create-token|auth-token)\b")
# a host name (labels joined by dots: never ambiguous, so no backtracking blow-up) or [IPv6], a port
LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
HOST = re.compile(rf"{LABEL}(?:\.{LABEL})*\.?(?::[0-9]{{1,5}})?|\[[0-9A-Fa-f:.]{{2,45}}\](?::[0-9]{{1,5}})?")
MAX_HOST = 261  # 253 characters of name, a port
APPLIED = "laws_site.public_site"  # in the scope once the rules ran: installed twice, they run once


def public_site(app, datasette):
    """`app` (Datasette's ASGI app, or any layer around it) behind the public site's rules."""
    limits.set_heap_limits()  # SQLite's heap ceiling is process-wide: a decision for the whole server

    async def guarded(scope, receive, send):
        if scope["type"] != "http" or scope.get(APPLIED):
            return await app(scope, receive, send)
        prefix, _path = i18n.split_prefix(scope["path"])
        token = i18n.current.set(prefix or i18n.DEFAULT)  # a refusal's page in the address's language
        try:
            refused, scope = await refusal(datasette, dict(scope, **{APPLIED: True}), receive)
        finally:
            i18n.current.reset(token)
        sender = Sender(datasette, scope, send)
        if refused is not None:
            return await refused.asgi_send(sender.send)
        return await app(with_public_host(datasette, scope), receive, sender.send)

    return guarded


def with_public_host(datasette, scope) -> dict:
    """Datasette builds absolute URLs (a table's `next_url`, `Link:`) from the request's Host header:
    one request with `Host: evil.example` would put that host into answers others are served. Here
    the request names the configured `public_url` (plugins: bridge-laws: public_url:) or, without
    one, the address the server listens on (scope["server"]): never a host a client chose."""
    configured = public_url(datasette)
    headers = [(k, v) for k, v in scope.get("headers", []) if k.lower() != b"host"]
    if configured:
        parts = urlsplit(configured)
        return dict(scope, headers=[*headers, (b"host", parts.netloc.encode("idna"))], scheme=parts.scheme or "https")
    server = scope.get("server")
    if server and server[0]:
        host, port = server[0], server[1]
        name = f"[{host}]" if ":" in host else host
        headers.append((b"host", (name if port in (None, 80, 443) else f"{name}:{port}").encode("idna")))
    return dict(scope, headers=headers)


def quiet_scope(scope) -> dict:
    """The scope for an error page made here: no query string to echo; outside Datasette's CSRF layer;
    the path without its language prefix, as the pages see it."""
    _prefix, path = i18n.split_prefix(scope["path"])
    return dict(scope, path=path, raw_path=None, query_string=b"", csrftoken=lambda: "")


def preflight() -> Response:
    return Response(
        "",
        status=204,
        headers={
            "Allow": ", ".join(ALLOWED_METHODS),
            **CORS,
            "Access-Control-Allow-Methods": ", ".join(ALLOWED_METHODS),
            "Access-Control-Allow-Headers": "*",
            "Access-Control-Max-Age": "86400",
        },
    )


async def refusal(datasette, scope, receive):
    """(a response for a request no view should see, or None; the scope to pass on)."""
    method = scope["method"]
    target_bytes = len(scope.get("raw_path") or scope["path"].encode()) + len(scope.get("query_string") or b"")
    as_json = scope["path"].endswith(".json")
    if method == "OPTIONS":
        return preflight(), scope
    # never echo a huge or hostile query into the page
    short_scope = quiet_scope(scope)
    if method not in ALLOWED_METHODS:
        response = await error_response(
            datasette,
            Request(short_scope, receive),
            405,
            message(
                "%(method)s is not allowed: this site is read-only (GET, HEAD, OPTIONS).",
                "%(method)s is not allowed: this site is read-only (GET, HEAD, OPTIONS)",
                method=method,
            ),
        )
        response.headers["Allow"] = ", ".join(ALLOWED_METHODS)
        return response, scope
    if target_bytes > MAX_TARGET:
        short_scope = dict(short_scope, path="/", raw_path=b"/")
        return await error_response(
            datasette,
            Request(short_scope, receive),
            414,
            message(
                "The address is %(size)s bytes long; the limit is %(limit)s.",
                "the URL is %(size)s bytes long; the limit is %(limit)s",
                size=f"{target_bytes:,}",
                limit=f"{MAX_TARGET:,}",
            ),
            as_json=as_json,
        ), scope
    host = request_header(scope, b"host")
    if host is not None and (len(host) > MAX_HOST or not HOST.fullmatch(host)):
        short_scope = dict(short_scope, headers=[(k, v) for k, v in scope.get("headers", []) if k.lower() != b"host"])
        return await error_response(
            datasette,
            Request(short_scope, receive),
            400,
            message(
                "The Host header %(host)s is not a host name.",
                "the Host header %(host)s is not a host name",
                host=request_bounds.shown(host),
            ),
            as_json=as_json,
        ), scope
    problem = locations.path_problem(scope["path"], scope.get("raw_path"))
    if problem is not None:
        short_scope = dict(short_scope, path="/", raw_path=b"/")
        return await error_response(datasette, Request(short_scope, receive), *problem, as_json=as_json), scope
    bounded, query_string = request_bounds.check_query(scope["path"], scope.get("query_string") or b"")
    if bounded is not None:
        return await error_response(
            datasette, Request(short_scope, receive), bounded.status, bounded.message, as_json=as_json
        ), scope
    if query_string is not scope.get("query_string"):
        scope = dict(scope, query_string=query_string)
    return None, scope


MAX_ERROR_BODY = 256 * 1024


class Sender:
    """Wraps `send`: rewrites the response head; holds a JSON error until its body is complete to
    give it Datasette's shape (its query errors lack `status` and `title`; its time-out message is
    HTML); holds a cacheable 200 until its body is complete to tag it with its hash (or 304)."""

    def __init__(self, datasette, scope, send):
        self.datasette, self.scope, self.downstream = datasette, scope, send
        self.held_start: dict | None = None
        self.held_kind = ""  # "error" or "etag"
        self.held_body: list[bytes] = []
        self.held_size = 0

    async def send(self, message):
        if message["type"] == "http.response.start":
            message = self.rewrite(message)
            headers = message["headers"]
            if message["status"] >= 400 and json_content(headers):
                self.hold(message, "error")
                return
            if message["status"] == 200 and self.cacheable(headers) and not any(k == b"etag" for k, _ in headers):
                self.hold(message, "etag")
                return
        elif message["type"] == "http.response.body" and self.held_start is not None:
            body = message.get("body", b"")
            self.held_body.append(body)
            self.held_size += len(body)
            limit = MAX_ERROR_BODY if self.held_kind == "error" else MAX_HASHED_BODY
            if message.get("more_body") and self.held_size <= limit:
                return
            start, body = self.held_start, b"".join(self.held_body)
            self.held_start, self.held_body = None, []
            if not message.get("more_body"):
                start, body = (
                    self.finish_error(start, body) if self.held_kind == "error" else self.finish_tagged(start, body)
                )
            await self.downstream(start)
            await self.downstream(dict(message, body=body))
            return
        await self.downstream(message)

    def hold(self, message: dict, kind: str) -> None:
        self.held_start, self.held_kind, self.held_body, self.held_size = message, kind, [], 0

    @staticmethod
    def finish_error(start: dict, body: bytes) -> tuple[dict, bytes]:
        body = error_shape(body, start["status"])
        return with_length(start, body), body

    def finish_tagged(self, start: dict, body: bytes) -> tuple[dict, bytes]:
        headers = list(start["headers"])
        etag = content_etag(body)
        headers += [(b"etag", etag.encode()), (b"access-control-expose-headers", b"ETag")]
        if etag_matches(request_header(self.scope, b"if-none-match"), etag):
            keep = {
                b"etag",
                b"cache-control",
                b"vary",
                b"access-control-allow-origin",
                b"access-control-expose-headers",
                b"x-content-type-options",
            }
            return {"type": "http.response.start", "status": 304, "headers": [h for h in headers if h[0] in keep]}, b""
        return dict(start, headers=headers), body

    def rewrite(self, message: dict) -> dict:
        status = message["status"]
        headers = [(k.lower(), v) for k, v in message.get("headers", [])]
        names = {k for k, _ in headers}
        headers = [
            (k, safe_location(v, self.scope) if k == b"location" else v)
            for k, v in headers
            if not (k == b"link" and len(v) > MAX_HEADER)
        ]
        if any(len(v) > MAX_HEADER for _, v in headers):  # a Location from a very long path
            headers = [(k, b"/" if k == b"location" and len(v) > MAX_HEADER else v) for k, v in headers]
        content_type = next((v for k, v in headers if k == b"content-type"), b"")
        json_answer = content_type.startswith(b"application/json") or self.scope["path"].endswith(".json")
        if json_answer and b"access-control-allow-origin" not in names:
            headers.append((b"access-control-allow-origin", b"*"))
        if b"x-content-type-options" not in names:
            headers.append((b"x-content-type-options", b"nosniff"))
        if status == 200 and self.cacheable(headers) and b"cache-control" not in names:
            headers.append((b"cache-control", f"public, max-age={max_age(self.datasette)}".encode()))
        return dict(message, headers=headers)

    def cacheable(self, headers: list[tuple[bytes, bytes]]) -> bool:
        if self.scope["method"] not in ("GET", "HEAD") or UNCACHEABLE.match(self.scope["path"]):
            return False
        for name, value in headers:
            if name == b"set-cookie":
                return False
            if name == b"cache-control" and re.search(rb"private|no-store|no-cache", value):
                return False
        return True


# how long Datasette's queries took, in its JSON and pages: not part of the answer
# (the page footer's "Queries took %(ms)s ms" in each interface language: laws_site/locale)
TIMING = re.compile(
    '"query_ms": ?[0-9.eE+-]+|(?:Queries took|クエリ時間|查询用时) [0-9.]+ ?(?:ms|ミリ秒|毫秒)'.encode()
)


# each alternative of TIMING begins with one of these: where none occurs, nothing is to be taken out
TIMING_MARKERS = (b'"query_ms":', "Queries took ".encode(), "クエリ時間 ".encode(), "查询用时 ".encode())


def content_etag(body: bytes) -> str:
    """The answer's own bytes (less the query timing), hashed: the same URL with a different answer
    gets another tag, the same answer the same tag."""
    return '"' + hashlib.sha256(without_timing(body)).hexdigest()[:32] + '"'


def without_timing(body: bytes) -> bytes:
    """`TIMING.sub(b"", body)`, tried only where a marker occurs (bytes.find, in C). Run over the
    whole body, the pattern stops at every byte that could begin one of its alternatives: 0xE3
    (クエリ) begins nearly every kana, so a 13 KB search answer took 0.2 ms, 25x its SHA-256."""
    starts = sorted(at for marker in TIMING_MARKERS for at in _occurrences(body, marker))
    if not starts:
        return body
    parts, cursor = [], 0
    for at in starts:
        if at < cursor:
            continue
        match = TIMING.match(body, at)
        if match:
            parts.append(body[cursor:at])
            cursor = match.end()
    return b"".join(parts) + body[cursor:] if parts else body


def _occurrences(body: bytes, marker: bytes):
    at = body.find(marker)
    while at >= 0:
        yield at
        at = body.find(marker, at + 1)


def json_content(headers) -> bool:
    return any(k == b"content-type" and v.startswith(b"application/json") for k, v in headers)


def error_shape(body: bytes, status: int) -> bytes:
    """Add what Datasette's error shape needs (ok, error, status, title) to a JSON error body."""
    from laws_site.http.errors import title_for

    try:
        data = json.loads(body)
    except ValueError:
        return body
    if not isinstance(data, dict):
        return body
    if isinstance(data.get("error"), str) and "</" in data["error"]:
        data["error"] = plain_text(data["error"])
    elif all(k in data for k in ("ok", "error", "status", "title")):
        return body
    data = {
        **data,
        "ok": False,
        "error": data.get("error") or title_for(status),
        "status": status,
        "title": data.get("title") or title_for(status),
    }
    return json.dumps(data, ensure_ascii=False).encode("utf-8")


def plain_text(html: str) -> str:
    """An error message Datasette wrote as HTML (its SQL time-out), as text for JSON."""
    from markupsafe import Markup

    from laws_site.http.errors import shorten

    return shorten(" ".join(Markup(re.sub(r"(?s)<(script|textarea)\b.*?</\1>", " ", html)).striptags().split()))


def request_header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def etag_matches(if_none_match: str | None, etag: str) -> bool:
    """Weak comparison (RFC 9110 13.1.2): W/"x" matches "x"."""
    if not if_none_match:
        return False
    if if_none_match.strip() == "*":
        return True
    bare = etag.removeprefix("W/")
    return any(candidate.strip().removeprefix("W/") == bare for candidate in if_none_match.split(","))


def max_age(datasette) -> int:
    ttl = datasette.setting("default_cache_ttl")
    return int(ttl) if isinstance(ttl, int) and ttl >= 0 else DEFAULT_MAX_AGE


def safe_location(value: bytes, scope) -> bytes:
    """Any layer's Location, kept on this site (locations.safe_location)."""
    host = request_header(scope, b"host")
    return locations.safe_location(value.decode("latin-1"), host).encode("latin-1")
