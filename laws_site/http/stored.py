"""A large stored file sent as it is stored, in chunks: memory per download stays a chunk or two.

The offline packs are stored twice, brotli and gzip (laws_site/offline/make.py): a client that
accepts brotli (every browser over HTTPS) gets the brotli file, one that accepts gzip the gzip file,
each as stored with its `Content-Encoding`, and any other the gzip file decompressed chunk by chunk;
a file is never read or expanded whole per request. A slow reader holds one chunk: the server's transport
makes `send` wait while its buffer is full. The answer carries its own ETag, so no layer holds it to
hash it (laws_site/http/asgi.py tags only what has none).
"""

from __future__ import annotations

import asyncio
import gzip
from pathlib import Path

CHUNK_BYTES = 64 * 1024
PREFERRED = ("br", "gzip")  # the smaller first


def accepts(accept_encoding: str | None, coding: str) -> bool:
    """Whether an Accept-Encoding header lists ``coding`` (or *) without q=0 (RFC 9110 12.5.3)."""
    for part in (accept_encoding or "").lower().split(","):
        name, _, parameters = part.strip().partition(";")
        quality = parameters.strip().removeprefix("q=") if parameters.strip().startswith("q=") else "1"
        if name.strip() in (coding, "*"):
            try:
                return float(quality) > 0
            except ValueError:
                return False
    return False


class StoredFile:
    """An answer a Datasette view returns (it has `asgi_send`): ``path`` sent as stored, or, with
    ``gunzip``, the gzip file's contents decompressed as they are sent."""

    def __init__(self, path: Path, content_type: str, headers: dict | None = None, gunzip: bool = False):
        self.path, self.content_type, self.gunzip = Path(path), content_type, gunzip
        self.headers = dict(headers or {})
        self.status = 200

    async def asgi_send(self, send) -> None:
        opened = gzip.open if self.gunzip else open
        handle = await asyncio.to_thread(opened, self.path, "rb")
        try:
            headers = {"content-type": self.content_type, **{k.lower(): v for k, v in self.headers.items()}}
            if not self.gunzip:  # the length of what is stored; a decompressed answer goes out chunked
                headers["content-length"] = str(self.path.stat().st_size)
            await send(
                {
                    "type": "http.response.start",
                    "status": self.status,
                    "headers": [(k.encode("latin-1"), str(v).encode("latin-1")) for k, v in headers.items()],
                }
            )
            while chunk := await asyncio.to_thread(handle.read, CHUNK_BYTES):
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            handle.close()


def encoded_answer(request, stored: dict[str, Path], content_type: str, version: str, headers: dict | None = None):
    """A file stored compressed, as ``content_type``: {coding: path} names its stored forms (``gzip``
    always; ``br`` preferred: a third smaller); the first the client accepts goes out as stored, else
    the gzip file decompressed. ``version`` names the content (it never changes under that name): the
    strong ETag of each encoding, so that no layer holds the answer to hash it, and a 304 for a client
    that has it."""
    accept_encoding = request.headers.get("accept-encoding")
    coding = next((c for c in PREFERRED if c in stored and accepts(accept_encoding, c)), "identity")
    etag = f'"{version}-{coding}"'
    headers = {**(headers or {}), "Vary": "Accept-Encoding", "ETag": etag}
    if etag in [tag.strip() for tag in (request.headers.get("if-none-match") or "").split(",")]:
        return NotModified(headers)
    if coding == "identity":
        return StoredFile(stored["gzip"], content_type, headers, gunzip=True)
    return StoredFile(stored[coding], content_type, {**headers, "Content-Encoding": coding})


class NotModified:
    """304: the client has this version."""

    def __init__(self, headers: dict):
        self.headers, self.status = headers, 304

    async def asgi_send(self, send) -> None:
        await send(
            {
                "type": "http.response.start",
                "status": 304,
                "headers": [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in self.headers.items()],
            }
        )
        await send({"type": "http.response.body", "body": b""})
