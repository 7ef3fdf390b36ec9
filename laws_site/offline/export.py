"""`bridge-laws export DIR`: the whole site as static files, for any HTTPS static host or CDN.

Made from a build's outputs (the database and its offline packs), without rendering anything again:
every page of every interface language is a page of the packs (laws_site/offline/pack.py), written
as `<path>/index.html` (`/laws-2017-ja/61B2(a)` -> `laws-2017-ja/61B2(a)/index.html`,
`/en/laws-2017-ja/index:リボーク/質問` -> `en/laws-2017-ja/index:リボーク/質問/index.html`), which every
static host serves for the path (some after a redirect to `<path>/`); references such as `def:ダミー`
keep their characters in the file name, and hosts decode the percent-encoded request. Beside them:
Datasette's and the site's static files, the web app manifest, the packs under
`-/offline/<build>/`, and `sw.js` at the root, the service worker written for a static site: it
answers from the offline copy first, which alone holds what a static host cannot serve - pages
that differ by their query (the 索引's rows `?row=ら`, the diffs, the citation pairs) and search. Until
the copy is saved (the first visit), a page with a query shows its page without the query, and
search the offline page: both reload once the worker is ready (READY_SCRIPT).

JSON, SQL and Datasette's table pages stay with Datasette: a link to them goes to the server given
with `--server`, or, without one, is shown as text saying it needs the server. The site may live
under a path (`--base-url /laws/`, e.g. a GitHub Pages project site): links, the worker's scope and
the manifest follow it. The export is written beside DIR and renamed into place; a DIR that exists
must be an earlier export (its `.bridge-laws-export` file says so).
"""

from __future__ import annotations

import gzip
import html
import json
import os
import re
import shutil
import sqlite3
import tempfile
from importlib import resources
from pathlib import Path
from urllib.parse import unquote, urlsplit

from ingest.build.identity import read_build_id
from laws_site.i18n import catalog as i18n
from laws_site.offline.make import build_datasette
from laws_site.offline.pack import SHELL_PATH, unpack_page
from laws_site.offline.pack_files import NAMES, SUFFIXES, file_name, missing, pack_file

MARKER = ".bridge-laws-export"
# the offline page's "unavailable" part, and marked: this site has no such page (sw.js marks its 404s alike)
UNAVAILABLE = '<div id="offline-unavailable" hidden>'
NOT_IN_COPY = '<div id="offline-unavailable" hidden data-not-in-copy>'
NEEDS_SERVER = i18n.N_("JSON, SQL and Datasette's table pages need the server: this is a static copy of the site.")
ANCHOR = re.compile(r'<a\b[^>]*?\shref="(/(?!/)[^"]*)"[^>]*>(.*?)</a>', re.DOTALL)
# a link of the page's head to what needs the server: its JSON (rel="alternate"), the API's description
HEAD_LINK = re.compile(r'<link\b[^>]*?\shref="(/(?!/)[^"]*)"[^>]*>')
# the switcher's link to Japanese goes through /ja/ so the server remembers the choice (i18n/prefix.py); a static
# host has no such path and nothing to remember it in: the link goes to the page itself
DEFAULT_PREFIX = re.compile(rf'(\s(?:href|action)=")/{i18n.DEFAULT}(?:/|(?=["?#]))')
# a language link (the switch, hreflang) of the offline page to itself: the shell written as the search page
# links there, or the switch on /zh/-/search led to the page about the offline copy
SHELL_LANGUAGE_LINK = re.compile(
    rf'(<(?:a|link)\b[^>]*?\shreflang="[^"]*"[^>]*?\shref="(?:/(?:{"|".join(i18n.LANGUAGES)}))?){re.escape(SHELL_PATH)}(?=")'
)
# the rule of sw.js's rebased(): links, and the site's root that offline.js registers the worker at
ROOT_LINK = re.compile(r'(\s(?:href|src|action|data-root)=")/(?![/\\])')
# a page whose query the host cannot see, or search: reload once the service worker can answer it
READY_SCRIPT = (
    "<script>/* a static copy: this address is answered by the offline copy once it is saved */"
    '(function(){if(!navigator.serviceWorker)return;var k="bridge-laws-reloaded:"+location.href;'
    "if(sessionStorage.getItem(k))return;navigator.serviceWorker.ready.then(function(){"
    'function go(){sessionStorage.setItem(k,"1");location.reload()}'
    "if(navigator.serviceWorker.controller)go();"
    'else navigator.serviceWorker.addEventListener("controllerchange",go)})})();</script>'
)


class ExportError(RuntimeError):
    """The export cannot be made (no packs, a directory that is not an earlier export)."""


def export(db_path: Path, target: Path, base_url: str = "/", server: str | None = None, log=print) -> dict:
    """Write the static site of db_path's build into target; returns its figures."""
    db_path, target = Path(db_path), Path(target)
    base_url = "/" + base_url.strip("/") + "/" if base_url.strip("/") else "/"
    build = read_build_id(db_path)
    if not build:
        raise ExportError(f"{db_path} is not a database built by `bridge-laws build`")
    check_target(target)
    if missing(db_path, build):
        raise ExportError(f"{db_path} has no offline packs: run `bridge-laws pack --db {db_path}` (or build again)")
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent))
    try:
        pages = write_pages(db_path, build, staging, base_url, server)
        log(f"pages: {pages} files in {len(i18n.LANGUAGES)} interface languages")
        write_site_files(db_path, build, staging, base_url)
        (staging / MARKER).write_text(build + "\n", encoding="utf-8")
        replace(staging, target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    files = [p for p in target.rglob("*") if p.is_file()]
    return {"build": build, "pages": pages, "files": len(files), "bytes": sum(p.stat().st_size for p in files)}


def check_target(target: Path) -> None:
    if target.exists() and (not target.is_dir() or (any(target.iterdir()) and not (target / MARKER).is_file())):
        raise ExportError(f"{target} exists and is not an earlier export: choose an empty or new directory")


def replace(staging: Path, target: Path) -> None:
    """The new export in place of the old, by renames."""
    old = None
    if target.exists():
        old = target.with_name(f".{target.name}.old-{os.getpid()}")
        os.rename(target, old)
    os.rename(staging, target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


# ---------------------------------------------------------------- the pages


def write_pages(db_path: Path, build: str, root: Path, base_url: str, server: str | None) -> int:
    written = 0
    for lang in i18n.LANGUAGES:
        pack = json.loads(gzip.decompress(pack_file(db_path, build, f"pages-{lang}").read_bytes()))
        note = i18n.translations(lang).gettext(NEEDS_SERVER)
        keys = list(pack["pages"])
        queried = {key.split("?", 1)[0] for key in keys if "?" in key}
        shell = unpack_page(pack, SHELL_PATH)
        for key in keys:
            if "?" in key:
                continue  # the service worker answers it from the pack
            page = static_page(unpack_page(pack, key), base_url, server, note, ready=key in queried)
            write_page(root, i18n.localized(key, lang), page)
            written += 1
        search = static_page(SHELL_LANGUAGE_LINK.sub(r"\1/-/search", shell), base_url, server, note, ready=True)
        write_page(root, i18n.localized("/-/search", lang), search)
        if lang == i18n.DEFAULT:  # what static hosts answer for a path they do not have: not in this copy
            missing = static_page(shell, base_url, server, note).replace(UNAVAILABLE, NOT_IN_COPY, 1)
            (root / "404.html").write_text(missing, encoding="utf-8")
        written += 1
    return written


def static_page(page: str, base_url: str, server: str | None, note: str, ready: bool = False) -> str:
    """A page of the packs as the static site serves it: links to what needs the server marked or sent
    there (head links to it left out), links to /ja/ to the page without it, every root link under
    base_url, and READY_SCRIPT where the offline copy answers better."""
    page = ANCHOR.sub(lambda match: server_link(match, server, note), page)
    page = HEAD_LINK.sub(lambda match: server_head_link(match, server), page)
    page = DEFAULT_PREFIX.sub(r"\1/", page)
    if base_url != "/":
        page = ROOT_LINK.sub(lambda match: match.group(1) + base_url, page)
    if ready:
        page = page.replace("</head>", READY_SCRIPT + "</head>", 1)
    return page


def server_link(match: re.Match, server: str | None, note: str) -> str:
    """An anchor to JSON, SQL or Datasette's own pages: to the server, or text saying it needs one."""
    href = html.unescape(match.group(1))
    if not needs_server(href):
        return match.group(0)
    if server:
        return match.group(0).replace(f'href="{match.group(1)}"', f'href="{html.escape(server.rstrip("/") + href)}"', 1)
    return f'<span class="needs-server" title="{html.escape(note)}">{match.group(2)}</span>'


def server_head_link(match: re.Match, server: str | None) -> str:
    """A head link to what needs the server: to the server, or left out (a program following it would get a 404)."""
    if not needs_server(html.unescape(match.group(1))):
        return match.group(0)
    if server:
        return match.group(0).replace(
            f'href="{match.group(1)}"', f'href="{html.escape(server.rstrip("/"))}{match.group(1)}"', 1
        )
    return ""


def needs_server(href: str) -> bool:
    """JSON, SQL, Datasette's own pages (anything the site's routes do not answer), the server's pages."""
    from laws_site import routes

    path = i18n.split_prefix(unquote(urlsplit(href).path) or "/")[1]
    if path.startswith("/-/static") or path.startswith("/-/offline/"):
        return False
    return path.endswith(".json") or path.startswith(("/-/databases", "/-/threads")) or not routes.is_plugin_path(path)


def write_page(root: Path, path: str, page: str) -> None:
    """`/a/b` -> root/a/b/index.html (a path segment is a directory name as it is, `def:ダミー` too)."""
    parts = [part for part in path.split("/") if part]
    if any(part in (".", "..") for part in parts):
        raise ExportError(f"a page path that is not a file name: {path!r}")
    directory = root.joinpath(*parts)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "index.html").write_text(page, encoding="utf-8")


# ---------------------------------------------------------------- the rest of the site


def write_site_files(db_path: Path, build: str, root: Path, base_url: str) -> None:
    """The static files, the service worker, the manifest and the packs."""
    from datasette import app as datasette_app

    from laws_site import compat
    from laws_site.pages.offline import build_info, manifest_data, service_worker_script

    copy_tree(Path(str(resources.files("laws_site") / "static")), root / "-" / "static-plugins" / "bridge-laws")
    copy_tree(Path(datasette_app.__file__).parent / "static", root / "-" / "static")
    conn = sqlite3.connect(f"file:{db_path.resolve()}?mode=ro", uri=True)
    try:
        info = build_info(conn)
    finally:
        conn.close()
    (root / "sw.js").write_text(service_worker_script(info, static_site=True), encoding="utf-8")
    site = build_datasette(db_path, base_url)
    manifest = manifest_data(site, compat.instance_metadata_now(site, "title"))
    (root / "-" / "offline").mkdir(parents=True, exist_ok=True)
    (root / "-" / "offline" / "manifest.webmanifest").write_text(
        json.dumps(manifest, ensure_ascii=False), encoding="utf-8"
    )
    packs = root / "-" / "offline" / build
    packs.mkdir(parents=True)
    for name in NAMES:  # the worker fetches the brotli files; the gzip files for clients of gzip alone
        for coding in SUFFIXES:
            shutil.copyfile(pack_file(db_path, build, name, coding), packs / file_name(name, coding))


def copy_tree(source: Path, target: Path) -> None:
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__", "*.py"), dirs_exist_ok=True)
