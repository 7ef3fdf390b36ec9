"""The pocket app: the service worker, the web app manifest, the offline packs and the offline page.

- /sw.js : the service worker (static/sw.js with this build's id written in), served from the root
  so that its scope is the whole site; `Cache-Control: no-cache` so that a rebuilt site is noticed
  on the next online visit (the browser compares the script byte for byte: a new build id is a new
  worker, which fetches the new pack and removes the old one).
- /-/offline/manifest.webmanifest : name, icons, start URL, colours ("add to home screen").
- /-/offline/pages.json?build=ID and /-/offline/search.json?build=ID : the packs of this build
  (laws_site/offline_pack.py), gzip-compressed on the wire when the browser accepts it; another
  build's id is a 404 that says which build is served (a worker left from an earlier build).
- /-/offline/page : the page the worker answers with offline for search (offline-search.js runs
  the query in the browser) and for what cannot work offline (SQL, Datasette's tables); online it
  describes the offline copy.
"""
from __future__ import annotations

import json
from importlib import resources

from datasette.utils.asgi import Response

from ..offline_pack import PackError, build_id, offline_pack
from ..responses import error_response, html_page, json_error, read

STATIC = resources.files("laws_site") / "static"
IMMUTABLE = "public, max-age=31536000, immutable"
THEME_COLOR = "#1d4d3a"


async def service_worker(datasette, request):
    info = await read(datasette, _build_info)
    script = (STATIC / "sw.js").read_text(encoding="utf-8")
    script = script.replace('"__BUILD__"', json.dumps(info.get("build_id", ""))).replace(
        '"__BUILT_AT__"', json.dumps(info.get("built_at", "")))
    return Response(script, content_type="application/javascript; charset=utf-8",
                    headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"})


def _build_info(conn) -> dict:
    try:
        return dict(conn.execute("select key, value from build_info").fetchall())
    except Exception:  # noqa: BLE001 - a database without the table: no build id, no offline copy
        return {}


async def manifest(datasette, request):
    title = datasette.metadata("title") or "Laws of Duplicate Bridge"
    body = {
        "name": title, "short_name": "Bridge Laws", "lang": "ja",
        "description": "The Laws of Duplicate Bridge (2017 ja, 1997 zh), commentaries and regulations, offline.",
        "start_url": "/", "scope": "/", "display": "standalone",
        "background_color": "#ffffff", "theme_color": THEME_COLOR,
        "icons": [{"src": f"/-/static-plugins/bridge-laws/icon-{size}.png", "sizes": f"{size}x{size}",
                   "type": "image/png", "purpose": "any"} for size in (192, 512)]
                 + [{"src": "/-/static-plugins/bridge-laws/icon-512.png", "sizes": "512x512",
                     "type": "image/png", "purpose": "maskable"}],
    }
    return Response(json.dumps(body, ensure_ascii=False), content_type="application/manifest+json; charset=utf-8")


async def pages_pack(datasette, request):
    return await _pack(datasette, request, "pages")


async def search_pack(datasette, request):
    return await _pack(datasette, request, "search")


async def _pack(datasette, request, which: str):
    asked = request.args.get("build", "")
    current = await build_id(datasette)
    if asked != current:
        return json_error(404, f"This site now serves build {current or '(none)'}, not {asked or '(none)'}: "
                               "reload the page to fetch the current offline copy.", build=current)
    try:
        pack = await offline_pack(datasette)
    except PackError as error:
        return json_error(503, str(error))
    body = pack.pages if which == "pages" else pack.search
    headers = {"Cache-Control": IMMUTABLE, "Vary": "Accept-Encoding", "X-Offline-Build": pack.build_id}
    if "gzip" in (request.headers.get("accept-encoding") or ""):
        headers["Content-Encoding"] = "gzip"
    else:
        import gzip

        body = gzip.decompress(body)
    return Response(body, content_type="application/json; charset=utf-8", headers=headers)


async def shell(datasette, request):
    """The offline page (see the module docstring); online, it describes the offline copy."""
    info = await read(datasette, _build_info)
    return await html_page(datasette, request, "offline.html", {"build_id": info.get("build_id", ""),
                                                                 "built_at": info.get("built_at", "")})


async def not_found(datasette, request):
    return await error_response(datasette, request, 404, "No such offline resource.")
