"""The public site's HTTP rules, as one ASGI wrapper around Datasette (hook `asgi_wrapper`).

Applied to every response, the project's pages and Datasette's own:
- only GET, HEAD and OPTIONS (the site is read-only; Datasette fails with a 500 on a POST to a
  canned query); OPTIONS answers a CORS preflight;
- request targets over MAX_TARGET are refused (414) before any view parses them;
- `Access-Control-Allow-Origin: *` on every JSON answer;
- an ETag made from the databases' content hashes (and the code and settings that render them),
  `Cache-Control`, and 304 for a matching `If-None-Match`, on every 200 answer that is the same
  for everyone;
- Location headers that stay on this site (`/\\evil.example` is `//evil.example` to a browser);
- no response header over MAX_HEADER (Datasette's `Link:` repeats the whole query string);
- a rebuilt database file is picked up before the request is answered (reload.py).
"""
from __future__ import annotations

import hashlib
import json
import re
from urllib.parse import urlsplit, urlunsplit

from datasette.utils.asgi import Request

from . import reload
from .responses import CORS, error_response

ALLOWED_METHODS = ("GET", "HEAD", "OPTIONS")
# path + query string, bytes: a 5,000-character Japanese query is 45 KB encoded. (uvicorn's h11 may
# refuse a request head over 16 KB before it reaches us, when it arrives in several reads: a 400.)
MAX_TARGET = 64 * 1024
MAX_HEADER = 8 * 1024           # any one response header value, bytes
DEFAULT_MAX_AGE = 60
# answers that differ from request to request (or per user): never cached, no ETag
UNCACHEABLE = re.compile(r"^/-/(threads|actor|messages|permissions|allow-debug|logout|create-token|auth-token)\b")
CONTROL = re.compile(r"[\x00-\x20\x7f]")


def wrapper(datasette):
    def wrap(app):
        async def guarded(scope, receive, send):
            if scope["type"] != "http":
                return await app(scope, receive, send)
            await reload.pick_up_rebuilt_databases(datasette)
            refused = await refusal(datasette, scope, receive)
            if refused is not None:
                return await refused.asgi_send(send)
            await app(scope, receive, Sender(datasette, scope, send).send)
        return guarded
    return wrap


async def refusal(datasette, scope, receive):
    """A response for a request no view should see, or None."""
    method = scope["method"]
    target_bytes = len(scope.get("raw_path") or scope["path"].encode()) + len(scope.get("query_string") or b"")
    if method == "OPTIONS":
        from datasette.utils.asgi import Response

        return Response("", status=204, headers={
            "Allow": ", ".join(ALLOWED_METHODS), **CORS, "Access-Control-Allow-Methods": ", ".join(ALLOWED_METHODS),
            "Access-Control-Allow-Headers": "*", "Access-Control-Max-Age": "86400"})
    # never echo a huge or hostile query into the page; this runs outside Datasette's CSRF layer
    short_scope = dict(scope, query_string=b"", csrftoken=lambda: "")
    if method not in ALLOWED_METHODS:
        response = await error_response(datasette, Request(short_scope, receive), 405,
                                         f"{method} is not allowed: this site is read-only (GET, HEAD, OPTIONS)")
        response.headers["Allow"] = ", ".join(ALLOWED_METHODS)
        return response
    if target_bytes > MAX_TARGET:
        short_scope = dict(short_scope, path="/", raw_path=b"/")
        return await error_response(datasette, Request(short_scope, receive), 414,
                                    f"the URL is {target_bytes:,} bytes long; the limit is {MAX_TARGET:,}",
                                    as_json=scope["path"].endswith(".json"))
    return None


MAX_ERROR_BODY = 256 * 1024


class Sender:
    """Wraps `send`: rewrites the response head, turns a matching 200 into a 304, and gives every
    JSON error Datasette's shape (its query errors lack `status` and `title`)."""

    def __init__(self, datasette, scope, send):
        self.datasette, self.scope, self.downstream = datasette, scope, send
        self.swallow_body = False
        self.held_start: dict | None = None  # a JSON error's head, until its body is complete
        self.held_body = b""

    async def send(self, message):
        if message["type"] == "http.response.start":
            message = self.rewrite(message)
            if message["status"] >= 400 and json_content(message["headers"]):
                self.held_start = message
                return
        elif message["type"] == "http.response.body" and self.swallow_body:
            if not message.get("more_body"):
                await self.downstream({"type": "http.response.body", "body": b""})
            return
        elif message["type"] == "http.response.body" and self.held_start is not None:
            self.held_body += message.get("body", b"")
            if message.get("more_body") and len(self.held_body) <= MAX_ERROR_BODY:
                return
            start, body = self.held_start, self.held_body
            self.held_start, self.held_body = None, b""
            if not message.get("more_body"):
                body = error_shape(body, start["status"])
                start = dict(start, headers=[(k, str(len(body)).encode() if k == b"content-length" else v)
                                             for k, v in start["headers"]])
            await self.downstream(start)
            await self.downstream(dict(message, body=body))
            return
        await self.downstream(message)

    def rewrite(self, message: dict) -> dict:
        status = message["status"]
        headers = [(k.lower(), v) for k, v in message.get("headers", [])]
        names = {k for k, _ in headers}
        headers = [(k, safe_location(v, self.scope) if k == b"location" else v) for k, v in headers
                   if not (k == b"link" and len(v) > MAX_HEADER)]
        if any(len(v) > MAX_HEADER for _, v in headers):  # a Location from a very long path
            headers = [(k, b"/" if k == b"location" and len(v) > MAX_HEADER else v) for k, v in headers]
        content_type = next((v for k, v in headers if k == b"content-type"), b"")
        if content_type.startswith(b"application/json") and b"access-control-allow-origin" not in names:
            headers.append((b"access-control-allow-origin", b"*"))
        if status == 200 and self.cacheable(headers):
            tag = site_etag(self.datasette)
            if b"etag" not in names:
                headers.append((b"etag", tag.encode()))
                headers.append((b"access-control-expose-headers", b"ETag"))
            if b"cache-control" not in names:
                headers.append((b"cache-control", f"public, max-age={max_age(self.datasette)}".encode()))
            etag = next(v for k, v in headers if k == b"etag").decode("latin-1")
            if etag_matches(request_header(self.scope, b"if-none-match"), etag):
                self.swallow_body = True
                keep = {b"etag", b"cache-control", b"vary", b"access-control-allow-origin",
                        b"access-control-expose-headers"}
                return {"type": "http.response.start", "status": 304, "headers": [h for h in headers if h[0] in keep]}
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


def json_content(headers) -> bool:
    return any(k == b"content-type" and v.startswith(b"application/json") for k, v in headers)


def error_shape(body: bytes, status: int) -> bytes:
    """Add what Datasette's error shape needs (ok, error, status, title) to a JSON error body."""
    from .errors import title_for

    try:
        data = json.loads(body)
    except ValueError:
        return body
    if not isinstance(data, dict) or all(k in data for k in ("ok", "error", "status", "title")):
        return body
    data = {**data, "ok": False, "error": data.get("error") or title_for(status), "status": status,
            "title": data.get("title") or title_for(status)}
    return json.dumps(data, ensure_ascii=False).encode("utf-8")


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


def site_etag(datasette) -> str:
    """W/"..." from every file database's content hash, the installed code and the settings and
    metadata that render it: it changes exactly when an answer may change. Cached per set of
    databases (a reload makes new Database objects)."""
    key = tuple((name, id(db)) for name, db in datasette.databases.items())
    cached = getattr(datasette, "_laws_site_etag", None)
    if cached and cached[0] == key:
        return cached[1]
    from importlib.metadata import PackageNotFoundError, version

    def package_version(name: str) -> str:
        try:
            return version(name)
        except PackageNotFoundError:
            return "?"

    parts = {
        "databases": sorted((name, db.hash or db.path or "") for name, db in datasette.databases.items()
                            if name != "_internal" and not db.is_memory),
        "code": [package_version("bridge-laws"), package_version("datasette")],
        "settings": datasette.settings_dict(),
        "metadata": datasette.metadata(),
    }
    digest = hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()[:24]
    tag = f'W/"{digest}"'
    datasette._laws_site_etag = (key, tag)
    return tag


def safe_location(value: bytes, scope) -> bytes:
    """A redirect target that stays on this site: no scheme-relative `//host`, no backslash (which
    browsers read as a slash), no control characters; an absolute URL only to this host."""
    location = CONTROL.sub("", value.decode("latin-1")).replace("\\", "%5C")
    parts = urlsplit(location)
    if parts.scheme or parts.netloc:
        host = request_header(scope, b"host") or ""
        if parts.scheme in ("http", "https") and parts.netloc == host:
            return location.encode("latin-1")
        location = urlunsplit(("", "", parts.path or "/", parts.query, parts.fragment))
    if location.startswith("/"):
        location = "/" + location.lstrip("/")
    return location.encode("latin-1")
