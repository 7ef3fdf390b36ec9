"""The pocket app's server side: the service worker, the manifest, the two offline packs and the
offline page, in-process (tests/test_offline_browser.py runs them in Chromium)."""
from __future__ import annotations

import asyncio
import gzip
import json
import sqlite3

import pytest

from laws_site import offline_search_data
from laws_site.offline_pack import page_key, unpack_page
from laws_site.units import permalink


def get(datasette, path, **headers):
    return asyncio.run(datasette.client.get(path, headers=headers or None))


@pytest.fixture(scope="module")
def build_id(laws_db_path):
    with sqlite3.connect(laws_db_path) as conn:
        return conn.execute("select value from build_info where key = 'build_id'").fetchone()[0]


@pytest.fixture(scope="module")
def pages_pack(datasette, build_id):
    response = get(datasette, f"/-/offline/pages.json?build={build_id}")
    assert response.status_code == 200, response.text[:300]
    return response.json()


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


def test_another_builds_pack_is_a_404_naming_the_build_served(datasette, build_id):
    response = get(datasette, "/-/offline/pages.json?build=0123")
    assert response.status_code == 404
    assert response.json()["build"] == build_id and "reload the page" in response.json()["error"]


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
    for key in ["/", "/laws-2017-ja/-/index", "/laws-2017-ja/-/index?row=ら", "/-/glossary", "/-/glossary/ダミー",
                "/-/citations", "/-/diff?ref=61&from=revoke-notes-ja&to=laws-2017-ja",
                "/-/diff/overview?from=laws-1997-zh&to=laws-2017-ja", "/-/offline/page"]:
        assert key in keys, key
    assert pages_pack["aliases"]["/laws-2017-ja/-/index?row=リ"] == "/laws-2017-ja/-/index?row=ら"
    # no search answers, no JSON, nothing of Datasette's own
    assert not [k for k in keys if k.startswith(("/-/search", "/laws/", "/-/databases")) or ".json" in k]


@pytest.mark.parametrize("path", ["/laws-2017-ja/61B2(a)", "/laws-2017-ja/def:ダミー", "/laws-2017-ja/-/index?row=ら",
                                  "/-/diff?ref=61&from=revoke-notes-ja&to=laws-2017-ja"])
def test_a_packed_page_is_the_page_the_server_sends(datasette, pages_pack, path):
    assert unpack_page(pages_pack, page_key(path)) == get(datasette, path).text


def test_the_packs_are_gzip_on_the_wire_and_cached_for_good(datasette, build_id, laws_db_path):
    async def raw(path):
        import httpx

        transport = httpx.ASGITransport(app=datasette.app())
        async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as client:
            async with client.stream("GET", path, headers={"accept-encoding": "gzip"}) as response:
                return response, b"".join([chunk async for chunk in response.aiter_raw()])
    response, body = asyncio.run(raw(f"/-/offline/search.json?build={build_id}"))
    assert response.headers["content-encoding"] == "gzip" and "immutable" in response.headers["cache-control"]
    search = json.loads(gzip.decompress(body))
    assert search["build"] == build_id
    for table in ("units", "fts", "snippets", "cited_by", "index_entries", "glossary", "vocabulary", "variants",
                  "branches", "lexicon", "t2s", "weights"):
        assert search[table], table
    with sqlite3.connect(laws_db_path) as conn:
        assert search["fts"]["rows"] == conn.execute("select count(*) from sections").fetchone()[0]
    assert search["lexicon"]["リボーク"][0] == "リボク" and search["lexicon"]["の"][1] == 1  # katakana folded as the index is; particles dropped
    assert search["t2s"]["罰"] == "罚"


@pytest.mark.parametrize("url, key", [
    ("/laws-2017-ja/def:%E3%83%80%E3%83%9F%E3%83%BC", "/laws-2017-ja/def:ダミー"),
    ("/laws-2017-ja/-/index?row=%E3%82%8A", "/laws-2017-ja/-/index?row=り"),
    ("/laws-2017-ja/64A1?from_search=64A1", "/laws-2017-ja/64A1"),
    ("/-/diff?ref=61&from=revoke-notes-ja&to=laws-2017-ja#row-3", "/-/diff?ref=61&from=revoke-notes-ja&to=laws-2017-ja"),
])
def test_page_key_spells_a_url_one_way(url, key):
    assert page_key(url) == key


def test_the_offline_page_describes_the_copy_online(datasette, build_id):
    response = get(datasette, "/-/offline/page")
    assert response.status_code == 200
    assert build_id[:8] in response.text
    assert 'id="offline-unavailable" hidden' in response.text and 'id="offline-search" hidden' in response.text
