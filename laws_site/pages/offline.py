"""The pocket app: the service worker, the web app manifest, the offline packs and the offline page.

- /sw.js : the service worker (static/sw.js with this build's id written in), served from the root
  so that its scope is the whole site; `Cache-Control: no-cache` so that a rebuilt site is noticed
  on the next online visit (the browser compares the script byte for byte: a new build id is a new
  worker, which fetches the new pack and removes the old one).
- /-/offline/manifest.webmanifest : name, icons, start URL, colours ("add to home screen").
- /-/offline/pages.json?build=ID&lang=LANG and /-/offline/search.json?build=ID : the packs of this
  build, read from the files `bridge-laws pack` made (laws_site/offline/make.py), gzip-compressed
  on the wire when the browser accepts it. Another build's id is a 404 that says which build is
  served (a worker left from an earlier build); a pack not made yet is a 503 with Retry-After, and
  a `bridge-laws pack` is started in a child process if none is running (after a rebuild the
  server picked up): the server never renders the site inside a request.
- /-/offline/page : the page the worker answers with offline for search (offline-search.js runs
  the query in the browser) and for what cannot work offline (SQL, Datasette's tables); online it
  describes the offline copy.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import logging
import time
from importlib import resources
from pathlib import Path

from datasette.utils.asgi import Response

from laws_site.http.responses import error_response, html_page, json_error, laws_database, read
from laws_site.i18n import catalog as i18n
from laws_site.offline.make import pack_file, start_in_background
from laws_site.offline.pack import build_id

STATIC = resources.files("laws_site") / "static"
IMMUTABLE = "public, max-age=31536000, immutable"
THEME_COLOR = "#1d4d3a"


async def service_worker(datasette, request):
    info = await read(datasette, _build_info)
    script = (STATIC / "sw.js").read_text(encoding="utf-8")
    script = script.replace('"__BUILD__"', json.dumps(info.get("build_id", ""))).replace(
        '"__BUILT_AT__"', json.dumps(info.get("built_at", ""))
    )
    return Response(
        script,
        content_type="application/javascript; charset=utf-8",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )


def _build_info(conn) -> dict:
    try:
        return dict(conn.execute("select key, value from build_info").fetchall())
    except Exception:  # noqa: BLE001 - a database without the table: no build id, no offline copy
        return {}


async def manifest(datasette, request):
    title = datasette.metadata("title") or "Laws of Duplicate Bridge"
    body = {
        "name": title,
        "short_name": "Bridge Laws",
        "lang": "ja",
        "description": "The Laws of Duplicate Bridge (2017 ja, 1997 zh), commentaries and regulations, offline.",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": THEME_COLOR,
        "icons": [
            {
                "src": f"/-/static-plugins/bridge-laws/icon-{size}.png",
                "sizes": f"{size}x{size}",
                "type": "image/png",
                "purpose": "any",
            }
            for size in (192, 512)
        ]
        + [
            {
                "src": "/-/static-plugins/bridge-laws/icon-512.png",
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            }
        ],
    }
    return Response(json.dumps(body, ensure_ascii=False), content_type="application/manifest+json; charset=utf-8")


async def pages_pack(datasette, request):
    lang = request.args.get("lang", i18n.DEFAULT)
    if lang not in i18n.LANGUAGES:
        return json_error(400, f"Unknown interface language {lang!r}: choose one of {', '.join(i18n.LANGUAGES)}.")
    return await _pack(datasette, request, f"pages-{lang}")


async def search_pack(datasette, request):
    return await _pack(datasette, request, "search")


RETRY_AFTER_S = 5
RESTART_AFTER_FAILURE_S = 60
_makers: dict[str, tuple] = {}  # build -> (Popen, started at)
_files: dict[Path, tuple] = {}  # path -> ((mtime, size), bytes): the last few files served


async def _pack(datasette, request, name: str):
    asked = request.args.get("build", "")
    current = await build_id(datasette)
    if asked != current:
        return json_error(
            404,
            f"This site now serves build {current or '(none)'}, not {asked or '(none)'}: "
            "reload the page to fetch the current offline copy.",
            build=current,
        )
    db_path = Path(laws_database(datasette).path)
    body = await asyncio.to_thread(_read, pack_file(db_path, current, name))
    if body is None:
        problem = _making(db_path, current)
        response = json_error(
            503,
            problem or f"The offline copy of build {current[:8]} is being made; ask again in {RETRY_AFTER_S} s.",
            build=current,
        )
        response.headers["Retry-After"] = str(RETRY_AFTER_S)
        response.headers["Cache-Control"] = "no-store"
        return response
    headers = {"Cache-Control": IMMUTABLE, "Vary": "Accept-Encoding", "X-Offline-Build": current}
    if "gzip" in (request.headers.get("accept-encoding") or ""):
        headers["Content-Encoding"] = "gzip"
    else:
        body = await asyncio.to_thread(gzip.decompress, body)
    return Response(body, content_type="application/json; charset=utf-8", headers=headers)


def _read(path: Path) -> bytes | None:
    """The file's bytes (kept in memory while it is unchanged), None if it is not there."""
    try:
        stat = path.stat()
    except OSError:
        return None
    version = (stat.st_mtime_ns, stat.st_size)
    kept = _files.get(path)
    if kept and kept[0] == version:
        return kept[1]
    body = path.read_bytes()
    if len(_files) >= 8:
        _files.pop(next(iter(_files)))
    _files[path] = (version, body)
    return body


def _making(db_path: Path, build: str) -> str | None:
    """Start `bridge-laws pack` for this build unless one is running; a message if it failed."""
    maker = _makers.get(build)
    if maker is not None:
        process, started = maker
        status = process.poll()
        if status is None:
            return None
        if status != 0 and time.monotonic() - started < RESTART_AFTER_FAILURE_S:
            return (
                f"Making the offline copy of build {build[:8]} failed (see the server's log); it is tried again soon."
            )
    _makers.clear()  # one build at a time
    process = start_in_background(db_path)
    if process is not None:
        logging.getLogger(__name__).warning(
            "offline packs of build %s missing: making them (pid %d)", build[:8], process.pid
        )
        _makers[build] = (process, time.monotonic())
    return None


async def shell(datasette, request):
    """The offline page (see the module docstring); online, it describes the offline copy."""
    info = await read(datasette, _build_info)
    return await html_page(
        datasette, request, "offline.html", {"build_id": info.get("build_id", ""), "built_at": info.get("built_at", "")}
    )


async def not_found(datasette, request):
    return await error_response(datasette, request, 404, "No such offline resource.")
