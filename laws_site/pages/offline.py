"""The pocket app: the service worker, the web app manifest, the offline packs and the offline page.

- /sw.js : the service worker (static/sw.js with this build's id written in), served from the root
  so that its scope is the whole site; `Cache-Control: no-cache` so that a rebuilt site is noticed
  on the next online visit (the browser compares the script byte for byte: a new build id is a new
  worker, which fetches the new packs and removes the old ones).
- /-/offline/manifest.webmanifest : name, icons, start URL, colours ("add to home screen").
- /-/offline/<build>/<pack>.json.gz : the packs `bridge-laws build` made with the database
  (laws_site/offline/make.py; pack: search, pages-ja, pages-zh, pages-en), JSON sent as stored,
  brotli or gzip with its Content-Encoding, to a client that accepts one (a browser over HTTPS:
  brotli, 1.9 MB for a reader's two packs where gzip is 3.4 MB) and decompressed chunk by chunk to
  one that does not (laws_site/http/stored.py); cached for good (a new build is a new URL). The
  service worker asks for these (the name says .gz: the gzip file is the one the static export
  holds, laws_site/offline/export.py, and a static host sends it as it is).
  /-/offline/pages.json?build=ID&lang=LANG and /-/offline/search.json?build=ID answer the same.
  Another build's id is a 404 that says which build is served (a worker left from an earlier
  build); a build made without packs (`build --no-offline`) is a 404 saying how to make them.
  Serving never writes a file.
- /-/offline/page : the page the worker answers with offline for search (offline-search.js runs
  the query in the browser) and for what cannot work offline (SQL, Datasette's tables); online it
  describes the offline copy.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

from datasette.utils.asgi import Response

from laws_site import compat
from laws_site.http.responses import error_response, html_page, json_error, laws_database, read
from laws_site.http.static_files import asset_version
from laws_site.http.stored import encoded_answer
from laws_site.i18n import catalog as i18n
from laws_site.offline.pack_files import NAMES, current_build_id, missing, stored_forms
from laws_site.search.query import page_sentences

STATIC = resources.files("laws_site") / "static"
IMMUTABLE = "public, max-age=31536000, immutable"
THEME_COLOR = "#1d4d3a"


async def service_worker(datasette, request):
    info = await read(datasette, build_info)
    return Response(
        service_worker_script(info),
        content_type="application/javascript; charset=utf-8",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": datasette.urls.path("/")},
    )


def service_worker_script(info: dict, static_site: bool = False) -> str:
    """static/sw.js with the build written in; ``static_site``: for the static export, where the
    packs hold exactly what the host serves, and are the only source of pages with a query."""
    script = (STATIC / "sw.js").read_text(encoding="utf-8")
    return (
        script.replace('"__BUILD__"', json.dumps(info.get("build_id", "")))
        .replace('"__BUILT_AT__"', json.dumps(info.get("built_at", "")))
        .replace("const STATIC_SITE = false;", f"const STATIC_SITE = {json.dumps(static_site)};")
    )


def build_info(conn) -> dict:
    return dict(conn.execute("select key, value from build_info").fetchall())


async def manifest(datasette, request):
    title = await compat.instance_metadata(datasette, "title")
    return Response(
        json.dumps(manifest_data(datasette, title), ensure_ascii=False),
        content_type="application/manifest+json; charset=utf-8",
    )


def manifest_data(datasette, title: str | None = None) -> dict:
    """The web app manifest; `title` is the site's (metadata), read before by the caller."""
    path = datasette.urls.path

    def icon(name: str) -> str:  # versioned as the pages ask for static files (http/static_files.py)
        return f"{datasette.urls.static_plugins('bridge-laws', name)}?v={asset_version(name)}"

    return {
        "name": title or "Laws of Duplicate Bridge",
        "short_name": "Bridge Laws",
        "lang": "ja",
        "description": "The Laws of Duplicate Bridge (2017 ja, 1997 zh), commentaries and regulations, offline.",
        "start_url": path("/"),
        "scope": path("/"),
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": THEME_COLOR,
        "icons": [
            {
                "src": icon(f"icon-{size}.png"),
                "sizes": f"{size}x{size}",
                "type": "image/png",
                "purpose": "any",
            }
            for size in (192, 512)
        ]
        + [{"src": icon("icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "maskable"}],
    }


async def pack(datasette, request):
    """/-/offline/<build>/<name>.json.gz"""
    name = request.url_vars["name"]
    if name not in NAMES:
        return await not_found(datasette, request)
    return await _pack(datasette, request, request.url_vars["build"], name)


async def pages_pack(datasette, request):
    lang = request.args.get("lang", i18n.DEFAULT)
    if lang not in i18n.LANGUAGES:
        return json_error(400, f"Unknown interface language {lang!r}: choose one of {', '.join(i18n.LANGUAGES)}.")
    return await _pack(datasette, request, request.args.get("build", ""), f"pages-{lang}")


async def search_pack(datasette, request):
    return await _pack(datasette, request, request.args.get("build", ""), "search")


async def _pack(datasette, request, asked: str, name: str):
    current = await read(datasette, current_build_id)
    if asked != current:
        return json_error(
            404,
            f"This site now serves build {current or '(none)'}, not {asked or '(none)'}: "
            "reload the page to fetch the current offline copy.",
            build=current,
        )
    db_path = Path(laws_database(datasette).path)
    if name in missing(db_path, current):
        return json_error(
            404,
            f"The offline copy of build {current[:8]} was not made (the database was built with --no-offline): "
            "run `bridge-laws pack` on the server, or `bridge-laws build`.",
            build=current,
        )
    headers = {"Cache-Control": IMMUTABLE, "X-Offline-Build": current, "Access-Control-Allow-Origin": "*"}
    stored = stored_forms(db_path, current, name)
    return encoded_answer(request, stored, "application/json; charset=utf-8", f"{current}-{name}", headers)


async def shell(datasette, request):
    """The offline page (see the module docstring); online, it describes the offline copy."""
    info = await read(datasette, build_info)
    # what the offline search can say, in the page's language (static/offline-search.js fills the {slots})
    context = {"build_id": info.get("build_id", ""), "built_at": info.get("built_at", ""), "said": page_sentences()}
    return await html_page(datasette, request, "offline.html", context)


async def not_found(datasette, request):
    return await error_response(datasette, request, 404, "No such offline resource.")
