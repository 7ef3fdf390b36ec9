"""Every redirect stays on this site: the one place that builds a `Location` and says which request
paths could turn into one that leaves it.

A browser reads `//evil.example` and `/\\evil.example` as another host, and a tab or a NUL inside a
Location is read in ways nobody controls. Redirects the plugin makes (language prefixes, other
spellings of a ref, search) are built here from checked parts; the public site's outermost layer
(asgi.public_site) passes every other Location, Datasette's own, through `safe_location`.
"""

from __future__ import annotations

import re
from urllib.parse import quote, urlsplit, urlunsplit

from laws_site.i18n.catalog import split_prefix
from laws_site.i18n.message import Message, message

CONTROL = re.compile(r"[\x00-\x1f\x7f]")
# a path whose first segment is empty or begins with a backslash, as given or percent-encoded:
# /ja//evil.example, /ja/\evil.example, /ja/%2Fevil.example, /ja/%5Cevil.example
OFF_SITE_START = re.compile(r"^/(?:/|\\|%2[fF]|%5[cC])")
SAFE_IN_PATH = "/?=&%:;,()~-_.!*'@+$#"


def path_problem(path: str, raw_path: bytes | None = None) -> tuple[int, Message] | None:
    """(status, message) for a request path no page has and that a redirect built from it would take
    off the site; None for an ordinary path. `path` is decoded, `raw_path` as sent."""
    if CONTROL.search(path) or (raw_path is not None and CONTROL.search(raw_path.decode("latin-1"))):
        return 400, message("The address holds a control character.", "the address holds a control character")
    raw = raw_path.decode("latin-1") if raw_path is not None else path
    if OFF_SITE_START.match(path) or OFF_SITE_START.match(raw):
        return 404, message("There is no page at this address.", "there is no page at this address")
    return None


def could_leave_the_site(path: str, raw_path: bytes | None) -> bool:
    """A path the site answers 404/400 (path_problem), as it is or after its language prefix
    (i18n/prefix.py refuses those): base_path.py sends such a path in without base_url's prefix."""
    lang, rest = split_prefix(path)
    raw_rest = raw_path[len(lang) + 1 :] or b"/" if raw_path and lang else raw_path
    return path_problem(path, raw_path) is not None or (lang is not None and path_problem(rest, raw_rest) is not None)


def safe_location(location: str, host: str | None = None) -> str:
    """A redirect target that stays on this site: control characters dropped, backslashes encoded,
    no scheme-relative `//host`; an absolute URL only to `host` (this request's), else its path."""
    location = CONTROL.sub("", location).replace("\\", "%5C")
    parts = urlsplit(location)
    if parts.scheme or parts.netloc:
        if parts.scheme in ("http", "https") and host and parts.netloc == host:
            return location
        location = urlunsplit(("", "", parts.path or "/", parts.query, parts.fragment))
    if not location.startswith("/"):
        location = "/" + location
    return "/" + location.lstrip("/")


def header_value(location: str) -> bytes:
    """The Location as header bytes: non-ASCII characters percent-encoded."""
    return (location if location.isascii() else quote(location, safe=SAFE_IN_PATH)).encode("latin-1")


def redirect_headers(path: str, query: str = "", host: str | None = None) -> list[tuple[bytes, bytes]]:
    location = safe_location(path + (f"?{query}" if query else ""), host)
    return [(b"location", header_value(location)), (b"access-control-allow-origin", b"*")]


def redirect(path: str, query: str = "", status: int = 302, headers: dict | None = None):
    """A Datasette Response redirecting to a path on this site (CORS: a cross-origin fetch() follows it)."""
    from datasette.utils.asgi import Response

    response = Response("", status=status, headers={**(headers or {})})
    for name, value in redirect_headers(path, query):
        response.headers[name.decode()] = value.decode("latin-1")
    return response
