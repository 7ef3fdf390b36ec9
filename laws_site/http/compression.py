"""Answers gzip-compressed for a client that accepts it (asgi-gzip, Starlette's GZipMiddleware on
its own): the 索引 page travels in ~32 KB instead of 264 KB to a phone on a poor signal.

asgi-gzip compresses a streamed answer chunk by chunk (it never holds the whole body) and passes on
an answer that already has a Content-Encoding untouched: the offline packs, stored compressed, go
out as stored. The database download (`/laws.db`) is sent as it is: compressing 20 MB per request
would let a few clients take the CPU. A compressed answer's ETag becomes weak (W/"..."), as
nginx's gzip makes it: the tag names the uncompressed bytes, and a strong tag must differ per
encoding (RFC 9110 8.8.1); weak tags still revalidate (If-None-Match compares weakly).
"""

from __future__ import annotations

import re

from asgi_gzip import GZipMiddleware

from laws_site.http.stored import accepts

MINIMUM_SIZE = 1024  # bytes: below this, gzip's header and the CPU cost more than they save
LEVEL = 6  # zlib's default: within 2 % of level 9's size on the pages, at about half the CPU
AS_STORED = re.compile(r"\.db$")


def wrap(app):
    """`app` with its answers compressed for clients that accept gzip."""

    async def compressing(scope, receive, send):
        if scope["type"] != "http" or AS_STORED.search(scope["path"]) or not accepts_gzip(scope):
            return await app(scope, receive, send)
        encoded_by_app = False

        async def recorded(scope, receive, app_send):
            async def record(message):
                nonlocal encoded_by_app
                if message["type"] == "http.response.start":
                    encoded_by_app = any(name.lower() == b"content-encoding" for name, _ in message["headers"])
                await app_send(message)

            await app(scope, receive, record)

        async def weakened(message):
            if message["type"] == "http.response.start" and not encoded_by_app:
                message = dict(message, headers=weak_etag_if_gzipped(message["headers"]))
            await send(message)

        await GZipMiddleware(recorded, minimum_size=MINIMUM_SIZE, compresslevel=LEVEL)(scope, receive, weakened)

    return compressing


def accepts_gzip(scope) -> bool:
    value = next((v for name, v in scope["headers"] if name == b"accept-encoding"), b"")
    return accepts(value.decode("latin-1"), "gzip")


def weak_etag_if_gzipped(headers: list) -> list:
    if not any(name.lower() == b"content-encoding" and value == b"gzip" for name, value in headers):
        return headers
    return [
        (name, b"W/" + value if name.lower() == b"etag" and not value.startswith(b"W/") else value)
        for name, value in headers
    ]
