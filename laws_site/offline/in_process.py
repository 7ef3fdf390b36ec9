"""One GET of the site's ASGI app in this process: how the pack crawl asks for its pages.

`datasette.client.get` goes through an HTTP client (httpx) for each request: a client, a request and
a response object per page, and on each call an import attempt of an async-library probe that is not
installed (a search of the whole import path). For the ~4,500 pages of a language that was ~10 % of
the crawl's CPU (benchmarks/RESULTS.md). Here the app is called as an ASGI server calls it, with the
request `datasette.client` sends (host `localhost`, the URL split and percent-encoded by httpx's own
URL type): the body is the page the server sends (tests/test_offline.py compares a sample of each
kind of page, in each language, with `datasette.client`'s answers byte for byte). The request also
asks for the pages' templates rendered synchronously (offline/responses.py), as nothing waits here.
"""

from __future__ import annotations

from dataclasses import dataclass

import httpx

from laws_site.http.responses import PAGE_TEMPLATE
from laws_site.offline.responses import page_template

HOST = "localhost"  # what datasette.client sends


@dataclass(frozen=True)
class Answer:
    status: int
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8")


def request_scope(url: str, headers: dict[str, str]) -> dict:
    """The ASGI scope of a GET of ``url`` (a path and query) with ``headers``."""
    parsed = httpx.URL(f"http://{HOST}{url}")
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "headers": [(b"host", HOST.encode()), (b"accept", b"*/*")]
        + [(name.lower().encode(), value.encode()) for name, value in headers.items()],
        "scheme": "http",
        "path": parsed.path,
        "raw_path": parsed.raw_path.split(b"?")[0],
        "query_string": parsed.query,
        "server": (HOST, None),
        "client": ("127.0.0.1", 123),
        "root_path": "",
        PAGE_TEMPLATE: page_template,
        # what asgi_csrf would set: a page that showed a token (a logout form) could not be packed
        # anyway, each server answer has its own
        "csrftoken": no_token,
    }


def no_token() -> str:
    return ""


async def get(app, url: str, headers: dict[str, str] | None = None) -> Answer:
    """The app's answer to a GET of ``url``: status and body."""
    status, body, asked = 0, [], False

    async def receive() -> dict:
        nonlocal asked
        if asked:  # the answer is complete when the app returns: nothing waits for a disconnect
            return {"type": "http.disconnect"}
        asked = True
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            body.append(message.get("body", b""))

    await app(request_scope(url, headers or {}), receive, send)
    return Answer(status, b"".join(body))
