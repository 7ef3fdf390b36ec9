"""`bridge-laws export DIR`: the site as static files (laws_site/offline/export.py). The rules each page
goes through here; the whole export served by `python -m http.server`, file by file here and in
Chromium at phone size in tests/test_export_browser.py (full tier)."""

from __future__ import annotations

import gzip
import html
import json
import re
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from urllib.parse import quote, unquote, urlsplit

import brotli
import pytest
from click.testing import CliRunner

from laws_site.cli import cli
from laws_site.offline import export as static_export
from laws_site.offline import make as offline_make
from laws_site.offline import pack_files as offline_pack_files
from laws_site.offline.pack import unpack_page

NOTE = "needs the server"
PAGE = (
    '<html><head><link rel="stylesheet" href="/-/static/app.css?d59929"></head><body>'
    '<a href="/laws-2017-ja/61">第61条</a> <a class="json" href="/laws-2017-ja/61.json">JSON</a> '
    '<a href="/laws">データ</a> <a href="/en/laws/sections?_search=x&amp;y=1">Table</a> '
    '<a href="https://www.worldbridge.org/">WBF</a> <a href="/-/api">API</a>'
    '<form action="/-/search"><img src="/-/static-plugins/bridge-laws/icon-192.png"></form></body></html>'
)


def test_links_to_json_sql_and_datasettes_pages_say_they_need_the_server():
    page = static_export.static_page(PAGE, "/", None, NOTE)
    assert '<a href="/laws-2017-ja/61">第61条</a>' in page and '<a href="/-/api">API</a>' in page
    assert '<span class="needs-server" title="needs the server">JSON</span>' in page
    assert '<span class="needs-server" title="needs the server">データ</span>' in page
    assert '<span class="needs-server" title="needs the server">Table</span>' in page
    assert '<a href="https://www.worldbridge.org/">WBF</a>' in page  # another site: untouched
    assert READY_MARK not in page


READY_MARK = "bridge-laws-reloaded"


def test_with_a_server_those_links_go_to_it():
    page = static_export.static_page(PAGE, "/", "https://laws.example.org/", NOTE)
    assert 'href="https://laws.example.org/laws-2017-ja/61.json">JSON</a>' in page
    assert 'href="https://laws.example.org/en/laws/sections?_search=x&amp;y=1">Table</a>' in page
    assert '<a href="/laws-2017-ja/61">第61条</a>' in page


def test_under_a_base_url_every_root_link_moves_under_it_and_a_page_with_a_query_waits_for_the_worker():
    page = static_export.static_page(PAGE, "/laws/", None, NOTE, ready=True)
    assert '<a href="/laws/laws-2017-ja/61">' in page and 'href="/laws/-/static/app.css?d59929"' in page
    assert 'action="/laws/-/search"' in page and 'src="/laws/-/static-plugins/bridge-laws/icon-192.png"' in page
    assert 'href="https://www.worldbridge.org/"' in page
    assert page.index(READY_MARK) < page.index("</head>")


@pytest.mark.parametrize(
    "path, file",
    [
        ("/", "index.html"),
        ("/en/", "en/index.html"),
        ("/laws-2017-ja/61B2(a)", "laws-2017-ja/61B2(a)/index.html"),
        ("/zh/laws-2017-ja/def:ダミー", "zh/laws-2017-ja/def:ダミー/index.html"),
        ("/laws-2017-ja/index:リボーク/質問", "laws-2017-ja/index:リボーク/質問/index.html"),
        ("/-/glossary/ダミー", "-/glossary/ダミー/index.html"),
    ],
)
def test_a_page_is_its_path_as_a_directory_with_an_index_file(tmp_path, path, file):
    static_export.write_page(tmp_path, path, "<p>x</p>")
    assert (tmp_path / file).read_text(encoding="utf-8") == "<p>x</p>"


def test_a_page_path_that_leaves_the_directory_is_refused(tmp_path):
    with pytest.raises(static_export.ExportError, match="not a file name"):
        static_export.write_page(tmp_path, "/laws-2017-ja/../../etc", "x")
    assert list(tmp_path.iterdir()) == []


def one_line_error(result) -> str:
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, result.output
    return errors[0]


def test_a_build_without_packs_cannot_be_exported(laws_db_path, tmp_path):
    db = tmp_path / "laws.db"
    shutil.copy(laws_db_path, db)
    line = one_line_error(CliRunner().invoke(cli, ["export", str(tmp_path / "site"), "--db", str(db)]))
    assert line == f"Error: {db} has no offline packs: run `bridge-laws pack --db {db}` (or build again)"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["laws.db"]


def test_a_directory_that_is_not_an_earlier_export_is_left_alone(laws_db_path, tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    line = one_line_error(CliRunner().invoke(cli, ["export", str(mine), "--db", str(laws_db_path)]))
    assert "is not an earlier export" in line and (mine / "notes.txt").read_text() == "keep me"


def test_a_server_that_is_not_a_url_is_one_line(laws_db_path, tmp_path):
    line = one_line_error(
        CliRunner().invoke(
            cli, ["export", str(tmp_path / "site"), "--db", str(laws_db_path), "--server", "laws.example"]
        )
    )
    assert line == "Error: --server 'laws.example' is not an http(s) URL"


def test_a_base_url_naming_the_database_is_one_line_before_anything_is_written(laws_db_path, tmp_path):
    """Was a traceback after the pages were rendered; --help's own example was /laws/, which this refuses."""
    argv = ["export", str(tmp_path / "site"), "--db", str(laws_db_path), "--base-url", "/laws/"]
    line = one_line_error(CliRunner().invoke(cli, argv))
    assert line == "Error: base_url /laws/ is also the name of a database: choose another path"
    assert not (tmp_path / "site").exists()
    assert "/laws/" not in CliRunner().invoke(cli, ["export", "--help"]).output


def test_a_base_url_that_is_no_plain_path_is_one_line(laws_db_path, tmp_path):
    argv = ["export", str(tmp_path / "site"), "--db", str(laws_db_path), "--base-url", "a b"]
    line = one_line_error(CliRunner().invoke(cli, argv))
    assert line == "Error: base_url /a b/ is not a path of letters, digits and . _ ~ - (e.g. /bridge/)"
    assert not (tmp_path / "site").exists()


# ---------------------------------------------------------------- the whole export, served by a static file server


SWITCHER = (
    '<nav class="ui-languages"><a class="ui-language" hreflang="ja" lang="ja" href="/ja/laws-2017-ja/64A1">日本語</a>'
    '<a class="ui-language" hreflang="zh-Hans" lang="zh-Hans" href="/zh/laws-2017-ja/64A1">中文</a></nav>'
    '<a href="/ja/">日本語</a> <a href="/ja?x=1">?</a> <a href="/jabber/x">not the prefix</a>'
)


def test_the_switch_to_japanese_goes_to_the_page_a_static_host_holds():
    """Online the link to Japanese goes through /ja/ (the server remembers the choice and redirects); a
    static host has no /ja/ pages: 404 until the worker was ready (QA, issue: defect-export-ja-switch)."""
    page = static_export.static_page(SWITCHER, "/", None, NOTE)
    assert 'hreflang="ja" lang="ja" href="/laws-2017-ja/64A1">日本語</a>' in page
    assert '<a href="/">日本語</a> <a href="/?x=1">?</a>' in page and "/abber" not in page
    assert 'href="/zh/laws-2017-ja/64A1"' in page
    assert 'href="/bridge/laws-2017-ja/64A1"' in static_export.static_page(SWITCHER, "/bridge/", None, NOTE)


HEAD = (
    '<head><link rel="alternate" type="application/json" href="/laws-2017-ja/64A1.json">'
    '<link rel="service-desc" type="application/vnd.oai.openapi+json" href="/-/openapi.json">'
    '<link rel="alternate" hreflang="en" href="/en/laws-2017-ja/64A1">'
    '<link rel="manifest" href="/-/offline/manifest.webmanifest"></head>'
)


def test_head_links_to_what_needs_the_server_go_to_it_or_are_left_out():
    """A static host answers the page's JSON and the API's description 404: a program following them got that."""
    page = static_export.static_page(HEAD, "/", None, NOTE)
    assert ".json" not in page and "service-desc" not in page
    assert '<link rel="alternate" hreflang="en" href="/en/laws-2017-ja/64A1">' in page
    assert '<link rel="manifest" href="/-/offline/manifest.webmanifest">' in page
    page = static_export.static_page(HEAD, "/", "https://laws.example.org/", NOTE)
    assert 'type="application/json" href="https://laws.example.org/laws-2017-ja/64A1.json">' in page
    assert 'href="https://laws.example.org/-/openapi.json">' in page


LANGUAGE_LINK = re.compile(r'<(?:a|link)\b[^>]*?\shreflang="[^"]*"[^>]*?\shref="([^"]*)"')


def test_the_search_page_made_of_the_offline_page_links_its_languages_to_the_search_page():
    shell = (
        '<link rel="alternate" hreflang="zh-Hans" href="/zh/-/offline/page"><nav class="ui-languages">'
        '<a class="ui-language" hreflang="ja" lang="ja" href="/ja/-/offline/page">日本語</a>'
        '<a class="ui-language" hreflang="en" lang="en" href="/en/-/offline/page">English</a></nav>'
        '<a href="/-/offline/page">about the offline copy</a>'
    )
    search = static_export.SHELL_LANGUAGE_LINK.sub(r"\1/-/search", shell)
    assert LANGUAGE_LINK.findall(search) == ["/zh/-/search", "/ja/-/search", "/en/-/search"]
    assert '<a href="/-/offline/page">about the offline copy</a>' in search  # not a language link: kept


@pytest.fixture(scope="module")
def exported(laws_db_path, tmp_path_factory):
    offline_make.add_packs(laws_db_path, jobs=2, log=lambda line: None)
    site = tmp_path_factory.mktemp("export") / "site"
    figures = static_export.export(laws_db_path, site, log=lambda line: None)
    return site, figures


@pytest.fixture(scope="module")
def static_host(exported):
    """`python -m http.server` over the export: what any static host does with the files."""
    from tests.live_server import free_port

    site, _ = exported
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(site)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(base + "/sw.js", timeout=5).close()
            break
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
    yield base
    server.kill()
    server.wait()


def fetch(url: str) -> tuple[int, dict, bytes]:
    """Status, headers (names in any case, as the static server writes them), body."""
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


@pytest.mark.slow
def test_every_packed_page_is_a_file_of_the_export(exported, laws_db_path):
    site, figures = exported
    build = figures["build"]
    for lang in ("ja", "zh", "en"):
        pack = json.loads(
            gzip.decompress(offline_pack_files.pack_file(laws_db_path, build, f"pages-{lang}").read_bytes())
        )
        prefix = "" if lang == "ja" else f"{lang}/"
        plain = [key for key in pack["pages"] if "?" not in key]
        missing = [key for key in plain if not (site / (prefix + key.strip("/")) / "index.html").is_file()]
        assert missing == [], (lang, missing[:5])
        assert (site / prefix / "-" / "search" / "index.html").is_file()
        page = (site / prefix / "laws-2017-ja" / "61B2(a)" / "index.html").read_text(encoding="utf-8")
        assert page == static_export.static_page(
            unpack_page(pack, "/laws-2017-ja/61B2(a)"),
            "/",
            None,
            static_export.i18n.translations(lang).gettext(static_export.NEEDS_SERVER),
        )
    assert (
        f'const BUILD = "{build}";' in (site / "sw.js").read_text()
        and "const STATIC_SITE = true;" in (site / "sw.js").read_text()
    )
    assert (site / static_export.MARKER).read_text().strip() == build


@pytest.mark.slow
@pytest.mark.parametrize(
    "path, title",
    [
        ("/laws-2017-ja/61B2(a)", "第61条B項2(a)"),
        ("/laws-2017-ja/" + quote("def:ダミー"), "ダミー"),
        ("/laws-2017-ja/" + quote("index:リボーク/質問"), "リボーク"),
        ("/en/laws-2017-ja/61", "Law 61"),
        ("/zh/-/glossary/" + quote("ダミー"), "ダミー"),
    ],
)
def test_a_static_file_server_serves_every_kind_of_page(static_host, path, title):
    status, headers, body = fetch(static_host + path)
    assert status == 200 and headers["Content-Type"].startswith("text/html"), (path, status)
    assert title in body.decode("utf-8"), path


@pytest.mark.slow
def test_the_packs_and_the_worker_are_served_as_the_worker_reads_them(static_host, exported):
    site, figures = exported
    status, headers, body = fetch(f"{static_host}/-/offline/{figures['build']}/search.json.br")
    assert status == 200 and "Content-Encoding" not in headers  # the worker inflates it (brotli-decode.js)
    assert json.loads(brotli.decompress(body))["build"] == figures["build"]
    status, headers, gzipped = fetch(f"{static_host}/-/offline/{figures['build']}/search.json.gz")
    assert status == 200 and gzip.decompress(gzipped) == brotli.decompress(body)  # for a client of gzip alone
    status, headers, decoder = fetch(static_host + "/-/static-plugins/bridge-laws/brotli-decode.js")
    assert status == 200 and b"var BrotliDecode=" in decoder
    status, headers, body = fetch(static_host + "/sw.js")
    assert status == 200 and "javascript" in headers["Content-Type"]
    status, headers, body = fetch(static_host + "/-/offline/manifest.webmanifest")
    assert status == 200 and json.loads(body)["start_url"] == "/"
    status, headers, body = fetch(static_host + "/laws-2017-ja/61.json")
    assert status == 404  # JSON stays with Datasette


@pytest.mark.slow
def test_the_hosts_404_page_says_not_in_this_copy(exported):
    """What static hosts answer for a path they lack (GitHub Pages, Netlify: 404.html) is the offline page;
    unmarked, its script said "Not available offline ... You are offline" to a reader online. Marked, the
    page says the copy's words (offline-search.js)."""
    site, _ = exported
    page = (site / "404.html").read_text(encoding="utf-8")
    assert page.count(static_export.NOT_IN_COPY) == 1
    assert 'data-online="このアドレスはこのサイトの写しにありません。' in page
    assert 'data-online="このサイトの写しにはありません"' in page


@pytest.mark.slow
def test_an_export_under_a_base_url_links_under_it(laws_db_path, exported, tmp_path):
    site = tmp_path / "site"
    static_export.export(laws_db_path, site, base_url="bridge", log=lambda line: None)
    page = (site / "laws-2017-ja" / "61" / "index.html").read_text(encoding="utf-8")
    assert 'href="/bridge/laws-2017-ja/62"' in page or 'href="/bridge/laws-2017-ja/' in page
    assert 'data-root="/bridge/"' in page and 'href="/bridge/-/offline/manifest.webmanifest"' in page
    manifest = json.loads((site / "-" / "offline" / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["start_url"] == "/bridge/" and manifest["icons"][0]["src"].startswith("/bridge/-/static-plugins/")
    # exported again over itself: replaced whole
    static_export.export(laws_db_path, site, log=lambda line: None)
    assert 'data-root="/"' in (site / "laws-2017-ja" / "61" / "index.html").read_text(encoding="utf-8")
    assert not list(tmp_path.glob(".site.*"))


# what a reader follows, a page loads or a program reads in its head: anchors, forms, scripts, images, links
LOADED_TAG = re.compile(r"<(a|form|img|script|link)\b[^>]*>", re.IGNORECASE)
SITE_URL = re.compile(r'\s(?:href|src|action)="(/(?![/\\])[^"]*)"')


def broken_links(site, page_path: str) -> list[str]:
    """The site's links on the exported page at page_path that a plain static server answers 404: the path
    of each must be a file of the export, or a directory with index.html (a query the page itself waits out)."""
    page = (site / page_path.strip("/") / "index.html").read_text(encoding="utf-8")
    broken = []
    for tag in LOADED_TAG.finditer(page):
        for href in SITE_URL.findall(tag.group(0)):
            path = unquote(urlsplit(html.unescape(href)).path).strip("/")
            found = site / path
            if not (found.is_file() or (found / "index.html").is_file()):
                broken.append(href)
    return broken


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["ja", "zh", "en"])
@pytest.mark.parametrize("page", ["/laws-2017-ja/64A1", "/-/guides/revoke", "/-/search", "/", "/-/api"])
def test_every_link_of_a_page_leads_to_a_file_of_the_export(exported, lang, page):
    site, _ = exported
    assert broken_links(site, static_export.i18n.localized(page, lang)) == []


@pytest.mark.slow
def test_the_language_links_of_the_search_page_lead_to_the_search_page(exported):
    site, _ = exported
    for lang in static_export.i18n.LANGUAGES:
        page = (site / static_export.i18n.localized("/-/search", lang).strip("/") / "index.html").read_text("utf-8")
        links = LANGUAGE_LINK.findall(page)
        assert len(links) == 5 and {static_export.i18n.split_prefix(link)[1] for link in links} == {"/-/search"}
