"""The pocket app's server side: the service worker, the manifest, the offline packs (made by
`bridge-laws pack` into files, one pages pack per interface language and the search pack) and the
offline page, in-process (tests/test_offline_browser.py runs them in Chromium)."""

from __future__ import annotations

import asyncio
import gzip
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys

import brotli
import pytest

from laws_site.http.responses import PAGE_TEMPLATE as PAGE_TEMPLATE_KEY
from laws_site.offline import make as offline_make
from laws_site.offline import pack_files as offline_pack_files
from laws_site.offline import search_data as offline_search_data
from laws_site.offline.pack import page_key, unpack_page
from laws_site.read.units import permalink


def get(datasette, path, **headers):
    return asyncio.run(datasette.client.get(path, headers=headers or None))


@pytest.fixture(scope="module")
def build_id(laws_db_path):
    with sqlite3.connect(laws_db_path) as conn:
        return conn.execute("select value from build_info where key = 'build_id'").fetchone()[0]


@pytest.fixture(scope="module")
def packs_made(laws_db_path):
    """Every pack of the session database's build (`bridge-laws pack`: `build` makes them itself)."""
    return offline_make.add_packs(laws_db_path, jobs=2, log=lambda line: None)


@pytest.fixture(scope="module")
def packs(datasette, build_id, packs_made):
    """{lang: pages pack} as the server sends them."""
    found = {}
    for lang in ("ja", "zh", "en"):
        response = get(datasette, f"/-/offline/pages.json?build={build_id}&lang={lang}")
        assert response.status_code == 200, response.text[:300]
        found[lang] = response.json()
    return found


@pytest.fixture(scope="module")
def pages_pack(packs):
    return packs["ja"]


def test_the_service_worker_is_served_from_the_root_with_this_build_written_in(datasette, build_id):
    response = get(datasette, "/sw.js")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/javascript")
    assert response.headers["service-worker-allowed"] == "/"
    assert response.headers["cache-control"] == "no-cache"  # a rebuilt site is noticed on the next visit
    assert f'const BUILD = "{build_id}";' in response.text
    assert "__BUILD__" not in response.text and "etag" not in response.headers
    # the worker's caches are named after the pack format too: a changed pack is a new worker
    assert f"const FORMAT = {offline_search_data.FORMAT};" in response.text


def test_the_manifest_names_the_app_and_its_icons_are_served(datasette):
    response = get(datasette, "/-/offline/manifest.webmanifest")
    assert response.status_code == 200
    manifest = response.json()
    assert manifest["short_name"] == "Bridge Laws" and manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        image = get(datasette, icon["src"])
        assert image.status_code == 200 and image.content[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = int.from_bytes(image.content[16:20], "big"), int.from_bytes(image.content[20:24], "big")
        assert f"{width}x{height}" == icon["sizes"]


def test_every_page_links_the_manifest_and_the_registration_script(datasette):
    page = get(datasette, "/laws-2017-ja/61B").text
    assert '<link rel="manifest" href="/-/offline/manifest.webmanifest">' in page
    assert "/-/static-plugins/bridge-laws/offline.js" in page and 'data-ready="' in page


def test_the_pocket_apps_static_files_are_asked_for_at_their_current_version(datasette):
    """offline.js, offline.css, offline-search.js and the icons under versioned URLs, like site.css
    (laws_site/http/static_files.py: kept a year by the browser, a changed file is another URL)."""
    from laws_site.http.static_files import asset_version

    def versioned(name: str) -> str:
        return f"/-/static-plugins/bridge-laws/{name}?v={asset_version(name)}"

    unit = get(datasette, "/laws-2017-ja/61B").text
    assert f'src="{versioned("offline.js")}"' in unit and f'href="{versioned("icon-192.png")}"' in unit
    offline = get(datasette, "/-/offline/page").text
    assert f'href="{versioned("offline.css")}"' in offline
    icons = [icon["src"] for icon in get(datasette, "/-/offline/manifest.webmanifest").json()["icons"]]
    assert icons == [versioned("icon-192.png"), versioned("icon-512.png"), versioned("icon-512.png")]


def test_another_builds_pack_is_a_404_naming_the_build_served(datasette, build_id):
    response = get(datasette, "/-/offline/pages.json?build=0123")
    assert response.status_code == 404
    assert response.json()["build"] == build_id and "reload the page" in response.json()["error"]


@pytest.mark.slow
def test_the_pages_pack_holds_every_unit_page_and_every_reading_page(pages_pack, laws_db_path, build_id):
    assert pages_pack["build"] == build_id
    assert pages_pack["skipped"] == {}  # every link of the site answers
    keys = set(pages_pack["pages"])
    with sqlite3.connect(laws_db_path) as conn:
        units = conn.execute("select doc, ref from sections").fetchall()
        documents = [row[0] for row in conn.execute("select id from documents")]
    missing = [f"{doc}:{ref}" for doc, ref in units if page_key(permalink(doc, ref)) not in keys]
    assert missing == []
    assert {f"/{doc}" for doc in documents} <= keys
    for key in [
        "/",
        "/laws-2017-ja/-/index",
        "/laws-2017-ja/-/index?row=ら",
        "/-/glossary",
        "/-/glossary/ダミー",
        "/-/citations",
        "/-/diff?ref=61&from=revoke-notes-ja&to=laws-2017-ja",
        "/-/diff/overview?from=laws-1997-zh&to=laws-2017-ja",
        "/-/offline/page",
    ]:
        assert key in keys, key
    assert pages_pack["aliases"]["/laws-2017-ja/-/index?row=リ"] == "/laws-2017-ja/-/index?row=ら"
    # no search answers, no JSON, nothing of Datasette's own
    assert not [k for k in keys if k.startswith(("/-/search", "/laws/", "/-/databases")) or ".json" in k]


@pytest.mark.parametrize(
    "path",
    [
        "/laws-2017-ja/61B2(a)",
        "/laws-2017-ja/def:ダミー",
        "/laws-2017-ja/-/index?row=ら",
        "/-/diff?ref=61&from=revoke-notes-ja&to=laws-2017-ja",
    ],
)
@pytest.mark.slow
def test_a_packed_page_is_the_page_the_server_sends(datasette, pages_pack, path):
    assert unpack_page(pages_pack, page_key(path)) == get(datasette, path).text


@pytest.mark.parametrize(
    "lang, path",
    [
        ("en", "/laws-2017-ja/61B2(a)"),
        ("zh", "/laws-2017-ja/61B2(a)"),
        ("en", "/laws-1997-zh/def:藏牌"),
        ("zh", "/laws-2017-ja/-/index?row=ら"),
        ("en", "/-/glossary/ダミー"),
        ("zh", "/"),
        ("en", "/-/offline/page"),
    ],
)
@pytest.mark.slow
def test_a_packed_page_in_another_interface_language_is_the_page_the_server_sends(datasette, packs, lang, path):
    """Keyed without the prefix: /en/X is key X of the en pack, its chrome in English, its links in /en/."""
    served = get(datasette, f"/{lang}{path}").text
    assert unpack_page(packs[lang], page_key(f"/{lang}{path}")) == served
    assert f'<html lang="{"zh-Hans" if lang == "zh" else lang}"' in served


@pytest.mark.slow
def test_every_interface_language_packs_the_same_pages(packs):
    keys = set(packs["ja"]["pages"])
    for lang in ("zh", "en"):
        assert set(packs[lang]["pages"]) == keys, lang
        assert packs[lang]["lang"] == lang and packs[lang]["skipped"] == {}
        assert packs[lang]["aliases"] == packs["ja"]["aliases"]
    english = unpack_page(packs["en"], "/laws-2017-ja/61")
    assert 'href="/en/laws-2017-ja/44"' in english and 'href="/laws-2017-ja/44"' not in english
    assert 'href="/laws-2017-ja/44"' in unpack_page(packs["ja"], "/laws-2017-ja/61")


@pytest.mark.slow
def test_each_pages_pack_names_search_results_in_its_language(packs, datasette, build_id, laws_db_path):
    """What offline search shows for a result (offline_pack.result_labels): a label per unit in the
    search pack's order, the nearest title of a unit without one, the documents' short titles."""
    search = get(datasette, f"/-/offline/search.json?build={build_id}").json()
    place = {unit[1]: i for i, unit in enumerate(search["units"])}
    with sqlite3.connect(laws_db_path) as conn:
        assert len(search["units"]) == conn.execute("select count(*) from sections").fetchone()[0]
    expected = {
        "ja": ("第61条B項2(a)", "第61条の引用", "リボーク注釈"),
        "zh": ("第61条B款2(a)", "第61条（引文）", "藏牌注释"),
        "en": ("Law 61B2(a)", "Law 61 (as reprinted)", "Revoke notes"),
    }
    for lang, (law, reprint, commentary) in expected.items():
        named = packs[lang]["result_labels"]
        assert len(named["labels"]) == len(search["units"])
        assert named["labels"][place["laws-2017-ja:61B2(a)"]] == law
        assert named["labels"][place["revoke-notes-ja:quote:61"]] == reprint
        assert named["documents"]["revoke-notes-ja"] == commentary
        # 27B1(b) has no title of its own: its context is 27B1's
        assert named["contexts"][str(place["laws-2017-ja:27B1(b)"])] == "不十分なビッドが受け入れられなかった場合"
        assert str(place["laws-2017-ja:61"]) not in named["contexts"]  # a titled unit has none


@pytest.mark.slow
def test_the_packs_are_files_of_this_build_made_the_same_way_twice(laws_db_path, build_id, packs_made, tmp_path):
    """The same database gives the same bytes (gzip's mtime 0, a fixed order); made packs are kept."""
    # made by the fixture, or earlier in the session for the same build (then kept, not made again)
    assert {figures["name"] for figures in packs_made["packs"]} <= set(offline_pack_files.NAMES)
    for name in offline_pack_files.NAMES:
        made = offline_pack_files.pack_file(laws_db_path, build_id, name)
        assert json.loads(gzip.decompress(made.read_bytes()))["build"] == build_id, name
    assert offline_make.missing(laws_db_path, build_id) == []
    assert offline_make.add_packs(laws_db_path, log=lambda line: None)["packs"] == []  # files made are kept
    again = tmp_path / "again"
    offline_make.make_packs(laws_db_path, again, build_id, jobs=2, log=lambda line: None)
    for name in offline_pack_files.NAMES:
        made = offline_pack_files.pack_file(laws_db_path, build_id, name)
        assert (again / made.name).read_bytes() == made.read_bytes(), name


def test_a_build_without_packs_answers_404_saying_how_to_make_them(laws_db_path, tmp_path):
    """`build --no-offline`: the server says what to run, and makes nothing itself (serving never writes)."""
    copy = tmp_path / "laws.db"
    shutil.copy(laws_db_path, copy)
    datasette = offline_make.build_datasette(copy)
    asyncio.run(datasette.invoke_startup())
    with sqlite3.connect(copy) as conn:
        build = conn.execute("select value from build_info where key = 'build_id'").fetchone()[0]
    for path in (f"/-/offline/{build}/pages-ja.json.gz", f"/-/offline/search.json?build={build}"):
        response = get(datasette, path)
        assert response.status_code == 404 and "bridge-laws pack" in response.json()["error"], path
    assert sorted(p.name for p in tmp_path.iterdir()) == ["laws.db"]


def test_an_unknown_interface_language_is_a_400(datasette, build_id):
    response = get(datasette, f"/-/offline/pages.json?build={build_id}&lang=fr")
    assert response.status_code == 400 and "ja, zh, en" in response.json()["error"]


def test_the_pack_command_says_what_is_wrong_with_a_database_in_one_line(tmp_path):
    plain = tmp_path / "other.db"
    sqlite3.connect(plain).close()
    done = subprocess.run(
        [sys.executable, "-m", "laws_site.cli", "pack", "--db", str(plain)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": ""},
    )
    assert done.returncode == 2 and done.stderr.startswith("Error: ") and len(done.stderr.splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.db"]


async def raw(datasette, path, **headers):
    """The answer's headers and its bytes as they travel (not decoded)."""
    import httpx

    transport = httpx.ASGITransport(app=datasette.app())
    async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as client:
        async with client.stream("GET", path, headers=headers) as response:
            return response, b"".join([chunk async for chunk in response.aiter_raw()])


def vary_names(response) -> set[str]:
    return {name.strip() for name in response.headers.get("vary", "").split(",") if name.strip()}


@pytest.mark.slow
def test_the_packs_are_sent_as_stored_or_decompressed_and_cached_for_good(
    datasette, build_id, laws_db_path, packs_made
):
    stored = offline_pack_files.stored_forms(laws_db_path, build_id, "search")
    gzipped, smaller = stored["gzip"].read_bytes(), stored["br"].read_bytes()
    assert brotli.decompress(smaller) == gzip.decompress(gzipped) and len(smaller) < len(gzipped)
    for path in (f"/-/offline/{build_id}/search.json.gz", f"/-/offline/search.json?build={build_id}"):
        # a browser over HTTPS: the brotli file as stored; a client of gzip alone: the gzip file
        for accept, coding, body_stored in (("gzip, deflate, br", "br", smaller), ("gzip, br;q=0", "gzip", gzipped)):
            response, body = asyncio.run(raw(datasette, path, **{"accept-encoding": accept}))
            assert response.headers["content-encoding"] == coding and "immutable" in response.headers["cache-control"]
            assert body == body_stored and response.headers["content-length"] == str(len(body_stored)), path
            assert "Accept-Encoding" in vary_names(response), path
            assert response.headers["etag"] == f'"{build_id}-search-{coding}"'
            again, nothing = asyncio.run(
                raw(datasette, path, **{"accept-encoding": accept, "if-none-match": response.headers["etag"]})
            )
            assert again.status_code == 304 and nothing == b"", path
        plain, text = asyncio.run(raw(datasette, path, **{"accept-encoding": "identity"}))
        assert "content-encoding" not in plain.headers and "content-length" not in plain.headers  # chunked
        # Vary names the encoding (and Cookie, Authorization, as Datasette marks every anonymous answer)
        assert text == gzip.decompress(gzipped) and "Accept-Encoding" in vary_names(plain), path
        assert plain.headers["etag"] == f'"{build_id}-search-identity"'
    response, body = asyncio.run(
        raw(datasette, f"/-/offline/search.json?build={build_id}", **{"accept-encoding": "gzip"})
    )
    search = json.loads(gzip.decompress(body))
    assert search["build"] == build_id
    for table in (
        "units",
        "fts",
        "snippets",
        "cited_by",
        "index_entries",
        "glossary",
        "vocabulary",
        "variants",
        "lexicon",
        "t2s",
        "weights",
    ):
        assert search[table], table
    with sqlite3.connect(laws_db_path) as conn:
        assert search["fts"]["rows"] == conn.execute("select count(*) from sections").fetchone()[0]
    assert (
        search["lexicon"]["リボーク"][0] == "リボク" and search["lexicon"]["の"][1] == 1
    )  # katakana folded as the index is; particles dropped
    assert search["t2s"]["罰"] == "罚"


@pytest.mark.parametrize(
    "url, key",
    [
        ("/laws-2017-ja/def:%E3%83%80%E3%83%9F%E3%83%BC", "/laws-2017-ja/def:ダミー"),
        ("/laws-2017-ja/-/index?row=%E3%82%8A", "/laws-2017-ja/-/index?row=り"),
        ("/laws-2017-ja/64A1?from_search=64A1", "/laws-2017-ja/64A1"),
        (
            "/-/diff?ref=61&from=revoke-notes-ja&to=laws-2017-ja#row-3",
            "/-/diff?ref=61&from=revoke-notes-ja&to=laws-2017-ja",
        ),
        ("/en/laws-2017-ja/61B2(a)", "/laws-2017-ja/61B2(a)"),
        ("/zh/-/glossary/%E3%83%80%E3%83%9F%E3%83%BC", "/-/glossary/ダミー"),
        ("/zh/", "/"),
    ],
)
def test_page_key_spells_a_url_one_way(url, key):
    assert page_key(url) == key


def test_the_offline_page_describes_the_copy_online(datasette, build_id):
    response = get(datasette, "/-/offline/page")
    assert response.status_code == 200
    assert build_id[:8] in response.text
    assert 'id="offline-unavailable" hidden' in response.text and 'id="offline-search" hidden' in response.text


def test_the_offline_search_looks_as_the_search_page(datasette):
    """One definition of the search page's look: the offline page styles its results and filters with the
    search page's own rules (its copy once lacked the rule for "paired with"), folds the filters the same
    way and keeps the query in the header's box, not in a second one."""
    style = re.compile(r"<style>.*?\.search-results.*?</style>", re.S)
    online = style.findall(get(datasette, "/-/search?q=" + "リボーク").text)
    offline_page = get(datasette, "/-/offline/page").text
    assert len(online) == 1 and style.findall(offline_page) == online
    assert '<details class="search-filters">' in offline_page
    assert '<input type="search" name="q"' not in offline_page  # the header's box (site-search-q) only


# ---------------------------------------------------------------- a crawl sample: every kind of page, every language

CRAWL_SAMPLE = [
    "/",
    "/laws-2017-ja",
    "/laws-2017-ja/61B2(a)",
    "/laws-2017-ja/def:ダミー",
    "/laws-2017-ja/index:リボーク/質問",
    "/laws-1997-zh/6D3",
    "/revoke-notes-ja/L61B",
    "/jcbl-regs-ja/24-5-1",
    "/laws-2017-ja/-/index?row=ら",
    "/-/glossary/ダミー",
    "/-/diff?ref=61&from=revoke-notes-ja&to=laws-2017-ja",
    "/-/history/61",
    "/-/history",
    "/-/citations?from=13&to=12",
    "/-/guides",
    "/-/guides/revoke",
    "/-/glossary",
    "/-/offline/page",
]


@pytest.mark.parametrize("lang", ["ja", "zh", "en"])
def test_a_crawl_sample_packs_each_kind_of_page_as_the_server_sends_it(datasette, lang):
    """The whole crawl (every page, three languages) is the full tier's; a few pages of each kind here."""
    from laws_site.i18n.catalog import localized
    from laws_site.offline.pack import HREF_RE, crawl, crawlable, hrefs, pack_pages

    paths = [localized(path, lang) for path in CRAWL_SAMPLE]
    skipped = {}
    pages = asyncio.run(crawl(datasette.app(), paths, lang, skipped, follow=False))
    assert skipped == {} and sorted(pages) == sorted(page_key(path) for path in paths)
    pack = pack_pages(pages, "sample", skipped, lang)
    for path in paths:
        assert unpack_page(pack, page_key(path)) == get(datasette, path).text, path
    followed = {crawlable(raw, lang) for page in pages.values() for raw in hrefs(page)} - {None}
    assert all(hrefs(page) == HREF_RE.findall(page) for page in pages.values())
    prefix = "" if lang == "ja" else f"/{lang}/"
    assert followed and all(link.startswith(prefix or "/") for link, _ in followed)
    assert not [key for _, key in followed if key.startswith(("/-/search", "/laws/")) or ".json" in key]


@pytest.mark.parametrize(
    "prefix, words", [("", "HTTPS が必要です"), ("/zh", "需要 HTTPS"), ("/en", "An offline copy needs HTTPS")]
)
def test_every_page_says_in_its_language_that_an_offline_copy_needs_https(datasette, prefix, words):
    """Over plain http on a LAN the page says why nothing is saved (offline.js shows it when the
    origin is not secure), not that the browser cannot."""
    page = get(datasette, f"{prefix}/laws-2017-ja/61").text
    insecure = re.search(r'data-insecure="([^"]*)"', page).group(1)
    assert words in insecure and "{origin}" in insecure


def site_of(pages: dict):
    """An ASGI app answering {path: (status, text)}: a site for the crawl."""

    async def app(scope, receive, send):
        status, text = pages[scope["path"]]
        await send({"type": "http.response.start", "status": status, "headers": []})
        await send({"type": "http.response.body", "body": text.encode()})

    return app


@pytest.mark.parametrize(
    "page, found",
    [
        ('<a href="/a">a</a><link href="/b">', ["/a", "/b"]),
        ('href="/first" <x data-href="/c"> <x xhref="/no"> <x _href="/no"> <x 名href="/no">', ["/first", "/c"]),
        ('<a href="">', [""]),
    ],
)
def test_hrefs_finds_what_the_href_pattern_finds(page, found):
    from laws_site.offline.pack import HREF_RE, hrefs

    assert hrefs(page) == HREF_RE.findall(page) == found


def test_a_page_that_fails_while_crawled_stops_the_pack_instead_of_leaving_it_out():
    """A 500 (a time limit hit on a loaded machine, a bug) is no page the pack may silently lack;
    a redirect or a 404 is only noted."""
    from laws_site.offline.pack import CrawlError, crawl

    pages = {  # one page links to a page that answers 500
        "/": (200, '<a href="/laws-2017-ja/61">61</a> <a href="/-/glossary">g</a>'),
        "/laws-2017-ja/61": (200, "<p>61</p>"),
        "/-/glossary": (500, "interrupted"),
    }
    with pytest.raises(CrawlError, match="/-/glossary answered 500: interrupted"):
        asyncio.run(crawl(site_of(pages), ["/"]))
    pages["/-/glossary"] = (302, "")
    skipped = {}
    assert sorted(asyncio.run(crawl(site_of(pages), ["/"], skipped=skipped))) == ["/", "/laws-2017-ja/61"]
    assert skipped == {"/-/glossary": 302}


# ---------------------------------------------------------------- the crawl's own way of asking (offline/in_process.py, responses.py)


def test_the_crawl_renders_pages_from_a_synchronous_copy_of_the_templates(datasette):
    """The crawl's request asks html_page for the synchronous overlay's template; the page is the
    server's, byte for byte (the sample above compares every kind of page in every language)."""
    from laws_site import compat
    from laws_site.http.responses import PAGE_TEMPLATE
    from laws_site.offline import in_process
    from laws_site.offline.pack import CRAWL_HEADERS
    from laws_site.offline.responses import SyncRendered, page_template

    asked = []

    def recording(datasette, name):
        asked.append(name)
        return page_template(datasette, name)

    scope = in_process.request_scope("/laws-2017-ja/61B2(a)", {})
    assert scope[PAGE_TEMPLATE] is page_template
    template = page_template(datasette, "unit.html")
    assert isinstance(template, SyncRendered) and not template.environment.is_async
    assert compat.jinja_environment(datasette).is_async  # the server's own environment is left as it is

    async def crawled():
        answer = await in_process.get(recording_app(datasette.app(), recording), "/laws-2017-ja/61B2(a)", CRAWL_HEADERS)
        return answer.text

    assert asyncio.run(crawled()) == get(datasette, "/laws-2017-ja/61B2(a)").text
    assert asked == ["unit.html"]


def test_the_crawls_requests_go_straight_to_their_view(datasette):
    """As an anonymous JSON request does (http/direct.py): Datasette's router, csrf and actor hooks
    change no byte of a page nobody is signed in to; a server's HTML request still goes through them."""
    from laws_site.http import direct
    from laws_site.offline import in_process
    from laws_site.pages import unit

    get(datasette, "/")  # started
    crawled = in_process.request_scope("/laws-2017-ja/61B2(a)", {})
    view, url_vars = direct.crawl_view(datasette, crawled)
    assert view.__wrapped__ is unit.view and url_vars == {"doc": "laws-2017-ja", "ref": "61B2(a)", "as_json": None}
    served = {k: v for k, v in crawled.items() if k not in ("csrftoken", PAGE_TEMPLATE_KEY)}
    assert direct.crawl_view(datasette, served) is None and direct.json_view(datasette, served) is None


def recording_app(app, page_template):
    """The site's app, with the crawl's scope entry for the page's template replaced."""
    from laws_site.http.responses import PAGE_TEMPLATE

    async def recorded(scope, receive, send):
        await app(dict(scope, **{PAGE_TEMPLATE: page_template}), receive, send)

    return recorded


def test_a_sync_template_awaits_what_the_context_holds_or_leaves_the_page_to_the_async_template():
    """Datasette's context holds async functions (menu_links); a sync template cannot await. One
    without arguments is awaited before rendering; a template calling one with arguments is
    rendered by the async environment's template, the same text."""
    import jinja2

    from laws_site.offline.responses import SyncRendered, sync_overlay

    source = {
        "menu.html": "{% for link in menu_links() %}<a>{{ link }}</a>{% endfor %}",
        "crumbs.html": "{% for item in crumb_items(request=1) %}<i>{{ item }}</i>{% endfor %}|{{ menu_links()|length }}",
    }
    served = jinja2.Environment(loader=jinja2.DictLoader(source), enable_async=True, autoescape=True)
    crawl = sync_overlay(served)

    async def menu_links():
        return ["a&b", "c"]

    async def crumb_items(request, table=None):
        return [request, table]

    context = {"menu_links": menu_links, "crumb_items": crumb_items}

    async def both(name):
        template = crawl.get_template(name)
        assert isinstance(template, SyncRendered)
        return await template.render_async(context), await served.get_template(name).render_async(context)

    assert asyncio.run(both("menu.html")) == ("<a>a&amp;b</a><a>c</a>",) * 2
    assert asyncio.run(both("crumbs.html")) == ("<i>1</i><i>None</i>|2",) * 2


def test_the_crawl_reads_on_the_event_loops_thread(laws_db_path):
    """No read thread for the crawl (Datasette's non-threaded mode): one hand-off less per read."""
    datasette = offline_make.build_datasette(laws_db_path, **offline_make.CRAWL_SETTINGS)
    assert datasette.executor is None and datasette.setting("sql_time_limit_ms") == offline_make.BUILD_TIME_LIMIT_MS


# issue 26's budget: what a reader in one interface language downloads, its pages pack and the search pack
READER_BUDGET_BYTES = 3_000_000


@pytest.mark.slow
def test_a_reader_downloads_at_most_three_megabytes(build_id, laws_db_path, packs_made):
    def sent(name: str) -> int:  # what the server sends a browser (it accepts brotli)
        return offline_pack_files.pack_file(laws_db_path, build_id, name, "br").stat().st_size

    for lang in ("ja", "zh", "en"):
        assert sent(f"pages-{lang}") + sent("search") <= READER_BUDGET_BYTES, lang
