"""The site under a path prefix (Datasette's `base_url`, laws_site/http/base_path.py): every link,
redirect, the manifest, the service worker's scope and the language switcher stay under it."""

from __future__ import annotations

import asyncio
import re

import pytest
import yaml

from laws_site.http.serve import METADATA, SETTINGS
from tests.conftest import typed_setting

BASE = "/bridge/"


@pytest.fixture(scope="module")
def prefixed(laws_db_path):
    from datasette.app import DEFAULT_SETTINGS, Datasette

    settings = {name: typed_setting(name, value, DEFAULT_SETTINGS) for name, value in SETTINGS.items()}
    ds = Datasette(
        immutables=[str(laws_db_path)],
        metadata=yaml.safe_load(METADATA.read_text(encoding="utf-8")),
        settings={**settings, "base_url": BASE},
    )
    asyncio.run(ds.invoke_startup())
    return ds


def get(ds, path: str, **headers):
    """`path` as the proxy forwards it, under the prefix (ds.client puts base_url in front)."""
    return asyncio.run(ds.client.get(path, headers=headers or None))


def site_links(page: str) -> list[str]:
    return [
        link
        for link in re.findall(r'\s(?:href|src|action|data-root)="(/[^"]*)"', page)
        if not link.startswith(("//", "/\\"))
    ]


@pytest.mark.parametrize(
    "path",
    [
        "/laws-2017-ja/61B",
        "/en/laws-2017-ja/def:ダミー",
        "/zh/laws-2017-ja/-/index?row=ら",
        "/-/diff?ref=61&from=revoke-notes-ja&to=laws-2017-ja",
        "/-/history/61",
        "/-/search?q=リボーク",
        "/laws",
    ],
)
def test_every_link_of_a_page_stays_under_the_prefix(prefixed, path):
    response = get(prefixed, path)
    assert response.status_code == 200, (path, response.status_code)
    links = site_links(response.text)
    assert links and [link for link in links if not link.startswith(BASE)] == [], path
    assert not [link for link in links if link.startswith(BASE + BASE.strip("/") + "/")], "prefixed twice"


def test_references_breadcrumbs_and_the_switcher_keep_the_prefix(prefixed):
    page = get(prefixed, "/laws-2017-ja/61B").text
    assert 'href="/bridge/laws-2017-ja/61"' in page  # the breadcrumb to the law
    assert 'href="/bridge/en/laws-2017-ja/61B"' in page and 'href="/bridge/zh/laws-2017-ja/61B"' in page
    english = get(prefixed, "/en/laws-2017-ja/61B").text
    assert 'href="/bridge/en/laws-2017-ja/61"' in english and "/en/bridge/" not in english


def test_redirects_stay_under_the_prefix(prefixed):
    cited = get(prefixed, "/-/search?q=64A1")
    assert cited.status_code == 302 and cited.headers["location"].startswith("/bridge/laws-2017-ja/64A1")
    chosen = get(prefixed, "/ja/laws-2017-ja/61")
    assert chosen.status_code == 302 and chosen.headers["location"] == "/bridge/laws-2017-ja/61"
    english = get(prefixed, "/en/-/search?q=64A1")
    assert english.headers["location"].startswith("/bridge/en/laws-2017-ja/64A1")


def test_the_manifest_and_the_service_worker_are_scoped_to_the_prefix(prefixed):
    manifest = get(prefixed, "/-/offline/manifest.webmanifest").json()
    assert manifest["start_url"] == BASE and manifest["scope"] == BASE
    assert all(icon["src"].startswith(BASE + "-/static-plugins/") for icon in manifest["icons"])
    worker = get(prefixed, "/sw.js")
    assert worker.status_code == 200 and worker.headers["service-worker-allowed"] == BASE
    page = get(prefixed, "/").text
    assert f'data-root="{BASE}"' in page and f'href="{BASE}-/offline/manifest.webmanifest"' in page


def test_a_base_url_that_names_a_database_is_refused(laws_db_path):
    from datasette.app import Datasette

    with pytest.raises(ValueError, match="also the name of a database"):
        Datasette(immutables=[str(laws_db_path)], settings={"base_url": "/laws/"}).app()


@pytest.mark.parametrize("base", ["/a b/", '/a"b/', "/a%20b/", "/../", "/x/./", "/日本/"])
def test_a_base_url_that_is_no_plain_path_is_refused(laws_db_path, base):
    """Every link is written under base_url as it is: a space, a quote or a percent sign there would break
    them (an export under `--base-url 'a b'` was written without a word)."""
    from datasette.app import Datasette

    with pytest.raises(ValueError, match="is not a path of letters, digits"):
        Datasette(immutables=[str(laws_db_path)], settings={"base_url": base}).app()


@pytest.mark.parametrize("base", ["/bridge/", "/bridge-laws/v2.1/", "/a_b~c/"])
def test_a_plain_base_url_is_accepted(laws_db_path, base):
    from datasette.app import Datasette

    assert Datasette(immutables=[str(laws_db_path)], settings={"base_url": base}).app()


def test_a_site_at_the_root_in_the_same_process_keeps_its_own_links(prefixed, laws_db_path):
    """Pages are kept in memory once made (http/responses.py made_once): a page made under the prefix
    is not the answer of another Datasette in the same process serving at the root."""
    from datasette.app import Datasette

    under = site_links(get(prefixed, "/en/laws-2017-ja/61").text)
    assert under and all(link.startswith(BASE.rstrip("/")) for link in under)
    root = Datasette(immutables=[str(laws_db_path)])
    links = site_links(get(root, "/en/laws-2017-ja/61").text)
    assert links and not any(link.startswith(BASE) for link in links)


@pytest.mark.parametrize(
    "path, status",
    [
        ("/ja//evil.example", 404),
        ("/ja/%5Cevil.example", 404),
        ("/zh/%2F%2Fevil.example", 404),
        ("/en/%2fevil.example", 404),
        ("/%5Cevil.example", 404),
        ("/ja/%09/evil.example", 400),
        ("/ja/%0d%0aX:1", 400),
        ("/ja/%00", 400),
    ],
)
def test_under_the_prefix_a_path_that_could_leave_the_site_is_refused_as_at_the_root(prefixed, path, status):
    """Issue 38 item 1: Datasette's own tilde redirect answered `/bridge/ja/%5Cevil.example` with a 302
    (to `/bridge/ja/~5Cevil~2Eexample`) where the root answers 404: the prefix hid the path's start."""
    response = get(prefixed, path)
    assert (response.status_code, response.headers.get("location")) == (status, None), path
    assert "evil" not in response.text
