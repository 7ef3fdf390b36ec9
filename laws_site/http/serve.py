"""How `bridge-laws serve` runs the site: Datasette configured for the public site, made by an app
factory, served by uvicorn - its own worker processes, its own limits - with nothing of uvicorn's
or Datasette's replaced.

The factory `laws_site.http.serve:app` builds the site from the environment (BRIDGE_LAWS_DB, the
database; BRIDGE_LAWS_SETTINGS, a JSON object of Datasette settings over SETTINGS), so any ASGI
server or process manager runs the same site:

    BRIDGE_LAWS_DB=/srv/laws.db uvicorn --factory laws_site.http.serve:app --workers 4

`bridge-laws serve` is that command with the limits below. The pages, templates and static files
come with the installed plugin (entry point `datasette`). `metadata.yml` sits at the top of the
repository (Datasette's convention: `datasette laws.db -m metadata.yml` serves the same pages);
`laws_site/metadata.yml` is a symbolic link to it, so the wheel carries its content (package data)
for an installed `bridge-laws serve`. What the server bounds and what belongs to the proxy in
front: docs/deploy/README.md.
"""

from __future__ import annotations

import json
import os
import resource
import socket
from pathlib import Path

from ingest.build.db_target import DEFAULT_DB

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

DB_VARIABLE = "BRIDGE_LAWS_DB"
SETTINGS_VARIABLE = "BRIDGE_LAWS_SETTINGS"

# The HTTP server: uvicorn with h11, whose request parser bounds a request head
# (MAX_REQUEST_HEAD: the site's longest URL, asgi.MAX_TARGET, plus headers; httptools, ~9 % less
# CPU per answer, sets no bound at all). An idle keep-alive connection closes after KEEP_ALIVE
# seconds. No limit on connections at once: uvicorn's `limit_concurrency` answers 503 to requests
# on established connections when others merely hold sockets open (issue 38); how many sockets
# one address may hold, and how long a half-sent head may take, is the proxy's to bound.
MAX_REQUEST_HEAD = 80 * 1024
KEEP_ALIVE = 5
# seconds a stopping process waits for its answers in progress (a slow reader among them) before
# it cancels them and exits: a restart never waits on the slowest client
GRACEFUL_SHUTDOWN = 10
BACKLOG = 2048  # connections the kernel queues before a worker accepts them (uvicorn's default)
MAX_WORKERS = 16


def run(db_path: Path, host: str, port: int, workers: int = 1, settings: dict | None = None, access_log=False):
    """Serve the site with uvicorn until SIGTERM/SIGINT; `workers` processes share the port, and
    uvicorn's supervisor replaces one that dies."""
    import uvicorn

    os.environ[DB_VARIABLE] = str(db_path)
    os.environ[SETTINGS_VARIABLE] = json.dumps(settings or {})
    allow_many_connections()
    uvicorn.run(
        f"{__name__}:app",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        backlog=BACKLOG,
        http="h11",
        h11_max_incomplete_event_size=MAX_REQUEST_HEAD,
        timeout_keep_alive=KEEP_ALIVE,
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN,
        lifespan="on",
        log_level="info",
        access_log=access_log,
    )


def app():
    """The ASGI app factory: the site as configured by the environment (module docstring)."""
    datasette = datasette_for(Path(os.environ.get(DB_VARIABLE) or DEFAULT_DB), settings_from_environment())
    return site_app(datasette)


def settings_from_environment() -> dict:
    """BRIDGE_LAWS_SETTINGS as a dict of setting name -> value as text; ValueError says what is wrong."""
    text = os.environ.get(SETTINGS_VARIABLE) or "{}"
    try:
        settings = json.loads(text)
    except ValueError as error:
        raise ValueError(f"{SETTINGS_VARIABLE} is not JSON ({error}): {text[:200]!r}") from None
    if not isinstance(settings, dict) or not all(isinstance(v, (str, int)) for v in settings.values()):
        raise ValueError(
            f'{SETTINGS_VARIABLE} must be a JSON object of names and values, e.g. {{"sql_time_limit_ms": "3000"}}'
        )
    return {name: str(value) for name, value in settings.items()}


def datasette_for(db_path: Path, settings: dict | None = None):
    """Datasette as the public site runs it: the database immutable, the site's metadata, SETTINGS
    with `settings` (name -> value as typed on the command line) over them."""
    import yaml
    from datasette.app import Datasette

    chosen = {**SETTINGS, **(settings or {})}
    return Datasette(
        immutables=[str(db_path)],
        metadata=yaml.safe_load(METADATA.read_text(encoding="utf-8")),
        settings={name: setting_value(name, value) for name, value in chosen.items()},
    )


def site_app(datasette):
    """Datasette's app with the public site's layers around it: the site's HTTP rules (methods,
    bounds, CORS, ETag, safe Location: laws_site/http/asgi.py, installed today by the plugin's
    `asgi_wrapper` hook), the versioned static files' year-long lifetime, compression outermost."""
    from laws_site.http import compression, static_files

    return compression.wrap(static_files.wrap(datasette.app(), datasette.setting("base_url")))


def datasette_args(db_path: Path, host: str, port: int) -> list[str]:
    """The same site as plain `datasette serve` arguments (README's `datasette package` recipe)."""
    args = ["serve", "--immutable", str(db_path), "--host", host, "--port", str(port), "--metadata", str(METADATA)]
    for name, value in SETTINGS.items():
        args += ["--setting", name, value]
    return args


def setting_value(name: str, text: str):
    """A Datasette setting typed as Datasette's own `--setting` types it; ValueError names what is wrong."""
    from datasette.app import DEFAULT_SETTINGS

    if name not in DEFAULT_SETTINGS:
        raise ValueError(f"{name} is not a Datasette setting (`datasette --help-settings` lists them)")
    default = DEFAULT_SETTINGS[name]
    if isinstance(default, bool):
        if text.lower() not in BOOLEANS:
            raise ValueError(f"setting {name} is on or off, not {text!r}")
        return BOOLEANS[text.lower()]
    if isinstance(default, int):
        if not text.isdigit():
            raise ValueError(f"setting {name} is a whole number, not {text!r}")
        return int(text)
    return text


BOOLEANS = {"on": True, "true": True, "1": True, "off": False, "false": False, "0": False}


def allow_many_connections() -> None:
    """Every open connection holds a file descriptor: raise this process's soft limit to the hard
    one (inherited by the workers), so idle sockets exhaust the proxy's per-address bound, not the
    descriptors that pages and database reads need."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard != resource.RLIM_INFINITY:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def bound(host: str, port: int) -> socket.socket:
    """A TCP socket bound to host:port as uvicorn binds its own (socket.gaierror for an unknown host,
    OSError for a port in use)."""
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError:
        sock.close()
        raise
    return sock
