"""How `bridge-laws serve` runs Datasette: the settings and metadata of the public site, and the
HTTP server's own limits.

The pages, templates and static files come with the installed plugin (entry point `datasette`),
so these arguments are all a host needs besides the database; see README for publishing.
`metadata.yml` sits at the top of the repository (Datasette's convention: `datasette laws.db -m
metadata.yml` serves the same site, without the HTTP server limits below); `laws_site/metadata.yml`
is a symbolic link to it, so the wheel carries its content (package data) for an installed
`bridge-laws serve`.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

# laws_site/metadata.yml is a link to the repository's file; the wheel carries its content
METADATA = (Path(__file__).resolve().parents[1] / "metadata.yml").resolve()

# A public, read-only site: no arbitrary SQL time sink, no writes.
SETTINGS = {
    "sql_time_limit_ms": "1500",
    "max_returned_rows": "1000",
    "allow_download": "on",
    "default_page_size": "50",
    # suggesting facets scans every column of the sections table: 70 % of a ?_search= answer
    # (benchmarks/RESULTS.md); the configured facets (doc, kind) stay
    "suggest_facets": "off",
    # seconds a browser or proxy may reuse an answer; after that the ETag makes revalidation a 304
    "default_cache_ttl": "60",
}

# The HTTP server (uvicorn with httptools, the C parser of uvicorn[standard]: ~9 % less CPU per
# search answer than its pure-Python h11, benchmarks/RESULTS.md): a connection must send a complete
# request head within HEAD_TIMEOUT seconds of opening (or of its previous answer), a head may be as
# long as the site's longest URL (asgi.MAX_TARGET) plus headers, an idle keep-alive connection
# closes after KEEP_ALIVE seconds. Without these, 200 connections that never sent a byte stayed open.
HEAD_TIMEOUT = 10.0
KEEP_ALIVE = 5
MAX_REQUEST_HEAD = 80 * 1024
MAX_CONNECTIONS = 1000  # uvicorn answers 503 beyond this many connections and requests at once


def datasette_args(db_path: Path, host: str, port: int) -> list[str]:
    args = ["serve", "--immutable", str(db_path), "--host", host, "--port", str(port), "--metadata", str(METADATA)]
    for name, value in SETTINGS.items():
        args += ["--setting", name, value]
    return args


def uvicorn_options() -> dict:
    return {"http": bounded_protocol(), "timeout_keep_alive": KEEP_ALIVE, "limit_concurrency": MAX_CONNECTIONS}


def run(db_path: Path, host: str, port: int, listener=None, workers: int = 1) -> int:
    """`datasette serve` with the site's arguments, its uvicorn given the limits above; with a
    listening socket, `workers` processes behind it (laws_site/http/workers.py). Returns the exit status."""
    if listener is None:
        serve_datasette(db_path, host, port)
        return 0
    from laws_site.http.workers import serve_forked

    print(
        f"bridge-laws serve: {workers} workers on http://{host}:{port} (Press CTRL+C to quit)",
        file=sys.stderr,
        flush=True,
    )
    return serve_forked(listener, workers, lambda channel: serve_datasette(db_path, host, port, channel))


def serve_datasette(db_path: Path, host: str, port: int, channel=None) -> None:
    """One server process: on host:port, or (a worker) on the connections sent over `channel`."""
    import uvicorn
    from datasette.cli import cli as datasette_cli

    plain_run = uvicorn.run

    def run_bounded(app, **options):
        options = {**options, **uvicorn_options()}
        if channel is None:
            return plain_run(app, **options)
        from laws_site.http.workers import private_listener, worker_server

        return worker_server(uvicorn.Config(app, **options), channel).run(sockets=[private_listener()])

    uvicorn.run = run_bounded
    try:
        datasette_cli.main(args=datasette_args(db_path, host, port), prog_name="datasette")
    finally:
        uvicorn.run = plain_run


def bounded_protocol():
    """uvicorn's httptools protocol, closing a connection that has not sent a complete request head
    HEAD_TIMEOUT seconds after it opened or after its last answer (slow or silent clients), and
    answering 400 to a head over MAX_REQUEST_HEAD bytes (httptools itself sets no bound)."""
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class BoundedHttpToolsProtocol(HttpToolsProtocol):
        head_timer: asyncio.TimerHandle | None = None
        head_cycle = None
        head_bytes = 0  # bytes received since the last complete head (the next head's so far)
        reading_head = True

        def connection_made(self, transport):
            super().connection_made(transport)
            self.start_head_timer()

        def data_received(self, data: bytes) -> None:
            if self.reading_head:
                self.head_bytes += len(data)
                if self.head_bytes > MAX_REQUEST_HEAD:
                    self.stop_head_timer()
                    self.send_400_response(f"Request head over {MAX_REQUEST_HEAD} bytes.")
                    return
            super().data_received(data)

        def on_headers_complete(self):
            self.reading_head, self.head_bytes = False, 0
            super().on_headers_complete()

        def on_message_complete(self):
            super().on_message_complete()
            self.reading_head = True  # what follows is the next request's head

        def on_response_complete(self):
            super().on_response_complete()
            if not self.transport.is_closing():
                self.start_head_timer()

        def connection_lost(self, exc):
            self.stop_head_timer()
            super().connection_lost(exc)

        def start_head_timer(self):
            self.stop_head_timer()
            self.head_cycle = self.cycle
            self.head_timer = self.loop.call_later(HEAD_TIMEOUT, self.head_timed_out)

        def stop_head_timer(self):
            if self.head_timer is not None:
                self.head_timer.cancel()
                self.head_timer = None

        def head_timed_out(self):
            self.head_timer = None
            waiting = self.cycle is None or self.cycle.response_complete  # no request being answered
            if self.cycle is self.head_cycle and waiting and not self.transport.is_closing():
                self.transport.close()

    return BoundedHttpToolsProtocol
