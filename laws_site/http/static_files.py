"""The plugin's static files under versioned URLs: the pages ask for `site.css?v=<hash of its bytes>`
(templates: `asset_version(name)`), and such an answer may be kept a year (`Cache-Control:
max-age=31536000, immutable`): a changed file is another URL, so a phone never revalidates the
site's CSS and scripts on each page. A URL whose `v` is not the file's current hash (an old page
after an upgrade) gets the file with the site's short cache lifetime, never kept a year.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path
from urllib.parse import parse_qs

STATIC = Path(__file__).resolve().parents[1] / "static"
PREFIX = "/-/static-plugins/bridge-laws/"
FOR_A_YEAR = b"public, max-age=31536000, immutable"


@functools.cache
def asset_version(name: str) -> str:
    """The first 16 hex digits of the SHA-256 of static/<name> (the installed files do not change
    while a process runs)."""
    return hashlib.sha256((STATIC / name).read_bytes()).hexdigest()[:16]


def is_current(path: str, query_string: bytes) -> bool:
    """Whether the request names one of the plugin's static files at its current version."""
    name = path.removeprefix(PREFIX)
    if name == path or "/" in name or not (STATIC / name).is_file():
        return False
    versions = parse_qs(query_string.decode("latin-1")).get("v", [])
    return versions == [asset_version(name)]


def wrap(app, base_url: str = "/"):
    """`app` with a year's cache lifetime on 200 answers for current versioned static URLs (the
    site served under `base_url`, Datasette's setting)."""
    prefix = base_url.rstrip("/")

    async def cached(scope, receive, send):
        path = scope["path"].removeprefix(prefix) if scope["type"] == "http" else ""
        if not is_current(path, scope.get("query_string") or b""):
            return await app(scope, receive, send)

        async def for_a_year(message):
            if message["type"] == "http.response.start" and message["status"] == 200:
                headers = [(k, v) for k, v in message["headers"] if k.lower() != b"cache-control"]
                message = dict(message, headers=headers + [(b"cache-control", FOR_A_YEAR)])
            await send(message)

        await app(scope, receive, for_a_year)

    return cached
